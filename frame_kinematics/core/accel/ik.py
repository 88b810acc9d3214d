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
A compiled Levenberg-Marquardt solve: one target is one call, a batch one call on threads.

The same iteration as :mod:`frame_kinematics.core.ik.engine` on the chain evaluator's node
kernel (:class:`~frame_kinematics.core.ik.chain.ChainEvaluator`): pose residual, stacked
``LOCAL_WORLD_ALIGNED`` tip Jacobians, damped least squares (Cholesky), steps clipped to the
limits (joints at a limit that a step pushes further taken out and the step solved again),
damping up or down as a step is rejected or accepted, random restarts when the cost stalls
or the damping explodes, the best configuration kept. Unlike the numpy engine, the damping
of a step also grows with the cost (:data:`ERROR_DAMPING`) and a restart starts more damped
(:data:`RESTART_DAMPING`): on the TRAC-IK protocol's random seeds this takes about 20 %
fewer iterations. One seed advances at a time (the
numpy engine's parallel seeds amortise numpy's call overhead, which compiled code does not
have). The deadline is checked at every iteration.

Supported problems: one-dof active joints (revolute, continuous, prismatic, mimics of them),
per-tip weights equal on the three position axes and on the three rotation axes, with or
without a rest posture (``CompiledChain.supports``); the numpy engine solves the others.
"""

import numba
import numpy as np

from .poses import joint_motion, load, product, store
from .runtime import monotonic, uniform

#: Damping added per unit of cost (squared residual norm): steps far from the target are
#: damped, steps near it are Gauss-Newton steps.
ERROR_DAMPING = 0.01
#: A restart (a random configuration, far from the target) starts with this many times the
#: initial damping (at most 1, or the initial damping if larger).
RESTART_DAMPING = 30.0
#: Stop reasons, in the order of :data:`REASONS`.
CONVERGED, MAX_ITERATIONS, MAX_RESTARTS, TIME_BUDGET = 0, 1, 2, 3
REASONS = ('converged', 'max_iterations', 'max_restarts', 'time_budget')


@numba.njit(cache=True, error_model='numpy')
def _chain(nodes, node_parent, tip_parent, tip_constant, q, world, tips):
    """Node poses ``world`` and tip poses ``tips`` of a reduced configuration ``q``."""
    type_code, axis, origin, q_index, multiplier, offset = nodes
    for k in range(len(type_code)):
        motion = joint_motion(k, type_code, axis, q_index, multiplier, offset, q)
        here = product(origin, k, motion)
        if node_parent[k] < 0:
            store(here, world, k)
        else:
            store(product(world, node_parent[k], here), world, k)
    for t in range(len(tip_parent)):
        if tip_parent[t] < 0:
            store(load(tip_constant, t), tips, t)
        else:
            store(product(world, tip_parent[t], load(tip_constant, t)), tips, t)


@numba.njit(cache=True, error_model='numpy')
def _rotation_vector(target, tip, t, out, at):
    """
    Write the world rotation vector taking ``tip[t]`` to ``target[t]`` into ``out[at:]``.

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
    if angle > np.pi - 1e-4:
        # near pi the antisymmetric part vanishes: the axis from the quaternion
        if m11 > m00 and m11 >= m22:
            y = 0.5 * np.sqrt(max(0.0, 1.0 + m11 - m00 - m22))
            x = (m01 + m10) / (4.0 * y)
            z = (m12 + m21) / (4.0 * y)
            w = (m02 - m20) / (4.0 * y)
        elif m22 > m00 and m22 > m11:
            z = 0.5 * np.sqrt(max(0.0, 1.0 + m22 - m00 - m11))
            x = (m02 + m20) / (4.0 * z)
            y = (m12 + m21) / (4.0 * z)
            w = (m10 - m01) / (4.0 * z)
        else:
            x = 0.5 * np.sqrt(max(0.0, 1.0 + m00 - m11 - m22))
            y = (m01 + m10) / (4.0 * x)
            z = (m02 + m20) / (4.0 * x)
            w = (m21 - m12) / (4.0 * x)
        if w < 0.0:
            x, y, z, w = -x, -y, -z, -w
        norm = np.sqrt(x * x + y * y + z * z)
        angle = 2.0 * np.arctan2(norm, w)
        scale = angle / norm if norm > 0.0 else 0.0
        out[at], out[at + 1], out[at + 2] = x * scale, y * scale, z * scale
        return angle
    scale = angle / sin if sin > 0.0 else 1.0
    out[at], out[at + 1], out[at + 2] = v0 * scale, v1 * scale, v2 * scale
    return angle


@numba.njit(cache=True, error_model='numpy')
def _residual(tips, target, weight, e, pos, ori):
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
        angle = _rotation_vector(target, tips, t, e, 6 * t + 3)
        wl, wa = weight[t, 0], weight[t, 1]
        pos[t] = np.sqrt(d0 * d0 + d1 * d1 + d2 * d2) if wl > 0.0 else 0.0
        ori[t] = angle if wa > 0.0 else 0.0
        e[6 * t], e[6 * t + 1], e[6 * t + 2] = wl * d0, wl * d1, wl * d2
        for i in range(6 * t + 3, 6 * t + 6):
            e[i] *= wa
        for i in range(6 * t, 6 * t + 6):
            cost += e[i] * e[i]
    return cost


@numba.njit(cache=True, error_model='numpy')
def _jacobian(world, tips, columns, above, weight, jac):
    """Stacked weighted ``LOCAL_WORLD_ALIGNED`` Jacobians of the tips into ``jac``."""
    column_row, column_v, column_multiplier, column_twist = columns
    jac[:] = 0.0
    for t in range(len(tips)):
        wl, wa = weight[t, 0], weight[t, 1]
        for c in range(len(column_row)):
            row = column_row[c]
            if not above[t, row]:
                continue
            s = column_twist[c]
            a0 = world[row, 0, 0] * s[3] + world[row, 0, 1] * s[4] + world[row, 0, 2] * s[5]
            a1 = world[row, 1, 0] * s[3] + world[row, 1, 1] * s[4] + world[row, 1, 2] * s[5]
            a2 = world[row, 2, 0] * s[3] + world[row, 2, 1] * s[4] + world[row, 2, 2] * s[5]
            lx = tips[t, 0, 3] - world[row, 0, 3]
            ly = tips[t, 1, 3] - world[row, 1, 3]
            lz = tips[t, 2, 3] - world[row, 2, 3]
            l0 = world[row, 0, 0] * s[0] + world[row, 0, 1] * s[1] + world[row, 0, 2] * s[2]
            l1 = world[row, 1, 0] * s[0] + world[row, 1, 1] * s[1] + world[row, 1, 2] * s[2]
            l2 = world[row, 2, 0] * s[0] + world[row, 2, 1] * s[1] + world[row, 2, 2] * s[2]
            v = column_v[c]
            f = column_multiplier[c]
            jac[6 * t, v] += f * wl * (l0 + a1 * lz - a2 * ly)
            jac[6 * t + 1, v] += f * wl * (l1 + a2 * lx - a0 * lz)
            jac[6 * t + 2, v] += f * wl * (l2 + a0 * ly - a1 * lx)
            jac[6 * t + 3, v] += f * wa * a0
            jac[6 * t + 4, v] += f * wa * a1
            jac[6 * t + 5, v] += f * wa * a2


@numba.njit(cache=True, error_model='numpy')
def _cholesky_solve(a, b):
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


@numba.njit(cache=True, error_model='numpy')
def _damped_step(jac, e, lam, gram, rhs, dq, bias, with_bias):
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
        _cholesky_solve(gram[:m, :m], rhs[:m])
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
    _cholesky_solve(gram[:n, :n], rhs[:n])
    for j in range(n):
        dq[j] = rhs[j]


@numba.njit(cache=True, error_model='numpy')
def solve_into(nodes, node_parent, tip_parent, tip_constant, columns, bounds, settings,
               target, seed, state, limits, deadline, out_q, out_err):
    """
    Solve one target; write the configuration and the per-tip errors, return the stop data.

    :param nodes: the node kernel's ``(type_code, axis, origin, q_index, multiplier,
        offset)``.
    :param columns: its ``(column_row, column_v, column_multiplier, column_twist)``.
    :param bounds: ``(lower, upper, sample_lower, sample_width, bounded, continuous, weight,
        rest)``: the limits, the restart draws
        (:class:`~frame_kinematics.core.ik.sampler.Sampler`), which entries are continuous
        angles, the per-tip ``(linear, angular)`` weights and the reduced rest posture
        (empty: none).
    :param settings: ``(tol_p, tol_o, damping, rest_gain, clock_id, time_slice)``: a solve
        stops at ``deadline`` or ``time_slice`` seconds after it starts, whichever comes
        first.
    :param target: ``(n_tips, 4, 4)`` ``root_T_target``.
    :param seed: the reduced seed ``(n,)``.
    :param state: the uint64 generator state ``(1,)`` of this solve.
    :param limits: ``(max_iterations, max_restarts)`` of this solve (-1: no restart limit).
    :param deadline: clock value at which to stop.
    :param out_q: ``(n,)`` the configuration found.
    :param out_err: ``(2, n_tips)`` its position and orientation errors.
    :return: ``(reason, iterations, restarts)``.
    """
    lower, upper, sample_lower, sample_width, bounded, continuous, weight, rest = bounds
    tol_p, tol_o, damping, rest_gain, clock_id, time_slice = settings
    with_rest = len(rest) > 0
    max_iterations, max_restarts = limits[0], limits[1]
    n, n_nodes, n_tips = len(seed), len(node_parent), len(tip_parent)
    m = 6 * n_tips
    above = np.zeros((n_tips, n_nodes), dtype=np.bool_)
    for t in range(n_tips):
        k = tip_parent[t]
        while k >= 0:
            above[t, k] = True
            k = node_parent[k]
    world = np.empty((2, n_nodes, 4, 4))
    tips = np.empty((2, n_tips, 4, 4))
    e = np.empty((2, m))
    err = np.empty((2, 2, n_tips))
    q = np.empty((2, n))
    jac = np.empty((m, n))
    size = max(m, n)
    gram = np.empty((size, size))
    rhs = np.empty(size)
    dq = np.empty(n)
    free = np.ones(n, dtype=np.bool_)
    held = np.empty((m, n))
    bias = np.zeros(n)
    best_q = np.empty(n)
    clock = np.zeros(2, dtype=np.int64)
    deadline = min(deadline, monotonic(clock_id, clock) + time_slice)
    for j in range(n):
        q[0, j] = min(max(seed[j], lower[j]), upper[j])
    cur = 0
    _chain(nodes, node_parent, tip_parent, tip_constant, q[0], world[0], tips[0])
    cost = _residual(tips[0], target, weight, e[0], err[0, 0], err[0, 1])
    _jacobian(world[0], tips[0], columns, above, weight, jac)
    best_cost = np.inf
    lam = damping
    restart_lam = min(damping * RESTART_DAMPING, max(damping, 1.0))
    stall = 0
    iterations = 0
    restarts = 0
    reason = TIME_BUDGET
    while True:
        done = True
        for t in range(n_tips):
            if not (err[cur, 0, t] < tol_p and err[cur, 1, t] < tol_o):
                done = False
        if done:
            reason = CONVERGED
            break
        if iterations >= max_iterations:
            reason = MAX_ITERATIONS
            break
        if monotonic(clock_id, clock) >= deadline:
            reason = TIME_BUDGET
            break
        iterations += 1
        nxt = 1 - cur
        restart = stall >= 3 or lam > 1e2
        if restart:
            if 0 <= max_restarts <= restarts:
                reason = MAX_RESTARTS
                break
            if cost < best_cost:
                best_cost = cost
                best_q[:] = q[cur]
            for j in range(n):
                q[nxt, j] = sample_lower[j] + uniform(state) * sample_width[j] \
                    if bounded[j] else seed[j]
            restarts += 1
        else:
            if with_rest:
                # rest_gain times the difference to the rest posture, the short way round
                for j in range(n):
                    d = rest[j] - q[cur, j]
                    if continuous[j]:
                        d = np.mod(d + np.pi, 2.0 * np.pi) - np.pi
                    bias[j] = rest_gain * d
            damped = lam + ERROR_DAMPING * cost
            _damped_step(jac, e[cur], damped, gram, rhs, dq, bias, with_rest)
            if iterations > 5:
                blocked = False
                for j in range(n):
                    free[j] = not ((q[cur, j] <= lower[j] and dq[j] < 0) or
                                   (q[cur, j] >= upper[j] and dq[j] > 0))
                    blocked |= not free[j]
                if blocked:
                    # the step without the joints it pushes beyond their limits
                    for i in range(m):
                        for j in range(n):
                            held[i, j] = jac[i, j] if free[j] else 0.0
                    _damped_step(held, e[cur], damped, gram, rhs, dq, bias, with_rest)
                    for j in range(n):
                        if not free[j]:
                            dq[j] = 0.0
            for j in range(n):
                q[nxt, j] = min(max(q[cur, j] + dq[j], lower[j]), upper[j])
        _chain(nodes, node_parent, tip_parent, tip_constant, q[nxt], world[nxt], tips[nxt])
        cost_c = _residual(tips[nxt], target, weight, e[nxt], err[nxt, 0], err[nxt, 1])
        accept = restart or cost_c < cost
        if restart or cost_c < 0.75 * cost:
            stall = 0
        else:
            stall += 1
        if restart:
            lam = restart_lam
        else:
            lam = max(lam * (0.3 if accept else 10.0), 1e-10)
        if accept:
            cur = nxt
            cost = cost_c
            _jacobian(world[cur], tips[cur], columns, above, weight, jac)
    if reason == CONVERGED or cost <= best_cost:
        out_q[:] = q[cur]
        out_err[:] = err[cur]
    else:
        out_q[:] = best_q
        _chain(nodes, node_parent, tip_parent, tip_constant, best_q, world[0], tips[0])
        _residual(tips[0], target, weight, e[0], out_err[0], out_err[1])
    return reason, iterations, restarts


@numba.njit(cache=True, error_model='numpy', nogil=True)
def solve_serial(nodes, node_parent, tip_parent, tip_constant, columns, bounds, settings,
                 targets, seeds, states, limits, deadline, out_q, out_err, out_stats):
    """
    :func:`solve_into` for every target in turn.

    The GIL is released: other threads, such as the node's ``/tf`` path, run while it solves.
    ``limits`` ``(B, 2)`` and ``out_stats`` ``(B, 3)`` (reason, iterations, restarts) are
    int64 arrays.
    """
    for b in range(len(targets)):
        reason, iterations, restarts = solve_into(
            nodes, node_parent, tip_parent, tip_constant, columns, bounds, settings,
            targets[b], seeds[b], states[b], limits[b], deadline, out_q[b], out_err[b])
        out_stats[b, 0] = reason
        out_stats[b, 1] = iterations
        out_stats[b, 2] = restarts


@numba.njit(cache=True, error_model='numpy', parallel=True, nogil=True)
def solve_parallel(nodes, node_parent, tip_parent, tip_constant, columns, bounds, settings,
                   targets, seeds, states, limits, deadline, out_q, out_err, out_stats):
    """
    :func:`solve_serial` with the targets shared among threads (``prange``).

    With a parallel chunk size set by the caller (``numba.set_parallel_chunksize``), the
    threads take that many targets at a time as they finish the previous ones.
    """
    for b in numba.prange(len(targets)):
        reason, iterations, restarts = solve_into(
            nodes, node_parent, tip_parent, tip_constant, columns, bounds, settings,
            targets[b], seeds[b], states[b], limits[b], deadline, out_q[b], out_err[b])
        out_stats[b, 0] = reason
        out_stats[b, 1] = iterations
        out_stats[b, 2] = restarts
