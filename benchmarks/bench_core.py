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

Pinocchio is imported only after the core's timings: importing it changes glibc malloc's
thresholds for the whole process, after which numpy's large temporary arrays page-fault on
every call (about 10 minor faults per batched Jacobian before, 790 after, by getrusage), which
would slow the numpy side up to 3x for a reason that is not the library's.

Usage: ``python3 benchmarks/bench_core.py [--batch 1000] [--repeat 5]``
"""

import argparse
import logging
import sys
import timeit

from frame_kinematics import robots
from frame_kinematics.core import ExpressedIn, RobotModel
import numpy as np

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


def _measure(calls, batch, repeat):
    return [(_best(one, 2000, repeat) * 1e6, _best(many, 3, repeat) * 1e6 / batch)
            for one, many in calls]


def main(argv=None) -> int:
    """
    Run the benchmark and print the table.

    :param argv: command-line arguments.
    :return: exit status.
    """
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--batch', type=int, default=1000)
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args(argv)
    cases = [('fk_arm (bundled)', robots.path('fk_arm'), 'tool0')]
    talos = robots.example_robot_data('talos_data/robots/talos_reduced.urdf')
    if talos:
        cases.append(('talos_reduced (humanoid)', talos, 'gripper_left_base_link'))
    logging.disable(logging.WARNING)
    loaded = []
    for label, path, tip in cases:
        model = RobotModel.from_urdf_file(path)
        qs = _configurations(model, args.batch)
        loaded.append((label, path, tip, model, qs, _measure(_ours(model, qs, tip),
                                                             args.batch, args.repeat)))
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
    return 0


if __name__ == '__main__':
    sys.exit(main())
