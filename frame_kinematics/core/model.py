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
The robot model: a read-only kinematic tree built from a URDF (Pinocchio's ``Model``).

Configuration layout
--------------------
Actuated joints (not fixed, not mimic) are ordered depth-first from the root link, children
in document order (the order Pinocchio and KDL use). Each joint owns a slice of the
configuration vector ``q`` (size ``nq``) and of the velocity vector ``v`` (size ``nv``); the
layout of each joint type is in :mod:`frame_kinematics.core.joints.joint_type`. Mimic joints
(``value = multiplier * master + offset``) have no coordinates of their own. Fixed joints are
kept, so every URDF link is a named frame.

Everything the model exposes is read-only: its arrays are backed by immutable memory, its
joints and links are frozen, and nothing it computes depends on state a caller can change.
"""

import os
from typing import Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .assembly import add_floating_root, assemble, Joint, Link
from .backend import bind, resolve
from .bounded import BoundedCache
from .checks import check_point, check_vector
from .errors import ConfigurationError, UnknownFrameError
from .joints import ConfigurationLayout, entry_names, frozen, JointKernel, JointType
from .kinematics import ExpressedIn, KinematicsState, KinematicsWorkspace
from .topology import Topology
from .urdf import load_urdf, RobotDescription
from .urdf_source import read_urdf_file

__all__ = ['IK_SOLVERS_KEPT', 'Joint', 'Link', 'RobotModel']

#: Solvers the one-call inverse kinematics keeps per model (tips and active joints).
IK_SOLVERS_KEPT = 8


class RobotModel:
    """
    Read-only kinematic and inertial model of a robot (Pinocchio's ``Model``).

    Everything that depends on a configuration lives in a
    :class:`~frame_kinematics.core.kinematics.KinematicsState`.

    :ivar kernel: the joint kernel, one row per link (row 0: the root, fixed).
    :ivar topology: parents, levels and subtrees of the links.
    :ivar layout: the configuration layout of the actuated joints.
    :ivar link_masses: ``(n_links,)`` masses.
    :ivar link_p_coms: ``(n_links, 3)`` centers of mass in the link frames.
    :ivar link_inertias: ``(n_links, 3, 3)`` rotational inertias about the centers of mass.
    :ivar backend: ``'numpy'`` or ``'numba'``, what evaluates its kinematics
        (:mod:`~frame_kinematics.core.backend`).
    :ivar ik_solvers: the solvers the one-call inverse kinematics reuses
        (:func:`~frame_kinematics.core.ik.calls.solver_for`), at most :data:`IK_SOLVERS_KEPT`,
        the least recently used dropped: a thread-safe cache of objects built from the
        model's data, which itself never changes.
    :ivar accelerator: the compiled backend's checked face bound to this model
        (:class:`~frame_kinematics.core.accel.Accelerator`, numba), or None (numpy).
    """

    def __init__(self, description: RobotDescription, urdf: str = '',
                 backend: Optional[str] = None) -> None:
        """
        Build a model from a parsed description (see :meth:`from_urdf_string`).

        :param description: the parsed URDF.
        :param urdf: the URDF text it came from, kept for republishing.
        :param backend: ``'numpy'``, ``'numba'`` or ``'auto'``; None: the environment
            variable ``FRAME_KINEMATICS_BACKEND``, else ``auto`` (see
            :func:`~frame_kinematics.core.backend.resolve`).
        :raises URDFError: for structural errors (roots, cycles, unknown links, mimics).
        :raises BackendError: for an unknown backend or numba asked for and missing.
        """
        self.backend = resolve(backend)
        root, links, joints = assemble(description)
        self.name = description.name
        self.urdf = urdf
        self.root_link = root
        self.links: Tuple[Link, ...] = links
        self.joints: Tuple[Joint, ...] = joints
        self._link_index = {link.name: link.index for link in links}
        self._joint_index = {joint.name: i for i, joint in enumerate(joints)}
        self.actuated_joints: Tuple[Joint, ...] = tuple(j for j in joints if j.is_actuated)
        self.joint_names: Tuple[str, ...] = tuple(j.name for j in self.actuated_joints)
        self.mimic_joints: Tuple[Joint, ...] = tuple(j for j in joints if j.mimic is not None)
        self.layout = ConfigurationLayout([(j.name, j.type, j.lower, j.upper)
                                           for j in self.actuated_joints])
        self.nq = self.layout.nq
        self.nv = self.layout.nv
        self.lower = self.layout.lower
        self.upper = self.layout.upper
        self.topology = Topology([-1] + [self._link_index[j.parent] for j in joints])
        self.kernel = self._kernel()
        self.link_masses = frozen([link.mass for link in links])
        self.link_p_coms = frozen(np.array([link.link_p_com for link in links]).reshape(-1, 3))
        self.link_inertias = frozen(np.array([link.inertia for link in links]).reshape(-1, 3, 3))
        self.total_mass = float(np.sum(self.link_masses))
        self.configuration_names: Tuple[str, ...] = sum(
            (entry_names(j.name, j.type.q_entries) for j in self.actuated_joints), ())
        self.velocity_names: Tuple[str, ...] = sum(
            (entry_names(j.name, j.type.v_entries) for j in self.actuated_joints), ())
        self.ik_solvers = BoundedCache(IK_SOLVERS_KEPT)
        self.accelerator = bind(self, self.backend)
        self._sealed = True

    def __setattr__(self, name: str, value) -> None:
        """Refuse changes once built: the model is read-only."""
        if getattr(self, '_sealed', False):
            raise AttributeError(f"RobotModel is read-only: cannot set '{name}'")
        super().__setattr__(name, value)

    def _kernel(self) -> JointKernel:
        types, q_index, v_index, mult, off = [JointType.FIXED], [-1], [-1], [1.0], [0.0]
        for joint in self.joints:
            source = joint
            multiplier, offset = 1.0, 0.0
            if joint.mimic is not None:
                master, multiplier, offset = joint.mimic
                source = self.joint(master)
            types.append(joint.type)
            q_index.append(source.idx_q)
            v_index.append(source.idx_v)
            mult.append(multiplier)
            off.append(offset)
        n = len(types)
        axis = np.zeros((n, 3))
        origin = np.empty((n, 4, 4))
        origin[0] = np.eye(4)
        for i, joint in enumerate(self.joints, start=1):
            axis[i] = joint.axis
            origin[i] = joint.parent_T_joint
        return JointKernel(types, axis, origin, q_index, v_index, mult, off)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_urdf_string(cls, text: Union[str, bytes], floating_base: bool = False,
                         world_frame: str = 'world', backend: Optional[str] = None
                         ) -> 'RobotModel':
        """
        Parse a URDF document.

        :param text: the URDF XML, as text or as bytes (decoded as the document declares).
        :param floating_base: add a floating joint ``root_joint`` between a new root link
            ``world_frame`` and the URDF's root link (for legged robots and humanoids).
        :param world_frame: name of that new root link.
        :param backend: ``'numpy'``, ``'numba'`` or ``'auto'`` (default: the environment
            variable ``FRAME_KINEMATICS_BACKEND``, else numba when importable).
        :return: the model.
        :raises URDFError: if the document is not a valid robot description.
        :raises BackendError: for an unknown backend or numba asked for and missing.
        """
        description, text = load_urdf(text)
        if floating_base:
            description = add_floating_root(description, world_frame)
        return cls(description, text, backend)

    @classmethod
    def from_urdf_file(cls, path: Union[str, os.PathLike], floating_base: bool = False,
                       world_frame: str = 'world', backend: Optional[str] = None
                       ) -> 'RobotModel':
        """
        Parse a URDF file (see :meth:`from_urdf_string`).

        :param path: path of the file.
        :param floating_base: add a floating base joint.
        :param world_frame: name of the root link added with the floating base.
        :param backend: the backend (see :meth:`from_urdf_string`).
        :return: the model.
        :raises URDFError: if the file cannot be read or is not a valid robot description.
        """
        return cls.from_urdf_string(read_urdf_file(path), floating_base, world_frame, backend)

    # -- lookup -------------------------------------------------------------------------------
    @property
    def link_names(self) -> Tuple[str, ...]:
        """Names of every link (body frame), root first, depth-first."""
        return tuple(link.name for link in self.links)

    def link_index(self, name: str) -> int:
        """
        Index of a link.

        :param name: the link name.
        :return: its index in :attr:`links`.
        :raises UnknownFrameError: if there is no such link.
        """
        try:
            return self._link_index[name]
        except (KeyError, TypeError):
            raise UnknownFrameError(name, self._link_index, 'link') from None

    def link(self, name: str) -> Link:
        """Return the link called ``name`` (raises :class:`UnknownFrameError` if unknown)."""
        return self.links[self.link_index(name)]

    def joint(self, name: str) -> Joint:
        """Return the joint called ``name`` (raises :class:`UnknownFrameError` if unknown)."""
        try:
            return self.joints[self._joint_index[name]]
        except (KeyError, TypeError):
            raise UnknownFrameError(name, self._joint_index, 'joint') from None

    def has_link(self, name: str) -> bool:
        """Whether a link of that name exists."""
        return isinstance(name, str) and name in self._link_index

    # -- configurations -----------------------------------------------------------------------
    def neutral_configuration(self) -> np.ndarray:
        """
        Return the zero configuration, within the joint limits.

        Every entry is 0 (the identity quaternion for a floating joint), except a bounded
        coordinate whose limits exclude 0: it takes its nearest limit (Panda's
        ``panda_joint4``, limited to [-3.0718, -0.0698], takes -0.0698).

        :return: a new ``q`` of shape ``(nq,)``.
        """
        return self.layout.clip(self.layout.neutral())

    def configuration_from_dict(self, values: Dict[str, float],
                                base: Optional[np.ndarray] = None) -> np.ndarray:
        """
        Build a configuration from ``{name: value}``, the rest from ``base`` or neutral.

        Names are those of :attr:`configuration_names`, or of mimic joints: a mimic joint's
        value sets its master through the mimic relation, ``master = (value - offset) /
        multiplier`` (as the command line does). A master given too must agree with it (to
        1e-6, relative above 1).

        :param values: the values to set.
        :param base: the configuration the others are taken from.
        :return: a new ``q`` of shape ``(nq,)``.
        :raises UnknownFrameError: for a name that is neither a configuration entry nor a
            mimic joint.
        :raises ConfigurationError: for values that are not a mapping, a value that is not a
            finite number, a mimic joint with multiplier 0, or a mimic joint and its master
            that disagree.
        """
        if not isinstance(values, Mapping):
            raise ConfigurationError(f'values must be a mapping of names to numbers, got '
                                     f'{type(values).__name__}')
        q = self.neutral_configuration() if base is None else self.check_configuration(base)
        names = {name: i for i, name in enumerate(self.configuration_names)}
        mimics = {joint.name: joint.mimic for joint in self.mimic_joints}
        for name in values:
            if name not in names and name not in mimics:
                raise UnknownFrameError(name, list(names) + list(mimics), 'joint')
        given = {name: check_vector([value], 1, f"value of '{name}'")[0]
                 for name, value in values.items()}
        for name, value in given.items():
            if name in names:
                q[names[name]] = value
                continue
            master, multiplier, offset = mimics[name]
            relation = f'{name} = {multiplier:g} * {master} + {offset:g}'
            if multiplier == 0:
                raise ConfigurationError(f"joint '{name}' is a mimic joint ({relation}): its "
                                         f"value cannot set '{master}'; give '{master}'")
            wanted = (value - offset) / multiplier
            if master in given and abs(given[master] - wanted) > 1e-6 * max(1.0, abs(wanted)):
                raise ConfigurationError(f"mimic joint '{name}'={value:g} ({relation}) asks "
                                         f'for {master}={wanted:g}, but {master}='
                                         f'{given[master]:g} is given')
            q[names[master]] = wanted
        return self.check_configuration(q)

    def check_configuration(self, q, name: str = 'q') -> np.ndarray:
        """
        Validate a configuration (or a batch) and return it as a new float array.

        :param q: shape ``(nq,)`` or ``(B, nq)``.
        :param name: what it is called in error messages.
        :return: a validated copy (floating-joint quaternions normalised).
        :raises ConfigurationError: for a wrong type or shape, NaN, inf, a magnitude above
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`, or a non-unit quaternion.
        """
        arr = check_vector(q, self.nq, f"{name} for robot '{self.name}'",
                           self.configuration_names)
        return self.layout.normalize_quaternions(arr, name)

    def check_velocity(self, v, name: str = 'v') -> np.ndarray:
        """
        Validate a velocity or acceleration vector (or a batch) of size ``nv``.

        :param v: shape ``(nv,)`` or ``(B, nv)``.
        :param name: what it is called in error messages.
        :return: a validated copy.
        :raises ConfigurationError: for a wrong type or shape, NaN, inf or a huge value.
        """
        return check_vector(v, self.nv, f"{name} for robot '{self.name}'", self.velocity_names)

    # -- kinematics shortcuts -------------------------------------------------------------
    def forward_kinematics(self, q, v=None, a=None):
        """
        Evaluate the kinematics at ``q`` (and optionally velocities and accelerations).

        :param q: configuration ``(nq,)`` or batch ``(B, nq)`` (copied, never kept).
        :param v: velocity ``(nv,)`` or ``(B, nv)`` (optional).
        :param a: acceleration ``(nv,)`` or ``(B, nv)`` (optional, needs ``v``).
        :return: a :class:`~frame_kinematics.core.kinematics.KinematicsState`.
        """
        return KinematicsState(self, q, v, a)

    def transform(self, q, link: str) -> np.ndarray:
        """
        Pose of one link in the root link, ``root_T_link``, at ``q``: a new array.

        On the compiled backend, for one configuration, only the link and its ancestors are
        evaluated (a tip's path); otherwise this is ``forward_kinematics(q).transform(link)``.

        :param q: configuration ``(nq,)`` or ``(B, nq)``.
        :param link: link name.
        :return: ``(4, 4)`` or ``(B, 4, 4)``.
        """
        if self.accelerator is not None:
            pose = self.accelerator._pose(q, self.link_index(link))
            if pose is not None:  # one compiled call checked q and walked the link's path
                return pose
        return self.forward_kinematics(q).transform(link).copy()

    def workspace(self) -> KinematicsWorkspace:
        """
        Return a new :class:`~frame_kinematics.core.kinematics.KinematicsWorkspace`.

        Link poses recomputed in place, for loops; at the neutral configuration until its
        first :meth:`~frame_kinematics.core.kinematics.KinematicsWorkspace.forward_kinematics`.
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
        """
        if self.accelerator is not None:
            ref = expressed_in if type(expressed_in) is ExpressedIn else \
                ExpressedIn.parse(expressed_in)
            at = None if point is None else check_point(point)
            try:  # link_index(), without the cost of its call
                index = self._link_index[link]
            except (KeyError, TypeError):
                index = self.link_index(link)  # which raises the error
            jac = self.accelerator._jacobian(q, index, at, ref)
            if jac is not None:  # one compiled call checked q and computed the Jacobian
                return jac
        return self.forward_kinematics(q).jacobian(link, point, expressed_in)

    def center_of_mass(self, q) -> Tuple[float, np.ndarray]:
        """
        Total mass and center of mass in the root frame.

        :param q: configuration ``(nq,)`` or ``(B, nq)``.
        :return: ``(mass, root_p_com)`` with ``root_p_com`` of shape ``(3,)`` or ``(B, 3)``.
        """
        return self.total_mass, self.forward_kinematics(q).center_of_mass()

    def inverse_kinematics(self, tip, target, **options):
        """
        Solve inverse position kinematics (see :func:`frame_kinematics.core.ik.solve`).

        :param tip: the tip link (or a list of tips).
        :param target: ``root_T_target`` (4x4), or a list/batch of them.
        :param options: solver options (active_joints, seed, tolerances, budget, ...).
        :return: an IK result.
        """
        from .ik.calls import one_call
        return one_call('RobotModel.inverse_kinematics', self, tip, target, None, options)

    def __repr__(self) -> str:
        return (f"RobotModel('{self.name}', {len(self.links)} links, {len(self.joints)} joints, "
                f'nq={self.nq}, nv={self.nv})')
