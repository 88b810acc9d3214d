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
Run a reach study: batch inverse kinematics of every target, checked, seeded from neighbours.

:func:`run_study` takes a model, a tip and a :class:`~.targets.TargetSet` and returns a
:class:`~.result.ReachResult`:

1. Targets outside the tip's reach bound (:mod:`.bounds`) are rejected before any solve.
2. The others are solved in chunks by the public batch solve
   (:meth:`IKSolver.solve_batch <frame_kinematics.core.ik.IKSolver.solve_batch>`) from the
   rest configuration with random restarts, within ``max_iterations`` and ``restarts`` per
   target and no wall-clock limit (a study's answer does not depend on the machine).
3. Every claimed solution is checked by forward kinematics of the model against the study's
   tolerances; a claim that fails the check counts as unsolved.
4. The neighbour pass (as REACH's): an unsolved target is retried by a local solve seeded
   with the solution of the same orientation at the nearest solved points (within
   ``neighbour_radius``, :func:`~.neighbours.nearest`), or of another orientation at its own
   point; new solutions seed their neighbours in the next round.
5. Solutions are scored (:mod:`.scores`).

The random restarts of chunk ``k`` draw from ``numpy.random.default_rng([seed, k])``: a
study is the same for the same seed and settings.
"""

import time
from typing import Callable, Optional, Sequence

import numpy as np

from .bounds import reach_bound
from .neighbours import nearest
from .result import ReachResult, STATUS_BEYOND, STATUS_NEIGHBOUR, STATUS_SOLVED
from .scores import check_weights, combined_score, DEFAULT_WEIGHTS, joint_limit_margin, \
    manipulability
from .targets import TargetSet
from ..checks import check_count
from ..errors import ConfigurationError
from ..ik import IKSolver
from ..ik.options import default_seed, MAX_TIME_BUDGET, number
from ..robot import Robot
from ..spatial import log_so3, quaternion_from_rotation

#: Neighbours looked at per unsolved target.
NEIGHBOURS = 8
#: Configurations scored per forward kinematics call (bounds the memory of the link poses).
_SCORE_CHUNK = 16384

Progress = Callable[[int, int, str], None]


def pose_errors(model: Robot, tip: str, q: np.ndarray, root_T_target: np.ndarray):
    """
    Return the position and orientation errors of ``tip`` at ``q`` by forward kinematics.

    :param model: the robot model.
    :param tip: the tip link.
    :param q: ``(B, nq)`` configurations.
    :param root_T_target: ``(B, 4, 4)`` targets in the root link.
    :return: ``(position errors (m), orientation errors (rad))``, each ``(B,)``.
    """
    if not len(q):
        return np.zeros(0), np.zeros(0)
    reached = model.forward_kinematics(q).transform(tip)
    position = np.linalg.norm(reached[..., :3, 3] - root_T_target[..., :3, 3], axis=-1)
    relative = np.swapaxes(reached[..., :3, :3], -1, -2) @ root_T_target[..., :3, :3]
    return position, np.linalg.norm(log_so3(relative), axis=-1)


def _default_radius(points: np.ndarray) -> float:
    """Twice the spacing of the points were they spread evenly over their bounding box."""
    span = np.ptp(points, axis=0)
    used = span[span > 1e-9]
    if not len(used):
        return 1e-3
    spacing = float(np.prod(used) / max(len(points), 1)) ** (1.0 / len(used))
    return max(2.0 * spacing, 1e-6)


class _Study:
    """The state of one study while it runs (flat target index ``i * O + o``)."""

    def __init__(self, model, tip, solver, targets, root_T_targets, q_rest, options, seed):
        self.model, self.tip, self.solver = model, tip, solver
        self.seed = seed
        self.shape = targets.shape
        self.poses = root_T_targets.reshape(-1, 4, 4)
        self.q_rest = q_rest
        self.options = options
        self.q = np.full((len(self.poses), model.nq), np.nan)
        self.status = np.zeros(len(self.poses), dtype=np.int8)
        self.fk_rejected = 0

    def solve(self, index: np.ndarray, seeds: Optional[np.ndarray], rng, restarts,
              iterations, status: int) -> int:
        """Solve targets ``index``; keep the checked solutions; return how many."""
        if not len(index):
            return 0
        seed = self.q_rest if seeds is None else seeds
        out = self.solver.solve_batch(self.poses[index], seed=seed, rng=rng, restarts=restarts,
                                      max_iterations=iterations, time_budget=MAX_TIME_BUDGET,
                                      **self.options)
        claimed = index[out.success]
        q = out.q[out.success]
        pos, ori = pose_errors(self.model, self.tip, q, self.poses[claimed])
        ok = (pos <= self.options['position_tolerance']) & \
            (ori <= self.options['orientation_tolerance'])
        self.fk_rejected += int(np.count_nonzero(~ok))
        self.q[claimed[ok]] = q[ok]
        self.status[claimed[ok]] = status
        return int(np.count_nonzero(ok))


def _neighbour_pass(study: _Study, points: np.ndarray, radius: float, rounds: int,
                    iterations: int, progress: Optional[Progress]) -> int:
    n_points, n_orient = study.shape
    status = study.status.reshape(n_points, n_orient)
    tried = np.full(status.shape, -1, dtype=np.int64)
    found = 0
    for round_index in range(rounds):
        open_points = np.nonzero(np.any(status == 0, axis=1))[0]
        if not len(open_points):
            break
        _, near = nearest(points, points[open_points], NEIGHBOURS, radius)
        source = np.full((len(open_points), n_orient), -1, dtype=np.int64)
        for column in range(NEIGHBOURS - 1, -1, -1):  # nearest last: it wins
            j = near[:, column]
            valid = j < n_points
            solved = np.zeros(source.shape, dtype=bool)
            solved[valid] = status[j[valid]] > 0
            source = np.where(solved, j[:, None] * n_orient + np.arange(n_orient), source)
        own = status[open_points] > 0
        first = np.where(own.any(axis=1), np.argmax(own, axis=1), -1)
        fallback = np.where(first >= 0, open_points * n_orient + first, -1)[:, None]
        source = np.where(source >= 0, source, fallback)
        rows, cols = np.nonzero((status[open_points] == 0) & (source >= 0) &
                                (source != tried[open_points]))
        if not len(rows):
            break
        target = open_points[rows] * n_orient + cols
        seeds = study.q[source[rows, cols]]
        tried[open_points[rows], cols] = source[rows, cols]
        rng = np.random.default_rng([study.seed, 1 << 20, round_index])
        found += study.solve(target, seeds, rng, 0, iterations, STATUS_NEIGHBOUR)
        if progress is not None:
            progress(round_index + 1, rounds, f'neighbour rounds, {found} more solved')
    return found


def run_study(model: Robot, tip: str, targets: TargetSet, *,
              active_joints: Optional[Sequence[str]] = None, seed: int = 0,
              position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
              max_iterations: int = 60, restarts: int = 8,
              neighbour_radius: Optional[float] = None, neighbour_rounds: int = 3,
              neighbour_iterations: int = 60, weights: Sequence[float] = DEFAULT_WEIGHTS,
              reject_beyond_reach: bool = True, chunk: int = 4096,
              progress: Optional[Progress] = None) -> ReachResult:
    """
    Run a reach study (see the module for the passes).

    :param model: the robot model.
    :param tip: the tip link.
    :param targets: the targets, in ``targets.frame`` (placed at the rest configuration).
    :param active_joints: joints allowed to move (default: all that move the tip).
    :param seed: seed of the random restarts (a whole number >= 0).
    :param position_tolerance: success threshold on the position error (m).
    :param orientation_tolerance: success threshold on the orientation error (rad).
    :param max_iterations: solver iterations per target in the first pass.
    :param restarts: random restarts per target in the first pass.
    :param neighbour_radius: largest distance of a neighbour (m; default twice the points'
        spacing); 0 skips the neighbour pass.
    :param neighbour_rounds: rounds of the neighbour pass.
    :param neighbour_iterations: iterations of a neighbour-seeded local solve.
    :param weights: ``(manipulability, joint-limit margin)`` of the combined score.
    :param reject_beyond_reach: whether to reject targets outside the reach bound unsolved.
    :param chunk: targets per batch solve (bounds memory, paces the progress reports).
    :param progress: called as ``progress(done, total, what)`` after every chunk and every
        neighbour round (``what`` names the work: ``targets tried, 12 solved``).
    :return: the result.
    :raises UnknownFrameError: for an unknown tip, joint or target frame (before any work).
    :raises ConfigurationError: for a bad option (before any work).
    """
    start = time.perf_counter()
    if not isinstance(targets, TargetSet):
        raise ConfigurationError(f'targets must be a TargetSet, got {type(targets).__name__}')
    if not isinstance(tip, str):
        raise ConfigurationError(f'a reach study has one tip link (a name), got '
                                 f'{type(tip).__name__}')
    solver = IKSolver(model, tip, active_joints)
    seed = check_count(seed, 'seed', 0, 2 ** 63 - 1)
    options = {'position_tolerance': number(position_tolerance, 'position_tolerance',
                                            positive=True),
               'orientation_tolerance': number(orientation_tolerance, 'orientation_tolerance',
                                               positive=True)}
    max_iterations = check_count(max_iterations, 'max_iterations', 1, 10 ** 6)
    restarts = check_count(restarts, 'restarts', 0, 10 ** 6)
    rounds = check_count(neighbour_rounds, 'neighbour_rounds', 0, 1000)
    neighbour_iterations = check_count(neighbour_iterations, 'neighbour_iterations', 1, 10 ** 6)
    chunk = check_count(chunk, 'chunk', 1, 10 ** 7)
    weights = check_weights(weights)
    q_rest = default_seed(model.layout)
    frame = model.root_link if targets.frame is None else targets.frame
    root_T_frame = model.transform(q_rest, frame)
    root_T_workpiece = root_T_frame @ targets.frame_T_workpiece
    root_T_targets = root_T_workpiece @ targets.poses()
    points = root_T_targets[:, 0, :3, 3].copy()
    radius = _default_radius(points) if neighbour_radius is None else \
        number(neighbour_radius, 'neighbour_radius')
    study = _Study(model, tip, solver, targets, root_T_targets, q_rest, options, seed)
    n_orient = targets.shape[1]
    bound = reach_bound(model, tip, solver.active_joints, q_rest)
    if reject_beyond_reach:
        beyond = bound.outside(points, options['position_tolerance'])
        study.status.reshape(-1, n_orient)[beyond] = STATUS_BEYOND
    todo = np.nonzero(study.status == 0)[0]
    solved_first = 0
    for k, first in enumerate(range(0, len(todo), chunk)):
        part = todo[first:first + chunk]
        solved_first += study.solve(part, None, np.random.default_rng([seed, k]), restarts,
                                    max_iterations, STATUS_SOLVED)
        if progress is not None:
            progress(first + len(part), len(todo), f'targets tried, {solved_first} solved')
    solved_neighbour = 0
    if radius > 0 and rounds:
        solved_neighbour = _neighbour_pass(study, points, radius, rounds, neighbour_iterations,
                                           progress)
    scores = _scores(model, tip, solver, study.q, study.status > 0, weights)
    status = study.status.reshape(targets.shape)
    stats = {'beyond_reach': int(np.count_nonzero(status == STATUS_BEYOND)),
             'solved_first_pass': solved_first, 'solved_neighbour_pass': solved_neighbour,
             'fk_rejected': study.fk_rejected, 'reach_radius': bound.radius,
             'elapsed': time.perf_counter() - start}
    settings = {'seed': seed, 'max_iterations': max_iterations, 'restarts': restarts,
                'neighbour_radius': radius, 'neighbour_rounds': rounds,
                'neighbour_iterations': neighbour_iterations, 'weights': list(weights),
                'reject_beyond_reach': bool(reject_beyond_reach), 'chunk': chunk, **options}
    rotations = root_T_targets[..., :3, :3]
    return ReachResult(
        robot=model.name, tip=tip, active_joints=tuple(solver.active_joints),
        points=points, normals=targets.normals @ root_T_workpiece[:3, :3].T,
        regions=targets.regions.copy(), quaternions=quaternion_from_rotation(rotations),
        q=study.q.reshape(targets.shape + (model.nq,)), status=status,
        manipulability=scores[0].reshape(targets.shape),
        joint_limit_margin=scores[1].reshape(targets.shape),
        score=scores[2].reshape(targets.shape), settings=settings, stats=stats)


def _scores(model, tip, solver, q, solved, weights):
    manip = np.full(len(q), np.nan)
    margin = np.full(len(q), np.nan)
    index = np.nonzero(solved)[0]
    selection = solver.selection
    for first in range(0, len(index), _SCORE_CHUNK):
        part = index[first:first + _SCORE_CHUNK]
        state = model.forward_kinematics(q[part])
        manip[part] = manipulability(state, tip, solver.active_joints)
        margin[part] = joint_limit_margin(q[part][:, selection.q_index],
                                          selection.layout.lower, selection.layout.upper)
    score = np.full(len(q), np.nan)
    score[index] = combined_score(manip[index], margin[index], weights)
    return manip, margin, score
