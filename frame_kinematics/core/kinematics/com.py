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
Center of mass, its velocity and Jacobian, and the centroidal momentum.

Sums over the links weighted by their masses (:attr:`RobotModel.link_masses`); the CoM
Jacobian uses each motion column's subtree mass and first moment
(:meth:`Topology.subtree_sums`), so its cost is linear in the number of links.
"""

from typing import TYPE_CHECKING

import numpy as np

from .columns import rotate_last, to_velocity_entries
from ..errors import ConfigurationError
from ..spatial import cross

if TYPE_CHECKING:  # pragma: no cover
    from ..model import RobotModel


def _contract(weights: np.ndarray, stack: np.ndarray) -> np.ndarray:
    """Sum ``stack`` over its first axis with ``weights``."""
    flat = weights @ stack.reshape(stack.shape[0], -1)
    return flat.reshape(stack.shape[1:])


def total_mass(model: 'RobotModel') -> float:
    """
    Total mass of a robot that has one.

    :param model: the robot model.
    :return: its total mass (kg, > 0).
    :raises ConfigurationError: if the robot has no mass (its CoM is undefined).
    """
    if model.total_mass <= 0:
        raise ConfigurationError(f"robot '{model.name}' has no mass: its center of mass is "
                                 'undefined')
    return model.total_mass


def link_centers(model: 'RobotModel', poses: np.ndarray) -> np.ndarray:
    """
    Center of mass of every link in the root frame.

    :param model: the robot model.
    :param poses: ``(n_links, *B, 4, 4)``.
    :return: ``(n_links, *B, 3)``.
    """
    nb = poses.ndim - 3
    local = model.link_p_coms.reshape((-1,) + (1,) * nb + (3, 1))
    return (poses[..., :3, :3] @ local)[..., 0] + poses[..., :3, 3]


def link_centers_batch_last(model: 'RobotModel', frames: np.ndarray) -> np.ndarray:
    """
    :func:`link_centers` from batch-last poses.

    :param model: the robot model.
    :param frames: ``(n_links, 4, 4, B)``.
    :return: ``(n_links, 3, B)``.
    """
    return rotate_last(frames[:, :3, :3], model.link_p_coms) + frames[:, :3, 3]


def mass_average(model: 'RobotModel', per_link: np.ndarray) -> np.ndarray:
    """
    Mass-weighted average over the links.

    :param model: the robot model.
    :param per_link: ``(n_links, ...)``.
    :return: ``(...)``.
    """
    return _contract(model.link_masses, per_link) / total_mass(model)


def center_of_mass_velocity(model: 'RobotModel', centers: np.ndarray,
                            twists: np.ndarray) -> np.ndarray:
    """
    Velocity of the center of mass in the root frame.

    :param model: the robot model.
    :param centers: link centers of mass ``(n_links, *B, 3)``.
    :param twists: link world twists at the world origin ``(n_links, *B, 6)``.
    :return: ``(*B, 3)``.
    """
    point_vel = twists[..., :3] + cross(twists[..., 3:], centers)
    return mass_average(model, point_vel)


def centroidal_momentum(model: 'RobotModel', poses: np.ndarray, centers: np.ndarray,
                        twists: np.ndarray) -> np.ndarray:
    """
    Momentum ``[linear; angular]`` about the center of mass, root-aligned axes.

    :param model: the robot model.
    :param poses: ``(n_links, *B, 4, 4)``.
    :param centers: ``(n_links, *B, 3)``.
    :param twists: ``(n_links, *B, 6)``.
    :return: ``(*B, 6)``.
    """
    masses = model.link_masses
    nb = poses.ndim - 3
    w = twists[..., 3:]
    point_vel = twists[..., :3] + cross(w, centers)
    rot = poses[..., :3, :3]
    inertia_w = rot @ model.link_inertias.reshape((-1,) + (1,) * nb + (3, 3)) @ \
        np.swapaxes(rot, -1, -2)
    spin = (inertia_w @ w[..., None])[..., 0]
    center = mass_average(model, centers)
    orbital = cross(centers - center, point_vel) * masses.reshape((-1,) + (1,) * (nb + 1))
    out = np.empty(poses.shape[1:-2] + (6,))
    out[..., :3] = _contract(masses, point_vel)
    out[..., 3:] = (spin + orbital).sum(axis=0)
    return out


def center_of_mass_jacobian(model: 'RobotModel', columns: np.ndarray,
                            centers: np.ndarray) -> np.ndarray:
    """
    Jacobian of the center of mass: ``com_dot = J v``.

    A column moves its link's whole subtree: it adds ``(m_sub S_lin + S_ang x h_sub) / M``
    with ``m_sub`` the subtree's mass and ``h_sub`` its first moment.

    :param model: the robot model.
    :param columns: world twists of every motion column ``(n_columns, *B, 6)``.
    :param centers: link centers of mass ``(n_links, *B, 3)``.
    :return: ``(3, nv)`` or ``(B, 3, nv)``.
    """
    masses = model.link_masses
    nb = centers.ndim - 2
    rows = model.kernel.column_row
    sub_mass = model.topology.subtree_sums(masses)[rows]
    sub_moment = model.topology.subtree_sums(
        centers * masses.reshape((-1,) + (1,) * (nb + 1)))[rows]
    jc = (columns[..., :3] * sub_mass.reshape((-1,) + (1,) * (nb + 1))
          + cross(columns[..., 3:], sub_moment)) / total_mass(model)
    return to_velocity_entries(model, np.arange(len(rows)), jc)
