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
When joint transforms are due on ``/tf``, and the stamps of the robot CoM frame.

Throttling follows robot_state_publisher: a message is due when its stamp is at least
``int(1000 / publish_frequency)`` whole milliseconds after the least recently published joint
it names (with ``publish_frequency: 0``, when it is not older), or always with
``ignore_timestamp``. If the node clock goes backwards, the publish history is cleared.

The robot CoM frame is one child frame fed by every joint_states source: two sources stamped
with the same tick would send it twice with one stamp (tf2 listeners warn TF_REPEATED_DATA and
drop the newer value). Its stamps are therefore made strictly increasing.

The CoM markers (for RViz) go with the CoM frame, at most once per :data:`MARKER_PERIOD_NS`
of stamps: a display needs no more, and joint_states may come at 1 kHz.

The ``/tf`` path may take joint_states in batches (:meth:`Throttle.pause_ns`): after a publish,
nothing is due before about one interval has passed, so the path may wait for most of it and
then take what was queued meanwhile, in order, as if each message had been taken on arrival.
Otherwise (every message due, or the throttle's wait over), a fast stream (its stamps at most
:data:`MAX_STREAM_PAUSE_NS` apart) is taken after a wait of one of its periods. The published
transforms and their stamps are the same; only the messages that arrive during a wait are
published up to that wait later.
"""

import math
from typing import Dict, Optional, Sequence

#: Largest stamp interval (ns): a tiny publish_frequency means "hardly ever", not overflow.
MAX_INTERVAL_NS = 2 ** 62
#: Stamps of two sources this close count as one tick (their CoM frames are one stamp unit apart).
SAME_TICK_NS = 1_000_000
#: Shortest stamp interval between two CoM marker arrays (10 per second).
MARKER_PERIOD_NS = 100_000_000
#: Earliest and latest stamps a ``builtin_interfaces/Time`` holds (``sec`` is an int32).
MIN_STAMP_NS = -2 ** 31 * 1_000_000_000
MAX_STAMP_NS = (2 ** 31 - 1) * 1_000_000_000 + 999_999_999
#: Share of the publish interval the ``/tf`` path may wait after a publish.
PAUSE_SHARE = 0.9
#: Longest wait (ns) of the ``/tf`` path between two batches of joint_states.
MAX_PAUSE_NS = 50_000_000
#: Longest wait (ns) of the ``/tf`` path when every message is due: one period of a stream of
#: 500 Hz or faster (slower streams are taken message by message).
MAX_STREAM_PAUSE_NS = 2_000_000
#: Depth of the joint_states queue: what a 1 kHz stream sends in a second (robot_state_publisher:
#: 5). It holds the longest wait many times over, and what arrives while a busy machine does not
#: run the ``/tf`` thread for a few hundred milliseconds: the node then catches up in a batch
#: instead of dropping messages.
JOINT_STATES_DEPTH = 1000


def publish_interval_ns(publish_frequency: float) -> int:
    """
    Throttle interval of a publish frequency, in whole milliseconds, as nanoseconds.

    :param publish_frequency: Hz, >= 0.
    :return: ``int(1000 / publish_frequency)`` ms in ns, at most :data:`MAX_INTERVAL_NS`; 0
        for 0 Hz, as robot_state_publisher 3.3 takes it: every message is due that is not
        older than the last published stamp of the joints it names.
    """
    if publish_frequency == 0:
        return 0
    ms = 1000.0 / publish_frequency
    if not math.isfinite(ms) or ms * 1e6 >= MAX_INTERVAL_NS:
        return MAX_INTERVAL_NS
    return int(ms) * 1_000_000


class Throttle:
    """
    Per-joint publish history of the ``/tf`` path (one thread uses it).

    :param logger: where the backwards-time warning goes.
    """

    def __init__(self, logger) -> None:
        self.logger = logger
        self._last_publish: Dict[str, int] = {}
        self._last_callback_ns = 0
        #: stamp of the last robot CoM frame sent, None after a reset.
        self.last_com_ns: Optional[int] = None
        self._last_markers_ns: Optional[int] = None
        #: the joints of the last publish (a non-empty tuple) and its stamp: a stream that
        #: repeats them reads the history in one comparison.
        self._last_joints: Optional[Sequence[str]] = None
        self._last_joints_ns = 0
        #: the node clock when a message was last due, None after a reset.
        self._due_at_ns: Optional[int] = None
        #: the stamp of the last message, and how far it was from the one before (0: unknown).
        self._last_stamp_ns: Optional[int] = None
        self._stamp_gap_ns = 0

    def reset(self) -> None:
        """Forget the publish history (model swap)."""
        self._last_publish.clear()
        self._last_joints = None
        self.last_com_ns = None
        self._last_markers_ns = None
        self._due_at_ns = None
        self._last_stamp_ns = None
        self._stamp_gap_ns = 0

    def markers_due(self, com_ns: int) -> bool:
        """
        Whether the CoM markers go with the CoM frame stamped ``com_ns``, and record it if so.

        :param com_ns: the stamp of the CoM frame (see :meth:`com_stamp`).
        :return: True for the first one, then once :data:`MARKER_PERIOD_NS` has passed.
        """
        last = self._last_markers_ns
        if last is not None and last <= com_ns < last + MARKER_PERIOD_NS:
            return False
        self._last_markers_ns = com_ns
        return True

    def due(self, stamp_ns: int, joints: Sequence[str], now_ns: int,
            interval_ns: Optional[int]) -> bool:
        """
        Whether a message is due, and record it if so.

        :param stamp_ns: the message stamp.
        :param joints: the joints it moves.
        :param now_ns: the node clock.
        :param interval_ns: see :func:`publish_interval_ns`; None: every message is due.
        :return: whether to publish its transforms.
        """
        if now_ns < self._last_callback_ns:
            self.logger.warning('moved backwards in time, re-publishing joint transforms')
            self.reset()
        self._last_callback_ns = now_ns
        if self._last_stamp_ns is not None:
            self._stamp_gap_ns = stamp_ns - self._last_stamp_ns
        self._last_stamp_ns = stamp_ns
        publish = interval_ns is None
        if not publish:
            if joints is self._last_joints:  # each of them last published at that stamp
                last = min(now_ns, self._last_joints_ns)
            else:
                last = now_ns
                history = self._last_publish
                for name in joints:
                    last = min(last, history.get(name, 0))
            publish = stamp_ns >= last + interval_ns
        if publish:
            for name in joints:
                self._last_publish[name] = stamp_ns
            self._last_joints = joints if len(joints) else None
            self._last_joints_ns = stamp_ns
            self._due_at_ns = now_ns
        return publish

    def pause_ns(self, now_ns: int, interval_ns: Optional[int], sim_time: bool) -> int:
        """
        How long the ``/tf`` path may wait before it takes joint_states again.

        :param now_ns: the node clock.
        :param interval_ns: see :func:`publish_interval_ns`; None: every message is due.
        :param sim_time: whether the node clock is simulated time (its pace is not the wall
            clock's, so the path never waits).
        :return: with a throttle, until :data:`PAUSE_SHARE` of the interval has passed since
            the last due message, at most :data:`MAX_PAUSE_NS`; after that, or when every
            message is due, one period of the stream (the stamp gap between its last two
            messages) when it is at most :data:`MAX_STREAM_PAUSE_NS`, else 0; 0 under
            simulated time.
        """
        if sim_time:
            return 0
        if interval_ns is not None and self._due_at_ns is not None:
            end = self._due_at_ns + int(interval_ns * PAUSE_SHARE)
            if end > now_ns:
                return min(end - now_ns, MAX_PAUSE_NS)
        gap = self._stamp_gap_ns
        return gap if 0 < gap <= MAX_STREAM_PAUSE_NS else 0

    def com_stamp(self, stamp_ns: int) -> Optional[int]:
        """
        Stamp for the robot CoM frame of a message, strictly after the previous one.

        :param stamp_ns: the message stamp.
        :return: the stamp (one nanosecond after the previous one when the message repeats
            its stamp, give or take :data:`SAME_TICK_NS`), or None for a message older than
            that, or when the next stamp would be past :data:`MAX_STAMP_NS` (no CoM is sent
            for it).
        """
        last = self.last_com_ns
        if last is not None and stamp_ns <= last:
            if last - stamp_ns >= SAME_TICK_NS or last >= MAX_STAMP_NS:
                return None
            stamp_ns = last + 1
        self.last_com_ns = stamp_ns
        return stamp_ns
