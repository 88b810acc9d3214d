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
The options, targets and seeds of one inverse kinematics call, validated and copied.

Every value the solver keeps is a new array of its own: the caller's seeds, targets and rest
postures are read, never kept or written. Bad values raise
:class:`~frame_kinematics.core.errors.ConfigurationError` naming the option, before any work.
"""

from dataclasses import dataclass
import logging
import math
from typing import Optional, Tuple, TYPE_CHECKING

import numpy as np

from ..checks import (as_float_array, check_count, check_finite, check_flag, MAX_MAGNITUDE,
                      number_within)
from ..errors import ConfigurationError, excerpt, name_list, UnknownOptionError
from ..joints import ConfigurationLayout
from ..transform_checks import check_transform

if TYPE_CHECKING:  # pragma: no cover
    from ..model import RobotModel

_LOG = logging.getLogger(__package__)

#: Largest number of seeds advanced together per target (each costs an evaluation and a
#: linear solve per iteration; 1024 of them still make a short iteration).
MAX_PARALLEL_SEEDS = 1024
#: Largest time budget of a call, in seconds (one hour).
MAX_TIME_BUDGET = 3600.0
#: Largest iteration or restart limit.
MAX_COUNT = 10 ** 9
#: Default time budget of a single solve (s) ...
TIME_BUDGET = 0.02
#: ... plus this much per target in a batch (s).
TIME_BUDGET_PER_TARGET = 0.001


#: The keyword options of a solve (see :meth:`IKSolver.solve <.solver.IKSolver.solve>`).
OPTIONS = ('seed', 'reference_frame', 'position_only', 'orientation_weight', 'weights',
           'position_tolerance', 'orientation_tolerance', 'max_iterations', 'time_budget',
           'restarts', 'parallel_seeds', 'rng', 'rest_posture', 'rest_gain', 'damping',
           'abandon_stalled')
_OPTION_SET = frozenset(OPTIONS)


def check_option_names(options: dict, call: str) -> None:
    """
    Refuse a keyword option that a solve does not take, naming the user's call.

    :param options: the call's keyword options.
    :param call: the function the user called, e.g. ``'IKSolver.solve'``.
    :raises UnknownOptionError: for an unknown option (also a ``TypeError``).
    """
    for name in options:
        if name not in _OPTION_SET:
            raise UnknownOptionError(f"{call}() got an unknown option '{excerpt(name)}' "
                                     f"(options: {', '.join(OPTIONS)})")


#: The options that usually change from call to call (a solver keeps the others validated,
#: :func:`options_key`).
PER_CALL = frozenset(('seed', 'rng', 'time_budget'))
_PLAIN = (bool, int, float, type(None))


def options_key(options: dict) -> Optional[tuple]:
    """
    Return a key of the options other than :data:`PER_CALL`, their types included.

    Two calls with the same key have options that validate the same way (plain values of the
    same type that compare equal), so that what :func:`read_options` made of them may be
    reused.

    :param options: the keyword options of a call.
    :return: the key, or None when a value is not a bool, int, float or None.
    """
    key = []
    for name, value in options.items():
        if name not in PER_CALL:
            kind = type(value)
            if kind not in _PLAIN:
                return None
            key.append((name, kind, value))
    return tuple(key)


@dataclass(frozen=True)
class Options:
    """
    Validated options of one call (see :meth:`IKSolver.solve <.solver.IKSolver.solve>`).

    :ivar seed: ``(nq,)`` or ``(B, nq)`` start configurations, within the limits.
    :ivar weights: ``(n_tips, 6)`` per-axis weights (orientation weight and
        ``position_only`` applied).
    """

    seed: np.ndarray
    reference_frame: Optional[str]
    weights: np.ndarray
    position_tolerance: float
    orientation_tolerance: float
    max_iterations: int
    time_budget: float
    restarts: Optional[int]
    parallel_seeds: int
    rng: np.random.Generator
    rest_posture: Optional[np.ndarray]
    rest_gain: float
    damping: float
    abandon_stalled: bool


def number(value, name: str, minimum: float = 0.0, maximum: float = MAX_MAGNITUDE,
           positive: bool = False) -> float:
    """
    Validate a real number option.

    :param value: an int or a float (not a bool).
    :param name: the option, for the error message.
    :param minimum: smallest accepted value.
    :param maximum: largest accepted value.
    :param positive: whether the value must also be above zero.
    :return: the float.
    :raises ConfigurationError: for anything else (bool, str, NaN, inf, out of range).
    """
    if type(value) is float and minimum <= value <= maximum and (value > 0.0 or not positive):
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                     np.floating)):
        raise ConfigurationError(f'{name} must be a number, got {type(value).__name__}')
    result = number_within(value, max(minimum, 0.0) if positive else minimum, maximum,
                           strict_low=positive and minimum <= 0.0)
    if result is None:
        try:
            shown = float(value)
        except OverflowError:  # an int beyond the floats
            shown = math.inf if value > 0 else -math.inf
        lowest = f'> {minimum:g}' if positive else f'>= {minimum:g}'
        raise ConfigurationError(f'{name} must be a number {lowest} and <= {maximum:g}, got '
                                 f'{shown:.6g}')
    return result


def _weights(n_tips: int, weights, orientation_weight, position_only) -> np.ndarray:
    if not isinstance(position_only, (bool, np.bool_)):
        raise ConfigurationError(f'position_only must be True or False, got '
                                 f'{type(position_only).__name__}')
    w = np.ones((n_tips, 6))
    w[:, 3:] = number(orientation_weight, 'orientation_weight')
    if weights is not None:
        w = as_float_array(weights, 'weights')
        if w.shape == (6,):
            w = np.tile(w, (n_tips, 1))
        if w.shape != (n_tips, 6):
            raise ConfigurationError(f'weights must be 6 numbers (or one row per tip, '
                                     f'({n_tips}, 6)), got shape {w.shape}')
        check_finite(w, 'weights', ('x', 'y', 'z', 'rx', 'ry', 'rz'))
        if np.any(w < 0):
            raise ConfigurationError('weights must be >= 0')
    if position_only:
        w[:, 3:] = 0.0
    if not np.any(w > 0):
        raise ConfigurationError('every weight is zero: nothing to solve')
    return w


def read_options(model: 'RobotModel', n_tips: int, batch: bool, n_targets: int, *,
                 seed=None, reference_frame: Optional[str] = None,
                 position_only: bool = False, orientation_weight: float = 1.0, weights=None,
                 position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
                 max_iterations: int = 1000, time_budget: Optional[float] = None,
                 restarts: Optional[int] = None, parallel_seeds: Optional[int] = None,
                 rng: Optional[np.random.Generator] = None, rest_posture=None,
                 rest_gain: float = 0.1, damping: float = 1e-3,
                 abandon_stalled: bool = False) -> Options:
    """
    Validate the keyword options of a call (:func:`check_option_names` has checked the names).

    :param model: the robot model.
    :param n_tips: number of tips.
    :param batch: whether the call solves a batch of targets.
    :param n_targets: number of targets.
    :param seed: start configuration ``(nq,)``, or ``(B, nq)`` in a batch (None: the
        :func:`default_seed`); checked by :func:`seeds`.
    :param reference_frame: link the targets are expressed in (None: the root).
    :param position_only: ignore the orientation (a bool).
    :param orientation_weight: weight of the orientation error (rad) against the position
        error (m), >= 0.
    :param weights: per-axis weights ``[x, y, z, rx, ry, rz]`` in the target frame, or one row
        per tip ``(n_tips, 6)``, >= 0 and not all zero (None: all 1).
    :param position_tolerance: success threshold of the position error per tip (m, > 0).
    :param orientation_tolerance: success threshold of the orientation error per tip (rad,
        > 0).
    :param max_iterations: iteration limit per target (0 to :data:`MAX_COUNT`).
    :param time_budget: wall-time limit of the call in seconds, 0 to :data:`MAX_TIME_BUDGET`
        (None: :data:`TIME_BUDGET`, plus :data:`TIME_BUDGET_PER_TARGET` per target in a
        batch).
    :param restarts: maximum number of random seeds tried besides ``seed``, 0 to
        :data:`MAX_COUNT` (None: unlimited within the budget).
    :param parallel_seeds: seeds advanced together per target, 1 to
        :data:`MAX_PARALLEL_SEEDS`, lowered to ``restarts + 1`` (None: 16, or 1 in a batch).
    :param rng: the ``numpy.random.Generator`` of the random seeds (None:
        ``numpy.random.default_rng(0)``).
    :param rest_posture: a configuration ``(nq,)`` pulled toward in the Jacobian's null space
        (None: no pull).
    :param rest_gain: gain of the pull toward ``rest_posture`` (>= 0).
    :param damping: initial Levenberg-Marquardt damping (> 0).
    :param abandon_stalled: abandon a target whose lowest error stalls (a bool).
    :return: the validated options.
    :raises ConfigurationError: for a bad value, naming the option.
    :raises UnknownFrameError: for an unknown reference frame.
    """
    if reference_frame is not None:
        model.link_index(reference_frame)
    w = _weights(n_tips, weights, orientation_weight, position_only)
    if time_budget is None:
        time_budget = min(TIME_BUDGET + TIME_BUDGET_PER_TARGET * n_targets * batch,
                          MAX_TIME_BUDGET)
    if restarts is not None:
        restarts = check_count(restarts, 'restarts', 0, MAX_COUNT)
    if parallel_seeds is None:
        parallel_seeds = 1 if batch else 16
    parallel_seeds = check_count(parallel_seeds, 'parallel_seeds', 1, MAX_PARALLEL_SEEDS)
    if rng is None:
        rng = np.random.default_rng(0)
    elif not isinstance(rng, np.random.Generator):
        raise ConfigurationError(f'rng must be a numpy.random.Generator, got '
                                 f'{type(rng).__name__}')
    rest = None
    if rest_posture is not None:
        rest = model.check_configuration(rest_posture, 'rest_posture')
        if rest.ndim != 1:
            raise ConfigurationError(f'rest_posture must have shape ({model.nq},), got '
                                     f'{rest.shape}')
    return Options(
        seed=seeds(model, seed, batch, n_targets), reference_frame=reference_frame, weights=w,
        position_tolerance=number(position_tolerance, 'position_tolerance', positive=True),
        orientation_tolerance=number(orientation_tolerance, 'orientation_tolerance',
                                     positive=True),
        max_iterations=check_count(max_iterations, 'max_iterations', 0, MAX_COUNT),
        time_budget=number(time_budget, 'time_budget', 0.0, MAX_TIME_BUDGET),
        restarts=restarts,
        parallel_seeds=parallel_seeds if restarts is None else min(parallel_seeds,
                                                                   restarts + 1),
        rng=rng, rest_posture=rest, rest_gain=number(rest_gain, 'rest_gain'),
        damping=number(damping, 'damping', positive=True),
        abandon_stalled=check_flag(abandon_stalled, 'abandon_stalled'))


def read_targets(tips: Tuple[str, ...], target, batch: Optional[bool]
                 ) -> Tuple[np.ndarray, bool]:
    """
    Validate targets: rigid transforms of the right shape, as a new array.

    :param tips: the tip links.
    :param target: ``(4, 4)`` or ``(n_tips, 4, 4)`` for one problem, ``(B, 4, 4)`` or
        ``(B, n_tips, 4, 4)`` for a batch.
    :param batch: whether a batch is expected (None: decide from the shape).
    :return: ``(B, n_tips, 4, 4)`` targets and whether it is a batch.
    :raises ConfigurationError: for a wrong type or shape, NaN, inf, a huge translation or a
        rotation that is not orthonormal.
    """
    n_tips = len(tips)
    arr = as_float_array(target, 'target')
    if batch is None:
        batch = arr.ndim == 4 or (arr.ndim == 3 and n_tips == 1)
    expected = (n_tips, 4, 4) if n_tips > 1 else (4, 4)
    if batch:
        ok = arr.ndim == len(expected) + 1 and arr.shape[1:] == expected
        shown = f'(B, {", ".join(map(str, expected))})'
    else:
        ok = arr.shape == expected
        shown = str(expected)
    if not ok:
        raise ConfigurationError(f'target for tips {name_list(tips)} must have shape {shown}, '
                                 f'got {arr.shape}')
    name = f'target of {name_list(tips)}'
    check_finite(arr, name)
    check_transform(arr, name)
    return arr.reshape(-1, n_tips, 4, 4), batch


def default_seed(layout: ConfigurationLayout) -> np.ndarray:
    """
    Return the seed used when none is given: neutral, moved inside the limits.

    An entry whose neutral value (0) lies outside its limits starts at the middle of them
    (or at the finite limit when the other one is infinite).

    :param layout: the configuration layout.
    :return: a new ``(nq,)`` configuration within the limits.
    """
    q = layout.neutral()
    lower, upper = layout.lower, layout.upper
    outside = (q < lower) | (q > upper)
    lo, hi = lower[outside], upper[outside]
    q[outside] = np.where(np.isfinite(lo) & np.isfinite(hi), 0.5 * (lo + hi),
                          np.clip(q[outside], lo, hi))
    return q


def seeds(model: 'RobotModel', seed, batch: bool, n_targets: int) -> np.ndarray:
    """
    Validate the seed(s), project them onto the limits (with a warning), wrap continuous angles.

    A continuous angle outside ``[-pi, pi)`` is replaced by the angle in ``[-pi, pi)`` with
    the same sine and cosine, before any step (a step from ``-1e16`` would be lost, and
    ``angle + pi`` there is already a radian off).

    :param model: the robot model.
    :param seed: None, ``(nq,)``, or in a batch ``(B, nq)``.
    :param batch: whether the call solves a batch.
    :param n_targets: number of targets.
    :return: a new ``(nq,)`` or ``(B, nq)`` array within the limits.
    :raises ConfigurationError: for a bad seed.
    """
    layout = model.layout
    if seed is None:
        return default_seed(layout)
    q = model.check_configuration(seed, 'seed')
    if q.ndim == 2:
        if not batch:
            raise ConfigurationError(f'seed must have shape ({model.nq},) for a single '
                                     f'target, got {q.shape}')
        if len(q) != n_targets:
            raise ConfigurationError(f'{len(q)} seeds for {n_targets} targets')
    outside = np.any(((q < layout.lower) | (q > layout.upper)).reshape(-1, model.nq), axis=0)
    for iq, _, _ in layout.floating:
        outside[iq + 3:iq + 7] = False
    if np.any(outside):
        names = [model.configuration_names[i] for i in np.nonzero(outside)[0]]
        _LOG.warning('seed is outside the joint limits of %s: projected onto them',
                     name_list(names))
        q = np.clip(q, layout.lower, layout.upper)
    wrap = layout.wrap_q
    if len(wrap):
        angle = q[..., wrap]
        far = (angle < -np.pi) | (angle >= np.pi)
        if far.any():
            same = np.arctan2(np.sin(angle), np.cos(angle))  # (-pi, pi]: -pi for pi
            q[..., wrap] = np.where(far, np.where(same >= np.pi, -np.pi, same), angle)
    return q
