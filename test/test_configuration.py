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
"""Configuration space: limits, clip, validity, distance, interpolation, step, sampling."""

from conftest import (all_joint_types_model, bundled, erd_urdf, joint_xml, link_xml,
                      random_configuration, real_robot_path, urdf)
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ConfigurationError, Robot, UnknownFrameError, URDFError
from frame_kinematics.core.spatial import exp_se3, rotation_from_quaternion, transform
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

V_FREE = slice(0, 6)


@pytest.fixture(scope='module')
def model():
    """Return the model with every joint type, one for the module's tests."""
    return all_joint_types_model()


@pytest.fixture(scope='module')
def q_at(model):
    """Return the index in q of each of the model's configuration entries, by name."""
    return {name: i for i, name in enumerate(model.configuration_names)}


def _wheel():
    body = '\n'.join([link_xml('base'), link_xml('wheel'), link_xml('arm'),
                      joint_xml('spin', 'continuous', 'base', 'wheel'),
                      joint_xml('lift', 'revolute', 'wheel', 'arm', axis='0 1 0')])
    return Robot.from_urdf_string(urdf(body, 'wheel'))


@pytest.fixture(scope='module')
def wheel():
    """Return the model of a continuous joint then a bounded one, one for the module."""
    return _wheel()


def _pose(q, iq=0):
    return transform(rotation_from_quaternion(q[..., iq + 3:iq + 7]), q[..., iq:iq + 3])


def test_joint_limits_per_type(model, q_at):
    lower, upper = cfg.joint_limits(model)
    assert lower[q_at['j_rev']] == -2 and upper[q_at['j_rev']] == 2
    assert lower[q_at['j_pri']] == -2 and upper[q_at['j_pri']] == 2
    assert lower[q_at['j_cont']] == -np.inf and upper[q_at['j_cont']] == np.inf
    assert np.all(np.isinf(lower[:3])) and np.all(np.isinf(upper[:3]))
    assert np.all(lower[3:7] == -1.0) and np.all(upper[3:7] == 1.0)
    assert np.all(np.isinf(lower[-3:]))


def test_one_limit_table(model, q_at):
    """configuration.joint_limits is the model's table (they disagreed on quaternions)."""
    lower, upper = cfg.joint_limits(model)
    assert np.array_equal(lower, model.lower) and np.array_equal(upper, model.upper)
    lower[:] = 0.0
    assert model.lower[q_at['j_rev']] == -2


def test_clip_projects_wraps_and_leaves_input_alone(model, q_at):
    q = model.neutral_configuration()
    q[q_at['j_rev']] = 3.0
    q[q_at['j_pri']] = -7.0
    q[q_at['j_cont']] = 4.0
    before = q.copy()
    out = cfg.clip(model, q)
    assert np.array_equal(q, before)
    assert out[q_at['j_rev']] == 2.0 and out[q_at['j_pri']] == -2.0
    assert out[q_at['j_cont']] == pytest.approx(4.0 - 2 * np.pi)
    assert cfg.is_valid(model, out)
    assert not cfg.is_valid(model, q)


def test_is_valid_batch_and_failures(model, q_at):
    rng = np.random.default_rng(0)
    q = cfg.random_uniform(model, rng, 4)
    assert cfg.is_valid(model, q).tolist() == [True] * 4
    q[1, q_at['j_rev']] = 2.5
    q[2, q_at['j_free/qw']] += 0.5
    q[3, q_at['j_pri']] = np.nan
    assert cfg.is_valid(model, q).tolist() == [True, False, False, False]
    assert cfg.is_valid(model, q[1], tolerance=0.6)
    with pytest.raises(ConfigurationError):
        cfg.is_valid(model, np.zeros(3))


def test_continuous_distance_and_interpolation_wrap_around(wheel):
    q0 = np.array([np.pi - 0.1, 0.0])
    q1 = np.array([-np.pi + 0.1, 0.0])
    assert cfg.distance(wheel, q0, q1) == pytest.approx(0.2)
    assert cfg.difference(wheel, q0, q1)[0] == pytest.approx(0.2)
    mid = cfg.interpolate(wheel, q0, q1, 0.5)
    assert abs(mid[0]) == pytest.approx(np.pi)
    quarter = cfg.interpolate(wheel, q0, q1, 0.25)
    assert quarter[0] == pytest.approx(np.pi - 0.05)
    # A bounded revolute joint does not wrap: it goes the long way, within its limits.
    r0, r1 = np.array([0.0, 1.9]), np.array([0.0, -1.9])
    assert cfg.distance(wheel, r0, r1) == pytest.approx(3.8)


def test_step_wraps_continuous_joints(wheel):
    q = cfg.step(wheel, [3.0, 0.0], [1.0, 0.5], dt=0.5)
    assert q[0] == pytest.approx(3.5 - 2 * np.pi)
    assert q[1] == pytest.approx(0.25)


def test_floating_step_is_the_se3_exponential_of_the_local_twist(model):
    rng = np.random.default_rng(1)
    q = cfg.random_uniform(model, rng)
    v = rng.normal(size=model.nv)
    out = cfg.step(model, q, v, dt=0.3)
    expected = _pose(q) @ exp_se3(0.3 * v[V_FREE])
    assert np.allclose(_pose(out), expected, atol=1e-12)
    assert np.linalg.norm(out[3:7]) == pytest.approx(1.0, abs=1e-15)


def test_planar_step_moves_in_the_child_frame(model, q_at):
    iq = q_at['j_planar/x']
    iv = model.joint('j_planar').idx_v
    q = model.neutral_configuration()
    q[iq + 2] = np.pi / 2
    v = np.zeros(model.nv)
    v[iv] = 1.0
    out = cfg.integrate(model, q, v)
    assert np.allclose(out[iq:iq + 3], [0.0, 1.0, np.pi / 2])
    # A pure rotation about the normal with a forward speed traces an arc of a circle.
    v[iv + 2] = np.pi
    out = cfg.integrate(model, model.neutral_configuration(), v)
    assert np.allclose(out[iq:iq + 3], [0.0, 2 / np.pi, -np.pi], atol=1e-12) or \
        np.allclose(out[iq:iq + 3], [0.0, 2 / np.pi, np.pi], atol=1e-12)


@settings(max_examples=40)
@given(st.integers(0, 2 ** 31 - 1), st.floats(0.0, 1.0))
def test_difference_inverts_integrate_and_interpolation_is_geodesic(model, seed, alpha):
    rng = np.random.default_rng(seed)
    q0 = cfg.random_uniform(model, rng)
    q1 = cfg.random_uniform(model, rng)
    v = cfg.difference(model, q0, q1)
    assert np.allclose(cfg.difference(model, cfg.integrate(model, q0, v), q1), 0.0,
                       atol=1e-9)
    mid = cfg.interpolate(model, q0, q1, alpha)
    total = cfg.distance(model, q0, q1)
    assert cfg.distance(model, q0, mid) == pytest.approx(alpha * total, abs=1e-9)
    assert cfg.distance(model, mid, q1) == pytest.approx((1 - alpha) * total, abs=1e-9)


def test_interpolation_end_points_and_batch(model):
    rng = np.random.default_rng(2)
    q0 = cfg.random_uniform(model, rng, 3)
    q1 = cfg.random_uniform(model, rng, 3)
    assert np.allclose(cfg.distance(model, cfg.interpolate(model, q0, q1, 0.0), q0), 0,
                       atol=1e-12)
    assert np.allclose(cfg.distance(model, cfg.interpolate(model, q0, q1, 1.0), q1), 0,
                       atol=1e-9)
    out = cfg.interpolate(model, q0, q1, np.array([0.0, 0.5, 1.0]))
    assert out.shape == (3, model.nq)
    assert cfg.distance(model, out[0], q0[0]) < 1e-12
    assert cfg.distance(model, out[2], q1[2]) < 1e-9


def test_random_uniform_is_reproducible_and_within_limits(model):
    arm = bundled()
    a = cfg.random_uniform(arm, np.random.default_rng(7), 500)
    b = cfg.random_uniform(arm, np.random.default_rng(7), 500)
    assert np.array_equal(a, b)
    assert np.all(cfg.is_valid(arm, a))
    # Uniform: the sample spans the range of every joint (one turn of the arm's +-2 pi ones)
    lower, upper = arm.layout.turn_bounds()
    assert np.any(upper - lower < arm.upper - arm.lower)
    span = (a.max(axis=0) - a.min(axis=0)) / (upper - lower)
    assert np.all(span > 0.9)
    free = cfg.random_uniform(model, np.random.default_rng(3), 200, translation_range=0.5)
    assert np.all(np.abs(free[:, :3]) <= 0.5)
    assert np.allclose(np.linalg.norm(free[:, 3:7], axis=1), 1.0)
    assert np.all(cfg.is_valid(model, free))


def test_random_gaussian_centre_spread_and_limits():
    arm = bundled()
    mean = arm.neutral_configuration()
    mean[1] = 1.0
    rng = np.random.default_rng(4)
    samples = cfg.random_gaussian(arm, rng, mean, 0.1, size=4000)
    assert np.allclose(samples.mean(axis=0)[:6], mean[:6], atol=0.01)
    assert np.allclose(samples.std(axis=0)[:6], 0.1, atol=0.01)
    assert np.all(cfg.is_valid(arm, samples))
    assert np.array_equal(cfg.random_gaussian(arm, rng, mean, 0.0), mean)
    with pytest.raises(ConfigurationError):
        cfg.random_gaussian(arm, rng, mean, -1.0)
    with pytest.raises(ConfigurationError):
        cfg.random_gaussian(arm, rng, mean[:3], 0.1)


def test_invalid_shapes_raise(model, wheel):
    with pytest.raises(ConfigurationError):
        cfg.distance(model, np.zeros(3), np.zeros(3))
    with pytest.raises(ConfigurationError):
        cfg.step(model, model.neutral_configuration(), np.zeros(2))
    with pytest.raises(ConfigurationError):
        cfg.interpolate(wheel, [0, 0], [1, 1], np.nan)


def _mimic_model(multiplier='2', offset='0.1'):
    """Two joints, ``b = multiplier * a + offset``, and a third one limited away from 0."""
    return Robot.from_urdf_string(urdf('\n'.join([
        link_xml('base'), link_xml('l1'), link_xml('l2'), link_xml('l3'),
        joint_xml('a', 'revolute', 'base', 'l1'),
        joint_xml('b', 'revolute', 'l1', 'l2',
                  extra=f'<mimic joint="a" multiplier="{multiplier}" offset="{offset}"/>'),
        '<joint name="c" type="prismatic"><parent link="l2"/><child link="l3"/>'
        '<axis xyz="1 0 0"/><limit lower="0.2" upper="0.5" effort="1" velocity="1"/></joint>',
    ])))


def test_a_mimic_joint_sets_its_master_through_the_relation():
    model = _mimic_model()
    assert model.configuration_names == ('a', 'c')
    q = model.configuration_from_dict({'b': 1.1})
    assert q[0] == pytest.approx(0.5)
    assert np.array_equal(model.configuration_from_dict({'a': 0.5, 'b': 1.1}), q)
    with pytest.raises(ConfigurationError, match=r"mimic joint 'b'=1.1 \(b = 2 \* a \+ 0.1\) "
                       'asks for a=0.5, but a=0.4 is given'):
        model.configuration_from_dict({'a': 0.4, 'b': 1.1})
    with pytest.raises(ConfigurationError, match="give 'a'"):
        _mimic_model(multiplier='0').configuration_from_dict({'b': 1.0})
    with pytest.raises(UnknownFrameError, match="'nope'") as error:
        model.configuration_from_dict({'nope': 1.0})
    assert 'b' in str(error.value)


def test_neutral_configuration_lies_within_the_limits():
    model = _mimic_model()
    np.testing.assert_array_equal(model.neutral_configuration(), [0.0, 0.2])
    assert cfg.is_valid(model, model.neutral_configuration())
    assert cfg.is_valid(model, model.configuration_from_dict({'a': 1.0}))
    panda = Robot.from_urdf_file(erd_urdf('panda_description/urdf/panda.urdf'))
    neutral = panda.neutral_configuration()
    assert cfg.is_valid(panda, neutral)
    assert neutral[3] == panda.upper[3] and neutral[0] == 0.0


def test_floating_base_on_a_urdf_with_a_root_joint_blames_the_option():
    text = urdf(link_xml('base') + link_xml('body') +
                joint_xml('root_joint', 'fixed', 'base', 'body'))
    with pytest.raises(URDFError, match='floating_base=True adds a joint '
                       "named 'root_joint', and the URDF already has a joint of that name"):
        Robot.from_urdf_string(text, floating_base=True)
    assert [j.name for j in Robot.from_urdf_string(text).joints] == ['root_joint']


@pytest.mark.parametrize('name, differs', [('talos', True), ('solo12', False)])
def test_entries_in_pinocchio_order_map_configurations_both_ways(name, differs):
    pin = pytest.importorskip('pinocchio')
    path = real_robot_path(name)
    model = Robot.from_urdf_file(path, floating_base=True, backend='numpy')
    pmodel = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer())
    pdata = pmodel.createData()
    names = list(pmodel.names)[1:]
    index = cfg.entries_in_order(model, names)
    v_index = cfg.entries_in_order(model, names, 'v')
    assert sorted(index) == list(range(model.nq)) and sorted(v_index) == list(range(model.nv))
    assert np.array_equal(index, np.arange(model.nq)) != differs  # Talos: other orders
    q = random_configuration(model, np.random.default_rng(4))
    pin.framesForwardKinematics(pmodel, pdata, q[index])
    poses = model.forward_kinematics(q).poses
    for link in model.links[1:]:
        frame = pmodel.getFrameId(link.name, pin.BODY)
        np.testing.assert_allclose(poses[link.index], pdata.oMf[frame].homogeneous, atol=1e-12)
    back = np.empty(model.nq)
    back[index] = q[index]
    np.testing.assert_array_equal(back, q)
    assert [pmodel.nvs[pmodel.getJointId(n)] for n in names] == \
        [model.joint(n).nv for n in names]


def test_entries_in_order_refuse_names_that_are_not_the_actuated_joints():
    model = bundled()
    names = list(model.joint_names)
    with pytest.raises(ConfigurationError, match='not actuated.*right_finger_joint'):
        cfg.entries_in_order(model, names[:-1] + ['right_finger_joint'])
    with pytest.raises(ConfigurationError, match='missing: elbow_joint'):
        cfg.entries_in_order(model, [n for n in names if n != 'elbow_joint'])
    with pytest.raises(ConfigurationError, match='once'):
        cfg.entries_in_order(model, names + names[:1])
    with pytest.raises(UnknownFrameError):
        cfg.entries_in_order(model, names[:-1] + ['no_such_joint'])
    for bad in ('elbow_joint', [1, 2], None):
        with pytest.raises(ConfigurationError):
            cfg.entries_in_order(model, bad)
    with pytest.raises(ConfigurationError, match="space must be 'q' or 'v'"):
        cfg.entries_in_order(model, names, 'a')
    np.testing.assert_array_equal(cfg.entries_in_order(model, names), np.arange(model.nq))
