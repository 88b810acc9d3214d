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
"""Collision flags bound to a model (rl::kin's setColliding / areColliding), from SRDFs too."""

import itertools

from conftest import bundled, moveit_resource
from frame_kinematics.core import ConfigurationError, Robot, UnknownFrameError
from frame_kinematics.core.collision import CollisionFlags
from frame_kinematics.core.errors import SRDFError
from frame_kinematics.core.srdf import load_srdf, read_srdf_file
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest


@pytest.fixture(scope='module')
def arm():
    return bundled('fk_arm', backend='numpy')


@pytest.fixture(scope='module')
def panda():
    return Robot.from_urdf_file(moveit_resource('panda_description/urdf/panda.urdf'),
                                backend='numpy')


def brute_force_pairs(flags):
    n = len(flags.model.links)
    return [(i, j) for i, j in itertools.combinations(range(n), 2) if flags.are_colliding(i, j)]


def test_every_pair_collides_by_default_but_parent_and_child(arm):
    flags = CollisionFlags(arm)
    n = len(arm.links)
    parent = arm.topology.parent
    for i, j in itertools.combinations(range(n), 2):
        assert flags.are_colliding(i, j) == (parent[j] != i)
        assert flags.is_adjacent(i, j) == (parent[j] == i)
    assert flags.pair_count() == n * (n - 1) // 2 - (n - 1)
    assert [tuple(p) for p in flags.index_pairs().tolist()] == brute_force_pairs(flags)
    assert all(flags.is_colliding(i) for i in range(n))
    assert flags.colliding_links() == arm.link_names
    assert not flags.are_colliding(3, 3)


def test_names_and_indices_set_and_query_the_same_flags(arm):
    flags = CollisionFlags(arm)
    a, b = arm.link_names[1], arm.link_names[4]
    flags.set_colliding(a, 4, False)
    assert not flags.are_colliding(b, a) and not flags.are_colliding(1, 4)
    flags.set_colliding(arm.link_names[0], arm.link_names[1], True)  # an adjacent pair, on
    assert flags.are_colliding(1, 0)
    flags.set_colliding(np.int64(2), False)
    assert not flags.is_colliding(arm.link_names[2]) and flags.is_colliding(3)
    assert arm.link_names[2] not in flags.colliding_links()
    n = len(arm.links)
    assert flags.pair_count() == n * (n - 1) // 2 - (n - 1) - 1 + 1
    assert flags.pair_count() == len(flags.pairs()) == len(brute_force_pairs(flags))
    assert (arm.link_names[0], arm.link_names[1]) in flags.pairs()
    # Back to the defaults: nothing is stored.
    flags.set_colliding(1, 4, True)
    flags.set_colliding(0, 1, False)
    flags.set_colliding(2, True)
    assert flags.pair_count() == CollisionFlags(arm).pair_count()
    assert flags.colliding_links() == arm.link_names


@settings(max_examples=40)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.booleans()), max_size=30))
def test_flags_are_symmetric_and_the_export_matches_the_queries(arm, changes):
    flags = CollisionFlags(arm)
    for i, j, value in changes:
        if i != j:
            flags.set_colliding(j, i, value)
    n = len(arm.links)
    for i, j in itertools.product(range(n), repeat=2):
        assert flags.are_colliding(i, j) == flags.are_colliding(j, i)
    assert [tuple(p) for p in flags.index_pairs().tolist()] == brute_force_pairs(flags)
    assert flags.pair_count() == len(brute_force_pairs(flags))


def test_bad_links_and_flags_get_the_library_error_and_change_nothing(arm):
    flags = CollisionFlags(arm)
    before = flags.pairs()
    with pytest.raises(UnknownFrameError, match="unknown link 'nope'"):
        flags.set_colliding('nope', 1, False)
    with pytest.raises(UnknownFrameError):
        flags.are_colliding(0, '')
    with pytest.raises(ConfigurationError, match='between 0 and'):
        flags.set_colliding(0, len(arm.links), False)
    with pytest.raises(ConfigurationError, match='between 0 and'):
        flags.is_colliding(-1)
    with pytest.raises(ConfigurationError, match='name or an index, got float'):
        flags.is_colliding(1.0)
    with pytest.raises(ConfigurationError, match='name or an index, got bool'):
        flags.is_colliding(True)
    with pytest.raises(ConfigurationError, match='True or False, got int'):
        flags.set_colliding(1, 2, 0)
    with pytest.raises(ConfigurationError, match='True or False, got str'):
        flags.set_colliding(1, 'yes')
    with pytest.raises(ConfigurationError, match='against itself'):
        flags.set_colliding(1, arm.link_names[1], False)
    assert flags.pairs() == before and flags.colliding_links() == arm.link_names


def test_copies_are_independent(arm):
    flags = CollisionFlags(arm)
    flags.set_colliding(1, 5, False)
    other = flags.copy()
    other.set_colliding(1, 5, True)
    other.set_colliding(3, False)
    assert not flags.are_colliding(1, 5) and other.are_colliding(1, 5)
    assert flags.is_colliding(3)


def test_an_srdf_disables_its_pairs(arm):
    a, b, c = arm.link_names[1], arm.link_names[4], arm.link_names[5]
    srdf = load_srdf(f'<robot><disable_collisions link1="{b}" link2="{a}" reason="Never"/>'
                     f'<disable_collisions link1="{a}" link2="{b}" reason="Again"/>'
                     f'<disable_collisions link1="{c}" link2="{c}"/></robot>')
    flags = CollisionFlags(arm, srdf)
    assert not flags.are_colliding(a, b)
    assert flags.srdf_disabled == ((a, b, 'Never'),)
    assert flags.pair_count() == CollisionFlags(arm).pair_count() - 1
    with pytest.raises(SRDFError, match="disable_collisions 'x' 'y': unknown link 'x'"):
        CollisionFlags(arm, load_srdf('<robot><disable_collisions link1="x" link2="y"/>'
                                      '</robot>'))


def test_moveit_panda_pairs(panda):
    srdf = read_srdf_file(moveit_resource('panda_moveit_config/config/panda.srdf'))
    flags = CollisionFlags(panda, srdf)
    assert len(flags.srdf_disabled) == 34
    # 12 links: 66 pairs, 11 parent/child pairs; the SRDF disables 34 pairs, 9 of them
    # parent/child already (panda_hand/panda_link7 is 'Adjacent' to MoveIt: panda_link8
    # between them has no geometry).
    assert flags.pair_count() == 66 - 11 - 25 == len(flags.pairs())
    assert flags.counts() == {'pairs': 66, 'parent_child': 11, 'srdf_disabled': 34,
                              'srdf_only': 25, 'tested': 30}
    assert not flags.are_colliding('panda_link0', 'panda_link4')
    assert not flags.are_colliding('panda_link7', 'panda_hand')
    assert not flags.are_colliding('panda_rightfinger', 'panda_leftfinger')
    assert flags.are_colliding('panda_link0', 'panda_link5')
    assert flags.are_colliding('panda_link1', 'panda_hand')
    assert ('panda_link2', 'panda_link5') in flags.pairs()
    for pair in srdf.disabled_collisions:
        assert not flags.are_colliding(pair.link1, pair.link2)
        assert (pair.link1, pair.link2) not in flags.pairs()


def test_moveit_pr2_pair():
    pr2 = Robot.from_urdf_file(moveit_resource('pr2_description/urdf/robot.xml'),
                               backend='numpy')
    srdf = read_srdf_file(moveit_resource('pr2_description/srdf/robot.xml'))
    flags = CollisionFlags(pr2, srdf)
    assert not flags.are_colliding('r_shoulder_lift_link', 'r_shoulder_pan_link')
    n = len(pr2.links)
    # The one pair of the file is parent and child already: nothing else changes.
    assert flags.pair_count() == n * (n - 1) // 2 - (n - 1)
    assert flags.are_colliding('r_shoulder_pan_link', 'l_shoulder_pan_link')
    assert repr(flags) == (f"CollisionFlags('pr2', {flags.pair_count()} pairs tested, "
                           '1 disabled by an SRDF)')
