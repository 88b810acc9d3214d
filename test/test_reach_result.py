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
"""Reach study results: save/load round trips, summaries, queries and comparisons."""

import json
import os
import re

from conftest import bundled
from frame_kinematics import cli
from frame_kinematics.cli import reach as cli_reach
from frame_kinematics.core import ConfigurationError, file_input
from frame_kinematics.core.errors import TargetFileError
from frame_kinematics.core.file_output import name_limit
from frame_kinematics.core.reach import grid_targets, ReachResult, result, run_study, \
    so3_orientations
from frame_kinematics.core.spatial import rotation_from_quaternion, rotation_from_rpy, transform
import numpy as np
import pytest


@pytest.fixture(scope='module')
def model():
    return bundled('fk_arm', backend='numpy')


@pytest.fixture(scope='module')
def study(model):
    targets = grid_targets([-0.6, -0.6, 0.2], [0.6, 0.6, 0.8], 0.3, so3_orientations(6))
    return run_study(model, 'tool0', targets, seed=3, max_iterations=40, restarts=3)


def test_save_and_load_round_trip(study, tmp_path):
    path = study.save(tmp_path / 'study')
    assert path.endswith('.npz')
    loaded = ReachResult.load(path)
    for name in ('points', 'normals', 'regions', 'quaternions', 'q', 'status',
                 'manipulability', 'joint_limit_margin', 'score'):
        assert np.array_equal(getattr(loaded, name), getattr(study, name), equal_nan=True)
    assert loaded.settings == study.settings and loaded.stats == study.stats
    assert (loaded.robot, loaded.tip, loaded.active_joints) == \
        (study.robot, study.tip, study.active_joints)


def test_another_version_or_a_broken_file_is_refused(study, tmp_path):
    path = study.save(tmp_path / 'v.npz')
    with np.load(path) as archive:
        arrays = dict(archive)
    meta = json.loads(str(arrays['meta']))
    meta['version'] = 99
    arrays['meta'] = np.array(json.dumps(meta))
    np.savez(tmp_path / 'v99.npz', **arrays)
    with pytest.raises(TargetFileError, match='version 99'):
        ReachResult.load(tmp_path / 'v99.npz')
    for version in (True, 1.0):  # equal to 1 in Python, not the version 1 JSON writes
        meta['version'] = version
        arrays['meta'] = np.array(json.dumps(meta))
        np.savez(tmp_path / 'v.npz', **arrays)
        with pytest.raises(TargetFileError, match=f'version {version}, this library reads 1'):
            ReachResult.load(tmp_path / 'v.npz')
    (tmp_path / 'junk.npz').write_bytes(b'not a zip')
    with pytest.raises(TargetFileError, match='not a readable .npz'):
        ReachResult.load(tmp_path / 'junk.npz')


def test_summary_counts(study):
    summary = study.summary()
    assert summary['targets'] == study.status.size == 5 * 5 * 3 * 6
    assert summary['reached'] == int(study.reached.sum())
    assert np.isclose(summary['percent_reached'], 100 * study.reached.mean())
    assert sum(region['points'] for region in summary['regions']) == len(study.points)
    assert summary['score']['max'] <= 1.0
    assert json.dumps(summary)
    assert np.allclose(study.reachability_index, study.reached.mean(axis=1))


def _scattered_study(points: int, orientations: int, regions: np.ndarray) -> ReachResult:
    """Return a study of random statuses and scores (seeded), with the region labels given."""
    rng = np.random.default_rng(17)
    status = rng.integers(-1, 3, (points, orientations)).astype(np.int8)
    reached = status >= result.STATUS_SOLVED
    score = np.where(reached, rng.uniform(0.0, 1.0, status.shape), np.nan)
    return ReachResult('robot', 'tip', ('joint',), rng.uniform(-1, 1, (points, 3)),
                       np.tile([0.0, 0.0, 1.0], (points, 1)), regions,
                       np.tile([0.0, 0.0, 0.0, 1.0], status.shape + (1,)),
                       np.where(reached[..., None], 0.1, np.nan), status, score, score, score,
                       {}, {})


def test_summary_regions_are_counted_in_one_pass_over_the_targets(monkeypatch):
    labels = np.arange(600) % 300 - 7  # a region for every two points, unsorted, negative too
    study = _scattered_study(600, 5, labels)
    reads = []
    reached = ReachResult.reached
    monkeypatch.setattr(ReachResult, 'reached',
                        property(lambda self: reads.append(1) or reached.fget(self)))
    regions = study.summary()['regions']
    assert len(reads) <= 3  # not once per region: the summary's time is linear in targets
    assert [r['region'] for r in regions] == sorted(set(labels.tolist()))
    index = study.status >= result.STATUS_SOLVED
    for entry in regions:
        rows = labels == entry['region']
        assert entry['points'] == rows.sum() and entry['targets'] == rows.sum() * 5
        assert entry['percent_reached'] == pytest.approx(100.0 * index[rows].mean())
        assert entry['mean_index'] == pytest.approx(index[rows].mean(axis=1).mean())
        scores = study.score[rows][np.isfinite(study.score[rows])]
        assert entry['mean_score'] == (pytest.approx(scores.mean()) if len(scores) else None)


def test_queries(study):
    i, j = np.argwhere(study.reached)[0]
    pose = transform(rotation_from_quaternion(study.quaternions[i, j]), study.points[i])
    assert study.is_reachable(pose, 1e-6, 1e-6)
    far = pose.copy()
    far[:3, 3] += 10.0
    assert not study.is_reachable(far, 0.01, 0.1)
    best = study.best_near(study.points[i], 1e-6)
    assert best['point'] == i and best['score'] == np.nanmax(study.score[i])
    assert study.best_near(far[:3, 3], 0.01) is None
    with pytest.raises(ConfigurationError):
        study.best_near([0, 0, np.nan], 0.1)


def test_compare_two_studies(study, model):
    comparison = study.compare(study)
    assert comparison.summary()['only_first'] == 0 and comparison.summary()['only_second'] == 0
    targets = grid_targets([-0.6, -0.6, 0.2], [0.6, 0.6, 0.8], 0.3, so3_orientations(6))
    weaker = run_study(model, 'tool0', targets, seed=3, max_iterations=5, restarts=0,
                       neighbour_radius=0)
    comparison = study.compare(weaker)
    counts = comparison.summary()
    assert counts['only_first'] > 0
    np.testing.assert_array_equal(comparison.index_change,
                                  weaker.reachability_index - study.reachability_index)
    assert comparison.index_change.min() < 0
    assert sum(counts.values()) == study.status.size
    other = run_study(model, 'tool0', grid_targets([0, 0, 0.3], [0.3, 0.3, 0.3], 0.3))
    with pytest.raises(ConfigurationError, match='different targets'):
        study.compare(other)
    turned = grid_targets([-0.6, -0.6, 0.2], [0.6, 0.6, 0.8], 0.3,
                          so3_orientations(6) @ rotation_from_rpy(np.array([np.pi, 0, 0])))
    other = run_study(model, 'tool0', turned, seed=3, max_iterations=5, restarts=0,
                      neighbour_radius=0)
    with pytest.raises(ConfigurationError, match='different targets .points or orientations.'):
        study.compare(other)


def test_studies_of_two_base_placements_compare_target_by_target(study, model):
    # the same targets from a base moved and turned: in the root link, every target moves
    world_T_base = transform(rotation_from_rpy(np.array([0.0, 0.0, 0.4])),
                             np.array([0.15, -0.1, 0.05]))
    targets = grid_targets([-0.6, -0.6, 0.2], [0.6, 0.6, 0.8], 0.3, so3_orientations(6),
                           frame_T_workpiece=np.linalg.inv(world_T_base))
    moved = run_study(model, 'tool0', targets, seed=3, max_iterations=40, restarts=3)
    assert not np.allclose(moved.points, study.points)
    counts = study.compare(moved).summary()
    assert counts['both'] == np.count_nonzero(study.reached & moved.reached)
    assert counts['only_first'] == np.count_nonzero(study.reached & ~moved.reached)
    assert sum(counts.values()) == study.status.size
    assert moved.compare(study).summary()['only_second'] == counts['only_first']
    shuffled = grid_targets([-0.6, -0.6, 0.2], [0.6, 0.6, 0.8], 0.3, so3_orientations(6)[::-1])
    other = run_study(model, 'tool0', shuffled, seed=3, max_iterations=5, restarts=0,
                      neighbour_radius=0)
    with pytest.raises(ConfigurationError, match='no one rigid motion'):
        study.compare(other)  # the same poses in another order are other targets


def _changed(study, path, meta, arrays):
    """Save ``study`` with some metadata entries and arrays replaced (None: left out)."""
    saved = study.save(path)
    with np.load(saved) as archive:
        content = dict(archive)
    document = json.loads(str(content['meta']))
    document.update(meta)
    content['meta'] = np.array(json.dumps(document))
    content.update(arrays)
    np.savez(saved, **{key: value for key, value in content.items() if value is not None})
    return saved


@pytest.mark.parametrize('meta, arrays, words', [
    ({'robot': None}, {}, "'robot' must be a str"),
    ({'active_joints': 5}, {}, "'active_joints' must be a list"),
    ({'active_joints': [1, 2]}, {}, "'active_joints' must be names"),
    ({'settings': []}, {}, "'settings' must be a dict"),
    ({}, {'meta': np.array(b'{}')}, "array 'meta' holds |S2: not numbers or text"),
    ({}, {'meta': np.array('"text"')}, "'meta' is not a JSON object"),
    ({}, {'meta': np.array('[' * 100000)}, "'meta' is not a JSON object"),
    ({}, {'regions': np.zeros(11, dtype=int)}, "array 'regions' (11,) of int64, not (75,)"),
    ({}, {'regions': np.zeros(75)}, "array 'regions' (75,) of float64"),
    ({}, {'status': np.zeros((75, 6))}, "array 'status' (75, 6) of float64"),
    ({}, {'q': np.zeros((75, 6))}, "'q' (75, 6): not (P, O) and (P, O, nq)"),
    ({}, {'status': np.zeros((0, 6), dtype=np.int8)}, "'status' (0, 6)"),
    ({}, {'score': np.zeros((75, 5))}, "array 'score' (75, 5) of float64, not (75, 6)"),
    ({}, {'quaternions': np.zeros((75, 6, 3))}, "array 'quaternions' (75, 6, 3)"),
    ({}, {'status': np.full((75, 6), 7, dtype=np.int8)}, 'status codes other than'),
    ({}, {'score': None}, "no array 'score'"),
])
def test_a_study_file_that_does_not_fit_together_is_refused(study, tmp_path, meta, arrays,
                                                            words):
    path = _changed(study, tmp_path / 'bad.npz', meta, arrays)
    with pytest.raises(TargetFileError, match=re.escape(words)) as info:
        ReachResult.load(path)
    assert info.value.path == path


def test_an_empty_or_oversized_study_file_is_refused(study, tmp_path, monkeypatch):
    (tmp_path / 'empty.npz').write_bytes(b'')
    with pytest.raises(TargetFileError, match='is empty'):
        ReachResult.load(tmp_path / 'empty.npz')
    path = study.save(tmp_path / 'big.npz')
    monkeypatch.setattr(result, 'MAX_STUDY_BYTES', os.path.getsize(path) - 1)
    with pytest.raises(TargetFileError, match='larger than the limit'):
        ReachResult.load(path)
    with pytest.raises(TargetFileError, match='that load reads'):
        study.save(tmp_path / 'bigger.npz')
    assert not (tmp_path / 'bigger.npz').exists()


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
def test_a_fifo_is_neither_waited_for_nor_written_to_without_a_reader(study, tmp_path,
                                                                      monkeypatch):
    monkeypatch.setattr(file_input, 'FIFO_WAIT_SECONDS', 0.05)
    os.mkfifo(tmp_path / 'f.npz')
    with pytest.raises(TargetFileError, match='no process wrote to this FIFO'):
        ReachResult.load(tmp_path / 'f.npz')
    with pytest.raises(TargetFileError, match='cannot be written'):
        study.save(tmp_path / 'f.npz')


def test_a_save_that_fails_leaves_the_older_study_as_it_was(study, tmp_path, monkeypatch):
    path = tmp_path / 's.npz'
    path.write_bytes(b'older study')
    os.chmod(path, 0o640)

    def disk_full(fd, blocking):
        raise OSError(28, 'No space left on device')

    with monkeypatch.context() as patched:
        patched.setattr(os, 'set_blocking', disk_full)
        with pytest.raises(TargetFileError, match='cannot be written: No space left on device'):
            study.save(path)
    assert path.read_bytes() == b'older study'
    assert os.listdir(tmp_path) == ['s.npz']  # no partial file beside it
    study.save(path)
    assert ReachResult.load(path).summary() == study.summary()
    assert os.stat(path).st_mode & 0o777 == 0o640


def test_save_refuses_a_name_too_long_before_writing_and_takes_the_longest(study, tmp_path):
    limit = name_limit(str(tmp_path / 's.npz'))
    with pytest.raises(TargetFileError, match=f'name is longer than the {limit} bytes'):
        result.save_path(tmp_path / ('s' * (limit - 3)))  # one byte too many with .npz
    assert os.listdir(tmp_path) == []
    longest = tmp_path / ('s' * (limit - 4) + '.npz')
    assert study.save(longest) == str(longest)
    assert os.listdir(tmp_path) == [longest.name]


def test_save_refuses_an_empty_name_and_a_missing_directory(study, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ('', 'folder/'):
        with pytest.raises(TargetFileError, match='is not a file name'):
            study.save(name)
    with pytest.raises(TargetFileError, match='cannot be written: its directory does not exist'):
        study.save(tmp_path / 'missing' / 'x.npz')
    with pytest.raises(TargetFileError, match='must be str, bytes or os.PathLike'):
        study.save(5)
    assert not os.listdir(tmp_path)


@pytest.mark.parametrize('call, words', [
    (lambda s: s.best_near([0, 0, 0.5], None), 'radius must be a number >= 0, got None'),
    (lambda s: s.best_near([0, 0, 0.5], -1.0), 'radius must be a number >= 0'),
    (lambda s: s.best_near([0, 0, 0.5], 'far'), 'radius must be a number >= 0'),
    (lambda s: s.is_reachable(np.eye(4), None, 0.1), 'max_distance must be a number >= 0'),
    (lambda s: s.is_reachable(np.eye(4), 0.1, np.nan), 'max_angle must be a number >= 0'),
    (lambda s: s.is_reachable('pose', 0.1, 0.1), 'root_T_pose must be numbers'),
    (lambda s: s.is_reachable(np.tile(np.eye(4), (2, 1, 1)), 0.1, 0.1), 'one 4x4 transform'),
    (lambda s: s.compare(5), 'can compare with a ReachResult only, got int'),
    (lambda s: s.compare(None), 'can compare with a ReachResult only, got NoneType'),
])
def test_bad_query_arguments_are_refused(study, call, words):
    with pytest.raises(ConfigurationError, match=re.escape(words)):
        call(study)


def test_save_path_is_the_file_save_writes(study, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert result.save_path('s') == 's.npz'
    assert result.save_path(tmp_path / 's.npz') == str(tmp_path / 's.npz')
    assert result.save_path(b'./s') == './s.npz'
    assert study.save('s') == 's.npz'
    for name, words in (('', 'is not a file name'), ('folder/', 'is not a file name'),
                        ('missing/s', 'cannot be written: its directory does not exist'),
                        ('s\0.npz', 'holds a NUL byte'), ('.', 'is not a file name'),
                        ('..', 'is not a file name'), ('folder/..', 'is not a file name'),
                        ('\ud800', 'is not a file name the file system can encode'),
                        ('/proc/self/s', 'cannot be written: its directory is not writable'),
                        (5, 'must be str, bytes or os.PathLike')):
        with pytest.raises(TargetFileError, match=words):
            result.save_path(name)
        with pytest.raises(TargetFileError, match=words):
            study.save(name)
    assert os.listdir(tmp_path) == ['s.npz']


@pytest.mark.parametrize('output, words', [
    ('missing/x.npz', "--output: file 'missing/x.npz' cannot be written: its "
                      'directory does not exist'),
    ('/proc/self/x.npz', "--output: file '/proc/self/x.npz' cannot be written: its "
                         'directory is not writable'),
    ('folder/', "--output: file 'folder/' is not a file name"),
])
def test_the_command_line_refuses_an_output_it_cannot_write_before_any_work(
        tmp_path, capsys, monkeypatch, output, words):
    monkeypatch.chdir(tmp_path)
    err = _refused_before_any_work(capsys, monkeypatch, output)
    assert words in err and not os.listdir(tmp_path)


def _refused_before_any_work(capsys, monkeypatch, output: str) -> str:
    """Run a command-line study into ``output``; check it is a usage error; return stderr."""
    monkeypatch.setattr(cli_reach, 'read_targets', None)  # no work may begin
    status = cli.main(['--backend', 'numpy', 'reach', '--box', '0', '0', '0', '1', '1', '1',
                       '--step', '0.5', '-o', output, '-q'])
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize('output', ['taken.npz', 'taken'])
def test_an_output_that_is_a_directory_is_refused_before_any_work(study, tmp_path, capsys,
                                                                  monkeypatch, output):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'taken.npz').mkdir()
    with pytest.raises(TargetFileError, match='cannot be written: it is a directory'):
        study.save(output)
    err = _refused_before_any_work(capsys, monkeypatch, output)
    assert "--output: file 'taken.npz' cannot be written: it is a directory" in err
    assert os.listdir(tmp_path) == ['taken.npz'] and not os.listdir(tmp_path / 'taken.npz')
