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
Writing a file in full or not at all.

A study or a picture is written under a temporary name in the folder of the file it replaces,
then renamed over it: a write that fails (a full disk) or is interrupted (Ctrl-C) removes the
temporary file and leaves the file as it was, never a truncated file.
"""

import contextlib
import errno
import os
import secrets
import stat
from typing import Iterator

#: Attempts at a temporary name that no file has yet.
_NAME_ATTEMPTS = 100

#: Longest file name (bytes) where the file system does not say (POSIX's usual limit).
DEFAULT_NAME_MAX = 255

#: Longest ending of a file name that a temporary name keeps (``.png``, ``.npz``).
_SUFFIX_MAX = 16


def name_limit(path: str) -> int:
    """
    Return the longest file name, in bytes, that the folder of ``path`` accepts.

    :param path: a file (its folder exists).
    :return: the file system's limit, else :data:`DEFAULT_NAME_MAX`.
    """
    folder = os.path.dirname(os.path.abspath(path))
    try:
        return int(os.pathconf(folder, 'PC_NAME_MAX'))
    except (AttributeError, OSError, ValueError):  # no pathconf, or no answer
        return DEFAULT_NAME_MAX


def name_too_long(path: str) -> bool:
    """
    Whether the file name of ``path`` is longer than its folder's file system accepts.

    :param path: a file (its folder exists).
    :return: True when writing it would fail with "File name too long".
    """
    return len(os.fsencode(os.path.basename(path))) > name_limit(path)


def _temporary(target: str) -> str:
    """Create an empty file beside ``target``, ending as it does; return its name."""
    folder, base = os.path.split(target)
    suffix = os.path.splitext(base)[1]
    suffix = suffix if len(suffix) <= _SUFFIX_MAX else ''  # the name stays short
    for _ in range(_NAME_ATTEMPTS):
        name = os.path.join(folder, f'.{secrets.token_hex(8)}.partial{suffix}')
        try:  # the mode of a new file, as the umask makes it
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return name
    raise FileExistsError(f'no free temporary name beside {target}')


@contextlib.contextmanager
def replacing(path: str) -> Iterator[str]:
    """
    Give the name to write ``path`` under, and put what was written in place at the end.

    A new file, or a regular file (also through a symbolic link), is written under a
    temporary name beside it and renamed over it when the block ends without an exception;
    the replaced file's permissions are kept, and a file this process may not write is refused
    as writing it in place would be. On an exception (an ``OSError``, an interrupt)
    the temporary file is removed and ``path`` is left as it was. Anything else (a FIFO, a
    device), and a file that may be written in a folder that may not (no temporary file can be
    made beside it), is written in place: ``path`` itself is given.

    :param path: the file to write (its folder exists).
    :return: the name to write.
    :raises OSError: for a file that may not be written (``PermissionError``), or a temporary
        file that cannot be made or renamed.
    """
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        yield path
        return
    if mode is not None and not os.access(target, os.W_OK):  # refused, as writing it would be
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    if mode is not None and not os.access(os.path.dirname(target), os.W_OK | os.X_OK):
        yield path  # writable where its folder is not: in place, as it was written before
        return
    name = _temporary(target)
    try:
        if mode is not None:
            os.chmod(name, stat.S_IMODE(mode))
        yield name
        os.replace(name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
