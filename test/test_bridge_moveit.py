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
"""MoveIt's GetPositionIK and GetPositionFK answered on plain data, as move_group answers them."""

from bridge_testing import ARM, ARM7, moveit_text, panda_fixture, READY
from conftest import ListLogger
from frame_kinematics.bridge import Bridge, BridgeSettings
from frame_kinematics.bridge.moveit import DEFAULT_IK_TIMEOUT, MAX_FK_LINKS, MoveItKinematics
from frame_kinematics.bridge.moveit_types import (FRAME_TRANSFORM_FAILURE, INVALID_GROUP_NAME,
                                                  INVALID_LINK_NAME, INVALID_ROBOT_STATE,
                                                  NO_IK_SOLUTION, PoseIn, PositionFKRequestIn,
                                                  PositionIKRequestIn, RobotStateIn, SUCCESS)
from frame_kinematics.core.errors import SRDFError
from frame_kinematics.core.spatial import (quaternion_from_rotation,
                                           transform_from_xyz_quaternion, transform_from_xyz_rpy)
import numpy as np
import pytest


panda = panda_fixture()


def _pose(matrix, frame='world'):
    return PoseIn(frame, tuple(matrix[:3, 3]), tuple(quaternion_from_rotation(matrix[:3, :3])))


def _target(bridge, values, link='panda_link8'):
    q = bridge.configuration
    for name, value in zip(ARM7, values):
        q[bridge.model.joint(name).idx_q] = value
    return bridge.model.forward_kinematics(q).transform(link)


def _solution_q(bridge, answer):
    q = bridge.configuration
    for name, value in zip(answer.solution.names, answer.solution.positions):
        joint = bridge.model.joint(name)
        if joint.is_actuated:
            q[joint.idx_q] = value
    return q


# -- GetPositionFK ---------------------------------------------------------------------------
def test_fk_answers_the_core_poses_in_the_model_frame_and_in_any_frame(panda):
    bridge, services, _ = panda
    values = [0.3, -0.2, 0.1, -1.9, 0.2, 1.4, 0.5]
    request = PositionFKRequestIn('', ['panda_link8', 'panda_hand'],
                                  RobotStateIn(ARM7, values))
    answer = services.compute_fk(bridge.snapshot(), request)
    assert answer.error_code == SUCCESS, answer.message
    assert answer.fk_link_names == ('panda_link8', 'panda_hand')
    for link, pose in zip(answer.fk_link_names, answer.pose_stamped):
        expected = _target(bridge, values, link)  # world is at panda_link0 (the virtual joint)
        assert pose.frame_id == 'world'
        got = transform_from_xyz_quaternion(np.array(pose.position), np.array(pose.orientation))
        np.testing.assert_allclose(got, expected, atol=1e-12)
    # in a moving frame, placed at the latest joint values (as TF would)
    answer = services.compute_fk(bridge.snapshot(), PositionFKRequestIn(
        'panda_link4', ['panda_link8'], RobotStateIn(ARM7, values)))
    pose = answer.pose_stamped[0]
    root_T_4 = bridge.model.forward_kinematics(bridge.configuration).transform('panda_link4')
    expected = np.linalg.inv(root_T_4) @ _target(bridge, values)
    got = transform_from_xyz_quaternion(np.array(pose.position), np.array(pose.orientation))
    np.testing.assert_allclose(got, expected, atol=1e-12)
    assert pose.frame_id == 'panda_link4'


def test_fk_error_codes_are_move_groups(panda):
    bridge, services, _ = panda
    snap = bridge.snapshot()
    assert services.compute_fk(snap, PositionFKRequestIn('', [])).error_code == \
        INVALID_LINK_NAME
    partial = services.compute_fk(snap, PositionFKRequestIn('', ['panda_link8', 'nope']))
    assert partial.error_code == INVALID_LINK_NAME and partial.fk_link_names == ('panda_link8',)
    assert 'nope' in partial.message
    assert services.compute_fk(snap, PositionFKRequestIn('mars', ['panda_link8'])).error_code \
        == FRAME_TRANSFORM_FAILURE
    for state in (RobotStateIn(['panda_joint1'], []), RobotStateIn(['nope'], [0.0]),
                  RobotStateIn(['panda_joint1'], [float('nan')]),
                  RobotStateIn(['panda_joint1', 'panda_joint1'], [0.0, 0.1])):
        answer = services.compute_fk(snap, PositionFKRequestIn('', ['panda_link8'], state))
        assert answer.error_code == INVALID_ROBOT_STATE, state


def test_fk_of_a_frame_without_a_pose_says_why_instead_of_unknown(panda):
    bridge, services, _ = panda  # the Panda's URDF has no inertials: its CoM is undefined
    answer = services.compute_fk(bridge.snapshot(), PositionFKRequestIn(
        '', ['panda_link8', 'com', 'nope']))
    assert answer.error_code == INVALID_LINK_NAME
    assert answer.fk_link_names == ('panda_link8',)
    assert answer.message == ("unknown frames nope; cannot place com: robot 'panda' has no "
                              'mass: its center of mass is undefined')
    answer = services.compute_fk(bridge.snapshot(), PositionFKRequestIn('com', ['panda_link8']))
    assert answer.error_code == FRAME_TRANSFORM_FAILURE
    assert answer.message == ("frame 'com' has no pose: robot 'panda' has no mass: its center "
                              'of mass is undefined')


def test_fk_refuses_more_names_than_its_bound_before_placing_any(panda):
    bridge, services, _ = panda
    snap = bridge.snapshot()
    most = ['panda_link8'] * MAX_FK_LINKS
    answer = services.compute_fk(snap, PositionFKRequestIn('', most))
    assert len(answer.pose_stamped) == MAX_FK_LINKS
    answer = services.compute_fk(snap, PositionFKRequestIn('', most + ['panda_link8']))
    assert (answer.error_code, answer.pose_stamped) == (INVALID_LINK_NAME, ())
    assert f'{MAX_FK_LINKS + 1} names, more than {MAX_FK_LINKS}' in answer.message


def test_fk_without_an_srdf_answers_in_the_root_link(panda):
    bridge, _, _ = panda
    values = [0.3, -0.2, 0.1, -1.9, 0.2, 1.4, 0.5]
    answer = MoveItKinematics(ListLogger()).compute_fk(bridge.snapshot(), PositionFKRequestIn(
        '', ['panda_link8'], RobotStateIn(ARM7, values)))
    assert answer.error_code == SUCCESS, answer.message
    pose = answer.pose_stamped[0]
    assert pose.frame_id == bridge.model.root_link
    got = transform_from_xyz_quaternion(np.array(pose.position), np.array(pose.orientation))
    np.testing.assert_allclose(got, _target(bridge, values), atol=1e-12)


def test_the_virtual_joint_of_the_robot_state_places_the_model_frame(panda):
    bridge, services, _ = panda
    world_T_0 = transform_from_xyz_rpy(np.array([1.0, 2.0, 0.5]), np.array([0.0, 0.0, 0.7]))
    state = RobotStateIn((), (), ['virtual_joint'],
                         [(tuple(world_T_0[:3, 3]),
                           tuple(quaternion_from_rotation(world_T_0[:3, :3])))])
    answer = services.compute_fk(bridge.snapshot(), PositionFKRequestIn('', ['panda_link8'],
                                                                        state))
    pose = answer.pose_stamped[0]
    got = transform_from_xyz_quaternion(np.array(pose.position), np.array(pose.orientation))
    np.testing.assert_allclose(got, world_T_0 @ _target(bridge, READY), atol=1e-12)


def test_a_virtual_joint_beyond_the_magnitude_bound_is_an_invalid_robot_state(panda):
    bridge, services, _ = panda
    snap = bridge.snapshot()
    turn = (0.0, 0.0, float(np.sin(np.pi / 8)), float(np.cos(np.pi / 8)))
    for translation, rotation in (((1.7e308, 1.7e308, 0.0), turn),  # inf once rotated
                                  ((1e300, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
                                  ((0.0, -1e17, 0.0), (0.0, 0.0, 0.0, 1.0))):
        state = RobotStateIn((), (), ['virtual_joint'], [(translation, rotation)])
        answer = services.compute_fk(snap, PositionFKRequestIn('', ['panda_link8'], state))
        assert (answer.error_code, answer.pose_stamped) == (INVALID_ROBOT_STATE, ()), \
            answer
        assert "transform of 'virtual_joint'" in answer.message
        assert 'magnitude above 1e+16' in answer.message
        ik = services.compute_ik(snap, PositionIKRequestIn(
            'panda_arm', state, pose_stamped=PoseIn('world', (0.3, 0.0, 0.5),
                                                    (1.0, 0.0, 0.0, 0.0))))
        assert ik.error_code == INVALID_ROBOT_STATE, ik.message
    at_bound = RobotStateIn((), (), ['virtual_joint'], [((1e16, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))])
    answer = services.compute_fk(snap, PositionFKRequestIn('', ['panda_link8'], at_bound))
    assert answer.error_code == SUCCESS and answer.pose_stamped[0].position[0] == 1e16


def test_a_multi_dof_joint_named_twice_is_refused_before_its_transforms_are_read(panda):
    bridge, services, _ = panda
    snap = bridge.snapshot()
    still = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    moved = ((1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))

    class Counted(list):
        """Transforms that count how many are read."""

        reads = 0

        def __iter__(self):
            for item in super().__iter__():
                Counted.reads += 1
                yield item

    transforms = Counted([still] + [moved] * 9999)
    state = RobotStateIn((), (), ['virtual_joint'] * 10000, transforms)
    answer = services.compute_fk(snap, PositionFKRequestIn('', ['panda_link8'], state))
    assert (answer.error_code, answer.pose_stamped) == (INVALID_ROBOT_STATE, ())
    assert "multi_dof_joint_state names 'virtual_joint' more than once" in answer.message
    assert Counted.reads == 0
    ik = services.compute_ik(snap, PositionIKRequestIn(
        'panda_arm', RobotStateIn((), (), ['virtual_joint'] * 2, [still, moved]),
        pose_stamped=PoseIn('world', (0.3, 0.0, 0.5), (1.0, 0.0, 0.0, 0.0))))
    assert ik.error_code == INVALID_ROBOT_STATE, ik.message


def test_a_long_frame_or_joint_name_is_quoted_whole_in_the_message(panda):
    bridge, services, _ = panda
    snap = bridge.snapshot()
    long_name = 'x' * 1000
    answer = services.compute_fk(snap, PositionFKRequestIn(long_name, ['panda_link8']))
    assert answer.error_code == FRAME_TRANSFORM_FAILURE
    assert answer.message.startswith("unknown frame 'xxxxx")
    assert "... (1000 characters): neither the model frame 'world'" in answer.message
    still = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    answer = services.compute_fk(snap, PositionFKRequestIn(
        '', ['panda_link8'], RobotStateIn((), (), [long_name], [still])))
    assert answer.error_code == INVALID_ROBOT_STATE
    assert answer.message.endswith('... (1000 characters)'), answer.message
    assert "unknown multi-dof joint 'xxxxx" in answer.message


def test_a_target_pose_beyond_the_magnitude_bound_names_the_pose(panda):
    bridge, services, _ = panda
    answer = services.compute_ik(bridge.snapshot(), PositionIKRequestIn(
        'panda_arm', pose_stamped=PoseIn('world', (1e300, 0.0, 0.5), (1.0, 0.0, 0.0, 0.0))))
    assert answer.error_code == NO_IK_SOLUTION
    assert answer.message.startswith('pose of panda_link8 is not a pose: ')
    assert 'magnitude above 1e+16 for x' in answer.message


# -- GetPositionIK ---------------------------------------------------------------------------
def test_ik_meets_the_target_moving_only_the_group(panda):
    bridge, services, _ = panda
    goal = [0.4, -0.5, 0.2, -2.0, 0.1, 1.8, 0.3]
    target = _target(bridge, goal)
    answer = services.compute_ik(bridge.snapshot(), PositionIKRequestIn(
        'panda_arm', pose_stamped=_pose(target), timeout=1.0))
    assert answer.error_code == SUCCESS, answer.message
    q = _solution_q(bridge, answer)
    reached = bridge.model.forward_kinematics(q).transform('panda_link8')
    np.testing.assert_allclose(reached, target, atol=1e-4)
    solution = dict(zip(answer.solution.names, answer.solution.positions))
    assert solution['panda_finger_joint1'] == pytest.approx(0.01)  # not in the group: kept
    assert solution['panda_finger_joint2'] == pytest.approx(0.01)  # mimic, answered too
    assert set(answer.solution.names) >= set(ARM7)


def test_ik_seed_link_and_frame_come_from_the_request(panda):
    bridge, services, _ = panda
    goal = [0.1, -0.6, 0.3, -2.2, 0.0, 1.6, 0.9]
    root_T_hand = _target(bridge, goal, 'panda_hand')
    root_T_0 = np.eye(4)
    # the target given in panda_link0 for the named link, seeded near the goal
    seed = RobotStateIn(ARM7, [v + 0.05 for v in goal])
    answer = services.compute_ik(bridge.snapshot(), PositionIKRequestIn(
        'panda_arm', seed, 'panda_hand', _pose(np.linalg.inv(root_T_0) @ root_T_hand,
                                               'panda_link0'), timeout=1.0))
    assert answer.error_code == SUCCESS, answer.message
    q = _solution_q(bridge, answer)
    np.testing.assert_allclose(bridge.model.forward_kinematics(q).transform('panda_hand'),
                               root_T_hand, atol=1e-4)
    assert np.abs(q[:7] - np.array(goal)).max() < 0.2  # from the seed, not a far branch


def test_several_tips_need_as_many_link_names(panda):
    bridge, services, _ = panda
    target = _target(bridge, [0.2, -0.4, 0.1, -2.0, 0.1, 1.5, 0.4])
    poses = [_pose(target), _pose(target)]
    answer = services.compute_ik(bridge.snapshot(), PositionIKRequestIn(
        'panda_arm', pose_stamped_vector=poses, ik_link_names=['panda_link8']))
    assert answer.error_code == INVALID_LINK_NAME
    hand = _target(bridge, [0.2, -0.4, 0.1, -2.0, 0.1, 1.5, 0.4], 'panda_hand')
    answer = services.compute_ik(bridge.snapshot(), PositionIKRequestIn(
        'panda_arm', pose_stamped_vector=[_pose(target), _pose(hand)],
        ik_link_names=['panda_link8', 'panda_hand'], timeout=1.0))
    assert answer.error_code == SUCCESS, answer.message


def test_ik_error_codes_are_move_groups(panda):
    bridge, services, _ = panda
    snap = bridge.snapshot()
    target = _pose(_target(bridge, [0.2, -0.4, 0.1, -2.0, 0.1, 1.5, 0.4]))
    far = PoseIn('world', (3.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))

    def code(**kwargs):
        fields = {'group_name': 'panda_arm', 'pose_stamped': target, 'timeout': 0.05}
        fields.update(kwargs)
        return services.compute_ik(snap, PositionIKRequestIn(**fields)).error_code

    assert code(group_name='arm') == INVALID_GROUP_NAME
    assert code(ik_link_name='nope') == NO_IK_SOLUTION  # move_group's setFromIK fails
    assert code(pose_stamped=far) == NO_IK_SOLUTION
    assert code(timeout=1e-9) in (NO_IK_SOLUTION, SUCCESS)
    assert code(pose_stamped=PoseIn('mars', target.position, target.orientation)) == \
        FRAME_TRANSFORM_FAILURE
    assert code(robot_state=RobotStateIn(['nope'], [0.0])) == INVALID_ROBOT_STATE
    assert code(pose_stamped=PoseIn('world', (0.3, 0.0, 0.5), (0.0, 0.0, 0.0, 0.0))) == \
        NO_IK_SOLUTION
    assert MoveItKinematics(ListLogger()).compute_ik(
        snap, PositionIKRequestIn('panda_arm', pose_stamped=target)).error_code == \
        INVALID_GROUP_NAME  # no SRDF yet


def test_a_tiny_timeout_answers_no_solution_without_solving_long(panda):
    bridge, services, _ = panda
    ticks = iter(np.arange(0.0, 100.0, 0.01))
    services._clock = lambda: float(next(ticks))  # every reading moves 10 ms on
    far = PoseIn('world', (3.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    answer = services.compute_ik(bridge.snapshot(), PositionIKRequestIn(
        'panda_arm', pose_stamped=far, timeout=1e-6))
    assert answer.error_code == NO_IK_SOLUTION and 'timed out' in answer.message


def test_ignored_options_are_logged_and_the_timeout_defaults(panda):
    bridge, services, log = panda
    slices = []
    services._pause = slices.append
    answer = services.compute_ik(bridge.snapshot(), PositionIKRequestIn(
        'panda_arm', pose_stamped=PoseIn('world', (3.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
        avoid_collisions=True, has_constraints=True, timeout=0.0))
    assert answer.error_code == NO_IK_SOLUTION
    assert f'timed out after {DEFAULT_IK_TIMEOUT:g} s' in answer.message
    warnings = ' '.join(log.texts())
    assert 'avoid_collisions is not supported' in warnings and 'constraints' in warnings
    assert slices and set(slices) == {0}  # the solve gave the interpreter up between slices


def test_a_bad_srdf_changes_nothing(panda):
    _, services, _ = panda
    before = services.semantic
    with pytest.raises(SRDFError):
        services.set_semantic('<robot name="x"><group/></robot>')
    assert services.semantic is before
    assert services.set_semantic('') is None and services.semantic is None


def test_an_srdf_in_use_is_logged_with_its_groups_and_one_without_groups_warns(panda):
    _, services, log = panda
    services.set_semantic('<robot name="p"><group name="g"><link name="panda_link0"/></group>'
                          '</robot>')
    assert "SRDF of robot 'p' in use: groups g" in log.texts('info')
    assert log.texts() == []
    services.set_semantic('<robot name="bare"/>')
    assert services.semantic.groups == ()
    assert log.texts() == ["SRDF of robot 'bare' in use has no groups: compute_ik refuses "
                           'every group_name (INVALID_GROUP_NAME)']


def test_an_srdf_is_checked_against_the_model_before_it_is_used(panda):
    bridge, services, _ = panda
    model = bridge.model
    before = services.semantic
    with pytest.raises(SRDFError, match="unknown link 'nowhere'"):
        services.set_semantic('<robot name="p"><group name="g"><chain base_link="panda_link0" '
                              'tip_link="nowhere"/></group></robot>', model)
    assert services.semantic is before
    for urdf, srdf in (('panda_description/urdf/panda.urdf',
                        'panda_moveit_config/config/panda.srdf'),
                       ('pr2_description/urdf/robot.xml', 'pr2_description/srdf/robot.xml'),
                       ('fanuc_description/urdf/fanuc.urdf',
                        'fanuc_moveit_config/config/fanuc.srdf')):
        other = Bridge(moveit_text(urdf), BridgeSettings()).model
        assert MoveItKinematics.read_semantic(moveit_text(srdf), other).groups


#: An SRDF of the bundled arm (the Panda's files are not needed).
ARM_SRDF = """<robot name="fk_arm">
  <group name="arm"><chain base_link="base_link" tip_link="tool0"/></group>
</robot>"""


@pytest.mark.parametrize('position, orientation, reason', [
    ((0.3, 0.0, float('nan')), (0.0, 0.0, 0.0, 1.0), 'not finite'),
    ((0.3, 0.0, 0.5), (0.0, 0.0, float('inf'), 1.0), 'not finite'),
    ((0.3, 0.0), (0.0, 0.0, 0.0, 1.0), 'cannot reshape array of size 2 into shape (3,)'),
    ((0.3, 0.0, 'x'), (0.0, 0.0, 0.0, 1.0), "could not convert string to float: 'x'"),
    ((0.3, 0.0, 0.5), (0.0, 0.0, 0.0, 2.0),
     '{what} has norm 2, expected a unit quaternion (norm 1)'),
])
def test_a_target_that_is_not_a_pose_is_refused_with_the_reason(position, orientation, reason):
    bridge = Bridge(ARM, BridgeSettings())
    services = MoveItKinematics(ListLogger())
    services.set_semantic(ARM_SRDF, bridge.model)
    answer = services.compute_ik(bridge.snapshot(), PositionIKRequestIn(
        'arm', pose_stamped=PoseIn('base_link', position, orientation)))
    what = 'pose of tool0'
    assert (answer.error_code, answer.message) == \
        (NO_IK_SOLUTION, f'{what} is not a pose: {reason.format(what=what)}')
    state = RobotStateIn(multi_dof_names=['hover'], multi_dof_transforms=[(position, orientation)])
    answer = services.compute_fk(bridge.snapshot(), PositionFKRequestIn('', ['tool0'], state))
    what = "transform of 'hover'"
    assert (answer.error_code, answer.message) == \
        (INVALID_ROBOT_STATE, f'robot_state: {what} is not a pose: {reason.format(what=what)}')
