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
The compiled backend (numba): kinematics kernels over the joint kernel's tables.

Imported only when a model's backend is ``numba`` (:mod:`frame_kinematics.core.backend`).
:class:`Accelerator` binds the kernels of :mod:`.poses`, :mod:`.jacobian` and :mod:`.com` to
one model's read-only tables; :class:`~frame_kinematics.core.kinematics.KinematicsState`
calls it instead of the numpy code when the model has one. Kernels are compiled on first use
and cached on disk (``cache=True``).
"""

from types import MappingProxyType
from typing import Optional, TYPE_CHECKING

import numpy as np

from . import com, ik_engine, jacobian, poses
from ..joints import frozen, JointType, plane_basis
from ..kinematics.expressed import ExpressedIn

if TYPE_CHECKING:  # pragma: no cover
    from ..model import RobotModel

_REFERENCE = MappingProxyType({
    ExpressedIn.WORLD: jacobian.WORLD, ExpressedIn.LOCAL: jacobian.LOCAL,
    ExpressedIn.LOCAL_WORLD_ALIGNED: jacobian.LOCAL_WORLD_ALIGNED})
_ORIGIN = frozen(np.zeros(3))


class Accelerator:
    """
    The compiled kernels bound to one model's tables (read-only, shared by threads).

    Poses of a batch are computed configurations first, ``(B, n_links, 4, 4)``, and handed
    out as the ``(n_links, B, 4, 4)`` view the state uses.
    """

    def __init__(self, model: 'RobotModel') -> None:
        """
        Gather the tables of ``model`` (built by its constructor, before it is sealed).

        :param model: the robot model.
        """
        kernel = model.kernel
        self._fk = (kernel.type_code, kernel.axis, kernel.origin, kernel.q_index,
                    kernel.multiplier, kernel.offset,
                    frozen([plane_basis(kernel.axis[i]) if t is JointType.PLANAR else np.eye(3)
                            for i, t in enumerate(kernel.types)]),
                    model.topology.parent)
        self._columns = (kernel.column_row, kernel.column_v, kernel.column_multiplier,
                         kernel.column_twist)
        self._subtree_end = model.topology.subtree_end
        self._mass = (model.link_masses, model.link_p_coms, model.total_mass)
        self._parent = model.topology.parent
        self._nv = model.nv
        self._warm_up(model.neutral_configuration())

    def _warm_up(self, q: np.ndarray) -> None:
        """
        Load (or compile) every kernel now, so that no later call pays for it.

        The first kernel of a process costs about 0.3 s from the disk cache (numba starts its
        compiler), a first compilation several seconds; later models reuse them. A solve with
        a time budget (inverse kinematics, :mod:`.ik_engine`) or a node's first message then
        never waits for the compiler.
        """
        for qs in (frozen(q), frozen(np.stack([q, q]))):
            world, _ = self.poses(qs)
            world.flags.writeable = False  # as the state holds it
            for ref in _REFERENCE:
                self.jacobian(world, 0, _ORIGIN, ref)
            self.center_of_mass(world)
            self.center_of_mass_jacobian(world)
        #: Whether batches of inverse kinematics run on several threads.
        self.threads = ik_engine.warm_up()

    def poses(self, q: np.ndarray):
        """
        ``(root_T_link, parent_T_link)`` of every link, each ``(n_links, *B, 4, 4)``.

        A batch gives None for ``parent_T_link`` (its writing would double the cost; the state
        derives it from the poses when asked).

        :param q: a validated configuration ``(nq,)`` or batch ``(B, nq)``.
        """
        if q.ndim == 1:
            both = poses.poses(*self._fk, q)
            return both[0], both[1]
        return self._batch_first(poses.poses_batch(*self._fk, q)), None

    @staticmethod
    def _batch_first(world: np.ndarray) -> np.ndarray:
        """Swap the link and batch axes (a view): ``(B, n, ...)`` <-> ``(n, B, ...)``."""
        return world.transpose(1, 0, 2, 3)

    def jacobian(self, world: np.ndarray, link: int, point: Optional[np.ndarray],
                 ref: ExpressedIn) -> np.ndarray:
        """
        Jacobian of a link (at ``link_p_point``), ``(6, nv)`` or ``(B, 6, nv)``.

        :param world: poses from :meth:`poses`.
        :param link: the link's index.
        :param point: ``link_p_point`` (validated, read-only) or None for the origin.
        :param ref: where it is expressed.
        """
        args = (link, _ORIGIN if point is None else point, _REFERENCE[ref]) + \
            self._columns + (self._subtree_end, self._nv)
        if world.ndim == 3:
            return jacobian.jacobian(world, *args)
        return jacobian.jacobian_batch(self._batch_first(world), *args)

    def center_of_mass(self, world: np.ndarray) -> np.ndarray:
        """Center of mass ``(3,)`` or ``(B, 3)`` at poses from :meth:`poses`."""
        if world.ndim == 3:
            return com.center_of_mass(world, *self._mass)
        return com.center_of_mass_batch(self._batch_first(world), *self._mass)

    def center_of_mass_jacobian(self, world: np.ndarray) -> np.ndarray:
        """Return the CoM Jacobian ``(3, nv)`` or ``(B, 3, nv)`` at poses from :meth:`poses`."""
        args = (self._parent,) + self._mass + self._columns + (self._nv,)
        if world.ndim == 3:
            return com.center_of_mass_jacobian(world, *args)
        return com.center_of_mass_jacobian_batch(self._batch_first(world), *args)
