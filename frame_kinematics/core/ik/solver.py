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
The inverse kinematics solver: a caller-owned object bound to a model, tips and active joints.

:class:`IKSolver` keeps the compiled chains (:class:`~.chain.ChainEvaluator`) between calls,
one per set of values of the held joints that move the tips, the pose residuals of the
weights and tolerances it was called with, and on the compiled backend the validated options
of its single-target calls (:func:`~.options.options_key`), in small caches of its own.
Nothing else is kept: every call validates and copies its targets and seeds, and evaluates a
reference frame at its own seed. The evaluators and residuals never change once built and each call
has its own scratch, so one solver may be used from several threads at once (the caches are
guarded by a lock). The one-call functions (:mod:`.calls`) keep solvers per model.
"""

import time
from typing import Optional, Sequence, Tuple, TYPE_CHECKING, Union

import numpy as np

from .chain import ChainEvaluator
from .engine import Engine
from .options import (check_option_names, default_seed, MAX_TIME_BUDGET, number, Options,
                      options_key, PER_CALL, read_options, read_targets)
from .residual import PoseResidual
from .result import IKBatchResult, IKResult
from .schedule import STOP_UNCONFIRMED
from .selection import JointSelection, Tips
from ..backend import again, executor
from ..bounded import BoundedCache
from ..checks import as_float_array, check_count
from ..errors import ConfigurationError, FrameKinematicsError, name_list, ReferenceFrameError
from ..joints import frozen
from ..kinematics import KinematicsState

if TYPE_CHECKING:  # pragma: no cover
    from ..executor import Executor
    from ..model import RobotModel

#: Configurations whose link poses are evaluated at once to confirm the engines' answers.
CONFIRM_ROWS = 4096


class IKSolver:
    """
    Inverse position kinematics of some tips of a model, with the compiled chains cached.

    :ivar model: the robot model.
    :ivar selection: the tips and their active and held joints.
    :ivar executor: what evaluates its chains (None: numpy), as a state's
        (:attr:`frame_kinematics.core.kinematics.KinematicsState.executor`).
    """

    def __init__(self, model: 'RobotModel', tip: Tips,
                 active_joints: Optional[Sequence[str]] = None, cache_size: int = 16,
                 backend: Union[None, str, 'Executor'] = None) -> None:
        """
        Bind a solver to a model's tips.

        :param model: the robot model.
        :param tip: the tip link, or a list of tip links (each gets its own target).
        :param active_joints: joints allowed to move, a list of names or one name (default:
            every joint that moves the tips, including the masters of the mimic joints on their
            paths).
        :param cache_size: compiled chains kept (one per set of held-joint values),
            residuals kept (one per set of weights and tolerances), and validated options of
            single-target calls kept (one per set of option values).
        :param backend: what solves (see :func:`~frame_kinematics.core.backend.executor`):
            None for the model's backend when it is a
            :class:`~frame_kinematics.core.robot.Robot`, else the process default.
        :raises UnknownFrameError: for an unknown tip or joint.
        :raises ConfigurationError: for a model that is not a
            :class:`~frame_kinematics.core.model.RobotModel`, ``active_joints`` that is not a
            joint name or a list of names, a fixed or mimic joint named as active, or when no
            active joint moves the tips.
        :raises BackendError: for an invalid ``backend``.
        """
        self.model = model
        self.executor = executor(model, backend)  # which refuses what is not a model
        self.selection = JointSelection(model, tip, active_joints)
        self._cache_size = check_count(cache_size, 'cache_size', 1, 1024)
        if self.selection.nv == 0:
            why = f": robot '{model.name}' has no joint to move" if model.nv == 0 else ''
            raise ConfigurationError(f'no active joint moves tips {name_list(self.tips)}{why}')
        self._cache = BoundedCache(self._cache_size)
        self._residuals = BoundedCache(self._cache_size)
        self._plans = BoundedCache(self._cache_size)
        self._neutral = frozen(model.neutral_configuration())
        self._one = None
        if self.executor is not None:
            # what a single-target call without a seed or a generator starts from
            shape = (4, 4) if len(self.tips) == 1 else (len(self.tips), 4, 4)
            self._one = (shape, frozen(default_seed(model.layout)),
                         frozen(np.random.default_rng(0).bit_generator.random_raw(1)))

    @property
    def tips(self) -> Tuple[str, ...]:
        """Return the tip links."""
        return self.selection.tips

    @property
    def active_joints(self) -> Tuple[str, ...]:
        """Return the names of the active joints, in model order."""
        return self.selection.active_joints

    def evaluator(self, q_fixed=None) -> ChainEvaluator:
        """
        Return the compiled chains with the held joints at their values in ``q_fixed``.

        :param q_fixed: a configuration (default: neutral); only its held entries matter.
        :return: the evaluator (shared by every call with the same held values).
        :raises ConfigurationError: for an invalid ``q_fixed``, or a batch of configurations.
        """
        q = self.model.neutral_configuration() if q_fixed is None else \
            self.model.check_configuration(q_fixed, 'q_fixed')
        if q.ndim != 1:
            raise ConfigurationError(f'q_fixed must have shape ({self.model.nq},), got '
                                     f'{q.shape}')
        return self._evaluator(q)

    def _evaluator(self, q: np.ndarray) -> ChainEvaluator:
        held = self.selection.held_q_index
        values = q[held]

        def build() -> ChainEvaluator:
            # from the held values alone: what an earlier call's seed held does not matter
            q_fixed = self._neutral.copy()
            q_fixed[held] = values
            return ChainEvaluator.from_selection(self.selection, q_fixed, again(self.executor))

        return self._cache.get(values.tobytes(), build)

    def _residual(self, weights: np.ndarray, position_tolerance: float,
                  orientation_tolerance: float) -> PoseResidual:
        return self._residuals.get(
            (weights.tobytes(), position_tolerance, orientation_tolerance),
            lambda: PoseResidual(weights, position_tolerance, orientation_tolerance))

    def solve(self, target, **options) -> Union[IKResult, IKBatchResult]:
        """
        Solve for one target (or a batch of them).

        ``target`` is ``reference_T_target`` (``reference_frame`` defaults to the root link):
        ``(4, 4)`` for one tip, ``(n_tips, 4, 4)`` for several. A batch of targets,
        ``(B, 4, 4)`` or ``(B, n_tips, 4, 4)``, is solved as by :meth:`solve_batch`.

        The solver never raises for an unreachable target: it returns ``success=False`` with
        the best configuration found within the budget.

        Options (keywords only):

        * ``seed``: start configuration ``(nq,)`` (a batch may give one per target); joints
          that are not active keep its values. Default: neutral, moved to the middle of the
          limits where 0 is outside them. A seed outside the limits is projected onto them
          (with a warning).
        * ``reference_frame``: link the targets are expressed in; it must not be moved by the
          active joints (it is placed by the seed of the call, per target in a batch).
        * ``position_only``: ignore the orientation (a bool).
        * ``orientation_weight``: weight of the orientation error (rad) against the position
          error (m), default 1.
        * ``weights``: per-axis weights ``[x, y, z, rx, ry, rz]`` in the *target* frame (or
          one row per tip); a zero weight frees that axis, which is then not checked.
        * ``position_tolerance``, ``orientation_tolerance``: success thresholds per tip
          (default 1e-5 m, 1e-5 rad).
        * ``max_iterations``: iteration limit per target (default 1000, at most 1e9). With the
          compiled backend a target gets ``max_iterations * parallel_seeds`` single-seed
          steps (the same work), and ``iterations`` counts those steps.
        * ``time_budget``: wall-time limit of the solve in seconds, counted once the inputs
          are validated and the solver is set up (building a chain, the first time, does not
          count): default 0.02 s, for a batch ``0.02 + 0.001 B``; between 0 and
          :data:`~.options.MAX_TIME_BUDGET` (3600 s).
        * ``restarts``: maximum number of random seeds tried (default: unlimited within the
          budget; 0 runs a purely local solve from ``seed``).
        * ``parallel_seeds``: seeds advanced together per target (default 16; 1 in a batch,
          widened for the last unsolved targets); between 1 and
          :data:`~.options.MAX_PARALLEL_SEEDS` (1024).
        * ``rng``: a ``numpy.random.Generator`` for the restarts (default
          ``numpy.random.default_rng(0)``: calls are reproducible unless the budget cuts them).
        * ``rest_posture``, ``rest_gain``: a configuration ``(nq,)`` pulled toward in the
          Jacobian's null space, and the gain of that pull (default 0.1).
        * ``damping``: initial Levenberg-Marquardt damping (default 1e-3).
        * ``abandon_stalled``: abandon a target whose lowest error stalls (stop reason
          ``stalled``; the rule and its constants are in :mod:`.schedule`): hopeless targets
          stop early, at the price of a hard one now and then; default False.

        :param target: the target pose(s), see above (copied).
        :param options: the options above.
        :return: an :class:`IKResult` (or :class:`IKBatchResult` for a batch).
        :raises UnknownFrameError: for an unknown reference frame.
        :raises ConfigurationError: for an invalid target (shape, NaN, non-orthonormal
            rotation), seed or option value, or a batch too large for the free memory.
        :raises ReferenceFrameError: if the reference frame is moved by the active joints.
        :raises UnknownOptionError: for an unknown option (also a ``TypeError``).
        """
        start = time.perf_counter()
        check_option_names(options, 'IKSolver.solve')
        return self._solve(start, target, options)

    def solve_batch(self, targets, **options) -> IKBatchResult:
        """
        Solve many targets in one vectorised call (see :meth:`solve` for the options).

        :param targets: ``(B, 4, 4)`` for one tip, ``(B, n_tips, 4, 4)`` for several.
        :param options: the keyword options of :meth:`solve`; ``seed`` may be ``(B, nq)``.
        :return: the per-target results.
        :raises UnknownOptionError: for an unknown option (also a ``TypeError``).
        """
        start = time.perf_counter()
        check_option_names(options, 'IKSolver.solve_batch')
        return self._run(start, targets, True, options)

    def _solve(self, start: float, target, options: dict) -> Union[IKResult, IKBatchResult]:
        """:meth:`solve` of a call that started at ``start`` (its option names checked)."""
        if self._one is not None:
            result = self._solve_one(start, target, options)
            if result is not None:
                return result
        return self._run(start, target, None, options)

    def _run(self, start: float, target, batch: Optional[bool], options: dict
             ) -> Union[IKResult, IKBatchResult]:
        """
        Take the general path of every call (its option names checked).

        :param start: ``time.perf_counter()`` at the start of the call (``elapsed`` counts
            from there, the time budget from the end of the set-up).
        :param target: the target(s).
        :param batch: True for a batch, None to decide from the target's shape.
        :param options: the keyword options of :meth:`solve`.
        :return: the result.
        :raises ConfigurationError: for a batch too large for the memory that is free (numpy's
            ``MemoryError``), besides what :meth:`solve` raises.
        """
        targets, is_batch = read_targets(self.tips, target, batch)
        try:
            return self._run_targets(start, targets, is_batch, options)
        except MemoryError:
            raise ConfigurationError(f'a batch of {len(targets)} targets needs more memory than '
                                     'is free: solve it in smaller batches') from None

    def _run_targets(self, start: float, targets: np.ndarray, is_batch: bool, options: dict
                     ) -> Union[IKResult, IKBatchResult]:
        """:meth:`_run` of targets read as ``(B, n_tips, 4, 4)``."""
        model = self.model
        opts = read_options(model, len(self.tips), is_batch, len(targets), **options)
        q_seed = opts.seed
        if q_seed.ndim == 2 and not len(q_seed):
            q_seed = default_seed(model.layout)
        q_fixed = q_seed[0] if q_seed.ndim == 2 else q_seed
        evaluator = self._evaluator(q_fixed)
        held = self.selection.held_q_index
        if q_seed.ndim == 2 and np.any(q_seed[:, held] != q_fixed[held]):
            names = sorted({model.configuration_names[i] for i in held})
            raise ConfigurationError(f'in a batch, the seeds must agree on the joints that '
                                     f'are held fixed and move the tips: {name_list(names)}')
        if opts.reference_frame is not None:
            targets = self._in_root(opts.reference_frame, q_seed, targets)
        q = np.array(np.broadcast_to(q_seed, (len(targets), model.nq)))  # checked seeds
        rest = None if opts.rest_posture is None else evaluator._reduce(opts.rest_posture)
        problem = self._residual(opts.weights, opts.position_tolerance,
                                 opts.orientation_tolerance)
        compiled = evaluator._compiled
        deadline = time.perf_counter() + opts.time_budget
        if compiled is not None and compiled.supports(problem, rest):
            out = compiled.run(evaluator._reduce(q), targets, problem, opts.rng,
                               opts.max_iterations, opts.restarts, opts.damping, deadline,
                               opts.parallel_seeds, rest, opts.rest_gain,
                               opts.abandon_stalled)
        else:
            out = Engine(evaluator, problem, opts.rng, opts.parallel_seeds,
                         opts.max_iterations, opts.restarts, opts.damping, rest,
                         opts.rest_gain, opts.abandon_stalled).run(evaluator._reduce(q), targets,
                                                                   deadline)
        # the engines return the configurations they evaluated (continuous angles wrapped)
        q[:, evaluator.q_index] = out.q
        success, pos, ori, reasons = self._confirmed(problem, q, targets, out.success,
                                                     out.reasons)
        result = IKBatchResult(q, success, pos.max(axis=1), ori.max(axis=1), out.iterations,
                               out.restarts, reasons, time.perf_counter() - start, pos, ori)
        return result if is_batch else result[0]

    def _confirmed(self, problem: PoseResidual, q: np.ndarray, targets: np.ndarray,
                   success: np.ndarray, reasons: Sequence[str]
                   ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Tuple[str, ...]]:
        """
        Judge the engines' successes on forward kinematics of the configurations they return.

        The engines evaluate a reduced chain (fixed and held joints folded into constants),
        which rounds otherwise than forward kinematics: far from the origin (a floating base
        at 1e12 m) or with tolerances near the rounding, the two disagree. A success is
        reported only when forward kinematics of its ``q``, on the solver's backend, meets
        both tolerances (else its reason is ``unconfirmed``); the errors reported are those
        of forward kinematics. Evaluated :data:`CONFIRM_ROWS` configurations at a time, so
        that the poses of a large batch's every link are never held at once.

        :param problem: the residual and its tolerances.
        :param q: ``(B, nq)`` the configurations returned.
        :param targets: ``(B, n_tips, 4, 4)`` ``root_T_target``.
        :param success: ``(B,)`` the engines' successes.
        :param reasons: the engines' stop reasons.
        :return: new ``(success, position errors, orientation errors, reasons)``, the errors
            ``(B, n_tips)``.
        """
        n_tips, m = problem.n_tips, len(problem.rows)
        pos, ori = np.empty((len(q), n_tips)), np.empty((len(q), n_tips))
        tips = list(self.selection.tip_bodies)
        chosen = again(self.executor)
        for start in range(0, len(q), CONFIRM_ROWS):
            rows = slice(start, start + CONFIRM_ROWS)
            poses = KinematicsState(self.model, q[rows], backend=chosen).poses[tips]
            metrics, _ = problem.residual(poses, targets[rows])
            pos[rows] = metrics[:, m:m + n_tips]
            ori[rows] = metrics[:, m + n_tips:m + 2 * n_tips]
        met = np.all((pos < problem.position_tolerance)
                     & (ori < problem.orientation_tolerance), axis=1)
        success = np.asarray(success, dtype=bool)
        unconfirmed = success & ~met
        return success & met, pos, ori, tuple(
            STOP_UNCONFIRMED if off else reason
            for off, reason in zip(unconfirmed.tolist(), reasons))

    def _plan(self, options: dict) -> Optional[Tuple[Options, PoseResidual, object]]:
        """
        Return the validated options of a single-target call but :data:`~.options.PER_CALL`.

        :param options: the call's keyword options.
        :return: ``(options, residual, compiled arguments)``, or None when they are not plain
            values, are not valid (the general path raises) or ask for more than the compiled
            single-target solve does (a reference frame, per-axis weights, a rest posture).
        """
        key = options_key(options)
        if key is None:
            return None
        return self._plans.get(key, lambda: self._build_plan(options))

    def _build_plan(self, options: dict) -> Optional[Tuple[Options, PoseResidual, object]]:
        """:meth:`_plan` when its options are not in the cache yet."""
        try:
            opts = read_options(self.model, len(self.tips), False, 1,
                                **{k: v for k, v in options.items() if k not in PER_CALL})
        except FrameKinematicsError:
            return None
        if opts.reference_frame is not None:
            return None
        problem = self._residual(opts.weights, opts.position_tolerance,
                                 opts.orientation_tolerance)
        if not problem.isotropic:
            return None
        return (opts, problem, self.executor.prepare_solve(
            problem, opts.max_iterations, opts.restarts, opts.damping, opts.parallel_seeds,
            opts.abandon_stalled))

    def _solve_one(self, start: float, target, options: dict) -> Optional[IKResult]:
        """
        One target on the compiled backend, its inputs checked by compiled code.

        :param start: ``time.perf_counter()`` at the start of the call.
        :param target: the target (validated here).
        :param options: the call's keyword options.
        :return: the result, or None to take the general path (any other target shape, a
            seed outside the limits, an option the compiled solve does not take, or an input
            error: the general path raises it, after the checks that come before it).
        """
        shape, neutral, neutral_state = self._one
        arr = as_float_array(target, 'target')
        if arr.shape != shape:
            return None
        plan = self._plan(options)
        if plan is None:
            return None
        opts, problem, prepared = plan
        seed, budget = options.get('seed'), options.get('time_budget')
        try:
            q = neutral.copy() if seed is None else \
                self.model.check_configuration(seed, 'seed')
            budget = opts.time_budget if budget is None else \
                number(budget, 'time_budget', 0.0, MAX_TIME_BUDGET)
        except FrameKinematicsError:
            return None
        rng = options.get('rng')
        if q.ndim != 1 or not (rng is None or isinstance(rng, np.random.Generator)):
            return None
        compiled = self._evaluator(q)._compiled
        targets = np.ascontiguousarray(arr.reshape(-1, 4, 4))
        if not (compiled.supports(problem, None) and compiled.usable(targets, q)):
            return None
        state = neutral_state.copy() if rng is None else rng.bit_generator.random_raw(1)
        success, reason, iterations, restarts, err = compiled.solve_one(
            prepared, targets, q, state, time.perf_counter() + budget)
        pos, ori = err
        return IKResult(q, success, max(pos.tolist()), max(ori.tolist()), iterations, restarts,
                        reason, time.perf_counter() - start, pos, ori)

    def _in_root(self, reference: str, q_seed: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """``root_T_target`` from ``reference_T_target``, the reference placed by the seed."""
        if self.selection.moves(reference):
            raise ReferenceFrameError(f"reference frame '{reference}' is moved by the active "
                                      'joints: give the target in a frame they do not move',
                                      reference, self.tips[0])
        root_T_reference = KinematicsState(self.model, q_seed, backend=again(self.executor)
                                           ).transform(reference)
        return root_T_reference[..., None, :, :] @ targets
