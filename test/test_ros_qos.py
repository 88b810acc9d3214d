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
"""The node's QoS profiles and rclpy's reading of their overrides (skipped without rclpy)."""

from frame_kinematics.bridge.qos import check_overrides, TF_POLICIES
import pytest
from ros_testing import context_fixture, loopback_fixture

rclpy = pytest.importorskip('rclpy')
qos = pytest.importorskip('rclpy.qos')
parameter = pytest.importorskip('rclpy.parameter')
tf2_msgs = pytest.importorskip('tf2_msgs.msg')
ros_qos = pytest.importorskip('frame_kinematics.ros.qos')

loopback = loopback_fixture()
context = context_fixture()


def test_each_call_gives_a_new_profile():
    assert ros_qos.latched_qos() is not ros_qos.latched_qos()
    assert ros_qos.latched_qos().durability == qos.DurabilityPolicy.TRANSIENT_LOCAL
    assert ros_qos.joint_states_qos().reliability == qos.ReliabilityPolicy.BEST_EFFORT


def test_the_policy_names_are_those_rclpy_reads():
    names = ros_qos.policy_names()
    assert {'keep_last', 'keep_all'} <= set(names['history'])
    assert {'reliable', 'best_effort'} <= set(names['reliability'])
    assert {'volatile', 'transient_local'} <= set(names['durability'])
    values = {'qos_overrides./tf.publisher.reliability': 'best_effort'}
    assert check_overrides(values, '/joint_states', names) == {}


def test_rclpy_reads_the_checked_overrides_into_a_new_profile_alone(context):
    overrides = [parameter.Parameter('qos_overrides./tf.publisher.reliability',
                                     value='best_effort'),
                 parameter.Parameter('qos_overrides./tf.publisher.depth', value=7)]
    node = rclpy.create_node('qos_test', context=context, parameter_overrides=overrides)
    try:
        profile = ros_qos.latched_qos()
        node.create_publisher(tf2_msgs.TFMessage, '/tf', profile,
                              qos_overriding_options=ros_qos.overriding_options(TF_POLICIES))
        assert profile.reliability == qos.ReliabilityPolicy.BEST_EFFORT and profile.depth == 7
        assert ros_qos.latched_qos().reliability == qos.ReliabilityPolicy.RELIABLE
        assert node.get_parameter('qos_overrides./tf.publisher.history').value == 'keep_last'
    finally:
        node.destroy_node()
