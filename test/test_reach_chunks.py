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
"""Tests of frame_kinematics.core.reach.chunks: the forward-kinematics check of every claim."""

import types

from conftest import bundled, random_configuration
from frame_kinematics.core.reach.chunks import Chunk, pose_errors, solve_chunk
from frame_kinematics.core.spatial import exp_so3
import numpy as np
import pytest

OPTIONS = {'position_tolerance': 1e-5, 'orientation_tolerance': 1e-5}


@pytest.fixture(scope='module')
def model():
    return bundled('fk_arm', backend='numpy')


def test_pose_errors_measure_a_known_offset(model):
    rng = np.random.default_rng(3)
    q = random_configuration(model, rng, 4)
    root_T_tip = model.forward_kinematics(q).transform('tool0')
    shift = np.array([[0.03, -0.04, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.2], [1e-7, 0.0, 0.0]])
    turn = np.array([[0.0, 0.0, 0.0], [0.0, 0.3, 0.0], [0.1, 0.1, 0.1], [0.0, 0.0, 1e-7]])
    root_T_target = root_T_tip.copy()
    root_T_target[:, :3, 3] += shift
    root_T_target[:, :3, :3] = root_T_tip[:, :3, :3] @ np.array([exp_so3(w) for w in turn])
    position, orientation = pose_errors(model, 'tool0', q, root_T_target)
    np.testing.assert_allclose(position, [0.05, 0.0, 0.2, 1e-7], rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(orientation, np.linalg.norm(turn, axis=1), rtol=1e-7,
                               atol=1e-12)


def test_pose_errors_of_no_configuration_are_empty(model):
    position, orientation = pose_errors(model, 'tool0', np.zeros((0, model.nq)),
                                        np.zeros((0, 4, 4)))
    assert position.shape == orientation.shape == (0,)


def test_a_claim_that_forward_kinematics_refutes_is_rejected(model):
    rng = np.random.default_rng(5)
    q = random_configuration(model, rng, 3)
    poses = model.forward_kinematics(q).transform('tool0')
    claimed = q.copy()
    claimed[1, 0] += 0.01  # a success claimed for a configuration 0.01 rad off its target
    claimed[2, 1] += 1e-9  # within the tolerances: a claim the check keeps

    def solve_batch(targets, **options):
        return types.SimpleNamespace(q=claimed, success=np.ones(len(targets), bool))

    solver = types.SimpleNamespace(model=model, solve_batch=solve_batch)
    chunk = Chunk(poses, None, (1,), 0, 10)
    found, ok, rejected = solve_chunk(solver, 'tool0', model.neutral_configuration(), chunk,
                                      OPTIONS)
    assert found is claimed
    assert ok.tolist() == [True, False, True]
    assert rejected == 1
