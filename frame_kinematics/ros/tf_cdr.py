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
``tf2_msgs/TFMessage`` written directly as serialized bytes (CDR, little endian).

Serializing a 34-transform ``TFMessage`` through rclpy's Python messages costs more than the
kinematics (the manual's performance page); the frame ids of the ``/tf`` path repeat from one
message to the next. :class:`TFMessageWriter` keeps one byte template per list of frame pairs and
writes only the stamps and the numbers into a copy. No ROS import. It is used (by default,
``tf_serialization: cdr``) only when its bytes equal rclpy's own serialization of a probe
(:func:`tf_serializer`); ``tf_serialization: messages`` publishes rclpy's message objects.

Layout (XCDR1, as ROS 2 serializes): a 4-byte encapsulation header ``00 01 00 00``, then the
sequence length and, per ``geometry_msgs/TransformStamped``, ``int32 sec, uint32 nanosec``,
the two strings (``uint32`` length with the NUL, the bytes, NUL) and seven ``float64`` aligned
on 8 bytes from the start of the payload.
"""

from operator import itemgetter
import struct
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from ..bridge.messages import TransformOut

#: Encapsulation header: CDR little endian, no options.
ENCAPSULATION = b'\x00\x01\x00\x00'
NS_PER_S = 1_000_000_000
_FRAMES = itemgetter(0, 1)
_STAMP = itemgetter(2)


def _pad(payload: bytearray, alignment: int) -> None:
    payload.extend(b'\x00' * (-len(payload) % alignment))


def _string(payload: bytearray, text: str) -> None:
    data = text.encode('utf-8')
    _pad(payload, 4)
    payload.extend(struct.pack('<I', len(data) + 1))
    payload.extend(data + b'\x00')


class _Template:
    """The bytes of one list of frame pairs, and where its stamps and numbers go."""

    def __init__(self, pairs: Sequence[Tuple[str, str]]) -> None:
        payload = bytearray(struct.pack('<I', len(pairs)))
        stamps, numbers = [], []
        for parent, child in pairs:
            _pad(payload, 4)
            stamps.append(len(payload) // 4)
            payload.extend(b'\x00' * 8)
            _string(payload, parent)
            _string(payload, child)
            _pad(payload, 8)
            numbers.append(len(payload) // 8)
            payload.extend(b'\x00' * 56)
        self.payload = bytes(payload)
        #: uint32 index of each transform's ``sec`` in the payload (``nanosec`` follows).
        self.stamp_index = np.array(stamps, dtype=np.intp)
        #: float64 index of each transform's first number (seven follow).
        self.number_index = (np.array(numbers, dtype=np.intp)[:, None]
                             + np.arange(7, dtype=np.intp)).reshape(-1)


class TFMessageWriter:
    """
    Serialize ``/tf`` messages from bridge transforms, one template per list of frame pairs.

    :param limit: most templates kept (all are dropped beyond).
    """

    def __init__(self, limit: int = 64) -> None:
        self._limit = limit
        self._templates: Dict[Tuple[Tuple[str, str], ...], _Template] = {}

    def serialize(self, transforms: Sequence[TransformOut]) -> bytes:
        """
        Return the serialized ``TFMessage`` of ``transforms``.

        :param transforms: the transforms, stamps those of a ``builtin_interfaces/Time``
            (``sec`` an int32, negative ones included; ``nanosec`` from 0 to 999999999).
        :return: the serialized message: the encapsulation header, then the CDR payload.
        """
        key = tuple(map(_FRAMES, transforms))
        template = self._templates.get(key)
        if template is None:
            if len(self._templates) >= self._limit:
                self._templates.clear()
            template = self._templates[key] = _Template(key)
        payload = bytearray(template.payload)
        words = np.frombuffer(payload, dtype='<u4', count=len(payload) // 4)
        stamps = np.fromiter(map(_STAMP, transforms), dtype=np.int64, count=len(transforms))
        sec, nanosec = np.divmod(stamps, NS_PER_S)
        words[template.stamp_index] = sec
        words[template.stamp_index + 1] = nanosec
        floats = np.frombuffer(payload, dtype='<f8', count=len(payload) // 8)
        floats[template.number_index] = np.array(
            [t.translation + t.rotation for t in transforms], dtype=float).reshape(-1)
        return ENCAPSULATION + bytes(payload)


#: Stamps and frames a check of the writer against rclpy's serialization covers.
PROBE = (TransformOut('base_link', 'a', -2 ** 31 * NS_PER_S, (0.1, -2.0, 3.5),
                      (0.0, 0.6, 0.0, 0.8)),
         TransformOut('a', 'bb', -1, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
         TransformOut('bb', 'ccc', (2 ** 31 - 1) * NS_PER_S + 999_999_999, (1e-300, 1e300, -0.0),
                      (0.5, 0.5, 0.5, 0.5)))


def tf_serializer(mode: str, make_message: Callable[[Sequence[TransformOut]], Any],
                  serialize: Optional[Callable[[Any], bytes]], logger) -> Callable:
    """
    Choose how the ``/tf`` path turns transforms into what it publishes.

    :param mode: ``messages`` (rclpy's message objects) or ``cdr`` (this module's bytes, used
        only when they equal ``serialize``'s bytes for :data:`PROBE`).
    :param make_message: transforms to a ``tf2_msgs/TFMessage``.
    :param serialize: rclpy's ``serialize_message`` (None where it is missing).
    :param logger: where the fall-back is reported.
    :return: a function of the transforms giving a message or its bytes.
    """
    if mode != 'cdr':
        return make_message
    writer = TFMessageWriter()
    if serialize is not None and writer.serialize(PROBE) == serialize(make_message(PROBE)):
        return writer.serialize
    logger.warning("tf_serialization is cdr but its bytes differ from rclpy's serialization "
                   "here: publishing rclpy's message objects")
    return make_message
