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
"""The public methods of the reduced chain evaluator check their inputs."""

from conftest import bundled, random_configuration
from frame_kinematics.core import ConfigurationError, IKSolver
import numpy as np
import pytest


@pytest.fixture
def evaluator():
    return IKSolver(bundled('fk_arm'), 'tool0').evaluator()


def bad_arrays(size):
    """Return inputs that are not ``size`` finite real numbers (or a batch of them)."""
    return ['abc', b'abc', None, {'a': 1}, [0.0], np.zeros(size + 1), np.zeros((2, 2, size)),
            np.full(size, np.nan), np.full(size, 1e308), np.zeros(size, dtype=complex),
            np.array(['1'] * size), np.ma.array(np.zeros(size)), [10 ** 400] * size]


def test_reduce_and_expand_refuse_bad_configurations(evaluator):
    for bad in bad_arrays(evaluator.model.nq):
        with pytest.raises(ConfigurationError):
            evaluator.reduce(bad)
    for bad in bad_arrays(evaluator.nq):
        with pytest.raises(ConfigurationError, match='reduced configuration'):
            evaluator.expand(bad)


def test_forward_refuses_anything_but_a_batch_of_reduced_configurations(evaluator):
    for bad in bad_arrays(evaluator.nq) + [np.zeros(evaluator.nq)]:
        with pytest.raises(ConfigurationError, match='reduced configuration'):
            evaluator.forward(bad)


def test_jacobian_refuses_anything_but_poses_from_forward(evaluator):
    poses = evaluator.forward(np.zeros((3, evaluator.nq)))
    nan = poses.copy()
    nan[-1, 1, 0, 3] = np.nan
    for bad in ('abc', None, [1, 2], poses[:-1], poses[:, :, :3], poses[..., 0], nan,
                np.where(poses == 1, np.inf, poses), poses.astype(complex), np.ma.array(poses)):
        with pytest.raises(ConfigurationError, match='poses'):
            evaluator.jacobian(bad)


def test_checked_methods_agree_with_the_model_and_keep_their_inputs(evaluator):
    model = evaluator.model
    q = random_configuration(model, np.random.default_rng(4), batch=5)
    reduced = evaluator.reduce(q)
    np.testing.assert_array_equal(reduced, q[:, evaluator.q_index])
    kept = reduced.copy()
    poses = evaluator.forward(reduced)
    np.testing.assert_array_equal(reduced, kept)
    np.testing.assert_allclose(poses[evaluator.n_nodes:][0],
                               model.forward_kinematics(evaluator.expand(reduced))
                               .transform('tool0'), atol=1e-12)
    np.testing.assert_allclose(evaluator.forward(reduced.tolist()), poses)
    jac = evaluator.jacobian(poses)
    assert jac.shape == (5, 6, evaluator.nv)
    np.testing.assert_array_equal(evaluator.jacobian(poses.tolist()), jac)
