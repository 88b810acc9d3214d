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
"""The /tf messages written as CDR bytes (frame_kinematics.ros.tf_cdr)."""

import struct

from conftest import ListLogger
from frame_kinematics.bridge.messages import TransformOut
from frame_kinematics.ros import tf_cdr
from ros_testing import INT32_STAMPS


def _decode_tf_message(data):
    """Read a serialized TFMessage back (CDR little endian), for the test."""
    assert data[:4] == b'\x00\x01\x00\x00'
    payload, offset = data[4:], 0

    def take(fmt, align):
        nonlocal offset
        offset += -offset % align
        values = struct.unpack_from(fmt, payload, offset)
        offset += struct.calcsize(fmt)
        return values

    def string():
        nonlocal offset
        (size,) = take('<I', 4)
        text = payload[offset:offset + size - 1].decode()
        assert payload[offset + size - 1] == 0
        offset += size
        return text

    (count,) = take('<I', 4)
    out = []
    for _ in range(count):
        sec, nanosec = take('<iI', 4)
        parent, child = string(), string()
        numbers = take('<7d', 8)
        out.append(TransformOut(parent, child, sec * 10 ** 9 + nanosec, numbers[:3],
                                numbers[3:]))
    assert offset == len(payload)
    return out


def test_tf_messages_are_written_as_cdr_from_a_template_per_frame_list():
    writer = tf_cdr.TFMessageWriter(limit=2)
    transforms = [TransformOut('base_link', 'a' * k, 1_700_000_000_123_456_789 + k,
                               (0.1 * k, 2.0, -3.5), (0.0, 0.6, 0.0, 0.8))
                  for k in range(1, 6)]
    transforms.append(TransformOut('base', 'com', 5, (1.0, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0)))
    assert _decode_tf_message(writer.serialize(transforms)) == transforms
    moved = [t._replace(stamp_ns=t.stamp_ns + 7, translation=(9.0, 8.0, 7.0))
             for t in transforms]
    assert _decode_tf_message(writer.serialize(moved)) == moved  # the template is reused
    for names in (['x'], ['y'], ['z']):  # beyond the limit the templates are dropped
        few = [TransformOut('p', n, 1, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)) for n in names]
        assert _decode_tf_message(writer.serialize(few)) == few
    assert _decode_tf_message(writer.serialize([])) == []
    extremes = [TransformOut('p', 'c', sec * 10 ** 9 + nanosec, (0.0, 0.0, 0.0),
                             (0.0, 0.0, 0.0, 1.0)) for sec, nanosec in INT32_STAMPS]
    assert _decode_tf_message(writer.serialize(extremes)) == extremes


def test_the_cdr_writer_is_used_only_when_asked_and_equal_to_rclpys_bytes():
    messages = []

    def make_message(transforms):
        messages.append(list(transforms))
        return ('message', tuple(transforms))

    log = ListLogger()
    assert tf_cdr.tf_serializer('messages', make_message, None, log) is make_message
    writer = tf_cdr.TFMessageWriter()
    same = tf_cdr.tf_serializer('cdr', make_message,
                                lambda msg: writer.serialize(msg[1]), log)
    assert same([]) == tf_cdr.TFMessageWriter().serialize([]) and not log.lines
    assert messages == [list(tf_cdr.PROBE)]  # the probe covers the int32 stamp limits
    assert {t.stamp_ns for t in tf_cdr.PROBE} >= {-2 ** 31 * 10 ** 9, -1}
    other = tf_cdr.tf_serializer('cdr', make_message, lambda msg: b'other', log)
    assert other is make_message and "differ from rclpy's" in log.texts()[0]
    assert tf_cdr.tf_serializer('cdr', make_message, None, log) is make_message


#: ``rclpy.serialization.serialize_message`` of the ``TFMessage`` of :data:`tf_cdr.PROBE`,
#: byte for byte the same on Jazzy (rclpy 7) and Humble (rclpy 3.3), Cyclone DDS.
CAPTURED_TF_PROBE = bytes.fromhex(
    '000100000300000000000080000000000a000000626173655f6c696e6b000000020000006100000000000000'
    '9a9999999999b93f00000000000000c00000000000000c400000000000000000333333333333e33f00000000'
    '000000009a9999999999e93fffffffffffc99a3b020000006100000003000000626200000000000000000000'
    '0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
    '0000f03fffffff7fffc99a3b0300000062620000040000006363630059f3f8c21f6ea5019c7500883ce4377e'
    '0000000000000080000000000000e03f000000000000e03f000000000000e03f000000000000e03f')


def test_tf_bytes_equal_rclpys_captured_serialization():
    assert tf_cdr.TFMessageWriter().serialize(tf_cdr.PROBE) == CAPTURED_TF_PROBE
    assert tf_cdr.TFMessageWriter().serialize([]) == bytes.fromhex('0001000000000000')
    assert [t.stamp_ns for t in _decode_tf_message(CAPTURED_TF_PROBE)] == \
        [-2 ** 31 * 10 ** 9, -1, (2 ** 31 - 1) * 10 ** 9 + 999_999_999]
