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
Compiled forward kinematics: ``parent_T_link`` and ``root_T_link`` of every link.

Reads the joint kernel's tables (one row per link: ``type_code``, ``axis``, ``origin``,
``q_index``, ``multiplier``, ``offset``) and the topology's ``parent``, with the plane bases of
planar rows (:func:`~frame_kinematics.core.joints.plane_basis`); the kernels called from
Python take them packed (:mod:`.tables`). The joint
transforms are those of :meth:`JointType.transform
<frame_kinematics.core.joints.JointType.transform>`, written per row.
"""

import numba
import numpy as np

from .tables import copy_configuration, links
from ..joints import JointType, TYPE_CODES

_REVOLUTE = TYPE_CODES[JointType.REVOLUTE]
_CONTINUOUS = TYPE_CODES[JointType.CONTINUOUS]
_PRISMATIC = TYPE_CODES[JointType.PRISMATIC]
_PLANAR = TYPE_CODES[JointType.PLANAR]
_FLOATING = TYPE_CODES[JointType.FLOATING]


@numba.njit(cache=True, error_model='numpy', inline='always')
def product(a, ka, m):
    """
    Return the top three rows of ``a[ka] @ m`` for a rigid 4x4 ``m`` given as its top rows.

    :param a: an array of 4x4 transforms.
    :param ka: which of them.
    :param m: ``(r00, r01, r02, r10, ..., r22, p0, p1, p2)``, the rotation then the
        translation of ``m``.
    :return: the product in the same 12-tuple form.
    """
    r00, r01, r02, r10, r11, r12, r20, r21, r22, p0, p1, p2 = m
    x0, x1, x2, x3 = a[ka, 0, 0], a[ka, 0, 1], a[ka, 0, 2], a[ka, 0, 3]
    y0, y1, y2, y3 = a[ka, 1, 0], a[ka, 1, 1], a[ka, 1, 2], a[ka, 1, 3]
    z0, z1, z2, z3 = a[ka, 2, 0], a[ka, 2, 1], a[ka, 2, 2], a[ka, 2, 3]
    return (x0 * r00 + x1 * r10 + x2 * r20, x0 * r01 + x1 * r11 + x2 * r21,
            x0 * r02 + x1 * r12 + x2 * r22,
            y0 * r00 + y1 * r10 + y2 * r20, y0 * r01 + y1 * r11 + y2 * r21,
            y0 * r02 + y1 * r12 + y2 * r22,
            z0 * r00 + z1 * r10 + z2 * r20, z0 * r01 + z1 * r11 + z2 * r21,
            z0 * r02 + z1 * r12 + z2 * r22,
            x0 * p0 + x1 * p1 + x2 * p2 + x3, y0 * p0 + y1 * p1 + y2 * p2 + y3,
            z0 * p0 + z1 * p1 + z2 * p2 + z3)


@numba.njit(cache=True, error_model='numpy', inline='always')
def store(m, out, k):
    """Write a 12-tuple transform (see :func:`product`) into ``out[k]`` as a 4x4 matrix."""
    out[k, 0, 0], out[k, 0, 1], out[k, 0, 2], out[k, 0, 3] = m[0], m[1], m[2], m[9]
    out[k, 1, 0], out[k, 1, 1], out[k, 1, 2], out[k, 1, 3] = m[3], m[4], m[5], m[10]
    out[k, 2, 0], out[k, 2, 1], out[k, 2, 2], out[k, 2, 3] = m[6], m[7], m[8], m[11]
    out[k, 3, 0], out[k, 3, 1], out[k, 3, 2], out[k, 3, 3] = 0.0, 0.0, 0.0, 1.0


@numba.njit(cache=True, error_model='numpy')
def _floating_motion(x, y, z, qx, qy, qz, qw):
    """``joint_T_child`` of a floating joint at ``[x, y, z, qx, qy, qz, qw]``."""
    norm = np.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
    a, b, c, w = qx / norm, qy / norm, qz / norm, qw / norm
    return (1 - 2 * (b * b + c * c), 2 * (a * b - c * w), 2 * (a * c + b * w),
            2 * (a * b + c * w), 1 - 2 * (a * a + c * c), 2 * (b * c - a * w),
            2 * (a * c - b * w), 2 * (b * c + a * w), 1 - 2 * (a * a + b * b),
            x, y, z)


@numba.njit(cache=True, error_model='numpy')
def _planar_motion(b00, b01, b02, b10, b11, b12, b20, b21, b22, x, y, theta):
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


@numba.njit(cache=True, error_model='numpy', inline='always')
def joint_motion(row, type_code, axis, q_index, multiplier, offset, q):
    """``joint_T_child`` of a fixed or one-dof row as a 12-tuple (see :func:`product`)."""
    code = type_code[row]
    if code == _REVOLUTE or code == _CONTINUOUS:
        angle = q[q_index[row]] * multiplier[row] + offset[row]
        s = np.sin(angle)
        v = 1.0 - np.cos(angle)
        x, y, z = axis[row, 0], axis[row, 1], axis[row, 2]
        return (1.0 + v * (x * x - 1.0), -s * z + v * x * y, s * y + v * x * z,
                s * z + v * x * y, 1.0 + v * (y * y - 1.0), -s * x + v * y * z,
                -s * y + v * x * z, s * x + v * y * z, 1.0 + v * (z * z - 1.0),
                0.0, 0.0, 0.0)
    if code == _PRISMATIC:
        d = q[q_index[row]] * multiplier[row] + offset[row]
        return (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0,
                d * axis[row, 0], d * axis[row, 1], d * axis[row, 2])
    return (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)


@numba.njit(cache=True, error_model='numpy')
def multi_motion(row, type_code, q_index, plane, q):
    """``joint_T_child`` of a floating or planar row as a 12-tuple (see :func:`product`)."""
    i = q_index[row]
    if type_code[row] == _FLOATING:
        return _floating_motion(q[i], q[i + 1], q[i + 2], q[i + 3], q[i + 4], q[i + 5],
                                q[i + 6])
    return _planar_motion(plane[row, 0, 0], plane[row, 0, 1], plane[row, 0, 2],
                          plane[row, 1, 0], plane[row, 1, 1], plane[row, 1, 2],
                          plane[row, 2, 0], plane[row, 2, 1], plane[row, 2, 2],
                          q[i], q[i + 1], q[i + 2])


@numba.njit(cache=True, error_model='numpy', inline='always')
def load(a, k):
    """Return the top three rows of ``a[k]`` as a 12-tuple (see :func:`product`)."""
    return (a[k, 0, 0], a[k, 0, 1], a[k, 0, 2], a[k, 1, 0], a[k, 1, 1], a[k, 1, 2],
            a[k, 2, 0], a[k, 2, 1], a[k, 2, 2], a[k, 0, 3], a[k, 1, 3], a[k, 2, 3])


@numba.njit(cache=True, error_model='numpy')
def poses_into(type_code, axis, origin, q_index, multiplier, offset, plane, parent, q, world,
               local, with_local):
    """
    Write ``root_T_link`` of every link into ``world`` (``(n, 4, 4)``).

    With ``with_local``, also ``parent_T_link`` into ``local`` (else ``local`` is not read).
    Floating and planar rows are evaluated first, their motion parked in ``world``: a call
    inside the main loop would slow every row down.
    """
    for row in range(len(type_code)):
        if type_code[row] == _FLOATING or type_code[row] == _PLANAR:
            store(multi_motion(row, type_code, q_index, plane, q), world, row)
    for row in range(len(type_code)):
        if type_code[row] == _FLOATING or type_code[row] == _PLANAR:
            motion = load(world, row)
        else:
            motion = joint_motion(row, type_code, axis, q_index, multiplier, offset, q)
        here = product(origin, row, motion)
        if with_local:
            store(here, local, row)
        if row == 0:
            store(here, world, 0)
        else:
            store(product(world, parent[row], here), world, row)


@numba.njit(cache=True, error_model='numpy')
def path_poses_into(type_code, axis, origin, q_index, multiplier, offset, plane, parent, q,
                    link, world):
    """
    Write ``root_T_link`` of ``link`` and of its ancestors (no other link) into ``world``.

    :return: the number of rows written.
    """
    path = np.empty(len(type_code), np.int64)
    depth = 0
    row = link
    while row >= 0:
        path[depth] = row
        depth += 1
        row = parent[row]
    for k in range(depth - 1, -1, -1):
        row = path[k]
        if type_code[row] == _FLOATING or type_code[row] == _PLANAR:
            motion = multi_motion(row, type_code, q_index, plane, q)
        else:
            motion = joint_motion(row, type_code, axis, q_index, multiplier, offset, q)
        here = product(origin, row, motion)
        if row == 0:
            store(here, world, 0)
        else:
            store(product(world, parent[row], here), world, row)
    return depth


@numba.njit(cache=True, error_model='numpy')
def poses_checked(ints, floats, q, q_copy, world):
    """
    Check ``q`` and write its copy and ``root_T_link`` of every link, in one call.

    :param ints: the model's packed integers (:func:`~.tables.pack`).
    :param floats: the model's packed floats.
    :param q: a configuration ``(nq,)``, unchecked.
    :param q_copy: ``(nq,)``, receives the checked copy of ``q``.
    :param world: ``(n, 4, 4)``, receives the poses.
    :return: whether ``q`` passed the checks of :func:`~.tables.copy_configuration` (nothing
        is computed when not).
    """
    if not copy_configuration(ints, floats, q, q_copy):
        return False
    type_code, axis, origin, q_index, multiplier, offset, plane, parent = links(ints, floats)
    poses_into(type_code, axis, origin, q_index, multiplier, offset, plane, parent, q_copy,
               world, world, False)
    return True


@numba.njit(cache=True, error_model='numpy')
def poses(ints, floats, q):
    """``[root_T_link, parent_T_link]`` of every link for one configuration, ``(2, n, 4, 4)``."""
    type_code, axis, origin, q_index, multiplier, offset, plane, parent = links(ints, floats)
    out = np.empty((2, len(type_code), 4, 4))
    poses_into(type_code, axis, origin, q_index, multiplier, offset, plane, parent, q, out[0],
               out[1], True)
    return out


@numba.njit(cache=True, error_model='numpy')
def poses_batch(ints, floats, qs):
    """
    ``root_T_link`` of every link for a batch, configurations first: ``(B, n, 4, 4)``.

    One thread: the kernel is bound by writing the poses, and on a shared machine threads
    waiting for each other cost milliseconds.
    """
    type_code, axis, origin, q_index, multiplier, offset, plane, parent = links(ints, floats)
    out = np.empty((len(qs), len(type_code), 4, 4))
    for b in range(len(qs)):
        poses_into(type_code, axis, origin, q_index, multiplier, offset, plane, parent, qs[b],
                   out[b], out[b], False)
    return out
