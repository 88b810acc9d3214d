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
The node's ReachStudy action and its latched topics, on a real ROS 2 (skipped without).

Every DDS participant stays on the loopback interface, in a domain of its own; the node
runs its studies on the numpy backend (``FRAME_KINEMATICS_BACKEND=numpy``).
"""

import os
import signal
import subprocess
import threading
import time

from frame_kinematics import robots
from frame_kinematics.bridge.reach_markers import (CLOUD_FIELDS, heat_map, INDEX_NAMESPACE,
                                                   reach_cloud, SCORE_NAMESPACE)
from frame_kinematics.core import Robot
from frame_kinematics.core.reach import ReachResult
import numpy as np
import pytest
from ros_testing import loopback_fixture, needs_workspace, node_executable, spin_until, stop_group

rclpy = pytest.importorskip('rclpy')
rclpy_action = pytest.importorskip('rclpy.action')
executors = pytest.importorskip('rclpy.executors')
qos = pytest.importorskip('rclpy.qos')
action_msgs = pytest.importorskip('action_msgs.msg')
rcl_msgs = pytest.importorskip('rcl_interfaces.msg')
rcl_srvs = pytest.importorskip('rcl_interfaces.srv')
sensor_msgs = pytest.importorskip('sensor_msgs.msg')
tf2_msgs = pytest.importorskip('tf2_msgs.msg')
visualization_msgs = pytest.importorskip('visualization_msgs.msg')
interfaces = pytest.importorskip('frame_kinematics_interfaces')
ReachStudy = getattr(pytest.importorskip('frame_kinematics_interfaces.action'), 'ReachStudy',
                     None)

loopback = loopback_fixture()
pytestmark = [
    needs_workspace(),
    pytest.mark.skipif(ReachStudy is None, reason='frame_kinematics_interfaces has no action'),
]


ARM = open(robots.path('fk_arm')).read()
TIMEOUT = 60.0
#: Longest wait between two /tf messages during a study (seconds): a study that held the
#: node's /tf path for its length (seconds) would exceed it on any machine; the 50 ms a
#: loaded machine keeps is measured by benchmarks/bench_reach_tf.py, not asserted here.
LONGEST_GAP = 1.0
#: A study that lasts about 20 s on the development machine (33 x 33 x 17 points x 8
#: orientations): seconds even on a machine ten times faster.
BIG = {'box': [-0.8, -0.8, 0.0, 0.8, 0.8, 0.8], 'step': 0.05, 'so3_count': 8}
#: Longest wait (s) for the big study to end, on a loaded machine.
BIG_TIMEOUT = 300.0
NODE = 'frame_kinematics_reach_test'
#: A small study: 5 x 7 x 6 points x 2 orientations (420 targets).
BOX = {'box': [0.2, -0.3, 0.1, 0.6, 0.3, 0.6], 'step': 0.1, 'so3_count': 2}


def _start_node(folder, name):
    """Start the node on the bundled arm (studies on numpy) in ``folder``; return it, its log."""
    params = folder / 'params.yaml'
    indented = '\n'.join('      ' + line for line in ARM.splitlines())
    params.write_text('/**:\n  ros__parameters:\n    robot_description: |\n'
                      + indented + '\n')
    env = dict(os.environ, FRAME_KINEMATICS_BACKEND='numpy')
    log = open(folder / 'node.log', 'wb+')
    process = subprocess.Popen([node_executable(), '--ros-args', '-r', f'__node:={name}',
                                '--params-file', str(params)],
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                               env=env, cwd=str(folder))
    return process, log


def _end_node(process, log):
    stop_group(process)
    log.seek(0)
    text = log.read().decode(errors='replace')
    log.close()
    return text


@pytest.fixture(scope='module')
def node_process(tmp_path_factory):
    """Run the node on the bundled arm, studies on numpy."""
    folder = tmp_path_factory.mktemp('reach_node')
    process, log = _start_node(folder, NODE)
    try:
        yield process, folder
    finally:
        print(_end_node(process, log)[-5000:])


class Harness:
    """A test node with an action client and helpers that spin until done."""

    def __init__(self):
        self.node = rclpy.create_node('frame_kinematics_reach_client')
        self.executor = executors.SingleThreadedExecutor()
        self.executor.add_node(self.node)
        self.client = rclpy_action.ActionClient(self.node, ReachStudy, f'{NODE}/reach_study')
        self.parameters = self.node.create_client(rcl_srvs.SetParameters,
                                                  f'{NODE}/set_parameters')
        self.joint_pub = self.node.create_publisher(sensor_msgs.JointState, 'joint_states', 10)

    def spin_until(self, predicate, timeout=TIMEOUT):
        return spin_until(self.executor, predicate, timeout)

    def send(self, feedback=None, **fields):
        goal = ReachStudy.Goal()
        for name, value in fields.items():
            setattr(goal, name, value)
        assert self.spin_until(self.client.server_is_ready), 'the action is not offered'
        future = self.client.send_goal_async(goal, feedback_callback=feedback)
        assert self.spin_until(future.done), 'the goal got no answer'
        return future.result()

    def result(self, handle):
        future = handle.get_result_async()
        assert self.spin_until(future.done), 'the study did not end'
        return future.result()

    def latched(self, kind, topic):
        """Subscribe late (transient local) and return the first message."""
        got = []
        profile = qos.QoSProfile(depth=1, durability=qos.DurabilityPolicy.TRANSIENT_LOCAL,
                                 reliability=qos.ReliabilityPolicy.RELIABLE)
        sub = self.node.create_subscription(kind, topic, got.append, profile)
        self.spin_until(lambda: got, 15.0)
        self.node.destroy_subscription(sub)
        return got[0] if got else None

    def close(self):
        self.client.destroy()
        self.executor.remove_node(self.node)
        self.executor.shutdown()
        self.node.destroy_node()


@pytest.fixture(scope='module')
def harness(node_process):
    rclpy.init()
    h = Harness()
    try:
        h.folder = node_process[1]
        assert h.spin_until(h.client.server_is_ready), 'the node did not offer the action'
        yield h
    finally:
        h.close()
        rclpy.try_shutdown()


@pytest.fixture(scope='module')
def study(harness):
    """One small study, its feedback and result."""
    feedback = []
    handle = harness.send(lambda msg: feedback.append(msg.feedback), output='small.npz',
                          seed=3, **BOX)
    assert handle.accepted
    answer = harness.result(handle)
    return answer, feedback


def test_a_small_study_reports_progress_and_saves_the_study(harness, study):
    answer, feedback = study
    result = answer.result
    assert answer.status == action_msgs.GoalStatus.STATUS_SUCCEEDED, result.message
    assert result.success and result.path == str(harness.folder / 'small.npz')
    saved = ReachResult.load(result.path)
    summary = saved.summary()
    assert result.targets == summary['targets'] == 420
    assert (result.points, result.orientations) == (210, 2)
    assert result.reached == summary['reached'] > 0
    assert result.percent_reached == pytest.approx(summary['percent_reached'])
    assert result.score_max == pytest.approx(summary['score']['max'])
    assert saved.settings['seed'] == 3
    assert feedback and feedback[0].stage == 'targets'
    assert feedback[0].total == 420 - summary['beyond_reach']
    assert max(f.solved for f in feedback) <= result.reached


def test_heat_map_and_cloud_reach_a_late_subscriber(harness, study):
    saved = ReachResult.load(study[0].result.path)
    markers = harness.latched(visualization_msgs.MarkerArray, f'/{NODE}/reach/markers')
    assert markers is not None, 'no latched heat map'
    expected = heat_map(saved, 'base_link', 0)
    assert [(m.ns, m.id) for m in markers.markers] == [(INDEX_NAMESPACE, 0),
                                                       (SCORE_NAMESPACE, 0)]
    for msg, marker in zip(markers.markers, expected):
        assert msg.type == visualization_msgs.Marker.SPHERE_LIST
        assert msg.header.frame_id == 'base_link'
        assert msg.scale.x == pytest.approx(marker.diameter)
        points = np.array([[p.x, p.y, p.z] for p in msg.points])
        colors = np.array([[c.r, c.g, c.b, c.a] for c in msg.colors])
        np.testing.assert_allclose(points, marker.points)
        np.testing.assert_allclose(colors, marker.colors, atol=1e-6)
    cloud = harness.latched(sensor_msgs.PointCloud2, f'/{NODE}/reach/points')
    assert cloud is not None, 'no latched point cloud'
    assert [f.name for f in cloud.fields] == list(CLOUD_FIELDS)
    assert bytes(cloud.data) == reach_cloud(saved, 'base_link', 0).data
    table = np.frombuffer(bytes(cloud.data), dtype='<f4').reshape(cloud.width, 5)
    np.testing.assert_allclose(table[:, 4], saved.reachability_index)


def test_a_bad_goal_is_aborted_with_the_reason(harness):
    handle = harness.send(tip_link='no_such_link', output='bad.npz', **BOX)
    answer = harness.result(handle)
    assert answer.status == action_msgs.GoalStatus.STATUS_ABORTED
    assert not answer.result.success and 'no_such_link' in answer.result.message
    handle = harness.send(output='none.npz', box=BOX['box'])
    answer = harness.result(handle)
    assert 'box needs step' in answer.result.message
    assert not (harness.folder / 'bad.npz').exists()


def test_one_study_at_a_time_and_cancel(harness):
    first = harness.send(output='big.npz', **BIG)
    assert first.accepted
    second = harness.send(output='second.npz', **BOX)
    assert not second.accepted
    cancel = first.cancel_goal_async()
    assert harness.spin_until(cancel.done)
    answer = harness.result(first)
    assert answer.status == action_msgs.GoalStatus.STATUS_CANCELED
    assert not answer.result.success and 'cancelled' in answer.result.message
    third = harness.send(output='third.npz', **BOX)
    assert third.accepted and harness.result(third).result.success


def _set_publish_frequency(harness, value):
    request = rcl_srvs.SetParameters.Request()
    parameter = rcl_msgs.Parameter(name='publish_frequency')
    parameter.value.type = rcl_msgs.ParameterType.PARAMETER_DOUBLE
    parameter.value.double_value = value
    request.parameters = [parameter]
    assert harness.spin_until(harness.parameters.service_is_ready)
    future = harness.parameters.call_async(request)
    assert harness.spin_until(future.done)
    assert future.result().results[0].successful


@pytest.mark.skipif(not os.path.isdir('/proc'), reason='needs /proc')
def test_tf_keeps_coming_while_a_study_runs(harness):
    arm = Robot.from_urdf_string(ARM, backend='numpy')
    received = []  # (arrival, stamp) in seconds: a monotonic clock, the message's

    def on_tf(msg):
        stamp = msg.transforms[0].header.stamp
        received.append((time.monotonic(), stamp.sec + 1e-9 * stamp.nanosec))

    sub = harness.node.create_subscription(tf2_msgs.TFMessage, '/tf', on_tf, 100)
    _set_publish_frequency(harness, 0.0)
    stop = threading.Event()

    def joint_states():  # 100 Hz, on a clock of its own
        k, start = 0, time.monotonic()
        while not stop.is_set():
            k += 1
            msg = sensor_msgs.JointState()
            msg.header.stamp = harness.node.get_clock().now().to_msg()
            msg.name = list(arm.joint_names)
            msg.position = [0.001 * k] * arm.nq
            harness.joint_pub.publish(msg)
            time.sleep(max(0.0, start + 0.01 * k - time.monotonic()))

    publisher = threading.Thread(target=joint_states, daemon=True)
    publisher.start()
    try:
        assert harness.spin_until(lambda: len(received) > 20, 10.0), 'no /tf before the study'
        handle = harness.send(output='during.npz', **BIG)
        future = handle.get_result_async()
        start = time.monotonic()
        assert harness.spin_until(lambda: _workers(harness.folder), 10.0), 'no study process'
        assert harness.spin_until(future.done, BIG_TIMEOUT), 'the study did not end'
        end = time.monotonic()
        assert future.result().result.success
        arrivals = [t for t, _ in received if start <= t <= end]
        gaps = np.diff([start] + arrivals + [end])
        # /tf kept coming for the whole study: it runs in its own process, not on /tf's path
        assert gaps.max() < LONGEST_GAP, f'/tf stopped for {gaps.max():.2f} s during a study'
    finally:
        stop.set()
        publisher.join()
        harness.node.destroy_subscription(sub)
        _set_publish_frequency(harness, 20.0)


def _workers(folder):
    """Return the study processes whose working directory is ``folder`` (Linux /proc)."""
    found = []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open(f'/proc/{pid}/cmdline', 'rb') as handle:
                command = handle.read()
            cwd = os.readlink(f'/proc/{pid}/cwd')
        except OSError:
            continue
        if b'frame_kinematics.bridge.reach_worker' in command and cwd == str(folder):
            found.append(int(pid))
    return found


@pytest.mark.skipif(not os.path.isdir('/proc'), reason='needs /proc')
def test_the_node_ends_its_study_when_it_stops(harness, tmp_path):
    name = 'frame_kinematics_reach_stop_test'
    process, log = _start_node(tmp_path, name)
    client = rclpy_action.ActionClient(harness.node, ReachStudy, f'{name}/reach_study')
    try:
        assert harness.spin_until(client.server_is_ready), 'the second node did not come up'
        goal = ReachStudy.Goal(box=[-0.8, -0.8, 0.0, 0.8, 0.8, 0.8], step=0.05, so3_count=16,
                               output='long.npz')
        future = client.send_goal_async(goal)
        assert harness.spin_until(future.done) and future.result().accepted
        assert harness.spin_until(lambda: _workers(tmp_path), 30.0), 'no study process'
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(20)
        except subprocess.TimeoutExpired:  # rclpy sometimes misses the first signal
            process.send_signal(signal.SIGTERM)
            code = process.wait(20)
    finally:
        client.destroy()
        text = _end_node(process, log)
    assert code == 0 and 'Traceback' not in text, text
    assert harness.spin_until(lambda: not _workers(tmp_path), 10.0), \
        'the study process outlived the node'
    assert not (tmp_path / 'long.npz').exists()
