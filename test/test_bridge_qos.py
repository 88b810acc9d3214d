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
"""The QoS overrides the node reads, checked before rclpy reads them (bridge.qos)."""

from bridge_testing import logged_bridge
from frame_kinematics.bridge.qos import check_overrides, MAX_DEPTH, QoSOverrideError
from frame_kinematics.core import FrameKinematicsError
import pytest

#: The names Jazzy's rclpy gives the values of each policy.
JAZZY = {'history': ('system_default', 'keep_last', 'keep_all', 'unknown'),
         'reliability': ('system_default', 'reliable', 'best_effort', 'unknown',
                         'best_available'),
         'durability': ('system_default', 'transient_local', 'volatile', 'unknown',
                        'best_available')}
#: Humble's.
HUMBLE = {policy: tuple(name for name in names if name != 'best_available')
          for policy, names in JAZZY.items()}


def test_the_joint_states_overrides_are_given_for_its_node_and_the_tf_ones_left_to_rclpy():
    values = {'qos_overrides./ns/joint_states.subscription.reliability': 'RELIABLE',
              'qos_overrides./ns/joint_states.subscription.depth': 50,
              'qos_overrides./ns/joint_states.subscription.history': 'keep_all',
              'qos_overrides./tf.publisher.durability': 'transient_local',
              'qos_overrides./tf.publisher.depth': 0,
              'qos_overrides./tf_static.publisher.reliability': 'best_effort',
              'publish_frequency': 20.0}
    assert check_overrides(values, '/ns/joint_states', JAZZY) == {
        'qos_overrides./ns/joint_states.subscription.reliability': 'RELIABLE',
        'qos_overrides./ns/joint_states.subscription.depth': 50,
        'qos_overrides./ns/joint_states.subscription.history': 'keep_all'}


def test_overrides_no_entity_of_the_node_reads_are_left_alone():
    # rclpy leaves them alone too: durability of /tf_static and of joint_states, other topics
    values = {'qos_overrides./tf_static.publisher.durability': 'volatile',
              'qos_overrides./joint_states.subscription.durability': 42,
              'qos_overrides./chatter.publisher.depth': 'deep',
              'qos_overrides./joint_states.subscription.depth': 'deep'}
    assert check_overrides(values, '/robot/joint_states', JAZZY) == {}


@pytest.mark.parametrize('name, value, words', [
    ('qos_overrides./tf.publisher.reliability', 'sometimes',
     'qos_overrides./tf.publisher.reliability must be one of system_default, reliable, '
     "best_effort, best_available, got 'sometimes'"),
    ('qos_overrides./tf.publisher.reliability', 'unknown', 'must be one of'),
    ('qos_overrides./tf.publisher.history', 1, 'must be one of'),
    ('qos_overrides./tf.publisher.durability', b'volatile', 'must be one of'),
    ('qos_overrides./tf_static.publisher.depth', 2.0,
     'qos_overrides./tf_static.publisher.depth must be an integer, got 2.0'),
    ('qos_overrides./tf_static.publisher.depth', True, 'must be an integer'),
    ('qos_overrides./tf_static.publisher.depth', '10', 'must be an integer'),
    ('qos_overrides./joint_states.subscription.depth', -1,
     f'must be between 0 and {MAX_DEPTH}, got -1'),
    ('qos_overrides./joint_states.subscription.depth', 10 ** 400, 'an integer of 1329 bits'),
    ('qos_overrides./joint_states.subscription.reliability', 'x' * 10 ** 6, 'must be one of'),
])
def test_a_value_rclpy_cannot_use_is_refused_naming_its_parameter(name, value, words):
    with pytest.raises(QoSOverrideError, match='^qos_overrides') as caught:
        check_overrides({name: value}, '/joint_states', JAZZY)
    assert words in str(caught.value)
    assert len(str(caught.value)) < 300
    assert isinstance(caught.value, FrameKinematicsError)


def test_the_overrides_of_a_remapped_tf_are_read_under_its_resolved_name():
    # multi-robot TF remaps /tf to /robot1/tf: rclpy then reads qos_overrides./robot1/tf...
    values = {'qos_overrides./robot1/tf.publisher.depth': 10,
              'qos_overrides./tf_static.publisher.depth': 'left to rclpy: not read'}
    assert check_overrides(values, '/joint_states', JAZZY, '/robot1/tf',
                           '/robot1/tf_static') == {}
    values = {'qos_overrides./robot1/tf_static.publisher.reliability': 'sometimes'}
    with pytest.raises(QoSOverrideError,
                       match='^qos_overrides./robot1/tf_static.publisher.reliability must'):
        check_overrides(values, '/joint_states', JAZZY, '/robot1/tf', '/robot1/tf_static')


def test_a_name_this_rclpy_does_not_know_is_refused():
    values = {'qos_overrides./tf.publisher.reliability': 'best_available'}
    assert check_overrides(values, '/joint_states', JAZZY) == {}
    with pytest.raises(QoSOverrideError, match='system_default, reliable, best_effort, got'):
        check_overrides(values, '/joint_states', HUMBLE)


def test_a_running_node_refuses_to_change_an_override_as_a_read_only_parameter():
    bridge, _ = logged_bridge()
    out = bridge.apply_parameters({'publish_frequency': 10.0,
                                   'qos_overrides./tf.publisher.depth': 5}, 0)
    assert not out.accepted
    assert out.reason.endswith("parameter 'qos_overrides./tf.publisher.depth' cannot be set "
                               'because it is read-only')
    assert bridge.settings.publish_frequency != 10.0  # none of the changes was taken
    assert bridge.apply_parameters({'use_sim_time': True}, 0).accepted


def test_a_long_override_name_is_named_by_its_excerpt_whole():
    bridge, _ = logged_bridge()
    name = 'qos_overrides./' + 'x' * 300 + '.publisher.depth'
    out = bridge.apply_parameters({name: 5}, 0)
    assert not out.accepted
    assert "parameter 'qos_overrides./xxx" in out.reason
    assert out.reason.endswith(f'x... ({len(name)} characters) cannot be set because it is '
                               'read-only')
