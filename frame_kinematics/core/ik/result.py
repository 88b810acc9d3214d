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
What an inverse kinematics call returns: :class:`IKResult` and :class:`IKBatchResult`.

Both are built from arrays the solver owns: nothing in them is shared with the caller's
inputs.
"""

from dataclasses import dataclass
from typing import Tuple

import numpy as np


@dataclass(frozen=True)
class IKResult:
    """
    Outcome of one inverse kinematics problem.

    :ivar q: the configuration found (``(nq,)``), within the joint limits; the best one seen
        when ``success`` is False.
    :ivar success: whether every tip is within both tolerances.
    :ivar position_error: largest position error over the tips (m).
    :ivar orientation_error: largest orientation error over the tips (rad).
    :ivar iterations: solver iterations spent on this target.
    :ivar restarts: random seeds tried besides the caller's seed.
    :ivar reason: why it stopped: ``converged``, ``time_budget``, ``max_iterations``,
        ``max_restarts``, ``stalled`` (option ``abandon_stalled``) or ``unconfirmed`` (it
        converged on the solver's chain, but forward kinematics of ``q`` is outside a
        tolerance: see :data:`~frame_kinematics.core.ik.schedule.STOP_UNCONFIRMED`).
    :ivar elapsed: wall time of the call (s); for a batch, of the whole batch.
    :ivar tip_position_errors: position error of each tip (m).
    :ivar tip_orientation_errors: orientation error of each tip (rad).
    """

    q: np.ndarray
    success: bool
    position_error: float
    orientation_error: float
    iterations: int
    restarts: int
    reason: str
    elapsed: float
    tip_position_errors: np.ndarray
    tip_orientation_errors: np.ndarray


@dataclass(frozen=True)
class IKBatchResult:
    """
    Per-target outcomes of a batch solve (arrays indexed by target).

    ``result[i]`` is the :class:`IKResult` of target ``i``.

    :ivar q: ``(B, nq)`` configurations.
    :ivar success: ``(B,)`` bools.
    :ivar position_error: ``(B,)`` largest position error over the tips (m).
    :ivar orientation_error: ``(B,)`` largest orientation error over the tips (rad).
    :ivar iterations: ``(B,)`` iterations spent on each target.
    :ivar restarts: ``(B,)`` random seeds tried for each target.
    :ivar reason: stop reason of each target (see :class:`IKResult`).
    :ivar elapsed: wall time of the whole call (s).
    :ivar tip_position_errors: ``(B, n_tips)``.
    :ivar tip_orientation_errors: ``(B, n_tips)``.
    """

    q: np.ndarray
    success: np.ndarray
    position_error: np.ndarray
    orientation_error: np.ndarray
    iterations: np.ndarray
    restarts: np.ndarray
    reason: Tuple[str, ...]
    elapsed: float
    tip_position_errors: np.ndarray
    tip_orientation_errors: np.ndarray

    def __len__(self) -> int:
        """Return the number of targets."""
        return len(self.success)

    def __getitem__(self, index: int) -> IKResult:
        """
        Return the result of one target.

        :param index: target index.
        :return: its :class:`IKResult`.
        """
        return IKResult(self.q[index], bool(self.success[index]),
                        float(self.position_error[index]),
                        float(self.orientation_error[index]), int(self.iterations[index]),
                        int(self.restarts[index]), self.reason[index], self.elapsed,
                        self.tip_position_errors[index], self.tip_orientation_errors[index])

    @property
    def success_rate(self) -> float:
        """Fraction of the targets solved."""
        return float(np.mean(self.success)) if len(self.success) else 1.0
