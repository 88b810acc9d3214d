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
Joint types and what each one is: sizes, entry names, limits, neutral value, motion.

This is the only place that says what a joint type means. Every other module asks a
:class:`JointType` (or the flat tables of :mod:`.kernel` and :mod:`.layout` built from it)
instead of comparing type names.

Configuration layout per joint type
-----------------------------------
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
fixed           0     0    none
=============  ====  ====  ==============================================================
"""

import enum
from types import MappingProxyType
from typing import Tuple

import numpy as np

from ..errors import excerpt, URDFError
from ..spatial import rotation_from_axis_angle, rotation_from_quaternion, skew


class JointType(enum.Enum):
    """The URDF joint types; the value is the URDF ``type`` attribute."""

    FIXED = 'fixed'
    REVOLUTE = 'revolute'
    CONTINUOUS = 'continuous'
    PRISMATIC = 'prismatic'
    PLANAR = 'planar'
    FLOATING = 'floating'

    @classmethod
    def from_urdf(cls, name: str, where: str = '') -> 'JointType':
        """
        Return the type named by a URDF ``type`` attribute.

        :param name: e.g. ``'revolute'``.
        :param where: the element, for the error message.
        :return: the member whose value is ``name``.
        :raises URDFError: for a name that is not a URDF joint type.
        """
        try:
            return cls(name)
        except ValueError:
            shown = excerpt(str(name))
            raise URDFError(f"unknown joint type '{shown}' (expected one of "
                            f"{', '.join(m.value for m in cls)})", where or None) from None

    @property
    def nq(self) -> int:
        """Return the number of configuration entries."""
        return len(_Q_ENTRIES[self])

    @property
    def nv(self) -> int:
        """Return the number of velocity entries (degrees of freedom)."""
        return len(_V_ENTRIES[self])

    @property
    def q_entries(self) -> Tuple[str, ...]:
        """Suffixes of the configuration entries (``('',)`` for a one-dof joint)."""
        return _Q_ENTRIES[self]

    @property
    def v_entries(self) -> Tuple[str, ...]:
        """Suffixes of the velocity entries (``('',)`` for a one-dof joint)."""
        return _V_ENTRIES[self]

    @property
    def moves(self) -> bool:
        """Whether the joint has degrees of freedom."""
        return self is not JointType.FIXED

    @property
    def one_dof(self) -> bool:
        """Whether the joint has one scalar coordinate (revolute, continuous, prismatic)."""
        return self in (JointType.REVOLUTE, JointType.CONTINUOUS, JointType.PRISMATIC)

    @property
    def rotates(self) -> bool:
        """Whether the joint is a one-dof rotation (revolute or continuous)."""
        return self in (JointType.REVOLUTE, JointType.CONTINUOUS)

    @property
    def bounded(self) -> bool:
        """Whether the URDF limits bound the coordinate (revolute, prismatic)."""
        return self in (JointType.REVOLUTE, JointType.PRISMATIC)

    @property
    def unit(self) -> str:
        """Return the unit of a one-dof coordinate (``rad``, ``m``; empty for other types)."""
        if self is JointType.PRISMATIC:
            return 'm'
        return 'rad' if self.rotates else ''

    def limits(self, lower: float, upper: float) -> Tuple[np.ndarray, np.ndarray]:
        """
        Limits of each configuration entry.

        Revolute and prismatic joints take the URDF limits; continuous angles and the
        translations and angle of floating and planar joints are unbounded; the quaternion
        entries of a floating joint lie in ``[-1, 1]`` (they are kept unit instead).

        :param lower: the URDF lower limit.
        :param upper: the URDF upper limit.
        :return: ``(lower, upper)``, each of shape ``(nq,)``.
        """
        lo = np.full(self.nq, -np.inf)
        hi = np.full(self.nq, np.inf)
        if self.bounded:
            lo[0], hi[0] = lower, upper
        elif self is JointType.FLOATING:
            lo[3:], hi[3:] = -1.0, 1.0
        return lo, hi

    def neutral(self) -> np.ndarray:
        """Neutral configuration of the joint (identity quaternion for floating joints)."""
        q = np.zeros(self.nq)
        if self is JointType.FLOATING:
            q[6] = 1.0
        return q

    def motion_subspace(self, axis: np.ndarray) -> np.ndarray:
        """
        Return the unit twists ``[linear; angular]`` of the velocity entries (child frame).

        They are constant in the child frame (Pinocchio's motion subspace ``S``).

        :param axis: the unit joint axis (plane normal for planar joints).
        :return: ``(6, nv)``.
        """
        out = np.zeros((6, self.nv))
        if self.rotates:
            out[3:, 0] = axis
        elif self is JointType.PRISMATIC:
            out[:3, 0] = axis
        elif self is JointType.FLOATING:
            out[:] = np.eye(6)
        elif self is JointType.PLANAR:
            basis = plane_basis(axis)
            out[:3, 0], out[:3, 1], out[3:, 2] = basis[:, 0], basis[:, 1], basis[:, 2]
        return out

    def transform(self, axis: np.ndarray, q: np.ndarray) -> np.ndarray:
        """
        Return ``joint_T_child`` for the joint's own coordinates (batched).

        :param axis: the unit joint axis.
        :param q: ``(*B, nq)``; for one-dof joints the value with mimic terms applied.
        :return: ``(*B, 4, 4)``.
        """
        q = np.asarray(q, dtype=float)
        out = np.zeros(q.shape[:-1] + (4, 4))
        out[..., 3, 3] = 1.0
        if self is JointType.FIXED:
            out[..., :3, :3] = np.eye(3)
        elif self.rotates:
            out[..., :3, :3] = rotation_from_axis_angle(axis, q[..., 0])
        elif self is JointType.PRISMATIC:
            out[..., :3, :3] = np.eye(3)
            out[..., :3, 3] = q[..., :1] * axis
        elif self is JointType.FLOATING:
            out[..., :3, :3] = rotation_from_quaternion(q[..., 3:7])
            out[..., :3, 3] = q[..., :3]
        else:
            basis = plane_basis(axis)
            theta = q[..., 2]
            rz = np.zeros(q.shape[:-1] + (3, 3))
            rz[..., 0, 0] = rz[..., 1, 1] = np.cos(theta)
            rz[..., 1, 0] = np.sin(theta)
            rz[..., 0, 1] = -rz[..., 1, 0]
            rz[..., 2, 2] = 1.0
            out[..., :3, :3] = basis @ rz @ basis.T
            out[..., :3, 3] = q[..., :1] * basis[:, 0] + q[..., 1:2] * basis[:, 1]
        return out


_Q_ENTRIES = MappingProxyType({
    JointType.FIXED: (),
    JointType.REVOLUTE: ('',),
    JointType.CONTINUOUS: ('',),
    JointType.PRISMATIC: ('',),
    JointType.PLANAR: ('x', 'y', 'theta'),
    JointType.FLOATING: ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw'),
})
_V_ENTRIES = MappingProxyType({
    JointType.FIXED: (),
    JointType.REVOLUTE: ('',),
    JointType.CONTINUOUS: ('',),
    JointType.PRISMATIC: ('',),
    JointType.PLANAR: ('vx', 'vy', 'wz'),
    JointType.FLOATING: ('vx', 'vy', 'vz', 'wx', 'wy', 'wz'),
})


def plane_basis(normal: np.ndarray) -> np.ndarray:
    """
    Return the columns ``[ex, ey, n]`` of the smallest rotation taking z onto ``normal``.

    :param normal: unit normal of a planar joint's plane.
    :return: a 3x3 rotation.
    """
    z = np.array([0.0, 0.0, 1.0])
    axis = np.cross(z, normal)
    s, c = float(np.linalg.norm(axis)), float(np.dot(z, normal))
    if s < 1e-12:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    k = skew(axis / s)
    return np.eye(3) + s * k + (1 - c) * (k @ k)


def entry_names(name: str, entries: Tuple[str, ...]) -> Tuple[str, ...]:
    """
    Names of a joint's entries: the joint name, or ``joint/x`` for multi-dof joints.

    :param name: the joint name.
    :param entries: :attr:`JointType.q_entries` or :attr:`JointType.v_entries`.
    :return: one name per entry.
    """
    return tuple(f'{name}/{e}' if e else name for e in entries)
