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
"""What joint names mean for the bridge (frame_kinematics.bridge.names)."""

from bridge_testing import FLOATING, js, logged_bridge, make, SEC
from conftest import all_joint_types_model, ListLogger, random_configuration
from frame_kinematics.bridge import Bridge, BridgeSettings
import numpy as np
import pytest


def test_mimic_follows_its_master():
    bridge, logger, _ = make()
    out = bridge.on_joint_state(js(['left_finger_joint'], [0.03]), SEC)
    children = {t.child: t for t in out.tf}
    assert set(children) == {'left_finger_link', 'right_finger_link'}
    # right finger: origin x -0.01, axis -x, multiplier 1 -> x = -0.01 - 0.03
    assert children['right_finger_link'].translation == pytest.approx((-0.04, 0.0, 0.04))
    assert children['left_finger_link'].translation == pytest.approx((0.04, 0.0, 0.04))


def test_floating_and_planar_joints_are_dynamic_with_entry_names():
    model = all_joint_types_model()
    bridge = Bridge(model.urdf, BridgeSettings(floating_joints='tf'), logger=ListLogger())
    static = {t.child for t in bridge.initial_output(0).tf_static}
    assert {'e', 'tip'} <= static and not {'free', 'plane'} & static
    rng = np.random.default_rng(5)
    q = random_configuration(model, rng)
    names = list(model.configuration_names)
    out = bridge.on_joint_state(js(names, q), SEC)
    assert {t.child for t in out.tf} >= {'free', 'plane', 'a', 'b', 'c', 'd'}
    np.testing.assert_allclose(bridge.configuration, q, atol=1e-12)


class CountingName(str):
    """A name that counts its equality comparisons."""

    comparisons = 0

    def __eq__(self, other):
        CountingName.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_duplicate_check_is_linear_in_the_number_of_names():
    names = [CountingName(f'ghost_{i}') for i in range(3000)]
    names += [CountingName('elbow_joint'), CountingName('elbow_joint')]
    bridge, _ = logged_bridge()
    CountingName.comparisons = 0
    out = bridge.on_joint_state(js(names, [0.0] * len(names)), SEC)
    assert not out.accepted and 'elbow_joint' in out.reason and 'more than once' in out.reason
    assert CountingName.comparisons < 20 * len(names)


def test_a_name_the_robot_does_not_have_given_twice_is_ignored_as_robot_state_publisher_does():
    # empty names and other drivers' names may repeat on a shared joint_states: the robot's
    # own joints are still published (only a joint of the robot named twice is ambiguous)
    bridge, logger = logged_bridge()
    out = bridge.on_joint_state(js(['', 'ghost', '', 'elbow_joint', 'ghost'],
                                   [0.1, 0.2, 0.3, 0.4, 0.5]), SEC)
    assert out.accepted and [t.child for t in out.tf] == ['forearm_link']
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.4
    (warning,) = [t for t in logger.texts(None) if 'does not have' in t]
    assert "''" in warning and 'ghost' in warning


@pytest.mark.parametrize('name', ['elbow_joint', 'right_finger_joint', 'tool0_fixed_joint'])
def test_a_joint_of_the_robot_named_twice_refuses_the_message(name):
    bridge, _ = logged_bridge()
    out = bridge.on_joint_state(js([name, 'elbow_joint', name], [0.0, 0.1, 0.0]), SEC)
    assert not out.accepted and not out.tf and name in out.reason


def test_many_unknown_names_are_reported_briefly():
    names = [f'ghost_{i}' for i in range(100_000)] + ['elbow_joint']
    bridge, logger = logged_bridge()
    out = bridge.on_joint_state(js(names, [0.0] * 100_000 + [0.4]), SEC)
    assert out.accepted and [t.child for t in out.tf] == ['forearm_link']
    (warning,) = [t for t in logger.texts(None) if 'does not have' in t]
    assert '100000 in all' in warning and len(warning) < 400


def test_by_default_the_floating_joint_is_skipped_as_robot_state_publisher_does():
    bridge = Bridge.from_parameters({'robot_description': FLOATING}, logger=ListLogger())
    out = bridge.on_joint_state(js(['hip'], [0.3]), SEC)
    assert {t.child for t in out.tf} == {'arm', 'com'}
    assert out.center_of_mass is not None and out.center_of_mass.frame_id == 'base'
    assert 'root_joint' not in {t.child for t in bridge.initial_output(0).tf_static}
    tf_mode = Bridge.from_parameters({'robot_description': FLOATING, 'floating_joints': 'tf'},
                                     logger=ListLogger())
    out = tf_mode.on_joint_state(js(['hip'], [0.3]), SEC)
    assert {t.child for t in out.tf} == {'arm'} and out.center_of_mass is None
