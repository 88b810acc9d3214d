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
"""Tests of frame_kinematics.core.reach.files: paths, bounded reads and .npz parsing."""

import io
import os
import re
import zipfile

from frame_kinematics.core import file_input
from frame_kinematics.core.errors import TargetFileError
from frame_kinematics.core.reach import cloud, read_points
import numpy as np
import pytest
from reach_testing import NORMALS, POINTS


def _npy(array):
    """Return the bytes of an .npy (not an .npz) of ``array``."""
    stream = io.BytesIO()
    np.save(stream, array)
    return stream.getvalue()


def _bomb(path, rows):
    """Write an .npz of ``rows`` zero points: a few kB packed, ``24 * rows`` unpacked."""
    np.savez_compressed(path, points=np.zeros((rows, 3)))


def _lying_header(path):
    """Write an .npz whose 'points' header declares 3e13 points in 128 bytes."""
    header = b"{'descr': '<f8', 'fortran_order': False, 'shape': (10000000000000, 3), }"
    with zipfile.ZipFile(path, 'w') as archive:
        archive.writestr('points.npy', b'\x93NUMPY\x01\x00v\x00' + header.ljust(117) + b'\n')


@pytest.mark.parametrize('make, words', [
    (lambda path: path.write_bytes(b''), 'is empty'),
    (lambda path: path.write_bytes(_npy(POINTS)), 'not a readable .npz'),
    (lambda path: path.write_bytes(b'PK\x03\x04' + bytes(range(200))), 'not a readable .npz'),
    (_lying_header, 'more than its 128 bytes hold'),
    (lambda path: _bomb(path, 50000), '1200128 bytes unpacked: more than the limit of 1000000'),
    (lambda path: np.savez(path, points=POINTS.astype(complex)), 'not numbers or text'),
])
def test_bad_npz_files_are_refused(tmp_path, monkeypatch, make, words):
    monkeypatch.setattr(cloud, 'MAX_FILE_BYTES', 1000000)
    path = tmp_path / 'bad.npz'
    make(path)
    assert path.stat().st_size < 100000
    with pytest.raises(TargetFileError, match=re.escape(words)) as info:
        read_points(path)
    assert info.value.path == str(path)


def test_damaged_npz_files_are_refused_or_read(tmp_path):
    rng = np.random.default_rng(11)
    path = tmp_path / 'good.npz'
    np.savez_compressed(path, points=POINTS, normals=NORMALS)
    good = path.read_bytes()
    refused = 0
    for _ in range(300):
        data = bytearray(good)
        for offset in rng.integers(0, len(data), rng.integers(1, 4)):
            data[offset] = rng.integers(256)
        path.write_bytes(bytes(data[:rng.integers(len(data) // 2, len(data) + 1)]))
        try:
            points, normals = read_points(path)
        except TargetFileError:
            refused += 1
        else:
            assert points.shape == normals.shape and np.all(np.isfinite(points))
    assert refused > 200


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
@pytest.mark.parametrize('name', ['f.csv', 'f.npz', 'f.ply', 'f.pcd'])
def test_a_fifo_without_a_writer_is_refused(tmp_path, monkeypatch, name):
    monkeypatch.setattr(file_input, 'FIFO_WAIT_SECONDS', 0.05)
    os.mkfifo(tmp_path / name)
    with pytest.raises(TargetFileError, match='no process wrote to this FIFO within 0.05 s'):
        read_points(tmp_path / name)


@pytest.mark.parametrize('path', [5, None, ['a.csv']])
def test_a_path_of_another_type_is_refused(path):
    with pytest.raises(TargetFileError, match='must be str, bytes or os.PathLike'):
        read_points(path)
