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
Compiled Jacobians of a link (or a point fixed in it), every ``expressed_in``.

The motion-column rows of :func:`~.tables.columns` (``column_row``, ``column_v``, the
``subtree_end`` of the column's link; ``column_multiplier``, ``column_twist``) say which
columns move a link: column ``c`` does when ``column_row[c] <= link < subtree_end``. A
column's twist at a point ``p`` in world axes is ``[R S_lin + (R S_ang) x (p - o); R S_ang]``
with ``(R, o)`` its link's pose, as :mod:`frame_kinematics.core.kinematics.columns`.
"""

import numba
import numpy as np

from .poses import path_poses_into
from .tables import columns, copy_configuration, links

#: ``expressed_in`` codes of the kernels.
WORLD, LOCAL, LOCAL_WORLD_ALIGNED = 0, 1, 2


@numba.njit(cache=True, error_model='numpy')
def jacobian_into(poses, link, point, ref, ci, cf, out):
    """
    Add the Jacobian of ``link`` (at ``point``, given in the link frame) into ``out``.

    :param poses: ``(n, 4, 4)`` ``root_T_link`` (only the link's and its ancestors' are read).
    :param link: the link's row.
    :param point: ``link_p_point`` ``(3,)`` (ignored for ``WORLD``).
    :param ref: :data:`WORLD`, :data:`LOCAL` or :data:`LOCAL_WORLD_ALIGNED`.
    :param ci: the integer column rows.
    :param cf: the float column rows.
    :param out: ``(6, nv)`` zeros on entry.
    """
    if ref == WORLD:
        px, py, pz = 0.0, 0.0, 0.0
    else:
        px = (poses[link, 0, 0] * point[0] + poses[link, 0, 1] * point[1]
              + poses[link, 0, 2] * point[2] + poses[link, 0, 3])
        py = (poses[link, 1, 0] * point[0] + poses[link, 1, 1] * point[1]
              + poses[link, 1, 2] * point[2] + poses[link, 1, 3])
        pz = (poses[link, 2, 0] * point[0] + poses[link, 2, 1] * point[1]
              + poses[link, 2, 2] * point[2] + poses[link, 2, 3])
    for c in range(len(ci)):
        row = ci[c, 0]
        if row > link:
            break
        if link >= ci[c, 2]:
            continue
        r = poses[row]
        l0 = r[0, 0] * cf[c, 1] + r[0, 1] * cf[c, 2] + r[0, 2] * cf[c, 3]
        l1 = r[1, 0] * cf[c, 1] + r[1, 1] * cf[c, 2] + r[1, 2] * cf[c, 3]
        l2 = r[2, 0] * cf[c, 1] + r[2, 1] * cf[c, 2] + r[2, 2] * cf[c, 3]
        a0 = r[0, 0] * cf[c, 4] + r[0, 1] * cf[c, 5] + r[0, 2] * cf[c, 6]
        a1 = r[1, 0] * cf[c, 4] + r[1, 1] * cf[c, 5] + r[1, 2] * cf[c, 6]
        a2 = r[2, 0] * cf[c, 4] + r[2, 1] * cf[c, 5] + r[2, 2] * cf[c, 6]
        lx, ly, lz = px - r[0, 3], py - r[1, 3], pz - r[2, 3]
        col = (l0 + a1 * lz - a2 * ly, l1 + a2 * lx - a0 * lz, l2 + a0 * ly - a1 * lx,
               a0, a1, a2)
        v = ci[c, 1]
        m = cf[c, 0]
        if ref == LOCAL:
            for i in range(3):
                out[i, v] += m * (poses[link, 0, i] * col[0] + poses[link, 1, i] * col[1]
                                  + poses[link, 2, i] * col[2])
                out[3 + i, v] += m * (poses[link, 0, i] * col[3] + poses[link, 1, i] * col[4]
                                      + poses[link, 2, i] * col[5])
        else:
            for i in range(6):
                out[i, v] += m * col[i]


@numba.njit(cache=True, error_model='numpy')
def jacobian(poses, link, point, ref, ints, floats, nv):
    """:func:`jacobian_into` a new ``(6, nv)`` array (packed tables, :mod:`.tables`)."""
    ci, cf = columns(ints, floats)
    out = np.zeros((6, nv))
    jacobian_into(poses, link, point, ref, ci, cf, out)
    return out


@numba.njit(cache=True, error_model='numpy')
def jacobian_batch(poses, link, point, ref, ints, floats, nv):
    """:func:`jacobian` of a batch of poses ``(B, n, 4, 4)``: ``(B, 6, nv)``."""
    ci, cf = columns(ints, floats)
    out = np.zeros((len(poses), 6, nv))
    for b in range(len(poses)):
        jacobian_into(poses[b], link, point, ref, ci, cf, out[b])
    return out


@numba.njit(cache=True, error_model='numpy')
def jacobian_checked(ints, floats, q, link, point, ref, out):
    """
    Check ``q``, then add the Jacobian of ``link`` at ``q`` into ``out``, in one call.

    Only the poses of ``link`` and its ancestors are computed.

    :param q: a configuration ``(nq,)``, unchecked.
    :param out: ``(6, nv)`` zeros on entry.
    :return: whether ``q`` passed the checks of :func:`~.tables.copy_configuration` (``out``
        is left as it was when not).
    """
    q_copy = np.empty(len(q))
    if not copy_configuration(ints, floats, q, q_copy):
        return False
    ri, rf = links(ints, floats)
    world = np.empty((len(ri), 4, 4))
    path_poses_into(ri, rf, q_copy, link, world)
    ci, cf = columns(ints, floats)
    jacobian_into(world, link, point, ref, ci, cf, out)
    return True
