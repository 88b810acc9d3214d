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
The pieces of one compiled Levenberg-Marquardt iteration of :mod:`.ik`.

:func:`residual` (the weighted pose error of every tip, its position and orientation
errors, the cost), :func:`tip_jacobian` (the stacked weighted ``LOCAL_WORLD_ALIGNED``
Jacobians of the tips) and :func:`damped_step` (damped least squares by an ``L D L^T``
factorisation, :func:`cholesky_solve`), as :mod:`frame_kinematics.core.ik.residual` and
:class:`~frame_kinematics.core.ik.engine.Engine` compute them with numpy.
"""

import numba
import numpy as np

from .transforms import load, quaternion_of
from .twists import column_at
from ..spatial import _LOG_NEAR_PI


@numba.njit(error_model='numpy')
def rotation_vector(target, tip, t, out, at):
    """
    Write the world rotation vector taking ``tip[t]`` to ``target[t]`` into ``out[at:]``.

    :func:`~frame_kinematics.core.spatial.log_so3` of ``target tip^T``, by the same rule.

    :return: its angle in ``[0, pi]``.
    """
    g, h = target[t], tip[t]
    m00 = g[0, 0] * h[0, 0] + g[0, 1] * h[0, 1] + g[0, 2] * h[0, 2]
    m01 = g[0, 0] * h[1, 0] + g[0, 1] * h[1, 1] + g[0, 2] * h[1, 2]
    m02 = g[0, 0] * h[2, 0] + g[0, 1] * h[2, 1] + g[0, 2] * h[2, 2]
    m10 = g[1, 0] * h[0, 0] + g[1, 1] * h[0, 1] + g[1, 2] * h[0, 2]
    m11 = g[1, 0] * h[1, 0] + g[1, 1] * h[1, 1] + g[1, 2] * h[1, 2]
    m12 = g[1, 0] * h[2, 0] + g[1, 1] * h[2, 1] + g[1, 2] * h[2, 2]
    m20 = g[2, 0] * h[0, 0] + g[2, 1] * h[0, 1] + g[2, 2] * h[0, 2]
    m21 = g[2, 0] * h[1, 0] + g[2, 1] * h[1, 1] + g[2, 2] * h[1, 2]
    m22 = g[2, 0] * h[2, 0] + g[2, 1] * h[2, 1] + g[2, 2] * h[2, 2]
    v0, v1, v2 = 0.5 * (m21 - m12), 0.5 * (m02 - m20), 0.5 * (m10 - m01)
    sin = np.sqrt(v0 * v0 + v1 * v1 + v2 * v2)
    angle = np.arctan2(sin, 0.5 * (m00 + m11 + m22 - 1.0))
    if angle > np.pi - _LOG_NEAR_PI:
        # near pi the antisymmetric part vanishes: the axis from the quaternion, as log_so3
        x, y, z, w = quaternion_of((m00, m01, m02, m10, m11, m12, m20, m21, m22, 0.0, 0.0,
                                    0.0))
        norm = np.sqrt(x * x + y * y + z * z)
        angle = 2.0 * np.arctan2(norm, w)
        scale = angle / norm if norm > 0.0 else 0.0
        out[at], out[at + 1], out[at + 2] = x * scale, y * scale, z * scale
        return angle
    scale = angle / sin if sin > 0.0 else 1.0
    out[at], out[at + 1], out[at + 2] = v0 * scale, v1 * scale, v2 * scale
    return angle


@numba.njit(error_model='numpy')
def residual(tips, target, weight, e, pos, ori):
    """
    Weighted residual ``e`` (6 rows per tip), position and orientation errors; the cost.

    ``weight[t]`` is ``(linear, angular)`` of tip ``t``; a zero weight leaves its rows at 0
    and its error at 0 (not checked).
    """
    cost = 0.0
    for t in range(len(tips)):
        d0 = target[t, 0, 3] - tips[t, 0, 3]
        d1 = target[t, 1, 3] - tips[t, 1, 3]
        d2 = target[t, 2, 3] - tips[t, 2, 3]
        angle = rotation_vector(target, tips, t, e, 6 * t + 3)
        wl, wa = weight[t, 0], weight[t, 1]
        pos[t] = np.sqrt(d0 * d0 + d1 * d1 + d2 * d2) if wl > 0.0 else 0.0
        ori[t] = angle if wa > 0.0 else 0.0
        e[6 * t], e[6 * t + 1], e[6 * t + 2] = wl * d0, wl * d1, wl * d2
        for i in range(6 * t + 3, 6 * t + 6):
            e[i] *= wa
        for i in range(6 * t, 6 * t + 6):
            cost += e[i] * e[i]
    return cost


@numba.njit(error_model='numpy')
def tip_jacobian(world, tips, columns, above, weight, jac):
    """
    Stacked weighted ``LOCAL_WORLD_ALIGNED`` Jacobians of the tips into ``jac``.

    Each column is :func:`~.twists.column_at` the tip's origin.
    """
    column_row, column_v, column_multiplier, column_twist = columns
    jac[:] = 0.0
    for t in range(len(tips)):
        wl, wa = weight[t, 0], weight[t, 1]
        for c in range(len(column_row)):
            row = column_row[c]
            if not above[t, row]:
                continue
            l0, l1, l2, a0, a1, a2 = column_at(load(world, row), column_twist, c, 0,
                                               tips[t, 0, 3], tips[t, 1, 3], tips[t, 2, 3])
            v = column_v[c]
            f = column_multiplier[c]
            jac[6 * t, v] += f * wl * l0
            jac[6 * t + 1, v] += f * wl * l1
            jac[6 * t + 2, v] += f * wl * l2
            jac[6 * t + 3, v] += f * wa * a0
            jac[6 * t + 4, v] += f * wa * a1
            jac[6 * t + 5, v] += f * wa * a2


@numba.njit(error_model='numpy')
def cholesky_solve(a, b):
    """
    Solve ``a x = b`` in place for a symmetric positive definite ``a`` (``b`` becomes x).

    ``a = L D L^T`` (no square roots); the lower triangle of ``a`` becomes ``L`` and its
    diagonal ``1 / D``.
    """
    n = len(b)
    for j in range(n):
        d = a[j, j]
        for k in range(j):
            d -= a[j, k] * a[j, k] * a[k, k]
        a[j, j] = 1.0 / d
        for i in range(j + 1, n):
            s = a[i, j]
            for k in range(j):
                s -= a[i, k] * a[j, k] * a[k, k]
            a[i, j] = s
    # a[i, j] (i > j) holds L[i, j] * D[j]: scaled below
    for j in range(n):
        for i in range(j + 1, n):
            a[i, j] *= a[j, j]
    for i in range(n):
        s = b[i]
        for k in range(i):
            s -= a[i, k] * b[k]
        b[i] = s
    for i in range(n):
        b[i] *= a[i, i]
    for i in range(n - 1, -1, -1):
        s = b[i]
        for k in range(i + 1, n):
            s -= a[k, i] * b[k]
        b[i] = s


@numba.njit(error_model='numpy')
def damped_step(jac, e, lam, gram, rhs, dq, bias, with_bias):
    """
    ``dq = J^T (J J^T + lam I)^-1 e`` (or ``(J^T J + lam I)^-1 J^T e`` when taller).

    With ``with_bias``, ``dq = J^T (J J^T + lam I)^-1 (e - J bias) + bias``: the pull
    ``bias`` toward a rest posture, in the null space of ``J`` (as the numpy engine does).
    """
    m, n = jac.shape
    if with_bias or m <= n:
        for i in range(m):
            for k in range(i + 1):
                s = 0.0
                for j in range(n):
                    s += jac[i, j] * jac[k, j]
                gram[i, k] = s
            gram[i, i] += lam
            s = e[i]
            if with_bias:
                for j in range(n):
                    s -= jac[i, j] * bias[j]
            rhs[i] = s
        cholesky_solve(gram[:m, :m], rhs[:m])
        for j in range(n):
            s = bias[j] if with_bias else 0.0
            for i in range(m):
                s += jac[i, j] * rhs[i]
            dq[j] = s
        return
    for j in range(n):
        for k in range(j + 1):
            s = 0.0
            for i in range(m):
                s += jac[i, j] * jac[i, k]
            gram[j, k] = s
        gram[j, j] += lam
        s = 0.0
        for i in range(m):
            s += jac[i, j] * e[i]
        rhs[j] = s
    cholesky_solve(gram[:n, :n], rhs[:n])
    for j in range(n):
        dq[j] = rhs[j]
