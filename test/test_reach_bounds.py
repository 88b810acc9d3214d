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
"""The reach bound: the sum of the joint-to-joint distances, never tighter than the truth."""

from conftest import bundled, joint_xml, link_xml, urdf
from frame_kinematics.core import ConfigurationError, Robot
from frame_kinematics.core.reach import reach_bound
import numpy as np
import pytest


def _planar_arm():
    body = (link_xml('base') + link_xml('l1') + link_xml('l2') + link_xml('tip') +
            joint_xml('j1', 'revolute', 'base', 'l1', xyz='0 0 0.5') +
            joint_xml('j2', 'revolute', 'l1', 'l2', xyz='0.3 0 0', axis='0 1 0') +
            joint_xml('j3', 'prismatic', 'l2', 'tip', xyz='0.2 0 0', axis='1 0 0'))
    return Robot.from_urdf_string(urdf(body), backend='numpy')


def test_bound_by_hand():
    model = _planar_arm()
    lower, upper = model.joint('j3').lower, model.joint('j3').upper
    bound = reach_bound(model, 'tip', ['j1', 'j2', 'j3'], model.neutral_configuration())
    assert np.allclose(bound.center, [0, 0, 0.5])
    assert np.isclose(bound.radius, 0.3 + 0.2 + max(abs(lower), abs(upper)))
    held = reach_bound(model, 'tip', ['j2'], model.neutral_configuration())
    assert np.allclose(held.center, [0.3, 0, 0.5]) and np.isclose(held.radius, 0.2)


def test_no_configuration_leaves_the_bound():
    model = bundled('fk_arm', backend='numpy')
    joints = [j.name for j in model.joints if j.idx_q >= 0 and 'finger' not in j.name]
    q0 = model.neutral_configuration()
    bound = reach_bound(model, 'tool0', joints, q0)
    rng = np.random.default_rng(5)
    q = np.tile(q0, (2000, 1))
    for name in joints:
        joint = model.joint(name)
        q[:, joint.idx_q] = rng.uniform(joint.lower, joint.upper, 2000)
    tips = model.forward_kinematics(q).transform('tool0')[:, :3, 3]
    distance = np.linalg.norm(tips - bound.center, axis=1)
    assert distance.max() <= bound.radius + 1e-9
    assert distance.max() > 0.7 * bound.radius  # and not a loose one
    assert not bound.outside(tips, 0.0).any()


@pytest.mark.parametrize('active, words', [
    (None, 'got NoneType'),
    ('j1', 'got str'),
    ([1, 2], 'got list'),
    (5, 'got int'),
])
def test_active_joints_that_are_not_names_are_refused(active, words):
    model = _planar_arm()
    with pytest.raises(ConfigurationError, match=f'active_joints must be joint names, {words}'):
        reach_bound(model, 'tip', active, model.neutral_configuration())
