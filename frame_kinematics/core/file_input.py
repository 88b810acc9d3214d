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
Reading a file given by a user: once, in chunks, bounded.

Regular files, devices and pipes (``/dev/stdin``, a shell's ``<(command)``) are read in
chunks and refused as soon as they pass the caller's limit, so an endless device costs no more
memory than the limit. A FIFO of the file system is opened without waiting for a writer; if no
data comes within :data:`FIFO_WAIT_SECONDS`, at first or after some data while the writer keeps
it open, it is refused. Every failure is an error the caller
makes from a message that names the file.
"""

import math
import os
import select
import stat
from typing import Callable, Optional, Union

from .checks import as_path
from .errors import FrameKinematicsError, LINE_LENGTH, shown_path

#: Bytes read from a file at a time.
_CHUNK_BYTES = 1024 * 1024

#: Seconds a FIFO of the file system may stay without data (at first, or between two chunks
#: while its writer keeps it open) before it is refused.
FIFO_WAIT_SECONDS = 10.0

#: Makes the caller's error from a message (e.g. the error class itself).
ErrorMaker = Callable[[str], FrameKinematicsError]


def _is_named_pipe(name) -> bool:
    """Whether ``name`` is a FIFO in the file system (not a pipe a process holds open)."""
    try:
        return stat.S_ISFIFO(os.lstat(os.path.realpath(name)).st_mode)
    except OSError:  # called once os.open took the name: only the file system can fail here
        return False


def _wait_for_data(fd: int, shown: str, wait: float, received: int,
                   error: 'ErrorMaker') -> None:
    """Wait until a FIFO has data or is closed by its writer, at most ``wait`` seconds."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    if poller.poll(max(0, int(math.ceil(wait * 1000)))):
        return
    if not received:
        raise error(f"file '{shown}': no process wrote to this FIFO within {wait:g} s: start "
                    'the writer first, or give a file')
    raise error(f"file '{shown}': its writer sent nothing for {wait:g} s after {received} "
                'bytes, and did not close this FIFO')


def read_bounded(path: Union[str, bytes, os.PathLike], limit: int, error: ErrorMaker,
                 what: str = 'a path', wait: Optional[float] = None) -> bytes:
    """
    Read a file's bytes once, at most ``limit`` of them.

    :param path: path of the file (str, bytes or os.PathLike).
    :param limit: the most bytes accepted.
    :param error: makes the library error raised from a message that names the file (an
        error class whose first argument is the message will do).
    :param what: what the path is, for the message about a path of another type.
    :param wait: seconds a FIFO may stay without data (default :data:`FIFO_WAIT_SECONDS`).
    :return: the bytes.
    :raises FrameKinematicsError: made by ``error``, if ``path`` is not a path, cannot be
        read, is larger than ``limit``, or is a FIFO whose writer sends nothing for ``wait``
        seconds (at first, or after some data without closing it).
    """
    name = as_path(path, what, error)
    shown = shown_path(os.fsdecode(name), LINE_LENGTH)  # a path may be megabytes long
    data = bytearray()
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0))
        try:
            fifo = hasattr(select, 'poll') and stat.S_ISFIFO(os.fstat(fd).st_mode) and \
                _is_named_pipe(name)
            if not fifo:
                os.set_blocking(fd, True)
            while len(data) <= limit:
                if fifo:  # read only what poll says is there: a silent writer is timed out
                    _wait_for_data(fd, shown, FIFO_WAIT_SECONDS if wait is None else wait,
                                   len(data), error)
                chunk = os.read(fd, min(_CHUNK_BYTES, limit + 1 - len(data)))
                if not chunk:
                    break
                data += chunk
        finally:
            os.close(fd)
    except FrameKinematicsError:
        raise
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise error(f"cannot read '{shown}': {reason}") from None
    if len(data) > limit:
        raise error(f"file '{shown}': larger than the limit of {limit} bytes")
    return bytes(data)
