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

One pose loop, :func:`rows_into`, evaluates every row's joint (its origin and its joint's
motion, from the 12-tuple transforms of :mod:`.transforms`) and composes it with its parent's
pose, over a packed table (:mod:`.tables`): every link of a model (:func:`poses_into`, with
the ``parent_T_link`` that ``/tf`` reads, :mod:`.tf`), a link's ancestors with their motion
columns (:func:`chain_into`, the Jacobians), and the nodes of an inverse-kinematics chain
(:mod:`.ik`). The joint evaluation is written in the loop itself: as a function, even
inlined, it cost a quarter of the loop's time. The loop's callers give it their arrays
:func:`~.runtime.borrowed`: counting their references cost a tenth of a single
configuration's time.
"""

import numba
import numpy as np

from .runtime import address, borrowed, int_address
from .tables import (AXIS, columns, configuration_ok, copy_configuration, link_count, links,
                     ORIGIN, PLANE, SCALE)
from .transforms import compose, floating, load, planar, rotation, slid, store, turned
from .twists import add_column
from ..joints import JointType, TYPE_CODES

_FIXED = TYPE_CODES[JointType.FIXED]
_REVOLUTE = TYPE_CODES[JointType.REVOLUTE]
_CONTINUOUS = TYPE_CODES[JointType.CONTINUOUS]
_PRISMATIC = TYPE_CODES[JointType.PRISMATIC]
_FLOATING = TYPE_CODES[JointType.FLOATING]
_IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)


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


@numba.njit(error_model='numpy')
def rows_into(ri, rf, q, link, world, local, with_local, ci, cf, out):
    """
    Evaluate ``root_T_link`` of every row, or of a link and its ancestors, parents first.

    A row's ``parent_T_link`` is its origin turned about a principal axis
    (:func:`~.transforms.turned`), slid along a prismatic one (:func:`~.transforms.slid`), or
    composed with the rotation about any other axis or with a floating or planar motion.

    :param ri: ``(n, 5)`` integer link rows (:func:`~.tables.links`), in depth-first order.
    :param rf: ``(n, 26)`` float link rows (:func:`~.tables.links`).
    :param q: the configuration ``(nq,)``, checked (its quaternions of unit norm within the
        tolerance).
    :param link: ``-1`` for every row; or a link: only the rows up to it whose subtree holds
        it, its ancestors, are evaluated, and their motion columns (``ci``, ``cf``) are added
        into ``out`` ``(6, nv)`` at the world origin (:func:`~.twists.add_column`).
    :param world: ``(n, 4, 4)`` receives the poses, or ``(0, 4, 4)`` for none (with a link:
        its ancestors are a chain, each the parent of the next).
    :param local: ``(n, 4, 4)``: receives ``parent_T_link`` of every row with
        ``with_local``.
    :param with_local: also write ``parent_T_link`` into ``local`` (else it is not read).
    :param ci: ``(c, 3)`` integer column rows (:func:`~.tables.columns`); read with a link
        only (an empty view adds no column).
    :param cf: ``(c, 7)`` float column rows (:func:`~.tables.columns`), as ``ci``.
    :param out: ``(6, nv)``: the columns of ``ci`` that move ``link`` are added into it
        (not read for ``link == -1``).
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
    world = borrowed(world)
    rows_into(ri, rf, borrowed(q), -1, world, borrowed(local), with_local, ci, cf, world[0])


@numba.njit(error_model='numpy')
def chain_into(table, q, link, out, with_columns):
    """
    Evaluate the pose of ``link`` from its ancestors' only (see :func:`rows_into`).

    None is stored.

    :param table: the model's (or an inverse-kinematics chain's) packed table
        (:func:`~.tables.pack`).
    :param q: the configuration ``(nq,)``, checked (its quaternions of unit norm within the
        tolerance).
    :param link: the link's row (in range).
    :param out: ``(6, nv)``: with ``with_columns``, the columns that move ``link`` are added
        into it at the world origin (else it is not read).
    :param with_columns: whether the motion columns are added into ``out``.
    :return: ``root_T_link`` of ``link``, a 12-tuple.
    """
    ri, rf = links(table)
    if with_columns:
        ci, cf = columns(table)
    else:  # empty views: the rows' columns are not visited
        ci = numba.carray(int_address(table, 0), (0, 3))
        cf = numba.carray(address(table, 0), (0, 7))
    nowhere = numba.carray(address(table, 0), (0, 4, 4))  # an empty view: no allocation
    return rows_into(ri, rf, borrowed(q), link, nowhere, nowhere, False, ci, cf, borrowed(out))


@numba.njit(error_model='numpy')
def pose_checked(table, q, link, out):
    """
    Check ``q``, then write ``root_T_link`` of ``link`` into ``out``, in one call.

    Only the link and its ancestors are evaluated (:func:`chain_into`).

    :param table: the model's packed table (:func:`~.tables.pack`).
    :param q: a configuration, unchecked.
    :param link: the link's row (in range: the caller checks it).
    :param out: ``(4, 4)`` float64, C-contiguous: receives ``root_T_link``.
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
