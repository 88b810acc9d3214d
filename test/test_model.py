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
"""The robot model is data: it imports no algorithm and no backend, and holds none."""

import ast
import os

from conftest import bundled
from frame_kinematics import robots
from frame_kinematics.core import Robot, RobotModel
import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       'frame_kinematics')
#: Modules of the core the model may not import, at module level or inside a function.
ALGORITHMS = ('kinematics', 'ik', 'accel', 'backend', 'robot', 'reach', 'bounded')


def _imported_modules(path):
    """Every module an AST's imports name, relative ones as ``core.<name>``."""
    with open(path, encoding='utf-8') as handle:
        tree = ast.parse(handle.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                base = 'core.' + base if base else 'core'
            found.add(base)
            found.update(f'{base}.{alias.name}' for alias in node.names)
    return found


def test_the_model_module_imports_no_algorithm_and_no_backend():
    imported = _imported_modules(os.path.join(PACKAGE, 'core', 'model.py'))
    for name in ALGORITHMS:
        assert not any(m == f'core.{name}' or m.startswith(f'core.{name}.') or
                       m.split('.')[-1] == name for m in imported), (name, sorted(imported))
    assert 'numba' not in imported


@pytest.mark.parametrize('attribute', ['backend', 'executor', 'accelerator', 'ik_solvers',
                                       'forward_kinematics', 'transform', 'jacobian',
                                       'center_of_mass', 'inverse_kinematics', 'workspace'])
def test_a_model_has_no_backend_and_no_algorithm(attribute):
    model = RobotModel.from_urdf_file(robots.path('fk_arm'))
    assert not hasattr(model, attribute)
    assert not hasattr(RobotModel, attribute)


def test_a_model_is_built_without_a_backend_argument():
    with pytest.raises(TypeError):
        RobotModel.from_urdf_file(robots.path('fk_arm'), backend='numpy')


def test_parse_gives_the_description_and_text_a_model_is_built_from():
    text = open(robots.path('fk_arm'), encoding='utf-8').read()
    description, urdf = RobotModel.parse(text, floating_base=True, world_frame='map')
    model = RobotModel(description, urdf)
    assert model.root_link == 'map' and model.urdf == text
    assert model.joint_names == bundled('fk_arm', floating_base=True,
                                        world_frame='map').joint_names


def test_a_model_and_a_robot_are_read_only():
    model = RobotModel.from_urdf_file(robots.path('fk_arm'))
    robot = Robot(model, backend='numpy')
    for owner in (model, robot):
        for name in ('name', 'kernel', 'backend', 'executor', 'ik_solvers'):
            with pytest.raises(AttributeError, match='read-only'):
                setattr(owner, name, None)
    assert not hasattr(model, 'backend')
