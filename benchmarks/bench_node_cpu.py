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
CPU of the node against robot_state_publisher on the same joint_states stream (needs ROS 2).

Starts ``robot_state_publisher`` and ``frame_kinematics_node`` side by side on one robot
(``/tf`` remapped to ``/tf_rsp`` and ``/tf_fk``), publishes ``joint_states`` for every joint
at ``--rate`` Hz (a smooth sweep, stamped with the clock), and measures over ``--seconds``:
each node's CPU (user + system time from ``/proc/<pid>/stat``, as a share of one core) and the
``/tf`` messages each one published per second, and the ratios of the node to
robot_state_publisher. Each ``--publish-frequency`` given is measured in turn in one run (by
default the throttle, 20 Hz, then every message, 0). With ``--floor``, a third process, the
rclpy floor, takes the same stream one executor wake-up per message with a callback that only
counts (:func:`count`): what rclpy's public API costs before a node does anything. The CPU
per message divides a process's CPU by the messages it published (the floor: took), which a
loaded machine distorts less than the shares.

The instrument must not be what limits the nodes: the publisher and one counter per ``/tf``
topic run in processes of their own (``--nice``: their niceness, -5 by default, so that a
busy machine slows the nodes under test, not the instrument), the counters subscribe best
effort, so that a reliable ``/tf`` writer never waits for them, and take their queue in
batches, so that they cost little.

Run, in a sourced ROS 2 environment where ``frame_kinematics_interfaces`` is built:
``python3 benchmarks/bench_node_cpu.py [--robot talos|pr2] [--rate 1000] [--seconds 10]
[--publish-frequency 20 0] [--tf-serialization messages|cdr]
[--joint-states-serialization messages|cdr] [--joint-states-intake batches|executor]
[--floor]``. Prints a markdown table.
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
from frame_kinematics.demo_joint_states import Sweep
from node_process import start, stop

URDFS = {'talos': 'talos_data/robots/talos_reduced.urdf',
         'pr2': 'pr2_description/urdf/pr2.urdf', 'ur5': 'ur_description/urdf/ur5_robot.urdf'}
TICKS = os.sysconf('SC_CLK_TCK')
FLOOR = 'rclpy floor (raw subscription, counting callback)'


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    with open(f'/proc/{pid}/stat') as handle:
        fields = handle.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def params_file(directory: str, name: str, urdf: str, frequency: float,
                extra: str = '') -> str:
    """Write a params file with the URDF as a YAML block string (``extra``: more lines)."""
    path = os.path.join(directory, f'{name}.yaml')
    body = '\n'.join('      ' + line for line in urdf.splitlines())
    with open(path, 'w') as handle:
        handle.write(f'{name}:\n  ros__parameters:\n    publish_frequency: {frequency}\n'
                     f'{extra}    robot_description: |\n{body}\n')
    return path


def main() -> None:
    """Run the measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--robot', default='talos', choices=sorted(URDFS))
    parser.add_argument('--urdf', help='URDF file of --robot (default: from example-robot-data)')
    parser.add_argument('--rate', type=float, default=1000.0)
    parser.add_argument('--seconds', type=float, default=10.0)
    parser.add_argument('--warmup', type=float, default=4.0)
    parser.add_argument('--publish-frequency', type=float, nargs='+', default=[20.0, 0.0])
    parser.add_argument('--tf-serialization', choices=('messages', 'cdr'),
                        help="the node's parameter (default: the node's default)")
    parser.add_argument('--joint-states-serialization', choices=('messages', 'cdr'),
                        help="the node's parameter (default: the node's default)")
    parser.add_argument('--joint-states-intake', choices=('batches', 'executor'),
                        help="the node's parameter (default: the node's default)")
    parser.add_argument('--floor', action='store_true',
                        help="also measure rclpy's floor (a third process on the stream)")
    parser.add_argument('--nice', type=int, default=-5,
                        help='niceness of the publisher and counter processes')
    parser.add_argument('--role', choices=('publish', 'count'), help=argparse.SUPPRESS)
    parser.add_argument('--topic', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == 'publish':
        return publish(args)
    if args.role == 'count':
        return count(args.topic)
    rows = [measure(args, frequency) for frequency in args.publish_frequency]
    print(f'{args.robot}, joint_states at {args.rate:g} Hz, {args.seconds:g} s each, '
          f'tf_serialization {args.tf_serialization or "(default)"}, '
          f'joint_states_serialization {args.joint_states_serialization or "(default)"}, '
          f'joint_states_intake {args.joint_states_intake or "(default)"}')
    print('| publish_frequency | node | CPU (% of a core) | /tf messages per second (floor: '
          'joint_states taken) | CPU us per message | joint_states sent per second |')
    print('|---|---|---|---|---|---|')
    for frequency, sent, results in rows:
        for key, (share, rate) in results.items():
            per_message = 1e4 * share / max(rate, 1e-9)
            print(f'| {frequency:g} | {key} | {share:.1f} | {rate:.0f} | {per_message:.0f} | '
                  f'{sent:.0f} |')
        (rsp_cpu, rsp_tf), (fk_cpu, fk_tf) = list(results.values())[:2]
        print(f'| {frequency:g} | ratio node / robot_state_publisher | '
              f'{fk_cpu / max(rsp_cpu, 1e-9):.2f} | {fk_tf / max(rsp_tf, 1e-9):.3f} | | |')


def urdf_text(args) -> str:
    """Return the URDF of ``--robot`` (or ``--urdf``)."""
    path = args.urdf or robots.example_robot_data(URDFS[args.robot])
    if path is None:
        sys.exit(f'{URDFS[args.robot]} (example-robot-data) not found')
    with open(path) as handle:
        return handle.read()


def publish(args) -> None:
    """Publish ``joint_states`` at ``--rate`` until stdin closes (the publisher process)."""
    import rclpy
    from sensor_msgs.msg import JointState

    sweep = Sweep(Robot.from_urdf_string(urdf_text(args)), 10.0)
    rclpy.init()
    node = rclpy.create_node('bench_node_cpu_joint_states')
    publisher = node.create_publisher(JointState, 'joint_states', 1000)
    stop_flag = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop_flag.set()), daemon=True).start()
    msg = JointState()
    msg.name = list(sweep.names)
    period = 1.0 / args.rate
    start_time = time.monotonic()
    next_time = start_time
    sent = 0
    while not stop_flag.is_set():
        positions, _ = sweep(time.monotonic() - start_time)
        msg.header.stamp = node.get_clock().now().to_msg()
        msg.position = positions.tolist()
        publisher.publish(msg)
        sent += 1
        next_time += period
        delay = next_time - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    print(sent / (time.monotonic() - start_time), flush=True)
    node.destroy_node()
    rclpy.try_shutdown()


def count(topic: str) -> None:
    """
    Count the messages of a ``/tf`` topic, or of ``joint_states`` (the rclpy floor).

    Each line read from stdin is answered with the count so far; the process ends when stdin
    closes. A ``/tf`` counter takes the messages queued behind each wake-up too
    (:func:`~frame_kinematics.ros.tf_path.queue_taker`), so that it is cheap enough not to be
    what limits a busy machine. On ``joint_states`` it takes the stream as the node's ``/tf``
    path does with ``joint_states_intake: executor`` (a raw subscription with sensor-data QoS
    alone on its node, spun by a :class:`~rclpy.executors.SingleThreadedExecutor` in a thread
    of its own, one wake-up per message) with a callback that only counts: what rclpy's public
    API costs before the node does anything.
    """
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.qos import qos_profile_sensor_data, QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage
    from frame_kinematics.ros.tf_path import queue_taker

    rclpy.init()
    node = rclpy.create_node('bench_node_cpu_count')
    counts = [0]
    queue = []

    def counter(_msg) -> None:
        counts[0] += 1
        while queue and queue[0]() is not None:
            counts[0] += 1

    # raw: counting must not cost a deserialization of every message; best effort: the /tf
    # writer never waits for this reader
    if topic == 'joint_states':
        node.create_subscription(JointState, topic, counter, qos_profile_sensor_data, raw=True)
    else:
        subscription = node.create_subscription(TFMessage, topic, counter, QoSProfile(
            depth=1000, reliability=ReliabilityPolicy.BEST_EFFORT), raw=True)
        queue.extend(filter(None, [queue_taker(subscription)]))
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    threading.Thread(target=executor.spin, daemon=True).start()
    for _ in sys.stdin:
        print(counts[0], flush=True)
    executor.shutdown()
    node.destroy_node()
    rclpy.try_shutdown()


def helper(args, nice: int, *extra: str) -> subprocess.Popen:
    """Start this script in a role of its own (publisher or counter) at a niceness."""
    command = [sys.executable, os.path.abspath(__file__), '--robot', args.robot,
               '--rate', str(args.rate)] + (['--urdf', args.urdf] if args.urdf else [])
    return subprocess.Popen(command + list(extra), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: os.nice(nice))


def ask(process: subprocess.Popen) -> int:
    """Return the count of a counter process now."""
    process.stdin.write('\n')
    process.stdin.flush()
    return int(process.stdout.readline())


def measure(args, frequency: float):
    """Run both nodes at one publish frequency; return ``(frequency, sent/s, results)``."""
    from ament_index_python.packages import get_package_prefix

    urdf = urdf_text(args)
    rsp = os.path.join(get_package_prefix('robot_state_publisher'), 'lib',
                       'robot_state_publisher', 'robot_state_publisher')
    with tempfile.TemporaryDirectory() as directory:
        rsp_params = params_file(directory, 'rsp_bench', urdf, frequency)
        extra = ''.join(f'    {name}: {value}\n' for name, value in (
            ('tf_serialization', args.tf_serialization),
            ('joint_states_serialization', args.joint_states_serialization),
            ('joint_states_intake', args.joint_states_intake)) if value)
        fk_params = params_file(directory, 'fk_bench', urdf, frequency, extra)
        processes = {
            'robot_state_publisher': start([rsp, '--ros-args', '-r', '__node:=rsp_bench',
                                            '--params-file', rsp_params, '-r', '/tf:=/tf_rsp']),
            'frame_kinematics_node': start([sys.executable, '-m', 'frame_kinematics.node',
                                            '--ros-args', '-r', '__node:=fk_bench',
                                            '--params-file', fk_params, '-r', '/tf:=/tf_fk']),
        }
        if args.floor:  # at the nodes' niceness: it stands for the node's /tf path
            processes[FLOOR] = helper(args, 0, '--role', 'count', '--topic', 'joint_states')
        counters = {'robot_state_publisher': helper(args, args.nice, '--role', 'count',
                                                    '--topic', '/tf_rsp'),
                    'frame_kinematics_node': helper(args, args.nice, '--role', 'count',
                                                    '--topic', '/tf_fk'),
                    **({FLOOR: processes[FLOOR]} if args.floor else {})}
        publisher = helper(args, args.nice, '--role', 'publish')
        try:
            time.sleep(args.warmup)
            cpu0 = {k: cpu_seconds(p.pid) for k, p in processes.items()}
            tf0 = {k: ask(c) for k, c in counters.items()}
            t0 = time.monotonic()
            time.sleep(args.seconds)
            elapsed = time.monotonic() - t0
            cpu1 = {k: cpu_seconds(p.pid) for k, p in processes.items()}
            tf1 = {k: ask(c) for k, c in counters.items()}
        finally:
            sent = float(publisher.communicate('')[0] or 0.0)
            for counter in counters.values():
                counter.communicate('')
            for process in processes.values():
                stop(process)
    return frequency, sent, {key: (100.0 * (cpu1[key] - cpu0[key]) / elapsed,
                                   (tf1[key] - tf0[key]) / elapsed) for key in processes}


if __name__ == '__main__':
    main()
