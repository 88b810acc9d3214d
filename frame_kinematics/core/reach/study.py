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

Every solve is cut in chunks of ``chunk`` targets (:class:`~.chunks.Chunk`), solved in this
process or, given a Dask ``client``, on the workers of its cluster (:mod:`.cluster`). The
random restarts of chunk ``k`` of the first pass draw from ``numpy.random.default_rng((seed,
k))``, those of round ``r`` of the neighbour pass from ``default_rng((seed, NEIGHBOUR_KEY, r,
k))``: a chunk's answer depends on nothing else, so that a study is the same for the same
seed, settings and backend (the numpy and the compiled solve draw different restarts; the
result's ``settings`` name the backend), in one process or on a cluster of any size.
"""

import time
from typing import Callable, Optional, Sequence, Tuple

import numpy as np

from .bounds import reach_bound
from .chunks import Chunk, LocalRunner
from .neighbours import nearest
from .result import ReachResult, STATUS_BEYOND, STATUS_NEIGHBOUR, STATUS_SOLVED, STATUS_UNSOLVED
from .scores import check_weights, combined_score, DEFAULT_WEIGHTS, joint_limit_margin, \
    manipulability
from .targets import TargetSet
from ..checks import check_count, check_flag
from ..errors import ConfigurationError
from ..ik import IKSolver
from ..ik.options import default_seed, number
from ..robot import Robot
from ..spatial import quaternion_from_rotation

#: Neighbours looked at per unsolved target.
NEIGHBOURS = 8
#: The second entry of the random keys of the neighbour pass's chunks (see the module).
NEIGHBOUR_KEY = 1 << 20
#: Configurations scored per forward kinematics call (bounds the memory of the link poses).
_SCORE_CHUNK = 16384

#: How the progress text of the first pass and of the neighbour rounds begins.
FIRST_PASS, NEIGHBOUR_ROUNDS = 'targets tried', 'neighbour rounds'

Progress = Callable[[int, int, str, int], None]


def check_progress(progress) -> None:
    """
    Refuse a progress report that cannot be called, before any work.

    :param progress: a callable, or None.
    :raises ConfigurationError: for anything else.
    """
    if progress is not None and not callable(progress):
        raise ConfigurationError(f'progress must be callable or None, got '
                                 f'{type(progress).__name__}')


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

    def __init__(self, runner, shape, root_T_targets, nq, seed, chunk):
        self.runner = runner
        self.seed, self.chunk = seed, chunk
        self.shape = shape
        self.poses = root_T_targets.reshape(-1, 4, 4)
        self.q = np.full((len(self.poses), nq), np.nan)
        self.status = np.zeros(len(self.poses), dtype=np.int8)
        self.fk_rejected = 0

    def solve(self, index: np.ndarray, seeds: Optional[np.ndarray], key: Tuple[int, ...],
              restarts: int, iterations: int, status: int, done=None) -> int:
        """
        Solve targets ``index`` in chunks; keep the checked solutions; return how many.

        Chunk ``k`` of the call draws its restarts from ``default_rng(key + (k,))``.
        """
        parts = [index[first:first + self.chunk] for first in range(0, len(index), self.chunk)]
        chunks = [Chunk(self.poses[part], None if seeds is None else
                        seeds[k * self.chunk:k * self.chunk + len(part)], key + (k,), restarts,
                        iterations) for k, part in enumerate(parts)]
        found = 0
        for part, (q, ok, rejected) in zip(parts, self.runner(chunks, done)):
            self.fk_rejected += rejected
            self.q[part[ok]] = q[ok]
            self.status[part[ok]] = status
            found += int(np.count_nonzero(ok))
        return found


def _neighbour_pass(study: _Study, points: np.ndarray, radius: float, rounds: int,
                    iterations: int, skip_failed: bool, progress: Optional[Progress],
                    solved_before: int) -> Tuple[int, int]:
    """Run the neighbour rounds: ``(targets solved, targets skipped)`` (see the module)."""
    n_points, n_orient = study.shape
    status = study.status.reshape(n_points, n_orient)
    tried = np.full(status.shape, -1, dtype=np.int64)
    skipped = np.zeros(status.shape, dtype=bool)
    found = 0
    for round_index in range(rounds):
        open_points = np.nonzero(np.any(status == STATUS_UNSOLVED, axis=1))[0]
        if not len(open_points):
            break
        _, near = nearest(points, points[open_points], NEIGHBOURS, radius)
        source = np.full((len(open_points), n_orient), -1, dtype=np.int64)
        others = (near < n_points) & (near != open_points[:, None])
        for column in range(NEIGHBOURS - 1, -1, -1):  # nearest last: it wins
            j = near[:, column]
            valid = j < n_points
            solved = np.zeros(source.shape, dtype=bool)
            solved[valid] = status[j[valid]] >= STATUS_SOLVED
            source = np.where(solved, j[:, None] * n_orient + np.arange(n_orient), source)
        own = status[open_points] >= STATUS_SOLVED
        first = np.where(own.any(axis=1), np.argmax(own, axis=1), -1)
        fallback = np.where(first >= 0, open_points * n_orient + first, -1)[:, None]
        if skip_failed:
            # every neighbour failed this orientation: the target is not retried
            failed = (source < 0) & others.any(axis=1)[:, None]
            skipped[open_points] |= failed & (status[open_points] == STATUS_UNSOLVED)
            fallback = np.where(failed, -1, fallback)
        source = np.where(source >= 0, source, fallback)
        rows, cols = np.nonzero((status[open_points] == STATUS_UNSOLVED) & (source >= 0) &
                                (source != tried[open_points]))
        if not len(rows):
            break
        target = open_points[rows] * n_orient + cols
        seeds = study.q[source[rows, cols]]
        tried[open_points[rows], cols] = source[rows, cols]
        found += study.solve(target, seeds, (study.seed, NEIGHBOUR_KEY, round_index), 0,
                             iterations, STATUS_NEIGHBOUR)
        if progress is not None:
            progress(round_index + 1, rounds, f'{NEIGHBOUR_ROUNDS}, {found} more solved',
                     solved_before + found)
    return found, int(np.count_nonzero(skipped & (status == STATUS_UNSOLVED)))


def run_study(model: Robot, tip: str, targets: TargetSet, *,
              active_joints: Optional[Sequence[str]] = None, seed: int = 0,
              position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
              max_iterations: int = 60, restarts: int = 8,
              neighbour_radius: Optional[float] = None, neighbour_rounds: int = 3,
              neighbour_iterations: int = 60, weights: Sequence[float] = DEFAULT_WEIGHTS,
              reject_beyond_reach: bool = True, abandon_stalled: bool = True,
              skip_failed_neighbours: bool = True, chunk: int = 4096,
              progress: Optional[Progress] = None, client=None) -> ReachResult:
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
    :param abandon_stalled: whether the first pass abandons a target whose error stalls (the
        batch solve's option ``abandon_stalled``).
    :param skip_failed_neighbours: whether the neighbour pass leaves out a target none of
        whose neighbours reached its orientation.
    :param chunk: targets per batch solve (bounds memory, paces the progress reports; the
        unit of work on a cluster).
    :param progress: called as ``progress(done, total, what, solved)`` after every chunk and
        every neighbour round: ``what`` names the work (``targets tried, 12 solved``; it begins
        with :data:`FIRST_PASS` or :data:`NEIGHBOUR_ROUNDS`), ``solved`` counts the targets
        solved so far by both passes.
    :param client: a ``distributed.Client``: the chunks are solved on its cluster's workers
        (:mod:`.cluster`; the same result as in this process). None: in this process.
    :return: the result.
    :raises UnknownFrameError: for an unknown tip, joint or target frame (before any work).
    :raises ConfigurationError: for a bad option (a ``progress`` that is not callable), or a
        client and a model not built from its URDF text (before any work).
    """
    start = time.perf_counter()
    check_progress(progress)
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
                                               positive=True),
               'abandon_stalled': check_flag(abandon_stalled, 'abandon_stalled')}
    rules = (check_flag(reject_beyond_reach, 'reject_beyond_reach'),
             check_flag(skip_failed_neighbours, 'skip_failed_neighbours'))
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
    runner = LocalRunner(solver, tip, q_rest, options) if client is None else \
        _cluster_runner(client, model, tip, solver.active_joints, q_rest, options)
    try:
        study = _Study(runner, targets.shape, root_T_targets, model.nq, seed, chunk)
        solved_first, solved_neighbour, skipped, bound = _passes(
            study, model, tip, solver, q_rest, points, radius, rounds,
            (max_iterations, restarts, neighbour_iterations),
            rules, progress)
    finally:
        if client is not None:
            runner.close()
    scores = _scores(model, tip, solver, study.q, study.status >= STATUS_SOLVED, weights)
    status = study.status.reshape(targets.shape)
    stats = {'beyond_reach': int(np.count_nonzero(status == STATUS_BEYOND)),
             'solved_first_pass': solved_first, 'solved_neighbour_pass': solved_neighbour,
             'neighbour_skipped': skipped, 'fk_rejected': study.fk_rejected,
             'reach_radius': bound.radius,
             'elapsed': time.perf_counter() - start}
    settings = {'seed': seed, 'max_iterations': max_iterations, 'restarts': restarts,
                'neighbour_radius': radius, 'neighbour_rounds': rounds,
                'neighbour_iterations': neighbour_iterations, 'weights': list(weights),
                'reject_beyond_reach': rules[0], 'skip_failed_neighbours': rules[1],
                'chunk': chunk, 'backend': 'numpy' if solver.executor is None else 'numba',
                **options}
    rotations = root_T_targets[..., :3, :3]
    return ReachResult(
        robot=model.name, tip=tip, active_joints=tuple(solver.active_joints),
        points=points, normals=targets.normals @ root_T_workpiece[:3, :3].T,
        regions=targets.regions.copy(), quaternions=quaternion_from_rotation(rotations),
        q=study.q.reshape(targets.shape + (model.nq,)), status=status,
        manipulability=scores[0].reshape(targets.shape),
        joint_limit_margin=scores[1].reshape(targets.shape),
        score=scores[2].reshape(targets.shape), settings=settings, stats=stats)


def _passes(study: _Study, model: Robot, tip: str, solver: IKSolver, q_rest: np.ndarray,
            points: np.ndarray, radius: float, rounds: int, budgets: Tuple[int, int, int],
            rules: Tuple[bool, bool], progress: Optional[Progress]):
    """Run the bound, the first pass and the neighbour pass: ``(first, neighbour, bound)``."""
    max_iterations, restarts, neighbour_iterations = budgets
    reject_beyond_reach, skip_failed = rules
    bound = reach_bound(model, tip, solver.active_joints, q_rest)
    if reject_beyond_reach:
        beyond = bound.outside(points, study.runner.options['position_tolerance'])
        study.status.reshape(-1, study.shape[1])[beyond] = STATUS_BEYOND
    todo = np.nonzero(study.status == STATUS_UNSOLVED)[0]
    counts = [0, 0]

    def done(size: int, solved: int) -> None:
        counts[0] += size
        counts[1] += solved
        if progress is not None:
            progress(counts[0], len(todo), f'{FIRST_PASS}, {counts[1]} solved', counts[1])

    solved_first = study.solve(todo, None, (study.seed,), restarts, max_iterations,
                               STATUS_SOLVED, done)
    solved_neighbour = skipped = 0
    if radius > 0 and rounds:
        solved_neighbour, skipped = _neighbour_pass(study, points, radius, rounds,
                                                    neighbour_iterations, skip_failed, progress,
                                                    solved_first)
    return solved_first, solved_neighbour, skipped, bound


def _cluster_runner(client, model: Robot, tip: str, active_joints, q_rest: np.ndarray,
                    options: dict):
    """Return a runner on a Dask cluster (Dask is imported here, for a study with a client)."""
    from .cluster import ClusterRunner
    return ClusterRunner(client, model, tip, active_joints, q_rest, options)


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
