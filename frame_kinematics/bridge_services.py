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

Each handler takes a request dataclass and a :class:`~frame_kinematics.bridge.Bridge` and
returns a response dataclass. A handler never raises for a bad request: it answers
``success=False`` with a message naming what was wrong. The types mirror the services of the
``frame_kinematics_interfaces`` package (``ComputeIK``, ``GetJacobian``, ``GetRelativeMotion``).
"""

from dataclasses import dataclass
import math
from typing import Optional, Sequence, Tuple

import numpy as np

from .bridge import Bridge
from .core.errors import FrameKinematicsError, ReferenceFrameError
from .core.frames import FrameKind
from .core.kinematics import ExpressedIn
from .core.relative_motion import RelativeMotion
from .core.spatial import inverse, transform_from_xyz_quaternion


@dataclass(frozen=True)
class JointValues:
    """
    An optional ``sensor_msgs/JointState`` in a request (positions only).

    :ivar names: joint (configuration entry) names; empty for "the current state".
    :ivar positions: one value per name.
    """

    names: Sequence[str] = ()
    positions: Sequence[float] = ()


@dataclass(frozen=True)
class MatrixOut:
    """
    A row-major matrix with the layout of a ``std_msgs/*MultiArray``.

    :ivar labels: dimension labels (rows, columns).
    :ivar sizes: dimension sizes.
    :ivar strides: dimension strides (as the MultiArrayLayout convention).
    :ivar data: the values, row-major.
    """

    labels: Tuple[str, str]
    sizes: Tuple[int, int]
    strides: Tuple[int, int]
    data: Tuple[float, ...]

    @classmethod
    def from_array(cls, matrix: np.ndarray, row_label: str, column_label: str) -> 'MatrixOut':
        """
        Lay out a 2-D array.

        :param matrix: the array.
        :param row_label: label of the first dimension.
        :param column_label: label of the second dimension.
        :return: the matrix.
        """
        rows, cols = matrix.shape
        return cls((row_label, column_label), (rows, cols), (rows * cols, cols),
                   tuple(matrix.reshape(-1).tolist()))

    def to_array(self) -> np.ndarray:
        """Return the matrix as a 2-D numpy array."""
        return np.array(self.data).reshape(self.sizes)


@dataclass(frozen=True)
class IKRequest:
    """
    ``ComputeIK`` request.

    :ivar tip_link: the link (or any frame of the tree) to place.
    :ivar target_frame: frame the target pose is given in ('' for the root link).
    :ivar target_position: ``frame_p_target``.
    :ivar target_orientation: quaternion ``[x, y, z, w]`` of ``frame_R_target``.
    :ivar seed: start configuration (missing joints: latest values).
    :ivar position_only: ignore the orientation.
    :ivar position_tolerance: metres (0: the solver's default).
    :ivar orientation_tolerance: radians (0: the solver's default).
    :ivar timeout: time budget in seconds (0: the solver's default, 0.02 s).
    :ivar active_joints: joints the solver may move (empty: all).
    """

    tip_link: str
    target_frame: str = ''
    target_position: Sequence[float] = (0.0, 0.0, 0.0)
    target_orientation: Sequence[float] = (0.0, 0.0, 0.0, 1.0)
    seed: JointValues = JointValues()
    position_only: bool = False
    position_tolerance: float = 0.0
    orientation_tolerance: float = 0.0
    timeout: float = 0.0
    active_joints: Sequence[str] = ()


@dataclass(frozen=True)
class IKResponse:
    """``ComputeIK`` response; the solution as configuration entry names and values."""

    success: bool
    message: str
    names: Tuple[str, ...] = ()
    positions: Tuple[float, ...] = ()
    position_error: float = math.nan
    orientation_error: float = math.nan
    iterations: int = 0


@dataclass(frozen=True)
class JacobianRequest:
    """
    ``GetJacobian`` request.

    :ivar link: a link, or any frame of the tree rigidly attached to a link.
    :ivar point: the reference point, in the frame ``link``.
    :ivar expressed_in: ``world``, ``local`` or ``local_world_aligned`` ('' for the latter).
    :ivar joint_state: configuration to use (missing joints: latest values).
    """

    link: str
    point: Sequence[float] = (0.0, 0.0, 0.0)
    expressed_in: str = ''
    joint_state: JointValues = JointValues()


@dataclass(frozen=True)
class JacobianResponse:
    """
    ``GetJacobian`` response.

    :ivar joint_names: one name per column (velocity entries).
    :ivar jacobian: the 6 x nv matrix, rows ``[vx, vy, vz, wx, wy, wz]``.
    :ivar manipulability: product of the singular values (``sqrt(det(J J^T))`` when nv >= 6).
    :ivar singular: smallest singular value below the bridge's ``singularity_threshold``.
    """

    success: bool
    message: str
    joint_names: Tuple[str, ...] = ()
    jacobian: Optional[MatrixOut] = None
    manipulability: float = 0.0
    singular: bool = False


@dataclass(frozen=True)
class LockedJointIn:
    """A locked joint of a ``GetRelativeMotion`` request."""

    joint: str
    parameterized: bool = False


@dataclass(frozen=True)
class RelativeTransformationIn:
    """
    A relative transformation of a ``GetRelativeMotion`` request.

    :ivar body_a: a joint or link ('' for the environment).
    :ivar body_b: a joint or link ('' for the environment).
    :ivar parameterized: the value may change between uses.
    :ivar mask: ``[x, y, z, rx, ry, rz]`` constrained components (empty: all six).
    """

    body_a: str
    body_b: str = ''
    parameterized: bool = False
    mask: Sequence[bool] = ()


@dataclass(frozen=True)
class RelativeMotionRequest:
    """``GetRelativeMotion`` request."""

    locked_joints: Sequence[LockedJointIn] = ()
    transformations: Sequence[RelativeTransformationIn] = ()


@dataclass(frozen=True)
class RelativeMotionResponse:
    """``GetRelativeMotion`` response: index names and the matrix (0/1/2 values)."""

    success: bool
    message: str
    index_names: Tuple[str, ...] = ()
    matrix: Optional[MatrixOut] = None


def get_jacobian(bridge: Bridge, request: JacobianRequest) -> JacobianResponse:
    """
    Answer a ``GetJacobian`` request.

    :param bridge: the bridge (model and latest joint values).
    :param request: the request.
    :return: the response (``success=False`` with the reason for a bad request).
    """
    try:
        frame = bridge.strip_prefix(request.link)
        needed = bridge.frame_dependencies(frame)
        q = bridge.configuration_for(request.joint_state.names, request.joint_state.positions,
                                     needed)
        point = np.asarray(request.point, dtype=float).reshape(-1)
        if point.shape != (3,) or not np.all(np.isfinite(point)):
            return JacobianResponse(False, f'point must be 3 finite numbers, got '
                                    f'{tuple(request.point)}')
        expressed_in = ExpressedIn.parse(request.expressed_in or 'local_world_aligned')
        model = bridge.model
        if model.has_link(frame):
            link, link_p_point = frame, point
        else:
            link, link_p_point = _attach(bridge, frame, point, q)
        state = model.forward_kinematics(q)
        jacobian = state.jacobian(link, link_p_point, expressed_in)
    except (FrameKinematicsError, ValueError, TypeError) as exc:
        return JacobianResponse(False, f"jacobian of '{request.link}': {exc}")
    singular_values = np.linalg.svd(jacobian, compute_uv=False)[:min(jacobian.shape)]
    manipulability = float(np.prod(singular_values)) if len(singular_values) else 0.0
    smallest = float(singular_values.min()) if len(singular_values) else 0.0
    singular = smallest < bridge.settings.singularity_threshold
    return JacobianResponse(True, f'jacobian of {link} expressed in {expressed_in.value}'
                            + (f' (smallest singular value {smallest:.3g})' if singular else ''),
                            bridge.model.velocity_names,
                            MatrixOut.from_array(jacobian, 'rows', 'columns'),
                            manipulability, singular)


def _attach(bridge: Bridge, frame: str, frame_p_point: np.ndarray,
            q: np.ndarray) -> Tuple[str, np.ndarray]:
    """Find the link a non-link frame rides on, and the point in that link's frame."""
    current = bridge.tree.frame(frame)
    if current.kind is FrameKind.ROBOT_COM:
        raise ReferenceFrameError(f"frame '{frame}' (the robot center of mass) is not attached "
                                  'to a link: it has no link jacobian', frame)
    model = bridge.model
    while not model.has_link(current.name):
        current = current.parent
    link_T_frame = inverse(bridge.root_T_frame(current.name, q)) @ \
        bridge.root_T_frame(frame, q)
    return current.name, link_T_frame[:3, :3] @ frame_p_point + link_T_frame[:3, 3]


def get_relative_motion(bridge: Bridge, request: RelativeMotionRequest
                        ) -> RelativeMotionResponse:
    """
    Answer a ``GetRelativeMotion`` request.

    :param bridge: the bridge (model).
    :param request: locked joints and relative transformations.
    :return: the index names and the matrix (``success=False`` for a bad request).
    """
    motion = RelativeMotion(bridge.model)
    try:
        for locked in request.locked_joints:
            motion.add_locked_joint(locked.joint, bool(locked.parameterized))
        for item in request.transformations:
            motion.add_relative_transformation(
                bridge.strip_prefix(item.body_a) or None, bridge.strip_prefix(item.body_b) or None,
                bool(item.parameterized), list(item.mask) if len(item.mask) else None)
    except (FrameKinematicsError, ValueError, TypeError) as exc:
        return RelativeMotionResponse(False, f'relative motion: {exc}')
    matrix = motion.matrix
    return RelativeMotionResponse(True, f'{motion.size} indices: 0 is the environment, '
                                  'values 0 constrained, 1 parameterized, 2 unconstrained',
                                  motion.index_names,
                                  MatrixOut.from_array(matrix, 'rows', 'columns'))


def compute_ik(bridge: Bridge, request: IKRequest) -> IKResponse:
    """
    Answer a ``ComputeIK`` request with the core's solver.

    The target is converted to the root link with the latest joint values (a target given
    in a moving frame needs the joints that move it).

    :param bridge: the bridge (model and latest joint values).
    :param request: the request.
    :return: the response (``success=False`` with the reason for a bad request or no solution).
    """
    try:
        model = bridge.model
        tip = bridge.strip_prefix(request.tip_link)
        model.link_index(tip)
        frame = bridge.strip_prefix(request.target_frame)
        frame_T_target = transform_from_xyz_quaternion(
            _vector(request.target_position, 3, 'target position'),
            _unit_quaternion(request.target_orientation))
        needed = bridge.frame_dependencies(frame or model.root_link)
        current = bridge.configuration_for((), (), needed)
        root_T_target = bridge.root_T_frame(frame, current) @ frame_T_target
        seed = bridge.configuration_for(request.seed.names, request.seed.positions, ())
        options = {'seed': seed, 'position_only': bool(request.position_only)}
        for name, option in (('position_tolerance', 'position_tolerance'),
                             ('orientation_tolerance', 'orientation_tolerance'),
                             ('timeout', 'time_budget')):
            value = float(getattr(request, name))
            if not math.isfinite(value) or value < 0:
                return IKResponse(False, f'{name} must be a finite number >= 0 (0: default), '
                                  f'got {value}')
            if value > 0:
                options[option] = value
        if len(request.active_joints):
            for name in request.active_joints:
                model.joint(name)
            options['active_joints'] = list(request.active_joints)
        result = model.inverse_kinematics(tip, root_T_target, **options)
    except (FrameKinematicsError, ValueError, TypeError) as exc:
        return IKResponse(False, f"inverse kinematics of '{request.tip_link}': {exc}")
    q = np.asarray(result.q, dtype=float).reshape(-1)
    success = bool(result.success)
    position_error = float(result.position_error)
    orientation_error = float(result.orientation_error)
    message = (f'converged in {int(result.iterations)} iterations' if success else
               f'no solution ({result.reason}): position error {position_error:.3g} m, '
               f'orientation error {orientation_error:.3g} rad after {int(result.iterations)} '
               'iterations')
    return IKResponse(success, message, tuple(model.configuration_names), tuple(q.tolist()),
                      position_error, orientation_error, int(result.iterations))


def _vector(values, size: int, what: str) -> np.ndarray:
    arr = np.asarray(values, dtype=float).reshape(-1)
    if arr.shape != (size,) or not np.all(np.isfinite(arr)):
        raise ValueError(f'{what} must be {size} finite numbers, got {tuple(values)}')
    return arr


def _unit_quaternion(values) -> np.ndarray:
    quat = _vector(values, 4, 'target orientation')
    norm = float(np.linalg.norm(quat))
    if abs(norm - 1.0) > 1e-3:
        raise ValueError(f'target orientation must be a unit quaternion [x, y, z, w], got '
                         f'{tuple(quat.tolist())} (norm {norm:.6g})')
    return quat / norm


__all__ = [
    'IKRequest', 'IKResponse', 'JacobianRequest', 'JacobianResponse', 'JointValues',
    'LockedJointIn', 'MatrixOut', 'RelativeMotionRequest', 'RelativeMotionResponse',
    'RelativeTransformationIn', 'compute_ik', 'get_jacobian', 'get_relative_motion',
]
