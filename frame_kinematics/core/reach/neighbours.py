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
hash of cubic cells of the radius's size, smaller for a large radius (about ``k`` points
each), read in rings about a query until its ``k`` nearest are known: a query reads the points
near it, not every point, whatever the radius (``inf`` for :func:`point_spacing`).
Both give the same neighbours (up to the order of points at equal distances).
:func:`point_spacing` is the typical distance between study points, which the heat maps (the
pictures and RViz's markers) size their dots by.
"""

from typing import Dict, List, Tuple

import numpy as np

#: Most points whose nearest neighbour :func:`point_spacing` looks up (chosen with a fixed
#: seed): the median of that many is steady, and the cost stays bounded.
SPACING_SAMPLE = 2000


def _cell_size(points: np.ndarray, k: int, radius: float) -> float:
    """
    Return the side of the hash's cells: the radius, or less when the radius is large.

    A cell about ``k`` points on average when the points spread evenly over their bounding
    box: a query then reads a few cells whatever the radius (``inf`` included).
    """
    span = np.ptp(points, axis=0)
    used = span[span > 1e-12]
    if not len(used):
        return radius if np.isfinite(radius) else 1.0
    side = float(np.prod(used) * max(k, 1) / len(points)) ** (1.0 / len(used))
    return float(min(radius, max(side, 1e-9 * float(used.max()))))


def _shell(ring: int) -> List[Tuple[int, int, int]]:
    """Return the offsets of the cells at Chebyshev distance ``ring`` from a cell."""
    full = range(-ring, ring + 1)
    return [(a, b, c) for a in full for b in full
            for c in (full if max(abs(a), abs(b)) == ring else sorted({-ring, ring}))]


def _grid(points: np.ndarray, queries: np.ndarray, k: int, radius: float
          ) -> Tuple[np.ndarray, np.ndarray]:
    """
    Answer :func:`nearest` with a hash of cubic cells, read ring by ring about each query.

    The rings ``0..r`` about a query's cell hold every point within ``r`` cells' sides of it:
    a query stops once its ``k``-th nearest point found lies that close, or the rings cover
    the radius or every cell.
    """
    cell = _cell_size(points, k, radius)
    cells: Dict[Tuple[int, int, int], List[int]] = {}
    keys = np.floor(points / cell).astype(np.int64)
    for index, key in enumerate(map(tuple, keys.tolist())):
        cells.setdefault(key, []).append(index)
    low, high = keys.min(axis=0), keys.max(axis=0)
    dist = np.full((len(queries), k), np.inf)
    index = np.full((len(queries), k), len(points), dtype=np.int64)
    for row, key in enumerate(np.floor(queries / cell).astype(np.int64)):
        found: List[np.ndarray] = []
        distances: List[np.ndarray] = []
        nearest_k = np.full(k, np.inf)  # the k smallest distances found so far
        ring = int(max(0, np.max(np.maximum(low - key, key - high))))  # nearer rings are empty
        while True:
            if 6 * (2 * ring + 1) ** 2 > len(points):  # a ring of more cells than points
                found, distances = [], []
                new = list(range(len(points)))  # read them all, once
                ring = -1
            else:
                new = [i for o in _shell(ring)
                       for i in cells.get((key[0] + o[0], key[1] + o[1], key[2] + o[2]), ())]
            if new:
                found.append(np.array(new, dtype=np.int64))
                distances.append(np.linalg.norm(points[found[-1]] - queries[row], axis=1))
                nearest_k = np.sort(np.concatenate([nearest_k, distances[-1]]))[:k]
            covered = ring * cell
            if ring < 0 or nearest_k[-1] <= covered:
                break
            if covered >= radius or (np.all(key - ring <= low) and np.all(key + ring >= high)):
                break
            ring += 1
        if not found:
            continue
        near, d = np.concatenate(found), np.concatenate(distances)
        order = np.lexsort((near, d))[:k]  # nearest first; the lower index at equal distances
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
