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
"""Tests of frame_kinematics.bridge.markers: the CoM markers as plain data, against the core."""

from conftest import all_joint_types_model, bundled, link_xml, random_configuration, urdf
from frame_kinematics.bridge.markers import (com_markers, COM_NAMESPACE, CYLINDER,
                                             GROUND_NAMESPACE, LINK_NAMESPACE, MarkerStyle,
                                             SPHERE)
from frame_kinematics.core import Robot
from frame_kinematics.core.errors import ConfigurationError, FrameKinematicsError
import numpy as np
import pytest

STAMP = 1_700_000_000_123_456_789


@pytest.mark.parametrize('name', ['fk_arm', 'fk_quadruped'])
def test_markers_sit_at_the_core_centers_of_mass(name):
    model = bundled(name)
    rng = np.random.default_rng(12)
    state = model.forward_kinematics(random_configuration(model, rng))
    markers = com_markers(model, state, STAMP)
    com, ground, links = markers[0], markers[1], markers[2:]
    assert (com.namespace, com.marker_id, com.shape) == (COM_NAMESPACE, 0, SPHERE)
    np.testing.assert_allclose(com.position, state.center_of_mass(), atol=1e-12)
    assert (ground.namespace, ground.marker_id, ground.shape) == (GROUND_NAMESPACE, 0, CYLINDER)
    np.testing.assert_allclose(ground.position, [*state.center_of_mass()[:2], 0.0], atol=1e-12)
    assert ground.scale[2] < ground.scale[0] == ground.scale[1]
    heavy = [link for link in model.links if link.mass > 0]
    assert [m.marker_id for m in links] == [link.index for link in heavy]
    centers = state.link_centers_of_mass()
    for marker, link in zip(links, heavy):
        assert (marker.namespace, marker.shape) == (LINK_NAMESPACE, SPHERE)
        np.testing.assert_allclose(marker.position, centers[link.index], atol=1e-12)
    assert {m.frame_id for m in markers} == {model.root_link}
    assert {m.stamp_ns for m in markers} == {STAMP}


def test_link_sphere_volume_is_proportional_to_mass():
    model = all_joint_types_model()
    style = MarkerStyle(link_diameter=0.2, min_link_diameter=0.001)
    markers = com_markers(model, model.forward_kinematics(model.neutral_configuration()), 0,
                          style=style)
    masses = {link.index: link.mass for link in model.links}
    links = [m for m in markers if m.namespace == LINK_NAMESPACE]
    assert len(links) == sum(1 for mass in masses.values() if mass > 0)
    volumes = np.array([m.scale[0] ** 3 for m in links])
    weights = np.array([masses[m.marker_id] for m in links])
    np.testing.assert_allclose(volumes / weights, volumes[0] / weights[0], rtol=1e-12)
    heaviest = links[int(np.argmax(weights))]
    assert heaviest.scale == (0.2, 0.2, 0.2)
    assert all(m.scale[0] == m.scale[1] == m.scale[2] for m in links)


def test_light_links_keep_the_minimum_diameter():
    body = '\n'.join([link_xml('base', 1000.0), link_xml('feather', 1e-6),
                      '<joint name="j" type="fixed"><parent link="base"/>'
                      '<child link="feather"/></joint>'])
    model = Robot.from_urdf_string(urdf(body))
    markers = com_markers(model, model.forward_kinematics(model.neutral_configuration()), 0,
                          style=MarkerStyle(min_link_diameter=0.02))
    assert [m.scale[0] for m in markers if m.namespace == LINK_NAMESPACE] == [0.05, 0.02]


def test_ids_are_stable_from_one_state_to_the_next():
    model = bundled('fk_quadruped')
    rng = np.random.default_rng(3)
    keys = []
    for _ in range(3):
        state = model.forward_kinematics(random_configuration(model, rng))
        markers = com_markers(model, state, 7)
        keys.append([(m.namespace, m.marker_id, m.shape, m.scale, m.color) for m in markers])
    assert keys[0] == keys[1] == keys[2]
    pairs = [key[:2] for key in keys[0]]
    assert len(set(pairs)) == len(pairs)


def test_frame_prefix_style_and_colours():
    model = bundled()
    style = MarkerStyle(com_diameter=0.1, ground_diameter=0.3, ground_height=0.01,
                        com_color=(0.0, 1.0, 0.0, 1.0), ground_color=(0.0, 0.0, 1.0, 0.2),
                        link_color=(1.0, 1.0, 1.0, 0.5))
    markers = com_markers(model, model.forward_kinematics(model.neutral_configuration()), 5,
                          'robot1/', style)
    assert {m.frame_id for m in markers} == {'robot1/' + model.root_link}
    assert markers[0].scale == (0.1, 0.1, 0.1)
    assert markers[0].color == (0.0, 1.0, 0.0, 1.0)
    assert markers[1].scale == (0.3, 0.3, 0.01)
    assert markers[1].color == (0.0, 0.0, 1.0, 0.2)
    assert {m.color for m in markers[2:]} == {(1.0, 1.0, 1.0, 0.5)}


def test_a_robot_without_mass_has_no_markers():
    body = '\n'.join([link_xml('a'), link_xml('b'),
                      '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
                      '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'])
    model = Robot.from_urdf_string(urdf(body))
    assert com_markers(model, model.forward_kinematics([0.3]), 0) == []


def test_bad_states_and_stamps_are_refused():
    model = bundled()
    q = model.neutral_configuration()
    state = model.forward_kinematics(q)
    with pytest.raises(ConfigurationError, match='batch of shape'):
        com_markers(model, model.forward_kinematics(np.stack([q, q])), 0)
    other = bundled()
    with pytest.raises(ConfigurationError, match="robot 'fk_arm' is one of robot 'fk_arm'"):
        com_markers(other, state, 0)
    for stamp in (-2 ** 31 * 10 ** 9 - 1, 2 ** 31 * 10 ** 9, 1.5, True, '5', None, np.nan):
        with pytest.raises(ConfigurationError, match='marker stamp'):
            com_markers(model, state, stamp)
    assert com_markers(model, state, np.int64(9))[0].stamp_ns == 9
    assert com_markers(model, state, -1)[0].stamp_ns == -1  # a Time may be negative


@pytest.mark.parametrize('changes', [
    {'com_diameter': 0.0}, {'ground_height': -1.0}, {'link_diameter': float('nan')},
    {'min_link_diameter': float('inf')}, {'com_diameter': True}, {'ground_diameter': '0.1'},
    {'com_color': (1.0, 0.0, 0.0)}, {'link_color': (1.0, 0.0, 0.0, 1.5)},
    {'ground_color': (0.0, 0.0, float('nan'), 1.0)}, {'com_color': 'red'},
    {'link_color': None},
])
def test_bad_styles_are_refused_naming_the_field(changes):
    name = next(iter(changes))
    with pytest.raises(FrameKinematicsError, match=f'marker style {name}'):
        MarkerStyle(**changes)
