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
The ``/tf`` path's ``joint_states`` callback: a wake-up takes the queued messages in a batch.

An rclpy executor's wake-up costs far more than what a message needs, so after the message a
wake-up brought, the messages queued behind it are taken too, in order, and with a publish
throttle only after most of the interval has passed
(:meth:`~frame_kinematics.bridge.throttle.Throttle.pause_ns`). Nothing here knows ROS: the
queue is a function that returns the next message or None
(:func:`frame_kinematics.ros.tf_path.queue_taker`).
"""

import threading
from typing import Any, Callable, Optional


class JointStateIntake:
    """
    The ``joint_states`` callback of the ``/tf`` path: each wake-up takes the queue in a batch.

    Called with the message a wake-up brought, it hands it on; then, when it has a queue
    (:func:`~frame_kinematics.ros.tf_path.queue_taker`), it waits as long as ``pause_ns``
    says (woken at once by ``stopping``) and hands on every message queued meanwhile, in
    order, at most ``depth`` of them; and again, as long as a wait brought messages, until
    ``pause_ns`` says 0 or the queue is found empty (then the executor waits for the next
    message). A taker that fails is reported once and dropped: from then on, every message is
    one wake-up.

    :param handle: called with each message, in order.
    :param pause_ns: how long to wait before taking the queue (ns), asked after each wake-up.
    :param depth: the subscription's queue depth (the most a batch takes).
    :param on_error: called with the exception of a taker that failed.
    """

    def __init__(self, handle: Callable[[Any], None], pause_ns: Callable[[], int], depth: int,
                 on_error: Callable[[Exception], None]) -> None:
        """Make the callback (:meth:`attach` gives it the queue)."""
        self._handle = handle
        self._pause_ns = pause_ns
        self._depth = depth
        self._on_error = on_error
        self._take_next: Optional[Callable[[], Any]] = None
        self._stopping: Optional[threading.Event] = None

    def attach(self, take_next: Optional[Callable[[], Any]], stopping: threading.Event) -> None:
        """
        Give the callback the subscription's queue.

        :param take_next: returns the next queued message or None
            (:func:`~frame_kinematics.ros.tf_path.queue_taker`; None: one message per wake-up).
        :param stopping: set when the ``/tf`` path stops (ends a wait and a batch).
        """
        self._take_next = take_next
        self._stopping = stopping

    def __call__(self, msg: Any) -> None:
        """Hand on ``msg``, then (with a queue) wait and hand on the queued messages, in turns."""
        self._handle(msg)
        take_next, stopping = self._take_next, self._stopping
        if take_next is None:
            return
        while True:
            pause = self._pause_ns()
            if pause > 0 and stopping.wait(pause * 1e-9):
                return
            taken = self._take_queue(take_next, stopping)
            if not (taken and pause):  # an empty queue, or no reason to wait: the executor's
                return

    def _take_queue(self, take_next: Callable[[], Any], stopping: threading.Event) -> int:
        """Hand on the queued messages, at most ``depth``; return how many."""
        for taken in range(self._depth):
            if stopping.is_set():
                return taken
            try:
                msg = take_next()
            except Exception as exc:  # rclpy changed: one message per wake-up from now on
                self._take_next = None
                self._on_error(exc)
                return taken
            if msg is None:
                return taken
            self._handle(msg)
        return self._depth


__all__ = ['JointStateIntake']
