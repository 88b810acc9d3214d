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
Conversions of the ``ReachStudy`` action and its RViz topics (no rclpy, no decisions here).

As :mod:`~frame_kinematics.ros.conversions`: each function reads the fields of a message it is
given or fills those of a message it is given (the node creates the messages).
"""

from array import array
from dataclasses import fields
import math
from typing import Any, Callable, List, Sequence

from .conversions import fill_stamp
from ..bridge.reach_goal import ReachAnswer, ReachFeedback, ReachGoal
from ..bridge.reach_markers import CloudOut, HeatMapMarker

#: ``sensor_msgs/PointField`` FLOAT32.
POINT_FIELD_FLOAT32 = 7
#: The result's numbers that are NaN when the study has none (the others are counts).
_FIGURES = ('percent_reached', 'elapsed', 'score_min', 'score_mean', 'score_max')


def reach_goal(msg: Any) -> ReachGoal:
    """
    Read a ``ReachStudy`` goal.

    :param msg: the goal message.
    :return: the plain goal (arrays as tuples).
    """
    values = {}
    for item in fields(ReachGoal):
        value = getattr(msg, item.name)
        values[item.name] = value if isinstance(value, (str, int, float)) else tuple(value)
    return ReachGoal(**values)


def fill_reach_feedback(msg: Any, feedback: ReachFeedback) -> Any:
    """Fill a ``ReachStudy`` feedback message; return it."""
    msg.stage = feedback.stage
    msg.done, msg.total, msg.solved = feedback.done, feedback.total, feedback.solved
    return msg


def fill_reach_result(msg: Any, answer: ReachAnswer) -> Any:
    """Fill a ``ReachStudy`` result message (NaN scores where nothing was found); return it."""
    msg.success, msg.message, msg.path = answer.success, answer.message, answer.path
    for name in _FIGURES:
        setattr(msg, name, float(answer.summary.get(name, math.nan)))
    for name, value in answer.summary.items():
        if name not in _FIGURES:
            setattr(msg, name, int(value))
    return msg


def heat_map_messages(markers: Sequence[HeatMapMarker], make: Callable[[], Any],
                      make_point: Callable[[], Any], make_color: Callable[[], Any],
                      add: int, sphere_list: int) -> List[Any]:
    """
    Convert the heat map to ``visualization_msgs/Marker`` messages (SPHERE_LIST).

    :param markers: the markers.
    :param make: creates one empty ``Marker``.
    :param make_point: creates one empty ``geometry_msgs/Point``.
    :param make_color: creates one empty ``std_msgs/ColorRGBA``.
    :param add: the ``ADD`` action constant.
    :param sphere_list: the ``SPHERE_LIST`` type constant.
    :return: the messages.
    """
    out = []
    for marker in markers:
        msg = make()
        msg.ns, msg.id, msg.action, msg.type = marker.namespace, marker.marker_id, add, \
            sphere_list
        fill_stamp(msg.header.stamp, marker.stamp_ns)
        msg.header.frame_id = marker.frame_id
        msg.pose.orientation.w = 1.0
        msg.scale.x = msg.scale.y = msg.scale.z = float(marker.diameter)
        points = []
        for x, y, z in marker.points.tolist():
            point = make_point()
            point.x, point.y, point.z = x, y, z
            points.append(point)
        colors = []
        for r, g, b, a in marker.colors.tolist():
            color = make_color()
            color.r, color.g, color.b, color.a = r, g, b, a
            colors.append(color)
        msg.points, msg.colors = points, colors
        out.append(msg)
    return out


def fill_cloud(msg: Any, cloud: CloudOut, make_field: Callable[[], Any]) -> Any:
    """
    Fill a ``sensor_msgs/PointCloud2`` of float32 fields; return it.

    :param msg: the message.
    :param cloud: the cloud.
    :param make_field: creates one empty ``sensor_msgs/PointField``.
    :return: ``msg``.
    """
    fill_stamp(msg.header.stamp, cloud.stamp_ns)
    msg.header.frame_id = cloud.frame_id
    msg.height, msg.width = 1, cloud.width
    out = []
    for name, offset in cloud.fields:
        field = make_field()
        field.name, field.offset, field.datatype, field.count = name, offset, \
            POINT_FIELD_FLOAT32, 1
        out.append(field)
    msg.fields = out
    msg.is_bigendian = False
    msg.point_step = cloud.point_step
    msg.row_step = cloud.point_step * cloud.width
    msg.data = array('B', cloud.data)
    msg.is_dense = False
    return msg


__all__ = ['fill_cloud', 'fill_reach_feedback', 'fill_reach_result', 'heat_map_messages',
           'POINT_FIELD_FLOAT32', 'reach_goal']
