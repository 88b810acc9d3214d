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
The unit of work of a reach study: one chunk of targets, solved and checked.

A study cuts its targets in :class:`Chunk` s and hands them to a runner: :class:`LocalRunner`
solves them one after the other in this process, :class:`~.cluster.ClusterRunner` on the
workers of a Dask cluster. A chunk carries everything its solve depends on (its targets,
seeds, the key of its random restarts and the budgets), so that its answer does not depend
on where or in which order it is solved: a study gives the same result on any runner.
"""

from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

from ..ik import IKSolver
from ..ik.options import MAX_TIME_BUDGET
from ..robot import Robot
from ..spatial import log_so3

#: What a runner returns per chunk: the configurations found, which passed the check, and
#: how many claims failed it.
Solved = Tuple[np.ndarray, np.ndarray, int]
#: Called with the number of targets of every chunk and of those it solved, as it is done.
ChunkDone = Optional[Callable[[int, int], None]]


@dataclass(frozen=True)
class Chunk:
    """
    Targets solved together, with what their solve depends on (read-only).

    :ivar poses: ``(n, 4, 4)`` ``root_T_target``.
    :ivar seeds: ``(n, nq)`` start configurations, or None for the rest configuration.
    :ivar key: the entropy of the chunk's random restarts (``numpy.random.default_rng(key)``).
    :ivar restarts: random restarts per target.
    :ivar iterations: solver iterations per target.
    """

    poses: np.ndarray
    seeds: Optional[np.ndarray]
    key: Tuple[int, ...]
    restarts: int
    iterations: int


def pose_errors(model: Robot, tip: str, q: np.ndarray, root_T_target: np.ndarray
                ) -> Tuple[np.ndarray, np.ndarray]:
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


def solve_chunk(solver: IKSolver, tip: str, q_rest: np.ndarray, chunk: Chunk,
                options: dict) -> Solved:
    """
    Solve a chunk by the public batch solve and check every claim by forward kinematics.

    :param solver: the solver of the study's tip and active joints.
    :param tip: the tip link.
    :param q_rest: ``(nq,)`` the rest configuration (the seed of a chunk without seeds).
    :param chunk: the chunk.
    :param options: the tolerances and the stall rule (keyword options of
        :meth:`~frame_kinematics.core.ik.IKSolver.solve_batch`).
    :return: ``(q, ok, rejected)``: ``(n, nq)`` the configurations found, ``(n,)`` whether
        each is a claim that passed the check (within the tolerances), and how many claims
        failed it.
    """
    seed = q_rest if chunk.seeds is None else chunk.seeds
    out = solver.solve_batch(chunk.poses, seed=seed, rng=np.random.default_rng(chunk.key),
                             restarts=chunk.restarts, max_iterations=chunk.iterations,
                             time_budget=MAX_TIME_BUDGET, **options)
    ok = out.success.copy()
    pos, ori = pose_errors(solver.model, tip, out.q[ok], chunk.poses[ok])
    checked = (pos <= options['position_tolerance']) & (ori <= options['orientation_tolerance'])
    ok[ok] = checked
    return out.q, ok, int(np.count_nonzero(~checked))


class LocalRunner:
    """Solve chunks in this process, one after the other."""

    def __init__(self, solver: IKSolver, tip: str, q_rest: np.ndarray, options: dict) -> None:
        """
        Bind the runner to a study.

        :param solver: the study's solver.
        :param tip: the tip link.
        :param q_rest: ``(nq,)`` the rest configuration.
        :param options: the batch solve's options (:func:`solve_chunk`).
        """
        self.solver, self.tip, self.q_rest, self.options = solver, tip, q_rest, options

    def __call__(self, chunks: Sequence[Chunk], done: ChunkDone = None) -> List[Solved]:
        """
        Solve the chunks, in order.

        :param chunks: the chunks.
        :param done: called with each chunk's size and solved count as it is done.
        :return: the answer of every chunk, in the order of ``chunks``.
        """
        answers = []
        for chunk in chunks:
            answers.append(solve_chunk(self.solver, self.tip, self.q_rest, chunk, self.options))
            if done is not None:
                done(len(chunk.poses), int(np.count_nonzero(answers[-1][1])))
        return answers
