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
"""The ReachStudy action's conversions, on plain objects with the fields of the ROS messages."""

from array import array
import math
from types import SimpleNamespace as NS

from frame_kinematics.bridge.reach_goal import ReachAnswer, ReachFeedback, ReachGoal
from frame_kinematics.bridge.reach_markers import CloudOut, HeatMapMarker
from frame_kinematics.ros.reach_conversions import (fill_cloud, fill_reach_feedback,
                                                    fill_reach_result, heat_map_messages,
                                                    POINT_FIELD_FLOAT32, reach_goal)
import numpy as np


def header():
    return NS(stamp=NS(sec=0, nanosec=0), frame_id='')


def test_a_goal_message_reads_into_the_plain_goal():
    msg = NS(**vars(ReachGoal()))
    msg.box, msg.step, msg.so3_count = array('d', [0, 0, 0, 1, 1, 1]), 0.5, 3
    msg.active_joints, msg.tip_link, msg.seed = ['a', 'b'], 'tool0', 9
    goal = reach_goal(msg)
    assert goal.box == (0, 0, 0, 1, 1, 1) and goal.step == 0.5 and goal.so3_count == 3
    assert goal.active_joints == ('a', 'b') and goal.seed == 9 and goal.rpy == ()


def test_feedback_and_result_are_filled():
    msg = fill_reach_feedback(NS(), ReachFeedback('targets', 3, 10, 2))
    assert (msg.stage, msg.done, msg.total, msg.solved) == ('targets', 3, 10, 2)
    answer = ReachAnswer(True, 'ok', '/a.npz', {'reached': 3, 'score_min': math.nan,
                                                'percent_reached': 30.0})
    result = fill_reach_result(NS(), answer)
    assert result.success and result.path == '/a.npz' and result.reached == 3
    assert math.isnan(result.score_min) and result.percent_reached == 30.0
    failed = fill_reach_result(NS(), ReachAnswer(False, 'why'))
    assert failed.message == 'why' and math.isnan(failed.score_mean)


def test_heat_map_messages_are_sphere_lists():
    marker = HeatMapMarker('reach_index', 0, 'base_link', 1_500_000_000, 0.05,
                           np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
                           np.array([[1.0, 0.0, 0.0, 0.9], [0.0, 1.0, 0.0, 0.9]]))

    def make():
        return NS(header=header(), pose=NS(orientation=NS(w=0.0)), scale=NS(x=0, y=0, z=0))
    (msg,) = heat_map_messages([marker], make, NS, NS, add=0, sphere_list=7)
    assert (msg.ns, msg.id, msg.action, msg.type) == ('reach_index', 0, 0, 7)
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (1, 500_000_000)
    assert msg.header.frame_id == 'base_link' and msg.pose.orientation.w == 1.0
    assert msg.scale.x == msg.scale.y == msg.scale.z == 0.05
    assert [(p.x, p.y, p.z) for p in msg.points] == [(1, 2, 3), (4, 5, 6)]
    assert [(c.r, c.g, c.b, c.a) for c in msg.colors] == [(1, 0, 0, 0.9), (0, 1, 0, 0.9)]


def test_the_cloud_message_describes_its_fields():
    cloud = CloudOut('base_link', 2, 2, (('x', 0), ('score', 4)), 8, bytes(range(16)))
    msg = fill_cloud(NS(header=header()), cloud, NS)
    assert (msg.height, msg.width, msg.point_step, msg.row_step) == (1, 2, 8, 16)
    assert [(f.name, f.offset, f.datatype, f.count) for f in msg.fields] == \
        [('x', 0, POINT_FIELD_FLOAT32, 1), ('score', 4, POINT_FIELD_FLOAT32, 1)]
    assert bytes(msg.data) == bytes(range(16)) and not msg.is_bigendian
    assert not msg.is_dense and msg.header.frame_id == 'base_link'
