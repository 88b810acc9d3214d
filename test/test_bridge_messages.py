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
"""Tests of frame_kinematics.bridge.messages: the plain-data messages in and out of the bridge."""

import dataclasses

from frame_kinematics.bridge.messages import (BridgeOutput, CenterOfMassOut, check_values,
                                              JointStateInput, read_joint_state, RefusedMessage,
                                              TransformOut)
import numpy as np
import pytest


def test_a_joint_state_defaults_to_no_velocities_at_stamp_zero():
    message = JointStateInput(['a', 'b'], [0.1, 0.2])
    assert message.velocities == () and message.stamp_ns == 0
    assert message == JointStateInput(['a', 'b'], [0.1, 0.2], (), 0)


def test_a_joint_state_cannot_be_changed_after_it_is_made():
    message = JointStateInput(['a'], [0.1], [0.5], 7)
    with pytest.raises(dataclasses.FrozenInstanceError):
        message.stamp_ns = 8
    assert message.stamp_ns == 7


def test_a_transform_out_is_a_tuple_in_the_order_of_the_message_fields():
    out = TransformOut('base', 'tool', 5, (1.0, 2.0, 3.0), (0.0, 0.0, 0.6, 0.8))
    assert TransformOut._fields == ('parent', 'child', 'stamp_ns', 'translation', 'rotation')
    assert out == ('base', 'tool', 5, (1.0, 2.0, 3.0), (0.0, 0.0, 0.6, 0.8))
    parent, child, stamp_ns, translation, rotation = out
    assert (out.parent, out.child, out.stamp_ns) == (parent, child, stamp_ns)
    assert (out.translation, out.rotation) == (translation, rotation)
    assert out._replace(stamp_ns=6) == ('base', 'tool', 6, translation, rotation)


def test_a_center_of_mass_out_is_frozen_and_compares_by_value():
    com = CenterOfMassOut(3, 'r1/base', (0.1, 0.2, 0.3), None, None)
    assert com == CenterOfMassOut(3, 'r1/base', (0.1, 0.2, 0.3), None, None)
    assert com != CenterOfMassOut(3, 'r1/base', (0.1, 0.2, 0.3), (0.0, 0.0, 0.0), None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        com.velocity = (1.0, 0.0, 0.0)


def test_a_bridge_output_starts_accepted_with_nothing_to_publish():
    out = BridgeOutput()
    assert out.accepted and out.reason == '' and not out.clear_markers
    assert out.tf == []
    assert (out.tf_static, out.center_of_mass, out.robot_description, out.markers) == (
        None, None, None, None)


def test_bridge_outputs_do_not_share_their_transform_list():
    first, second = BridgeOutput(), BridgeOutput()
    first.tf.append(TransformOut('p', 'c', 1, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)))
    assert second.tf == [] and BridgeOutput().tf == []
    second.accepted, second.reason = False, 'bad message'
    assert (second.accepted, second.reason) == (False, 'bad message')


def test_a_joint_state_is_read_once_and_refused_whole_with_the_kind_of_its_fault():
    names, positions, velocities, stamp = read_joint_state(
        JointStateInput(['a', 'b'], [1, 2.5], [], 7))
    assert (names, positions.tolist(), velocities.tolist(), stamp) == (('a', 'b'), [1.0, 2.5],
                                                                       [], 7)
    for msg, key, words in (
            (JointStateInput(['a'], ['x']), 'values', 'are not numbers'),
            (JointStateInput(['a'], [1.0], [], float('inf')), 'values', 'are not numbers'),
            (JointStateInput(['a', 'b'], [1.0]), 'length', '2 names and 1 positions'),
            (JointStateInput(['a'], [1.0], [1.0, 2.0]), 'length', '1 names and 2 velocities')):
        with pytest.raises(RefusedMessage, match=words) as refused:
            read_joint_state(msg)
        assert refused.value.key == key


def test_only_the_values_a_model_reads_are_checked():
    names = ('a', 'b', 'c')
    nan, inf = float('nan'), float('inf')
    read = np.array([0, 2])
    # the value of 'b' is not read (an unknown name): robot_state_publisher ignores it too
    known = check_values(names, np.array([1.0, nan, 2.0]), np.array([0.0, inf, nan]), read,
                         read)
    assert known.tolist() == [True, False]  # the NaN velocity of 'c' is unknown
    assert check_values(names, np.array([1.0, nan, 2.0]), np.array([0.0, nan, 1.0]), read,
                        read) is None
    assert check_values(names, np.zeros(3), np.array([]), read, read) is None
    for positions, velocities, words in (
            ([1.0, 0.0, nan], [], 'NaN, inf .* for c$'),
            ([-inf, 0.0, 1e17], [], 'for a, c$'),
            ([0.0, 0.0, 0.0], [2e16, 0.0, 0.0], 'magnitude above 1e\\+16 for a$'),
            ([nan, 0.0, 0.0], [0.0, 0.0, -inf], 'for a, c$')):
        with pytest.raises(RefusedMessage, match=words) as refused:
            check_values(names, np.array(positions), np.array(velocities), read, read)
        assert refused.value.key == 'nan'
