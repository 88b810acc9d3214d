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
"""Tests of frame_kinematics.bridge.model_core: parsing, placement and the immutable model core."""

from bridge_testing import ARM, FLOATING
from conftest import joint_xml, link_xml, random_configuration, urdf
from frame_kinematics.bridge import BridgeSettings, SettingError, ToolSetting, UserFrame
from frame_kinematics.bridge.model_core import ModelCore, parse_description, placed_model
from frame_kinematics.bridge.throttle import publish_interval_ns
from frame_kinematics.core.errors import (ConfigurationError, FrameKinematicsError,
                                          UnknownFrameError, URDFError)
from frame_kinematics.core.spatial import transform_from_xyz_rpy
import numpy as np
import pytest

MASSLESS = urdf(link_xml('base') + link_xml('tip')
                + joint_xml('j', 'revolute', 'base', 'tip'), 'massless')
#: Two floating joints: a skipped one below the root would hide a pose the CoM needs.
TWO_FLOATING = urdf('\n'.join([
    link_xml('world'), link_xml('base', 2.0), link_xml('box', 1.0),
    joint_xml('root_joint', 'floating', 'world', 'base'),
    joint_xml('box_joint', 'floating', 'base', 'box', '0 0 0.4'),
]), 'two_floating')


@pytest.fixture(scope='module', name='arm')
def arm_fixture():
    return parse_description(ARM)


@pytest.fixture(scope='module', name='floater')
def floater_fixture():
    return parse_description(FLOATING)


def core_of(model, **settings):
    return ModelCore(model, BridgeSettings(**settings).validated())


@pytest.mark.parametrize('text', ['', ' \n\t'])
def test_parse_description_refuses_an_empty_description(text):
    with pytest.raises(ConfigurationError, match='robot_description is empty'):
        parse_description(text)


@pytest.mark.parametrize('value, kind', [(None, 'NoneType'), (b'<robot/>', 'bytes'), (5, 'int')])
def test_parse_description_names_the_type_of_what_is_not_a_string(value, kind):
    with pytest.raises(ConfigurationError, match=f'must be a string of URDF XML, got {kind}'):
        parse_description(value)


def test_parse_description_refuses_malformed_xml_with_a_urdf_error():
    with pytest.raises(URDFError, match='malformed XML'):
        parse_description('<robot name="x"><link name="a"/><joint')


def test_parse_description_loads_on_numpy_whatever_the_default_backend(monkeypatch):
    monkeypatch.setenv('FRAME_KINEMATICS_BACKEND', 'numba')
    model = parse_description(ARM)
    assert model.backend == 'numpy' and model.name == 'fk_arm'


def test_placed_model_without_tools_or_world_is_the_model_itself(arm):
    settings = BridgeSettings(world_frame='elsewhere').validated()
    assert placed_model(arm, settings) is arm
    assert ModelCore(arm, settings).model is arm


def test_placed_model_hangs_the_tool_on_its_tip_and_the_root_in_the_world(arm):
    xyz, rpy, world_xyz, world_rpy = (0.0, 0.02, 0.1), (0.3, 0.0, 0.0), (1.0, 0.0, 0.5), (
        0.0, 0.0, 0.7)
    settings = BridgeSettings(tools=(ToolSetting('tool0', xyz, rpy, 'tcp'),), world_frame='map',
                              world_xyz=world_xyz, world_rpy=world_rpy).validated()
    placed = placed_model(arm, settings)
    assert placed is not arm and placed.root_link == 'map'
    assert set(placed.link_names) == set(arm.link_names) | {'tcp', 'map'}
    q = random_configuration(arm, np.random.default_rng(3))
    world_T_root = transform_from_xyz_rpy(np.array(world_xyz), np.array(world_rpy))
    tool0_T_tcp = transform_from_xyz_rpy(np.array(xyz), np.array(rpy))
    expected = world_T_root @ arm.forward_kinematics(q).transform('tool0') @ tool0_T_tcp
    np.testing.assert_allclose(placed.forward_kinematics(q).transform('tcp'), expected,
                               rtol=0, atol=1e-12)


def test_a_core_reuses_the_placed_model_it_is_given(arm):
    settings = BridgeSettings(tools=(ToolSetting('tool0'),)).validated()
    placed = placed_model(arm, settings)
    core = ModelCore(arm, settings, placed=placed)
    assert core.model is placed and core.urdf_model is arm
    assert 'tool0_tool' in core.model.link_names


@pytest.mark.parametrize('settings, error, fragment', [
    ({'user_frames': (UserFrame('cam', 'nowhere'),)}, UnknownFrameError, 'nowhere'),
    ({'user_frames': (UserFrame('tool0', 'flange'),)}, ConfigurationError, 'clashes'),
    ({'com_orientation': 'yaw', 'com_yaw_link': 'nowhere'}, UnknownFrameError, 'nowhere'),
    ({'tools': (ToolSetting('nowhere'),)}, UnknownFrameError, 'nowhere'),
    ({'tools': (ToolSetting('tool0', name='flange'),)}, URDFError, 'flange'),
    ({'world_frame': 'base_link', 'world_xyz': (0.0, 0.0, 1.0)}, SettingError,
     "world.frame 'base_link' is a link of the robot"),
    ({'com_frame': 'tool0'}, SettingError,
     r"com.frame 'tool0' is a link of the robot: .* \(set com.frame; robot_state_publisher"),
])
def test_settings_that_do_not_fit_the_model_are_refused(arm, settings, error, fragment):
    with pytest.raises(error, match=fragment) as caught:
        core_of(arm, **settings)
    assert isinstance(caught.value, FrameKinematicsError)


@pytest.mark.parametrize('floating_joints, reference', [('skip', 'base'), ('tf', 'world')])
def test_the_com_reference_is_the_child_of_a_skipped_floating_root(
        floater, floating_joints, reference):
    core = core_of(floater, floating_joints=floating_joints)
    assert core.reference == reference and core.com_note == ''


def test_a_fixed_base_robot_gives_its_com_in_the_root_link(arm):
    core = core_of(arm)
    assert core.reference == arm.root_link == 'base_link' and core.com_note == ''


@pytest.mark.parametrize('text, floating_joints, fragment', [
    (MASSLESS, 'skip', 'the robot has no mass'),
    (MASSLESS, 'tf', 'the robot has no mass'),
    (TWO_FLOATING, 'skip', 'floating joints other than one at its root'),
])
def test_a_com_the_node_cannot_know_is_explained_in_the_com_note(text, floating_joints,
                                                                 fragment):
    core = core_of(parse_description(text), floating_joints=floating_joints)
    assert fragment in core.com_note


def test_two_floating_joints_on_tf_leave_the_com_known():
    core = core_of(parse_description(TWO_FLOATING), floating_joints='tf')
    assert core.com_note == '' and core.reference == 'world'


@pytest.mark.parametrize('frequency, ignore_timestamp, interval', [
    (20.0, False, publish_interval_ns(20.0)),
    (333.0, False, publish_interval_ns(333.0)),
    (0.0, False, 0),  # every message not older than its joints' last, as robot_state_publisher
    (20.0, True, None),
    (0.0, True, None),
])
def test_the_throttle_interval_is_none_only_when_stamps_are_ignored(arm, frequency,
                                                                    ignore_timestamp, interval):
    core = core_of(arm, publish_frequency=frequency, ignore_timestamp=ignore_timestamp)
    assert core.interval_ns == interval


def test_the_initial_configuration_is_a_new_neutral_copy_each_time(arm):
    core = core_of(arm)
    q = core.initial_configuration()
    np.testing.assert_array_equal(q, arm.neutral_configuration())
    q[:] = 0.5
    np.testing.assert_array_equal(core.initial_configuration(), arm.neutral_configuration())


def test_skipped_floating_entries_count_as_received_before_any_message(floater):
    skipped = core_of(floater, floating_joints='skip').initial_received()
    names = floater.configuration_names
    assert [n for n, r in zip(names, skipped) if r] == [n for n in names if n != 'hip']
    assert not core_of(floater, floating_joints='tf').initial_received().any()


def test_baked_frames_are_awaited_until_each_has_its_placement(arm):
    settings = BridgeSettings(user_frames=(UserFrame('cam', 'tool0', baked=True),
                                           UserFrame('mark', 'base_link'))).validated()
    waiting = ModelCore(arm, settings)
    assert waiting.n_baked == 1 and waiting.needs_baking and waiting.baked == {}
    given = {'cam': np.eye(4)}
    placed = ModelCore(arm, settings, given)
    assert not placed.needs_baking
    given['other'] = np.eye(4)
    assert list(placed.baked) == ['cam']  # a copy: the caller's mapping does not reach in


@pytest.mark.parametrize('prefix, frame_id, bare', [
    ('r1/', 'r1/tool0', 'tool0'),
    ('r1/', 'tool0', 'tool0'),
    ('r1/', 'r1/r1/tool0', 'r1/tool0'),
    ('r1/', 'x/r1/tool0', 'x/r1/tool0'),
    ('', 'r1/tool0', 'r1/tool0'),
])
def test_strip_prefix_removes_one_leading_frame_prefix_only(arm, prefix, frame_id, bare):
    assert core_of(arm, frame_prefix=prefix).strip_prefix(frame_id) == bare


def test_make_tree_gives_a_new_tree_at_the_configuration_each_call(arm):
    core = core_of(arm)
    rng = np.random.default_rng(11)
    q, other = random_configuration(arm, rng), random_configuration(arm, rng)
    first, second = core.make_tree(q, complete=True), core.make_tree(q, complete=True)
    assert first is not second
    second.update(other)
    np.testing.assert_allclose(first.frame('tool0').root_T_frame,
                               arm.forward_kinematics(q).transform('tool0'), rtol=0, atol=1e-12)
    np.testing.assert_allclose(second.frame('tool0').root_T_frame,
                               arm.forward_kinematics(other).transform('tool0'), rtol=0,
                               atol=1e-12)


def test_carry_over_of_the_same_model_keeps_every_entry(floater):
    core = core_of(floater)
    new, old = core.carry_over(core_of(floater, floating_joints='tf'))
    np.testing.assert_array_equal(new, np.arange(floater.nq))
    np.testing.assert_array_equal(old, np.arange(floater.nq))


def test_carry_over_keeps_the_joints_that_keep_their_name_and_type(arm):
    changed = parse_description(
        ARM.replace('name="shoulder_pan_joint"', 'name="turret_joint"')
        .replace('<joint name="elbow_joint" type="revolute"', '<joint name="elbow_joint" '
                 'type="prismatic"'))
    new, old = core_of(changed).carry_over(core_of(arm))
    kept = [name for name in arm.configuration_names
            if name not in ('shoulder_pan_joint', 'elbow_joint')]
    assert [changed.configuration_names[i] for i in new] == kept
    assert [arm.configuration_names[i] for i in old] == kept
    assert new.dtype.kind == old.dtype.kind == 'i'


def test_carry_over_from_an_unrelated_model_keeps_nothing(arm, floater):
    new, old = core_of(floater).carry_over(core_of(arm))
    assert new.shape == old.shape == (0,)
