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
:func:`turned` about a principal axis, :func:`rotation` about another, :func:`slid` along a
prismatic axis, :func:`floating` and :func:`planar`, on plain values. One pose loop,
:func:`rows_into`, reads a packed table (:mod:`.tables`): every link of a model
(:func:`poses_into`), a link's ancestors with their motion columns (:func:`chain_into`, the
Jacobians), and the nodes of an inverse-kinematics chain (:mod:`.ik`).
"""

import numba
import numpy as np

from .runtime import address, int_address
from .tables import (AXIS, columns, configuration_ok, copy_configuration, link_count, links,
                     ORIGIN, PLANE, SCALE)
from .twists import add_column
from ..joints import JointType, TYPE_CODES

_FIXED = TYPE_CODES[JointType.FIXED]
_REVOLUTE = TYPE_CODES[JointType.REVOLUTE]
_CONTINUOUS = TYPE_CODES[JointType.CONTINUOUS]
_PRISMATIC = TYPE_CODES[JointType.PRISMATIC]
_PLANAR = TYPE_CODES[JointType.PLANAR]
_FLOATING = TYPE_CODES[JointType.FLOATING]
_IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)


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


@numba.njit(error_model='numpy')
def row_multi_motion(ri, rf, row, q):
    """``joint_T_child`` of a floating or planar row of the row tables at ``q``."""
    i = ri[row, 1]
    if ri[row, 0] == _FLOATING:
        return floating(q[i], q[i + 1], q[i + 2], q[i + 3], q[i + 4], q[i + 5], q[i + 6])
    b = PLANE
    return planar(rf[row, b], rf[row, b + 1], rf[row, b + 2], rf[row, b + 3], rf[row, b + 4],
                  rf[row, b + 5], rf[row, b + 6], rf[row, b + 7], rf[row, b + 8], q[i],
                  q[i + 1], q[i + 2])


@numba.njit(error_model='numpy', inline='always')
def origin(rf, row):
    """``parent_T_joint`` of row ``row`` of the row tables, as a 12-tuple."""
    o = ORIGIN
    return (rf[row, o], rf[row, o + 1], rf[row, o + 2], rf[row, o + 3], rf[row, o + 4],
            rf[row, o + 5], rf[row, o + 6], rf[row, o + 7], rf[row, o + 8], rf[row, o + 9],
            rf[row, o + 10], rf[row, o + 11])


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


@numba.njit(error_model='numpy')
def rows_into(ri, rf, q, link, world, local, with_local, ci, cf, out):
    """
    Evaluate ``root_T_link`` of every row, or of a link and its ancestors, parents first.

    A row's ``parent_T_link`` is its origin turned about a principal axis (:func:`turned`),
    slid along a prismatic one (:func:`slid`), or composed with the rotation about any other
    axis or with a floating or planar motion.

    :param link: ``-1`` for every row; or a link: only the rows up to it whose subtree holds
        it, its ancestors, are evaluated, and their motion columns (``ci``, ``cf``) are added
        into ``out`` ``(6, nv)`` at the world origin (:func:`~.twists.add_column`).
    :param world: ``(n, 4, 4)`` receives the poses, or ``(0, 4, 4)`` for none (with a link:
        its ancestors are a chain, each the parent of the next).
    :param with_local: also write ``parent_T_link`` into ``local`` (else it is not read).
    :return: the last evaluated row's pose, a 12-tuple.
    """
    stored = len(world) > 0
    pose = _IDENTITY  # the previous row's, kept for a child that follows its parent
    previous = -1
    c = 0
    for row in range(len(ri) if link < 0 else link + 1):
        if link >= 0 and ri[row, 4] <= link:  # not an ancestor: its subtree ends before
            continue
        code = ri[row, 0]
        here = origin(rf, row)
        if code == _REVOLUTE or code == _CONTINUOUS:
            value = q[ri[row, 1]] * rf[row, SCALE] + rf[row, SCALE + 1]
            s, co = np.sin(value), np.cos(value)
            i = ri[row, 3]
            if i >= 0:
                here = turned(here, i, rf[row, AXIS + i] * s, co)
            else:
                here = compose(here, rotation(rf[row, AXIS], rf[row, AXIS + 1],
                                              rf[row, AXIS + 2], s, co))
        elif code == _PRISMATIC:
            d = q[ri[row, 1]] * rf[row, SCALE] + rf[row, SCALE + 1]
            here = slid(here, d * rf[row, AXIS], d * rf[row, AXIS + 1], d * rf[row, AXIS + 2])
        elif code != _FIXED:
            here = compose(here, row_multi_motion(ri, rf, row, q))
        if with_local:
            store(here, local, row)
        parent = ri[row, 2]
        if parent >= 0:
            if parent != previous:
                pose = load(world, parent)
            here = compose(pose, here)
        if stored:
            store(here, world, row)
        pose = here
        previous = row
        if link >= 0:
            while c < len(ci) and ci[c, 0] < row:
                c += 1
            while c < len(ci) and ci[c, 0] == row:
                add_column(out, cf, c, ci[c, 1], here)
                c += 1
    return pose


@numba.njit(error_model='numpy')
def poses_into(table, q, world, local, with_local):
    """Write ``root_T_link`` of every link into ``world`` (see :func:`rows_into`)."""
    ri, rf = links(table)
    ci, cf = columns(table)
    rows_into(ri, rf, q, -1, world, local, with_local, ci, cf, world[0])


@numba.njit(error_model='numpy')
def chain_into(table, q, link, out, with_columns):
    """
    Evaluate the pose of ``link`` from its ancestors' only (see :func:`rows_into`).

    None is stored.

    :param out: ``(6, nv)``: with ``with_columns``, the columns that move ``link`` are added
        into it at the world origin (else it is not read).
    :return: ``root_T_link`` of ``link``, a 12-tuple.
    """
    ri, rf = links(table)
    if with_columns:
        ci, cf = columns(table)
    else:  # empty views: the rows' columns are not visited
        ci = numba.carray(int_address(table, 0), (0, 3))
        cf = numba.carray(address(table, 0), (0, 7))
    nowhere = numba.carray(address(table, 0), (0, 4, 4))  # an empty view: no allocation
    return rows_into(ri, rf, q, link, nowhere, nowhere, False, ci, cf, out)


@numba.njit(error_model='numpy')
def pose_checked(table, q, link, out):
    """
    Check ``q``, then write ``root_T_link`` of ``link`` into ``out``, in one call.

    Only the link and its ancestors are evaluated (:func:`chain_into`).

    :param q: a configuration, unchecked.
    :param out: ``(4, 4)``.
    :return: whether ``q`` passed :func:`~.tables.configuration_ok` (``out`` is not written
        when not).
    """
    if not configuration_ok(table, q):
        return False
    store(chain_into(table, q, link, out, False), numba.carray(address(out, 0), (1, 4, 4)), 0)
    return True


@numba.njit(error_model='numpy')
def poses_checked(table, q, q_copy, world):
    """
    Check ``q`` and write its copy and ``root_T_link`` of every link, in one call.

    :param table: the model's packed table (:func:`~.tables.pack`).
    :param q: a configuration ``(nq,)``, unchecked.
    :param q_copy: ``(nq,)``, receives the checked copy of ``q``.
    :param world: ``(n, 4, 4)``, receives the poses.
    :return: whether ``q`` passed the checks of :func:`~.tables.copy_configuration` (nothing
        is computed when not).
    """
    if not copy_configuration(table, q, q_copy):
        return False
    poses_into(table, q_copy, world, world, False)
    return True


@numba.njit(error_model='numpy')
def poses(table, q):
    """``[root_T_link, parent_T_link]`` of every link for one configuration, ``(2, n, 4, 4)``."""
    out = np.empty((2, link_count(table), 4, 4))
    poses_into(table, q, out[0], out[1], True)
    return out


@numba.njit(error_model='numpy')
def poses_batch(table, qs):
    """
    ``root_T_link`` of every link for a batch, configurations first: ``(B, n, 4, 4)``.

    One thread: the kernel is bound by writing the poses, and on a shared machine threads
    waiting for each other cost milliseconds.
    """
    out = np.empty((len(qs), link_count(table), 4, 4))
    for b in range(len(qs)):
        poses_into(table, qs[b], out[b], out[b], False)
    return out
