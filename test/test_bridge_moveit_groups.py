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
"""MoveIt planning groups resolved on a model (frame_kinematics.bridge.moveit_groups)."""

from bridge_testing import ARM7, panda_fixture
from conftest import moveit_resource
from frame_kinematics.bridge.moveit_groups import model_frame, resolve_group
from frame_kinematics.core.errors import SRDFError
from frame_kinematics.core.srdf import load_srdf, read_srdf_file
import pytest


panda = panda_fixture()


def test_groups_of_the_moveit_configurations_resolve_to_their_joints_and_tips():
    from frame_kinematics.core import Robot
    panda = Robot.from_urdf_file(moveit_resource('panda_description/urdf/panda.urdf'))
    srdf = read_srdf_file(moveit_resource('panda_moveit_config/config/panda.srdf'))
    arm = resolve_group(srdf, panda, 'panda_arm')
    assert arm.active_joints == tuple(ARM7)
    assert 'panda_joint8' in arm.joints and arm.links[0] == 'panda_link0'
    assert arm.tips == ('panda_link8',)  # the hand's end effector is attached there
    assert resolve_group(srdf, panda, 'hand').active_joints == ('panda_finger_joint1',)
    assert model_frame(srdf, panda) == 'world'

    pr2 = Robot.from_urdf_file(moveit_resource('pr2_description/urdf/robot.xml'))
    srdf = read_srdf_file(moveit_resource('pr2_description/srdf/robot.xml'))
    arms = resolve_group(srdf, pr2, 'arms')  # two subgroups: both tips, in SRDF order
    assert arms.tips == ('r_wrist_roll_link', 'l_wrist_roll_link')
    assert len(arms.active_joints) == 14
    torso = resolve_group(srdf, pr2, 'arms_and_torso')
    assert set(torso.active_joints) == set(arms.active_joints) | {'torso_lift_joint'}
    assert resolve_group(srdf, pr2, 'base').active_joints == ()  # only the virtual joint
    assert model_frame(srdf, pr2) == 'odom_combined'

    fanuc = Robot.from_urdf_file(moveit_resource('fanuc_description/urdf/fanuc.urdf'))
    srdf = read_srdf_file(moveit_resource('fanuc_moveit_config/config/fanuc.srdf'))
    manipulator = resolve_group(srdf, fanuc, 'manipulator')
    assert manipulator.active_joints == tuple(f'joint_{i}' for i in range(1, 7))
    assert manipulator.tips == ('tool0',)


def test_a_group_naming_what_the_model_lacks_is_refused(panda):
    bridge, _, _ = panda
    srdf = load_srdf('<robot name="p"><group name="g"><chain base_link="panda_link0" '
                     'tip_link="nowhere"/></group><group name="j"><joint name="nope"/></group>'
                     '</robot>')
    with pytest.raises(SRDFError, match="group 'g': unknown link 'nowhere'"):
        resolve_group(srdf, bridge.model, 'g')
    with pytest.raises(SRDFError, match="group 'j': unknown joint 'nope'"):
        resolve_group(srdf, bridge.model, 'j')
    with pytest.raises(SRDFError, match="unknown group 'arm'"):
        resolve_group(srdf, bridge.model, 'arm')
