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
Conversions between ROS messages and the bridge's plain data (no decisions here).

Nothing here imports rclpy or a message package: each function reads the fields of a message
it is given, or fills the fields of a message it is given (the node creates the messages), so
the conversions are tested without ROS on any object with the same fields.
"""

from typing import Any, Callable, List, Optional, Sequence

from ..bridge.markers import MarkerOut, SPHERE
from ..bridge.messages import CenterOfMassOut, JointStateInput, TransformOut
from ..bridge.service_types import (IKRequest, IKResponse, JacobianRequest,
                                    JacobianResponse, JointValues, LockedJointIn, MatrixOut,
                                    RelativeMotionRequest, RelativeMotionResponse,
                                    RelativeTransformationIn)

NS_PER_S = 1_000_000_000


def stamp_to_ns(stamp: Any) -> int:
    """``builtin_interfaces/Time`` to integer nanoseconds."""
    return stamp.sec * NS_PER_S + stamp.nanosec


def fill_stamp(stamp: Any, ns: int) -> Any:
    """Set a ``builtin_interfaces/Time`` from integer nanoseconds; return it."""
    stamp.sec, stamp.nanosec = divmod(ns, NS_PER_S)
    return stamp


def joint_state_input(msg: Any) -> JointStateInput:
    """``sensor_msgs/JointState`` to the bridge's input (positions and velocities as given)."""
    return JointStateInput(msg.name, msg.position, msg.velocity, stamp_to_ns(msg.header.stamp))


def fill_joint_state(msg: Any, joint_state: JointStateInput) -> Any:
    """Fill a ``sensor_msgs/JointState`` from the bridge's input; return it."""
    fill_stamp(msg.header.stamp, joint_state.stamp_ns)
    msg.name = list(joint_state.names)
    msg.position = [float(x) for x in joint_state.positions]
    msg.velocity = [float(x) for x in joint_state.velocities]
    return msg


def fill_transform(msg: Any, transform: TransformOut) -> Any:
    """Fill a ``geometry_msgs/TransformStamped`` from a bridge transform; return it."""
    fill_stamp(msg.header.stamp, transform.stamp_ns)
    msg.header.frame_id = transform.parent
    msg.child_frame_id = transform.child
    t = msg.transform.translation
    t.x, t.y, t.z = transform.translation
    r = msg.transform.rotation
    r.x, r.y, r.z, r.w = transform.rotation
    return msg


def transform_messages(transforms: Sequence[TransformOut], make: Callable[[], Any]) -> List[Any]:
    """
    Convert bridge transforms to ``geometry_msgs/TransformStamped`` messages.

    :param transforms: the transforms.
    :param make: creates one empty message (``TransformStamped``).
    :return: one filled message per transform, in order.
    """
    return [fill_transform(make(), t) for t in transforms]


class TFMessageFiller:
    """
    ``tf2_msgs/TFMessage`` objects for the ``/tf`` path, one kept per list of frame pairs.

    Building the ``TransformStamped`` objects costs more than filling their numbers: the
    frame ids of the ``/tf`` path repeat from one message to the next, so a message is built
    once per list of frame pairs and then only its stamps and numbers are written. rclpy
    copies a message when it is published, so the next fill may change it. One thread uses
    it (the ``/tf`` path).

    :param make_message: creates an empty ``TFMessage``.
    :param make_transform: creates an empty ``TransformStamped``.
    :param limit: most messages kept (all are dropped beyond).
    """

    def __init__(self, make_message: Callable[[], Any], make_transform: Callable[[], Any],
                 limit: int = 64) -> None:
        """Keep the factories; no message is built yet."""
        self._make_message = make_message
        self._make_transform = make_transform
        self._limit = limit
        self._messages: dict = {}

    def __call__(self, transforms: Sequence[TransformOut]) -> Any:
        """
        Return the ``TFMessage`` of ``transforms`` (valid until the next call).

        :param transforms: the transforms.
        :return: the kept message of their frame pairs, with their stamps and numbers.
        """
        key = tuple((t.parent, t.child) for t in transforms)
        msg = self._messages.get(key)
        if msg is None:
            if len(self._messages) >= self._limit:
                self._messages.clear()
            msg = self._make_message()
            msg.transforms = transform_messages(transforms, self._make_transform)
            self._messages[key] = msg
            return msg
        for out, transform in zip(msg.transforms, transforms):
            stamp = out.header.stamp
            stamp.sec, stamp.nanosec = divmod(transform.stamp_ns, NS_PER_S)
            t = out.transform.translation
            t.x, t.y, t.z = transform.translation
            r = out.transform.rotation
            r.x, r.y, r.z, r.w = transform.rotation
        return msg


def marker_messages(markers: Sequence[MarkerOut], make: Callable[[], Any], add: int,
                    sphere: int, cylinder: int) -> List[Any]:
    """
    Convert CoM markers to ``visualization_msgs/Marker`` messages.

    :param markers: the markers.
    :param make: creates one empty message (``Marker``).
    :param add: the ``ADD`` action constant.
    :param sphere: the ``SPHERE`` type constant.
    :param cylinder: the ``CYLINDER`` type constant.
    :return: one filled message per marker, in order.
    """
    out = []
    for marker in markers:
        msg = make()
        msg.ns, msg.id, msg.action = marker.namespace, marker.marker_id, add
        msg.type = sphere if marker.shape == SPHERE else cylinder
        fill_stamp(msg.header.stamp, marker.stamp_ns)
        msg.header.frame_id = marker.frame_id
        msg.pose.position.x, msg.pose.position.y, msg.pose.position.z = marker.position
        msg.pose.orientation.w = 1.0
        msg.scale.x, msg.scale.y, msg.scale.z = marker.scale
        msg.color.r, msg.color.g, msg.color.b, msg.color.a = marker.color
        out.append(msg)
    return out


def fill_point(msg: Any, com: CenterOfMassOut) -> Any:
    """Fill a ``geometry_msgs/PointStamped`` with the CoM position; return it."""
    fill_stamp(msg.header.stamp, com.stamp_ns)
    msg.header.frame_id = com.frame_id
    msg.point.x, msg.point.y, msg.point.z = com.position
    return msg


def fill_vector(msg: Any, com: CenterOfMassOut, value: Sequence[float]) -> Any:
    """Fill a ``geometry_msgs/Vector3Stamped`` with a CoM vector; return it."""
    fill_stamp(msg.header.stamp, com.stamp_ns)
    msg.header.frame_id = com.frame_id
    msg.vector.x, msg.vector.y, msg.vector.z = value
    return msg


def joint_values(msg: Any) -> JointValues:
    """Take the names and positions of a ``sensor_msgs/JointState`` in a request."""
    return JointValues(list(msg.name), list(msg.position))


def fill_matrix(array_msg: Any, matrix: Optional[MatrixOut], make_dimension: Callable[..., Any],
                integer: bool = False) -> None:
    """
    Copy a bridge matrix into a ``std_msgs/*MultiArray`` message.

    :param array_msg: the message.
    :param matrix: the matrix (None leaves the message empty).
    :param make_dimension: ``std_msgs/MultiArrayDimension`` (keyword arguments label, size,
        stride).
    :param integer: the message holds integers (``Int8MultiArray``).
    """
    if matrix is None:
        return
    array_msg.layout.dim = [make_dimension(label=label, size=size, stride=stride)
                            for label, size, stride in zip(matrix.labels, matrix.sizes,
                                                           matrix.strides)]
    array_msg.data = [int(x) for x in matrix.data] if integer else \
        [float(x) for x in matrix.data]


def ik_request(request: Any) -> IKRequest:
    """``ComputeIK`` request to the bridge's request."""
    target = request.target
    position = target.pose.position
    orientation = target.pose.orientation
    return IKRequest(request.tip_link, target.header.frame_id,
                     (position.x, position.y, position.z),
                     (orientation.x, orientation.y, orientation.z, orientation.w),
                     joint_values(request.seed), request.position_only,
                     request.position_tolerance, request.orientation_tolerance,
                     request.timeout, list(request.active_joints))


def fill_ik_response(response: Any, answer: IKResponse, stamp_ns: int) -> Any:
    """Fill a ``ComputeIK`` response; return it."""
    response.success = answer.success
    response.message = answer.message
    fill_stamp(response.solution.header.stamp, stamp_ns)
    response.solution.name = list(answer.names)
    response.solution.position = list(answer.positions)
    response.position_error = answer.position_error
    response.orientation_error = answer.orientation_error
    response.iterations = answer.iterations
    return response


def jacobian_request(request: Any) -> JacobianRequest:
    """``GetJacobian`` request to the bridge's request."""
    point = request.point
    return JacobianRequest(request.link, (point.x, point.y, point.z), request.expressed_in,
                           joint_values(request.joint_state))


def fill_jacobian_response(response: Any, answer: JacobianResponse,
                           make_dimension: Callable[..., Any]) -> Any:
    """Fill a ``GetJacobian`` response; return it."""
    response.success = answer.success
    response.message = answer.message
    response.joint_names = list(answer.joint_names)
    fill_matrix(response.jacobian, answer.jacobian, make_dimension)
    response.manipulability = answer.manipulability
    response.singular = answer.singular
    return response


def relative_motion_request(request: Any) -> RelativeMotionRequest:
    """``GetRelativeMotion`` request to the bridge's request."""
    return RelativeMotionRequest(
        [LockedJointIn(item.joint, item.parameterized) for item in request.locked_joints],
        [RelativeTransformationIn(item.body_a, item.body_b, item.parameterized,
                                  list(item.mask))
         for item in request.transformations])


def fill_relative_motion_response(response: Any, answer: RelativeMotionResponse,
                                  make_dimension: Callable[..., Any]) -> Any:
    """Fill a ``GetRelativeMotion`` response; return it."""
    response.success = answer.success
    response.message = answer.message
    response.index_names = list(answer.index_names)
    fill_matrix(response.matrix, answer.matrix, make_dimension, integer=True)
    return response


def parameter_changes(parameters: Sequence[Any]) -> dict:
    """``rclpy.parameter.Parameter`` list (``name``, ``value``) to ``{name: value}``."""
    return {p.name: p.value for p in parameters}
