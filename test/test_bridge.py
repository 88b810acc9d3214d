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
"""The ROS-free layer of the node: joint states, TF decisions, CoM, frames, settings, swaps."""

import math
import os

from conftest import (all_joint_types_model, joint_xml, link_xml, ListLogger, random_configuration,
                      real_robot_path, urdf)
from frame_kinematics import robots
from frame_kinematics.bridge import (Bridge, BridgeSettings, JointStateInput,
                                     PARAMETER_DEFAULTS, settings_from_parameters,
                                     ThrottledLog, UserFrame)
from frame_kinematics.core import FrameKinematicsError, Robot
from frame_kinematics.core.joints import JointType
from frame_kinematics.core.spatial import (inverse, rotation_from_quaternion,
                                           transform_from_xyz_quaternion,
                                           transform_from_xyz_rpy)
from hypothesis import given, settings as hsettings, strategies as st
import numpy as np
import pytest

ARM = open(robots.path('fk_arm')).read()
ARM_JOINTS = ('shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_joint', 'wrist_1_joint',
              'wrist_2_joint', 'wrist_3_joint', 'left_finger_joint')
SEC = 1_000_000_000
MS = 1_000_000


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def make(text=ARM, **kwargs):
    logger = ListLogger()
    clock = FakeClock()
    bridge = Bridge(text, BridgeSettings(**kwargs), logger=logger, clock=clock)
    return bridge, logger, clock


def js(names, positions, velocities=(), stamp=SEC):
    return JointStateInput(list(names), list(positions), list(velocities), stamp)


def full_state(bridge, q, stamp=SEC, velocities=()):
    """Build a message naming every one-dof actuated joint with the values of q."""
    names = [j.name for j in bridge.model.actuated_joints]
    return js(names, [q[bridge.model.joint(n).idx_q] for n in names], velocities, stamp)


def as_matrix(transform):
    return transform_from_xyz_quaternion(np.array(transform.translation),
                                         np.array(transform.rotation))


def compose(transforms, root):
    """root_T_frame of every frame of a set of TF transforms (a TF buffer, by hand)."""
    edges = {t.child: (t.parent, as_matrix(t)) for t in transforms}
    poses = {root: np.eye(4)}

    def pose(frame):
        if frame not in poses:
            parent, parent_T_frame = edges[frame]
            poses[frame] = pose(parent) @ parent_T_frame
        return poses[frame]

    for frame in edges:
        pose(frame)
    return poses


# -- joint states ------------------------------------------------------------------------------
def test_subset_publishes_only_named_joints_and_keeps_others():
    bridge, _, _ = make()
    out = bridge.on_joint_state(js(['elbow_joint'], [0.5]), SEC)
    assert out.accepted
    assert [(t.parent, t.child) for t in out.tf] == [('upper_arm_link', 'forearm_link')]
    out = bridge.on_joint_state(js(['wrist_1_joint'], [0.2], stamp=2 * SEC), 2 * SEC)
    assert [(t.parent, t.child) for t in out.tf] == [('forearm_link', 'wrist_1_link')]
    q = bridge.configuration
    assert q[bridge.model.joint('elbow_joint').idx_q] == 0.5
    assert q[bridge.model.joint('wrist_1_joint').idx_q] == 0.2
    assert q[bridge.model.joint('shoulder_pan_joint').idx_q] == 0.0


def test_unknown_names_are_ignored_with_a_throttled_warning():
    bridge, logger, clock = make()
    out = bridge.on_joint_state(js(['elbow_joint', 'ghost_joint', 'other'], [0.3, 1, 2]), SEC)
    assert out.accepted
    assert [t.child for t in out.tf] == ['forearm_link']
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.3
    warnings = [w for w in logger.texts() if 'does not have' in w]
    assert len(warnings) == 1 and 'ghost_joint' in warnings[0] and 'other' in warnings[0]
    bridge.on_joint_state(js(['ghost_joint'], [1]), SEC)
    assert len([w for w in logger.texts() if 'does not have' in w]) == 1
    clock.t += 10
    bridge.on_joint_state(js(['ghost_joint'], [1]), SEC)
    warnings = [w for w in logger.texts() if 'does not have' in w]
    assert len(warnings) == 2 and '1 similar message(s) suppressed' in warnings[1]


@pytest.mark.parametrize('message, fragment', [
    (js(['elbow_joint', 'wrist_1_joint'], [0.1]), '2 names and 1 positions'),
    (js(['elbow_joint'], [0.1, 0.2]), '1 names and 2 positions'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, 0.2], [1.0]), '1 velocities'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, float('nan')]), 'wrist_1_joint'),
    (js(['elbow_joint', 'wrist_1_joint'], [float('inf'), 0.2]), 'elbow_joint'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, 0.2], [0.0, float('nan')]), 'NaN'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, 1e300]), 'wrist_1_joint'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, 0.2], [-1e17, 0.0]), 'magnitude above 1e+16'),
    (js(['elbow_joint', 'elbow_joint'], [0.1, 0.2]), 'more than once'),
    (js(['elbow_joint'], ['abc']), 'not numbers'),
])
def test_bad_messages_are_rejected_whole_and_keep_the_last_good_state(message, fragment):
    bridge, logger, clock = make()
    bridge.on_joint_state(js(['elbow_joint', 'wrist_1_joint'], [0.7, 0.8]), SEC)
    before = bridge.configuration
    out = bridge.on_joint_state(message, 2 * SEC)
    assert not out.accepted and not out.tf and out.tf_static is None
    assert fragment in out.reason
    np.testing.assert_array_equal(bridge.configuration, before)
    assert any(fragment in w and 'keeping the last good state' in w for w in logger.texts())
    count = len(logger.texts())
    bridge.on_joint_state(message, 3 * SEC)
    assert len(logger.texts()) == count  # throttled


def test_mimic_follows_its_master():
    bridge, logger, _ = make()
    out = bridge.on_joint_state(js(['left_finger_joint'], [0.03]), SEC)
    children = {t.child: t for t in out.tf}
    assert set(children) == {'left_finger_link', 'right_finger_link'}
    # right finger: origin x -0.01, axis -x, multiplier 1 -> x = -0.01 - 0.03
    assert children['right_finger_link'].translation == pytest.approx((-0.04, 0.0, 0.04))
    assert children['left_finger_link'].translation == pytest.approx((0.04, 0.0, 0.04))


def test_mimic_named_alone_is_published_from_its_master_and_a_mismatch_is_logged():
    bridge, logger, _ = make()
    bridge.on_joint_state(js(['left_finger_joint'], [0.02]), SEC)
    out = bridge.on_joint_state(js(['right_finger_joint'], [0.035]), 2 * SEC)
    assert out.accepted
    assert [t.child for t in out.tf] == ['right_finger_link']
    assert out.tf[0].translation == pytest.approx((-0.03, 0.0, 0.04))
    assert any("mimic joint 'right_finger_joint'" in w for w in logger.texts())
    count = len(logger.texts())
    bridge.on_joint_state(js(['right_finger_joint'], [0.02]), 3 * SEC)
    assert len(logger.texts()) == count  # a consistent value is fine


def test_fixed_joint_named_in_a_message_is_ignored_with_a_warning():
    bridge, logger, _ = make()
    out = bridge.on_joint_state(js(['tool0_fixed_joint', 'elbow_joint'], [1.0, 0.1]), SEC)
    assert [t.child for t in out.tf] == ['forearm_link']
    assert any("fixed joint 'tool0_fixed_joint'" in w for w in logger.texts())


def test_velocities_feed_the_center_of_mass_velocity():
    bridge, _, _ = make()
    rng = np.random.default_rng(3)
    q = random_configuration(bridge.model, rng)
    v = rng.normal(size=bridge.model.nv)
    out = bridge.on_joint_state(full_state(bridge, q, velocities=v), SEC)
    state = bridge.model.forward_kinematics(q, v)
    com = out.center_of_mass
    np.testing.assert_allclose(com.position, state.center_of_mass(), atol=1e-12)
    np.testing.assert_allclose(com.velocity, state.center_of_mass_velocity(), atol=1e-12)
    np.testing.assert_allclose(com.angular_momentum, state.angular_momentum(), atol=1e-12)
    # a message without velocities makes those joints' velocities unknown again
    out = bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=2 * SEC), 2 * SEC)
    assert out.center_of_mass.velocity is None and out.center_of_mass.angular_momentum is None


# -- TF decisions ------------------------------------------------------------------------------
def test_static_and_dynamic_split_follows_robot_state_publisher():
    bridge, _, _ = make(publish_link_com_frames=False)
    static = bridge.initial_output(5).tf_static
    model = bridge.model
    fixed = {(j.parent, j.child) for j in model.joints if j.type is JointType.FIXED}
    assert {(t.parent, t.child) for t in static} == fixed
    assert all(t.stamp_ns == 5 for t in static)
    out = bridge.on_joint_state(full_state(bridge, model.neutral_configuration()), SEC)
    movable = {(j.parent, j.child) for j in model.joints if j.type.moves}
    dynamic = {(t.parent, t.child) for t in out.tf if t.child != 'com'}
    assert dynamic == movable
    assert not dynamic & {(t.parent, t.child) for t in static}


def test_floating_and_planar_joints_are_dynamic_with_entry_names():
    model = all_joint_types_model()
    bridge = Bridge(model.urdf, BridgeSettings(floating_joints='tf'), logger=ListLogger())
    static = {t.child for t in bridge.initial_output(0).tf_static}
    assert {'e', 'tip'} <= static and not {'free', 'plane'} & static
    rng = np.random.default_rng(5)
    q = random_configuration(model, rng)
    names = list(model.configuration_names)
    out = bridge.on_joint_state(js(names, q), SEC)
    assert {t.child for t in out.tf} >= {'free', 'plane', 'a', 'b', 'c', 'd'}
    np.testing.assert_allclose(bridge.configuration, q, atol=1e-12)


def test_non_unit_floating_quaternion_rejects_the_message():
    model = all_joint_types_model()
    bridge = Bridge(model.urdf, BridgeSettings(floating_joints='tf'), logger=ListLogger())
    out = bridge.on_joint_state(js(['j_free/qw', 'j_free/qx'], [0.5, 0.5]), SEC)
    assert not out.accepted and 'quaternion' in out.reason


def test_transforms_equal_the_core_forward_kinematics_for_every_link():
    bridge, _, _ = make()
    model = bridge.model
    rng = np.random.default_rng(11)
    static = bridge.initial_output(0).tf_static
    for k in range(5):
        q = random_configuration(model, rng)
        out = bridge.on_joint_state(full_state(bridge, q, stamp=(k + 1) * SEC), (k + 1) * SEC)
        poses = compose(static + out.tf, model.root_link)
        state = model.forward_kinematics(q)
        for link in model.link_names:
            np.testing.assert_allclose(poses[link], state.transform(link), atol=1e-12)
        for link in model.links:
            if link.mass > 0:
                np.testing.assert_allclose(poses[link.name + '_com'][:3, 3],
                                           state.position(link.name, link.link_p_com),
                                           atol=1e-12)
        np.testing.assert_allclose(poses['com'][:3, 3], state.center_of_mass(), atol=1e-12)


@pytest.mark.parametrize('robot', ['fk_quadruped', 'ur5', 'panda', 'talos', 'solo12', 'iiwa'])
def test_transforms_equal_the_core_on_real_robots(robot):
    """The bridge's TF (the joint kernel's quaternions) against the core's FK, every robot."""
    path = robots.path(robot) if robot == 'fk_quadruped' else real_robot_path(robot)
    model = Robot.from_urdf_file(path)
    bridge = Bridge(model.urdf, logger=ListLogger())
    rng = np.random.default_rng(2)
    q = random_configuration(model, rng)
    static = bridge.initial_output(0).tf_static
    out = bridge.on_joint_state(full_state(bridge, q), SEC)
    poses = compose(static + out.tf, model.root_link)
    state = model.forward_kinematics(q)
    for link in model.link_names:
        np.testing.assert_allclose(poses[link], state.transform(link), atol=1e-11)


@hsettings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-3.0, 3.0), min_size=7, max_size=7),
       st.sets(st.sampled_from(ARM_JOINTS), min_size=1))
def test_each_published_transform_is_the_core_local_pose(values, subset):
    bridge = Bridge(ARM, logger=ListLogger())
    names = sorted(subset)
    q = bridge.model.neutral_configuration()
    for name, value in zip(ARM_JOINTS, values):
        q[bridge.model.joint(name).idx_q] = value
    positions = [q[bridge.model.joint(n).idx_q] for n in names]
    out = bridge.on_joint_state(js(names, positions), SEC)
    state = bridge.model.forward_kinematics(bridge.configuration)
    for transform in out.tf:
        if transform.child == 'com':
            continue
        local = state.local_poses[bridge.model.link_index(transform.child)]
        np.testing.assert_allclose(as_matrix(transform), local, atol=1e-12)
        assert transform.stamp_ns == SEC


def test_publish_frequency_throttles_per_joint_by_stamp():
    bridge, _, _ = make(publish_frequency=20.0)  # 50 ms
    assert bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=SEC), SEC).tf
    assert not bridge.on_joint_state(js(['elbow_joint'], [0.2], stamp=SEC + 30 * MS),
                                     SEC).tf
    # values are stored even when the transforms are throttled
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.2
    out = bridge.on_joint_state(js(['elbow_joint'], [0.3], stamp=SEC + 50 * MS), SEC)
    assert out.tf and out.tf[0].stamp_ns == SEC + 50 * MS
    # a joint never published before makes the message due at once
    out = bridge.on_joint_state(js(['elbow_joint', 'wrist_1_joint'], [0.3, 0.1],
                                   stamp=SEC + 60 * MS), SEC)
    assert {t.child for t in out.tf} == {'forearm_link', 'wrist_1_link'}


def test_publish_frequency_uses_whole_milliseconds_as_robot_state_publisher():
    bridge, _, _ = make(publish_frequency=30.0)  # int(1000 / 30) = 33 ms
    bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=SEC), SEC)
    assert bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=SEC + 33 * MS), SEC).tf


def test_publish_frequency_zero_publishes_every_message():
    bridge, _, _ = make(publish_frequency=0.0)
    for k in range(3):
        out = bridge.on_joint_state(js(['elbow_joint'], [0.1 * k], stamp=SEC), SEC)
        assert out.tf and out.tf[0].stamp_ns == SEC


def test_ignore_timestamp_publishes_old_stamps_with_their_stamp():
    bridge, _, _ = make(ignore_timestamp=True)
    bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=5 * SEC), 5 * SEC)
    out = bridge.on_joint_state(js(['elbow_joint'], [0.2], stamp=SEC), 5 * SEC)
    assert out.tf and out.tf[0].stamp_ns == SEC


def test_zero_stamp_is_throttled_as_robot_state_publisher():
    bridge, _, _ = make()
    assert not bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=0), 0).tf


def test_clock_going_backwards_clears_the_publish_history():
    bridge, logger, _ = make()
    bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=10 * SEC), 10 * SEC)
    assert not bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=2 * SEC), 10 * SEC).tf
    out = bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=2 * SEC), 3 * SEC)
    assert out.tf and any('backwards in time' in w for w in logger.texts())


def test_frame_prefix_is_prepended_everywhere():
    bridge, _, _ = make(frame_prefix='r1/', user_frames=(UserFrame('cam', 'tool0'),))
    static = bridge.initial_output(0).tf_static
    assert all(t.parent.startswith('r1/') and t.child.startswith('r1/') for t in static)
    out = bridge.on_joint_state(full_state(bridge, bridge.model.neutral_configuration()), SEC)
    assert all(t.parent.startswith('r1/') and t.child.startswith('r1/') for t in out.tf)
    assert ('r1/base_link', 'r1/com') in {(t.parent, t.child) for t in out.tf}
    assert out.center_of_mass.frame_id == 'r1/base_link'


def test_groups_can_be_switched_off():
    bridge, _, _ = make(publish_fixed_transforms=False, publish_link_com_frames=False,
                        publish_user_frames=False, publish_joint_transforms=False,
                        publish_com_frame=False, publish_com_topics=False,
                        user_frames=(UserFrame('cam', 'tool0'),))
    assert bridge.initial_output(0).tf_static == []
    out = bridge.on_joint_state(full_state(bridge, bridge.model.neutral_configuration()), SEC)
    assert out.tf == [] and out.center_of_mass is None
    out = bridge.update_settings(BridgeSettings(publish_fixed_transforms=False,
                                                publish_user_frames=False), 7)
    children = {t.child for t in out.tf_static}
    assert children == {link.name + '_com' for link in bridge.model.links if link.mass > 0}


# -- center of mass ------------------------------------------------------------------------
def test_com_waits_for_every_joint_with_one_warning():
    bridge, logger, _ = make()
    out = bridge.on_joint_state(js(['elbow_joint'], [0.1]), SEC)
    assert out.center_of_mass is None and 'com' not in {t.child for t in out.tf}
    missing = [w for w in logger.texts() if 'never received' in w]
    assert len(missing) == 1
    for name in ('shoulder_pan_joint', 'wrist_3_joint', 'left_finger_joint'):
        assert name in missing[0]
    assert 'elbow_joint,' not in missing[0]
    bridge.on_joint_state(js(['wrist_1_joint'], [0.1], stamp=2 * SEC), 2 * SEC)
    assert len([w for w in logger.texts() if 'never received' in w]) == 1
    assert bridge.missing_joints() == ['shoulder_pan_joint', 'shoulder_lift_joint',
                                       'wrist_2_joint', 'wrist_3_joint', 'left_finger_joint']
    out = bridge.on_joint_state(js(ARM_JOINTS, [0.0] * 7, stamp=3 * SEC), 3 * SEC)
    assert out.center_of_mass is not None and 'com' in {t.child for t in out.tf}
    assert bridge.missing_joints() == []


@pytest.mark.parametrize('mode', ['root', 'yaw', 'quaternion', 'ypr'])
def test_com_orientation_modes(mode):
    quat = (0.0, 0.0, math.sin(0.3), math.cos(0.3))
    text = open(robots.path('fk_quadruped')).read()
    bridge = Bridge(text, BridgeSettings(com_orientation=mode, com_quaternion=quat,
                                         com_ypr=(0.2, 0.1, -0.3)), logger=ListLogger())
    rng = np.random.default_rng(8)
    q = random_configuration(bridge.model, rng)
    out = bridge.on_joint_state(full_state(bridge, q), SEC)
    com = next(t for t in out.tf if t.child == 'com')
    rot = rotation_from_quaternion(np.array(com.rotation))
    state = bridge.model.forward_kinematics(q)
    np.testing.assert_allclose(com.translation, state.center_of_mass(), atol=1e-12)
    if mode == 'root':
        np.testing.assert_allclose(rot, np.eye(3), atol=1e-12)
    elif mode == 'quaternion':
        np.testing.assert_allclose(com.rotation, quat, atol=1e-12)
    elif mode == 'ypr':
        np.testing.assert_allclose(rot, transform_from_xyz_rpy(
            np.zeros(3), np.array([-0.3, 0.1, 0.2]))[:3, :3], atol=1e-12)
    else:
        assert rot[2, 2] == pytest.approx(1.0)
        np.testing.assert_allclose(rot, np.eye(3), atol=1e-12)  # fixed base: yaw of the root


def test_com_yaw_follows_the_floating_base():
    body = '\n'.join([
        link_xml('world'), link_xml('base', 2.0, '0.1 0 0'), link_xml('leg', 1.0, '0 0 -0.2'),
        joint_xml('free', 'floating', 'world', 'base'),
        joint_xml('hip', 'revolute', 'base', 'leg', axis='0 1 0'),
    ])
    bridge = Bridge(urdf(body), BridgeSettings(com_orientation='yaw', floating_joints='tf'),
                    logger=ListLogger())
    yaw, pitch = 0.7, 0.3
    quat = [np.sin(pitch / 2) * -np.sin(yaw / 2), np.sin(pitch / 2) * np.cos(yaw / 2),
            np.cos(pitch / 2) * np.sin(yaw / 2), np.cos(pitch / 2) * np.cos(yaw / 2)]
    names = ['free/x', 'free/y', 'free/z', 'free/qx', 'free/qy', 'free/qz', 'free/qw', 'hip']
    out = bridge.on_joint_state(js(names, [1, 2, 3] + quat + [0.4]), SEC)
    com = next(t for t in out.tf if t.child == 'com')
    assert com.rotation == pytest.approx((0, 0, math.sin(yaw / 2), math.cos(yaw / 2)))


# -- user frames -----------------------------------------------------------------------------
def test_user_frames_are_static_and_chain():
    frames = (UserFrame('cam', 'tool0', (0.0, 0.05, 0.0), (0.0, 0.0, 1.0)),
              UserFrame('lens', 'cam', (0.0, 0.0, 0.01)),
              UserFrame('marker', 'wrist_1_link_com', (0.1, 0.0, 0.0)))
    bridge, _, _ = make(user_frames=frames)
    static = {t.child: t for t in bridge.initial_output(0).tf_static}
    assert static['cam'].parent == 'tool0' and static['lens'].parent == 'cam'
    np.testing.assert_allclose(as_matrix(static['cam']), transform_from_xyz_rpy(
        np.array([0.0, 0.05, 0.0]), np.array([0.0, 0.0, 1.0])), atol=1e-12)
    q = random_configuration(bridge.model, np.random.default_rng(1))
    bridge.on_joint_state(full_state(bridge, q), SEC)
    expected = bridge.model.forward_kinematics(q).transform('tool0') @ as_matrix(
        static['cam']) @ as_matrix(static['lens'])
    np.testing.assert_allclose(bridge.root_T_frame('lens'), expected, atol=1e-12)


def test_baked_frame_is_placed_once_from_the_first_complete_state():
    frames = (UserFrame('drop', 'tool0', (0.0, 0.0, 0.1), baked=True),
              UserFrame('above', 'drop', (0.0, 0.0, 0.2)))
    bridge, _, _ = make(user_frames=frames)
    assert {t.child for t in bridge.initial_output(0).tf_static}.isdisjoint({'drop', 'above'})
    out = bridge.on_joint_state(js(['elbow_joint'], [0.4]), SEC)
    assert out.tf_static is None
    q = random_configuration(bridge.model, np.random.default_rng(4))
    out = bridge.on_joint_state(full_state(bridge, q, stamp=2 * SEC), 2 * SEC)
    static = {t.child: t for t in out.tf_static}
    assert static['drop'].parent == 'base_link' and static['above'].parent == 'drop'
    root_T_drop = bridge.model.forward_kinematics(q).transform('tool0') @ \
        transform_from_xyz_rpy(np.array([0.0, 0.0, 0.1]), np.zeros(3))
    np.testing.assert_allclose(as_matrix(static['drop']), root_T_drop, atol=1e-12)
    # the arm moves on: the baked frame stays where it was placed
    out = bridge.on_joint_state(full_state(bridge, q * 0.5, stamp=3 * SEC), 3 * SEC)
    assert out.tf_static is None
    np.testing.assert_allclose(bridge.root_T_frame('drop'), root_T_drop, atol=1e-12)
    assert bridge.frame_dependencies('drop') == ()
    assert bridge.frame_dependencies('tool0')[-1] == 'wrist_3_joint'


@pytest.mark.parametrize('frames, fragment', [
    ((UserFrame('cam', 'nowhere'),), 'nowhere'),
    ((UserFrame('tool0', 'base_link'),), 'clashes'),
    ((UserFrame('cam', 'tool0'), UserFrame('cam', 'tool0')), 'unique'),
    ((UserFrame('cam', 'tool0', (0.0, float('nan'), 0.0)),), 'xyz'),
    ((UserFrame('cam', ''),), 'parent'),
])
def test_bad_user_frames_are_refused(frames, fragment):
    with pytest.raises(FrameKinematicsError, match=fragment):
        make(user_frames=frames)
    bridge, logger, _ = make()
    out = bridge.update_settings(BridgeSettings(user_frames=frames), 0)
    assert not out.accepted and fragment in out.reason
    assert bridge.settings.user_frames == ()


# -- settings and parameters ----------------------------------------------------------------
@pytest.mark.parametrize('changes, fragment', [
    ({'publish_frequency': -1.0}, 'publish_frequency'),
    ({'publish_frequency': float('nan')}, 'publish_frequency'),
    ({'ignore_timestamp': 'yes'}, 'ignore_timestamp'),
    ({'com_orientation': 'sideways'}, 'sideways'),
    ({'com_quaternion': (0.0, 0.0, 0.0, 2.0)}, 'unit quaternion'),
    ({'com_frame': 'base_link'}, 'base_link'),
    ({'com_frame': ''}, 'com_frame'),
    ({'com_orientation': 'yaw', 'com_yaw_link': 'no_link'}, 'no_link'),
])
def test_bad_settings_change_nothing(changes, fragment):
    bridge, logger, _ = make(publish_frequency=10.0)
    before = bridge.settings
    out = bridge.update_settings(BridgeSettings(**changes), 0)
    assert not out.accepted and fragment in out.reason
    assert bridge.settings is before
    assert any(fragment in text for text in logger.texts('error'))


def test_settings_from_the_shipped_parameters_file():
    yaml = pytest.importorskip('yaml')
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, '..', 'config', 'frame_kinematics.yaml')) as handle:
        document = yaml.safe_load(handle)
    (params,) = [v['ros__parameters'] for v in document.values()]

    def flatten(tree, prefix=''):
        out = {}
        for key, value in tree.items():
            if isinstance(value, dict):
                out.update(flatten(value, prefix + key + '.'))
            else:
                out[prefix + key] = value
        return out

    flat = flatten(params)
    assert set(flat) == set(PARAMETER_DEFAULTS) - {'robot_description',
                                                   'robot_description_semantic'}
    for key, value in flat.items():
        assert value == PARAMETER_DEFAULTS[key], key
    assert settings_from_parameters(flat).validated() == BridgeSettings().validated()


def test_settings_from_parameters_reads_user_frames():
    params = dict(PARAMETER_DEFAULTS)
    params.update({'user_frames.names': ['cam', ''], 'user_frames.cam.parent': 'tool0',
                   'user_frames.cam.xyz': [0, 0, 1], 'user_frames.cam.baked': True,
                   'publish_frequency': 0, 'com.orientation': 'yaw'})
    settings = settings_from_parameters(params).validated()
    assert settings.user_frames == (UserFrame('cam', 'tool0', (0.0, 0.0, 1.0),
                                              (0.0, 0.0, 0.0), True),)
    assert settings.publish_frequency == 0.0 and settings.com_orientation == 'yaw'
    assert settings_from_parameters({'user_frames.names': ['cam']}).user_frames == ()


def test_apply_parameters_is_all_or_nothing():
    bridge, _, _ = make()
    urdf_before = bridge.model.urdf
    out = bridge.apply_parameters({'robot_description': 'not xml', 'publish_frequency': 5.0},
                                  0)
    assert not out.accepted and bridge.settings.publish_frequency == 20.0
    assert bridge.model.urdf == urdf_before
    out = bridge.apply_parameters({'publish_frequency': 5.0, 'frame_prefix': 'x/'}, 0)
    assert out.accepted and out.robot_description is None
    assert bridge.settings.publish_frequency == 5.0
    assert all(t.child.startswith('x/') for t in out.tf_static)


# -- robot description swaps ----------------------------------------------------------------
def test_good_description_swaps_the_model_and_is_republished():
    bridge, logger, _ = make()
    bridge.on_joint_state(js(['elbow_joint'], [0.4]), SEC)
    smaller = ARM.replace('name="fk_arm"', 'name="fk_arm2"').replace(
        '<origin xyz="0 0 0.10" rpy="0 0 0"/>', '<origin xyz="0 0 0.20" rpy="0 0 0"/>')
    out = bridge.set_robot_description(smaller, 9)
    assert out.accepted and out.robot_description == smaller
    assert bridge.model.name == 'fk_arm2'
    tool = next(t for t in out.tf_static if t.child == 'tool0')
    assert tool.translation == pytest.approx((0.0, 0.0, 0.2)) and tool.stamp_ns == 9
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.4
    assert any('fk_arm2' in text for text in logger.texts('info'))


@pytest.mark.parametrize('text, fragment', [
    ('', 'empty'),
    ('<robot name="x"><link name="a"/><joint', ''),
    (urdf(link_xml('a') + link_xml('b')), 'root'),
])
def test_bad_description_is_rejected_and_the_old_model_keeps_running(text, fragment):
    bridge, logger, _ = make()
    out = bridge.set_robot_description(text, 0)
    assert not out.accepted and fragment in out.reason and 'fk_arm' in out.reason
    assert bridge.model.name == 'fk_arm'
    assert any('rejected the new robot_description' in e for e in logger.texts('error'))
    assert bridge.on_joint_state(js(['elbow_joint'], [0.1]), SEC).tf


def test_description_without_a_user_frame_parent_is_rejected():
    bridge, _, _ = make(user_frames=(UserFrame('cam', 'tool0'),))
    no_tool = urdf(link_xml('base_link', 1.0) + link_xml('l1', 1.0)
                   + joint_xml('j1', 'revolute', 'base_link', 'l1'))
    out = bridge.set_robot_description(no_tool, 0)
    assert not out.accepted and 'tool0' in out.reason and bridge.model.name == 'fk_arm'


def test_throttled_log_counts_suppressed_messages():
    logger, clock = ListLogger(), FakeClock()
    log = ThrottledLog(logger, 1.0, clock)
    log.warning('a', 'first')
    log.warning('a', 'second')
    log.warning('b', 'other key')
    clock.t += 1.5
    log.warning('a', 'third')
    assert logger.texts() == ['first', 'other key', 'third (1 similar message(s) suppressed)']


def test_transform_between_frames():
    bridge, _, _ = make()
    q = random_configuration(bridge.model, np.random.default_rng(9))
    bridge.on_joint_state(full_state(bridge, q), SEC)
    state = bridge.model.forward_kinematics(q)
    np.testing.assert_allclose(
        inverse(bridge.root_T_frame('wrist_1_link')) @ bridge.root_T_frame('tool0'),
        state.relative_transform('wrist_1_link', 'tool0'), atol=1e-12)
