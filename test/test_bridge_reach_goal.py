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
"""What a ReachStudy goal asks for (frame_kinematics.bridge.reach_goal)."""

import os

from bridge_testing import BOX, numpy_arm_fixture
from frame_kinematics.bridge.reach_goal import (answer_from_summary, ReachGoal, study_request,
                                                target_options)
from frame_kinematics.core.errors import (ConfigurationError, FrameKinematicsError,
                                          TargetFileError, UnknownFrameError)
from frame_kinematics.core.reach import cone_orientations, shell_targets
import numpy as np
import pytest


arm = numpy_arm_fixture()


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
    ({'box': (0, 0, 0, 1, 1), 'step': 0.1}, ConfigurationError, 'must be 6 numbers'),
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
    (dict(BOX, output='s\n[ERROR] fake.npz'), ConfigurationError, 'output must be printable'),
    (dict(BOX, output='\x1b[31ms.npz'), ConfigurationError, 'output must be printable'),
    (dict(BOX, output='missing/s.npz'), ConfigurationError, 'directory does not exist'),
    ({'points_file': 'missing.csv'}, TargetFileError, 'missing.csv'),
])
def test_bad_goals_are_refused_with_the_librarys_errors(arm, tmp_path, fields, error, words):
    goal = ReachGoal(**dict({'output': 's.npz'}, **fields))
    with pytest.raises(error, match=words.replace('(', r'\(')) as caught:
        study_request(goal, arm, str(tmp_path))
    assert isinstance(caught.value, FrameKinematicsError)
    assert not os.listdir(tmp_path)


@pytest.mark.parametrize('names', [{'tip_link': 'no_such_link'}, {'frame': 'no_such_frame'},
                                   {'active_joints': ('no_such_joint',)}])
def test_an_unknown_name_is_refused_before_the_targets_are_built(arm, tmp_path, names):
    # targets the library refuses only once it has counted them: the name is found first
    goal = ReachGoal(**dict(BOX, step=1e-4, output='s.npz', **names))
    with pytest.raises(UnknownFrameError, match='no_such_'):
        study_request(goal, arm, str(tmp_path))


@pytest.mark.parametrize('output', ['folder/', 'folder/..', 'folder/.', '.', '..', 'folder//'])
def test_an_output_that_names_a_folder_is_refused_not_written_beside_it(arm, tmp_path, output):
    os.mkdir(tmp_path / 'folder')
    with pytest.raises(ConfigurationError, match='output: .* is not a file name'):
        study_request(ReachGoal(**dict(BOX, output=output)), arm, str(tmp_path))
    assert os.listdir(tmp_path) == ['folder']


def test_the_answer_of_a_study_without_solutions_has_nan_scores():
    summary = {'targets': 4, 'points': 2, 'orientations': 2, 'reached': 0,
               'points_fully_reached': 0, 'points_never_reached': 2, 'beyond_reach': 4,
               'solved_neighbour_pass': 0, 'percent_reached': 0.0, 'elapsed': 0.5,
               'score': {'min': None, 'mean': None, 'max': None}}
    answer = answer_from_summary(summary, '/x.npz')
    assert answer.success and '0 of 4 targets' in answer.message
    assert np.isnan(answer.summary['score_mean']) and answer.summary['beyond_reach'] == 4
