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
The launch file as a user starts it (needs a ROS 2 workspace with the package; skipped without).

``ros2 launch frame_kinematics frame_kinematics.launch.py`` with a bundled robot, the demo and
RViz (started only where it is installed): TF, a service and the CoM markers against the core;
the markers cleared on a model swap and when switched off; then a ``urdf:=`` file in a
namespace, a xacro file, and arguments that must be refused.
Every DDS participant stays on the loopback interface, in a domain of its own.
"""

import os
import shutil
import subprocess
import tempfile

from frame_kinematics import robots
from frame_kinematics.core import Robot
import numpy as np
import pytest
from ros_testing import (installed, LAUNCH_STOP, loopback_fixture, needs_workspace, spin_until,
                         stop_group)

rclpy = pytest.importorskip('rclpy')
pytest.importorskip('launch')
pytest.importorskip('launch_ros')
executors = pytest.importorskip('rclpy.executors')
qos = pytest.importorskip('rclpy.qos')
rclpy_time = pytest.importorskip('rclpy.time')
tf2_ros = pytest.importorskip('tf2_ros')
interfaces = pytest.importorskip('frame_kinematics_interfaces.srv')
rcl_srvs = pytest.importorskip('rcl_interfaces.srv')
rclpy_parameter = pytest.importorskip('rclpy.parameter')
sensor_msgs = pytest.importorskip('sensor_msgs.msg')
std_msgs = pytest.importorskip('std_msgs.msg')
visualization_msgs = pytest.importorskip('visualization_msgs.msg')

loopback = loopback_fixture()
pytestmark = needs_workspace()

TIMEOUT = 30.0
LATCHED = qos.QoSProfile(depth=1, durability=qos.DurabilityPolicy.TRANSIENT_LOCAL,
                         reliability=qos.ReliabilityPolicy.RELIABLE)


class Launch:
    """``ros2 launch frame_kinematics frame_kinematics.launch.py ARGS`` with its output kept."""

    def __init__(self, *args):
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            ['ros2', 'launch', 'frame_kinematics', 'frame_kinematics.launch.py', *args],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
            env=dict(os.environ))

    def output(self):
        self.log.seek(0)
        return self.log.read().decode(errors='replace')

    def wait(self, timeout=TIMEOUT):
        """Wait for the launch to end by itself; return its exit code."""
        return self.process.wait(timeout)

    def stop(self):
        """SIGINT to ``ros2 launch`` (it stops its nodes), then escalate on the group."""
        stop_group(self.process, LAUNCH_STOP)
        text = self.output()
        self.log.close()
        return text


class Harness:
    """A test node with an executor and a TF buffer; it records joint_states and markers."""

    def __init__(self, namespace=''):
        self.node = rclpy.create_node('launch_test', namespace=namespace)
        self.executor = executors.SingleThreadedExecutor()
        self.executor.add_node(self.node)
        self.buffer = tf2_ros.Buffer()
        self.listener = tf2_ros.TransformListener(self.buffer, self.node, spin_thread=False)
        self.joint_states = {}
        self.markers = []
        self.descriptions = []
        self.node.create_subscription(sensor_msgs.JointState, 'joint_states', self._on_joints,
                                      qos.qos_profile_sensor_data)
        self.node.create_subscription(visualization_msgs.MarkerArray, 'com_markers',
                                      self.markers.append, 10)
        self.node.create_subscription(std_msgs.String, 'robot_description',
                                      lambda m: self.descriptions.append(m.data), LATCHED)

    def _on_joints(self, msg):
        stamp = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
        self.joint_states[stamp] = dict(zip(msg.name, msg.position))

    def spin_until(self, predicate, timeout=TIMEOUT):
        return spin_until(self.executor, predicate, timeout)

    def call(self, service_type, name, request):
        client = self.node.create_client(service_type, name)
        assert self.spin_until(client.service_is_ready), f'service {name} is not offered'
        future = client.call_async(request)
        assert self.spin_until(future.done), f'service {name} did not answer'
        self.node.destroy_client(client)
        return future.result()

    def close(self):
        self.executor.remove_node(self.node)
        self.executor.shutdown()
        self.node.destroy_node()


@pytest.fixture(scope='module')
def ros():
    rclpy.init()
    yield
    rclpy.try_shutdown()


@pytest.fixture(scope='module')
def bundled_arm(ros):
    """Start the README's first launch example: bundled robot, demo sweep, RViz if installed."""
    launch = Launch('robot:=fk_arm')
    harness = Harness()
    try:
        yield harness, launch
    finally:
        harness.close()
        print(launch.stop()[-5000:])


def _stamp_ns(header):
    return header.stamp.sec * 1_000_000_000 + header.stamp.nanosec


def _marker_with_its_joint_state(harness):
    """Return a received MarkerArray and the joint_states values of the same stamp."""
    for array in reversed(harness.markers):
        if array.markers and array.markers[0].action == visualization_msgs.Marker.ADD:
            values = harness.joint_states.get(_stamp_ns(array.markers[0].header))
            if values is not None:
                return array, values
    return None


def test_without_rviz_the_node_and_demo_start_with_a_warning(bundled_arm):
    harness, launch = bundled_arm
    assert harness.spin_until(lambda: harness.descriptions), launch.output()[-3000:]
    assert Robot.from_urdf_string(harness.descriptions[-1]).name == 'fk_arm'
    assert harness.spin_until(lambda: harness.joint_states), 'the demo publishes nothing'
    if not installed('rviz2'):
        assert 'rviz2 is not installed: starting without RViz' in launch.output()


def test_markers_and_tf_follow_the_demo_sweep(bundled_arm):
    harness, _ = bundled_arm
    model = Robot.from_urdf_file(robots.path('fk_arm'))
    found = harness.spin_until(lambda: _marker_with_its_joint_state(harness))
    assert found, 'no com_markers message matched a joint_states stamp'
    array, values = found
    q = model.configuration_from_dict(values)
    state = model.forward_kinematics(q)
    by_key = {(m.ns, m.id): m for m in array.markers}
    heavy = [link for link in model.links if link.mass > 0]
    assert set(by_key) == {('com', 0), ('com_ground', 0)} | {('link_com', link.index)
                                                             for link in heavy}
    assert {m.header.frame_id for m in array.markers} == {model.root_link}
    com = by_key[('com', 0)].pose.position
    np.testing.assert_allclose([com.x, com.y, com.z], state.center_of_mass(), atol=1e-9)
    ground = by_key[('com_ground', 0)].pose.position
    np.testing.assert_allclose([ground.x, ground.y, ground.z],
                               [*state.center_of_mass()[:2], 0.0], atol=1e-9)
    stamp = rclpy_time.Time(nanoseconds=_stamp_ns(array.markers[0].header))
    assert harness.spin_until(
        lambda: harness.buffer.can_transform('base_link', 'tool0', stamp)), 'no TF for tool0'
    t = harness.buffer.lookup_transform('base_link', 'tool0', stamp).transform.translation
    np.testing.assert_allclose([t.x, t.y, t.z], state.transform('tool0')[:3, 3], atol=1e-9)


def test_a_service_answers(bundled_arm):
    harness, _ = bundled_arm
    request = interfaces.GetJacobian.Request(link='tool0', expressed_in='local')
    response = harness.call(interfaces.GetJacobian, 'get_jacobian', request)
    assert response.success, response.message
    assert [d.size for d in response.jacobian.layout.dim] == [6, len(response.joint_names)]


def test_a_urdf_file_in_a_namespace(ros, tmp_path):
    path = tmp_path / 'quadruped.urdf'
    shutil.copy(robots.path('fk_quadruped'), path)
    launch = Launch(f'urdf:={path}', 'namespace:=fk_test', 'node_name:=legs', 'rviz:=false',
                    'demo:=false')
    harness = Harness('fk_test')
    try:
        assert harness.spin_until(lambda: harness.descriptions), launch.output()[-3000:]
        assert Robot.from_urdf_string(harness.descriptions[-1]).name == 'fk_quadruped'
        assert harness.spin_until(
            lambda: ('legs', '/fk_test') in harness.node.get_node_names_and_namespaces())
        response = harness.call(interfaces.GetRelativeMotion, 'get_relative_motion',
                                interfaces.GetRelativeMotion.Request())
        assert response.success, response.message
        assert response.index_names[0] == '<environment>'
    finally:
        harness.close()
        print(launch.stop()[-3000:])


def _set_parameter(harness, service, name, value):
    parameter = rclpy_parameter.Parameter(name, value=value).to_parameter_msg()
    response = harness.call(rcl_srvs.SetParameters, service,
                            rcl_srvs.SetParameters.Request(parameters=[parameter]))
    return response.results[0]


def _actions(harness, start):
    return [[m.action for m in array.markers] for array in harness.markers[start:]]


def test_markers_are_cleared_on_a_model_swap_and_when_switched_off(ros):
    launch = Launch('robot:=fk_arm', 'namespace:=swap_test', 'rviz:=false')
    harness = Harness('swap_test')
    add, delete_all = visualization_msgs.Marker.ADD, visualization_msgs.Marker.DELETEALL
    service = 'frame_kinematics/set_parameters'
    try:
        assert harness.spin_until(lambda: any(add in a for a in _actions(harness, 0))), \
            launch.output()[-3000:]
        start = len(harness.markers)
        urdf = open(robots.path('fk_quadruped')).read()
        assert _set_parameter(harness, service, 'robot_description', urdf).successful
        assert harness.spin_until(lambda: [delete_all] in _actions(harness, start))
        start = len(harness.markers)
        assert _set_parameter(harness, service, 'robot_description',
                              open(robots.path('fk_arm')).read()).successful
        assert harness.spin_until(lambda: [delete_all] in _actions(harness, start))
        assert harness.spin_until(lambda: add in _actions(harness, start)[-1])
        start = len(harness.markers)
        assert _set_parameter(harness, service, 'publish.com_markers', False).successful
        assert harness.spin_until(lambda: [delete_all] in _actions(harness, start))
        cleared = len(harness.markers)
        harness.spin_until(lambda: False, timeout=1.0)
        assert _actions(harness, cleared) == []
        refused = _set_parameter(harness, service, 'publish.com_markers', 'yes')
        assert not refused.successful and 'publish.com_markers must be true or false' in \
            refused.reason
    finally:
        harness.close()
        print(launch.stop()[-3000:])


XACRO = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="xacro_bot">
  <xacro:arg name="height" default="0.5"/>
  <xacro:macro name="segment" params="name parent z">
    <link name="${name}">
      <inertial><mass value="1.0"/>
        <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    </link>
    <joint name="${name}_joint" type="revolute">
      <parent link="${parent}"/><child link="${name}"/><origin xyz="0 0 ${z}"/>
      <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
    </joint>
  </xacro:macro>
  <link name="root_link"/>
  <xacro:segment name="first" parent="root_link" z="$(arg height)"/>
</robot>
"""


def _xacro_importable():
    try:
        import xacro  # noqa: F401
    except ImportError:
        return False
    return True


def test_a_xacro_file_is_expanded_or_refused_clearly(ros, tmp_path):
    path = tmp_path / 'bot.urdf.xacro'
    path.write_text(XACRO)
    launch = Launch(f'urdf:={path}', 'xacro_args:=height:=0.7', 'rviz:=false', 'demo:=false',
                    'namespace:=xacro_test')
    if not _xacro_importable():
        assert launch.wait() != 0
        assert 'is a xacro file and xacro is not installed' in launch.stop()
        return
    harness = Harness('xacro_test')
    try:
        assert harness.spin_until(lambda: harness.descriptions), launch.output()[-3000:]
        model = Robot.from_urdf_string(harness.descriptions[-1])
        assert model.name == 'xacro_bot'
        state = model.forward_kinematics(model.neutral_configuration())
        np.testing.assert_allclose(state.transform('first')[:3, 3], [0, 0, 0.7])
    finally:
        harness.close()
        print(launch.stop()[-3000:])


@pytest.mark.parametrize('args, message', [
    (['robot:=fk_arm', 'urdf:=/tmp/x.urdf'],
     'give the robot with one of urdf:=, robot:= or robot_description:=, got urdf, robot'),
    (['robot:=no_such_robot'], 'robot:=no_such_robot: unknown bundled robot'),
    (['urdf:=/nonexistent/robot.urdf'], 'urdf:=/nonexistent/robot.urdf: no such file'),
    (['robot_description:=<robot name="broken">'], 'the robot description is not usable'),
    (['demo:=maybe'], 'argument demo must be true or false'),
])
def test_bad_arguments_stop_the_launch_with_a_clear_message(args, message):
    launch = Launch(*args, 'rviz:=false')
    assert launch.wait() != 0
    assert message in launch.stop()
