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
Expanding a xacro document in a child process, which the command line stops after a while.

xacro evaluates the document's Python expressions and reads its includes, so that a document
may run for ever (``${9**9**9}``, an include of a FIFO). Run as ``python -m
frame_kinematics.cli.xacro_process PATH LIMIT`` with the document (UTF-8) on stdin, it prints
``ok`` and the URDF, or ``error`` and one line of message when xacro refuses the document or
expands it to more than ``LIMIT`` bytes (lines after the first one of stdout).
"""

import os
import re
import sys
from typing import Optional, Sequence

from .common import CommandLineError
from ..core.errors import excerpt, LINE_LENGTH

#: Memory the child may take (its data segment, ``RLIMIT_DATA``), where the system has such
#: limits: enough for xacro to expand a document to a URDF at the size limit, and a bound on
#: an expression that builds a huge value (``${[0] * 10**10}``), refused with a MemoryError.
XACRO_MEMORY_BYTES = 4 * 1024 ** 3

#: ``$(find package)`` in a xacro document.
_FIND = re.compile(r'\$\(find\s+([^\s)]+)\s*\)')


def _find_failure(path: str, text: str, exc: Exception) -> str:
    """Explain a ``$(find pkg)`` that xacro could not resolve, naming the package."""
    named = re.search(r"package '([^']+)'", str(exc)) or _FIND.search(text)
    package = named.group(1) if named else 'a package'
    if 'ament_index_python' in str(exc):
        return (f"{path}: xacro cannot resolve $(find {package}): ROS 2's ament index is not "
                f'available (source the ROS 2 workspace that installs {package}, then run '
                'the command again)')
    return (f"{path}: xacro cannot resolve $(find {package}): the package '{package}' is not "
            'installed in the sourced ROS 2 workspaces (AMENT_PREFIX_PATH)')


def _out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` is a MemoryError, or wraps one (xacro's errors hold theirs in ``exc``)."""
    seen = 0
    while exc is not None and seen < 64:
        if isinstance(exc, MemoryError):
            return True
        exc, seen = getattr(exc, 'exc', None), seen + 1
    return False


def expand(path: str, text: str) -> str:
    """
    Expand a xacro document with the ``xacro`` package, in this process.

    :param path: the file it was read from (includes are found relative to it).
    :param text: the document.
    :return: the URDF text.
    :raises CommandLineError: for a document xacro refuses or a package it cannot find.
    """
    import xacro
    try:
        xacro.init_stacks(os.path.abspath(path))
        tree = xacro.parse(text)
        xacro.process_doc(tree)
        return tree.toxml()
    except Exception as exc:  # noqa: B902 (xacro evaluates the document's Python expressions)
        if _out_of_memory(exc):
            raise CommandLineError(f'{path}: xacro cannot expand it within '
                                   f'{XACRO_MEMORY_BYTES / 1024 ** 3:g} GiB of memory'
                                   ) from None
        if '$(find' in text and ('ament_index' in str(exc) or
                                 type(exc).__name__ == 'PackageNotFoundError' or
                                 'PackageNotFoundError' in repr(getattr(exc, 'exc', None))):
            raise CommandLineError(_find_failure(path, text, exc)) from None
        reason = excerpt(' '.join(str(exc).split()), LINE_LENGTH) or type(exc).__name__
        raise CommandLineError(f'{path}: xacro cannot expand it: {reason}') from None


def limit_memory(limit: int) -> None:
    """
    Bound this process's data segment (``RLIMIT_DATA``) to ``limit`` bytes, where it can be.

    A lower limit already set is kept; without the ``resource`` module (Windows), nothing is
    done.

    :param limit: the most bytes.
    """
    try:
        import resource
    except ImportError:  # pragma: no cover (not POSIX)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    lowest = [value for value in (soft, hard) if value != resource.RLIM_INFINITY]
    resource.setrlimit(resource.RLIMIT_DATA, (min([limit] + lowest), hard))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """
    Expand the document on stdin and print the outcome on stdout (see the module).

    :param argv: ``[PATH, LIMIT]`` (default: the process's arguments).
    :return: the exit status, 0.
    """
    path, limit = argv if argv is not None else sys.argv[1:]
    limit_memory(XACRO_MEMORY_BYTES)
    text = sys.stdin.buffer.read().decode('utf-8')
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # what xacro prints is not the URDF
    try:
        urdf = expand(path, text).encode('utf-8')
        if len(urdf) > int(limit):
            raise CommandLineError(f'{path}: xacro expands it to more than the limit of '
                                   f'{limit} bytes')
        out.write(b'ok\n' + urdf)
    except CommandLineError as exc:
        out.write(b'error\n' + ' '.join(str(exc).split()).encode('utf-8', 'replace'))
    out.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
