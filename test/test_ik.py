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
import weakref

from conftest import all_joint_types_model, bundled, random_configuration, real_robot_path
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ConfigurationError, ReferenceFrameError, RobotModel, \
    UnknownFrameError
from frame_kinematics.core import ik
from frame_kinematics.core.spatial import exp_so3, log_so3
from frame_kinematics.core.velocity import stacked_jacobian
import numpy as np
import pytest

ARM = bundled()
ARM_JOINTS = ARM.joint_names[:6]
TOL = 1e-5


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


@pytest.mark.parametrize('model_tips', [
    (ARM, ['tool0']), (ARM, ['tool0', 'left_finger_link', 'right_finger_link']),
    (all_joint_types_model(), ['tip', 'plane', 'b'])])
def test_chain_evaluator_matches_the_kinematics_state(model_tips):
    model, tips = model_tips
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


def test_chain_evaluator_folds_inactive_joints_at_their_value():
    rng = np.random.default_rng(1)
    q = random_configuration(ARM, rng, 4)
    held = ['shoulder_pan_joint', 'wrist_2_joint']
    active = [n for n in ARM_JOINTS if n not in held]
    evaluator = ik.ChainEvaluator(ARM, 'tool0', active, q_fixed=q[0])
    assert evaluator.active_joints == tuple(active)
    mixed = q.copy()
    for name in held:
        mixed[:, ARM.joint(name).idx_q] = q[0, ARM.joint(name).idx_q]
    poses = evaluator.forward(evaluator.reduce(q))
    state = ARM.forward_kinematics(mixed)
    assert np.allclose(poses[-1], state.transform('tool0'), atol=1e-12)
    columns = [ARM.joint(n).idx_v for n in active]
    assert np.allclose(evaluator.jacobian(poses), state.jacobian('tool0')[..., columns],
                       atol=1e-12)
    full = evaluator.expand(evaluator.reduce(q))
    assert np.array_equal(full[:, evaluator.q_index], q[:, evaluator.q_index])
    assert np.array_equal(full[1, [0, 4]], q[0, [0, 4]])


def test_solve_reaches_reachable_targets_within_limits():
    rng = np.random.default_rng(2)
    for _ in range(10):
        q_goal, root_T_target = _reachable(ARM, 'tool0', rng)
        seed = random_configuration(ARM, rng)
        result = ARM.inverse_kinematics('tool0', root_T_target, seed=seed,
                                        rng=np.random.default_rng(0), time_budget=0.5)
        assert result.success and result.reason == 'converged'
        position, angle = _errors(ARM, result.q, 'tool0', root_T_target)
        assert position < TOL and angle < TOL
        assert result.position_error == pytest.approx(position, abs=1e-9)
        assert result.orientation_error == pytest.approx(angle, abs=1e-9)
        assert _within_limits(ARM, result.q)
        assert result.iterations >= 1 and result.elapsed < 0.5
        # The finger does not move the tool: it keeps the seed's value.
        assert result.q[6] == seed[6]


@pytest.mark.parametrize('name, tip', [('ur5', 'tool0'), ('panda', 'panda_link8'),
                                       ('iiwa', 'lbr_iiwa_link_7')])
def test_real_arms_single_and_batch(name, tip):
    model = RobotModel.from_urdf_file(real_robot_path(name))
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


def test_batch_results_are_per_target_and_the_model_entry_point_dispatches():
    rng = np.random.default_rng(4)
    _, targets = _reachable(ARM, 'tool0', rng, 6)
    result = ARM.inverse_kinematics('tool0', targets, rng=np.random.default_rng(0),
                                    time_budget=5.0)
    assert isinstance(result, ik.IKBatchResult) and len(result) == 6
    assert result.q.shape == (6, ARM.nq) and result.success.shape == (6,)
    one = result[2]
    assert isinstance(one, ik.IKResult) and one.success
    assert np.array_equal(one.q, result.q[2])
    assert one.tip_position_errors.shape == (1,)


def test_position_only_ignores_orientation():
    rng = np.random.default_rng(5)
    _, root_T_target = _reachable(ARM, 'tool0', rng)
    twisted = root_T_target.copy()
    twisted[:3, :3] = root_T_target[:3, :3] @ exp_so3(np.array([1.0, -0.5, 2.0]))
    result = ik.solve(ARM, 'tool0', twisted, position_only=True, time_budget=0.5)
    assert result.success and result.orientation_error == 0.0
    reached = ARM.forward_kinematics(result.q).transform('tool0')
    assert np.linalg.norm(reached[:3, 3] - twisted[:3, 3]) < TOL


def test_per_axis_weights_free_the_rotation_about_the_target_z_axis():
    rng = np.random.default_rng(6)
    _, root_T_target = _reachable(ARM, 'tool0', rng)
    spun = root_T_target.copy()
    spun[:3, :3] = root_T_target[:3, :3] @ exp_so3(np.array([0.0, 0.0, 1.3]))
    result = ik.solve(ARM, 'tool0', spun, weights=[1, 1, 1, 1, 1, 0], time_budget=0.5)
    assert result.success
    reached = ARM.forward_kinematics(result.q).transform('tool0')
    assert np.linalg.norm(reached[:3, 3] - spun[:3, 3]) < TOL
    # The z axes agree; the rotation about them is free.
    assert np.allclose(reached[:3, 2], spun[:3, 2], atol=TOL)
    # A heavy orientation weight still converges to the full pose.
    heavy = ik.solve(ARM, 'tool0', root_T_target, orientation_weight=5.0, time_budget=0.5)
    assert heavy.success and max(_errors(ARM, heavy.q, 'tool0', root_T_target)) < TOL


def test_active_joint_subset_keeps_the_others_at_the_seed():
    rng = np.random.default_rng(7)
    seed = random_configuration(ARM, rng)
    goal = seed.copy()
    goal[[1, 2]] += [0.3, -0.4]
    goal = cfg.clip(ARM, goal)
    root_T_target = ARM.forward_kinematics(goal).transform('tool0')
    result = ik.solve(ARM, 'tool0', root_T_target, seed=seed, position_only=True,
                      active_joints=['shoulder_lift_joint', 'elbow_joint', 'wrist_1_joint'],
                      time_budget=0.5)
    assert result.success
    untouched = [0, 4, 5, 6]
    assert np.array_equal(result.q[untouched], seed[untouched])


def test_multiple_tips_on_a_floating_base_humanoid():
    talos = RobotModel.from_urdf_file(real_robot_path('talos'), floating_base=True)
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


def test_target_in_another_frame():
    rng = np.random.default_rng(9)
    q_goal, root_T_target = _reachable(ARM, 'tool0', rng)
    seed = ARM.neutral_configuration()
    # shoulder_link is moved by shoulder_pan: hold that joint, the frame is then fixed.
    root_T_frame = ARM.forward_kinematics(seed).transform('shoulder_link')
    frame_T_target = np.linalg.inv(root_T_frame) @ root_T_target
    active = ARM_JOINTS[1:]
    result = ik.solve(ARM, 'tool0', frame_T_target, seed=seed, reference_frame='shoulder_link',
                      active_joints=active, position_only=True, time_budget=0.5)
    reached = ARM.forward_kinematics(result.q).transform('tool0')
    if result.success:
        assert np.linalg.norm(reached[:3, 3] - root_T_target[:3, 3]) < TOL
    with pytest.raises(ReferenceFrameError):
        ik.solve(ARM, 'tool0', frame_T_target, reference_frame='shoulder_link')


def test_unreachable_target_returns_the_best_configuration_within_the_budget():
    root_T_target = np.eye(4)
    root_T_target[:3, 3] = [3.0, 0.0, 0.5]
    result = ik.solve(ARM, 'tool0', root_T_target, time_budget=0.02)
    assert not result.success and result.reason == 'time_budget'
    assert result.elapsed < 0.02 + 0.05
    assert _within_limits(ARM, result.q)
    position, _ = _errors(ARM, result.q, 'tool0', root_T_target)
    assert result.position_error == pytest.approx(position, abs=1e-9)
    # The best configuration found stretches toward the target.
    reach = np.linalg.norm(ARM.forward_kinematics(result.q).transform('tool0')[:3, 3])
    assert position == pytest.approx(3.0 - reach, abs=0.2)
    limited = ik.solve(ARM, 'tool0', root_T_target, restarts=3, time_budget=1.0)
    assert not limited.success and limited.reason == 'max_restarts'
    assert limited.restarts == 3
    counted = ik.solve(ARM, 'tool0', root_T_target, max_iterations=7, time_budget=1.0)
    assert counted.reason == 'max_iterations' and counted.iterations == 7


def test_a_batch_mixes_reachable_and_unreachable_targets():
    rng = np.random.default_rng(10)
    targets = _reachable(ARM, 'tool0', rng, 5)[1].copy()
    targets[3, :3, 3] = [0.0, 4.0, 0.0]
    result = ik.solve_batch(ARM, 'tool0', targets, time_budget=0.2, max_iterations=10 ** 6)
    assert result.success.tolist() == [True, True, True, False, True]
    assert result.reason[3] == 'time_budget'
    assert np.all(cfg.is_valid(ARM, result.q, tolerance=1e-12))


def test_fixed_generator_gives_reproducible_results():
    rng = np.random.default_rng(11)
    _, root_T_target = _reachable(ARM, 'tool0', rng)
    runs = [ik.solve(ARM, 'tool0', root_T_target, rng=np.random.default_rng(42),
                     time_budget=5.0) for _ in range(2)]
    assert np.array_equal(runs[0].q, runs[1].q)
    assert runs[0].iterations == runs[1].iterations


def test_rest_posture_bias_stays_near_the_rest_posture():
    panda = RobotModel.from_urdf_file(real_robot_path('panda'))
    rest = cfg.clip(panda, np.array([0.0, -0.3, 0.0, -2.2, 0.0, 2.0, 0.8, 0.02]))
    rng = np.random.default_rng(12)
    free, biased = [], []
    for _ in range(4):
        goal = cfg.random_gaussian(panda, rng, rest, 0.3)
        root_T_target = panda.forward_kinematics(goal).transform('panda_link8')
        plain = ik.solve(panda, 'panda_link8', root_T_target, seed=rest, restarts=0,
                         time_budget=1.0)
        pulled = ik.solve(panda, 'panda_link8', root_T_target, seed=rest, restarts=0,
                          rest_posture=rest, rest_gain=0.2, time_budget=1.0)
        assert plain.success and pulled.success
        free.append(cfg.distance(panda, plain.q, rest))
        biased.append(cfg.distance(panda, pulled.q, rest))
    assert np.mean(biased) < np.mean(free)


def test_invalid_input_raises_and_changes_nothing():
    rng = np.random.default_rng(13)
    _, root_T_target = _reachable(ARM, 'tool0', rng)
    seed = ARM.neutral_configuration()
    kept = seed.copy()
    with pytest.raises(UnknownFrameError):
        ik.solve(ARM, 'nope', root_T_target)
    bad = root_T_target.copy()
    bad[0, 3] = np.nan
    with pytest.raises(ConfigurationError, match='NaN'):
        ik.solve(ARM, 'tool0', bad)
    skewed = root_T_target.copy()
    skewed[:3, :3] *= 1.1
    with pytest.raises(ConfigurationError, match='orthonormal'):
        ik.solve(ARM, 'tool0', skewed)
    with pytest.raises(ConfigurationError):
        ik.solve(ARM, 'tool0', root_T_target, seed=seed[:3])
    with pytest.raises(ConfigurationError):
        ik.solve(ARM, 'tool0', root_T_target[:3])
    with pytest.raises(UnknownFrameError):
        ik.solve(ARM, 'tool0', root_T_target, active_joints=['nope'])
    with pytest.raises(ConfigurationError):
        ik.solve(ARM, 'tool0', root_T_target, position_tolerance=0.0)
    with pytest.raises(ConfigurationError):
        ik.solve(ARM, ['tool0', 'wrist_3_link'], root_T_target)
    with pytest.raises(ConfigurationError):
        ik.solve(ARM, 'tool0', root_T_target, weights=[1, 1, 1])
    with pytest.raises(TypeError):
        ik.solve(ARM, 'tool0', root_T_target, no_such_option=1)
    with pytest.raises(ConfigurationError, match='no active joint'):
        ik.solve(ARM, 'tool0', root_T_target, active_joints=['left_finger_joint'])
    assert np.array_equal(seed, kept)


def test_seed_outside_the_limits_is_projected_with_a_warning(core_log):
    rng = np.random.default_rng(14)
    _, root_T_target = _reachable(ARM, 'tool0', rng)
    seed = ARM.neutral_configuration()
    seed[2] = 5.0
    log = core_log('frame_kinematics.core.ik')
    result = ik.solve(ARM, 'tool0', root_T_target, seed=seed, time_budget=0.5)
    assert 'elbow_joint' in log.text
    assert result.success and _within_limits(ARM, result.q)
    assert seed[2] == 5.0


def test_a_seed_already_on_target_converges_without_iterating():
    seed = random_configuration(ARM, np.random.default_rng(15))
    root_T_target = ARM.forward_kinematics(seed).transform('tool0')
    for limit in (0, 10):
        result = ik.solve(ARM, 'tool0', root_T_target, seed=seed, max_iterations=limit)
        assert result.success and result.reason == 'converged' and result.iterations == 0
        assert np.allclose(result.q[:6], seed[:6])
    empty = ik.solve_batch(ARM, 'tool0', np.zeros((0, 4, 4)))
    assert len(empty) == 0 and empty.q.shape == (0, ARM.nq)


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
