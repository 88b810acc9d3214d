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
Inverse position kinematics: vectorised Levenberg-Marquardt with parallel random restarts.

Algorithm
---------
:class:`ChainEvaluator` precompiles the part of the tree that moves the tips: the active
joints on the paths from the root to the tips become *nodes*; everything between two nodes
(fixed joints, inactive joints held at their value) is folded into one constant transform.
It evaluates the tip poses and the stacked ``LOCAL_WORLD_ALIGNED`` Jacobian for a whole batch
of configurations with a handful of numpy calls per node.

:func:`solve` runs several seeds of one target side by side (the caller's seed and random
ones), each with its own Levenberg-Marquardt damping; a seed whose cost stops decreasing is
replaced by a fresh random configuration (a restart). It stops as soon as one seed meets
both tolerances, or when the time budget, the iteration limit or the restart limit is
reached; then it returns the best configuration seen. :func:`solve_batch` does the same for
thousands of targets at once (one seed each), dropping solved targets from the batch as it
goes; when few targets are left, each gets more parallel seeds, and a target still unsolved
after a few iterations gets more again.

Random seeds are drawn uniformly within the limits of the active joints (``[-pi, pi)`` for
continuous joints); coordinates without limits (floating and planar joints, unbounded
prismatic joints) keep the caller's seed values.

Every iterate is projected onto the joint limits, so every returned configuration respects
them. Errors: position error is ``|root_p_target - root_p_tip|``, orientation error is the
angle of ``root_R_tip^T root_R_target``.
"""

from dataclasses import dataclass
import logging
import time
from typing import List, Optional, Sequence, Tuple, TYPE_CHECKING, Union
import weakref

import numpy as np

from .errors import ConfigurationError, ReferenceFrameError
from .joints import ConfigurationLayout, JointType, plane_basis
from .spatial import check_transform, cross, inverse, log_so3, rotation_from_quaternion, \
    skew

if TYPE_CHECKING:  # pragma: no cover
    from .model import RobotModel

_LOG = logging.getLogger(__name__)

#: Factor applied to the damping after an accepted step.
DAMPING_DECREASE = 0.3
#: Factor applied to the damping after a rejected step.
DAMPING_INCREASE = 10.0
#: Smallest damping used.
DAMPING_MIN = 1e-10
#: A seed whose damping exceeds this is stuck in a local minimum and is restarted.
DAMPING_MAX = 1e2
#: A seed whose cost has decreased by less than this fraction ...
STALL_PROGRESS = 0.25
#: ... this many iterations in a row is restarted.
STALL_ITERATIONS = 3

#: When a batch has at most this many seeds left in flight ...
WIDEN_SLOTS = 256
#: ... each remaining target gets up to this many parallel seeds ...
WIDEN_SEEDS = 16
#: ... twice as many from the first of these iterations on, three times from the second.
WIDEN_AT = (8, 16)

#: From this iteration on, a step that pushes joints beyond their limits is solved again
#: without them (it costs a second solve; the first iterations rarely need it).
CLAMP_AFTER = 5

#: Evaluators and option sets kept per cache.
_CACHE_SIZE = 32

Tips = Union[str, Sequence[str]]


@dataclass(frozen=True)
class IKResult:
    """
    Outcome of one inverse kinematics problem.

    :ivar q: the configuration found (``(nq,)``), within the joint limits; the best one seen
        when ``success`` is False.
    :ivar success: whether every tip is within both tolerances.
    :ivar position_error: largest position error over the tips (m).
    :ivar orientation_error: largest orientation error over the tips (rad).
    :ivar iterations: solver iterations spent on this target.
    :ivar restarts: random seeds tried besides the caller's seed.
    :ivar reason: why it stopped: ``converged``, ``time_budget``, ``max_iterations`` or
        ``max_restarts``.
    :ivar elapsed: wall time of the call (s); for a batch, of the whole batch.
    :ivar tip_position_errors: position error of each tip (m).
    :ivar tip_orientation_errors: orientation error of each tip (rad).
    """

    q: np.ndarray
    success: bool
    position_error: float
    orientation_error: float
    iterations: int
    restarts: int
    reason: str
    elapsed: float
    tip_position_errors: np.ndarray
    tip_orientation_errors: np.ndarray


@dataclass(frozen=True)
class IKBatchResult:
    """
    Per-target outcomes of :func:`solve_batch` (arrays indexed by target).

    ``result[i]`` is the :class:`IKResult` of target ``i``.

    :ivar q: ``(B, nq)`` configurations.
    :ivar success: ``(B,)`` bools.
    :ivar position_error: ``(B,)`` largest position error over the tips (m).
    :ivar orientation_error: ``(B,)`` largest orientation error over the tips (rad).
    :ivar iterations: ``(B,)`` iterations spent on each target.
    :ivar restarts: ``(B,)`` random seeds tried for each target.
    :ivar reason: stop reason of each target (see :class:`IKResult`).
    :ivar elapsed: wall time of the whole call (s).
    :ivar tip_position_errors: ``(B, n_tips)``.
    :ivar tip_orientation_errors: ``(B, n_tips)``.
    """

    q: np.ndarray
    success: np.ndarray
    position_error: np.ndarray
    orientation_error: np.ndarray
    iterations: np.ndarray
    restarts: np.ndarray
    reason: Tuple[str, ...]
    elapsed: float
    tip_position_errors: np.ndarray
    tip_orientation_errors: np.ndarray

    def __len__(self) -> int:
        """Return the number of targets."""
        return len(self.success)

    def __getitem__(self, index: int) -> IKResult:
        """
        Return the result of one target.

        :param index: target index.
        :return: its :class:`IKResult`.
        """
        return IKResult(self.q[index], bool(self.success[index]),
                        float(self.position_error[index]),
                        float(self.orientation_error[index]), int(self.iterations[index]),
                        int(self.restarts[index]), self.reason[index], self.elapsed,
                        self.tip_position_errors[index], self.tip_orientation_errors[index])

    @property
    def success_rate(self) -> float:
        """Fraction of the targets solved."""
        return float(np.mean(self.success)) if len(self.success) else 1.0


def _as_tips(tip: Tips) -> Tuple[str, ...]:
    if isinstance(tip, str):
        return (tip,)
    tips = tuple(tip)
    if not tips or not all(isinstance(name, str) for name in tips):
        raise ConfigurationError(f'tip must be a link name or a non-empty list of names, '
                                 f'got {tip!r}')
    if len(set(tips)) != len(tips):
        raise ConfigurationError(f'tips are repeated: {list(tips)}')
    return tips


class ChainEvaluator:
    """
    Tip poses and Jacobians of the active joints moving a set of tip links.

    The evaluator works on the *reduced* configuration: the coordinates of
    :attr:`active_joints`, in model order (:meth:`reduce` and :meth:`expand` convert).
    Joints that are not active keep the values they have in ``q_fixed``.

    :ivar tips: the tip links.
    :ivar active_joints: the joints that move (actuated joints on the tips' paths, or the
        requested subset of them).
    :ivar layout: layout of the reduced configuration.
    :ivar q_index: indices in the full ``q`` of the reduced configuration's entries.
    :ivar v_index: indices in the full ``v`` of the reduced velocity's entries.
    """

    def __init__(self, model: 'RobotModel', tips: Tips,
                 active_joints: Optional[Sequence[str]] = None, q_fixed=None) -> None:
        """
        Compile the chains from the root to ``tips``.

        :param model: the robot model.
        :param tips: a tip link name or a list of them.
        :param active_joints: names of the joints allowed to move (default: every actuated
            joint on the tips' paths). Joints off every path are ignored, with a log line.
        :param q_fixed: configuration the other joints are held at (default: neutral).
        :raises UnknownFrameError: for an unknown link or joint.
        :raises ConfigurationError: for an invalid ``q_fixed`` or a mimic/non-actuated name.
        """
        self._model: Union['RobotModel', weakref.ref] = model
        self.tips = _as_tips(tips)
        tip_index = [model.link_index(name) for name in self.tips]
        q_fixed = model.neutral_configuration() if q_fixed is None else \
            model.check_configuration(q_fixed, 'q_fixed')
        if q_fixed.ndim != 1:
            raise ConfigurationError(f'q_fixed must have shape ({model.nq},), got '
                                     f'{q_fixed.shape}')
        self.q_fixed = q_fixed
        on_path = self._path_joints(model, tip_index)
        if active_joints is None:
            chosen = [j for j in model.actuated_joints if j.name in on_path]
        else:
            names = set()
            for name in active_joints:
                joint = model.joint(name)
                if not joint.is_actuated:
                    raise ConfigurationError(f"joint '{name}' is {joint.type}"
                                             f"{' (mimic)' if joint.mimic else ''}: only "
                                             'actuated joints can be active')
                names.add(name)
            ignored = sorted(n for n in names if n not in on_path)
            if ignored:
                _LOG.info('joints %s do not move tips %s: they are not used', ignored,
                          list(self.tips))
            chosen = [j for j in model.actuated_joints if j.name in names and j.name in on_path]
        self.active_joints: Tuple[str, ...] = tuple(j.name for j in chosen)
        self.layout = ConfigurationLayout([(j.name, j.type, j.lower, j.upper)
                                           for j in chosen])
        self.q_index = np.concatenate([np.arange(j.idx_q, j.idx_q + j.nq) for j in chosen]
                                      + [np.zeros(0, dtype=int)]).astype(int)
        self.v_index = np.concatenate([np.arange(j.idx_v, j.idx_v + j.nv) for j in chosen]
                                      + [np.zeros(0, dtype=int)]).astype(int)
        self.nq = self.layout.nq
        self.nv = self.layout.nv
        self._compile(model, chosen, on_path, tip_index)

    @property
    def model(self) -> 'RobotModel':
        """Return the robot model the evaluator was compiled from."""
        if isinstance(self._model, weakref.ref):
            return self._model()
        return self._model

    @staticmethod
    def _path_joints(model: 'RobotModel', tip_index: List[int]) -> set:
        names = set()
        for index in tip_index:
            link = model.links[index]
            while link.parent_joint is not None:
                names.add(link.parent_joint)
                link = model.link(link.parent)
        return names

    def _compile(self, model, chosen, on_path, tip_index) -> None:
        reduced_q = {}
        reduced_v = {}
        iq = iv = 0
        for joint in chosen:
            reduced_q[joint.name], reduced_v[joint.name] = iq, iv
            iq += joint.nq
            iv += joint.nv
        nodes = []
        for joint in model.joints:
            if joint.name not in on_path:
                continue
            if joint.name in reduced_q:
                nodes.append((joint, reduced_q[joint.name], reduced_v[joint.name], 1.0, 0.0))
            elif joint.mimic is not None and joint.mimic[0] in reduced_q:
                master, multiplier, offset = joint.mimic
                nodes.append((joint, reduced_q[master], reduced_v[master], multiplier, offset))
        self.n_nodes = len(nodes)
        node_names = {n[0].name for n in nodes}
        held = set()
        for joint in model.joints:
            if joint.name not in on_path or joint.name in node_names:
                continue
            if joint.is_actuated:
                held.update(range(joint.idx_q, joint.idx_q + joint.nq))
            elif joint.mimic is not None:
                held.add(model.joint(joint.mimic[0]).idx_q)
        #: Indices in ``q`` of the held (inactive) coordinates that move the tips.
        self.held_q_index = np.array(sorted(held), dtype=int)
        state = model.forward_kinematics(self.q_fixed)
        poses = state.poses
        node_of_link = {}
        parents = []
        constants = []
        for k, (joint, *_rest) in enumerate(nodes):
            parent = self._node_above(model, joint.parent, node_of_link)
            root_T_joint = poses[model.link_index(joint.parent)] @ joint.parent_T_joint
            constants.append(root_T_joint if parent < 0 else
                             inverse(poses[model.link_index(nodes[parent][0].child)])
                             @ root_T_joint)
            parents.append(parent)
            node_of_link[joint.child] = k
        self._parent = parents
        self._constant = np.array(constants).reshape(-1, 4, 4)
        self._tip_parent = []
        tip_constants = []
        for index in tip_index:
            name = model.links[index].name
            parent = self._node_above(model, name, node_of_link)
            self._tip_parent.append(parent)
            tip_constants.append(poses[index] if parent < 0 else
                                 inverse(poses[model.link_index(nodes[parent][0].child)])
                                 @ poses[index])
        self._tip_constant = np.array(tip_constants)
        self._node_of_link = node_of_link
        self._compile_motion(nodes)
        self._compile_columns(model, nodes, tip_index)

    @staticmethod
    def _node_above(model, link_name: str, node_of_link) -> int:
        """Index of the node whose child is ``link_name`` or its nearest ancestor (-1: none)."""
        name = link_name
        while True:
            if name in node_of_link:
                return node_of_link[name]
            link = model.link(name)
            if link.parent is None:
                return -1
            name = link.parent

    def _compile_motion(self, nodes) -> None:
        rev = [k for k, n in enumerate(nodes) if n[0].type.rotates]
        pri = [k for k, n in enumerate(nodes) if n[0].type is JointType.PRISMATIC]
        self._rev = np.array(rev, dtype=int)
        self._rev_all = len(rev) == len(nodes)
        self._rev_src = np.array([nodes[k][1] for k in rev], dtype=int)
        self._rev_mult = np.array([nodes[k][3] for k in rev])[:, None]
        self._rev_off = np.array([nodes[k][4] for k in rev])[:, None]
        self._rev_plain = bool(np.all(self._rev_mult == 1.0) and np.all(self._rev_off == 0.0))
        rot = self._constant[self._rev, :3, :3]
        k = skew(np.array([nodes[k][0].axis for k in rev]).reshape(-1, 3))
        # origin_R @ Rot(axis, t) = [1, sin t, 1 - cos t] @ [R, R K, R K K] (flattened).
        self._rot_basis = np.stack([rot, rot @ k, rot @ k @ k], axis=1).reshape(-1, 3, 9)
        self._pri = np.array(pri, dtype=int)
        self._pri_src = np.array([nodes[k][1] for k in pri], dtype=int)
        self._pri_mult = np.array([nodes[k][3] for k in pri])[:, None]
        self._pri_off = np.array([nodes[k][4] for k in pri])[:, None]
        self._pri_p0 = self._constant[self._pri, :3, 3][:, None]
        self._pri_axis = np.array([self._constant[k, :3, :3] @ nodes[k][0].axis
                                   for k in pri]).reshape(-1, 3)[:, None]
        self._other = [(k, nodes[k][0].type, nodes[k][1],
                        plane_basis(nodes[k][0].axis) if nodes[k][0].type is JointType.PLANAR else None)
                       for k, n in enumerate(nodes) if n[0].type in (JointType.FLOATING, JointType.PLANAR)]

    def _compile_columns(self, model, nodes, tip_index) -> None:
        col_node, col_var, col_mult, motion = [], [], [], []
        for k, (joint, _, iv, multiplier, _) in enumerate(nodes):
            for i, s in enumerate(joint.type.motion_subspace(joint.axis).T):
                col_node.append(k)
                col_var.append(iv + i)
                col_mult.append(multiplier)
                motion.append(np.stack([s[:3], s[3:]], axis=-1))
        self._col_node = np.array(col_node, dtype=int)
        self._col_motion = np.array(motion).reshape(-1, 3, 2)[:, None]
        self._col_all_revolute = bool(np.all(self._col_motion[..., 0] == 0.0))
        n_cols = len(col_node)
        self._identity_columns = (n_cols == self.nv and col_node == list(range(self.n_nodes))
                                  and col_var == list(range(self.nv))
                                  and all(m == 1.0 for m in col_mult))
        self._expand = []
        for parent in self._tip_parent:
            ancestors = set()
            k = parent
            while k >= 0:
                ancestors.add(k)
                k = self._parent[k]
            expand = np.zeros((n_cols, self.nv))
            for c in range(n_cols):
                if col_node[c] in ancestors:
                    expand[c, col_var[c]] += col_mult[c]
            self._expand.append(None if self._identity_columns and
                                len(ancestors) == self.n_nodes else expand)

    # -- conversions -------------------------------------------------------------------------
    def reduce(self, q) -> np.ndarray:
        """
        Return the reduced configuration (active joints only) of full configurations.

        :param q: ``(nq,)`` or ``(B, nq)`` of the model.
        :return: ``(n,)`` or ``(B, n)``.
        """
        return np.asarray(q, dtype=float)[..., self.q_index]

    def expand(self, q_reduced: np.ndarray) -> np.ndarray:
        """
        Full configurations: ``q_fixed`` with the active entries replaced.

        :param q_reduced: ``(n,)`` or ``(B, n)``.
        :return: ``(nq,)`` or ``(B, nq)``.
        """
        q_reduced = np.asarray(q_reduced, dtype=float)
        out = np.empty(q_reduced.shape[:-1] + (self.model.nq,))
        out[...] = self.q_fixed
        out[..., self.q_index] = q_reduced
        return out

    def moves(self, link: str) -> bool:
        """
        Whether an active joint moves ``link`` (relative to the root).

        :param link: a link name.
        :return: True if some node is among its ancestors.
        """
        return self._node_above(self.model, link, self._node_of_link) >= 0

    # -- evaluation --------------------------------------------------------------------------
    def forward(self, q_reduced: np.ndarray) -> np.ndarray:
        """
        Poses of the nodes, then of the tips, for a batch of reduced configurations.

        :param q_reduced: ``(N, n)``.
        :return: ``(n_nodes + n_tips, N, 4, 4)``: ``root_T_node`` then ``root_T_tip``.
        """
        count = q_reduced.shape[0]
        n_nodes = self.n_nodes
        poses = np.empty((n_nodes + len(self.tips), count, 4, 4))
        local = poses[:n_nodes]
        local[...] = self._constant[:, None]
        if len(self._rev):
            angle = q_reduced[:, self._rev_src].T
            if not self._rev_plain:
                angle = angle * self._rev_mult + self._rev_off
            coef = np.empty(angle.shape + (3,))
            coef[..., 0] = 1.0
            np.sin(angle, out=coef[..., 1])
            coef[..., 2] = 1.0 - np.cos(angle)
            rot = (coef @ self._rot_basis).reshape(angle.shape + (3, 3))
            if self._rev_all:
                local[:, :, :3, :3] = rot
            else:
                local[self._rev, :, :3, :3] = rot
        if len(self._pri):
            d = q_reduced[:, self._pri_src].T * self._pri_mult + self._pri_off
            local[self._pri, :, :3, 3] = self._pri_p0 + d[..., None] * self._pri_axis
        for k, kind, iq, basis in self._other:
            motion = np.zeros((count, 4, 4))
            motion[:, 3, 3] = 1.0
            if kind is JointType.FLOATING:
                motion[:, :3, :3] = rotation_from_quaternion(q_reduced[:, iq + 3:iq + 7])
                motion[:, :3, 3] = q_reduced[:, iq:iq + 3]
            else:
                theta = q_reduced[:, iq + 2]
                rz = np.zeros((count, 3, 3))
                rz[:, 0, 0] = rz[:, 1, 1] = np.cos(theta)
                rz[:, 1, 0] = np.sin(theta)
                rz[:, 0, 1] = -rz[:, 1, 0]
                rz[:, 2, 2] = 1.0
                motion[:, :3, :3] = basis @ rz @ basis.T
                motion[:, :3, 3] = q_reduced[:, iq:iq + 1] * basis[:, 0] + \
                    q_reduced[:, iq + 1:iq + 2] * basis[:, 1]
            local[k] = self._constant[k] @ motion
        for k, parent in enumerate(self._parent):
            if parent >= 0:
                poses[k] = poses[parent] @ local[k]
        for t, parent in enumerate(self._tip_parent):
            poses[n_nodes + t] = self._tip_constant[t] if parent < 0 else poses[parent] @ \
                self._tip_constant[t]
        return poses

    def jacobian(self, poses: np.ndarray) -> np.ndarray:
        """
        Stacked ``LOCAL_WORLD_ALIGNED`` Jacobians of the tips w.r.t. the reduced velocity.

        :param poses: node and tip poses from :meth:`forward`.
        :return: ``(N, 6 * n_tips, nv)``, rows ``[linear; angular]`` of each tip in turn.
        """
        world, tips = poses[:self.n_nodes], poses[self.n_nodes:]
        if self._identity_columns:
            node_pose = world
        else:
            node_pose = world[self._col_node]
        both = node_pose[..., :3, :3] @ self._col_motion
        ang = both[..., 1]
        n_tips = len(self.tips)
        if n_tips == 1 and self._expand[0] is None:
            cols = np.empty(ang.shape[:-1] + (6,))
            cols[..., :3] = cross(ang, tips[0, None, :, :3, 3] - node_pose[..., :3, 3])
            if not self._col_all_revolute:
                cols[..., :3] += both[..., 0]
            cols[..., 3:] = ang
            return cols.transpose(1, 2, 0)
        out = np.empty((world.shape[1], 6 * n_tips, self.nv))
        for t in range(n_tips):
            lin = cross(ang, tips[t, None, :, :3, 3] - node_pose[..., :3, 3])
            if not self._col_all_revolute:
                lin += both[..., 0]
            expand = self._expand[t]
            if expand is None:
                out[:, 6 * t:6 * t + 3] = lin.transpose(1, 2, 0)
                out[:, 6 * t + 3:6 * t + 6] = ang.transpose(1, 2, 0)
            else:
                out[:, 6 * t:6 * t + 3] = lin.transpose(1, 2, 0) @ expand
                out[:, 6 * t + 3:6 * t + 6] = ang.transpose(1, 2, 0) @ expand
        return out

    def tip_transforms(self, q) -> np.ndarray:
        """
        ``root_T_tip`` of every tip for full configurations (a convenience for checks).

        :param q: ``(nq,)`` or ``(B, nq)`` (inactive entries are ignored: see ``q_fixed``).
        :return: ``(n_tips, 4, 4)`` or ``(n_tips, B, 4, 4)``.
        """
        q = self.model.check_configuration(q)
        reduced = np.atleast_2d(self.reduce(q))
        tips = self.forward(reduced)[self.n_nodes:]
        return tips[:, 0] if q.ndim == 1 else tips


# Flattened 3x3 matrix -> [vee(M - M^T) / 2, trace(M)].
_VEE_TRACE = np.zeros((9, 4))
_VEE_TRACE[[7, 2, 3], [0, 1, 2]] = 0.5
_VEE_TRACE[[5, 6, 1], [0, 1, 2]] = -0.5
_VEE_TRACE[[0, 4, 8], 3] = 1.0
_VEE_TRACE.flags.writeable = False


def _rotation_error(tip_R: np.ndarray, target_R: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """World rotation vector taking ``tip_R`` to ``target_R``, and its angle."""
    err = target_R @ np.swapaxes(tip_R, -1, -2)
    vt = err.reshape(-1, 9) @ _VEE_TRACE
    v = vt[:, :3]
    sin = np.sqrt(np.einsum('ij,ij->i', v, v))
    cos = 0.5 * (vt[:, 3] - 1.0)
    angle = np.arctan2(sin, cos)
    # angle / sin -> 1 as both vanish; near pi the axis is taken from the quaternion.
    v = v * (angle / np.maximum(sin, 1e-300) + (sin == 0.0))[:, None]
    near_pi = angle > np.pi - 1e-4
    if near_pi.any():
        v[near_pi] = log_so3(err[near_pi])
    return v, angle


class _Problem:
    """Validated targets, weights and tolerances of one call."""

    def __init__(self, n_tips: int, position_only: bool, orientation_weight: float, weights,
                 position_tolerance: float, orientation_tolerance: float) -> None:
        self.n_tips = n_tips
        self.position_tolerance = _positive(position_tolerance, 'position_tolerance')
        self.orientation_tolerance = _positive(orientation_tolerance, 'orientation_tolerance')
        orientation_weight = float(orientation_weight)
        if not np.isfinite(orientation_weight) or orientation_weight < 0:
            raise ConfigurationError(f'orientation_weight must be >= 0, got {orientation_weight}')
        if weights is None:
            w = np.ones((n_tips, 6))
            w[:, 3:] = orientation_weight
        else:
            w = np.array(weights, dtype=float)
            if w.shape == (6,):
                w = np.tile(w, (n_tips, 1))
            if w.shape != (n_tips, 6) or not np.all(np.isfinite(w)) or np.any(w < 0):
                raise ConfigurationError(f'weights must be 6 non-negative numbers (or one row '
                                         f'per tip, ({n_tips}, 6)), got shape {w.shape}')
        if position_only:
            w[:, 3:] = 0.0
        if not np.any(w > 0):
            raise ConfigurationError('every weight is zero: nothing to solve')
        self.weights = w
        # Rows of the residual that are used, and whether weights need the target frame.
        self.rows = np.nonzero(w.reshape(-1) > 0)[0]
        self.isotropic = bool(np.all((w[:, :3] == w[:, :1]) & (w[:, 3:] == w[:, 3:4])))
        self.lin_mask = w[:, :3] > 0
        self.ang_mask = w[:, 3:] > 0
        self.lin_full = np.all(self.lin_mask, axis=1)
        self.ang_full = np.all(self.ang_mask, axis=1)
        self.row_weight = w.reshape(-1)[self.rows]
        self.all_rows = len(self.rows) == 6 * n_tips
        self.plain = n_tips == 1 and bool(np.all(w == 1.0))

    def residual(self, tips: np.ndarray, targets: np.ndarray
                 ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """
        Weighted residual and per-tip errors, and the row transform for the Jacobian.

        :param tips: ``(n_tips, N, 4, 4)``.
        :param targets: ``(N, n_tips, 4, 4)``.
        :return: ``metrics`` of shape ``(N, m + 2 n_tips + 1)``: the residual, the position
            errors, the orientation errors and the cost (squared residual norm); and
            ``target_R^T`` per tip ``(n_tips, N, 3, 3)``, or None when the weights are
            isotropic.
        """
        count = tips.shape[1]
        n_tips, m = self.n_tips, len(self.rows)
        metrics = np.empty((count, m + 2 * n_tips + 1))
        err = np.empty((count, n_tips, 6))
        rotate = None if self.isotropic else np.empty((n_tips, count, 3, 3))
        if self.plain:
            target = targets[:, 0]
            np.subtract(target[:, :3, 3], tips[0, :, :3, 3], out=metrics[:, :3])
            w, angle = _rotation_error(tips[0, :, :3, :3], target[:, :3, :3])
            metrics[:, 3:6] = w
            dp = metrics[:, :3]
            metrics[:, 6] = np.sqrt(np.einsum('ij,ij->i', dp, dp))
            metrics[:, 7] = angle
            residual = metrics[:, :6]
            metrics[:, 8] = np.einsum('ij,ij->i', residual, residual)
            return metrics, None
        for t in range(n_tips):
            target = targets[:, t]
            dp = target[:, :3, 3] - tips[t, :, :3, 3]
            w, angle = _rotation_error(tips[t, :, :3, :3], target[:, :3, :3])
            if rotate is not None:
                r_t = np.swapaxes(target[:, :3, :3], -1, -2)
                rotate[t] = r_t
                dp = (r_t @ dp[..., None])[..., 0]
                w = (r_t @ w[..., None])[..., 0]
            err[:, t, :3] = dp
            err[:, t, 3:] = w
            if self.lin_full[t]:
                metrics[:, m + t] = np.sqrt(np.einsum('ij,ij->i', dp, dp))
            else:
                metrics[:, m + t] = np.linalg.norm(dp[:, self.lin_mask[t]], axis=-1)
            if self.ang_full[t]:
                metrics[:, m + n_tips + t] = angle
            elif self.ang_mask[t].any():
                metrics[:, m + n_tips + t] = np.linalg.norm(w[:, self.ang_mask[t]], axis=-1)
            else:
                metrics[:, m + n_tips + t] = 0.0
        flat = err.reshape(count, -1)
        residual = metrics[:, :m]
        if self.all_rows:
            np.multiply(flat, self.row_weight, out=residual)
        else:
            np.multiply(flat[:, self.rows], self.row_weight, out=residual)
        metrics[:, -1] = np.einsum('ij,ij->i', residual, residual)
        return metrics, rotate

    def weighted_jacobian(self, jac: np.ndarray, rotate: Optional[np.ndarray]) -> np.ndarray:
        """
        Jacobian rows matching :meth:`residual`.

        :param jac: ``(N, 6 * n_tips, nv)`` from :meth:`ChainEvaluator.jacobian`.
        :param rotate: the row transform returned by :meth:`residual`.
        :return: ``(N, m, nv)``.
        """
        if self.all_rows and rotate is None and np.all(self.row_weight == 1.0):
            return jac
        if rotate is not None:
            jac = jac.copy()
            for t in range(self.n_tips):
                for part in (slice(6 * t, 6 * t + 3), slice(6 * t + 3, 6 * t + 6)):
                    jac[:, part] = rotate[t] @ jac[:, part]
        return jac[:, self.rows] * self.row_weight[:, None]


_PROBLEMS: dict = {}


def _problem(n_tips: int, position_only: bool, orientation_weight: float, weights,
             position_tolerance: float, orientation_tolerance: float) -> _Problem:
    """Return the (cached, for the usual hashable options) :class:`_Problem` of these options."""
    try:
        key = (n_tips, bool(position_only), float(orientation_weight),
               None if weights is None else tuple(np.asarray(weights, dtype=float).ravel()),
               float(position_tolerance), float(orientation_tolerance))
    except (TypeError, ValueError):
        key = None
    problem = _PROBLEMS.get(key) if key is not None else None
    if problem is None:
        problem = _Problem(n_tips, position_only, orientation_weight, weights,
                           position_tolerance, orientation_tolerance)
        if key is not None:
            if len(_PROBLEMS) >= _CACHE_SIZE:
                _PROBLEMS.clear()
            _PROBLEMS[key] = problem
    return problem


def _positive(value: float, name: str) -> float:
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ConfigurationError(f'{name} must be a positive number, got {value}')
    return value


class _Sampler:
    """Random reduced configurations within the limits (unbounded entries keep the seed)."""

    def __init__(self, evaluator: ChainEvaluator, rng: np.random.Generator) -> None:
        table = evaluator.layout
        lower, upper = table.lower.copy(), table.upper.copy()
        if len(table.wrap_q):
            lower[table.wrap_q], upper[table.wrap_q] = -np.pi, np.pi
        self.bounded = np.isfinite(lower) & np.isfinite(upper)
        self.lower = np.where(self.bounded, lower, 0.0)
        self.width = np.where(self.bounded, upper - lower, 0.0)
        self.rng = rng

    def sample(self, seeds: np.ndarray) -> np.ndarray:
        """
        One random configuration per row of ``seeds`` (their unbounded entries kept).

        :param seeds: ``(N, n)``.
        :return: ``(N, n)``.
        """
        draw = self.lower + self.rng.random(seeds.shape) * self.width
        return np.where(self.bounded, draw, seeds)


class _Engine:
    """The vectorised LM loop over targets x parallel seeds."""

    def __init__(self, evaluator: ChainEvaluator, problem: _Problem, rng: np.random.Generator,
                 parallel_seeds: int, max_iterations: int, max_restarts: Optional[int],
                 damping: float, rest: Optional[np.ndarray], rest_gain: float) -> None:
        self.ev = evaluator
        self.problem = problem
        self.sampler = _Sampler(evaluator, rng)
        self.k = parallel_seeds
        self.max_iterations = max_iterations
        self.max_restarts = max_restarts
        self.damping = damping
        self.rest = rest
        self.rest_gain = rest_gain
        table = evaluator.layout
        self.lower, self.upper = table.lower, table.upper
        self._eyes = {}

    def _eye(self, size: int) -> np.ndarray:
        eye = self._eyes.get(size)
        if eye is None:
            eye = self._eyes[size] = np.eye(size)
        return eye

    def _evaluate(self, q: np.ndarray, targets: np.ndarray):
        poses = self.ev.forward(q)
        metrics, rotate = self.problem.residual(poses[self.ev.n_nodes:], targets)
        return poses, metrics, rotate

    def _step(self, q, poses, residual, rotate, lam, clamp: bool):
        jac = self.problem.weighted_jacobian(self.ev.jacobian(poses), rotate)
        dq = self._solve(q, jac, residual, lam)
        if clamp and self.ev.layout.simple:
            # Joints at a limit that the step pushes further are taken out and the step
            # solved again, so that the other joints make up for them.
            blocked = ((q <= self.lower) & (dq < 0)) | ((q >= self.upper) & (dq > 0))
            if len(q) > 64:
                rows = np.nonzero(blocked.any(axis=1))[0]
                if len(rows):
                    free = ~blocked[rows]
                    sub = self._solve(q[rows], jac[rows] * free[:, None, :], residual[rows],
                                      lam[rows])
                    dq[rows] = sub * free
            elif blocked.any():
                dq = self._solve(q, jac * ~blocked[:, None, :], residual, lam)
                dq[blocked] = 0.0
        return dq

    def _solve(self, q, jac, residual, lam):
        m, n = jac.shape[1], jac.shape[2]
        jac_t = np.swapaxes(jac, -1, -2)
        if self.rest is not None or m <= n:
            gram = jac @ jac_t
            gram += lam[:, None, None] * self._eye(m)
            if self.rest is not None:
                bias = self.rest_gain * self.ev.layout.difference(q, self.rest)
                rhs = np.stack([residual, (jac @ bias[..., None])[..., 0]], axis=-1)
                sol = jac_t @ np.linalg.solve(gram, rhs)
                return sol[..., 0] + bias - sol[..., 1]
            return (jac_t @ np.linalg.solve(gram, residual[..., None]))[..., 0]
        gram = jac_t @ jac
        gram += lam[:, None, None] * self._eye(n)
        return np.linalg.solve(gram, (jac_t @ residual[..., None]))[..., 0]

    def _move(self, q, dq):
        moved = q + dq if self.ev.layout.simple else self.ev.layout.integrate(q, dq)
        np.maximum(moved, self.lower, out=moved)
        return np.minimum(moved, self.upper, out=moved)

    def _widen(self, k, k_new, ids, out, q, slot_seed, slot_targets, poses, metrics, rotate,
               lam, initial_lam, stall):
        """Give each remaining target ``k_new`` parallel seeds instead of ``k``."""
        count = len(ids)
        extra = k_new - k
        seed_x = np.repeat(slot_seed[::k], extra, axis=0)
        targets_x = np.repeat(slot_targets[::k], extra, axis=0)
        q_x = self.sampler.sample(seed_x)
        poses_x, metrics_x, rotate_x = self._evaluate(q_x, targets_x)
        out.restarts[ids] += extra
        lam_x = np.tile(self.damping * np.logspace(0.0, 2.0, k_new)[k:], count)

        def merge(a, b, axis=0):
            shape_a = a.shape[:axis] + (count, k) + a.shape[axis + 1:]
            shape_b = b.shape[:axis] + (count, extra) + b.shape[axis + 1:]
            joined = np.concatenate([a.reshape(shape_a), b.reshape(shape_b)], axis=axis + 1)
            return joined.reshape(a.shape[:axis] + (count * k_new,) + a.shape[axis + 1:])

        return (merge(q, q_x), merge(slot_seed, seed_x), merge(slot_targets, targets_x),
                merge(poses, poses_x, 1), merge(metrics, metrics_x),
                None if rotate is None else merge(rotate, rotate_x, 1), merge(lam, lam_x),
                merge(initial_lam, lam_x), merge(stall, np.zeros(count * extra, dtype=int)))

    def run(self, seeds: np.ndarray, targets: np.ndarray, deadline: float) -> '_Outcome':
        """
        Solve ``targets`` (``(B, n_tips, 4, 4)``) from ``seeds`` (``(B, n)`` reduced).

        :param seeds: one reduced seed per target.
        :param targets: ``root_T_target`` per target and tip.
        :param deadline: ``time.perf_counter()`` value at which to stop.
        :return: the per-target outcome.
        """
        problem = self.problem
        count, k, n_tips = len(seeds), self.k, problem.n_tips
        m = len(problem.rows)
        pos_cols, ori_cols = slice(m, m + n_tips), slice(m + n_tips, m + 2 * n_tips)
        out = _Outcome(seeds, n_tips)
        if not count:
            return out
        ids = np.arange(count)
        slot_seed = np.repeat(seeds, k, axis=0)
        q = slot_seed.copy()
        if k > 1:
            fresh = np.ones(count * k, dtype=bool)
            fresh[::k] = False
            q[fresh] = self.sampler.sample(slot_seed[fresh])
            out.restarts += k - 1
        slot_targets = np.repeat(targets, k, axis=0)
        poses, metrics, rotate = self._evaluate(q, slot_targets)
        initial_lam = np.tile(self.damping * np.logspace(0.0, 2.0, k), count) if k > 1 \
            else np.full(count, self.damping)
        lam = initial_lam.copy()
        stall = np.zeros(count * k, dtype=int)
        tol_p, tol_o = problem.position_tolerance, problem.orientation_tolerance
        iteration = 0
        limited = self.max_restarts is not None
        while True:
            ok = (metrics[:, pos_cols] < tol_p) & (metrics[:, ori_cols] < tol_o)
            converged = ok[:, 0] if n_tips == 1 else ok.all(axis=1)
            retire = None
            if converged.any():
                retire = out.converged(ids, converged.reshape(-1, k), q, metrics, m)
            if iteration >= self.max_iterations:
                if retire is not None:
                    out.finish(ids[retire], None, iteration)
                    left = ~retire
                    ids, slots = ids[left], np.repeat(left, k)
                    q, metrics = q[slots], metrics[slots]
                out.record(ids, q, metrics, m)
                out.finish(ids, 'max_iterations', iteration)
                break
            if limited:
                exhausted = (out.restarts[ids] >= self.max_restarts) & \
                    (stall.reshape(-1, k) >= STALL_ITERATIONS).all(axis=1)
                if retire is not None:
                    exhausted &= ~retire
                if exhausted.any():
                    slots = np.repeat(exhausted, k)
                    out.record(ids[exhausted], q[slots], metrics[slots], m)
                    out.finish(ids[exhausted], 'max_restarts', iteration)
                    retire = exhausted if retire is None else retire | exhausted
            if retire is not None and retire.any():
                out.finish(ids[retire], None, iteration)
                keep = ~retire
                ids = ids[keep]
                if not len(ids):
                    break
                slots = np.repeat(keep, k)
                q, slot_seed, slot_targets = q[slots], slot_seed[slots], slot_targets[slots]
                poses, metrics, lam, stall = poses[:, slots], metrics[slots], lam[slots], \
                    stall[slots]
                initial_lam = initial_lam[slots]
                if rotate is not None:
                    rotate = rotate[:, slots]
            if not limited and (retire is not None or iteration in WIDEN_AT):
                widest = WIDEN_SEEDS if iteration < WIDEN_AT[0] else \
                    WIDEN_SEEDS * (2 + (iteration >= WIDEN_AT[1]))
                k_new = min(widest, WIDEN_SLOTS // len(ids))
                if k_new > k:
                    (q, slot_seed, slot_targets, poses, metrics, rotate, lam, initial_lam,
                     stall) = self._widen(k, k_new, ids, out, q, slot_seed, slot_targets,
                                          poses, metrics, rotate, lam, initial_lam, stall)
                    k = k_new
            if time.perf_counter() >= deadline:
                out.record(ids, q, metrics, m)
                out.finish(ids, 'time_budget', iteration)
                break
            iteration += 1
            candidate = self._move(q, self._step(q, poses, metrics[:, :m], rotate, lam,
                                                 iteration > CLAMP_AFTER))
            restart = (stall >= STALL_ITERATIONS) | (lam > DAMPING_MAX)
            any_restart = restart.any()
            if any_restart:
                if limited:
                    left = np.repeat(self.max_restarts - out.restarts[ids], k)
                    restart &= np.cumsum(restart.reshape(-1, k), axis=1).reshape(-1) <= left
                out.record(ids, q, metrics, m)
                candidate[restart] = self.sampler.sample(slot_seed[restart])
                np.add.at(out.restarts, ids[np.nonzero(restart)[0] // k], 1)
            poses_c, metrics_c, rotate_c = self._evaluate(candidate, slot_targets)
            cost, cost_c = metrics[:, -1], metrics_c[:, -1]
            accept = cost_c < cost
            progress = cost_c < (1.0 - STALL_PROGRESS) * cost
            if any_restart:
                accept |= restart
                progress |= restart
            stall += 1
            stall[progress] = 0
            lam = lam * np.where(accept, DAMPING_DECREASE, DAMPING_INCREASE)
            np.maximum(lam, DAMPING_MIN, out=lam)
            if any_restart:
                lam[restart] = initial_lam[restart]
            if not accept.all():
                # Rejected steps keep their previous state (copied into the fresh arrays).
                kept = np.nonzero(~accept)[0]
                candidate[kept] = q[kept]
                poses_c[:, kept] = poses[:, kept]
                metrics_c[kept] = metrics[kept]
                if rotate is not None:
                    rotate_c[:, kept] = rotate[:, kept]
            q, poses, metrics, rotate = candidate, poses_c, metrics_c, rotate_c
        return out


class _Outcome:
    """Per-target bookkeeping of :meth:`_Engine.run`: best configuration seen and stop data."""

    def __init__(self, seeds: np.ndarray, n_tips: int) -> None:
        count = len(seeds)
        self.q = seeds.copy()
        self.cost = np.full(count, np.inf)
        self.pos = np.full((count, n_tips), np.inf)
        self.ori = np.full((count, n_tips), np.inf)
        self.iterations = np.zeros(count, dtype=int)
        self.restarts = np.zeros(count, dtype=int)
        self.reasons = np.full(count, 'time_budget', dtype=object)
        self.success = np.zeros(count, dtype=bool)

    def record(self, ids, q, metrics, m: int) -> None:
        """Keep, for each target in ``ids``, its lowest-cost slot if better than before."""
        if not len(ids):
            return
        n_tips = self.pos.shape[1]
        cost = metrics[:, -1]
        k = len(cost) // len(ids)
        pick = np.argmin(cost.reshape(-1, k), axis=1)
        slot = np.arange(len(ids)) * k + pick
        better = cost[slot] < self.cost[ids]
        who, slot = ids[better], slot[better]
        self.cost[who] = cost[slot]
        self.q[who] = q[slot]
        self.pos[who] = metrics[slot, m:m + n_tips]
        self.ori[who] = metrics[slot, m + n_tips:m + 2 * n_tips]

    def converged(self, ids, converged_mk, q, metrics, m: int) -> np.ndarray:
        """Store the first converged slot of each solved target; return the solved mask."""
        n_tips = self.pos.shape[1]
        done = converged_mk.any(axis=1)
        slot = (np.arange(len(ids)) * converged_mk.shape[1] + np.argmax(converged_mk, axis=1))
        slot = slot[done]
        who = ids[done]
        self.q[who] = q[slot]
        self.pos[who] = metrics[slot, m:m + n_tips]
        self.ori[who] = metrics[slot, m + n_tips:m + 2 * n_tips]
        self.success[who] = True
        self.reasons[who] = 'converged'
        return done

    def finish(self, ids, reason: Optional[str], iteration: int) -> None:
        """Set the iteration count (and the stop reason if given) of retiring targets."""
        self.iterations[ids] = iteration
        if reason is not None:
            self.reasons[ids] = reason


def _targets(tips: Tuple[str, ...], target, batch: Optional[bool]) -> Tuple[np.ndarray, bool]:
    """Validate targets: ``(B, n_tips, 4, 4)`` rigid transforms, and whether it is a batch."""
    n_tips = len(tips)
    try:
        arr = np.asarray(target, dtype=float)
    except (TypeError, ValueError):
        raise ConfigurationError('target must be a 4x4 transform or an array of them') from None
    if batch is None:
        batch = arr.ndim == 4 or (arr.ndim == 3 and n_tips == 1)
    expected = (n_tips, 4, 4) if n_tips > 1 else (4, 4)
    if batch:
        ok = arr.ndim == len(expected) + 1 and arr.shape[1:] == expected
        shown = f'(B, {", ".join(map(str, expected))})'
    else:
        ok = arr.shape == expected
        shown = str(expected)
    if not ok:
        raise ConfigurationError(f'target for tips {list(tips)} must have shape '
                                 f'{shown}, got {arr.shape}')
    check_transform(arr, f'target of {", ".join(tips)}')
    return arr.reshape(-1, n_tips, 4, 4), batch


def _in_root(model: 'RobotModel', evaluator: ChainEvaluator, targets: np.ndarray,
             reference_frame: Optional[str]) -> np.ndarray:
    """Express ``reference_T_target`` in the root frame (the reference must not move)."""
    if reference_frame is None:
        return targets
    if evaluator.moves(reference_frame):
        raise ReferenceFrameError(f"reference frame '{reference_frame}' is moved by the "
                                  'active joints: give the target in a frame they do not '
                                  'move', reference_frame, evaluator.tips[0])
    root_T_reference = model.forward_kinematics(evaluator.q_fixed).transform(reference_frame)
    return root_T_reference @ targets


def _seeds(model: 'RobotModel', seed, batch: bool) -> np.ndarray:
    if seed is None:
        q = model.neutral_configuration()
    else:
        q = model.check_configuration(seed, 'seed')
        if q.ndim == 2 and not batch:
            raise ConfigurationError(f'seed must have shape ({model.nq},) for a single target, '
                                     f'got {q.shape}')
    lower = np.where(np.isfinite(model.lower), model.lower, -np.inf)
    outside = (q < lower) | (q > model.upper)
    outside_any = np.any(outside.reshape(-1, model.nq), axis=0)
    for joint in model.actuated_joints:
        if joint.type is JointType.FLOATING:
            outside_any[joint.idx_q + 3:joint.idx_q + 7] = False
    if seed is not None and np.any(outside_any):
        names = [model.configuration_names[i] for i in np.nonzero(outside_any)[0]]
        _LOG.warning('seed is outside the joint limits of %s: projected onto them', names)
        q = q.copy()
        bounded = np.array([model.configuration_names[i] in names
                            for i in range(model.nq)])
        q[..., bounded] = np.clip(q[..., bounded], model.lower[bounded], model.upper[bounded])
    elif seed is None:
        q = np.clip(q, model.lower, model.upper)
    return q


_EVALUATORS: 'weakref.WeakKeyDictionary' = weakref.WeakKeyDictionary()


def evaluator_for(model: 'RobotModel', tips: Tips, active_joints: Optional[Sequence[str]] = None,
                  q_fixed=None) -> ChainEvaluator:
    """
    Return a :class:`ChainEvaluator`, reused from a small per-model cache when possible.

    Two calls share an evaluator when the tips, the active joints and the values of the
    joints held fixed are the same.

    :param model: the robot model.
    :param tips: a tip link or a list of them.
    :param active_joints: joints allowed to move (default: all on the tips' paths).
    :param q_fixed: configuration of the other joints (default: neutral).
    :return: the evaluator.
    """
    tips = _as_tips(tips)
    q_fixed = model.neutral_configuration() if q_fixed is None else \
        model.check_configuration(q_fixed, 'q_fixed')
    cache = _EVALUATORS.setdefault(model, {})
    active = None if active_joints is None else tuple(active_joints)
    key = (tips, active)
    for evaluator in cache.get(key, ()):
        held = evaluator.held_q_index
        if np.array_equal(q_fixed[held], evaluator.q_fixed[held]):
            return evaluator
    evaluator = ChainEvaluator(model, tips, active, q_fixed)
    # The cache is keyed weakly by the model: its evaluators must not keep the model alive.
    evaluator._model = weakref.ref(model)
    if sum(len(v) for v in cache.values()) >= _CACHE_SIZE:
        cache.clear()
    cache.setdefault(key, []).append(evaluator)
    return evaluator


def _prepare(model, tip, target, seed, reference_frame, active_joints, batch):
    tips = _as_tips(tip)
    for name in tips:
        model.link_index(name)
    if reference_frame is not None:
        model.link_index(reference_frame)
    targets, is_batch = _targets(tips, target, batch)
    q_seed = _seeds(model, seed, batch=is_batch)
    if q_seed.ndim == 2 and len(q_seed) != len(targets):
        raise ConfigurationError(f'{len(q_seed)} seeds for {len(targets)} targets')
    q_fixed = q_seed[0] if q_seed.ndim == 2 else q_seed
    evaluator = evaluator_for(model, tips, active_joints, q_fixed)
    if evaluator.nv == 0:
        raise ConfigurationError(f'no active joint moves tips {list(tips)}')
    if q_seed.ndim == 2:
        held = evaluator.held_q_index
        if np.any(q_seed[:, held] != q_fixed[held]):
            names = sorted({model.configuration_names[i] for i in held})
            raise ConfigurationError(f'in a batch, the seeds must agree on the joints that '
                                     f'are held fixed and move the tips: {names}')
    targets = _in_root(model, evaluator, targets, reference_frame)
    full = np.array(np.broadcast_to(q_seed, (len(targets), model.nq)))
    return evaluator, targets, full, is_batch


def _run(model, tip, target, batch, seed, reference_frame, position_only, orientation_weight,
         weights, active_joints, position_tolerance, orientation_tolerance, max_iterations,
         time_budget, restarts, parallel_seeds, rng, rest_posture, rest_gain, damping):
    start = time.perf_counter()
    evaluator, targets, q, is_batch = _prepare(model, tip, target, seed, reference_frame,
                                               active_joints, batch)
    problem = _problem(len(evaluator.tips), position_only, orientation_weight, weights,
                       position_tolerance, orientation_tolerance)
    if time_budget is None:
        time_budget = 0.02 + 0.001 * len(targets) if is_batch else 0.02
    time_budget = _positive(time_budget, 'time_budget')
    max_iterations = int(max_iterations)
    if max_iterations < 0:
        raise ConfigurationError(f'max_iterations must be >= 0, got {max_iterations}')
    if restarts is not None and int(restarts) < 0:
        raise ConfigurationError(f'restarts must be >= 0 or None, got {restarts}')
    if parallel_seeds is None:
        parallel_seeds = 1 if is_batch else 16
    parallel_seeds = int(parallel_seeds)
    if parallel_seeds < 1:
        raise ConfigurationError(f'parallel_seeds must be >= 1, got {parallel_seeds}')
    if restarts is not None:
        parallel_seeds = min(parallel_seeds, int(restarts) + 1)
    if rng is None:
        rng = np.random.default_rng(0)
    elif not isinstance(rng, np.random.Generator):
        raise ConfigurationError('rng must be a numpy.random.Generator')
    rest = None
    if rest_posture is not None:
        rest_q = model.check_configuration(rest_posture, 'rest_posture')
        if rest_q.ndim != 1:
            raise ConfigurationError(f'rest_posture must have shape ({model.nq},)')
        rest = evaluator.reduce(rest_q)
    rest_gain = float(rest_gain)
    damping = _positive(damping, 'damping')
    engine = _Engine(evaluator, problem, rng, parallel_seeds, max_iterations,
                     None if restarts is None else int(restarts), damping, rest, rest_gain)
    out = engine.run(evaluator.reduce(q), targets, start + time_budget)
    q[:, evaluator.q_index] = out.q
    wrap = evaluator.layout.wrap_q
    if len(wrap):
        q[:, evaluator.q_index[wrap]] = np.mod(q[:, evaluator.q_index[wrap]] + np.pi,
                                               2 * np.pi) - np.pi
    elapsed = time.perf_counter() - start
    result = IKBatchResult(q, out.success, out.pos.max(axis=1), out.ori.max(axis=1),
                           out.iterations, out.restarts, tuple(out.reasons), elapsed, out.pos,
                           out.ori)
    return result if is_batch else result[0]


def solve(model: 'RobotModel', tip: Tips, target, *, seed=None,
          reference_frame: Optional[str] = None, position_only: bool = False,
          orientation_weight: float = 1.0, weights=None,
          active_joints: Optional[Sequence[str]] = None, position_tolerance: float = 1e-5,
          orientation_tolerance: float = 1e-5, max_iterations: int = 1000,
          time_budget: Optional[float] = None, restarts: Optional[int] = None,
          parallel_seeds: Optional[int] = None, rng: Optional[np.random.Generator] = None,
          rest_posture=None, rest_gain: float = 0.1, damping: float = 1e-3
          ) -> Union[IKResult, IKBatchResult]:
    """
    Inverse position kinematics of one or several tips.

    ``target`` is ``reference_T_target`` (``reference_frame`` defaults to the root link):
    ``(4, 4)`` for one tip, ``(n_tips, 4, 4)`` for several. A batch of targets,
    ``(B, 4, 4)`` or ``(B, n_tips, 4, 4)``, is handed to :func:`solve_batch`.

    The solver never raises for an unreachable target: it returns ``success=False`` with
    the best configuration found within the budget.

    :param model: the robot model.
    :param tip: the tip link, or a list of tip links (each with its own target).
    :param target: the target pose(s), see above.
    :param seed: starting configuration ``(nq,)`` (a batch may give one per target); joints
        that are not active keep its values. Default: the neutral configuration. A seed
        outside the limits is projected onto them (with a warning).
    :param reference_frame: link the targets are expressed in; it must not be moved by the
        active joints (it is evaluated at the seed).
    :param position_only: ignore the orientation.
    :param orientation_weight: weight of the orientation error (rad) against the position
        error (m).
    :param weights: per-axis weights ``[x, y, z, rx, ry, rz]`` in the *target* frame (or one
        row per tip); a zero weight frees that axis, which is then not checked for success.
    :param active_joints: joints allowed to move (default: all actuated joints moving the
        tips); the others stay at the seed's values.
    :param position_tolerance: success threshold on each tip's position error (m).
    :param orientation_tolerance: success threshold on each tip's orientation error (rad).
    :param max_iterations: iteration limit per target.
    :param time_budget: wall-time limit in seconds (default 0.02 s; for a batch, of the whole
        call, default ``0.02 + 0.001 B``).
    :param restarts: maximum number of random seeds tried (default: unlimited within the
        budget; 0 runs a purely local solve from ``seed``).
    :param parallel_seeds: seeds advanced together per target (default 16; 1 in a batch,
        widened up to 16 for the last few unsolved targets).
    :param rng: random generator of the restarts (default ``numpy.random.default_rng(0)``,
        so calls are reproducible unless the time budget cuts them short).
    :param rest_posture: configuration ``(nq,)`` pulled toward in the Jacobian's null space.
    :param rest_gain: gain of that pull (per iteration).
    :param damping: initial Levenberg-Marquardt damping.
    :return: an :class:`IKResult` (or :class:`IKBatchResult` for a batch).
    :raises UnknownFrameError: for an unknown tip, reference frame or joint.
    :raises ConfigurationError: for an invalid target (shape, NaN, non-orthonormal
        rotation), seed or option, or when no active joint moves the tips.
    :raises ReferenceFrameError: if the reference frame is moved by the active joints.
    """
    return _run(model, tip, target, None, seed, reference_frame, position_only,
                orientation_weight, weights, active_joints, position_tolerance,
                orientation_tolerance, max_iterations, time_budget, restarts, parallel_seeds,
                rng, rest_posture, rest_gain, damping)


def solve_batch(model: 'RobotModel', tip: Tips, targets, **options) -> IKBatchResult:
    """
    Solve many targets in one vectorised call (see :func:`solve` for the options).

    :param model: the robot model.
    :param tip: the tip link, or a list of tip links.
    :param targets: ``(B, 4, 4)`` for one tip, ``(B, n_tips, 4, 4)`` for several.
    :param options: the keyword options of :func:`solve`; ``seed`` may be ``(B, nq)``.
    :return: the per-target results.
    :raises UnknownFrameError: for an unknown tip, reference frame or joint.
    :raises ConfigurationError: for invalid targets, seeds or options.
    """
    return _run_batch(model, tip, targets, **options)


def _run_batch(model, tip, targets, *, seed=None, reference_frame=None, position_only=False,
               orientation_weight=1.0, weights=None, active_joints=None,
               position_tolerance=1e-5, orientation_tolerance=1e-5, max_iterations=1000,
               time_budget=None, restarts=None, parallel_seeds=None, rng=None,
               rest_posture=None, rest_gain=0.1, damping=1e-3) -> IKBatchResult:
    return _run(model, tip, targets, True, seed, reference_frame, position_only,
                orientation_weight, weights, active_joints, position_tolerance,
                orientation_tolerance, max_iterations, time_budget, restarts, parallel_seeds,
                rng, rest_posture, rest_gain, damping)
