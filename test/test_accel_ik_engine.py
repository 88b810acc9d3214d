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
"""Tests of frame_kinematics.core.accel.ik_engine: CompiledChain, batches and threads."""

import os
import subprocess
import sys
import textwrap
import threading

from accel_testing import compiled_model
from conftest import random_configuration
from frame_kinematics import robots
from frame_kinematics.core import ik, Robot
import numpy as np
import pytest


def test_a_compiled_batch_gives_the_time_left_to_the_targets_that_need_it():
    pytest.importorskip('numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    rng = np.random.default_rng(10)
    targets = np.array(model.forward_kinematics(random_configuration(model, rng, 5))
                       .transform('tool0'))
    targets[1, :3, 3] = [0.0, 4.0, 0.0]
    result = ik.solve_batch(model, 'tool0', targets, time_budget=0.2, max_iterations=10 ** 9)
    assert result.success.tolist() == [True, False, True, True, True]
    assert result.reason[1] == 'time_budget' and result.iterations[1] > 100


def test_threaded_batches_may_run_from_several_threads_at_once():
    pytest.importorskip('numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    solver = ik.IKSolver(model, 'tool0')
    rng = np.random.default_rng(30)
    targets = model.forward_kinematics(random_configuration(model, rng, 80)).transform('tool0')
    results = [None] * 4

    def work(k):
        results[k] = solver.solve_batch(targets, rng=np.random.default_rng(k), time_budget=30.0)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(results))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result.success.all() for result in results)


def test_problems_the_compiled_solve_does_not_handle_go_to_the_numpy_engine():
    pytest.importorskip('numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    target = model.forward_kinematics(np.full(model.nq, 0.3)).transform('tool0')
    solver = ik.IKSolver(model, 'tool0')
    compiled = solver.evaluator()._compiled
    problem = solver._residual(np.array([[1.0, 1.0, 1.0, 0.0, 0.0, 1.0]]), 1e-5, 1e-5)
    assert not compiled.supports(problem, None)
    assert compiled.supports(solver._residual(np.ones((1, 6)), 1e-5, 1e-5), np.zeros(7))
    weighted = solver.solve(target, weights=[1, 1, 1, 0, 0, 1], time_budget=5.0)
    assert weighted.success


def test_a_threaded_batch_leaves_the_callers_chunk_size_as_it_was():
    numba = pytest.importorskip('numba')
    model = compiled_model(robots.path('fk_arm'))
    rng = np.random.default_rng(46)
    targets = model.forward_kinematics(random_configuration(model, rng, 70)).transform('tool0')
    result = ik.IKSolver(model, 'tool0').solve_batch(targets, time_budget=30.0)
    assert result.success.all()
    assert numba.get_parallel_chunksize() == 0


def test_batches_stay_on_one_thread_under_numbas_workqueue_layer(monkeypatch):
    numba = pytest.importorskip('numba')
    from frame_kinematics.core.accel import ik_engine
    assert ik_engine.warm_up() == (numba.threading_layer() in ik_engine.THREAD_SAFE_LAYERS)
    monkeypatch.setattr(numba, 'threading_layer', lambda: 'workqueue')
    assert ik_engine.warm_up() is False  # two threads launching at once would abort


_FIRST_SOLVES = textwrap.dedent("""
    import threading
    import numpy as np
    from frame_kinematics import robots
    from frame_kinematics.core import ik, KinematicsState, RobotModel

    model = RobotModel(RobotModel.parse(open(robots.path('fk_arm')).read())[0])
    ik.solve(model, 'tool0', np.eye(4), time_budget=0.001)  # chooses the layer
    goal = KinematicsState(model, np.full(model.nq, 0.1)).transform('tool0')

    def solves():  # each builds an executor whose first solver warms up
        for _ in range(100):
            ik.solve(model, 'tool0', goal, max_iterations=50)

    threads = [threading.Thread(target=solves) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    import numba
    print(numba.threading_layer())
""")


def test_first_solvers_of_two_threads_at_once_survive_numbas_workqueue_layer():
    pytest.importorskip('numba')
    env = dict(os.environ, NUMBA_THREADING_LAYER='workqueue', FRAME_KINEMATICS_BACKEND='numba')
    done = subprocess.run([sys.executable, '-c', _FIRST_SOLVES], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ['workqueue']
