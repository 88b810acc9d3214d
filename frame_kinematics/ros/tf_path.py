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
        self._stop = threading.Event()
        self._wake = node.create_guard_condition(lambda: None)
        self._thread = threading.Thread(target=self._spin, name=name, daemon=True)

    def start(self) -> None:
        """Start spinning."""
        self._thread.start()

    def _spin(self) -> None:
        try:
            while not self._stop.is_set() and self._context.ok():
                self.executor.spin_once()
        except ExternalShutdownException:
            pass

    def stop(self) -> None:
        """Wake the thread, wait for it to end, then shut the executor down."""
        self._stop.set()
        self._wake.trigger()
        if self._thread.is_alive():
            self._thread.join()
        self.executor.shutdown()


__all__ = ['events_executor_class', 'ExecutorThread', 'guarded']
