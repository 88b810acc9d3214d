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
"""The node's message conversions, on plain objects with the fields of the ROS messages."""

import os
import subprocess
import sys
from types import SimpleNamespace as NS

from frame_kinematics.bridge.messages import CenterOfMassOut, JointStateInput, TransformOut
from frame_kinematics.bridge.services import IKResponse, JacobianResponse, MatrixOut
from frame_kinematics.ros import conversions
import numpy as np
from ros_testing import INT32_STAMPS


def stamp(sec=0, nanosec=0):
    return NS(sec=sec, nanosec=nanosec)


def header(frame_id=''):
    return NS(stamp=stamp(), frame_id=frame_id)


def transform_stamped():
    return NS(header=header(), child_frame_id='',
              transform=NS(translation=NS(x=0.0, y=0.0, z=0.0),
                           rotation=NS(x=0.0, y=0.0, z=0.0, w=1.0)))


def joint_state(names=(), positions=(), velocities=(), sec=0, nanosec=0):
    return NS(header=NS(stamp=stamp(sec, nanosec), frame_id=''), name=list(names),
              position=list(positions), velocity=list(velocities))


def multi_array():
    return NS(layout=NS(dim=[]), data=[])


def test_stamps_round_trip_in_integer_nanoseconds():
    ns = 1_700_000_000_123_456_789
    msg = conversions.fill_stamp(stamp(), ns)
    assert (msg.sec, msg.nanosec) == (1_700_000_000, 123_456_789)
    assert conversions.stamp_to_ns(msg) == ns


def test_every_time_message_round_trips_through_the_bridge_stamp():
    for sec, nanosec in INT32_STAMPS:
        ns = conversions.stamp_to_ns(stamp(sec, nanosec))
        data = conversions.joint_state_input(joint_state(['a'], [0.1], (), sec, nanosec))
        assert data.stamp_ns == ns
        out = TransformOut('p', 'c', ns, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
        (msg,) = conversions.transform_messages([out], transform_stamped)
        assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (sec, nanosec)


def test_joint_state_and_transform_conversions():
    data = conversions.joint_state_input(joint_state(['a', 'b'], [0.1, 0.2], [1.0, 2.0], 3, 4))
    assert tuple(data.names) == ('a', 'b') and list(data.positions) == [0.1, 0.2]
    assert list(data.velocities) == [1.0, 2.0] and data.stamp_ns == 3_000_000_004
    out = TransformOut('p', 'c', 5_000_000_006, (1.0, 2.0, 3.0), (0.0, 0.0, 0.6, 0.8))
    (msg,) = conversions.transform_messages([out], transform_stamped)
    assert (msg.header.frame_id, msg.child_frame_id) == ('p', 'c')
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (5, 6)
    t, r = msg.transform.translation, msg.transform.rotation
    assert (t.x, t.y, t.z, r.x, r.y, r.z, r.w) == (1.0, 2.0, 3.0, 0.0, 0.0, 0.6, 0.8)


def test_joint_states_are_filled_from_the_bridge_input():
    msg = conversions.fill_joint_state(joint_state(), JointStateInput(
        ('a', 'b'), np.array([0.5, -1.0]), (), -1))
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (-1, 999_999_999)
    assert msg.name == ['a', 'b'] and msg.position == [0.5, -1.0] and msg.velocity == []
    assert all(type(x) is float for x in msg.position)
    assert conversions.joint_state_input(msg) == JointStateInput(['a', 'b'], [0.5, -1.0], [], -1)


def test_center_of_mass_messages():
    com = CenterOfMassOut(7, 'base', (1.0, 2.0, 3.0), (4.0, 5.0, 6.0), None)
    point = conversions.fill_point(NS(header=header(), point=NS(x=0, y=0, z=0)), com)
    assert (point.point.x, point.point.y, point.point.z) == (1.0, 2.0, 3.0)
    assert point.header.frame_id == 'base' and point.header.stamp.nanosec == 7
    vector = conversions.fill_vector(NS(header=header(), vector=NS(x=0, y=0, z=0)), com,
                                     com.velocity)
    assert (vector.vector.x, vector.vector.y, vector.vector.z) == (4.0, 5.0, 6.0)


def test_service_requests_and_responses():
    pose = NS(position=NS(x=0.1, y=0.2, z=0.3), orientation=NS(x=0.0, y=0.0, z=0.0, w=1.0))
    request = NS(tip_link='tool0', target=NS(header=header('base_link'), pose=pose),
                 seed=joint_state(['j'], [0.5]), position_only=True, position_tolerance=1e-4,
                 orientation_tolerance=0.0, timeout=0.5, active_joints=['j'])
    ik = conversions.ik_request(request)
    assert ik.tip_link == 'tool0' and ik.target_frame == 'base_link'
    assert ik.target_position == (0.1, 0.2, 0.3) and ik.seed.names == ['j']
    assert ik.position_only and ik.timeout == 0.5 and ik.active_joints == ['j']
    response = NS(success=False, message='', solution=joint_state(), position_error=0.0,
                  orientation_error=0.0, iterations=0)
    conversions.fill_ik_response(response, IKResponse(True, 'ok', ('j',), (0.4,), 1e-6, 2e-6,
                                                      3), 9)
    assert response.success and response.solution.name == ['j']
    assert response.solution.position == [0.4] and response.iterations == 3
    jacobian = NS(link='tool0', point=NS(x=0.0, y=0.0, z=0.1), expressed_in='local',
                  joint_state=joint_state())
    assert conversions.jacobian_request(jacobian).point == (0.0, 0.0, 0.1)
    matrix = MatrixOut.from_array(np.arange(6.0).reshape(2, 3), 'rows', 'columns')
    response = NS(success=False, message='', joint_names=[], jacobian=multi_array(),
                  manipulability=0.0, singular=False)
    conversions.fill_jacobian_response(response, JacobianResponse(True, 'ok', ('a', 'b', 'c'),
                                                                  matrix, 0.5, True), NS)
    assert [d.size for d in response.jacobian.layout.dim] == [2, 3]
    assert [d.stride for d in response.jacobian.layout.dim] == [6, 3]
    assert response.jacobian.data == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and response.singular


def test_relative_motion_request_and_integer_matrix():
    request = NS(locked_joints=[NS(joint='j', parameterized=True)],
                 transformations=[NS(body_a='a', body_b='', parameterized=False,
                                     mask=[True] * 6)])
    converted = conversions.relative_motion_request(request)
    assert converted.locked_joints[0].joint == 'j' and converted.locked_joints[0].parameterized
    assert converted.transformations[0].mask == [True] * 6
    target = multi_array()
    conversions.fill_matrix(target, MatrixOut.from_array(np.array([[0, 2], [1, 0]]), 'r', 'c'),
                            NS, integer=True)
    assert target.data == [0, 2, 1, 0] and all(isinstance(x, int) for x in target.data)


def test_parameter_changes():
    changes = conversions.parameter_changes([NS(name='publish_frequency', value=50)])
    assert changes == {'publish_frequency': 50}


def test_conversions_do_not_import_rclpy():
    code = ('import sys, frame_kinematics.ros.conversions, frame_kinematics.ros.tf_cdr, '
            'frame_kinematics.ros.moveit_conversions, frame_kinematics.bridge.services, '
            'frame_kinematics.bridge.moveit; '
            "print('rclpy' in sys.modules)")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=here)
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.strip() == 'False'


def test_tf_messages_are_built_once_per_frame_list_then_filled():
    built = []

    def make_transform():
        built.append(1)
        return transform_stamped()

    filler = conversions.TFMessageFiller(lambda: NS(transforms=[]), make_transform, limit=2)
    first = [TransformOut('p', 'a', 5, (1.0, 2.0, 3.0), (0.0, 0.0, 0.6, 0.8)),
             TransformOut('a', 'b', -1, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))]
    msg = filler(first)
    last = (2 ** 31 - 1) * 10 ** 9 + 999_999_999
    moved = [t._replace(stamp_ns=last, translation=(7.0, 8.0, 9.0)) for t in first]
    assert filler(moved) is msg and len(built) == 2  # the same objects, refilled
    assert len(msg.transforms) == len(moved)
    for out, transform in zip(msg.transforms, moved):
        assert (out.header.frame_id, out.child_frame_id) == (transform.parent, transform.child)
        assert (out.header.stamp.sec, out.header.stamp.nanosec) == (2 ** 31 - 1, 999_999_999)
        t = out.transform.translation
        assert (t.x, t.y, t.z) == (7.0, 8.0, 9.0)
    for child in ('x', 'y', 'z'):  # beyond the limit the messages are dropped
        other = filler([TransformOut('p', child, 1, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))])
        assert other.transforms[0].child_frame_id == child
