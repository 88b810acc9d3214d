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

from conftest import bundled, HostileName
from frame_kinematics import robots
from frame_kinematics.core import ConfigurationError, Robot, RobotModel, UnknownFrameError, \
    URDFError
import numpy as np
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


@pytest.fixture
def arm_model():
    """Load the bundled arm as data."""
    return RobotModel.from_urdf_file(robots.path('fk_arm'))


@pytest.mark.parametrize('value', [[0.5], np.array([0.5]), '0.5', True, None, float('nan'),
                                   1e308, complex(0.5, 0)])
def test_a_value_that_is_not_a_real_number_is_refused_by_name(arm_model, value):
    with pytest.raises(ConfigurationError, match="^value of 'elbow_joint' must be a finite real"):
        arm_model.configuration_from_dict({'elbow_joint': value})


@pytest.mark.parametrize('shape', [(2, 7), (0, 7), (1, 7)])
def test_a_base_that_is_not_one_configuration_is_refused(arm_model, shape):
    base = np.zeros(shape)
    with pytest.raises(ConfigurationError, match=r'^base must be one configuration of shape '
                       rf'\(7,\), got \({shape[0]}, 7\)'):
        arm_model.configuration_from_dict({'shoulder_lift_joint': 0.5}, base=base)
    assert not base.any()


def test_values_are_set_on_a_copy_of_one_base(arm_model):
    base = np.linspace(-0.5, 0.5, 7)
    q = arm_model.configuration_from_dict({'elbow_joint': np.float32(0.25), 'wrist_1_joint': 1},
                                          base=base)
    expected = base.copy()
    expected[arm_model.configuration_names.index('elbow_joint')] = 0.25
    expected[arm_model.configuration_names.index('wrist_1_joint')] = 1.0
    np.testing.assert_array_equal(q, expected)
    np.testing.assert_array_equal(base, np.linspace(-0.5, 0.5, 7))


def test_a_str_subclass_is_read_as_a_plain_str(arm_model):
    # its __hash__ and __eq__ (which fail here) are not called, as in a FrameTree
    assert arm_model.link_index(HostileName('tool0')) == arm_model.link_index('tool0')
    assert arm_model.joint(HostileName('elbow_joint')) is arm_model.joint('elbow_joint')
    assert arm_model.has_link(HostileName('tool0')) is True
    with pytest.raises(UnknownFrameError, match="^unknown link 'nope'"):
        arm_model.link_index(HostileName('nope'))
    with pytest.raises(UnknownFrameError, match="^unknown joint 'nope'"):
        arm_model.joint(HostileName('nope'))
    assert arm_model.has_link(HostileName('nope')) is False


class _NoHash:
    """A name that is not a str, whose hash fails with its own error."""

    def __hash__(self):
        raise RuntimeError('no hash')

    def __repr__(self):
        return '_NoHash()'


@pytest.mark.parametrize('name', [['tool0'], {'tool0': 1}, {'tool0'}, None, 3, b'tool0',
                                  _NoHash()])
def test_a_name_that_is_not_a_str_is_an_unknown_name(arm_model, name):
    # an unhashable name gives no TypeError, and no hash of a name that is no str is taken
    with pytest.raises(UnknownFrameError, match='^unknown link '):
        arm_model.link_index(name)
    with pytest.raises(UnknownFrameError, match='^unknown link '):
        arm_model.link(name)
    with pytest.raises(UnknownFrameError, match='^unknown joint '):
        arm_model.joint(name)
    assert arm_model.has_link(name) is False


def test_an_unknown_huge_name_gives_a_short_message(arm_model):
    with pytest.raises(UnknownFrameError) as caught:
        arm_model.link_index('x' * 10 ** 6)
    assert '(1000000 characters)' in str(caught.value) and len(str(caught.value)) < 400


@pytest.mark.parametrize('world_frame, message', [
    (None, 'must be a link name'), ([], 'must be a link name'), (0, 'must be a link name'),
    (float('nan'), 'must be a link name'), ('', 'must not be empty'),
    ('w' * 10 ** 6, 'is longer than 256 characters'), ('a\x00b', 'has characters no URDF'),
    ('a\x1bb', 'has characters no URDF')])
def test_a_world_frame_that_is_no_urdf_link_name_is_refused(world_frame, message):
    text = open(robots.path('fk_arm'), encoding='utf-8').read()
    for floating_base in (True, False):
        with pytest.raises(URDFError, match=f'^world_frame .*{message}') as caught:
            RobotModel.parse(text, floating_base=floating_base, world_frame=world_frame)
        assert len(str(caught.value)) < 200


@pytest.mark.parametrize('floating_base', [np.array([1, 0]), 1, None, 'yes'])
def test_floating_base_must_be_a_bool(floating_base):
    with pytest.raises(ConfigurationError, match='^floating_base must be True or False'):
        RobotModel.from_urdf_file(robots.path('fk_arm'), floating_base=floating_base)


def test_a_world_frame_str_subclass_is_taken_as_a_plain_name():
    model = RobotModel.from_urdf_file(robots.path('fk_arm'), floating_base=True,
                                      world_frame=HostileName('odom'))
    assert model.root_link == 'odom' and type(model.root_link) is str


def test_a_path_whose_fspath_fails_is_refused_by_name():
    class Path:

        def __fspath__(self):
            raise RuntimeError('boom')

    for load in (RobotModel.from_urdf_file, Robot.from_urdf_file):
        with pytest.raises(URDFError, match='^a URDF path must be str, bytes or os.PathLike'):
            load(Path())


@pytest.mark.parametrize('build', [RobotModel.from_urdf_file, Robot.from_urdf_file])
def test_a_file_that_is_not_a_robot_description_is_named(tmp_path, build):
    path = tmp_path / 'broken.urdf'
    path.write_text('<robot name="r"><link name="a"/><joint name="j" type="hinge"/></robot>')
    with pytest.raises(URDFError, match=f"^file '{path}': joint 'j': unknown joint type"):
        build(path)
    with pytest.raises(URDFError, match=f"^file '{path}': world_frame must not be empty"):
        build(path, floating_base=True, world_frame='')
    # a structural fault, found as the model is built, is named with its file too
    path.write_text('<robot name="r"><link name="a"/><joint name="j" type="fixed">'
                    '<parent link="a"/><child link="zz"/></joint></robot>')
    with pytest.raises(URDFError, match=f"^file '{path}': joint 'j': child link 'zz' does not"):
        build(path)
    path.write_text('<robot name="r"/>')
    with pytest.raises(URDFError, match=f"^file '{path}': the robot has no <link>$"):
        build(path)
