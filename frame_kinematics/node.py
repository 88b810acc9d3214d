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

Every decision is taken by :class:`frame_kinematics.bridge.Bridge` and
:class:`frame_kinematics.bridge.moveit.MoveItKinematics`; the conversions are in
:mod:`frame_kinematics.ros.conversions` and :mod:`frame_kinematics.ros.moveit_conversions`.
This module only wires them to ROS, on two paths that never wait for each other:

* the ``/tf`` path: the ``joint_states`` subscription, alone on a private node ``<name>_tf``
  spun by an executor of its own in a thread of its own
  (:class:`~frame_kinematics.ros.tf_path.ExecutorThread`: rclpy's executors rebuild their
  wait set on every wake-up, at a cost that grows with every entity they carry); each
  wake-up takes the queued messages in a batch
  (:class:`~frame_kinematics.bridge.intake.JointStateIntake`);
* the services, the parameter callbacks and the SRDF topic, on the node itself and the main
  executor. They read a snapshot of the bridge; a parameter change builds the new model off
  the ``/tf`` path; an IK solve gives the interpreter up between short slices.

Topics: subscribes ``joint_states`` (best effort, depth :data:`JOINT_STATES_DEPTH
<frame_kinematics.bridge.throttle.JOINT_STATES_DEPTH>`); publishes ``robot_description``
(transient local), ``/tf``, ``/tf_static``, ``com`` (``geometry_msgs/PointStamped``),
``com_velocity`` and ``angular_momentum`` (``geometry_msgs/Vector3Stamped``), ``com_markers``
(``visualization_msgs/MarkerArray``, see :mod:`frame_kinematics.bridge.markers`).
Services (with ``frame_kinematics_interfaces``): ``~/compute_ik``, ``get_jacobian``,
``get_relative_motion``, the action ``~/reach_study`` and its latched topics
``~/reach/markers`` and ``~/reach/points`` (:mod:`frame_kinematics.ros.reach_action`); (with
``moveit_msgs``) MoveIt's ``GetPositionIK`` and
``GetPositionFK``, named by the parameters ``moveit.compute_ik_service`` and
``moveit.compute_fk_service`` (``compute_ik``, ``compute_fk``), whose SRDF comes from the
``robot_description_semantic`` parameter or topic. The QoS of ``joint_states``, ``/tf`` and
``/tf_static`` follow the ``qos_overrides`` parameters robot_state_publisher and tf2_ros read
(:mod:`frame_kinematics.bridge.qos`).
"""

import gc
import logging
import signal
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from geometry_msgs.msg import (PointStamped, PoseStamped, Transform, TransformStamped,
                               Vector3Stamped)
from rcl_interfaces.msg import ParameterDescriptor, SetParametersResult
import rclpy
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from rclpy.exceptions import InvalidParameterTypeException, ParameterUninitializedException
from rclpy.executors import Executor, ExternalShutdownException, SingleThreadedExecutor
from rclpy.logging import get_logger
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.serialization import deserialize_message, serialize_message
from rclpy.signals import SignalHandlerOptions
from sensor_msgs.msg import JointState
from std_msgs.msg import MultiArrayDimension, String
from tf2_msgs.msg import TFMessage
from visualization_msgs.msg import Marker, MarkerArray

from .bridge import (Bridge, BridgeOutput, JointStateInput, PARAMETER_DEFAULTS,
                     USER_FRAME_DEFAULTS)
from .bridge.intake import JointStateIntake
from .bridge.log import error_text, ForwardingHandler, shorten
from .bridge.moveit import MoveItKinematics
from .bridge.moveit_types import FAILURE, PositionFKAnswer, PositionIKAnswer
from .bridge.parameters import own_parameters, split_frame_parameter, split_tool_parameter
from .bridge.qos import check_overrides, JOINT_STATES_POLICIES, TF_POLICIES, \
    TF_STATIC_POLICIES
from .bridge.services import compute_ik, get_jacobian, get_relative_motion
from .bridge.throttle import JOINT_STATES_DEPTH
from .core.backend import describe, resolve
from .core.errors import ConfigurationError, FrameKinematicsError, name_list
from .ros.conversions import (fill_ik_response, fill_jacobian_response, fill_joint_state,
                              fill_point, fill_relative_motion_response, fill_vector,
                              ik_request, jacobian_request, joint_state_input,
                              marker_messages, parameter_changes, relative_motion_request,
                              TFMessageFiller, transform_messages)
from .ros.joint_state_cdr import joint_state_reader, PROBES
from .ros.moveit_conversions import (fill_position_fk_response, fill_position_ik_response,
                                     position_fk_request, position_ik_request)
from .ros.qos import joint_states_qos, latched_qos, overriding_options, policy_names
from .ros.reach_action import ReachAction
from .ros.tf_cdr import tf_serializer
from .ros.tf_path import ExecutorThread, guarded, queue_taker

try:
    from frame_kinematics_interfaces.srv import ComputeIK, GetJacobian, GetRelativeMotion
except ImportError:  # the interfaces package is optional: the node runs without services
    ComputeIK = GetJacobian = GetRelativeMotion = None
try:
    from frame_kinematics_interfaces.action import ReachStudy
except ImportError:  # an interfaces package built before the action: no reach studies
    ReachStudy = None
try:
    from moveit_msgs.srv import GetPositionFK, GetPositionIK
except ImportError:  # optional too: without it, no MoveIt-compatible services
    GetPositionFK = GetPositionIK = None

#: Seconds between two hand-overs of Python's GIL between threads (see :func:`main`).
GIL_SWITCH_INTERVAL = 0.001
#: Longest wait (s) of an executor before it checks whether to stop.
STOP_CHECK_PERIOD = 0.1
#: Why the node cannot start with a parameter given without a type (``{}``: rclpy's words).
UNTYPED_OVERRIDE = ('a parameter given at start-up has no type ({}): an empty list in a '
                    'parameters file (such as user_frames.names: []) has none, write [""]')
#: Why the node cannot start with one of rclpy's own parameters of another type (``{}``: rclpy's
#: words), such as ``use_sim_time: "yes"``.
MISTYPED_OVERRIDE = 'a parameter given at start-up has a type rclpy refuses: {}'


class NodeStartError(ConfigurationError):
    """
    Parameters or a robot description the node cannot start with.

    :param message: what is wrong.
    :param logger_name: the name of the node's logger (its remapped name), which
        :func:`run` says it under.
    """

    def __init__(self, message: str, logger_name: str) -> None:
        super().__init__(message)
        self.logger_name = logger_name


class FrameKinematicsNode(Node):
    """robot_state_publisher drop-in with CoM frames and kinematics services."""

    def __init__(self, **kwargs) -> None:
        """
        Declare the parameters, load the robot and start publishing.

        :param kwargs: passed to :class:`rclpy.node.Node` (e.g. ``parameter_overrides``).
        :raises FrameKinematicsError: if the robot description or parameters are unusable.
        """
        try:
            super().__init__('frame_kinematics', allow_undeclared_parameters=True,
                             automatically_declare_parameters_from_overrides=True, **kwargs)
        except ValueError as exc:  # Jazzy's rclpy cannot declare an override without a type
            raise ConfigurationError(UNTYPED_OVERRIDE.format(exc)) from None
        for name, default in PARAMETER_DEFAULTS.items():
            self._declare(name, default)
        names = self.get_parameter('user_frames.names').value
        if isinstance(names, (list, tuple)):
            for frame in names:
                if isinstance(frame, str) and frame:
                    for key, default in USER_FRAME_DEFAULTS.items():
                        self._declare(f'user_frames.{frame}.{key}', default)
        for name in list(self.get_parameters_by_prefix('user_frames')):
            if split_frame_parameter(f'user_frames.{name}') is not None:
                self._declare(f'user_frames.{name}', None)
        for name in list(self.get_parameters_by_prefix('tools')):
            if split_tool_parameter(f'tools.{name}') is not None:
                self._declare(f'tools.{name}', None)
        params, others = own_parameters(
            {name: param.value for name, param in self.get_parameters_by_prefix('').items()})
        for name in others:
            self.undeclare_parameter(name)
        if others:
            self.get_logger().warning(shorten(
                'ignoring parameters of other nodes (as robot_state_publisher does): '
                f'{name_list(others)}'))
        try:
            joint_states_overrides = check_overrides(
                params, self.resolve_topic_name('joint_states'), policy_names(),
                self.resolve_topic_name('/tf'), self.resolve_topic_name('/tf_static'))
            self.bridge = Bridge.from_parameters(params, logger=self.get_logger(),
                                                 backend=None)
            self.moveit = MoveItKinematics(self.get_logger())
            self.moveit.set_semantic(params.get('robot_description_semantic', ''),
                                     self.bridge.model)
        except FrameKinematicsError as exc:
            raise NodeStartError(str(exc), self.get_logger().name) from None
        self._description_pub = self.create_publisher(String, 'robot_description', latched_qos())
        self._tf_pub = self.create_publisher(
            TFMessage, '/tf', 100, qos_overriding_options=overriding_options(TF_POLICIES))
        # Not tf2_ros's StaticTransformBroadcaster: it never replaces a child frame it has
        # sent, and the bridge always hands over the whole static set.
        self._tf_static_pub = self.create_publisher(
            TFMessage, '/tf_static', latched_qos(),
            qos_overriding_options=overriding_options(TF_STATIC_POLICIES))
        self._com_pub = self.create_publisher(PointStamped, 'com', 10)
        self._com_velocity_pub = self.create_publisher(Vector3Stamped, 'com_velocity', 10)
        self._momentum_pub = self.create_publisher(Vector3Stamped, 'angular_momentum', 10)
        self._markers_pub = self.create_publisher(MarkerArray, 'com_markers', 10)
        self.add_on_set_parameters_callback(self._on_set_parameters)
        if ComputeIK is None:
            self.get_logger().warning(
                'frame_kinematics_interfaces is not installed: the compute_ik, get_jacobian '
                'and get_relative_motion services are not offered (build it with colcon)')
        else:
            self.create_service(ComputeIK, '~/compute_ik', self._on_compute_ik)
            self.create_service(GetJacobian, 'get_jacobian', self._on_get_jacobian)
            self.create_service(GetRelativeMotion, 'get_relative_motion',
                                self._on_get_relative_motion)
        self._start_moveit_services(params)
        self._reach = None if ReachStudy is None else \
            ReachAction(self, ReachStudy, self.bridge.snapshot, self._now, latched_qos())
        self._tf_message = tf_serializer(
            params['tf_serialization'], TFMessageFiller(TFMessage, TransformStamped),
            serialize_message, self.get_logger())
        self._read_joint_state = self._joint_state_reader(params['joint_states_serialization'])
        self._publish(self.bridge.initial_output(self._now()))
        self._tf_node, self._tf_thread = self._start_tf_path(params['joint_states_intake'],
                                                             joint_states_overrides)
        model = self.bridge.model
        target = resolve()
        later = '' if target == 'numpy' else f', {describe(target)} once its kernels are ready'
        self.get_logger().info(
            f"robot '{model.name}' ({len(model.links)} links, {len(model.joint_names)} actuated "
            'joints): publishing /tf and /tf_static from joint_states; kinematics backend: '
            f'{describe(model.backend)}{later}')

    def _declare(self, name: str, default: Any) -> None:
        """Declare a parameter with dynamic typing (the bridge checks each value's type)."""
        if self.has_parameter(name):
            # declared from an override with a fixed type: rclpy would then refuse another
            # type with a reason that does not name the parameter
            try:
                default = self.get_parameter(name).value
            except ParameterUninitializedException:  # Humble: an override without a type
                raise ConfigurationError(UNTYPED_OVERRIDE.format(
                    f"parameter '{name}' is not initialized")) from None
            self.undeclare_parameter(name)
        self.declare_parameter(name, default, ParameterDescriptor(dynamic_typing=True))

    def _start_moveit_services(self, params) -> None:
        """Serve MoveIt's GetPositionIK and GetPositionFK when moveit_msgs is installed."""
        if GetPositionIK is None:
            self.get_logger().info(
                'moveit_msgs is not installed: the MoveIt-compatible services (GetPositionIK, '
                'GetPositionFK) are not offered')
            return
        group = MutuallyExclusiveCallbackGroup()
        self.create_service(GetPositionIK, params['moveit.compute_ik_service'],
                            self._on_position_ik, callback_group=group)
        self.create_service(GetPositionFK, params['moveit.compute_fk_service'],
                            self._on_position_fk, callback_group=group)
        self.create_subscription(String, 'robot_description_semantic', self._on_semantic,
                                 latched_qos(), callback_group=group)

    def _joint_state_reader(self, mode: str) -> Callable[[bytes], JointStateInput]:
        """Return how serialized joint_states become the bridge's input (checked bytes)."""
        def deserialize(data: bytes) -> JointStateInput:
            return joint_state_input(deserialize_message(data, JointState))
        probes = [serialize_message(fill_joint_state(JointState(), probe)) for probe in PROBES]
        reader = joint_state_reader(mode, probes, deserialize, self.get_logger())
        return deserialize if reader is None else reader.read

    def _start_tf_path(self, intake_mode: str, qos_overrides: Dict[str, Any]
                       ) -> Tuple[Node, ExecutorThread]:
        """
        Start the joint_states subscription on its own node, spun in its own thread.

        :param intake_mode: the ``joint_states_intake`` parameter.
        :param qos_overrides: the subscription's QoS overrides (checked), given to that node.
        """
        name = f'{self.get_name()}_tf'
        overrides = [Parameter(key, value=value) for key, value in qos_overrides.items()]
        try:
            node = Node(name, namespace=self.get_namespace(), context=self.context,
                        cli_args=['--ros-args', '-r', f'__node:={name}'],
                        start_parameter_services=False, enable_rosout=False,
                        parameter_overrides=[Parameter('start_type_description_service',
                                                       value=False)] + overrides)
        except InvalidParameterTypeException as exc:  # rclpy declares use_sim_time a bool
            raise NodeStartError(MISTYPED_OVERRIDE.format(exc), self.get_logger().name) from None
        intake = JointStateIntake(self._on_joint_state, self._pause_ns, JOINT_STATES_DEPTH,
                                  self._on_intake_error)
        subscription = node.create_subscription(
            JointState, 'joint_states', guarded(intake, self._on_tf_path_error),
            joint_states_qos(), raw=True,
            qos_overriding_options=overriding_options(JOINT_STATES_POLICIES))
        thread = ExecutorThread(node, name)
        take_next = None
        if intake_mode == 'batches':
            take_next = queue_taker(subscription)
            if take_next is None:
                self.get_logger().info("this rclpy's subscriptions take no queued message "
                                       'outside an executor: one wake-up per joint_states '
                                       'message')
        intake.attach(take_next, thread.stopping)
        thread.start()
        return node, thread

    def destroy_node(self) -> None:
        """Stop the ``/tf`` path (its thread, then its node), then destroy the node."""
        self._tf_thread.stop()
        self._tf_node.destroy_node()
        if self._reach is not None:
            self._reach.close()
        super().destroy_node()

    def _now(self) -> int:
        return self.get_clock().now().nanoseconds

    def _publish(self, out: BridgeOutput) -> None:
        """Publish what the bridge returned."""
        if out.robot_description is not None:
            self._description_pub.publish(String(data=out.robot_description))
        if out.tf_static is not None:
            self._tf_static_pub.publish(
                TFMessage(transforms=transform_messages(out.tf_static, TransformStamped)))
        if out.tf:
            self._tf_pub.publish(self._tf_message(out.tf))
        # The CoM topics and markers are built only for a subscriber (not latched: a new one
        # gets the next message); /tf always goes out.
        com = out.center_of_mass
        if com is not None:
            if self._com_pub.get_subscription_count():
                self._com_pub.publish(fill_point(PointStamped(), com))
            for publisher, value in ((self._com_velocity_pub, com.velocity),
                                     (self._momentum_pub, com.angular_momentum)):
                if value is not None and publisher.get_subscription_count():
                    publisher.publish(fill_vector(Vector3Stamped(), com, value))
        if out.clear_markers:
            self._markers_pub.publish(MarkerArray(markers=[Marker(action=Marker.DELETEALL)]))
        if out.markers and self._markers_pub.get_subscription_count():
            self._markers_pub.publish(MarkerArray(markers=marker_messages(
                out.markers, Marker, Marker.ADD, Marker.SPHERE, Marker.CYLINDER)))

    # -- callbacks (nothing escapes one: each says what it caught in one line, error_text) ----
    def _on_joint_state(self, data: bytes) -> None:
        try:
            self._publish(self.bridge.on_joint_state(self._read_joint_state(data), self._now()))
        except Exception as exc:
            self.get_logger().error(shorten(f'joint_states: {error_text(exc)}'))

    def _pause_ns(self) -> int:
        return self.bridge.pause_ns(self._now(), self.get_clock().ros_time_is_active)

    def _on_intake_error(self, exc: Exception) -> None:
        self.get_logger().warning(shorten(
            f'taking queued joint_states failed ({type(exc).__name__}: {exc}): one wake-up '
            'per message from now on'))

    def _on_tf_path_error(self, exc: Exception) -> None:
        self.get_logger().error(shorten(f'joint_states: unexpected {type(exc).__name__}: {exc}'))

    def _on_set_parameters(self, parameters: List[Parameter]) -> SetParametersResult:
        changes = parameter_changes(parameters)
        document = changes.get('robot_description_semantic')
        try:
            semantic = None if document is None else \
                self.moveit.read_semantic(document, self.bridge.model)
        except Exception as exc:
            return SetParametersResult(successful=False, reason=shorten(
                f'rejected the new robot_description_semantic: {error_text(exc)}'))
        try:
            out = self.bridge.apply_parameters(changes, self._now())
        except Exception as exc:
            return SetParametersResult(successful=False, reason=shorten(error_text(exc)))
        if out.accepted:
            if document is not None:
                self.moveit.use_semantic(semantic)
            self._publish(out)
        return SetParametersResult(successful=out.accepted, reason=out.reason)

    def _on_semantic(self, msg: String) -> None:
        try:
            self.moveit.set_semantic(msg.data, self.bridge.model)
        except Exception as exc:
            self.get_logger().error(shorten(f'robot_description_semantic: {error_text(exc)}'))

    def _on_position_ik(self, request, response):
        arrival = time.monotonic()

        def fill(answer, out):
            return fill_position_ik_response(out, answer, self._now(), Transform)

        return self._answer(
            'compute_ik', lambda: fill(self.moveit.compute_ik(
                self.bridge.snapshot(), position_ik_request(request), arrival), response),
            lambda text: fill(PositionIKAnswer(FAILURE, text), type(response)()))

    def _on_position_fk(self, request, response):
        def fill(answer, out):
            return fill_position_fk_response(out, answer, self._now(), PoseStamped)

        return self._answer(
            'compute_fk', lambda: fill(self.moveit.compute_fk(
                self.bridge.snapshot(), position_fk_request(request)), response),
            lambda text: fill(PositionFKAnswer(FAILURE, text), type(response)()))

    def _answer(self, what: str, work: Callable[[], Any], failed: Callable[[str], Any]) -> Any:
        """
        Answer a service request: ``work()``, or, on any error, ``failed(text)``.

        The error (of the request's conversion, of the bridge or of the filling) is logged in
        one line, ``text``, and answered: nothing escapes the callback.

        :param what: the service, for the log line.
        :param work: converts the request, answers it and fills the response; returns it.
        :param failed: fills a response that says ``text`` (a new one where the one given
            may be half filled); returns it.
        :return: the filled response.
        """
        try:
            return work()
        except Exception as exc:
            text = shorten(f'{what}: {error_text(exc)}')
            self.get_logger().error(text)
            return failed(text)

    def _on_compute_ik(self, request, response):
        arrival = time.monotonic()
        return self._answer('compute_ik', lambda: fill_ik_response(
            response, compute_ik(self.bridge.snapshot(), ik_request(request), arrival),
            self._now()), lambda text: _failed(response, text))

    def _on_get_jacobian(self, request, response):
        return self._answer('get_jacobian', lambda: fill_jacobian_response(
            response, get_jacobian(self.bridge.snapshot(), jacobian_request(request)),
            MultiArrayDimension), lambda text: _failed(response, text))

    def _on_get_relative_motion(self, request, response):
        return self._answer('get_relative_motion', lambda: fill_relative_motion_response(
            response, get_relative_motion(self.bridge.snapshot(),
                                          relative_motion_request(request)),
            MultiArrayDimension), lambda text: _failed(response, text))


def _failed(response: Any, text: str) -> Any:
    """Fill a response of the node's own services as a failure saying ``text``; return it."""
    response.success = False
    response.message = text
    return response


def main(args=None) -> int:
    """
    Run the node until Ctrl-C or SIGTERM.

    :param args: command-line arguments for rclpy.
    :return: the process exit code.
    """
    # The /tf thread waits for the GIL while a service computes in Python: hand it over
    # every millisecond rather than every 5 ms (Python's default).
    sys.setswitchinterval(GIL_SWITCH_INTERVAL)
    # The core's log records and Python's warnings go to the ROS log, not bare to stderr.
    forward = ForwardingHandler(get_logger('frame_kinematics'))
    logging.getLogger('frame_kinematics').addHandler(forward)
    logging.captureWarnings(True)
    logging.getLogger('py.warnings').addHandler(forward)

    def make_node() -> FrameKinematicsNode:
        node = FrameKinematicsNode()
        forward.logger = node.get_logger()  # the node's name, as remapped
        forward.warnings = node.bridge.warnings  # throttled by warn_throttle_period
        # Keep the objects of the start-up (models, messages) out of the garbage collector's
        # full collections, which stop every thread, the /tf path's included.
        gc.freeze()
        return node

    return run(make_node, args)


def run(make_node: Callable[[], Node], args=None,
        startup_errors: Tuple[type, ...] = (FrameKinematicsError,)) -> int:
    """
    Start rclpy, make a node, spin it until Ctrl-C or SIGTERM, and shut down cleanly.

    SIGINT and SIGTERM only ask the spin to stop (rclpy's own handlers would shut the context
    down at once, under the feet of the ``/tf`` path's thread): the node's threads are
    stopped and joined, then rclpy is shut down.

    :param make_node: builds the node (after ``rclpy.init``).
    :param args: command-line arguments for rclpy.
    :param startup_errors: errors of ``make_node`` that mean a bad configuration: logged as
        one fatal line, exit code 1.
    :return: the process exit code.
    """
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set())
                for sig in (signal.SIGINT, signal.SIGTERM)}
    rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
    executor = SingleThreadedExecutor()
    node = None
    try:
        node = make_node()
        executor.add_node(node)
        while not stop.is_set() and rclpy.ok():
            executor.spin_once(timeout_sec=STOP_CHECK_PERIOD)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except startup_errors as exc:
        name = exc.logger_name if isinstance(exc, NodeStartError) else 'frame_kinematics'
        get_logger(name).fatal(shorten(f'cannot start: {exc}'))
        return 1
    finally:
        shutdown(node, executor)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
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


__all__ = ['FrameKinematicsNode', 'main', 'NodeStartError', 'run', 'shutdown']

if __name__ == '__main__':
    sys.exit(main())
