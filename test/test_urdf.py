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
"""
URDF parsing: every joint type, and a clear URDFError for every kind of bad document.

Long attributes and names are refused with short error messages.
"""

import tracemalloc

from conftest import joint_xml, link_xml, random_configuration, urdf
from frame_kinematics.core import Robot, URDFError
from frame_kinematics.core.checks import MAX_MAGNITUDE
from frame_kinematics.core.errors import EXCERPT_LENGTH
from frame_kinematics.core.urdf_source import uses_xacro
import numpy as np
import pytest
from urdf_testing import TWO_LINKS


def limited(name, jtype, lower='-1', upper='1', velocity='1', effort='1', extra=''):
    """Write a joint from 'a' to 'b' with the given <limit> attributes."""
    return (TWO_LINKS + f'<joint name="{name}" type="{jtype}"><parent link="a"/>'
            f'<child link="b"/><limit lower="{lower}" upper="{upper}" velocity="{velocity}" '
            f'effort="{effort}"/>{extra}</joint>')


def test_every_joint_type_and_layout():
    body = '\n'.join([link_xml(n) for n in 'abcdefg'] + [
        joint_xml('rev', 'revolute', 'a', 'b'),
        joint_xml('cont', 'continuous', 'b', 'c'),
        joint_xml('pri', 'prismatic', 'c', 'd', axis='0 1 0'),
        joint_xml('fix', 'fixed', 'd', 'e'),
        joint_xml('free', 'floating', 'e', 'f'),
        joint_xml('plane', 'planar', 'f', 'g'),
    ])
    model = Robot.from_urdf_string(urdf(body))
    assert model.joint_names == ('rev', 'cont', 'pri', 'free', 'plane')
    assert (model.nq, model.nv) == (1 + 1 + 1 + 7 + 3, 1 + 1 + 1 + 6 + 3)
    assert model.joint('free').idx_q == 3 and model.joint('plane').idx_v == 9
    assert model.link_names == tuple('abcdefg')
    assert model.joint('fix').idx_q == -1
    np.testing.assert_allclose(model.lower[:3], [-2, -np.inf, -2])
    np.testing.assert_allclose(model.neutral_configuration()[3:10], [0, 0, 0, 0, 0, 0, 1])
    assert model.velocity_names[3:] == ('free/vx', 'free/vy', 'free/vz', 'free/wx', 'free/wy',
                                        'free/wz', 'plane/vx', 'plane/vy', 'plane/wz')
    assert model.configuration_names[-3:] == ('plane/x', 'plane/y', 'plane/theta')


def test_origin_axis_limits_inertial_and_mimic_are_read():
    body = (link_xml('a', 2.0, '0.1 0.2 0.3') + link_xml('b') + link_xml('c')
            + joint_xml('j', 'revolute', 'a', 'b', '1 2 3', '0 0 1.5707963267948966', '0 0.6 0.8')
            + joint_xml('m', 'prismatic', 'b', 'c',
                        extra='<mimic joint="j" multiplier="2" offset="0.5"/>'))
    model = Robot.from_urdf_string(urdf(body))
    joint = model.joint('j')
    np.testing.assert_allclose(joint.parent_T_joint[:3, 3], [1, 2, 3])
    np.testing.assert_allclose(joint.parent_T_joint[:3, 0], [0, 1, 0], atol=1e-15)
    np.testing.assert_allclose(joint.axis, [0, 0.6, 0.8])
    assert (joint.lower, joint.upper, joint.velocity, joint.effort) == (-2, 2, 1, 1)
    assert model.joint('m').mimic == ('j', 2.0, 0.5)
    assert model.joint_names == ('j',)
    link = model.link('a')
    assert link.mass == 2.0 and link.has_inertial
    np.testing.assert_allclose(link.link_p_com, [0.1, 0.2, 0.3])
    # The inertia is rotated from the inertial frame (rpy 0.1 0.2 0.3) into link axes.
    assert np.trace(link.inertia) == pytest.approx(0.6)
    assert not np.allclose(link.inertia, np.diag(np.diag(link.inertia)))


@pytest.mark.parametrize('body, message', [
    ('', 'no <link>'),
    (TWO_LINKS, 'several root links: a, b'),
    (link_xml('a') + link_xml('a'), "link 'a': duplicate link name"),
    (TWO_LINKS + joint_xml('j', 'fixed', 'a', 'b') + joint_xml('j', 'fixed', 'a', 'b'),
     "joint 'j': duplicate joint name"),
    (TWO_LINKS + joint_xml('j', 'fixed', 'a', 'x'), "joint 'j': child link 'x' does not exist"),
    (TWO_LINKS + joint_xml('j', 'fixed', 'y', 'b'), "joint 'j': parent link 'y' does not exist"),
    (TWO_LINKS + joint_xml('j', 'fixed', 'a', 'b') + joint_xml('k', 'fixed', 'b', 'a'),
     'no root link: the joints form a cycle'),
    (TWO_LINKS + link_xml('c') + link_xml('d') + joint_xml('j', 'fixed', 'a', 'b')
     + joint_xml('k', 'fixed', 'c', 'd') + joint_xml('l', 'fixed', 'd', 'c'),
     "links in a cycle, unreachable from root 'a': c, d"),
    (TWO_LINKS + link_xml('c') + joint_xml('j', 'fixed', 'a', 'b')
     + joint_xml('k', 'fixed', 'a', 'c') + joint_xml('l', 'fixed', 'c', 'b'),
     "joint 'l': link 'b' already has parent joint 'j'"),
    (TWO_LINKS + joint_xml('j', 'hinge', 'a', 'b'), "joint 'j': unknown joint type 'hinge'"),
    (TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b', axis='0 0 0'), "joint 'j': axis is zero"),
    (TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b', xyz='1 two 3'),
     "joint 'j': attribute 'origin xyz' is not a number list"),
    (TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b', xyz='1_0 0 0'),
     "joint 'j': attribute 'origin xyz' is not a number list: '1_0 0 0'"),
    (TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b', xyz='\u0661 0 0'),
     "joint 'j': attribute 'origin xyz' is not a number list"),
    (limited('j', 'revolute', upper='0x1p1'),
     "joint 'j' <limit>: attribute 'upper' is not a number: '0x1p1'"),
    (limited('j', 'revolute', upper='\uff11'), "attribute 'upper' is not a number"),
    (TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b', xyz='1 2'),
     "joint 'j': attribute 'origin xyz' needs 3 numbers"),
    (TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b', rpy='0 nan 0'),
     "joint 'j': attribute 'origin rpy' must be finite"),
    (link_xml('a', -1.0), "link 'a': negative mass -1.0"),
    ('<link name="a"><inertial><mass value="heavy"/></inertial></link>',
     "link 'a' <mass>: attribute 'value' is not a number"),
    (TWO_LINKS + '<joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>',
     "joint 'j': a revolute joint needs a <limit>"),
    (TWO_LINKS + '<joint name="j" type="prismatic"><parent link="a"/><child link="b"/>'
     '<limit lower="1" upper="0"/></joint>', "joint 'j': limit lower 1.0 is above upper 0.0"),
    (TWO_LINKS + '<joint name="j" type="fixed"><child link="b"/></joint>',
     "joint 'j': missing <parent"),
    ('<link/>', 'a <link> without a name'),
    (''.join(link_xml(n) for n in 'abc')
     + joint_xml('j', 'revolute', 'a', 'b', extra='<mimic joint="k"/>')
     + joint_xml('k', 'revolute', 'b', 'c', extra='<mimic joint="j"/>'),
     'mimic chain loops: j -> k -> j'),
    (TWO_LINKS + joint_xml('j', 'floating', 'a', 'b', extra='<mimic joint="j"/>'),
     'a floating joint cannot mimic'),
    (TWO_LINKS + joint_xml('j', 'planar', 'a', 'b', extra='<mimic joint="ghost"/>'),
     'a planar joint cannot mimic'),
    (TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b', xyz='1e308 0 0'),
     r"joint 'j': origin xyz 1e\+308 exceeds 1e\+16"),
    (TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b', rpy='0 -2e16 0'),
     r"joint 'j': origin rpy -2e\+16 exceeds 1e\+16"),
    (TWO_LINKS + joint_xml('j', 'fixed', 'a', 'b', axis='1e17 0 0'),
     r"joint 'j': axis xyz 1e\+17 exceeds"),
    (link_xml('a', 1e308), r"link 'a' <mass>: value 1e\+308 exceeds 1e\+16"),
    (link_xml('a', 1.0, '0 0 -1e300'), r"link 'a': origin xyz -1e\+300 exceeds"),
    ('<link name="a"><inertial><mass value="1"/><inertia ixx="1" iyz="1e300"/></inertial>'
     '</link>', r"link 'a' <inertia>: iyz 1e\+300 exceeds"),
    (limited('j', 'prismatic', lower='-1e300'), r"joint 'j' <limit>: lower -1e\+300 exceeds"),
    (limited('j', 'revolute', upper='1e17'), r"joint 'j' <limit>: upper 1e\+17 exceeds"),
    (limited('j', 'revolute', upper='inf'), "joint 'j' <limit>: attribute 'upper' must be finite"),
    (limited('j', 'revolute', velocity='-1'), "joint 'j' <limit>: negative velocity limit -1"),
    (limited('j', 'continuous', effort='-0.5'), "joint 'j' <limit>: negative effort limit -0.5"),
    (limited('j', 'revolute', effort='inf'),
     "joint 'j' <limit>: attribute 'effort' must be finite"),
    (limited('j', 'revolute', velocity='nan'), "attribute 'velocity' must be finite, got 'nan'"),
    (TWO_LINKS + link_xml('c') + joint_xml('j', 'revolute', 'a', 'b')
     + joint_xml('m', 'prismatic', 'b', 'c', extra='<mimic joint="j" multiplier="1e300"/>'),
     r"joint 'm' <mimic>: multiplier 1e\+300 exceeds"),
    (TWO_LINKS + link_xml('c') + joint_xml('j', 'revolute', 'a', 'b')
     + joint_xml('m', 'prismatic', 'b', 'c', extra='<mimic joint="j" offset="-1e20"/>'),
     r"joint 'm' <mimic>: offset -1e\+20 exceeds"),
])
def test_bad_documents_raise_clear_errors(body, message):
    with pytest.raises(URDFError, match=message):
        Robot.from_urdf_string(urdf(body))


@pytest.mark.parametrize('axis, unit, logged', [
    ('0 0 2', [0, 0, 1], "joint 'j': axis [0.0, 0.0, 2.0] is not a unit vector (norm 2): "
                         'normalised'),
    ('0 0.707 0.707', [0, 0.5 ** 0.5, 0.5 ** 0.5], 'norm 0.999849'),
    ('0 -1e-200 0', [0, -1, 0], 'norm 1e-200'),
    ('3e15 4e15 0', [0.6, 0.8, 0], 'norm 5e+15'),
    ('0 0.6 0.80001', [0, 0.6, 0.8], None)])
def test_an_axis_of_any_length_is_normalised_as_robot_state_publisher_reads_it(
        core_log, axis, unit, logged):
    log = core_log('frame_kinematics.core.urdf')
    body = TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b', axis=axis)
    model = Robot.from_urdf_string(urdf(body))
    np.testing.assert_allclose(model.joint('j').axis, unit, atol=2e-5)
    assert np.linalg.norm(model.joint('j').axis) == pytest.approx(1.0, abs=1e-15)
    if logged is None:  # within AXIS_UNIT_TOLERANCE of a unit vector: normalised silently
        assert log.text == ''
    else:
        assert logged in log.text


def test_a_model_at_the_bounds_gives_finite_results():
    # Every number at the bound: offsets, limits, mimic gains, masses and inertias; prismatic
    # joints mimicking revolute ones multiply two bounded numbers.
    big = f'{MAX_MAGNITUDE:.17g}'
    limit = f'<limit lower="-{big}" upper="{big}" effort="{big}" velocity="{big}"/>'
    inertial = (f'<inertial><origin xyz="{big} -{big} {big}"/><mass value="{big}"/><inertia '
                f'ixx="{big}" ixy="-{big}" ixz="{big}" iyy="{big}" iyz="{big}" izz="{big}"/>'
                '</inertial>')
    n = 300
    parts = [f'<link name="l{i}">{inertial}</link>' for i in range(n + 1)]
    for i in range(n):
        jtype = ('revolute', 'prismatic', 'continuous')[i % 3]
        mimic = (f'<mimic joint="j{i - 2}" multiplier="-{big}" offset="{big}"/>'
                 if i % 3 == 2 and i > 2 else '')
        jtype = 'prismatic' if mimic else jtype
        parts.append(f'<joint name="j{i}" type="{jtype}"><parent link="l{i}"/>'
                     f'<child link="l{i + 1}"/><origin xyz="{big} {big} -{big}" '
                     f'rpy="{big} 1 2"/><axis xyz="0 0.6 0.8"/>{limit}{mimic}</joint>')
    model = Robot.from_urdf_string(urdf(''.join(parts)))
    rng = np.random.default_rng(7)
    batch = np.vstack([model.lower, model.upper, random_configuration(model, rng, 5)])
    batch = np.where(np.isfinite(batch), batch, MAX_MAGNITUDE)
    state = model.forward_kinematics(batch)
    assert np.all(np.isfinite(state.poses))
    for q in batch:
        assert np.all(np.isfinite(model.jacobian(q, f'l{n}')))
        mass, com = model.center_of_mass(q)
        assert np.isfinite(mass) and np.all(np.isfinite(com))


@pytest.mark.parametrize('text, message', [
    ('<robot name="r"><link name="a"></robot>', 'malformed XML'),
    ('<model name="r"/>', 'root element must be <robot>'),
    ('not xml at all', 'malformed XML'),
])
def test_malformed_xml(text, message):
    with pytest.raises(URDFError, match=message):
        Robot.from_urdf_string(text)


def test_ignored_elements_do_not_disturb():
    body = (TWO_LINKS + joint_xml('j', 'revolute', 'a', 'b')
            + '<transmission name="t"><joint name="j"/></transmission>'
            '<gazebo reference="a"><material>x</material></gazebo>'
            '<ros2_control name="c"><joint name="j"><command_interface name="p"/></joint>'
            '</ros2_control><!-- a comment: with a colon -->')
    assert Robot.from_urdf_string(urdf(body)).joint_names == ('j',)


#: An arm made by a xacro macro, and the macro used once.
MACRO_ARM = """<?xml version="1.0"?>
<robot name="macro_arm" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="reach" value="0.5"/>
  <xacro:macro name="arm" params="prefix">
    <link name="${prefix}base"/>
    <link name="${prefix}tip"/>
    <joint name="${prefix}joint" type="revolute">
      <parent link="${prefix}base"/><child link="${prefix}tip"/>
      <origin xyz="0 0 ${reach}"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
    </joint>
  </xacro:macro>
  <link name="world"/>
  <xacro:arm prefix="left_"/>
  <joint name="mount" type="fixed"><parent link="world"/><child link="left_base"/></joint>
</robot>
"""


def test_the_core_refuses_a_xacro_document():
    with pytest.raises(URDFError, match='this is a xacro document: expand it first'):
        Robot.from_urdf_string(MACRO_ARM)
    # an arm inside a macro does not load silently as a one-link robot
    only_macro = MACRO_ARM.replace('<xacro:arm prefix="left_"/>', '').replace(
        '<joint name="mount" type="fixed"><parent link="world"/><child link="left_base"/>'
        '</joint>', '')
    with pytest.raises(URDFError, match='this is a xacro document: expand it first'):
        Robot.from_urdf_string(only_macro)
    expression = urdf(link_xml('a') + link_xml('b') +
                      joint_xml('j', 'fixed', 'a', 'b', xyz='0 0 ${reach}'))
    with pytest.raises(URDFError, match=r'this is a xacro document: expand it first '
                       r"\(attribute 'origin xyz' is the xacro expression '0 0 \$\{reach\}'"):
        Robot.from_urdf_string(expression)
    assert uses_xacro(MACRO_ARM.encode())
    assert not uses_xacro(b'<robot><!-- <xacro:arm/> --><link name="a"/></robot>')
    assert not uses_xacro(b'<!--' * 100_000 + b'<xacro:arm/>')


def test_long_attribute_is_refused_before_it_is_split():
    numbers = '1.5 ' * 1_000_000
    text = urdf(link_xml('a') + link_xml('b') + joint_xml('j', 'fixed', 'a', 'b', xyz=numbers))
    tracemalloc.start()
    try:
        with pytest.raises(URDFError) as error:
            Robot.from_urdf_string(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(error.value)
    assert message == ("joint 'j': attribute 'origin xyz' needs 3 numbers, got "
                       f"'{_cut(numbers)}'")
    # The document, its UTF-8 copy and expat's buffers; splitting it would take ~18 times it.
    assert peak < 8 * len(text)


def _cut(text):
    """Quote ``text`` as every message of the package does (one rule)."""
    return f'{text[:EXCERPT_LENGTH]}... ({len(text)} characters)'


@pytest.mark.parametrize('body, message', [
    (link_xml('x' * 1_000_000),
     f"<link> name '{_cut('x' * 1_000_000)}' is longer than 256 characters"),
    (link_xml('a') + link_xml('b') + joint_xml('j' * 300, 'fixed', 'a', 'b'),
     f"<joint> name '{_cut('j' * 300)}' is longer than 256"),
    (link_xml('a') + joint_xml('j', 'fixed', 'a', 'b' * 300),
     f"joint 'j': child link '{_cut('b' * 300)}' is longer"),
    (link_xml('a') + link_xml('b') + joint_xml('j', 'revolute', 'a', 'b',
                                               extra=f'<mimic joint="{"m" * 300}"/>'),
     f"joint 'j': mimic joint '{_cut('m' * 300)}' is longer"),
    (link_xml('a') + link_xml('b') + joint_xml('j', 'hinge' * 100, 'a', 'b'),
     f"joint 'j': unknown joint type '{_cut('hinge' * 100)}'"),
    (link_xml('a') + link_xml('b') + joint_xml('j', 'revolute', 'a', 'b', rpy='0 0 ' + '9' * 500),
     f"attribute 'origin rpy' must be finite, got '{_cut('0 0 ' + '9' * 500)}'"),
    (link_xml('a', '1' * 500 + 'x'),
     f"attribute 'value' is not a number: '{_cut('1' * 500 + 'x')}'"),
])
def test_messages_quote_a_short_excerpt(body, message):
    with pytest.raises(URDFError) as error:
        Robot.from_urdf_string(urdf(body))
    assert message in str(error.value)
    assert len(str(error.value)) < 200


def test_long_robot_name_is_refused():
    with pytest.raises(URDFError, match=r"<robot> name 'rrrr.*\.\.\. \(257 characters\)' is "
                       'longer than 256'):
        Robot.from_urdf_string(urdf(link_xml('a'), name='r' * 257))
    assert Robot.from_urdf_string(urdf(link_xml('a'), name='r' * 256)).name == 'r' * 256
