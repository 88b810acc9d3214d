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
Conversions between MoveIt's kinematics services and the bridge's plain data (no decisions).

As :mod:`frame_kinematics.ros.conversions`: nothing here imports rclpy or a message package;
each function reads or fills the fields of the messages it is given (``moveit_msgs/srv/
GetPositionIK``, ``GetPositionFK``), so it is tested on any object with the same fields.
``MoveItErrorCodes`` has text fields in recent ``moveit_msgs`` only (:data:`ERROR_TEXT_FIELDS`):
they are filled where the message has them.
"""

from typing import Any, Callable

from .conversions import fill_stamp, stamp_to_ns
from ..bridge.moveit_types import (PoseIn, PositionFKAnswer, PositionFKRequestIn,
                                   PositionIKAnswer, PositionIKRequestIn, RobotStateIn,
                                   RobotStateOut)

#: ``error_code.error_source`` of the answers (where the message has it).
ERROR_SOURCE = 'frame_kinematics'


def pose_in(msg: Any) -> PoseIn:
    """``geometry_msgs/PoseStamped`` to the bridge's pose."""
    p, o = msg.pose.position, msg.pose.orientation
    return PoseIn(msg.header.frame_id, (p.x, p.y, p.z), (o.x, o.y, o.z, o.w))


def robot_state_in(msg: Any) -> RobotStateIn:
    """``moveit_msgs/RobotState`` to the joint values it gives."""
    joints = msg.joint_state
    multi = msg.multi_dof_joint_state
    transforms = [((t.translation.x, t.translation.y, t.translation.z),
                   (t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w))
                  for t in multi.transforms]
    return RobotStateIn(list(joints.name), list(joints.position), list(multi.joint_names),
                        transforms)


def _constraints_given(constraints: Any) -> bool:
    return any(len(getattr(constraints, name)) for name in (
        'joint_constraints', 'position_constraints', 'orientation_constraints',
        'visibility_constraints'))


def position_ik_request(request: Any) -> PositionIKRequestIn:
    """``GetPositionIK`` request to the bridge's request (``timeout`` as seconds)."""
    ik = request.ik_request
    return PositionIKRequestIn(
        ik.group_name, robot_state_in(ik.robot_state), ik.ik_link_name, pose_in(ik.pose_stamped),
        list(ik.ik_link_names), [pose_in(p) for p in ik.pose_stamped_vector],
        stamp_to_ns(ik.timeout) * 1e-9, bool(ik.avoid_collisions),
        _constraints_given(ik.constraints))


#: The text fields of ``MoveItErrorCodes`` by version: ``message`` and ``source`` (moveit_msgs
#: 2.4, Jazzy), ``error_message`` and ``error_source`` (later); none in 2.2 (Humble).
ERROR_TEXT_FIELDS = (('message', 'source'), ('error_message', 'error_source'))


def _fill_error(error_code: Any, code: int, message: str) -> None:
    error_code.val = code
    for text, source in ERROR_TEXT_FIELDS:
        if hasattr(error_code, text):
            setattr(error_code, text, message)
            setattr(error_code, source, ERROR_SOURCE)
            return


def fill_robot_state(msg: Any, state: RobotStateOut, stamp_ns: int,
                     make_transform: Callable[[], Any]) -> Any:
    """
    Fill a ``moveit_msgs/RobotState`` (``is_diff`` false); return it.

    :param msg: the message.
    :param state: the state.
    :param stamp_ns: the stamp of its joint states.
    :param make_transform: creates one ``geometry_msgs/Transform``.
    :return: ``msg``, filled.
    """
    msg.is_diff = False
    fill_stamp(msg.joint_state.header.stamp, stamp_ns)
    msg.joint_state.name = list(state.names)
    msg.joint_state.position = list(state.positions)
    fill_stamp(msg.multi_dof_joint_state.header.stamp, stamp_ns)
    msg.multi_dof_joint_state.joint_names = list(state.multi_dof_names)
    transforms = []
    for translation, rotation in state.multi_dof_transforms:
        transform = make_transform()
        t, r = transform.translation, transform.rotation
        t.x, t.y, t.z = translation
        r.x, r.y, r.z, r.w = rotation
        transforms.append(transform)
    msg.multi_dof_joint_state.transforms = transforms
    return msg


def fill_position_ik_response(response: Any, answer: PositionIKAnswer, stamp_ns: int,
                              make_transform: Callable[[], Any]) -> Any:
    """Fill a ``GetPositionIK`` response; return it."""
    _fill_error(response.error_code, answer.error_code, answer.message)
    fill_robot_state(response.solution, answer.solution, stamp_ns, make_transform)
    return response


def position_fk_request(request: Any) -> PositionFKRequestIn:
    """``GetPositionFK`` request to the bridge's request."""
    return PositionFKRequestIn(request.header.frame_id, list(request.fk_link_names),
                               robot_state_in(request.robot_state))


def fill_position_fk_response(response: Any, answer: PositionFKAnswer, stamp_ns: int,
                              make_pose: Callable[[], Any]) -> Any:
    """
    Fill a ``GetPositionFK`` response; return it.

    :param response: the response.
    :param answer: the bridge's answer.
    :param stamp_ns: the stamp of every pose (the node clock's now, as move_group).
    :param make_pose: creates one ``geometry_msgs/PoseStamped``.
    :return: ``response``, filled.
    """
    _fill_error(response.error_code, answer.error_code, answer.message)
    response.fk_link_names = list(answer.fk_link_names)
    poses = []
    for pose in answer.pose_stamped:
        msg = make_pose()
        fill_stamp(msg.header.stamp, stamp_ns)
        msg.header.frame_id = pose.frame_id
        p, o = msg.pose.position, msg.pose.orientation
        p.x, p.y, p.z = pose.position
        o.x, o.y, o.z, o.w = pose.orientation
        poses.append(msg)
    response.pose_stamped = poses
    return response


__all__ = ['ERROR_SOURCE', 'ERROR_TEXT_FIELDS', 'fill_position_fk_response',
           'fill_position_ik_response', 'fill_robot_state', 'pose_in', 'position_fk_request',
           'position_ik_request', 'robot_state_in']
