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
"""Tests of frame_kinematics.core.quantities: the framed quantities and their checks."""

from conftest import bundled, random_configuration
from frame_kinematics.core import ConfigurationError, ReferenceFrameError
from frame_kinematics.core.frames import FrameTree
from frame_kinematics.core.quantities import (FrameOrientation, FramePoint, FrameVector,
                                              FrameVectorPair, SpatialAcceleration,
                                              SpatialForce, SpatialInertia, SpatialMomentum,
                                              SpatialMotion)
from frame_kinematics.core.spatial import force_transform, motion_transform
from frames_testing import tree_fixture
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

tree = tree_fixture()


@pytest.fixture(scope='module')
def quantity_tree():
    model = bundled('fk_arm')
    tree = FrameTree(model, random_configuration(model, np.random.default_rng(4)))
    tree.add_root_frame('elsewhere')
    return tree


names = st.sampled_from(['base_link', 'tool0', 'forearm_link', 'wrist_2_link_com', 'com'])
vec = st.lists(st.floats(-5, 5), min_size=6, max_size=6)


@settings(max_examples=60)
@given(names, names, vec)
def test_change_frame_round_trips(quantity_tree, a, b, values):
    t = quantity_tree
    point = FramePoint(t.frame(a), values[:3])
    back = point.change_frame(b).change_frame(a)
    np.testing.assert_allclose(back.value, point.value, atol=1e-12)
    b_T_a = t.transform(b, a)
    np.testing.assert_allclose(point.change_frame(b).value,
                               b_T_a[:3, :3] @ point.value + b_T_a[:3, 3], atol=1e-12)
    vector = FrameVector(t.frame(a), values[3:])
    np.testing.assert_allclose(vector.change_frame(b).change_frame(a).value, vector.value,
                               atol=1e-12)
    twist = SpatialMotion(t.frame('tool0'), t.world, t.frame(a), values)
    np.testing.assert_allclose(twist.change_frame(b).value, motion_transform(b_T_a) @ values,
                               atol=1e-12)
    wrench = SpatialForce(t.frame(a), values)
    moved = wrench.change_frame(b)
    np.testing.assert_allclose(moved.value, force_transform(b_T_a) @ values, atol=1e-12)
    # Power does not depend on the frame.
    assert moved.value @ twist.change_frame(b).value == pytest.approx(
        np.dot(values, values), rel=1e-9, abs=1e-9)
    quat = FrameOrientation(t.frame(a), [0, 0, 0, 1])
    np.testing.assert_allclose(quat.change_frame(b).rotation, b_T_a[:3, :3], atol=1e-12)


def test_quantity_arithmetic_checks_frames(quantity_tree):
    t = quantity_tree
    p = FramePoint(t.frame('tool0'), [1, 2, 3])
    q = FramePoint(t.frame('tool0'), [0, 1, 1])
    np.testing.assert_allclose((p - q).value, [1, 1, 2])
    np.testing.assert_allclose((q + (p - q)).value, p.value)
    with pytest.raises(ReferenceFrameError, match="'tool0' and 'base_link'"):
        _ = p - FramePoint(t.world, [0, 0, 0])
    with pytest.raises(ReferenceFrameError):
        _ = FrameVector(t.world, [1, 0, 0]).cross(FrameVector(t.frame('tool0'), [0, 1, 0]))
    assert FrameVector(t.world, [1, 0, 0]).cross(FrameVector(t.world, [0, 1, 0])).value[2] == 1
    with pytest.raises(ReferenceFrameError, match='different roots'):
        p.change_frame('elsewhere')
    a_b = SpatialMotion(t.frame('forearm_link'), t.world, t.world, [1, 0, 0, 0, 0, 1])
    b_c = SpatialMotion(t.frame('tool0'), t.frame('forearm_link'), t.world, [0, 1, 0, 0, 0, 1])
    chained = a_b + b_c
    assert chained.body_frame.name == 'tool0' and chained.base_frame is t.world
    with pytest.raises(ReferenceFrameError, match='body of the first'):
        _ = b_c + a_b
    relative = chained - a_b
    assert relative.body_frame.name == 'tool0' and relative.base_frame.name == 'forearm_link'
    with pytest.raises(ConfigurationError):
        FrameVector(t.world, [1, 2])


def test_spatial_inertia_momentum_matches_state():
    model = bundled('fk_arm')
    rng = np.random.default_rng(6)
    q, v = random_configuration(model, rng), rng.normal(size=model.nv)
    tree = FrameTree(model)
    tree.update(q, v)
    link = model.link('forearm_link')
    frame = tree.frame('forearm_link')
    inertia = SpatialInertia(frame, link.mass, link.link_p_com, link.inertia)
    twist = SpatialMotion(frame, tree.world, frame,
                          tree.state.velocity('forearm_link', expressed_in='local'))
    momentum = inertia @ twist
    assert isinstance(momentum, SpatialMomentum)
    in_world = momentum.change_frame(tree.world)
    twist_world = twist.change_frame(tree.world)
    inertia_world = inertia.change_frame(tree.world)
    np.testing.assert_allclose((inertia_world @ twist_world).value, in_world.value, atol=1e-12)
    np.testing.assert_allclose(in_world.value[:3], link.mass * (
        tree.state.velocity('forearm_link', link.link_p_com)[:3]), atol=1e-12)


@settings(max_examples=40)
@given(names, names, vec)
def test_vector_pairs_rotate_both_vectors_and_move_neither(quantity_tree, a, b, values):
    t = quantity_tree
    pair = FrameVectorPair(t.frame(a), values[:3], values[3:])
    moved = pair.change_frame(b)
    b_R_a = t.transform(b, a)[:3, :3]
    np.testing.assert_allclose(moved.linear.value, b_R_a @ values[:3], atol=1e-12)
    np.testing.assert_allclose(moved.angular.value, b_R_a @ values[3:], atol=1e-12)
    # The same as each vector moved alone, and back again.
    np.testing.assert_allclose(moved.linear.value,
                               FrameVector(t.frame(a), values[:3]).change_frame(b).value,
                               atol=1e-12)
    np.testing.assert_allclose(moved.change_frame(a).value, pair.value, atol=1e-12)
    assert moved.frame is t.frame(b) and moved.linear.frame is t.frame(b)


def test_vector_pair_arithmetic_checks_frames(quantity_tree):
    t = quantity_tree
    tool = t.frame('tool0')
    pair = FrameVectorPair(tool, [1, 2, 3], [4, 5, 6])
    other = FrameVectorPair.from_vectors(FrameVector(tool, [1, 0, 0]),
                                         FrameVector(tool, [0, 0, 1]))
    np.testing.assert_allclose((pair + other).value, [2, 2, 3, 4, 5, 7])
    np.testing.assert_allclose((pair - other).value, [0, 2, 3, 4, 5, 5])
    np.testing.assert_allclose((2 * pair).value, [2, 4, 6, 8, 10, 12])
    np.testing.assert_allclose((pair * 0.5).angular.value, [2, 2.5, 3])
    with pytest.raises(ReferenceFrameError, match="'tool0' and 'base_link'"):
        _ = pair + FrameVectorPair(t.world, [0, 0, 0], [0, 0, 0])
    with pytest.raises(ReferenceFrameError, match='linear and angular'):
        FrameVectorPair.from_vectors(FrameVector(tool, [1, 0, 0]), FrameVector(t.world, [0, 0, 1]))
    with pytest.raises(ReferenceFrameError, match='different roots'):
        pair.change_frame('elsewhere')
    with pytest.raises(ConfigurationError, match='angular'):
        FrameVectorPair(tool, [1, 2, 3], [1, np.nan, 0])
    with pytest.raises(ConfigurationError, match='linear'):
        FrameVectorPair(tool, [1, 2], [1, 2, 3])
    with pytest.raises(ValueError):
        pair.value[0] = 5.0
    assert repr(pair) == "FrameVectorPair('tool0', [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])"


# -- bad inputs ---------------------------------------------------------------------------------
BAD_VECTORS = ['abc', b'abc', [10 ** 400, 0, 0], {'x': 1}, np.array([1 + 5j, 0, 0]),
               ['1', '2', '3'], np.ma.array([1.0, 2.0, 3.0]), [1e308, 0, 0]]


@pytest.mark.parametrize('bad', BAD_VECTORS, ids=range(len(BAD_VECTORS)))
def test_framed_quantities_refuse_bad_values_with_the_librarys_error(tree, bad):
    frame = tree.frame('tool0')
    for make in (lambda: FramePoint(frame, bad), lambda: FrameVector(frame, bad),
                 lambda: FrameVectorPair(frame, bad, [0, 0, 0]),
                 lambda: FrameVectorPair(frame, [0, 0, 0], bad)):
        with pytest.raises(ConfigurationError, match='vector|point'):
            make()


def test_framed_quantities_refuse_a_frame_or_operand_of_the_wrong_type(tree):
    frame = tree.frame('tool0')
    vector = FrameVector(frame, [1, 2, 3])
    for bad in (None, 'tool0', ['tool0']):
        with pytest.raises(ReferenceFrameError, match='must be a ReferenceFrame'):
            FrameVector(bad, [1, 2, 3])
        with pytest.raises(ReferenceFrameError, match='must be a ReferenceFrame'):
            SpatialMotion(frame, bad, frame, np.zeros(6))
    for bad in (1.0, [1, 2, 3], np.ones(3), FramePoint(frame, [1, 2, 3])):
        with pytest.raises(ConfigurationError, match='dot needs a FrameVector'):
            vector.dot(bad)
        with pytest.raises(ConfigurationError, match='cross needs a FrameVector'):
            vector.cross(bad)
        with pytest.raises(ConfigurationError, match='needs a FrameVector'):
            FrameVectorPair.from_vectors(bad, vector)
    for bad in ('2', np.nan, 1e300, None, np.ones(2)):
        with pytest.raises(ConfigurationError, match='scale factor'):
            vector * bad
    np.testing.assert_array_equal((2 * vector).value, [2, 4, 6])


@pytest.mark.parametrize('mass, inertia', [
    (None, np.eye(3)), (float('nan'), np.eye(3)), ('1', np.eye(3)), (True, np.eye(3)),
    (10 ** 400, np.eye(3)), (1e308, np.eye(3)), (1.0, 'abc'), (1.0, -np.eye(3)),
    (1.0, [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]), (1.0, np.eye(3) * [1, 1, 1 + 1j]),
    (1.0, np.diag([1.0, 1.0, -0.1]))])
def test_spatial_inertia_refuses_a_bad_mass_or_inertia(tree, mass, inertia):
    with pytest.raises(ConfigurationError, match='spatial inertia'):
        SpatialInertia(tree.frame('tool0'), mass, [0, 0, 0], inertia)


def test_spatial_inertia_accepts_a_point_mass_and_every_link_of_a_model(tree):
    assert SpatialInertia(tree.world, 2.0, [0, 0, 1], np.zeros((3, 3))).mass == 2.0
    for link in tree.model.links:
        SpatialInertia(tree.frame(link.name), link.mass, link.link_p_com, link.inertia)


def test_change_frame_in_a_batched_tree_gets_the_librarys_error(tree):
    model = tree.model
    tool = tree.frame('tool0')
    quantities = [FramePoint(tool, [1, 2, 3]), FrameVector(tool, [1, 2, 3]),
                  FrameVectorPair(tool, [1, 2, 3], [4, 5, 6]),
                  FrameOrientation(tool, [0, 0, 0, 1]),
                  SpatialMotion(tool, tree.world, tool, np.ones(6)),
                  SpatialForce(tool, np.ones(6)),
                  SpatialInertia(tool, 1.0, [0.1, 0, 0], np.eye(3))]
    tree.update(random_configuration(model, np.random.default_rng(6), batch=3))
    for quantity in quantities:
        with pytest.raises(ConfigurationError, match='batch of 3 configurations'):
            quantity.change_frame('base_link')
    tree.update(random_configuration(model, np.random.default_rng(6)))
    for quantity in quantities:
        assert quantity.change_frame('base_link').frame is tree.frame('base_link')


def test_a_motion_of_frames_of_two_trees_gets_the_librarys_error(tree):
    other = FrameTree(bundled('fk_arm'))
    tool, elsewhere = tree.frame('tool0'), other.frame('tool0')
    for body, base in ((elsewhere, tree.world), (tool, other.world)):
        for kind in (SpatialMotion, SpatialAcceleration):
            with pytest.raises(ReferenceFrameError, match='belongs to another tree'):
                kind(body, base, tool, np.ones(6))
    assert SpatialMotion(tool, tree.world, tool, np.ones(6)).body_frame is tool


def test_numpy_operands_defer_to_the_quantitys_operators(tree):
    vector = FrameVector(tree.frame('tool0'), [1, 2, 3])
    pair = FrameVectorPair(tree.frame('tool0'), [1, 2, 3], [4, 5, 6])
    for scale in (np.float64(2.0), np.int64(2), np.float32(2.0)):
        np.testing.assert_array_equal((scale * vector).value, [2, 4, 6])
        np.testing.assert_array_equal((scale * pair).value, [2, 4, 6, 8, 10, 12])
    for bad in (np.array(2.0), np.array([2.0]), np.ones(3)):
        with pytest.raises(ConfigurationError, match='scale factor'):
            bad * vector
        with pytest.raises(ConfigurationError, match='scale factor'):
            vector * bad
        with pytest.raises(TypeError):
            bad + vector


def test_spatial_inertia_arrays_are_read_only_and_the_callers_array_is_not_kept(tree):
    given = np.diag([1.0, 2.0, 3.0])
    inertia = SpatialInertia(tree.frame('tool0'), 2.0, [0.1, 0, 0], given)
    for array in (inertia.value, inertia.com, inertia.inertia_com):
        with pytest.raises(ValueError, match='read-only'):
            array[0] = 5.0
    given[0, 0] = 9.0
    assert inertia.inertia_com[0, 0] == 1.0 and given.flags.writeable
