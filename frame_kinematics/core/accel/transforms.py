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
Rigid transforms as 12-tuples, for compiled code: products, joint motions, points, quaternions.

A transform is ``(r00, r01, r02, r10, ..., r22, p0, p1, p2)`` (the rotation row by row, then
the translation): :func:`compose` multiplies two, :func:`load` and :func:`store` move one
from and to a ``(n, 4, 4)`` array. A joint's motion ``joint_T_child`` is that of
:meth:`JointType.transform <frame_kinematics.core.joints.JointType.transform>`:
:func:`turned` about a principal axis, :func:`rotation` about another, :func:`slid` along a
prismatic axis, :func:`floating` and :func:`planar`. :func:`point_at` maps a point through a
transform and :func:`quaternion_of` gives its rotation's unit quaternion: the compiled form
of :func:`~frame_kinematics.core.spatial.quaternion_from_rotation`, read by ``/tf`` and the
rotation log of the inverse kinematics.
"""

import numba
import numpy as np


@numba.njit(error_model='numpy', inline='always')
def compose(a, b):
    """Return ``a @ b`` of two rigid transforms given as 12-tuples."""
    a00, a01, a02, a10, a11, a12, a20, a21, a22, a0, a1, a2 = a
    r00, r01, r02, r10, r11, r12, r20, r21, r22, p0, p1, p2 = b
    return (a00 * r00 + a01 * r10 + a02 * r20, a00 * r01 + a01 * r11 + a02 * r21,
            a00 * r02 + a01 * r12 + a02 * r22,
            a10 * r00 + a11 * r10 + a12 * r20, a10 * r01 + a11 * r11 + a12 * r21,
            a10 * r02 + a11 * r12 + a12 * r22,
            a20 * r00 + a21 * r10 + a22 * r20, a20 * r01 + a21 * r11 + a22 * r21,
            a20 * r02 + a21 * r12 + a22 * r22,
            a00 * p0 + a01 * p1 + a02 * p2 + a0, a10 * p0 + a11 * p1 + a12 * p2 + a1,
            a20 * p0 + a21 * p1 + a22 * p2 + a2)


@numba.njit(error_model='numpy', inline='always')
def rotation(x, y, z, s, c):
    """Return the rotation of sine ``s`` and cosine ``c`` about the unit axis ``(x, y, z)``."""
    v = 1.0 - c
    return (1.0 + v * (x * x - 1.0), -s * z + v * x * y, s * y + v * x * z,
            s * z + v * x * y, 1.0 + v * (y * y - 1.0), -s * x + v * y * z,
            -s * y + v * x * z, s * x + v * y * z, 1.0 + v * (z * z - 1.0),
            0.0, 0.0, 0.0)


@numba.njit(error_model='numpy', inline='always')
def turned(m, i, s, c):
    """
    Return ``m @ rotation(e_i, s, c)``: ``m`` turned about its own axis ``i`` (0, 1 or 2).

    The rotation leaves column ``i`` of ``m`` and its translation as they are and mixes the
    other two: 12 products instead of the 36 of :func:`compose`.
    """
    r00, r01, r02, r10, r11, r12, r20, r21, r22, p0, p1, p2 = m
    if i == 0:
        return (r00, c * r01 + s * r02, c * r02 - s * r01,
                r10, c * r11 + s * r12, c * r12 - s * r11,
                r20, c * r21 + s * r22, c * r22 - s * r21, p0, p1, p2)
    if i == 1:
        return (c * r00 - s * r02, r01, c * r02 + s * r00,
                c * r10 - s * r12, r11, c * r12 + s * r10,
                c * r20 - s * r22, r21, c * r22 + s * r20, p0, p1, p2)
    return (c * r00 + s * r01, c * r01 - s * r00, r02,
            c * r10 + s * r11, c * r11 - s * r10, r12,
            c * r20 + s * r21, c * r21 - s * r20, r22, p0, p1, p2)


@numba.njit(error_model='numpy', inline='always')
def slid(m, x, y, z):
    """Return ``m @ prismatic``: ``m`` moved by ``(x, y, z)`` along its own axes."""
    r00, r01, r02, r10, r11, r12, r20, r21, r22, p0, p1, p2 = m
    return (r00, r01, r02, r10, r11, r12, r20, r21, r22,
            p0 + r00 * x + r01 * y + r02 * z, p1 + r10 * x + r11 * y + r12 * z,
            p2 + r20 * x + r21 * y + r22 * z)


@numba.njit(error_model='numpy')
def floating(x, y, z, qx, qy, qz, qw):
    """``joint_T_child`` of a floating joint at ``[x, y, z, qx, qy, qz, qw]``."""
    norm = np.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
    a, b, c, w = qx / norm, qy / norm, qz / norm, qw / norm
    return (1 - 2 * (b * b + c * c), 2 * (a * b - c * w), 2 * (a * c + b * w),
            2 * (a * b + c * w), 1 - 2 * (a * a + c * c), 2 * (b * c - a * w),
            2 * (a * c - b * w), 2 * (b * c + a * w), 1 - 2 * (a * a + b * b),
            x, y, z)


@numba.njit(error_model='numpy')
def planar(b00, b01, b02, b10, b11, b12, b20, b21, b22, x, y, theta):
    """``joint_T_child`` of a planar joint at ``[x, y, theta]`` in the plane basis ``b``."""
    c = np.cos(theta)
    s = np.sin(theta)
    # b @ Rz(theta) @ b.T, the translation along the plane's x/y axes
    e00, e01 = c * b00 - s * b01, s * b00 + c * b01
    e10, e11 = c * b10 - s * b11, s * b10 + c * b11
    e20, e21 = c * b20 - s * b21, s * b20 + c * b21
    return (b00 * e00 + b01 * e01 + b02 * b02, b00 * e10 + b01 * e11 + b02 * b12,
            b00 * e20 + b01 * e21 + b02 * b22, b10 * e00 + b11 * e01 + b12 * b02,
            b10 * e10 + b11 * e11 + b12 * b12, b10 * e20 + b11 * e21 + b12 * b22,
            b20 * e00 + b21 * e01 + b22 * b02, b20 * e10 + b21 * e11 + b22 * b12,
            b20 * e20 + b21 * e21 + b22 * b22,
            x * b00 + y * b01, x * b10 + y * b11, x * b20 + y * b21)


@numba.njit(error_model='numpy', inline='always')
def product(a, ka, m):
    """Return ``a[ka] @ m`` for an array of 4x4 transforms ``a`` and a 12-tuple ``m``."""
    return compose(load(a, ka), m)


@numba.njit(error_model='numpy', inline='always')
def store(m, out, k):
    """Write a 12-tuple transform into ``out[k]`` as a 4x4 matrix."""
    out[k, 0, 0], out[k, 0, 1], out[k, 0, 2], out[k, 0, 3] = m[0], m[1], m[2], m[9]
    out[k, 1, 0], out[k, 1, 1], out[k, 1, 2], out[k, 1, 3] = m[3], m[4], m[5], m[10]
    out[k, 2, 0], out[k, 2, 1], out[k, 2, 2], out[k, 2, 3] = m[6], m[7], m[8], m[11]
    out[k, 3, 0], out[k, 3, 1], out[k, 3, 2], out[k, 3, 3] = 0.0, 0.0, 0.0, 1.0


@numba.njit(error_model='numpy', inline='always')
def load(a, k):
    """Return the top three rows of ``a[k]`` as a 12-tuple."""
    return (a[k, 0, 0], a[k, 0, 1], a[k, 0, 2], a[k, 1, 0], a[k, 1, 1], a[k, 1, 2],
            a[k, 2, 0], a[k, 2, 1], a[k, 2, 2], a[k, 0, 3], a[k, 1, 3], a[k, 2, 3])


@numba.njit(error_model='numpy', inline='always')
def point_at(m, x, y, z):
    """Return ``R p + o`` of a 12-tuple transform ``m = (R, o)`` and a point ``p = (x, y, z)``."""
    return (m[0] * x + m[1] * y + m[2] * z + m[9], m[3] * x + m[4] * y + m[5] * z + m[10],
            m[6] * x + m[7] * y + m[8] * z + m[11])


@numba.njit(error_model='numpy')
def quaternion_of(m):
    """
    ``[x, y, z, w]`` (``w >= 0``) of the rotation of a 12-tuple transform.

    :func:`~frame_kinematics.core.spatial.quaternion_from_rotation` for one rotation: the
    largest of the four candidate squared magnitudes (at least 1 for a rotation, as they sum
    to 4) picks the formula.
    """
    r00, r01, r02, r10, r11, r12, r20, r21, r22 = m[0], m[1], m[2], m[3], m[4], m[5], m[6], \
        m[7], m[8]
    best, top = 0, 1.0 + r00 - r11 - r22
    if 1.0 - r00 + r11 - r22 > top:
        best, top = 1, 1.0 - r00 + r11 - r22
    if 1.0 - r00 - r11 + r22 > top:
        best, top = 2, 1.0 - r00 - r11 + r22
    if 1.0 + r00 + r11 + r22 > top:
        best, top = 3, 1.0 + r00 + r11 + r22
    s = np.sqrt(top) * 2.0
    d21, d02, d10 = r21 - r12, r02 - r20, r10 - r01
    a10, a02, a21 = r10 + r01, r02 + r20, r21 + r12
    if best == 0:
        x, y, z, w = s / 4.0, a10 / s, a02 / s, d21 / s
    elif best == 1:
        x, y, z, w = a10 / s, s / 4.0, a21 / s, d02 / s
    elif best == 2:
        x, y, z, w = a02 / s, a21 / s, s / 4.0, d10 / s
    else:
        x, y, z, w = d21 / s, d02 / s, d10 / s, s / 4.0
    if w < 0.0:
        x, y, z, w = -x, -y, -z, -w
    norm = np.sqrt(x * x + y * y + z * z + w * w)
    return x / norm, y / norm, z / norm, w / norm
