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
The ``/tf`` path's executor: one node spun by an executor of its own, in a thread of its own.

rclpy's executors rebuild their wait set on every wake-up, at a cost that grows with every
entity they carry: the ``joint_states`` subscription is therefore alone on a node of its own,
spun by its own executor, so that neither the services nor the parameter callbacks of the main
node are in its wait set, and a service never delays ``/tf`` by holding an executor. Only
rclpy's public API is used: :class:`rclpy.executors.SingleThreadedExecutor`, or the events
executor (``rclpy.experimental.EventsExecutor``) where the distribution has it, found by
feature detection.

Each wake-up of an executor costs far more than what a message needs (a wait set built in
Python). The node's ``joint_states`` callback
(:class:`~frame_kinematics.bridge.intake.JointStateIntake`) therefore takes, after the message
a wake-up brought, the messages queued behind it, as rclpy's executors take one (the
subscription's handle), where the handle offers it: :func:`queue_taker` finds out, and without
it every message is one wake-up.
"""

import importlib
import threading
from typing import Any, Callable, Optional

from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.node import Node


def events_executor_class() -> Optional[type]:
    """
    Return rclpy's events executor class where this distribution has it.

    :return: ``rclpy.experimental.EventsExecutor``, or None (Humble, Jazzy).
    """
    try:
        experimental = importlib.import_module('rclpy.experimental')
    except ImportError:
        return None
    return getattr(experimental, 'EventsExecutor', None)


def guarded(callback: Callable[[Any], None], on_error: Callable[[Exception], None]
            ) -> Callable[[Any], None]:
    """
    Wrap a subscription callback so that an exception it lets through is reported, not raised.

    An exception raised in a callback would end the executor's spin, and ``/tf`` with it.

    :param callback: the callback.
    :param on_error: called with the exception.
    :return: the wrapped callback.
    """
    def call(msg: Any) -> None:
        try:
            callback(msg)
        except Exception as exc:  # a bug must not end /tf: report it, go on
            on_error(exc)
    return call


def queue_taker(subscription: Any) -> Optional[Callable[[], Any]]:
    """
    Return a function that takes a subscription's next queued message, if rclpy lets it.

    rclpy's executors take a message with ``handle.take_message(msg_type, raw)`` inside
    ``with handle:`` (the subscription's handle, Humble and Jazzy alike); rclpy has no public
    call for it, so it is used only where the handle offers exactly that.

    :param subscription: an rclpy subscription.
    :return: a function that returns the next message (bytes for a raw subscription) or None
        when the queue is empty; None when the handle does not offer it.
    """
    handle = getattr(subscription, 'handle', None)
    take = getattr(handle, 'take_message', None)
    if not (callable(take) and hasattr(handle, '__enter__') and hasattr(handle, '__exit__')):
        return None
    msg_type, raw = subscription.msg_type, subscription.raw

    def take_next() -> Any:
        with handle:
            taken = take(msg_type, raw)
        return None if taken is None else taken[0]
    return take_next


class ExecutorThread:
    """
    Spin one node with an executor of its own, in a thread of its own.

    The thread waits for work without a timeout; :meth:`stop` wakes it with a guard condition
    of the node, so it ends at once and nothing polls.

    :param node: the node (in no other executor).
    :param name: the thread's name.
    :param executor_class: the executor (default: the events executor where rclpy has it,
        else :class:`~rclpy.executors.SingleThreadedExecutor`).
    """

    def __init__(self, node: Node, name: str, executor_class: Optional[type] = None) -> None:
        """Create the executor and add the node (the thread starts with :meth:`start`)."""
        kind = executor_class or events_executor_class() or SingleThreadedExecutor
        self.executor = kind(context=node.context)
        self.executor.add_node(node)
        self._context = node.context
        #: set when the thread is asked to stop.
        self.stopping = threading.Event()
        self._wake = node.create_guard_condition(lambda: None)
        self._thread = threading.Thread(target=self._spin, name=name, daemon=True)

    def start(self) -> None:
        """Start spinning."""
        self._thread.start()

    def _spin(self) -> None:
        try:
            while not self.stopping.is_set() and self._context.ok():
                self.executor.spin_once()
        except ExternalShutdownException:
            pass

    def stop(self) -> None:
        """Wake the thread, wait for it to end, then shut the executor down."""
        self.stopping.set()
        self._wake.trigger()
        if self._thread.is_alive():
            self._thread.join()
        self.executor.shutdown()


__all__ = ['events_executor_class', 'ExecutorThread', 'guarded', 'queue_taker']
