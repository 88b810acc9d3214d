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
SIGTERM as an exception: the clean-ups of a process's ``main()`` run when it is terminated.

Python's default for SIGTERM ends the process at once, skipping every ``finally`` block: a file
being written under a temporary name (:func:`~frame_kinematics.core.file_output.replacing`)
would stay beside its output. While :func:`sigterm_raises_exit` holds, SIGTERM raises
``SystemExit`` in the main thread instead, as a Ctrl-C raises ``KeyboardInterrupt``.
"""

import contextlib
import signal
import threading
from typing import Iterator


def _exit(signum: int, frame) -> None:
    """Raise ``SystemExit`` with the shell's status of a process ended by ``signum``."""
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def sigterm_raises_exit() -> Iterator[None]:
    """
    Make SIGTERM raise ``SystemExit(143)`` while the block runs; restore the handler after it.

    Only the main thread receives signals in Python: elsewhere the block runs unchanged.
    Compiled code in progress runs to its end before the exception is raised.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _exit)
    try:
        yield
    finally:
        # None: a handler installed outside Python, which Python cannot put back
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


__all__ = ['sigterm_raises_exit']
