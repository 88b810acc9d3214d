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
The kinematics services of the node, on plain data (ROS-free).

Each handler takes a :class:`~frame_kinematics.bridge.snapshot.Snapshot` (the model and the
joint values at one instant: the ``/tf`` path may move on meanwhile) and a request dataclass,
and returns a response dataclass. A handler never raises for a bad request: it answers
``success=False`` with a message naming what was wrong, and never answers ``success=True``
with a non-finite value. The request and response types are in
:mod:`~frame_kinematics.bridge.service_types` (imported here too).
"""

import math
import time
from typing import Callable, Optional, Tuple

import numpy as np

from .ik_slices import solve_in_slices
from .log import shorten
from .service_types import (IKRequest, IKResponse, JacobianRequest, JacobianResponse,
                            JointValues, LockedJointIn, MatrixOut,
                            MAX_RELATIVE_MOTION_ENTRIES, MAX_TIMEOUT,
                            RelativeMotionRequest, RelativeMotionResponse,
                            RelativeTransformationIn)
from .snapshot import Snapshot
from ..core.errors import (ConfigurationError, FrameKinematicsError, name_list, quote,
                           ReferenceFrameError)
from ..core.frames import FrameKind
from ..core.kinematics import ExpressedIn
from ..core.relative_motion import RelativeMotion
from ..core.spatial import inverse, transform_from_xyz_quaternion
from ..core.transform_checks import unit_quaternion
from ..core.velocity import is_singular, manipulability


#: Iteration cap of a ``ComputeIK`` solve, whatever its timeout (the solver's own default).
MAX_IK_ITERATIONS = 1000


class RequestError(FrameKinematicsError):
    """A service request that cannot be answered as given."""


def get_jacobian(snapshot: Snapshot, request: JacobianRequest) -> JacobianResponse:
    """
    Answer a ``GetJacobian`` request.

    :param snapshot: the model and joint values to use.
    :param request: the request.
    :return: the response (``success=False`` with the reason for a bad request).
    """
    try:
        frame = snapshot.strip_prefix(_text(request.link, 'link'))
        needed = snapshot.frame_dependencies(frame)
        q = snapshot.configuration_for(request.joint_state.names,
                                       request.joint_state.positions, needed)
        point = _vector(request.point, 3, 'point')
        expressed_in = ExpressedIn.parse(_text(request.expressed_in, 'expressed_in')
                                         or 'local_world_aligned')
        model = snapshot.model
        if model.has_link(frame):
            link, link_p_point = frame, point
        else:
            link, link_p_point = _attach(snapshot, frame, point, q)
        jacobian = model.forward_kinematics(q).jacobian(link, link_p_point, expressed_in)
        if not np.all(np.isfinite(jacobian)):
            raise RequestError('the jacobian is not finite at this configuration')
        measure = float(manipulability(jacobian))
        singular = bool(is_singular(jacobian, snapshot.settings.singularity_threshold))
        if not math.isfinite(measure):
            raise RequestError('the manipulability is not finite at this configuration')
    except (FrameKinematicsError, ValueError, TypeError) as exc:
        return JacobianResponse(False, shorten(f'jacobian of {quote(request.link)}: {exc}'))
    described = link if frame == link else f'{frame} (on link {link})'
    return JacobianResponse(True, f'jacobian of {described} expressed in {expressed_in.value}'
                            + (' (singular)' if singular else ''),
                            model.velocity_names,
                            MatrixOut.from_array(jacobian, 'rows', 'columns'),
                            measure, singular)


def _attach(snapshot: Snapshot, frame: str, frame_p_point: np.ndarray,
            q: np.ndarray) -> Tuple[str, np.ndarray]:
    """Find the link a non-link frame rides on, and the point in that link's frame."""
    tree = snapshot.tree(q)
    current = tree.frame(frame)
    model = snapshot.model
    while not model.has_link(current.name):
        if current.kind is FrameKind.ROBOT_COM:
            raise ReferenceFrameError(f"frame '{frame}' hangs from the robot center of mass "
                                      f"'{current.name}', which is not attached to a link: "
                                      'it has no link jacobian', frame)
        current = current.parent
    link_T_frame = inverse(tree.frame(current.name).root_T_frame) @ \
        tree.frame(frame).root_T_frame
    return current.name, link_T_frame[:3, :3] @ frame_p_point + link_T_frame[:3, 3]


def get_relative_motion(snapshot: Snapshot, request: RelativeMotionRequest
                        ) -> RelativeMotionResponse:
    """
    Answer a ``GetRelativeMotion`` request.

    :param snapshot: the model to use.
    :param request: locked joints and relative transformations (at most
        :data:`MAX_RELATIVE_MOTION_ENTRIES` of each).
    :return: the index names and the matrix (``success=False`` for a bad request).
    """
    motion = RelativeMotion(snapshot.model)
    try:
        for what in ('locked_joints', 'transformations'):
            count = len(getattr(request, what))
            if count > MAX_RELATIVE_MOTION_ENTRIES:
                raise RequestError(f'{what} has {count} entries, more than '
                                   f'{MAX_RELATIVE_MOTION_ENTRIES}')
        for locked in request.locked_joints:
            motion.add_locked_joint(_text(locked.joint, 'joint'), bool(locked.parameterized))
        for item in request.transformations:
            motion.add_relative_transformation(
                snapshot.strip_prefix(_text(item.body_a, 'body_a')) or None,
                snapshot.strip_prefix(_text(item.body_b, 'body_b')) or None,
                bool(item.parameterized), list(item.mask) if len(item.mask) else None)
    except (FrameKinematicsError, ValueError, TypeError) as exc:
        return RelativeMotionResponse(False, shorten(f'relative motion: {exc}'))
    matrix = motion.matrix
    return RelativeMotionResponse(True, f'{motion.size} indices: 0 is the environment, '
                                  'values 0 constrained, 1 parameterized, 2 unconstrained',
                                  motion.index_names,
                                  MatrixOut.from_array(matrix, 'rows', 'columns'))


def compute_ik(snapshot: Snapshot, request: IKRequest, arrival: Optional[float] = None,
               clock: Callable[[], float] = time.monotonic,
               pause: Callable[[float], None] = time.sleep) -> IKResponse:
    """
    Answer a ``ComputeIK`` request with the core's solver.

    The target is converted to the root link with the snapshot's joint values (a target
    given in a moving frame needs the joints that move it). The timeout counts from the
    request's arrival: the time spent reading the request is taken from the solver's budget.
    Besides its time budget, the solver stops at its iteration cap (:data:`MAX_IK_ITERATIONS`),
    which a long timeout does not lift: the message then says ``max_iterations``. It solves in
    short slices (:mod:`~frame_kinematics.bridge.ik_slices`), giving the interpreter up in
    between, so that ``/tf`` keeps its rate.

    :param snapshot: the model and joint values to use.
    :param request: the request.
    :param arrival: when the request arrived, on ``clock`` (default: now).
    :param clock: monotonic clock in seconds.
    :param pause: called between two slices of the solve.
    :return: the response (``success=False`` with the reason for a bad request or no solution).
    """
    start = clock() if arrival is None else arrival
    try:
        model = snapshot.model
        timeout = _number(request.timeout, 'timeout', MAX_TIMEOUT)
        options = {'position_only': bool(request.position_only)}
        for name in ('position_tolerance', 'orientation_tolerance'):
            value = _number(getattr(request, name), name, math.inf)
            if value > 0:
                options[name] = value
        tip = snapshot.strip_prefix(_text(request.tip_link, 'tip_link'))
        model.link_index(tip)
        frame = snapshot.strip_prefix(_text(request.target_frame, 'target frame'))
        frame_T_target = transform_from_xyz_quaternion(
            _vector(request.target_position, 3, 'target position'),
            _unit_quaternion(request.target_orientation))
        current = snapshot.configuration_for(
            (), (), snapshot.frame_dependencies(frame or model.root_link))
        root_T_target = snapshot.root_T_frame(frame, current) @ frame_T_target
        if not np.all(np.isfinite(root_T_target)):
            raise RequestError('the target is not finite in the root link')
        seed = snapshot.configuration_for(request.seed.names, request.seed.positions, ())
        if len(request.active_joints) > len(model.joint_names):
            raise RequestError(f'active_joints names {len(request.active_joints)} joints, robot '
                               f"'{model.name}' has {len(model.joint_names)}")
        active = None
        if len(request.active_joints):
            active = [_text(name, 'active joint') for name in request.active_joints]
            if len(set(active)) != len(active):
                raise RequestError(f'active_joints names a joint twice: {name_list(active)}')
            for name in active:
                model.joint(name)
        deadline = start + (timeout if timeout > 0 else 0.02)
        if deadline <= clock():
            return IKResponse(False, f'timeout of {timeout:g} s spent before solving')
        result, _ = solve_in_slices(model, [tip], root_T_target, seed, active, deadline, clock,
                                    pause, max_iterations=MAX_IK_ITERATIONS, **options)
    except (FrameKinematicsError, ValueError, TypeError) as exc:
        return IKResponse(False, shorten(f'inverse kinematics of {quote(request.tip_link)}: '
                                         f'{exc}'))
    q = np.asarray(result.q, dtype=float).reshape(-1)
    position_error = float(result.position_error)
    orientation_error = float(result.orientation_error)
    if not (np.all(np.isfinite(q)) and math.isfinite(position_error)
            and (request.position_only or math.isfinite(orientation_error))):
        return IKResponse(False, 'inverse kinematics gave a non-finite answer')
    success = bool(result.success)
    message = (f'converged in {int(result.iterations)} iterations' if success else
               f'no solution ({result.reason}): position error {position_error:.3g} m, '
               f'orientation error {orientation_error:.3g} rad after {int(result.iterations)} '
               'iterations')
    return IKResponse(success, message, tuple(model.configuration_names), tuple(q.tolist()),
                      position_error, orientation_error, int(result.iterations))


def _text(value, what: str) -> str:
    if not isinstance(value, str):
        raise RequestError(f'{what} must be a string, got {quote(value)}')
    return value


def _number(value, what: str, high: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        number = math.nan
    if not (math.isfinite(number) and 0 <= number <= high):
        bound = '' if math.isinf(high) else f' and <= {high:g}'
        raise RequestError(f'{what} must be a finite number >= 0{bound} (0: default), got '
                           f'{quote(value)}')
    return number


def _vector(values, size: int, what: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError, OverflowError):
        arr = np.empty(0)
    if arr.shape != (size,) or not np.all(np.isfinite(arr)):
        raise RequestError(f'{what} must be {size} finite numbers, got {quote(values)}')
    return arr


def _unit_quaternion(values) -> np.ndarray:
    quat = _vector(values, 4, 'target orientation')
    try:
        return unit_quaternion(quat, 'target orientation [x, y, z, w]')
    except ConfigurationError as exc:
        raise RequestError(str(exc)) from None


__all__ = [
    'IKRequest', 'IKResponse', 'JacobianRequest', 'JacobianResponse', 'JointValues',
    'LockedJointIn', 'MatrixOut', 'MAX_RELATIVE_MOTION_ENTRIES', 'MAX_TIMEOUT',
    'RelativeMotionRequest',
    'RelativeMotionResponse', 'RelativeTransformationIn', 'RequestError', 'compute_ik',
    'get_jacobian', 'get_relative_motion',
]
