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
"""Tests of frame_kinematics.core.ik.engine: the numpy LM loop's projection, solves and stops."""

from conftest import all_joint_types_model, assert_edge_solutions_accepted, random_configuration
from frame_kinematics.core import ik
from ik_testing import iiwa_numpy_fixture
import numpy as np

iiwa_numpy = iiwa_numpy_fixture()


def test_a_solution_at_the_edge_of_the_accepted_magnitudes_is_accepted():
    assert_edge_solutions_accepted(all_joint_types_model(backend='numpy'),
                                   np.random.default_rng(19))


def test_a_singular_damped_system_never_escapes_as_numpys_error():
    model = all_joint_types_model(backend='numpy')
    rng = np.random.default_rng(20)
    for damping, weight in [(5e-324, 1e16), (1e-300, 1e8), (1e-3, 1e8)] * 4:
        targets = np.tile(np.eye(4), (2, 1, 1))
        targets[:, :3, 3] = rng.uniform(-1.0, 1.0, (2, 3)) * 10.0 ** rng.integers(3, 16)
        seed = random_configuration(model, rng)
        result = ik.solve(model, ['tip', 'plane'], targets, seed=seed, damping=damping,
                          orientation_weight=weight, restarts=0, max_iterations=20,
                          time_budget=60.0)
        assert not result.success
        model.check_configuration(result.q)


def _hopeless_and_easy(model, tip, count=24):
    """Targets pushed 3 m away from the base (beyond reach), then reachable ones."""
    rng = np.random.default_rng(31)
    targets = model.forward_kinematics(random_configuration(model, rng, 2 * count)) \
        .transform(tip).copy()
    away = targets[:count, :3, 3]
    targets[:count, :3, 3] = 3.0 * away / np.linalg.norm(away, axis=1, keepdims=True)
    return targets


def test_abandon_stalled_stops_hopeless_targets_early_and_solves_the_others(iiwa_numpy):
    tip, count = 'lbr_iiwa_link_7', 24
    targets = _hopeless_and_easy(iiwa_numpy, tip, count)
    options = {'restarts': 30, 'max_iterations': 200, 'time_budget': 60.0}
    full = ik.IKSolver(iiwa_numpy, tip).solve_batch(targets, **options,
                                                    rng=np.random.default_rng(2))
    early = ik.IKSolver(iiwa_numpy, tip).solve_batch(targets, **options, abandon_stalled=True,
                                                     rng=np.random.default_rng(2))
    assert not full.success[:count].any() and not early.success[:count].any()
    assert set(early.reason[:count]) == {'stalled'}
    assert 'stalled' not in full.reason
    assert np.all(early.iterations[:count] % ik.schedule.ABANDON_ITERATIONS == 0)
    assert early.iterations[:count].sum() < 0.5 * full.iterations[:count].sum()
    assert early.success[count:].mean() >= 0.9


def test_a_batch_puts_a_bounded_number_of_seeds_in_flight(monkeypatch):
    """Between two looks at the clock an iteration advances seeds of MAX_NODE_SLOTS nodes."""
    from frame_kinematics.core.ik import engine

    class Evaluated(Exception):
        pass

    sizes = []

    def evaluate(self, q, targets):
        sizes.append(len(q))
        raise Evaluated

    monkeypatch.setattr(engine.Engine, '_evaluate', evaluate)
    model = all_joint_types_model(backend='numpy')
    target = model.forward_kinematics(model.neutral_configuration()).transform('tip')
    assert engine.MAX_NODE_SLOTS == 1 << 18
    assert ik.IKSolver(model, 'tip').evaluator().n_nodes == 5
    for count, seeds, expected in ((4000, 1024, 4000 * 13), (3, 4, 12),
                                   (40000, 16, 40000)):  # one seed each at least
        try:
            ik.solve_batch(model, 'tip', np.broadcast_to(target, (count, 4, 4)),
                           parallel_seeds=seeds)
        except Evaluated:
            pass
        assert sizes[-1] == expected
