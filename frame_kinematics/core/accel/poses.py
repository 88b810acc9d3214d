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

Transforms are 12-tuples ``(r00, r01, r02, r10, ..., r22, p0, p1, p2)`` (the rotation row by
row, then the translation) composed by :func:`compose`. A joint's motion ``joint_T_child``
is that of :meth:`JointType.transform <frame_kinematics.core.joints.JointType.transform>`:
:func:`revolute`, :func:`prismatic`, :func:`floating` and :func:`planar` on plain values.
The model's kernels read the per-link row tables of :mod:`.tables` (:func:`rows_into`);
:func:`joint_motion`, :func:`multi_motion` and :func:`product` evaluate the same functions
on the joint kernel's separate tables (the inverse-kinematics chains,
:mod:`frame_kinematics.core.accel.ik`).
"""

import numba
import numpy as np

from .tables import AXIS, copy_configuration, links, ORIGIN, PLANE, SCALE
from ..joints import JointType, TYPE_CODES

_FIXED = TYPE_CODES[JointType.FIXED]
_REVOLUTE = TYPE_CODES[JointType.REVOLUTE]
_CONTINUOUS = TYPE_CODES[JointType.CONTINUOUS]
_PRISMATIC = TYPE_CODES[JointType.PRISMATIC]
_PLANAR = TYPE_CODES[JointType.PLANAR]
_FLOATING = TYPE_CODES[JointType.FLOATING]
_IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)


@numba.njit(cache=True, error_model='numpy', inline='always')
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


@numba.njit(cache=True, error_model='numpy', inline='always')
def revolute(x, y, z, angle):
    """``joint_T_child`` of a rotation by ``angle`` about the unit axis ``(x, y, z)``."""
    s = np.sin(angle)
    v = 1.0 - np.cos(angle)
    return (1.0 + v * (x * x - 1.0), -s * z + v * x * y, s * y + v * x * z,
            s * z + v * x * y, 1.0 + v * (y * y - 1.0), -s * x + v * y * z,
            -s * y + v * x * z, s * x + v * y * z, 1.0 + v * (z * z - 1.0),
            0.0, 0.0, 0.0)


@numba.njit(cache=True, error_model='numpy', inline='always')
def prismatic(x, y, z, d):
    """``joint_T_child`` of a translation by ``d`` along the unit axis ``(x, y, z)``."""
    return (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, d * x, d * y, d * z)


@numba.njit(cache=True, error_model='numpy')
def floating(x, y, z, qx, qy, qz, qw):
    """``joint_T_child`` of a floating joint at ``[x, y, z, qx, qy, qz, qw]``."""
    norm = np.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
    a, b, c, w = qx / norm, qy / norm, qz / norm, qw / norm
    return (1 - 2 * (b * b + c * c), 2 * (a * b - c * w), 2 * (a * c + b * w),
            2 * (a * b + c * w), 1 - 2 * (a * a + c * c), 2 * (b * c - a * w),
            2 * (a * c - b * w), 2 * (b * c + a * w), 1 - 2 * (a * a + b * b),
            x, y, z)


@numba.njit(cache=True, error_model='numpy')
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


@numba.njit(cache=True, error_model='numpy')
def row_multi_motion(ri, rf, row, q):
    """``joint_T_child`` of a floating or planar row of the row tables at ``q``."""
    i = ri[row, 1]
    if ri[row, 0] == _FLOATING:
        return floating(q[i], q[i + 1], q[i + 2], q[i + 3], q[i + 4], q[i + 5], q[i + 6])
    b = PLANE
    return planar(rf[row, b], rf[row, b + 1], rf[row, b + 2], rf[row, b + 3], rf[row, b + 4],
                  rf[row, b + 5], rf[row, b + 6], rf[row, b + 7], rf[row, b + 8], q[i],
                  q[i + 1], q[i + 2])


@numba.njit(cache=True, error_model='numpy', inline='always')
def origin(rf, row):
    """``parent_T_joint`` of row ``row`` of the row tables, as a 12-tuple."""
    o = ORIGIN
    return (rf[row, o], rf[row, o + 1], rf[row, o + 2], rf[row, o + 3], rf[row, o + 4],
            rf[row, o + 5], rf[row, o + 6], rf[row, o + 7], rf[row, o + 8], rf[row, o + 9],
            rf[row, o + 10], rf[row, o + 11])


@numba.njit(cache=True, error_model='numpy', inline='always')
def product(a, ka, m):
    """Return ``a[ka] @ m`` for an array of 4x4 transforms ``a`` and a 12-tuple ``m``."""
    return compose(load(a, ka), m)


@numba.njit(cache=True, error_model='numpy', inline='always')
def store(m, out, k):
    """Write a 12-tuple transform into ``out[k]`` as a 4x4 matrix."""
    out[k, 0, 0], out[k, 0, 1], out[k, 0, 2], out[k, 0, 3] = m[0], m[1], m[2], m[9]
    out[k, 1, 0], out[k, 1, 1], out[k, 1, 2], out[k, 1, 3] = m[3], m[4], m[5], m[10]
    out[k, 2, 0], out[k, 2, 1], out[k, 2, 2], out[k, 2, 3] = m[6], m[7], m[8], m[11]
    out[k, 3, 0], out[k, 3, 1], out[k, 3, 2], out[k, 3, 3] = 0.0, 0.0, 0.0, 1.0


@numba.njit(cache=True, error_model='numpy', inline='always')
def load(a, k):
    """Return the top three rows of ``a[k]`` as a 12-tuple."""
    return (a[k, 0, 0], a[k, 0, 1], a[k, 0, 2], a[k, 1, 0], a[k, 1, 1], a[k, 1, 2],
            a[k, 2, 0], a[k, 2, 1], a[k, 2, 2], a[k, 0, 3], a[k, 1, 3], a[k, 2, 3])


@numba.njit(cache=True, error_model='numpy', inline='always')
def joint_motion(row, type_code, axis, q_index, multiplier, offset, q):
    """``joint_T_child`` of a fixed or one-dof row of the joint kernel's separate tables."""
    code = type_code[row]
    if code == _REVOLUTE or code == _CONTINUOUS or code == _PRISMATIC:
        value = q[q_index[row]] * multiplier[row] + offset[row]
        if code == _PRISMATIC:
            return prismatic(axis[row, 0], axis[row, 1], axis[row, 2], value)
        return revolute(axis[row, 0], axis[row, 1], axis[row, 2], value)
    return _IDENTITY


@numba.njit(cache=True, error_model='numpy')
def multi_motion(row, type_code, q_index, plane, q):
    """``joint_T_child`` of a floating or planar row of separate tables (``plane (n, 3, 3)``)."""
    i = q_index[row]
    if type_code[row] == _FLOATING:
        return floating(q[i], q[i + 1], q[i + 2], q[i + 3], q[i + 4], q[i + 5], q[i + 6])
    return planar(plane[row, 0, 0], plane[row, 0, 1], plane[row, 0, 2], plane[row, 1, 0],
                  plane[row, 1, 1], plane[row, 1, 2], plane[row, 2, 0], plane[row, 2, 1],
                  plane[row, 2, 2], q[i], q[i + 1], q[i + 2])


@numba.njit(cache=True, error_model='numpy')
def rows_into(ri, rf, q, path, depth, world, local, with_local):
    """
    Write ``root_T_link`` of rows of the row tables into ``world`` (``(n, 4, 4)``).

    :param path: with ``depth >= 0``, the rows ``path[depth - 1], ..., path[0]`` (a link and
        its ancestors, root first); with ``depth < 0``, every row (``path`` is not read).
    :param with_local: also write ``parent_T_link`` into ``local`` (else it is not read).
    """
    count = len(ri) if depth < 0 else depth
    for k in range(count):  # multi-dof motions parked in world: a call in the next loop
        row = k if depth < 0 else path[depth - 1 - k]  # would slow every row down
        if ri[row, 0] == _FLOATING or ri[row, 0] == _PLANAR:
            store(row_multi_motion(ri, rf, row, q), world, row)
    # The row's motion, then one composition and one store for every type. Moving this body
    # into a function, inlined or not, or composing in each branch makes the loop about three
    # times slower.
    for k in range(count):
        row = k if depth < 0 else path[depth - 1 - k]
        code = ri[row, 0]
        if code == _REVOLUTE or code == _CONTINUOUS:
            value = q[ri[row, 1]] * rf[row, SCALE] + rf[row, SCALE + 1]
            motion = revolute(rf[row, AXIS], rf[row, AXIS + 1], rf[row, AXIS + 2], value)
        elif code == _PRISMATIC:
            value = q[ri[row, 1]] * rf[row, SCALE] + rf[row, SCALE + 1]
            motion = prismatic(rf[row, AXIS], rf[row, AXIS + 1], rf[row, AXIS + 2], value)
        elif code == _FIXED:
            motion = _IDENTITY
        else:
            motion = load(world, row)  # parked above
        here = compose(origin(rf, row), motion)
        parent = ri[row, 2]
        pose = here
        if parent >= 0:
            pose = compose(load(world, parent), here)
        store(pose, world, row)
        if with_local:
            store(here, local, row)


@numba.njit(cache=True, error_model='numpy')
def poses_into(ri, rf, q, world, local, with_local):
    """Write ``root_T_link`` of every link into ``world`` (see :func:`rows_into`)."""
    rows_into(ri, rf, q, ri[:0, 0], -1, world, local, with_local)


@numba.njit(cache=True, error_model='numpy')
def path_poses_into(ri, rf, q, link, world):
    """Write ``root_T_link`` of ``link`` and of its ancestors (no other link) into ``world``."""
    path = np.empty(len(ri), np.int64)
    depth = 0
    row = link
    while row >= 0:
        path[depth] = row
        depth += 1
        row = ri[row, 2]
    rows_into(ri, rf, q, path, depth, world, world, False)


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
    ri, rf = links(ints, floats)
    poses_into(ri, rf, q_copy, world, world, False)
    return True


@numba.njit(cache=True, error_model='numpy')
def poses(ints, floats, q):
    """``[root_T_link, parent_T_link]`` of every link for one configuration, ``(2, n, 4, 4)``."""
    ri, rf = links(ints, floats)
    out = np.empty((2, len(ri), 4, 4))
    poses_into(ri, rf, q, out[0], out[1], True)
    return out


@numba.njit(cache=True, error_model='numpy')
def poses_batch(ints, floats, qs):
    """
    ``root_T_link`` of every link for a batch, configurations first: ``(B, n, 4, 4)``.

    One thread: the kernel is bound by writing the poses, and on a shared machine threads
    waiting for each other cost milliseconds.
    """
    ri, rf = links(ints, floats)
    out = np.empty((len(qs), len(ri), 4, 4))
    for b in range(len(qs)):
        poses_into(ri, rf, qs[b], out[b], out[b], False)
    return out
