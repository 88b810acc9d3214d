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
(:meth:`JointKernel.local_tf <frame_kinematics.core.joints.JointKernel.local_tf>`), or its
compiled form (:mod:`frame_kinematics.core.accel.tf`) on the numba backend, which also gives
the robot CoM in the same call.
"""

from functools import partial
from itertools import repeat
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .messages import TransformOut
from ..core.backend import executor
from ..core.executor import Executor
from ..core.model import RobotModel


class JointTransforms:
    """
    ``parent_T_child`` of every moving (non-fixed) joint of a model, by index.

    :param model: the robot model.
    :param backend: what computes the transforms (see
        :func:`~frame_kinematics.core.backend.executor`; None: the model's backend when it is a
        :class:`~frame_kinematics.core.robot.Robot`, else the process default).
    :ivar index: ``joint name -> index`` of every moving joint (model order).
    :ivar parents: parent link of each moving joint, by index.
    :ivar children: child link of each moving joint, by index.
    :ivar compiled: whether :meth:`compute_with_com` can be used (numba backend).

    The rows it hands the compiled ``/tf`` kernel are its own children's link indices, checked
    once here: it calls the kernel's trusted entry (``TfKernels._transforms``).
    """

    def __init__(self, model: RobotModel, backend: Union[None, str, Executor] = None) -> None:
        movable = [j for j in model.joints if j.type.moves]
        self._kernel = model.kernel
        self.index: Dict[str, int] = {j.name: i for i, j in enumerate(movable)}
        self.parents: List[str] = [j.parent for j in movable]
        self.children: List[str] = [j.child for j in movable]
        self._child_index = np.array([model.link_index(j.child) for j in movable],
                                     dtype=np.int64)
        chosen = executor(model, backend)
        self._tf = None if chosen is None else chosen.tf
        self.compiled = self._tf is not None

    def compute(self, q: np.ndarray, indices: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """
        ``parent_T_child`` of some moving joints at a configuration.

        :param q: a validated configuration ``(nq,)``.
        :param indices: indices of moving joints (see :attr:`index`).
        :return: ``(n, 3)`` translations and ``(n, 4)`` quaternions ``[x, y, z, w]``.
        """
        if self._tf is not None:
            table, _ = self._tf._transforms(q, self._child_index[indices])
            return table[:, :3], table[:, 3:]
        return self._kernel.local_tf(q, self._child_index[indices])

    def compute_with_com(self, q: np.ndarray, indices: np.ndarray, reference: int,
                         v: Optional[np.ndarray] = None
                         ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """
        :meth:`compute` and the robot CoM in one compiled call (only when :attr:`compiled`).

        :param q: a validated configuration ``(nq,)``.
        :param indices: indices of moving joints (see :attr:`index`).
        :param reference: index of the link the CoM is given in (-1: no CoM).
        :param v: a validated velocity ``(nv,)`` for the CoM velocity and angular momentum.
        :return: translations, quaternions and the CoM: ``(0,)`` without one,
            ``reference_p_com`` ``(3,)``, followed with ``v`` by the root-aligned CoM
            velocity and angular momentum about the CoM ``(9,)``.
        """
        table, com = self._tf._transforms(q, self._child_index[indices], reference, v)
        return table[:, :3], table[:, 3:], com


def transforms_out(parents: Sequence[str], children: Sequence[str], stamp_ns: int,
                   translations: np.ndarray, quats: np.ndarray) -> List[TransformOut]:
    """
    Return the :class:`TransformOut` of joint transforms (one pass, no Python loop body).

    :param parents: parent frame ids.
    :param children: child frame ids.
    :param stamp_ns: the stamp of every transform.
    :param translations: ``(n, 3)``.
    :param quats: ``(n, 4)`` ``[x, y, z, w]``.
    :return: one :class:`TransformOut` per row, in the order of ``parents``.
    """
    make = partial(tuple.__new__, TransformOut)  # TransformOut._make without its Python frame
    return list(map(make, zip(parents, children, repeat(stamp_ns),
                              map(tuple, translations.tolist()), map(tuple, quats.tolist()))))
