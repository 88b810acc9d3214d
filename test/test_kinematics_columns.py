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
"""Tests of frame_kinematics.core.kinematics.columns: the Jacobians of the motion columns."""

from conftest import random_configuration
from frame_kinematics.core import ExpressedIn
from frame_kinematics.core.spatial import log_so3
from kinematics_testing import integrate, model_fixture, MODEL_NAMES
import numpy as np
import pytest

model = model_fixture()


@pytest.mark.parametrize('model', MODEL_NAMES, indirect=True)
def test_jacobians_match_finite_differences(model):
    rng = np.random.default_rng(11)
    dt = 1e-6
    for _ in range(3):
        q = random_configuration(model, rng)
        state = model.forward_kinematics(q)
        for link in model.links:
            point = rng.normal(size=3) * 0.2
            jac = {ref: state.jacobian(link.name, point, ref) for ref in ExpressedIn}
            for k in range(model.nv):
                dv = np.zeros(model.nv)
                dv[k] = 1.0
                plus = model.forward_kinematics(integrate(model, q, dv, dt))
                minus = model.forward_kinematics(integrate(model, q, dv, -dt))
                p_dot = (plus.position(link.name, point) - minus.position(link.name, point)) \
                    / (2 * dt)
                r_plus = plus.transform(link.name)[:3, :3]
                r_minus = minus.transform(link.name)[:3, :3]
                w = log_so3(r_plus @ r_minus.T) / (2 * dt)
                lwa = jac[ExpressedIn.LOCAL_WORLD_ALIGNED][:, k]
                np.testing.assert_allclose(lwa, np.concatenate([p_dot, w]), atol=1e-7)
                rot = state.transform(link.name)[:3, :3]
                np.testing.assert_allclose(jac[ExpressedIn.LOCAL][:, k],
                                           np.concatenate([rot.T @ p_dot, rot.T @ w]),
                                           atol=1e-7)
                p_world = state.position(link.name, point)
                np.testing.assert_allclose(jac[ExpressedIn.WORLD][:, k],
                                           np.concatenate([p_dot - np.cross(w, p_world), w]),
                                           atol=1e-7)
