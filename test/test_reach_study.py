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
"""Reach studies: checked solutions, the reach bound, the neighbour pass, determinism."""

import os
import subprocess
import sys

from conftest import bundled, reach_grid
from frame_kinematics.core import ConfigurationError, UnknownFrameError
from frame_kinematics.core.reach import make_targets, ReachResult, run_study
from frame_kinematics.core.reach.chunks import pose_errors
from frame_kinematics.core.reach.result import STATUS_BEYOND, STATUS_NEIGHBOUR, STATUS_SOLVED
from frame_kinematics.core.spatial import rotation_from_quaternion, transform
import numpy as np
import pytest

TOLERANCE = 1e-5


@pytest.fixture(scope='module')
def model():
    return bundled('fk_arm', backend='numpy')


@pytest.fixture(scope='module')
def targets():
    return reach_grid()


@pytest.fixture(scope='module')
def study(model, targets):
    return run_study(model, 'tool0', targets, seed=7, max_iterations=40, restarts=3)


def test_every_reached_target_is_checked_by_forward_kinematics(model, study):
    reached = study.reached
    assert 0.3 < reached.mean() < 0.95
    poses = transform(rotation_from_quaternion(study.quaternions),
                      np.broadcast_to(study.points[:, None], study.quaternions.shape[:2] + (3,)))
    pos, ori = pose_errors(model, 'tool0', study.q[reached], poses[reached])
    assert pos.max() <= TOLERANCE and ori.max() <= TOLERANCE
    assert np.all(np.isnan(study.q[~reached]))
    assert np.all(np.isfinite(study.score[reached])) and np.all(np.isnan(study.score[~reached]))


def test_targets_beyond_the_bound_are_never_tried(model, study):
    beyond = study.status == STATUS_BEYOND
    distance = np.linalg.norm(study.points - np.array([0, 0, 0.16]), axis=1)
    assert np.array_equal(beyond.any(axis=1), distance > study.stats['reach_radius'] + TOLERANCE)
    assert beyond.any() and study.stats['beyond_reach'] == int(beyond.sum())


def test_a_study_is_the_same_for_the_same_seed(model, targets, study):
    again = run_study(model, 'tool0', targets, seed=7, max_iterations=40, restarts=3)
    assert np.array_equal(again.status, study.status)
    assert np.array_equal(again.q, study.q, equal_nan=True)


def test_neighbour_pass_solves_what_random_seeds_did_not(model, targets):
    options = {'seed': 1, 'max_iterations': 12, 'restarts': 0, 'neighbour_iterations': 40}
    alone = run_study(model, 'tool0', targets, neighbour_radius=0, **options)
    helped = run_study(model, 'tool0', targets, **options)
    by_neighbour = helped.status == STATUS_NEIGHBOUR
    assert by_neighbour.sum() > 10
    assert not alone.reached[by_neighbour].any()  # unsolved from the random seeds alone
    assert helped.stats['solved_neighbour_pass'] == int(by_neighbour.sum())
    assert np.array_equal(helped.reached & ~by_neighbour, alone.reached)


def test_targets_in_a_link_frame_are_placed_at_the_rest_configuration(model):
    q0 = model.neutral_configuration()
    root_T_link = model.transform(q0, 'wrist_1_link')
    root_T_tool = model.transform(q0, 'tool0')
    link_T_tool = np.linalg.inv(root_T_link) @ root_T_tool
    targets = make_targets([link_T_tool[:3, 3]], [link_T_tool[:3, 2]], frame='wrist_1_link')
    result = run_study(model, 'tool0', targets, orientation_tolerance=4.0)
    assert np.allclose(result.points[0], root_T_tool[:3, 3])
    assert result.reached.all()


def test_bad_studies_are_refused_before_any_work(model, targets):
    with pytest.raises(UnknownFrameError, match='no_such_tip'):
        run_study(model, 'no_such_tip', targets)
    with pytest.raises(UnknownFrameError, match='no_such_frame'):
        run_study(model, 'tool0', make_targets([[0.3, 0, 0.3]], frame='no_such_frame'))
    with pytest.raises(ConfigurationError, match='TargetSet'):
        run_study(model, 'tool0', np.zeros((3, 4, 4)))
    with pytest.raises(ConfigurationError, match='one tip'):
        run_study(model, ['tool0', 'flange'], targets)
    with pytest.raises(ConfigurationError, match='restarts'):
        run_study(model, 'tool0', targets, restarts=-1)
    for flag in ('abandon_stalled', 'skip_failed_neighbours', 'reject_beyond_reach'):
        with pytest.raises(ConfigurationError, match=flag):
            run_study(model, 'tool0', targets, **{flag: 'yes'})


def test_a_study_on_the_compiled_backend_is_the_same_for_the_same_seed(targets):
    pytest.importorskip('numba')
    compiled = bundled('fk_arm', backend='numba')
    first = run_study(compiled, 'tool0', targets, seed=7, max_iterations=40, restarts=3)
    again = run_study(compiled, 'tool0', targets, seed=7, max_iterations=40, restarts=3)
    assert first.reached.any()
    assert np.array_equal(again.status, first.status)
    assert np.array_equal(again.q, first.q, equal_nan=True)


def test_a_study_names_the_backend_that_solved_it(model, study, tmp_path):
    # the two backends draw different restarts: the seed alone does not reproduce a study
    assert study.settings['backend'] == 'numpy'
    assert ReachResult.load(study.save(tmp_path / 'study')).settings['backend'] == 'numpy'
    pytest.importorskip('numba')
    compiled = bundled('fk_arm', backend='numba')
    single = make_targets([[0.4, 0.1, 0.3]])
    assert run_study(compiled, 'tool0', single, seed=7).settings['backend'] == 'numba'


def test_the_neighbour_pass_skips_targets_whose_neighbours_all_failed(model, targets):
    options = {'seed': 1, 'max_iterations': 12, 'restarts': 0, 'neighbour_iterations': 40,
               'neighbour_rounds': 1}
    skipping = run_study(model, 'tool0', targets, **options)
    trying = run_study(model, 'tool0', targets, skip_failed_neighbours=False, **options)
    radius = skipping.settings['neighbour_radius']
    first = skipping.status == STATUS_SOLVED

    def helped_by_a_neighbour(i, o):
        near = np.linalg.norm(skipping.points - skipping.points[i], axis=1) <= radius
        near[i] = False
        return bool(first[near, o].any())

    for result in (skipping, trying):
        assert np.array_equal(result.status == STATUS_SOLVED, first)
    by_skipping = [helped_by_a_neighbour(i, o)
                   for i, o in zip(*np.nonzero(skipping.status == STATUS_NEIGHBOUR))]
    by_trying = [helped_by_a_neighbour(i, o)
                 for i, o in zip(*np.nonzero(trying.status == STATUS_NEIGHBOUR))]
    assert by_skipping and all(by_skipping)
    assert not all(by_trying)  # some were seeded from another orientation of their point
    assert skipping.stats['neighbour_skipped'] > 0
    assert trying.stats['neighbour_skipped'] == 0


_WITHOUT_DASK = """
import sys
from frame_kinematics import robots
from frame_kinematics.core import Robot
from frame_kinematics.core.reach import make_targets, ReachResult, run_study
model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numpy')
run_study(model, 'tool0', make_targets([[0.3, 0.1, 0.4]]), max_iterations=5, restarts=0)
print(sorted(name for name in sys.modules if name.split('.')[0] in ('dask', 'distributed')))
"""


def test_a_study_without_a_client_imports_nothing_of_dask():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, '-c', _WITHOUT_DASK], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=root))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == '[]'


@pytest.mark.parametrize('progress', [5, 'report', [print]])
def test_a_progress_that_cannot_be_called_is_refused_before_any_work(model, targets, progress):
    with pytest.raises(ConfigurationError, match='progress must be callable or None, got'):
        run_study(model, 'tool0', targets, progress=progress)
