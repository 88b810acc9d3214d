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
in document order (Pinocchio orders them by joint name: see
:func:`~frame_kinematics.core.configuration.entries_in_order`). Each joint owns a slice of the
configuration vector ``q`` (size ``nq``) and of the velocity vector ``v`` (size ``nv``); the
layout of each joint type is in :mod:`frame_kinematics.core.joints.joint_type`. Mimic joints
(``value = multiplier * master + offset``) have no coordinates of their own. Fixed joints are
kept, so every URDF link is a named frame.

Everything the model exposes is read-only: its arrays are backed by immutable memory, its
joints and links are frozen, and nothing it computes depends on state a caller can change.
"""

import contextlib
import os
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple, Union

import numpy as np

from .assembly import add_floating_root, assemble, Joint, Link
from .checks import as_path, check_flag, check_number, check_vector, MAX_MAGNITUDE
from .errors import ConfigurationError, UnknownFrameError, URDFError
from .joints import ConfigurationLayout, entry_names, frozen, JointKernel, JointType
from .topology import Topology
from .urdf import check_name, load_urdf, RobotDescription
from .urdf_source import read_urdf_file

__all__ = ['Joint', 'Link', 'require_model', 'RobotModel']


@contextlib.contextmanager
def naming_file(name: Union[str, bytes]) -> Iterator[None]:
    """
    Name the file ``name`` in a :class:`~.errors.URDFError` raised within the block.

    :param name: the path as :func:`~.checks.as_path` returns it.
    :raises URDFError: the block's, as ``file '<name>': <its message>``.
    """
    try:
        yield
    except URDFError as exc:
        raise URDFError(str(exc), f"file '{os.fsdecode(name)}'") from None


def _key(name: Any) -> Optional[str]:
    """
    Return a name as the model's indices are looked up by it.

    A plain str: a subclass's ``__hash__`` or ``__eq__`` is never called; None for anything
    but a str (an unhashable name raises no TypeError, and None is no key).

    :param name: anything.
    :return: the plain str, or None.
    """
    return str.__str__(name) if isinstance(name, str) else None


class RobotModel:
    """
    Read-only kinematic and inertial model of a robot (Pinocchio's ``Model``).

    Data only: it imports no algorithm and no backend. Everything that depends on a
    configuration lives in a :class:`~frame_kinematics.core.kinematics.KinematicsState`,
    evaluated by a backend chosen per state; :class:`~frame_kinematics.core.robot.Robot` is a
    model with its backend and the convenience methods (``forward_kinematics``, ``jacobian``,
    ``inverse_kinematics``, ...).

    :ivar kernel: the joint kernel, one row per link (row 0: the root, fixed).
    :ivar topology: parents, levels and subtrees of the links.
    :ivar layout: the configuration layout of the actuated joints.
    :ivar link_masses: ``(n_links,)`` masses.
    :ivar link_p_coms: ``(n_links, 3)`` centers of mass in the link frames.
    :ivar link_inertias: ``(n_links, 3, 3)`` rotational inertias about the centers of mass.
    """

    def __init__(self, description: RobotDescription, urdf: str = '') -> None:
        """
        Build a model from a parsed description (see :meth:`from_urdf_string`).

        :param description: the parsed URDF.
        :param urdf: the URDF text it came from, kept for republishing.
        :raises URDFError: for structural errors (roots, cycles, unknown links, mimics).
        :raises ConfigurationError: for a ``description`` that is not a
            :class:`~frame_kinematics.core.urdf.RobotDescription`, or a ``urdf`` that is not a
            str.
        """
        if not isinstance(description, RobotDescription):
            raise ConfigurationError(f'description must be a RobotDescription (from '
                                     f'RobotModel.parse), got {type(description).__name__}')
        if not isinstance(urdf, str):
            raise ConfigurationError(f'urdf must be the URDF text (a str), got '
                                     f'{type(urdf).__name__}')
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
        # one tuple built from all the names (adding tuples one by one costs O(n**2))
        self.configuration_names: Tuple[str, ...] = tuple(
            name for j in self.actuated_joints for name in entry_names(j.name, j.type.q_entries))
        self.velocity_names: Tuple[str, ...] = tuple(
            name for j in self.actuated_joints for name in entry_names(j.name, j.type.v_entries))
        self._sealed = True

    def __setattr__(self, name: str, value) -> None:
        """Refuse changes once built: the model is read-only."""
        if getattr(self, '_sealed', False):
            raise AttributeError(f"{type(self).__name__} is read-only: cannot set '{name}'")
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
    @staticmethod
    def parse(text: Union[str, bytes], floating_base: bool = False, world_frame: str = 'world'
              ) -> Tuple[RobotDescription, str]:
        """
        Parse a URDF document into the description a model is built from.

        :param text: the URDF XML, as text or as bytes (decoded as the document declares).
        :param floating_base: add a floating joint ``root_joint`` between a new root link
            ``world_frame`` and the URDF's root link (for legged robots and humanoids).
        :param world_frame: name of that new root link.
        :return: ``(description, urdf_text)``.
        :raises URDFError: if the document is not a valid robot description, or
            ``world_frame`` is not a name a URDF link could have.
        :raises ConfigurationError: if ``floating_base`` is not a bool.
        """
        floating_base = check_flag(floating_base, 'floating_base')
        world_frame = check_name(world_frame, 'world_frame')
        description, text = load_urdf(text)
        if floating_base:
            description = add_floating_root(description, world_frame)
        return description, text

    @staticmethod
    def parse_file(path: Union[str, os.PathLike], floating_base: bool = False,
                   world_frame: str = 'world') -> Tuple[RobotDescription, str]:
        """
        Read a URDF file once (bounded, see :func:`~.urdf_source.read_urdf_file`) and parse it.

        :param path: path of the file.
        :param floating_base: add a floating base joint (see :meth:`parse`).
        :param world_frame: name of the root link added with the floating base.
        :return: ``(description, urdf_text)``.
        :raises URDFError: if ``path`` is not a path or the file cannot be read; if the
            document is not a valid robot description, or ``world_frame`` is not a link name,
            with the file named.
        :raises ConfigurationError: if ``floating_base`` is not a bool.
        """
        name = as_path(path, 'a URDF path', URDFError)  # once: a user's __fspath__ is called once
        text = read_urdf_file(name)
        with naming_file(name):
            return RobotModel.parse(text, floating_base, world_frame)

    @classmethod
    def from_urdf_string(cls, text: Union[str, bytes], floating_base: bool = False,
                         world_frame: str = 'world') -> 'RobotModel':
        """
        Parse a URDF document (see :meth:`parse`).

        :param text: the URDF XML, as text or as bytes.
        :param floating_base: add a floating base joint.
        :param world_frame: name of the root link added with the floating base.
        :return: the model.
        :raises URDFError: if the document is not a valid robot description, or
            ``world_frame`` is not a link name.
        :raises ConfigurationError: if ``floating_base`` is not a bool.
        """
        return cls(*cls.parse(text, floating_base, world_frame))

    @classmethod
    def from_urdf_file(cls, path: Union[str, os.PathLike], floating_base: bool = False,
                       world_frame: str = 'world') -> 'RobotModel':
        """
        Parse a URDF file (see :meth:`parse_file`).

        :param path: path of the file.
        :param floating_base: add a floating base joint.
        :param world_frame: name of the root link added with the floating base.
        :return: the model.
        :raises URDFError: if ``path`` is not a path, the file cannot be read or is not a valid
            robot description (the file named), or ``world_frame`` is not a link name.
        :raises ConfigurationError: if ``floating_base`` is not a bool.
        """
        name = as_path(path, 'a URDF path', URDFError)
        description, text = cls.parse_file(name, floating_base, world_frame)
        with naming_file(name):  # the structure is checked as the model is built
            return cls(description, text)

    # -- lookup -------------------------------------------------------------------------------
    @property
    def link_names(self) -> Tuple[str, ...]:
        """Names of every link (body frame), root first, depth-first."""
        return tuple(link.name for link in self.links)

    def link_index(self, name: str) -> int:
        """
        Index of a link.

        :param name: the link name (a str subclass is read as a plain str).
        :return: its index in :attr:`links`.
        :raises UnknownFrameError: if there is no such link, or ``name`` is not a str.
        """
        try:
            return self._link_index[name if type(name) is str else _key(name)]
        except KeyError:
            raise UnknownFrameError(name, self._link_index, 'link') from None

    def link(self, name: str) -> Link:
        """
        Return the link called ``name``.

        :param name: the link name.
        :return: the link.
        :raises UnknownFrameError: if there is no such link.
        """
        return self.links[self.link_index(name)]

    def joint(self, name: str) -> Joint:
        """
        Return the joint called ``name``.

        :param name: the joint name (a str subclass is read as a plain str).
        :return: the joint.
        :raises UnknownFrameError: if there is no such joint, or ``name`` is not a str.
        """
        try:
            return self.joints[self._joint_index[name if type(name) is str else _key(name)]]
        except KeyError:
            raise UnknownFrameError(name, self._joint_index, 'joint') from None

    def has_link(self, name: str) -> bool:
        """
        Whether a link of that name exists.

        :param name: the link name.
        :return: ``True`` if :attr:`links` has a link called ``name`` (False for anything but
            a str; a str subclass is read as a plain str, its ``__hash__`` and ``__eq__`` not
            called).
        """
        return _key(name) in self._link_index

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

        :param values: the values to set: real numbers (int, float or numpy's; not bools,
            strings or arrays), within
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`.
        :param base: the one configuration ``(nq,)`` the others are taken from (a batch is
            refused: build each configuration of a batch on its own).
        :return: a new ``q`` of shape ``(nq,)``.
        :raises UnknownFrameError: for a name that is neither a configuration entry nor a
            mimic joint.
        :raises ConfigurationError: for values that are not a mapping, a value that is not a
            finite real number, a ``base`` that is not one valid configuration, a mimic joint
            with multiplier 0, or a mimic joint and its master that disagree.
        """
        if not isinstance(values, Mapping):
            raise ConfigurationError(f'values must be a mapping of names to numbers, got '
                                     f'{type(values).__name__}')
        q = self.neutral_configuration() if base is None else \
            self.check_configuration(base, 'base')
        if q.ndim != 1:
            raise ConfigurationError(f'base must be one configuration of shape ({self.nq},), '
                                     f'got {q.shape}')
        names = {name: i for i, name in enumerate(self.configuration_names)}
        mimics = {joint.name: joint.mimic for joint in self.mimic_joints}
        given = {}
        for name, value in values.items():
            if type(name) is not str or (name not in names and name not in mimics):
                raise UnknownFrameError(name, list(names) + list(mimics), 'joint')
            given[name] = check_number(value, f"value of '{name}' must be a finite real number "
                                              f'of magnitude at most {MAX_MAGNITUDE:g}')
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

    def __repr__(self) -> str:
        return (f"RobotModel('{self.name}', {len(self.links)} links, {len(self.joints)} joints, "
                f'nq={self.nq}, nv={self.nv})')


def require_model(model: Any, name: str = 'model') -> RobotModel:
    """
    Refuse anything but a :class:`RobotModel` where an algorithm takes a model.

    A :class:`~frame_kinematics.core.robot.Robot` is one.

    :param model: what the caller gave.
    :param name: the argument's name, for the message.
    :return: ``model``.
    :raises ConfigurationError: for anything else (None, a URDF string, a frame tree).
    """
    if not isinstance(model, RobotModel):
        raise ConfigurationError(f'{name} must be a RobotModel or a Robot, got '
                                 f'{type(model).__name__}')
    return model
