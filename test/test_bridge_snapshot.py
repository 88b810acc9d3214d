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
"""The services' immutable view of the bridge (frame_kinematics.bridge.snapshot)."""

from bridge_testing import ARM_JOINTS, arm_state, logged_bridge, SEC
from frame_kinematics.bridge.services import (compute_ik, get_jacobian, IKRequest,
                                              JacobianRequest, JointValues)
import pytest


def test_snapshot_is_immutable_and_does_not_follow_later_messages():
    bridge, _ = logged_bridge()
    bridge.on_joint_state(arm_state(0.1), SEC)
    snapshot = bridge.snapshot()
    bridge.on_joint_state(arm_state(0.7, 2 * SEC), 2 * SEC)
    index = bridge.model.joint('elbow_joint').idx_q
    assert snapshot.q[index] == 0.1 and bridge.snapshot().q[index] == 0.7
    with pytest.raises(ValueError):
        snapshot.q[index] = 3.0


def test_a_joint_state_naming_mimic_joints_is_a_valid_seed_and_configuration():
    bridge, _ = logged_bridge()
    bridge.on_joint_state(arm_state(0.1), SEC)
    names = list(ARM_JOINTS) + ['right_finger_joint']
    positions = [0.1] * 6 + [0.02, 0.02]
    snapshot = bridge.snapshot()
    answer = get_jacobian(snapshot, JacobianRequest('tool0',
                                                    joint_state=JointValues(names, positions)))
    assert answer.success, answer.message
    answer = compute_ik(snapshot, IKRequest('tool0', target_position=(0.3, 0.1, 0.4),
                                            position_only=True, timeout=0.2,
                                            seed=JointValues(names, positions)))
    assert 'unknown' not in answer.message
    wrong = positions[:-1] + [0.03]
    answer = get_jacobian(snapshot, JacobianRequest('tool0',
                                                    joint_state=JointValues(names, wrong)))
    assert not answer.success and 'right_finger_joint' in answer.message


def test_a_seed_naming_a_joint_twice_is_refused():
    bridge, _ = logged_bridge()
    bridge.on_joint_state(arm_state(0.1), SEC)
    answer = compute_ik(bridge.snapshot(), IKRequest(
        'tool0', target_position=(0.3, 0.1, 0.4), position_only=True,
        seed=JointValues(['elbow_joint', 'elbow_joint'], [0.1, 0.2])))
    assert not answer.success and 'elbow_joint' in answer.message and 'once' in answer.message
