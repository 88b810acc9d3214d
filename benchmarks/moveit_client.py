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
Call /compute_fk and /compute_ik as MoveIt's tutorials do, and print the answers (needs ROS 2).

Works against move_group or frame_kinematics_node (with ``moveit_msgs`` installed and the
robot's SRDF in ``robot_description_semantic``). For the Panda of the MoveIt tutorials::

    python3 benchmarks/moveit_client.py --group panda_arm --link panda_link8 --frame world

It asks for the pose of ``--link`` at the current joint states (``/compute_fk``), then for a
configuration that places it 5 cm lower (``/compute_ik``), and prints both with their error
codes.
"""

import argparse
import sys


def main() -> int:
    """Run the two calls; return 0 when both succeed."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--group', default='panda_arm')
    parser.add_argument('--link', default='panda_link8')
    parser.add_argument('--frame', default='world')
    parser.add_argument('--timeout', type=float, default=0.1)
    args = parser.parse_args()
    import rclpy
    from moveit_msgs.srv import GetPositionFK, GetPositionIK

    rclpy.init()
    node = rclpy.create_node('moveit_client_example')
    try:
        fk_client = node.create_client(GetPositionFK, '/compute_fk')
        ik_client = node.create_client(GetPositionIK, '/compute_ik')
        for client in (fk_client, ik_client):
            if not client.wait_for_service(timeout_sec=10.0):
                print(f'{client.srv_name} is not available', file=sys.stderr)
                return 1
        fk = GetPositionFK.Request()
        fk.header.frame_id = args.frame
        fk.fk_link_names = [args.link]
        future = fk_client.call_async(fk)
        rclpy.spin_until_future_complete(node, future)
        fk_answer = future.result()
        print(f'compute_fk error code {fk_answer.error_code.val}')
        if fk_answer.error_code.val != 1:
            return 1
        pose = fk_answer.pose_stamped[0]
        print(f'{args.link} in {pose.header.frame_id}: {pose.pose}')
        ik = GetPositionIK.Request()
        ik.ik_request.group_name = args.group
        ik.ik_request.ik_link_name = args.link
        ik.ik_request.pose_stamped = pose
        ik.ik_request.pose_stamped.pose.position.z -= 0.05
        ik.ik_request.timeout.nanosec = int(args.timeout * 1e9)
        future = ik_client.call_async(ik)
        rclpy.spin_until_future_complete(node, future)
        ik_answer = future.result()
        print(f'compute_ik error code {ik_answer.error_code.val}')
        state = ik_answer.solution.joint_state
        for name, value in zip(state.name, state.position):
            print(f'  {name}: {value:.4f}')
        return 0 if ik_answer.error_code.val == 1 else 1
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    sys.exit(main())
