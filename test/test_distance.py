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
"""rl::kin's distance family: transformed distances, their inverse and the rectangle bounds."""

from conftest import all_joint_types_model, bundled, random_configuration
from frame_kinematics.core import ConfigurationError
from frame_kinematics.core import distance as dist
from frame_kinematics.core.spatial import quaternion_from_rotation, rotation_from_rpy
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

E = 1e-3


@pytest.fixture(scope='module')
def model():
    return all_joint_types_model(backend='numpy')


@pytest.fixture(scope='module')
def arm():
    return bundled('fk_arm', backend='numpy')


def at(model, **values):
    """Return a configuration of the all-types model: neutral, with the given entries."""
    q = model.neutral_configuration()
    for name, value in values.items():
        index = model.configuration_names.index(name.replace('__', '/'))
        q[index] = value
    return q


def with_rotation(model, q, rpy):
    q = q.copy()
    q[3:7] = quaternion_from_rotation(rotation_from_rpy(np.array(rpy)))
    return q


def test_hand_worked_values_of_every_joint_type(model):
    zero = model.neutral_configuration()
    assert model.configuration_names[:7] == ('j_free/x', 'j_free/y', 'j_free/z', 'j_free/qx',
                                             'j_free/qy', 'j_free/qz', 'j_free/qw')
    assert dist.transformed_distance(model, zero, at(model, j_rev=0.3)) == pytest.approx(0.09)
    assert dist.transformed_distance(model, zero, at(model, j_pri=-0.5)) == pytest.approx(0.25)
    assert dist.distance(model, at(model, j_cont=-np.pi + E),
                         at(model, j_cont=np.pi - E)) == pytest.approx(2 * E)
    assert dist.distance(model, at(model, j_planar__theta=-np.pi + E),
                         at(model, j_planar__theta=np.pi - E)) == pytest.approx(2 * E)
    planar = at(model, j_planar__x=3.0, j_planar__y=4.0, j_planar__theta=0.5)
    assert dist.distance(model, zero, planar) == pytest.approx(np.sqrt(25 + 0.25))
    base = at(model, j_free__x=1.0, j_free__y=-2.0, j_free__z=2.0)
    assert dist.distance(model, zero, base) == pytest.approx(3.0)
    turned = with_rotation(model, zero, [0.0, 0.0, 0.7])
    assert dist.distance(model, zero, turned) == pytest.approx(0.7)
    half_turn = with_rotation(model, zero, [np.pi, 0.0, 0.0])
    assert dist.distance(model, zero, half_turn) == pytest.approx(np.pi)
    flipped = turned.copy()
    flipped[3:7] *= -1.0  # the same rotation
    assert dist.distance(model, turned, flipped) == 0.0
    tiny = with_rotation(model, zero, [1e-9, 0.0, 0.0])
    assert dist.distance(model, zero, tiny) == pytest.approx(1e-9, rel=1e-6)
    both = with_rotation(model, base, [0.0, 0.0, 0.7])
    assert dist.transformed_distance(model, zero, both) == pytest.approx(9.0 + 0.49)


def test_joint_terms_add_up_and_batches_match_single_calls(model):
    rng = np.random.default_rng(1)
    a, b = random_configuration(model, rng, 20), random_configuration(model, rng, 20)
    terms = dist.joint_transformed_distances(model, a, b)
    assert terms.shape == (20, len(model.actuated_joints))
    total = dist.transformed_distance(model, a, b)
    np.testing.assert_allclose(terms.sum(axis=1), total, rtol=1e-12)
    for k in range(20):
        assert dist.transformed_distance(model, a[k], b[k]) == \
            pytest.approx(total[k], rel=1e-12)
    np.testing.assert_allclose(dist.transformed_distance(model, a[0], b), np.array(
        [dist.transformed_distance(model, a[0], b[k]) for k in range(20)]), rtol=1e-12)
    np.testing.assert_allclose(dist.transformed_distance(model, a, b),
                               dist.transformed_distance(model, b, a), rtol=1e-12)
    np.testing.assert_allclose(dist.transformed_distance(model, a, a), 0.0, atol=1e-20)
    rev = [j.name for j in model.actuated_joints].index('j_rev')
    np.testing.assert_allclose(terms[:, rev], (b[:, 7] - a[:, 7]) ** 2, rtol=1e-12)


def test_the_transformed_distance_is_monotonic_and_inverted(model):
    rng = np.random.default_rng(2)
    a, b = random_configuration(model, rng, 200), random_configuration(model, rng, 200)
    d = dist.distance(model, a, b)
    t = dist.transformed_distance(model, a, b)
    order = np.argsort(d)
    assert np.all(np.diff(t[order]) >= 0)
    np.testing.assert_allclose(dist.inverse_of_transformed_distance(t), d, rtol=1e-12)
    np.testing.assert_allclose(dist.transform_distance(d), t, rtol=1e-12)
    assert dist.inverse_of_transformed_distance(dist.transform_distance(0.25)) == 0.25
    assert dist.transform_distance(3.0) == 9.0


def test_the_triangle_inequality_holds(model):
    rng = np.random.default_rng(3)
    a, b, c = (random_configuration(model, rng, 100) for _ in range(3))
    assert np.all(dist.distance(model, a, c)
                  <= dist.distance(model, a, b) + dist.distance(model, b, c) + 1e-12)


def test_coordinate_forms_and_the_k_d_tree_update(model):
    names = model.configuration_names
    cont, theta, qx = names.index('j_cont'), names.index('j_planar/theta'), names.index(
        'j_free/qx')
    assert dist.coordinate_transformed_distance(model, 0.5, 2.0, names.index('j_pri')) == 2.25
    assert dist.coordinate_transformed_distance(model, -np.pi + E, np.pi - E, cont) == \
        pytest.approx(4 * E * E)
    assert dist.coordinate_transformed_distance(model, -3.0, 3.0, theta) == pytest.approx(
        (2 * np.pi - 6.0) ** 2)
    assert dist.coordinate_transformed_distance(model, 0.0, 1.0, qx) == 0.0
    np.testing.assert_allclose(dist.coordinate_transformed_distance(
        model, [0.0, 1.0], [1.0, 3.0], 0), [1.0, 4.0])
    assert dist.new_distance(model, 10.0, 2.0, 0.5, 0) == 10.0 - 4.0 + 0.25
    assert dist.new_distance(model, 10.0, 2.0, 6.0, cont) == pytest.approx(
        10.0 - 4.0 + (2 * np.pi - 6.0) ** 2)
    assert dist.new_distance(model, 10.0, 2.0, 0.5, qx) == 10.0
    assert dist.coordinate_min_distance_to_rectangle(model, 3.0, -1.0, 1.0, 0) == 4.0
    assert dist.coordinate_min_distance_to_rectangle(model, 0.5, -1.0, 1.0, 0) == 0.0
    # An arc from 2.5 to 3.5 (through pi) holds -3.0; -2.0 is 0.5 from its end 3.5 - 2 pi.
    assert dist.coordinate_min_distance_to_rectangle(model, -3.0, 2.5, 3.5, cont) == 0.0
    assert dist.coordinate_min_distance_to_rectangle(model, -2.0, 2.5, 3.5, cont) == \
        pytest.approx((2 * np.pi - 5.5) ** 2)


def test_rectangle_distances_of_hand_worked_boxes(arm):
    q = np.zeros(arm.nq)
    lower, upper = np.full(arm.nq, 1.0), np.full(arm.nq, 2.0)
    assert dist.min_distance_to_rectangle(arm, q, lower, upper) == pytest.approx(arm.nq)
    assert dist.max_distance_to_rectangle(arm, q, lower, upper) == pytest.approx(4 * arm.nq)
    inside = np.full(arm.nq, 1.5)
    assert dist.min_distance_to_rectangle(arm, inside, lower, upper) == 0.0
    assert dist.max_distance_to_rectangle(arm, inside, lower, upper) == pytest.approx(
        0.25 * arm.nq)
    np.testing.assert_allclose(dist.min_distance_to_rectangle(arm, np.stack([q, inside]),
                                                              lower, upper), [arm.nq, 0.0])


def box_and_members(model, rng, widths):
    """Draw a box of coordinates around two configurations, and configurations inside."""
    kinds = dist.coordinate_kinds(model)
    a, b = random_configuration(model, rng), random_configuration(model, rng)
    lower, upper = np.minimum(a, b), np.maximum(a, b)
    wrap = kinds == dist.WRAP
    lower[wrap] = a[wrap]
    upper[wrap] = a[wrap] + widths[:int(wrap.sum())]
    inside = lower + rng.random((40, model.nq)) * (upper - lower)
    quaternion = kinds == dist.QUATERNION
    for k, member in enumerate(inside):
        member[quaternion] = (a if k % 2 else b)[quaternion]
    inside[:, wrap] = (inside[:, wrap] + np.pi) % (2 * np.pi) - np.pi
    return lower, upper, inside


@settings(max_examples=60)
@given(st.integers(0, 2 ** 32 - 1),
       st.lists(st.floats(0.0, 7.0), min_size=2, max_size=2))
def test_rectangle_distances_bound_every_configuration_inside(model, seed, widths):
    rng = np.random.default_rng(seed)
    lower, upper, members = box_and_members(model, rng, np.array(widths))
    queries = random_configuration(model, rng, 8)
    low = dist.min_distance_to_rectangle(model, queries, lower, upper)
    high = dist.max_distance_to_rectangle(model, queries, lower, upper)
    for query, lo, hi in zip(queries, low, high):
        true = dist.transformed_distance(model, query, members)
        assert np.all(lo <= true + 1e-9) and np.all(true <= hi + 1e-9)
        assert lo <= hi
    for member in members:
        assert dist.min_distance_to_rectangle(model, member, lower, upper) <= 1e-9


@settings(max_examples=60)
@given(st.integers(0, 2 ** 32 - 1))
def test_rectangle_distances_are_exact_without_quaternions(arm, seed):
    rng = np.random.default_rng(seed)
    a, b, q = (random_configuration(arm, rng) for _ in range(3))
    lower, upper = np.minimum(a, b), np.maximum(a, b)
    nearest = np.clip(q, lower, upper)
    farthest = np.where(np.abs(q - lower) > np.abs(q - upper), lower, upper)
    assert dist.min_distance_to_rectangle(arm, q, lower, upper) == pytest.approx(
        dist.transformed_distance(arm, q, nearest), rel=1e-12, abs=1e-15)
    assert dist.max_distance_to_rectangle(arm, q, lower, upper) == pytest.approx(
        dist.transformed_distance(arm, q, farthest), rel=1e-12)


@pytest.mark.parametrize('call, fragment', [
    (lambda m: dist.transformed_distance(m, np.zeros(3), np.zeros(m.nq)), 'shape'),
    (lambda m: dist.distance(m, np.full(m.nq, np.nan), np.zeros(m.nq)), 'NaN'),
    (lambda m: dist.transform_distance(-1.0), 'non-negative'),
    (lambda m: dist.inverse_of_transformed_distance(np.inf), 'inf'),
    (lambda m: dist.inverse_of_transformed_distance('1'), 'numbers'),
    (lambda m: dist.new_distance(m, 1.0, 0.0, 0.0, m.nq), 'between 0 and'),
    (lambda m: dist.coordinate_transformed_distance(m, 0.0, 1.0, 1.5), 'whole number'),
    (lambda m: dist.min_distance_to_rectangle(m, m.neutral_configuration(), np.ones(m.nq),
                                              np.zeros(m.nq)), 'lower is above upper'),
    (lambda m: dist.max_distance_to_rectangle(m, m.neutral_configuration(), np.zeros(m.nq),
                                              np.full(m.nq, 1e300)), 'magnitude'),
    (lambda m: dist.coordinate_min_distance_to_rectangle(m, 0.0, 1.0, 0.0, 0), 'above'),
])
def test_bad_inputs_get_the_library_error(model, call, fragment):
    with pytest.raises(ConfigurationError, match=fragment):
        call(model)
