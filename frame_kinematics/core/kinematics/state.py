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
:class:`KinematicsState`: every quantity of one configuration (or a batch).

Pinocchio's ``Data``: created from a model, a backend and copies of the caller's arrays
(``KinematicsState(model, q, backend=...)``, or
:meth:`Robot.forward_kinematics <frame_kinematics.core.robot.Robot.forward_kinematics>` on the
robot's backend), it never changes afterwards; derived quantities are computed on first use
and kept (read-only arrays).

Every computation is vectorised over links and over an optional leading batch axis: a
configuration of shape ``(B, nq)`` gives poses of shape ``(B, 4, 4)`` and Jacobians of shape
``(B, 6, nv)`` without a Python loop over the batch.

On the compiled backend (the state's :attr:`~KinematicsState.executor`, from
:func:`frame_kinematics.core.backend.executor`), the poses, Jacobians, center of mass and its
Jacobian come from its kernels; everything else is computed from those poses by the numpy
code below, which is also the reference the compiled kernels are tested against.
"""

import functools
from typing import Callable, Optional, Sequence, TYPE_CHECKING, Union

import numpy as np

from . import com
from .columns import column_rates, column_twists, column_twists_batch_last, to_links, \
    to_velocity_entries
from .expressed import ExpressedIn
from .forward import BATCH_THRESHOLD, link_poses, link_poses_batch_last
from ..backend import executor, name_of
from ..checks import check_point
from ..errors import ConfigurationError
from ..spatial import cross, inverse

if TYPE_CHECKING:  # pragma: no cover
    from ..executor import Executor
    from ..model import RobotModel
    from ..robot import Robot


def _readonly(arr: np.ndarray) -> np.ndarray:
    arr.setflags(write=False)
    return arr


def _within_memory(method: Callable) -> Callable:
    """
    Make a quantity of a batch too large for memory a :class:`ConfigurationError`.

    :param method: a method of :class:`KinematicsState` that allocates arrays of the batch.
    :return: the method, raising ``ConfigurationError`` (its name and the batch size) where
        numpy raised ``MemoryError``; nothing is kept then.
    """
    @functools.wraps(method)
    def bounded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except MemoryError:
            count = int(np.prod(self.batch_shape))
            raise ConfigurationError(
                f'{method.__name__} of a batch of {count} configurations needs more memory '
                'than is free: evaluate it in smaller batches') from None
    return bounded


class KinematicsState:
    """
    Kinematic quantities of one configuration (or a batch), Pinocchio's ``Data``.

    Immutable: build a new state for a new configuration. Poses are relative to the model's
    root link: ``state.transform(link)`` is ``root_T_link``.

    :ivar q: the configuration (a read-only copy of the caller's).
    :ivar poses: ``root_T_link`` of every link, ``(n_links, *B, 4, 4)``.
    :ivar executor: what evaluates it (:func:`~frame_kinematics.core.backend.executor`):
        None for numpy, the compiled backend's face for numba.
    """

    v: Optional[np.ndarray] = None
    a: Optional[np.ndarray] = None
    batch_shape: tuple = ()
    # Computed on first use (the class values stand for "not yet").
    _local: Optional[np.ndarray] = None
    # Large batches keep their poses batch-last, (n_links, 4, 4, B): `poses` is a view.
    _batch_last: Optional[np.ndarray] = None
    _world_columns: Optional[np.ndarray] = None
    _twists: Optional[np.ndarray] = None
    _accelerations: Optional[np.ndarray] = None
    _com: Optional[np.ndarray] = None
    _com_last: Optional[np.ndarray] = None

    def __init__(self, model: 'RobotModel', q, v=None, a=None,
                 backend: Union[None, str, 'Executor'] = None) -> None:
        """
        Compute the link poses for ``q``.

        :param model: the robot model.
        :param q: configuration ``(nq,)`` or batch ``(B, nq)``.
        :param v: velocity ``(nv,)`` or ``(B, nv)`` (optional).
        :param a: acceleration ``(nv,)`` or ``(B, nv)`` (optional; needs ``v``).
        :param backend: what evaluates the state (see
            :func:`~frame_kinematics.core.backend.executor`): None for the model's backend
            when it is a :class:`~frame_kinematics.core.robot.Robot`, else the process
            default; ``'numpy'``, ``'numba'``, ``'auto'``, or another state's
            :attr:`executor`.
        :raises ConfigurationError: for a model that is not a
            :class:`~frame_kinematics.core.model.RobotModel`, invalid inputs (nothing is
            computed then), or a batch whose poses do not fit in memory.
        :raises BackendError: for an invalid ``backend``.
        """
        self.model = model
        self.executor = accel = executor(model, backend)
        if accel is not None and v is None and a is None:
            checked = accel.checked_poses(q)
            if checked is not None:  # one compiled call checked and copied q, wrote the poses
                self.q, self.poses = checked
                return
        q = model.check_configuration(q)
        batch = q.shape[:-1]
        if v is not None:
            v = model.check_velocity(v)
            if v.shape[:-1] != batch:
                raise ConfigurationError(f'v has batch shape {v.shape[:-1]}, q has {batch}')
        if a is not None:
            if v is None:
                raise ConfigurationError('an acceleration needs a velocity v as well')
            a = model.check_velocity(a, 'a')
            if a.shape[:-1] != batch:
                raise ConfigurationError(f'a has batch shape {a.shape[:-1]}, q has {batch}')
        self.q = _readonly(q)
        if v is not None:
            self.v = _readonly(v)
        if a is not None:
            self.a = _readonly(a)
        self.batch_shape = batch
        try:
            if self.executor is not None:
                poses, local = self.executor.poses(self.q)
                if local is not None:
                    self._local = _readonly(local)
            elif len(batch) == 1 and batch[0] >= BATCH_THRESHOLD:
                self._batch_last = _readonly(link_poses_batch_last(model, q))
                poses = self._batch_last.transpose(0, 3, 1, 2)
            else:
                poses, local = link_poses(model, q)
                self._local = _readonly(local)
        except MemoryError:
            count = int(np.prod(batch))
            raise ConfigurationError(
                f'a batch of {count} configurations needs at least '
                f'{count * len(model.links) * 128} bytes for its link poses, more memory than '
                'is free: evaluate it in smaller batches') from None
        self.poses = _readonly(poses)

    @property
    def backend(self) -> str:
        """Return the name of the backend that evaluates the state: ``'numpy'`` or ``'numba'``."""
        return name_of(self.executor)

    @property
    @_within_memory
    def local_poses(self) -> np.ndarray:
        """``parent_T_link`` of every link (identity for the root), ``(n_links, *B, 4, 4)``."""
        if self._local is None:
            parents = np.array(self.model.topology.parent)
            parents[0] = 0
            local = inverse(self.poses[parents]) @ self.poses
            local[0] = np.eye(4)
            self._local = _readonly(local)
        return self._local

    # -- poses --------------------------------------------------------------------------------
    def transform(self, link: str) -> np.ndarray:
        """
        Pose of a link in the root link: ``root_T_link``.

        :param link: the link (frame) whose pose is wanted.
        :return: ``(4, 4)`` or ``(B, 4, 4)`` (read-only).
        :raises UnknownFrameError: for an unknown link.
        """
        return self.poses[self.model.link_index(link)]

    @_within_memory
    def relative_transform(self, a: str, b: str) -> np.ndarray:
        """
        Pose of link ``b`` in link ``a``: ``a_T_b`` (as :meth:`FrameTree.transform(a, b)`).

        :param a: the link the pose is expressed in.
        :param b: the link whose pose is wanted.
        :return: a new ``(4, 4)`` or ``(B, 4, 4)`` array.
        :raises UnknownFrameError: for an unknown link.
        """
        root_T_b = self.poses[self.model.link_index(b)]
        return inverse(self.poses[self.model.link_index(a)]) @ root_T_b

    def _point(self, index: int, point) -> np.ndarray:
        """``root_p_point`` of a point given in a link (its origin if None)."""
        pose = self.poses[index]
        if point is None:
            return pose[..., :3, 3]
        return pose[..., :3, :3] @ check_point(point) + pose[..., :3, 3]

    @_within_memory
    def position(self, link: str, point: Optional[Sequence[float]] = None) -> np.ndarray:
        """
        Position in the root frame of a link's origin or of a point given in the link.

        :param link: the link.
        :param point: ``link_p_point`` (default: the origin).
        :return: ``root_p_point`` of shape ``(3,)`` or ``(B, 3)`` (a new array).
        :raises UnknownFrameError: for an unknown link.
        :raises ConfigurationError: for a point that is not 3 finite numbers.
        """
        return np.array(self._point(self.model.link_index(link), point))

    # -- motion columns -----------------------------------------------------------------------
    @_within_memory
    def world_columns(self) -> np.ndarray:
        """World twist (at the world origin) of every motion column, ``(n_columns, *B, 6)``."""
        if self._world_columns is None:
            self._world_columns = _readonly(self._columns(slice(None), None))
        return self._world_columns

    def _columns(self, which, point: Optional[np.ndarray]) -> np.ndarray:
        if self._batch_last is not None:
            return column_twists_batch_last(self.model, self._batch_last, which, point)
        return column_twists(self.model, self.poses, which, point)

    @_within_memory
    def jacobian(self, link: str, point: Optional[Sequence[float]] = None,
                 expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED
                 ) -> np.ndarray:
        """
        Jacobian of a link (or of a point fixed in it) with respect to ``v``.

        ``twist = J @ v`` with rows ``[linear; angular]``:

        * ``LOCAL_WORLD_ALIGNED`` (default): velocity of the point and angular velocity, in
          world (root) axes.
        * ``WORLD``: spatial twist at the world origin (same for every point of the link).
        * ``LOCAL``: the same quantities in the link's axes.

        Mimic joints add their contribution to their master's column.

        :param link: the link.
        :param point: ``link_p_point`` (default: the link origin).
        :param expressed_in: see above (an :class:`ExpressedIn` or its name).
        :return: a new ``(6, nv)`` or ``(B, 6, nv)`` array.
        :raises UnknownFrameError: for an unknown link.
        :raises ConfigurationError: for a point that is not 3 finite numbers, or an unknown
            ``expressed_in``.
        """
        ref = ExpressedIn.parse(expressed_in)
        index = self.model.link_index(link)
        point = None if point is None else check_point(point)  # for every ref, WORLD too
        if self.executor is not None:
            return self.executor.jacobian(self.poses, index, point, ref)
        kernel = self.model.kernel
        which = np.nonzero(self.model.topology.supports(kernel.column_row, index))[0]
        p = None if ref is ExpressedIn.WORLD else self._point(index, point)
        if self._world_columns is None:
            cols = self._columns(which, p)
        else:
            cols = self._world_columns[which].copy()
            if p is not None:
                cols[..., :3] += cross(cols[..., 3:], p)
        if ref is ExpressedIn.LOCAL:
            root_R_link = self.poses[index][..., :3, :3]
            cols[..., :3] = (cols[..., None, :3] @ root_R_link)[..., 0, :]
            cols[..., 3:] = (cols[..., None, 3:] @ root_R_link)[..., 0, :]
        return to_velocity_entries(self.model, which, cols)

    # -- velocities and accelerations ---------------------------------------------------------
    def _require_velocity(self) -> None:
        if self.v is None:
            raise ConfigurationError('this state has no velocity: pass v to '
                                     'forward_kinematics(q, v)')

    @_within_memory
    def spatial_velocities(self) -> np.ndarray:
        """
        World twists at the world origin of every link, ``(n_links, *B, 6)``.

        :return: the twists, ``[linear; angular]`` (read-only array).
        :raises ConfigurationError: if the state has no velocity.
        """
        self._require_velocity()
        if self._twists is None:
            contrib = self.world_columns() * column_rates(self.model, self.v)[..., None]
            self._twists = _readonly(self.model.topology.accumulate_down(
                to_links(self.model, contrib)))
        return self._twists

    @_within_memory
    def spatial_accelerations(self) -> np.ndarray:
        """
        Spatial accelerations (derivative of the world twists), ``(n_links, *B, 6)``.

        :return: the accelerations, ``[linear; angular]`` (read-only array).
        :raises ConfigurationError: if the state has no acceleration.
        """
        if self.a is None:
            raise ConfigurationError('this state has no acceleration: pass a to '
                                     'forward_kinematics(q, v, a)')
        if self._accelerations is None:
            model = self.model
            cols = self.world_columns()
            twist = self.spatial_velocities()[model.kernel.column_row]
            w, vel = twist[..., 3:], twist[..., :3]
            dcols = np.empty(cols.shape)
            dcols[..., :3] = cross(w, cols[..., :3]) + cross(vel, cols[..., 3:])
            dcols[..., 3:] = cross(w, cols[..., 3:])
            contrib = cols * column_rates(model, self.a)[..., None] + \
                dcols * column_rates(model, self.v)[..., None]
            self._accelerations = _readonly(model.topology.accumulate_down(
                to_links(model, contrib)))
        return self._accelerations

    def _express(self, index: int, spatial: np.ndarray, point, ref: ExpressedIn) -> np.ndarray:
        if point is not None:  # checked for every ref, WORLD too
            point = check_point(point)
        if ref is ExpressedIn.WORLD:
            return spatial.copy()
        out = spatial.copy()
        out[..., :3] += cross(spatial[..., 3:], self._point(index, point))
        if ref is ExpressedIn.LOCAL:
            r_t = np.swapaxes(self.poses[index][..., :3, :3], -1, -2)
            out[..., :3] = (r_t @ out[..., :3, None])[..., 0]
            out[..., 3:] = (r_t @ out[..., 3:, None])[..., 0]
        return out

    @_within_memory
    def velocity(self, link: str, point: Optional[Sequence[float]] = None,
                 expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED
                 ) -> np.ndarray:
        """
        Twist ``[linear; angular]`` of a link (or a point in it), as ``jacobian @ v``.

        :param link: the link.
        :param point: ``link_p_point`` (default: the link origin).
        :param expressed_in: see :meth:`jacobian`.
        :return: ``(6,)`` or ``(B, 6)``.
        :raises UnknownFrameError: for an unknown link.
        :raises ConfigurationError: if the state has no velocity, for a point that is not 3
            finite numbers, or an unknown ``expressed_in``.
        """
        index = self.model.link_index(link)
        return self._express(index, self.spatial_velocities()[index], point,
                             ExpressedIn.parse(expressed_in))

    @_within_memory
    def acceleration(self, link: str, point: Optional[Sequence[float]] = None,
                     expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED,
                     classical: bool = False) -> np.ndarray:
        """
        Acceleration of a link (or a point in it).

        The spatial acceleration (default) is Pinocchio's ``getFrameAcceleration``; with
        ``classical=True`` the linear part is the point's acceleration in the root frame
        (Pinocchio's ``getFrameClassicalAcceleration``).

        :param link: the link.
        :param point: ``link_p_point`` (default: the link origin).
        :param expressed_in: see :meth:`jacobian`.
        :param classical: return the classical instead of the spatial acceleration.
        :return: ``(6,)`` or ``(B, 6)``, ``[linear; angular]``.
        :raises UnknownFrameError: for an unknown link.
        :raises ConfigurationError: if the state has no acceleration, for a point that is not
            3 finite numbers, an unknown ``expressed_in``, a ``classical`` that is not a bool,
            or a classical acceleration asked for in ``WORLD``.
        """
        if not isinstance(classical, (bool, np.bool_)):
            raise ConfigurationError(f'classical must be True or False, got '
                                     f'{type(classical).__name__}')
        ref = ExpressedIn.parse(expressed_in)
        index = self.model.link_index(link)
        acc = self._express(index, self.spatial_accelerations()[index], point, ref)
        if classical:
            if ref is ExpressedIn.WORLD:
                raise ConfigurationError('a classical acceleration is taken at a point: use '
                                         'LOCAL or LOCAL_WORLD_ALIGNED')
            twist = self._express(index, self.spatial_velocities()[index], point, ref)
            acc[..., :3] += cross(twist[..., 3:], twist[..., :3])
        return acc

    # -- center of mass -----------------------------------------------------------------------
    @_within_memory
    def link_centers_of_mass(self) -> np.ndarray:
        """Center of mass of every link in the root frame, ``(n_links, *B, 3)``."""
        if self._com is None:
            if self._batch_last is not None:
                self._com_last = _readonly(com.link_centers_batch_last(self.model,
                                                                       self._batch_last))
                self._com = self._com_last.transpose(0, 2, 1)
            else:
                self._com = _readonly(com.link_centers(self.model, self.poses))
        return self._com

    @_within_memory
    def center_of_mass(self) -> np.ndarray:
        """
        Center of mass of the robot in the root frame, ``(3,)`` or ``(B, 3)``.

        :raises ConfigurationError: if the robot has no mass.
        """
        if self.executor is not None:
            com.total_mass(self.model)
            return self.executor.center_of_mass(self.poses)
        centers = self.link_centers_of_mass()
        if self._com_last is not None:  # batch-last copy: contiguous, sums faster
            return com.mass_average(self.model, self._com_last).T
        return com.mass_average(self.model, centers)

    @_within_memory
    def center_of_mass_velocity(self) -> np.ndarray:
        """
        Velocity of the center of mass in the root frame, ``(3,)`` or ``(B, 3)``.

        :raises ConfigurationError: if the state has no velocity or the robot has no mass.
        """
        return com.center_of_mass_velocity(self.model, self.link_centers_of_mass(),
                                           self.spatial_velocities())

    @_within_memory
    def centroidal_momentum(self) -> np.ndarray:
        """
        Momentum ``[linear; angular]`` about the center of mass, root-aligned axes.

        The angular part is the angular momentum about the CoM (Pinocchio's ``hg``).

        :return: ``(6,)`` or ``(B, 6)``.
        :raises ConfigurationError: if the state has no velocity or the robot has no mass.
        """
        return com.centroidal_momentum(self.model, self.poses, self.link_centers_of_mass(),
                                       self.spatial_velocities())

    @_within_memory
    def angular_momentum(self) -> np.ndarray:
        """
        Angular momentum about the center of mass, root-aligned axes, ``(3,)`` or ``(B, 3)``.

        :raises ConfigurationError: if the state has no velocity or the robot has no mass.
        """
        return self.centroidal_momentum()[..., 3:]

    @_within_memory
    def center_of_mass_jacobian(self) -> np.ndarray:
        """
        Jacobian of the center of mass, ``(3, nv)`` or ``(B, 3, nv)``: ``com_dot = J v``.

        :raises ConfigurationError: if the robot has no mass.
        """
        if self.executor is not None:
            com.total_mass(self.model)
            return self.executor.center_of_mass_jacobian(self.poses)
        return com.center_of_mass_jacobian(self.model, self.world_columns(),
                                           self.link_centers_of_mass())


def evaluate(robot: 'Robot', q, v=None, a=None) -> KinematicsState:
    """
    Evaluate the kinematics at ``q`` (and optionally velocities and accelerations).

    The state is ``KinematicsState(robot, q, v, a)``, to the last bit, on the robot's
    backend. :meth:`Robot.forward_kinematics
    <frame_kinematics.core.robot.Robot.forward_kinematics>` is this function.

    :param robot: the robot (``self`` of the method), whose backend evaluates the state.
    :param q: configuration ``(nq,)`` or batch ``(B, nq)`` (copied, never kept).
    :param v: velocity ``(nv,)`` or ``(B, nv)`` (optional).
    :param a: acceleration ``(nv,)`` or ``(B, nv)`` (optional, needs ``v``).
    :return: a :class:`KinematicsState` on the robot's backend.
    :raises ConfigurationError: for invalid inputs.
    """
    accel = robot.executor
    if accel is not None and v is None and a is None:
        checked = accel.checked_poses(q)
        if checked is not None:  # the compiled call made the constructor's checks: fill it
            state = object.__new__(KinematicsState)
            state.model = robot
            state.executor = accel
            state.q, state.poses = checked
            return state
    return KinematicsState(robot, q, v, a)
