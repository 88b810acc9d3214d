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

The node asks it for the ``/tf`` transforms of some joints at a configuration; the joint
motion itself is the core's joint kernel
(:meth:`JointKernel.local_tf <frame_kinematics.core.joints.JointKernel.local_tf>`).
"""

from typing import Dict, List, Tuple

import numpy as np

from ..core.kinematics import KinematicsState
from ..core.model import RobotModel


class JointTransforms:
    """
    ``parent_T_child`` of every moving (non-fixed) joint of a model, by index.

    :param model: the robot model.
    :ivar index: ``joint name -> index`` of every moving joint (model order).
    :ivar parents: parent link of each moving joint, by index.
    :ivar children: child link of each moving joint, by index.
    """

    def __init__(self, model: RobotModel) -> None:
        movable = [j for j in model.joints if j.type.moves]
        self._kernel = model.kernel
        self.index: Dict[str, int] = {j.name: i for i, j in enumerate(movable)}
        self.parents: List[str] = [j.parent for j in movable]
        self.children: List[str] = [j.child for j in movable]
        self._child_index = np.array([model.link_index(j.child) for j in movable], dtype=int)

    def compute(self, state: KinematicsState, indices: np.ndarray
                ) -> Tuple[np.ndarray, np.ndarray]:
        """
        ``parent_T_child`` of some moving joints at the configuration of ``state``.

        :param state: the core's kinematics at the configuration ``state.q``.
        :param indices: indices of moving joints (see :attr:`index`).
        :return: ``(n, 3)`` translations and ``(n, 4)`` quaternions ``[x, y, z, w]``.
        """
        return self._kernel.local_tf(state.q, self._child_index[indices])
