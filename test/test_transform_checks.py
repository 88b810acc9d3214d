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
"""Rigid transforms and quaternions a user gives, checked: their refusals and the copies made."""

from frame_kinematics.core import spatial as sp, transform_checks as tc
from frame_kinematics.core.errors import ConfigurationError
import numpy as np
import pytest


def test_check_transform_refuses_non_rigid():
    good = sp.transform_from_xyz_rpy([1, 2, 3], [0.1, 0.2, 0.3])
    np.testing.assert_allclose(tc.check_transform(good), good)
    scaled = good.copy()
    scaled[:3, :3] *= 1.1
    with pytest.raises(ConfigurationError, match='orthonormal'):
        tc.check_transform(scaled, 'target')
    with pytest.raises(ConfigurationError, match='NaN'):
        tc.check_transform(np.full((4, 4), np.nan))
    with pytest.raises(ConfigurationError, match='shape'):
        tc.check_transform(np.eye(3))
    mirrored = np.diag([1.0, 1.0, -1.0, 1.0])
    with pytest.raises(ConfigurationError, match='orthonormal'):
        tc.check_transform(mirrored)


def test_check_pose_returns_a_copy_of_one_rigid_transform():
    good = sp.transform_from_xyz_rpy([1, 2, 3], [0.1, 0.2, 0.3])
    pose = tc.check_pose(good.tolist(), 'pose')
    np.testing.assert_array_equal(pose, good)
    assert pose.dtype == np.float64 and not np.shares_memory(tc.check_pose(good, 'pose'), good)


@pytest.mark.parametrize('value, words', [
    (np.stack([np.eye(4)] * 2), 'pose must be one 4x4 transform, got shape (2, 4, 4)'),
    ('eye', 'pose must be numbers'),
    (np.diag([1.0, 1.0, 1.1, 1.0]), 'pose has a rotation that is not orthonormal'),
    (np.block([[np.eye(3), np.full((3, 1), 1e17)], [np.zeros((1, 3)), np.ones((1, 1))]]),
     'pose has NaN or inf or a magnitude above'),
])
def test_check_pose_refuses_anything_else_by_name(value, words):
    with pytest.raises(ConfigurationError) as caught:
        tc.check_pose(value, 'pose')
    assert str(caught.value).startswith(words)


def test_a_unit_quaternion_is_normalised_within_the_tolerance():
    quat = np.array([0.0, 0.0, 0.0, 1.0 + 0.5 * tc.QUATERNION_NORM_TOLERANCE])
    np.testing.assert_array_equal(tc.unit_quaternion(quat), [0.0, 0.0, 0.0, 1.0])
    with pytest.raises(ConfigurationError, match='q has norm 1.0002, expected a unit'):
        tc.unit_quaternion([0.0, 0.0, 0.0, 1.0002], 'q')


@pytest.mark.filterwarnings('error')  # no overflow in the norm, no warning
@pytest.mark.parametrize('value', [1e308, -1e17, np.inf, np.nan])
def test_a_quaternion_beyond_every_magnitude_is_refused_before_its_norm(value):
    with pytest.raises(ConfigurationError, match='q has NaN or inf or a magnitude above 1e\\+16 '
                                                 'for x'):
        tc.unit_quaternion([value, 0.0, 0.0, 1.0], 'q')
