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
The pose residual of an inverse kinematics problem: weights, tolerances, errors, cost.

For each tip the error is ``[root_p_target - root_p_tip; w]`` with ``w`` the world rotation
vector taking ``root_R_tip`` to ``root_R_target``. Per-axis weights are applied in the
target frame (the error is rotated into it when the weights differ between axes); rows of
zero weight are dropped from the residual and are not checked for success. The position
error of a tip is the norm of its weighted-in translation error, the orientation error the
angle of ``root_R_tip^T root_R_target`` (or the norm of the rotation-vector components kept).
"""

from typing import Optional, Tuple

import numpy as np

from ..joints import frozen
from ..spatial import log_so3


def rotation_error(tip_R: np.ndarray, target_R: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """
    World rotation vector taking ``tip_R`` to ``target_R``, and its angle.

    :param tip_R: ``(N, 3, 3)`` rotations.
    :param target_R: ``(N, 3, 3)`` rotations.
    :return: ``(N, 3)`` rotation vectors (:func:`~frame_kinematics.core.spatial.log_so3` of
        ``target_R tip_R^T``) and ``(N,)`` angles in ``[0, pi]``.
    """
    v = log_so3(target_R @ np.swapaxes(tip_R, -1, -2))
    return v, np.sqrt(np.einsum('ij,ij->i', v, v))


class PoseResidual:
    """
    Weighted pose residual of some tips, and its success thresholds (never changes once built).

    :ivar n_tips: number of tips.
    :ivar weights: ``(n_tips, 6)`` per-axis weights ``[x, y, z, rx, ry, rz]``.
    :ivar position_tolerance: success threshold on each tip's position error (m).
    :ivar orientation_tolerance: success threshold on each tip's orientation error (rad).
    :ivar rows: rows of the stacked 6-per-tip error that are kept (non-zero weight).
    """

    def __init__(self, weights: np.ndarray, position_tolerance: float,
                 orientation_tolerance: float) -> None:
        """
        Prepare the residual.

        :param weights: validated ``(n_tips, 6)`` non-negative weights, not all zero.
        :param position_tolerance: validated positive threshold (m).
        :param orientation_tolerance: validated positive threshold (rad).
        """
        w = frozen(np.array(weights, dtype=float))
        self.n_tips = len(w)
        self.weights = w
        self.position_tolerance = position_tolerance
        self.orientation_tolerance = orientation_tolerance
        self.rows = np.nonzero(w.reshape(-1) > 0)[0]
        self.isotropic = bool(np.all((w[:, :3] == w[:, :1]) & (w[:, 3:] == w[:, 3:4])))
        self.lin_mask = w[:, :3] > 0
        self.ang_mask = w[:, 3:] > 0
        self.lin_full = np.all(self.lin_mask, axis=1)
        self.ang_full = np.all(self.ang_mask, axis=1)
        self.row_weight = w.reshape(-1)[self.rows]
        self.all_rows = len(self.rows) == 6 * self.n_tips
        self.plain = self.n_tips == 1 and bool(np.all(w == 1.0))
        self.unit_rows = self.all_rows and self.isotropic and bool(np.all(self.row_weight == 1))

    def residual(self, tips: np.ndarray, targets: np.ndarray
                 ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """
        Weighted residual and per-tip errors, and the row transform for the Jacobian.

        :param tips: ``(n_tips, N, 4, 4)``.
        :param targets: ``(N, n_tips, 4, 4)``.
        :return: ``metrics`` of shape ``(N, m + 2 n_tips + 1)``: the residual, the position
            errors, the orientation errors and the cost (squared residual norm); and
            ``target_R^T`` per tip ``(n_tips, N, 3, 3)``, or None when the weights are
            isotropic.
        """
        count = tips.shape[1]
        n_tips, m = self.n_tips, len(self.rows)
        metrics = np.empty((count, m + 2 * n_tips + 1))
        if self.plain:
            target = targets[:, 0]
            np.subtract(target[:, :3, 3], tips[0, :, :3, 3], out=metrics[:, :3])
            w, angle = rotation_error(tips[0, :, :3, :3], target[:, :3, :3])
            metrics[:, 3:6] = w
            dp = metrics[:, :3]
            metrics[:, 6] = np.sqrt(np.einsum('ij,ij->i', dp, dp))
            metrics[:, 7] = angle
            residual = metrics[:, :6]
            metrics[:, 8] = np.einsum('ij,ij->i', residual, residual)
            return metrics, None
        err = np.empty((count, n_tips, 6))
        rotate = None if self.isotropic else np.empty((n_tips, count, 3, 3))
        for t in range(n_tips):
            target = targets[:, t]
            dp = target[:, :3, 3] - tips[t, :, :3, 3]
            w, angle = rotation_error(tips[t, :, :3, :3], target[:, :3, :3])
            if rotate is not None:
                r_t = np.swapaxes(target[:, :3, :3], -1, -2)
                rotate[t] = r_t
                dp = (r_t @ dp[..., None])[..., 0]
                w = (r_t @ w[..., None])[..., 0]
            err[:, t, :3] = dp
            err[:, t, 3:] = w
            if self.lin_full[t]:
                metrics[:, m + t] = np.sqrt(np.einsum('ij,ij->i', dp, dp))
            else:
                metrics[:, m + t] = np.linalg.norm(dp[:, self.lin_mask[t]], axis=-1)
            if self.ang_full[t]:
                metrics[:, m + n_tips + t] = angle
            elif self.ang_mask[t].any():
                metrics[:, m + n_tips + t] = np.linalg.norm(w[:, self.ang_mask[t]], axis=-1)
            else:
                metrics[:, m + n_tips + t] = 0.0
        flat = err.reshape(count, -1)
        residual = metrics[:, :m]
        if self.all_rows:
            np.multiply(flat, self.row_weight, out=residual)
        else:
            np.multiply(flat[:, self.rows], self.row_weight, out=residual)
        metrics[:, -1] = np.einsum('ij,ij->i', residual, residual)
        return metrics, rotate

    def weighted_jacobian(self, jac: np.ndarray, rotate: Optional[np.ndarray]) -> np.ndarray:
        """
        Jacobian rows matching :meth:`residual`.

        :param jac: ``(N, 6 * n_tips, nv)`` from
            :meth:`~frame_kinematics.core.ik.chain.ChainEvaluator.jacobian`.
        :param rotate: the row transform returned by :meth:`residual`.
        :return: ``(N, m, nv)``.
        """
        if self.unit_rows:
            return jac
        if rotate is not None:
            jac = jac.copy()
            for t in range(self.n_tips):
                for part in (slice(6 * t, 6 * t + 3), slice(6 * t + 3, 6 * t + 6)):
                    jac[:, part] = rotate[t] @ jac[:, part]
        return jac[:, self.rows] * self.row_weight[:, None]
