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
"""Inverse kinematics: the chain evaluator, single, weighted, multi-tip and batch solves."""

import gc
import threading
import weakref

from conftest import all_joint_types_model, assert_edge_solutions_accepted, assert_verified, \
    bundled, far_base_case, joint_xml, link_xml, random_configuration, real_robot_path, \
    REAL_ROBOTS, rest_pulls, urdf
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ConfigurationError, IKSolver, ReferenceFrameError, Robot, \
    UnknownFrameError
from frame_kinematics.core import ik
from frame_kinematics.core.ik.residual import rotation_error
from frame_kinematics.core.robot import IK_SOLVERS_KEPT
from frame_kinematics.core.spatial import exp_so3, log_so3
from frame_kinematics.core.velocity import stacked_jacobian
import numpy as np
import pytest

TOL = 1e-5


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


@pytest.fixture(scope='module')
def arm():
    """Return the bundled arm, one model for the module's tests."""
    return bundled()


@pytest.fixture(scope='module')
def arm_joints(arm):
    """Return the bundled arm's six arm joints (its gripper's finger left out)."""
    return arm.joint_names[:6]


def _errors(model, q, tip, root_T_target):
    root_T_tip = model.forward_kinematics(q).transform(tip)
    position = np.linalg.norm(root_T_tip[:3, 3] - root_T_target[:3, 3])
    angle = np.linalg.norm(log_so3(root_T_tip[:3, :3].T @ root_T_target[:3, :3]))
    return position, angle


def _reachable(model, tip, rng, count=None):
    q = random_configuration(model, rng, count)
    return q, model.forward_kinematics(q).transform(tip)


def _within_limits(model, q):
    return bool(np.all(cfg.is_valid(model, q, tolerance=1e-12)))


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


def test_the_residuals_rotation_error_is_log_so3():
    """One rotation log: the IK residual reads ``spatial.log_so3`` (near pi included)."""
    rng = np.random.default_rng(31)
    tip_R = exp_so3(rng.normal(size=(40, 3)))
    turn = rng.normal(size=(40, 3))
    turn *= (rng.uniform(0.0, np.pi, 40) / np.linalg.norm(turn, axis=1))[:, None]
    turn[:8] *= ((np.pi - np.array([0, 1e-9, 1e-6, 5e-5, 1e-4, 2e-4, 1e-3, 1e-2]))
                 / np.linalg.norm(turn[:8], axis=1))[:, None]
    target_R = exp_so3(turn) @ tip_R
    w, angle = rotation_error(tip_R, target_R)
    assert np.array_equal(w, log_so3(target_R @ np.swapaxes(tip_R, 1, 2)))
    np.testing.assert_allclose(w[8:], turn[8:], rtol=0, atol=1e-10)
    np.testing.assert_allclose(angle, np.linalg.norm(turn, axis=1), rtol=0, atol=1e-10)


def test_solve_reaches_reachable_targets_within_limits(arm):
    rng = np.random.default_rng(2)
    for _ in range(10):
        _, root_T_target = _reachable(arm, 'tool0', rng)
        seed = random_configuration(arm, rng)
        result = arm.inverse_kinematics('tool0', root_T_target, seed=seed,
                                        rng=np.random.default_rng(0), time_budget=0.5)
        assert result.success and result.reason == 'converged'
        position, angle = _errors(arm, result.q, 'tool0', root_T_target)
        assert position < TOL and angle < TOL
        assert result.position_error == pytest.approx(position, abs=1e-9)
        assert result.orientation_error == pytest.approx(angle, abs=1e-9)
        assert _within_limits(arm, result.q)
        assert result.iterations >= 1
        # The finger does not move the tool: it keeps the seed's value.
        assert result.q[6] == seed[6]


@pytest.mark.parametrize('name, tip', [('ur5', 'tool0'), ('panda', 'panda_link8'),
                                       ('iiwa', 'lbr_iiwa_link_7')])
def test_real_arms_single_and_batch(name, tip):
    model = Robot.from_urdf_file(real_robot_path(name))
    rng = np.random.default_rng(3)
    _, targets = _reachable(model, tip, rng, 40)
    seeds = random_configuration(model, rng, 40)
    batch = ik.solve_batch(model, tip, targets, seed=seeds, rng=np.random.default_rng(1),
                           time_budget=5.0)
    assert batch.success_rate == 1.0
    assert np.all(cfg.is_valid(model, batch.q, tolerance=1e-12))
    reached = model.forward_kinematics(batch.q).transform(tip)
    assert np.allclose(reached[:, :3, 3], targets[:, :3, 3], atol=TOL)
    assert np.all(np.linalg.norm(log_so3(np.swapaxes(reached[:, :3, :3], 1, 2)
                                         @ targets[:, :3, :3]), axis=1) < TOL)
    single = model.inverse_kinematics(tip, targets[0], seed=seeds[0], time_budget=0.5)
    assert single.success
    assert max(_errors(model, single.q, tip, targets[0])) < TOL


def test_batch_results_are_per_target_and_the_model_entry_point_dispatches(arm):
    rng = np.random.default_rng(4)
    _, targets = _reachable(arm, 'tool0', rng, 6)
    result = arm.inverse_kinematics('tool0', targets, rng=np.random.default_rng(0),
                                    time_budget=5.0)
    assert isinstance(result, ik.IKBatchResult) and len(result) == 6
    assert result.q.shape == (6, arm.nq) and result.success.shape == (6,)
    one = result[2]
    assert isinstance(one, ik.IKResult) and one.success
    assert np.array_equal(one.q, result.q[2])
    assert one.tip_position_errors.shape == (1,)


def test_position_only_ignores_orientation(arm):
    rng = np.random.default_rng(5)
    _, root_T_target = _reachable(arm, 'tool0', rng)
    twisted = root_T_target.copy()
    twisted[:3, :3] = root_T_target[:3, :3] @ exp_so3(np.array([1.0, -0.5, 2.0]))
    result = ik.solve(arm, 'tool0', twisted, position_only=True, time_budget=0.5)
    assert result.success and result.orientation_error == 0.0
    reached = arm.forward_kinematics(result.q).transform('tool0')
    assert np.linalg.norm(reached[:3, 3] - twisted[:3, 3]) < TOL


def test_per_axis_weights_free_the_rotation_about_the_target_z_axis(arm):
    rng = np.random.default_rng(6)
    _, root_T_target = _reachable(arm, 'tool0', rng)
    spun = root_T_target.copy()
    spun[:3, :3] = root_T_target[:3, :3] @ exp_so3(np.array([0.0, 0.0, 1.3]))
    result = ik.solve(arm, 'tool0', spun, weights=[1, 1, 1, 1, 1, 0], time_budget=0.5)
    assert result.success
    reached = arm.forward_kinematics(result.q).transform('tool0')
    assert np.linalg.norm(reached[:3, 3] - spun[:3, 3]) < TOL
    # The z axes agree; the rotation about them is free.
    assert np.allclose(reached[:3, 2], spun[:3, 2], atol=TOL)
    # A heavy orientation weight still converges to the full pose.
    heavy = ik.solve(arm, 'tool0', root_T_target, orientation_weight=5.0, time_budget=0.5)
    assert heavy.success and max(_errors(arm, heavy.q, 'tool0', root_T_target)) < TOL


def test_active_joint_subset_keeps_the_others_at_the_seed(arm):
    rng = np.random.default_rng(7)
    seed = random_configuration(arm, rng)
    goal = seed.copy()
    goal[[1, 2]] += [0.3, -0.4]
    goal = cfg.clip(arm, goal)
    root_T_target = arm.forward_kinematics(goal).transform('tool0')
    result = ik.solve(arm, 'tool0', root_T_target, seed=seed, position_only=True,
                      active_joints=['shoulder_lift_joint', 'elbow_joint', 'wrist_1_joint'],
                      time_budget=0.5)
    assert result.success
    untouched = [0, 4, 5, 6]
    assert np.array_equal(result.q[untouched], seed[untouched])


def test_multiple_tips_on_a_floating_base_humanoid():
    talos = Robot.from_urdf_file(real_robot_path('talos'), floating_base=True)
    tips = ['leg_left_6_link', 'leg_right_6_link', 'arm_left_7_link']
    rng = np.random.default_rng(8)
    q0 = talos.neutral_configuration()
    for _ in range(2):
        goal = cfg.random_gaussian(talos, rng, q0, 0.3)
        targets = np.array([talos.forward_kinematics(goal).transform(t) for t in tips])
        result = talos.inverse_kinematics(tips, targets, seed=q0, time_budget=1.0,
                                          rng=np.random.default_rng(0))
        assert result.success
        assert result.tip_position_errors.shape == (3,)
        for tip, target in zip(tips, targets):
            assert max(_errors(talos, result.q, tip, target)) < TOL
        assert _within_limits(talos, result.q)


def test_target_in_another_frame(arm, arm_joints):
    rng = np.random.default_rng(9)
    seed = arm.neutral_configuration()
    goal = random_configuration(arm, rng)
    # shoulder_link is moved by shoulder_pan: hold that joint (at the seed's value), the frame
    # is then fixed and the target stays reachable.
    goal[0] = seed[0]
    root_T_target = arm.forward_kinematics(goal).transform('tool0')
    root_T_frame = arm.forward_kinematics(seed).transform('shoulder_link')
    frame_T_target = np.linalg.inv(root_T_frame) @ root_T_target
    active = arm_joints[1:]
    result = ik.solve(arm, 'tool0', frame_T_target, seed=seed, reference_frame='shoulder_link',
                      active_joints=active, position_only=True, time_budget=0.5)
    assert result.success
    reached = arm.forward_kinematics(result.q).transform('tool0')
    assert np.linalg.norm(reached[:3, 3] - root_T_target[:3, 3]) < TOL
    with pytest.raises(ReferenceFrameError):
        ik.solve(arm, 'tool0', frame_T_target, reference_frame='shoulder_link')


def test_unreachable_target_returns_the_best_configuration_within_the_budget(arm):
    root_T_target = np.eye(4)
    root_T_target[:3, 3] = [3.0, 0.0, 0.5]
    result = ik.solve(arm, 'tool0', root_T_target, time_budget=0.02, max_iterations=10 ** 9)
    assert not result.success and result.reason == 'time_budget'
    assert result.elapsed >= 0.02  # it ran for its whole budget
    assert _within_limits(arm, result.q)
    position, _ = _errors(arm, result.q, 'tool0', root_T_target)
    assert result.position_error == pytest.approx(position, abs=1e-9)
    # The best configuration found stretches toward the target.
    reach = np.linalg.norm(arm.forward_kinematics(result.q).transform('tool0')[:3, 3])
    assert position == pytest.approx(3.0 - reach, abs=0.2)
    limited = ik.solve(arm, 'tool0', root_T_target, restarts=3, time_budget=1.0)
    assert not limited.success and limited.reason == 'max_restarts'
    assert limited.restarts == 3
    counted = ik.solve(arm, 'tool0', root_T_target, max_iterations=7, parallel_seeds=1,
                       time_budget=1.0)
    assert counted.reason == 'max_iterations' and counted.iterations == 7


def test_a_batch_mixes_reachable_and_unreachable_targets(arm):
    rng = np.random.default_rng(10)
    targets = _reachable(arm, 'tool0', rng, 5)[1].copy()
    targets[3, :3, 3] = [0.0, 4.0, 0.0]
    result = ik.solve_batch(arm, 'tool0', targets, max_iterations=3000, time_budget=60.0)
    assert result.success.tolist() == [True, True, True, False, True]
    assert result.reason[3] == 'max_iterations'
    assert np.all(cfg.is_valid(arm, result.q, tolerance=1e-12))


def test_fixed_generator_gives_reproducible_results(arm):
    rng = np.random.default_rng(11)
    _, root_T_target = _reachable(arm, 'tool0', rng)
    runs = [ik.solve(arm, 'tool0', root_T_target, rng=np.random.default_rng(42),
                     time_budget=5.0) for _ in range(2)]
    assert np.array_equal(runs[0].q, runs[1].q)
    assert runs[0].iterations == runs[1].iterations


def test_rest_posture_bias_stays_near_the_rest_posture():
    panda = Robot.from_urdf_file(real_robot_path('panda'))
    rest = cfg.clip(panda, np.array([0.0, -0.3, 0.0, -2.2, 0.0, 2.0, 0.8, 0.02]))
    rng = np.random.default_rng(12)
    goals = [cfg.random_gaussian(panda, rng, rest, 0.3) for _ in range(4)]
    free, biased = rest_pulls(panda, 'panda_link8', goals, rest, 1.0)
    assert np.mean(biased) < np.mean(free)


def test_invalid_input_raises_and_changes_nothing(arm):
    rng = np.random.default_rng(13)
    _, root_T_target = _reachable(arm, 'tool0', rng)
    seed = arm.neutral_configuration()
    kept = seed.copy()
    with pytest.raises(UnknownFrameError):
        ik.solve(arm, 'nope', root_T_target, seed=seed)
    bad = root_T_target.copy()
    bad[0, 3] = np.nan
    with pytest.raises(ConfigurationError, match='NaN'):
        ik.solve(arm, 'tool0', bad, seed=seed)
    skewed = root_T_target.copy()
    skewed[:3, :3] *= 1.1
    with pytest.raises(ConfigurationError, match='orthonormal'):
        ik.solve(arm, 'tool0', skewed, seed=seed)
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed[:3])
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target[:3], seed=seed)
    with pytest.raises(UnknownFrameError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, active_joints=['nope'])
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, position_tolerance=0.0)
    with pytest.raises(ConfigurationError):
        ik.solve(arm, ['tool0', 'wrist_3_link'], root_T_target, seed=seed)
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, weights=[1, 1, 1])
    with pytest.raises(TypeError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, no_such_option=1)
    with pytest.raises(ConfigurationError, match='no active joint'):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, active_joints=['left_finger_joint'])
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, reference_frame='base_link',
                 rest_posture=seed[:3])
    assert np.array_equal(seed, kept) and seed.flags.writeable


def test_seed_outside_the_limits_is_projected_with_a_warning(arm, core_log):
    rng = np.random.default_rng(14)
    _, root_T_target = _reachable(arm, 'tool0', rng)
    seed = arm.neutral_configuration()
    seed[2] = 5.0
    log = core_log('frame_kinematics.core.ik')
    result = ik.solve(arm, 'tool0', root_T_target, seed=seed, time_budget=0.5)
    assert 'elbow_joint' in log.text
    assert result.success and _within_limits(arm, result.q)
    assert seed[2] == 5.0


def test_a_seed_already_on_target_converges_without_iterating(arm):
    seed = random_configuration(arm, np.random.default_rng(15))
    root_T_target = arm.forward_kinematics(seed).transform('tool0')
    for limit in (0, 10):
        result = ik.solve(arm, 'tool0', root_T_target, seed=seed, max_iterations=limit)
        assert result.success and result.reason == 'converged' and result.iterations == 0
        assert np.allclose(result.q[:6], seed[:6])
    empty = ik.solve_batch(arm, 'tool0', np.zeros((0, 4, 4)))
    assert len(empty) == 0 and empty.q.shape == (0, arm.nq)


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


# -- mimic masters off the tip's path -------------------------------------------------------------
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


# -- the reference frame is placed by the call's own seed -----------------------------------------
def _arm_and_head():
    body = '\n'.join([
        link_xml('base'), link_xml('a1'), link_xml('a2'), link_xml('a3'), link_xml('tip'),
        link_xml('head'),
        joint_xml('arm_1', 'revolute', 'base', 'a1', '0 0 0.1', axis='0 0 1'),
        joint_xml('arm_2', 'revolute', 'a1', 'a2', '0 0 0.2', axis='0 1 0'),
        joint_xml('arm_3', 'revolute', 'a2', 'a3', '0 0 0.3', axis='0 1 0'),
        joint_xml('tool', 'fixed', 'a3', 'tip', '0 0 0.25'),
        joint_xml('neck', 'revolute', 'base', 'head', '0.1 0 0.5', axis='0 0 1'),
    ])
    return Robot.from_urdf_string(urdf(body, 'arm_and_head'))


def test_a_reference_frame_is_evaluated_at_each_calls_seed():
    model = _arm_and_head()
    neck = model.joint('neck').idx_q
    rng = np.random.default_rng(32)
    seed = np.zeros(model.nq)
    for neck_angle in (0.0, 1.2, -0.7):
        # A new seed array each time, then the same buffer written in place.
        for fresh in (True, False):
            seed = seed.copy() if fresh else seed
            seed[neck] = neck_angle + (0.0 if fresh else 0.4)
            goal = random_configuration(model, rng)
            goal[neck] = seed[neck]
            state = model.forward_kinematics(goal)
            head_T_target = np.linalg.inv(state.transform('head')) @ state.transform('tip')
            result = model.inverse_kinematics('tip', head_T_target, seed=seed,
                                              reference_frame='head', position_only=True,
                                              time_budget=0.5)
            reached = model.forward_kinematics(result.q).transform('tip')
            assert result.success
            assert np.linalg.norm(reached[:3, 3] - state.transform('tip')[:3, 3]) < TOL
            assert result.q[neck] == seed[neck]
    # A batch with one seed per target: each target's frame is placed by its own seed.
    seeds = np.zeros((3, model.nq))
    seeds[:, neck] = [0.0, 1.0, 2.0]
    goals = random_configuration(model, rng, 3)
    goals[:, neck] = seeds[:, neck]
    state = model.forward_kinematics(goals)
    head_T_targets = np.linalg.inv(state.transform('head')) @ state.transform('tip')
    batch = ik.solve_batch(model, 'tip', head_T_targets, seed=seeds, reference_frame='head',
                           position_only=True, time_budget=2.0)
    assert batch.success.all()
    reached = model.forward_kinematics(batch.q).transform('tip')
    assert np.allclose(reached[:, :3, 3], state.transform('tip')[:, :3, 3], atol=TOL)


# -- the caller's arrays stay the caller's --------------------------------------------------------
def test_seeds_targets_and_rest_postures_are_copied_not_kept(arm):
    rng = np.random.default_rng(33)
    root_T_target = _reachable(arm, 'tool0', rng)[1].copy()
    seed = random_configuration(arm, rng)
    rest = random_configuration(arm, rng)
    inputs = (seed, root_T_target, rest)
    copies = [a.copy() for a in inputs]
    solver = ik.IKSolver(arm, 'tool0')
    result = solver.solve(root_T_target, seed=seed, rest_posture=rest, time_budget=10.0)
    assert result.success
    for given, kept in zip(inputs, copies):
        assert given.flags.writeable and np.array_equal(given, kept)
        assert not np.shares_memory(result.q, given)
        assert not np.shares_memory(solver.evaluator(seed).q_fixed, given)
    solved = result.q.copy()
    seed += 1.0
    root_T_target[:3, 3] += 1.0
    rest += 1.0
    assert np.array_equal(result.q, solved)
    targets = np.stack([root_T_target] * 3)
    seeds = np.stack([seed] * 3)
    kept = targets.copy(), seeds.copy()
    ik.solve_batch(arm, 'tool0', targets, seed=seeds, time_budget=0.1)
    assert np.array_equal(targets, kept[0]) and np.array_equal(seeds, kept[1])
    assert targets.flags.writeable and seeds.flags.writeable


# -- no global state; one solver, several threads -------------------------------------------------
def test_solving_leaves_no_state_behind():
    model = bundled()
    seed = random_configuration(model, np.random.default_rng(16))
    result = ik.solve(model, 'tool0', model.forward_kinematics(seed).transform('tool0'),
                      time_budget=0.5)
    assert result.success
    assert not hasattr(ik, '_EVALUATORS') and not hasattr(ik, '_PROBLEMS')
    alive = weakref.ref(model)
    del model
    gc.collect()
    assert alive() is None


def test_a_solver_keeps_one_evaluator_per_held_values_in_a_bounded_cache(arm, arm_joints):
    solver = ik.IKSolver(arm, 'tool0', arm_joints[1:], cache_size=2)
    seed = arm.neutral_configuration()
    first = solver.evaluator(seed)
    moved = seed.copy()
    moved[6] = 0.02
    assert solver.evaluator(moved) is first
    assert solver.tips == ('tool0',) and solver.active_joints == tuple(arm_joints[1:])
    others = []
    for angle in (0.1, 0.2, 0.3):
        moved = seed.copy()
        moved[0] = angle
        others.append(solver.evaluator(moved))
        assert others[-1] is not first and others[-1].q_fixed[0] == angle
    assert solver.evaluator(moved) is others[-1]
    assert solver.evaluator(seed) is not first


def test_one_solver_is_safe_to_share_between_threads():
    model = _arm_and_head()
    neck = model.joint('neck').idx_q
    solver = ik.IKSolver(model, 'tip', ['arm_2', 'arm_3'], cache_size=2)
    arm_1 = model.joint('arm_1').idx_q
    start = threading.Barrier(4)
    failures = []

    def work(index):
        rng = np.random.default_rng(40 + index)
        start.wait()
        for _ in range(15):
            # Held joints differ between calls: evaluators are built and evicted meanwhile.
            seed = np.zeros(model.nq)
            seed[[arm_1, neck]] = rng.uniform(-2, 2, 2)
            goal = random_configuration(model, rng)
            goal[[arm_1, neck]] = seed[[arm_1, neck]]
            state = model.forward_kinematics(goal)
            head_T_target = np.linalg.inv(state.transform('head')) @ state.transform('tip')
            result = solver.solve(head_T_target, seed=seed, reference_frame='head',
                                  position_only=True, time_budget=1.0,
                                  rng=np.random.default_rng(index))
            reached = model.forward_kinematics(result.q).transform('tip')
            error = np.linalg.norm(reached[:3, 3] - state.transform('tip')[:3, 3])
            if not result.success or error > TOL:
                failures.append((index, result.reason, error))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


# -- options: the library's errors, bounded work --------------------------------------------------
@pytest.mark.parametrize('option', ['max_iterations', 'restarts', 'parallel_seeds'])
@pytest.mark.parametrize('bad', [float('nan'), float('inf'), 1e300, 10 ** 30, True, 'x', -1,
                                 2.5, [3], None])
def test_count_options_refuse_bad_values(arm, option, bad):
    if bad is None and option != 'max_iterations':
        pytest.skip('None is the default of restarts and parallel_seeds')
    with pytest.raises(ConfigurationError, match=option) as info:
        ik.solve(arm, 'tool0', np.eye(4), **{option: bad})
    assert len(str(info.value)) < 100


def test_parallel_seeds_are_bounded(arm):
    assert ik.MAX_PARALLEL_SEEDS == 1024
    with pytest.raises(ConfigurationError, match='parallel_seeds'):
        ik.solve(arm, 'tool0', np.eye(4), parallel_seeds=2e6)
    # The numpy engine advances the parallel seeds together (the compiled one, one at a time).
    numpy_arm = bundled(backend='numpy')
    result = ik.solve(numpy_arm, 'tool0', np.eye(4), parallel_seeds=1024, max_iterations=2,
                      time_budget=60.0)
    assert result.reason == 'max_iterations' and result.restarts == 1023


@pytest.mark.parametrize('option, bad', [
    ('time_budget', float('nan')), ('time_budget', float('inf')), ('time_budget', -0.1),
    ('time_budget', 1e9), ('time_budget', 'soon'), ('time_budget', True),
    ('position_tolerance', 0.0), ('position_tolerance', float('nan')),
    ('orientation_tolerance', 'x'), ('orientation_weight', -1.0), ('damping', 0.0),
    ('rest_gain', float('inf')), ('position_only', 'yes'), ('weights', [1, 1, 1, 1, 1, 'x']),
    ('weights', [1, 1, 1, 1, 1, float('nan')]), ('rng', 42), ('seed', 'abc'),
    ('seed', [0.0] * 6 + [1j]), ('reference_frame', 3)])
def test_other_options_refuse_bad_values(arm, option, bad):
    error = UnknownFrameError if option == 'reference_frame' else ConfigurationError
    with pytest.raises(error, match=option if error is ConfigurationError else None) as info:
        ik.solve(arm, 'tool0', np.eye(4), **{option: bad})
    assert len(str(info.value)) < 200


def test_a_zero_time_budget_returns_the_seeds_outcome(arm):
    assert ik.MAX_TIME_BUDGET == 3600.0
    seed = random_configuration(arm, np.random.default_rng(34))
    far = np.eye(4)
    far[:3, 3] = [3.0, 0.0, 0.0]
    result = ik.solve(arm, 'tool0', far, seed=seed, time_budget=0)
    assert result.reason == 'time_budget' and result.iterations == 0 and not result.success
    on_target = arm.forward_kinematics(seed).transform('tool0')
    assert ik.solve(arm, 'tool0', on_target, seed=seed, time_budget=0.0).success


def test_bad_targets_get_the_librarys_error(arm):
    for bad, message in [('eye', 'target'), (np.eye(4) * 1j, 'complex'),
                         (np.full((4, 4), 1e300), 'target'), ([[1, 2], [3]], 'target')]:
        with pytest.raises(ConfigurationError, match=message):
            ik.solve(arm, 'tool0', bad)


# -- the default seed lies within the limits ------------------------------------------------------
def test_the_default_seed_is_inside_the_limits_and_warns_about_nothing(core_log):
    body = '\n'.join([
        link_xml('base'), link_xml('a'), link_xml('b'), link_xml('tip'),
        joint_xml('bent', 'revolute', 'base', 'a', '0 0 0.1', axis='0 1 0'),
        joint_xml('elbow', 'revolute', 'a', 'b', '0 0 0.3', axis='0 1 0').replace(
            'lower="-2" upper="2"', 'lower="-3" upper="-1"'),
        joint_xml('tool', 'fixed', 'b', 'tip', '0 0 0.3'),
    ])
    model = Robot.from_urdf_string(urdf(body, 'bent_elbow'))
    log = core_log('frame_kinematics.core.ik')
    result = ik.solve(model, 'tip', np.eye(4), position_only=True, restarts=0,
                      max_iterations=0)
    assert result.q.tolist() == [0.0, -2.0]
    assert log.text == ''


def test_the_default_seed_of_panda_is_inside_its_limits(core_log):
    panda = Robot.from_urdf_file(real_robot_path('panda'))
    log = core_log('frame_kinematics.core.ik')
    goal = cfg.clip(panda, np.array([0.3, -0.3, 0.2, -2.0, 0.1, 1.8, 0.5, 0.02]))
    root_T_target = panda.forward_kinematics(goal).transform('panda_link8')
    result = panda.inverse_kinematics('panda_link8', root_T_target, time_budget=0.5)
    assert result.success and _within_limits(panda, result.q)
    assert 'outside' not in log.text
    start = ik.solve(panda, 'panda_link8', root_T_target, restarts=0, max_iterations=0)
    assert _within_limits(panda, start.q)


def test_a_robot_without_joints_to_move_says_so():
    body = '\n'.join([link_xml('base'), link_xml('tip'),
                      joint_xml('weld', 'fixed', 'base', 'tip', '0 0 0.1')])
    model = Robot.from_urdf_string(urdf(body, 'welded'))
    with pytest.raises(ConfigurationError, match='no joint to move') as info:
        model.inverse_kinematics('tip', np.eye(4))
    assert 'reshape' not in str(info.value)


def test_random_restarts_keep_unbounded_entries_and_draw_unit_quaternions():
    from frame_kinematics.core.ik.sampler import Sampler
    model = all_joint_types_model(backend='numpy')
    layout = model.layout
    assert layout.floating and layout.planar
    sampler = Sampler(layout, np.random.default_rng(3))
    seeds = np.stack([random_configuration(model, np.random.default_rng(4))] * 50)
    draws = sampler.sample(seeds)
    unbounded = ~(np.isfinite(layout.lower) & np.isfinite(layout.upper))
    unbounded[layout.wrap_q] = False  # continuous joints are drawn in [-pi, pi)
    assert np.any(unbounded) and len(layout.wrap_q)
    np.testing.assert_array_equal(draws[:, unbounded], seeds[:, unbounded])
    assert np.all(np.ptp(draws[:, ~unbounded], axis=0) > 0)
    for iq, _, _ in layout.floating:
        np.testing.assert_allclose(np.linalg.norm(draws[:, iq + 3:iq + 7], axis=-1), 1.0,
                                   rtol=0.0, atol=1e-15)
    assert np.all(layout.is_valid(draws, 0.0))


# -- a success is one the library verifies, whatever came before ----------------------------------
def _same(a, b):
    assert np.array_equal(a.q, b.q)
    assert (a.success, a.reason, a.iterations, a.restarts, a.position_error,
            a.orientation_error) == (b.success, b.reason, b.iterations, b.restarts,
                                     b.position_error, b.orientation_error)


def test_answers_do_not_depend_on_the_solvers_earlier_calls():
    model, tip, far_seed, targets = far_base_case('numpy')
    used = ik.IKSolver(model, tip)
    used.solve(targets[0], seed=far_seed, position_only=True, max_iterations=3)
    for target in targets:
        found = used.solve(target, position_only=True, max_iterations=300, time_budget=60.0)
        _same(found, ik.IKSolver(model, tip).solve(target, position_only=True,
                                                   max_iterations=300, time_budget=60.0))
        assert found.success
        assert_verified(model, tip, target, found, position_only=True)


def test_a_solution_at_the_edge_of_the_accepted_magnitudes_is_accepted():
    assert_edge_solutions_accepted(all_joint_types_model(backend='numpy'),
                                   np.random.default_rng(19))


def test_a_singular_damped_system_never_escapes_as_numpys_error():
    model = all_joint_types_model(backend='numpy')
    rng = np.random.default_rng(20)
    for damping, weight in [(5e-324, 1e16), (1e-300, 1e8), (1e-3, 1e8)] * 4:
        targets = np.tile(np.eye(4), (2, 1, 1))
        targets[:, :3, 3] = rng.uniform(-1.0, 1.0, (2, 3)) * 10.0 ** rng.integers(3, 16)
        seed = random_configuration(model, rng)
        result = ik.solve(model, ['tip', 'plane'], targets, seed=seed, damping=damping,
                          orientation_weight=weight, restarts=0, max_iterations=20,
                          time_budget=60.0)
        assert not result.success
        model.check_configuration(result.q)


@pytest.mark.parametrize('call', ['ik.solve', 'ik.solve_batch', 'IKSolver.solve',
                                  'IKSolver.solve_batch', 'Robot.inverse_kinematics'])
def test_an_unknown_option_names_the_call_and_the_option(call):
    model = bundled(backend='numpy')
    target = np.eye(4)[None] if 'batch' in call else np.eye(4)
    solver = ik.IKSolver(model, 'tool0')
    run = {'ik.solve': lambda **o: ik.solve(model, 'tool0', target, **o),
           'ik.solve_batch': lambda **o: ik.solve_batch(model, 'tool0', target, **o),
           'IKSolver.solve': lambda **o: solver.solve(target, **o),
           'IKSolver.solve_batch': lambda **o: solver.solve_batch(target, **o),
           'Robot.inverse_kinematics': lambda **o: model.inverse_kinematics(
               'tool0', target, **o)}[call]
    with pytest.raises(TypeError, match=r"^%s\(\) got an unknown option 'sed'" % call) as info:
        run(sed=1)
    assert isinstance(info.value, ConfigurationError) and 'read_options' not in str(info.value)


def test_set_up_does_not_count_against_the_time_budget(monkeypatch):
    import time
    from frame_kinematics.core.ik import chain
    model = bundled(backend='numpy')
    clock = [0.0]

    def now():
        clock[0] += 1e-6
        return clock[0]

    original = chain.ChainEvaluator.from_selection.__func__

    def slow(cls, *args):
        clock[0] += 100.0   # a set-up far longer than the budget
        return original(cls, *args)

    monkeypatch.setattr(time, 'perf_counter', now)
    monkeypatch.setattr(chain.ChainEvaluator, 'from_selection', classmethod(slow))
    goal = random_configuration(model, np.random.default_rng(21))
    target = model.forward_kinematics(goal).transform('tool0')
    for solve in (lambda: model.inverse_kinematics('tool0', target, time_budget=50.0),
                  lambda: ik.IKSolver(model, 'tool0').solve(target, time_budget=50.0),
                  lambda: ik.solve_batch(model, 'tool0', target[None], time_budget=50.0)[0]):
        result = solve()
        assert result.success and result.reason == 'converged'


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
        _same(model.inverse_kinematics('tool0', t, time_budget=60.0), expected)
        _same(ik.solve(model, ['tool0'], t, time_budget=60.0), expected)
    assert len(builds) == 1
    # another tip list or active joint list is another solver; the cache stays bounded
    for k in range(1, 6):
        ik.solve(model, 'tool0', targets[0], active_joints=joints[:k], max_iterations=1)
    assert len(builds) == 6
    for k in range(1, 2 * IK_SOLVERS_KEPT):
        ik.solve(model, 'tool0', targets[0], active_joints=joints[k % 6:], max_iterations=1,
                 seed=np.full(model.nq, 0.01 * k))
    assert len(model.ik_solvers) == IK_SOLVERS_KEPT


def test_solving_never_imports_numpy_ma_while_the_budget_runs():
    import subprocess
    import sys
    eager = subprocess.run([sys.executable, '-c', "import sys, numpy; print('numpy.ma' in "
                            'sys.modules)'], capture_output=True, text=True, check=True)
    if eager.stdout.strip() == 'True':
        pytest.skip('this numpy imports numpy.ma with numpy itself (before 1.25)')
    code = ('import sys\n'
            'from frame_kinematics.core import ik, Robot\n'
            'from frame_kinematics import robots\n'
            'import numpy as np\n'
            "model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numpy')\n"
            "ik.solve(model, ['tool0', 'left_finger_link'], np.stack([np.eye(4)] * 2),\n"
            '         max_iterations=2)\n'
            "print('numpy.ma' in sys.modules)\n")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == 'False'


@pytest.fixture(scope='module')
def iiwa_numpy():
    return Robot.from_urdf_file(real_robot_path('iiwa'), backend='numpy')


def _hopeless_and_easy(model, tip, count=24):
    """Targets pushed 3 m away from the base (beyond reach), then reachable ones."""
    rng = np.random.default_rng(31)
    targets = model.forward_kinematics(random_configuration(model, rng, 2 * count)) \
        .transform(tip).copy()
    away = targets[:count, :3, 3]
    targets[:count, :3, 3] = 3.0 * away / np.linalg.norm(away, axis=1, keepdims=True)
    return targets


def test_abandon_stalled_stops_hopeless_targets_early_and_solves_the_others(iiwa_numpy):
    tip, count = 'lbr_iiwa_link_7', 24
    targets = _hopeless_and_easy(iiwa_numpy, tip, count)
    options = {'restarts': 30, 'max_iterations': 200, 'time_budget': 60.0}
    full = ik.IKSolver(iiwa_numpy, tip).solve_batch(targets, **options,
                                                    rng=np.random.default_rng(2))
    early = ik.IKSolver(iiwa_numpy, tip).solve_batch(targets, **options, abandon_stalled=True,
                                                     rng=np.random.default_rng(2))
    assert not full.success[:count].any() and not early.success[:count].any()
    assert set(early.reason[:count]) == {'stalled'}
    assert 'stalled' not in full.reason
    assert np.all(early.iterations[:count] % ik.schedule.ABANDON_ITERATIONS == 0)
    assert early.iterations[:count].sum() < 0.5 * full.iterations[:count].sum()
    assert early.success[count:].mean() >= 0.9


def test_abandon_stalled_must_be_a_bool(iiwa_numpy):
    with pytest.raises(ConfigurationError, match='abandon_stalled'):
        ik.IKSolver(iiwa_numpy, 'lbr_iiwa_link_7').solve_batch(np.eye(4)[None],
                                                               abandon_stalled='yes')


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
