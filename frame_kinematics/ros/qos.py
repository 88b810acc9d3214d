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
"""The QoS of the node's topics, and rclpy's side of their overrides (:mod:`..bridge.qos`)."""

from typing import Dict, Sequence, Tuple

from rclpy.qos import (DurabilityPolicy, HistoryPolicy, QoSPolicyKind, QoSProfile,
                       ReliabilityPolicy)
from rclpy.qos_overriding_options import QoSOverridingOptions

from ..bridge.throttle import JOINT_STATES_DEPTH


def latched_qos() -> QoSProfile:
    """
    Return a new QoS for a latched topic (``robot_description``, ``/tf_static``).

    The last message reaches late subscribers. A new one each time: rclpy writes the
    overrides it reads into the profile it is given.
    """
    return QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                      reliability=ReliabilityPolicy.RELIABLE)


def joint_states_qos() -> QoSProfile:
    """Return a new sensor-data QoS (best effort, volatile) deep enough for a batch."""
    return QoSProfile(depth=JOINT_STATES_DEPTH, reliability=ReliabilityPolicy.BEST_EFFORT,
                      durability=DurabilityPolicy.VOLATILE)


def overriding_options(policies: Sequence[str]) -> QoSOverridingOptions:
    """
    Return the options that make rclpy read the overrides of ``policies`` for an entity.

    :param policies: policy names (``'depth'``, ``'reliability'``...).
    :return: the options for ``create_publisher`` or ``create_subscription``.
    """
    return QoSOverridingOptions([QoSPolicyKind[policy.upper()] for policy in policies])


def policy_names() -> Dict[str, Tuple[str, ...]]:
    """Return the names of the values of each named policy in this rclpy, in lower case."""
    return {policy: tuple(member.name.lower() for member in values)
            for policy, values in (('history', HistoryPolicy),
                                   ('reliability', ReliabilityPolicy),
                                   ('durability', DurabilityPolicy))}
