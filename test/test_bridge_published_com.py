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
"""The robot center of mass the bridge publishes (frame_kinematics.bridge.published_com)."""

import math

from bridge_testing import FLOATING, full_state, js, logged_bridge, make, SEC
from conftest import joint_xml, link_xml, ListLogger, random_configuration, urdf
from frame_kinematics import robots
from frame_kinematics.bridge import Bridge, BridgeSettings
from frame_kinematics.bridge.services import get_jacobian, JacobianRequest
from frame_kinematics.core.spatial import rotation_from_quaternion, transform_from_xyz_rpy
import numpy as np
import pytest


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


def test_a_nan_velocity_makes_that_joints_velocity_unknown_as_ros2_control_sends_it():
    # joint_state_broadcaster sends NaN for a joint without a velocity interface: the message
    # is published as robot_state_publisher publishes it, without a CoM velocity
    bridge, _, _ = make()
    rng = np.random.default_rng(4)
    q = random_configuration(bridge.model, rng)
    v = rng.normal(size=bridge.model.nv)
    v[bridge.model.joint('elbow_joint').idx_v] = float('nan')
    out = bridge.on_joint_state(full_state(bridge, q, velocities=v), SEC)
    assert out.accepted and len(out.tf) > 1
    com = out.center_of_mass
    assert com is not None and com.velocity is None and com.angular_momentum is None
    np.testing.assert_allclose(com.position, bridge.model.forward_kinematics(q).center_of_mass(),
                               atol=1e-12)
    # once the joint's velocity is given, the CoM velocity is known again
    out = bridge.on_joint_state(js(['elbow_joint'], [q[bridge.model.joint('elbow_joint').idx_q]],
                                   [0.5], stamp=2 * SEC), 2 * SEC)
    v[bridge.model.joint('elbow_joint').idx_v] = 0.5
    expected = bridge.model.forward_kinematics(q, v).center_of_mass_velocity()
    np.testing.assert_allclose(out.center_of_mass.velocity, expected, atol=1e-12)


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


def test_skipped_floating_joint_gives_the_com_in_its_child():
    bridge, _ = logged_bridge(FLOATING, floating_joints='skip', publish_frequency=0.0)
    model = bridge.model
    out = bridge.on_joint_state(js(['hip'], [0.3], [0.5]), SEC)
    assert {t.child for t in out.tf} == {'arm', 'com'}
    (com,) = [t for t in out.tf if t.child == 'com']
    q = model.neutral_configuration()
    q[model.joint('hip').idx_q] = 0.3
    state = model.forward_kinematics(q)
    world_T_base = state.transform('base')
    base_p_com = np.linalg.inv(world_T_base) @ np.append(state.center_of_mass(), 1.0)
    assert com.parent == 'base'
    np.testing.assert_allclose(com.translation, base_p_com[:3], atol=1e-12)
    assert out.center_of_mass.frame_id == 'base'
    assert out.center_of_mass.velocity is None  # the base velocity is not known
    answer = get_jacobian(bridge.snapshot(), JacobianRequest('arm'))
    assert answer.success, answer.message


def test_floating_pose_without_its_velocity_publishes_no_com_velocity():
    bridge, _ = logged_bridge(FLOATING, floating_joints='tf', publish_frequency=0.0)
    names = list(bridge.model.configuration_names)
    q = bridge.model.neutral_configuration()
    out = bridge.on_joint_state(js(names, q), SEC)
    assert out.center_of_mass is not None and out.center_of_mass.velocity is None
    out = bridge.on_joint_state(js(['hip'], [0.1], [1.0], stamp=2 * SEC), 2 * SEC)
    assert out.center_of_mass.velocity is None and out.center_of_mass.angular_momentum is None
