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
damping up or down as a step is rejected or accepted, random restarts when the cost stalls or
the damping explodes, the best configuration kept: the schedule, its constants and rules, of
:mod:`frame_kinematics.core.ik.schedule`. One seed advances at a time (the numpy engine's
parallel seeds amortise numpy's call overhead, which compiled code does not have). The deadline
is checked at every iteration. The pieces of an iteration (residual, Jacobian, damped step) are
in :mod:`.lm`.

Supported problems (``CompiledChain.supports``): per-tip weights equal on the three position
axes and on the three rotation axes, any active joints (floating and planar joints integrate
their step on SE(3) and SE(2), :mod:`.integrate`; with them, no step is solved again without
the joints at a limit, as in the numpy engine), a rest posture with one-dof active joints
only; the numpy engine solves the others.
"""

import numba
import numpy as np

from .integrate import integrate, normalize, wrap
from .lm import damped_step, residual, tip_jacobian
from .poses import poses_into
from .runtime import monotonic, uniform
from .transforms import load, product, store
from ..ik.schedule import (ABANDON_PROGRESS, CLAMP_AFTER, DAMPING_DECREASE, DAMPING_INCREASE,
                           DAMPING_MAX, DAMPING_MIN, ERROR_DAMPING, RESTART_DAMPING,
                           RESTART_DAMPING_CAP, STALL_ITERATIONS, STALL_PROGRESS,
                           STOP_CONVERGED, STOP_MAX_ITERATIONS, STOP_MAX_RESTARTS, STOP_REASONS,
                           STOP_STALLED, STOP_TIME_BUDGET)

#: Stop reasons as the compiled code returns them: their index in
#: :data:`~frame_kinematics.core.ik.schedule.STOP_REASONS`.
CONVERGED, MAX_ITERATIONS, MAX_RESTARTS, TIME_BUDGET, STALLED = (
    STOP_REASONS.index(name) for name in (STOP_CONVERGED, STOP_MAX_ITERATIONS, STOP_MAX_RESTARTS,
                                          STOP_TIME_BUDGET, STOP_STALLED))


@numba.njit(error_model='numpy')
def _chain(table, tip_parent, tip_constant, q, world, tips):
    """
    Node poses ``world`` and tip poses ``tips`` of a reduced configuration ``q``.

    :param table: the node kernel, packed (:func:`~.tables.pack_kernel`): its poses come from
        the model's pose loop (:func:`~.poses.poses_into`).
    """
    poses_into(table, q, world, world, False)
    for t in range(len(tip_parent)):
        if tip_parent[t] < 0:
            store(load(tip_constant, t), tips, t)
        else:
            store(product(world, tip_parent[t], load(tip_constant, t)), tips, t)


@numba.njit(error_model='numpy')
def solve_into(table, node_parent, tip_parent, tip_constant, columns, bounds, settings,
               target, seed, state, limits, deadline, out_q, out_err):
    """
    Solve one target; write the configuration and the per-tip errors, return the stop data.

    :param table: the node kernel, packed (:func:`~.tables.pack_kernel`).
    :param node_parent: ``(n_nodes,)`` the node above every node (-1: the root).
    :param tip_parent: ``(n_tips,)`` the node above every tip (-1: the root).
    :param tip_constant: ``(n_tips, 4, 4)`` the constant ``node_T_tip`` of every tip
        (``root_T_tip`` for a tip without a node above it).
    :param columns: its ``(column_row, column_v, column_multiplier, column_twist)``.
    :param bounds: ``(lower, upper, sample_lower, sample_width, bounded, continuous, *steps,
        weight, rest)``: the limits (within ``MAX_MAGNITUDE``), the restart draws
        (:class:`~frame_kinematics.core.ik.sampler.Sampler`), which entries are continuous
        angles, the six index arrays of :func:`~.integrate.integrate`, the per-tip
        ``(linear, angular)`` weights and the reduced rest posture (empty: none; one-dof
        joints only).
    :param settings: ``(tol_p, tol_o, damping, rest_gain, clock_id, time_slice)``: a solve
        stops at ``deadline`` or ``time_slice`` seconds after it starts, whichever comes
        first.
    :param target: ``(n_tips, 4, 4)`` ``root_T_target``.
    :param seed: the reduced seed ``(n,)``, its continuous angles in ``[-pi, pi]``.
    :param state: the uint64 generator state ``(1,)`` of this solve.
    :param limits: ``(max_iterations, max_restarts, window)`` of this solve (-1: no restart
        limit; ``window``: the iterations of the stall rule's check, -1: no check).
    :param deadline: clock value at which to stop.
    :param out_q: ``(n,)`` the configuration found.
    :param out_err: ``(2, n_tips)`` its position and orientation errors.
    :return: ``(reason, iterations, restarts)``.
    """
    (lower, upper, sample_lower, sample_width, bounded, continuous, one_q, one_v, floating_q,
     floating_v, planar_q, planar_v, weight, rest) = bounds
    steps = (one_q, one_v, floating_q, floating_v, planar_q, planar_v)
    tol_p, tol_o, damping, rest_gain, clock_id, time_slice = settings
    with_rest = len(rest) > 0
    max_iterations, max_restarts, window = limits[0], limits[1], limits[2]
    nq, n_nodes, n_tips = len(seed), len(node_parent), len(tip_parent)
    # one-dof joints only: q and v are the same; else each step is integrated
    simple = len(steps[2]) == 0 and len(steps[4]) == 0
    n = len(steps[1]) + 6 * len(steps[3]) + 3 * len(steps[5])
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
    q = np.empty((2, nq))
    jac = np.empty((m, n))
    size = max(m, n)
    gram = np.empty((size, size))
    rhs = np.empty(size)
    dq = np.empty(n)
    free = np.ones(n, dtype=np.bool_)
    held = np.empty((m, n))
    bias = np.zeros(n)
    best_q = np.empty(nq)
    clock = np.zeros(2, dtype=np.int64)
    deadline = min(deadline, monotonic(clock_id, clock) + time_slice)
    for j in range(nq):
        q[0, j] = min(max(seed[j], lower[j]), upper[j])
    normalize(q[0], steps)
    cur = 0
    _chain(table, tip_parent, tip_constant, q[0], world[0], tips[0])
    cost = residual(tips[0], target, weight, e[0], err[0, 0], err[0, 1])
    tip_jacobian(world[0], tips[0], columns, above, weight, jac)
    best_cost = np.inf
    lam = damping
    restart_lam = min(damping * RESTART_DAMPING, max(damping, RESTART_DAMPING_CAP))
    stall = 0
    lowest, mark = np.inf, np.inf
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
        lowest = min(lowest, cost)
        if window > 0 and iterations > 0 and iterations % window == 0:
            if lowest > ABANDON_PROGRESS * mark:
                reason = STALLED
                break
            mark = lowest
        restart = stall >= STALL_ITERATIONS or lam > DAMPING_MAX
        if restart and 0 <= max_restarts <= restarts:
            reason = MAX_RESTARTS
            break
        iterations += 1
        nxt = 1 - cur
        if restart:
            if cost < best_cost:
                best_cost = cost
                best_q[:] = q[cur]
            for j in range(nq):
                q[nxt, j] = sample_lower[j] + uniform(state) * sample_width[j] \
                    if bounded[j] else seed[j]
            normalize(q[nxt], steps)
            restarts += 1
        else:
            if with_rest:
                # rest_gain times the difference to the rest posture, the short way round
                for j in range(n):
                    d = rest[j] - q[cur, j]
                    if continuous[j]:
                        d = wrap(d)
                    bias[j] = rest_gain * d
            damped = lam + ERROR_DAMPING * cost
            damped_step(jac, e[cur], damped, gram, rhs, dq, bias, with_rest)
            if iterations > CLAMP_AFTER and simple:
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
                    damped_step(held, e[cur], damped, gram, rhs, dq, bias, with_rest)
                    for j in range(n):
                        if not free[j]:
                            dq[j] = 0.0
            if simple:
                for j in range(n):
                    q[nxt, j] = min(max(q[cur, j] + dq[j], lower[j]), upper[j])
            else:
                integrate(q[cur], dq, steps, q[nxt])
                for j in range(nq):
                    q[nxt, j] = min(max(q[nxt, j], lower[j]), upper[j])
            # every iterate is the configuration returned: continuous angles in [-pi, pi)
            for j in range(nq):
                if continuous[j]:
                    q[nxt, j] = wrap(q[nxt, j])
        _chain(table, tip_parent, tip_constant, q[nxt], world[nxt], tips[nxt])
        cost_c = residual(tips[nxt], target, weight, e[nxt], err[nxt, 0], err[nxt, 1])
        accept = restart or cost_c < cost
        if restart or cost_c < (1.0 - STALL_PROGRESS) * cost:
            stall = 0
        else:
            stall += 1
        if restart:
            lam = restart_lam
        else:
            lam = max(lam * (DAMPING_DECREASE if accept else DAMPING_INCREASE), DAMPING_MIN)
        if accept:
            cur = nxt
            cost = cost_c
            tip_jacobian(world[cur], tips[cur], columns, above, weight, jac)
    if reason == CONVERGED or cost <= best_cost:
        out_q[:] = q[cur]
        out_err[:] = err[cur]
    else:
        out_q[:] = best_q
        _chain(table, tip_parent, tip_constant, best_q, world[0], tips[0])
        residual(tips[0], target, weight, e[0], out_err[0], out_err[1])
    return reason, iterations, restarts


@numba.njit(error_model='numpy')
def _solve_target(table, node_parent, tip_parent, tip_constant, columns, bounds, settings,
                  targets, seeds, states, limits, deadline, out_q, out_err, out_stats, b):
    """
    :func:`solve_into` for target ``b`` of a batch; write its row of ``out_stats``.

    The arguments are those of :func:`solve_serial`, and ``b`` the target's index.
    """
    reason, iterations, restarts = solve_into(
        table, node_parent, tip_parent, tip_constant, columns, bounds, settings,
        targets[b], seeds[b], states[b], limits[b], deadline, out_q[b], out_err[b])
    out_stats[b, 0] = reason
    out_stats[b, 1] = iterations
    out_stats[b, 2] = restarts


@numba.njit(error_model='numpy', nogil=True)
def solve_serial(table, node_parent, tip_parent, tip_constant, columns, bounds, settings,
                 targets, seeds, states, limits, deadline, out_q, out_err, out_stats):
    """
    :func:`solve_into` for every target in turn.

    The GIL is released: other threads, such as the node's ``/tf`` path, run while it solves.
    ``limits`` ``(B, 3)`` and ``out_stats`` ``(B, 3)`` (reason, iterations, restarts) are
    int64 arrays.
    """
    for b in range(len(targets)):
        _solve_target(table, node_parent, tip_parent, tip_constant, columns, bounds, settings,
                      targets, seeds, states, limits, deadline, out_q, out_err, out_stats, b)


@numba.njit(error_model='numpy', parallel=True, nogil=True)
def solve_parallel(table, node_parent, tip_parent, tip_constant, columns, bounds, settings,
                   targets, seeds, states, limits, deadline, out_q, out_err, out_stats):
    """
    :func:`solve_serial` with the targets shared among threads (``prange``).

    With a parallel chunk size set by the caller (``numba.set_parallel_chunksize``), the
    threads take that many targets at a time as they finish the previous ones.
    """
    for b in numba.prange(len(targets)):
        _solve_target(table, node_parent, tip_parent, tip_constant, columns, bounds, settings,
                      targets, seeds, states, limits, deadline, out_q, out_err, out_stats, b)
