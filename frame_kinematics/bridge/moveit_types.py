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
MoveIt's ``GetPositionIK`` and ``GetPositionFK`` requests and responses, as plain data.

They mirror ``moveit_msgs/srv/GetPositionIK`` and ``moveit_msgs/srv/GetPositionFK`` (the
fields this node reads and fills); :mod:`frame_kinematics.bridge.moveit` answers them and
:mod:`frame_kinematics.ros.moveit_conversions` converts them to and from the messages. The
error codes are the values of ``moveit_msgs/msg/MoveItErrorCodes``.
"""

from dataclasses import dataclass
from typing import Sequence, Tuple

# The values of moveit_msgs/msg/MoveItErrorCodes used by move_group's kinematics services.
SUCCESS = 1
FAILURE = 99999
INVALID_GROUP_NAME = -15
INVALID_ROBOT_STATE = -17
INVALID_LINK_NAME = -18
FRAME_TRANSFORM_FAILURE = -21
NO_IK_SOLUTION = -31

Vector3 = Tuple[float, float, float]
Quaternion = Tuple[float, float, float, float]


@dataclass(frozen=True)
class PoseIn:
    """
    A ``geometry_msgs/PoseStamped``.

    :ivar frame_id: the frame the pose is given in ('' for the model frame).
    :ivar position: ``frame_p_pose``.
    :ivar orientation: quaternion ``[x, y, z, w]`` of ``frame_R_pose``.
    """

    frame_id: str = ''
    position: Sequence[float] = (0.0, 0.0, 0.0)
    orientation: Sequence[float] = (0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True)
class RobotStateIn:
    """
    A ``moveit_msgs/RobotState``: the joint values it gives (all optional).

    :ivar names: ``joint_state.name``.
    :ivar positions: ``joint_state.position``, one per name.
    :ivar multi_dof_names: ``multi_dof_joint_state.joint_names``.
    :ivar multi_dof_transforms: ``multi_dof_joint_state.transforms``, one ``(translation,
        rotation [x, y, z, w])`` per name.
    """

    names: Sequence[str] = ()
    positions: Sequence[float] = ()
    multi_dof_names: Sequence[str] = ()
    multi_dof_transforms: Sequence[Tuple[Sequence[float], Sequence[float]]] = ()


@dataclass(frozen=True)
class RobotStateOut:
    """
    A ``moveit_msgs/RobotState`` to answer (``is_diff`` false), as move_group fills it.

    :ivar names: every one-variable joint of the robot (mimic joints included).
    :ivar positions: their values.
    :ivar multi_dof_names: the floating and planar joints.
    :ivar multi_dof_transforms: their ``(translation, rotation [x, y, z, w])``.
    """

    names: Tuple[str, ...] = ()
    positions: Tuple[float, ...] = ()
    multi_dof_names: Tuple[str, ...] = ()
    multi_dof_transforms: Tuple[Tuple[Vector3, Quaternion], ...] = ()


@dataclass(frozen=True)
class PositionIKRequestIn:
    """
    A ``moveit_msgs/PositionIKRequest`` (the ``ik_request`` of ``GetPositionIK``).

    :ivar group_name: a group of the SRDF.
    :ivar robot_state: the seed; joints it does not name keep the latest joint_states values.
    :ivar ik_link_name: the link to place ('' for the group's tip).
    :ivar pose_stamped: its target.
    :ivar ik_link_names: the links to place when ``pose_stamped_vector`` is given.
    :ivar pose_stamped_vector: one target per link of ``ik_link_names``.
    :ivar timeout: seconds (``sec + 1e-9 nanosec``; 0 for the default).
    :ivar avoid_collisions: asked to avoid collisions (not done: logged).
    :ivar has_constraints: the request holds constraints (not enforced: logged).
    """

    group_name: str
    robot_state: RobotStateIn = RobotStateIn()
    ik_link_name: str = ''
    pose_stamped: PoseIn = PoseIn()
    ik_link_names: Sequence[str] = ()
    pose_stamped_vector: Sequence[PoseIn] = ()
    timeout: float = 0.0
    avoid_collisions: bool = False
    has_constraints: bool = False


@dataclass(frozen=True)
class PositionIKAnswer:
    """
    A ``GetPositionIK`` response.

    :ivar error_code: one of the ``MoveItErrorCodes`` values above.
    :ivar message: what happened (the error code's text field where the message has one).
    :ivar solution: the whole robot state on success, empty otherwise.
    """

    error_code: int
    message: str
    solution: RobotStateOut = RobotStateOut()


@dataclass(frozen=True)
class PositionFKRequestIn:
    """
    A ``GetPositionFK`` request.

    :ivar frame_id: ``header.frame_id``: the frame of the answered poses ('' for the model
        frame).
    :ivar fk_link_names: the links (any frame of the tree) to place.
    :ivar robot_state: joint values; joints it does not name keep the latest values.
    """

    frame_id: str = ''
    fk_link_names: Sequence[str] = ()
    robot_state: RobotStateIn = RobotStateIn()


@dataclass(frozen=True)
class PoseOut:
    """A ``geometry_msgs/PoseStamped`` to answer (the stamp is the node's)."""

    frame_id: str
    position: Vector3
    orientation: Quaternion


@dataclass(frozen=True)
class PositionFKAnswer:
    """
    A ``GetPositionFK`` response.

    :ivar error_code: one of the ``MoveItErrorCodes`` values above.
    :ivar message: what happened.
    :ivar fk_link_names: the links answered (unknown ones are left out, as move_group does).
    :ivar pose_stamped: one pose per answered link.
    """

    error_code: int
    message: str
    fk_link_names: Tuple[str, ...] = ()
    pose_stamped: Tuple[PoseOut, ...] = ()
