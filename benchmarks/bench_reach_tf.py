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
Where the node runs a reach study: in a thread of its own or in a child process.

A ticker thread stands for the node's ``/tf`` path: every 10 ms it computes the forward
kinematics of the bundled arm, as the path does for a ``joint_states`` message. Beside it, a
study of the same targets runs once in a thread of this process (``run_study``) and once in a
child process (:class:`frame_kinematics.bridge.reach_job.ReachJob`, as the node runs it). The
ticker's intervals show how long the path waits; Python's switch interval is the node's.

    FRAME_KINEMATICS_BACKEND=numpy python3 benchmarks/bench_reach_tf.py --step 0.1 --so3 4
"""

import argparse
import sys
import tempfile
import threading
import time

from frame_kinematics import robots
from frame_kinematics.bridge.reach_goal import ReachGoal, study_request
from frame_kinematics.bridge.reach_job import ReachStudies
from frame_kinematics.core import RobotModel
from frame_kinematics.core.reach import run_study
import numpy as np

TICK = 0.01
#: The node's switch interval (``frame_kinematics.node.GIL_SWITCH_INTERVAL``; it imports rclpy).
GIL_SWITCH_INTERVAL = 0.001


def ticker(model: RobotModel, stop: threading.Event, intervals: list) -> None:
    """Tick every 10 ms with one forward kinematics until ``stop``."""
    q = np.zeros(model.nq)
    last = time.perf_counter()
    while not stop.is_set():
        time.sleep(TICK)
        model.forward_kinematics(q)
        now = time.perf_counter()
        intervals.append(now - last)
        last = now


def measure(model: RobotModel, study) -> tuple:
    """Run ``study()`` beside the ticker; return its seconds and the tick intervals."""
    stop, intervals = threading.Event(), []
    thread = threading.Thread(target=ticker, args=(model, stop, intervals))
    thread.start()
    start = time.perf_counter()
    study()
    elapsed = time.perf_counter() - start
    stop.set()
    thread.join()
    return elapsed, np.array(intervals)


def main() -> None:
    """Measure both ways and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--step', type=float, default=0.1, help='grid step (m)')
    parser.add_argument('--so3', type=int, default=4, help='orientations per point')
    args = parser.parse_args()
    sys.setswitchinterval(GIL_SWITCH_INTERVAL)
    model = RobotModel.from_urdf_file(robots.path())
    model.forward_kinematics(np.zeros(model.nq))
    goal = ReachGoal(box=(-0.8, -0.8, 0.0, 0.8, 0.8, 0.8), step=args.step,
                     so3_count=args.so3, output='study.npz')
    with tempfile.TemporaryDirectory() as folder:
        request, targets = study_request(goal, model, folder)

        def in_thread() -> None:
            worker = threading.Thread(target=run_study, args=(model, 'tool0', targets))
            worker.start()
            worker.join()

        def in_process() -> None:
            studies = ReachStudies()
            studies.reserve()
            studies.start(request, model.urdf, 'base_link', 0, lambda _: None,
                          lambda _: None).join()

        print(f'{len(targets)} targets, backend {model.backend}, tick {TICK * 1e3:.0f} ms')
        for name, study in (('thread', in_thread), ('child process', in_process)):
            elapsed, intervals = measure(model, study)
            print(f'{name:>14}: study {elapsed:.1f} s, ticks {len(intervals)}, interval p99 '
                  f'{np.percentile(intervals, 99) * 1e3:.1f} ms, worst '
                  f'{intervals.max() * 1e3:.1f} ms, over 50 ms: '
                  f'{int(np.sum(intervals > 0.05))}')


if __name__ == '__main__':
    main()
