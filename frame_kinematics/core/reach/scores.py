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
Scores of reach study solutions: manipulability, distance to the joint limits, and both.

* Manipulability is the core's one definition, :func:`~frame_kinematics.core.velocity.
  manipulability` (Yoshikawa's ``sqrt(det(J Jᵀ))`` of the tip's Jacobian over the active
  joints), through :func:`~frame_kinematics.core.velocity.tip_manipulability`.
* The joint-limit margin of a configuration is ``min_i (distance of q_i to its nearest
  limit) / (half the range of joint i)`` over the active coordinates with two finite limits:
  1 with every joint at the middle of its range, 0 with one at a limit (1 when no joint has
  finite limits).
* The combined score is ``w_m * min(m / m_ref, 1) + w_l * margin`` with the weights
  :data:`DEFAULT_WEIGHTS` (``w_m = w_l = 0.5``) normalised to sum 1, and ``m_ref`` the
  largest manipulability of the study's solutions unless given: a score in ``[0, 1]``.
"""

from typing import Optional, Sequence, Tuple

import numpy as np

from ..checks import as_float_array, check_finite, check_number, check_vector
from ..errors import ConfigurationError
from ..kinematics import KinematicsState
from ..velocity import tip_manipulability

#: Weights ``(manipulability, joint-limit margin)`` of the combined score.
DEFAULT_WEIGHTS = (0.5, 0.5)


def manipulability(state: KinematicsState, tip: str, joints: Sequence[str]) -> np.ndarray:
    """
    Return the manipulability of ``tip`` over ``joints`` for a batch of configurations.

    :param state: the kinematics of a batch ``(B, nq)``.
    :param tip: the tip link.
    :param joints: the active joints (the Jacobian's columns kept).
    :return: ``(B,)``.
    """
    return np.atleast_1d(tip_manipulability(state, tip, joints=list(joints)))


def joint_limit_margin(q: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """
    Return the normalised distance of configurations to the nearest joint limit.

    :param q: ``(B, n)`` active coordinates.
    :param lower: ``(n,)`` lower limits (``-inf`` where none).
    :param upper: ``(n,)`` upper limits (``inf`` where none).
    :return: ``(B,)`` in ``[0, 1]``.
    :raises ConfigurationError: for limits that are not two ``(n,)`` arrays of numbers or
        infinities, or configurations that are not ``(B, n)`` finite numbers.
    """
    lower = as_float_array(lower, 'lower')
    upper = as_float_array(upper, 'upper')
    if lower.ndim != 1 or upper.shape != lower.shape or np.isnan(lower).any() or \
            np.isnan(upper).any():
        raise ConfigurationError(f'lower and upper must be (n,) limits without NaN, got '
                                 f'{lower.shape} and {upper.shape}')
    q = as_float_array(q, 'q')
    if q.ndim != 2 or q.shape[1] != len(lower):
        raise ConfigurationError(f'q must have shape (B, {len(lower)}), got {q.shape}')
    check_finite(q, 'q')
    finite = np.isfinite(lower) & np.isfinite(upper) & (upper > lower)
    if not np.any(finite):
        return np.ones(len(q))
    lo, hi = lower[finite], upper[finite]
    x = q[:, finite]
    distance = np.minimum(x - lo, hi - x) / (0.5 * (hi - lo))
    return np.clip(distance.min(axis=1), 0.0, 1.0)


def check_weights(weights: Sequence[float]) -> Tuple[float, float]:
    """
    Validate the combined score's weights and normalise them to sum 1.

    :param weights: ``(manipulability, joint-limit margin)``, each >= 0, not both 0.
    :return: the normalised weights.
    :raises ConfigurationError: for anything else.
    """
    w = check_vector(weights, 2, 'weights', ('manipulability', 'joint_limit_margin'))
    if w.ndim != 1 or np.any(w < 0) or not np.sum(w) > 0:
        raise ConfigurationError(f'weights must be two numbers >= 0, not both 0, got '
                                 f'{w.tolist()}')
    w = w / np.sum(w)
    return float(w[0]), float(w[1])


def combined_score(manip: np.ndarray, margin: np.ndarray,
                   weights: Sequence[float] = DEFAULT_WEIGHTS,
                   reference: Optional[float] = None) -> np.ndarray:
    """
    Return the combined score of solutions (see the module).

    :param manip: manipulability of each solution.
    :param margin: joint-limit margin of each solution.
    :param weights: ``(manipulability, joint-limit margin)``.
    :param reference: the manipulability that scores 1 (default: the largest of ``manip``).
    :return: scores in ``[0, 1]`` (an array of the shape of ``manip``).
    :raises ConfigurationError: for bad weights, a reference that is not a number >= 0, or
        scores that are not finite numbers of one shape.
    """
    w_m, w_l = check_weights(weights)
    manip = check_finite(as_float_array(manip, 'manip'), 'manip')
    margin = check_finite(as_float_array(margin, 'margin'), 'margin')
    if margin.shape != manip.shape:
        raise ConfigurationError(f'manip and margin must have one shape, got {manip.shape} '
                                 f'and {margin.shape}')
    ref = float(np.max(manip, initial=0.0)) if reference is None else \
        check_number(reference, 'reference must be a number >= 0', 0.0)
    ratio = np.minimum(manip / ref, 1.0) if ref > 0 else np.zeros(manip.shape)
    return w_m * ratio + w_l * margin
