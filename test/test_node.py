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
The real node, started from the launch file (needs a ROS 2 installation; skipped without).

Every DDS participant stays on the loopback interface, in a domain of its own.
"""

import os
import select
import signal
import subprocess
import sys
import tempfile
import time

from conftest import ListLogger
from frame_kinematics import robots
from frame_kinematics.core import Robot
from frame_kinematics.core.spatial import rotation_from_quaternion
import numpy as np
import pytest
from ros_testing import (LAUNCH_STOP, loopback_fixture, needs_workspace, node_executable,
                         spin_until, stop_group)

rclpy = pytest.importorskip('rclpy')
executors = pytest.importorskip('rclpy.executors')
qos = pytest.importorskip('rclpy.qos')
rclpy_time = pytest.importorskip('rclpy.time')
tf2_ros = pytest.importorskip('tf2_ros')
interfaces = pytest.importorskip('frame_kinematics_interfaces.srv')
interface_msgs = pytest.importorskip('frame_kinematics_interfaces.msg')
packages = pytest.importorskip('ament_index_python.packages')
geometry_msgs = pytest.importorskip('geometry_msgs.msg')
rcl_msgs = pytest.importorskip('rcl_interfaces.msg')
rcl_srvs = pytest.importorskip('rcl_interfaces.srv')
sensor_msgs = pytest.importorskip('sensor_msgs.msg')
std_msgs = pytest.importorskip('std_msgs.msg')
tf2_msgs = pytest.importorskip('tf2_msgs.msg')

loopback = loopback_fixture()
pytestmark = needs_workspace()


ARM = open(robots.path('fk_arm')).read()
TIMEOUT = 30.0


class Harness:
    """A test node with an executor, a TF buffer and helpers that spin until done."""

    def __init__(self):
        self.node = rclpy.create_node('frame_kinematics_test')
        self.executor = executors.SingleThreadedExecutor()
        self.executor.add_node(self.node)
        self.buffer = tf2_ros.Buffer()
        self.listener = tf2_ros.TransformListener(self.buffer, self.node, spin_thread=False)
        self.joint_pub = self.node.create_publisher(sensor_msgs.JointState, 'joint_states', 10)
        self.clients = {
            'ik': self.node.create_client(interfaces.ComputeIK, 'frame_kinematics/compute_ik'),
            'jacobian': self.node.create_client(interfaces.GetJacobian, 'get_jacobian'),
            'relative': self.node.create_client(interfaces.GetRelativeMotion,
                                                'get_relative_motion'),
            'parameters': self.node.create_client(rcl_srvs.SetParameters,
                                                  'frame_kinematics/set_parameters'),
        }

    def spin_until(self, predicate, timeout=TIMEOUT):
        return spin_until(self.executor, predicate, timeout)

    def call(self, name, request):
        client = self.clients[name]
        assert self.spin_until(client.service_is_ready), f'service {name} is not offered'
        future = client.call_async(request)
        assert self.spin_until(future.done), f'service {name} did not answer'
        return future.result()

    def publish_joints(self, names, positions):
        msg = sensor_msgs.JointState()
        msg.header.stamp = self.node.get_clock().now().to_msg()
        msg.name = list(names)
        msg.position = [float(p) for p in positions]
        self.joint_pub.publish(msg)

    def close(self):
        self.executor.remove_node(self.node)
        self.executor.shutdown()
        self.node.destroy_node()


@pytest.fixture(scope='module')
def harness():
    config = os.path.join(packages.get_package_share_directory('frame_kinematics'), 'config',
                          'frame_kinematics.yaml')
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        ['ros2', 'launch', 'frame_kinematics', 'frame_kinematics.launch.py', 'rviz:=false',
         'demo:=false', 'params_file:=' + config],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=dict(os.environ))
    rclpy.init()
    h = Harness()
    try:
        assert h.spin_until(lambda: all(c.service_is_ready() for c in h.clients.values())), \
            'the node did not come up'
        h.process = process
        yield h
    finally:
        h.close()
        rclpy.try_shutdown()
        stop_group(process, LAUNCH_STOP)
        log.seek(0)
        print(log.read().decode(errors='replace')[-5000:])
        log.close()


def model():
    return Robot.from_urdf_string(ARM)


def test_robot_description_is_latched(harness):
    received = []
    latched = qos.QoSProfile(depth=1, durability=qos.DurabilityPolicy.TRANSIENT_LOCAL,
                             reliability=qos.ReliabilityPolicy.RELIABLE)
    sub = harness.node.create_subscription(std_msgs.String, 'robot_description',
                                           lambda m: received.append(m.data), latched)
    assert harness.spin_until(lambda: received)
    assert Robot.from_urdf_string(received[-1]).name == 'fk_arm'
    harness.node.destroy_subscription(sub)


def test_tf_root_to_tool0_matches_the_core(harness):
    arm = model()
    q = np.array([0.3, -0.8, 1.1, 0.2, -0.5, 0.7, 0.02])
    expected = arm.forward_kinematics(q).transform('tool0')
    assert _tool0_follows(harness, q)
    t = harness.buffer.lookup_transform('base_link', 'tool0', rclpy_time.Time())
    r = t.transform.rotation
    quat = np.array([r.x, r.y, r.z, r.w])
    np.testing.assert_allclose(rotation_from_quaternion(quat), expected[:3, :3], atol=1e-9)
    # the center-of-mass frame and topic follow
    com = harness.buffer.lookup_transform('base_link', 'com', rclpy_time.Time())
    c = com.transform.translation
    np.testing.assert_allclose([c.x, c.y, c.z], arm.center_of_mass(q)[1], atol=1e-9)


def test_com_topic(harness):
    received = []
    sub = harness.node.create_subscription(geometry_msgs.PointStamped, 'com', received.append, 10)
    arm = model()
    q = np.zeros(arm.nq)

    expected = arm.center_of_mass(q)[1]

    def got():  # messages of earlier joint values may still be on their way
        harness.publish_joints(arm.joint_names, q)
        return received and np.allclose([received[-1].point.x, received[-1].point.y,
                                         received[-1].point.z], expected, atol=1e-9)

    assert harness.spin_until(got), received[-1:] if received else 'no com message'
    assert received[-1].header.frame_id == 'base_link'
    harness.node.destroy_subscription(sub)


def test_jacobian_service(harness):
    arm = model()
    request = interfaces.GetJacobian.Request()
    request.link = 'tool0'
    request.expressed_in = 'local'
    q = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.01]
    request.joint_state.name = list(arm.joint_names)
    request.joint_state.position = q
    answer = harness.call('jacobian', request)
    assert answer.success, answer.message
    sizes = [d.size for d in answer.jacobian.layout.dim]
    assert sizes == [6, arm.nv]
    np.testing.assert_allclose(np.array(answer.jacobian.data).reshape(6, arm.nv),
                               arm.forward_kinematics(q).jacobian('tool0', None, 'local'),
                               atol=1e-12)
    request.link = 'no_such_link'
    answer = harness.call('jacobian', request)
    assert not answer.success and 'no_such_link' in answer.message


def test_ik_service(harness):
    arm = model()
    goal = arm.forward_kinematics([0.2, -0.6, 0.9, 0.1, 0.4, -0.3, 0.0]).transform('tool0')
    request = interfaces.ComputeIK.Request()
    request.tip_link = 'tool0'
    request.target.header.frame_id = 'base_link'
    p = request.target.pose.position
    p.x, p.y, p.z = goal[:3, 3].tolist()
    request.position_only = True
    request.timeout = 0.5
    answer = harness.call('ik', request)
    assert answer.success, answer.message
    reached = arm.forward_kinematics(np.array(answer.solution.position)).position('tool0')
    np.testing.assert_allclose(reached, goal[:3, 3], atol=1e-4)
    request.tip_link = 'no_such_tip'
    answer = harness.call('ik', request)
    assert not answer.success and 'no_such_tip' in answer.message


def test_relative_motion_service(harness):
    request = interfaces.GetRelativeMotion.Request()
    request.locked_joints = [interface_msgs.LockedJoint(joint='elbow_joint')]
    answer = harness.call('relative', request)
    assert answer.success, answer.message
    n = len(answer.index_names)
    matrix = np.array(answer.matrix.data).reshape(n, n)
    i, j = answer.index_names.index('elbow_joint'), answer.index_names.index(
        'shoulder_lift_joint')
    assert matrix[i, j] == interfaces.GetRelativeMotion.Response.CONSTRAINED
    request.locked_joints = [interface_msgs.LockedJoint(joint='ghost_joint')]
    answer = harness.call('relative', request)
    assert not answer.success and 'ghost_joint' in answer.message


def test_bad_joint_states_do_not_kill_the_node(harness):
    arm = model()
    bad = sensor_msgs.JointState()
    bad.header.stamp = harness.node.get_clock().now().to_msg()
    bad.name = ['elbow_joint', 'wrist_1_joint']
    bad.position = [float('nan'), 0.1]
    harness.joint_pub.publish(bad)
    bad.position = [0.1]
    harness.joint_pub.publish(bad)
    harness.publish_joints(['ghost_joint'], [1.0])
    harness.spin_until(lambda: False, timeout=1.0)
    assert harness.process.poll() is None
    request = interfaces.GetJacobian.Request()
    request.link = 'tool0'
    answer = harness.call('jacobian', request)
    assert answer.success, answer.message
    assert len(answer.joint_names) == arm.nv


def _height_is(harness, parent, child, z):
    """Return a condition: TF gives ``child`` at height ``z`` in ``parent`` (to 1e-12)."""
    def reached():
        try:
            t = harness.buffer.lookup_transform(parent, child, rclpy_time.Time())
        except tf2_ros.TransformException:
            return False
        return abs(t.transform.translation.z - z) < 1e-12
    return reached


def test_robot_description_parameter_updates(harness):
    def set_description(text):
        request = rcl_srvs.SetParameters.Request()
        request.parameters = [rcl_msgs.Parameter(
            name='robot_description', value=rcl_msgs.ParameterValue(
                type=rcl_msgs.ParameterType.PARAMETER_STRING, string_value=text))]
        return harness.call('parameters', request).results[0]

    result = set_description('<robot name="broken"><link')
    assert not result.successful and 'fk_arm' in result.reason
    moved = ARM.replace('<origin xyz="0 0 0.10" rpy="0 0 0"/>',
                        '<origin xyz="0 0 0.25" rpy="0 0 0"/>')
    assert set_description(moved).successful

    assert harness.spin_until(_height_is(harness, 'gripper_base_link', 'tool0', 0.25))
    assert set_description(ARM).successful


def test_a_tool_parameter_puts_the_tool_frame_on_tf(harness):
    request = rcl_srvs.SetParameters.Request()
    request.parameters = [_parameter('tools.tool0.xyz', [0.0, 0.0, 0.12])]
    result = harness.call('parameters', request).results[0]
    assert result.successful, result.reason

    assert harness.spin_until(_height_is(harness, 'tool0', 'tool0_tool', 0.12))


def _parameter(name, value):
    types = rcl_msgs.ParameterType
    if isinstance(value, str):
        return rcl_msgs.Parameter(name=name, value=rcl_msgs.ParameterValue(
            type=types.PARAMETER_STRING, string_value=value))
    if isinstance(value, list):
        return rcl_msgs.Parameter(name=name, value=rcl_msgs.ParameterValue(
            type=types.PARAMETER_DOUBLE_ARRAY, double_array_value=value))
    return rcl_msgs.Parameter(name=name, value=rcl_msgs.ParameterValue(
        type=types.PARAMETER_DOUBLE, double_value=value))


def _pose_is(harness, q, link, prefix=''):
    """Return a condition: TF gives the core's ``base_link -> link`` pose at ``q``."""
    expected = model().forward_kinematics(q).transform(link)

    def reached():
        try:
            t = harness.buffer.lookup_transform(prefix + 'base_link', prefix + link,
                                                rclpy_time.Time())
        except tf2_ros.TransformException:
            return False
        p, r = t.transform.translation, t.transform.rotation
        return np.allclose([p.x, p.y, p.z], expected[:3, 3], atol=1e-9) and np.allclose(
            rotation_from_quaternion([r.x, r.y, r.z, r.w]), expected[:3, :3], atol=1e-9)
    return reached


def _tool0_follows(harness, q):
    """Publish ``q`` until TF gives the core's ``base_link -> tool0`` pose for it."""
    names = model().joint_names
    reached = _pose_is(harness, q, 'tool0')
    return harness.spin_until(lambda: harness.publish_joints(names, q) or reached())


@pytest.mark.parametrize('name, value, fragment', [
    ('publish_frequency', 'fast', 'publish_frequency'),
    ('publish_frequency', 5e-324, '1e-09'),
    ('publish_frequency', 20.0, None),
    ('com.quaternion', 1.0, 'com.quaternion'),
    ('com.ypr', 1.0, 'com.ypr'),
    ('user_frames.names', 1.0, 'user_frames.names'),
    ('user_frames.cam.xyz', [], 'user_frames.cam.xyz'),
    ('tools.tool0.xyz', [], 'tools.tool0.xyz'),
    ('tools.nowhere.xyz', [0.0, 0.0, 0.1], "unknown link 'nowhere'"),
    ('world.xyz', 1.0, 'world.xyz'),
    ('publish_frequncy', 50.0, "parameter 'publish_frequncy' cannot be set because it was "
     'not declared'),
])
def test_bad_parameters_leave_the_node_publishing(harness, name, value, fragment):
    request = rcl_srvs.SetParameters.Request()
    request.parameters = [_parameter(name, value)]
    result = harness.call('parameters', request).results[0]
    if fragment is None:
        assert result.successful, result.reason
    else:
        assert not result.successful and fragment in result.reason, result.reason
    assert harness.process.poll() is None
    assert _tool0_follows(harness, np.full(model().nq, 0.1 + 0.01 * len(name)))


def test_tf_bytes_equal_rclpy_serialization():
    serialization = pytest.importorskip('rclpy.serialization')
    from frame_kinematics.bridge.messages import TransformOut
    from frame_kinematics.ros.conversions import transform_messages
    from frame_kinematics.ros.tf_cdr import PROBE, tf_serializer, TFMessageWriter

    def make(transforms):
        return tf2_msgs.TFMessage(transforms=transform_messages(transforms,
                                                                geometry_msgs.TransformStamped))

    transforms = [TransformOut('base_link', 'link_' * k, 1_700_000_000_123_456_789 + k,
                               (0.1 * k, 2.0, -3.5), (0.0, 0.6, 0.0, 0.8))
                  for k in range(1, 12)] + list(PROBE)
    expected = serialization.serialize_message(make(transforms))
    assert TFMessageWriter().serialize(transforms) == expected
    chosen = tf_serializer('cdr', make, serialization.serialize_message, None)
    assert chosen(transforms) == expected  # the writer passed its check on this rclpy
    back = serialization.deserialize_message(expected, tf2_msgs.TFMessage)
    assert [(t.header.stamp.sec, t.header.stamp.nanosec) for t in back.transforms[-3:]] == \
        [(-2 ** 31, 0), (-1, 999_999_999), (2 ** 31 - 1, 999_999_999)]


def test_joint_states_bytes_read_as_rclpy_deserializes_them():
    serialization = pytest.importorskip('rclpy.serialization')
    from frame_kinematics.bridge.messages import JointStateInput
    from frame_kinematics.ros.conversions import fill_joint_state, joint_state_input
    from frame_kinematics.ros.joint_state_cdr import joint_state_reader, PROBES, same_input

    def deserialize(data):
        return joint_state_input(serialization.deserialize_message(data, sensor_msgs.JointState))

    def serialize(joint_state):
        return serialization.serialize_message(fill_joint_state(sensor_msgs.JointState(),
                                                                joint_state))

    log = ListLogger()
    reader = joint_state_reader('cdr', [serialize(p) for p in PROBES], deserialize, log)
    assert reader is not None and not log.lines  # the check passed on this rclpy
    rng = np.random.default_rng(18)
    names = tuple(f'joint_{"x" * k}_{k}' for k in range(40))
    for _ in range(200):
        n = int(rng.integers(0, 40))
        joint_state = JointStateInput(
            names[:n], rng.normal(size=n), rng.normal(size=n) if rng.random() < 0.5 else (),
            int(rng.integers(-2 ** 31, 2 ** 31)) * 10 ** 9 + int(rng.integers(0, 10 ** 9)))
        data = serialize(joint_state)
        assert same_input(reader.read(data), deserialize(data))
        assert same_input(reader.read(data), joint_state)
    assert reader.direct


def test_joint_states_subscription_is_alone_on_its_own_node(harness):
    def subscriptions():
        try:
            return harness.node.get_subscriber_names_and_types_by_node('frame_kinematics_tf',
                                                                       '/')
        except Exception:  # not discovered yet (rclpy raises NodeNameNonExistentError)
            return None

    found = harness.spin_until(subscriptions)
    assert [name for name, _ in found] == ['/joint_states']
    services = harness.node.get_service_names_and_types_by_node('frame_kinematics_tf', '/')
    assert services == []


def test_tf_keeps_flowing_while_ik_solves(harness):
    arm = model()
    received = []
    sub = harness.node.create_subscription(tf2_msgs.TFMessage, '/tf', received.append, 100)
    every = rcl_srvs.SetParameters.Request()
    every.parameters = [_parameter('publish_frequency', 0.0)]
    assert harness.call('parameters', every).results[0].successful
    request = interfaces.ComputeIK.Request()
    request.tip_link = 'tool0'
    request.target.header.frame_id = 'base_link'
    request.target.pose.position.x = 5.0  # unreachable: the solver runs to its cap
    request.timeout = 1.0
    client = harness.clients['ik']
    assert harness.spin_until(client.service_is_ready)
    future = client.call_async(request)
    during = spins = 0
    end = time.monotonic() + TIMEOUT
    k = 0
    while not future.done() and time.monotonic() < end:
        k += 1
        harness.publish_joints(arm.joint_names, np.full(arm.nq, 0.001 * k))
        before = len(received)
        harness.executor.spin_once(timeout_sec=0.01)
        if not future.done():
            spins += 1
            during += len(received) - before
    harness.node.destroy_subscription(sub)
    every.parameters = [_parameter('publish_frequency', 20.0)]
    assert harness.call('parameters', every).results[0].successful
    answer = future.result()
    assert not answer.success and 'no solution' in answer.message
    # a message per joint_states message, at most one per spin (a spin may take another
    # callback, or wait): a node that waited for the solver would deliver none while it ran;
    # a fast machine makes the solve, and so the number of spins, short
    assert spins > 0 and during >= min(10, spins / 4), f'{during} /tf messages in {spins} spins'


def test_joints_of_two_sources_in_one_batch_are_both_on_tf(harness):
    # An arm driver floods joint_states; the gripper sends one message among them, once:
    # taking the queue in a batch must merge it as a message taken on arrival would be.
    arm = model()
    names = list(arm.joint_names)
    q = np.linspace(0.1, 0.4, arm.nq)
    zero = np.zeros(arm.nq)
    assert harness.spin_until(lambda: harness.publish_joints(names, zero)
                              or _pose_is(harness, zero, 'left_finger_link')())
    time.sleep(0.06)  # the next message is due: the node then waits, and the rest queue up
    for k in range(41):
        if k == 20:
            harness.publish_joints(names[-1:], q[-1:])
        else:
            harness.publish_joints(names[:-1], q[:-1])
    reached = _pose_is(harness, q, 'left_finger_link')
    assert harness.spin_until(lambda: harness.publish_joints(names[:-1], q[:-1]) or reached())
    harness.publish_joints(names, zero)


def test_one_executor_wake_up_per_message_publishes_tf_too(harness, tmp_path):
    params = tmp_path / 'params.yaml'
    indented = '\n'.join('      ' + line for line in ARM.splitlines())
    params.write_text('/**:\n  ros__parameters:\n    frame_prefix: exec/\n'
                      '    joint_states_intake: executor\n    robot_description: |\n'
                      + indented + '\n')
    process = subprocess.Popen(
        [node_executable(), '--ros-args', '-r', '__ns:=/exec', '--params-file', str(params)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        env=dict(os.environ))
    publisher = harness.node.create_publisher(sensor_msgs.JointState, '/exec/joint_states', 10)
    arm = model()
    q = np.linspace(-0.3, 0.2, arm.nq)
    reached = _pose_is(harness, q, 'tool0', 'exec/')

    def follows():
        msg = sensor_msgs.JointState(name=list(arm.joint_names), position=q.tolist())
        msg.header.stamp = harness.node.get_clock().now().to_msg()
        publisher.publish(msg)
        return reached()

    try:
        assert harness.spin_until(follows)
    finally:
        harness.node.destroy_publisher(publisher)
        stop_group(process, LAUNCH_STOP)
        text = process.stdout.read().decode(errors='replace')
        process.stdout.close()
    assert 'Traceback' not in text, text


def _started(tmp_path, name, extra=''):
    """Start the node from a parameters file; return it and its log once it publishes."""
    params = tmp_path / 'params.yaml'
    indented = '\n'.join('        ' + line for line in ARM.splitlines())
    params.write_text('/**:\n  ros__parameters:\n    robot_description: |\n'
                      + indented + '\n' + extra)
    process = subprocess.Popen(
        [node_executable(), '--ros-args', '-r', f'__node:={name}', '--params-file', str(params)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        env=dict(os.environ))
    log = b''
    end = time.monotonic() + TIMEOUT
    while b'publishing' not in log and time.monotonic() < end and process.poll() is None:
        if select.select([process.stdout], [], [], 0.5)[0]:
            log += os.read(process.stdout.fileno(), 4096)
    return process, log


@pytest.mark.parametrize('sig', [signal.SIGTERM, signal.SIGINT])
def test_node_exits_cleanly_on_a_signal(tmp_path, sig):
    process, log = _started(tmp_path, 'frame_kinematics_signal_test')
    try:
        assert b'publishing' in log and process.poll() is None, log.decode(errors='replace')
        process.send_signal(sig)
        try:
            code = process.wait(10)
        except subprocess.TimeoutExpired:  # rclpy sometimes misses the first signal
            process.send_signal(sig)
            code = process.wait(10)
        log += process.stdout.read()
        text = log.decode(errors='replace')
        assert code == 0 and 'Traceback' not in text, text
    finally:
        stop_group(process, LAUNCH_STOP)
        process.stdout.close()


def test_parameters_of_other_nodes_in_a_shared_file_are_ignored_with_a_warning(tmp_path):
    process, log = _started(tmp_path, 'frame_kinematics_shared_file_test',
                            '    bogus_param: 1\n    controller_manager:\n'
                            '      update_rate: 100\n')
    try:
        text = log.decode(errors='replace')
        assert b'publishing' in log and process.poll() is None, text
        assert 'ignoring parameters of other nodes (as robot_state_publisher does): ' \
               'bogus_param, controller_manager.update_rate' in text, text
    finally:
        stop_group(process, LAUNCH_STOP)
        process.stdout.close()


def test_qos_overrides_change_joint_states_and_tf_as_robot_state_publisher_reads_them(tmp_path):
    name = 'frame_kinematics_qos_test'
    process, log = _started(tmp_path, name, """\
    qos_overrides:
      /tf:
        publisher:
          reliability: best_effort
      /joint_states:
        subscription:
          reliability: reliable
""")
    context = rclpy.context.Context()
    rclpy.init(context=context)
    probe = rclpy.create_node('qos_probe', context=context)
    executor = executors.SingleThreadedExecutor(context=context)
    executor.add_node(probe)
    try:
        assert b'publishing' in log and process.poll() is None, log.decode(errors='replace')

        def endpoints():
            tf = [e for e in probe.get_publishers_info_by_topic('/tf') if e.node_name == name]
            joints = [e for e in probe.get_subscriptions_info_by_topic('/joint_states')
                      if e.node_name == f'{name}_tf']
            static = [e for e in probe.get_publishers_info_by_topic('/tf_static')
                      if e.node_name == name]
            return (tf, joints, static) if tf and joints and static else None

        tf, joints, static = spin_until(executor, endpoints, TIMEOUT)
        assert tf[0].qos_profile.reliability == qos.ReliabilityPolicy.BEST_EFFORT
        assert joints[0].qos_profile.reliability == qos.ReliabilityPolicy.RELIABLE
        assert static[0].qos_profile.reliability == qos.ReliabilityPolicy.RELIABLE
        assert static[0].qos_profile.durability == qos.DurabilityPolicy.TRANSIENT_LOCAL
        client = probe.create_client(rcl_srvs.SetParameters, f'{name}/set_parameters')
        assert spin_until(executor, client.service_is_ready, TIMEOUT)
        for key in ('qos_overrides./tf.publisher.reliability',  # given: ours refuses it
                    'qos_overrides./tf.publisher.history'):  # declared read-only by rclpy
            future = client.call_async(rcl_srvs.SetParameters.Request(
                parameters=[_parameter(key, 'reliable')]))
            assert spin_until(executor, future.done, TIMEOUT)
            (result,) = future.result().results
            assert not result.successful and 'read-only' in result.reason, result.reason
    finally:
        executor.shutdown()
        probe.destroy_node()
        rclpy.try_shutdown(context=context)
        stop_group(process, LAUNCH_STOP)
        process.stdout.close()


@pytest.mark.parametrize('extra, words', [
    ('    qos_overrides:\n      /tf_static:\n        publisher:\n          depth: deep\n',
     'qos_overrides./tf_static.publisher.depth must be an integer'),
    ('    user_frames:\n      names: []\n', 'user_frames.names: []'),
    # one of rclpy's own parameters, declared by rclpy with its type
    ("    use_sim_time: 'yes'\n", "parameter 'use_sim_time' to 'yes'"),
    # refused once the node exists: said under its (remapped) name
    ('    publish_frequency: 5000.0\n',
     '[frame_kinematics_startup_test]: cannot start: publish_frequency'),
])
def test_bad_parameters_at_start_up_give_one_line_and_exit_1(tmp_path, extra, words):
    text = _refused_at_start_up(tmp_path, extra)
    assert words in text, text


@pytest.mark.parametrize('remap, extra, words', [
    # multi-robot TF: /tf remapped, its overrides named by the remapped topic (as rclpy reads)
    (['-r', '/tf:=/robot1/tf'],
     '    qos_overrides:\n      /robot1/tf:\n        publisher:\n          reliability: x\n',
     'qos_overrides./robot1/tf.publisher.reliability must be one of'),
    (['-r', '/tf_static:=/robot1/tf_static'],
     '    qos_overrides:\n      /robot1/tf_static:\n        publisher:\n          depth: deep\n',
     'qos_overrides./robot1/tf_static.publisher.depth must be an integer'),
])
def test_bad_overrides_of_a_remapped_tf_give_one_line_and_exit_1(tmp_path, remap, extra, words):
    text = _refused_at_start_up(tmp_path, extra, *remap)
    assert words in text, text


def _refused_at_start_up(tmp_path, extra: str, *ros_args: str) -> str:
    """Start the node on the arm with ``extra`` parameters; check it stops in one line."""
    params = tmp_path / 'params.yaml'
    indented = '\n'.join('      ' + line for line in ARM.splitlines())
    params.write_text('/**:\n  ros__parameters:\n    robot_description: |\n'
                      + indented + '\n' + extra)
    process = subprocess.run(
        [node_executable(), '--ros-args', '-r', '__node:=frame_kinematics_startup_test',
         *ros_args, '--params-file', str(params)],
        capture_output=True, text=True, timeout=TIMEOUT, env=dict(os.environ))
    text = process.stdout + process.stderr
    assert process.returncode == 1, text
    assert 'Traceback' not in text and 'cannot start' in text, text
    return text


def test_run_leaves_the_garbage_collector_as_it_found_it():
    """``gc.freeze`` is the node's ``main``'s to call, not ``run``'s (the demo runs it too)."""
    code = (
        'import gc, os, signal, threading, rclpy\n'
        'from frame_kinematics.node import run\n'
        'def make_node():\n'
        '    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()\n'
        "    return rclpy.create_node('run_test')\n"
        'frozen = gc.get_freeze_count()\n'  # an interpreter may start with some
        'print(run(make_node), gc.get_freeze_count() - frozen)\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         timeout=TIMEOUT, env=dict(os.environ))
    assert out.stdout.split() == ['0', '0'], out.stdout + out.stderr
