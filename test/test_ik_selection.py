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
"""Tests of frame_kinematics.core.ik.selection: the tips, and the joints that move them."""

from conftest import random_configuration
from frame_kinematics.core import ConfigurationError, IKSolver, ReferenceFrameError
from frame_kinematics.core import ik
from ik_testing import arm_fixture, arm_joints_fixture, TOL
import numpy as np
import pytest

arm = arm_fixture()
arm_joints = arm_joints_fixture()


def test_a_finger_moved_only_by_a_mimic_joint_moves_with_its_master(arm, arm_joints):
    # right_finger_joint mimics left_finger_joint, which is not on right_finger_link's path.
    evaluator = ik.ChainEvaluator(arm, 'right_finger_link')
    assert 'left_finger_joint' in evaluator.active_joints
    rng = np.random.default_rng(31)
    q = random_configuration(arm, rng, 4)
    poses = evaluator.forward(evaluator.reduce(q))
    state = arm.forward_kinematics(q)
    assert np.allclose(poses[-1], state.transform('right_finger_link'), atol=1e-12)
    full = np.zeros((4, 6, arm.nv))
    full[..., evaluator.v_index] = evaluator.jacobian(poses)
    assert np.allclose(full, state.jacobian('right_finger_link'), atol=1e-12)
    # The finger alone reaches a target only its master can give it.
    seed = random_configuration(arm, rng)
    seed[6] = 0.0
    goal = seed.copy()
    goal[6] = 0.03
    root_T_target = arm.forward_kinematics(goal).transform('right_finger_link')
    result = ik.solve(arm, 'right_finger_link', root_T_target, seed=seed,
                      active_joints=['left_finger_joint'], time_budget=0.5)
    assert result.success and result.q[6] == pytest.approx(0.03, abs=TOL)
    assert np.array_equal(result.q[:6], seed[:6])
    # With the master held, the mimic finger is held at its master's value.
    held = ik.ChainEvaluator(arm, 'right_finger_link', arm_joints, q_fixed=goal)
    assert held.active_joints == tuple(arm_joints)
    mixed = q.copy()
    mixed[:, 6] = goal[6]
    assert np.allclose(held.forward(held.reduce(q))[-1],
                       arm.forward_kinematics(mixed).transform('right_finger_link'),
                       atol=1e-12)
    # A frame moved by a mimic of an active joint is a moving reference frame.
    with pytest.raises(ReferenceFrameError):
        ik.solve(arm, 'left_finger_link', np.eye(4), reference_frame='right_finger_link',
                 active_joints=['left_finger_joint'])


class _NoIteration:
    """An object whose iteration fails with its own exception."""

    def __iter__(self):
        raise RuntimeError('no iteration')


@pytest.mark.parametrize('active_joints', [3, 2.5, True, _NoIteration()])
def test_active_joints_that_are_not_names_are_refused_by_name(arm, active_joints):
    root_T_target = arm.forward_kinematics(arm.neutral_configuration()).transform('tool0')
    calls = (lambda: arm.inverse_kinematics('tool0', root_T_target, active_joints=active_joints),
             lambda: ik.solve(arm, 'tool0', root_T_target, active_joints=active_joints),
             lambda: ik.solve_batch(arm, 'tool0', root_T_target[None],
                                    active_joints=active_joints),
             lambda: IKSolver(arm, 'tool0', active_joints=active_joints))
    for call in calls:
        with pytest.raises(ConfigurationError, match='^active_joints must be a joint name or a '
                           f'list of names, got {type(active_joints).__name__}$'):
            call()


def test_one_name_as_active_joints_is_that_joint_alone(arm):
    assert IKSolver(arm, 'tool0', active_joints='elbow_joint').active_joints == ('elbow_joint',)
    assert IKSolver(arm, 'tool0', active_joints=('elbow_joint',)).active_joints == \
        ('elbow_joint',)


def test_a_tip_list_whose_iteration_fails_is_refused(arm):
    with pytest.raises(ConfigurationError, match='^tip must be a link name or a list of names'):
        IKSolver(arm, _NoIteration())
