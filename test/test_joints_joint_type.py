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
"""Tests of frame_kinematics.core.joints.joint_type: JointType's tables and motion."""

from frame_kinematics.core.joints import ConfigurationLayout, JointType
from frame_kinematics.core.transform_checks import QUATERNION_NORM_TOLERANCE
import numpy as np
import pytest

RNG_SEED = 7


@pytest.mark.parametrize('jtype', [t for t in JointType if t.moves])
def test_motion_subspace_is_the_derivative_of_the_transform(jtype):
    rng = np.random.default_rng(RNG_SEED)
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    layout = ConfigurationLayout([('j', jtype, -3.0, 3.0)])
    q = layout.sample_uniform(rng, None, 1.0)
    subspace = jtype.motion_subspace(axis)
    eps = 1e-7
    joint_T_child = jtype.transform(axis, q)
    for k in range(jtype.nv):
        dv = np.zeros(jtype.nv)
        dv[k] = eps
        moved = jtype.transform(axis, layout.integrate(q, dv))
        delta = np.linalg.inv(joint_T_child) @ moved  # child_T_child' for a small motion
        twist = np.concatenate([delta[:3, 3], [delta[2, 1], delta[0, 2], delta[1, 0]]]) / eps
        np.testing.assert_allclose(twist, subspace[:, k], atol=1e-6)


def test_type_tables():
    assert [t.nq for t in JointType] == [0, 1, 1, 1, 3, 7]
    assert [t.nv for t in JointType] == [0, 1, 1, 1, 3, 6]
    lower, upper = JointType.FLOATING.limits(-1.0, 1.0)
    assert np.all(np.isinf(lower[:3])) and np.all(lower[3:] == -1.0) and np.all(upper[3:] == 1)
    assert JointType.REVOLUTE.limits(-2.0, 3.0) == (np.array([-2.0]), np.array([3.0]))
    assert np.array_equal(JointType.FLOATING.neutral(), [0, 0, 0, 0, 0, 0, 1])
    assert JointType.from_urdf('planar') is JointType.PLANAR
    assert 0 < QUATERNION_NORM_TOLERANCE < 1e-3
