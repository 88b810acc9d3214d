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
Spatial algebra on plain numpy arrays.

Conventions (see :mod:`frame_kinematics.core` for the full statement):

* ``a_T_b`` is the 4x4 pose of frame b in frame a, ``a_R_b`` its rotation, ``a_p_b`` its
  translation; ``a_T_c = a_T_b @ b_T_c``.
* Twists are ``[linear; angular]`` and wrenches ``[force; torque]``, as in
  ``geometry_msgs/Twist`` and ``geometry_msgs/Wrench``.
* ``a_X_b = motion_transform(a_T_b)`` maps a twist expressed in b to the same twist expressed in
  a; ``force_transform(a_T_b)`` does the same for wrenches.
* Quaternions are ``[x, y, z, w]`` (ROS, tf2 and Eigen's coeffs order).
* Roll-pitch-yaw are URDF's fixed-axis angles: ``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)``.

Every function accepts leading batch dimensions: a ``(..., 3, 3)`` stack of rotations gives a
``(..., 4)`` stack of quaternions, and so on.
"""

import numpy as np

# Below this angle the closed forms lose digits: use their Taylor series (error < 1e-18).
_SERIES = 1e-3


#: :func:`log_so3` takes the axis from the quaternion above ``pi`` minus this angle.
_LOG_NEAR_PI = 1e-4
# Flattened 3x3 matrix -> [vee(M - M^T) / 2, trace(M)].
_VEE_TRACE = np.zeros((9, 4))
_VEE_TRACE[[7, 2, 3], [0, 1, 2]] = 0.5
_VEE_TRACE[[5, 6, 1], [0, 1, 2]] = -0.5
_VEE_TRACE[[0, 4, 8], 3] = 1.0
_VEE_TRACE.flags.writeable = False
# Flattened 3x3 matrix -> flattened 4 q q^T of its quaternion [x, y, z, w] (plus the constant).
_QUATERNION_K = np.zeros((9, 16))
for _entry, _terms in enumerate((
        ((0, 1), (4, -1), (8, -1)), ((3, 1), (1, 1)), ((2, 1), (6, 1)), ((7, 1), (5, -1)),
        ((3, 1), (1, 1)), ((0, -1), (4, 1), (8, -1)), ((7, 1), (5, 1)), ((2, 1), (6, -1)),
        ((2, 1), (6, 1)), ((7, 1), (5, 1)), ((0, -1), (4, -1), (8, 1)), ((3, 1), (1, -1)),
        ((7, 1), (5, -1)), ((2, 1), (6, -1)), ((3, 1), (1, -1)), ((0, 1), (4, 1), (8, 1)))):
    for _m, _sign in _terms:
        _QUATERNION_K[_m, _entry] = _sign
_QUATERNION_K.flags.writeable = False
_QUATERNION_K0 = np.zeros(16)
_QUATERNION_K0[::5] = 1.0
_QUATERNION_K0.flags.writeable = False
_NEXT = np.array([1, 2, 0])
_NEXT.flags.writeable = False
_PREV = np.array([2, 0, 1])
_PREV.flags.writeable = False


def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """
    Cross product on the last axis (broadcast): few numpy calls for small arrays.

    :param a: vectors of shape ``(..., 3)``.
    :param b: vectors of shape ``(..., 3)``.
    :return: ``a x b``.
    """
    if a.size + b.size > 600:
        return np.cross(a, b)
    return a[..., _NEXT] * b[..., _PREV] - a[..., _PREV] * b[..., _NEXT]


def skew(v: np.ndarray) -> np.ndarray:
    """
    Return the cross-product matrix ``[v]`` with ``[v] @ u == cross(v, u)``.

    :param v: vector(s) of shape ``(..., 3)``.
    :return: matrices of shape ``(..., 3, 3)``.
    """
    v = np.asarray(v, dtype=float)
    out = np.zeros(v.shape + (3,))
    out[..., 0, 1] = -v[..., 2]
    out[..., 0, 2] = v[..., 1]
    out[..., 1, 0] = v[..., 2]
    out[..., 1, 2] = -v[..., 0]
    out[..., 2, 0] = -v[..., 1]
    out[..., 2, 1] = v[..., 0]
    return out


def rotation_from_rpy(rpy: np.ndarray) -> np.ndarray:
    """
    Rotation matrix from URDF roll, pitch, yaw: ``Rz(yaw) @ Ry(pitch) @ Rx(roll)``.

    :param rpy: angles of shape ``(..., 3)`` in radians.
    :return: rotations of shape ``(..., 3, 3)``.
    """
    rpy = np.asarray(rpy, dtype=float)
    cr, cp, cy = np.cos(rpy[..., 0]), np.cos(rpy[..., 1]), np.cos(rpy[..., 2])
    sr, sp, sy = np.sin(rpy[..., 0]), np.sin(rpy[..., 1]), np.sin(rpy[..., 2])
    out = np.empty(rpy.shape[:-1] + (3, 3))
    out[..., 0, 0] = cy * cp
    out[..., 0, 1] = cy * sp * sr - sy * cr
    out[..., 0, 2] = cy * sp * cr + sy * sr
    out[..., 1, 0] = sy * cp
    out[..., 1, 1] = sy * sp * sr + cy * cr
    out[..., 1, 2] = sy * sp * cr - cy * sr
    out[..., 2, 0] = -sp
    out[..., 2, 1] = cp * sr
    out[..., 2, 2] = cp * cr
    return out


def rpy_from_rotation(a_R_b: np.ndarray) -> np.ndarray:
    """
    Roll, pitch, yaw of a rotation matrix (inverse of :func:`rotation_from_rpy`).

    Pitch is in ``[-pi/2, pi/2]``; at the gimbal lock (``|pitch| = pi/2``) roll is set to 0.

    :param a_R_b: rotations of shape ``(..., 3, 3)``.
    :return: angles of shape ``(..., 3)``.
    """
    r = np.asarray(a_R_b, dtype=float)
    pitch = np.arctan2(-r[..., 2, 0], np.hypot(r[..., 0, 0], r[..., 1, 0]))
    locked = np.hypot(r[..., 0, 0], r[..., 1, 0]) < 1e-10
    roll = np.where(locked, 0.0, np.arctan2(r[..., 2, 1], r[..., 2, 2]))
    yaw = np.where(locked, np.arctan2(-r[..., 0, 1], r[..., 1, 1]),
                   np.arctan2(r[..., 1, 0], r[..., 0, 0]))
    return np.stack([roll, pitch, yaw], axis=-1)


def rotation_from_quaternion(quat: np.ndarray) -> np.ndarray:
    """
    Rotation matrix of a unit quaternion ``[x, y, z, w]``.

    :param quat: quaternions of shape ``(..., 4)``; they are normalised.
    :return: rotations of shape ``(..., 3, 3)``.
    """
    q = np.asarray(quat, dtype=float)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    out = np.empty(q.shape[:-1] + (3, 3))
    out[..., 0, 0] = 1 - 2 * (y * y + z * z)
    out[..., 0, 1] = 2 * (x * y - z * w)
    out[..., 0, 2] = 2 * (x * z + y * w)
    out[..., 1, 0] = 2 * (x * y + z * w)
    out[..., 1, 1] = 1 - 2 * (x * x + z * z)
    out[..., 1, 2] = 2 * (y * z - x * w)
    out[..., 2, 0] = 2 * (x * z - y * w)
    out[..., 2, 1] = 2 * (y * z + x * w)
    out[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return out


def quaternion_from_rotation(a_R_b: np.ndarray) -> np.ndarray:
    """
    Return the unit quaternion ``[x, y, z, w]`` of a rotation, with ``w >= 0``.

    :param a_R_b: rotations of shape ``(..., 3, 3)``.
    :return: quaternions of shape ``(..., 4)``.
    """
    r = np.asarray(a_R_b, dtype=float)
    # K = 4 q q^T (diagonal: the four candidate squared magnitudes): its row with the largest
    # diagonal entry, normalised, is the quaternion, with the best numerical accuracy.
    k = r.reshape(-1, 9) @ _QUATERNION_K + _QUATERNION_K0
    row = k.reshape(-1, 4, 4)[np.arange(len(k)), np.argmax(k[:, ::5], axis=1)]
    scale = np.where(row[:, 3] < 0.0, -1.0, 1.0) / np.sqrt(np.einsum('ij,ij->i', row, row))
    return (row * scale[:, None]).reshape(r.shape[:-2] + (4,))


def quaternion_multiply(q1: np.ndarray, q2: np.ndarray) -> np.ndarray:
    """
    Hamilton product ``q1 * q2`` of quaternions ``[x, y, z, w]``.

    :param q1: quaternions of shape ``(..., 4)``.
    :param q2: quaternions of shape ``(..., 4)``.
    :return: the product, shape ``(..., 4)``.
    """
    q1 = np.asarray(q1, dtype=float)
    q2 = np.asarray(q2, dtype=float)
    x1, y1, z1, w1 = np.moveaxis(q1, -1, 0)
    x2, y2, z2, w2 = np.moveaxis(q2, -1, 0)
    return np.stack([w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                     w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
                     w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2], axis=-1)


def exp_so3(omega: np.ndarray) -> np.ndarray:
    """
    Rotation matrix ``exp([omega])`` of a rotation vector (Rodrigues' formula).

    :param omega: rotation vectors (axis times angle) of shape ``(..., 3)``.
    :return: rotations of shape ``(..., 3, 3)``.
    """
    omega = np.asarray(omega, dtype=float)
    theta = np.linalg.norm(omega, axis=-1)[..., None, None]
    small = theta < _SERIES
    safe = np.where(small, 1.0, theta)
    t2 = theta ** 2
    a = np.where(small, 1 - t2 / 6 + t2 ** 2 / 120, np.sin(safe) / safe)
    b = np.where(small, 0.5 - t2 / 24 + t2 ** 2 / 720, 2 * np.sin(safe / 2) ** 2 / safe ** 2)
    k = skew(omega)
    return np.eye(3) + a * k + b * (k @ k)


def rotation_from_axis_angle(axis: np.ndarray, angle: np.ndarray) -> np.ndarray:
    """
    Rotation of ``angle`` radians about a unit ``axis``.

    :param axis: unit axes of shape ``(..., 3)``.
    :param angle: angles of shape ``(...)``.
    :return: rotations of shape ``(..., 3, 3)``.
    """
    axis = np.asarray(axis, dtype=float)
    return exp_so3(axis * np.asarray(angle, dtype=float)[..., None])


def log_so3(a_R_b: np.ndarray) -> np.ndarray:
    """
    Return the rotation vector (axis times angle in ``[0, pi]``) whose exp is ``a_R_b``.

    The angle is ``atan2(|vee(R - R^T)| / 2, (trace(R) - 1) / 2)``, accurate near 0; near
    ``pi``, where the antisymmetric part vanishes, the axis comes from the quaternion
    (:func:`quaternion_from_rotation`). The inverse kinematics' residual
    (:mod:`frame_kinematics.core.ik.residual`) and its compiled form read the same rule.

    :param a_R_b: rotations of shape ``(..., 3, 3)``.
    :return: rotation vectors of shape ``(..., 3)``.
    """
    r = np.asarray(a_R_b, dtype=float)
    vee_trace = r.reshape(-1, 9) @ _VEE_TRACE
    vec = vee_trace[:, :3]
    sin = np.sqrt(np.einsum('ij,ij->i', vec, vec))
    angle = np.arctan2(sin, 0.5 * (vee_trace[:, 3] - 1.0))
    # angle / sin -> 1 as both vanish
    vec = vec * (angle / np.maximum(sin, 1e-300) + (sin == 0.0))[:, None]
    near_pi = angle > np.pi - _LOG_NEAR_PI
    if near_pi.any():
        quat = quaternion_from_rotation(r.reshape(-1, 3, 3)[near_pi])
        axis = quat[:, :3]
        norm = np.sqrt(np.einsum('ij,ij->i', axis, axis))
        vec[near_pi] = axis * (2.0 * np.arctan2(norm, quat[:, 3]) / norm)[:, None]
    return vec.reshape(r.shape[:-2] + (3,))


def transform(a_R_b: np.ndarray, a_p_b: np.ndarray) -> np.ndarray:
    """
    Homogeneous transform ``a_T_b`` from a rotation and a translation.

    :param a_R_b: rotations of shape ``(..., 3, 3)``.
    :param a_p_b: translations of shape ``(..., 3)``.
    :return: transforms of shape ``(..., 4, 4)``.
    """
    a_R_b = np.asarray(a_R_b, dtype=float)
    a_p_b = np.asarray(a_p_b, dtype=float)
    shape = np.broadcast_shapes(a_R_b.shape[:-2], a_p_b.shape[:-1])
    out = np.zeros(shape + (4, 4))
    out[..., :3, :3] = a_R_b
    out[..., :3, 3] = a_p_b
    out[..., 3, 3] = 1.0
    return out


def transform_from_xyz_rpy(xyz: np.ndarray, rpy: np.ndarray) -> np.ndarray:
    """
    Transform from a translation and URDF roll-pitch-yaw (a URDF ``<origin>``).

    :param xyz: translations of shape ``(..., 3)``.
    :param rpy: angles of shape ``(..., 3)``.
    :return: transforms of shape ``(..., 4, 4)``.
    """
    return transform(rotation_from_rpy(rpy), xyz)


def transform_from_xyz_quaternion(xyz: np.ndarray, quat: np.ndarray) -> np.ndarray:
    """
    Transform from a translation and a quaternion ``[x, y, z, w]``.

    :param xyz: translations of shape ``(..., 3)``.
    :param quat: quaternions of shape ``(..., 4)``.
    :return: transforms of shape ``(..., 4, 4)``.
    """
    return transform(rotation_from_quaternion(quat), xyz)


def inverse(a_T_b: np.ndarray) -> np.ndarray:
    """
    Inverse ``b_T_a`` of rigid transforms ``a_T_b``.

    :param a_T_b: transforms of shape ``(..., 4, 4)``.
    :return: transforms of shape ``(..., 4, 4)``.
    """
    a_T_b = np.asarray(a_T_b, dtype=float)
    r_t = np.swapaxes(a_T_b[..., :3, :3], -1, -2)
    out = np.zeros(a_T_b.shape)
    out[..., :3, :3] = r_t
    out[..., :3, 3] = -(r_t @ a_T_b[..., :3, 3:4])[..., 0]
    out[..., 3, 3] = 1.0
    return out


def exp_se3(twist: np.ndarray) -> np.ndarray:
    """
    Transform reached by following a constant body twist ``[v; w]`` for unit time.

    :param twist: twists of shape ``(..., 6)``, ``[linear; angular]``.
    :return: transforms of shape ``(..., 4, 4)``.
    """
    twist = np.asarray(twist, dtype=float)
    v, w = twist[..., :3], twist[..., 3:]
    theta = np.linalg.norm(w, axis=-1)[..., None, None]
    small = theta < _SERIES
    safe = np.where(small, 1.0, theta)
    t2 = theta ** 2
    b = np.where(small, 0.5 - t2 / 24 + t2 ** 2 / 720, 2 * np.sin(safe / 2) ** 2 / safe ** 2)
    c = np.where(small, 1 / 6 - t2 / 120 + t2 ** 2 / 5040, (safe - np.sin(safe)) / safe ** 3)
    k = skew(w)
    left = np.eye(3) + b * k + c * (k @ k)
    return transform(exp_so3(w), (left @ v[..., None])[..., 0])


def log_se3(a_T_b: np.ndarray) -> np.ndarray:
    """
    Twist ``[v; w]`` with ``exp_se3(twist) == a_T_b`` (rotation angle in ``[0, pi]``).

    :param a_T_b: transforms of shape ``(..., 4, 4)``.
    :return: twists of shape ``(..., 6)``.
    """
    a_T_b = np.asarray(a_T_b, dtype=float)
    w = log_so3(a_T_b[..., :3, :3])
    theta = np.linalg.norm(w, axis=-1)[..., None, None]
    small = theta < _SERIES
    safe = np.where(small, 1.0, theta)
    half = safe / 2
    t2 = theta ** 2
    coef = np.where(small, 1 / 12 + t2 / 720 + t2 ** 2 / 30240,
                    (1 - half * np.cos(half) / np.sin(np.where(small, 1.0, half))) / safe ** 2)
    k = skew(w)
    left_inv = np.eye(3) - 0.5 * k + coef * (k @ k)
    v = (left_inv @ a_T_b[..., :3, 3:4])[..., 0]
    return np.concatenate([v, w], axis=-1)


def motion_transform(a_T_b: np.ndarray) -> np.ndarray:
    """
    6x6 transform ``a_X_b`` of twists ``[v; w]`` from frame b to frame a.

    :param a_T_b: transforms of shape ``(..., 4, 4)``.
    :return: matrices of shape ``(..., 6, 6)``: ``[[R, [p] R], [0, R]]``.
    """
    a_T_b = np.asarray(a_T_b, dtype=float)
    rot = a_T_b[..., :3, :3]
    out = np.zeros(a_T_b.shape[:-2] + (6, 6))
    out[..., :3, :3] = rot
    out[..., 3:, 3:] = rot
    out[..., :3, 3:] = skew(a_T_b[..., :3, 3]) @ rot
    return out


def force_transform(a_T_b: np.ndarray) -> np.ndarray:
    """
    6x6 transform of wrenches ``[f; tau]`` from frame b to frame a.

    :param a_T_b: transforms of shape ``(..., 4, 4)``.
    :return: matrices of shape ``(..., 6, 6)``: ``[[R, 0], [[p] R, R]]``.
    """
    a_T_b = np.asarray(a_T_b, dtype=float)
    rot = a_T_b[..., :3, :3]
    out = np.zeros(a_T_b.shape[:-2] + (6, 6))
    out[..., :3, :3] = rot
    out[..., 3:, 3:] = rot
    out[..., 3:, :3] = skew(a_T_b[..., :3, 3]) @ rot
    return out


def motion_cross(twist: np.ndarray) -> np.ndarray:
    """
    6x6 matrix of ``twist x`` acting on twists (spatial cross product, ``[v; w]`` order).

    :param twist: twists of shape ``(..., 6)``.
    :return: matrices of shape ``(..., 6, 6)``: ``[[[w], [v]], [0, [w]]]``.
    """
    twist = np.asarray(twist, dtype=float)
    out = np.zeros(twist.shape[:-1] + (6, 6))
    sw = skew(twist[..., 3:])
    out[..., :3, :3] = sw
    out[..., 3:, 3:] = sw
    out[..., :3, 3:] = skew(twist[..., :3])
    return out


def force_cross(twist: np.ndarray) -> np.ndarray:
    """
    6x6 matrix of ``twist x*`` acting on wrenches: ``-motion_cross(twist).T``.

    :param twist: twists of shape ``(..., 6)``.
    :return: matrices of shape ``(..., 6, 6)``.
    """
    return -np.swapaxes(motion_cross(twist), -1, -2)


def spatial_inertia(mass: float, c: np.ndarray, inertia_c: np.ndarray) -> np.ndarray:
    """
    6x6 spatial inertia about a frame's origin, ``[v; w]`` order.

    Maps a twist of the frame to the body's momentum ``[linear; angular]`` about the origin.

    :param mass: mass in kg.
    :param c: center of mass in the frame, shape ``(3,)``.
    :param inertia_c: rotational inertia about the center of mass in the frame's axes (3x3).
    :return: the 6x6 matrix ``[[m I, -m [c]], [m [c], I_c - m [c][c]]]``.
    """
    c = np.asarray(c, dtype=float)
    sc = skew(c)
    out = np.zeros((6, 6))
    out[:3, :3] = mass * np.eye(3)
    out[:3, 3:] = -mass * sc
    out[3:, :3] = mass * sc
    out[3:, 3:] = np.asarray(inertia_c, dtype=float) - mass * sc @ sc
    return out
