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
one model's packed table (:mod:`.tables`, only read);
:class:`~frame_kinematics.core.kinematics.KinematicsState` and
:class:`~frame_kinematics.core.kinematics.KinematicsWorkspace` call it instead of the numpy
code when the model has one. Kernels are compiled on first use (the checked ones, which take
the caller's configuration, for every kind of float64 vector when their modules are
imported, with the first numba model) and cached on disk (``cache=True``).
"""

from typing import Optional, Tuple, TYPE_CHECKING

import numpy as np

from . import com, ik_engine, jacobian, poses, tables, twists
from .tf import TfKernels
from ..joints import frozen
from ..kinematics.expressed import ExpressedIn

if TYPE_CHECKING:  # pragma: no cover
    from ..model import RobotModel

_FLOAT = np.dtype(np.float64)
_zeros = np.zeros  # a module lookup less in checked_jacobian


def _code(ref: ExpressedIn) -> int:
    """Return the kernels' code of ``ref`` (identity tests: cheaper than an enum's hash)."""
    if ref is _ALIGNED:
        return twists.LOCAL_WORLD_ALIGNED
    return twists.LOCAL if ref is ExpressedIn.LOCAL else twists.WORLD


_ALIGNED = ExpressedIn.LOCAL_WORLD_ALIGNED


class Accelerator:
    """
    The compiled kernels bound to one model's tables (only read, shared by threads).

    Poses of a batch are computed configurations first, ``(B, n_links, 4, 4)``, and handed
    out as the ``(n_links, B, 4, 4)`` view the state uses. A single configuration that is
    already a float64 array is checked by the compiled kernel itself
    (:meth:`checked_poses`, :meth:`checked_jacobian`): one call does the checks and the
    kinematics.
    """

    def __init__(self, model: 'RobotModel') -> None:
        """
        Gather the tables of ``model`` (built by its constructor, before it is sealed).

        :param model: the robot model.
        """
        self._table = tables.pack(model)  # private: see tables.pack
        self._mass = (model.link_masses, model.link_p_coms, model.total_mass)
        self._nv = model.nv
        self._q_shape = (model.nq,)
        self._poses_shape = (len(model.links), 4, 4)
        self._jacobian_shape = (6, model.nv)
        self._origin = np.zeros(3)  # private and writable, as the tables
        self._warm_up(model.neutral_configuration())
        #: The bridge's ``/tf`` kernel (:mod:`.tf`), loaded now too.
        self.tf = TfKernels(model, self._table)

    def _warm_up(self, q: np.ndarray) -> None:
        """
        Load (or compile) every kernel now, so that no later call pays for it.

        The first kernel of a process is loaded from the disk cache (numba starts its
        compiler) or compiled; later models reuse them. A solve with
        a time budget (inverse kinematics, :mod:`.ik_engine`) or a node's first message then
        never waits for the compiler. The checked kernels, which take the caller's arrays,
        are not called here: their modules compile (or load) them on import, for every kind
        of configuration array (:func:`~.tables.configuration_signatures`).
        """
        for qs in (frozen(q), frozen(np.stack([q, q]))):
            world, _ = self.poses(qs)
            world.flags.writeable = False  # as the state holds it
            for ref in ExpressedIn:
                self.jacobian(world, 0, None, ref)
            self.center_of_mass(world)
            self.center_of_mass_jacobian(world)
        #: Whether batches of inverse kinematics run on several threads.
        self.threads = ik_engine.warm_up()

    @staticmethod
    def takes(q) -> bool:
        """
        Whether ``q`` is a float64 array ``(n,)``, which the checked kernels take.

        Any layout, writable or not (:func:`~.tables.configuration_signatures`); they check
        its size themselves. A dtype equal to float64 but another object (another byte order)
        is not taken: the Python checks convert it.
        """
        return type(q) is np.ndarray and q.dtype is _FLOAT and q.ndim == 1

    def checked_poses(self, q) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        """
        Check one configuration and compute every link's pose, in one compiled call.

        :param q: anything; only an array :meth:`takes` is evaluated.
        :return: ``(q_copy, root_T_link)`` (new arrays, quaternions normalised), or None when
            ``q`` is not such an array or fails the checks of
            :meth:`RobotModel.check_configuration
            <frame_kinematics.core.model.RobotModel.check_configuration>` (which then says
            why).
        """
        q_copy = np.empty(self._q_shape)
        world = np.empty(self._poses_shape)
        if self.checked_poses_into(q, q_copy, world):
            return q_copy, world
        return None

    def checked_poses_into(self, q, q_out: np.ndarray, world: np.ndarray) -> bool:
        """
        :meth:`checked_poses` into the caller's arrays, which are not written when it fails.

        :param q_out: ``(nq,)`` float64, receives the checked copy of ``q``.
        :param world: ``(n_links, 4, 4)`` float64, receives the poses.
        :return: whether ``q`` was taken and passed the checks.
        """
        # takes(), written out: a call is a noticeable share of this one
        return (type(q) is np.ndarray and q.dtype is _FLOAT and q.ndim == 1
                and poses.poses_checked(self._table, q, q_out, world))

    def checked_pose(self, q, link: int) -> Optional[np.ndarray]:
        """
        Check one configuration and compute one link's pose, in one compiled call.

        Only the link and its ancestors are evaluated.

        :param q: anything; only an array :meth:`takes` is evaluated.
        :param link: the link's index.
        :return: a new ``root_T_link`` ``(4, 4)``, or None as :meth:`checked_poses`.
        """
        if not self.takes(q):
            return None
        out = np.empty((4, 4))
        if poses.pose_checked(self._table, q, link, out):
            return out
        return None

    def checked_jacobian(self, q, link: int, point: Optional[np.ndarray],
                         ref: ExpressedIn) -> Optional[np.ndarray]:
        """
        Check one configuration and compute a link's Jacobian, in one compiled call.

        Only the poses of the link and its ancestors are computed.

        :param q: anything; only an array :meth:`takes` is evaluated.
        :param link: the link's index.
        :param point: ``link_p_point`` (validated) or None for the origin.
        :param ref: where it is expressed.
        :return: a new ``(6, nv)`` array, or None as :meth:`checked_poses`.
        """
        # takes() and _code() written out: a call is a noticeable share of this one
        if not (type(q) is np.ndarray and q.dtype is _FLOAT and q.ndim == 1):
            return None
        out = _zeros(self._jacobian_shape)
        if jacobian.jacobian_checked(
                self._table, q, link, self._origin if point is None else point,
                twists.LOCAL_WORLD_ALIGNED if ref is _ALIGNED else _code(ref), out):
            return out
        return None

    def poses(self, q: np.ndarray):
        """
        ``(root_T_link, parent_T_link)`` of every link, each ``(n_links, *B, 4, 4)``.

        A batch gives None for ``parent_T_link`` (its writing would double the cost; the state
        derives it from the poses when asked).

        :param q: a validated configuration ``(nq,)`` or batch ``(B, nq)``.
        """
        if q.ndim == 1:
            both = poses.poses(self._table, q)
            return both[0], both[1]
        return self._batch_first(poses.poses_batch(self._table, q)), None

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
        :param point: ``link_p_point`` (validated) or None for the origin.
        :param ref: where it is expressed.
        """
        args = (link, self._origin if point is None else point, _code(ref), self._table,
                self._nv)
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
        args = (self._table,) + self._mass + (self._nv,)
        if world.ndim == 3:
            return com.center_of_mass_jacobian(world, *args)
        return com.center_of_mass_jacobian_batch(self._batch_first(world), *args)
