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
CPU of the node's ``joint_states`` callback alone, rclpy's executor left out (needs ROS 2).

Builds the node in this process (``robot_description`` and ``publish_frequency`` as
parameters, one best-effort ``/tf`` subscriber as in ``bench_node_cpu.py``), serializes a
1 kHz sweep of joint_states with rclpy, and hands the bytes to the node's callback one after
the other, the node clock following the stamps, so the throttle sees a 1 kHz stream. Reports
the CPU time (``time.process_time``) per message over ``--messages`` after as many warm-up
messages: reading, the bridge, ``/tf`` written and published. With ``bench_node_cpu.py``'s
rclpy floor (the executor's CPU per message) it splits the node's CPU into rclpy's and the
node's own; a loaded machine moves it much less than the side-by-side shares.

Run, in a sourced ROS 2 environment where ``frame_kinematics_interfaces`` is built:
``python3 benchmarks/bench_node_callback.py [--robot talos|pr2] [--urdf PATH]
[--publish-frequency 20 0] [--messages 3000]``. Prints a markdown table.
"""

import argparse
import time

from bench_node_cpu import urdf_text, URDFS
from frame_kinematics.core import RobotModel
from frame_kinematics.demo_joint_states import Sweep


def main() -> None:
    """Run the measurement and print the table."""
    import rclpy
    from rclpy.parameter import Parameter
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from rclpy.serialization import serialize_message
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage

    from frame_kinematics.node import FrameKinematicsNode

    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--robot', default='talos', choices=sorted(URDFS))
    parser.add_argument('--urdf', help='URDF file of --robot (default: from example-robot-data)')
    parser.add_argument('--publish-frequency', type=float, nargs='+', default=[20.0, 0.0])
    parser.add_argument('--messages', type=int, default=3000)
    args = parser.parse_args()
    urdf = urdf_text(args)
    sweep = Sweep(RobotModel.from_urdf_string(urdf), 10.0)
    rclpy.init()
    print(f'{args.robot}: CPU of the joint_states callback per message, executor excluded')
    print('| publish_frequency | backend | CPU us per message |')
    print('|---|---|---|')
    for frequency in args.publish_frequency:
        node = FrameKinematicsNode(parameter_overrides=[
            Parameter('robot_description', value=urdf),
            Parameter('publish_frequency', value=frequency)])
        node.bridge.wait_compiled(120.0)
        listener = rclpy.create_node('bench_node_callback_tf')
        listener.create_subscription(TFMessage, '/tf', lambda _msg: None, QoSProfile(
            depth=10, reliability=ReliabilityPolicy.BEST_EFFORT), raw=True)
        start = node.get_clock().now().nanoseconds
        stamps = [start + k * 1_000_000 for k in range(2 * args.messages)]
        messages = []
        for k, stamp in enumerate(stamps):
            msg = JointState(name=list(sweep.names), position=sweep(k * 1e-3)[0].tolist())
            msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp, 1_000_000_000)
            messages.append(serialize_message(msg))
        clock = [start]
        node._now = lambda: clock[0]  # the node clock follows the stamps
        cpu = 0.0
        for k, data in enumerate(messages):
            if k == args.messages:
                cpu = time.process_time()
            clock[0] = stamps[k]
            node._on_joint_state(data)
        cpu = time.process_time() - cpu
        print(f'| {frequency:g} | {node.bridge.model.backend} | '
              f'{1e6 * cpu / args.messages:.0f} |')
        listener.destroy_node()
        node.destroy_node()
    rclpy.try_shutdown()


if __name__ == '__main__':
    main()
