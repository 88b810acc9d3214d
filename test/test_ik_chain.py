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
"""Tests of frame_kinematics.core.ik.chain: the reduced chain evaluator and its checks."""

from conftest import all_joint_types_model, bundled, random_configuration, real_robot_path, \
    REAL_ROBOTS
from frame_kinematics.core import ConfigurationError, IKSolver, Robot
from frame_kinematics.core import ik
from frame_kinematics.core.velocity import stacked_jacobian
from ik_testing import arm_fixture, arm_joints_fixture
import numpy as np
import pytest

arm = arm_fixture()
arm_joints = arm_joints_fixture()


def _model(name):
    """Build the cross-checks' model of this test id (in the test: none at import)."""
    if name == 'all joint types':
        return all_joint_types_model()
    if name == 'fk_quadruped floating':
        return bundled('fk_quadruped', floating_base=True)
    if name == 'iiwa':
        return Robot.from_urdf_file(real_robot_path('iiwa'))
    if name in REAL_ROBOTS:
        return Robot.from_urdf_file(real_robot_path(name), floating_base=REAL_ROBOTS[name][1])
    return bundled(name)


@pytest.fixture
def evaluator():
    return IKSolver(bundled('fk_arm'), 'tool0').evaluator()


def bad_arrays(size):
    """Return inputs that are not ``size`` finite real numbers (or a batch of them)."""
    return ['abc', b'abc', None, {'a': 1}, [0.0], np.zeros(size + 1), np.zeros((2, 2, size)),
            np.full(size, np.nan), np.full(size, 1e308), np.zeros(size, dtype=complex),
            np.array(['1'] * size), np.ma.array(np.zeros(size)), [10 ** 400] * size]


def test_reduce_and_expand_refuse_bad_configurations(evaluator):
    for bad in bad_arrays(evaluator.model.nq):
        with pytest.raises(ConfigurationError):
            evaluator.reduce(bad)
    for bad in bad_arrays(evaluator.nq):
        with pytest.raises(ConfigurationError, match='reduced configuration'):
            evaluator.expand(bad)


def test_forward_refuses_anything_but_a_batch_of_reduced_configurations(evaluator):
    for bad in bad_arrays(evaluator.nq) + [np.zeros(evaluator.nq)]:
        with pytest.raises(ConfigurationError, match='reduced configuration'):
            evaluator.forward(bad)


def test_jacobian_refuses_anything_but_poses_from_forward(evaluator):
    poses = evaluator.forward(np.zeros((3, evaluator.nq)))
    nan = poses.copy()
    nan[-1, 1, 0, 3] = np.nan
    for bad in ('abc', None, [1, 2], poses[:-1], poses[:, :, :3], poses[..., 0], nan,
                np.where(poses == 1, np.inf, poses), poses.astype(complex), np.ma.array(poses)):
        with pytest.raises(ConfigurationError, match='poses'):
            evaluator.jacobian(bad)


def test_checked_methods_agree_with_the_model_and_keep_their_inputs(evaluator):
    model = evaluator.model
    q = random_configuration(model, np.random.default_rng(4), batch=5)
    reduced = evaluator.reduce(q)
    np.testing.assert_array_equal(reduced, q[:, evaluator.q_index])
    kept = reduced.copy()
    poses = evaluator.forward(reduced)
    np.testing.assert_array_equal(reduced, kept)
    np.testing.assert_allclose(poses[evaluator.n_nodes:][0],
                               model.forward_kinematics(evaluator.expand(reduced))
                               .transform('tool0'), atol=1e-12)
    np.testing.assert_allclose(evaluator.forward(reduced.tolist()), poses)
    jac = evaluator.jacobian(poses)
    assert jac.shape == (5, 6, evaluator.nv)
    np.testing.assert_array_equal(evaluator.jacobian(poses.tolist()), jac)


@pytest.mark.parametrize('name, tips', [
    ('fk_arm', ['tool0']), ('fk_arm', ['tool0', 'left_finger_link', 'right_finger_link']),
    ('all joint types', ['tip', 'plane', 'b'])], ids=lambda value: (
        value if isinstance(value, str) else '+'.join(value)))
def test_chain_evaluator_matches_the_kinematics_state(name, tips, arm):
    model = arm if name == 'fk_arm' else _model(name)
    rng = np.random.default_rng(0)
    q = random_configuration(model, rng, 7)
    evaluator = ik.ChainEvaluator(model, tips)
    poses = evaluator.forward(evaluator.reduce(q))
    state = model.forward_kinematics(q)
    for t, tip in enumerate(tips):
        assert np.allclose(poses[evaluator.n_nodes + t], state.transform(tip), atol=1e-12)
    expected = stacked_jacobian(state, tips)[..., evaluator.v_index]
    assert np.allclose(evaluator.jacobian(poses), expected, atol=1e-12)
    assert np.allclose(evaluator.tip_transforms(q[0]), [state.transform(t)[0] for t in tips],
                       atol=1e-12)


def test_chain_evaluator_folds_inactive_joints_at_their_value(arm, arm_joints):
    rng = np.random.default_rng(1)
    q = random_configuration(arm, rng, 4)
    held = ['shoulder_pan_joint', 'wrist_2_joint']
    active = [n for n in arm_joints if n not in held]
    evaluator = ik.ChainEvaluator(arm, 'tool0', active, q_fixed=q[0])
    assert evaluator.active_joints == tuple(active)
    mixed = q.copy()
    for name in held:
        mixed[:, arm.joint(name).idx_q] = q[0, arm.joint(name).idx_q]
    poses = evaluator.forward(evaluator.reduce(q))
    state = arm.forward_kinematics(mixed)
    assert np.allclose(poses[-1], state.transform('tool0'), atol=1e-12)
    columns = [arm.joint(n).idx_v for n in active]
    assert np.allclose(evaluator.jacobian(poses), state.jacobian('tool0')[..., columns],
                       atol=1e-12)
    full = evaluator.expand(evaluator.reduce(q))
    assert np.array_equal(full[:, evaluator.q_index], q[:, evaluator.q_index])
    assert np.array_equal(full[1, [0, 4]], q[0, [0, 4]])


# -- the kernel's consumers agree: IK's evaluator against the forward kinematics ------------------
@pytest.mark.parametrize('name', ['fk_arm', 'fk_quadruped', 'fk_quadruped floating',
                                  'all joint types', 'iiwa'] + sorted(REAL_ROBOTS))
def test_evaluator_poses_and_jacobians_equal_the_forward_kinematics(name):
    model = _model(name)
    leaves = sorted(set(model.link_names) - {model.link(j.child).parent for j in model.joints})
    rng = np.random.default_rng(30)
    q = random_configuration(model, rng, 5)
    state = model.forward_kinematics(q)
    for tips in [leaves] + [[leaf] for leaf in leaves]:
        evaluator = ik.ChainEvaluator(model, tips)
        poses = evaluator.forward(evaluator.reduce(q))
        for t, tip in enumerate(tips):
            assert np.allclose(poses[evaluator.n_nodes + t], state.transform(tip), rtol=0,
                               atol=1e-12), (name, tip)
        # Every joint that moves a tip is active: the reduced Jacobian is the whole one.
        full = np.zeros((5, 6 * len(tips), model.nv))
        full[..., evaluator.v_index] = evaluator.jacobian(poses)
        assert np.allclose(full, stacked_jacobian(state, tips), rtol=0, atol=1e-12), (name, tips)
