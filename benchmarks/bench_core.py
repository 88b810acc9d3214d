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

Usage: ``python3 benchmarks/bench_core.py [--batch 1000] [--repeat 5]``
"""

import argparse
import logging
import sys
import timeit

from frame_kinematics import robots
from frame_kinematics.core import ExpressedIn, RobotModel
import numpy as np


def _best(function, number, repeat):
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def _cases(pin, path, tip, batch):
    logging.disable(logging.WARNING)
    model = RobotModel.from_urdf_file(path)
    logging.disable(logging.NOTSET)
    pmodel = pin.buildModelFromUrdf(path)
    pdata = pmodel.createData()
    rng = np.random.default_rng(0)
    lower = np.where(np.isfinite(model.lower), model.lower, -np.pi)
    upper = np.where(np.isfinite(model.upper), model.upper, np.pi)
    qs = rng.uniform(lower, upper, size=(batch, model.nq))
    qps = np.zeros((batch, pmodel.nq))
    for joint in model.actuated_joints:
        pj = pmodel.joints[pmodel.getJointId(joint.name)]
        qps[:, pj.idx_q] = qs[:, joint.idx_q]
    fid = pmodel.getFrameId(tip)
    q, qp = qs[0], qps[0]
    lwa = ExpressedIn.LOCAL_WORLD_ALIGNED

    def pin_fk(x):
        pin.forwardKinematics(pmodel, pdata, x)
        pin.updateFramePlacements(pmodel, pdata)

    def pin_jac(x):
        pin.computeFrameJacobian(pmodel, pdata, x, fid, pin.LOCAL_WORLD_ALIGNED)

    def pin_com(x):
        pin.centerOfMass(pmodel, pdata, x)

    def loop(function):
        def run():
            for x in qps:
                function(x)
        return run

    return model, [
        ('forward kinematics, all links', lambda: model.forward_kinematics(q),
         lambda: pin_fk(qp), lambda: model.forward_kinematics(qs), loop(pin_fk)),
        (f'Jacobian of {tip}', lambda: model.jacobian(q, tip, expressed_in=lwa),
         lambda: pin_jac(qp), lambda: model.jacobian(qs, tip, expressed_in=lwa),
         loop(pin_jac)),
        ('center of mass', lambda: model.center_of_mass(q), lambda: pin_com(qp),
         lambda: model.center_of_mass(qs), loop(pin_com)),
    ]


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
    try:
        import pinocchio as pin
    except ImportError:
        print('pinocchio is needed for the comparison: pip install pin', file=sys.stderr)
        return 1
    robots_to_run = [('fk_arm (bundled)', robots.path('fk_arm'), 'tool0')]
    talos = robots.example_robot_data('talos_data/robots/talos_reduced.urdf')
    if talos:
        robots_to_run.append(('talos_reduced (humanoid)', talos, 'gripper_left_base_link'))
    print(f'| robot | quantity | ours 1 cfg (us) | Pinocchio 1 cfg (us) | ratio | '
          f'ours batch {args.batch} (us/cfg) | Pinocchio loop (us/cfg) | ratio |')
    print('|---|---|---:|---:|---:|---:|---:|---:|')
    for label, path, tip in robots_to_run:
        model, cases = _cases(pin, path, tip, args.batch)
        for name, ours, theirs, ours_batch, theirs_batch in cases:
            one = _best(ours, 2000, args.repeat) * 1e6
            one_pin = _best(theirs, 2000, args.repeat) * 1e6
            many = _best(ours_batch, 3, args.repeat) * 1e6 / args.batch
            many_pin = _best(theirs_batch, 3, args.repeat) * 1e6 / args.batch
            print(f'| {label} ({model.nq} dof, {len(model.links)} links) | {name} | '
                  f'{one:.1f} | {one_pin:.2f} | {one / one_pin:.1f}x | {many:.2f} | '
                  f'{many_pin:.2f} | {many / many_pin:.2f}x |')
    return 0


if __name__ == '__main__':
    sys.exit(main())
