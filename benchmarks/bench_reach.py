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
Reach study on the KUKA iiwa (7 DOF): targets per second, recall, false claims, REACH's way.

Targets: ``--points`` points x ``--orientations`` orientations, each point's frame given
whole and its orientations ``--orientations`` turns about the tool axis spread over +-90
degrees (a cone of half-angle 0 with that many rotations about the normal):

* reachable points: the tip's pose at uniform random configurations within the limits, the
  last joint (whose axis is the tool axis) drawn within 90 degrees of its limits, so that
  every orientation of the point is the pose of a configuration within the limits;
* beyond reach: such points pushed radially away from the first joint to 1.02-1.5 times the
  reach bound (:func:`frame_kinematics.core.reach.reach_bound`), a proven upper bound of the
  tip's distance: no configuration reaches them;
* near the boundary: such points pushed to 0.95-1.0 times the bound, orientations kept (their
  truth is unknown; every claim is checked by forward kinematics like every other).

Every claimed solution is checked here again by forward kinematics against the tolerances
(1e-5 m, 1e-5 rad) and the joint limits: a claim that fails, or any claim on a target
beyond reach, is a false claim. REACH's approach, one IK call per target, is measured on a
sample of the same targets with roboticstoolbox's C++ ``ik_LM`` (its default 100 random
searches) and TRAC-IK (``pytracik``, 5 ms) when installed; the ratio is of time per target.
``--compare`` also runs the study without its early rejections (reach bound, stall rule,
failed neighbours); ``--scheduler local`` (a LocalCluster of 2 worker processes of one thread
each on loopback) or ``--scheduler tcp://host:port`` runs it on a Dask cluster too, checks
that the result is the same and prints the overhead.

    python3 benchmarks/bench_reach.py --points 31250 --orientations 32 --scheduler local
"""

import argparse
import os
import time
import warnings

from bench_fast import _stripped
from bench_ik import random_configurations, robot_cases, within_limits
from frame_kinematics.core import ik, Robot
from frame_kinematics.core.reach import make_targets, reach_bound, run_study
from frame_kinematics.core.reach.chunks import pose_errors
from frame_kinematics.core.spatial import quaternion_from_rotation, rotation_from_rpy
import numpy as np

TOLERANCE = 1e-5
TRACIK_BUDGET = 0.005
#: Turns about the tool axis of a point's orientations: within +-SPAN.
SPAN = np.pi / 2


def make_case(model, evaluator, tip, count, n_orient, beyond, near, rng):
    """Points' frames ``(P, 4, 4)``, turns ``(O, 3, 3)`` and each point's class (0, 1, 2)."""
    q = random_configurations(model, evaluator, rng, count)
    last = evaluator.q_index[-1]
    margin = SPAN if n_orient > 1 else 0.0
    q[:, last] = rng.uniform(model.lower[last] + margin, model.upper[last] - margin, count)
    frames = model.forward_kinematics(q).transform(tip).copy()
    kind = rng.choice(3, size=count, p=[1.0 - beyond - near, beyond, near])
    bound = reach_bound(model, tip, evaluator.active_joints, model.neutral_configuration())
    offset = frames[:, :3, 3] - bound.center
    unit = offset / np.linalg.norm(offset, axis=1, keepdims=True)
    scale = np.where(kind == 1, rng.uniform(1.02, 1.5, count), rng.uniform(0.95, 1.0, count))
    pushed = bound.center + unit * (scale * bound.radius)[:, None]
    frames[kind > 0, :3, 3] = pushed[kind > 0]
    turns = np.linspace(-SPAN, SPAN, n_orient) if n_orient > 1 else np.zeros(1)
    rotations = rotation_from_rpy(np.stack([np.zeros(n_orient), np.zeros(n_orient), turns],
                                           axis=-1))
    # the truth of the reachable targets: the last joint turned by each orientation's angle
    sample = np.nonzero(kind == 0)[0][:20]
    turned = np.repeat(q[sample], n_orient, axis=0)
    turned[:, last] += np.tile(turns, len(sample))
    turn = np.tile(np.eye(4), (n_orient, 1, 1))
    turn[:, :3, :3] = rotations
    poses = frames[sample, None] @ turn
    pos, ori = pose_errors(model, tip, turned, poses.reshape(-1, 4, 4))
    assert pos.max() < 1e-9 and ori.max() < 1e-9, 'the orientations are not the tool turns'
    return frames, rotations, kind


def judge(model, evaluator, tip, q, poses, claimed):
    """Claims confirmed by forward kinematics and the joint limits."""
    ok = np.zeros(len(q), dtype=bool)
    rows = np.nonzero(claimed)[0]
    pos, ori = pose_errors(model, tip, q[rows], poses[rows])
    inside = within_limits(model, evaluator, q[rows])
    ok[rows] = (pos <= TOLERANCE) & (ori <= TOLERANCE) & inside
    return ok


def peer_rtb(path, evaluator, tip, poses, seed_q):
    """Run roboticstoolbox's C++ ik_LM, one call per target (REACH's way): q and seconds."""
    import roboticstoolbox as rtb
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ets = rtb.Robot.URDF(_stripped(path)).ets(end=tip)
    q = np.tile(seed_q, (len(poses), 1))
    claimed = np.zeros(len(poses), dtype=bool)
    start = time.perf_counter()
    for i, pose in enumerate(poses):
        solution = ets.ik_LM(pose, q0=seed_q[evaluator.q_index], tol=1e-12, joint_limits=True)
        q[i, evaluator.q_index] = solution.q
        claimed[i] = bool(solution.success)
    return q, claimed, time.perf_counter() - start


def peer_tracik(path, model, evaluator, tip, poses, seed_q):
    """TRAC-IK (pytracik, Speed, 5 ms), one call per target: q and seconds."""
    import pytracik
    with open(path, encoding='utf-8') as handle:
        solver = pytracik.TRAC_IK(model.root_link, tip, handle.read(), TRACIK_BUDGET,
                                  TOLERANCE, pytracik.SolveType.Speed)
    pytracik.set_joint_limits(solver, evaluator.layout.lower.tolist(),
                              evaluator.layout.upper.tolist())
    quat = quaternion_from_rotation(poses[:, :3, :3])
    q = np.tile(seed_q, (len(poses), 1))
    claimed = np.zeros(len(poses), dtype=bool)
    start = time.perf_counter()
    for i, pose in enumerate(poses):
        solution = pytracik.ik(solver, seed_q[evaluator.q_index], *pose[:3, 3], *quat[i])
        if solution[0] >= 0:
            q[i, evaluator.q_index] = solution[1:] if len(solution) > 2 else solution[1]
            claimed[i] = True
    return q, claimed, time.perf_counter() - start


def report(name, kind, ok, seconds, count):
    """Print one line: targets/s, recall on the reachable ones, solved near the boundary."""
    recall = ok[kind == 0].mean() if np.any(kind == 0) else float('nan')
    near = ok[kind == 2].mean() if np.any(kind == 2) else float('nan')
    print(f'{name:<34} {count / seconds:>11,.0f} targets/s  recall {100 * recall:6.2f} %  '
          f'near-boundary solved {100 * near:5.1f} %  false claims '
          f'{int(np.count_nonzero(ok & (kind == 1)))}')
    return seconds / count


def local_cluster(address):
    """Return a Dask client (on a LocalCluster of 2 single-thread workers for ``local``)."""
    from distributed import Client, LocalCluster
    if address != 'local':
        return Client(address), None
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host='127.0.0.1',
                           dashboard_address=None, env={'NUMBA_NUM_THREADS': '1'})
    return Client(cluster), cluster


def study_line(label, result, seconds, model, evaluator, tip, poses, kind):
    """Check a study's claims, print its line and its pass counts; return s per target."""
    count = len(poses)
    q = result.q.reshape(count, -1)
    claimed = result.reached.reshape(-1)
    ok = judge(model, evaluator, tip, np.nan_to_num(q), poses, claimed)
    assert np.array_equal(ok, claimed), 'a claim failed the check'
    ours = report(label, kind, ok, seconds, count)
    stats = result.stats
    print(f'{"":<34} {seconds:.1f} s; {stats["solved_first_pass"]} solved in the first pass, '
          f'{stats["solved_neighbour_pass"]} by neighbours, {stats["beyond_reach"]} rejected '
          f'by the bound, {stats["neighbour_skipped"]} left out by the neighbour pass')
    return ours


def main():
    """Run the study and the peers on the same targets."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('--points', type=int, default=20000)
    parser.add_argument('--orientations', type=int, default=1)
    parser.add_argument('--beyond', type=float, default=0.2)
    parser.add_argument('--near', type=float, default=0.1)
    parser.add_argument('--peer-targets', type=int, default=300)
    parser.add_argument('--backend', default='numba', choices=('numba', 'numpy'))
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--max-iterations', type=int, default=60)
    parser.add_argument('--restarts', type=int, default=8)
    parser.add_argument('--compare', action='store_true',
                        help='also run the study without its early rejections')
    parser.add_argument('--scheduler', help="'local' or a Dask scheduler's address")
    args = parser.parse_args()
    _, path, tip = next(case for case in robot_cases() if case[0] == 'KUKA iiwa')
    model = Robot.from_urdf_file(path, backend=args.backend)
    evaluator = ik.IKSolver(model, tip).evaluator()
    rng = np.random.default_rng(args.seed)
    frames, rotations, point_kind = make_case(model, evaluator, tip, args.points,
                                              args.orientations, args.beyond, args.near, rng)
    targets = make_targets(frames[:, :3, 3], orientations=rotations,
                           point_rotations=frames[:, :3, :3])
    poses = targets.poses().reshape(-1, 4, 4)
    kind = np.repeat(point_kind, args.orientations)
    print(f'{model.name}, {tip}: {args.points} points x {args.orientations} orientations = '
          f'{len(poses)} targets, {np.mean(kind == 0):.0%} reachable, '
          f'{np.mean(kind == 1):.0%} beyond reach, {np.mean(kind == 2):.0%} near the boundary '
          f'({args.backend} backend, {os.cpu_count()} cores)')
    warm = make_targets(frames[:50, :3, 3], point_rotations=frames[:50, :3, :3])
    run_study(model, tip, warm)
    budget = {'seed': args.seed, 'restarts': args.restarts,
              'max_iterations': args.max_iterations}
    runs = [('study', {})]
    if args.compare:
        runs.append(('study, no early rejection', {'reject_beyond_reach': False,
                                                   'abandon_stalled': False,
                                                   'skip_failed_neighbours': False}))
    for label, options in runs:
        start = time.perf_counter()
        result = run_study(model, tip, targets, **budget, **options)
        seconds = time.perf_counter() - start
        line = study_line(label, result, seconds, model, evaluator, tip, poses, kind)
        if not options:
            ours, alone, alone_seconds = line, result, seconds
    if args.scheduler is not None:
        start = time.perf_counter()
        client, cluster = local_cluster(args.scheduler)
        run_study(model, tip, warm, client=client)
        workers = len(client.scheduler_info()['workers'])
        print(f'{"":<34} cluster of {workers} workers up and warm in '
              f'{time.perf_counter() - start:.1f} s')
        start = time.perf_counter()
        spread = run_study(model, tip, targets, **budget, client=client)
        seconds = time.perf_counter() - start
        client.close()
        if cluster is not None:
            cluster.close()
        study_line(f'study on {workers} Dask workers', spread, seconds, model, evaluator, tip,
                   poses, kind)
        same = np.array_equal(spread.status, alone.status) and \
            np.array_equal(spread.q, alone.q, equal_nan=True)
        print(f'{"":<34} identical to the single-process study: {same}; cluster overhead '
              f'{seconds - alone_seconds:+.1f} s ({seconds / alone_seconds:.2f}x the time)')
    sample = rng.choice(len(poses), size=min(args.peer_targets, len(poses)), replace=False)
    seed_q = model.neutral_configuration()
    for name, peer in (('roboticstoolbox ik_LM, one by one', lambda: peer_rtb(
            path, evaluator, tip, poses[sample], seed_q)),
                       ('TRAC-IK (pytracik), one by one', lambda: peer_tracik(
                           path, model, evaluator, tip, poses[sample], seed_q))):
        try:
            q, claimed, seconds = peer()
        except ImportError:
            print(f'{name}: not installed')
            continue
        ok = judge(model, evaluator, tip, q, poses[sample], claimed)
        theirs = report(name, kind[sample], ok, seconds, len(sample))
        print(f'{"":<34} the study is {theirs / ours:.1f}x faster per target')


if __name__ == '__main__':
    main()
