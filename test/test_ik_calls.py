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
"""Tests of frame_kinematics.core.ik.calls: the one-call functions and the solvers they keep."""

from conftest import bundled, HostileName, random_configuration
from frame_kinematics.core import ik
from frame_kinematics.core.robot import IK_SOLVERS_KEPT
from ik_testing import same_result
import numpy as np


def test_the_one_call_functions_reuse_one_solver_per_model_and_tips(monkeypatch):
    from frame_kinematics.core.ik import chain
    model = bundled(backend='numpy')
    joints = model.joint_names[:6]
    builds = []
    original = chain.ChainEvaluator.from_selection.__func__

    def counted(cls, *args):
        builds.append(1)
        return original(cls, *args)

    monkeypatch.setattr(chain.ChainEvaluator, 'from_selection', classmethod(counted))
    rng = np.random.default_rng(22)
    targets = model.forward_kinematics(random_configuration(model, rng, 5)).transform('tool0')
    fresh = [ik.IKSolver(model, 'tool0').solve(t, time_budget=60.0) for t in targets]
    builds.clear()
    for t, expected in zip(targets, fresh):
        same_result(model.inverse_kinematics('tool0', t, time_budget=60.0), expected)
        same_result(ik.solve(model, ['tool0'], t, time_budget=60.0), expected)
    assert len(builds) == 1
    # another tip list or active joint list is another solver; the cache stays bounded
    for k in range(1, 6):
        ik.solve(model, 'tool0', targets[0], active_joints=joints[:k], max_iterations=1)
    assert len(builds) == 6
    for k in range(1, 2 * IK_SOLVERS_KEPT):
        ik.solve(model, 'tool0', targets[0], active_joints=joints[k % 6:], max_iterations=1,
                 seed=np.full(model.nq, 0.01 * k))
    assert len(model.ik_solvers) == IK_SOLVERS_KEPT


def test_an_active_joint_whose_hash_and_equality_fail_is_read_as_a_plain_str():
    model = bundled(backend='numpy')
    target = model.forward_kinematics(random_configuration(model, np.random.default_rng(4))
                                      ).transform('tool0')
    expected = model.inverse_kinematics('tool0', target, active_joints='elbow_joint',
                                        max_iterations=5, time_budget=60.0)
    same_result(model.inverse_kinematics('tool0', target, active_joints=HostileName(
        'elbow_joint'), max_iterations=5, time_budget=60.0), expected)
