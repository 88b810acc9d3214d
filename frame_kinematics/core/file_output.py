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
import os
import secrets
import stat
from typing import Iterator

#: Attempts at a temporary name that no file has yet.
_NAME_ATTEMPTS = 100


def _temporary(target: str) -> str:
    """Create an empty file beside ``target``, ending as it does; return its name."""
    folder, base = os.path.split(target)
    for _ in range(_NAME_ATTEMPTS):
        name = os.path.join(folder, f'.{secrets.token_hex(4)}.partial.{base}')
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
    the replaced file's permissions are kept. On an exception (an ``OSError``, an interrupt)
    the temporary file is removed and ``path`` is left as it was. Anything else (a FIFO, a
    device) is written in place: ``path`` itself is given.

    :param path: the file to write (its folder exists).
    :return: the name to write.
    :raises OSError: for a temporary file that cannot be made or renamed.
    """
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        yield path
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
