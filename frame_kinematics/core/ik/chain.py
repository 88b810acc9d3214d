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
The reduced chain evaluator: tip poses and Jacobians of the active joints only.

The joints that move with the active joints (:class:`~.selection.JointSelection`) become the
*nodes* of a small tree. Everything between two nodes (fixed joints, held joints at their
value) is folded into the constant origin of the lower node, and everything between a tip
and its nearest node into a constant tip transform. The nodes are the rows of a
:class:`~frame_kinematics.core.joints.JointKernel` on the reduced configuration (a mimic row
reads its master's reduced entry), so the joint motion and the motion columns come from the
kernel, and the node poses and the tip columns from the model's own forward kinematics
(:func:`~frame_kinematics.core.kinematics.forward.compose_down`,
:func:`~frame_kinematics.core.kinematics.columns.motion_columns`).
"""

from typing import Optional, Sequence, TYPE_CHECKING, Union

import numpy as np

from .selection import JointSelection, Tips
from ..backend import executor
from ..checks import as_float_array, check_finite
from ..errors import ConfigurationError
from ..joints import frozen, JointKernel
from ..kinematics.columns import motion_columns
from ..kinematics.forward import compose_down
from ..topology import Topology

if TYPE_CHECKING:  # pragma: no cover
    from ..executor import Executor
    from ..model import RobotModel


def _plain_floats(x) -> bool:
    return type(x) is np.ndarray and x.dtype == np.float64


class ChainEvaluator:
    """
    Tip poses and Jacobians of the active joints moving a set of tip links.

    The evaluator works on the *reduced* configuration: the coordinates of
    :attr:`active_joints`, in model order (:meth:`reduce` and :meth:`expand` convert).
    Joints that are not active keep the values they have in :attr:`q_fixed`. It never
    changes after construction, so threads may share it.

    :ivar model: the robot model.
    :ivar selection: the tips and their active and held joints.
    :ivar tips: the tip links.
    :ivar active_joints: the joints that move (by default the actuated joints on the tips'
        paths and the masters of the mimic joints on them).
    :ivar layout: layout of the reduced configuration.
    :ivar q_index: indices in the full ``q`` of the reduced configuration's entries.
    :ivar v_index: indices in the full ``v`` of the reduced velocity's entries.
    :ivar held_q_index: indices in ``q`` of the held coordinates that move the tips.
    :ivar q_fixed: the configuration the held joints are taken from (read-only copy).
    :ivar kernel: the joint kernel of the nodes (one row per node, on the reduced ``q``).
    :ivar n_nodes: number of nodes.
    :ivar node_parent: ``(n_nodes,)`` node above every node (-1: the root).
    :ivar tip_parent: ``(n_tips,)`` node above every tip (-1: the root).
    :ivar tip_constant: ``(n_tips, 4, 4)`` constant ``node_T_tip`` (``root_T_tip`` without
        a node).
    """

    def __init__(self, model: 'RobotModel', tips: Tips,
                 active_joints: Optional[Sequence[str]] = None, q_fixed=None,
                 backend: Union[None, str, 'Executor'] = None) -> None:
        """
        Compile the chains from the root to ``tips``.

        :param model: the robot model.
        :param tips: a tip link name or a list of them.
        :param active_joints: names of the joints allowed to move (default: every joint
            moving the tips). Joints that do not move the tips are ignored, with a log line.
        :param q_fixed: configuration the other joints are held at (default: neutral;
            copied).
        :param backend: what solves on the chains (see
            :func:`~frame_kinematics.core.backend.executor`; None: the model's backend when it
            is a :class:`~frame_kinematics.core.robot.Robot`, else the process default).
        :raises UnknownFrameError: for an unknown link or joint.
        :raises ConfigurationError: for an invalid ``q_fixed`` or a mimic/fixed joint named
            as active.
        :raises BackendError: for an invalid ``backend``.
        """
        self._build(JointSelection(model, tips, active_joints), q_fixed, backend)

    @classmethod
    def from_selection(cls, selection: JointSelection, q_fixed=None,
                       backend: Union[None, str, 'Executor'] = None) -> 'ChainEvaluator':
        """
        Compile the chains of a joint selection with the held joints at ``q_fixed``.

        :param selection: the tips and their active joints.
        :param q_fixed: configuration of the held joints (default: neutral; copied).
        :param backend: what solves on the chains (see :meth:`__init__`).
        :return: the evaluator.
        :raises BackendError: for an invalid ``backend``.
        """
        evaluator = cls.__new__(cls)
        evaluator._build(selection, q_fixed, backend)
        return evaluator

    def _build(self, selection: JointSelection, q_fixed, backend) -> None:
        model = selection.model
        chosen = executor(model, backend)
        q = model.neutral_configuration() if q_fixed is None else \
            model.check_configuration(q_fixed, 'q_fixed')
        if q.ndim != 1:
            raise ConfigurationError(f'q_fixed must have shape ({model.nq},), got {q.shape}')
        self.model = model
        self.selection = selection
        self.tips = selection.tips
        self.active_joints = selection.active_joints
        self.layout = selection.layout
        self.q_index = selection.q_index
        self.v_index = selection.v_index
        self.held_q_index = selection.held_q_index
        self.nq = selection.nq
        self.nv = selection.nv
        self.q_fixed = frozen(q)
        self._q_names = tuple(model.configuration_names[i] for i in self.q_index)
        local = model.kernel.local_transforms(q)
        nodes = selection.nodes
        self.n_nodes = len(nodes)
        parent_body = model.topology.parent
        node_of_body = {model.link_index(node[0].child): k for k, node in enumerate(nodes)}
        body_of_node = list(node_of_body)

        def node_above(body: int) -> int:
            while body > 0 and body not in node_of_body:
                body = int(parent_body[body])
            return node_of_body.get(body, -1)

        # top_T_body of an ancestor top: the local transforms between them, multiplied (never
        # through the root: a far root_T_top, 1e16 m away, would cancel the offsets).
        def relative(top: int, body: int) -> np.ndarray:
            top_T_body = np.eye(4)
            while body != top:
                top_T_body = local[body] @ top_T_body
                body = int(parent_body[body])
            return top_T_body

        parents = [node_above(int(parent_body[b])) for b in body_of_node]
        tip_parents = [node_above(b) for b in selection.tip_bodies]
        # Body 0, the root, is the frame above a chain without a node.
        above = [body_of_node[p] if p >= 0 else 0 for p in parents + tip_parents]
        ends = [int(parent_body[b]) for b in body_of_node] + list(selection.tip_bodies)
        constants = np.array([relative(top, end) for top, end in zip(above, ends)]
                             ).reshape(-1, 4, 4)
        constants[:self.n_nodes] = constants[:self.n_nodes] @ np.array(
            [n[0].parent_T_joint for n in nodes]).reshape(-1, 4, 4)
        self.kernel = JointKernel([n[0].type for n in nodes],
                                  np.array([n[0].axis for n in nodes]).reshape(-1, 3),
                                  constants[:self.n_nodes], [n[1] for n in nodes],
                                  [n[2] for n in nodes], [n[3] for n in nodes],
                                  [n[4] for n in nodes])
        self._parent = tuple(parents)
        # The node tree under a virtual root (row 0): its levels below the nodes without a
        # node above them, in node indices.
        tree = Topology(np.concatenate([[-1], np.asarray(parents, dtype=np.int64) + 1]))
        self._levels = tuple((children - 1, above_node - 1)
                             for children, above_node in tree.levels[1:])
        self._tip_parent = tuple(tip_parents)
        self._tip_constant = frozen(constants[self.n_nodes:])
        self.node_parent = frozen(np.array(parents, dtype=np.int64).reshape(-1))
        self.tip_parent = frozen(np.array(tip_parents, dtype=np.int64))
        self.tip_constant = self._tip_constant
        self._compile_columns()
        # The tables of the compiled solve on the numba backend, else None: private, as its
        # kernels check nothing the solver did not.
        self._compiled = None if chosen is None else chosen.compiled_chain(self)

    def _compile_columns(self) -> None:
        kernel = self.kernel
        n_cols = kernel.n_columns
        self._identity = bool(kernel.columns_plain and n_cols == self.nv == self.n_nodes
                              and np.array_equal(kernel.column_row, np.arange(n_cols))
                              and np.array_equal(kernel.column_v, np.arange(n_cols)))
        tip_columns = []
        for parent in self._tip_parent:
            ancestors = np.zeros(self.n_nodes, dtype=bool)
            while parent >= 0:
                ancestors[parent] = True
                parent = self._parent[parent]
            chosen = np.nonzero(ancestors[kernel.column_row])[0]
            v = kernel.column_v[chosen]
            plain = len(set(v.tolist())) == len(v) and bool(np.all(
                kernel.column_multiplier[chosen] == 1.0))
            tip_columns.append((None if len(chosen) == n_cols else frozen(chosen), plain))
        self._tip_columns = tuple(tip_columns)

    # -- conversions -------------------------------------------------------------------------
    def reduce(self, q) -> np.ndarray:
        """
        Return the reduced configuration (active joints only) of full configurations.

        :param q: ``(nq,)`` or ``(B, nq)`` of the model.
        :return: ``(n,)`` or ``(B, n)`` (a new array).
        :raises ConfigurationError: for a ``q`` that is not a valid configuration of the model
            (see :meth:`~frame_kinematics.core.model.RobotModel.check_configuration`).
        """
        return self._reduce(self.model.check_configuration(q))

    def _reduce(self, q: np.ndarray) -> np.ndarray:
        # reduce() without its checks: q is a valid configuration (or batch) of the model.
        return q[..., self.q_index]

    def expand(self, q_reduced: np.ndarray) -> np.ndarray:
        """
        Full configurations: :attr:`q_fixed` with the active entries replaced.

        :param q_reduced: ``(n,)`` or ``(B, n)``.
        :return: ``(nq,)`` or ``(B, nq)``.
        :raises ConfigurationError: for a wrong type or shape, NaN, inf, a magnitude above
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE` or a non-unit quaternion.
        """
        q_reduced = self._check_reduced(q_reduced)
        out = np.empty(q_reduced.shape[:-1] + (self.model.nq,))
        out[...] = self.q_fixed
        out[..., self.q_index] = q_reduced
        return out

    def _check_reduced(self, q_reduced) -> np.ndarray:
        # A float array is checked in place (never written: the checks copy to normalise).
        name = 'reduced configuration'
        arr = q_reduced if _plain_floats(q_reduced) else as_float_array(q_reduced, name)
        if arr.ndim not in (1, 2) or arr.shape[-1] != self.nq:
            raise ConfigurationError(f'{name} must have shape ({self.nq},) or (N, {self.nq}), '
                                     f'got {arr.shape}')
        check_finite(arr, name, self._q_names)
        return self.layout.normalize_quaternions(arr, name)

    def moves(self, link: str) -> bool:
        """
        Whether an active joint moves ``link`` relative to the root (directly or by a mimic).

        :param link: a link name.
        :return: True if it does.
        """
        return self.selection.moves(link)

    # -- evaluation --------------------------------------------------------------------------
    def forward(self, q_reduced: np.ndarray) -> np.ndarray:
        """
        Poses of the nodes, then of the tips, for a batch of reduced configurations.

        :param q_reduced: ``(N, n)``.
        :return: ``(n_nodes + n_tips, N, 4, 4)``: ``root_T_node`` then ``root_T_tip``.
        :raises ConfigurationError: for a wrong type or shape, NaN, inf, a magnitude above
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE` or a non-unit quaternion.
        """
        q_reduced = self._check_reduced(q_reduced)
        if q_reduced.ndim != 2:
            raise ConfigurationError(f'reduced configuration must have shape (N, {self.nq}), '
                                     f'got {q_reduced.shape}')
        return self._forward(q_reduced)

    def _forward(self, q_reduced: np.ndarray) -> np.ndarray:
        # forward() without its checks: q_reduced is a valid (N, n) float array.
        n_nodes = self.n_nodes
        poses = np.empty((n_nodes + len(self.tips), q_reduced.shape[0], 4, 4))
        self.kernel.local_transforms(q_reduced, out=poses[:n_nodes])
        compose_down(poses, self._levels, poses)
        for t, parent in enumerate(self._tip_parent):
            poses[n_nodes + t] = self._tip_constant[t] if parent < 0 else \
                poses[parent] @ self._tip_constant[t]
        return poses

    def jacobian(self, poses: np.ndarray) -> np.ndarray:
        """
        Stacked ``LOCAL_WORLD_ALIGNED`` Jacobians of the tips w.r.t. the reduced velocity.

        Each tip's columns are the model's motion columns
        (:func:`~frame_kinematics.core.kinematics.columns.motion_columns`) at its origin.

        :param poses: node and tip poses from :meth:`forward`, ``(n_nodes + n_tips, N, 4,
            4)``.
        :return: ``(N, 6 * n_tips, nv)``, rows ``[linear; angular]`` of each tip in turn.
        :raises ConfigurationError: for poses that are not an array of that shape of finite
            real numbers.
        """
        arr = poses if _plain_floats(poses) else as_float_array(poses, 'poses')
        count = self.n_nodes + len(self.tips)
        if arr.ndim != 4 or arr.shape[0] != count or arr.shape[2:] != (4, 4):
            raise ConfigurationError(f'poses must have shape ({count}, N, 4, 4) (from '
                                     f'forward()), got {arr.shape}')
        return self._jacobian(check_finite(arr, 'poses', bound=np.finfo(float).max))

    def _jacobian(self, poses: np.ndarray) -> np.ndarray:
        # jacobian() without its checks: poses come from _forward().
        world, tips = poses[:self.n_nodes], poses[self.n_nodes:]
        kernel = self.kernel
        node_pose = world if self._identity else world[kernel.column_row]
        if len(self.tips) == 1 and self._identity and self._tip_columns[0][0] is None:
            return motion_columns(node_pose, kernel.column_motion,
                                  tips[0, :, :3, 3]).transpose(1, 2, 0)
        out = np.zeros((world.shape[1], 6 * len(self.tips), self.nv))
        for t, (chosen, plain) in enumerate(self._tip_columns):
            cols = slice(None) if chosen is None else chosen
            block = motion_columns(node_pose[cols], kernel.column_motion[cols],
                                   tips[t, :, :3, 3])
            rows = out[:, 6 * t:6 * t + 6]
            v = kernel.column_v[cols]
            if plain:
                rows[..., v] = block.transpose(1, 2, 0)
            else:
                factor = kernel.column_multiplier[cols]
                np.add.at(rows, (slice(None), slice(None), v),
                          (block * factor[:, None, None]).transpose(1, 2, 0))
        return out

    def tip_transforms(self, q) -> np.ndarray:
        """
        ``root_T_tip`` of every tip for full configurations (a convenience for checks).

        :param q: ``(nq,)`` or ``(B, nq)`` (inactive entries are ignored: see ``q_fixed``).
        :return: ``(n_tips, 4, 4)`` or ``(n_tips, B, 4, 4)``.
        :raises ConfigurationError: for a ``q`` that is not a valid configuration of the model.
        """
        q = self.model.check_configuration(q)
        tips = self._forward(np.atleast_2d(self._reduce(q)))[self.n_nodes:]
        return tips[:, 0] if q.ndim == 1 else tips
