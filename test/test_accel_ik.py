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
"""
The compiled single-target solve: the same results and errors as the general path.

``IKSolver.solve`` of one target on the numba backend checks its target and seed in
compiled code and keeps its validated options; every other call (batches, reference frames,
per-axis weights, rest postures, options that are not plain numbers, bad input) takes the
general path. Skipped when numba is not installed.
"""

from conftest import all_joint_types_model, assert_edge_solutions_accepted, assert_verified, \
    far_base_case, far_continuous_seed_case, random_configuration, real_robot_path, rest_pulls
from frame_kinematics import robots
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ConfigurationError, ik, Robot, RobotModel
from frame_kinematics.core.checks import check_finite
from frame_kinematics.core.joints import wrap_angle
from frame_kinematics.core.spatial import check_transform, exp_so3, log_so3
import numpy as np
import pytest


def _compiled(path_or_model, **kwargs):
    pytest.importorskip('numba')
    if isinstance(path_or_model, RobotModel):
        return path_or_model
    return Robot.from_urdf_file(path_or_model, backend='numba', **kwargs)


def _general(**options):
    """Return the options with a tolerance that is not a plain float: the general path."""
    tolerance = np.float64(options.get('position_tolerance', 1e-5))
    return dict(options, position_tolerance=tolerance)


def _count_single_solves(monkeypatch):
    from frame_kinematics.core.accel import ik_engine
    calls = []
    original = ik_engine.CompiledChain.solve_one

    def counted(self, *args):
        calls.append(1)
        return original(self, *args)

    monkeypatch.setattr(ik_engine.CompiledChain, 'solve_one', counted)
    return calls


def _assert_same(a, b):
    assert np.array_equal(a.q, b.q)
    assert (a.success, a.reason, a.iterations, a.restarts) == \
        (b.success, b.reason, b.iterations, b.restarts)
    assert (a.position_error, a.orientation_error) == (b.position_error, b.orientation_error)
    assert np.array_equal(a.tip_position_errors, b.tip_position_errors)
    assert np.array_equal(a.tip_orientation_errors, b.tip_orientation_errors)


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
        model = _compiled(path)
    solver = ik.IKSolver(model, tip, active)
    rng = np.random.default_rng(40)
    goals = random_configuration(model, rng, 12)
    seeds = random_configuration(model, rng, 12)
    seeds[:, solver.evaluator().held_q_index] = goals[0, solver.evaluator().held_q_index]
    goals[:, solver.evaluator().held_q_index] = goals[0, solver.evaluator().held_q_index]
    state = model.forward_kinematics(goals)
    targets = state.transform(tip) if isinstance(tip, str) else \
        np.stack([state.transform(t) for t in tip], axis=1)
    calls = _count_single_solves(monkeypatch)
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
    compiled = _compiled(robots.path('fk_arm'))
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
    model = _compiled(robots.path('fk_arm'))
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
    model = _compiled(robots.path('fk_arm'))
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
    model = _compiled(robots.path('fk_arm'))
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


def test_a_threaded_batch_leaves_the_callers_chunk_size_as_it_was():
    numba = pytest.importorskip('numba')
    model = _compiled(robots.path('fk_arm'))
    rng = np.random.default_rng(46)
    targets = model.forward_kinematics(random_configuration(model, rng, 70)).transform('tool0')
    result = ik.IKSolver(model, 'tool0').solve_batch(targets, time_budget=30.0)
    assert result.success.all()
    assert numba.get_parallel_chunksize() == 0


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


def test_the_compiled_rotation_log_is_log_so3():
    """The LM residual's rotation vector follows ``spatial.log_so3``, near pi included."""
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import lm
    rng = np.random.default_rng(54)
    turn = rng.normal(size=(40, 3))
    turn /= np.linalg.norm(turn, axis=1)[:, None]
    turn *= np.concatenate([rng.uniform(0.0, np.pi, 30), np.pi - np.array(
        [0, 1e-9, 1e-6, 5e-5, 0.9999e-4, 1.0001e-4, 2e-4, 1e-3, 1e-2, 0.5])])[:, None]
    tips = np.tile(np.eye(4), (40, 1, 1))
    tips[:, :3, :3] = exp_so3(rng.normal(size=(40, 3)))
    targets = tips.copy()
    targets[:, :3, :3] = exp_so3(turn) @ tips[:, :3, :3]
    out = np.empty(3)
    for t in range(40):
        angle = lm.rotation_vector(targets, tips, t, out, 0)
        expected = log_so3(targets[t, :3, :3] @ tips[t, :3, :3].T)
        np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)
        assert angle == pytest.approx(np.linalg.norm(expected), abs=1e-12)


def test_compiled_integration_equals_the_layouts():
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import integrate
    model = all_joint_types_model(backend='numba')
    layout = model.layout

    def indices(pairs, which):
        return np.array([pair[which] for pair in pairs], dtype=np.int64)

    steps = (np.array(layout.one_q), np.array(layout.one_v), indices(layout.floating, 0),
             indices(layout.floating, 1), indices(layout.planar, 0), indices(layout.planar, 1))
    rng = np.random.default_rng(49)
    q = random_configuration(model, rng, 40)
    for scale in (1e-6, 1e-2, 1.0, 3.0):
        v = scale * rng.standard_normal((40, model.nv))
        expected = layout.integrate(q, v)
        for b in range(len(q)):
            out = np.empty(model.nq)
            integrate.integrate(q[b], v[b], steps, out)
            out[layout.wrap_q] = wrap_angle(out[layout.wrap_q])   # the solver wraps them
            np.testing.assert_allclose(out, expected[b], rtol=0.0, atol=1e-12)


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
    ones = _count_single_solves(monkeypatch)
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


def test_single_solves_from_several_threads_equal_the_same_solves_in_turn():
    import threading
    model = _compiled(robots.path('fk_arm'))
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


# -- a success is one the library verifies ------------------------------------------------------
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


@pytest.mark.parametrize('abandon_stalled', [False, True])
@pytest.mark.parametrize('name, tip', [('ur5', 'tool0'), ('panda', 'panda_link8'),
                                       ('iiwa', 'lbr_iiwa_link_7')])
def test_without_restarts_both_backends_take_the_same_steps(name, tip, abandon_stalled):
    """One LM schedule (``ik.schedule``): one seed, no restart, the same iterates."""
    pytest.importorskip('numba')
    compiled = _compiled(real_robot_path(name))
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


def test_batches_stay_on_one_thread_under_numbas_workqueue_layer(monkeypatch):
    numba = pytest.importorskip('numba')
    from frame_kinematics.core.accel import ik_engine
    assert ik_engine.warm_up() == (numba.threading_layer() in ik_engine.THREAD_SAFE_LAYERS)
    monkeypatch.setattr(numba, 'threading_layer', lambda: 'workqueue')
    assert ik_engine.warm_up() is False  # two threads launching at once would abort


def test_abandon_stalled_stops_hopeless_targets_early_in_compiled_code_too():
    tip, count = 'lbr_iiwa_link_7', 24
    model = _compiled(real_robot_path('iiwa'))
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
