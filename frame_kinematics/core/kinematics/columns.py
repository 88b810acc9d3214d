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
Motion columns: the world twist each degree of freedom gives its link, and sums of them.

Each motion column (a degree of freedom, or a mimic joint's single one) has a constant unit
twist ``S`` in its link frame (:attr:`JointKernel.column_twist`). At a configuration its
twist taken at a point ``p``, in world axes, is ``[R S_lin + (R S_ang) x (p - o); R S_ang]``
with ``(R, o)`` the link's pose. Jacobians, velocities, accelerations and the CoM Jacobian
are sums of those columns over a link's support (:meth:`Topology.supports`), scattered into
the velocity entries the columns feed (a mimic's column into its master's entry).
"""

from typing import Optional, TYPE_CHECKING

import numpy as np

from ..spatial import cross

if TYPE_CHECKING:  # pragma: no cover
    from ..model import RobotModel


def rotate_last(rot: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """
    ``rot @ vectors`` for batch-last rotations ``(n, 3, 3, B)`` and vectors ``(n, 3)``.

    :param rot: ``n`` rotations per batch entry, the batch axis last, ``(n, 3, 3, B)``.
    :param vectors: one vector per rotation, ``(n, 3)``.
    :return: the rotated vectors, the batch axis last, ``(n, 3, B)``.
    """
    out = rot[:, :, 0] * vectors[:, 0, None, None]
    out += rot[:, :, 1] * vectors[:, 1, None, None]
    out += rot[:, :, 2] * vectors[:, 2, None, None]
    return out


def _cross_first(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product of ``(n, 3, B)`` arrays along their second axis."""
    out = np.empty(a.shape)
    out[:, 0] = a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1]
    out[:, 1] = a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2]
    out[:, 2] = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    return out


def column_twists(model: 'RobotModel', poses: np.ndarray, which,
                  point: Optional[np.ndarray]) -> np.ndarray:
    """
    World-axes twists of motion columns ``which`` taken at ``point``.

    :param model: the robot model.
    :param poses: ``root_T_link`` of every link, ``(n_links, *B, 4, 4)``.
    :param which: column indices (or a slice).
    :param point: ``root_p_point`` of shape ``(*B, 3)``, or None for the world origin.
    :return: ``(n_which, *B, 6)``.
    """
    kernel = model.kernel
    return motion_columns(poses[kernel.column_row[which]], kernel.column_motion[which], point)


def motion_columns(pose: np.ndarray, motion: np.ndarray, point: Optional[np.ndarray]
                   ) -> np.ndarray:
    """
    World-axes twists ``[R S_lin + (R S_ang) x (p - o); R S_ang]`` of motion columns at ``p``.

    The one numpy column formula: the model's Jacobians, twists and CoM Jacobian
    (:func:`column_twists`) and the inverse kinematics' tip Jacobian
    (:meth:`ChainEvaluator.jacobian <frame_kinematics.core.ik.chain.ChainEvaluator.jacobian>`).

    :param pose: ``root_T_link`` ``(R, o)`` of each column's link, ``(m, *B, 4, 4)``.
    :param motion: ``(m, 3, 2)`` columns ``[S_lin, S_ang]`` in the link frames.
    :param point: ``root_p_point`` ``(*B, 3)``, or None for the world origin.
    :return: ``(m, *B, 6)``.
    """
    nb = pose.ndim - 3
    both = pose[..., :3, :3] @ (motion.reshape((-1,) + (1,) * nb + (3, 2)) if nb else motion)
    cols = np.empty(both.shape[:-2] + (6,))
    cols[..., 3:] = both[..., 1]
    lever = -pose[..., :3, 3] if point is None else point - pose[..., :3, 3]
    cols[..., :3] = both[..., 0] + cross(both[..., 1], lever)
    return cols


def column_twists_batch_last(model: 'RobotModel', frames: np.ndarray, which,
                             point: Optional[np.ndarray]) -> np.ndarray:
    """
    :func:`column_twists` from batch-last poses, elementwise over the batch.

    :param model: the robot model.
    :param frames: ``(n_links, 4, 4, B)`` poses.
    :param which: column indices (or a slice).
    :param point: ``(B, 3)`` or None.
    :return: ``(n_which, B, 6)``.
    """
    kernel = model.kernel
    frames = frames[kernel.column_row[which]]
    rot = frames[:, :3, :3]
    twist = kernel.column_twist[which]
    lin = rotate_last(rot, twist[:, :3])
    ang = rotate_last(rot, twist[:, 3:])
    lever = -frames[:, :3, 3] if point is None else point.T - frames[:, :3, 3]
    cols = np.empty((len(frames), frames.shape[-1], 6))
    cols[..., :3] = (lin + _cross_first(ang, lever)).transpose(0, 2, 1)
    cols[..., 3:] = ang.transpose(0, 2, 1)
    return cols


def column_rates(model: 'RobotModel', x: np.ndarray) -> np.ndarray:
    """
    Rate of every motion column from a velocity-sized vector (mimic factors applied).

    :param model: the robot model.
    :param x: ``(*B, nv)``.
    :return: ``(n_columns, *B)``.
    """
    kernel = model.kernel
    rates = np.moveaxis(x[..., kernel.column_v], -1, 0)
    if kernel.columns_plain:
        return rates
    return rates * kernel.column_multiplier.reshape((-1,) + (1,) * (x.ndim - 1))


def to_velocity_entries(model: 'RobotModel', which: np.ndarray, values: np.ndarray
                        ) -> np.ndarray:
    """
    Add per-column values into the velocity entries the columns feed.

    :param model: the robot model.
    :param which: column indices, ``(m,)``.
    :param values: ``(m, *rest)`` per-column values.
    :return: ``(*rest, nv)``: a mimic's value lands, times its multiplier, on its master.
    """
    kernel = model.kernel
    moved = values.transpose(tuple(range(1, values.ndim)) + (0,))
    out = np.zeros(moved.shape[:-1] + (model.nv,))
    entries = kernel.column_v[which]
    if kernel.columns_plain:
        out[..., entries] = moved
        return out
    moved = moved * kernel.column_multiplier[which]
    shared = kernel.column_shared[which]
    if not shared.any():
        out[..., entries] = moved
        return out
    alone = ~shared
    out[..., entries[alone]] = moved[..., alone]
    for position in np.nonzero(shared)[0]:
        out[..., entries[position]] += moved[..., position]
    return out


def to_links(model: 'RobotModel', values: np.ndarray) -> np.ndarray:
    """
    Sum per-column values into the links that carry the columns.

    :param model: the robot model.
    :param values: ``(n_columns, ...)``.
    :return: ``(n_links, ...)``.
    """
    out = np.zeros((model.kernel.n_rows,) + values.shape[1:])
    np.add.at(out, model.kernel.column_row, values)
    return out
