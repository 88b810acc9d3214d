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
"""Tests of frame_kinematics.core.accel.lm."""

from frame_kinematics.core.spatial import exp_so3, log_so3
import numpy as np
import pytest


def test_the_compiled_rotation_log_is_log_so3():
    """The LM residual's rotation vector follows ``spatial.log_so3``, near pi included."""
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import lm
    rng = np.random.default_rng(54)
    turn = rng.normal(size=(40, 3))
    turn /= np.linalg.norm(turn, axis=1)[:, None]
    turn *= np.concatenate([rng.uniform(0.0, np.pi, 30), np.pi - np.array(
        [0, 1e-9, 1e-6, 5e-5, 0.9999e-4, 1.0001e-4, 2e-4, 1e-3, 1e-2, 0.5])])[:, None]
    tips = np.tile(np.eye(4), (40, 1, 1))
    tips[:, :3, :3] = exp_so3(rng.normal(size=(40, 3)))
    targets = tips.copy()
    targets[:, :3, :3] = exp_so3(turn) @ tips[:, :3, :3]
    out = np.empty(3)
    for t in range(40):
        angle = lm.rotation_vector(targets, tips, t, out, 0)
        expected = log_so3(targets[t, :3, :3] @ tips[t, :3, :3].T)
        np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)
        assert angle == pytest.approx(np.linalg.norm(expected), abs=1e-12)
