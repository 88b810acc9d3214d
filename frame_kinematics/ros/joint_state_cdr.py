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
"""
``sensor_msgs/JointState`` read directly from its serialized bytes (CDR, little endian).

The ``joint_states`` subscription takes serialized messages (rclpy's public
``create_subscription(..., raw=True)``); :class:`JointStateReader` turns them into the bridge's
:class:`~frame_kinematics.bridge.messages.JointStateInput` without building a Python message:
the stamp is unpacked, the positions and velocities are views of the bytes, and the joint
names are decoded once per name list (a stream that repeats its names costs one comparison of
their bytes). No ROS import.

It is trusted only as far as it was checked against rclpy's own deserialization
(:func:`joint_state_reader`): at start-up on :data:`PROBES`, then on every message whose
layout (names and sequence lengths) it has not seen. One difference and the reader is dropped
for good: every later message goes through rclpy's deserialization. A buffer it cannot read
(big endian, truncated, a string without its NUL or not UTF-8) goes the same way.

Layout (XCDR1, as ROS 2 serializes; alignment counted from the end of the 4-byte encapsulation
header ``00 01 00 00``): ``int32 sec, uint32 nanosec``, ``frame_id`` (``uint32`` length with the
NUL, the bytes), then ``name`` (``uint32`` count, each string aligned on 4) and ``position``,
``velocity``, ``effort`` (``uint32`` count aligned on 4, the ``float64`` values aligned on 8
when there are any).
"""

import struct
from typing import Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from ..bridge.messages import JointStateInput

#: Encapsulation header: CDR little endian, no options.
ENCAPSULATION = b'\x00\x01\x00\x00'
NS_PER_S = 1_000_000_000
_HEAD = 4
_UINT32 = struct.Struct('<I')
_STAMP = struct.Struct('<iI')

#: Messages whose serialization checks the reader at start-up: int32 stamp limits, negative
#: stamps, empty and non-ASCII names, empty and mismatched sequences.
PROBES = (
    JointStateInput(('a', 'bc'), (0.5, -1.25), (), 5 * NS_PER_S + 250),
    JointStateInput(('j1', 'joint_2', 'x'), (1.0, 2.0, 3.0), (0.1, 0.2, 0.3), -1),
    JointStateInput((), (), (), 0),
    JointStateInput(('', '\u00e9'), (1e300, -0.0), (), -2 ** 31 * NS_PER_S),
    JointStateInput(('abc',), (0.25,), (-1.5,), (2 ** 31 - 1) * NS_PER_S + 999_999_999),
    JointStateInput(('a', 'b'), (0.5,), (), NS_PER_S + 2),
)


def _align(offset: int, alignment: int) -> int:
    return offset + (-(offset - _HEAD) % alignment)


def _count(data: bytes, offset: int) -> Tuple[int, int]:
    """Read a ``uint32`` aligned on 4: ``(value, offset after it)``; IndexError past the end."""
    offset = _align(offset, 4)
    if offset + 4 > len(data):
        raise IndexError('truncated')
    return _UINT32.unpack_from(data, offset)[0], offset + 4


def _skip_string(data: bytes, offset: int) -> int:
    """Return the offset after a string; IndexError when it is truncated or has no NUL."""
    size, offset = _count(data, offset)
    end = offset + size
    if size == 0 or end > len(data) or data[end - 1] != 0:
        raise IndexError('bad string')
    return end


def _doubles(data: bytes, offset: int) -> Tuple[np.ndarray, int]:
    """Read a ``float64`` sequence as a read-only view: ``(values, offset after it)``."""
    count, offset = _count(data, offset)
    if count:
        offset = _align(offset, 8)
    end = offset + 8 * count
    if end > len(data):
        raise IndexError('truncated')
    return np.frombuffer(data, dtype='<f8', count=count, offset=offset), end


def _values(data: bytes, offset: int) -> Tuple[np.ndarray, np.ndarray]:
    """Read positions and velocities from ``offset`` (checking efforts fit); IndexError."""
    positions, offset = _doubles(data, offset)
    velocities, offset = _doubles(data, offset)
    _doubles(data, offset)
    return positions, velocities


def names_offset(data: bytes) -> Optional[int]:
    """
    Offset of the name sequence's count in a serialized ``sensor_msgs/JointState``.

    :param data: the serialized message.
    :return: the offset, or None for a buffer this reader does not read (not CDR little
        endian, truncated, a ``frame_id`` without its NUL).
    """
    if not isinstance(data, bytes) or len(data) < _HEAD + 12 or \
            data[:_HEAD] != ENCAPSULATION:
        return None
    try:
        return _align(_skip_string(data, _HEAD + 8), 4)
    except IndexError:
        return None


def names_end(data: bytes, offset: int) -> Optional[int]:
    """
    Offset just after the name sequence whose count is at ``offset``.

    :param data: the serialized message.
    :param offset: see :func:`names_offset`.
    :return: the offset, or None when a string is truncated or has no NUL.
    """
    try:
        count, offset = _count(data, offset)
        if count > len(data):
            return None
        for _ in range(count):
            offset = _skip_string(data, offset)
    except IndexError:
        return None
    return offset


def _stamp_ns(data: bytes) -> int:
    sec, nanosec = _STAMP.unpack_from(data, _HEAD)
    return sec * NS_PER_S + nanosec


def decode_names(data: bytes, start: int) -> Optional[Tuple[str, ...]]:
    """
    Decode the name sequence at ``start``.

    :param data: the serialized message.
    :param start: the offset of the sequence's count (:func:`names_offset`), its strings
        checked by :func:`names_end`.
    :return: the names, or None when one is not UTF-8 or holds a NUL before its end (left to
        rclpy, which reads such strings as C strings).
    """
    count, offset = _count(data, start)
    names = []
    for _ in range(count):
        size, offset = _count(data, offset)
        text = data[offset:offset + size - 1]
        if b'\x00' in text:
            return None
        try:
            names.append(text.decode('utf-8'))
        except UnicodeDecodeError:
            return None
        offset += size
    return tuple(names)


def same_input(a: JointStateInput, b: JointStateInput) -> bool:
    """
    Whether two joint_states inputs hold the same names, stamp and values (bit for bit).

    :param a: one input.
    :param b: the other.
    :return: True when equal (NaN equal to the same NaN, -0.0 unequal to 0.0).
    """
    def bits(values: Sequence[float]) -> bytes:
        return np.asarray(values, dtype='<f8').tobytes()
    return (tuple(a.names) == tuple(b.names) and int(a.stamp_ns) == int(b.stamp_ns)
            and bits(a.positions) == bits(b.positions)
            and bits(a.velocities) == bits(b.velocities))


class JointStateReader:
    """
    Turn serialized ``sensor_msgs/JointState`` messages into bridge inputs (one thread).

    :param deserialize: the message path: serialized bytes to a
        :class:`~frame_kinematics.bridge.messages.JointStateInput` through rclpy's
        deserialization; it checks every new layout and reads what this reader cannot.
    :param on_mismatch: called with a reason when the reader is dropped.
    :param limit: most name lists kept (all are dropped beyond).
    """

    def __init__(self, deserialize: Callable[[bytes], JointStateInput],
                 on_mismatch: Callable[[str], None], limit: int = 64) -> None:
        """Start reading bytes directly, every new layout checked against ``deserialize``."""
        self._deserialize = deserialize
        self._on_mismatch = on_mismatch
        self._limit = limit
        self._names: Dict[Tuple[bytes, Tuple[int, int]], Tuple[str, ...]] = {}
        #: the name bytes, names and sequence lengths of the last message read.
        self._last: Optional[Tuple[bytes, Tuple[str, ...], Tuple[int, int]]] = None
        #: whether messages are read from their bytes (False once a check failed).
        self.direct = True

    def read(self, data: bytes) -> JointStateInput:
        """
        Read one serialized message.

        :param data: the bytes rclpy's raw subscription handed over.
        :return: the input, equal to the message path's.
        """
        names_at = names_offset(data) if self.direct else None
        if names_at is None:
            return self._deserialize(data)
        last = self._last
        if last is not None and data.startswith(last[0], names_at):
            try:
                positions, velocities = _values(data, names_at + len(last[0]))
            except IndexError:
                return self._deserialize(data)
            if (len(positions), len(velocities)) == last[2]:
                return JointStateInput(last[1], positions, velocities, _stamp_ns(data))
        return self._read_new(data, names_at)

    def _read_new(self, data: bytes, names_at: int) -> JointStateInput:
        """Read a message whose layout differs from the last one's."""
        end = names_end(data, names_at)
        if end is None:
            return self._deserialize(data)
        try:
            positions, velocities = _values(data, end)
        except IndexError:
            return self._deserialize(data)
        key = (data[names_at:end], (len(positions), len(velocities)))
        names = self._names.get(key)
        if names is None:
            names = decode_names(data, names_at)
            if names is None:
                return self._deserialize(data)
            direct = JointStateInput(names, positions, velocities, _stamp_ns(data))
            expected = self._deserialize(data)
            if not same_input(direct, expected):
                self.direct = False
                self._names.clear()
                self._last = None
                self._on_mismatch('a joint_states message read from its bytes differs from '
                                  "rclpy's deserialization of it: reading rclpy's message "
                                  'objects from now on')
                return expected
            if len(self._names) >= self._limit:
                self._names.clear()
            self._names[key] = names
        self._last = (key[0], names, key[1])
        return JointStateInput(names, positions, velocities, _stamp_ns(data))


def _readable(data: bytes) -> bool:
    """Whether :class:`JointStateReader` reads ``data`` itself (not through rclpy)."""
    start = names_offset(data)
    end = None if start is None else names_end(data, start)
    if end is None or decode_names(data, start) is None:
        return False
    try:
        _values(data, end)
    except IndexError:
        return False
    return True


def joint_state_reader(mode: str, probes: Sequence[bytes],
                       deserialize: Optional[Callable[[bytes], JointStateInput]],
                       logger) -> Optional[JointStateReader]:
    """
    Choose how the ``joint_states`` subscription reads its serialized messages.

    :param mode: ``cdr`` (read the bytes directly when checked) or ``messages`` (rclpy's
        deserialization only).
    :param probes: rclpy's serialization of :data:`PROBES`, in order.
    :param deserialize: the message path (rclpy's deserialization); None where it is
        missing.
    :param logger: where a fall-back is reported.
    :return: the reader, or None to deserialize every message with rclpy.
    """
    if mode != 'cdr' or deserialize is None:
        return None
    differences = []
    checked = JointStateReader(deserialize, differences.append)
    if len(probes) != len(PROBES) or not all(map(_readable, probes)) or \
            any(not same_input(checked.read(data), probe) for probe, data in zip(PROBES, probes)) \
            or differences:
        logger.warning("joint_states bytes read directly differ from rclpy's deserialization "
                       "here: reading rclpy's message objects")
        return None
    return JointStateReader(deserialize, logger.warning)


__all__ = ['decode_names', 'joint_state_reader', 'JointStateReader', 'PROBES',
           'names_end', 'names_offset', 'same_input']
