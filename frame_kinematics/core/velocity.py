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
Differential kinematics toolbox: velocities, forces, Jacobian inverses, singularities.

The ideas of ``rl::kin::Kinematics`` on top of a
:class:`~frame_kinematics.core.kinematics.KinematicsState`:

* forward velocity ``xdot = J qdot`` and inverse velocity ``qdot = J⁺ xdot``;
* inverse force ``tau = Jᵀ F`` (the joint torques balancing a tip wrench ``F``) and forward
  force ``F = J⁺ᵀ tau`` (the tip wrench that joint torques produce, ``J⁻ᵀ tau`` for a square
  Jacobian);
* the Jacobian inverse by damped least squares or by SVD (singular values exposed), the
  manipulability measure ``sqrt(det(J Jᵀ))`` and a singularity test;
* several tips at once (rl's operational DOF): their poses and the stacked Jacobian.

Twists are ``[linear; angular]`` and wrenches ``[force; torque]``; a wrench is dual to the
twist of the same Jacobian variant (``ExpressedIn``): with ``LOCAL_WORLD_ALIGNED`` the torque is
taken about the tip point in root axes, with ``LOCAL`` in the tip's axes, with ``WORLD`` about
the root origin. Several tips stack their 6 rows tip after tip.

Every function accepts a batch: a state of batch shape ``(B,)`` gives ``(B, 6 k, nv)`` stacked
Jacobians, and the matrix functions work on any ``(..., m, n)`` stack.
"""

from dataclasses import dataclass
from typing import Optional, Sequence, Union

import numpy as np

from .checks import as_float_array, check_vector
from .errors import ConfigurationError
from .kinematics import ExpressedIn, KinematicsState

#: A configuration is singular when the smallest singular value of the Jacobian is below this
#: (units of the Jacobian: m/rad or m/m for linear rows, rad/rad for angular rows). The one
#: default of the package: the node's ``singularity_threshold`` and the command line use it.
SINGULARITY_THRESHOLD = 1e-4

#: Relative cutoff under which singular values are treated as zero by the SVD inverse.
SVD_CUTOFF = 1e-12

Tips = Union[str, Sequence[str]]


def _tips(tips: Tips) -> Sequence[str]:
    if isinstance(tips, str):
        return [tips]
    names = list(tips)
    if not names:
        raise ConfigurationError('tips must name at least one link')
    return names


def forward_positions(state: KinematicsState, tips: Tips) -> np.ndarray:
    """
    Poses ``root_T_tip`` of several tips (rl's ``forwardPosition`` for every leaf).

    :param state: the kinematic state.
    :param tips: a link name or a list of them.
    :return: ``(k, 4, 4)`` or, for a batch, ``(k, B, 4, 4)``.
    :raises UnknownFrameError: for an unknown link.
    """
    index = [state.model.link_index(name) for name in _tips(tips)]
    return state.poses[index].copy()


def stacked_jacobian(state: KinematicsState, tips: Tips,
                     expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED
                     ) -> np.ndarray:
    """
    Jacobians of several tips stacked row-wise, ``[J_tip0; J_tip1; ...]``.

    :param state: the kinematic state.
    :param tips: a link name or a list of them.
    :param expressed_in: the Jacobian variant (see :meth:`KinematicsState.jacobian`).
    :return: ``(6 k, nv)`` or ``(B, 6 k, nv)``.
    :raises UnknownFrameError: for an unknown link.
    """
    blocks = [state.jacobian(name, expressed_in=expressed_in) for name in _tips(tips)]
    return np.concatenate(blocks, axis=-2)


def _apply(matrix: np.ndarray, x: np.ndarray) -> np.ndarray:
    return (matrix @ x[..., None])[..., 0]


@dataclass(frozen=True)
class JacobianInverse:
    """
    A (pseudo-)inverse of a Jacobian and what it was computed from.

    :ivar matrix: ``J⁺`` of shape ``(..., n, m)``.
    :ivar singular_values: singular values of ``J``, descending, ``(..., min(m, n))``.
    :ivar damping: the damping factor ``lambda`` used (0 for the plain SVD inverse).
    :ivar method: ``'svd'`` or ``'dls'``.
    """

    matrix: np.ndarray
    singular_values: np.ndarray
    damping: float
    method: str

    @property
    def rank(self) -> np.ndarray:
        """Count the singular values above :data:`SINGULARITY_THRESHOLD`."""
        return np.sum(self.singular_values > SINGULARITY_THRESHOLD, axis=-1)


def _matrix(jac) -> np.ndarray:
    arr = as_float_array(jac, 'a Jacobian')
    if arr.ndim < 2:
        raise ConfigurationError(f'a Jacobian must have shape (..., m, n), got {arr.shape}')
    if not np.all(np.isfinite(arr)):
        raise ConfigurationError('the Jacobian has NaN or inf')
    return arr


def jacobian_inverse(jac, damping: float = 0.0, method: str = 'svd') -> JacobianInverse:
    """
    Pseudo-inverse of a Jacobian (rl's ``updateJacobianInverse``).

    * ``method='svd'``: ``J⁺ = V diag(s / (s² + lambda²)) Uᵀ``; with ``damping=0`` this is the
      Moore-Penrose inverse, singular values below ``SVD_CUTOFF * s_max`` being dropped.
    * ``method='dls'``: damped least squares ``J⁺ = Jᵀ (J Jᵀ + lambda² I)⁻¹`` by a linear solve
      (no SVD; needs ``damping > 0`` when ``J`` may lose rank). Singular values are still
      reported.

    :param jac: ``(..., m, n)``.
    :param damping: the damping factor ``lambda`` (>= 0).
    :param method: ``'svd'`` or ``'dls'``.
    :return: the inverse with the singular values.
    :raises ConfigurationError: for a bad matrix, damping or method.
    """
    arr = _matrix(jac)
    damping = float(damping)
    if not np.isfinite(damping) or damping < 0:
        raise ConfigurationError(f'damping must be >= 0, got {damping}')
    if method not in ('svd', 'dls'):
        raise ConfigurationError(f"method must be 'svd' or 'dls', got {method!r}")
    u, s, vt = np.linalg.svd(arr, full_matrices=False)
    if method == 'dls':
        m = arr.shape[-2]
        gram = arr @ np.swapaxes(arr, -1, -2) + damping ** 2 * np.eye(m)
        matrix = np.swapaxes(np.linalg.solve(gram, arr), -1, -2)
    else:
        if damping > 0:
            factor = s / (s * s + damping ** 2)
        else:
            cutoff = SVD_CUTOFF * np.max(s, axis=-1, keepdims=True, initial=0.0)
            factor = np.where(s > cutoff, 1.0 / np.where(s > cutoff, s, 1.0), 0.0)
        matrix = np.swapaxes(vt, -1, -2) @ (factor[..., None] * np.swapaxes(u, -1, -2))
    return JacobianInverse(matrix, s, damping, method)


def manipulability(jac) -> Union[float, np.ndarray]:
    """
    Yoshikawa's manipulability measure ``sqrt(det(J Jᵀ))`` (product of singular values).

    It is 0 at a singular configuration (and whenever ``J`` has more rows than columns).

    :param jac: ``(m, n)`` or ``(..., m, n)``.
    :return: a float, or one value per matrix.
    """
    arr = _matrix(jac)
    s = np.linalg.svd(arr, compute_uv=False)
    if arr.shape[-2] > arr.shape[-1]:
        value = np.zeros(arr.shape[:-2])
    else:
        value = np.prod(s, axis=-1)
    return float(value) if np.ndim(value) == 0 else value


def is_singular(jac, threshold: float = SINGULARITY_THRESHOLD) -> Union[bool, np.ndarray]:
    """
    Whether the Jacobian has lost rank: its smallest singular value is below ``threshold``.

    A Jacobian with more rows than columns counts all ``m`` rows: it is singular, since some
    task directions can never be reached.

    :param jac: ``(m, n)`` or ``(..., m, n)``.
    :param threshold: see :data:`SINGULARITY_THRESHOLD`.
    :return: a bool, or one per matrix.
    :raises ConfigurationError: for a bad matrix, or a threshold that is not a finite number
        >= 0.
    """
    threshold = float(check_vector([threshold], 1, 'threshold')[0])
    if threshold < 0:
        raise ConfigurationError(f'threshold must be >= 0, got {threshold:g}')
    arr = _matrix(jac)
    s = np.linalg.svd(arr, compute_uv=False)
    smallest = s[..., -1] if arr.shape[-2] <= arr.shape[-1] else np.zeros(arr.shape[:-2])
    result = smallest < threshold
    return bool(result) if np.ndim(result) == 0 else result


def forward_velocity(state: KinematicsState, tips: Tips, qdot,
                     expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED
                     ) -> np.ndarray:
    """
    Tip twists from joint velocities: ``xdot = J qdot``.

    :param state: the kinematic state.
    :param tips: a link name or a list of them (twists stacked).
    :param qdot: ``(nv,)`` or ``(B, nv)``.
    :param expressed_in: the Jacobian variant.
    :return: ``(6 k,)`` or ``(B, 6 k)``.
    :raises ConfigurationError: for a wrong ``qdot``.
    """
    qdot = check_vector(qdot, state.model.nv, 'qdot')
    return _apply(stacked_jacobian(state, tips, expressed_in), qdot)


def inverse_velocity(state: KinematicsState, tips: Tips, xdot,
                     expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED,
                     damping: float = 0.0, method: str = 'svd') -> np.ndarray:
    """
    Joint velocities for tip twists: ``qdot = J⁺ xdot`` (least-squares, minimum norm).

    :param state: the kinematic state.
    :param tips: a link name or a list of them.
    :param xdot: ``(6 k,)`` or ``(B, 6 k)``.
    :param expressed_in: the Jacobian variant ``xdot`` is given in.
    :param damping: damping factor of the inverse (see :func:`jacobian_inverse`).
    :param method: ``'svd'`` or ``'dls'``.
    :return: ``(nv,)`` or ``(B, nv)``.
    :raises ConfigurationError: for a wrong ``xdot``.
    """
    jac = stacked_jacobian(state, tips, expressed_in)
    xdot = check_vector(xdot, jac.shape[-2], 'xdot')
    return _apply(jacobian_inverse(jac, damping, method).matrix, xdot)


def inverse_force(state: KinematicsState, tips: Tips, wrench,
                  expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED
                  ) -> np.ndarray:
    """
    Joint torques that balance tip wrenches: ``tau = Jᵀ F``.

    :param state: the kinematic state.
    :param tips: a link name or a list of them.
    :param wrench: ``[force; torque]`` per tip, ``(6 k,)`` or ``(B, 6 k)``.
    :param expressed_in: the Jacobian variant the wrench is dual to.
    :return: ``(nv,)`` or ``(B, nv)``.
    :raises ConfigurationError: for a wrong ``wrench``.
    """
    jac = stacked_jacobian(state, tips, expressed_in)
    wrench = check_vector(wrench, jac.shape[-2], 'wrench')
    return _apply(np.swapaxes(jac, -1, -2), wrench)


def forward_force(state: KinematicsState, tips: Tips, tau,
                  expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED,
                  damping: float = 0.0, method: str = 'svd') -> np.ndarray:
    """
    Tip wrenches produced by joint torques: ``F = J⁺ᵀ tau`` (``J⁻ᵀ tau`` if square).

    :param state: the kinematic state.
    :param tips: a link name or a list of them.
    :param tau: ``(nv,)`` or ``(B, nv)``.
    :param expressed_in: the Jacobian variant of the returned wrench.
    :param damping: damping factor of the inverse (see :func:`jacobian_inverse`).
    :param method: ``'svd'`` or ``'dls'``.
    :return: ``(6 k,)`` or ``(B, 6 k)``.
    :raises ConfigurationError: for a wrong ``tau``.
    """
    tau = check_vector(tau, state.model.nv, 'tau')
    jac = stacked_jacobian(state, tips, expressed_in)
    inverse = jacobian_inverse(jac, damping, method).matrix
    return _apply(np.swapaxes(inverse, -1, -2), tau)


def tip_manipulability(state: KinematicsState, tips: Tips,
                       expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED,
                       joints: Optional[Sequence[str]] = None) -> Union[float, np.ndarray]:
    """
    Return the manipulability of tips at the state, optionally over a subset of joints.

    :param state: the kinematic state.
    :param tips: a link name or a list of them.
    :param expressed_in: the Jacobian variant (the measure is the same for ``LOCAL`` and
        ``LOCAL_WORLD_ALIGNED``).
    :param joints: actuated joints whose columns are kept (default: all).
    :return: a float, or ``(B,)``.
    :raises UnknownFrameError: for an unknown link or joint.
    """
    jac = stacked_jacobian(state, tips, expressed_in)
    if joints is not None:
        columns = []
        for name in joints:
            joint = state.model.joint(name)
            columns += list(range(joint.idx_v, joint.idx_v + joint.nv))
        jac = jac[..., columns]
    return manipulability(jac)
