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
The node's ``ReachStudy`` action server and its latched RViz topics (wiring only).

Every decision is in :mod:`frame_kinematics.bridge.reach_goal` and
:mod:`frame_kinematics.bridge.reach_job`; the conversions are in
:mod:`frame_kinematics.ros.reach_conversions`. The server and the topics are entities of the
node, in a callback group of their own, on the main executor: never on the ``/tf`` path's.
The execute callback is a coroutine that awaits the end of the study (which runs in a child
process), so the executor keeps serving services, parameters and cancel requests meanwhile.

* action ``~/reach_study`` (``frame_kinematics_interfaces/action/ReachStudy``): one study at a
  time; a goal that arrives while one runs is rejected (the reason is logged); a bad goal is
  accepted and aborted at once with the library's error as its result's message;
* ``~/reach/markers`` (``visualization_msgs/MarkerArray``, transient local, depth 1): the heat
  map of the last study;
* ``~/reach/points`` (``sensor_msgs/PointCloud2``, transient local, depth 1): its points with
  their score and reachability index.
"""

import os
from typing import Any, Callable, Optional

from geometry_msgs.msg import Point
from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from rclpy.node import Node
from rclpy.task import Future
from sensor_msgs.msg import PointCloud2, PointField
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray

from .reach_conversions import (fill_cloud, fill_reach_feedback, fill_reach_result,
                                heat_map_messages, reach_goal)
from ..bridge.log import error_text, shorten
from ..bridge.reach_goal import ReachAnswer, study_request
from ..bridge.reach_job import ReachOutcome, ReachStudies, TERMINATE_WAIT
from ..bridge.snapshot import Snapshot

#: Name of the action.
ACTION_NAME = '~/reach_study'


class ReachAction:
    """
    Serve ``ReachStudy`` on a node and publish each study's heat map and cloud (latched).

    :param node: the node (the action and topics are its entities).
    :param action_type: ``frame_kinematics_interfaces.action.ReachStudy``.
    :param snapshot: returns the bridge's current snapshot (the robot and the frame prefix).
    :param now: returns the node clock's time in nanoseconds.
    :param latched_qos: the QoS of the latched topics.
    """

    def __init__(self, node: Node, action_type: Any, snapshot: Callable[[], Snapshot],
                 now: Callable[[], int], latched_qos: Any) -> None:
        """Create the action server and the topics."""
        self._node, self._type = node, action_type
        self._snapshot, self._now = snapshot, now
        self._studies = ReachStudies()
        self._job = None
        group = MutuallyExclusiveCallbackGroup()
        self._wake = node.create_guard_condition(lambda: None, callback_group=group)
        self._markers_pub = node.create_publisher(MarkerArray, '~/reach/markers', latched_qos)
        self._points_pub = node.create_publisher(PointCloud2, '~/reach/points', latched_qos)
        self._server = ActionServer(node, action_type, ACTION_NAME, self._execute,
                                    goal_callback=self._on_goal,
                                    cancel_callback=self._on_cancel, callback_group=group)

    def _on_goal(self, goal: Any) -> GoalResponse:
        reason = self._studies.reserve()
        if reason is None:
            return GoalResponse.ACCEPT
        self._node.get_logger().warning(f'reach_study goal rejected: {reason}')
        return GoalResponse.REJECT

    def _on_cancel(self, goal_handle: Any) -> CancelResponse:
        self._studies.cancel()
        return CancelResponse.ACCEPT

    async def _execute(self, goal_handle: Any) -> Any:
        result = self._type.Result()
        snapshot = self._snapshot()
        model = snapshot.core.urdf_model
        try:
            request, _ = study_request(reach_goal(goal_handle.request), model, os.getcwd())
        except Exception as exc:  # a goal that cannot be read is aborted, with the reason
            self._studies.release()
            goal_handle.abort()
            text = shorten(f'reach_study: {error_text(exc)}')
            self._node.get_logger().error(text)
            return fill_reach_result(result, ReachAnswer(False, text))
        ended = Future()

        def on_feedback(feedback) -> None:
            goal_handle.publish_feedback(fill_reach_feedback(self._type.Feedback(), feedback))

        def on_end(outcome: ReachOutcome) -> None:
            ended.set_result(outcome)
            self._wake.trigger()

        self._node.get_logger().info(f'reach study of {request.tip}: {request.targets} '
                                     f'targets, saving to {request.output}')
        self._job = self._studies.start(
            request, model.urdf, snapshot.settings.frame_prefix + model.root_link, self._now(),
            on_feedback, on_end)
        if goal_handle.is_cancel_requested:  # cancelled before the study started
            self._studies.cancel()
        outcome = await ended
        self._job = None
        if outcome.cancelled:
            goal_handle.canceled()
        elif outcome.answer.success:
            self._publish(outcome)
            goal_handle.succeed()
        else:
            goal_handle.abort()
        self._node.get_logger().info(f'reach study: {outcome.answer.message}')
        return fill_reach_result(result, outcome.answer)

    def _publish(self, outcome: ReachOutcome) -> None:
        self._markers_pub.publish(MarkerArray(markers=heat_map_messages(
            outcome.markers, Marker, Point, ColorRGBA, Marker.ADD, Marker.SPHERE_LIST)))
        self._points_pub.publish(fill_cloud(PointCloud2(), outcome.cloud, PointField))

    def close(self, timeout: Optional[float] = TERMINATE_WAIT) -> None:
        """
        Cancel a running study and wait for its end, then destroy the action server.

        :param timeout: seconds to wait for the study's thread.
        """
        job = self._job
        self._studies.cancel()
        if job is not None:
            job.join(timeout)
        self._server.destroy()


__all__ = ['ACTION_NAME', 'ReachAction']
