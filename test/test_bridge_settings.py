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
"""The bridge settings and their checks (frame_kinematics.bridge.settings)."""

from bridge_testing import arm_state, logged_bridge, make, SEC
from frame_kinematics.bridge import BridgeSettings, UserFrame
from frame_kinematics.core import FrameKinematicsError
import pytest


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


def test_a_publish_frequency_too_small_to_ever_publish_is_refused_with_a_reason():
    bridge, _ = logged_bridge()
    out = bridge.apply_parameters({'publish_frequency': 5e-324}, 0)
    assert not out.accepted and '1e-09' in out.reason and 'never' in out.reason
    assert bridge.settings.publish_frequency == 20.0
    assert bridge.apply_parameters({'publish_frequency': 1e-9}, 0).accepted
    stamp = 2 * 10 ** 9 * SEC  # the smallest frequency still lets a message through
    out = bridge.on_joint_state(arm_state(0.2, stamp), stamp)
    assert out.accepted and out.tf
    out = bridge.on_joint_state(arm_state(0.3, stamp + SEC), stamp + SEC)
    assert out.accepted and not out.tf
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.3
    assert bridge.apply_parameters({'publish_frequency': 0.0}, 0).accepted
