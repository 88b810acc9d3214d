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
The robot model: an immutable kinematic tree built from a URDF.

Configuration layout
--------------------
Actuated joints (not fixed, not mimic) are ordered depth-first from the root link, children
in document order (the order Pinocchio and KDL use). Each joint owns a slice of the
configuration vector ``q`` (size ``nq``) and of the velocity vector ``v`` (size ``nv``):

=============  ====  ====  ==============================================================
joint type      nq    nv   layout
=============  ====  ====  ==============================================================
revolute        1     1    angle (rad)
continuous      1     1    angle (rad), unbounded, wraps around
prismatic       1     1    displacement (m) along the axis
floating        7     6    q: ``[x, y, z, qx, qy, qz, qw]`` pose of the child in the joint
                           frame; v: ``[vx, vy, vz, wx, wy, wz]`` twist of the child in its
                           own (child) frame, as Pinocchio's free-flyer
planar          3     3    q: ``[x, y, theta]`` in the plane normal to the axis (the in-plane
                           x/y axes are those of the joint frame rotated by the smallest
                           rotation taking z onto the axis); v: ``[vx, vy, wz]`` in the
                           child frame
=============  ====  ====  ==============================================================

Mimic joints (``value = multiplier * master + offset``) have no coordinates of their own.
Fixed joints are kept, so every URDF link is a named frame.
"""

from dataclasses import dataclass
import logging
import math
import os
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .errors import ConfigurationError, UnknownFrameError, URDFError
from .urdf import (Inertial, JointDescription, LinkDescription, load_urdf, read_urdf_file,
                   RobotDescription)

_LOG = logging.getLogger(__name__)

NQ = {'revolute': 1, 'continuous': 1, 'prismatic': 1, 'fixed': 0, 'floating': 7, 'planar': 3}
NV = {'revolute': 1, 'continuous': 1, 'prismatic': 1, 'fixed': 0, 'floating': 6, 'planar': 3}

_Q_ENTRIES = {'floating': ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw'), 'planar': ('x', 'y', 'theta')}
_V_ENTRIES = {'floating': ('vx', 'vy', 'vz', 'wx', 'wy', 'wz'), 'planar': ('vx', 'vy', 'wz')}

#: Tolerance on the norm of a floating joint's quaternion before it is refused.
QUATERNION_NORM_TOLERANCE = 1e-4


@dataclass(frozen=True)
class Joint:
    """
    A joint of the model.

    :ivar parent_T_joint: pose of the joint frame in the parent link (URDF ``<origin>``).
    :ivar idx_q: first index in ``q`` (-1 for fixed and mimic joints).
    :ivar idx_v: first index in ``v`` (-1 for fixed and mimic joints).
    :ivar mimic: the master joint's name, multiplier and offset, resolved to an actuated master.
    """

    name: str
    type: str  # noqa: A003 (the URDF attribute name)
    parent: str
    child: str
    parent_T_joint: np.ndarray
    axis: np.ndarray
    lower: float
    upper: float
    velocity: float
    effort: float
    mimic: Optional[Tuple[str, float, float]]
    idx_q: int
    nq: int
    idx_v: int
    nv: int

    @property
    def is_actuated(self) -> bool:
        """Whether the joint has its own coordinates in ``q``."""
        return self.nq > 0


@dataclass(frozen=True)
class Link:
    """
    A link of the model: a body frame.

    :ivar parent_joint: name of the joint whose child this link is (None for the root).
    :ivar mass: mass in kg (0 without ``<inertial>``).
    :ivar link_p_com: center of mass in the link frame.
    :ivar inertia: rotational inertia about the center of mass, in link axes.
    :ivar has_inertial: whether the URDF gives an ``<inertial>`` for it.
    """

    name: str
    index: int
    parent: Optional[str]
    parent_joint: Optional[str]
    mass: float
    link_p_com: np.ndarray
    inertia: np.ndarray
    has_inertial: bool


def _topology(description: RobotDescription) -> Tuple[str, Dict[str, List[JointDescription]]]:
    link_names = [link.name for link in description.links]
    seen = set()
    for name in link_names:
        if name in seen:
            raise URDFError('duplicate link name', f"link '{name}'")
        seen.add(name)
    if not link_names:
        raise URDFError('the robot has no <link>')
    joint_seen = set()
    parent_of: Dict[str, str] = {}
    children: Dict[str, List[JointDescription]] = {name: [] for name in link_names}
    for joint in description.joints:
        where = f"joint '{joint.name}'"
        if joint.name in joint_seen:
            raise URDFError('duplicate joint name', where)
        joint_seen.add(joint.name)
        for role, link in (('parent', joint.parent), ('child', joint.child)):
            if link not in seen:
                raise URDFError(f"{role} link '{link}' does not exist", where)
        if joint.parent == joint.child:
            raise URDFError(f"joins link '{joint.child}' to itself", where)
        if joint.child in parent_of:
            raise URDFError(f"link '{joint.child}' already has parent joint "
                            f"'{parent_of[joint.child]}'", where)
        parent_of[joint.child] = joint.name
        children[joint.parent].append(joint)
    roots = [name for name in link_names if name not in parent_of]
    if not roots:
        raise URDFError('no root link: the joints form a cycle')
    if len(roots) > 1:
        raise URDFError(f"several root links: {', '.join(roots)} (a URDF tree has one root)")
    return roots[0], children


def _resolve_mimics(joints: Dict[str, JointDescription]) -> Dict[str, Tuple[str, float, float]]:
    resolved = {}
    for name, joint in joints.items():
        if joint.mimic is None:
            continue
        where = f"joint '{name}'"
        if joint.type == 'fixed':
            _LOG.warning("joint '%s' is fixed: its <mimic> of '%s' is ignored", name,
                         joint.mimic.joint)
            continue
        if joint.type not in ('revolute', 'continuous', 'prismatic'):
            raise URDFError(f'a {joint.type} joint cannot mimic another joint', where)
        multiplier, offset, current, visited = 1.0, 0.0, joint, [name]
        while current.mimic is not None and current.type != 'fixed':
            master = current.mimic.joint
            if master not in joints:
                raise URDFError(f"mimics unknown joint '{master}'", f"joint '{current.name}'")
            offset = multiplier * current.mimic.offset + offset
            multiplier = multiplier * current.mimic.multiplier
            if master in visited:
                raise URDFError(f"mimic chain loops: {' -> '.join(visited + [master])}", where)
            visited.append(master)
            current = joints[master]
        if current.type not in ('revolute', 'continuous', 'prismatic'):
            raise URDFError(f"mimics '{current.name}', a {current.type} joint", where)
        resolved[name] = (current.name, multiplier, offset)
    return resolved


def _floating_root(description: RobotDescription, world: str) -> RobotDescription:
    root, _ = _topology(description)
    if any(link.name == world for link in description.links):
        raise URDFError(f"cannot add a floating base: a link is already named '{world}'")
    joint = JointDescription('root_joint', 'floating', world, root, np.eye(4),
                             np.array([1.0, 0.0, 0.0]))
    return RobotDescription(description.name, (LinkDescription(world),) + description.links,
                            (joint,) + description.joints)


def check_vector(x, size: int, name: str, entries: Optional[Sequence[str]] = None
                 ) -> np.ndarray:
    """
    Validate a vector of ``size`` numbers, or a batch of them, and return it as floats.

    :param x: array-like of shape ``(size,)`` or ``(B, size)``.
    :param name: what it is called in error messages.
    :param entries: a name per entry, to say which entries are NaN or inf.
    :return: the float array.
    :raises ConfigurationError: for a wrong shape, NaN or inf.
    """
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ConfigurationError(f'{name} must be an array of numbers') from None
    if arr.ndim not in (1, 2) or arr.shape[-1] != size:
        raise ConfigurationError(f'{name} must have shape ({size},) or (B, {size}), got '
                                 f'{arr.shape}')
    if not math.isfinite(float(arr.sum())) and not np.all(np.isfinite(arr)):
        bad = np.unique(np.nonzero(~np.isfinite(arr))[-1])
        where = ', '.join(entries[i] for i in bad) if entries else f'entries {bad.tolist()}'
        raise ConfigurationError(f'{name} has NaN or inf for {where}')
    return arr


class RobotModel:
    """
    Immutable kinematic and inertial model of a robot (Pinocchio's ``Model``).

    Everything that depends on a configuration lives in a
    :class:`~frame_kinematics.core.kinematics.KinematicsState`.
    """

    def __init__(self, description: RobotDescription, urdf: str = '') -> None:
        """
        Build a model from a parsed description (see :meth:`from_urdf_string`).

        :param description: the parsed URDF.
        :param urdf: the URDF text it came from, kept for republishing.
        :raises URDFError: for structural errors (roots, cycles, unknown links, mimics).
        """
        root, children = _topology(description)
        by_name = {joint.name: joint for joint in description.joints}
        mimics = _resolve_mimics(by_name)
        link_desc = {link.name: link for link in description.links}
        self.name = description.name
        self.urdf = urdf
        self.root_link = root
        links: List[Link] = []
        joints: List[Joint] = []
        idx_q = idx_v = 0
        stack: List[Tuple[str, Optional[JointDescription]]] = [(root, None)]
        while stack:
            link_name, via = stack.pop()
            if via is not None:
                actuated = via.name not in mimics and via.type != 'fixed'
                nq, nv = (NQ[via.type], NV[via.type]) if actuated else (0, 0)
                joints.append(Joint(via.name, via.type, via.parent, via.child,
                                    via.parent_T_joint, via.axis, via.lower, via.upper,
                                    via.velocity, via.effort, mimics.get(via.name),
                                    idx_q if actuated else -1, nq, idx_v if actuated else -1,
                                    nv))
                idx_q += nq
                idx_v += nv
            links.append(_make_link(link_desc[link_name], len(links),
                                    None if via is None else via.parent,
                                    None if via is None else via.name))
            stack.extend((j.child, j) for j in reversed(children[link_name]))
        if len(links) != len(description.links):
            orphans = sorted(set(link_desc) - {link.name for link in links})
            raise URDFError(f"links in a cycle, unreachable from root '{root}': "
                            f"{', '.join(orphans)}")
        self.links: Tuple[Link, ...] = tuple(links)
        self.joints: Tuple[Joint, ...] = tuple(joints)
        self._link_index = {link.name: link.index for link in links}
        self._joint_index = {joint.name: i for i, joint in enumerate(joints)}
        self.nq = idx_q
        self.nv = idx_v
        self.actuated_joints: Tuple[Joint, ...] = tuple(j for j in joints if j.is_actuated)
        self.joint_names: Tuple[str, ...] = tuple(j.name for j in self.actuated_joints)
        self.mimic_joints: Tuple[Joint, ...] = tuple(j for j in joints if j.mimic is not None)
        self._floating_joints = tuple(j for j in joints if j.type == 'floating' and
                                      j.is_actuated)
        self.lower, self.upper = self._limits()
        self.total_mass = float(sum(link.mass for link in links))
        from .kinematics import KinematicTables
        self.tables = KinematicTables(self)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_urdf_string(cls, text: str, floating_base: bool = False,
                         world_frame: str = 'world') -> 'RobotModel':
        """
        Parse a URDF document.

        :param text: the URDF XML.
        :param floating_base: add a floating joint ``root_joint`` between a new root link
            ``world_frame`` and the URDF's root link (for legged robots and humanoids).
        :param world_frame: name of that new root link.
        :return: the model.
        :raises URDFError: if the document is not a valid robot description.
        """
        description, urdf = load_urdf(text)
        if floating_base:
            description = _floating_root(description, world_frame)
        return cls(description, urdf)

    @classmethod
    def from_urdf_file(cls, path: Union[str, os.PathLike], floating_base: bool = False,
                       world_frame: str = 'world') -> 'RobotModel':
        """
        Parse a URDF file (see :meth:`from_urdf_string`).

        :param path: path of the file.
        :param floating_base: add a floating base joint.
        :param world_frame: name of the root link added with the floating base.
        :return: the model.
        :raises URDFError: if the file cannot be read or is not a valid robot description.
        """
        return cls.from_urdf_string(read_urdf_file(path), floating_base, world_frame)

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
        except KeyError:
            raise UnknownFrameError(name, self._link_index, 'link') from None

    def link(self, name: str) -> Link:
        """Return the link called ``name`` (raises :class:`UnknownFrameError` if unknown)."""
        return self.links[self.link_index(name)]

    def joint(self, name: str) -> Joint:
        """Return the joint called ``name`` (raises :class:`UnknownFrameError` if unknown)."""
        try:
            return self.joints[self._joint_index[name]]
        except KeyError:
            raise UnknownFrameError(name, self._joint_index, 'joint') from None

    def has_link(self, name: str) -> bool:
        """Whether a link of that name exists."""
        return name in self._link_index

    @property
    def configuration_names(self) -> Tuple[str, ...]:
        """Return a name per entry of ``q``: the joint name, or ``joint/x`` for multi-dof."""
        return self._entry_names(_Q_ENTRIES)

    @property
    def velocity_names(self) -> Tuple[str, ...]:
        """Return a name per entry of ``v`` (Jacobian column): ``joint/vx`` for multi-dof."""
        return self._entry_names(_V_ENTRIES)

    def _entry_names(self, entries: Dict[str, Tuple[str, ...]]) -> Tuple[str, ...]:
        names: List[str] = []
        for joint in self.actuated_joints:
            if joint.type in entries:
                names += [f'{joint.name}/{c}' for c in entries[joint.type]]
            else:
                names.append(joint.name)
        return tuple(names)

    # -- configurations -----------------------------------------------------------------------
    def _limits(self) -> Tuple[np.ndarray, np.ndarray]:
        lower = np.full(self.nq, -np.inf)
        upper = np.full(self.nq, np.inf)
        for joint in self.actuated_joints:
            if joint.type in ('revolute', 'prismatic'):
                lower[joint.idx_q] = joint.lower
                upper[joint.idx_q] = joint.upper
            elif joint.type == 'floating':
                lower[joint.idx_q + 3:joint.idx_q + 7] = -1.0
                upper[joint.idx_q + 3:joint.idx_q + 7] = 1.0
        lower.flags.writeable = False
        upper.flags.writeable = False
        return lower, upper

    def neutral_configuration(self) -> np.ndarray:
        """
        Return the zero configuration (identity quaternion for floating joints).

        :return: ``q`` of shape ``(nq,)``.
        """
        q = np.zeros(self.nq)
        for joint in self.actuated_joints:
            if joint.type == 'floating':
                q[joint.idx_q + 6] = 1.0
        return q

    def configuration_from_dict(self, values: Dict[str, float],
                                base: Optional[np.ndarray] = None) -> np.ndarray:
        """
        Build a configuration from ``{name: value}``, the rest from ``base`` or neutral.

        Names are those of :attr:`configuration_names`.

        :param values: the values to set.
        :param base: the configuration the others are taken from.
        :return: ``q`` of shape ``(nq,)``.
        :raises UnknownFrameError: for a name that is not a configuration entry.
        """
        q = self.neutral_configuration() if base is None else np.array(base, dtype=float)
        names = {name: i for i, name in enumerate(self.configuration_names)}
        for name, value in values.items():
            if name not in names:
                raise UnknownFrameError(name, names, 'joint')
            q[names[name]] = float(value)
        return q

    def check_configuration(self, q, name: str = 'q') -> np.ndarray:
        """
        Validate a configuration (or a batch) and return it as a float array.

        :param q: shape ``(nq,)`` or ``(B, nq)``.
        :param name: what it is called in error messages.
        :return: the validated array (floating-joint quaternions normalised).
        :raises ConfigurationError: for a wrong shape, NaN or inf, or a non-unit quaternion.
        """
        return self._check_vector(q, self.nq, name, quaternions=True)

    def check_velocity(self, v, name: str = 'v') -> np.ndarray:
        """
        Validate a velocity or acceleration vector (or a batch) of size ``nv``.

        :param v: shape ``(nv,)`` or ``(B, nv)``.
        :param name: what it is called in error messages.
        :return: the validated array.
        :raises ConfigurationError: for a wrong shape, NaN or inf.
        """
        return self._check_vector(v, self.nv, name, quaternions=False)

    def _check_vector(self, x, size: int, name: str, quaternions: bool) -> np.ndarray:
        entries = self.configuration_names if quaternions else self.velocity_names
        arr = check_vector(x, size, f"{name} for robot '{self.name}'", entries)
        if quaternions:
            for joint in self._floating_joints:
                sl = slice(joint.idx_q + 3, joint.idx_q + 7)
                norm = np.linalg.norm(arr[..., sl], axis=-1)
                if np.any(np.abs(norm - 1.0) > QUATERNION_NORM_TOLERANCE):
                    raise ConfigurationError(
                        f"{name}: quaternion of floating joint '{joint.name}' has norm "
                        f'{np.atleast_1d(norm).tolist()[:3]}, expected 1')
                arr = arr.copy()
                arr[..., sl] /= norm[..., None]
        return arr

    # -- kinematics shortcuts -------------------------------------------------------------
    def forward_kinematics(self, q, v=None, a=None):
        """
        Evaluate the kinematics at ``q`` (and optionally velocities and accelerations).

        :param q: configuration ``(nq,)`` or batch ``(B, nq)``.
        :param v: velocity ``(nv,)`` or ``(B, nv)`` (optional).
        :param a: acceleration ``(nv,)`` or ``(B, nv)`` (optional, needs ``v``).
        :return: a :class:`~frame_kinematics.core.kinematics.KinematicsState`.
        """
        from .kinematics import KinematicsState
        return KinematicsState(self, q, v, a)

    def jacobian(self, q, link: str, point: Optional[Sequence[float]] = None,
                 expressed_in='local_world_aligned') -> np.ndarray:
        """
        Jacobian of a link (see :meth:`KinematicsState.jacobian`).

        :param q: configuration ``(nq,)`` or ``(B, nq)``.
        :param link: link name.
        :param point: point in the link frame (default: its origin).
        :param expressed_in: an :class:`~frame_kinematics.core.kinematics.ExpressedIn` or its
            name (default LOCAL_WORLD_ALIGNED).
        :return: ``(6, nv)`` or ``(B, 6, nv)``, rows ``[linear; angular]``.
        """
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
        :param options: solver options (seed, tolerances, budget, ...).
        :return: an IK result.
        """
        from .ik import solve
        return solve(self, tip, target, **options)

    def __repr__(self) -> str:
        return (f"RobotModel('{self.name}', {len(self.links)} links, {len(self.joints)} joints, "
                f'nq={self.nq}, nv={self.nv})')


def _make_link(desc, index: int, parent: Optional[str], parent_joint: Optional[str]) -> Link:
    inertial: Optional[Inertial] = desc.inertial
    if inertial is None:
        return Link(desc.name, index, parent, parent_joint, 0.0, np.zeros(3), np.zeros((3, 3)),
                    False)
    rot = inertial.link_T_com[:3, :3]
    return Link(desc.name, index, parent, parent_joint, float(inertial.mass),
                inertial.link_T_com[:3, 3].copy(), rot @ inertial.inertia @ rot.T, True)
