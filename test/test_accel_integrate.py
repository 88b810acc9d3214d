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
"""Tests of frame_kinematics.core.accel.integrate."""

from conftest import all_joint_types_model, random_configuration
from frame_kinematics.core.joints import wrap_angle
import numpy as np
import pytest


def test_compiled_integration_equals_the_layouts():
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import integrate
    model = all_joint_types_model(backend='numba')
    layout = model.layout

    def indices(pairs, which):
        return np.array([pair[which] for pair in pairs], dtype=np.int64)

    steps = (np.array(layout.one_q), np.array(layout.one_v), indices(layout.floating, 0),
             indices(layout.floating, 1), indices(layout.planar, 0), indices(layout.planar, 1))
    rng = np.random.default_rng(49)
    q = random_configuration(model, rng, 40)
    for scale in (1e-6, 1e-2, 1.0, 3.0):
        v = scale * rng.standard_normal((40, model.nv))
        expected = layout.integrate(q, v)
        for b in range(len(q)):
            out = np.empty(model.nq)
            integrate.integrate(q[b], v[b], steps, out)
            out[layout.wrap_q] = wrap_angle(out[layout.wrap_q])   # the solver wraps them
            np.testing.assert_allclose(out, expected[b], rtol=0.0, atol=1e-12)


def test_compiled_wrap_equals_wrap_angle_at_the_edges():
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import integrate
    edges = [np.nextafter(-np.pi, -4.0), -np.pi, np.nextafter(-np.pi, 0.0), 0.0, -0.0,
             np.nextafter(np.pi, 0.0), np.pi, np.nextafter(np.pi, 4.0), 3 * np.pi, -3 * np.pi,
             1e16, -1e16]
    angles = np.concatenate([edges, np.random.default_rng(50).uniform(-40.0, 40.0, 200)])
    wrapped = np.array([integrate.wrap(a) for a in angles])
    np.testing.assert_array_equal(wrapped, wrap_angle(angles))
    assert np.all((-np.pi <= wrapped) & (wrapped < np.pi))
