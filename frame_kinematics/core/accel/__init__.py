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

Imported only when the numba backend is asked for (:mod:`frame_kinematics.core.backend`).
:class:`Accelerator`, the backend's :class:`~frame_kinematics.core.executor.Executor`, is its
only face: it binds the kernels of :mod:`.poses`,
:mod:`.jacobian`, :mod:`.com` and :mod:`.tf` to one model's packed table (:mod:`.tables`,
only read), and checks the type, dtype, shape and range of every argument in Python before
any compiled call, so that nothing it is given can make a kernel read or write outside its
arrays. :class:`~frame_kinematics.core.kinematics.KinematicsState` and
:class:`~frame_kinematics.core.kinematics.KinematicsWorkspace` call it instead of the numpy
code when they were made with it. Kernels come from the disk cache or the compiler
(:mod:`.kernels`): the checked ones with the first numba model of a process, the others on
their first call.
"""

import operator
from typing import Optional, Tuple, TYPE_CHECKING

import numpy as np

from . import com, ik_engine, jacobian, kernels, poses, tables, twists
from .tf import TfKernels
from ..checks import plain_array
from ..errors import ConfigurationError, UnknownFrameError
from ..executor import Executor
from ..kinematics.expressed import ExpressedIn

if TYPE_CHECKING:  # pragma: no cover
    from ..ik.chain import ChainEvaluator
    from ..ik.residual import PoseResidual
    from ..model import RobotModel

_FLOAT = np.dtype(np.float64)
_ALIGNED = ExpressedIn.LOCAL_WORLD_ALIGNED
_LOCAL = ExpressedIn.LOCAL
_WORLD = ExpressedIn.WORLD


def _code(ref) -> int:
    """
    Return the kernels' code of an :class:`ExpressedIn` (identity tests, the default first).

    :raises ConfigurationError: for anything else.
    """
    if ref is _ALIGNED:
        return twists.LOCAL_WORLD_ALIGNED
    if ref is _LOCAL:
        return twists.LOCAL
    if ref is _WORLD:
        return twists.WORLD
    raise ConfigurationError(f'expressed_in must be an ExpressedIn, got {type(ref).__name__}')


def _is_vector(q) -> bool:
    """Whether ``q`` is a float64 vector, the one kind of array the checked kernels take."""
    return type(q) is np.ndarray and q.dtype is _FLOAT and q.ndim == 1


def _require(array, shape: Tuple[int, ...], name: str, writable: bool = False) -> np.ndarray:
    """
    Refuse anything but a C-contiguous float64 array of ``shape`` (writable if asked).

    :return: the array as a plain ``numpy.ndarray``
        (:func:`~frame_kinematics.core.checks.plain_array`), which was checked: the one to
        hand to a kernel.
    :raises ConfigurationError: naming ``name`` and what is wrong.
    """
    plain = plain_array(array)
    if plain is None or plain.dtype != _FLOAT:
        raise ConfigurationError(f'{name} must be a float64 array')
    if plain.shape != shape:
        raise ConfigurationError(f'{name} must have shape {shape}, got {plain.shape}')
    if not plain.flags.c_contiguous or (writable and not plain.flags.writeable):
        raise ConfigurationError(f'{name} must be C-contiguous{" and writable" * writable}')
    return plain


class Accelerator(Executor):
    """
    The compiled kernels bound to one model's tables (only read, shared by threads).

    Poses of a batch are computed configurations first, ``(B, n_links, 4, 4)``, and handed
    out as the ``(n_links, B, 4, 4)`` view the state uses. A single configuration that is
    a float64 vector is checked by the compiled kernel itself (:meth:`checked_poses`,
    :meth:`checked_jacobian`): one call does the checks and the kinematics.

    Every public method checks its other arguments in Python. Robots, states and
    workspaces call the private ``_pose``, ``_jacobian`` and ``_poses_into`` with arguments
    they have checked already (a link index they looked up, a point they validated, arrays
    they allocated), so that a call is not checked twice.
    """

    name = 'numba'

    def __init__(self, model: 'RobotModel', cache_directory: Optional[str]) -> None:
        """
        Gather the tables of ``model`` (built by its constructor, before it is sealed).

        :param model: the robot model.
        :param cache_directory: where the kernels are cached (None: compiled in memory); the
            first numba model of a process loads or compiles the checked kernels there.
        """
        kernels.prepare(cache_directory)
        super().__init__(model)
        self._table = tables.pack(model)  # private: see tables.pack
        # called with arguments checked here, past numba's dispatch (kernels.entry_point)
        self._pose_checked = kernels.entry_point(poses.pose_checked)
        self._poses_checked = kernels.entry_point(poses.poses_checked)
        self._jacobian_checked = kernels.entry_point(jacobian.jacobian_checked)
        self._mass = (model.link_masses, model.link_p_coms, model.total_mass)
        self._nv = model.nv
        self._n = len(model.links)
        self._q_shape = (model.nq,)
        self._poses_shape = (self._n, 4, 4)
        self._jacobian_shape = (6, model.nv)
        self._origin = np.zeros(3)  # private and writable, as the tables
        self._tf: Optional[TfKernels] = None
        self._threads: Optional[bool] = None

    @property
    def tf(self) -> TfKernels:
        """Return the bridge's ``/tf`` kernel (:mod:`.tf`), loaded (or compiled) on first use."""
        if self._tf is None:
            self._tf = TfKernels(self._model, self._table)
        return self._tf

    @property
    def threads(self) -> bool:
        """
        Whether batches of inverse kinematics run on several threads.

        The first use loads (or compiles) the solve kernels (:func:`.ik_engine.warm_up`).
        """
        if self._threads is None:
            self._threads = ik_engine.warm_up()
        return self._threads

    def compiled_chain(self, evaluator: 'ChainEvaluator') -> ik_engine.CompiledChain:
        """
        Return the compiled solve of a chain evaluator of this model.

        Its kernels check nothing: the solver calls them with what it checked.

        :param evaluator: the chain evaluator.
        :return: the chain's tables and solves (:class:`.ik_engine.CompiledChain`).
        """
        return ik_engine.CompiledChain(evaluator, self)

    @staticmethod
    def prepare_solve(problem: 'PoseResidual', max_iterations: int,
                      max_restarts: Optional[int], damping: float, parallel_seeds: int,
                      abandon_stalled: bool) -> ik_engine.Prepared:
        """
        Convert a single-target call's validated options to the compiled solve's arguments.

        :param problem: the residual (isotropic weights, tolerances).
        :param max_iterations: iteration limit per target.
        :param max_restarts: restart limit (None: unlimited).
        :param damping: initial damping.
        :param parallel_seeds: seeds the numpy engine would advance together.
        :param abandon_stalled: whether to abandon a stalled target.
        :return: the prepared arguments (:func:`.ik_engine.prepare`).
        """
        return ik_engine.prepare(problem, max_iterations, max_restarts, damping,
                                 parallel_seeds, 0.0, abandon_stalled)

    @staticmethod
    def takes(q) -> bool:
        """
        Whether ``q`` is a float64 vector, which the checked kernels take.

        Of any layout, writable or not; they check its size and values themselves. Any other
        array goes through the Python checks, which copy it.

        :param q: anything.
        :return: whether it is a one-dimensional float64 array.
        """
        return _is_vector(q)

    def _link(self, link) -> int:
        """Return ``link`` as a link index, or raise :class:`UnknownFrameError`."""
        valid = (f'0 to {self._n - 1}',)
        try:
            index = operator.index(link)
        except Exception:  # not an integer, or a user's __index__ that fails
            raise UnknownFrameError(link, valid, 'link index') from None
        if not 0 <= index < self._n or isinstance(link, (bool, np.bool_)):
            raise UnknownFrameError(index, valid, 'link index')
        return index

    def checked_poses(self, q) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        """
        Check one configuration and compute every link's pose, in one compiled call.

        :param q: anything; only an array :meth:`takes` is evaluated.
        :return: ``(q_copy, root_T_link)`` (new read-only arrays, quaternions normalised), or
            None when ``q`` is not such an array or fails the checks of
            :meth:`RobotModel.check_configuration
            <frame_kinematics.core.model.RobotModel.check_configuration>` (which then says
            why).
        """
        if not (type(q) is np.ndarray and q.dtype is _FLOAT and q.ndim == 1):
            return None
        q_copy = np.empty(self._q_shape)
        world = np.empty(self._poses_shape)
        if self._poses_checked(self._table, q, q_copy, world):
            q_copy.setflags(False)  # write=False, given by position: no keyword to parse
            world.setflags(False)
            return q_copy, world
        return None

    def checked_poses_into(self, q, q_out: np.ndarray, world: np.ndarray) -> bool:
        """
        :meth:`checked_poses` into the caller's arrays, which are not written when it fails.

        :param q: anything; only an array :meth:`takes` is evaluated.
        :param q_out: ``(nq,)`` float64, C-contiguous and writable: the checked copy of ``q``.
        :param world: ``(n_links, 4, 4)`` float64, C-contiguous and writable: the poses.
        :return: whether ``q`` was taken and passed the checks.
        :raises ConfigurationError: for outputs of another kind.
        """
        q_out = _require(q_out, self._q_shape, 'q_out', writable=True)
        world = _require(world, self._poses_shape, 'world', writable=True)
        if np.may_share_memory(q_out, world):
            raise ConfigurationError('q_out and world must not overlap')
        return self._poses_into(q, q_out, world)

    def _poses_into(self, q, q_out: np.ndarray, world: np.ndarray) -> bool:
        """:meth:`checked_poses_into` into arrays of the right kind (a workspace's own)."""
        return type(q) is np.ndarray and q.dtype is _FLOAT and q.ndim == 1 and \
            self._poses_checked(self._table, q, q_out, world)

    def checked_pose(self, q, link: int) -> Optional[np.ndarray]:
        """
        Check one configuration and compute one link's pose, in one compiled call.

        Only the link and its ancestors are evaluated.

        :param q: anything; only an array :meth:`takes` is evaluated.
        :param link: the link's index.
        :return: a new ``root_T_link`` ``(4, 4)``, or None as :meth:`checked_poses`.
        :raises UnknownFrameError: for a link index out of range.
        """
        return self._pose(q, self._link(link))

    def _pose(self, q, index: int) -> Optional[np.ndarray]:
        """:meth:`checked_pose` of a link index in range."""
        if not _is_vector(q):
            return None
        out = np.empty((4, 4))
        if self._pose_checked(self._table, q, index, out):
            return out
        return None

    def checked_jacobian(self, q, link: int, point: Optional[np.ndarray],
                         ref: ExpressedIn) -> Optional[np.ndarray]:
        """
        Check one configuration and compute a link's Jacobian, in one compiled call.

        Only the poses of the link and its ancestors are computed.

        :param q: anything; only an array :meth:`takes` is evaluated.
        :param link: the link's index.
        :param point: ``link_p_point`` ``(3,)`` float64 (validated; a read-only one is copied)
            or None for the origin.
        :param ref: where it is expressed.
        :return: a new ``(6, nv)`` array, or None as :meth:`checked_poses`.
        :raises UnknownFrameError: for a link index out of range.
        :raises ConfigurationError: for a point or a reference of another kind.
        """
        _code(ref)  # refuses anything but an ExpressedIn
        return self._jacobian(q, self._link(link), self._point(point), ref)

    def _jacobian(self, q, index: int, point: Optional[np.ndarray], ref: ExpressedIn
                  ) -> Optional[np.ndarray]:
        """:meth:`checked_jacobian` of a link index in range, a point ``(3,)`` or None."""
        if not (type(q) is np.ndarray and q.dtype is _FLOAT and q.ndim == 1):
            return None
        out = np.zeros(self._jacobian_shape)
        if self._jacobian_checked(self._table, q, index,
                                  self._origin if point is None else point, _code(ref), out):
            return out
        return None

    def _point(self, point) -> np.ndarray:
        """Return a point for the kernels: the origin for None, a copy of a read-only one."""
        if point is None:
            return self._origin
        point = _require(point, (3,), 'point')
        # the kernels are compiled for writable arrays: a read-only point is copied
        return point if point.flags.writeable else point.copy()

    def poses(self, q: np.ndarray) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """
        ``(root_T_link, parent_T_link)`` of every link, each ``(n_links, *B, 4, 4)``.

        A batch gives None for ``parent_T_link`` (its writing would double the cost; the state
        derives it from the poses when asked).

        :param q: a validated configuration ``(nq,)`` or batch ``(B, nq)``, float64 and
            C-contiguous.
        :return: ``(root_T_link, parent_T_link)``: new arrays ``(n_links, 4, 4)``, or
            ``(root_T_link (n_links, B, 4, 4), None)`` for a batch.
        :raises ConfigurationError: for an array of another kind.
        """
        plain = plain_array(q)
        if plain is not None and plain.dtype == _FLOAT:
            plain = np.ascontiguousarray(plain)  # a validated batch may be in Fortran order
        if plain is not None and plain.ndim == 2:
            plain = _require(plain, (len(plain),) + self._q_shape, 'q')
            return self._batch_first(poses.poses_batch(self._table, plain)), None
        plain = _require(plain, self._q_shape, 'q')
        both = poses.poses(self._table, plain)
        return both[0], both[1]

    @staticmethod
    def _batch_first(world: np.ndarray) -> np.ndarray:
        """Swap the link and batch axes (a view): ``(B, n, ...)`` <-> ``(n, B, ...)``."""
        return world.transpose(1, 0, 2, 3)

    def _world(self, world) -> np.ndarray:
        """Check poses from :meth:`poses`; return them configurations first for a batch."""
        plain = plain_array(world)
        if plain is not None and plain.ndim == 4:
            first = self._batch_first(plain)
            return _require(first, (first.shape[0],) + self._poses_shape, 'world (batch first)')
        return _require(plain, self._poses_shape, 'world')

    def jacobian(self, world: np.ndarray, link: int, point: Optional[np.ndarray],
                 ref: ExpressedIn) -> np.ndarray:
        """
        Jacobian of a link (at ``link_p_point``), ``(6, nv)`` or ``(B, 6, nv)``.

        :param world: poses from :meth:`poses`.
        :param link: the link's index.
        :param point: ``link_p_point`` ``(3,)`` float64 (validated; a read-only one is copied)
            or None for the origin.
        :param ref: where it is expressed.
        :return: a new ``(6, nv)`` array, or ``(B, 6, nv)`` for a batch of poses.
        :raises UnknownFrameError: for a link index out of range.
        :raises ConfigurationError: for arrays or a reference of another kind.
        """
        poses_in = self._world(world)
        args = (self._link(link), self._point(point), _code(ref), self._table, self._nv)
        if poses_in.ndim == 3:
            return jacobian.jacobian(poses_in, *args)
        return jacobian.jacobian_batch(poses_in, *args)

    def center_of_mass(self, world: np.ndarray) -> np.ndarray:
        """
        Center of mass ``(3,)`` or ``(B, 3)`` at poses from :meth:`poses`.

        :param world: poses from :meth:`poses`.
        :return: a new ``(3,)`` or ``(B, 3)`` array.
        :raises ConfigurationError: for poses of another kind.
        """
        poses_in = self._world(world)
        if poses_in.ndim == 3:
            return com.center_of_mass(poses_in, *self._mass)
        return com.center_of_mass_batch(poses_in, *self._mass)

    def center_of_mass_jacobian(self, world: np.ndarray) -> np.ndarray:
        """
        Return the CoM Jacobian ``(3, nv)`` or ``(B, 3, nv)`` at poses from :meth:`poses`.

        :param world: poses from :meth:`poses`.
        :return: a new ``(3, nv)`` or ``(B, 3, nv)`` array.
        :raises ConfigurationError: for poses of another kind.
        """
        poses_in = self._world(world)
        args = (self._table,) + self._mass + (self._nv,)
        if poses_in.ndim == 3:
            return com.center_of_mass_jacobian(poses_in, *args)
        return com.center_of_mass_jacobian_batch(poses_in, *args)
