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
Time to turn one joint_states message into the transforms to publish (no ROS needed).

For each robot and each kinematics backend (numpy, and numba when it is importable), one
message names every actuated joint with new values (positions and velocities); the bridge
validates it, stores it, decides to publish (``publish_frequency: 0``) and returns the joint
transforms plus the robot CoM frame. A second column adds the CoM topics (CoM velocity and
centroidal angular momentum, which need every link's velocity). A third one is the message
that the default throttle (20 Hz) does not publish: validated and stored only, the cost of 49
messages in 50 at 1 kHz joint_states.
Beside it, the core's forward kinematics alone and Pinocchio's forward kinematics with frame
placements for the same robot and configurations, measured in the same run.

Run: ``python3 benchmarks/bench_bridge.py [--repeat 5] [--number 300]``. Prints a markdown
table: median over the repeats of the mean time per message.
"""

import argparse
import statistics
import sys
import time

from frame_kinematics import robots
from frame_kinematics.bridge import Bridge, BridgeSettings, JointStateInput
from frame_kinematics.core import backend as backends
import numpy as np
import steady_malloc

#: Targets of "message -> transforms" (us): issue 11's for the compiled backend, the
#: original ones for numpy.
TARGETS_US = {('fk_arm', 'numba'): 20.0, ('talos', 'numba'): 60.0,
              ('fk_arm', 'numpy'): 100.0, ('talos', 'numpy'): 500.0}


def messages(model, count, rng):
    """Messages naming every one-dof actuated joint, with random values within limits."""
    joints = [j for j in model.actuated_joints if j.nq == 1]
    lower = np.array([j.lower if np.isfinite(model.lower[j.idx_q]) else -np.pi for j in joints])
    upper = np.array([j.upper if np.isfinite(model.upper[j.idx_q]) else np.pi for j in joints])
    names = [j.name for j in joints]
    values = rng.uniform(lower, upper, size=(count, len(joints)))
    velocities = rng.normal(size=(count, len(joints)))
    return [JointStateInput(names, list(p), list(v), 1_000_000_000 + k)
            for k, (p, v) in enumerate(zip(values, velocities))]


def time_per_call(function, items, repeat):
    """Median over ``repeat`` runs of the mean seconds per call of ``function(item)``."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            function(item)
        runs.append((time.perf_counter() - start) / len(items))
    return statistics.median(runs)


def bridge_on(urdf, backend, settings=None):
    """Build a bridge on ``backend``, moved to the compiled one before it is timed."""
    bridge = Bridge(urdf, settings or BridgeSettings(), backend=backend)
    assert bridge.wait_compiled() == (backend == 'numba')
    return bridge


def bench(urdf, backend, repeat, number):
    """Measure one robot on ``backend``; return its numbers and the last messages."""
    rng = np.random.default_rng(0)
    timings = []
    throttled = bridge_on(urdf, backend)
    batch = messages(throttled.model, number, rng)
    throttled.on_joint_state(batch[0], 2_000_000_000)
    assert not throttled.on_joint_state(batch[1], 2_000_000_000).tf
    throttled_s = time_per_call(lambda m: throttled.on_joint_state(m, 2_000_000_000), batch,
                                repeat)
    for com_topics in (False, True):
        bridge = bridge_on(urdf, backend, BridgeSettings(publish_frequency=0.0,
                                                         publish_com_topics=com_topics))
        batch = messages(bridge.model, number, rng)
        out = bridge.on_joint_state(batch[0], 2_000_000_000)
        assert out.accepted and out.tf[-1].child == 'com'
        timings.append(time_per_call(lambda m: bridge.on_joint_state(m, 2_000_000_000),
                                     batch, repeat))
    model = bridge.model
    configurations = []
    for msg in batch:
        q = model.neutral_configuration()
        for joint, value in zip(msg.names, msg.positions):
            q[model.joint(joint).idx_q] = value
        configurations.append(q)
    core_s = time_per_call(model.forward_kinematics, configurations, repeat)
    return (model.backend, len(model.joint_names), len(out.tf), timings + [throttled_s],
            core_s, batch)


def bench_pinocchio(pin, path, batch, repeat):
    """Time Pinocchio's forward kinematics and frame placements on the same joint values."""
    pin_model = pin.buildModelFromUrdf(path)
    pin_data = pin_model.createData()
    order = [pin_model.joints[pin_model.getJointId(joint)].idx_q for joint in batch[0].names]
    pin_qs = []
    for msg in batch:
        q = pin.neutral(pin_model)
        q[order] = msg.positions
        pin_qs.append(q)

    def pin_fk(q):
        pin.forwardKinematics(pin_model, pin_data, q)
        pin.updateFramePlacements(pin_model, pin_data)

    return time_per_call(pin_fk, pin_qs, repeat)


def main():
    """Run the benchmark and print the markdown table."""
    steady_malloc.ensure()
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--number', type=int, default=300)
    args = parser.parse_args()
    cases = [('fk_arm', robots.path('fk_arm'))]
    path = robots.example_robot_data('talos_data/robots/talos_reduced.urdf')
    if path is None:
        print('talos_reduced.urdf (example-robot-data) not found: humanoid skipped',
              file=sys.stderr)
    else:
        cases.append(('talos', path))
    names = ['numpy']
    if backends.numba_error() is None:
        names.append('numba')
    else:
        print(f'{backends.numba_error()}: numba column skipped', file=sys.stderr)
    try:
        import pinocchio as pin
    except ImportError:
        pin = None
    print('| robot | backend | actuated joints | transforms per message '
          '| message -> transforms (us) | target (us) | + CoM velocity and momentum topics (us) '
          '| core FK alone (us) | throttled message (us) | Pinocchio FK + frame placements (us) '
          '| transforms / Pinocchio |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    # glibc's thresholds are fixed (steady_malloc): the order of the runs does not matter.
    for name, path in cases:
        with open(path) as handle:
            urdf = handle.read()
        rows = []
        for backend_name in names:
            rows.append(bench(urdf, backend_name, args.repeat, args.number))
        pin_s = None if pin is None else bench_pinocchio(pin, path, rows[0][-1], args.repeat)
        pin_text = 'n/a' if pin_s is None else f'{pin_s * 1e6:.1f}'
        for used, joints, n_tf, (tf_s, full_s, throttled_s), core_s, _ in rows:
            ratio = 'n/a' if pin_s is None else f'{tf_s / pin_s:.0f}x'
            print(f'| {name} | {used} | {joints} | {n_tf} | {tf_s * 1e6:.1f} | '
                  f'{TARGETS_US[name, used]:.0f} | {full_s * 1e6:.1f} | {core_s * 1e6:.1f} | '
                  f'{throttled_s * 1e6:.1f} | {pin_text} | {ratio} |')


if __name__ == '__main__':
    main()
