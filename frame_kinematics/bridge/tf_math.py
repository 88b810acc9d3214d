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
The transforms of the moving joints: ``parent_T_child`` as translations and quaternions.

This is the only place of the bridge that knows how a joint moves its child: the node asks it
for the ``/tf`` transforms of some joints at a configuration, and nothing else. (Its inside is
to be replaced by the core's joint kernel.)
"""

from typing import Dict, List, Tuple

import numpy as np

from ..core.kinematics import KinematicsState
from ..core.model import RobotModel
from ..core.spatial import quaternion_from_rotation, quaternion_multiply


class JointTransforms:
    """
    ``parent_T_child`` of every moving (non-fixed) joint of a model, by index.

    :param model: the robot model.
    :ivar index: ``joint name -> index`` of every moving joint (model order).
    :ivar parents: parent link of each moving joint, by index.
    :ivar children: child link of each moving joint, by index.
    """

    def __init__(self, model: RobotModel) -> None:
        movable = [j for j in model.joints if j.type != 'fixed']
        self.index: Dict[str, int] = {j.name: i for i, j in enumerate(movable)}
        self.parents: List[str] = [j.parent for j in movable]
        self.children: List[str] = [j.child for j in movable]
        self._child_index = np.array([model.link_index(j.child) for j in movable], dtype=int)
        quat0 = quaternion_from_rotation(
            np.array([j.parent_T_joint[:3, :3] for j in movable]).reshape(-1, 3, 3))
        pure_axis = np.zeros((len(movable), 4))
        pure_axis[:, :3] = [j.axis for j in movable]
        revolute = np.array([j.type in ('revolute', 'continuous') for j in movable], dtype=bool)
        src, mult, off = [], [], []
        for joint in movable:
            if joint.mimic is not None:
                master, multiplier, offset = joint.mimic
                src.append(model.joint(master).idx_q)
                mult.append(multiplier)
                off.append(offset)
            else:
                src.append(max(joint.idx_q, 0))
                mult.append(1.0)
                off.append(0.0)
        # origin_q * [axis sin(t/2), cos(t/2)] = cos(t/2) origin_q + sin(t/2) (origin_q * axis)
        self._quat0 = quat0.reshape(-1, 4)
        self._quat_axis = quaternion_multiply(self._quat0, pure_axis).reshape(-1, 4)
        self._src = np.array(src, dtype=int)
        self._half_mult = np.where(revolute, mult, 0.0) / 2.0
        self._half_off = np.where(revolute, off, 0.0) / 2.0
        self._multi_dof = np.array([j.type in ('floating', 'planar') for j in movable],
                                   dtype=bool)
        self._any_multi_dof = bool(self._multi_dof.any())

    def compute(self, state: KinematicsState, indices: np.ndarray
                ) -> Tuple[np.ndarray, np.ndarray]:
        """
        ``parent_T_child`` of some moving joints at the configuration of ``state``.

        :param state: the core's kinematics at the configuration ``state.q``.
        :param indices: indices of moving joints (see :attr:`index`).
        :return: ``(n, 3)`` translations and ``(n, 4)`` quaternions ``[x, y, z, w]``.
        """
        links = self._child_index[indices]
        translations = state.local_poses[links, :3, 3]
        half = state.q[self._src[indices]] * self._half_mult[indices] + self._half_off[indices]
        quats = self._quat0[indices] * np.cos(half)[:, None] + \
            self._quat_axis[indices] * np.sin(half)[:, None]
        if self._any_multi_dof:
            multi = self._multi_dof[indices]
            if multi.any():
                quats[multi] = quaternion_from_rotation(state.local_poses[links[multi], :3, :3])
        return translations, quats
