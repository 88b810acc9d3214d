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

from conftest import all_joint_types_model, bundled, joint_xml, link_xml, urdf
from frame_kinematics.core import ConfigurationError, Robot, UnknownFrameError
from frame_kinematics.core.reach import reach_bound
import numpy as np
import pytest


def _planar_arm():
    body = (link_xml('base') + link_xml('l1') + link_xml('l2') + link_xml('tip') +
            joint_xml('j1', 'revolute', 'base', 'l1', xyz='0 0 0.5') +
            joint_xml('j2', 'revolute', 'l1', 'l2', xyz='0.3 0 0', axis='0 1 0') +
            joint_xml('j3', 'prismatic', 'l2', 'tip', xyz='0.2 0 0', axis='1 0 0'))
    return Robot.from_urdf_string(urdf(body), backend='numpy')


def test_the_bound_is_the_sum_of_joint_distances_and_travel():
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


def test_a_prismatic_joint_away_from_zero_does_not_shrink_the_bound():
    body = (link_xml('base') + link_xml('l1') + link_xml('tip') +
            joint_xml('j1', 'prismatic', 'base', 'l1', xyz='1 0 0', axis='1 0 0') +
            joint_xml('fixed', 'fixed', 'l1', 'tip'))
    model = Robot.from_urdf_string(urdf(body), backend='numpy')  # j1 within [-2, 2]
    bound = reach_bound(model, 'tip', None, np.array([-1.0]))  # the tip at the base's origin
    assert np.allclose(bound.center, [1, 0, 0]) and np.isclose(bound.radius, 2.0)
    reachable = model.transform(np.array([2.0]), 'tip')[:3, 3]  # 3 m from the base
    assert not bound.outside(reachable, 0.0)


def _random_chain(rng):
    """Build a chain of 2 to 6 revolute, continuous and prismatic joints, random poses, axes."""
    count = int(rng.integers(2, 7))
    body = ''.join(link_xml(f'l{i}') for i in range(count + 1)) + link_xml('tip')
    for i in range(count):
        kind = str(rng.choice(['revolute', 'continuous', 'prismatic']))
        xyz = ' '.join(f'{x:.3f}' for x in rng.uniform(-0.5, 0.5, 3))
        rpy = ' '.join(f'{x:.3f}' for x in rng.uniform(-np.pi, np.pi, 3))
        axis = rng.normal(size=3)
        body += joint_xml(f'j{i}', kind, f'l{i}', f'l{i + 1}', xyz=xyz, rpy=rpy,
                          axis=' '.join(repr(float(a)) for a in axis / np.linalg.norm(axis)))
    body += joint_xml('tool', 'fixed', f'l{count}', 'tip', xyz='0.1 0.05 0')
    return Robot.from_urdf_string(urdf(body), backend='numpy')


@pytest.mark.parametrize('seed', range(12))
def test_no_configuration_of_the_active_joints_leaves_the_bound_from_any_held_one(seed):
    rng = np.random.default_rng(seed)
    model = _random_chain(rng)
    joints = [j for j in model.joints if j.idx_q >= 0]
    active = [j.name for j in joints if rng.random() < 0.7] or [joints[-1].name]

    def within_limits(count):
        q = np.empty((count, model.nq))
        for joint in joints:
            low, high = (-np.pi, np.pi) if joint.lower == -np.inf else (joint.lower, joint.upper)
            q[:, joint.idx_q] = rng.uniform(low, high, count)
        return q

    held = within_limits(1)[0]
    bound = reach_bound(model, 'tip', active, held)
    q = np.tile(held, (3000, 1))
    moved = within_limits(3000)
    for name in active:
        index = model.joint(name).idx_q
        q[:, index] = moved[:, index]
    for name in active:  # and the ends of the prismatic joints' ranges
        joint = model.joint(name)
        if joint.type.name == 'PRISMATIC':
            q[:2, joint.idx_q] = joint.lower, joint.upper
    tips = model.forward_kinematics(q).transform('tip')
    assert not bound.outside(tips[:, :3, 3], 1e-12).any()


def test_a_bound_is_of_one_configuration():
    model = _planar_arm()
    with pytest.raises(ConfigurationError, match=r'one configuration \(nq,\), got shape'):
        reach_bound(model, 'tip', None, np.zeros((2, model.nq)))


def _mimic_arm():
    # j2 mimics m, a joint off the tip's path: -1.5 m + 0.2, m within [-2, 2]
    body = (link_xml('base') + link_xml('l1') + link_xml('side') + link_xml('tip') +
            joint_xml('j1', 'revolute', 'base', 'l1', xyz='0 0 0.5') +
            joint_xml('m', 'prismatic', 'base', 'side', axis='1 0 0') +
            joint_xml('j2', 'prismatic', 'l1', 'tip', xyz='0.3 0 0', axis='1 0 0',
                      extra='<mimic joint="m" multiplier="-1.5" offset="0.2"/>'))
    return Robot.from_urdf_string(urdf(body), backend='numpy')


def test_a_mimic_joint_moves_with_its_master_and_travels_its_masters_range():
    model = _mimic_arm()
    q0 = model.neutral_configuration()
    # j2's frame is 0.3 m from j1's; j2 moves the tip -2.8 to 3.2 m from it (0.2 at q0)
    both = reach_bound(model, 'tip', ['j1', 'm'], q0)
    assert np.allclose(both.center, [0, 0, 0.5]) and np.isclose(both.radius, 0.3 + 3.2)
    master = reach_bound(model, 'tip', ['m'], q0)
    assert np.allclose(master.center, [0.3, 0, 0.5]) and np.isclose(master.radius, 3.2)
    alone = reach_bound(model, 'tip', ['j1'], q0)
    assert np.allclose(alone.center, [0, 0, 0.5]) and np.isclose(alone.radius, 0.5)


def test_a_floating_or_planar_joint_on_the_path_gives_no_bound():
    model = all_joint_types_model(backend='numpy')
    q0 = model.neutral_configuration()
    state = model.forward_kinematics(q0)
    floating = reach_bound(model, 'tip', ['j_free', 'j_rev'], q0)
    assert floating.radius == np.inf
    assert np.allclose(floating.center, state.transform('free')[:3, 3])
    planar = reach_bound(model, 'plane', ['j_planar'], q0)
    assert planar.radius == np.inf
    assert np.allclose(planar.center, state.transform('plane')[:3, 3])


@pytest.mark.parametrize('active', [[], ['j2', 'j3']])
def test_no_moving_joint_gives_a_point_at_the_tip(active):
    model = _planar_arm()
    bound = reach_bound(model, 'l1', active, model.neutral_configuration())
    assert np.allclose(bound.center, [0, 0, 0.5]) and bound.radius == 0.0


def test_active_joints_are_read_as_a_joint_selection_reads_them():
    model = _planar_arm()
    q0 = model.neutral_configuration()
    every = reach_bound(model, 'tip', ['j1', 'j2', 'j3'], q0)
    default = reach_bound(model, 'tip', None, q0)
    assert np.array_equal(default.center, every.center) and default.radius == every.radius
    one = reach_bound(model, 'tip', 'j2', q0)
    listed = reach_bound(model, 'tip', ['j2'], q0)
    assert np.array_equal(one.center, listed.center) and one.radius == listed.radius


@pytest.mark.parametrize('active, error, words', [
    (5, ConfigurationError, 'active_joints must be a joint name or a list of names, got int'),
    (['shoulder_pan_joint', 'flange_fixed_joint'], ConfigurationError,
     "joint 'flange_fixed_joint' is fixed: only actuated joints can be active"),
    (['right_finger_joint'], ConfigurationError,
     "joint 'right_finger_joint' is a mimic joint: only actuated joints can be active"),
    (['no_such_joint'], UnknownFrameError, "unknown joint 'no_such_joint'"),
])
def test_active_joints_that_a_joint_selection_refuses_are_refused(active, error, words):
    model = bundled('fk_arm', backend='numpy')
    with pytest.raises(error, match=words):
        reach_bound(model, 'tool0', active, model.neutral_configuration())


def test_a_bound_is_of_one_tip():
    model = _planar_arm()
    with pytest.raises(ConfigurationError, match='the reach bound is of one tip, got 2'):
        reach_bound(model, ['tip', 'l2'], None, model.neutral_configuration())
