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
The files of reach studies (point clouds, saved studies): read once, bounded, parsed safely.

A file is read once by :func:`~frame_kinematics.core.file_input.read_bounded` (devices and
pipes up to the limit; a FIFO nobody writes to is refused after a wait). The arrays of an
``.npz`` are parsed from its bytes: the unpacked size each member declares, and the size its
array header declares, are checked before any array is made, so that a zip bomb costs no
memory. Every failure is a :class:`~frame_kinematics.core.errors.TargetFileError` naming the
file.
"""

import io
import math
import os
import struct
from types import MappingProxyType
from typing import Dict, Optional, Sequence
import zipfile
import zlib

import numpy as np

from ..checks import as_path
from ..errors import excerpt, LINE_LENGTH, quote, TargetFileError
from ..file_input import read_bounded

#: Largest point file read, and largest unpacked size of the arrays read from an ``.npz``.
MAX_FILE_BYTES = 512 * 1024 * 1024
#: Largest saved study (file and unpacked arrays): a study of
#: :data:`~frame_kinematics.core.reach.MAX_TARGETS` targets of a robot of up to 56 joint
#: coordinates fits.
MAX_STUDY_BYTES = 4 * 1024 * 1024 * 1024
#: What can go wrong parsing the bytes of a zip of ``.npy`` arrays.
_NPZ_ERRORS = (zipfile.BadZipFile, zlib.error, struct.error, EOFError, ValueError, OSError,
               KeyError, RuntimeError, NotImplementedError)
_HEADERS = MappingProxyType({(1, 0): np.lib.format.read_array_header_1_0,
                             (2, 0): np.lib.format.read_array_header_2_0})


def file_name(path, what: str) -> str:
    """
    Return the name of a file given as ``str``, ``bytes`` or ``os.PathLike``.

    :param path: the path.
    :param what: what the path is, for the message about another type.
    :return: the name as a str.
    :raises TargetFileError: for another type.
    """
    return os.fsdecode(as_path(path, what,
                               lambda message: TargetFileError(f'is not a path: {message}',
                                                               quote(path))))


def read_file(name: str, limit: int) -> bytes:
    """
    Read a file's bytes once, at most ``limit`` of them.

    :param name: the file.
    :param limit: the most bytes accepted.
    :return: the bytes.
    :raises TargetFileError: for a file that cannot be read, is larger than ``limit``, or is a
        FIFO nobody writes to (the message of
        :func:`~frame_kinematics.core.file_input.read_bounded`, which names the file).
    """
    def error(message: str) -> TargetFileError:
        made = TargetFileError(message, name)
        made.args = (message,)  # the message names the file already
        return made

    return read_bounded(name, limit, error, 'a target file path')


def read_arrays(data: bytes, name: str, keys: Sequence[str], limit: int,
                max_rows: Optional[int] = None) -> Dict[str, np.ndarray]:
    """
    Parse the arrays ``keys`` (those present) from the bytes of an ``.npz``.

    :param data: the file's bytes.
    :param name: the file, for messages.
    :param keys: the arrays wanted.
    :param limit: the most bytes the arrays may unpack to, together.
    :param max_rows: the most rows (first dimension) an array may declare (None: no limit
        but ``limit``); checked from its header, before it is unpacked.
    :return: the arrays found, by key.
    :raises TargetFileError: for bytes that are not a zip of ``.npy`` arrays, an array that
        is not numbers or text, or arrays larger than ``limit`` or ``max_rows``.
    """
    if not data:
        raise TargetFileError('is empty', name)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            present = set(archive.namelist())
            members = {key: archive.getinfo(key + '.npy') for key in keys
                       if key + '.npy' in present}
            size = sum(info.file_size for info in members.values())
            if size > limit:
                raise TargetFileError(f'holds arrays of {size} bytes unpacked: more than the '
                                      f'limit of {limit} bytes', name)
            return {key: _array(archive, info, key, name, max_rows)
                    for key, info in members.items()}
    except TargetFileError:
        raise
    except _NPZ_ERRORS as exc:
        raise TargetFileError(f'is not a readable .npz: {type(exc).__name__}: '
                              f'{excerpt(str(exc), LINE_LENGTH)}', name) from None


def _array(archive: zipfile.ZipFile, info: zipfile.ZipInfo, key: str, name: str,
           max_rows: Optional[int]) -> np.ndarray:
    """Read a member once its header is checked: numbers or text, no more than it holds."""
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise TargetFileError(f"array '{key}' has an unsupported compression", name)
    with archive.open(info) as stream:
        header = _HEADERS.get(np.lib.format.read_magic(stream))
        if header is None:
            raise TargetFileError(f"array '{key}' has an unsupported .npy version", name)
        shape, _, dtype = header(stream)
    if dtype.kind not in 'biufU' or not dtype.itemsize:
        raise TargetFileError(f"array '{key}' holds {dtype}: not numbers or text", name)
    if math.prod(shape) * dtype.itemsize > info.file_size:
        raise TargetFileError(f"array '{key}' declares {quote(shape)} of {dtype}: more "
                              f'than its {info.file_size} bytes hold', name)
    if max_rows is not None and shape and shape[0] > max_rows:
        raise TargetFileError(f"array '{key}' declares {shape[0]} rows: more than the limit "
                              f'of {max_rows}', name)
    with archive.open(info) as stream:
        return np.lib.format.read_array(stream, allow_pickle=False)
