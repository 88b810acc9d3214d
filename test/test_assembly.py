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
"""Tests of frame_kinematics.core.assembly: mimic chains resolved and the floating root."""

from conftest import joint_xml, link_xml, urdf
from frame_kinematics.core import Robot, URDFError
import pytest
from urdf_testing import TWO_LINKS


def test_mimic_chains_are_resolved_to_the_actuated_master():
    body = ''.join(link_xml(n) for n in 'abcd') + joint_xml('j1', 'revolute', 'a', 'b') + \
        joint_xml('j2', 'revolute', 'b', 'c',
                  extra='<mimic joint="j1" multiplier="2" offset="1"/>') + \
        joint_xml('j3', 'revolute', 'c', 'd',
                  extra='<mimic joint="j2" multiplier="3" offset="0.5"/>')
    model = Robot.from_urdf_string(urdf(body))
    # j3 = 3 * (2 * j1 + 1) + 0.5
    assert model.joint('j3').mimic == ('j1', 6.0, 3.5)


def test_fixed_joints_with_a_mimic_are_kept_fixed_and_logged_in_one_line(core_log):
    log = core_log('frame_kinematics.core.assembly')
    body = ''.join(link_xml(n) for n in 'abc') + joint_xml('j1', 'revolute', 'a', 'b') + \
        joint_xml('f', 'fixed', 'b', 'c', extra='<mimic joint="j1"/>')
    model = Robot.from_urdf_string(urdf(body))
    assert model.joint('f').mimic is None
    assert log.lines == ['the <mimic> of fixed joint f is ignored (a fixed joint does not move)']
    log.lines.clear()
    body += link_xml('d') + joint_xml('g', 'fixed', 'c', 'd', extra='<mimic joint="f"/>')
    model = Robot.from_urdf_string(urdf(body))
    assert model.joint('g').mimic is None
    assert log.lines == ['the <mimic> of fixed joints f, g is ignored (a fixed joint does not '
                         'move)']


def test_a_mimic_of_an_unknown_joint_is_ignored_and_logged(core_log):
    log = core_log('frame_kinematics.core.assembly')
    body = ''.join(link_xml(n) for n in 'abcd') + \
        joint_xml('j1', 'revolute', 'a', 'b', extra='<mimic joint="ghost" multiplier="2"/>') + \
        joint_xml('j2', 'revolute', 'b', 'c', extra='<mimic joint="j1" multiplier="3"/>') + \
        joint_xml('j3', 'revolute', 'c', 'd', extra='<mimic joint="j2"/>')
    model = Robot.from_urdf_string(urdf(body))
    # j1 moves on its own, as robot_state_publisher and MoveIt take it; its mimics follow it
    assert model.joint('j1').mimic is None and model.joint_names == ('j1',)
    assert model.joint('j3').mimic == ('j1', 3.0, 0.0)
    assert "joint 'j1' mimics unknown joint 'ghost': its <mimic> is ignored" in log.text


def test_floating_base_option():
    body = TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b')
    model = Robot.from_urdf_string(urdf(body), floating_base=True)
    assert model.root_link == 'world'
    assert model.joint_names == ('root_joint', 'j')
    assert model.configuration_names[:7] == tuple(
        f'root_joint/{c}' for c in ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw'))
    with pytest.raises(URDFError, match="already named 'a'"):
        Robot.from_urdf_string(urdf(body), floating_base=True, world_frame='a')


def test_mimic_chain_gain_beyond_the_bound_is_refused():
    """Each multiplier is within the bound, their product along the chain is not."""
    n = 4
    body = ''.join(link_xml(f'l{i}') for i in range(n + 1))
    body += joint_xml('j0', 'prismatic', 'l0', 'l1')
    for i in range(1, n):
        body += joint_xml(f'j{i}', 'prismatic', f'l{i}', f'l{i + 1}',
                          extra=f'<mimic joint="j{i - 1}" multiplier="1e15"/>')
    with pytest.raises(URDFError, match=r"joint 'j2'.*mimic chain to 'j0'.*1e\+30"):
        Robot.from_urdf_string(urdf(body))
