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
"""The /tf path's executor thread, on real rclpy (skipped without it)."""

import time

import pytest
from ros_testing import context_fixture, loopback_fixture

rclpy = pytest.importorskip('rclpy')
sensor_msgs = pytest.importorskip('sensor_msgs.msg')
tf_path = pytest.importorskip('frame_kinematics.ros.tf_path')

loopback = loopback_fixture()
context = context_fixture()


def test_the_executor_is_rclpys_own_and_found_by_feature_detection():
    found = tf_path.events_executor_class()
    assert found is None or found.__module__.startswith('rclpy.experimental')


def test_a_callback_error_is_reported_and_the_thread_goes_on_then_stops_when_asked(context):
    node = rclpy.create_node('tf_path_test', context=context)
    sender = rclpy.create_node('tf_path_sender', context=context)
    received, errors = [], []

    def callback(msg):
        received.append(msg)
        if len(received) == 2:
            raise RuntimeError('a bug in the callback')

    node.create_subscription(sensor_msgs.JointState, 'tf_path_test_joints',
                             tf_path.guarded(callback, errors.append), 10)
    thread = tf_path.ExecutorThread(node, 'tf_path_test')
    thread.start()
    publisher = sender.create_publisher(sensor_msgs.JointState, 'tf_path_test_joints', 10)
    try:
        end = time.monotonic() + 30.0
        while len(received) < 5 and time.monotonic() < end:
            publisher.publish(sensor_msgs.JointState())
            time.sleep(0.05)
    finally:
        thread.stop()
        node.destroy_node()
        sender.destroy_node()
    assert len(received) >= 5  # messages after the error were still taken
    assert [str(e) for e in errors] == ['a bug in the callback']
    assert not thread._thread.is_alive()


def test_the_queue_taker_is_found_and_takes_the_queued_messages_in_order(context):
    node = rclpy.create_node('tf_path_queue', context=context)
    sender = rclpy.create_node('tf_path_queue_sender', context=context)
    subscription = node.create_subscription(sensor_msgs.JointState, 'tf_path_queue_joints',
                                            lambda _msg: None, 10, raw=True)
    take_next = tf_path.queue_taker(subscription)
    assert take_next is not None  # Humble and Jazzy offer it
    publisher = sender.create_publisher(sensor_msgs.JointState, 'tf_path_queue_joints', 10)
    serialization = pytest.importorskip('rclpy.serialization')
    try:
        end = time.monotonic() + 30.0
        while not publisher.get_subscription_count() and time.monotonic() < end:
            time.sleep(0.01)
        for k in range(3):
            publisher.publish(sensor_msgs.JointState(name=[f'j{k}']))
        taken = []
        while len(taken) < 3 and time.monotonic() < end:
            data = take_next()
            if data is None:
                time.sleep(0.01)
            else:
                taken.append(data)
        assert take_next() is None
    finally:
        node.destroy_node()
        sender.destroy_node()
    assert all(isinstance(data, bytes) for data in taken)
    names = [serialization.deserialize_message(data, sensor_msgs.JointState).name
             for data in taken]
    assert names == [['j0'], ['j1'], ['j2']]
