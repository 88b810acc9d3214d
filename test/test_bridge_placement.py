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
"""Tools and world placement in the node's ROS-free layer: parameters, TF, services, swaps."""

from bridge_testing import ARM, compose, SEC
from conftest import ListLogger, random_configuration
from frame_kinematics.bridge import (Bridge, BridgeSettings, JointStateInput, ParameterError,
                                     SettingError, settings_from_parameters, TOOL_DEFAULTS,
                                     ToolSetting, UserFrame)
from frame_kinematics.bridge.parameters import check_parameter, ParameterValues
from frame_kinematics.bridge.service_types import JacobianRequest
from frame_kinematics.bridge.services import get_jacobian
from frame_kinematics.core import Robot
from frame_kinematics.core.spatial import transform_from_xyz_rpy
import numpy as np
import pytest

TOOL_XYZ, TOOL_RPY = (0.0, 0.02, 0.12), (0.0, 0.3, 0.0)
WORLD_XYZ, WORLD_RPY = (1.0, 2.0, 0.5), (0.0, 0.0, 1.2)


@pytest.fixture(scope='module')
def arm():
    return Robot.from_urdf_string(ARM, backend='numpy')


def placed_bridge(**kwargs):
    logger = ListLogger()
    settings = BridgeSettings(tools=(ToolSetting('tool0', TOOL_XYZ, TOOL_RPY),
                                     ToolSetting('flange', name='flange_tcp')),
                              world_xyz=WORLD_XYZ, world_rpy=WORLD_RPY, **kwargs)
    return Bridge(ARM, settings, logger=logger), logger


def full_state(model, q, stamp=SEC):
    names = [j.name for j in model.actuated_joints]
    return JointStateInput(names, [q[model.joint(n).idx_q] for n in names], [], stamp)


def test_tf_shows_the_tools_and_the_world(arm):
    bridge, _ = placed_bridge()
    world_T_root = transform_from_xyz_rpy(np.array(WORLD_XYZ), np.array(WORLD_RPY))
    tool0_T_tool = transform_from_xyz_rpy(np.array(TOOL_XYZ), np.array(TOOL_RPY))
    assert bridge.model.root_link == 'world'
    static = bridge.initial_output(0).tf_static
    children = {t.child: t.parent for t in static}
    assert children['tool0_tool'] == 'tool0' and children['flange_tcp'] == 'flange'
    assert children[arm.root_link] == 'world'
    q = random_configuration(arm, np.random.default_rng(0))
    out = bridge.on_joint_state(full_state(arm, q), SEC)
    poses = compose(static + out.tf, 'world')
    np.testing.assert_allclose(poses['tool0_tool'],
                               world_T_root @ arm.transform(q, 'tool0') @ tool0_T_tool,
                               atol=1e-12)
    np.testing.assert_allclose(poses['flange_tcp'], world_T_root @ arm.transform(q, 'flange'),
                               atol=1e-12)
    # The CoM is given in the world.
    assert out.center_of_mass.frame_id == 'world'
    root_p_com = arm.center_of_mass(q)[1]
    np.testing.assert_allclose(out.center_of_mass.position,
                               world_T_root[:3, :3] @ root_p_com + world_T_root[:3, 3],
                               atol=1e-12)
    # The published description is the URDF as given.
    assert bridge.initial_output(0).robot_description == ARM


def test_services_see_the_tool_as_a_link(arm):
    bridge, _ = placed_bridge()
    q = random_configuration(arm, np.random.default_rng(1))
    bridge.on_joint_state(full_state(arm, q), SEC)
    response = get_jacobian(bridge.snapshot(), JacobianRequest('tool0_tool'))
    assert response.success, response.message
    rotate = np.kron(np.eye(2), transform_from_xyz_rpy(np.array(WORLD_XYZ),
                                                       np.array(WORLD_RPY))[:3, :3])
    np.testing.assert_allclose(response.jacobian.to_array(),
                               rotate @ arm.jacobian(q, 'tool0', point=TOOL_XYZ), atol=1e-12)


def test_without_tools_or_world_the_model_is_the_urdf_one(arm):
    bridge = Bridge(ARM, BridgeSettings(world_frame='elsewhere'))
    assert bridge.model.link_names == arm.link_names
    assert not BridgeSettings().places_world
    assert BridgeSettings(world_rpy=(0.0, 0.0, 0.1)).places_world


def test_parameters_make_tools_and_world():
    params = {'tools.tool0.xyz': [0, 0, 0.1], 'tools.flange.name': 'tcp',
              'tools.tool0.rpy': [0.1, 0, 0], 'world.xyz': [1, 0, 0], 'world.frame': 'map'}
    settings = settings_from_parameters(params)
    assert settings.tools == (ToolSetting('flange', name='tcp'),
                              ToolSetting('tool0', (0.0, 0.0, 0.1), (0.1, 0.0, 0.0)))
    assert settings.world_frame == 'map' and settings.world_xyz == (1.0, 0.0, 0.0)
    assert settings.places_world
    # Back and forth between settings and parameters.
    values = ParameterValues.from_settings(settings, '')
    assert values['tools.flange.name'] == 'tcp' and values['world.frame'] == 'map'
    assert values.settings()[0].validated() == settings
    assert set(TOOL_DEFAULTS) == {'xyz', 'rpy', 'name'}
    # A dotted tip name is the part before the last dot.
    assert settings_from_parameters({'tools.a.b.xyz': [0, 0, 1]}).tools[0].tip == 'a.b'


@pytest.mark.parametrize('name, value, fragment', [
    ('tools.tool0.xyz', [0, 0], 'list of 3 finite numbers'),
    ('tools.tool0.rpy', [0, 0, 1e7], 'magnitude at most 1e\\+06'),
    ('tools.tool0.rpy', [0, 0, float('nan')], 'finite'),
    ('tools.tool0.name', 3, 'must be a string'),
    ('tools.tool0.offset', [0, 0, 0], 'was not declared'),
    ('tools..xyz', [0, 0, 0], 'was not declared'),
    ('world.xyz', 'up', 'list of 3 finite numbers'),
    ('world.rpy', [True, 0, 0], 'list of 3 finite numbers'),
    ('world.frame', '', 'non-empty string'),
    ('world.frame', 'x' * 300, 'at most 256'),
])
def test_bad_tool_and_world_parameters_are_refused_by_name(name, value, fragment):
    with pytest.raises(ParameterError, match=fragment) as raised:
        check_parameter(name, value)
    assert name.split('.')[0] in str(raised.value) or 'declared' in fragment


@pytest.mark.parametrize('changes, fragment', [
    ({'tools': (ToolSetting('tool0'), ToolSetting('tool0', name='other'))},
     "tips must be unique: 'tool0'"),
    ({'tools': (ToolSetting('tool0', name='x'), ToolSetting('flange', name='x'))},
     "tool link names must be unique: 'x'"),
    ({'tools': (ToolSetting(''),)}, 'tool tip must be a non-empty string'),
    ({'tools': ('tool0',)}, 'ToolSetting items'),
    ({'tools': 'tool0'}, 'list of at most'),
    ({'world_xyz': (0.0, 0.0, np.inf)}, 'world_xyz'),
])
def test_bad_tool_settings_are_refused(changes, fragment):
    with pytest.raises(SettingError, match=fragment):
        BridgeSettings(**changes).validated()


@pytest.mark.parametrize('params, fragment', [
    ({'tools.nowhere.xyz': [0, 0, 1]}, "unknown link 'nowhere'"),
    ({'tools.tool0.name': 'flange'}, "cannot add link 'flange'"),
    ({'world.xyz': [0, 0, 1], 'world.frame': 'base_link'},
     "world.frame 'base_link' is a link of the robot"),
    ({'world.frame': 'base_link'}, "world.frame 'base_link' is a link of the robot"),
])
def test_tools_that_do_not_fit_the_model_change_nothing(params, fragment):
    bridge, logger = placed_bridge()
    before = bridge.model
    out = bridge.apply_parameters(params, 0)
    assert not out.accepted and fragment in out.reason
    assert bridge.model is before
    assert any(fragment in text for text in logger.texts('error'))


def test_tools_change_at_run_time_and_other_changes_keep_the_model(arm):
    bridge, _ = placed_bridge()
    q = random_configuration(arm, np.random.default_rng(2))
    bridge.on_joint_state(full_state(arm, q), SEC)
    model = bridge.model
    out = bridge.apply_parameters({'publish_frequency': 5.0}, 0)
    assert out.accepted and bridge.model is model
    out = bridge.apply_parameters({'tools.wrist_3_link.xyz': [0.0, 0.0, 0.3]}, 7)
    assert out.accepted and out.robot_description is None
    assert {t.child: t.parent for t in out.tf_static}['wrist_3_link_tool'] == 'wrist_3_link'
    assert bridge.model is not model and 'wrist_3_link_tool' in bridge.model.link_names
    np.testing.assert_array_equal(bridge.configuration, q)  # the layout did not change
    out = bridge.apply_parameters({'world.xyz': [0.0, 0.0, 0.0], 'world.rpy': [0, 0, 0]}, 8)
    assert out.accepted and bridge.model.root_link == arm.root_link
    # A new description is placed too.
    out = bridge.set_robot_description(ARM.replace('name="fk_arm"', 'name="fk_arm2"'), 9)
    assert out.accepted and bridge.model.name == 'fk_arm2'
    assert 'tool0_tool' in bridge.model.link_names


def test_baked_frames_keep_the_placed_model():
    bridge, _ = placed_bridge(user_frames=(UserFrame('drop', 'tool0_tool', baked=True),))
    model = bridge.model
    q = np.zeros(model.nq)
    out = bridge.on_joint_state(full_state(model, q), SEC)
    assert 'drop' in {t.child for t in out.tf_static}
    assert bridge.model is model
