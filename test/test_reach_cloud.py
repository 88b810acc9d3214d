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
"""Tests of frame_kinematics.core.reach.cloud: points with normals from CSV, NPZ, PLY, PCD."""

import os
import tracemalloc

from frame_kinematics import cli
from frame_kinematics.core import file_input
from frame_kinematics.core.errors import TargetFileError
from frame_kinematics.core.reach import cloud, read_points
import numpy as np
import pytest
from reach_testing import NORMALS, POINTS


def _ply(path, binary):
    header = ['ply', f"format {'binary_little_endian' if binary else 'ascii'} 1.0",
              'element vertex 3', 'property float x', 'property float y', 'property float z',
              'property uchar red', 'property double nx', 'property double ny',
              'property double nz', 'element face 0', 'property list uchar int vertex_index',
              'end_header']
    data = '\n'.join(header).encode() + b'\n'
    if binary:
        dtype = np.dtype([('p', '<f4', 3), ('c', 'u1'), ('n', '<f8', 3)])
        rows = np.zeros(3, dtype)
        rows['p'], rows['c'], rows['n'] = POINTS, 7, NORMALS
        data += rows.tobytes()
    else:
        data += ''.join(f"{' '.join(map(str, p))} 7 {' '.join(map(str, n))}\n"
                        for p, n in zip(POINTS, NORMALS)).encode()
    path.write_bytes(data)


def _pcd(path, binary):
    header = ['# .PCD v0.7', 'VERSION 0.7', 'FIELDS x y z normal_x normal_y normal_z',
              'SIZE 4 4 4 4 4 4', 'TYPE F F F F F F', 'COUNT 1 1 1 1 1 1', 'WIDTH 3',
              'HEIGHT 1', 'VIEWPOINT 0 0 0 1 0 0 0', 'POINTS 3',
              f"DATA {'binary' if binary else 'ascii'}"]
    data = '\n'.join(header).encode() + b'\n'
    table = np.concatenate([POINTS, NORMALS], axis=1)
    if binary:
        data += table.astype('<f4').tobytes()
    else:
        data += '\n'.join(' '.join(map(str, row)) for row in table).encode()
    path.write_bytes(data)


@pytest.mark.parametrize('name', ['a.csv', 'a.npz', 'a_ascii.ply', 'a_binary.ply',
                                  'a_ascii.pcd', 'a_binary.pcd'])
def test_every_format_reads_the_same_points(tmp_path, name):
    path = tmp_path / name
    if name.endswith('.csv'):
        rows = [','.join(map(str, np.concatenate([p, n]))) for p, n in zip(POINTS, NORMALS)]
        path.write_text('x,y,z,nx,ny,nz\n' + '\n'.join(rows) + '\n')
    elif name.endswith('.npz'):
        np.savez(path, points=POINTS, normals=NORMALS * 2.0)
    elif name.endswith('.ply'):
        _ply(path, 'binary' in name)
    else:
        _pcd(path, 'binary' in name)
    points, normals = read_points(path)
    assert np.allclose(points, POINTS, atol=1e-6)
    assert np.allclose(normals, NORMALS, atol=1e-6)


def test_points_without_normals_get_plus_z(tmp_path):
    path = tmp_path / 'p.txt'
    path.write_text('0 0 0\n1 2 3\n')
    points, normals = read_points(path)
    assert points.shape == (2, 3) and np.allclose(normals, [0, 0, 1])


def test_a_utf8_signature_at_the_start_of_a_text_file_is_dropped(tmp_path):
    path = tmp_path / 'p.csv'
    path.write_bytes(b'\xef\xbb\xbf0,0,1,0,0,1\n1,2,3,0,1,0\n')  # Excel's "CSV UTF-8"
    points, normals = read_points(path)
    assert np.allclose(points, [[0, 0, 1], [1, 2, 3]])
    assert np.allclose(normals, [[0, 0, 1], [0, 1, 0]])


@pytest.mark.parametrize('content, words', [
    ('', 'no points'),
    ('x y z nx ny nz\n', 'no points'),
    ('0 0 nan 0 0 1\n', 'NaN'),
    ('0 0 1e300 0 0 1\n', 'magnitude'),
    ('0 0 0 0 0 0\n', 'zero normal'),
    ('0 0 0 1\n', 'rows must be'),
    ('0 0 zero 0 0 1\n', 'not a number'),
    ('1 2 3 0 0 1\n4 5 6\n7 8 9\n', 'line 2 has 3 values, not 6'),
    ('x y z\n1 2 3\n\n# note\n4 5\n', 'line 5 has 2 values, not 3'),
    ('0 0 1_0\n', 'not a number'),
    ('0 0 \u0661\n', 'not a number'),
])
def test_bad_csv_is_refused(tmp_path, content, words):
    path = tmp_path / 'bad.csv'
    path.write_text(content)
    with pytest.raises(TargetFileError, match=words) as info:
        read_points(path)
    assert info.value.path == str(path)


@pytest.mark.parametrize('header, words', [
    (b'ply\nformat ascii 1.0\nelement face 1\nproperty list uchar int vertex_indices\n'
     b'element vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n'
     b'2 0 1\n0.1 0.2 0.3\n0.4 0.5 0.6\n0.7 0.8 0.9\n',
     "has the element 'face' before its vertex element"),
    (b'ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n'
     b'property float z\nproperty float x\nend_header\n1 2 3 4\n',
     "names the vertex property 'x' twice"),
    (b'ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\n'
     b'property float z\nend_header\n1 2 3\n4 5\n', 'line 9 has 2 values, not 3'),  # the file's
])
def test_a_ply_whose_vertices_cannot_be_read_as_written_is_refused(tmp_path, header, words):
    path = tmp_path / 'a.ply'
    path.write_bytes(header)
    with pytest.raises(TargetFileError, match=words):
        read_points(path)


def test_an_npz_declaring_more_points_than_the_limit_is_refused_before_unpacking(tmp_path):
    path = tmp_path / 'many.npz'
    np.savez_compressed(path, points=np.zeros((cloud.MAX_POINTS + 1, 3), dtype=np.float32))
    with pytest.raises(TargetFileError, match=f"array 'points' declares {cloud.MAX_POINTS + 1} "
                                              f'rows: more than the limit of {cloud.MAX_POINTS}'):
        read_points(path)


def test_a_text_cloud_costs_memory_for_its_points_not_its_text(tmp_path):
    path = tmp_path / 'blank.csv'
    path.write_bytes(b'\n' * 3_000_000 + b'1 2 3\n')
    tracemalloc.start()
    try:
        points, _ = read_points(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert points.tolist() == [[1.0, 2.0, 3.0]]
    assert peak < 3 * path.stat().st_size  # the bytes as read (twice), and little more


def test_a_header_declaring_a_huge_cloud_is_refused_before_reading_it(tmp_path):
    path = tmp_path / 'huge.ply'
    path.write_bytes(b'ply\nformat binary_little_endian 1.0\nelement vertex 1000000000000\n'
                     b'property float x\nproperty float y\nproperty float z\nend_header\n')
    with pytest.raises(TargetFileError, match='1000000000000 points'):
        read_points(path)


def test_truncated_binary_and_oversized_files_are_refused(tmp_path, monkeypatch):
    path = tmp_path / 'cut.pcd'
    _pcd(path, True)
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(TargetFileError, match='bytes'):
        read_points(path)
    monkeypatch.setattr(cloud, 'MAX_FILE_BYTES', 64)
    with pytest.raises(TargetFileError, match='larger than the limit'):
        read_points(path)


def test_missing_file_and_unknown_suffix(tmp_path):
    with pytest.raises(TargetFileError, match="cannot read '.*nothing.csv': No such file"):
        read_points(tmp_path / 'nothing.csv')
    (tmp_path / 'mesh.stl').write_text('solid')
    with pytest.raises(TargetFileError, match='suffix'):
        read_points(tmp_path / 'mesh.stl')


@pytest.mark.parametrize('header, words', [
    (b'ply\nformat binary_little_endian 1.0\nelement vertex 3\nend_header\n',
     'vertex element without properties'),
    (b'FIELDS x y z\nSIZE 1 1 1\nTYPE F F F\nPOINTS 1\nDATA binary\n\0\0\0',
     'unsupported field type F1'),
    (b'FIELDS x y z\nSIZE 2 2 2\nTYPE F F F\nPOINTS 1\nDATA binary\n' + bytes(6),
     'unsupported field type F2'),
])
def test_headers_without_usable_fields_are_refused(tmp_path, header, words):
    path = tmp_path / ('a.ply' if header.startswith(b'ply') else 'a.pcd')
    path.write_bytes(header)
    with pytest.raises(TargetFileError, match=words):
        read_points(path)


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
def test_the_command_line_refuses_a_fifo_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(file_input, 'FIFO_WAIT_SECONDS', 0.05)
    os.mkfifo(tmp_path / 'part.csv')
    status = cli.main(['--backend', 'numpy', 'reach', '--points', str(tmp_path / 'part.csv'),
                       '-o', str(tmp_path / 'x.npz'), '-q'])
    err = capsys.readouterr().err
    assert status == 1 and len(err.splitlines()) == 1 and 'FIFO' in err
    assert not (tmp_path / 'x.npz').exists()
