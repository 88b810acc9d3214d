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
with ``(R, o)`` its link's pose, as :mod:`frame_kinematics.core.kinematics.columns`: the
columns are summed at the world origin, then moved to the point and expressed
(:mod:`.twists`).
"""

import numba
import numpy as np

from .poses import chain_into
from .tables import columns, configuration_ok
from .transforms import load
from .twists import add_column, express_into


@numba.njit(error_model='numpy')
def jacobian_into(poses, link, point, ref, ci, cf, out):
    """
    Add the Jacobian of ``link`` (at ``point``, given in the link frame) into ``out``.

    :param poses: ``(n, 4, 4)`` ``root_T_link`` (only the link's and its ancestors' are read).
    :param link: the link's row.
    :param point: ``link_p_point`` ``(3,)`` (ignored for ``WORLD``).
    :param ref: :data:`~.twists.WORLD`, :data:`~.twists.LOCAL` or
        :data:`~.twists.LOCAL_WORLD_ALIGNED`.
    :param ci: the integer column rows.
    :param cf: the float column rows.
    :param out: ``(6, nv)`` zeros on entry.
    """
    for c in range(len(ci)):
        row = ci[c, 0]
        if row > link:
            break
        if link < ci[c, 2]:
            add_column(out, cf, c, ci[c, 1], load(poses, row))
    express_into(out, load(poses, link), point[0], point[1], point[2], ref)


@numba.njit(error_model='numpy')
def jacobian(poses, link, point, ref, table, nv):
    """:func:`jacobian_into` a new ``(6, nv)`` array (packed tables, :mod:`.tables`)."""
    ci, cf = columns(table)
    out = np.zeros((6, nv))
    jacobian_into(poses, link, point, ref, ci, cf, out)
    return out


@numba.njit(error_model='numpy')
def jacobian_batch(poses, link, point, ref, table, nv):
    """:func:`jacobian` of a batch of poses ``(B, n, 4, 4)``: ``(B, 6, nv)``."""
    ci, cf = columns(table)
    out = np.zeros((len(poses), 6, nv))
    for b in range(len(poses)):
        jacobian_into(poses[b], link, point, ref, ci, cf, out[b])
    return out


@numba.njit(error_model='numpy')
def jacobian_checked(table, q, link, point, ref, out):
    """
    Check ``q``, then add the Jacobian of ``link`` at ``q`` into ``out``, in one call.

    Only the poses of ``link`` and its ancestors are computed, with the columns
    (:func:`~.poses.chain_into`), from ``q`` itself: its quaternions are of unit norm
    within the tolerance, and :func:`~.poses.floating` normalises them.

    :param table: the model's packed table (:func:`~.tables.pack`).
    :param q: a configuration, unchecked.
    :param link: the link's row (in range: the caller checks it).
    :param point: ``link_p_point`` ``(3,)``.
    :param ref: :data:`~.twists.WORLD`, :data:`~.twists.LOCAL` or
        :data:`~.twists.LOCAL_WORLD_ALIGNED`.
    :param out: ``(6, nv)`` zeros on entry.
    :return: whether ``q`` passed :func:`~.tables.configuration_ok` (``out`` is left as it was
        when not).
    """
    if not configuration_ok(table, q):
        return False
    pose = chain_into(table, q, link, out, True)
    express_into(out, pose, point[0], point[1], point[2], ref)
    return True
