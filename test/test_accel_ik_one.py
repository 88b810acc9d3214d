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
"""Tests of frame_kinematics.core.accel.ik_one: one target solved as the general path does."""

from accel_testing import compiled_model, \
    count_single_solves
from conftest import all_joint_types_model, assert_verified, far_base_case, \
    far_continuous_seed_case, random_configuration, real_robot_path
from frame_kinematics import robots
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ConfigurationError, ik, Robot
from frame_kinematics.core.checks import check_finite
from frame_kinematics.core.transform_checks import check_transform
import numpy as np
import pytest


def _general(**options):
    """Return the options with a tolerance that is not a plain float: the general path."""
    tolerance = np.float64(options.get('position_tolerance', 1e-5))
    return dict(options, position_tolerance=tolerance)


def _assert_same(a, b):
    assert np.array_equal(a.q, b.q)
    assert (a.success, a.reason, a.iterations, a.restarts) == \
        (b.success, b.reason, b.iterations, b.restarts)
    # both measure forward kinematics of the same q: the single solve with the compiled
    # residual, the general path with numpy's (a rotation's log written twice, one per backend)
    for ours, theirs in ((a.tip_position_errors, b.tip_position_errors),
                         (a.tip_orientation_errors, b.tip_orientation_errors)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-15)


CASES = [('fk_arm', 'tool0', None), ('iiwa', 'lbr_iiwa_link_7', None),
         ('all_types', 'tip', ['j_rev', 'j_pri', 'j_cont']),
         ('fk_arm', ['left_finger_link', 'right_finger_link'], None)]


@pytest.mark.parametrize('name, tip, active', CASES)
def test_a_single_compiled_solve_equals_the_general_path(monkeypatch, name, tip, active):
    pytest.importorskip('numba')
    if name == 'all_types':
        # a continuous joint (wrapped), a prismatic one, a mimic, a held floating base
        model = all_joint_types_model(backend='numba')
    else:
        path = robots.path(name) if name == 'fk_arm' else real_robot_path(name)
        model = compiled_model(path)
    solver = ik.IKSolver(model, tip, active)
    rng = np.random.default_rng(40)
    goals = random_configuration(model, rng, 12)
    seeds = random_configuration(model, rng, 12)
    seeds[:, solver.evaluator().held_q_index] = goals[0, solver.evaluator().held_q_index]
    goals[:, solver.evaluator().held_q_index] = goals[0, solver.evaluator().held_q_index]
    state = model.forward_kinematics(goals)
    targets = state.transform(tip) if isinstance(tip, str) else \
        np.stack([state.transform(t) for t in tip], axis=1)
    calls = count_single_solves(monkeypatch)
    for i in range(len(goals)):
        options = {'seed': seeds[i], 'rng': np.random.default_rng(i), 'time_budget': 5.0}
        if i % 3 == 1:
            options.update(restarts=2, damping=0.01)
        elif i % 3 == 2:
            options.update(max_iterations=3, parallel_seeds=2)
        fast = solver.solve(targets[i], **options)
        assert len(calls) == i + 1
        general = solver.solve(targets[i], **_general(**dict(options,
                                                             rng=np.random.default_rng(i))))
        assert len(calls) == i + 1
        _assert_same(fast, general)
        assert np.all(cfg.is_valid(model, fast.q, tolerance=1e-12))
        assert fast.q.flags.writeable and fast.elapsed > 0.0
    # the one-call function and the default seed and generator take the same path
    _assert_same(ik.solve(model, tip, targets[0], active_joints=active, time_budget=5.0),
                 solver.solve(targets[0], **_general(time_budget=5.0)))


def test_the_compiled_solve_wraps_continuous_joints_as_the_numpy_engine_does():
    pytest.importorskip('numba')
    models = [all_joint_types_model(backend=b) for b in ('numba', 'numpy')]
    active = ['j_rev', 'j_pri', 'j_cont']
    wrap = models[0].configuration_names.index('j_cont')
    rng = np.random.default_rng(41)
    solved = 0
    for _ in range(10):
        goal = random_configuration(models[1], rng)
        goal[wrap] = 3.1
        target = models[1].forward_kinematics(goal).transform('tip')
        seed = goal.copy()
        seed[wrap] = 20.0   # a continuous joint has no limit: a seed may be many turns away
        for model in models:
            result = ik.solve(model, 'tip', target, seed=seed, active_joints=active,
                              time_budget=5.0)
            solved += result.success
            assert -np.pi <= result.q[wrap] < np.pi
    assert solved == 20


def _bad_inputs(model, target, seed):
    nan_target = target.copy()
    nan_target[0, 3] = np.nan
    skew = target.copy()
    skew[0, 0] += 1e-4
    row = target.copy()
    row[3, 0] = 1e-3
    far = target.copy()
    far[1, 3] = 1e17
    mirrored = target.copy()
    mirrored[:3, 2] *= -1.0
    nan_seed = seed.copy()
    nan_seed[1] = np.nan
    return [
        ((nan_target,), {}), ((skew,), {}), ((row,), {}), ((far,), {}), ((mirrored,), {}),
        ((target[:3],), {}), (('target',), {}), ((target + 0j,), {}), ((target[None, :2],), {}),
        ((target,), {'seed': nan_seed}), ((target,), {'seed': seed[:-1]}),
        ((target,), {'seed': np.stack([seed, seed])}), ((target,), {'seed': 'q'}),
        ((target,), {'time_budget': -1.0}), ((target,), {'time_budget': np.nan}),
        ((target,), {'time_budget': True}), ((target,), {'time_budget': 1e9}),
        ((target,), {'rng': 3}), ((target,), {'max_iterations': 1.5}),
        ((target,), {'damping': 0.0}), ((target,), {'restarts': -1}),
        ((target,), {'position_only': 1}), ((target,), {'orientation_weight': float('inf')}),
        ((target,), {'parallel_seeds': 0}), ((target,), {'reference_frame': 'nowhere'}),
        ((nan_target,), {'damping': -1.0}), ((target,), {'seed': nan_seed, 'rng': 'x'}),
    ]


def test_bad_input_raises_the_general_paths_error_and_changes_no_state():
    compiled = compiled_model(robots.path('fk_arm'))
    reference = Robot.from_urdf_file(robots.path('fk_arm'), backend='numpy')
    rng = np.random.default_rng(42)
    seed = random_configuration(compiled, rng)
    target = compiled.forward_kinematics(random_configuration(compiled, rng)).transform('tool0')
    solvers = [ik.IKSolver(m, 'tool0') for m in (compiled, reference)]
    for args, options in _bad_inputs(compiled, np.array(target), seed):
        messages = []
        for solver in solvers:
            generator = np.random.default_rng(3)
            state = generator.bit_generator.state
            given = [a for a in list(args) + list(options.values()) if isinstance(a, np.ndarray)]
            kept = [a.copy() for a in given]
            with pytest.raises((ConfigurationError, TypeError, LookupError)) as raised:
                solver.solve(*args, **dict({'rng': generator}, **options))
            messages.append((type(raised.value), str(raised.value)))
            assert generator.bit_generator.state == state
            assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(given, kept))
        assert messages[0] == messages[1], (args, options)
    with pytest.raises(TypeError):
        solvers[0].solve(target, no_such_option=1)


def test_a_seed_outside_the_limits_is_projected_on_the_compiled_backend_too(core_log):
    model = compiled_model(robots.path('fk_arm'))
    rng = np.random.default_rng(43)
    target = model.forward_kinematics(random_configuration(model, rng)).transform('tool0')
    seed = model.neutral_configuration()
    seed[2] = 5.0
    log = core_log('frame_kinematics.core.ik')
    result = ik.IKSolver(model, 'tool0').solve(target, seed=seed, time_budget=5.0)
    assert 'elbow_joint' in log.text
    assert result.success and np.all(cfg.is_valid(model, result.q, tolerance=1e-12))
    assert seed[2] == 5.0


def test_single_solves_of_any_input_layout_compile_nothing_new():
    """The kernels are compiled before the first solve: no time budget pays the compiler."""
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import ik_one
    model = compiled_model(robots.path('fk_arm'))
    solver = ik.IKSolver(model, 'tool0')
    rng = np.random.default_rng(44)
    goal, seed = random_configuration(model, rng), random_configuration(model, rng)
    target = model.forward_kinematics(goal).transform('tool0')
    solver.solve(np.array(target), seed=seed.copy())
    known = (len(ik_one.usable.signatures), len(ik_one.solve_full.signatures))
    frozen_seed = seed.copy()
    frozen_seed.flags.writeable = False
    frozen_target = np.array(target)
    frozen_target.flags.writeable = False
    layouts = [(target, seed), (frozen_target, frozen_seed), (np.asfortranarray(target), seed),
               (np.array(target, dtype=np.float32), seed), (target.tolist(), seed.tolist()),
               (np.repeat(target, 2, axis=1)[:, ::2], np.repeat(seed, 2)[::2])]
    for root_T_target, q in layouts:
        result = solver.solve(root_T_target, seed=q, time_budget=5.0)
        assert result.success
    assert (len(ik_one.usable.signatures), len(ik_one.solve_full.signatures)) == known


def _refused(transform):
    try:
        check_transform(check_finite(transform, 'target'), 'target')
    except ConfigurationError:
        return True
    return False


def test_the_compiled_target_check_agrees_with_check_transform():
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import ik_one
    rng = np.random.default_rng(45)
    none = np.zeros(0)
    model = compiled_model(robots.path('fk_arm'))
    poses = np.array(model.forward_kinematics(random_configuration(model, rng, 50)).poses)
    verdicts = []
    for pose in poses.reshape(-1, 4, 4):
        for scale in (0.0, 3e-7, 2e-6, 1e-3):
            bent = pose + scale * rng.standard_normal((4, 4)) * (rng.random((4, 4)) < 0.3)
            for candidate in (bent, bent * [[1], [1], [-1], [1]]):
                verdicts.append(_refused(candidate))
                assert ik_one.usable(candidate[None], none, none, none) == (not verdicts[-1])
    for value in (np.nan, np.inf, -np.inf, 1e17, -2e16):
        pose = poses[0, 0].copy()
        pose[2, 3] = value
        assert not ik_one.usable(pose[None], none, none, none)
    assert len(verdicts) == 2 * 4 * poses.shape[0] * poses.shape[1]
    assert 0.2 < np.mean(verdicts) < 0.9


def test_single_solves_from_several_threads_equal_the_same_solves_in_turn():
    import threading
    model = compiled_model(robots.path('fk_arm'))
    solver = ik.IKSolver(model, 'tool0')
    rng = np.random.default_rng(51)
    targets = model.forward_kinematics(random_configuration(model, rng, 24)).transform('tool0')
    options = [{'time_budget': 5.0, 'damping': d} for d in (1e-3, 1e-2, 0.1)]

    def run(k):
        return [solver.solve(targets[i], rng=np.random.default_rng(i), **options[i % 3]).q
                for i in range(k, len(targets), 4)]

    expected = [run(k) for k in range(4)]
    found = [None] * 4

    def work(k):
        found[k] = run(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for mine, theirs in zip(found, expected):
        assert all(np.array_equal(a, b) for a, b in zip(mine, theirs))


def test_a_continuous_joint_seeded_far_away_is_wrapped_before_the_compiled_solve():
    pytest.importorskip('numba')
    model, tip, active, seed, targets = far_continuous_seed_case('numba')
    solver = ik.IKSolver(model, tip, active)
    for target in targets:
        for result in (solver.solve(target, seed=seed, restarts=0, time_budget=60.0),
                       solver.solve(target, seed=seed, restarts=0, time_budget=60.0,
                                    position_tolerance=np.float64(1e-5))):
            assert result.success
            assert_verified(model, tip, target, result)


def test_compiled_answers_do_not_depend_on_the_solvers_earlier_calls():
    pytest.importorskip('numba')
    model, tip, far_seed, targets = far_base_case('numba')
    used = ik.IKSolver(model, tip)
    used.solve(targets[0], seed=far_seed, position_only=True, max_iterations=3)
    for target in targets:
        found = used.solve(target, position_only=True, time_budget=60.0)
        _assert_same(found, ik.IKSolver(model, tip).solve(target, position_only=True,
                                                          time_budget=60.0))
        assert found.success
        assert_verified(model, tip, target, found, position_only=True)
