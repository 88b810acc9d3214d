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
"""Tests of frame_kinematics.core.ik.residual: the pose residual's rotation error."""

from frame_kinematics.core.ik.residual import rotation_error
from frame_kinematics.core.spatial import exp_so3, log_so3
import numpy as np


def test_the_residuals_rotation_error_is_log_so3():
    """One rotation log: the IK residual reads ``spatial.log_so3`` (near pi included)."""
    rng = np.random.default_rng(31)
    tip_R = exp_so3(rng.normal(size=(40, 3)))
    turn = rng.normal(size=(40, 3))
    turn *= (rng.uniform(0.0, np.pi, 40) / np.linalg.norm(turn, axis=1))[:, None]
    turn[:8] *= ((np.pi - np.array([0, 1e-9, 1e-6, 5e-5, 1e-4, 2e-4, 1e-3, 1e-2]))
                 / np.linalg.norm(turn[:8], axis=1))[:, None]
    target_R = exp_so3(turn) @ tip_R
    w, angle = rotation_error(tip_R, target_R)
    assert np.array_equal(w, log_so3(target_R @ np.swapaxes(tip_R, 1, 2)))
    np.testing.assert_allclose(w[8:], turn[8:], rtol=0, atol=1e-10)
    np.testing.assert_allclose(angle, np.linalg.norm(turn, axis=1), rtol=0, atol=1e-10)
