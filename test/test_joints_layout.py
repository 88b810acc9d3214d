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
"""Tests of frame_kinematics.core.joints.layout: ConfigurationLayout's tables and operations."""

from frame_kinematics.core import ConfigurationError
from frame_kinematics.core.joints import ConfigurationLayout, JointType, wrap_angle
from frame_kinematics.core.spatial import rotation_from_quaternion
from frame_kinematics.core.transform_checks import QUATERNION_NORM_TOLERANCE
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

#: One joint of each type with coordinates; q: rev 0, free 1-7, cont 8, pri 9, plane 10-12.
JOINTS = [('rev', JointType.REVOLUTE, -1.0, 2.0), ('free', JointType.FLOATING, 0.0, 0.0),
          ('cont', JointType.CONTINUOUS, 0.0, 0.0), ('pri', JointType.PRISMATIC, 0.1, 0.5),
          ('plane', JointType.PLANAR, 0.0, 0.0)]
REV, CONT, PRI = 0, 8, 9
POSITION, QUAT, PLANE = slice(1, 4), slice(4, 8), slice(10, 13)
V_FREE = slice(1, 7)


@pytest.fixture(scope='module')
def layout():
    """Return the layout of JOINTS, one for the module's tests."""
    return ConfigurationLayout(JOINTS)


def _draws(layout, seed, size=None):
    return layout.sample_uniform(np.random.default_rng(seed), size, 2.0)


def _twists(layout, rng, size, turn):
    """Velocities whose rotations (floating and planar) are shorter than ``turn`` rad."""
    v = rng.uniform(-1.0, 1.0, (size, layout.nv))
    omega = v[:, V_FREE][:, 3:]
    v[:, 4:7] = omega / np.linalg.norm(omega, axis=1, keepdims=True) * rng.uniform(
        0.0, turn, (size, 1))
    v[:, -1] = rng.uniform(-turn, turn, size)
    return v


def assert_same_configurations(layout, a, b, atol):
    """Check ``a`` and ``b`` are the same points: angles modulo 2 pi, quaternions up to sign."""
    angles = [CONT, PLANE.stop - 1]
    rest = np.ones(layout.nq, dtype=bool)
    rest[angles] = rest[QUAT] = False
    np.testing.assert_allclose(a[..., rest], b[..., rest], rtol=0.0, atol=atol)
    np.testing.assert_allclose(wrap_angle(a[..., angles] - b[..., angles] + 1.0), 1.0,
                               rtol=0.0, atol=atol)
    np.testing.assert_allclose(rotation_from_quaternion(a[..., QUAT]),
                               rotation_from_quaternion(b[..., QUAT]), rtol=0.0, atol=atol)


def test_index_tables_group_the_joints_by_type(layout):
    assert layout.names == ('rev', 'free', 'cont', 'pri', 'plane')
    assert (layout.nq, layout.nv) == (13, 12)
    assert layout.one_q.tolist() == [0, 8, 9] and layout.one_v.tolist() == [0, 7, 8]
    assert layout.wrap_q.tolist() == [8] and layout.wrap_v.tolist() == [7]
    assert layout.floating == [(1, 1, 'free')] and layout.planar == [(10, 9, 'plane')]
    assert not layout.simple
    arm = ConfigurationLayout([('a', JointType.REVOLUTE, -1.0, 1.0),
                               ('b', JointType.CONTINUOUS, 0.0, 0.0)])
    assert arm.simple and (arm.nq, arm.nv) == (2, 2) and arm.wrap_v.tolist() == [1]


def test_an_empty_layout_has_empty_tables():
    empty = ConfigurationLayout([])
    assert (empty.nq, empty.nv, empty.names, empty.simple) == (0, 0, (), True)
    assert empty.lower.shape == empty.upper.shape == empty.neutral().shape == (0,)
    assert empty.one_q.dtype == np.int64 and empty.one_q.shape == (0,)
    assert empty.is_valid(np.zeros((3, 0)), 0.0).tolist() == [True] * 3


def test_limit_table_per_entry_is_read_only(layout):
    inf = np.inf
    np.testing.assert_array_equal(
        layout.lower, [-1.0, -inf, -inf, -inf, -1, -1, -1, -1, -inf, 0.1, -inf, -inf, -inf])
    np.testing.assert_array_equal(
        layout.upper, [2.0, inf, inf, inf, 1, 1, 1, 1, inf, 0.5, inf, inf, inf])
    for table in (layout.lower, layout.upper, layout.one_q, layout.wrap_v):
        with pytest.raises(ValueError):
            table[0] = 0
        with pytest.raises(ValueError):
            table[:].setflags(write=True)


def test_neutral_is_zero_with_identity_quaternions_and_a_new_array(layout):
    neutral = layout.neutral()
    expected = np.zeros(13)
    expected[QUAT.stop - 1] = 1.0
    np.testing.assert_array_equal(neutral, expected)
    neutral[:] = 5.0
    np.testing.assert_array_equal(layout.neutral(), expected)
    # The per-type zero, whatever the limits: the model clips it (pri is limited to >= 0.1).
    assert not layout.is_valid(layout.neutral(), 0.0)
    assert layout.is_valid(layout.clip(layout.neutral()), 0.0)


def test_normalize_quaternions_normalises_a_copy_within_tolerance(layout):
    q = _draws(layout, 1, 4)
    q[:, QUAT] *= 1.0 + 0.9 * QUATERNION_NORM_TOLERANCE * np.array([[1.0], [-1.0], [0.5], [0]])
    before = q.copy()
    out = layout.normalize_quaternions(q, 'seed')
    np.testing.assert_array_equal(q, before)
    np.testing.assert_allclose(np.linalg.norm(out[:, QUAT], axis=1), 1.0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(out[:, QUAT], q[:, QUAT], rtol=0.0, atol=1e-4)
    rest = np.ones(layout.nq, dtype=bool)
    rest[QUAT] = False
    np.testing.assert_array_equal(out[:, rest], q[:, rest])


def test_normalize_quaternions_refuses_a_quaternion_off_unit_naming_the_joint(layout):
    q = _draws(layout, 2, 3)
    q[1, QUAT] *= 1.0 + 2.0 * QUATERNION_NORM_TOLERANCE
    with pytest.raises(ConfigurationError, match="^seed: quaternion of floating joint 'free' "
                       r'has norm 1, 1\.0002, 1, expected a unit quaternion'):
        layout.normalize_quaternions(q, 'seed')
    q[1, QUAT] = 0.0
    with pytest.raises(ConfigurationError, match="'free' has norm 1, 0, 1"):
        layout.normalize_quaternions(q, 'seed')


def test_normalize_quaternions_returns_q_itself_without_floating_joints():
    arm = ConfigurationLayout([('a', JointType.REVOLUTE, -1.0, 1.0),
                               ('p', JointType.PLANAR, 0.0, 0.0)])
    q = np.array([5.0, 1.0, 2.0, 30.0])
    assert arm.normalize_quaternions(q, 'q') is q


def test_quaternions_unit_per_configuration_with_slack(layout):
    q = np.stack([layout.neutral()] * 3)
    q[1, QUAT.stop - 1] = 1.0 + 2.0 * QUATERNION_NORM_TOLERANCE
    q[2, QUAT] = 0.5
    assert layout.quaternions_unit(q).tolist() == [True, False, True]
    assert layout.quaternions_unit(q, 2.0 * QUATERNION_NORM_TOLERANCE).tolist() == [True] * 3
    assert layout.quaternions_unit(q[0]).shape == ()
    plain = ConfigurationLayout([('a', JointType.PRISMATIC, 0.0, 1.0)])
    assert plain.quaternions_unit(np.full((2, 5, 1), 9.0)).tolist() == [[True] * 5] * 2


def test_is_valid_checks_finiteness_limits_with_slack_and_quaternion_norms(layout):
    q = np.stack([layout.clip(layout.neutral())] * 6)
    q[1, REV] = 2.0 + 1e-3
    q[2, POSITION.start] = np.inf
    q[3, PLANE.start] = np.nan
    q[4, PRI] = 0.1 - 1e-3
    q[5, QUAT] = [0.0, 0.0, 0.6, 0.6]
    assert layout.is_valid(q, 0.0).tolist() == [True, False, False, False, False, False]
    assert layout.is_valid(q, 2e-3).tolist() == [True, True, False, False, True, False]
    assert layout.is_valid(q.reshape(2, 3, -1), 0.0).shape == (2, 3)


def test_is_valid_judges_quaternion_entries_by_their_norm_alone(layout):
    q = layout.clip(layout.neutral())
    q[QUAT.stop - 1] = 1.0 + 0.5 * QUATERNION_NORM_TOLERANCE  # above the entry's upper 1
    assert layout.is_valid(q, 0.0)
    q[QUAT.stop - 1] = -1.0 - 0.5 * QUATERNION_NORM_TOLERANCE
    assert layout.is_valid(q, 0.0)


def test_clip_projects_onto_the_limits_and_wraps_into_half_open_range(layout):
    q = np.stack([layout.clip(layout.neutral())] * 2)
    q[:, REV] = [5.0, -5.0]
    q[:, PRI] = [0.0, 0.7]
    q[:, CONT] = [np.pi, -7.0]
    q[:, PLANE] = 40.0
    q[:, POSITION] = -1e9
    before = q.copy()
    out = layout.clip(q)
    np.testing.assert_array_equal(q, before)
    assert out[:, REV].tolist() == [2.0, -1.0] and out[:, PRI].tolist() == [0.1, 0.5]
    assert out[0, CONT] == -np.pi
    assert out[1, CONT] == pytest.approx(-7.0 + 2 * np.pi, abs=1e-15)
    np.testing.assert_array_equal(out[:, PLANE], 40.0)  # the planar angle is unbounded
    np.testing.assert_array_equal(out[:, POSITION], -1e9)


def test_wrap_angle_maps_odd_multiples_of_pi_to_minus_pi_and_keeps_shape():
    odd = np.pi * np.array([[1.0, -1.0], [3.0, -3.0]])
    np.testing.assert_array_equal(wrap_angle(odd), np.full((2, 2), -np.pi))
    assert wrap_angle([0.0, 1.0, -1.0]).tolist() == [0.0, 1.0, -1.0]
    assert wrap_angle(0.0).shape == ()


@settings(max_examples=200)
@given(st.floats(-1e6, 1e6))
def test_wrap_angle_stays_within_pi_and_moves_by_whole_turns(angle):
    wrapped = float(wrap_angle(angle))
    assert -np.pi <= wrapped <= np.pi
    turns = (angle - wrapped) / (2 * np.pi)
    assert turns == pytest.approx(round(turns), abs=1e-9)


def test_wrap_angle_never_returns_plus_pi():
    just_below = np.nextafter(-np.pi, -4.0)
    assert wrap_angle(just_below) == -np.pi
    assert np.all(wrap_angle(np.array([just_below, -np.pi, np.pi])) == -np.pi)


def test_integrate_adds_one_dof_coordinates_and_wraps_continuous_angles(layout):
    q = layout.clip(layout.neutral())
    q[CONT] = 3.0
    v = np.zeros(layout.nv)
    v[[0, 7, 8]] = [0.5, 1.0, 0.25]
    out = layout.integrate(q, v)
    assert out[REV] == 0.5 and out[PRI] == 0.35
    assert out[CONT] == pytest.approx(4.0 - 2 * np.pi, abs=1e-15)


def test_integrate_broadcasts_configurations_against_velocities(layout):
    rng = np.random.default_rng(5)
    q = _draws(layout, 5)
    v = _twists(layout, rng, 3, 1.0)
    out = layout.integrate(q, v)
    assert out.shape == (3, layout.nq)
    for b in range(3):
        np.testing.assert_array_equal(out[b], layout.integrate(q, v[b]))
    np.testing.assert_array_equal(layout.integrate(np.stack([q] * 3), v[0]),
                                  np.stack([layout.integrate(q, v[0])] * 3))


def test_integrate_by_zero_keeps_the_point_with_a_unit_quaternion(layout):
    q = _draws(layout, 6, 20)
    q[:, QUAT] *= 1.0 + 0.5 * QUATERNION_NORM_TOLERANCE
    out = layout.integrate(q, np.zeros(layout.nv))
    assert_same_configurations(layout, out, q, 1e-12)
    np.testing.assert_allclose(np.linalg.norm(out[:, QUAT], axis=1), 1.0, rtol=0, atol=1e-15)


@settings(max_examples=30)
@given(st.integers(0, 2 ** 32 - 1))
def test_integrating_the_difference_reaches_the_second_configuration(layout, seed):
    q0, q1 = _draws(layout, seed, 2)
    v = layout.difference(q0, q1)
    assert v.shape == (layout.nv,)
    reached = layout.integrate(q0, v)
    assert_same_configurations(layout, reached, q1, 1e-9)
    np.testing.assert_allclose(np.linalg.norm(reached[QUAT]), 1.0, rtol=0.0, atol=1e-15)
    assert -np.pi <= reached[CONT] < np.pi


@settings(max_examples=30)
@given(st.integers(0, 2 ** 32 - 1), st.floats(0.0, 3.0))
def test_difference_recovers_a_twist_shorter_than_half_a_turn(layout, seed, turn):
    rng = np.random.default_rng(seed)
    q = _draws(layout, seed, 4)
    v = _twists(layout, rng, 4, turn)
    v[:, 7] *= 3.0  # continuous angles: within (-pi, pi) the shortest way is v itself
    np.testing.assert_allclose(layout.difference(q, layout.integrate(q, v)), v, rtol=0.0,
                               atol=1e-9)


@settings(max_examples=30)
@given(st.integers(0, 2 ** 32 - 1))
def test_difference_is_zero_on_the_diagonal_and_antisymmetric(layout, seed):
    q0 = _draws(layout, seed, 5)
    q1 = _draws(layout, seed + 1, 5)
    np.testing.assert_allclose(layout.difference(q0, q0), 0.0, rtol=0.0, atol=1e-12)
    np.testing.assert_allclose(layout.difference(q1, q0), -layout.difference(q0, q1),
                               rtol=0.0, atol=1e-9)


def test_difference_of_continuous_and_planar_angles_takes_the_short_way(layout):
    q0 = layout.clip(layout.neutral())
    q1 = q0.copy()
    q0[CONT], q1[CONT] = np.pi - 0.1, -np.pi + 0.1
    q0[PLANE], q1[PLANE] = [0.0, 0.0, 3.0], [0.0, 0.0, 3.0 + 2 * np.pi - 0.5]
    v = layout.difference(q0, q1)
    assert v[7] == pytest.approx(0.2) and v[-1] == pytest.approx(-0.5)
    np.testing.assert_allclose(v[-3:-1], 0.0, atol=1e-15)


def test_sampling_bounds_are_the_limits_a_turn_for_angles_and_the_range_elsewhere(layout):
    lower, upper = layout.sampling_bounds(-0.25)
    pi = np.pi
    np.testing.assert_array_equal(
        lower, [-1.0, -0.25, -0.25, -0.25, -1, -1, -1, -1, -pi, 0.1, -0.25, -0.25, -pi])
    np.testing.assert_array_equal(
        upper, [2.0, 0.25, 0.25, 0.25, 1, 1, 1, 1, pi, 0.5, 0.25, 0.25, pi])
    lower[:] = upper[:] = 0.0
    assert layout.sampling_bounds(0.25)[0][0] == -1.0 and layout.lower[0] == -1.0


@pytest.mark.parametrize('limits, turn', [
    ((-1e16, 1e16), (-np.pi, np.pi)),  # a free rotor written with huge limits
    ((0.0, 4 * np.pi), (0.0, 2 * np.pi)),  # the turn moved into the limits
    ((-100.0, -2.0), (-2.0 - 2 * np.pi, -2.0)),
    ((-2 * np.pi, 2 * np.pi), (-np.pi, np.pi)),  # UR arms
    ((-3.0, 3.0), (-3.0, 3.0)),  # less than a turn: the limits
])
def test_a_revolute_angle_is_drawn_over_one_turn_at_most(limits, turn):
    layout = ConfigurationLayout([('r', JointType.REVOLUTE, *limits),
                                  ('p', JointType.PRISMATIC, -1e3, 1e3),
                                  ('c', JointType.CONTINUOUS, -np.inf, np.inf)])
    lower, upper = layout.turn_bounds()
    np.testing.assert_allclose([lower[0], upper[0]], turn, rtol=0.0, atol=1e-15)
    np.testing.assert_array_equal([lower[1:], upper[1:]], [[-1e3, -np.pi], [1e3, np.pi]])
    assert (layout.lower[0], layout.upper[0]) == limits
    q = layout.sample_uniform(np.random.default_rng(2), 500, 1.0)
    assert np.all((q[:, 0] >= turn[0]) & (q[:, 0] <= turn[1])) and np.all(layout.is_valid(q, 0))


def test_sample_uniform_is_seeded_shaped_and_within_the_sampling_bounds(layout):
    one = layout.sample_uniform(np.random.default_rng(8), None, 0.3)
    assert one.shape == (layout.nq,)
    np.testing.assert_array_equal(one, layout.sample_uniform(np.random.default_rng(8), None,
                                                             0.3))
    assert layout.sample_uniform(np.random.default_rng(8), 0, 0.3).shape == (0, layout.nq)
    q = layout.sample_uniform(np.random.default_rng(9), 2000, 0.3)
    assert q.shape == (2000, layout.nq)
    lower, upper = layout.sampling_bounds(0.3)
    ordinary = np.ones(layout.nq, dtype=bool)
    ordinary[QUAT] = False
    assert np.all((q[:, ordinary] >= lower[ordinary]) & (q[:, ordinary] <= upper[ordinary]))
    span = np.ptp(q[:, ordinary], axis=0) / (upper - lower)[ordinary]
    assert np.all(span > 0.99)
    assert np.all(layout.is_valid(q, 0.0))


def test_sample_uniform_draws_unit_quaternions_over_the_whole_sphere(layout):
    quat = layout.sample_uniform(np.random.default_rng(10), 4000, 1.0)[:, QUAT]
    np.testing.assert_allclose(np.linalg.norm(quat, axis=1), 1.0, rtol=0.0, atol=1e-15)
    assert np.all(np.abs(quat.mean(axis=0)) < 0.05)  # no hemisphere preferred
    # Uniform on SO(3): every entry squared has mean 1/4.
    np.testing.assert_allclose((quat ** 2).mean(axis=0), 0.25, atol=0.02)
