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
The compiled backend (numba) against the numpy one and the compiled peers, in one run.

* ``fk``: single-configuration forward kinematics of every link, into a new state
  (``model.forward_kinematics(q)``) and in place (``workspace.forward_kinematics(q)``, a
  :class:`~frame_kinematics.core.kinematics.KinematicsWorkspace`), and the tip Jacobian
  (``model.jacobian(q, tip)``, ``LOCAL_WORLD_ALIGNED``, a new array) on both backends,
  against Pinocchio (``forwardKinematics`` + ``updateFramePlacements``, in place;
  ``computeFrameJacobian``, a new array), and the compiled kernel that these calls make
  alone (``poses_checked``, ``jacobian_checked``: the checks and the kinematics, into arrays
  allocated once, through the entry points that the calls use, ``kernels.entry_point``);
  each the best of 40 rounds in which every call takes its turn (:func:`_race`), so that a
  busy moment of the machine does not fall on one side of a ratio only.
* ``ik``: the TRAC-IK protocol of :mod:`bench_ik` (random reachable targets, random seeds,
  1e-5 m and 1e-5 rad within the limits, 5 ms budget, no iteration limit) with one
  :class:`~frame_kinematics.core.ik.IKSolver` per backend, against roboticstoolbox-python's
  C++ ``ik_LM`` (``ETS.ik_LM``, joint limits on, residual tolerance 1e-12, defaults
  otherwise; no time budget, its time is compared with 5 ms afterwards) and TRAC-IK
  (``pytracik``, Speed mode, 5 ms, eps 1e-5 per twist component, our joint limits), on the
  same targets and seeds, every solution judged by the same criterion; ``--busy`` runs it
  again with a busy-loop process on every other core.
* ``batch``: ``solve_batch`` of 10,000 targets on the iiwa (7 DOF), the best of 3 calls,
  targets/s and success;
  ``--busy`` runs it again with the other cores busy.
* ``cli``: ``frame-kinematics fk`` as a subprocess: numpy (the command line's default for a
  single query), ``--backend numba`` with an empty kernel cache (cold) and with the cache
  filled (warm).
* ``start``: a new process that builds a model and evaluates FK and a Jacobian: CPU seconds
  with numba on an empty kernel cache (the first use on a machine), on a filled cache, with
  numpy, and Pinocchio's ``buildModelFromUrdf`` + FK for scale; then, in this process, a
  further model's build (the cost of every later model) against Pinocchio's.
* ``convenience``: the one-call paths users try first, per arm: ``model.inverse_kinematics``
  (one call per target, 5 ms budget) against a reused :class:`~frame_kinematics.core.ik.IKSolver`
  and roboticstoolbox's ``ik_LM`` on the same targets and seeds, medians.

Usage::

    python3 benchmarks/bench_fast.py                 # everything (a few minutes)
    python3 benchmarks/bench_fast.py --parts fk ik --targets 200
"""

import argparse
import contextlib
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
import timeit
import warnings

from bench_ik import random_configurations, robot_cases, within_limits
from frame_kinematics import robots
from frame_kinematics.core import ik, Robot
from frame_kinematics.core.accel import poses, twists
from frame_kinematics.core.spatial import log_so3, quaternion_from_rotation
import numpy as np
import steady_malloc

BUDGET = 0.005
TOLERANCE = 1e-5


def fk_cases():
    """(label, urdf, floating base, tip) of the robots timed for FK and Jacobians."""
    erd = robots.example_robot_data
    cases = [('fk_arm', robots.path('fk_arm'), False, 'tool0')]
    cases += [(label, path, False, tip) for label, path, tip in robot_cases()
              if label in ('UR5', 'Panda', 'KUKA iiwa')]
    talos = erd('talos_data/robots/talos_reduced.urdf')
    if talos is not None:
        cases.append(('Talos', talos, True, 'gripper_left_base_link'))
    return cases


def _race(functions: dict, number: int = 1000, rounds: int = 40) -> dict:
    """
    Time callables in turns, ``rounds`` times each: the best time per call (us) of each.

    Taking turns gives every callable the same share of the machine's slow moments, so that
    their ratios do not depend on which one ran while another process was busy.
    """
    best = {}
    for function in functions.values():
        function()
    for _ in range(rounds):
        for name, function in functions.items():
            took = timeit.timeit(function, number=number) / number * 1e6
            best[name] = min(best.get(name, took), took)
    return best


def part_fk():
    """Rows of single-configuration FK and Jacobian times (us)."""
    import pinocchio as pin
    rows = []
    for label, path, floating, tip in fk_cases():
        models = {b: Robot.from_urdf_file(path, floating_base=floating, backend=b)
                  for b in ('numpy', 'numba')}
        model = models['numba']
        q = model.layout.sample_uniform(np.random.default_rng(1), None, 1.0)
        acc = model.executor
        q_copy, world = np.empty(model.nq), np.empty((len(model.links), 4, 4))
        jac = np.zeros((6, model.nv))
        origin = np.zeros(3)
        index = model.link_index(tip)
        pmodel = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if floating else \
            pin.buildModelFromUrdf(path)
        pdata = pmodel.createData()
        pq = _pinocchio_q(pin, pmodel, model, q)
        fid = pmodel.getFrameId(tip)
        calls = {}
        for name, m in models.items():
            workspace = m.workspace()
            calls[name, 0] = lambda m=m: m.forward_kinematics(q)
            calls[name, 1] = lambda w=workspace: w.forward_kinematics(q)
            calls[name, 2] = lambda m=m: m.jacobian(q, tip)
        calls['kernel', 0] = lambda: acc._poses_checked(acc._table, q, q_copy, world)
        calls['kernel', 2] = lambda: acc._jacobian_checked(
            acc._table, q, index, origin, twists.LOCAL_WORLD_ALIGNED, jac)
        calls['pinocchio', 0] = lambda: (pin.forwardKinematics(pmodel, pdata, pq),
                                         pin.updateFramePlacements(pmodel, pdata))
        calls['pinocchio', 2] = lambda: pin.computeFrameJacobian(pmodel, pdata, pq, fid,
                                                                 pin.LOCAL_WORLD_ALIGNED)
        slow = {key: call for key, call in calls.items() if key[0] == 'numpy'}
        best = _race({key: call for key, call in calls.items() if key[0] != 'numpy'})
        best.update(_race(slow, number=200, rounds=5))
        times = {name: tuple(best.get((name, k), best.get((name, 0))) for k in range(3))
                 for name in ('numpy', 'numba', 'kernel', 'pinocchio')}
        poses.poses_checked(acc._table, q, q_copy, world)
        pin.forwardKinematics(pmodel, pdata, pq)
        pin.updateFramePlacements(pmodel, pdata)
        assert np.abs(pdata.oMf[fid].homogeneous - world[index]).max() < 1e-9
        check = pin.computeFrameJacobian(pmodel, pdata, pq, fid, pin.LOCAL_WORLD_ALIGNED)
        assert np.abs(_pinocchio_columns(check, pmodel, model)
                      - models['numba'].jacobian(q, tip)).max() < 1e-9
        rows.append((f'{label} ({model.nv} dof, {len(model.links)} links)', tip, times))
    print('\n| robot | quantity | numba (us) | numba kernel alone (us) | numpy (us) | '
          'Pinocchio (us) | numba / Pinocchio | kernel / Pinocchio |')
    print('|---|---|---:|---:|---:|---:|---:|---:|')
    for robot, tip, t in rows:
        for k, quantity in enumerate(('FK, all links, new state', 'FK, all links, in place',
                                      f'Jacobian of {tip}, new array')):
            print(f"| {robot} | {quantity} | {t['numba'][k]:.2f} | {t['kernel'][k]:.2f} | "
                  f"{t['numpy'][k]:.1f} | {t['pinocchio'][k]:.2f} | "
                  f"{t['numba'][k] / t['pinocchio'][k]:.1f}x | "
                  f"{t['kernel'][k] / t['pinocchio'][k]:.1f}x |")


def _pinocchio_q(pin, pmodel, model, q):
    """Pinocchio's configuration of our ``q`` (same joint names; free-flyer first)."""
    out = pin.neutral(pmodel)
    for joint in model.actuated_joints:
        jid = pmodel.getJointId(joint.name if joint.name != 'root_joint' else 'root_joint')
        if jid >= pmodel.njoints:
            continue
        start = pmodel.joints[jid].idx_q
        out[start:start + joint.type.nq] = q[joint.idx_q:joint.idx_q + joint.type.nq]
    return out


def _pinocchio_columns(jac, pmodel, model):
    """Pinocchio's Jacobian with its columns in our velocity order."""
    out = np.zeros((6, model.nv))
    for joint in model.actuated_joints:
        jid = pmodel.getJointId(joint.name)
        if jid >= pmodel.njoints:
            continue
        start = pmodel.joints[jid].idx_v
        out[:, joint.idx_v:joint.idx_v + joint.type.nv] = jac[:, start:start + joint.type.nv]
    return out


def _errors(model, tip, q, targets):
    """Position and orientation errors of ``tip`` at configurations ``q`` (batched)."""
    reached = model.forward_kinematics(q).transform(tip)
    position = np.linalg.norm(reached[:, :3, 3] - targets[:, :3, 3], axis=-1)
    rotation = np.linalg.norm(log_so3(np.swapaxes(reached[:, :3, :3], -1, -2)
                                      @ targets[:, :3, :3]), axis=-1)
    return position, rotation


def _stripped(path):
    """Copy a URDF without its visual and collision elements (their meshes are not found)."""
    with open(path, encoding='utf-8') as handle:
        text = re.sub(r'<(visual|collision)\b.*?</\1>', '', handle.read(), flags=re.S)
    handle = tempfile.NamedTemporaryFile('w', suffix='.urdf', delete=False)
    with handle:
        handle.write(text)
    return handle.name


def _judge(model, evaluator, tip, q, targets, times):
    """Success at the protocol: errors below tolerance, within limits, within the budget."""
    position, rotation = _errors(model, tip, q, targets)
    ok = (position < TOLERANCE) & (rotation < TOLERANCE) & within_limits(model, evaluator, q)
    return times, ok


def ik_ours(model, tip, targets, seeds):
    """Our solver, one call per target with the 5 ms budget (the result's own time)."""
    solver = ik.IKSolver(model, tip)
    solver.solve(targets[0], seed=seeds[0], time_budget=BUDGET)
    q, times = np.empty(seeds.shape), np.empty(len(seeds))
    for i in range(len(seeds)):
        # The budget stops a solve, not the iteration count.
        result = solver.solve(targets[i], seed=seeds[i], time_budget=BUDGET,
                              max_iterations=10 ** 6, rng=np.random.default_rng(i))
        q[i], times[i] = result.q, result.elapsed
    return _judge(model, solver.evaluator(), tip, q, targets, times)


def ik_rtb(path, model, evaluator, tip, targets, seeds):
    """roboticstoolbox-python's C++ ik_LM on the chain to ``tip``."""
    import roboticstoolbox as rtb
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ets = rtb.Robot.URDF(_stripped(path)).ets(end=tip)
    active = evaluator.q_index
    q, times = seeds.copy(), np.empty(len(seeds))
    for i in range(len(seeds)):
        start = time.perf_counter()
        solution = ets.ik_LM(targets[i], q0=seeds[i, active], tol=1e-12, joint_limits=True)
        times[i] = time.perf_counter() - start
        q[i, active] = solution[0]
    return _judge(model, evaluator, tip, q, targets, times)


def ik_tracik(path, model, evaluator, tip, targets, seeds):
    """TRAC-IK (pytracik, Speed) with the 5 ms budget and eps 1e-5."""
    import pytracik
    with open(path, encoding='utf-8') as handle:
        solver = pytracik.TRAC_IK(model.root_link, tip, handle.read(), BUDGET, TOLERANCE,
                                  pytracik.SolveType.Speed)
    # The same limits as the others (pytracik reads Panda's as 0).
    pytracik.set_joint_limits(solver, evaluator.layout.lower.tolist(),
                              evaluator.layout.upper.tolist())
    active = evaluator.q_index
    quat = quaternion_from_rotation(targets[:, :3, :3])
    q, times = seeds.copy(), np.empty(len(seeds))
    for i in range(len(seeds)):
        start = time.perf_counter()
        solution = pytracik.ik(solver, seeds[i, active], *targets[i, :3, 3], *quat[i])
        times[i] = time.perf_counter() - start
        if solution[0] > 0:
            q[i, active] = solution[1:]
    return _judge(model, evaluator, tip, q, targets, times)


def _busy():
    while True:
        pass


@contextlib.contextmanager
def _loaded(busy):
    """Run the block with a busy-loop process on every other core (if ``busy``)."""
    loaders = []
    if busy:
        loaders = [multiprocessing.Process(target=_busy, daemon=True)
                   for _ in range(max(os.cpu_count() - 1, 1))]
        for process in loaders:
            process.start()
    try:
        yield f', {len(loaders)} busy-loop process(es) on the other core(s)' if busy else ''
    finally:
        for process in loaders:
            process.terminate()


def part_ik(count, busy):
    """TRAC-IK protocol rows (optionally with the other cores busy)."""
    rows = []
    with _loaded(busy) as load:
        for label, path, tip in robot_cases():
            if label not in ('UR5', 'Panda', 'KUKA iiwa'):
                continue
            models = {b: Robot.from_urdf_file(path, backend=b) for b in ('numba', 'numpy')}
            model = models['numpy']
            evaluator = ik.IKSolver(model, tip).evaluator()
            rng = np.random.default_rng(2026)
            goals = random_configurations(model, evaluator, rng, count)
            seeds = random_configurations(model, evaluator, rng, count)
            targets = np.array(model.forward_kinematics(goals).transform(tip))
            runs = [('frame_kinematics numba', lambda: ik_ours(models['numba'], tip, targets,
                                                               seeds)),
                    ('frame_kinematics numpy', lambda: ik_ours(model, tip, targets, seeds)),
                    ('roboticstoolbox ik_LM (C++)',
                     lambda: ik_rtb(path, model, evaluator, tip, targets, seeds)),
                    ('TRAC-IK (pytracik)',
                     lambda: ik_tracik(path, model, evaluator, tip, targets, seeds))]
            for solver, run in runs:
                try:
                    times, ok = run()
                except ImportError:
                    continue
                within = ok & (times <= BUDGET)
                capped = np.where(within, times, BUDGET)
                rows.append((label, evaluator.nv, solver, count, 100 * within.mean(),
                             1e3 * np.median(capped), 1e3 * np.percentile(capped, 95),
                             1e3 * np.median(times)))
    print(f'\nTRAC-IK protocol, {count} targets per robot{load}\n')
    print('| robot | DOF | solver | targets | success <= 5 ms | median ms (5 ms protocol) | '
          'p95 ms | median ms of the calls |')
    print('|---|---|---|---|---:|---:|---:|---:|')
    for row in rows:
        print('| {} | {} | {} | {} | {:.2f} % | {:.3f} | {:.3f} | {:.3f} |'.format(*row))


def part_batch(count, busy):
    """Batch IK throughput on the iiwa (optionally with the other cores busy)."""
    cases = {label: (path, tip) for label, path, tip in robot_cases()}
    if 'KUKA iiwa' not in cases:
        return
    path, tip = cases['KUKA iiwa']
    rows = []
    with _loaded(busy) as load:
        for backend in ('numba', 'numpy'):
            model = Robot.from_urdf_file(path, backend=backend)
            solver = ik.IKSolver(model, tip)
            evaluator = solver.evaluator()
            rng = np.random.default_rng(7)
            targets = np.array(model.forward_kinematics(
                random_configurations(model, evaluator, rng, count)).transform(tip))
            seeds = random_configurations(model, evaluator, rng, count)
            solver.solve_batch(targets[:100], seed=seeds[:100])
            took = []
            for _ in range(3):  # a slow moment of the shared machine is not the rate
                start = time.perf_counter()
                result = solver.solve_batch(targets, seed=seeds)
                took.append(time.perf_counter() - start)
            elapsed = min(took)
            _, ok = _judge(model, evaluator, tip, result.q, targets, np.zeros(count))
            rows.append((backend, elapsed, count / elapsed, 100 * np.mean(ok & result.success)))
    print(f'\nBatch IK, KUKA iiwa (7 DOF), {count:,} targets in one solve_batch call, best of 3'
          f'{load}\n')
    print('| backend | time (s) | targets/s | solved |')
    print('|---|---:|---:|---:|')
    for row in rows:
        print('| {} | {:.3f} | {:,.0f} | {:.2f} % |'.format(*row))


def part_cli(repeat):
    """Wall time of ``frame-kinematics fk`` as a subprocess, per backend and cache state."""
    command = [sys.executable, '-m', 'frame_kinematics', 'fk', 'shoulder_pan_joint=0.5',
               '--links', 'tool0']
    compiled = command + ['--backend', 'numba']

    def wall(env, args=command):
        start = time.perf_counter()
        subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return time.perf_counter() - start

    base = {k: v for k, v in os.environ.items() if k != 'FRAME_KINEMATICS_BACKEND'}
    rows = [('numpy (the default)', min(wall(base) for _ in range(repeat)))]
    with tempfile.TemporaryDirectory() as cache:
        numba_env = dict(base, FRAME_KINEMATICS_CACHE_DIR=cache)
        rows.append(('--backend numba, empty kernel cache (first run ever)',
                     wall(numba_env, compiled)))
        rows.append(('--backend numba, kernels cached (every later run)',
                     min(wall(numba_env, compiled) for _ in range(repeat))))
    start = time.perf_counter()
    subprocess.run([sys.executable, '-c', 'import numpy'], check=True)
    floor = time.perf_counter() - start
    print(f'\n`frame-kinematics fk` as a subprocess (best of {repeat}; python + numpy start '
          f'{floor:.3f} s)\n')
    print('| backend | wall time (s) |')
    print('|---|---:|')
    for name, seconds in rows:
        print(f'| {name} | {seconds:.3f} |')


_START = """
import resource, sys, time
start = time.process_time()
import numpy as np
if sys.argv[1] == 'pinocchio':
    import pinocchio as pin
    model = pin.buildModelFromUrdf(sys.argv[2])
    data = model.createData()
    pin.framesForwardKinematics(model, data, pin.neutral(model))
else:
    from frame_kinematics.core import Robot
    model = Robot.from_urdf_file(sys.argv[2], backend=sys.argv[1])
    q = model.neutral_configuration()
    model.forward_kinematics(q)
    model.jacobian(q, model.link_names[-1])
print(time.process_time() - start)
"""


def part_start(repeat):
    """CPU time of a new process's first model and FK, per backend and cache state."""
    import pinocchio as pin
    path = robots.example_robot_data('panda_description/urdf/panda.urdf')

    def cpu(backend, env):
        done = subprocess.run([sys.executable, '-c', _START, backend, path], check=True,
                              env=env, capture_output=True, text=True)
        return float(done.stdout.split()[-1])

    base = dict(os.environ)
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(base, FRAME_KINEMATICS_CACHE_DIR=cache)
        rows.append(('numba, empty kernel cache (first use on a machine)', cpu('numba', env)))
        rows.append(('numba, kernels cached', min(cpu('numba', env) for _ in range(repeat))))
    rows.append(('numpy', min(cpu('numpy', base) for _ in range(repeat))))
    rows.append(('Pinocchio (buildModelFromUrdf + FK)',
                 min(cpu('pinocchio', base) for _ in range(repeat))))
    print('\nA new process: import, first Panda model, FK and a Jacobian (CPU s, best of '
          f'{repeat})\n')
    print('| backend | CPU (s) |')
    print('|---|---:|')
    for name, seconds in rows:
        print(f'| {name} | {seconds:.2f} |')
    with open(path, encoding='utf-8') as handle:
        text = handle.read()
    times = _race({'numba': lambda: Robot.from_urdf_string(text, backend='numba'),
                   'numpy': lambda: Robot.from_urdf_string(text, backend='numpy'),
                   'Pinocchio': lambda: pin.buildModelFromXML(text)}, number=20, rounds=5)
    print('\nEvery later model of the process (Panda, from the URDF text, ms)\n')
    print('| backend | ms | / Pinocchio |')
    print('|---|---:|---:|')
    for name, us in times.items():
        print(f"| {name} | {us / 1e3:.2f} | {us / times['Pinocchio']:.1f}x |")


def part_convenience(count):
    """One-call IK against a reused solver and ik_LM, medians on the same targets."""
    rows = []
    for label, path, tip in robot_cases():
        if label not in ('UR5', 'Panda', 'KUKA iiwa'):
            continue
        for backend in ('numba', 'numpy'):
            model = Robot.from_urdf_file(path, backend=backend)
            evaluator = ik.IKSolver(model, tip).evaluator()
            rng = np.random.default_rng(7)
            goals = random_configurations(model, evaluator, rng, count)
            seeds = random_configurations(model, evaluator, rng, count)
            targets = np.array(model.forward_kinematics(goals).transform(tip))
            solver = ik.IKSolver(model, tip)
            model.inverse_kinematics(tip, targets[0], seed=seeds[0], time_budget=BUDGET)
            solver.solve(targets[0], seed=seeds[0], time_budget=BUDGET)
            one_call, reused = np.empty(count), np.empty(count)
            for i in range(count):
                start = time.perf_counter()
                model.inverse_kinematics(tip, targets[i], seed=seeds[i], time_budget=BUDGET,
                                         rng=np.random.default_rng(i))
                one_call[i] = time.perf_counter() - start
                start = time.perf_counter()
                solver.solve(targets[i], seed=seeds[i], time_budget=BUDGET,
                             rng=np.random.default_rng(i))
                reused[i] = time.perf_counter() - start
            row = [label, backend, 1e3 * np.median(one_call), 1e3 * np.median(reused)]
            try:
                times, _ = ik_rtb(path, model, evaluator, tip, targets, seeds)
                row.append(f'{1e3 * np.median(times):.3f}')
            except ImportError:
                row.append('n/a')
            rows.append(row)
    print(f'\nOne-call IK (model.inverse_kinematics), {count} targets per robot, wall time of '
          'the call, medians\n')
    print('| robot | backend | one call (ms) | reused IKSolver (ms) | one call / reused | '
          'ik_LM (ms) |')
    print('|---|---|---:|---:|---:|---:|')
    for label, backend, one, again, rtb in rows:
        print(f'| {label} | {backend} | {one:.3f} | {again:.3f} | {one / again:.2f}x | {rtb} |')


def main(argv=None):
    steady_malloc.ensure()
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parts = ['fk', 'start', 'convenience', 'ik', 'batch', 'cli']
    parser.add_argument('--parts', nargs='+', default=parts, choices=parts)
    parser.add_argument('--targets', type=int, default=1000, help='IK targets per robot')
    parser.add_argument('--batch', type=int, default=10000, help='targets of the batch')
    parser.add_argument('--busy', action='store_true',
                        help='IK and batch again with the other cores busy')
    parser.add_argument('--repeat', type=int, default=3, help='runs of each CLI command')
    args = parser.parse_args(argv)
    import numba
    print(f'Python {sys.version.split()[0]}, numpy {np.__version__}, numba {numba.__version__}'
          f', {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}')
    if 'fk' in args.parts:
        part_fk()
    if 'start' in args.parts:
        part_start(args.repeat)
    if 'convenience' in args.parts:
        part_convenience(min(args.targets, 200))
    if 'ik' in args.parts:
        part_ik(args.targets, False)
        if args.busy:
            part_ik(args.targets, True)
    if 'batch' in args.parts:
        part_batch(args.batch, False)
        if args.busy:
            part_batch(args.batch, True)
    if 'cli' in args.parts:
        part_cli(args.repeat)


if __name__ == '__main__':
    main()
