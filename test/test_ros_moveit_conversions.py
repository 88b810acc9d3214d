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
"""MoveIt's GetPositionIK and GetPositionFK messages to and from plain data."""

from types import SimpleNamespace as NS

from frame_kinematics.bridge.moveit_types import (NO_IK_SOLUTION, PoseOut, PositionFKAnswer,
                                                  PositionIKAnswer, RobotStateOut, SUCCESS)
from frame_kinematics.ros import moveit_conversions as mc


def _pose_stamped(frame='', xyz=(0.0, 0.0, 0.0), quat=(0.0, 0.0, 0.0, 1.0)):
    return NS(header=NS(stamp=NS(sec=0, nanosec=0), frame_id=frame),
              pose=NS(position=NS(x=xyz[0], y=xyz[1], z=xyz[2]),
                      orientation=NS(x=quat[0], y=quat[1], z=quat[2], w=quat[3])))


def _transform(xyz=(0.0, 0.0, 0.0), quat=(0.0, 0.0, 0.0, 1.0)):
    return NS(translation=NS(x=xyz[0], y=xyz[1], z=xyz[2]),
              rotation=NS(x=quat[0], y=quat[1], z=quat[2], w=quat[3]))


def _robot_state(names=(), positions=(), multi=(), transforms=()):
    return NS(joint_state=NS(header=NS(stamp=NS(sec=0, nanosec=0)), name=list(names),
                             position=list(positions)),
              multi_dof_joint_state=NS(header=NS(stamp=NS(sec=0, nanosec=0)),
                                       joint_names=list(multi), transforms=list(transforms)),
              is_diff=True)


def _constraints(**given):
    fields = {name: [] for name in ('joint_constraints', 'position_constraints',
                                    'orientation_constraints', 'visibility_constraints')}
    fields.update(given)
    return NS(**fields)


def _error_code(fields=('error_message', 'error_source')):
    return NS(val=0, **dict.fromkeys(fields, ''))


def test_an_ik_request_is_read_field_by_field():
    ik = NS(group_name='panda_arm', robot_state=_robot_state(['j1'], [0.5], ['virtual'],
                                                             [_transform((1.0, 2.0, 3.0))]),
            constraints=_constraints(joint_constraints=[object()]), avoid_collisions=True,
            ik_link_name='hand', pose_stamped=_pose_stamped('world', (0.1, 0.2, 0.3)),
            ik_link_names=['a', 'b'],
            pose_stamped_vector=[_pose_stamped('base'), _pose_stamped('tool')],
            timeout=NS(sec=1, nanosec=500_000_000))
    request = mc.position_ik_request(NS(ik_request=ik))
    assert request.group_name == 'panda_arm' and request.ik_link_name == 'hand'
    assert request.robot_state.names == ['j1'] and request.robot_state.positions == [0.5]
    assert request.robot_state.multi_dof_names == ['virtual']
    assert request.robot_state.multi_dof_transforms == [((1.0, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0))]
    assert request.pose_stamped.frame_id == 'world'
    assert request.pose_stamped.position == (0.1, 0.2, 0.3)
    assert [p.frame_id for p in request.pose_stamped_vector] == ['base', 'tool']
    assert request.ik_link_names == ['a', 'b'] and request.timeout == 1.5
    assert request.avoid_collisions and request.has_constraints
    ik.constraints = _constraints()
    assert not mc.position_ik_request(NS(ik_request=ik)).has_constraints


def test_an_ik_answer_fills_the_whole_robot_state_and_the_error_code():
    solution = RobotStateOut(('j1', 'j2'), (0.1, 0.2), ('base',),
                             (((1.0, 2.0, 3.0), (0.0, 0.0, 0.6, 0.8)),))
    for fields in (('message', 'source'), ('error_message', 'error_source'), ()):
        response = NS(solution=_robot_state(), error_code=_error_code(fields))
        mc.fill_position_ik_response(response, PositionIKAnswer(SUCCESS, 'solved', solution),
                                     -1, _transform)
        assert response.error_code.val == SUCCESS
        if fields:  # moveit_msgs 2.4 (Jazzy) and later have text fields, 2.2 (Humble) none
            assert getattr(response.error_code, fields[0]) == 'solved'
            assert getattr(response.error_code, fields[1]) == 'frame_kinematics'
        else:
            assert vars(response.error_code) == {'val': SUCCESS}
        state = response.solution
        assert not state.is_diff
        assert state.joint_state.name == ['j1', 'j2'] and state.joint_state.position == [0.1, 0.2]
        assert (state.joint_state.header.stamp.sec, state.joint_state.header.stamp.nanosec) == \
            (-1, 999_999_999)
        assert state.multi_dof_joint_state.joint_names == ['base']
        (t,) = state.multi_dof_joint_state.transforms
        assert (t.translation.x, t.rotation.z, t.rotation.w) == (1.0, 0.6, 0.8)
    response = NS(solution=_robot_state(), error_code=_error_code())
    mc.fill_position_ik_response(response, PositionIKAnswer(NO_IK_SOLUTION, 'no'), 0,
                                 _transform)
    assert response.error_code.val == NO_IK_SOLUTION and response.solution.joint_state.name == []


def test_an_fk_request_and_answer():
    request = mc.position_fk_request(NS(header=NS(frame_id='world'), fk_link_names=['a', 'b'],
                                        robot_state=_robot_state(['j'], [0.3])))
    assert request.frame_id == 'world' and request.fk_link_names == ['a', 'b']
    assert request.robot_state.names == ['j']
    response = NS(pose_stamped=[], fk_link_names=[], error_code=_error_code())
    answer = PositionFKAnswer(SUCCESS, 'ok', ('a',),
                              (PoseOut('world', (1.0, 2.0, 3.0), (0.0, 0.0, 0.6, 0.8)),))
    mc.fill_position_fk_response(response, answer, 5_000_000_006, _pose_stamped)
    (pose,) = response.pose_stamped
    assert response.fk_link_names == ['a'] and pose.header.frame_id == 'world'
    assert (pose.header.stamp.sec, pose.header.stamp.nanosec) == (5, 6)
    assert (pose.pose.position.z, pose.pose.orientation.z) == (3.0, 0.6)
