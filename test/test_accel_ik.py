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
"""Tests of frame_kinematics.core.accel.ik: the compiled Levenberg-Marquardt solve."""

from accel_testing import assert_close, backend_pair, \
    compiled_model, count_single_solves
from conftest import all_joint_types_model, assert_edge_solutions_accepted, \
    random_configuration, real_robot_path, rest_pulls
from frame_kinematics import robots
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ik, Robot
import numpy as np
import pytest

IK_ROBOTS = [('bundled:fk_arm', 'tool0'), ('ur5', 'tool0'), ('panda', 'panda_link8'),
             ('iiwa', 'lbr_iiwa_link_7')]


def _angle(a_R, b_R):
    return np.arccos(np.clip(0.5 * (np.trace(a_R.T @ b_R) - 1.0), -1.0, 1.0))


@pytest.mark.parametrize('name, tip', IK_ROBOTS)
@pytest.mark.parametrize('count', [1, 70])
def test_compiled_ik_solutions_reach_the_targets_and_agree_with_numpy_fk(name, tip, count):
    pytest.importorskip('numba')
    reference, compiled = backend_pair(name)
    rng = np.random.default_rng(21)
    targets = reference.forward_kinematics(random_configuration(reference, rng, count)) \
        .transform(tip)
    seeds = random_configuration(reference, rng, count)
    solver = ik.IKSolver(compiled, tip)
    assert solver.evaluator()._compiled is not None
    assert not hasattr(solver.evaluator(), 'compiled')  # its kernels are private
    result = solver.solve_batch(targets, seed=seeds, time_budget=10.0)
    assert result.success.all(), result.reason
    assert set(result.reason) == {'converged'}
    assert np.all(cfg.is_valid(reference, result.q, tolerance=1e-12))
    ours = compiled.forward_kinematics(result.q)
    theirs = reference.forward_kinematics(result.q)
    assert_close(ours.poses, theirs.poses)
    reached = theirs.transform(tip)
    for b in range(count):
        assert np.linalg.norm(reached[b, :3, 3] - targets[b, :3, 3]) < 1e-5
        assert _angle(reached[b, :3, :3], targets[b, :3, :3]) < 1e-5
    np.testing.assert_allclose(result.position_error,
                               np.linalg.norm(reached[:, :3, 3] - targets[:, :3, 3], axis=1),
                               atol=1e-9)
    untouched = np.setdiff1d(np.arange(reference.nq), solver.evaluator().q_index)
    np.testing.assert_array_equal(result.q[:, untouched], seeds[:, untouched])


def test_compiled_ik_honours_the_iteration_and_restart_limits_and_is_reproducible():
    pytest.importorskip('numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    far = np.eye(4)
    far[:3, 3] = [3.0, 0.0, 0.5]
    counted = ik.solve(model, 'tool0', far, max_iterations=7, parallel_seeds=1, time_budget=5.0)
    assert (counted.success, counted.reason, counted.iterations) == (False, 'max_iterations', 7)
    # an iteration of the numpy engine advances parallel_seeds seeds: as many steps here
    widened = ik.solve(model, 'tool0', far, max_iterations=7, parallel_seeds=3, time_budget=5.0)
    assert (widened.reason, widened.iterations) == ('max_iterations', 21)
    limited = ik.solve(model, 'tool0', far, restarts=3, time_budget=5.0)
    assert (limited.reason, limited.restarts) == ('max_restarts', 3)
    local = ik.solve(model, 'tool0', far, restarts=0, time_budget=5.0)
    assert (local.reason, local.restarts) == ('max_restarts', 0)
    nothing = ik.solve(model, 'tool0', far, time_budget=0.0)
    assert (nothing.reason, nothing.iterations) == ('time_budget', 0)
    # the best of a few random restarts points the stretched arm at the target
    pointed = ik.solve(model, 'tool0', far, restarts=10, time_budget=5.0)
    reach = np.linalg.norm(model.forward_kinematics(pointed.q).transform('tool0')[:3, 3])
    assert pointed.position_error == pytest.approx(3.0 - reach, abs=0.2)
    target = model.forward_kinematics(np.full(model.nq, 0.3)).transform('tool0')
    runs = [ik.solve(model, 'tool0', target, rng=np.random.default_rng(5), time_budget=5.0)
            for _ in range(2)]
    assert np.array_equal(runs[0].q, runs[1].q) and runs[0].success
    assert runs[0].iterations == runs[1].iterations


def test_the_solve_kernels_release_the_gil():
    """The node's /tf path is a Python thread: it runs while a compiled solve does."""
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import ik as ik_kernels, ik_one
    for kernel in (ik_kernels.solve_serial, ik_kernels.solve_parallel, ik_one.usable,
                   ik_one.solve_full):
        assert kernel.targetoptions.get('nogil') is True, kernel.py_func.__name__


def _count_compiled_runs(monkeypatch):
    from frame_kinematics.core.accel import ik_engine
    calls = []
    original = ik_engine.CompiledChain.run

    def counted(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ik_engine.CompiledChain, 'run', counted)
    return calls


def test_a_rest_posture_is_solved_in_compiled_code_and_pulls_as_in_numpy(monkeypatch):
    pytest.importorskip('numba')
    path = real_robot_path('panda')
    models = [Robot.from_urdf_file(path, backend=b) for b in ('numba', 'numpy')]
    rest = cfg.clip(models[1], np.array([0.0, -0.3, 0.0, -2.2, 0.0, 2.0, 0.8, 0.02]))
    rng = np.random.default_rng(47)
    goals = [cfg.random_gaussian(models[1], rng, rest, 0.3) for _ in range(6)]
    calls = _count_compiled_runs(monkeypatch)
    pulls = []
    for model in models:
        free, biased = rest_pulls(model, 'panda_link8', goals, rest, 5.0)
        assert np.mean(biased) < np.mean(free)
        pulls.append(biased)
    # one seed, no restart: both backends take nearly the same steps
    np.testing.assert_allclose(pulls[0], pulls[1], atol=0.02)
    # the compiled backend ran the pulled solves in compiled code (the plain ones too, but
    # on its single-target path), the numpy backend never
    assert len(calls) == len(goals)


def test_a_batch_with_a_rest_posture_and_a_continuous_joint_is_compiled(monkeypatch):
    pytest.importorskip('numba')
    model = all_joint_types_model(backend='numba')
    active = ['j_rev', 'j_pri', 'j_cont']
    wrap = model.configuration_names.index('j_cont')
    rng = np.random.default_rng(48)
    goals = np.tile(random_configuration(model, rng), (70, 1))
    goals[:, wrap] = rng.uniform(2.5, 3.1, 70)
    targets = model.forward_kinematics(goals).transform('tip')
    rest = goals[0].copy()
    rest[wrap] = -3.1    # the short way from 2.5..3.1 to -3.1 crosses pi
    calls = _count_compiled_runs(monkeypatch)
    result = ik.solve_batch(model, 'tip', targets, seed=goals[0], active_joints=active,
                            rest_posture=rest, time_budget=30.0)
    assert len(calls) == 1 and result.success.all()
    assert np.all((-np.pi <= result.q[:, wrap]) & (result.q[:, wrap] < np.pi))


FLOATING_CASES = [('fk_quadruped', ['front_left_foot', 'front_right_foot', 'rear_left_foot'],
                   None),
                  ('all_types', 'plane', None),
                  ('all_types', 'tip', ['j_free', 'j_rev', 'j_pri', 'j_cont'])]


@pytest.mark.parametrize('name, tip, active', FLOATING_CASES)
def test_floating_and_planar_joints_are_solved_in_compiled_code(monkeypatch, name, tip, active):
    pytest.importorskip('numba')
    if name == 'all_types':
        models = [all_joint_types_model(backend=b) for b in ('numba', 'numpy')]
    else:
        models = [Robot.from_urdf_file(robots.path(name), floating_base=True, backend=b)
                  for b in ('numba', 'numpy')]
    reference = models[1]
    tips = [tip] if isinstance(tip, str) else tip
    rng = np.random.default_rng(50)
    goals = random_configuration(reference, rng, 70)
    state = reference.forward_kinematics(goals)
    targets = np.stack([state.transform(t) for t in tips], axis=1)
    given = targets[:, 0] if isinstance(tip, str) else targets
    runs = _count_compiled_runs(monkeypatch)
    ones = count_single_solves(monkeypatch)
    for model in models:
        solver = ik.IKSolver(model, tip, active)
        found = [solver.solve(given[i], time_budget=5.0, rng=np.random.default_rng(i)).q
                 for i in range(6)]
        batch = solver.solve_batch(given, time_budget=30.0)
        assert batch.success.all()
        for i, q in list(enumerate(found)) + list(enumerate(batch.q)):
            assert cfg.is_valid(reference, q, tolerance=1e-12)
            reached = reference.forward_kinematics(q)
            for k, t in enumerate(tips):
                assert np.linalg.norm(reached.transform(t)[:3, 3] - targets[i, k, :3, 3]) \
                    < 1e-5
    # the numba model's six single solves and its batch ran in compiled code
    assert (len(ones), len(runs)) == (6, 1)


@pytest.mark.parametrize('abandon_stalled', [False, True])
@pytest.mark.parametrize('name, tip', [('ur5', 'tool0'), ('panda', 'panda_link8'),
                                       ('iiwa', 'lbr_iiwa_link_7')])
def test_without_restarts_both_backends_take_the_same_steps(name, tip, abandon_stalled):
    """One LM schedule (``ik.schedule``): one seed, no restart, the same iterates."""
    pytest.importorskip('numba')
    compiled = compiled_model(real_robot_path(name))
    reference = Robot.from_urdf_file(real_robot_path(name), backend='numpy')
    rng = np.random.default_rng(52)
    goals = random_configuration(reference, rng, 12)
    seeds = random_configuration(reference, rng, 12)
    seeds[::2] = goals[::2] + rng.uniform(-0.3, 0.3, goals[::2].shape)
    targets = reference.forward_kinematics(goals).transform(tip)
    reasons = set()
    for target, seed in zip(targets, seeds):
        a, b = [ik.solve(m, tip, target, seed=cfg.clip(reference, seed), restarts=0,
                         max_iterations=200, time_budget=60.0, abandon_stalled=abandon_stalled)
                for m in (reference, compiled)]
        assert (a.iterations, a.reason, a.restarts) == (b.iterations, b.reason, b.restarts)
        np.testing.assert_allclose(a.q, b.q, rtol=0.0, atol=1e-9)
        reasons.add(a.reason)
    assert reasons == {'converged', 'max_restarts'}


def test_a_compiled_solution_at_the_edge_of_the_accepted_magnitudes_is_accepted():
    pytest.importorskip('numba')
    assert_edge_solutions_accepted(all_joint_types_model(backend='numba'),
                                   np.random.default_rng(53), (1e-5, np.float64(1e-5)))


def test_abandon_stalled_stops_hopeless_targets_early_in_compiled_code_too():
    tip, count = 'lbr_iiwa_link_7', 24
    model = compiled_model(real_robot_path('iiwa'))
    rng = np.random.default_rng(31)
    targets = model.forward_kinematics(random_configuration(model, rng, 2 * count)) \
        .transform(tip).copy()
    away = targets[:count, :3, 3]
    targets[:count, :3, 3] = 3.0 * away / np.linalg.norm(away, axis=1, keepdims=True)
    options = {'restarts': 30, 'max_iterations': 200, 'time_budget': 60.0}
    full, early = [ik.IKSolver(model, tip).solve_batch(targets, **options, abandon_stalled=on,
                                                       rng=np.random.default_rng(2))
                   for on in (False, True)]
    assert not full.success[:count].any() and not early.success[:count].any()
    assert set(early.reason[:count]) == {'stalled'} and 'stalled' not in full.reason
    assert np.all(early.iterations[:count] % ik.schedule.ABANDON_ITERATIONS == 0)
    assert early.iterations[:count].sum() < 0.5 * full.iterations[:count].sum()
    assert early.success[count:].mean() >= 0.9
