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
What the bridge takes in and hands back: plain-data messages (no ROS).

Stamps are integer nanoseconds (``builtin_interfaces/Time`` as one number).
"""

from dataclasses import dataclass, field
from typing import List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from .markers import MarkerOut
from ..core.checks import MAX_MAGNITUDE
from ..core.errors import FrameKinematicsError, name_list


@dataclass(frozen=True)
class JointStateInput:
    """
    A ``sensor_msgs/JointState`` as plain data.

    :ivar names: joint names (any subset of the model's joints).
    :ivar positions: one position per name.
    :ivar velocities: one velocity per name, or empty.
    :ivar stamp_ns: header stamp in nanoseconds.
    """

    names: Sequence[str]
    positions: Sequence[float]
    velocities: Sequence[float] = ()
    stamp_ns: int = 0


class RefusedMessage(FrameKinematicsError):
    """
    A joint_states message refused whole (:func:`read_joint_state`, :func:`check_values`).

    :ivar key: what kind of fault (the throttled log's key).
    """

    def __init__(self, key: str, text: str) -> None:
        """Keep the kind of fault and say it."""
        super().__init__(text)
        self.key = key


def read_joint_state(msg: JointStateInput) -> Tuple[Tuple[str, ...], np.ndarray, np.ndarray, int]:
    """
    Read a joint_states message once, and check its types and lengths as a whole.

    Its values are checked by :func:`check_values`, once the names the model reads are known.

    :param msg: the message.
    :return: ``(names, positions, velocities, stamp_ns)``, the arrays float vectors (the
        message's own when they are float64 already: only read).
    :raises RefusedMessage: for values or a stamp that are not numbers, or lengths that differ
        from the names'.
    """
    try:
        names = tuple(msg.names)
        positions = np.asarray(msg.positions, dtype=float).reshape(-1)
        velocities = np.asarray(msg.velocities, dtype=float).reshape(-1)
        stamp_ns = int(msg.stamp_ns)
    except (TypeError, ValueError, OverflowError):
        raise RefusedMessage('values', 'ignored a joint_states message whose positions, '
                             'velocities or stamp are not numbers') from None
    for what, values in (('positions', positions), ('velocities', velocities)):
        if len(values) != len(names) and (what == 'positions' or len(values)):
            raise RefusedMessage('length', f'ignored a joint_states message with {len(names)} '
                                 f'names and {len(values)} {what} (joints {name_list(names)})')
    return names, positions, velocities, stamp_ns


def check_values(names: Sequence[str], positions: np.ndarray, velocities: np.ndarray,
                 q_pos: np.ndarray, v_pos: np.ndarray) -> Optional[np.ndarray]:
    """
    Check the values of a message (:func:`read_joint_state`) that a model reads.

    Values of names the model does not read (unknown names, fixed joints) are not checked:
    robot_state_publisher ignores them too. A NaN velocity is accepted: it means the joint's
    velocity is unknown (ros2_control's joint_state_broadcaster sends NaN for a joint without
    a velocity interface). The usual message, every value a number within the bound, is
    checked as a whole, without picking the values read.

    :param names: the message's names.
    :param positions: its positions.
    :param velocities: its velocities (empty: none).
    :param q_pos: indices in the message of the positions the model reads.
    :param v_pos: indices in the message of the velocities it reads.
    :return: None when every velocity read is known (or none is given), else which of them
        are known, in the order of ``v_pos`` (False for a NaN).
    :raises RefusedMessage: for a NaN position, an inf or a magnitude above
        ``MAX_MAGNITUDE`` among them.
    """
    if (np.abs(positions) <= MAX_MAGNITUDE).all() and \
            (not len(velocities) or (np.abs(velocities) <= MAX_MAGNITUDE).all()):
        return None  # False for NaN: none anywhere
    position_ok = np.abs(positions[q_pos]) <= MAX_MAGNITUDE
    bad = set(q_pos[~position_ok].tolist())
    known = None
    if len(velocities):
        given = velocities[v_pos]
        known = given == given
        bad.update(v_pos[known & ~(np.abs(given) <= MAX_MAGNITUDE)].tolist())
    if bad:
        raise RefusedMessage('nan', 'ignored a joint_states message with NaN, inf or a '
                             f'magnitude above {MAX_MAGNITUDE:g} for '
                             f'{name_list([names[i] for i in sorted(bad)])}')
    return None if known is None or known.all() else known


class TransformOut(NamedTuple):
    """
    One ``geometry_msgs/TransformStamped`` to publish: ``parent_T_child``.

    :ivar parent: header frame id (prefixed).
    :ivar child: child frame id (prefixed).
    :ivar stamp_ns: stamp in nanoseconds.
    :ivar translation: ``parent_p_child``.
    :ivar rotation: quaternion ``[x, y, z, w]`` of ``parent_R_child``.
    """

    parent: str
    child: str
    stamp_ns: int
    translation: Tuple[float, float, float]
    rotation: Tuple[float, float, float, float]


@dataclass(frozen=True)
class CenterOfMassOut:
    """
    Robot center of mass to publish on the topics.

    :ivar stamp_ns: stamp in nanoseconds (the one of the CoM frame on ``/tf``).
    :ivar frame_id: the (prefixed) frame every vector is expressed in: the root link, or the
        child of the floating root joint when floating joints are skipped.
    :ivar position: ``frame_p_com``.
    :ivar velocity: CoM velocity in that frame's axes, None unless every velocity is known.
    :ivar angular_momentum: centroidal angular momentum (about the CoM), or None.
    """

    stamp_ns: int
    frame_id: str
    position: Tuple[float, float, float]
    velocity: Optional[Tuple[float, float, float]]
    angular_momentum: Optional[Tuple[float, float, float]]


@dataclass
class BridgeOutput:
    """
    What the node publishes after an event.

    :ivar accepted: whether the input was accepted.
    :ivar tf: transforms for ``/tf``.
    :ivar tf_static: the whole static set for ``/tf_static`` when it changed, else None.
    :ivar center_of_mass: values for the CoM topics, or None.
    :ivar robot_description: URDF to publish on ``robot_description``, or None.
    :ivar markers: the CoM markers to publish (they replace the previous ones), or None.
    :ivar clear_markers: remove the markers shown so far (a new model, or markers switched
        off) before publishing ``markers``.
    :ivar reason: why an input was rejected (empty when accepted).
    """

    accepted: bool = True
    tf: List[TransformOut] = field(default_factory=list)
    tf_static: Optional[List[TransformOut]] = None
    center_of_mass: Optional[CenterOfMassOut] = None
    robot_description: Optional[str] = None
    markers: Optional[List[MarkerOut]] = None
    clear_markers: bool = False
    reason: str = ''
