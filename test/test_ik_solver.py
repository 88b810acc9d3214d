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
"""Tests of frame_kinematics.core.ik.solver: IKSolver's solves, caches, threads and budget."""

import threading

from conftest import assert_verified, bundled, far_base_case, joint_xml, link_xml, \
    random_configuration, real_robot_path, rest_pulls, urdf
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ConfigurationError, ReferenceFrameError, Robot
from frame_kinematics.core import ik
from frame_kinematics.core.backend import numba_error
from frame_kinematics.core.spatial import exp_so3, log_so3
from ik_testing import arm_fixture, arm_joints_fixture, reachable, \
    same_result, TOL, within_limits
import numpy as np
import pytest

arm = arm_fixture()
arm_joints = arm_joints_fixture()


def _errors(model, q, tip, root_T_target):
    root_T_tip = model.forward_kinematics(q).transform(tip)
    position = np.linalg.norm(root_T_tip[:3, 3] - root_T_target[:3, 3])
    angle = np.linalg.norm(log_so3(root_T_tip[:3, :3].T @ root_T_target[:3, :3]))
    return position, angle


def test_solve_reaches_reachable_targets_within_limits(arm):
    rng = np.random.default_rng(2)
    for _ in range(10):
        _, root_T_target = reachable(arm, 'tool0', rng)
        seed = random_configuration(arm, rng)
        result = arm.inverse_kinematics('tool0', root_T_target, seed=seed,
                                        rng=np.random.default_rng(0), time_budget=0.5)
        assert result.success and result.reason == 'converged'
        position, angle = _errors(arm, result.q, 'tool0', root_T_target)
        assert position < TOL and angle < TOL
        assert result.position_error == pytest.approx(position, abs=1e-9)
        assert result.orientation_error == pytest.approx(angle, abs=1e-9)
        assert within_limits(arm, result.q)
        assert result.iterations >= 1
        # The finger does not move the tool: it keeps the seed's value.
        assert result.q[6] == seed[6]


@pytest.mark.parametrize('name, tip', [('ur5', 'tool0'), ('panda', 'panda_link8'),
                                       ('iiwa', 'lbr_iiwa_link_7')])
def test_real_arms_single_and_batch(name, tip):
    model = Robot.from_urdf_file(real_robot_path(name))
    rng = np.random.default_rng(3)
    _, targets = reachable(model, tip, rng, 40)
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


def test_position_only_ignores_orientation(arm):
    rng = np.random.default_rng(5)
    _, root_T_target = reachable(arm, 'tool0', rng)
    twisted = root_T_target.copy()
    twisted[:3, :3] = root_T_target[:3, :3] @ exp_so3(np.array([1.0, -0.5, 2.0]))
    result = ik.solve(arm, 'tool0', twisted, position_only=True, time_budget=0.5)
    assert result.success and result.orientation_error == 0.0
    reached = arm.forward_kinematics(result.q).transform('tool0')
    assert np.linalg.norm(reached[:3, 3] - twisted[:3, 3]) < TOL


def test_per_axis_weights_free_the_rotation_about_the_target_z_axis(arm):
    rng = np.random.default_rng(6)
    _, root_T_target = reachable(arm, 'tool0', rng)
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
        assert within_limits(talos, result.q)


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
    assert within_limits(arm, result.q)
    position, _ = _errors(arm, result.q, 'tool0', root_T_target)
    assert result.position_error == pytest.approx(position, abs=1e-9)
    # Given iterations (not a time that a busy machine shortens), the best configuration
    # found stretches toward the target.
    stretched = ik.solve(arm, 'tool0', root_T_target, time_budget=60.0, max_iterations=200)
    assert not stretched.success and stretched.reason in ('max_iterations', 'max_restarts')
    reach = np.linalg.norm(arm.forward_kinematics(stretched.q).transform('tool0')[:3, 3])
    position, _ = _errors(arm, stretched.q, 'tool0', root_T_target)
    assert position == pytest.approx(3.0 - reach, abs=0.2)
    limited = ik.solve(arm, 'tool0', root_T_target, restarts=3, time_budget=1.0)
    assert not limited.success and limited.reason == 'max_restarts'
    assert limited.restarts == 3
    counted = ik.solve(arm, 'tool0', root_T_target, max_iterations=7, parallel_seeds=1,
                       time_budget=1.0)
    assert counted.reason == 'max_iterations' and counted.iterations == 7


def test_a_batch_mixes_reachable_and_unreachable_targets(arm):
    rng = np.random.default_rng(10)
    targets = reachable(arm, 'tool0', rng, 5)[1].copy()
    targets[3, :3, 3] = [0.0, 4.0, 0.0]
    result = ik.solve_batch(arm, 'tool0', targets, max_iterations=3000, time_budget=60.0)
    assert result.success.tolist() == [True, True, True, False, True]
    assert result.reason[3] == 'max_iterations'
    assert np.all(cfg.is_valid(arm, result.q, tolerance=1e-12))


def test_a_batch_that_does_not_fit_is_refused_with_its_size_and_the_solver_still_works(
        monkeypatch):
    from frame_kinematics.core.ik import solver as solver_module
    model = bundled(backend='numpy')
    targets = reachable(model, 'tool0', np.random.default_rng(12), 4)[1]
    solver = ik.IKSolver(model, 'tool0')
    expected = solver.solve(targets, rng=np.random.default_rng(1), time_budget=60.0)

    class NoMemory:

        def __init__(self, *_args):
            raise MemoryError

    monkeypatch.setattr(solver_module, 'Engine', NoMemory)
    with pytest.raises(ConfigurationError, match='^a batch of 4 targets needs more memory than '
                       'is free: solve it in smaller batches$'):
        solver.solve(targets)
    monkeypatch.undo()
    again = solver.solve(targets, rng=np.random.default_rng(1), time_budget=60.0)
    np.testing.assert_array_equal(again.q, expected.q)


def test_fixed_generator_gives_reproducible_results(arm):
    rng = np.random.default_rng(11)
    _, root_T_target = reachable(arm, 'tool0', rng)
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


def test_a_seed_already_on_target_converges_without_iterating(arm):
    seed = random_configuration(arm, np.random.default_rng(15))
    root_T_target = arm.forward_kinematics(seed).transform('tool0')
    for limit in (0, 10):
        result = ik.solve(arm, 'tool0', root_T_target, seed=seed, max_iterations=limit)
        assert result.success and result.reason == 'converged' and result.iterations == 0
        assert np.allclose(result.q[:6], seed[:6])
    empty = ik.solve_batch(arm, 'tool0', np.zeros((0, 4, 4)))
    assert len(empty) == 0 and empty.q.shape == (0, arm.nq)


def test_a_zero_time_budget_returns_the_seeds_outcome(arm):
    assert ik.MAX_TIME_BUDGET == 3600.0
    seed = random_configuration(arm, np.random.default_rng(34))
    far = np.eye(4)
    far[:3, 3] = [3.0, 0.0, 0.0]
    result = ik.solve(arm, 'tool0', far, seed=seed, time_budget=0)
    assert result.reason == 'time_budget' and result.iterations == 0 and not result.success
    on_target = arm.forward_kinematics(seed).transform('tool0')
    assert ik.solve(arm, 'tool0', on_target, seed=seed, time_budget=0.0).success


def test_a_robot_without_joints_to_move_says_so():
    body = '\n'.join([link_xml('base'), link_xml('tip'),
                      joint_xml('weld', 'fixed', 'base', 'tip', '0 0 0.1')])
    model = Robot.from_urdf_string(urdf(body, 'welded'))
    with pytest.raises(ConfigurationError, match='no joint to move') as info:
        model.inverse_kinematics('tip', np.eye(4))
    assert 'reshape' not in str(info.value)


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


# -- caches of its own; one solver, several threads -----------------------------------------------
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


# -- a success is one the library verifies, whatever came before ----------------------------------
def test_answers_do_not_depend_on_the_solvers_earlier_calls():
    model, tip, far_seed, targets = far_base_case('numpy')
    used = ik.IKSolver(model, tip)
    used.solve(targets[0], seed=far_seed, position_only=True, max_iterations=3)
    for target in targets:
        found = used.solve(target, position_only=True, max_iterations=300, time_budget=60.0)
        same_result(found, ik.IKSolver(model, tip).solve(target, position_only=True,
                                                         max_iterations=300, time_budget=60.0))
        assert found.success
        assert_verified(model, tip, target, found, position_only=True)


# -- the time budget ------------------------------------------------------------------------------
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


def _backends():
    return ['numpy'] + (['numba'] if numba_error() is None else [])


@pytest.mark.parametrize('backend', _backends())
def test_free_rotors_written_with_huge_limits_recover_from_a_huge_seed(backend):
    """Restarts draw their angles over one turn: at 1e12 rad a float cannot place a rotor."""
    def rotor(name, parent, child, xyz, axis):
        return (f'<joint name="{name}" type="revolute"><parent link="{parent}"/>'
                f'<child link="{child}"/><origin xyz="{xyz}"/><axis xyz="{axis}"/>'
                '<limit lower="-1e16" upper="1e16" effort="1" velocity="1"/></joint>')

    body = ''.join(link_xml(n) for n in 'abc') + rotor('r1', 'a', 'b', '0 0 0', '0 0 1') + \
        rotor('r2', 'b', 'c', '0.3 0 0', '0 1 0')
    model = Robot.from_urdf_string(urdf(body), backend=backend)
    target = model.forward_kinematics(np.array([0.4, -0.7])).transform('c')
    result = ik.solve(model, 'c', target, seed=np.full(2, 1e12), time_budget=60.0,
                      max_iterations=2000)
    assert result.success
    assert_verified(model, 'c', target, result)


@pytest.mark.parametrize('backend', _backends())
def test_a_success_is_one_forward_kinematics_of_its_q_confirms_far_from_the_origin(backend):
    """
    At 1e15 m a float is 0.125 m coarse, and the reduced chain rounds otherwise than FK.

    The solves converge on their chain; each success reported must be confirmed by forward
    kinematics of the returned q, and the errors reported are forward kinematics' own; a
    solve that converged on its chain alone says so (reason 'unconfirmed').
    """
    model, tip = bundled(floating_base=True, backend=backend), 'tool0'  # past fixed joints
    rng = np.random.default_rng(61)
    legs = model.layout.one_q
    reported = []
    for _ in range(10):
        goal = random_configuration(model, rng)
        goal[1] = 1e15
        target = model.forward_kinematics(goal).transform(tip)
        seed = goal.copy()
        seed[legs] = np.clip(seed[legs] + rng.uniform(-0.05, 0.05, len(legs)),
                             model.lower[legs], model.upper[legs])
        for result in (ik.solve(model, tip, target, seed=seed, restarts=0,
                                max_iterations=300, time_budget=60.0),
                       ik.solve_batch(model, tip, target[None], seed=seed[None], restarts=0,
                                      max_iterations=300, time_budget=60.0)[0]):
            assert_verified(model, tip, target, result)
            position, angle = _errors(model, result.q, tip, target)
            assert result.position_error == pytest.approx(position, rel=1e-9, abs=1e-12)
            reported.append((result.reason, result.success))
            assert result.success == (result.reason == 'converged')
    assert ('converged', True) in reported and ('unconfirmed', False) in reported
