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
A workspace bound from the model: targets no configuration can reach, known before any solve.

Walk the tip's path from the frame of the first joint that moves it (its ``<origin>`` in its
parent link): each moving joint moves its child link's origin away from its joint frame by its
displacement (none for a revolute joint, at most the largest magnitude of its limits for a
prismatic one), and from a moving joint's child link to the next moving joint's frame (or to
the tip) the path is rigid, its length the same in every configuration. The first joint's
frame does not move with any active joint (joints above it are held), so every target farther
from it than the sum of these lengths and displacements (plus the position tolerance) is out of
reach. The bound is never tighter than the truth: it rejects no reachable target. A chain with
a floating or planar joint has no finite bound.
"""

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from ..errors import ConfigurationError
from ..ik.selection import JointSelection
from ..joints import JointType
from ..robot import Robot


@dataclass(frozen=True)
class ReachBound:
    """
    A sphere every reachable tip position lies in.

    :ivar center: ``(3,)`` the first moving joint's frame origin, in the root link (m).
    :ivar radius: the largest distance of the tip from it (m; ``inf``: no bound).
    """

    center: np.ndarray
    radius: float

    def outside(self, root_p_target: np.ndarray, tolerance: float) -> np.ndarray:
        """
        Return which positions are farther than the radius plus ``tolerance``.

        :param root_p_target: ``(..., 3)`` positions in the root link (m).
        :param tolerance: the position tolerance of the study (m).
        :return: bools of the shape ``(...)``.
        """
        distance = np.linalg.norm(root_p_target - self.center, axis=-1)
        return distance > self.radius + tolerance


def reach_bound(model: Robot, tip: str, active_joints: Optional[Sequence[str]],
                q: np.ndarray) -> ReachBound:
    """
    Return the reach bound of a tip with the held joints at ``q``.

    The joints that move the tip are those of a
    :class:`~frame_kinematics.core.ik.JointSelection` of the tip: the active joints on its
    path and the mimic joints on it whose masters are active.

    :param model: the robot model.
    :param tip: the tip link.
    :param active_joints: the joints that move, as the selection takes them: a list of
        names, one name, or None for every joint that moves the tip.
    :param q: ``(nq,)`` the configuration of the held joints.
    :return: the bound (an infinite radius when a joint on the path has no bound).
    :raises UnknownFrameError: for an unknown link or joint.
    :raises ConfigurationError: when ``tip`` is not one link name, ``active_joints`` is
        not a name or a list of names, or names a fixed or mimic joint, or ``q`` is not one
        valid configuration.
    """
    selection = JointSelection(model, tip, active_joints)
    if len(selection.tips) != 1:
        raise ConfigurationError(f'the reach bound is of one tip, got {len(selection.tips)}')
    state = model.forward_kinematics(q)
    if state.batch_shape:
        raise ConfigurationError(f'the reach bound is of one configuration (nq,), got shape '
                                 f'{state.q.shape}')
    tip_p = state.transform(selection.tips[0])[:3, 3]
    moving = [node[0] for node in selection.nodes]
    if not moving:
        return ReachBound(tip_p.copy(), 0.0)
    if any(j.type not in (JointType.REVOLUTE, JointType.CONTINUOUS, JointType.PRISMATIC)
           for j in moving):
        return ReachBound(state.transform(moving[0].child)[:3, 3].copy(), float('inf'))
    joint_p = [(state.transform(j.parent) @ j.parent_T_joint)[:3, 3] for j in moving]
    child_p = [state.transform(j.child)[:3, 3] for j in moving]
    rigid = np.array(joint_p[1:] + [tip_p]) - np.array(child_p)
    radius = float(np.sum(np.linalg.norm(rigid, axis=1)))
    for joint, _, _, multiplier, offset in selection.nodes:
        if joint.type is JointType.PRISMATIC:
            source = joint if joint.mimic is None else model.joint(joint.mimic[0])
            travel = abs(multiplier) * max(abs(source.lower), abs(source.upper)) + abs(offset)
            radius += float(travel)
    return ReachBound(joint_p[0].copy(), radius)
