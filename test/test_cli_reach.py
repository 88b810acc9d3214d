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
"""``frame-kinematics reach``: the study's files and summary, progress, refusals."""

import json
import re
import sys

from frame_kinematics import cli
from frame_kinematics.core.reach import ReachResult
import numpy as np
import pytest

BOX = ['--box', '-0.6', '-0.6', '0.2', '0.6', '0.6', '0.6', '--step', '0.3']


def call(capsys, *args):
    """Run :func:`cli.main` on the numpy backend: ``(exit status, stdout, stderr)``."""
    try:
        status = cli.main(['--backend', 'numpy'] + [str(a) for a in args])
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def test_a_grid_study_writes_its_npz_and_prints_a_summary(capsys, tmp_path):
    path = tmp_path / 'study.npz'
    status, out, err = call(capsys, 'reach', *BOX, '--cone', '0.4', '3', '2', '-o', path,
                            '--max-iterations', '30', '--restarts', '2')
    assert status == 0, err
    result = ReachResult.load(path)
    assert result.status.shape == (5 * 5 * 2, 8)
    assert re.search(rf'\nreached +{int(result.reached.sum())} \(', out)
    assert 'region' in out and 'mean score' in out and f'wrote {path}' in out
    assert 'targets tried' in err  # progress lines on stderr (not a terminal)


def test_json_summary_and_quiet(capsys, tmp_path):
    status, out, err = call(capsys, 'reach', *BOX, '-o', tmp_path / 's.npz', '--format',
                            'json', '-q')
    assert status == 0 and err == ''
    document = json.loads(out)
    assert document['summary']['targets'] == 50
    assert document['files'] == [str(tmp_path / 's.npz')]


def test_points_file_and_base_ranking(capsys, tmp_path):
    rng = np.random.default_rng(1)
    points = np.array([0.6, 0.2, 0.3]) + rng.uniform(-0.05, 0.05, (8, 3))
    table = np.hstack([points, np.tile([0.0, 0.0, -1.0], (8, 1))])
    np.savetxt(tmp_path / 'part.csv', table, delimiter=',')
    status, out, err = call(capsys, 'reach', '--points', tmp_path / 'part.csv', '--bases',
                            '0', '3', '0', '0', '3', '-o', tmp_path / 'best.npz', '-q')
    assert status == 0, err
    assert out.splitlines()[1].split()[:2] == ['rank', 'x']
    first = out.splitlines()[2].split()
    assert first[:3] == ['1', '0.000', '0.000'] and float(first[3]) > 50


@pytest.mark.parametrize('args, words', [
    (BOX + ['--link', 'no_such_link'], 'no_such_link'),
    (BOX + ['--frame', 'no_such_frame'], 'no_such_frame'),
])
def test_bad_requests_fail_with_one_line_before_any_work(capsys, tmp_path, args, words):
    status, out, err = call(capsys, 'reach', *args, '-o', tmp_path / 'x.npz', '-q')
    assert status == 1, (out, err)
    assert err.startswith('frame-kinematics: error: ') and len(err.splitlines()) == 1
    assert words in err
    assert not (tmp_path / 'x.npz').exists()


def test_empty_and_nan_point_files_are_refused(capsys, tmp_path):
    (tmp_path / 'empty.ply').write_bytes(b'ply\nformat ascii 1.0\nelement vertex 0\n'
                                         b'property float x\nproperty float y\n'
                                         b'property float z\nend_header\n')
    (tmp_path / 'nan.csv').write_text('0.5 0 0.3 0 0 1\nnan 0 0 0 0 1\n')
    for name, words in (('empty.ply', 'has no points'), ('nan.csv', 'point 1 has NaN')):
        status, _, err = call(capsys, 'reach', '--points', tmp_path / name, '-o',
                              tmp_path / 'x.npz')
        assert status == 1 and words in err and name in err


def test_a_scheduler_without_dask_is_refused_in_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, 'distributed', None)  # as if Dask were not installed
    status, _, err = call(capsys, 'reach', *BOX, '--scheduler', 'tcp://127.0.0.1:8786', '-o',
                          tmp_path / 'x.npz')
    assert status == 1 and len(err.splitlines()) == 1
    assert "--scheduler needs Dask: pip install 'dask[distributed]'" in err
    assert not (tmp_path / 'x.npz').exists()


@pytest.mark.parametrize('address, words', [
    ('nonsense://x', "unknown address scheme 'nonsense'"),
    ('tcp://127.0.0.1:notaport', 'notaport'),
])
def test_a_scheduler_address_that_is_not_one_is_refused_in_one_line(capsys, tmp_path, address,
                                                                    words):
    pytest.importorskip('distributed')
    status, _, err = call(capsys, 'reach', *BOX, '--scheduler', address, '-o',
                          tmp_path / 'x.npz')
    assert status == 1 and len(err.splitlines()) == 1
    assert 'no Dask scheduler answers' in err and words in err
    assert not (tmp_path / 'x.npz').exists()


def test_usage_errors_exit_2(capsys, tmp_path):
    status, _, err = call(capsys, 'reach', *BOX)
    assert status == 2 and '--output' in err
    status, _, err = call(capsys, 'reach', *BOX, '--so3', '0', '-o', tmp_path / 'x.npz')
    assert status == 2 and '--so3' in err


@pytest.mark.parametrize('args, words', [
    (BOX + ['--sphere', '0', '0', '0', '--radii', '1', '--count', '3'],
     'give one kind of targets: --box (with --step), --sphere (with --radii, --count) or '
     '--points, not --box and --sphere'),
    (['--box', '0', '0', '0', '1', '1', '1'], '--box needs --step'),
    ([], 'give one kind of targets'),
    (BOX + ['--cone', '0.5', '100000', '2'],
     '--cone: directions must be between 0 and 1024, got 100000'),
    (BOX + ['--base-map', 'b.png'], '--base-map needs --bases'),
    (BOX + ['--picture', 'missing/p.png'], '--picture: output folder does not exist'),
    (BOX + ['--picture', 'p.jpg'], "--picture: output 'p.jpg' must end with .png"),
    (['--box', '0', '0', '0', '1', '1', '1', '--step', '1e-4'], 'GB'),
    (BOX + ['--bases', '0', '1', '0', '1', '0.5', '--frame', 'base_link'],
     'with --bases the targets are in the world: leave out --frame'),
    (BOX + ['--bases', '0', '1', '0', '1', '0'], '--bases: a floor grid needs step > 0'),
    (BOX + ['--bases', '0', '100', '0', '100', '0.01'],
     '--bases: a floor grid of 1e+08 candidates: more than the limit'),
    (BOX + ['--radii', '1'], '--radii goes with --sphere, not with --box'),
    (BOX + ['--weights', '0', '0'],
     '--weights: weights must be two numbers >= 0, not both 0, got [0.0, 0.0]'),
])
def test_options_that_do_not_fit_are_usage_errors_before_any_work(
        capsys, tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    status, out, err = call(capsys, 'reach', *args, '-o', 's.npz', '-q')
    assert status == 2 and words in err and len(err.splitlines()) == 1 and not out, err
    assert list(tmp_path.iterdir()) == []


def test_pictures_from_the_command_line(capsys, tmp_path):
    pytest.importorskip('matplotlib')
    rng = np.random.default_rng(2)
    points = np.array([0.6, 0.2, 0.3]) + rng.uniform(-0.05, 0.05, (6, 3))
    np.savetxt(tmp_path / 'part.txt', points)
    status, out, err = call(capsys, 'reach', '--points', tmp_path / 'part.txt', '--bases',
                            '0', '0.4', '0', '0.4', '0.4', '-o', tmp_path / 'b.npz',
                            '--picture', tmp_path / 'map.png', '--base-map',
                            tmp_path / 'bases.png', '--color-by', 'score', '-q')
    assert status == 0, err
    assert (tmp_path / 'map.png').stat().st_size > 10000
    assert (tmp_path / 'bases.png').stat().st_size > 10000


def test_progress_bar_on_a_terminal_with_tqdm(monkeypatch, capsys):
    pytest.importorskip('tqdm')
    from frame_kinematics.cli.reach import progress_reporter
    monkeypatch.setattr('sys.stderr.isatty', lambda: True)
    report = progress_reporter(True)
    for done in (10, 20):
        report(done, 20, 'targets tried, 5 solved')
    report(1, 3, 'neighbour rounds, 1 more solved')
    assert 'targets tried' in capsys.readouterr().err
