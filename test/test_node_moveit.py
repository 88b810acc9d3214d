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
MoveIt's /compute_ik and /compute_fk on the real node, called as MoveIt's tutorials call them.

Needs a ROS 2 installation with ``moveit_msgs`` and this package installed, and the Panda of
``shared/data/moveit_resources``; skipped without. Every DDS participant stays on the loopback
interface, in a domain of its own.
"""

import os
import shutil
import subprocess
import tempfile
import threading
import time

from conftest import moveit_resource
from frame_kinematics.core import Robot
from frame_kinematics.core.spatial import quaternion_from_rotation, rotation_from_quaternion
import numpy as np
import pytest
from ros_testing import (context_fixture, loopback_fixture, needs_workspace, node_executable,
                         spin_until, stop_group)

rclpy = pytest.importorskip('rclpy')
executors = pytest.importorskip('rclpy.executors')
moveit_srv = pytest.importorskip('moveit_msgs.srv')
moveit_msg = pytest.importorskip('moveit_msgs.msg')
sensor_msgs = pytest.importorskip('sensor_msgs.msg')
tf2_msgs = pytest.importorskip('tf2_msgs.msg')

loopback = loopback_fixture()
context = context_fixture()
pytestmark = needs_workspace()


TIMEOUT = 30.0
ARM = [f'panda_joint{i}' for i in range(1, 8)]
READY = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
Codes = moveit_msg.MoveItErrorCodes


def _block(text, indent):
    return '\n'.join(' ' * indent + line for line in text.splitlines())


class Client:
    """A client node in the style of MoveIt's tutorials, with a joint_states publisher."""

    def __init__(self):
        self.node = rclpy.create_node('moveit_style_client')
        self.executor = executors.SingleThreadedExecutor()
        self.executor.add_node(self.node)
        self.ik = self.node.create_client(moveit_srv.GetPositionIK, '/compute_ik')
        self.fk = self.node.create_client(moveit_srv.GetPositionFK, '/compute_fk')
        self.joints = self.node.create_publisher(sensor_msgs.JointState, 'joint_states', 10)

    def call(self, client, request):
        assert spin_until(self.executor, client.service_is_ready, TIMEOUT), 'no service'
        future = client.call_async(request)
        assert spin_until(self.executor, future.done, TIMEOUT), 'no answer'
        return future.result()

    def publish(self, names, positions):
        msg = sensor_msgs.JointState()
        msg.header.stamp = self.node.get_clock().now().to_msg()
        msg.name, msg.position = list(names), [float(p) for p in positions]
        self.joints.publish(msg)


@pytest.fixture(scope='module')
def panda():
    with open(moveit_resource('panda_description/urdf/panda.urdf')) as handle:
        urdf = handle.read()
    with open(moveit_resource('panda_moveit_config/config/panda.srdf')) as handle:
        srdf = handle.read()
    directory = tempfile.mkdtemp()
    params = os.path.join(directory, 'params.yaml')
    with open(params, 'w') as handle:
        handle.write('/**:\n  ros__parameters:\n    publish_frequency: 0.0\n'
                     f'    robot_description: |\n{_block(urdf, 6)}\n'
                     f'    robot_description_semantic: |\n{_block(srdf, 6)}\n')
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([node_executable(), '--ros-args', '--params-file', params],
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                               env=dict(os.environ, FRAME_KINEMATICS_BACKEND='numpy'))
    rclpy.init()
    client = Client()
    try:
        client.model = Robot.from_urdf_string(urdf)
        assert spin_until(client.executor, lambda: client.ik.service_is_ready()
                          and client.fk.service_is_ready(), TIMEOUT), 'the node did not come up'
        for _ in range(5):
            client.publish(ARM + ['panda_finger_joint1'], READY + [0.01])
            client.executor.spin_once(timeout_sec=0.1)
        yield client
    finally:
        client.executor.shutdown()
        client.node.destroy_node()
        rclpy.try_shutdown()
        stop_group(process)
        log.seek(0)
        print(log.read().decode(errors='replace')[-5000:])
        log.close()
        shutil.rmtree(directory)


def _q(model, values):
    q = model.neutral_configuration()
    for name, value in zip(ARM, values):
        q[model.joint(name).idx_q] = value
    return q


def _ik_request(pose_matrix, group='panda_arm', link='', timeout=1.0, frame='world'):
    request = moveit_srv.GetPositionIK.Request()
    ik = request.ik_request
    ik.group_name = group
    ik.ik_link_name = link
    ik.pose_stamped.header.frame_id = frame
    p = ik.pose_stamped.pose.position
    p.x, p.y, p.z = pose_matrix[:3, 3].tolist()
    o = ik.pose_stamped.pose.orientation
    o.x, o.y, o.z, o.w = quaternion_from_rotation(pose_matrix[:3, :3]).tolist()
    ik.timeout.sec = int(timeout)
    ik.timeout.nanosec = int(round((timeout - int(timeout)) * 1e9))
    return request


def test_compute_fk_answers_the_core_pose_in_the_model_frame(panda):
    values = [0.3, -0.2, 0.1, -1.9, 0.2, 1.4, 0.5]
    request = moveit_srv.GetPositionFK.Request()
    request.header.frame_id = 'world'
    request.fk_link_names = ['panda_link8', 'panda_hand']
    request.robot_state.joint_state.name = ARM
    request.robot_state.joint_state.position = values
    answer = panda.call(panda.fk, request)
    assert answer.error_code.val == Codes.SUCCESS
    assert list(answer.fk_link_names) == ['panda_link8', 'panda_hand']
    state = panda.model.forward_kinematics(_q(panda.model, values))
    for link, pose in zip(answer.fk_link_names, answer.pose_stamped):
        assert pose.header.frame_id == 'world'
        p, o = pose.pose.position, pose.pose.orientation
        expected = state.transform(link)
        np.testing.assert_allclose([p.x, p.y, p.z], expected[:3, 3], atol=1e-12)
        np.testing.assert_allclose(rotation_from_quaternion(np.array([o.x, o.y, o.z, o.w])),
                                   expected[:3, :3], atol=1e-12)
    request.fk_link_names = ['panda_link8', 'no_such_link']
    answer = panda.call(panda.fk, request)
    assert answer.error_code.val == Codes.INVALID_LINK_NAME
    assert list(answer.fk_link_names) == ['panda_link8']


def test_compute_ik_solution_meets_the_target(panda):
    goal = _q(panda.model, [0.4, -0.5, 0.2, -2.0, 0.1, 1.8, 0.3])
    target = panda.model.forward_kinematics(goal).transform('panda_link8')
    answer = panda.call(panda.ik, _ik_request(target))
    assert answer.error_code.val == Codes.SUCCESS
    solution = dict(zip(answer.solution.joint_state.name, answer.solution.joint_state.position))
    q = _q(panda.model, [solution[name] for name in ARM])
    reached = panda.model.forward_kinematics(q).transform('panda_link8')
    np.testing.assert_allclose(reached, target, atol=1e-4)


def test_compute_ik_error_codes_match_move_groups(panda):
    target = panda.model.forward_kinematics(_q(panda.model, READY)).transform('panda_link8')
    far = np.eye(4)
    far[:3, 3] = (3.0, 0.0, 0.0)
    cases = [(_ik_request(target, group='no_group'), Codes.INVALID_GROUP_NAME),
             (_ik_request(target, link='no_such_link'), Codes.NO_IK_SOLUTION),
             (_ik_request(far, timeout=0.2), Codes.NO_IK_SOLUTION),
             (_ik_request(far, timeout=1e-6), Codes.NO_IK_SOLUTION),
             (_ik_request(target, frame='mars'), Codes.FRAME_TRANSFORM_FAILURE)]
    for request, code in cases:
        assert panda.call(panda.ik, request).error_code.val == code


def test_tf_keeps_its_rate_while_ik_calls_run_back_to_back(panda):
    received = []
    sub = panda.node.create_subscription(tf2_msgs.TFMessage, '/tf',
                                         lambda msg: received.append(time.monotonic()), 100)
    far = np.eye(4)
    far[:3, 3] = (3.0, 0.0, 0.0)
    stop = threading.Event()
    published = []  # when each joint_states message was sent

    def joint_states():
        k = 0
        while not stop.is_set():
            k += 1
            panda.publish(ARM, [v + 1e-4 * k for v in READY])
            published.append(time.monotonic())
            time.sleep(0.01)

    publisher = threading.Thread(target=joint_states)
    publisher.start()
    try:
        start = time.monotonic()
        for _ in range(3):
            assert panda.call(panda.ik, _ik_request(far, timeout=0.5)).error_code.val == \
                Codes.NO_IK_SOLUTION
        end = time.monotonic()
    finally:
        stop.set()
        publisher.join()
        panda.node.destroy_subscription(sub)
    sent = sum(start <= t <= end for t in published)
    got = [t for t in received if start <= t <= end]
    print(f'\n3 compute_ik calls in {end - start:.2f} s; {sent} joint_states, {len(got)} /tf '
          f'messages, longest gap {1e3 * np.diff([start] + got + [end]).max():.1f} ms')
    # one /tf message per joint_states message (publish_frequency 0): a node that waited for
    # the solver would publish none while a call ran, a third of the window at least
    assert sent > 0 and len(got) >= sent / 2


def test_a_response_that_cannot_be_filled_is_answered_as_a_failure(context, monkeypatch):
    node_module = pytest.importorskip('frame_kinematics.node')
    parameter = pytest.importorskip('rclpy.parameter')
    with open(moveit_resource('panda_description/urdf/panda.urdf')) as handle:
        urdf = handle.read()
    filled = node_module.fill_position_fk_response
    calls = []

    def fill_once_badly(response, answer, *args):
        calls.append(answer.error_code)
        if len(calls) == 1:  # the solved answer; the failure's answer is then filled
            raise AssertionError('a field refused its value')
        return filled(response, answer, *args)

    monkeypatch.setattr(node_module, 'fill_position_fk_response', fill_once_badly)
    node = node_module.FrameKinematicsNode(context=context, parameter_overrides=[
        parameter.Parameter('robot_description', value=urdf),
        parameter.Parameter('publish_frequency', value=0.0)])
    try:
        request = moveit_srv.GetPositionFK.Request()
        request.fk_link_names = ['panda_link8']
        response = node._on_position_fk(request, moveit_srv.GetPositionFK.Response())
    finally:
        node.destroy_node()
    assert calls == [Codes.SUCCESS, Codes.FAILURE]
    assert response.error_code.val == Codes.FAILURE
    assert list(response.fk_link_names) == [] and list(response.pose_stamped) == []
