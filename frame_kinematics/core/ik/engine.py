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
The vectorised Levenberg-Marquardt loop over targets x parallel seeds.

Every target gets ``parallel_seeds`` slots (its seed and random ones), each with its own
damping, advanced together as one batch of the chain evaluator. A step that lowers a slot's
cost is accepted and the damping lowered, otherwise the damping is raised; a slot whose cost
stalls or whose damping explodes is restarted from a random configuration. A target retires
as soon as one of its slots meets both tolerances, or at the iteration, restart or time
limit, with the best configuration seen. When few slots are left in flight the remaining
targets get more parallel seeds. The damping, stall and restart rules and their constants are
those of :mod:`.schedule`, which the compiled engine reads too.
"""

import time
from typing import Optional

import numpy as np

from .chain import ChainEvaluator
from .residual import PoseResidual
from .sampler import Sampler
from .schedule import (ABANDON_ITERATIONS, ABANDON_PROGRESS, CLAMP_AFTER, DAMPING_DECREASE,
                       DAMPING_INCREASE, DAMPING_MAX, DAMPING_MIN, ERROR_DAMPING,
                       RESTART_DAMPING, RESTART_DAMPING_CAP, STALL_ITERATIONS, STALL_PROGRESS,
                       STOP_CONVERGED, STOP_MAX_ITERATIONS, STOP_MAX_RESTARTS, STOP_STALLED,
                       STOP_TIME_BUDGET)
from ..joints import wrap_angle

#: Most seeds in flight at once, counted in chain nodes: a batch of ``B`` targets on a chain of
#: ``N`` nodes starts with at most ``MAX_NODE_SLOTS // (B N)`` parallel seeds per target (one
#: at least), so that an iteration, between two looks at the clock, stays short (2,000
#: targets of 1,024 seeds ran 50 times their budget).
MAX_NODE_SLOTS = 1 << 18
#: When a batch has at most this many seeds left in flight ...
WIDEN_SLOTS = 256
#: ... each remaining target gets up to this many parallel seeds ...
WIDEN_SEEDS = 16
#: ... twice as many from the first of these iterations on, three times from the second.
WIDEN_AT = (8, 16)


class Engine:
    """The vectorised LM loop of one call (its scratch is its own: one engine per call)."""

    def __init__(self, evaluator: ChainEvaluator, problem: PoseResidual,
                 rng: np.random.Generator, parallel_seeds: int, max_iterations: int,
                 max_restarts: Optional[int], damping: float, rest: Optional[np.ndarray],
                 rest_gain: float, abandon_stalled: bool = False) -> None:
        """
        Set up a solve.

        :param evaluator: the chain evaluator.
        :param problem: the residual and tolerances.
        :param rng: generator of the restarts.
        :param parallel_seeds: slots per target at the start (at most
            :data:`MAX_NODE_SLOTS` chain nodes in all).
        :param max_iterations: iteration limit per target.
        :param max_restarts: limit of random seeds per target (None: unlimited).
        :param damping: initial damping.
        :param rest: reduced rest posture pulled toward in the null space (or None).
        :param rest_gain: gain of that pull.
        :param abandon_stalled: whether to abandon stalled targets (:mod:`.schedule`).
        """
        self.ev = evaluator
        self.abandon_stalled = abandon_stalled
        self.problem = problem
        self.sampler = Sampler(evaluator.layout, rng)
        self.k = parallel_seeds
        self.max_iterations = max_iterations
        self.max_restarts = max_restarts
        self.damping = max(damping, DAMPING_MIN)
        self.rest = rest
        self.rest_gain = rest_gain
        self.lower, self.upper = evaluator.selection.lower, evaluator.selection.upper
        self._wrap = evaluator.layout.wrap_q if evaluator.layout.simple else ()
        self._eyes = {}

    def _eye(self, size: int) -> np.ndarray:
        eye = self._eyes.get(size)
        if eye is None:
            eye = self._eyes[size] = np.eye(size)
        return eye

    def _evaluate(self, q: np.ndarray, targets: np.ndarray):
        poses = self.ev._forward(q)  # the engine's own iterates, from a checked seed
        metrics, rotate = self.problem.residual(poses[self.ev.n_nodes:], targets)
        return poses, metrics, rotate

    def _step(self, q, poses, residual, rotate, lam, clamp: bool):
        jac = self.problem.weighted_jacobian(self.ev._jacobian(poses), rotate)
        dq = self._solve(q, jac, residual, lam)
        if clamp and self.ev.layout.simple:
            # Joints at a limit that the step pushes further are taken out and the step
            # solved again, so that the other joints make up for them.
            blocked = ((q <= self.lower) & (dq < 0)) | ((q >= self.upper) & (dq > 0))
            if len(q) > 64:
                rows = np.nonzero(blocked.any(axis=1))[0]
                if len(rows):
                    free = ~blocked[rows]
                    sub = self._solve(q[rows], jac[rows] * free[:, None, :], residual[rows],
                                      lam[rows])
                    dq[rows] = sub * free
            elif blocked.any():
                dq = self._solve(q, jac * ~blocked[:, None, :], residual, lam)
                dq[blocked] = 0.0
        return dq

    def _solve(self, q, jac, residual, lam):
        m, n = jac.shape[1], jac.shape[2]
        jac_t = np.swapaxes(jac, -1, -2)
        if self.rest is not None or m <= n:
            gram = jac @ jac_t
            gram += lam[:, None, None] * self._eye(m)
            if self.rest is not None:
                bias = self.rest_gain * self.ev.layout.difference(q, self.rest)
                rhs = np.stack([residual, (jac @ bias[..., None])[..., 0]], axis=-1)
                sol = jac_t @ _linear_solve(gram, rhs)
                return sol[..., 0] + bias - sol[..., 1]
            return (jac_t @ _linear_solve(gram, residual[..., None]))[..., 0]
        gram = jac_t @ jac
        gram += lam[:, None, None] * self._eye(n)
        return _linear_solve(gram, (jac_t @ residual[..., None]))[..., 0]

    def _move(self, q, dq):
        moved = q + dq if self.ev.layout.simple else self.ev.layout.integrate(q, dq)
        np.maximum(moved, self.lower, out=moved)
        np.minimum(moved, self.upper, out=moved)
        if len(self._wrap):
            # every iterate is the configuration returned: continuous angles in [-pi, pi)
            # (integrate wraps them already)
            moved[:, self._wrap] = wrap_angle(moved[:, self._wrap])
        return moved

    def _widen(self, k, k_new, ids, out, q, slot_seed, slot_targets, poses, metrics, rotate,
               lam, initial_lam, stall):
        """Give each remaining target ``k_new`` parallel seeds instead of ``k``."""
        count = len(ids)
        extra = k_new - k
        seed_x = np.repeat(slot_seed[::k], extra, axis=0)
        targets_x = np.repeat(slot_targets[::k], extra, axis=0)
        q_x = self.sampler.sample(seed_x)
        poses_x, metrics_x, rotate_x = self._evaluate(q_x, targets_x)
        out.restarts[ids] += extra
        lam_x = np.tile(self.damping * np.logspace(0.0, 2.0, k_new)[k:], count)

        def merge(a, b, axis=0):
            shape_a = a.shape[:axis] + (count, k) + a.shape[axis + 1:]
            shape_b = b.shape[:axis] + (count, extra) + b.shape[axis + 1:]
            joined = np.concatenate([a.reshape(shape_a), b.reshape(shape_b)], axis=axis + 1)
            return joined.reshape(a.shape[:axis] + (count * k_new,) + a.shape[axis + 1:])

        return (merge(q, q_x), merge(slot_seed, seed_x), merge(slot_targets, targets_x),
                merge(poses, poses_x, 1), merge(metrics, metrics_x),
                None if rotate is None else merge(rotate, rotate_x, 1), merge(lam, lam_x),
                merge(initial_lam, lam_x), merge(stall, np.zeros(count * extra, dtype=int)))

    def run(self, seeds: np.ndarray, targets: np.ndarray, deadline: float) -> 'Outcome':
        """
        Solve ``targets`` (``(B, n_tips, 4, 4)``) from ``seeds`` (``(B, n)`` reduced).

        :param seeds: one reduced seed per target (its quaternions are taken with ``w >= 0``,
            the sign every step gives them, as the compiled solve takes them).
        :param targets: ``root_T_target`` per target and tip.
        :param deadline: ``time.perf_counter()`` value at which to stop.
        :return: the per-target outcome.
        """
        seeds = self.ev.layout.positive_w(seeds)
        problem = self.problem
        count, n_tips = len(seeds), problem.n_tips
        k = max(1, min(self.k, MAX_NODE_SLOTS // max(count * self.ev.n_nodes, 1)))
        m = len(problem.rows)
        pos_cols, ori_cols = slice(m, m + n_tips), slice(m + n_tips, m + 2 * n_tips)
        out = Outcome(seeds, n_tips)
        if not count:
            return out
        ids = np.arange(count)
        slot_seed = np.repeat(seeds, k, axis=0)
        q = slot_seed.copy()
        if k > 1:
            fresh = np.ones(count * k, dtype=bool)
            fresh[::k] = False
            q[fresh] = self.sampler.sample(slot_seed[fresh])
            out.restarts += k - 1
        slot_targets = np.repeat(targets, k, axis=0)
        poses, metrics, rotate = self._evaluate(q, slot_targets)
        initial_lam = np.tile(self.damping * np.logspace(0.0, 2.0, k), count) if k > 1 \
            else np.full(count, self.damping)
        lam = initial_lam.copy()
        stall = np.zeros(count * k, dtype=int)
        tol_p, tol_o = problem.position_tolerance, problem.orientation_tolerance
        iteration = 0
        limited = self.max_restarts is not None
        lowest, mark = np.full(count, np.inf), np.full(count, np.inf)
        while True:
            ok = (metrics[:, pos_cols] < tol_p) & (metrics[:, ori_cols] < tol_o)
            converged = ok[:, 0] if n_tips == 1 else ok.all(axis=1)
            retire = None
            if converged.any():
                retire = out.converged(ids, converged.reshape(-1, k), q, metrics, m)
            if iteration >= self.max_iterations:
                if retire is not None:
                    out.finish(ids[retire], None, iteration)
                    left = ~retire
                    ids, slots = ids[left], np.repeat(left, k)
                    q, metrics = q[slots], metrics[slots]
                out.record(ids, q, metrics, m)
                out.finish(ids, STOP_MAX_ITERATIONS, iteration)
                break
            if self.abandon_stalled:
                lowest[ids] = np.minimum(lowest[ids], metrics[:, -1].reshape(-1, k).min(axis=1))
                if iteration and iteration % ABANDON_ITERATIONS == 0:
                    stalled = lowest[ids] > ABANDON_PROGRESS * mark[ids]
                    if retire is not None:
                        stalled &= ~retire
                    mark[ids] = lowest[ids]
                    if stalled.any():
                        slots = np.repeat(stalled, k)
                        out.record(ids[stalled], q[slots], metrics[slots], m)
                        out.finish(ids[stalled], STOP_STALLED, iteration)
                        retire = stalled if retire is None else retire | stalled
            if limited:
                wanted = (stall >= STALL_ITERATIONS) | (lam > DAMPING_MAX)
                exhausted = (out.restarts[ids] >= self.max_restarts) & \
                    wanted.reshape(-1, k).all(axis=1)
                if retire is not None:
                    exhausted &= ~retire
                if exhausted.any():
                    slots = np.repeat(exhausted, k)
                    out.record(ids[exhausted], q[slots], metrics[slots], m)
                    out.finish(ids[exhausted], STOP_MAX_RESTARTS, iteration)
                    retire = exhausted if retire is None else retire | exhausted
            if retire is not None and retire.any():
                out.finish(ids[retire], None, iteration)
                keep = ~retire
                ids = ids[keep]
                if not len(ids):
                    break
                slots = np.repeat(keep, k)
                q, slot_seed, slot_targets = q[slots], slot_seed[slots], slot_targets[slots]
                poses, metrics, lam, stall = poses[:, slots], metrics[slots], lam[slots], \
                    stall[slots]
                initial_lam = initial_lam[slots]
                if rotate is not None:
                    rotate = rotate[:, slots]
            if not limited and (retire is not None or iteration in WIDEN_AT):
                widest = WIDEN_SEEDS if iteration < WIDEN_AT[0] else \
                    WIDEN_SEEDS * (2 + (iteration >= WIDEN_AT[1]))
                k_new = min(widest, WIDEN_SLOTS // len(ids))
                if k_new > k:
                    (q, slot_seed, slot_targets, poses, metrics, rotate, lam, initial_lam,
                     stall) = self._widen(k, k_new, ids, out, q, slot_seed, slot_targets,
                                          poses, metrics, rotate, lam, initial_lam, stall)
                    k = k_new
            if time.perf_counter() >= deadline:
                out.record(ids, q, metrics, m)
                out.finish(ids, STOP_TIME_BUDGET, iteration)
                break
            iteration += 1
            damped = lam + ERROR_DAMPING * metrics[:, -1]
            candidate = self._move(q, self._step(q, poses, metrics[:, :m], rotate, damped,
                                                 iteration > CLAMP_AFTER))
            restart = (stall >= STALL_ITERATIONS) | (lam > DAMPING_MAX)
            any_restart = restart.any()
            if any_restart:
                if limited:
                    left = np.repeat(self.max_restarts - out.restarts[ids], k)
                    restart &= np.cumsum(restart.reshape(-1, k), axis=1).reshape(-1) <= left
                out.record(ids, q, metrics, m)
                candidate[restart] = self.sampler.sample(slot_seed[restart])
                np.add.at(out.restarts, ids[np.nonzero(restart)[0] // k], 1)
            poses_c, metrics_c, rotate_c = self._evaluate(candidate, slot_targets)
            cost, cost_c = metrics[:, -1], metrics_c[:, -1]
            accept = cost_c < cost
            progress = cost_c < (1.0 - STALL_PROGRESS) * cost
            if any_restart:
                accept |= restart
                progress |= restart
            stall += 1
            stall[progress] = 0
            lam = lam * np.where(accept, DAMPING_DECREASE, DAMPING_INCREASE)
            np.maximum(lam, DAMPING_MIN, out=lam)
            if any_restart:
                initial = initial_lam[restart]
                lam[restart] = np.minimum(RESTART_DAMPING * initial,
                                          np.maximum(initial, RESTART_DAMPING_CAP))
            if not accept.all():
                # Rejected steps keep their previous state (copied into the fresh arrays).
                kept = np.nonzero(~accept)[0]
                candidate[kept] = q[kept]
                poses_c[:, kept] = poses[:, kept]
                metrics_c[kept] = metrics[kept]
                if rotate is not None:
                    rotate_c[:, kept] = rotate[:, kept]
            q, poses, metrics, rotate = candidate, poses_c, metrics_c, rotate_c
        return out


def _linear_solve(gram: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """
    Solve a stack of damped normal equations ``gram x = rhs``.

    A damping lost against huge entries (far targets, huge weights) can leave a system
    exactly singular: then every system of the stack is solved in the least-squares sense,
    one at a time, and one that is not finite takes no step.

    :param gram: ``(N, k, k)``.
    :param rhs: ``(N, k, r)``.
    :return: ``(N, k, r)``.
    """
    try:
        return np.linalg.solve(gram, rhs)
    except np.linalg.LinAlgError:
        out = np.zeros(rhs.shape)
        for i in range(len(gram)):
            if np.isfinite(gram[i]).all() and np.isfinite(rhs[i]).all():
                out[i] = np.linalg.lstsq(gram[i], rhs[i], rcond=None)[0]
        return out


class Outcome:
    """Per-target bookkeeping of :meth:`Engine.run`: best configuration seen and stop data."""

    def __init__(self, seeds: np.ndarray, n_tips: int) -> None:
        """
        Start the bookkeeping: every target at its seed, unsolved, with an infinite cost.

        :param seeds: one reduced seed per target (copied).
        :param n_tips: number of tips.
        """
        count = len(seeds)
        self.q = seeds.copy()
        self.cost = np.full(count, np.inf)
        self.pos = np.full((count, n_tips), np.inf)
        self.ori = np.full((count, n_tips), np.inf)
        self.iterations = np.zeros(count, dtype=int)
        self.restarts = np.zeros(count, dtype=int)
        self.reasons = np.full(count, STOP_TIME_BUDGET, dtype=object)
        self.success = np.zeros(count, dtype=bool)

    def record(self, ids, q, metrics, m: int) -> None:
        """
        Keep, for each target in ``ids``, its lowest-cost slot if better than before.

        :param ids: indices of the targets in flight.
        :param q: the slots' configurations, the slots of each target side by side.
        :param metrics: the slots' metrics (:meth:`PoseResidual.residual
            <.residual.PoseResidual.residual>`), in the order of ``q``.
        :param m: number of residual rows (where the per-tip errors start in ``metrics``).
        """
        if not len(ids):
            return
        n_tips = self.pos.shape[1]
        cost = metrics[:, -1]
        k = len(cost) // len(ids)
        pick = np.argmin(cost.reshape(-1, k), axis=1)
        slot = np.arange(len(ids)) * k + pick
        better = cost[slot] < self.cost[ids]
        who, slot = ids[better], slot[better]
        self.cost[who] = cost[slot]
        self.q[who] = q[slot]
        self.pos[who] = metrics[slot, m:m + n_tips]
        self.ori[who] = metrics[slot, m + n_tips:m + 2 * n_tips]

    def converged(self, ids, converged_mk, q, metrics, m: int) -> np.ndarray:
        """
        Store the first converged slot of each solved target; return the solved mask.

        :param ids: indices of the targets in flight.
        :param converged_mk: which slots met both tolerances, one row per target in ``ids``.
        :param q: the slots' configurations, the slots of each target side by side.
        :param metrics: the slots' metrics (:meth:`PoseResidual.residual
            <.residual.PoseResidual.residual>`), in the order of ``q``.
        :param m: number of residual rows (where the per-tip errors start in ``metrics``).
        :return: for each target in ``ids``, whether it is solved.
        """
        n_tips = self.pos.shape[1]
        done = converged_mk.any(axis=1)
        slot = (np.arange(len(ids)) * converged_mk.shape[1] + np.argmax(converged_mk, axis=1))
        slot = slot[done]
        who = ids[done]
        self.q[who] = q[slot]
        self.pos[who] = metrics[slot, m:m + n_tips]
        self.ori[who] = metrics[slot, m + n_tips:m + 2 * n_tips]
        self.success[who] = True
        self.reasons[who] = STOP_CONVERGED
        return done

    def finish(self, ids, reason: Optional[str], iteration: int) -> None:
        """
        Set the iteration count (and the stop reason if given) of retiring targets.

        :param ids: indices of the retiring targets.
        :param reason: their stop reason, or None to keep the one they have.
        :param iteration: the iteration they stop at.
        """
        self.iterations[ids] = iteration
        if reason is not None:
            self.reasons[ids] = reason
