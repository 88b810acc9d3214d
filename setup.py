# Copyright 2026 The frame_kinematics Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

from glob import glob

from setuptools import find_packages, setup

package_name = 'frame_kinematics'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test', 'test.*']),
    package_data={package_name: ['robots/*.urdf']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        ('share/' + package_name + '/launch', glob('launch/*.launch.py')),
        ('share/' + package_name + '/config', glob('config/*.yaml')),
        ('share/' + package_name + '/rviz', glob('rviz/*.rviz')),
        ('share/' + package_name + '/urdf', glob('frame_kinematics/robots/*.urdf')),
    ],
    python_requires='>=3.10',
    install_requires=['numpy>=1.21'],
    extras_require={
        'fast': ['numba>=0.59'],
        'render': ['matplotlib'],
        'yaml': ['pyyaml'],
        'xacro': ['xacro'],
        'cluster': ['dask[distributed]>=2023.9'],
        'test': ['pytest', 'hypothesis', 'pin', 'example-robot-data', 'pybullet', 'matplotlib',
                 'pyyaml', 'numba>=0.59', 'xacro', 'dask[distributed]>=2023.9'],
        'bench': ['pin', 'example-robot-data', 'pybullet', 'ikpy', 'numba>=0.59'],
        'doc': ['sphinx'],
    },
    zip_safe=True,
    maintainer='frame_kinematics developers',
    maintainer_email='dev@frame-kinematics.invalid',
    description='A live, queryable reference-frame tree from a robot description.',
    license='Apache-2.0',
    entry_points={
        'console_scripts': [
            'frame-kinematics = frame_kinematics.command:main',
            'frame_kinematics_node = frame_kinematics.node:main',
            'demo_joint_states = frame_kinematics.demo_joint_states:main',
        ],
    },
)
