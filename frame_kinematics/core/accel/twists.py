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
The motion columns as twists: the one compiled column formula, and the Jacobians' sums.

Column ``c`` of a link posed ``(R, o)`` in the root, with unit twist ``S`` in the link frame,
is the world-axes twist ``[R S_lin + (R S_ang) x (p - o); R S_ang]`` at a point ``p``
(:func:`column_at`, as :func:`frame_kinematics.core.kinematics.columns.motion_columns` on
numpy arrays). The Jacobians (:func:`add_column`, then :func:`express_into` to move the sum
to a point and express it), the CoM Jacobian and momentum (:mod:`.com`) and the inverse
kinematics' tip Jacobian (:mod:`.lm`) all take their columns from :func:`column_at`.
"""

import numba

from .transforms import point_at

#: ``expressed_in`` codes of the kernels.
WORLD, LOCAL, LOCAL_WORLD_ALIGNED = 0, 1, 2


@numba.njit(error_model='numpy', inline='always')
def column_at(pose, twists, c, k, p0, p1, p2):
    """
    Return the world twist of a motion column at a point, ``(l0, l1, l2, a0, a1, a2)``.

    :param pose: ``root_T_link`` ``(R, o)`` of the column's link, a 12-tuple.
    :param twists: the column rows: ``S = twists[c, k:k + 6]`` is the column's unit twist in
        the link frame.
    :param c: the column's row.
    :param k: where its twist starts in the row.
    :param p0: the point ``p`` in the root frame.
    :param p1: its second coordinate.
    :param p2: its third.
    :return: ``[R S_lin + a x (p - o); a]`` with ``a = R S_ang``.
    """
    r00, r01, r02, r10, r11, r12, r20, r21, r22, o0, o1, o2 = pose
    s0, s1, s2 = twists[c, k], twists[c, k + 1], twists[c, k + 2]
    s3, s4, s5 = twists[c, k + 3], twists[c, k + 4], twists[c, k + 5]
    a0 = r00 * s3 + r01 * s4 + r02 * s5
    a1 = r10 * s3 + r11 * s4 + r12 * s5
    a2 = r20 * s3 + r21 * s4 + r22 * s5
    x, y, z = p0 - o0, p1 - o1, p2 - o2
    return (r00 * s0 + r01 * s1 + r02 * s2 + (a1 * z - a2 * y),
            r10 * s0 + r11 * s1 + r12 * s2 + (a2 * x - a0 * z),
            r20 * s0 + r21 * s1 + r22 * s2 + (a0 * y - a1 * x), a0, a1, a2)


@numba.njit(error_model='numpy', inline='always')
def add_column(out, cf, c, v, pose):
    """
    Add column ``c`` (multiplier, twist ``cf[c]``) at the world origin into ``out[:, v]``.

    :param out: ``(6, nv)`` the Jacobian being summed, ``[linear; angular]`` in world axes.
    :param cf: ``(c, 7)`` float column rows (:func:`~.tables.columns`):
        ``column_multiplier``, then ``column_twist``.
    :param c: the column's row.
    :param v: its velocity index (``column_v``): the column of ``out`` it is added into.
    :param pose: ``root_T_link`` of the column's link, a 12-tuple: :func:`column_at` the
        world origin is added, times the multiplier.
    """
    m = cf[c, 0]
    l0, l1, l2, a0, a1, a2 = column_at(pose, cf, c, 1, 0.0, 0.0, 0.0)
    out[0, v] += m * l0
    out[1, v] += m * l1
    out[2, v] += m * l2
    out[3, v] += m * a0
    out[4, v] += m * a1
    out[5, v] += m * a2


@numba.njit(error_model='numpy', inline='always')
def express_into(out, pose, x, y, z, ref):
    """
    Move the columns of ``out`` from the world origin to a point and express them.

    :param out: ``(6, nv)`` columns ``[linear; angular]`` in world axes at the world origin
        (:func:`add_column`), overwritten by the Jacobian at the point, expressed in ``ref``.
    :param pose: ``root_T_link`` of the link, a 12-tuple.
    :param x: ``link_p_point``, the point in the link frame (not read for ``WORLD``, which
        leaves ``out`` as it is).
    :param y: its second coordinate.
    :param z: its third.
    :param ref: :data:`WORLD`, :data:`LOCAL` or :data:`LOCAL_WORLD_ALIGNED`.
    """
    if ref == WORLD:
        return
    r00, r01, r02, r10, r11, r12, r20, r21, r22, _, _, _ = pose
    p0, p1, p2 = point_at(pose, x, y, z)
    for v in range(out.shape[1]):
        a0, a1, a2 = out[3, v], out[4, v], out[5, v]
        l0 = out[0, v] + a1 * p2 - a2 * p1
        l1 = out[1, v] + a2 * p0 - a0 * p2
        l2 = out[2, v] + a0 * p1 - a1 * p0
        if ref == LOCAL:  # R^T of both halves
            l0, l1, l2 = (r00 * l0 + r10 * l1 + r20 * l2, r01 * l0 + r11 * l1 + r21 * l2,
                          r02 * l0 + r12 * l1 + r22 * l2)
            out[3, v] = r00 * a0 + r10 * a1 + r20 * a2
            out[4, v] = r01 * a0 + r11 * a1 + r21 * a2
            out[5, v] = r02 * a0 + r12 * a1 + r22 * a2
        out[0, v], out[1, v], out[2, v] = l0, l1, l2
