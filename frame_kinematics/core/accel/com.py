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
Compiled center of mass and its Jacobian.

Link centers ``root_p_com_i = R_i link_p_com_i + o_i`` weighted by ``link_masses``; the
Jacobian adds, for every motion column, ``(m_sub S_lin + S_ang x h_sub) / M`` with the
subtree mass ``m_sub`` and first moment ``h_sub`` of the column's link, summed leaves first
over the depth-first order (as :mod:`frame_kinematics.core.kinematics.com`). The CoM
velocity and the centroidal angular momentum (:func:`center_of_mass_motion_into`) sum the
links' twists down the tree, as :meth:`KinematicsState.spatial_velocities
<frame_kinematics.core.kinematics.KinematicsState.spatial_velocities>` does.
"""

import numba
import numpy as np

from .tables import columns, links
from .transforms import load, point_at
from .twists import column_at


@numba.njit(error_model='numpy', inline='always')
def link_center(poses, p_coms, i):
    """Return ``root_p_com`` of link ``i``: its pose ``poses[i]`` applied to ``p_coms[i]``."""
    return point_at(load(poses, i), p_coms[i, 0], p_coms[i, 1], p_coms[i, 2])


@numba.njit(error_model='numpy')
def center_of_mass_into(poses, masses, p_coms, total, out):
    """Write the center of mass ``(3,)`` of the links at ``poses`` ``(n, 4, 4)`` into ``out``."""
    x = y = z = 0.0
    for i in range(len(masses)):
        m = masses[i]
        c0, c1, c2 = link_center(poses, p_coms, i)
        x += m * c0
        y += m * c1
        z += m * c2
    out[0] = x / total
    out[1] = y / total
    out[2] = z / total


@numba.njit(error_model='numpy')
def center_of_mass(poses, masses, p_coms, total):
    """:func:`center_of_mass_into` a new ``(3,)`` array."""
    out = np.empty(3)
    center_of_mass_into(poses, masses, p_coms, total, out)
    return out


@numba.njit(error_model='numpy')
def center_of_mass_batch(poses, masses, p_coms, total):
    """:func:`center_of_mass` of a batch of poses ``(B, n, 4, 4)``: ``(B, 3)``."""
    out = np.empty((len(poses), 3))
    for b in range(len(poses)):
        center_of_mass_into(poses[b], masses, p_coms, total, out[b])
    return out


@numba.njit(error_model='numpy')
def center_of_mass_jacobian_into(poses, table, masses, p_coms, total, out):
    """
    Add the CoM Jacobian ``(3, nv)`` of the links at ``poses`` into ``out`` (zeros).

    The Jacobian maps a velocity ``(nv,)`` to the CoM velocity, root axes.

    :param poses: ``(n, 4, 4)`` ``root_T_link`` of every link, in the model's depth-first
        order.
    :param table: the model's packed table (:func:`~.tables.pack`).
    :param masses: ``(n,)`` link masses.
    :param p_coms: ``(n, 3)`` ``link_p_com`` of every link: its center of mass in its own
        frame.
    :param total: the total mass ``M`` (the sum of ``masses``, nonzero).
    :param out: ``(3, nv)`` float64, zero on entry: the Jacobian is added into it.
    """
    ri, _ = links(table)
    ci, cf = columns(table)
    n = len(masses)
    sub = np.empty((n, 4))
    for i in range(n):
        m = masses[i]
        c0, c1, c2 = link_center(poses, p_coms, i)
        sub[i, 0], sub[i, 1], sub[i, 2], sub[i, 3] = m, m * c0, m * c1, m * c2
    for i in range(n - 1, 0, -1):
        for k in range(4):
            sub[ri[i, 2], k] += sub[i, k]
    for c in range(len(ci)):
        row = ci[c, 0]
        l0, l1, l2, a0, a1, a2 = column_at(load(poses, row), cf, c, 1, 0.0, 0.0, 0.0)
        m_sub, h0, h1, h2 = sub[row, 0], sub[row, 1], sub[row, 2], sub[row, 3]
        scale = cf[c, 0] / total
        v = ci[c, 1]
        out[0, v] += scale * (l0 * m_sub + a1 * h2 - a2 * h1)
        out[1, v] += scale * (l1 * m_sub + a2 * h0 - a0 * h2)
        out[2, v] += scale * (l2 * m_sub + a0 * h1 - a1 * h0)


@numba.njit(error_model='numpy')
def center_of_mass_jacobian(poses, table, masses, p_coms, total, nv):
    """:func:`center_of_mass_jacobian_into` a new ``(3, nv)`` array."""
    out = np.zeros((3, nv))
    center_of_mass_jacobian_into(poses, table, masses, p_coms, total, out)
    return out


@numba.njit(error_model='numpy')
def center_of_mass_jacobian_batch(poses, table, masses, p_coms, total, nv):
    """:func:`center_of_mass_jacobian` of a batch ``(B, n, 4, 4)``: ``(B, 3, nv)``."""
    out = np.zeros((len(poses), 3, nv))
    for b in range(len(poses)):
        center_of_mass_jacobian_into(poses[b], table, masses, p_coms, total, out[b])
    return out


@numba.njit(error_model='numpy')
def center_of_mass_motion_into(poses, table, masses, p_coms, inertias, total, center,
                               v, out):
    """
    Write the CoM velocity and the angular momentum about the CoM into ``out`` ``(6,)``.

    Root-aligned axes, as :meth:`KinematicsState.center_of_mass_velocity
    <frame_kinematics.core.kinematics.KinematicsState.center_of_mass_velocity>` and
    :meth:`~frame_kinematics.core.kinematics.KinematicsState.angular_momentum`.

    :param poses: ``(n, 4, 4)`` ``root_T_link`` of every link, in the model's depth-first
        order.
    :param table: the model's packed table (:func:`~.tables.pack`).
    :param masses: ``(n,)`` link masses.
    :param p_coms: ``(n, 3)`` ``link_p_com`` of every link: its center of mass in its own
        frame.
    :param inertias: ``(n, 3, 3)`` rotational inertias about the link centers, link axes.
    :param total: the total mass ``M`` (the sum of ``masses``, nonzero).
    :param center: ``root_p_com`` at ``poses`` (:func:`center_of_mass_into`).
    :param v: the velocity ``(nv,)``.
    :param out: ``(6,)`` float64, overwritten: the CoM velocity ``(3,)``, then the angular
        momentum about the CoM ``(3,)``, both in root axes.
    """
    ri, _ = links(table)
    ci, cf = columns(table)
    n = len(masses)
    twist = np.zeros((n, 6))  # world twists at the world origin, [linear; angular]
    for c in range(len(ci)):
        row = ci[c, 0]
        rate = v[ci[c, 1]] * cf[c, 0]
        column = column_at(load(poses, row), cf, c, 1, 0.0, 0.0, 0.0)
        for k in range(6):
            twist[row, k] += rate * column[k]
    for i in range(1, n):  # depth-first order: a parent's twist is complete before its children
        for k in range(6):
            twist[i, k] += twist[ri[i, 2], k]
    for k in range(6):
        out[k] = 0.0
    for i in range(n):
        m = masses[i]
        r = poses[i]
        c0, c1, c2 = link_center(poses, p_coms, i)
        w0, w1, w2 = twist[i, 3], twist[i, 4], twist[i, 5]
        u0 = twist[i, 0] + w1 * c2 - w2 * c1  # velocity of the link's center
        u1 = twist[i, 1] + w2 * c0 - w0 * c2
        u2 = twist[i, 2] + w0 * c1 - w1 * c0
        out[0] += m * u0
        out[1] += m * u1
        out[2] += m * u2
        d0, d1, d2 = c0 - center[0], c1 - center[1], c2 - center[2]
        out[3] += m * (d1 * u2 - d2 * u1)
        out[4] += m * (d2 * u0 - d0 * u2)
        out[5] += m * (d0 * u1 - d1 * u0)
        # R I R^T w, as R (I (R^T w))
        b0 = r[0, 0] * w0 + r[1, 0] * w1 + r[2, 0] * w2
        b1 = r[0, 1] * w0 + r[1, 1] * w1 + r[2, 1] * w2
        b2 = r[0, 2] * w0 + r[1, 2] * w1 + r[2, 2] * w2
        e0 = inertias[i, 0, 0] * b0 + inertias[i, 0, 1] * b1 + inertias[i, 0, 2] * b2
        e1 = inertias[i, 1, 0] * b0 + inertias[i, 1, 1] * b1 + inertias[i, 1, 2] * b2
        e2 = inertias[i, 2, 0] * b0 + inertias[i, 2, 1] * b1 + inertias[i, 2, 2] * b2
        out[3] += r[0, 0] * e0 + r[0, 1] * e1 + r[0, 2] * e2
        out[4] += r[1, 0] * e0 + r[1, 1] * e1 + r[1, 2] * e2
        out[5] += r[2, 0] * e0 + r[2, 1] * e1 + r[2, 2] * e2
    for k in range(3):
        out[k] /= total
