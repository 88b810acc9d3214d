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
Rigid transforms and quaternions a user gives: their tolerances and their checks.

:mod:`.spatial` computes with transforms and quaternions; the functions here decide whether
what a user, a file or a message gives is one (finite, bounded as every number of the package,
orthonormal within :data:`TRANSFORM_TOLERANCE`, of unit norm within
:data:`QUATERNION_NORM_TOLERANCE`), and say what is wrong otherwise.
"""

import numpy as np

from .checks import as_float_array, check_finite
from .errors import ConfigurationError

#: Largest accepted deviation of a quaternion's norm from 1 (it is then normalised): the one
#: tolerance on quaternion norms of the package (floating joints, targets, orientations, CoM
#: frames, messages).
QUATERNION_NORM_TOLERANCE = 1e-4
#: Largest accepted deviation of a rigid transform from one (``|R^T R - I|`` entries, the last
#: row from ``[0, 0, 0, 1]``): :func:`check_transform`'s default.
TRANSFORM_TOLERANCE = 1e-6


def unit_quaternion(quat: np.ndarray, name: str = 'quaternion') -> np.ndarray:
    """
    Check quaternions ``[x, y, z, w]`` are unit within the tolerance and normalise them.

    :param quat: floats of shape ``(..., 4)``.
    :param name: what they are called in error messages.
    :return: the normalised quaternions (a new array).
    :raises ConfigurationError: for a wrong shape, NaN, inf or a magnitude beyond
        :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE` (no norm overflows), or a norm off
        by more than :data:`QUATERNION_NORM_TOLERANCE`.
    """
    quat = np.asarray(quat, dtype=float)
    if quat.shape[-1:] != (4,):
        raise ConfigurationError(f'{name} must be [x, y, z, w], got shape {quat.shape}')
    check_finite(quat, name, ('x', 'y', 'z', 'w'))
    norm = np.linalg.norm(quat, axis=-1)
    if not np.all(np.abs(norm - 1.0) <= QUATERNION_NORM_TOLERANCE):
        shown = ', '.join(f'{x:.6g}' for x in np.atleast_1d(norm)[:3])
        raise ConfigurationError(f'{name} has norm {shown}, expected a unit quaternion '
                                 '(norm 1)')
    return quat / norm[..., None]


def check_transform(a_T_b: np.ndarray, name: str = 'transform',
                    tol: float = TRANSFORM_TOLERANCE) -> np.ndarray:
    """
    Validate rigid transforms: finite, orthonormal rotation, ``[0 0 0 1]`` last row.

    :param a_T_b: candidate transforms of shape ``(..., 4, 4)``.
    :param name: what the transform is, for the error message.
    :param tol: tolerance on orthonormality.
    :return: the transforms as a float array.
    :raises ConfigurationError: if a transform is not rigid.
    """
    arr = np.asarray(a_T_b, dtype=float)
    if arr.shape[-2:] != (4, 4):
        raise ConfigurationError(f'{name} must have shape (..., 4, 4), got {arr.shape}')
    if not np.all(np.isfinite(arr)):
        raise ConfigurationError(f'{name} contains NaN or inf')
    rot = arr[..., :3, :3]
    err = np.abs(np.swapaxes(rot, -1, -2) @ rot - np.eye(3)).max(initial=0.0)
    if err > tol or np.any(np.linalg.det(rot) < 0):
        raise ConfigurationError(f'{name} has a rotation that is not orthonormal '
                                 f'(max |R^T R - I| = {err:.2e})')
    if np.abs(arr[..., 3, :] - np.array([0, 0, 0, 1.0])).max(initial=0.0) > tol:
        raise ConfigurationError(f'{name} must have last row [0, 0, 0, 1]')
    return arr


def check_pose(a_T_b, name: str) -> np.ndarray:
    """
    Read one rigid transform a user gives.

    :param a_T_b: a 4x4 array-like of real numbers.
    :param name: what it is, for the error message.
    :return: a new ``(4, 4)`` float array.
    :raises ConfigurationError: naming ``name``, unless one 4x4 rigid transform of real numbers
        of magnitude at most :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`.
    """
    arr = as_float_array(a_T_b, name)
    if arr.shape != (4, 4):
        raise ConfigurationError(f'{name} must be one 4x4 transform, got shape {arr.shape}')
    return check_transform(check_finite(arr, name), name)
