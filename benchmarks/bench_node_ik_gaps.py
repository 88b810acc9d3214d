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
Gaps in ``/tf`` while ``compute_ik`` requests run back to back (needs ROS 2).

Starts ``frame_kinematics_node`` on one robot, publishes ``joint_states`` at ``--rate`` Hz
(stamped with the clock), and sends ``compute_ik`` requests for an unreachable target
(``timeout`` 1 s: the solver runs to its iteration cap) one after the other for
``--seconds``. Prints, without and with the requests, the ``/tf`` rate of the first joint's
child link, the largest gap between two of them as received, the largest gap between their
stamps (gaps of the publisher itself) and the delay from a message's stamp to its ``/tf``.

Run, in a sourced ROS 2 environment where ``frame_kinematics_interfaces`` is built:
``python3 benchmarks/bench_node_ik_gaps.py [--robot ur5|talos|fk_arm] [--rate 100]
[--publish-frequency 0] [--seconds 8]``.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time

from frame_kinematics import robots
from frame_kinematics.core import Robot
from node_process import stop
import numpy as np

URDFS = {'ur5': 'ur_description/urdf/ur5_robot.urdf',
         'talos': 'talos_data/robots/talos_reduced.urdf'}
TIPS = {'fk_arm': 'tool0', 'ur5': 'tool0', 'talos': 'gripper_left_base_link'}


def summary(times, stamps, delays, start, end):
    """Rate, largest gap as received, largest stamp gap and delays of a window."""
    t, s, d = times[start:end], stamps[start:end], delays[start:end]
    gaps = np.diff(t)
    return (f'/tf {len(t) / (t[-1] - t[0]):.0f}/s, largest gap {gaps.max() * 1e3:.1f} ms '
            f'(p99 {np.percentile(gaps, 99) * 1e3:.1f} ms), largest stamp gap '
            f'{np.diff(s).max() * 1e3:.1f} ms, stamp -> /tf median {np.median(d) * 1e3:.1f} '
            f'ms, max {max(d) * 1e3:.1f} ms')


def main() -> None:
    """Run the measurement and print it."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--robot', default='ur5', choices=sorted(TIPS))
    parser.add_argument('--rate', type=float, default=100.0)
    parser.add_argument('--publish-frequency', type=float, default=0.0)
    parser.add_argument('--seconds', type=float, default=8.0)
    args = parser.parse_args()
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage
    from frame_kinematics_interfaces.srv import ComputeIK

    path = robots.path('fk_arm') if args.robot == 'fk_arm' else \
        robots.example_robot_data(URDFS[args.robot])
    if path is None:
        sys.exit(f'{URDFS[args.robot]} (example-robot-data) not found')
    with open(path) as handle:
        urdf = handle.read()
    model = Robot.from_urdf_string(urdf)
    with tempfile.TemporaryDirectory() as directory:
        params = os.path.join(directory, 'params.yaml')
        body = '\n'.join('      ' + line for line in urdf.splitlines())
        with open(params, 'w') as handle:
            handle.write(f'ik_gaps_node:\n  ros__parameters:\n'
                         f'    publish_frequency: {args.publish_frequency}\n'
                         f'    robot_description: |\n{body}\n')
        node_process = subprocess.Popen(
            [sys.executable, '-m', 'frame_kinematics.node', '--ros-args', '-r',
             '__node:=ik_gaps_node', '--params-file', params],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        rclpy.init()
        node = rclpy.create_node('bench_node_ik_gaps')
        times, stamps, delays = [], [], []
        watched = model.joint(model.joint_names[0]).child

        def on_tf(msg):
            for t in msg.transforms:
                if t.child_frame_id == watched:
                    stamp = t.header.stamp.sec + 1e-9 * t.header.stamp.nanosec
                    times.append(time.monotonic())
                    stamps.append(stamp)
                    delays.append(node.get_clock().now().nanoseconds * 1e-9 - stamp)
                    return

        node.create_subscription(TFMessage, '/tf', on_tf, 1000)
        publisher = node.create_publisher(JointState, 'joint_states', 100)
        client = node.create_client(ComputeIK, 'ik_gaps_node/compute_ik')
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        spinner = threading.Thread(target=executor.spin, daemon=True)
        spinner.start()
        done = threading.Event()

        def publish():
            msg = JointState()
            msg.name = [j.name for j in model.actuated_joints if j.nq == 1]
            k, next_time = 0, time.monotonic()
            while not done.is_set():
                k += 1
                msg.header.stamp = node.get_clock().now().to_msg()
                msg.position = [0.001 * (k % 1000)] * len(msg.name)
                publisher.publish(msg)
                next_time += 1.0 / args.rate
                delay = next_time - time.monotonic()
                if delay > 0:
                    time.sleep(delay)

        pub_thread = threading.Thread(target=publish, daemon=True)
        try:
            while not client.service_is_ready():
                time.sleep(0.1)
            pub_thread.start()
            time.sleep(2.0)
            n0 = len(times)
            time.sleep(2.0)
            n1 = len(times)
            request = ComputeIK.Request()
            request.tip_link = TIPS[args.robot]
            request.target.header.frame_id = model.root_link
            request.target.pose.position.x = 5.0
            request.timeout = 1.0
            answers, start = [], time.monotonic()
            while time.monotonic() - start < args.seconds:
                future = client.call_async(request)
                while not future.done():
                    time.sleep(0.001)
                answers.append(future.result().message)
            n2 = len(times)
        finally:
            done.set()
            if pub_thread.is_alive():
                pub_thread.join()
            executor.shutdown()
            spinner.join(timeout=5)
            node.destroy_node()
            rclpy.try_shutdown()
            stop(node_process)
    print(f'{args.robot}: joint_states {args.rate:g} Hz, publish_frequency '
          f'{args.publish_frequency:g}; {len(answers)} compute_ik requests in {args.seconds:g} s '
          f'("{answers[0][:40]}...")')
    print(f'  without requests: {summary(times, stamps, delays, n0, n1)}')
    print(f'  with requests:    {summary(times, stamps, delays, n1, n2)}')


if __name__ == '__main__':
    main()
