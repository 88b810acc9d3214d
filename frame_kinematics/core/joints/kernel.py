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
The joint kernel: the joints of a tree as flat arrays, and their motion.

A :class:`JointKernel` holds one row per body of a tree: the joint that carries the body
(its type, axis, constant origin ``parent_T_joint``, where its value comes from in ``q``,
and which velocity entries its motion columns feed). Forward kinematics, Jacobians, the
center of mass, inverse kinematics and the bridge's TF all evaluate joints through it; no
other module computes a joint's motion.

Row ``i`` gives ``parent_T_body_i = parent_T_joint_i @ joint_T_child_i(q)``. A one-dof
joint's value is ``q[q_index] * multiplier + offset`` (a mimic joint reads its master's entry;
a plain joint has multiplier 1 and offset 0); multi-dof joints read ``q[q_index:q_index+nq]``.

The tables (:attr:`JointKernel.type_code`, :attr:`~JointKernel.axis`,
:attr:`~JointKernel.origin`, :attr:`~JointKernel.q_index`, ...) are read-only numpy arrays of
plain dtypes, laid out so that a compiled backend can read them as they are.
"""

from types import MappingProxyType
from typing import Optional, Sequence, Tuple

import numpy as np

from .joint_type import JointType
from ..spatial import quaternion_from_rotation, skew

#: Integer code of every joint type in :attr:`JointKernel.type_code`.
TYPE_CODES = MappingProxyType({jtype: code for code, jtype in enumerate(JointType)})


def frozen(array) -> np.ndarray:
    """
    Return a read-only copy of ``array`` that no view can make writable again.

    :param array: array-like.
    :return: the copy (backed by immutable bytes).
    """
    arr = np.ascontiguousarray(array)
    return np.frombuffer(arr.tobytes(), dtype=arr.dtype).reshape(arr.shape)


def principal_axis(axis: np.ndarray) -> int:
    """
    Return ``k`` when ``axis`` is exactly ``+e_k`` or ``-e_k``, else -1.

    Exactly: one component is +-1 and the two others are zero, bit for bit. An axis that is
    principal up to float noise (``0 -1 -4.37114e-08``, as float32 exports write) is not: a
    rotation about it is composed in full, so that no backend rotates about a neighbouring
    axis.

    :param axis: a unit axis ``(3,)``.
    :return: 0, 1, 2 or -1.
    """
    nonzero = np.flatnonzero(axis)
    if len(nonzero) == 1 and abs(axis[nonzero[0]]) == 1.0:
        return int(nonzero[0])
    return -1


class JointKernel:
    """
    Flat tables of the joints of a tree (one row per body) and their evaluation.

    :ivar types: the :class:`JointType` of every row.
    :ivar type_code: ``(n,)`` int8 codes of :data:`TYPE_CODES`.
    :ivar axis: ``(n, 3)`` unit axes in the joint frame.
    :ivar origin: ``(n, 4, 4)`` constant ``parent_T_joint``.
    :ivar q_index: ``(n,)`` first configuration entry read (-1 for fixed rows).
    :ivar multiplier: ``(n,)`` factor on a one-dof value (mimic multiplier, else 1).
    :ivar offset: ``(n,)`` offset of a one-dof value (mimic offset, else 0).
    :ivar column_row: ``(n_columns,)`` row of every motion column.
    :ivar column_v: ``(n_columns,)`` velocity entry a column feeds (a mimic feeds its master).
    :ivar column_multiplier: ``(n_columns,)`` factor of that entry (mimic multiplier, else 1).
    :ivar column_twist: ``(n_columns, 6)`` unit twist of the column in the body frame.
    :ivar principal_axis: ``(n,)`` int64: ``k`` when a rotating row's axis is exactly
        ``+-e_k`` (see :func:`principal_axis`), else -1. Every backend reads this one decision.
    """

    def __init__(self, types: Sequence[JointType], axis, origin, q_index, v_index,
                 multiplier, offset) -> None:
        """
        Build the tables.

        :param types: one :class:`JointType` per row.
        :param axis: ``(n, 3)`` unit axes.
        :param origin: ``(n, 4, 4)`` joint origins in their parent body.
        :param q_index: ``(n,)`` first configuration entry of each row (-1: none).
        :param v_index: ``(n,)`` first velocity entry of each row (-1: none).
        :param multiplier: ``(n,)`` mimic multipliers (1 for plain joints).
        :param offset: ``(n,)`` mimic offsets (0 for plain joints).
        """
        n = len(types)
        self.types: Tuple[JointType, ...] = tuple(types)
        self.n_rows = n
        self.type_code = frozen(np.array([TYPE_CODES[t] for t in types], dtype=np.int8))
        self.axis = frozen(np.asarray(axis, dtype=float).reshape(n, 3))
        self.origin = frozen(np.asarray(origin, dtype=float).reshape(n, 4, 4))
        self.q_index = frozen(np.asarray(q_index, dtype=np.int64).reshape(n))
        self.multiplier = frozen(np.asarray(multiplier, dtype=float).reshape(n))
        self.offset = frozen(np.asarray(offset, dtype=float).reshape(n))
        v_index = np.asarray(v_index, dtype=np.int64).reshape(n)
        self.principal_axis = frozen(np.array(
            [principal_axis(self.axis[i]) if t.rotates else -1 for i, t in enumerate(types)],
            dtype=np.int64).reshape(n))
        self._group_rows()
        self._columns(v_index)
        self._batch_plan()

    # -- construction ---------------------------------------------------------------------------
    def _group_rows(self) -> None:
        types = self.types
        self.sliding = frozen(np.array([i for i, t in enumerate(types)
                                        if t is JointType.PRISMATIC], dtype=np.int64))
        self.one_dof = frozen(np.array([i for i, t in enumerate(types) if t.one_dof],
                                       dtype=np.int64))
        #: Rows of floating and planar joints (evaluated one by one).
        self.multi_dof: Tuple[int, ...] = tuple(i for i, t in enumerate(types)
                                                if t.moves and not t.one_dof)
        # Per row: value = q[value_src] * value_mult + value_offset (zero for rows without one
        # dof), parent_T_body rotation = origin_R + sin(value) R K + (1 - cos(value)) R K K
        # and translation = origin_p + value slide (zero terms where they do not apply):
        # dense over the rows, so that one configuration costs a few numpy calls.
        one = np.array([t.one_dof for t in types], dtype=bool)
        self._value_src = np.where(one, self.q_index, 0)
        self._value_mult = np.where(one, self.multiplier, 0.0)
        self._value_offset = np.where(one, self.offset, 0.0)
        rotates = np.array([t.rotates for t in types], dtype=bool)
        k = skew(self.axis) * rotates[:, None, None]
        rot = self.origin[:, :3, :3]
        #: ``[R, R K, R K K]`` flattened per row, for :meth:`local_transforms`.
        self._rot_stack = np.stack([rot, rot @ k, rot @ k @ k], axis=1).reshape(-1, 3, 9)
        self._slide = np.einsum('nij,nj->ni', rot, self.axis) * np.array(
            [t is JointType.PRISMATIC for t in types], dtype=float)[:, None]
        self._has_rotation = bool(np.any(rotates))
        self._has_slide = bool(len(self.sliding))
        #: ``origin`` transposed, for products with batch-last poses.
        self.origin_t = frozen(self.origin.transpose(0, 2, 1))

    def _columns(self, v_index: np.ndarray) -> None:
        rows, cols_v, mults, twists = [], [], [], []
        for i, jtype in enumerate(self.types):
            if not jtype.moves:
                continue
            motion = jtype.motion_subspace(self.axis[i])
            for k in range(jtype.nv):
                rows.append(i)
                cols_v.append(v_index[i] + k)
                mults.append(self.multiplier[i])
                twists.append(motion[:, k])
        self.column_row = frozen(np.array(rows, dtype=np.int64))
        self.column_v = frozen(np.array(cols_v, dtype=np.int64))
        self.column_multiplier = frozen(np.array(mults, dtype=float))
        self.column_twist = frozen(np.array(twists, dtype=float).reshape(-1, 6))
        self.n_columns = len(rows)
        #: ``(n_columns, 3, 2)``: the columns ``[S_lin, S_ang]``, so one product by a rotation
        #: turns both.
        self.column_motion = frozen(np.stack([self.column_twist[:, :3],
                                              self.column_twist[:, 3:]], axis=-1))
        counts = np.bincount(self.column_v, minlength=1) if rows else np.zeros(1, dtype=int)
        #: Whether another column feeds the same velocity entry (a mimic and its master).
        self.column_shared = frozen(counts[self.column_v] > 1 if rows
                                    else np.zeros(0, dtype=bool))
        #: Whether every velocity entry is fed by exactly one column with factor 1.
        self.columns_plain = bool(not np.any(self.column_shared)
                                  and np.all(self.column_multiplier == 1.0))

    def _batch_plan(self) -> None:
        """Per-row steps of :meth:`move_batch_last` (axis-aligned rotations mix two columns)."""
        plan = []
        sign = np.ones(self.n_rows)
        for i, jtype in enumerate(self.types):
            axis = self.axis[i]
            if jtype.rotates:
                k = int(self.principal_axis[i])
                if k >= 0:
                    sign[i] = np.sign(axis[k])
                    plan.append(('basis', ((k + 1) % 3, (k + 2) % 3)))
                else:
                    plan.append(('axis', (np.outer(axis, axis), skew(axis))))
            elif jtype is JointType.PRISMATIC:
                plan.append(('slide', axis))
            elif jtype.moves:
                plan.append(('multi', None))
            else:
                plan.append(('fixed', None))
        # Each step also carries the row's position among the one-dof rows (its value's row).
        position = {row: k for k, row in enumerate(self.one_dof.tolist())}
        self._plan = tuple(step + (position.get(i, -1),) for i, step in enumerate(plan))
        #: Whether each row moves (the others are their origin alone).
        self.moves = tuple(t.moves for t in self.types)
        # Signed values: a rotation about -x/-y/-z is one about +x/+y/+z by minus the angle.
        self._batch_mult = self._value_mult * sign
        self._batch_offset = self._value_offset * sign

    # -- joint values ---------------------------------------------------------------------------
    def joint_transform(self, row: int, q: np.ndarray) -> np.ndarray:
        """
        ``joint_T_child`` of one row (batched).

        :param row: the row.
        :param q: ``(*B, nq)``.
        :return: ``(*B, 4, 4)``.
        """
        jtype = self.types[row]
        start = int(self.q_index[row])
        if jtype.one_dof:
            coords = q[..., start:start + 1] * self.multiplier[row] + self.offset[row]
        else:
            coords = q[..., max(start, 0):max(start, 0) + jtype.nq]
        return jtype.transform(self.axis[row], coords)

    # -- evaluation ---------------------------------------------------------------------------
    def local_transforms(self, q: np.ndarray, out: Optional[np.ndarray] = None) -> np.ndarray:
        """
        ``parent_T_body`` of every row.

        The rotation of a row is ``R + sin(v) R K + (1 - cos(v)) R K K`` (origin ``R``, axis
        ``K`` as a cross-product matrix): one product ``[1, sin v, 1 - cos v] @ [R, R K, R K K]``
        per row over the batch (one configuration is a batch of one).

        :param q: ``(nq,)`` or ``(B, nq)`` (validated by the caller).
        :param out: for a batch, a ``(n, B, 4, 4)`` array to write into (default: a new one).
        :return: ``(n, 4, 4)`` or ``(n, B, 4, 4)``.
        """
        n = self.n_rows
        batch = q[None] if q.ndim == 1 else q
        count = batch.shape[0]
        local = np.empty((n, count, 4, 4)) if out is None else out
        local[:] = self.origin[:, None]
        if self._has_rotation or self._has_slide:
            value = batch.T[self._value_src] * self._value_mult[:, None] + \
                self._value_offset[:, None]
        if self._has_rotation:
            coef = np.empty((n, count, 3))
            coef[..., 0] = 1.0
            np.sin(value, out=coef[..., 1])
            coef[..., 2] = 1.0 - np.cos(value)
            local[..., :3, :3] = (coef @ self._rot_stack).reshape(n, count, 3, 3)
        if self._has_slide:  # dense over the rows: one product, zero where a row does not slide
            local[..., :3, 3] += value[..., None] * self._slide[:, None]
        for row in self.multi_dof:
            local[row] = self.origin[row] @ self.joint_transform(row, batch)
        return local[:, 0] if q.ndim == 1 else local

    def prepare_batch_last(self, q: np.ndarray) -> Tuple[np.ndarray, ...]:
        """
        Joint values of a batch for :meth:`move_batch_last`, every row at once.

        :param q: ``(B, nq)`` validated configurations.
        :return: an opaque tuple (values, their cosines and sines, ``q`` transposed).
        """
        q_t = q.T
        rows = self.one_dof
        value = q_t[self.q_index[rows]] * self._batch_mult[rows, None] + \
            self._batch_offset[rows, None]
        return value, np.cos(value), np.sin(value), q_t

    def move_batch_last(self, row: int, pose: np.ndarray, prepared: Tuple[np.ndarray, ...]
                        ) -> None:
        """
        Right-multiply batch-last poses by a row's ``joint_T_child``, in place.

        ``pose`` holds ``world_T_joint`` as ``(3, 4, B)`` (the rows of the top of the
        matrices, batch last); on return it holds ``world_T_body``. For axes along
        ``+-x/y/z`` the rotation only mixes two columns, a prismatic joint only moves the
        translation column.

        :param row: the row.
        :param pose: ``(3, 4, B)``, modified in place.
        :param prepared: :meth:`prepare_batch_last` of the batch.
        """
        kind, data, at = self._plan[row]
        value, cos, sin, q_t = prepared
        if kind == 'basis':
            i, j = data
            col_i, col_j = pose[:, i].copy(), pose[:, j]
            pose[:, i] = col_i * cos[at] + col_j * sin[at]
            pose[:, j] = col_j * cos[at] - col_i * sin[at]
        elif kind == 'slide':
            pose[:, 3] += value[at] * np.tensordot(data, pose[:, :3], axes=(0, 1))
        elif kind == 'axis':
            proj, k = data
            rot = pose[:, :3]
            along = np.einsum('ikb,kj->ijb', rot, proj)
            turned = np.einsum('ikb,kj->ijb', rot, k)
            pose[:, :3] = along + cos[at] * (rot - along) + sin[at] * turned
        elif kind == 'multi':
            motion = self.joint_transform(row, q_t.T)
            pose[:] = np.einsum('ijb,bjk->ikb', pose.copy(), motion)

    def local_tf(self, q: np.ndarray, rows: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """
        ``parent_T_body`` of some rows as translations and unit quaternions (for TF).

        The rows' :meth:`local_transforms`, their rotations turned into quaternions by
        :func:`~frame_kinematics.core.spatial.quaternion_from_rotation`.

        :param q: ``(nq,)`` validated configuration.
        :param rows: the rows, ``(m,)`` ints.
        :return: ``(translations (m, 3), quaternions (m, 4) [x, y, z, w])``, new arrays.
        """
        local = self.local_transforms(q)[np.asarray(rows, dtype=np.int64)]
        return local[:, :3, 3], quaternion_from_rotation(local[:, :3, :3])
