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
"""
Start the frame_kinematics node, optionally the demo joint-state source and RViz.

Arguments: ``urdf`` (robot description file, default: the bundled arm), ``demo`` (sweep
every joint, default true), ``rviz`` (default true), ``params_file`` (default:
``config/frame_kinematics.yaml``).
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def _nodes(context):
    """Create the nodes, with the URDF file read once and passed as a parameter."""
    share = get_package_share_directory('frame_kinematics')
    path = LaunchConfiguration('urdf').perform(context)
    with open(path, encoding='utf-8') as handle:
        description = {'robot_description': handle.read()}
    params_file = LaunchConfiguration('params_file').perform(context)
    return [
        Node(package='frame_kinematics', executable='frame_kinematics_node',
             name='frame_kinematics', output='screen',
             parameters=[params_file, description]),
        Node(package='frame_kinematics', executable='demo_joint_states',
             name='demo_joint_states', output='screen', parameters=[description],
             condition=IfCondition(LaunchConfiguration('demo'))),
        Node(package='rviz2', executable='rviz2', name='rviz2', output='log',
             arguments=['-d', os.path.join(share, 'rviz', 'frame_kinematics.rviz')],
             condition=IfCondition(LaunchConfiguration('rviz'))),
    ]


def generate_launch_description():
    """Launch description of the frame_kinematics node (see the module docstring)."""
    share = get_package_share_directory('frame_kinematics')
    return LaunchDescription([
        DeclareLaunchArgument('urdf', default_value=os.path.join(share, 'urdf', 'fk_arm.urdf'),
                              description='URDF file of the robot'),
        DeclareLaunchArgument('demo', default_value='true',
                              description='publish a demo joint-state sweep'),
        DeclareLaunchArgument('rviz', default_value='true', description='start RViz'),
        DeclareLaunchArgument('params_file',
                              default_value=os.path.join(share, 'config', 'frame_kinematics.yaml'),
                              description='parameters of the frame_kinematics node'),
        OpaqueFunction(function=_nodes),
    ])
