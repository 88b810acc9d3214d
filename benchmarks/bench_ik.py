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
Inverse kinematics benchmark: frame_kinematics against Pinocchio CLIK and ikpy.

Protocol (TRAC-IK's): reachable targets are the forward kinematics of random valid
configurations; every solve starts from another random configuration; a solve succeeds when
the position error is below 1e-5 m and the orientation error below 1e-5 rad, within the
joint limits, inside the time budget (5 ms, and 20 ms).

frame_kinematics solves with one :class:`~frame_kinematics.core.ik.IKSolver` per robot, kept
across the targets (as a caller solving many targets would). Each solver runs once per target
with the 20 ms budget; a solve counts for the 5 ms column when it succeeded within 5 ms (the
solvers are deterministic given their seeds, so a 5 ms budget would have stopped them at the
same point). Median and 95th-percentile times are
those of the 5 ms protocol (a failure costs the whole budget).

Peers, measured in the same run on the same targets and seeds:

* Pinocchio CLIK: the loop of Pinocchio's documentation (``log6`` error, ``Jlog6``, damping
  1e-12, step 0.1), in Python, with the joints clipped to their limits after every step and
  a random restart every 200 iterations, stopped by the same budget;
* ikpy: ``Chain.inverse_kinematics_frame`` (scipy least squares) with full orientation. It
  has no time budget: its time is measured and compared with the budgets afterwards. It runs
  on fewer targets (it is slow).

Usage::

    python3 benchmarks/bench_ik.py --quick     # 100 targets per robot, 20 for ikpy
    python3 benchmarks/bench_ik.py             # 1000 targets per robot, 100 for ikpy
"""

import argparse
import os
import time
import warnings

from frame_kinematics import robots
from frame_kinematics.core import ik, Robot
from frame_kinematics.core.spatial import log_so3
import numpy as np
import steady_malloc

TOLERANCE = 1e-5
BUDGETS = (0.005, 0.02)
RESTART_EVERY = 200


def _iiwa():
    try:
        import pybullet_data
    except ImportError:
        return None
    return os.path.join(pybullet_data.getDataPath(), 'kuka_iiwa', 'model.urdf')


def robot_cases():
    """(label, urdf path, tip link) of every benchmarked robot that is installed."""
    erd = robots.example_robot_data
    cases = [('UR5', erd('ur_description/urdf/ur5_robot.urdf'), 'tool0'),
             ('Panda', erd('panda_description/urdf/panda.urdf'), 'panda_link8'),
             ('KUKA iiwa', _iiwa(), 'lbr_iiwa_link_7'),
             ('Talos left leg', erd('talos_data/robots/talos_reduced.urdf'), 'leg_left_6_link'),
             ('fk_arm (bundled)', robots.path('fk_arm'), 'tool0')]
    return [case for case in cases if case[1] is not None and os.path.exists(case[1])]


def random_configurations(model, evaluator, rng, count):
    """Uniform configurations within the limits (+-pi for continuous joints)."""
    q = np.tile(model.neutral_configuration(), (count, 1))
    lower = np.where(np.isfinite(evaluator.layout.lower), evaluator.layout.lower, -np.pi)
    upper = np.where(np.isfinite(evaluator.layout.upper), evaluator.layout.upper, np.pi)
    q[:, evaluator.q_index] = rng.uniform(lower, upper, size=(count, evaluator.nq))
    return q


def pose_errors(model, tip, q, root_T_target):
    """Position and orientation errors of ``tip`` at ``q`` (batched)."""
    reached = model.forward_kinematics(q).transform(tip)
    position = np.linalg.norm(reached[..., :3, 3] - root_T_target[..., :3, 3], axis=-1)
    relative = np.swapaxes(reached[..., :3, :3], -1, -2) @ root_T_target[..., :3, :3]
    return position, np.linalg.norm(log_so3(relative), axis=-1)


def within_limits(model, evaluator, q):
    """Whether the active coordinates respect the limits."""
    active = q[..., evaluator.q_index]
    return np.all((active >= evaluator.layout.lower - 1e-12)
                  & (active <= evaluator.layout.upper + 1e-12), axis=-1)


def run_ours(solver, targets, seeds, budget):
    times, success = [], []
    for i, (target, seed) in enumerate(zip(targets, seeds)):
        result = solver.solve(target, seed=seed, time_budget=budget,
                              rng=np.random.default_rng(i))
        times.append(result.elapsed)
        success.append(result.success)
    return np.array(times), np.array(success)


class PinocchioClik:
    """The CLIK loop of Pinocchio's documentation, with clipping and random restarts."""

    def __init__(self, path, model, evaluator, tip):
        import pinocchio as pin
        self.pin = pin
        full = pin.buildModelFromUrdf(path)
        lock = [full.getJointId(name) for name in full.names[1:]
                if name not in evaluator.active_joints]
        if lock:
            full = pin.buildReducedModel(full, lock, pin.neutral(full))
        self.model = full
        self.data = full.createData()
        self.frame = full.getFrameId(tip)
        self.index = np.array([full.idx_qs[full.getJointId(name)]
                               for name in evaluator.active_joints])
        self.ours = evaluator.q_index
        self.lower = full.lowerPositionLimit.copy()
        self.upper = full.upperPositionLimit.copy()

    def solve(self, root_T_target, seed_q, rng, budget):
        pin = self.pin
        deadline = time.perf_counter() + budget
        oMdes = pin.SE3(root_T_target[:3, :3].copy(), root_T_target[:3, 3].copy())
        q = np.zeros(self.model.nq)
        q[self.index] = seed_q[self.ours]
        since = 0
        while True:
            pin.framesForwardKinematics(self.model, self.data, q)
            oMf = self.data.oMf[self.frame]
            iMd = oMf.actInv(oMdes)
            err = pin.log(iMd).vector
            position = np.linalg.norm(oMdes.translation - oMf.translation)
            if position < TOLERANCE and np.linalg.norm(err[3:]) < TOLERANCE:
                return q, True
            if time.perf_counter() > deadline:
                return q, False
            if since >= RESTART_EVERY:
                q = rng.uniform(self.lower, self.upper)
                since = 0
                continue
            jac = pin.computeFrameJacobian(self.model, self.data, q, self.frame)
            jac = -np.dot(pin.Jlog6(iMd.inverse()), jac)
            v = -jac.T.dot(np.linalg.solve(jac.dot(jac.T) + 1e-12 * np.eye(6), err))
            q = np.clip(pin.integrate(self.model, q, v * 0.1), self.lower, self.upper)
            since += 1

    def run(self, model, tip, targets, seeds, budget):
        times, success = [], []
        for i, (target, seed) in enumerate(zip(targets, seeds)):
            start = time.perf_counter()
            q_pin, ok = self.solve(target, seed, np.random.default_rng(i), budget)
            times.append(time.perf_counter() - start)
            q = seed.copy()
            q[self.ours] = q_pin[self.index]
            position, angle = pose_errors(model, tip, q, target)
            success.append(ok and position < TOLERANCE and angle < TOLERANCE)
        return np.array(times), np.array(success)


class Ikpy:
    """ikpy's chain from the root to the tip, only the active joints free."""

    def __init__(self, path, model, evaluator, tip):
        import ikpy.chain
        elements = []
        link = model.link(tip)
        while link.parent_joint is not None:
            elements[:0] = [link.parent_joint, link.name]
            link = model.link(link.parent)
        elements.insert(0, link.name)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            chain = ikpy.chain.Chain.from_urdf_file(path, base_elements=elements)
            names = [item.name for item in chain.links]
            last = names.index(model.link(tip).parent_joint)
            links = chain.links[:last + 1]
            mask = [item.name in evaluator.active_joints for item in links]
            self.chain = ikpy.chain.Chain(links, active_links_mask=mask)
        self.slots = [(i, model.joint(item.name).idx_q) for i, item in enumerate(links)
                      if item.name in evaluator.active_joints]

    def run(self, model, tip, targets, seeds):
        times, success = [], []
        for target, seed in zip(targets, seeds):
            start_q = np.zeros(len(self.chain.links))
            for i, iq in self.slots:
                start_q[i] = seed[iq]
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                solution = self.chain.inverse_kinematics_frame(target, initial_position=start_q,
                                                               orientation_mode='all')
            times.append(time.perf_counter() - start)
            q = seed.copy()
            for i, iq in self.slots:
                q[iq] = solution[i]
            position, angle = pose_errors(model, tip, q, target)
            success.append(position < TOLERANCE and angle < TOLERANCE)
        return np.array(times), np.array(success)


def summarise(times, success):
    """Success within each budget, and median/p95 time of the 5 ms protocol."""
    rates = [float(np.mean(success & (times <= budget))) for budget in BUDGETS]
    capped = np.where(success & (times <= BUDGETS[0]), times, BUDGETS[0])
    capped = np.minimum(capped, BUDGETS[0])
    return rates, float(np.median(capped)), float(np.percentile(capped, 95))


def main(argv=None):
    steady_malloc.ensure()
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--quick', action='store_true', help='100 targets per robot')
    parser.add_argument('--targets', type=int, help='targets per robot (overrides)')
    parser.add_argument('--ikpy-targets', type=int, help='targets per robot for ikpy')
    parser.add_argument('--no-peers', action='store_true', help='only frame_kinematics')
    args = parser.parse_args(argv)
    count = args.targets or (100 if args.quick else 1000)
    ikpy_count = args.ikpy_targets or (20 if args.quick else 100)
    # All of ours first (glibc's thresholds are fixed by steady_malloc, so the order of the
    # runs does not change the numpy side's speed).
    solved = []
    for label, path, tip in robot_cases():
        model = Robot.from_urdf_file(path)
        solver = ik.IKSolver(model, tip)
        evaluator = solver.evaluator()
        rng = np.random.default_rng(2026)
        goals = random_configurations(model, evaluator, rng, count)
        seeds = random_configurations(model, evaluator, rng, count)
        targets = model.forward_kinematics(goals).transform(tip)
        dof = evaluator.nv
        run_ours(solver, targets[:5], seeds[:5], BUDGETS[1])
        times, success = run_ours(solver, targets, seeds, BUDGETS[1])
        rates, median, p95 = summarise(times, success)
        start = time.perf_counter()
        batch = solver.solve_batch(targets, seed=seeds, time_budget=BUDGETS[0] * count,
                                   rng=np.random.default_rng(0))
        batch_time = time.perf_counter() - start
        batch_ok = batch.success & within_limits(model, evaluator, batch.q)
        ours = {'robot': label, 'dof': dof, 'solver': 'frame_kinematics', 'n': count,
                'rates': rates, 'median': median, 'p95': p95,
                'throughput': count / batch_time,
                'batch_success': float(np.mean(batch_ok)), 'batch': True}
        solved.append((label, path, tip, model, evaluator, targets, seeds, ours))
    rows = []
    for label, path, tip, model, evaluator, targets, seeds, ours in solved:
        rows.append(ours)
        if args.no_peers:
            continue
        dof = ours['dof']
        try:
            clik = PinocchioClik(path, model, evaluator, tip)
        except ImportError:
            clik = None
        if clik is not None:
            times, success = clik.run(model, tip, targets, seeds, BUDGETS[1])
            rates, median, p95 = summarise(times, success)
            rows.append({'robot': label, 'dof': dof, 'solver': 'Pinocchio CLIK (Python)',
                         'n': count, 'rates': rates, 'median': median, 'p95': p95,
                         'throughput': count / float(np.sum(np.minimum(times, BUDGETS[1]))),
                         'batch_success': None, 'batch': False, 'ours': ours})
        try:
            solver = Ikpy(path, model, evaluator, tip)
        except ImportError:
            solver = None
        if solver is not None:
            n = min(ikpy_count, count)
            times, success = solver.run(model, tip, targets[:n], seeds[:n])
            rates, median, p95 = summarise(times, success)
            rows.append({'robot': label, 'dof': dof, 'solver': 'ikpy', 'n': n, 'rates': rates,
                         'median': median, 'p95': p95, 'throughput': n / float(np.sum(times)),
                         'batch_success': None, 'batch': False, 'ours': ours})
    print_table(rows)


def print_table(rows):
    """Print the results as a markdown table."""
    print('| robot | DOF | solver | targets | success <= 5 ms | success <= 20 ms | '
          'median ms | p95 ms | median / ours | targets/s | batch success |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for row in rows:
        ratio = '1' if 'ours' not in row else f"{row['median'] / row['ours']['median']:.1f}x"
        through = f"{row['throughput']:,.0f}" + (' (batch)' if row['batch'] else
                                                 ' (sequential)')
        batch = '' if row['batch_success'] is None else f"{100 * row['batch_success']:.2f} %"
        print(f"| {row['robot']} | {row['dof']} | {row['solver']} | {row['n']} | "
              f"{100 * row['rates'][0]:.2f} % | {100 * row['rates'][1]:.2f} % | "
              f"{1e3 * row['median']:.2f} | {1e3 * row['p95']:.2f} | {ratio} | {through} | "
              f'{batch} |')


if __name__ == '__main__':
    main()
