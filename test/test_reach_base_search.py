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
"""Base placement: candidates on a floor grid ranked by their studies."""

import warnings

from conftest import bundled
from frame_kinematics.core import ConfigurationError
from frame_kinematics.core.errors import UnknownOptionError
from frame_kinematics.core.reach import floor_grid, make_targets, rank_bases
import numpy as np
import pytest


def test_floor_grid_counts_and_yaw():
    bases = floor_grid((0.0, 1.0), (-0.5, 0.5), 0.5, z=0.1, yaw=np.pi / 2)
    assert bases.shape == (9, 4, 4)
    assert np.allclose(bases[:, 2, 3], 0.1)
    assert np.allclose(bases[0, :3, 0], [0, 1, 0])
    with pytest.raises(ConfigurationError, match='limit'):
        floor_grid((0, 1000), (0, 1000), 0.1)


@pytest.mark.parametrize('step', [5e-324, 1e-200])
def test_a_floor_grid_whose_count_overflows_is_refused_without_a_numpy_warning(step):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with pytest.raises(ConfigurationError, match='more than the limit'):
            floor_grid((-1e16, 1e16), (-1e16, 1e16), step)


def test_a_base_far_from_the_task_ranks_last():
    model = bundled('fk_arm', backend='numpy')
    rng = np.random.default_rng(0)
    points = np.array([2.0, 0.0, 0.4]) + rng.uniform(-0.1, 0.1, (12, 3))
    targets = make_targets(points, np.tile([0.0, 0.0, -1.0], (12, 1)))
    bases = floor_grid((1.5, 5.0), (0.0, 0.0), 3.5)  # 0.5 m and 3 m from the task
    ranking = rank_bases(model, 'tool0', targets, bases, seed=0, max_iterations=40,
                         restarts=3)
    assert ranking.reached[1] == 0.0 and ranking.reached[0] > 0.5
    assert list(ranking.order) == [0, 1]
    assert ranking.best.reached_fraction == ranking.reached[0]
    with pytest.raises(ConfigurationError, match='world'):
        rank_bases(model, 'tool0', make_targets(points, frame='base_link'), bases)


def test_a_progress_that_cannot_be_called_is_refused_before_any_work():
    model = bundled('fk_arm', backend='numpy')
    targets = make_targets([[2.0, 0.0, 0.4]], [[0.0, 0.0, -1.0]])
    with pytest.raises(ConfigurationError, match='progress must be callable or None, got int'):
        rank_bases(model, 'tool0', targets, floor_grid((1.5, 1.5), (0, 0), 1.0), progress=5)


def test_an_option_run_study_does_not_take_is_refused_before_any_study():
    model = bundled('fk_arm', backend='numpy')
    targets = make_targets([[2.0, 0.0, 0.4]], [[0.0, 0.0, -1.0]])
    studies = []
    with pytest.raises(UnknownOptionError, match='run_study does not take: bogus, frame$'):
        rank_bases(model, 'tool0', targets, floor_grid((1.5, 1.5), (0, 0), 1.0), seed=0,
                   bogus=1, frame='world', progress=lambda *done: studies.append(done))
    assert studies == []
