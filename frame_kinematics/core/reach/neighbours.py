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
Nearest neighbours of study points: scipy's k-d tree when installed, else a grid hash.

:func:`nearest` answers "the k points nearest each query point, within a radius" with
``scipy.spatial.cKDTree`` when scipy is installed (an optional extra), and otherwise with a
hash of cubic cells of the radius's size (only the 27 cells about a query are searched).
Both give the same neighbours (up to the order of points at equal distances).
:func:`point_spacing` is the typical distance between study points, which the heat maps (the
pictures and RViz's markers) size their dots by.
"""

from typing import Dict, List, Tuple

import numpy as np

#: Most points whose nearest neighbour :func:`point_spacing` looks up (chosen with a fixed
#: seed): the median of that many is steady, and the cost stays bounded.
SPACING_SAMPLE = 2000


def _grid(points: np.ndarray, queries: np.ndarray, k: int, radius: float
          ) -> Tuple[np.ndarray, np.ndarray]:
    cells: Dict[Tuple[int, int, int], List[int]] = {}
    keys = np.floor(points / radius).astype(np.int64)
    for index, key in enumerate(map(tuple, keys.tolist())):
        cells.setdefault(key, []).append(index)
    offsets = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]
    dist = np.full((len(queries), k), np.inf)
    index = np.full((len(queries), k), len(points), dtype=np.int64)
    for row, key in enumerate(np.floor(queries / radius).astype(np.int64).tolist()):
        found = [i for o in offsets
                 for i in cells.get((key[0] + o[0], key[1] + o[1], key[2] + o[2]), ())]
        if not found:
            continue
        near = np.array(sorted(found))
        d = np.linalg.norm(points[near] - queries[row], axis=1)
        order = np.argsort(d, kind='stable')[:k]
        keep = d[order] <= radius
        dist[row, :keep.sum()] = d[order][keep]
        index[row, :keep.sum()] = near[order][keep]
    return dist, index


def nearest(points: np.ndarray, queries: np.ndarray, k: int, radius: float
            ) -> Tuple[np.ndarray, np.ndarray]:
    """
    Return the ``k`` points nearest each query within ``radius``, nearest first.

    :param points: ``(N, 3)`` points searched.
    :param queries: ``(M, 3)`` query points.
    :param k: neighbours per query (>= 1).
    :param radius: largest distance (> 0).
    :return: ``(distances, indices)``, each ``(M, k)``; missing neighbours have distance
        ``inf`` and index ``N``.
    """
    if not len(points) or not len(queries):
        return np.full((len(queries), k), np.inf), np.full((len(queries), k), len(points))
    try:
        from scipy.spatial import cKDTree
    except ImportError:
        return _grid(points, queries, k, radius)
    dist, index = cKDTree(points).query(queries, k=k, distance_upper_bound=radius)
    return dist.reshape(len(queries), k), index.reshape(len(queries), k).astype(np.int64)


def point_spacing(points: np.ndarray) -> float:
    """
    Return the median distance from a point to its nearest other point.

    For points on a grid it is the grid's smallest step. Coincident points are not counted.

    :param points: ``(N, 3)``.
    :return: the distance, over at most :data:`SPACING_SAMPLE` points chosen with a fixed seed
        (0 for fewer than two distinct points).
    """
    if len(points) < 2:
        return 0.0
    queries = points
    if len(points) > SPACING_SAMPLE:
        queries = points[np.random.default_rng(0).choice(len(points), SPACING_SAMPLE,
                                                         replace=False)]
    distances, _ = nearest(points, queries, 2, np.inf)
    spacing = distances[:, 1]
    spacing = spacing[np.isfinite(spacing) & (spacing > 0)]
    return float(np.median(spacing)) if len(spacing) else 0.0
