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
"""Tests of frame_kinematics.bridge.publish: joint transforms, CoM and markers of one message."""

from bridge_testing import ARM, ARM_JOINTS, as_matrix, FLOATING
from conftest import random_configuration
from frame_kinematics.bridge import BridgeSettings
from frame_kinematics.bridge.messages import BridgeOutput
from frame_kinematics.bridge.model_core import ModelCore, parse_description
from frame_kinematics.bridge.publish import Publisher
from frame_kinematics.core import Robot
import numpy as np
import pytest

STAMP, COM_STAMP = 1_000_000_007, 1_000_000_003
#: The modes whose CoM orientation does not depend on the link poses, and two that do.
MODES = ('root', 'quaternion', 'yaw', 'ypr')


def core_on(text, backend='numpy', **settings):
    """Return a model core of a description on a backend (numba: skip the test without it)."""
    if backend == 'numba':
        pytest.importorskip('numba')
    model = parse_description(text) if backend == 'numpy' else Robot.from_urdf_string(
        text, backend=backend)
    return ModelCore(model, BridgeSettings(publish_frequency=0.0, **settings).validated())


@pytest.fixture(scope='module', name='arm')
def arm_fixture():
    return core_on(ARM)


def publish(core, q, names=ARM_JOINTS, v=None, joints=True, com_ns=COM_STAMP, markers=False,
            publisher=None):
    """Return the output a publisher fills for one stored message."""
    out = BridgeOutput()
    plan = core.index.plan(tuple(names), core.settings.frame_prefix)
    (publisher or Publisher()).publish(out, core, plan, q, v, STAMP, joints, com_ns, markers)
    return out


def moved(core, names=ARM_JOINTS):
    """Return the children of the joint transforms a message naming ``names`` moves."""
    return core.index.plan(tuple(names), core.settings.frame_prefix).children


def state_of(core, seed, velocity=False):
    """Return a random ``(q, v)`` of a core's model, read-only as the bridge stores them."""
    rng = np.random.default_rng(seed)
    q = random_configuration(core.model, rng)
    v = rng.normal(size=core.model.nv) if velocity else None
    for array in (q, v):
        if array is not None:
            array.setflags(write=False)
    return q, v


def test_joint_transforms_are_the_named_joints_in_message_order_at_the_message_stamp():
    core = core_on(ARM, frame_prefix='r1/')
    q, _ = state_of(core, 1)
    names = ('wrist_2_joint', 'shoulder_pan_joint')
    out = publish(core, q, names, com_ns=None)
    assert [(t.parent, t.child) for t in out.tf] == [('r1/wrist_1_link', 'r1/wrist_2_link'),
                                                     ('r1/base_link', 'r1/shoulder_link')]
    assert {t.stamp_ns for t in out.tf} == {STAMP}
    state = core.model.forward_kinematics(q)
    for t in out.tf:
        parent_T_child = np.linalg.inv(state.transform(t.parent[3:])) @ state.transform(
            t.child[3:])
        np.testing.assert_allclose(as_matrix(t), parent_T_child, rtol=0, atol=1e-12)


def test_the_com_frame_comes_last_with_the_com_stamp_and_the_topic_values(arm):
    q, _ = state_of(arm, 2)
    out = publish(arm, q)
    _, root_p_com = arm.model.center_of_mass(q)
    *joints, com = out.tf
    assert [t.child for t in joints] == moved(arm) and {t.stamp_ns for t in joints} == {STAMP}
    assert 'right_finger_link' in moved(arm)  # the mimic follower of a named joint
    assert (com.parent, com.child, com.stamp_ns) == ('base_link', 'com', COM_STAMP)
    np.testing.assert_allclose(com.translation, root_p_com, rtol=0, atol=1e-12)
    assert com.rotation == (0.0, 0.0, 0.0, 1.0)
    topics = out.center_of_mass
    assert (topics.stamp_ns, topics.frame_id, topics.position) == (COM_STAMP, 'base_link',
                                                                   com.translation)
    assert topics.velocity is None and topics.angular_momentum is None
    assert out.markers is None


def test_a_velocity_adds_the_com_velocity_and_the_angular_momentum(arm):
    q, v = state_of(arm, 3, velocity=True)
    topics = publish(arm, q, v=v).center_of_mass
    state = arm.model.forward_kinematics(q, v)
    np.testing.assert_allclose(topics.velocity, state.center_of_mass_velocity(), rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(topics.angular_momentum, state.angular_momentum(), rtol=0,
                               atol=1e-12)


def test_without_joints_only_the_com_frame_is_published(arm):
    q, _ = state_of(arm, 4)
    out = publish(arm, q, joints=False)
    assert [(t.child, t.stamp_ns) for t in out.tf] == [('com', COM_STAMP)]
    assert out.center_of_mass is not None


def test_without_a_com_stamp_neither_the_com_nor_its_markers_are_published(arm):
    q, _ = state_of(arm, 5)
    out = publish(arm, q, com_ns=None, markers=True)
    assert [t.child for t in out.tf] == moved(arm)
    assert out.center_of_mass is None and out.markers is None


def test_markers_come_with_the_com_in_the_prefixed_root_at_the_com_stamp():
    core = core_on(ARM, frame_prefix='r1/')
    q, _ = state_of(core, 6)
    out = publish(core, q, markers=True)
    assert out.markers
    assert {(m.frame_id, m.stamp_ns) for m in out.markers} == {('r1/base_link', COM_STAMP)}
    assert out.markers[0].namespace == 'com'
    np.testing.assert_allclose(out.markers[0].position, out.center_of_mass.position, rtol=0,
                               atol=1e-12)


def test_a_publisher_follows_each_new_configuration(arm):
    publisher = Publisher()
    first, second = state_of(arm, 7)[0], state_of(arm, 8)[0]
    for q in (first, second, first):
        out = publish(arm, q, publisher=publisher)
        np.testing.assert_allclose(out.center_of_mass.position, arm.model.center_of_mass(q)[1],
                                   rtol=0, atol=1e-12)


def test_after_a_reset_a_publisher_serves_another_model_core(arm):
    publisher = Publisher()
    publish(arm, state_of(arm, 9)[0], publisher=publisher)
    publisher.reset()
    floater = core_on(FLOATING)  # floating joint skipped: the CoM is given in its child
    q, _ = state_of(floater, 10)
    out = publish(floater, q, names=('hip',), publisher=publisher)
    assert [(t.parent, t.child) for t in out.tf] == [('base', 'arm'), ('base', 'com')]
    state = floater.model.forward_kinematics(q)
    base_p_com = np.linalg.solve(state.transform('base'), np.append(state.center_of_mass(), 1))
    np.testing.assert_allclose(out.center_of_mass.position, base_p_com[:3], rtol=0,
                               atol=1e-12)
    assert out.center_of_mass.frame_id == 'base'


#: The robots compared on both backends: ``name -> (description, floating_joints)``.
ROBOTS = {'arm': (ARM, 'skip'), 'floater on tf': (FLOATING, 'tf'),
          'floater skipped': (FLOATING, 'skip')}


@pytest.fixture(scope='module', name='cores')
def cores_fixture():
    """Return ``{(robot, mode): (numpy core, numba core)}`` of every robot of ROBOTS."""
    pytest.importorskip('numba')
    return {(name, mode): tuple(core_on(text, backend, com_orientation=mode,
                                        floating_joints=floating)
                                for backend in ('numpy', 'numba'))
            for name, (text, floating) in ROBOTS.items() for mode in MODES}


def assert_same_output(ours, theirs):
    assert [t[:3] for t in ours.tf] == [t[:3] for t in theirs.tf]
    for a, b in zip(ours.tf, theirs.tf):
        np.testing.assert_allclose(a.translation, b.translation, rtol=0, atol=1e-12)
        np.testing.assert_allclose(a.rotation, b.rotation, rtol=0, atol=1e-12)
    if theirs.center_of_mass is None:
        assert ours.center_of_mass is None
        return
    mine, other = ours.center_of_mass, theirs.center_of_mass
    assert (mine.stamp_ns, mine.frame_id) == (other.stamp_ns, other.frame_id)
    for field in ('position', 'velocity', 'angular_momentum'):
        a, b = getattr(mine, field), getattr(other, field)
        assert (a is None) == (b is None), field
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-11, err_msg=field)
    assert (ours.markers is None) == (theirs.markers is None)
    assert len(ours.markers or ()) == len(theirs.markers or ())
    for a, b in zip(ours.markers or (), theirs.markers or ()):
        assert a[:4] == b[:4]
        np.testing.assert_allclose(a.position, b.position, rtol=0, atol=1e-12)


@pytest.mark.parametrize('robot', sorted(ROBOTS))
@pytest.mark.parametrize('mode', MODES)
def test_the_compiled_backend_publishes_what_the_frame_tree_does(cores, robot, mode):
    slow, fast = cores[robot, mode]
    assert fast.index.transforms.compiled and not slow.index.transforms.compiled
    names = fast.model.configuration_names
    for seed, velocity, joints, com_ns, markers in [
            (20, False, True, COM_STAMP, False), (21, True, True, COM_STAMP, False),
            (22, True, False, COM_STAMP, False), (23, False, True, None, False),
            (24, True, True, COM_STAMP, True)]:
        q, v = state_of(slow, seed, velocity)
        options = {'names': names, 'v': v, 'joints': joints, 'com_ns': com_ns, 'markers': markers}
        assert_same_output(publish(fast, q, **options), publish(slow, q, **options))
