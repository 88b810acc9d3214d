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
The requests and responses of the kinematics services, as plain data.

They mirror the services of the ``frame_kinematics_interfaces`` package (``ComputeIK``,
``GetJacobian``, ``GetRelativeMotion``); :mod:`frame_kinematics.bridge.services` answers them.
"""

from dataclasses import dataclass
import math
from typing import Optional, Sequence, Tuple

import numpy as np

#: Largest ``ComputeIK`` timeout (seconds); a larger one is refused.
MAX_TIMEOUT = 10.0
#: Most entries of each list of a ``GetRelativeMotion`` request (``locked_joints``,
#: ``transformations``); a longer one is refused before any entry is applied.
MAX_RELATIVE_MOTION_ENTRIES = 10_000


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

    :ivar tip_link: the link to place.
    :ivar target_frame: frame the target pose is given in ('' for the root link).
    :ivar target_position: ``frame_p_target``.
    :ivar target_orientation: quaternion ``[x, y, z, w]`` of ``frame_R_target``.
    :ivar seed: start configuration (missing joints: latest values).
    :ivar position_only: ignore the orientation.
    :ivar position_tolerance: metres (0: the solver's default).
    :ivar orientation_tolerance: radians (0: the solver's default).
    :ivar timeout: time budget in seconds from the request's arrival, at most
        :data:`MAX_TIMEOUT` (0: the solver's default, 0.02 s).
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
    :ivar manipulability: ``sqrt(det(J J^T))`` (the core's
        :func:`~frame_kinematics.core.velocity.manipulability`).
    :ivar singular: the core's :func:`~frame_kinematics.core.velocity.is_singular` with the
        bridge's ``singularity_threshold``.
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
