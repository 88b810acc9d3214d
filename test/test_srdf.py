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
"""Reading MoveIt's semantic robot descriptions (SRDF) without ROS."""

from conftest import moveit_resource
from frame_kinematics.core import Robot
from frame_kinematics.core.errors import ConfigurationError, FrameKinematicsError, SRDFError
from frame_kinematics.core.srdf import (DisabledCollision, EndEffector, Group, load_srdf,
                                        read_srdf_file, VirtualJoint)
from frame_kinematics.core.urdf_source import MAX_DOCUMENT_BYTES
import pytest
from urdf_testing import OncePath

SMALL = """<?xml version="1.0"?>
<robot name="two">
  <group name="arm"><chain base_link="base" tip_link="tip"/></group>
  <group name="hand"><joint name="finger"/><link name="palm"/></group>
  <group name="both"><group name="arm"/><group name="hand"/></group>
  <group_state name="home" group="arm"><joint name="shoulder" value="0.5"/>
    <joint name="odom" value="1 2 3"/></group_state>
  <end_effector name="gripper" group="hand" parent_link="tip"/>
  <virtual_joint name="odom" type="planar" parent_frame="map" child_link="base"/>
  <passive_joint name="finger"/>
  <disable_collisions link1="base" link2="tip" reason="Never"/>
  <disable_collisions link1="palm" link2="tip"/>
  <visual>ignored</visual>
</robot>
"""


def test_every_element_is_read_in_document_order():
    srdf = load_srdf(SMALL)
    assert srdf.name == 'two'
    assert srdf.groups[0] == Group('arm', (('base', 'tip'),), (), (), ())
    assert srdf.group('hand') == Group('hand', (), ('finger',), ('palm',), ())
    assert srdf.group('both').subgroups == ('arm', 'hand')
    home = srdf.group_states[0]
    assert (home.name, home.group) == ('home', 'arm')
    assert home.values == (('shoulder', (0.5,)), ('odom', (1, 2, 3)))
    assert srdf.end_effectors == (EndEffector('gripper', 'hand', 'tip', None),)
    assert srdf.virtual_joints == (VirtualJoint('odom', 'planar', 'map', 'base'),)
    assert srdf.passive_joints == ('finger',)
    assert srdf.disabled_collisions == (DisabledCollision('base', 'tip', 'Never'),
                                        DisabledCollision('palm', 'tip', ''))
    assert load_srdf(SMALL.encode('utf-16')) == srdf


def test_names_are_checked_against_a_model():
    srdf = load_srdf(SMALL)
    links, joints = ('base', 'tip', 'palm'), ('shoulder', 'finger')
    srdf.check_against(links, joints)  # the virtual joint 'odom' counts as a joint
    with pytest.raises(SRDFError, match="group 'arm': unknown link 'tip'"):
        srdf.check_against(('base', 'palm'), joints)
    with pytest.raises(SRDFError, match="group 'hand': unknown joint 'finger'"):
        srdf.check_against(links, ('shoulder',))
    with pytest.raises(SRDFError, match="unknown group 'nope' \\(known: arm, hand, both\\)"):
        srdf.group('nope')


@pytest.mark.parametrize('links, joints, words', [
    (None, [], 'link_names must be a collection of names, got NoneType'),
    (3, [], 'link_names must be a collection of names, got int'),
    ('base', [], "link_names must be a collection of names, got str 'base'"),
    (['base'], [['shoulder']], "joint_names must be a collection of names, got (['shoulder'],)"),
])
def test_the_names_of_a_model_are_collections_of_strs(links, joints, words):
    with pytest.raises(ConfigurationError) as caught:
        load_srdf(SMALL).check_against(links, joints)
    assert str(caught.value) == words


def test_unknown_subgroups_and_cycles_are_refused():
    cyclic = SMALL.replace('<group name="arm"><chain', '<group name="arm"><group name="both"/>'
                           '<chain')
    with pytest.raises(SRDFError, match='cycle: arm -> both -> arm|cycle: both -> arm -> both'):
        load_srdf(cyclic).check_against(('base', 'tip', 'palm'), ('shoulder', 'finger'))
    dangling = SMALL.replace('<group name="hand"/></group>', '<group name="gone"/></group>')
    with pytest.raises(SRDFError, match="group 'both': unknown group 'gone'"):
        load_srdf(dangling).check_against(('base', 'tip', 'palm'), ('shoulder', 'finger'))


@pytest.mark.parametrize('document, fragment', [
    ('<robot><group/></robot>', "<group> without a 'name'"),
    ('<robot><group name="a"/><group name="a"/></robot>', "two groups are named 'a'"),
    ('<robot><group name="a"><chain base_link="b"/></group></robot>', "'tip_link'"),
    ('<robot><disable_collisions link1="a"/></robot>', "without a 'link2'"),
    ('<robot><group_state name="s" group="g"><joint name="j"/></group_state></robot>',
     "without a 'value'"),
    ('<robot><group_state name="s" group="g"><joint name="j" value="nan"/></group_state>'
     '</robot>', 'not finite'),
    ('<robot><group_state name="s" group="g"><joint name="j" value="1e308"/></group_state>'
     '</robot>', 'exceeds'),
    ('<robot><end_effector name="e" group="g"/></robot>',
     "end_effector 'e': <end_effector> without a 'parent_link'"),
    ('<robot><virtual_joint name="v" type="fixed" child_link="c"/></robot>',
     "'parent_frame'"),
    ('<robot><group_state name="s" group="g"><joint name="j" value="1 x"/></group_state>'
     '</robot>', 'not a number list'),
    ('<robot><group_state name="s" group="g"><joint name="j" value="1 2 3 4 5 6 7 8"/>'
     '</group_state></robot>', '1 to 7 numbers'),
    ('<robot><group name="' + 'n' * 300 + '"/></robot>', 'longer than 256'),
    ('<semantic/>', 'root element must be <robot>'),
    ('<robot><group name="a"></robot>', 'malformed XML'),
    ('<!DOCTYPE r [<!ENTITY x "y">]><robot/>', 'DOCTYPE'),
    (b'\xff\xfe\x00', 'not valid'),
    (42, 'must be str or bytes, got int'),
    ('<robot/>' + ' ' * MAX_DOCUMENT_BYTES, 'larger than the limit'),
])
def test_bad_documents_get_the_library_error(document, fragment):
    with pytest.raises(SRDFError, match=fragment) as raised:
        load_srdf(document)
    assert isinstance(raised.value, FrameKinematicsError)
    assert 'URDF' not in str(raised.value)


def test_bad_files_are_named(tmp_path):
    with pytest.raises(SRDFError, match='cannot read'):
        read_srdf_file(tmp_path / 'missing.srdf')
    bad = tmp_path / 'bad.srdf'
    bad.write_text('<robot><group/></robot>')
    with pytest.raises(SRDFError, match=f"file '{bad}': <group> without"):
        read_srdf_file(bad)
    with pytest.raises(SRDFError, match='must be str, bytes or os.PathLike'):
        read_srdf_file(3.5)


def test_a_path_is_converted_once_even_when_the_document_fails(tmp_path):
    bad = tmp_path / 'bad.srdf'
    bad.write_text('<robot><group/></robot>')
    with pytest.raises(SRDFError, match=f"file '{bad}': <group> without"):
        read_srdf_file(OncePath(bad))


def test_moveit_panda_srdf_fits_its_urdf():
    model = Robot.from_urdf_file(moveit_resource('panda_description/urdf/panda.urdf'),
                                 backend='numpy')
    srdf = read_srdf_file(moveit_resource('panda_moveit_config/config/panda.srdf'))
    srdf.check_against(model.link_names, (j.name for j in model.joints))
    assert [g.name for g in srdf.groups] == ['panda_arm', 'hand', 'panda_arm_hand']
    assert srdf.group('panda_arm').chains == (('panda_link0', 'panda_link8'),)
    assert srdf.group('panda_arm_hand').subgroups == ('panda_arm', 'hand')
    assert [s.name for s in srdf.group_states] == ['ready', 'extended', 'transport', 'open',
                                                   'close']
    assert dict(srdf.group_states[0].values)['panda_joint4'] == (-2.356,)
    assert srdf.end_effectors == (EndEffector('hand', 'hand', 'panda_link8', 'panda_arm'),)
    assert srdf.virtual_joints[0].type == 'floating'
    assert len(srdf.disabled_collisions) == 34
    assert DisabledCollision('panda_leftfinger', 'panda_rightfinger', 'Default') in \
        srdf.disabled_collisions


def test_moveit_pr2_srdf_with_subgroups_and_a_planar_virtual_joint():
    model = Robot.from_urdf_file(moveit_resource('pr2_description/urdf/robot.xml'),
                                 backend='numpy')
    srdf = read_srdf_file(moveit_resource('pr2_description/srdf/robot.xml'))
    srdf.check_against(model.link_names, (j.name for j in model.joints))
    assert srdf.virtual_joints == (VirtualJoint('world_joint', 'planar', 'odom_combined',
                                                'base_footprint'),)
    assert srdf.group('whole_body').subgroups == ('arms', 'base')
    assert srdf.group('base').joints == ('world_joint',)
    assert srdf.group('arms_and_torso').joints == ('torso_lift_joint',)
    assert [e.parent_link for e in srdf.end_effectors] == ['r_wrist_roll_link',
                                                           'l_wrist_roll_link']
    assert srdf.disabled_collisions == (
        DisabledCollision('r_shoulder_pan_link', 'r_shoulder_lift_link', ''),)
