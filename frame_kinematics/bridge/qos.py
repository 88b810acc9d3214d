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
The ``qos_overrides`` parameters the node reads, as robot_state_publisher and tf2_ros do.

robot_state_publisher lets ``qos_overrides.<joint_states>.subscription.<policy>`` change the
history, depth and reliability of its joint_states subscription (``<joint_states>`` is the
topic's resolved name, ``/joint_states`` in the root namespace); tf2_ros's broadcasters let
``qos_overrides./tf.publisher.<policy>`` change the history, depth, reliability and durability
of ``/tf``, and ``qos_overrides./tf_static.publisher.<policy>`` the history, depth and
reliability of ``/tf_static``. rclpy reads these parameters as the node creates the three;
:func:`check_overrides` checks their values first, so that a bad one is refused with its name
(rclpy would stop on an assertion or a RuntimeError), and gives those of joint_states to the
node's second node, which subscribes to it.
"""

from typing import Any, Dict, Mapping, Tuple

from .settings import check_choice, SettingError
from ..core.checks import check_count
from ..core.errors import ConfigurationError, quote

#: Policies a parameter may change on the joint_states subscription (robot_state_publisher's).
JOINT_STATES_POLICIES = ('history', 'depth', 'reliability')
#: Policies a parameter may change on the ``/tf`` publisher (tf2_ros's TransformBroadcaster).
TF_POLICIES = ('history', 'depth', 'reliability', 'durability')
#: Policies a parameter may change on ``/tf_static`` (tf2_ros's StaticTransformBroadcaster).
TF_STATIC_POLICIES = ('history', 'depth', 'reliability')
#: Deepest queue a ``depth`` may ask for (DDS counts it in 32 bits).
MAX_DEPTH = 2 ** 31 - 1
#: Prefix of every QoS override parameter.
PREFIX = 'qos_overrides.'


class QoSOverrideError(SettingError):
    """A ``qos_overrides`` parameter whose value the node cannot use, or a change of one."""


def override_name(topic: str, kind: str, policy: str) -> str:
    """
    Return the parameter that overrides one policy of one publisher or subscription.

    :param topic: the topic's resolved name (``/tf``, ``/joint_states``).
    :param kind: ``'publisher'`` or ``'subscription'``.
    :param policy: ``'history'``, ``'depth'``, ``'reliability'`` or ``'durability'``.
    :return: ``qos_overrides.<topic>.<kind>.<policy>``.
    """
    return f'{PREFIX}{topic}.{kind}.{policy}'


def _check_value(name: str, policy: str, value: Any,
                 names: Mapping[str, Tuple[str, ...]]) -> Any:
    if policy == 'depth':
        if not isinstance(value, int) or isinstance(value, bool):
            raise QoSOverrideError(f'{name} must be an integer, got {quote(value)}')
        try:
            return check_count(value, name, 0, MAX_DEPTH)
        except ConfigurationError as exc:
            raise QoSOverrideError(str(exc)) from None
    word = value.lower() if isinstance(value, str) else value
    try:  # 'unknown' is a name rclpy has for no policy a middleware takes
        check_choice(word, name, tuple(n for n in names[policy] if n != 'unknown'))
    except SettingError as exc:
        raise QoSOverrideError(str(exc)) from None
    return value


def check_overrides(values: Mapping[str, Any], joint_states: str,
                    names: Mapping[str, Tuple[str, ...]], tf: str = '/tf',
                    tf_static: str = '/tf_static') -> Dict[str, Any]:
    """
    Check the QoS overrides of joint_states, ``/tf`` and ``/tf_static`` among parameters.

    Overrides of other topics or policies are left alone, as rclpy leaves them: no entity of
    the node reads them. Each topic is named as rclpy names its parameters: by its resolved
    name, so a ``/tf`` remapped to ``/robot1/tf`` (multi-robot TF) is overridden by
    ``qos_overrides./robot1/tf.publisher.<policy>``, as in robot_state_publisher.

    :param values: the node's parameters ``{name: value}``.
    :param joint_states: the resolved name of the joint_states topic.
    :param names: the values rclpy names for each of ``history``, ``reliability`` and
        ``durability``, in lower case (they differ between ROS distributions); any of them but
        ``unknown``, in any case, is taken, as rclpy takes it.
    :param tf: the resolved name of ``/tf`` (remappings applied).
    :param tf_static: the resolved name of ``/tf_static``.
    :return: the overrides of the joint_states subscription, ``{parameter: value}``.
    :raises QoSOverrideError: for a value rclpy cannot use, naming its parameter.
    """
    entities = ((joint_states, 'subscription', JOINT_STATES_POLICIES),
                (tf, 'publisher', TF_POLICIES),
                (tf_static, 'publisher', TF_STATIC_POLICIES))
    subscription: Dict[str, Any] = {}
    for topic, kind, policies in entities:
        for policy in policies:
            name = override_name(topic, kind, policy)
            if name in values:
                value = _check_value(name, policy, values[name], names)
                if kind == 'subscription':
                    subscription[name] = value
    return subscription


def refuse_changes(changes: Mapping[str, Any]) -> None:
    """
    Refuse a change of a QoS override once the node runs (rclpy declares them read-only).

    :param changes: parameter changes ``{name: value}``.
    :raises QoSOverrideError: when one of them is a ``qos_overrides`` parameter, with
        robot_state_publisher's message.
    """
    for name in changes:
        if isinstance(name, str) and name.startswith(PREFIX):
            raise QoSOverrideError(f'parameter {quote(name)} cannot be set because it is '
                                   'read-only')
