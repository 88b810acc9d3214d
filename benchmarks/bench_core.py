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
Core kinematics benchmark, side by side with Pinocchio in the same run.

For the bundled arm and a humanoid from example-robot-data (Talos), times forward kinematics
of every link, one Jacobian and the center of mass, for one configuration and for a batch of
1000, and prints a Markdown table of the time per configuration and the ratio to Pinocchio.
Pinocchio's batch is a Python loop calling it once per configuration.

The script runs with glibc malloc's thresholds fixed (see ``steady_malloc.py``), so that
large temporaries of numpy, the core and Pinocchio come from the heap at steady state whatever
the order of the runs.

A second table times serial chains of 6 to 5000 revolute joints (FK of every link, the tip
Jacobian, the center of mass; one configuration and a batch of ``--chain-batch``) with the
memory each needs (peak of traced allocations while loading the model and evaluating them,
one configuration), to show that both grow linearly with the number of links.

Usage: ``python3 benchmarks/bench_core.py [--batch 1000] [--repeat 5] [--chains 6,25,...]``
"""

import argparse
import logging
import sys
import time
import timeit
import tracemalloc

from frame_kinematics import robots
from frame_kinematics.core import ExpressedIn, Robot
import numpy as np
import steady_malloc

QUANTITIES = ('forward kinematics, all links', 'Jacobian of {tip}', 'center of mass')


def _best(function, number, repeat):
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def _configurations(model, batch):
    rng = np.random.default_rng(0)
    lower = np.where(np.isfinite(model.lower), model.lower, -np.pi)
    upper = np.where(np.isfinite(model.upper), model.upper, np.pi)
    return rng.uniform(lower, upper, size=(batch, model.nq))


def _ours(model, qs, tip):
    """(single call, batched call) for each quantity."""
    q = qs[0]
    lwa = ExpressedIn.LOCAL_WORLD_ALIGNED
    return [(lambda: model.forward_kinematics(q), lambda: model.forward_kinematics(qs)),
            (lambda: model.jacobian(q, tip, expressed_in=lwa),
             lambda: model.jacobian(qs, tip, expressed_in=lwa)),
            (lambda: model.center_of_mass(q), lambda: model.center_of_mass(qs))]


def _pinocchio(pin, path, model, qs, tip):
    """(single call, Python loop over the batch) for each quantity, same configurations."""
    pmodel = pin.buildModelFromUrdf(path)
    pdata = pmodel.createData()
    qps = np.zeros((len(qs), pmodel.nq))
    for joint in model.actuated_joints:
        qps[:, pmodel.joints[pmodel.getJointId(joint.name)].idx_q] = qs[:, joint.idx_q]
    fid = pmodel.getFrameId(tip)

    def fk(x):
        pin.forwardKinematics(pmodel, pdata, x)
        pin.updateFramePlacements(pmodel, pdata)

    def jac(x):
        pin.computeFrameJacobian(pmodel, pdata, x, fid, pin.LOCAL_WORLD_ALIGNED)

    def com(x):
        pin.centerOfMass(pmodel, pdata, x)

    def loop(function):
        def run():
            for x in qps:
                function(x)
        return run

    return [((lambda f=f: f(qps[0])), loop(f)) for f in (fk, jac, com)]


def _measure(calls, batch, repeat, number=2000):
    return [(_best(one, number, repeat) * 1e6, _best(many, 3, repeat) * 1e6 / batch)
            for one, many in calls]


def chain_urdf(n: int) -> str:
    """Return a serial chain of ``n`` revolute joints (axes x, y, z in turn) with masses."""
    links = ''.join(f'<link name="l{i}"><inertial><origin xyz="0.01 0 0"/><mass value="1"/>'
                    '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>'
                    '</inertial></link>' for i in range(n + 1))
    joints = ''.join(f'<joint name="j{i}" type="revolute"><parent link="l{i}"/>'
                     f'<child link="l{i + 1}"/><origin xyz="0 0 0.01"/>'
                     f'<axis xyz="{("1 0 0", "0 1 0", "0 0 1")[i % 3]}"/>'
                     '<limit lower="-3" upper="3" effort="1" velocity="1"/></joint>'
                     for i in range(n))
    return f'<robot name="chain{n}">{links}{joints}</robot>'


def _pinocchio_chain(pin, n: int):
    """
    Build the chain of :func:`chain_urdf` joint by joint.

    Pinocchio's URDF reader recurses once per link and overflows the stack (a segmentation
    fault) on a 5000-link chain; each link here is the body of its joint, so joint placements
    are link poses.
    """
    model = pin.Model()
    joints = (pin.JointModelRX, pin.JointModelRY, pin.JointModelRZ)
    inertia = pin.Inertia(1.0, np.array([0.01, 0.0, 0.0]), np.eye(3) * 0.01)
    placement = pin.SE3(np.eye(3), np.array([0.0, 0.0, 0.01]))
    parent = 0
    for i in range(n):
        parent = model.addJoint(parent, joints[i % 3](), placement, f'j{i}')
        model.appendBodyToJoint(parent, inertia, pin.SE3.Identity())
    return model


def _chain_row(n: int, batch: int, repeat: int):
    """Load time, peak memory and timings of a chain of ``n`` joints (the core alone)."""
    text = chain_urdf(n)
    start = time.perf_counter()
    model = Robot.from_urdf_string(text)
    load = time.perf_counter() - start
    qs = _configurations(model, batch)
    tip = model.links[-1].name
    tracemalloc.start()
    traced = Robot.from_urdf_string(text)
    traced.forward_kinematics(qs[0]).jacobian(tip)
    traced.center_of_mass(qs[0])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    number = max(3, 20000 // (n + 10))
    return model, qs, tip, load, peak, _measure(_ours(model, qs, tip), batch, repeat, number)


def main(argv=None) -> int:
    """
    Run the benchmark and print the table.

    :param argv: command-line arguments.
    :return: exit status.
    """
    steady_malloc.ensure()
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--batch', type=int, default=1000)
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--chains', default='6,25,100,500,5000',
                        help='joint counts of the serial chains (comma-separated)')
    parser.add_argument('--chain-batch', type=int, default=100)
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.chains.split(',') if n]
    cases = [('fk_arm (bundled)', robots.path('fk_arm'), 'tool0')]
    talos = robots.example_robot_data('talos_data/robots/talos_reduced.urdf')
    if talos:
        cases.append(('talos_reduced (humanoid)', talos, 'gripper_left_base_link'))
    logging.disable(logging.WARNING)
    loaded = []
    for label, path, tip in cases:
        model = Robot.from_urdf_file(path)
        qs = _configurations(model, args.batch)
        loaded.append((label, path, tip, model, qs, _measure(_ours(model, qs, tip),
                                                             args.batch, args.repeat)))
    chains = [(n,) + _chain_row(n, args.chain_batch, args.repeat) for n in sizes]
    logging.disable(logging.NOTSET)
    try:
        import pinocchio as pin
    except ImportError:
        print('pinocchio is needed for the comparison: pip install pin', file=sys.stderr)
        return 1
    print(f'| robot | quantity | ours 1 cfg (us) | Pinocchio 1 cfg (us) | ratio | '
          f'ours batch {args.batch} (us/cfg) | Pinocchio loop (us/cfg) | ratio |')
    print('|---|---|---:|---:|---:|---:|---:|---:|')
    for label, path, tip, model, qs, ours in loaded:
        theirs = _measure(_pinocchio(pin, path, model, qs, tip), args.batch, args.repeat)
        for name, (one, many), (one_pin, many_pin) in zip(QUANTITIES, ours, theirs):
            print(f'| {label} ({model.nq} dof, {len(model.links)} links) | '
                  f'{name.format(tip=tip)} | {one:.1f} | {one_pin:.2f} | {one / one_pin:.1f}x | '
                  f'{many:.2f} | {many_pin:.2f} | {many / many_pin:.2f}x |')
    _print_chains(pin, chains, args)
    return 0


def _print_chains(pin, chains, args) -> None:
    print()
    print(f'| joints | load (ms) | peak memory (MB) | quantity | ours 1 cfg (us) | '
          f'Pinocchio 1 cfg (us) | ratio | ours batch {args.chain_batch} (us/cfg) | '
          f'Pinocchio loop (us/cfg) | ratio |')
    print('|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|')
    for n, model, qs, tip, load, peak, ours in chains:
        pmodel = _pinocchio_chain(pin, n)
        try:
            pdata = pmodel.createData()
        except MemoryError:  # its Data holds dense nv x nv matrices
            for k, (name, (one, many)) in enumerate(zip(QUANTITIES, ours)):
                head = f'| {n} | {load * 1e3:.1f} | {peak / 1e6:.1f} |' if k == 0 else \
                    '| | | |'
                print(f'{head} {name.format(tip="the tip")} | {one:.1f} | out of memory | | '
                      f'{many:.2f} | out of memory | |')
            continue
        number = max(3, 20000 // (n + 10))

        def fk(x):
            pin.forwardKinematics(pmodel, pdata, x)

        def jac(x):
            pin.computeJointJacobian(pmodel, pdata, x, n)

        def com(x):
            pin.centerOfMass(pmodel, pdata, x)

        calls = [((lambda f=f: f(qs[0])), (lambda f=f: [f(x) for x in qs]))
                 for f in (fk, jac, com)]
        theirs = _measure(calls, len(qs), args.repeat, number)
        rows = zip(QUANTITIES, ours, theirs)
        for k, (name, (one, many), (one_pin, many_pin)) in enumerate(rows):
            head = f'| {n} | {load * 1e3:.1f} | {peak / 1e6:.1f} |' if k == 0 else '| | | |'
            print(f'{head} {name.format(tip="the tip")} | {one:.1f} | {one_pin:.2f} | '
                  f'{one / one_pin:.1f}x | {many:.2f} | {many_pin:.2f} | '
                  f'{many / many_pin:.2f}x |')


if __name__ == '__main__':
    sys.exit(main())
