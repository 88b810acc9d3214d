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
:class:`CompiledChain`: a chain evaluator's tables for the compiled solve of :mod:`.ik`.

Built once per :class:`~frame_kinematics.core.ik.chain.ChainEvaluator` (on the numba
backend) and kept by it; :meth:`CompiledChain.run` is what
:class:`~frame_kinematics.core.ik.solver.IKSolver` calls instead of the numpy
:class:`~frame_kinematics.core.ik.engine.Engine` for the problems it supports.

One target (:meth:`CompiledChain.solve_one`) is one call of :func:`.ik_one.solve_full` on the
full configuration, after :meth:`CompiledChain.usable` has checked the target and the seed;
the options it needs are prepared once (:func:`prepare`) and kept by the solver.

Time budget: the deadline is read at every iteration inside compiled code, so a solve
returns at most one iteration plus the bookkeeping after it past its deadline (measured in
the manual's performance page), unless the process is preempted. In a batch every target
first gets its share of the time left (one thread's share times the threads), then the
targets that used their share up get the rest, from the best configuration they reached.
"""

import time
from typing import NamedTuple, Optional, Tuple, TYPE_CHECKING

import numba
from numba.core.compiler_lock import global_compiler_lock
import numpy as np

from . import ik, ik_one, lm, tables
from ..ik.sampler import Sampler
from ..ik.schedule import (ABANDON_ITERATIONS, DAMPING_MIN, STOP_CONVERGED, STOP_REASONS,
                           STOP_UNCONFIRMED)
from ..joints import ConfigurationLayout, frozen, JointKernel, JointType
from ..topology import Topology

if TYPE_CHECKING:  # pragma: no cover
    from . import Accelerator
    from ..ik.chain import ChainEvaluator
    from ..ik.residual import PoseResidual

#: numba's threading layers that several Python threads may call at once.
THREAD_SAFE_LAYERS = ('tbb', 'omp')
#: Batches at least this large are shared among threads ...
PARALLEL_BATCH = 64
#: ... this many targets at a time.
CHUNK = 64
_CLOCK = time.CLOCK_MONOTONIC


def _pack_nodes(kernel: JointKernel, node_parent: np.ndarray,
                layout: ConfigurationLayout) -> np.ndarray:
    """
    Pack a chain's node kernel for the model's pose loop (:func:`~.tables.pack_kernel`).

    A chain may have several nodes without a node above them: a tree under a virtual root
    gives their subtrees.
    """
    tree = Topology(np.concatenate([[-1], np.asarray(node_parent, dtype=np.int64) + 1]))
    return tables.pack_kernel(kernel, node_parent, tree.subtree_end[1:] - 1, layout)


class CompiledChain:
    """The tables of one chain evaluator, as the compiled solve reads them (read-only)."""

    def __init__(self, evaluator: 'ChainEvaluator', accelerator: 'Accelerator') -> None:
        """
        Gather the tables.

        :param evaluator: the chain evaluator (its node kernel, node and tip parents, tip
            constants and layout).
        :param accelerator: the compiled face of the evaluator's model (its solve threads).
        """
        kernel = evaluator.kernel
        self._table = _pack_nodes(kernel, evaluator.node_parent, evaluator.layout)
        self.columns = (kernel.column_row, kernel.column_v, kernel.column_multiplier,
                        kernel.column_twist)
        self.node_parent = evaluator.node_parent
        self.tip_parent = evaluator.tip_parent
        self.tip_constant = evaluator.tip_constant
        layout = evaluator.layout
        sampler = Sampler(layout, np.random.default_rng(0))
        continuous = np.zeros(layout.nq, dtype=bool)
        continuous[layout.wrap_q] = True

        def indices(pairs, which):
            return frozen(np.array([pair[which] for pair in pairs], dtype=np.int64))

        steps = (layout.one_q, layout.one_v, indices(layout.floating, 0),
                 indices(layout.floating, 1), indices(layout.planar, 0),
                 indices(layout.planar, 1))
        selection = evaluator.selection
        self.limits = (selection.lower, selection.upper, frozen(sampler.lower),
                       frozen(sampler.width), frozen(sampler.bounded), frozen(continuous)) + steps
        self.simple = evaluator.layout.simple
        model = evaluator.model
        self._threads = accelerator.threads
        self._pose = accelerator._pose
        self._tip_bodies = tuple(int(body) for body in evaluator.selection.tip_bodies)
        self._tables = (self._table, self.node_parent, self.tip_parent, self.tip_constant,
                        self.columns)
        self._q_index = evaluator.q_index
        lower, upper = model.layout.lower.copy(), model.layout.upper.copy()
        for iq, _, _ in model.layout.floating:
            # quaternions are normalised, not checked against limits
            lower[iq + 3:iq + 7], upper[iq + 3:iq + 7] = -np.inf, np.inf
        # a continuous angle outside [-pi, pi) is wrapped first, by the general path
        lower[model.layout.wrap_q] = -np.pi
        upper[model.layout.wrap_q] = np.nextafter(np.pi, 0.0)
        self._seed_limits = (frozen(lower), frozen(upper))
        self._no_rest = frozen(np.zeros(0))

    def supports(self, problem: 'PoseResidual', rest: Optional[np.ndarray]) -> bool:
        """
        Whether the compiled solve handles a problem (else the numpy engine does).

        :param problem: the residual: its weights must be equal on the position axes and on
            the rotation axes of each tip.
        :param rest: a rest posture (or None).
        :return: True for such weights, without a rest posture or with one-dof active joints
            only.
        """
        return problem.isotropic and (rest is None or self.simple)

    def run(self, seeds: np.ndarray, targets: np.ndarray, problem: 'PoseResidual',
            rng: np.random.Generator, max_iterations: int, max_restarts: Optional[int],
            damping: float, deadline: float, parallel_seeds: int = 1,
            rest: Optional[np.ndarray] = None, rest_gain: float = 0.0,
            abandon_stalled: bool = False) -> 'CompiledOutcome':
        """
        Solve ``targets`` (``(B, n_tips, 4, 4)``) from reduced ``seeds`` (``(B, n)``).

        :param seeds: one reduced seed per target.
        :param targets: ``root_T_target`` per target and tip.
        :param problem: the residual (weights and tolerances).
        :param rng: the call's generator (one draw per target seeds its restarts).
        :param max_iterations: iteration limit per target (see :func:`prepare`).
        :param max_restarts: restart limit per target (None: unlimited).
        :param damping: initial damping.
        :param deadline: ``time.perf_counter()`` value at which to stop.
        :param parallel_seeds: seeds the numpy engine would advance together.
        :param rest: reduced rest posture pulled toward in the null space (or None).
        :param rest_gain: gain of that pull.
        :param abandon_stalled: whether to abandon stalled targets (see :func:`prepare`).
        :return: the per-target outcome (the best configuration of each target).
        """
        count, n_tips = len(seeds), problem.n_tips
        if not count:
            empty = np.zeros(0, dtype=np.int64)
            return CompiledOutcome(np.array(seeds, dtype=float), np.zeros(0, dtype=bool),
                                   np.zeros((0, n_tips)), np.zeros((0, n_tips)), empty, empty,
                                   np.zeros(0, dtype=object))
        prepared = prepare(problem, max_iterations, max_restarts, damping, parallel_seeds,
                           rest_gain, abandon_stalled)
        weight, settings = prepared.weight, prepared.settings[:-1]
        rest = self._no_rest if rest is None else frozen(np.array(rest, dtype=float))
        targets = np.array(targets, dtype=float, order='C')
        states = rng.bit_generator.random_raw((count, 1))
        q = np.array(seeds, dtype=float, order='C')
        limits = np.empty((count, 3), dtype=np.int64)
        limits[:] = prepared.limits
        err = np.empty((count, 2, n_tips))
        stats = np.empty((count, 3), dtype=np.int64)
        self._round(settings, weight, rest, targets, q, states, limits, deadline, err, stats)
        stopped = stats[:, 0] == ik.TIME_BUDGET
        active = np.nonzero(stopped)[0] if stopped.any() else ()
        while len(active) and time.perf_counter() < deadline:
            # Targets stopped by their share of the time get what is left, in another round,
            # from the best configuration they reached.
            sub_q, sub_states, sub_limits = q[active], states[active], limits[active]
            sub_limits[:, 0] -= stats[active, 1]
            if max_restarts is not None:
                sub_limits[:, 1] -= stats[active, 2]
            sub_err, sub_stats = err[active], np.zeros((len(active), 3), dtype=np.int64)
            self._round(settings, weight, rest, targets[active], sub_q, sub_states,
                        sub_limits, deadline, sub_err, sub_stats)
            q[active], states[active], err[active] = sub_q, sub_states, sub_err
            stats[active, 0] = sub_stats[:, 0]
            stats[active, 1:] += sub_stats[:, 1:]
            active = active[sub_stats[:, 0] == ik.TIME_BUDGET]
        return CompiledOutcome(q, stats[:, 0] == ik.CONVERGED, err[:, 0], err[:, 1],
                               stats[:, 1], stats[:, 2],
                               [STOP_REASONS[r] for r in stats[:, 0].tolist()])

    def usable(self, targets: np.ndarray, q: np.ndarray) -> bool:
        """
        Whether :meth:`solve_one` may take a target and a seed as they are.

        :param targets: ``(n_tips, 4, 4)`` float64, C-contiguous.
        :param q: ``(nq,)`` float64 full seed (validated by ``check_configuration``).
        :return: True when the targets are rigid and the seed is within the limits, its
            continuous angles in ``[-pi, pi)`` (else the general path raises, projects the seed
            or wraps its angles).
        """
        return ik_one.usable(targets, q, *self._seed_limits)

    def solve_one(self, prepared: 'Prepared', targets: np.ndarray, q: np.ndarray,
                  state: np.ndarray, deadline: float
                  ) -> Tuple[bool, str, int, int, np.ndarray]:
        """
        Solve one target from the full seed ``q`` (:meth:`usable`), which becomes the solution.

        :param prepared: the call's options (:func:`prepare`).
        :param targets: ``(n_tips, 4, 4)`` ``root_T_target``, C-contiguous.
        :param q: ``(nq,)`` the seed, overwritten by the solution (continuous angles in
            ``[-pi, pi)``: the configuration its errors were evaluated at).
        :param state: ``(1,)`` uint64 state of the restarts' generator (advanced).
        :param deadline: ``time.perf_counter()`` value at which to stop.
        :return: whether it converged and forward kinematics of the solution confirms it
            (:meth:`confirm`), the stop reason (see
            :data:`~frame_kinematics.core.ik.schedule.STOP_REASONS`), the iterations,
            the restarts, and the ``(2, n_tips)`` position and orientation errors of forward
            kinematics.
        """
        err = np.empty((2, len(targets)))
        reason, iterations, restarts = ik_one.solve_full(
            *self._tables, self.limits + (prepared.weight, self._no_rest), prepared.settings,
            self._q_index, targets, q, state, prepared.limits, _clock_deadline(deadline), err)
        confirmed = self.confirm(prepared, targets, q, err)
        if reason != ik.CONVERGED:
            return False, STOP_REASONS[reason], iterations, restarts, err
        return confirmed, STOP_CONVERGED if confirmed else STOP_UNCONFIRMED, iterations, \
            restarts, err

    def confirm(self, prepared: 'Prepared', targets: np.ndarray, q: np.ndarray,
                err: np.ndarray) -> bool:
        """
        Measure the errors of a solution with forward kinematics, as the solver reports them.

        The chain folds the fixed and held joints into constants and rounds otherwise than
        forward kinematics (of the model, on this backend: the poses of
        :meth:`Accelerator.checked_pose <frame_kinematics.core.accel.Accelerator.checked_pose>`).

        :param prepared: the call's options (weights and tolerances).
        :param targets: ``(n_tips, 4, 4)`` ``root_T_target``, C-contiguous.
        :param q: ``(nq,)`` the solution (a valid configuration).
        :param err: ``(2, n_tips)``: receives forward kinematics' position and orientation
            errors.
        :return: whether both are below the tolerances at every tip (False, ``err`` left as
            it was, for a ``q`` forward kinematics refuses).
        """
        tips = np.empty((len(self._tip_bodies), 4, 4))
        for t, body in enumerate(self._tip_bodies):
            pose = self._pose(q, body)
            if pose is None:  # not a configuration the model takes: nothing confirmed
                return False
            tips[t] = pose
        lm.residual(tips, targets, prepared.weight, np.empty(6 * len(tips)), err[0], err[1])
        tol_p, tol_o = prepared.settings[:2]
        return max(err[0].tolist()) < tol_p and max(err[1].tolist()) < tol_o

    def _round(self, settings, weight, rest, targets, q, states, limits, deadline, err,
               stats):
        """One call of the kernel: every target gets its share of the time left."""
        parallel = self._threads and len(q) >= PARALLEL_BATCH
        share = max(deadline - time.perf_counter(), 0.0) * \
            (numba.get_num_threads() if parallel else 1) / len(q)
        kernel = ik.solve_parallel if parallel else ik.solve_serial
        # Threads take CHUNK targets at a time as they finish the previous ones, so that a
        # thread slowed down by another process (or by harder targets) holds no one up; the
        # chunk size is a setting of this thread, restored after the call.
        previous = numba.set_parallel_chunksize(CHUNK)
        try:
            kernel(*self._tables, self.limits + (weight, rest), settings + (share,), targets,
                   q.copy(), states, limits, _clock_deadline(deadline), q, err, stats)
        finally:
            numba.set_parallel_chunksize(previous)


class Prepared(NamedTuple):
    """The options of a solve as the kernels read them (:func:`prepare`; read-only)."""

    #: ``(n_tips, 2)`` linear and angular weight of each tip.
    weight: np.ndarray
    #: ``(tol_p, tol_o, damping, rest_gain, clock_id, time_slice)`` (no time slice:
    #: infinite).
    settings: tuple
    #: ``(3,)`` int64 ``(max_iterations, max_restarts, window)`` (-1: no restart limit, no
    #: stall check).
    limits: np.ndarray


def prepare(problem: 'PoseResidual', max_iterations: int, max_restarts: Optional[int],
            damping: float, parallel_seeds: int, rest_gain: float = 0.0,
            abandon_stalled: bool = False) -> Prepared:
    """
    Convert validated options to the kernels' arguments.

    :param problem: the residual (isotropic weights, tolerances).
    :param max_iterations: iteration limit per target: an iteration of the numpy engine
        advances ``parallel_seeds`` seeds, so a target gets ``max_iterations *
        parallel_seeds`` single-seed steps here (the reported iterations are steps).
    :param max_restarts: restart limit per target (None: unlimited).
    :param damping: initial damping.
    :param parallel_seeds: seeds the numpy engine would advance together.
    :param rest_gain: gain of the pull toward a rest posture (if there is one).
    :param abandon_stalled: whether to abandon a target by the stall rule of
        :mod:`~frame_kinematics.core.ik.schedule`, checked every ``ABANDON_ITERATIONS *
        parallel_seeds`` single-seed steps (the numpy engine's ``ABANDON_ITERATIONS``
        iterations).
    :return: the prepared arguments.
    """
    weights = problem.weights
    weight = np.empty((problem.n_tips, 2))
    weight[:, 0], weight[:, 1] = weights[:, 0], weights[:, 3]
    settings = (float(problem.position_tolerance), float(problem.orientation_tolerance),
                max(float(damping), DAMPING_MIN), float(rest_gain), _CLOCK, np.inf)
    limits = np.array([max_iterations * parallel_seeds,
                       -1 if max_restarts is None else max_restarts,
                       ABANDON_ITERATIONS * parallel_seeds if abandon_stalled else -1],
                      dtype=np.int64)
    return Prepared(frozen(weight), settings, frozen(limits))


class CompiledOutcome(NamedTuple):
    """Per-target results of :meth:`CompiledChain.run` (the fields the solver reads)."""

    q: np.ndarray
    success: np.ndarray
    pos: np.ndarray
    ori: np.ndarray
    iterations: np.ndarray
    restarts: np.ndarray
    reasons: list


def _clock_deadline(deadline: float) -> float:
    """Convert a ``time.perf_counter()`` deadline to the clock the compiled code reads."""
    return deadline - time.perf_counter() + time.clock_gettime(_CLOCK)


def warm_up() -> bool:
    """
    Load (or compile) the solve kernels on a one-joint chain with the tables' own types.

    Called by the first compiled solver of each executor, before its first solve's time budget
    starts (:attr:`Accelerator.threads <frame_kinematics.core.accel.Accelerator.threads>`).
    The parallel kernel is launched only while numba's compiler lock is held and the threading
    layer is not chosen yet (compiling or loading a parallel kernel chooses it), or when the
    layer is one that several Python threads may call at once: numba's own workqueue layer
    aborts the process when two threads launch at once.

    :return: whether batches run on threads: numba's threading layer is one that several
        Python threads may call at once (:data:`THREAD_SAFE_LAYERS`); otherwise batches run
        on one thread.
    """
    one, eye = frozen([1.0]), frozen(np.eye(4)[None])
    first, root = frozen(np.zeros(1, dtype=np.int64)), frozen(np.full(1, -1, dtype=np.int64))
    none = frozen(np.zeros(0, dtype=np.int64))
    joint = JointKernel([JointType.REVOLUTE], [[0.0, 0.0, 1.0]], eye, [0], [0], [1.0], [0.0])
    nodes = _pack_nodes(joint, root, ConfigurationLayout([('j', JointType.REVOLUTE, -1.0, 1.0)]))
    columns = (first, first, one, frozen([[0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]))
    bounds = (frozen([-1.0]), one, frozen([-1.0]), frozen([2.0]), frozen([True]),
              frozen([False]), first, first, none, none, none, none, frozen([[1.0, 1.0]]),
              frozen(np.zeros(0)))
    settings = (1e-5, 1e-5, 1e-3, 0.0, _CLOCK, 1.0)

    def call(kernel):
        kernel(nodes, root, first, eye, columns, bounds, settings, np.array(eye[None]),
               np.zeros((1, 1)), np.ones((1, 1), dtype=np.uint64),
               np.ones((1, 3), dtype=np.int64), 0.0, np.empty((1, 1)), np.empty((1, 2, 1)),
               np.empty((1, 3), dtype=np.int64))

    call(ik.solve_serial)
    target, q = np.array(eye), np.zeros(1)
    ik_one.usable(target, q, frozen([-1.0]), one)
    err = np.empty((2, 1))
    ik_one.solve_full(nodes, root, first, eye, columns, bounds, settings, first, target, q,
                      np.ones(1, dtype=np.uint64), frozen(np.ones(3, dtype=np.int64)), 0.0, err)
    lm.residual(np.array(eye), target, frozen([[1.0, 1.0]]), np.empty(6), err[0], err[1])
    launched = False
    if _layer() is None:
        with global_compiler_lock:
            if _layer() is None:
                try:
                    call(ik.solve_parallel)
                except ValueError:  # numba: no layer satisfies NUMBA_THREADING_LAYER
                    return False
                launched = True
    if _layer() not in THREAD_SAFE_LAYERS:
        return False
    if not launched:
        call(ik.solve_parallel)  # loaded now, not in a batch's time budget
    return True


def _layer() -> Optional[str]:
    """Return numba's threading layer, or None before a parallel kernel's load chooses it."""
    try:
        return numba.threading_layer()
    except ValueError:
        return None
