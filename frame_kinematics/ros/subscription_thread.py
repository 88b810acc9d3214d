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
One subscription, waited on and taken in a thread of its own: the ``/tf`` path's executor.

rclpy's executors rebuild their wait set in Python and walk every entity of their nodes on
each wake-up: at 1 kHz joint_states that alone costs about a fifth of a core. This loop waits
on the one subscription with rclpy's wait set (as ``rclpy.wait_for_message`` does), takes
every message that is ready and hands it to the callback: a few percent of a core. It waits
at most :data:`WAKE_PERIOD` at a time, so :meth:`SubscriptionThread.stop` ends it promptly.
"""

import threading
from typing import Any, Callable

from rclpy.context import Context
from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
from rclpy.subscription import Subscription

#: Longest wait (s) before the loop checks whether to stop.
WAKE_PERIOD = 0.1


class SubscriptionThread:
    """
    Take the messages of one subscription in a thread of its own.

    The subscription's node must not be in an executor (which would take them too).

    :param subscription: the subscription.
    :param context: the rclpy context of its node.
    :param callback: called with each message, in the thread.
    :param on_error: called with an exception the callback let through (the loop goes on).
    :param name: the thread's name.
    """

    def __init__(self, subscription: Subscription, context: Context,
                 callback: Callable[[Any], None], on_error: Callable[[Exception], None],
                 name: str) -> None:
        self._subscription = subscription
        self._context = context
        self._callback = callback
        self._on_error = on_error
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        """Start taking messages."""
        self._thread.start()

    def stop(self) -> None:
        """Stop taking messages and wait for the thread to end."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        subscription = self._subscription
        handle = subscription.handle
        context = self._context
        wait_set = _rclpy.WaitSet(1, 0, 0, 0, 0, 0, context.handle)
        timeout_ns = int(WAKE_PERIOD * 1e9)
        while not self._stop.is_set() and context.ok():
            wait_set.clear_entities()
            wait_set.add_subscription(handle)
            wait_set.wait(timeout_ns)
            if not wait_set.is_ready('subscription', 0):
                continue
            while not self._stop.is_set():
                taken = handle.take_message(subscription.msg_type, subscription.raw)
                if taken is None:
                    break
                try:
                    self._callback(taken[0])
                except Exception as exc:  # a bug must not end /tf: report it, go on
                    self._on_error(exc)
