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
"""Tests of frame_kinematics.core.ik.sampler: the random configurations of the restarts."""

from conftest import all_joint_types_model, random_configuration
import numpy as np


def test_random_restarts_keep_unbounded_entries_and_draw_unit_quaternions():
    from frame_kinematics.core.ik.sampler import Sampler
    model = all_joint_types_model(backend='numpy')
    layout = model.layout
    assert layout.floating and layout.planar
    sampler = Sampler(layout, np.random.default_rng(3))
    seeds = np.stack([random_configuration(model, np.random.default_rng(4))] * 50)
    draws = sampler.sample(seeds)
    unbounded = ~(np.isfinite(layout.lower) & np.isfinite(layout.upper))
    unbounded[layout.wrap_q] = False  # continuous joints are drawn in [-pi, pi)
    assert np.any(unbounded) and len(layout.wrap_q)
    np.testing.assert_array_equal(draws[:, unbounded], seeds[:, unbounded])
    assert np.all(np.ptp(draws[:, ~unbounded], axis=0) > 0)
    for iq, _, _ in layout.floating:
        np.testing.assert_allclose(np.linalg.norm(draws[:, iq + 3:iq + 7], axis=-1), 1.0,
                                   rtol=0.0, atol=1e-15)
    assert np.all(layout.is_valid(draws, 0.0))
