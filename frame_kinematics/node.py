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
The rclpy node: a robot_state_publisher drop-in with CoM frames and kinematics services.

Every decision is taken by :class:`frame_kinematics.bridge.Bridge`; this module only
converts messages to and from its plain dataclasses and publishes what it returns.

Topics: subscribes ``joint_states`` (sensor-data QoS); publishes ``robot_description``
(transient local), ``/tf``, ``/tf_static``, ``com`` (``geometry_msgs/PointStamped``),
``com_velocity`` and ``angular_momentum`` (``geometry_msgs/Vector3Stamped``), ``com_markers``
(``visualization_msgs/MarkerArray``, see :mod:`frame_kinematics.com_markers`).
Services (with ``frame_kinematics_interfaces``): ``compute_ik``, ``get_jacobian``,
``get_relative_motion``.
"""

import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

from builtin_interfaces.msg import Time
from geometry_msgs.msg import PointStamped, TransformStamped, Vector3Stamped
from rcl_interfaces.msg import ParameterDescriptor, SetParametersResult
import rclpy
from rclpy.executors import Executor, ExternalShutdownException, SingleThreadedExecutor
from rclpy.logging import get_logger
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import (DurabilityPolicy, qos_profile_sensor_data, QoSProfile,
                       ReliabilityPolicy)
from sensor_msgs.msg import JointState
from std_msgs.msg import MultiArrayDimension, String
from tf2_msgs.msg import TFMessage
from tf2_ros import TransformBroadcaster
from visualization_msgs.msg import Marker, MarkerArray

from .bridge import (Bridge, BridgeOutput, CenterOfMassOut, JointStateInput,
                     PARAMETER_DEFAULTS, settings_from_parameters, TransformOut,
                     USER_FRAME_DEFAULTS)
from .bridge_services import (compute_ik, get_jacobian, get_relative_motion, IKRequest,
                              JacobianRequest, JointValues, LockedJointIn, MatrixOut,
                              RelativeMotionRequest, RelativeTransformationIn)
from .com_markers import com_markers, MarkerOut, SPHERE
from .core.errors import FrameKinematicsError

try:
    from frame_kinematics_interfaces.srv import ComputeIK, GetJacobian, GetRelativeMotion
except ImportError:  # the interfaces package is optional: the node runs without services
    ComputeIK = GetJacobian = GetRelativeMotion = None

#: Latched topics (``robot_description``, ``/tf_static``): the last message reaches late
#: subscribers.
LATCHED_QOS = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                         reliability=ReliabilityPolicy.RELIABLE)


# -- message conversions (no decisions here) ---------------------------------------------------
def stamp_to_ns(stamp: Time) -> int:
    """``builtin_interfaces/Time`` to integer nanoseconds."""
    return stamp.sec * 1_000_000_000 + stamp.nanosec


def ns_to_stamp(ns: int) -> Time:
    """Integer nanoseconds to ``builtin_interfaces/Time``."""
    return Time(sec=ns // 1_000_000_000, nanosec=ns % 1_000_000_000)


def joint_state_input(msg: JointState) -> JointStateInput:
    """``sensor_msgs/JointState`` to the bridge's input."""
    return JointStateInput(list(msg.name), msg.position, msg.velocity,
                           stamp_to_ns(msg.header.stamp))


def transform_msg(transform: TransformOut) -> TransformStamped:
    """Convert a bridge transform to ``geometry_msgs/TransformStamped``."""
    msg = TransformStamped()
    msg.header.stamp = ns_to_stamp(transform.stamp_ns)
    msg.header.frame_id = transform.parent
    msg.child_frame_id = transform.child
    t = msg.transform.translation
    t.x, t.y, t.z = transform.translation
    r = msg.transform.rotation
    r.x, r.y, r.z, r.w = transform.rotation
    return msg


def marker_msg(marker: MarkerOut) -> Marker:
    """Convert a center-of-mass marker to ``visualization_msgs/Marker``."""
    msg = Marker(ns=marker.namespace, id=marker.marker_id, action=Marker.ADD,
                 type=Marker.SPHERE if marker.shape == SPHERE else Marker.CYLINDER)
    msg.header.stamp = ns_to_stamp(marker.stamp_ns)
    msg.header.frame_id = marker.frame_id
    msg.pose.position.x, msg.pose.position.y, msg.pose.position.z = marker.position
    msg.pose.orientation.w = 1.0
    msg.scale.x, msg.scale.y, msg.scale.z = marker.scale
    msg.color.r, msg.color.g, msg.color.b, msg.color.a = marker.color
    return msg


def joint_values(msg: JointState) -> JointValues:
    """Take the positions of a ``sensor_msgs/JointState`` in a request."""
    return JointValues(list(msg.name), list(msg.position))


def fill_matrix(array_msg, matrix: Optional[MatrixOut]) -> None:
    """Copy a bridge matrix into a ``std_msgs/*MultiArray`` message."""
    if matrix is None:
        return
    array_msg.layout.dim = [MultiArrayDimension(label=label, size=size, stride=stride)
                            for label, size, stride in zip(matrix.labels, matrix.sizes,
                                                           matrix.strides)]
    if type(array_msg).__name__.startswith('Int'):
        array_msg.data = [int(x) for x in matrix.data]
    else:
        array_msg.data = [float(x) for x in matrix.data]


class FrameKinematicsNode(Node):
    """robot_state_publisher drop-in with CoM frames and kinematics services."""

    def __init__(self, **kwargs) -> None:
        """
        Declare the parameters, load the robot and start publishing.

        :param kwargs: passed to :class:`rclpy.node.Node` (e.g. ``parameter_overrides``).
        :raises FrameKinematicsError: if the robot description or parameters are unusable.
        """
        super().__init__('frame_kinematics', allow_undeclared_parameters=True,
                         automatically_declare_parameters_from_overrides=True, **kwargs)
        for name, default in PARAMETER_DEFAULTS.items():
            self._declare(name, default)
        for frame in self.get_parameter('user_frames.names').value or ():
            for key, default in USER_FRAME_DEFAULTS.items():
                if frame:
                    self._declare(f'user_frames.{frame}.{key}', default)
        if not self.has_parameter('publish.com_markers'):
            self.declare_parameter('publish.com_markers', True)
        params = self._parameter_values()
        self.bridge = Bridge(params['robot_description'], settings_from_parameters(params),
                             logger=self.get_logger())
        self._description_pub = self.create_publisher(String, 'robot_description', LATCHED_QOS)
        self._tf = TransformBroadcaster(self)
        # Not tf2_ros's StaticTransformBroadcaster: it never replaces a child frame it has
        # sent, and the bridge always hands over the whole static set.
        self._tf_static_pub = self.create_publisher(TFMessage, '/tf_static', LATCHED_QOS)
        self._com_pub = self.create_publisher(PointStamped, 'com', 10)
        self._com_velocity_pub = self.create_publisher(Vector3Stamped, 'com_velocity', 10)
        self._momentum_pub = self.create_publisher(Vector3Stamped, 'angular_momentum', 10)
        self._markers_pub = self.create_publisher(MarkerArray, 'com_markers', 10)
        self.create_subscription(JointState, 'joint_states', self._on_joint_state,
                                 qos_profile_sensor_data)
        self.add_on_set_parameters_callback(self._on_set_parameters)
        if ComputeIK is None:
            self.get_logger().warning(
                'frame_kinematics_interfaces is not installed: the compute_ik, get_jacobian '
                'and get_relative_motion services are not offered (build it with colcon)')
        else:
            self.create_service(ComputeIK, 'compute_ik', self._on_compute_ik)
            self.create_service(GetJacobian, 'get_jacobian', self._on_get_jacobian)
            self.create_service(GetRelativeMotion, 'get_relative_motion',
                                self._on_get_relative_motion)
        self._publish(self.bridge.initial_output(self._now()))
        model = self.bridge.model
        self.get_logger().info(
            f"robot '{model.name}' ({len(model.links)} links, {len(model.joint_names)} actuated "
            'joints): publishing /tf and /tf_static from joint_states')

    def _declare(self, name: str, default: Any) -> None:
        if not self.has_parameter(name):
            self.declare_parameter(name, default, ParameterDescriptor(dynamic_typing=True))

    def _parameter_values(self) -> Dict[str, Any]:
        return {name: param.value
                for name, param in self.get_parameters_by_prefix('').items()}

    def _now(self) -> int:
        return self.get_clock().now().nanoseconds

    def _publish(self, out: BridgeOutput) -> None:
        if out.robot_description is not None:
            self._description_pub.publish(String(data=out.robot_description))
        if out.tf_static is not None:
            self._tf_static_pub.publish(
                TFMessage(transforms=[transform_msg(t) for t in out.tf_static]))
        if out.tf:
            self._tf.sendTransform([transform_msg(t) for t in out.tf])
        if out.center_of_mass is not None:
            self._publish_com(out.center_of_mass)
        if out.robot_description is not None:  # a new model: drop the markers of the last one
            self._markers_pub.publish(MarkerArray(markers=[Marker(action=Marker.DELETEALL)]))
        if out.tf and self.get_parameter('publish.com_markers').value is True and \
                not self.bridge.missing_joints():
            markers = com_markers(self.bridge.model, self.bridge.state, out.tf[0].stamp_ns,
                                  self.bridge.settings.frame_prefix)
            self._markers_pub.publish(MarkerArray(markers=[marker_msg(m) for m in markers]))

    def _publish_com(self, com: CenterOfMassOut) -> None:
        stamp = ns_to_stamp(com.stamp_ns)
        point = PointStamped()
        point.header.stamp = stamp
        point.header.frame_id = com.frame_id
        point.point.x, point.point.y, point.point.z = com.position
        self._com_pub.publish(point)
        for publisher, value in ((self._com_velocity_pub, com.velocity),
                                 (self._momentum_pub, com.angular_momentum)):
            if value is None:
                continue
            vector = Vector3Stamped()
            vector.header.stamp = stamp
            vector.header.frame_id = com.frame_id
            vector.vector.x, vector.vector.y, vector.vector.z = value
            publisher.publish(vector)

    # -- callbacks ------------------------------------------------------------------------------
    def _on_joint_state(self, msg: JointState) -> None:
        self._publish(self.bridge.on_joint_state(joint_state_input(msg), self._now()))

    def _on_set_parameters(self, parameters: List[Parameter]
                           ) -> SetParametersResult:
        params = self._parameter_values()
        params.update({p.name: p.value for p in parameters})
        out = self.bridge.apply_parameters(params, self._now())
        if out.accepted:
            self._publish(out)
            if any(p.name == 'publish.com_markers' and p.value is False for p in parameters):
                self._markers_pub.publish(MarkerArray(markers=[Marker(action=Marker.DELETEALL)]))
        return SetParametersResult(successful=out.accepted, reason=out.reason)

    def _on_compute_ik(self, request, response):
        target = request.target
        answer = compute_ik(self.bridge, IKRequest(
            request.tip_link, target.header.frame_id,
            (target.pose.position.x, target.pose.position.y, target.pose.position.z),
            (target.pose.orientation.x, target.pose.orientation.y, target.pose.orientation.z,
             target.pose.orientation.w),
            joint_values(request.seed), request.position_only, request.position_tolerance,
            request.orientation_tolerance, request.timeout, list(request.active_joints)))
        response.success = answer.success
        response.message = answer.message
        response.solution.header.stamp = self.get_clock().now().to_msg()
        response.solution.name = list(answer.names)
        response.solution.position = list(answer.positions)
        response.position_error = answer.position_error
        response.orientation_error = answer.orientation_error
        response.iterations = answer.iterations
        return response

    def _on_get_jacobian(self, request, response):
        point = request.point
        answer = get_jacobian(self.bridge, JacobianRequest(
            request.link, (point.x, point.y, point.z), request.expressed_in,
            joint_values(request.joint_state)))
        response.success = answer.success
        response.message = answer.message
        response.joint_names = list(answer.joint_names)
        fill_matrix(response.jacobian, answer.jacobian)
        response.manipulability = answer.manipulability
        response.singular = answer.singular
        return response

    def _on_get_relative_motion(self, request, response):
        answer = get_relative_motion(self.bridge, RelativeMotionRequest(
            [LockedJointIn(item.joint, item.parameterized) for item in request.locked_joints],
            [RelativeTransformationIn(item.body_a, item.body_b, item.parameterized,
                                      list(item.mask))
             for item in request.transformations]))
        response.success = answer.success
        response.message = answer.message
        response.index_names = list(answer.index_names)
        fill_matrix(response.matrix, answer.matrix)
        return response


def main(args=None) -> int:
    """
    Run the node until Ctrl-C or SIGTERM.

    :param args: command-line arguments for rclpy.
    :return: the process exit code.
    """
    return run(FrameKinematicsNode, args)


def run(make_node: Callable[[], Node], args=None,
        startup_errors: Tuple[type, ...] = (FrameKinematicsError,)) -> int:
    """
    Start rclpy, make a node, spin it until Ctrl-C or SIGTERM, and shut down cleanly.

    :param make_node: builds the node (after ``rclpy.init``).
    :param args: command-line arguments for rclpy.
    :param startup_errors: errors of ``make_node`` that mean a bad configuration: logged as
        fatal, exit code 1.
    :return: the process exit code.
    """
    rclpy.init(args=args)
    # The executor exists before the node: a signal that arrives while the node starts then
    # ends the spin below instead of breaking the executor's construction.
    executor = SingleThreadedExecutor()
    node = None
    try:
        node = make_node()
        executor.add_node(node)
        executor.spin()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except startup_errors as exc:
        get_logger('frame_kinematics').fatal(f'cannot start: {exc}')
        return 1
    except Exception:
        if rclpy.ok():
            raise
        # A signal shut the context down while the node was starting: a normal exit.
    finally:
        shutdown(node, executor)
    return 0


def shutdown(node: Optional[Node], executor: Executor) -> None:
    """
    Destroy a node and its executor and shut rclpy down, ignoring a repeated Ctrl-C.

    :param node: the node (None if it was never created).
    :param executor: the executor that spun it.
    """
    try:
        executor.shutdown()
        if node is not None:
            node.destroy_node()
    except KeyboardInterrupt:
        pass
    finally:
        rclpy.try_shutdown()


if __name__ == '__main__':
    sys.exit(main())
