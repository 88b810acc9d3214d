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
Forward kinematics: the pose of every link, ``root_T_link``, from the joint kernel.

Two evaluation orders of the same composition ``root_T_link = root_T_parent @
parent_T_link``:

* :func:`compose_down`: the kernel's local transforms of every row at once
  (:meth:`JointKernel.local_transforms
  <frame_kinematics.core.joints.JointKernel.local_transforms>`), then one product per depth
  level: a model's links (:func:`link_poses`, one configuration or a small batch) and the
  nodes of an inverse-kinematics chain (:class:`~frame_kinematics.core.ik.chain.ChainEvaluator`);
* :func:`link_poses_batch_last`: link by link with the batch axis last, so that the constant
  joint origin is one BLAS product over the whole batch and the kernel applies the joint
  motion in place (batches of :data:`BATCH_THRESHOLD` configurations or more: the poses
  alone are faster by levels up to a few dozen configurations, but a state's poses,
  Jacobians and center of mass together are faster batch-last from there).
"""

from typing import Tuple, TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..model import RobotModel

#: Batches at least this large are evaluated link by link with the batch axis last.
BATCH_THRESHOLD = 16


def link_poses(model: 'RobotModel', q: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """
    ``root_T_link`` and ``parent_T_link`` of every link.

    :param model: the robot model.
    :param q: validated configuration ``(nq,)`` or ``(B, nq)``.
    :return: ``(poses, local)``, each ``(n_links, *B, 4, 4)``.
    """
    local = model.kernel.local_transforms(q)
    world = np.empty(local.shape)
    world[0] = local[0]
    return compose_down(local, model.topology.levels, world), local


def compose_down(local: np.ndarray, levels, world: np.ndarray) -> np.ndarray:
    """
    Compose ``root_T_row = root_T_parent @ parent_T_row`` level by level, parents first.

    :param local: ``parent_T_row`` of every row, ``(n, *B, 4, 4)``.
    :param levels: per depth, ``(children, parents)`` (:attr:`Topology.levels
        <frame_kinematics.core.topology.Topology.levels>`); the rows above the first level
        must already hold their poses in ``world``.
    :param world: ``(n, *B, 4, 4)`` receives the poses (it may be ``local`` itself).
    :return: ``world``.
    """
    apart = world is not local  # an output that is not an input: no temporary
    for children, parents in levels:
        if apart and isinstance(children, int):
            np.matmul(world[parents], local[children], out=world[children])
        else:
            world[children] = world[parents] @ local[children]
    return world


def link_poses_batch_last(model: 'RobotModel', q: np.ndarray) -> np.ndarray:
    """
    ``root_T_link`` of every link for a batch, batch axis last.

    :param model: the robot model.
    :param q: validated configurations ``(B, nq)``.
    :return: ``(n_links, 4, 4, B)``.
    """
    kernel = model.kernel
    parent = model.topology.parent
    size = q.shape[0]
    frames = np.empty((kernel.n_rows, 4, 4, size))
    frames[:, 3, :3] = 0.0
    frames[:, 3, 3] = 1.0
    frames[0, :3] = np.eye(4)[:3, :, None]
    prepared = kernel.prepare_batch_last(q)
    moves = kernel.moves
    for row in range(1, kernel.n_rows):
        pose = frames[row, :3]
        np.matmul(kernel.origin_t[row], frames[parent[row], :3], out=pose)
        if moves[row]:
            kernel.move_batch_last(row, pose, prepared)
    return frames
