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
"""Helpers shared by the tests of the compiled backend (``frame_kinematics.core.accel``)."""

from conftest import all_joint_types_model, real_robot_path, REAL_ROBOTS
from frame_kinematics import robots
from frame_kinematics.core import backend, Robot, RobotModel
import numpy as np
import pytest

#: What the compiled backend's numbers may differ from the numpy reference's by.
TOLERANCE = 1e-12
#: The bundled robots loaded on a floating base by :func:`backend_pair`.
FLOATING = {'bundled:fk_quadruped': True}


def backend_pair(name):
    """Load the same robot on both backends: ``(numpy model, numba model)``."""
    if name == 'all_types':
        return tuple(all_joint_types_model(backend=b) for b in backend.BACKENDS)
    if name.startswith('bundled:'):
        path, floating = robots.path(name[8:]), FLOATING.get(name, False)
    else:
        path, floating = real_robot_path(name), REAL_ROBOTS.get(name, ('', False))[1]
    return tuple(Robot.from_urdf_file(path, floating_base=floating, backend=b)
                 for b in backend.BACKENDS)


def assert_close(a, b):
    """Check that two arrays are equal to :data:`TOLERANCE`."""
    np.testing.assert_allclose(a, b, rtol=0.0, atol=TOLERANCE)


def compiled_model(path_or_model, **kwargs):
    """Return a model on the numba backend (a model given is returned); skip without numba."""
    pytest.importorskip('numba')
    if isinstance(path_or_model, RobotModel):
        return path_or_model
    return Robot.from_urdf_file(path_or_model, backend='numba', **kwargs)


def count_single_solves(monkeypatch):
    """Count the calls of ``CompiledChain.solve_one``: return the list each call appends to."""
    from frame_kinematics.core.accel import ik_engine
    calls = []
    original = ik_engine.CompiledChain.solve_one

    def counted(self, *args):
        calls.append(1)
        return original(self, *args)

    monkeypatch.setattr(ik_engine.CompiledChain, 'solve_one', counted)
    return calls
