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
"""The static set and the user frames of the bridge (frame_kinematics.bridge.published_frames)."""

from bridge_testing import as_matrix, full_state, js, make, SEC
from conftest import random_configuration
from frame_kinematics.bridge import UserFrame
from frame_kinematics.core.joints import JointType
from frame_kinematics.core.spatial import transform_from_xyz_rpy
import numpy as np


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
