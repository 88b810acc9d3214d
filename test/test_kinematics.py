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
Tests of frame_kinematics.core.kinematics: the public front on the bundled arm.

The rest of the sub-package is tested module by module (test_kinematics_*.py): cross-checked
against Pinocchio on real robots and against finite differences on inline URDFs with every
joint type.
"""

from conftest import bundled
import numpy as np
import pytest


def test_minimum_public_api_on_the_bundled_arm():
    model = bundled('fk_arm')
    q = np.zeros(len(model.joint_names))
    state = model.forward_kinematics(q)
    assert state.transform('tool0').shape == (4, 4)
    np.testing.assert_allclose(state.relative_transform('base_link', 'tool0'),
                               state.transform('tool0'), atol=1e-15)
    np.testing.assert_allclose(state.relative_transform('tool0', 'base_link')
                               @ state.transform('tool0'), np.eye(4), atol=1e-14)
    assert model.jacobian(q, 'tool0').shape == (6, model.nv)
    pose = model.transform(q, 'tool0')  # a new array, the caller's
    np.testing.assert_array_equal(pose, state.transform('tool0'))
    pose[:] = 0.0
    np.testing.assert_array_equal(model.transform(q, 'tool0'), state.transform('tool0'))
    assert model.transform(np.zeros((3, model.nq)), 'tool0').shape == (3, 4, 4)
    mass, com = model.center_of_mass(q)
    assert mass == pytest.approx(21.5)
    assert com.shape == (3,)
    # tool0 is 0.1 m past the gripper base along its z axis.
    np.testing.assert_allclose(state.relative_transform('gripper_base_link', 'tool0')[:3, 3],
                               [0, 0, 0.1], atol=1e-15)
