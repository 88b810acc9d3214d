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
"""Tests of frame_kinematics.core.ik.result: a batch's results, one per target."""

from frame_kinematics.core import ik
from ik_testing import arm_fixture, reachable
import numpy as np

arm = arm_fixture()


def test_batch_results_are_per_target_and_the_model_entry_point_dispatches(arm):
    rng = np.random.default_rng(4)
    _, targets = reachable(arm, 'tool0', rng, 6)
    result = arm.inverse_kinematics('tool0', targets, rng=np.random.default_rng(0),
                                    time_budget=5.0)
    assert isinstance(result, ik.IKBatchResult) and len(result) == 6
    assert result.q.shape == (6, arm.nq) and result.success.shape == (6,)
    one = result[2]
    assert isinstance(one, ik.IKResult) and one.success
    assert np.array_equal(one.q, result.q[2])
    assert one.tip_position_errors.shape == (1,)
