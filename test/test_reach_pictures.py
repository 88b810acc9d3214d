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
"""Pictures of reach studies: the heat map and the base placement map are written."""

from conftest import bundled
from frame_kinematics import render
from frame_kinematics.core import ConfigurationError
from frame_kinematics.core.reach import (floor_grid, grid_targets, make_targets, rank_bases,
                                         run_study, shell_targets)
import numpy as np
import pytest

pytest.importorskip('matplotlib')


@pytest.fixture(scope='module')
def model():
    return bundled('fk_arm', backend='numpy')


@pytest.mark.parametrize('color_by', ['index', 'score'])
def test_heat_maps_of_a_grid_and_of_shells(model, tmp_path, color_by):
    from frame_kinematics.reach_pictures import MAP_SIZE, render_reach_map
    for name, targets in (('grid', grid_targets([-0.6, -0.6, 0], [0.6, 0.6, 0.6], 0.3)),
                          ('shells', shell_targets([0.3, 0, 0.3], [0.3, 0.5], 40))):
        result = run_study(model, 'tool0', targets, max_iterations=20, restarts=1)
        path = render_reach_map(model, result, str(tmp_path / f'{name}.png'), color_by)
        assert render.picture_size(path) == MAP_SIZE


def test_base_map(model, tmp_path):
    from frame_kinematics.reach_pictures import BASE_MAP_SIZE, render_base_map
    targets = make_targets(np.array([[0.9, 0.0, 0.3], [1.0, 0.1, 0.3]]))
    ranking = rank_bases(model, 'tool0', targets, floor_grid((0, 1), (0, 0.5), 0.5),
                         max_iterations=20, restarts=1)
    path = render_base_map(ranking, str(tmp_path / 'bases.png'))
    assert render.picture_size(path) == BASE_MAP_SIZE


def test_bad_outputs_are_refused(model, tmp_path):
    from frame_kinematics.reach_pictures import render_reach_map
    result = run_study(model, 'tool0', make_targets([[0.5, 0.0, 0.3]]))
    with pytest.raises(ConfigurationError, match='.png'):
        render_reach_map(model, result, str(tmp_path / 'map.jpg'))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize('color_by, shown', [
    ('colour', "'colour'"), ('Index', "'Index'"), (None, 'None'), (1, '1'),
    (np.array(['index', 'score']), 'array'), (['index'], "['index']"),
])
def test_a_color_by_that_is_not_index_or_score_is_refused_by_name(model, tmp_path, color_by,
                                                                  shown):
    from frame_kinematics.reach_pictures import render_reach_map
    result = run_study(model, 'tool0', make_targets([[0.5, 0.0, 0.3]]))
    with pytest.raises(ConfigurationError, match='^color_by must be one of index, score, got ') \
            as info:
        render_reach_map(model, result, str(tmp_path / 'map.png'), color_by)
    assert shown in str(info.value)
    assert list(tmp_path.iterdir()) == []
