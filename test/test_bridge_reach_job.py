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
"""The ReachStudy study in its own process (frame_kinematics.bridge.reach_job)."""

from bridge_testing import BOX, numpy_arm_fixture
from frame_kinematics.bridge.reach_goal import ReachGoal, study_request
from frame_kinematics.bridge.reach_job import CANCELLED, ReachStudies
from frame_kinematics.bridge.reach_markers import INDEX_NAMESPACE, SCORE_NAMESPACE
from frame_kinematics.core.reach import ReachResult, run_study
import numpy as np


arm = numpy_arm_fixture()


def _run(studies, request, urdf):
    feedback, ends = [], []
    job = studies.start(request, urdf, 'base_link', 7, feedback.append, ends.append)
    assert job.join(120.0), 'the study did not end'
    assert len(ends) == 1
    return feedback, ends[0]


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
