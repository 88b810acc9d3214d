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
"""joint_states read from serialized bytes, checked against rclpy's deserialization."""

import os
import subprocess
import sys

from conftest import ListLogger
from frame_kinematics.bridge.messages import JointStateInput
from frame_kinematics.ros import joint_state_cdr
import numpy as np
import pytest

#: ``rclpy.serialization.serialize_message`` of :data:`joint_state_cdr.PROBES`, in order;
#: byte for byte the same on Jazzy (rclpy 7) and Humble (rclpy 3.3), Cyclone DDS.
CAPTURED = [bytes.fromhex(text) for text in (
    '0001000005000000fa0000000100000000000000020000000200000061000000030000006263000002000000'
    '000000000000e03f000000000000f4bf0000000000000000',
    '00010000ffffffffffc99a3b05000000626173650000000003000000030000006a310000080000006a6f696e'
    '745f3200020000007800000003000000000000000000f03f0000000000000040000000000000084003000000'
    '000000009a9999999999b93f9a9999999999c93f333333333333d33f01000000000000000000000000001c40',
    '000100000000000000000000010000000000000000000000000000000000000000000000',
    '000100000000008000000000020000006600000002000000010000000000000003000000c3a9000002000000'
    '9c7500883ce4377e00000000000000800000000000000000',
    '00010000ffffff7fffc99a3b030000006162000001000000040000006162630001000000000000000000d03f'
    '0100000000000000000000000000f8bf00000000',
    '0001000001000000020000000100000000000000020000000200000061000000020000006200000001000000'
    '000000000000e03f0000000000000000',
)]
#: (The captured messages carry frame ids and efforts the bridge does not read.) The third,
#: an empty message, is only read with the others, through ``CAPTURED``.
TWO_JOINTS, VELOCITIES, _, LIMITS, MAX_STAMP, MISMATCHED = CAPTURED


class MessagePath:
    """rclpy's deserialization as the tests see it: the probes' known values, counted."""

    def __init__(self, table=None):
        self.table = dict(zip(CAPTURED, joint_state_cdr.PROBES)) if table is None else table
        self.calls = 0

    def __call__(self, data):
        self.calls += 1
        if not isinstance(data, bytes) or data not in self.table:
            raise ValueError('failed to deserialize ROS message')
        return self.table[data]


def reader(path=None):
    log = ListLogger()
    found = joint_state_cdr.joint_state_reader('cdr', CAPTURED, path or MessagePath(), log)
    return found, log


def test_captured_bytes_read_as_rclpy_deserializes_them():
    found, log = reader()
    assert found is not None and found.direct and not log.lines
    for data, probe in zip(CAPTURED, joint_state_cdr.PROBES):
        got = found.read(data)
        assert joint_state_cdr.same_input(got, probe)
        assert isinstance(got.names, tuple)
    limits = found.read(LIMITS)
    assert limits.stamp_ns == -2 ** 31 * 10 ** 9 and limits.names == ('', '\u00e9')
    assert found.read(MAX_STAMP).stamp_ns == (2 ** 31 - 1) * 10 ** 9 + 999_999_999
    assert found.read(VELOCITIES).stamp_ns == -1
    mismatched = found.read(MISMATCHED)
    assert len(mismatched.names) == 2 and len(mismatched.positions) == 1  # the bridge refuses


def test_a_repeated_layout_is_read_without_rclpy_and_new_layouts_are_checked():
    path = MessagePath()
    found, _ = reader(path)
    assert path.calls == len(CAPTURED)  # every probe's layout checked once at start-up
    for _ in range(3):
        found.read(VELOCITIES)
    checked = path.calls
    assert checked == len(CAPTURED) + 1  # once more: a new reader checks the layout again
    moved = bytearray(VELOCITIES)
    moved[4:8] = (7).to_bytes(4, 'little', signed=True)  # another stamp
    moved[-24:-16] = np.float64(0.5).tobytes()  # another velocity
    got = found.read(bytes(moved))
    assert path.calls == checked  # same names and lengths: no deserialization
    assert got.stamp_ns == 7 * 10 ** 9 + 999_999_999 and got.velocities[2] == 0.5
    assert got.names == ('j1', 'joint_2', 'x')


def test_a_reader_that_disagrees_with_rclpy_is_dropped_for_good():
    table = dict(zip(CAPTURED, joint_state_cdr.PROBES))
    found, _ = reader(MessagePath(table))
    other = JointStateInput(('a', 'bc'), (0.5, -1.25), (), 5 * 10 ** 9 + 251)
    renamed = bytearray(TWO_JOINTS)
    renamed[28] = ord('z')  # joint 'a' becomes 'z': a layout not seen yet
    table[bytes(renamed)] = other  # rclpy says otherwise than the bytes
    log = ListLogger()
    found._on_mismatch = log.warning
    assert found.read(bytes(renamed)) is other
    assert not found.direct and 'differs from rclpy' in log.texts()[0]
    assert found.read(TWO_JOINTS) is table[TWO_JOINTS]  # every later message: rclpy's


def test_probes_that_disagree_with_rclpy_mean_rclpys_messages_from_the_start():
    shifted = dict(zip(CAPTURED, joint_state_cdr.PROBES[1:] + joint_state_cdr.PROBES[:1]))
    log = ListLogger()
    assert joint_state_cdr.joint_state_reader('cdr', CAPTURED, MessagePath(shifted), log) \
        is None
    assert "differ from rclpy's" in log.texts()[0]
    truncated = [data[:-8] for data in CAPTURED]  # rclpy could read them, this reader not
    table = dict(zip(truncated, joint_state_cdr.PROBES))
    assert joint_state_cdr.joint_state_reader('cdr', truncated, MessagePath(table), log) is None
    assert joint_state_cdr.joint_state_reader('messages', CAPTURED, MessagePath(), log) is None
    assert joint_state_cdr.joint_state_reader('cdr', CAPTURED, None, log) is None


@pytest.mark.parametrize('data', [
    TWO_JOINTS[:cut] for cut in range(len(TWO_JOINTS) - 4)] + [
    b'\x00\x00' + TWO_JOINTS[2:],  # big endian
    TWO_JOINTS[:29] + b'\x01' + TWO_JOINTS[30:],  # a name without its NUL
    TWO_JOINTS[:20] + b'\xff\xff\xff\x7f' + TWO_JOINTS[24:],  # a name count past the end
    TWO_JOINTS[:40] + b'\xff\xff\xff\x7f' + TWO_JOINTS[44:],  # a position count past the end
    VELOCITIES[:12] + b'\x00' * 4 + VELOCITIES[16:],  # a frame id of length 0 (no NUL)
    bytearray(TWO_JOINTS), '', None, 5,
])
def test_buffers_it_cannot_read_go_to_rclpys_deserialization(data):
    path = MessagePath()
    found, _ = reader(path)
    before = path.calls
    with pytest.raises(ValueError, match='failed to deserialize'):
        found.read(data)
    assert path.calls == before + 1 and found.direct


@pytest.mark.parametrize('bad', [
    TWO_JOINTS[:28] + b'\xff' + TWO_JOINTS[29:],  # 'a' as a byte that is not UTF-8
    TWO_JOINTS[:36] + b'\x00' + TWO_JOINTS[37:],  # 'bc' with a NUL before its end
])
def test_a_name_rclpy_reads_its_own_way_goes_to_rclpys_deserialization(bad):
    path = MessagePath({bad: joint_state_cdr.PROBES[0]})
    found = joint_state_cdr.JointStateReader(path, ListLogger().warning)
    assert found.read(bad) is joint_state_cdr.PROBES[0] and found.direct


def test_the_layout_functions_find_the_names():
    at = joint_state_cdr.names_offset(VELOCITIES)
    assert joint_state_cdr.decode_names(VELOCITIES, at) == ('j1', 'joint_2', 'x')
    assert joint_state_cdr.names_end(VELOCITIES, at) == 54  # 'x' ends there, unaligned
    assert joint_state_cdr.names_offset(b'') is None
    assert joint_state_cdr.names_end(VELOCITIES[:40], at) is None


def test_the_reader_does_not_import_rclpy():
    code = "import sys, frame_kinematics.ros.joint_state_cdr; print('rclpy' in sys.modules)"
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=here), check=True)
    assert out.stdout.strip() == 'False'
