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
The compiled backend (numba) against the numpy reference, and the backend selection.

Both backends evaluate the same joint-kernel tables; every quantity the compiled kernels
give (poses, every Jacobian variant, CoM, CoM Jacobian) must equal the numpy path's to
1e-12 on every bundled and real robot. Skipped when numba is not installed.
"""

import os
import threading
import time

from conftest import all_joint_types_model, random_configuration, real_robot_path, REAL_ROBOTS
from frame_kinematics import robots
from frame_kinematics.core import backend, BackendError, ConfigurationError, ExpressedIn, ik, \
    Robot
from frame_kinematics.core import configuration as cfg
import numpy as np
import pytest

TOLERANCE = 1e-12
ROBOTS = tuple(f'bundled:{name}' for name in robots.names()) + ('all_types',) + \
    tuple(REAL_ROBOTS) + ('iiwa',)
FLOATING = {'bundled:fk_quadruped': True}


def _pair(name):
    """Load the same robot on both backends: ``(numpy model, numba model)``."""
    if name == 'all_types':
        return tuple(all_joint_types_model(backend=b) for b in backend.BACKENDS)
    if name.startswith('bundled:'):
        path, floating = robots.path(name[8:]), FLOATING.get(name, False)
    else:
        path, floating = real_robot_path(name), REAL_ROBOTS.get(name, ('', False))[1]
    return tuple(Robot.from_urdf_file(path, floating_base=floating, backend=b)
                 for b in backend.BACKENDS)


@pytest.fixture(scope='module', params=ROBOTS)
def pair(request):
    pytest.importorskip('numba')
    return _pair(request.param)


def _close(a, b):
    np.testing.assert_allclose(a, b, rtol=0.0, atol=TOLERANCE)


@pytest.mark.parametrize('batch', [None, 3, 40])
def test_poses_jacobians_and_com_equal_numpy(pair, batch):
    reference, compiled = pair
    assert (reference.backend, compiled.backend) == ('numpy', 'numba')
    assert reference.executor is None and compiled.executor is not None
    q = random_configuration(reference, np.random.default_rng(11), batch)
    ours, theirs = compiled.forward_kinematics(q), reference.forward_kinematics(q)
    _close(ours.poses, theirs.poses)
    _close(ours.local_poses, theirs.local_poses)
    rng = np.random.default_rng(12)
    for link in reference.link_names:
        point = rng.uniform(-0.5, 0.5, 3)
        for ref in ('world', 'local', 'local_world_aligned'):
            for at in (None, point):
                _close(ours.jacobian(link, at, ref), theirs.jacobian(link, at, ref))
    if reference.total_mass > 0:
        _close(ours.center_of_mass(), theirs.center_of_mass())
        _close(ours.center_of_mass_jacobian(), theirs.center_of_mass_jacobian())


def test_compiled_state_is_read_only_and_keeps_no_caller_array(pair):
    _, compiled = pair
    q = random_configuration(compiled, np.random.default_rng(3))
    kept = q.copy()
    state = compiled.forward_kinematics(q)
    q += 1.0
    assert q.flags.writeable
    for array in (state.q, state.poses, state.local_poses):
        assert not array.flags.writeable
    np.testing.assert_array_equal(state.q, compiled.check_configuration(kept))
    moved = compiled.link_names[compiled.kernel.column_row[-1]]
    jac = state.jacobian(moved)
    jac[:] = 0.0
    assert np.any(state.jacobian(moved) != 0.0)


def _forms(q):
    """``q`` as the arrays and lists callers pass: the first two take the one-call path."""
    frozen_q = q.copy()
    frozen_q.setflags(write=False)
    strided = np.repeat(q, 2)[::2]
    return [q.copy(), frozen_q, q.tolist(), strided, q.astype(np.float32).astype(float)]


def test_the_one_call_paths_equal_numpy(pair):
    reference, compiled = pair
    q = random_configuration(reference, np.random.default_rng(21))
    forms = _forms(q)
    assert [compiled.executor.takes(f) for f in forms] == [True, True, False, True, True]
    rng = np.random.default_rng(22)
    for form in forms:
        ours, theirs = compiled.forward_kinematics(form), reference.forward_kinematics(form)
        _close(ours.poses, theirs.poses)
        _close(ours.q, theirs.q)
        for link in reference.link_names[::3] + reference.link_names[-1:]:
            _close(compiled.transform(form, link), reference.transform(form, link))
            point = rng.uniform(-0.5, 0.5, 3)
            for ref in ('world', 'LOCAL', 'local_world_aligned'):
                for at in (None, point, list(point)):
                    _close(compiled.jacobian(form, link, at, ref),
                           reference.jacobian(form, link, at, ref))


def _error(call):
    with pytest.raises(ConfigurationError) as caught:
        call()
    return str(caught.value)


def test_the_one_call_paths_refuse_what_the_numpy_path_refuses():
    pytest.importorskip('numba')
    reference, compiled = _pair('bundled:fk_quadruped')
    good = random_configuration(reference, np.random.default_rng(5))
    assert compiled.layout.floating
    quaternion = slice(compiled.layout.floating[0][0] + 3, compiled.layout.floating[0][0] + 7)
    cases = [(0, np.nan), (2, np.inf), (8, -1e17), (quaternion, 1.01 * good[quaternion])]
    bads = []
    for index, value in cases:
        bad = good.copy()
        bad[index] = value
        bads.append(bad)
    bads += [good[:-1].copy(), np.append(good, 0.0), np.zeros(0)]  # the kernels check sizes
    for bad in bads:
        assert compiled.executor.takes(bad)
        for call in ('forward_kinematics', 'jacobian', 'transform'):
            args = (bad,) if call == 'forward_kinematics' else (bad, 'base_link')
            message = _error(lambda: getattr(compiled, call)(*args))
            assert message == _error(lambda: getattr(reference, call)(*args))
    swapped = good.astype('>f8')  # float64 of the other byte order: the Python checks convert it
    assert not compiled.executor.takes(swapped)
    _close(compiled.forward_kinematics(swapped).poses, reference.forward_kinematics(good).poses)
    near = good.copy()
    near[quaternion] *= 1.0 + 5e-5
    _close(compiled.forward_kinematics(near).q, reference.check_configuration(near))
    assert np.linalg.norm(compiled.forward_kinematics(near).q[quaternion]) == \
        pytest.approx(1.0, abs=1e-15)


def test_every_one_call_path_takes_the_same_configurations(pair):
    _, compiled = pair
    accelerator = compiled.executor
    q = random_configuration(compiled, np.random.default_rng(23))
    for form in _forms(q) + [q.astype('>f8'), np.stack([q, q]), q.astype(np.float32)]:
        taken = accelerator.takes(form)
        assert (accelerator.checked_poses(form) is not None) == taken
        assert (accelerator.checked_pose(form, len(compiled.links) - 1) is not None) == taken
        assert (accelerator.checked_jacobian(form, 0, None, ExpressedIn.LOCAL) is not None) == \
            taken
        workspace = (np.empty(compiled.nq), np.empty((len(compiled.links), 4, 4)))
        assert accelerator.checked_poses_into(form, *workspace) == taken


def test_the_packed_table_holds_the_kernel_tables_bit_for_bit():
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import tables
    model = all_joint_types_model(backend='numba')
    table = tables.pack(model)
    n, c = len(model.links), model.kernel.n_columns
    ints = table.view(np.int64)
    assert list(ints[:4]) == [n, c, len(model.layout.floating), model.nq]
    rows = ints[4:4 + 5 * n].reshape(n, 5)
    np.testing.assert_array_equal(rows[:, 0], model.kernel.type_code)
    np.testing.assert_array_equal(rows[:, 2], model.topology.parent)
    np.testing.assert_array_equal(rows[:, 4], model.topology.subtree_end)
    np.testing.assert_array_equal(rows[:, 3], model.kernel.principal_axis)


def test_a_borrowed_array_is_the_same_memory_shape_and_strides():
    numba = pytest.importorskip('numba')
    from frame_kinematics.core.accel.runtime import borrowed

    @numba.njit
    def write_through(array, value):
        view = borrowed(array)
        for i in range(view.shape[0]):
            view[i, 0] = value + i
        return view.shape + view.strides

    base = np.zeros((6, 4))
    for array in (base, base[::2, 1:]):  # C-contiguous, then strided
        assert write_through(array, 7.0) == array.shape + array.strides
        assert array[:, 0].tolist() == [7.0 + i for i in range(len(array))]
    assert base[:, 0].tolist() == [7.0, 8.0, 9.0, 10.0, 11.0, 12.0]


def test_a_massless_robot_has_no_center_of_mass_on_either_backend():
    pytest.importorskip('numba')
    text = ('<robot name="light"><link name="a"/><link name="b"/>'
            '<joint name="j" type="continuous"><parent link="a"/><child link="b"/>'
            '<axis xyz="0 0 1"/></joint></robot>')
    for name in backend.BACKENDS:
        state = Robot.from_urdf_string(text, backend=name).forward_kinematics([0.3])
        with pytest.raises(ConfigurationError, match='no mass'):
            state.center_of_mass()
        with pytest.raises(ConfigurationError, match='no mass'):
            state.center_of_mass_jacobian()


def test_a_bad_point_is_refused_by_the_compiled_jacobian():
    pytest.importorskip('numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    state = model.forward_kinematics(model.neutral_configuration())
    for point in ([1.0, np.nan, 0.0], [1.0, 2.0], 'abc'):
        with pytest.raises(ConfigurationError, match='point'):
            state.jacobian('tool0', point)


# -- inverse kinematics ---------------------------------------------------------------------
IK_ROBOTS = [('bundled:fk_arm', 'tool0'), ('ur5', 'tool0'), ('panda', 'panda_link8'),
             ('iiwa', 'lbr_iiwa_link_7')]


def _angle(a_R, b_R):
    return np.arccos(np.clip(0.5 * (np.trace(a_R.T @ b_R) - 1.0), -1.0, 1.0))


@pytest.mark.parametrize('name, tip', IK_ROBOTS)
@pytest.mark.parametrize('count', [1, 70])
def test_compiled_ik_solutions_reach_the_targets_and_agree_with_numpy_fk(name, tip, count):
    pytest.importorskip('numba')
    reference, compiled = _pair(name)
    rng = np.random.default_rng(21)
    targets = reference.forward_kinematics(random_configuration(reference, rng, count)) \
        .transform(tip)
    seeds = random_configuration(reference, rng, count)
    solver = ik.IKSolver(compiled, tip)
    assert solver.evaluator().compiled is not None
    result = solver.solve_batch(targets, seed=seeds, time_budget=10.0)
    assert result.success.all(), result.reason
    assert set(result.reason) == {'converged'}
    assert np.all(cfg.is_valid(reference, result.q, tolerance=1e-12))
    ours = compiled.forward_kinematics(result.q)
    theirs = reference.forward_kinematics(result.q)
    _close(ours.poses, theirs.poses)
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


def test_a_compiled_batch_gives_the_time_left_to_the_targets_that_need_it():
    pytest.importorskip('numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    rng = np.random.default_rng(10)
    targets = np.array(model.forward_kinematics(random_configuration(model, rng, 5))
                       .transform('tool0'))
    targets[1, :3, 3] = [0.0, 4.0, 0.0]
    result = ik.solve_batch(model, 'tool0', targets, time_budget=0.2, max_iterations=10 ** 9)
    assert result.success.tolist() == [True, False, True, True, True]
    assert result.reason[1] == 'time_budget' and result.iterations[1] > 100


def test_the_solve_kernels_release_the_gil():
    """The node's /tf path is a Python thread: it runs while a compiled solve does."""
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import ik as ik_kernels, ik_one
    for kernel in (ik_kernels.solve_serial, ik_kernels.solve_parallel, ik_one.usable,
                   ik_one.solve_full):
        assert kernel.targetoptions.get('nogil') is True, kernel.py_func.__name__


def test_threaded_batches_may_run_from_several_threads_at_once():
    pytest.importorskip('numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    solver = ik.IKSolver(model, 'tool0')
    rng = np.random.default_rng(30)
    targets = model.forward_kinematics(random_configuration(model, rng, 80)).transform('tool0')
    results = [None] * 4

    def work(k):
        results[k] = solver.solve_batch(targets, rng=np.random.default_rng(k), time_budget=30.0)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(results))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result.success.all() for result in results)


def test_problems_the_compiled_solve_does_not_handle_go_to_the_numpy_engine():
    pytest.importorskip('numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    target = model.forward_kinematics(np.full(model.nq, 0.3)).transform('tool0')
    solver = ik.IKSolver(model, 'tool0')
    compiled = solver.evaluator().compiled
    problem = solver._residual(np.array([[1.0, 1.0, 1.0, 0.0, 0.0, 1.0]]), 1e-5, 1e-5)
    assert not compiled.supports(problem, None)
    assert compiled.supports(solver._residual(np.ones((1, 6)), 1e-5, 1e-5), np.zeros(7))
    weighted = solver.solve(target, weights=[1, 1, 1, 0, 0, 1], time_budget=5.0)
    assert weighted.success


# -- backend selection ----------------------------------------------------------------------
def test_the_argument_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, 'numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numpy')
    assert model.backend == 'numpy' and model.executor is None


def test_the_environment_variable_selects_numpy(monkeypatch):
    monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, ' NumPy ')
    assert backend.resolve() == 'numpy'
    assert Robot.from_urdf_file(robots.path('fk_arm')).backend == 'numpy'


def test_auto_picks_numba_exactly_when_it_imports(monkeypatch):
    monkeypatch.delenv(backend.ENVIRONMENT_VARIABLE, raising=False)
    expected = 'numba' if backend.numba_error() is None else 'numpy'
    assert backend.resolve() == expected
    assert backend.resolve('auto') == expected
    assert Robot.from_urdf_file(robots.path('fk_arm')).backend == expected


@pytest.mark.parametrize('bad', ['numpyy', '', 'fast' * 30, 3, None])
def test_unknown_backends_are_refused(monkeypatch, bad):
    if bad is None:
        monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, 'cuda')
        with pytest.raises(BackendError, match=backend.ENVIRONMENT_VARIABLE):
            backend.resolve()
        return
    with pytest.raises(BackendError) as error:
        Robot.from_urdf_file(robots.path('fk_arm'), backend=bad)
    assert len(str(error.value)) < 200


def test_numba_asked_for_without_numba_is_refused():
    if backend.numba_error() is None:
        pytest.skip('numba is installed')
    with pytest.raises(BackendError, match="'.\\[fast\\]'"):
        backend.resolve('numba')


def test_cache_directory_follows_the_environment():
    variable = backend.CACHE_VARIABLE
    assert backend.cache_directory({variable: '/x/kernels', 'XDG_CACHE_HOME': '/y'}) == \
        '/x/kernels'
    assert backend.cache_directory({'XDG_CACHE_HOME': '/x/cache'}) == \
        os.path.join('/x/cache', 'frame_kinematics', 'numba')
    assert backend.cache_directory({}) == os.path.join(
        os.path.expanduser('~'), '.cache', 'frame_kinematics', 'numba')


def test_choosing_a_backend_writes_no_environment(monkeypatch):
    for name in ('NUMBA_CACHE_DIR', 'NUMBA_THREADING_LAYER'):
        monkeypatch.delenv(name, raising=False)
    before = dict(os.environ)
    backend.resolve('auto')
    backend.numba_error()
    assert dict(os.environ) == before


@pytest.mark.parametrize('missing', ['clock_gettime', 'CLOCK_MONOTONIC'])
def test_without_the_posix_clock_auto_falls_back_to_numpy_with_a_notice(monkeypatch, missing,
                                                                        core_log):
    pytest.importorskip('numba')
    monkeypatch.delattr(time, missing)
    log = core_log('frame_kinematics.core')
    assert backend.resolve('auto') == 'numpy'
    assert 'POSIX monotonic clock' in log.text and len(log.lines) == 1
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='auto')
    assert model.backend == 'numpy' and model.executor is None
    with pytest.raises(BackendError, match='POSIX monotonic clock'):
        backend.resolve('numba')


def test_describe_names_the_backend():
    assert backend.describe('numpy').startswith('numpy ')
    if backend.numba_error() is None:
        assert backend.describe('numba').startswith('numba ')
        assert backend.cache_directory() in backend.describe('numba')
