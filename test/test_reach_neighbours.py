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
"""Nearest neighbours (scipy's k-d tree and the grid hash find the same points) and spacing."""

import sys

from frame_kinematics.core.reach import neighbours
from frame_kinematics.core.reach.neighbours import nearest
import numpy as np
import pytest


def test_grid_hash_agrees_with_brute_force(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy.spatial', None)  # scipy absent: the grid hash
    rng = np.random.default_rng(2)
    points = rng.uniform(-1, 1, (300, 3))
    queries = rng.uniform(-1, 1, (40, 3))
    dist, index = nearest(points, queries, 4, 0.3)
    full = np.linalg.norm(queries[:, None] - points[None], axis=2)
    for row in range(len(queries)):
        expected = np.sort(full[row][full[row] <= 0.3])[:4]
        assert np.allclose(dist[row, :len(expected)], expected)
        assert np.all(np.isinf(dist[row, len(expected):]))
        assert np.all(index[row, len(expected):] == len(points))
        kept = index[row, :len(expected)]
        assert np.allclose(full[row, kept], expected)


@pytest.mark.parametrize('radius', [0.05, 0.7, np.inf])
def test_the_grid_hash_reads_only_the_points_near_a_query_whatever_the_radius(
        monkeypatch, radius):
    monkeypatch.setitem(sys.modules, 'scipy.spatial', None)  # scipy absent: the grid hash
    rng = np.random.default_rng(8)
    points = rng.uniform(-1, 1, (4000, 3))
    queries = np.concatenate([points[:150], rng.uniform(-1.5, 1.5, (50, 3))])
    measured = []
    norm = np.linalg.norm

    def counted(x, *args, **kwargs):
        measured.append(len(x))
        return norm(x, *args, **kwargs)

    monkeypatch.setattr(neighbours.np.linalg, 'norm', counted)
    dist, index = nearest(points, queries, 3, radius)
    monkeypatch.setattr(neighbours.np.linalg, 'norm', norm)
    assert sum(measured) < 100 * len(queries)  # not every point for every query: linear cost
    full = np.linalg.norm(queries[:, None] - points[None], axis=2)
    for row in range(len(queries)):
        expected = np.sort(full[row][full[row] <= radius])[:3]
        assert np.allclose(dist[row, :len(expected)], expected)
        assert np.all(index[row, len(expected):] == len(points))
        assert np.allclose(full[row, index[row, :len(expected)]], expected)


def test_kd_tree_agrees_with_the_grid_hash(monkeypatch):
    pytest.importorskip('scipy.spatial')
    rng = np.random.default_rng(4)
    points = rng.uniform(-1, 1, (200, 3))
    dist, index = nearest(points, points[:30], 3, 0.25)
    monkeypatch.setitem(sys.modules, 'scipy.spatial', None)
    dist_grid, index_grid = nearest(points, points[:30], 3, 0.25)
    assert np.allclose(dist, dist_grid)
    assert np.array_equal(index, index_grid)


def test_point_spacing_is_a_grids_step_and_the_median_nearest_distance_of_scattered_points():
    axis = np.arange(5) * 0.04
    grid = np.stack(np.meshgrid(axis, axis, axis * 2.0, indexing='ij'), -1).reshape(-1, 3)
    assert neighbours.point_spacing(grid) == pytest.approx(0.04, abs=1e-12)
    rng = np.random.default_rng(21)
    cloud = rng.uniform(-1.0, 1.0, (300, 3))
    gaps = np.linalg.norm(cloud[:, None] - cloud[None], axis=-1)
    np.fill_diagonal(gaps, np.inf)
    assert neighbours.point_spacing(cloud) == pytest.approx(np.median(gaps.min(axis=1)))
    twice = np.concatenate([cloud, cloud[:1]])  # a coincident point counts no zero distance
    assert neighbours.point_spacing(twice) > 0.0
    assert neighbours.point_spacing(cloud[:1]) == 0.0
    assert neighbours.point_spacing(np.zeros((4, 3))) == 0.0


def test_point_spacing_of_many_points_looks_at_a_bounded_seeded_sample():
    cloud = np.random.default_rng(3).uniform(0.0, 1.0, (neighbours.SPACING_SAMPLE + 500, 3))
    first = neighbours.point_spacing(cloud)
    assert first == neighbours.point_spacing(cloud.copy()) and first > 0.0
