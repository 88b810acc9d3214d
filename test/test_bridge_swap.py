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
"""Robot description swaps of the bridge (frame_kinematics.bridge.swap)."""

from bridge_testing import ARM, js, make, SEC
from conftest import joint_xml, link_xml, urdf
from frame_kinematics.bridge import UserFrame
import pytest


def test_good_description_swaps_the_model_and_is_republished():
    bridge, logger, _ = make()
    bridge.on_joint_state(js(['elbow_joint'], [0.4]), SEC)
    smaller = ARM.replace('name="fk_arm"', 'name="fk_arm2"').replace(
        '<origin xyz="0 0 0.10" rpy="0 0 0"/>', '<origin xyz="0 0 0.20" rpy="0 0 0"/>')
    out = bridge.set_robot_description(smaller, 9)
    assert out.accepted and out.robot_description == smaller
    assert bridge.model.name == 'fk_arm2'
    tool = next(t for t in out.tf_static if t.child == 'tool0')
    assert tool.translation == pytest.approx((0.0, 0.0, 0.2)) and tool.stamp_ns == 9
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.4
    assert any('fk_arm2' in text for text in logger.texts('info'))


def test_the_same_description_set_again_is_published_again_as_robot_state_publisher_does():
    # a tool (RViz, a launch file) that sets robot_description again gets the description and
    # the whole static set again, freshly stamped, and the model and joint values stay
    bridge, logger, _ = make()
    bridge.on_joint_state(js(['elbow_joint'], [0.4]), SEC)
    model = bridge.model
    out = bridge.set_robot_description(ARM, 7)
    assert out.accepted and out.robot_description == ARM
    assert {t.child for t in out.tf_static} >= {'tool0', 'flange'}
    assert {t.stamp_ns for t in out.tf_static} == {7}
    assert bridge.model is model
    assert bridge.configuration[model.joint('elbow_joint').idx_q] == 0.4
    assert any('set again' in text for text in logger.texts('info'))
    # any other parameter set to its value publishes nothing
    out = bridge.apply_parameters({'publish_frequency': 20.0}, 8)
    assert out.accepted and out.robot_description is None and out.tf_static is None


@pytest.mark.parametrize('text, fragment', [
    ('', 'empty'),
    ('<robot name="x"><link name="a"/><joint', ''),
    (urdf(link_xml('a') + link_xml('b')), 'root'),
])
def test_bad_description_is_rejected_and_the_old_model_keeps_running(text, fragment):
    bridge, logger, _ = make()
    out = bridge.set_robot_description(text, 0)
    assert not out.accepted and fragment in out.reason and 'fk_arm' in out.reason
    assert bridge.model.name == 'fk_arm'
    assert any('rejected the new robot_description' in e for e in logger.texts('error'))
    assert bridge.on_joint_state(js(['elbow_joint'], [0.1]), SEC).tf


def test_description_without_a_user_frame_parent_is_rejected():
    bridge, _, _ = make(user_frames=(UserFrame('cam', 'tool0'),))
    no_tool = urdf(link_xml('base_link', 1.0) + link_xml('l1', 1.0)
                   + joint_xml('j1', 'revolute', 'base_link', 'l1'))
    out = bridge.set_robot_description(no_tool, 0)
    assert not out.accepted and 'tool0' in out.reason and bridge.model.name == 'fk_arm'
