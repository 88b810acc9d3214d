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
Forward kinematics, velocities, accelerations, Jacobians and center of mass.

:class:`KinematicTables` holds what the tree allows to precompute once per model (joint axes,
origins, depth levels, supports). :class:`KinematicsState` holds everything that depends on a
configuration (Pinocchio's ``Data``): it is created by
:meth:`RobotModel.forward_kinematics <frame_kinematics.core.model.RobotModel.forward_kinematics>`
and never changes afterwards; derived quantities are computed on first use and cached.

Every computation is vectorised over joints and over an optional leading batch axis: a
configuration of shape ``(B, nq)`` gives poses of shape ``(B, 4, 4)`` and Jacobians of shape
``(B, 6, nv)`` without a Python loop over the batch.

Joint motion columns
--------------------
Each degree of freedom (and each mimic joint) has a constant unit twist ``S`` in its child
link frame. At a configuration its world column (twist at the world origin, world axes) is
``[R S_lin + p x (R S_ang); R S_ang]`` with ``(R, p)`` the child's pose. The Jacobians, the
velocities, the accelerations and the CoM Jacobian are all sums of those columns over a link's
support, so they share one cached computation.
"""

import enum
from typing import List, Optional, Sequence, Tuple, TYPE_CHECKING, Union

import numpy as np

from .errors import ConfigurationError
from .spatial import inverse, rotation_from_quaternion, skew

if TYPE_CHECKING:  # pragma: no cover
    from .model import RobotModel

#: Batches at least this large are evaluated link by link with the batch axis last.
BATCH_THRESHOLD = 16


class ExpressedIn(enum.Enum):
    """
    Where a Jacobian, twist or acceleration is expressed (Pinocchio's meanings).

    * ``WORLD``: world axes, taken at the world origin (spatial twist).
    * ``LOCAL``: the link's (or point's) own axes, at the point.
    * ``LOCAL_WORLD_ALIGNED``: world axes, at the point.
    """

    WORLD = 'world'
    LOCAL = 'local'
    LOCAL_WORLD_ALIGNED = 'local_world_aligned'

    @classmethod
    def parse(cls, value: Union['ExpressedIn', str]) -> 'ExpressedIn':
        """
        Accept an :class:`ExpressedIn` or its name/value in any case.

        :param value: e.g. ``ExpressedIn.LOCAL`` or ``'local_world_aligned'``.
        :return: the enum member.
        :raises ConfigurationError: for an unknown name.
        """
        if isinstance(value, cls):
            return value
        text = str(value).strip().lower()
        for member in cls:
            if text in (member.value, member.name.lower()):
                return member
        raise ConfigurationError(f"unknown 'expressed in' value '{value}' (expected one of "
                                 f"{', '.join(m.value for m in cls)})")


class KinematicTables:
    """Per-model constants of the kinematic engine (built once by the model)."""

    def __init__(self, model: 'RobotModel') -> None:
        """
        Precompute joint tables, tree levels and supports for ``model``.

        :param model: the model (its links and joints must be final).
        """
        links = model.links
        n_links = len(links)
        index = {link.name: link.index for link in links}
        self.n_links = n_links
        self.parent = np.array([-1 if link.parent is None else index[link.parent]
                                for link in links])
        joint_of = {joint.child: joint for joint in model.joints}
        self.origin = np.stack([np.eye(4) if link.parent_joint is None
                                else joint_of[link.name].parent_T_joint for link in links])
        depth = np.zeros(n_links, dtype=int)
        for i in range(1, n_links):
            depth[i] = depth[self.parent[i]] + 1
        # Links of one depth are composed together; a lone link uses plain integer indices.
        self.levels: List[Tuple[object, object]] = []
        for d in range(1, int(depth.max(initial=0)) + 1):
            children = np.nonzero(depth == d)[0]
            if len(children) == 1:
                self.levels.append((int(children[0]), int(self.parent[children[0]])))
            else:
                self.levels.append((children, self.parent[children]))
        self._joint_groups(model, joint_of, index)
        self._batch_plan(model, joint_of)
        self._columns(model, index)
        self.mass = np.array([link.mass for link in links])
        self.link_p_com = np.array([link.link_p_com for link in links]).reshape(-1, 3)
        self.inertia = np.array([link.inertia for link in links]).reshape(-1, 3, 3)

    def _joint_groups(self, model, joint_of, index) -> None:
        def source(joint):
            if joint.mimic is None:
                return joint.idx_q, 1.0, 0.0
            master, multiplier, offset = joint.mimic
            return model.joint(master).idx_q, multiplier, offset

        # Per link: joint value = q[link_src] * link_mult + link_off (0 for other joints),
        # rotation = origin_R + sin(value) rot_sin + (1 - cos(value)) rot_versine and
        # translation = origin_p + value * slide (zero terms where they do not apply).
        n_links = self.n_links
        self.link_src = np.zeros(n_links, dtype=int)
        self.link_mult = np.zeros(n_links)
        self.link_off = np.zeros(n_links)
        self.rot_sin = np.zeros((n_links, 3, 3))
        self.rot_versine = np.zeros((n_links, 3, 3))
        self.slide = np.zeros((n_links, 3))
        for joint in model.joints:
            if joint.type not in ('revolute', 'continuous', 'prismatic'):
                continue
            link = index[joint.child]
            self.link_src[link], self.link_mult[link], self.link_off[link] = source(joint)
            rot = self.origin[link, :3, :3]
            if joint.type == 'prismatic':
                self.slide[link] = rot @ joint.axis
            else:
                k = skew(joint.axis)
                self.rot_sin[link] = rot @ k
                self.rot_versine[link] = rot @ k @ k
        self.has_revolute = bool(np.any(self.rot_sin))
        self.has_prismatic = bool(np.any(self.slide))
        self.multi_dof = [(index[j.child], j) for j in model.joints
                          if j.type in ('floating', 'planar')]

    def _batch_plan(self, model, joint_of) -> None:
        """
        Per-link steps of the batched evaluation (see :meth:`KinematicsState._forward_batch`).

        Joint values of every moving link are ``q[value_src] * value_mult + value_offset``
        (mimic multipliers, offsets and the sign of ``-x``/``-y``/``-z`` axes folded in).
        """
        sources, mults, offsets, steps = [], [], [], []
        for link in model.links[1:]:
            joint = joint_of[link.name]
            origin_t = np.ascontiguousarray(joint.parent_T_joint.T)
            parent = int(self.parent[link.index])
            if joint.type == 'fixed':
                steps.append((link.index, parent, origin_t, 'fixed', None))
                continue
            if joint.type in ('floating', 'planar'):
                steps.append((link.index, parent, origin_t, joint.type, joint))
                continue
            if joint.mimic is None:
                src, mult, off = joint.idx_q, 1.0, 0.0
            else:
                master, mult, off = joint.mimic
                src = model.joint(master).idx_q
            axis = joint.axis
            basis = np.nonzero(np.abs(np.abs(axis) - 1.0) < 1e-15)[0]
            if joint.type == 'prismatic':
                data = axis
                sign = 1.0
                kind = 'prismatic'
            elif len(basis) == 1:
                k = int(basis[0])
                sign = float(np.sign(axis[k]))
                data = ((k + 1) % 3, (k + 2) % 3)
                kind = 'basis'
            else:
                sign = 1.0
                k4 = np.zeros((4, 4))
                k4[:3, :3] = skew(axis)
                p4 = np.zeros((4, 4))
                p4[:3, :3] = np.outer(axis, axis)
                data = (np.ascontiguousarray(p4.T), np.ascontiguousarray(k4.T))
                kind = 'axis'
            sources.append(src)
            mults.append(sign * mult)
            offsets.append(sign * off)
            steps.append((link.index, parent, origin_t, kind, (len(sources) - 1, data)))
        self.value_src = np.array(sources, dtype=int)
        self.value_mult = np.array(mults)[:, None]
        self.value_offset = np.array(offsets)[:, None]
        self.batch_steps = steps

    def _columns(self, model, index) -> None:
        links: List[int] = []
        motion: List[np.ndarray] = []
        for joint in model.actuated_joints:
            child = index[joint.child]
            for s in unit_twists(joint):
                links.append(child)
                motion.append(s)
        nv = model.nv
        expand = np.zeros((len(links) + len(model.mimic_joints), nv))
        expand[np.arange(nv), np.arange(nv)] = 1.0
        for joint in model.mimic_joints:
            master, multiplier, _ = joint.mimic
            expand[len(links), model.joint(master).idx_v] = multiplier
            links.append(index[joint.child])
            motion.append(unit_twists(joint)[0])
        self.n_columns = len(links)
        self.col_links = np.array(links, dtype=int)
        # (n_columns, 3, 2): columns [S_lin, S_ang], so one matmul by R gives both.
        self.col_motion = np.array([np.stack([s[:3], s[3:]], axis=-1)
                                    for s in motion]).reshape(-1, 3, 2)
        self.expand = expand
        support = np.zeros((self.n_links, self.n_columns))
        for i in range(self.n_links):
            ancestors = set()
            k = i
            while k >= 0:
                ancestors.add(k)
                k = self.parent[k]
            support[i] = [link in ancestors for link in links]
        self.support = support
        self.link_columns = [np.nonzero(row)[0] for row in support]
        self.link_expand = [expand[cols] for cols in self.link_columns]


def plane_basis(normal: np.ndarray) -> np.ndarray:
    """
    Return the columns ``[ex, ey, n]`` of the smallest rotation taking z onto ``normal``.

    :param normal: unit normal of a planar joint's plane.
    :return: a 3x3 rotation.
    """
    z = np.array([0.0, 0.0, 1.0])
    axis = np.cross(z, normal)
    s, c = np.linalg.norm(axis), float(np.dot(z, normal))
    if s < 1e-12:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    k = skew(axis / s)
    return np.eye(3) + s * k + (1 - c) * (k @ k)


def _joint_motion(joint, q: np.ndarray) -> np.ndarray:
    """``joint_T_child`` of a floating or planar joint for ``q`` of shape ``(*B, nq)``."""
    iq = joint.idx_q
    motion = np.zeros(q.shape[:-1] + (4, 4))
    motion[..., 3, 3] = 1.0
    if joint.type == 'floating':
        motion[..., :3, :3] = rotation_from_quaternion(q[..., iq + 3:iq + 7])
        motion[..., :3, 3] = q[..., iq:iq + 3]
        return motion
    basis = plane_basis(joint.axis)
    theta = q[..., iq + 2]
    rz = np.zeros(q.shape[:-1] + (3, 3))
    rz[..., 0, 0] = rz[..., 1, 1] = np.cos(theta)
    rz[..., 1, 0] = np.sin(theta)
    rz[..., 0, 1] = -rz[..., 1, 0]
    rz[..., 2, 2] = 1.0
    motion[..., :3, :3] = basis @ rz @ basis.T
    motion[..., :3, 3] = q[..., iq:iq + 1] * basis[:, 0] + q[..., iq + 1:iq + 2] * basis[:, 1]
    return motion


def unit_twists(joint) -> List[np.ndarray]:
    """
    Return the unit twists ``[linear; angular]`` of a joint's velocity entries.

    They are constant in the joint's child frame (Pinocchio's motion subspace).

    :param joint: a revolute, continuous, prismatic, floating or planar joint.
    :return: one 6-vector per entry of ``v`` the joint owns.
    """
    zero = np.zeros(3)
    if joint.type in ('revolute', 'continuous'):
        return [np.concatenate([zero, joint.axis])]
    if joint.type == 'prismatic':
        return [np.concatenate([joint.axis, zero])]
    if joint.type == 'floating':
        return list(np.eye(6))
    basis = plane_basis(joint.axis)
    return [np.concatenate([basis[:, 0], zero]), np.concatenate([basis[:, 1], zero]),
            np.concatenate([zero, basis[:, 2]])]


_NEXT = np.array([1, 2, 0])
_PREV = np.array([2, 0, 1])


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product on the last axis: few numpy calls for small arrays, np.cross for big."""
    if a.size + b.size > 600:
        return np.cross(a, b)
    return a[..., _NEXT] * b[..., _PREV] - a[..., _PREV] * b[..., _NEXT]


def _rotate_last(rot: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """``rot @ vectors`` for batch-last rotations ``(n, 3, 3, B)`` and vectors ``(n, 3)``."""
    out = rot[:, :, 0] * vectors[:, 0, None, None]
    out += rot[:, :, 1] * vectors[:, 1, None, None]
    out += rot[:, :, 2] * vectors[:, 2, None, None]
    return out


def _cross_first(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product of ``(n, 3, B)`` arrays along their second axis."""
    out = np.empty(a.shape)
    out[:, 0] = a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1]
    out[:, 1] = a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2]
    out[:, 2] = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    return out


def _contract(weights: np.ndarray, stack: np.ndarray) -> np.ndarray:
    """Sum ``stack`` over its first axis with ``weights`` (a vector or a matrix of rows)."""
    flat = weights @ stack.reshape(stack.shape[0], -1)
    return flat.reshape(weights.shape[:-1] + stack.shape[1:])


def _readonly(arr: np.ndarray) -> np.ndarray:
    arr.flags.writeable = False
    return arr


class KinematicsState:
    """
    Kinematic quantities of one configuration (or a batch), Pinocchio's ``Data``.

    Immutable: build a new state for a new configuration. Poses are relative to the model's
    root link: ``state.transform(link)`` is ``root_T_link``.
    """

    def __init__(self, model: 'RobotModel', q, v=None, a=None) -> None:
        """
        Compute the link poses for ``q``.

        :param model: the robot model.
        :param q: configuration ``(nq,)`` or batch ``(B, nq)``.
        :param v: velocity ``(nv,)`` or ``(B, nv)`` (optional).
        :param a: acceleration ``(nv,)`` or ``(B, nv)`` (optional; needs ``v``).
        :raises ConfigurationError: for invalid inputs (nothing is computed then).
        """
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
        self.model = model
        self.q = _readonly(q)
        self.v = None if v is None else _readonly(v)
        self.a = None if a is None else _readonly(a)
        self.batch_shape = batch
        self._tables = model.tables
        self._local: Optional[np.ndarray] = None
        # Large batches keep their poses batch-last, (n_links, 4, 4, B): `poses` is a view.
        self._batch_last: Optional[np.ndarray] = None
        if len(batch) == 1 and batch[0] >= BATCH_THRESHOLD:
            self._batch_last = _readonly(self._forward_batch(q))
            poses = self._batch_last.transpose(0, 3, 1, 2)
        else:
            poses = self._forward(q)
        #: ``root_T_link`` of every link, ``(n_links, *B, 4, 4)``.
        self.poses = _readonly(poses)
        self._world_columns: Optional[np.ndarray] = None
        self._twists: Optional[np.ndarray] = None
        self._accelerations: Optional[np.ndarray] = None
        self._com: Optional[np.ndarray] = None
        self._com_last: Optional[np.ndarray] = None

    # -- forward kinematics -----------------------------------------------------------------
    def _forward(self, q: np.ndarray) -> np.ndarray:
        t = self._tables
        batch = q.shape[:-1]
        nb = len(batch)
        qt = q.T  # (nq, *B): joint values index the first axis.
        if nb:
            local = np.empty((t.n_links,) + batch + (4, 4))
            local[:] = t.origin.reshape((t.n_links,) + (1,) * nb + (4, 4))
        else:
            local = t.origin.copy()
        if t.has_revolute or t.has_prismatic:
            value = qt[t.link_src] * t.link_mult.reshape((-1,) + (1,) * nb) + \
                t.link_off.reshape((-1,) + (1,) * nb)
        if t.has_revolute:
            shape = (-1,) + (1,) * nb + (3, 3)
            local[..., :3, :3] += (np.sin(value)[..., None, None] * t.rot_sin.reshape(shape)
                                   + (1 - np.cos(value))[..., None, None]
                                   * t.rot_versine.reshape(shape))
        if t.has_prismatic:
            local[..., :3, 3] += value[..., None] * t.slide.reshape((-1,) + (1,) * nb + (3,))
        for link, joint in t.multi_dof:
            local[link] = t.origin[link] @ _joint_motion(joint, q)
        self._local = _readonly(local)
        world = np.empty(local.shape)
        world[0] = local[0]
        for children, parents in t.levels:
            if nb or not isinstance(children, int):
                world[children] = world[parents] @ local[children]
            else:
                np.matmul(world[parents], local[children], out=world[children])
        return world

    def _forward_batch(self, q: np.ndarray) -> np.ndarray:
        """
        Batched forward kinematics, link by link, batch axis last.

        Each link is its parent's pose times the constant joint origin (one BLAS product over
        the whole batch), then the joint motion: for axes along +-x/y/z a rotation only mixes
        two columns, and a prismatic joint only moves the translation column.
        """
        t = self._tables
        size = q.shape[0]
        frames = np.empty((t.n_links, 4, 4, size))
        frames[:, 3, :3] = 0.0
        frames[:, 3, 3] = 1.0
        frames[0, :3] = np.eye(4)[:3, :, None]
        values = q.T[t.value_src] * t.value_mult + t.value_offset
        cos, sin = np.cos(values), np.sin(values)
        for link, parent, origin_t, kind, data in t.batch_steps:
            pose = frames[link, :3]
            np.matmul(origin_t, frames[parent, :3], out=pose)
            if kind == 'basis':
                row, (i, j) = data
                col_i, col_j = pose[:, i].copy(), pose[:, j]
                pose[:, i] = col_i * cos[row] + col_j * sin[row]
                pose[:, j] = col_j * cos[row] - col_i * sin[row]
            elif kind == 'prismatic':
                row, axis = data
                pose[:, 3] += values[row] * np.tensordot(axis, pose[:, :3], axes=(0, 1))
            elif kind == 'axis':
                row, (proj_t, skew_t) = data
                proj = proj_t @ pose
                turned = skew_t @ pose
                pose[:, :3] = proj[:, :3] + cos[row] * (pose[:, :3] - proj[:, :3]) \
                    + sin[row] * turned[:, :3]
            elif kind != 'fixed':
                motion = _joint_motion(data, q)
                pose[:] = np.einsum('ijb,bjk->ikb', pose.copy(), motion)
        return frames

    @property
    def local_poses(self) -> np.ndarray:
        """``parent_T_link`` of every link (identity for the root), ``(n_links, *B, 4, 4)``."""
        if self._local is None:
            parents = self._tables.parent.copy()
            parents[0] = 0
            local = inverse(self.poses[parents]) @ self.poses
            local[0] = np.eye(4)
            self._local = _readonly(local)
        return self._local

    # -- poses --------------------------------------------------------------------------------
    def transform(self, link: str, relative_to: Optional[str] = None) -> np.ndarray:
        """
        Pose of a link: ``root_T_link``, or ``relative_to_T_link``.

        :param link: the link (frame) whose pose is wanted.
        :param relative_to: the link it is expressed in (default: the root link).
        :return: ``(4, 4)`` or ``(B, 4, 4)``.
        :raises UnknownFrameError: for an unknown link.
        """
        root_T_link = self.poses[self.model.link_index(link)]
        if relative_to is None:
            return root_T_link
        return inverse(self.poses[self.model.link_index(relative_to)]) @ root_T_link

    def position(self, link: str, point: Optional[Sequence[float]] = None) -> np.ndarray:
        """
        Position in the root frame of a link's origin or of a point given in the link.

        :param link: the link.
        :param point: ``link_p_point`` (default: the origin).
        :return: ``root_p_point`` of shape ``(3,)`` or ``(B, 3)``.
        """
        root_T_link = self.poses[self.model.link_index(link)]
        if point is None:
            return root_T_link[..., :3, 3].copy()
        return root_T_link[..., :3, :3] @ np.asarray(point, dtype=float) + root_T_link[..., :3, 3]

    # -- motion columns -----------------------------------------------------------------------
    def world_columns(self) -> np.ndarray:
        """World twist (at the world origin) of every motion column, ``(n_columns, *B, 6)``."""
        if self._world_columns is None:
            self._world_columns = _readonly(self._columns(slice(None), None))
        return self._world_columns

    def _columns(self, which, point: Optional[np.ndarray]) -> np.ndarray:
        """Twists of motion columns ``which`` taken at ``point`` (world origin if None)."""
        t = self._tables
        if self._batch_last is not None:
            return self._columns_batch_last(which, point)
        nb = len(self.batch_shape)
        pose = self.poses[t.col_links[which]]
        both = pose[..., :3, :3] @ t.col_motion[which].reshape((-1,) + (1,) * nb + (3, 2))
        cols = np.empty(both.shape[:-2] + (6,))
        cols[..., 3:] = both[..., 1]
        lever = -pose[..., :3, 3] if point is None else point - pose[..., :3, 3]
        cols[..., :3] = both[..., 0] + _cross(both[..., 1], lever)
        return cols

    def _columns_batch_last(self, which, point: Optional[np.ndarray]) -> np.ndarray:
        """:meth:`_columns` on batch-last poses: elementwise products over the batch axis."""
        t = self._tables
        frames = self._batch_last[t.col_links[which]]
        rot = frames[:, :3, :3]
        motion = t.col_motion[which]
        lin = _rotate_last(rot, motion[..., 0])
        ang = _rotate_last(rot, motion[..., 1])
        lever = -frames[:, :3, 3] if point is None else point.T - frames[:, :3, 3]
        cols = np.empty((len(frames), frames.shape[-1], 6))
        cols[..., :3] = (lin + _cross_first(ang, lever)).transpose(0, 2, 1)
        cols[..., 3:] = ang.transpose(0, 2, 1)
        return cols

    def _point(self, index: int, point) -> np.ndarray:
        pose = self.poses[index]
        if point is None:
            return pose[..., :3, 3]
        p = np.asarray(point, dtype=float)
        if p.shape != (3,) or not np.all(np.isfinite(p)):
            raise ConfigurationError(f'point must be 3 finite numbers, got {point!r}')
        return pose[..., :3, :3] @ p + pose[..., :3, 3]

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
        :param expressed_in: see above.
        :return: ``(6, nv)`` or ``(B, 6, nv)``.
        """
        ref = ExpressedIn.parse(expressed_in)
        index = self.model.link_index(link)
        t = self._tables
        which = t.link_columns[index]
        p = None if ref is ExpressedIn.WORLD else self._point(index, point)
        if self._world_columns is None:
            cols = self._columns(which, p)
        else:
            cols = self._world_columns[which].copy()
            if p is not None:
                cols[..., :3] += _cross(cols[..., 3:], p)
        jac = np.moveaxis(cols, 0, -1)
        if ref is ExpressedIn.LOCAL:
            r_t = np.swapaxes(self.poses[index][..., :3, :3], -1, -2)
            jac = np.concatenate([r_t @ jac[..., :3, :], r_t @ jac[..., 3:, :]], axis=-2)
        return jac @ t.link_expand[index]

    # -- velocities and accelerations ---------------------------------------------------------
    def _column_velocities(self, x: np.ndarray) -> np.ndarray:
        """Per-column joint rates ``(n_columns, *B)`` from a velocity-sized vector."""
        t = self._tables
        return (x @ t.expand.T).T if x.ndim == 2 else t.expand @ x

    def _require_velocity(self) -> None:
        if self.v is None:
            raise ConfigurationError('this state has no velocity: pass v to '
                                     'forward_kinematics(q, v)')

    def spatial_velocities(self) -> np.ndarray:
        """World twists at the world origin of every link, ``(n_links, *B, 6)``."""
        self._require_velocity()
        if self._twists is None:
            rates = self._column_velocities(self.v)
            contrib = self.world_columns() * rates[..., None]
            self._twists = _readonly(_contract(self._tables.support, contrib))
        return self._twists

    def spatial_accelerations(self) -> np.ndarray:
        """Spatial accelerations (derivative of the world twists), ``(n_links, *B, 6)``."""
        if self.a is None:
            raise ConfigurationError('this state has no acceleration: pass a to '
                                     'forward_kinematics(q, v, a)')
        if self._accelerations is None:
            t = self._tables
            cols = self.world_columns()
            twist = self.spatial_velocities()[t.col_links]
            w, vel = twist[..., 3:], twist[..., :3]
            dcols = np.empty(cols.shape)
            dcols[..., :3] = _cross(w, cols[..., :3]) + _cross(vel, cols[..., 3:])
            dcols[..., 3:] = _cross(w, cols[..., 3:])
            contrib = cols * self._column_velocities(self.a)[..., None] + \
                dcols * self._column_velocities(self.v)[..., None]
            self._accelerations = _readonly(_contract(t.support, contrib))
        return self._accelerations

    def _express(self, index: int, spatial: np.ndarray, point, ref: ExpressedIn) -> np.ndarray:
        if ref is ExpressedIn.WORLD:
            return spatial.copy()
        out = spatial.copy()
        out[..., :3] += _cross(spatial[..., 3:], self._point(index, point))
        if ref is ExpressedIn.LOCAL:
            r_t = np.swapaxes(self.poses[index][..., :3, :3], -1, -2)
            out[..., :3] = (r_t @ out[..., :3, None])[..., 0]
            out[..., 3:] = (r_t @ out[..., 3:, None])[..., 0]
        return out

    def velocity(self, link: str, point: Optional[Sequence[float]] = None,
                 expressed_in: Union[ExpressedIn, str] = ExpressedIn.LOCAL_WORLD_ALIGNED
                 ) -> np.ndarray:
        """
        Twist ``[linear; angular]`` of a link (or a point in it), as ``jacobian @ v``.

        :param link: the link.
        :param point: ``link_p_point`` (default: the link origin).
        :param expressed_in: see :meth:`jacobian`.
        :return: ``(6,)`` or ``(B, 6)``.
        """
        index = self.model.link_index(link)
        return self._express(index, self.spatial_velocities()[index], point,
                             ExpressedIn.parse(expressed_in))

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
        """
        ref = ExpressedIn.parse(expressed_in)
        index = self.model.link_index(link)
        acc = self._express(index, self.spatial_accelerations()[index], point, ref)
        if classical:
            if ref is ExpressedIn.WORLD:
                raise ConfigurationError('a classical acceleration is taken at a point: use '
                                         'LOCAL or LOCAL_WORLD_ALIGNED')
            twist = self._express(index, self.spatial_velocities()[index], point, ref)
            acc[..., :3] += _cross(twist[..., 3:], twist[..., :3])
        return acc

    # -- center of mass -----------------------------------------------------------------------
    def link_centers_of_mass(self) -> np.ndarray:
        """Center of mass of every link in the root frame, ``(n_links, *B, 3)``."""
        if self._com is None and self._batch_last is not None:
            frames = self._batch_last
            centers = _rotate_last(frames[:, :3, :3], self._tables.link_p_com) + frames[:, :3, 3]
            self._com_last = _readonly(centers)
            self._com = centers.transpose(0, 2, 1)
        if self._com is None:
            t = self._tables
            nb = len(self.batch_shape)
            local = t.link_p_com.reshape((-1,) + (1,) * nb + (3, 1))
            self._com = _readonly((self.poses[..., :3, :3] @ local)[..., 0]
                                  + self.poses[..., :3, 3])
        return self._com

    def center_of_mass(self) -> np.ndarray:
        """
        Center of mass of the robot in the root frame, ``(3,)`` or ``(B, 3)``.

        :raises ConfigurationError: if the robot has no mass.
        """
        masses = self._tables.mass
        total = self._total_mass()
        centers = self.link_centers_of_mass()
        if self._com_last is not None:  # batch-last copy: contiguous, sums faster
            return _contract(masses, self._com_last).T / total
        return _contract(masses, centers) / total

    def _total_mass(self) -> float:
        total = self.model.total_mass
        if total <= 0:
            raise ConfigurationError(f"robot '{self.model.name}' has no mass: its center of "
                                     'mass is undefined')
        return total

    def center_of_mass_velocity(self) -> np.ndarray:
        """Velocity of the center of mass in the root frame, ``(3,)`` or ``(B, 3)``."""
        masses = self._tables.mass
        twists = self.spatial_velocities()
        point_vel = twists[..., :3] + _cross(twists[..., 3:], self.link_centers_of_mass())
        return _contract(masses, point_vel) / self._total_mass()

    def centroidal_momentum(self) -> np.ndarray:
        """
        Momentum ``[linear; angular]`` about the center of mass, root-aligned axes.

        The angular part is the angular momentum about the CoM (Pinocchio's ``hg``).

        :return: ``(6,)`` or ``(B, 6)``.
        """
        com_tables = self._tables
        masses = com_tables.mass
        twists = self.spatial_velocities()
        centers = self.link_centers_of_mass()
        w = twists[..., 3:]
        point_vel = twists[..., :3] + _cross(w, centers)
        rot = self.poses[..., :3, :3]
        inertia_w = rot @ com_tables.inertia.reshape((-1,) + (1,) * len(self.batch_shape)
                                                     + (3, 3)) @ np.swapaxes(rot, -1, -2)
        spin = (inertia_w @ w[..., None])[..., 0]
        com = _contract(masses, centers) / self._total_mass()
        orbital = _cross(centers - com, point_vel) * masses.reshape((-1,) + (1,) * (
            len(self.batch_shape) + 1))
        out = np.empty(self.batch_shape + (6,))
        out[..., :3] = _contract(masses, point_vel)
        out[..., 3:] = (spin + orbital).sum(axis=0)
        return out

    def angular_momentum(self) -> np.ndarray:
        """Angular momentum about the center of mass, root-aligned axes, ``(3,)``/``(B, 3)``."""
        return self.centroidal_momentum()[..., 3:]

    def center_of_mass_jacobian(self) -> np.ndarray:
        """Jacobian of the center of mass, ``(3, nv)`` or ``(B, 3, nv)``: ``com_dot = J v``."""
        t = self._tables
        masses = self._tables.mass
        cols = self.world_columns()
        centers = self.link_centers_of_mass()
        sub_mass = t.support.T @ masses
        sub_moment = _contract(t.support.T * masses, centers)
        jc = (cols[..., :3] * sub_mass.reshape((-1,) + (1,) * (len(self.batch_shape) + 1))
              + _cross(cols[..., 3:], sub_moment)) / self._total_mass()
        return np.moveaxis(jc, 0, -1) @ t.expand
