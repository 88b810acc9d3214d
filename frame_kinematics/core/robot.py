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
:class:`Robot`: a robot model with the backend that evaluates it (Pinocchio's ``RobotWrapper``).

:class:`~frame_kinematics.core.model.RobotModel` is data; the algorithms take it with a backend
(:class:`~frame_kinematics.core.kinematics.KinematicsState`, ``KinematicsWorkspace``,
:class:`~frame_kinematics.core.ik.IKSolver`, each with ``backend=``). A :class:`Robot` is that
data with the backend chosen once and the one-call methods over it, for scripts and the
command line: ``Robot.from_urdf_file(path).forward_kinematics(q)`` is
``KinematicsState(model, q, backend=...)``, to the last bit.
"""

import os
from typing import Optional, Sequence, Tuple, Union

import numpy as np

from .backend import executor, resolve
from .bounded import BoundedCache
from .checks import as_path, check_point
from .errors import ConfigurationError, URDFError
from .ik.calls import one_call
from .ik.result import IKBatchResult, IKResult
from .ik.selection import Tips
from .kinematics import ExpressedIn, KinematicsWorkspace
from .kinematics.state import evaluate
from .model import naming_file, RobotModel
from .urdf import RobotDescription

__all__ = ['IK_SOLVERS_KEPT', 'Robot']

#: Solvers the one-call inverse kinematics keeps per robot (tips and active joints).
IK_SOLVERS_KEPT = 8
#: What a robot adds to its model's data (not taken over when wrapping another robot).
_OWN = ('backend', 'executor', 'ik_solvers')


class Robot(RobotModel):
    """
    A :class:`~frame_kinematics.core.model.RobotModel` with the backend that evaluates it.

    Read-only like the model; its data are the model's (a wrapped model is shared, not
    copied or parsed again).

    :ivar backend: ``'numpy'`` or ``'numba'``, what evaluates its kinematics
        (:mod:`~frame_kinematics.core.backend`).
    :ivar executor: that backend's executor bound to the robot's data (None for numpy), the
        one its states and workspaces use by default.
    :ivar ik_solvers: the solvers the one-call inverse kinematics reuses
        (:func:`~frame_kinematics.core.ik.calls.solver_for`), at most :data:`IK_SOLVERS_KEPT`,
        the least recently used dropped: a thread-safe cache of objects built from the
        robot's data, which itself never changes.
    """

    def __init__(self, model_or_description: Union[RobotModel, RobotDescription],
                 backend: Optional[str] = None, *, urdf: str = '') -> None:
        """
        Wrap a model, or build one from a parsed description, with a backend.

        :param model_or_description: a :class:`~frame_kinematics.core.model.RobotModel`
            (its data are shared, nothing is parsed) or a parsed description
            (see :meth:`from_urdf_string`).
        :param backend: ``'numpy'``, ``'numba'`` or ``'auto'``; None: the environment
            variable ``FRAME_KINEMATICS_BACKEND``, else ``auto`` (see
            :func:`~frame_kinematics.core.backend.resolve`).
        :param urdf: the URDF text of a description, kept for republishing (a wrapped
            model's own is kept).
        :raises URDFError: for structural errors of a description.
        :raises ConfigurationError: for ``model_or_description`` of another type.
        :raises BackendError: for an unknown backend or numba asked for and missing.
        """
        name = resolve(backend)
        if not isinstance(model_or_description, (RobotModel, RobotDescription)):
            raise ConfigurationError(f'model_or_description must be a RobotModel or a parsed '
                                     f'description (RobotModel.parse), got '
                                     f'{type(model_or_description).__name__}')
        if isinstance(model_or_description, RobotModel):
            self.__dict__.update({key: value for key, value in vars(model_or_description).items()
                                  if key not in _OWN})
        else:
            super().__init__(model_or_description, urdf)
        # after the data (the executor reads them), past the seal the model set
        self.__dict__.update(backend=name, ik_solvers=BoundedCache(IK_SOLVERS_KEPT))
        self.__dict__['executor'] = executor(self, name)

    @classmethod
    def from_urdf_string(cls, text: Union[str, bytes], floating_base: bool = False,
                         world_frame: str = 'world', backend: Optional[str] = None
                         ) -> 'Robot':
        """
        Parse a URDF document into a robot on a backend.

        :param text: the URDF XML, as text or as bytes (decoded as the document declares).
        :param floating_base: add a floating joint ``root_joint`` between a new root link
            ``world_frame`` and the URDF's root link (for legged robots and humanoids).
        :param world_frame: name of that new root link.
        :param backend: ``'numpy'``, ``'numba'`` or ``'auto'`` (default: the environment
            variable ``FRAME_KINEMATICS_BACKEND``, else numba when importable).
        :return: the robot.
        :raises URDFError: if the document is not a valid robot description, or
            ``world_frame`` is not a name a URDF link could have.
        :raises ConfigurationError: if ``floating_base`` is not a bool.
        :raises BackendError: for an unknown backend or numba asked for and missing.
        """
        description, text = cls.parse(text, floating_base, world_frame)
        return cls(description, backend, urdf=text)

    @classmethod
    def from_urdf_file(cls, path: Union[str, os.PathLike], floating_base: bool = False,
                       world_frame: str = 'world', backend: Optional[str] = None
                       ) -> 'Robot':
        """
        Parse a URDF file (see :meth:`~frame_kinematics.core.model.RobotModel.parse_file`).

        :param path: path of the file.
        :param floating_base: add a floating base joint.
        :param world_frame: name of the root link added with the floating base.
        :param backend: the backend (see :meth:`from_urdf_string`).
        :return: the robot.
        :raises URDFError: if ``path`` is not a path, the file cannot be read or is not a valid
            robot description (the file named), or ``world_frame`` is not a link name.
        :raises ConfigurationError: if ``floating_base`` is not a bool.
        :raises BackendError: for an unknown backend or numba asked for and missing.
        """
        name = as_path(path, 'a URDF path', URDFError)
        description, text = cls.parse_file(name, floating_base, world_frame)
        with naming_file(name):  # the structure is checked as the model is built
            return cls(description, backend, urdf=text)

    # -- kinematics shortcuts -------------------------------------------------------------
    # The function is the method itself: no call layer between a script and the kernel.
    forward_kinematics = evaluate

    def transform(self, q, link: str) -> np.ndarray:
        """
        Pose of one link in the root link, ``root_T_link``, at ``q``: a new array.

        On the compiled backend, for one configuration, only the link and its ancestors are
        evaluated (a tip's path); otherwise this is ``forward_kinematics(q).transform(link)``.

        :param q: configuration ``(nq,)`` or ``(B, nq)``.
        :param link: link name.
        :return: ``(4, 4)`` or ``(B, 4, 4)``.
        :raises UnknownFrameError: for an unknown link.
        :raises ConfigurationError: for an invalid ``q``.
        """
        if self.executor is not None:
            pose = self.executor._pose(q, self.link_index(link))
            if pose is not None:  # one compiled call checked q and walked the link's path
                return pose
        return self.forward_kinematics(q).transform(link).copy()

    def workspace(self) -> KinematicsWorkspace:
        """
        Return a new :class:`~frame_kinematics.core.kinematics.KinematicsWorkspace`.

        Link poses recomputed in place, for loops, on the robot's backend; at the neutral
        configuration until its first
        :meth:`~frame_kinematics.core.kinematics.KinematicsWorkspace.forward_kinematics`.
        """
        return KinematicsWorkspace(self)

    def jacobian(self, q, link: str, point: Optional[Sequence[float]] = None,
                 expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED
                 ) -> np.ndarray:
        """
        Jacobian of a link (see :meth:`KinematicsState.jacobian`).

        :param q: configuration ``(nq,)`` or ``(B, nq)``.
        :param link: link name.
        :param point: point in the link frame (default: its origin).
        :param expressed_in: an :class:`~frame_kinematics.core.kinematics.ExpressedIn` or its
            name (default LOCAL_WORLD_ALIGNED).
        :return: ``(6, nv)`` or ``(B, 6, nv)``, rows ``[linear; angular]``.
        :raises UnknownFrameError: for an unknown link.
        :raises ConfigurationError: for an invalid ``q``, point or ``expressed_in``.
        """
        if self.executor is not None:
            ref = expressed_in if type(expressed_in) is ExpressedIn else \
                ExpressedIn.parse(expressed_in)
            at = None if point is None else check_point(point)
            # link_index(), without the cost of its call for a plain str
            index = self._link_index.get(link) if type(link) is str else None
            if index is None:  # a str subclass (read as a plain str) or an unknown name (raises)
                index = self.link_index(link)
            jac = self.executor._jacobian(q, index, at, ref)
            if jac is not None:  # one compiled call checked q and computed the Jacobian
                return jac
        return self.forward_kinematics(q).jacobian(link, point, expressed_in)

    def center_of_mass(self, q) -> Tuple[float, np.ndarray]:
        """
        Total mass and center of mass in the root frame.

        :param q: configuration ``(nq,)`` or ``(B, nq)``.
        :return: ``(mass, root_p_com)`` with ``root_p_com`` of shape ``(3,)`` or ``(B, 3)``.
        :raises ConfigurationError: for an invalid ``q`` or a robot without mass.
        """
        return self.total_mass, self.forward_kinematics(q).center_of_mass()

    def inverse_kinematics(self, tip: Tips, target, **options
                           ) -> Union[IKResult, IKBatchResult]:
        """
        Solve inverse position kinematics (see :func:`frame_kinematics.core.ik.solve`).

        The solver of the tips and active joints is kept in :attr:`ik_solvers`.

        :param tip: the tip link (or a list of tips).
        :param target: ``root_T_target`` (4x4), or a list/batch of them.
        :param options: solver options (active_joints, seed, tolerances, budget, ...).
        :return: an :class:`~frame_kinematics.core.ik.IKResult`, or an
            :class:`~frame_kinematics.core.ik.IKBatchResult` for a batch of targets.
        :raises FrameKinematicsError: as :func:`frame_kinematics.core.ik.solve` does.
        """
        return one_call('Robot.inverse_kinematics', self, tip, target, None, options)

    def __repr__(self) -> str:
        return (f"Robot('{self.name}', {len(self.links)} links, {len(self.joints)} joints, "
                f"nq={self.nq}, nv={self.nv}, backend='{self.backend}')")
