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
"""The ReachStudy action's ROS-free half: goals, refusals, the study process, heat map, cloud."""

import os

from frame_kinematics import robots
from frame_kinematics.bridge.reach_goal import (answer_from_summary, ReachGoal, study_request,
                                                target_options)
from frame_kinematics.bridge.reach_job import CANCELLED, ReachStudies
from frame_kinematics.bridge.reach_markers import (CLOUD_FIELDS, heat_colors, heat_map,
                                                   INDEX_NAMESPACE, load_visuals,
                                                   NO_VALUE_COLOR, reach_cloud, save_visuals,
                                                   SCORE_NAMESPACE)
from frame_kinematics.core import Robot
from frame_kinematics.core.errors import (ConfigurationError, FrameKinematicsError,
                                          TargetFileError, UnknownFrameError)
from frame_kinematics.core.reach import (cone_orientations, ReachResult, run_study,
                                         shell_targets)
import numpy as np
import pytest

#: A small study: 5 x 7 x 6 points x 2 orientations.
BOX = {'box': (0.2, -0.3, 0.1, 0.6, 0.3, 0.6), 'step': 0.1, 'so3_count': 2}


@pytest.fixture(scope='module')
def arm():
    return Robot.from_urdf_file(robots.path('fk_arm'), backend='numpy')


def _run(studies, request, urdf):
    feedback, ends = [], []
    job = studies.start(request, urdf, 'base_link', 7, feedback.append, ends.append)
    assert job.join(120.0), 'the study did not end'
    assert len(ends) == 1
    return feedback, ends[0]


def test_a_goal_makes_the_targets_the_command_line_would(arm, tmp_path):
    goal = ReachGoal(sphere=(0.4, 0.0, 0.3), radii=(0.1, 0.2), count=50, cone_angle=0.5,
                     cone_directions=6, cone_rotations=4, output='s')
    request, targets = study_request(goal, arm, str(tmp_path))
    expected = shell_targets((0.4, 0.0, 0.3), (0.1, 0.2), 50, cone_orientations(0.5, 6, 4))
    np.testing.assert_allclose(targets.poses(), expected.poses())
    assert request.targets == len(targets) == 100 * 7 * 4
    assert request.output == str(tmp_path / 's.npz') and request.tip == 'tool0'
    assert target_options(goal).cone == (0.5, 6, 4)
    assert target_options(ReachGoal(**BOX)).rpy is None


@pytest.mark.parametrize('fields, error, words', [
    ({}, ConfigurationError, 'give one kind of targets'),
    (dict(BOX, sphere=(0, 0, 0)), ConfigurationError, 'not box and sphere'),
    ({'box': BOX['box']}, ConfigurationError, 'box needs step'),
    ({'box': (0, 0, 0, 1, 1), 'step': 0.1}, ConfigurationError, 'box is 6 numbers'),
    (dict(BOX, box=(0, 0, float('nan'), 1, 1, 1)), ConfigurationError, 'NaN'),
    (dict(BOX, step=1e-4), ConfigurationError, 'GB'),
    (dict(BOX, rpy=(0, 0, 0)), ConfigurationError, 'at most one orientation set'),
    (dict(BOX, workpiece_xyz=(1e308, 0, 0)), ConfigurationError, 'workpiece_xyz'),
    ({'sphere': (0, 0, 0), 'count': 3}, ConfigurationError, 'sphere needs radii and count'),
    (dict(BOX, tip_link='no_such_link'), UnknownFrameError, 'no_such_link'),
    (dict(BOX, frame='no_such_frame'), UnknownFrameError, 'no_such_frame'),
    (dict(BOX, active_joints=('no_such_joint',)), UnknownFrameError, 'no_such_joint'),
    (dict(BOX, output=''), ConfigurationError, 'output'),
    (dict(BOX, output='a\0b'), ConfigurationError, 'output'),
    (dict(BOX, output='missing/s.npz'), ConfigurationError, 'directory does not exist'),
    ({'points_file': 'missing.csv'}, TargetFileError, 'missing.csv'),
])
def test_bad_goals_are_refused_with_the_librarys_errors(arm, tmp_path, fields, error, words):
    goal = ReachGoal(**dict({'output': 's.npz'}, **fields))
    with pytest.raises(error, match=words.replace('(', r'\(')) as caught:
        study_request(goal, arm, str(tmp_path))
    assert isinstance(caught.value, FrameKinematicsError)
    assert not os.listdir(tmp_path)


def test_a_study_in_its_process_equals_run_study_and_gives_progress(arm, tmp_path):
    request, targets = study_request(ReachGoal(seed=5, output='a.npz', **BOX), arm,
                                     str(tmp_path))
    studies = ReachStudies()
    assert studies.reserve() is None
    assert 'one at a time' in studies.reserve()
    feedback, outcome = _run(studies, request, arm.urdf)
    assert studies.reserve() is None  # given back before the outcome was delivered
    assert outcome.answer.success and outcome.answer.path == str(tmp_path / 'a.npz')
    saved = ReachResult.load(outcome.answer.path)
    direct = run_study(arm, 'tool0', targets, seed=5)
    np.testing.assert_array_equal(saved.status, direct.status)
    assert outcome.answer.summary['reached'] == int(direct.reached.sum())
    assert feedback[0].stage == 'targets' and feedback[0].total == len(targets)
    assert feedback[0].solved == direct.stats['solved_first_pass']
    assert feedback[-1].solved <= outcome.answer.summary['reached']
    assert [m.namespace for m in outcome.markers] == [INDEX_NAMESPACE, SCORE_NAMESPACE]
    assert outcome.cloud.width == len(saved.points)


def test_a_cancelled_study_ends_its_process(arm, tmp_path):
    goal = ReachGoal(box=(-0.8, -0.8, 0.0, 0.8, 0.8, 0.8), step=0.05, so3_count=16,
                     output='big.npz')
    request, _ = study_request(goal, arm, str(tmp_path))
    studies = ReachStudies()
    studies.reserve()
    ends = []
    job = studies.start(request, arm.urdf, 'base_link', 0, lambda _: None, ends.append)
    studies.cancel()
    assert job.join(30.0)
    assert ends[0].cancelled and ends[0].answer.message == CANCELLED
    assert not ends[0].answer.success and ends[0].cloud is None
    assert studies.reserve() is None
    assert not (tmp_path / 'big.npz').exists()


def test_a_failing_study_reports_why(arm, tmp_path):
    request, _ = study_request(ReachGoal(output='f.npz', **BOX), arm, str(tmp_path))
    studies = ReachStudies()
    studies.reserve()
    _, outcome = _run(studies, request, '<robot name="broken">')
    assert not outcome.answer.success and not outcome.cancelled
    assert outcome.answer.message.startswith('the study failed: ') and 'URDF' in \
        outcome.answer.message


def _hand_result():
    """Three points, two orientations: indices 1, 0.5, 0; best scores 0.8, 0.4, none."""
    nan = np.nan
    return ReachResult(
        robot='r', tip='t', active_joints=('j',),
        points=np.array([[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.3, 0.0, 0.0]]),
        normals=np.tile([0.0, 0.0, 1.0], (3, 1)), regions=np.zeros(3, dtype=np.int64),
        quaternions=np.tile([0.0, 0.0, 0.0, 1.0], (3, 2, 1)), q=np.zeros((3, 2, 1)),
        status=np.array([[1, 2], [1, 0], [0, -1]], dtype=np.int8),
        manipulability=np.zeros((3, 2)), joint_limit_margin=np.zeros((3, 2)),
        score=np.array([[0.2, 0.8], [0.4, nan], [nan, nan]]), settings={}, stats={})


def test_heat_map_against_hand_values():
    index, score = heat_map(_hand_result(), 'prefix/base_link', 123)
    assert (index.namespace, score.namespace) == (INDEX_NAMESPACE, SCORE_NAMESPACE)
    assert index.frame_id == 'prefix/base_link' and index.stamp_ns == 123
    # nearest neighbours at 0.1, 0.1, 0.2 m: median 0.1 m, spheres of 0.6 of it
    assert index.diameter == pytest.approx(0.06)
    np.testing.assert_allclose(index.points, _hand_result().points)
    np.testing.assert_allclose(index.colors, [[0, 1, 0, 0.9], [1, 1, 0, 0.9], [1, 0, 0, 0.9]])
    np.testing.assert_allclose(score.colors, [[0.4, 1, 0, 0.9], [1, 0.8, 0, 0.9],
                                              NO_VALUE_COLOR])


def test_heat_colors_clip_and_grey_out():
    np.testing.assert_allclose(heat_colors(np.array([-1.0, 2.0, 0.25]))[:, :3],
                               [[1, 0, 0], [0, 1, 0], [1, 0.5, 0]])


def test_cloud_against_hand_values():
    cloud = reach_cloud(_hand_result(), 'base_link', 5)
    assert cloud.width == 3 and cloud.point_step == 20
    assert cloud.fields == tuple(zip(CLOUD_FIELDS, (0, 4, 8, 12, 16)))
    table = np.frombuffer(cloud.data, dtype='<f4').reshape(3, 5)
    np.testing.assert_allclose(table[:, :3], _hand_result().points, atol=1e-7)
    np.testing.assert_allclose(table[:2, 3], [0.8, 0.4], rtol=1e-6)
    assert np.isnan(table[2, 3])
    np.testing.assert_allclose(table[:, 4], [1.0, 0.5, 0.0])


def test_the_visuals_saved_by_the_study_process_are_the_heat_map_and_cloud(tmp_path):
    save_visuals(_hand_result(), str(tmp_path / 'v.npz'))
    markers, cloud = load_visuals(str(tmp_path / 'v.npz'), 'base_link', 9)
    assert cloud == reach_cloud(_hand_result(), 'base_link', 9)
    for got, expected in zip(markers, heat_map(_hand_result(), 'base_link', 9)):
        assert (got.namespace, got.frame_id, got.stamp_ns) == \
            (expected.namespace, expected.frame_id, expected.stamp_ns)
        assert got.diameter == expected.diameter
        np.testing.assert_array_equal(got.colors, expected.colors)
    np.save(tmp_path / 'other.npy', np.zeros(3))
    with pytest.raises((OSError, ValueError)):
        load_visuals(str(tmp_path / 'other.npy'), 'base_link', 9)


def test_the_answer_of_a_study_without_solutions_has_nan_scores():
    summary = {'targets': 4, 'points': 2, 'orientations': 2, 'reached': 0,
               'points_fully_reached': 0, 'points_never_reached': 2, 'beyond_reach': 4,
               'solved_neighbour_pass': 0, 'percent_reached': 0.0, 'elapsed': 0.5,
               'score': {'min': None, 'mean': None, 'max': None}}
    answer = answer_from_summary(summary, '/x.npz')
    assert answer.success and '0 of 4 targets' in answer.message
    assert np.isnan(answer.summary['score_mean']) and answer.summary['beyond_reach'] == 4
