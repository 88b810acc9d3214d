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
"""Reach studies on a Dask cluster: the single-process result, workers' models, refusals."""

import os
import signal
import subprocess
import sys

from conftest import bundled, reach_grid
from frame_kinematics.core import ConfigurationError, Robot
from frame_kinematics.core.reach import ReachResult, run_study
from frame_kinematics.core.urdf import load_urdf
import numpy as np
import pytest

distributed = pytest.importorskip('distributed')
# imports distributed itself: after the skip, where Dask is not installed (the old-numpy leg)
reach_cluster = pytest.importorskip('frame_kinematics.core.reach.cluster')
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPTIONS = {'seed': 3, 'max_iterations': 30, 'restarts': 2, 'chunk': 40}


@pytest.fixture(scope='module')
def study_inputs():
    """Return the bundled arm (numpy backend) and the reach tests' grid."""
    return bundled('fk_arm', backend='numpy'), reach_grid()


def local_cluster():
    """Return a LocalCluster of 2 single-thread worker processes on loopback (numpy backend)."""
    return distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                    host='127.0.0.1', dashboard_address=':0',
                                    env={'FRAME_KINEMATICS_BACKEND': 'numpy', 'PYTHONPATH': ROOT})


@pytest.fixture(scope='module')
def client():
    with local_cluster() as cluster, distributed.Client(cluster) as client:
        yield client


def same(a: ReachResult, b: ReachResult) -> None:
    assert np.array_equal(a.status, b.status)
    assert np.array_equal(a.q, b.q, equal_nan=True)
    assert np.array_equal(a.score, b.score, equal_nan=True)
    assert a.stats['solved_first_pass'] == b.stats['solved_first_pass']
    assert a.stats['solved_neighbour_pass'] == b.stats['solved_neighbour_pass']


def test_a_study_on_two_workers_equals_the_single_process_one(study_inputs, client):
    model, targets = study_inputs
    alone = run_study(model, 'tool0', targets, **OPTIONS)
    reports = []
    spread = run_study(model, 'tool0', targets, **OPTIONS, client=client,
                       progress=lambda done, total, what, solved: reports.append((done, total)))
    assert alone.reached.any() and alone.stats['solved_neighbour_pass'] > 0
    same(alone, spread)
    first_pass = [r for r in reports if r[1] == reports[0][1]]
    assert first_pass[-1][0] == first_pass[-1][1]  # every chunk reported
    assert len(client.scheduler_info()['workers']) == 2


def _solvers(dask_worker):
    """Return the ids of the study solvers a worker holds (in its frame_kinematics plugins)."""
    return [id(plugin.solver) for name, plugin in dask_worker.plugins.items()
            if name.startswith('frame_kinematics')]


def test_workers_build_the_model_once_per_study_and_drop_it_after(study_inputs, client):
    model, targets = study_inputs
    seen = []
    run_study(model, 'tool0', targets, **OPTIONS, client=client,
              progress=lambda done, total, what, solved: seen.append(client.run(_solvers)))
    assert len(seen) > 3
    for address in seen[0]:
        held = {tuple(report[address]) for report in seen}
        assert len(held) == 1 and len(next(iter(held))) == 1  # one solver, kept all along
    names = client.run(lambda dask_worker: sorted(dask_worker.plugins))
    assert all(not any(n.startswith('frame_kinematics') for n in found)
               for found in names.values())


def test_a_floating_base_model_is_rebuilt_with_its_root(study_inputs):
    model = study_inputs[0]
    floating = Robot.from_urdf_string(model.urdf, floating_base=True, world_frame='odom',
                                      backend='numpy')
    assert reach_cluster.rebuild_arguments(floating) == (True, 'odom')
    assert reach_cluster.rebuild_arguments(model) == (False, model.root_link)


def test_bad_clients_and_models_are_refused_before_any_work(study_inputs, client):
    model, targets = study_inputs
    with pytest.raises(ConfigurationError, match='distributed.Client'):
        run_study(model, 'tool0', targets, client=object())
    without_text = Robot(load_urdf(model.urdf)[0], backend='numpy')
    with pytest.raises(ConfigurationError, match='URDF'):
        run_study(without_text, 'tool0', targets, client=client)


def test_the_command_line_runs_a_study_on_a_scheduler(client, tmp_path):
    box = ['--box', '-0.6', '-0.6', '0.2', '0.6', '0.6', '0.6', '--step', '0.3', '--cone', '0.4',
           '3', '2', '--max-iterations', '30', '--restarts', '2']
    env = dict(os.environ, PYTHONPATH=ROOT, FRAME_KINEMATICS_BACKEND='numpy')
    written = []
    for name, extra in (('alone.npz', []), ('spread.npz', ['--scheduler',
                                                           client.scheduler.address])):
        path = tmp_path / name
        done = subprocess.run([sys.executable, '-m', 'frame_kinematics', 'reach', *box,
                               '-o', str(path), '-q', *extra], env=env, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        written.append(ReachResult.load(path))
    same(*written)


def test_a_worker_lost_mid_study_costs_only_its_chunks(study_inputs):
    model, targets = study_inputs
    options = dict(OPTIONS, chunk=8)
    alone = run_study(model, 'tool0', targets, **options)
    with local_cluster() as cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        killed = []

        def kill_one(done, total, what, solved):
            if not killed and 'targets tried' in what:
                address, pid = sorted(pids.items())[0]
                os.kill(pid, signal.SIGKILL)
                killed.append(address)

        spread = run_study(model, 'tool0', targets, **options, client=client,
                           progress=kill_one)
        assert killed and sorted(client.run(os.getpid).values()) != sorted(pids.values())
    same(alone, spread)
