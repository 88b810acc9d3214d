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
Points with normals from a file: CSV, NPZ, PLY and PCD (ASCII and binary little-endian).

REACH samples its targets from such a cloud. Every file is bounded as a URDF is: it is read
once, at most :data:`~.files.MAX_FILE_BYTES` (:mod:`.files`: a device or a pipe cannot make it
grow, a FIFO nobody writes to is refused, an ``.npz`` is parsed from the bytes with its
unpacked sizes checked first), the point count a header declares is checked before any array
is made (at most :data:`MAX_POINTS`), and NaN, inf, huge values, zero normals and an empty
cloud are refused with a :class:`~frame_kinematics.core.errors.TargetFileError` naming the
file.

* ``.csv``/``.txt``: rows ``x y z nx ny nz`` (commas or blanks; a first line of names is
  skipped; ``x y z`` rows get ``+z`` normals).
* ``.npz``: arrays ``points`` ``(P, 3)`` and, optionally, ``normals`` ``(P, 3)``.
* ``.ply``: a first ``vertex`` element with float or double properties ``x y z nx ny nz``
  (others skipped, each named once), ``format ascii`` or ``binary_little_endian``; later
  elements (faces) are ignored.
* ``.pcd``: ``FIELDS x y z normal_x normal_y normal_z`` (or ``nx ny nz``), ``DATA ascii`` or
  ``binary``.
"""

import codecs
import io
import itertools
import os
import re
from types import MappingProxyType
from typing import Dict, Iterable, Iterator, List, Tuple, Union

import numpy as np

from .files import file_name, MAX_FILE_BYTES, read_arrays, read_file
from ..checks import parse_number
from ..errors import name_list, quote, TargetFileError

#: Most points of a cloud.
MAX_POINTS = 2 ** 22
#: Largest magnitude of a coordinate (m): a workpiece is not a kilometre away.
MAX_COORDINATE = 1e6
#: Rows of a text table converted at a time.
_ROWS_AT_ONCE = 1 << 16
#: A character no number of a text table has (Python's ``float`` also reads ``1_0`` and digits
#: of other scripts); NaN and inf are read, to be refused by name.
_NOT_A_NUMBER = re.compile(r'[^0-9eE+\-.nNaAiIfFtTyY]')
#: Longest header read (bytes).
_MAX_HEADER = 64 * 1024
_PLY_TYPES = MappingProxyType({
    'float': 'f4', 'float32': 'f4', 'double': 'f8', 'float64': 'f8', 'char': 'i1',
    'int8': 'i1', 'uchar': 'u1', 'uint8': 'u1', 'short': 'i2', 'int16': 'i2', 'ushort': 'u2',
    'uint16': 'u2', 'int': 'i4', 'int32': 'i4', 'uint': 'u4', 'uint32': 'u4'})
#: The PCD field types read (``TYPE`` and ``SIZE``).
_PCD_TYPES = frozenset(['F4', 'F8', 'I1', 'I2', 'I4', 'I8', 'U1', 'U2', 'U4', 'U8'])
_NORMALS = (('nx', 'ny', 'nz'), ('normal_x', 'normal_y', 'normal_z'))


def _count(value: str, path: str) -> int:
    if not re.fullmatch(r'\d{1,20}', value):
        raise TargetFileError(f'the header gives a bad point count {quote(value)}', path)
    count = int(value)
    if count > MAX_POINTS:
        raise TargetFileError(f'the header declares {count} points: more than the limit of '
                              f'{MAX_POINTS}', path)
    return count


def _checked(points: np.ndarray, normals: np.ndarray, path: str
             ) -> Tuple[np.ndarray, np.ndarray]:
    if not len(points):
        raise TargetFileError('has no points', path)
    if len(points) > MAX_POINTS:
        raise TargetFileError(f'has {len(points)} points: more than the limit of {MAX_POINTS}',
                              path)
    both = np.concatenate([points, normals], axis=1)
    with np.errstate(invalid='ignore'):
        bad = ~(np.abs(both) <= MAX_COORDINATE)
    if np.any(bad):
        row = int(np.argmax(bad.any(axis=1)))
        raise TargetFileError(f'point {row} has NaN, inf or a magnitude above '
                              f'{MAX_COORDINATE:g}', path)
    norms = np.linalg.norm(normals, axis=1)
    if np.any(norms < 1e-9):
        raise TargetFileError(f'point {int(np.argmax(norms < 1e-9))} has a zero normal', path)
    return np.array(points, dtype=float), normals / norms[:, None]


def _columns(table: np.ndarray, names: List[str], path: str
             ) -> Tuple[np.ndarray, np.ndarray]:
    index = {name: k for k, name in enumerate(names)}
    if not all(axis in index for axis in 'xyz'):
        raise TargetFileError(f'has no x y z fields (fields: {name_list(names)})', path)
    points = table[:, [index[a] for a in 'xyz']]
    for fields in _NORMALS:
        if all(f in index for f in fields):
            return points, table[:, [index[f] for f in fields]]
    normals = np.zeros(points.shape)
    normals[:, 2] = 1.0
    return points, normals


def _lines(data: bytes, start: int = 0) -> Iterator[Tuple[int, List[str]]]:
    """Yield the words of the lines from byte ``start`` that hold any, with their numbers."""
    if start == 0 and data.startswith(codecs.BOM_UTF8):  # a UTF-8 signature ("CSV UTF-8")
        start = len(codecs.BOM_UTF8)
    stream = io.BytesIO(data)  # shares the bytes: the file is not copied
    stream.seek(start)
    for number, line in enumerate(stream, data.count(b'\n', 0, start) + 1):
        words = line.decode('utf-8', errors='replace').replace(',', ' ').split()
        if words:
            yield number, words


def _text_table(rows: Iterable[Tuple[int, List[str]]], columns: int, path: str) -> np.ndarray:
    """
    Read rows of ``columns`` numbers, :data:`_ROWS_AT_ONCE` at a time.

    Only the table and one batch of words are held: the memory follows the points, not the
    text (a file of blank lines or of long numbers costs no more).
    """
    tables: List[np.ndarray] = []
    batch: List[str] = []
    held = 0
    for number, words in rows:
        if len(words) != columns:
            raise TargetFileError(f'line {number} has {len(words)} values, not {columns}', path)
        batch += words
        held += 1
        if held > MAX_POINTS:
            raise TargetFileError(f'has more than {MAX_POINTS} points', path)
        if len(batch) >= _ROWS_AT_ONCE * columns:
            tables.append(_numbers(batch, columns, path))
            batch = []
    tables.append(_numbers(batch, columns, path))
    return np.concatenate(tables)


def _numbers(words: List[str], columns: int, path: str) -> np.ndarray:
    """Return the rows of ``columns`` numbers that ``words`` spell (as XML writes numbers)."""
    if any(_NOT_A_NUMBER.search(word) for word in words):
        raise TargetFileError('has a value that is not a number', path)
    try:
        return np.array(words, dtype=float).reshape(-1, columns)
    except ValueError:
        raise TargetFileError('has a value that is not a number', path) from None


def _is_number(word: str) -> bool:
    try:
        parse_number(word)
    except ValueError:
        return False
    return True


def _csv(data: bytes, path: str) -> Tuple[np.ndarray, np.ndarray]:
    rows = (row for row in _lines(data) if not row[1][0].startswith('#'))
    first = next(rows, None)
    if first is not None and not any(_is_number(word) for word in first[1]):
        first = next(rows, None)  # a line of column names
    if first is None:
        raise TargetFileError('has no points', path)
    width = len(first[1])
    if width not in (3, 6):
        raise TargetFileError(f'rows must be "x y z" or "x y z nx ny nz", got {width} '
                              'numbers', path)
    table = _text_table(itertools.chain([first], rows), width, path)
    return _columns(table, ['x', 'y', 'z', 'nx', 'ny', 'nz'][:width], path)


def _npz(data: bytes, path: str) -> Tuple[np.ndarray, np.ndarray]:
    arrays = read_arrays(data, path, ('points', 'normals'), MAX_FILE_BYTES, MAX_POINTS)
    if 'points' not in arrays:
        raise TargetFileError("has no array 'points'", path)
    points = arrays['points']
    normals = arrays.get('normals')
    if normals is None:
        normals = np.zeros(points.shape)
        if points.ndim == 2:
            normals[:, 2] = 1.0
    for name, arr in (('points', points), ('normals', normals)):
        if arr.dtype.kind not in 'iuf' or arr.ndim != 2 or arr.shape[1] != 3 or \
                arr.shape != points.shape:
            raise TargetFileError(f"array '{name}' must be (P, 3) numbers, got {arr.shape} "
                                  f'of {arr.dtype}', path)
    return points.astype(float), normals.astype(float)


def _header(data: bytes, end: bytes, path: str) -> Tuple[List[str], int]:
    stop = data.find(end, 0, _MAX_HEADER)
    if stop < 0:
        raise TargetFileError('has no end of header in its first '
                              f'{_MAX_HEADER} bytes', path)
    stop = data.find(b'\n', stop) + 1 or len(data)
    lines = data[:stop].decode('ascii', errors='replace').splitlines()
    return [line.strip() for line in lines if line.strip()], stop


def _binary(data: bytes, start: int, dtype: np.dtype, count: int, path: str) -> np.ndarray:
    needed = count * dtype.itemsize
    if len(data) - start < needed:
        raise TargetFileError(f'declares {count} points but holds {len(data) - start} bytes '
                              f'of the {needed} they need', path)
    return np.frombuffer(data, dtype=dtype, count=count, offset=start)


def _table(data: bytes, start: int, count: int, codes: List[str], text: bool,
           path: str) -> np.ndarray:
    """Read ``count`` rows of ``len(codes)`` fields after the header: text, or binary."""
    if text:
        table = _text_table(itertools.islice(_lines(data, start), count), len(codes), path)
        if len(table) < count:
            raise TargetFileError(f'declares {count} points but holds {len(table)}', path)
        return table
    dtype = np.dtype([(f'f{k}', code) for k, code in enumerate(codes)])
    raw = _binary(data, start, dtype, count, path)
    if not count:
        return np.zeros((0, len(codes)))
    return np.stack([raw[f'f{k}'].astype(float) for k in range(len(codes))], axis=1)


def _ply(data: bytes, path: str) -> Tuple[np.ndarray, np.ndarray]:
    if not data.startswith(b'ply'):
        raise TargetFileError("is not a PLY file (no 'ply' first line)", path)
    lines, start = _header(data, b'end_header', path)
    fmt, count, props, element = None, None, [], None
    for line in lines:
        words = line.split()
        if words[0] == 'format' and len(words) >= 2:
            fmt = words[1]
        elif words[0] == 'element' and len(words) == 3:
            if element is None and words[1] != 'vertex':
                raise TargetFileError(f'has the element {quote(words[1])} before its vertex '
                                      'element: the vertices must come first', path)
            element = words[1]
            if element == 'vertex':
                count = _count(words[2], path)
        elif words[0] == 'property' and element == 'vertex':
            if len(words) != 3 or words[1] not in _PLY_TYPES:
                raise TargetFileError(f'has an unsupported vertex property {quote(line)}',
                                      path)
            if any(name == words[2] for name, _ in props):
                raise TargetFileError(f'names the vertex property {quote(words[2])} twice',
                                      path)
            props.append((words[2], _PLY_TYPES[words[1]]))
    if fmt not in ('ascii', 'binary_little_endian') or count is None:
        raise TargetFileError(f'must be ascii or binary_little_endian with a vertex element, '
                              f'got format {quote(fmt)}', path)
    if not props:
        raise TargetFileError('has a vertex element without properties', path)
    table = _table(data, start, count, ['<' + code for _, code in props], fmt == 'ascii', path)
    return _columns(table, [name for name, _ in props], path)


def _pcd(data: bytes, path: str) -> Tuple[np.ndarray, np.ndarray]:
    lines, start = _header(data, b'DATA', path)
    fields: Dict[str, List[str]] = {}
    for line in lines:
        words = line.split()
        if words[0] in ('FIELDS', 'SIZE', 'TYPE', 'COUNT', 'POINTS', 'DATA'):
            fields[words[0]] = words[1:]
    names = fields.get('FIELDS', [])
    sizes = fields.get('SIZE', [])
    types = fields.get('TYPE', [])
    counts = fields.get('COUNT', ['1'] * len(names))
    mode = (fields.get('DATA') or [''])[0]
    if not names or len(sizes) != len(names) or len(types) != len(names) or \
            len(counts) != len(names) or any(c != '1' for c in counts):
        raise TargetFileError('has a header without matching FIELDS, SIZE and TYPE (COUNT 1)',
                              path)
    count = _count((fields.get('POINTS') or [''])[0], path)
    if mode not in ('ascii', 'binary'):
        raise TargetFileError(f'must have DATA ascii or binary, got {quote(mode)}', path)
    codes = []
    for size, kind in zip(sizes, types):
        if kind + size not in _PCD_TYPES:
            raise TargetFileError(f'has an unsupported field type {kind}{size}', path)
        codes.append('<' + {'F': 'f', 'I': 'i', 'U': 'u'}[kind] + size)
    return _columns(_table(data, start, count, codes, mode == 'ascii', path), names, path)


def read_points(path: Union[str, os.PathLike]) -> Tuple[np.ndarray, np.ndarray]:
    """
    Read points with normals from a CSV, NPZ, PLY or PCD file (by its suffix).

    :param path: the file.
    :return: ``(points, normals)``, new ``(P, 3)`` float arrays; unit normals (``+z`` where
        the file has none).
    :raises TargetFileError: for a missing, unreadable, too large, malformed or empty file,
        NaN or inf, or a zero normal.
    """
    name = file_name(path, 'a points file')
    suffix = os.path.splitext(name)[1].lower()
    if suffix not in ('.csv', '.txt', '.npz', '.ply', '.pcd'):
        raise TargetFileError(f'has the unknown suffix {quote(suffix)} (use .csv, .txt, .npz, '
                              '.ply or .pcd)', name)
    data = read_file(name, MAX_FILE_BYTES)
    reader = {'.npz': _npz, '.ply': _ply, '.pcd': _pcd}.get(suffix, _csv)
    points, normals = reader(data, name)
    return _checked(points, normals, name)
