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

from conftest import bundled
from frame_kinematics.core import ConfigurationError
from frame_kinematics.core.errors import TargetFileError
from frame_kinematics.core.reach import grid_targets, ReachResult, run_study, so3_orientations
from frame_kinematics.core.spatial import rotation_from_quaternion, transform
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
    (tmp_path / 'junk.npz').write_bytes(b'not a zip')
    with pytest.raises(TargetFileError, match='not a reach study'):
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
