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
Reach studies on a Dask distributed cluster (the optional extra ``cluster``).

Imported only by a study given a ``client`` (:func:`~.study.run_study`). The study registers
a :class:`ModelPlugin` with the cluster, under a name made of a digest of the URDF text, the
backend and the study's tip and options: every worker (and every worker that joins later)
builds the model from the URDF text once, in the plugin's ``setup``, and keeps it with the
solver and its compiled chains on the plugin for the whole study; the plugin is removed when
the study ends. Each chunk (:class:`~.chunks.Chunk`) is one task: when its worker is lost,
the scheduler gives it to another one (Dask's ``distributed.scheduler.allowed-failures``
times, 3 by default), and a task that raises is tried again :data:`RETRIES` times; the other
chunks are not redone. The answers are gathered in the order of the
chunks. A chunk's answer depends only on the chunk, so that the study equals the one run in
a single process (:class:`~.chunks.LocalRunner`), whatever the number of workers.

The workers need this package (and numba for the compiled backend) installed, as the
client has it.
"""

import hashlib
from typing import List, Sequence, Tuple

from distributed import as_completed, get_worker, WorkerPlugin
import numpy as np

from .chunks import Chunk, ChunkDone, solve_chunk, Solved
from ..errors import ConfigurationError
from ..ik import IKSolver
from ..model import RobotModel
from ..robot import Robot

#: Times a chunk whose task raised (a worker out of memory, say) is solved again.
RETRIES = 2


def rebuild_arguments(model: RobotModel) -> Tuple[bool, str]:
    """
    Return how a worker rebuilds ``model`` from its URDF text: ``(floating_base, world_frame)``.

    :param model: the model (built by :meth:`RobotModel.from_urdf_string` or ``_file``).
    :return: the arguments of :meth:`RobotModel.from_urdf_string` that give the same links
        and joints.
    :raises ConfigurationError: for a model that its URDF text does not give again.
    """
    if model.urdf:
        for floating in (False, True):
            again = RobotModel.from_urdf_string(model.urdf, floating, model.root_link)
            if again.link_names == model.link_names and \
                    [(j.name, j.type) for j in again.joints] == \
                    [(j.name, j.type) for j in model.joints]:
                return floating, model.root_link
    raise ConfigurationError(f"robot '{model.name}' does not come from its URDF text: a "
                             'study on a cluster needs a model built from a URDF')


class ModelPlugin(WorkerPlugin):
    """The model and the study's solver on a worker, built once from the URDF text."""

    def __init__(self, urdf: str, floating_base: bool, world_frame: str, backend: str,
                 tip: str, active_joints: Tuple[str, ...]) -> None:
        """
        Keep what a worker builds from (the plugin is sent to every worker).

        :param urdf: the URDF text.
        :param floating_base: whether the model has a floating root joint.
        :param world_frame: its root link then.
        :param backend: the model's backend.
        :param tip: the study's tip link.
        :param active_joints: the study's active joints.
        """
        self.arguments = (urdf, floating_base, world_frame, backend)
        self.tip, self.active_joints = tip, active_joints
        self.solver = None

    def setup(self, worker) -> None:
        """
        Build the model and the solver on a worker.

        :param worker: the worker.
        """
        urdf, floating_base, world_frame, backend = self.arguments
        robot = Robot.from_urdf_string(urdf, floating_base, world_frame, backend)
        self.solver = IKSolver(robot, self.tip, list(self.active_joints))


def _solve_on_worker(name: str, chunk: Chunk, q_rest: np.ndarray, options: dict) -> Solved:
    """Solve a chunk with the solver of the worker's plugin ``name`` (a task)."""
    plugin = get_worker().plugins[name]
    return solve_chunk(plugin.solver, plugin.tip, q_rest, chunk, options)


class ClusterRunner:
    """Solve chunks on the workers of a Dask cluster (one task per chunk)."""

    def __init__(self, client, model: Robot, tip: str, active_joints: Sequence[str],
                 q_rest: np.ndarray, options: dict) -> None:
        """
        Register the study's model with the cluster's workers.

        :param client: a ``distributed.Client``.
        :param model: the model (rebuilt on the workers from its URDF text).
        :param tip: the tip link.
        :param active_joints: the active joints.
        :param q_rest: ``(nq,)`` the rest configuration.
        :param options: the batch solve's options (:func:`~.chunks.solve_chunk`).
        :raises ConfigurationError: for something else than a client, or a model that its
            URDF text does not give again.
        """
        if not all(hasattr(client, name) for name in ('submit', 'register_plugin')):
            raise ConfigurationError(f'client must be a distributed.Client, got '
                                     f'{type(client).__name__}')
        floating, world = rebuild_arguments(model)
        plugin = ModelPlugin(model.urdf, floating, world, model.backend, tip,
                             tuple(active_joints))
        digest = hashlib.sha256(repr((plugin.arguments, tip, tuple(active_joints),
                                      sorted(options.items()))).encode()).hexdigest()
        self.name = f'frame_kinematics-reach-{digest[:20]}'
        self.client, self.q_rest, self.options = client, q_rest.copy(), dict(options)
        client.register_plugin(plugin, name=self.name)

    def __call__(self, chunks: Sequence[Chunk], done: ChunkDone = None) -> List[Solved]:
        """
        Solve the chunks on the cluster.

        :param chunks: the chunks.
        :param done: called with each chunk's size and solved count as it is done.
        :return: the answer of every chunk, in the order of ``chunks``.
        """
        futures = [self.client.submit(_solve_on_worker, self.name, chunk, self.q_rest,
                                      self.options, retries=RETRIES, pure=False)
                   for chunk in chunks]
        order = {future.key: k for k, future in enumerate(futures)}
        answers: List[Solved] = [None] * len(futures)
        for future, answer in as_completed(futures, with_results=True):
            k = order[future.key]
            answers[k] = answer
            if done is not None:
                done(len(chunks[k].poses), int(np.count_nonzero(answer[1])))
        return answers

    def close(self) -> None:
        """Remove the study's plugin (and its model) from the workers."""
        self.client.unregister_worker_plugin(self.name)
