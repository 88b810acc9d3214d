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
The shape of a kinematic tree: parents, depth levels, subtrees, supports and paths.

Bodies are numbered depth-first from the root (a pre-order), so the subtree of body ``i`` is
the contiguous range ``i .. subtree_end[i] - 1`` and ``j`` supports ``i`` (is ``i`` or one of
its ancestors) exactly when ``j <= i < subtree_end[j]``. Every query is an index computation
over that order: memory is linear in the number of bodies and no per-body list of ancestors
is stored. Sums along paths are one cumulative sum over that order (a body's value enters at
its index and leaves at the end of its subtree), sums over subtrees are added leaves first.
"""

from typing import List, Sequence, Tuple

import numpy as np

from .joints import frozen


class Topology:
    """
    Parents, depth levels and subtree ranges of a tree in depth-first order.

    :ivar parent: ``(n,)`` parent of every body (-1 for the root, body 0).
    :ivar depth: ``(n,)`` number of joints between the root and every body.
    :ivar subtree_end: ``(n,)`` one past the last body of every subtree.
    :ivar levels: per depth ``d >= 1``, ``(children, parents)`` index arrays of the bodies at
        that depth (a lone body as plain ints).
    """

    def __init__(self, parent: Sequence[int]) -> None:
        """
        Index a tree.

        :param parent: parent of every body in depth-first pre-order (``parent[0] == -1``
            and ``parent[i] < i``).
        :raises ValueError: if the order is not a depth-first pre-order.
        """
        parent = np.asarray(parent, dtype=np.int64).reshape(-1)
        n = len(parent)
        if n == 0 or parent[0] != -1:
            raise ValueError('bodies must be numbered depth-first from the root')
        path = [0]  # the current path of the depth-first walk: a body's parent must be on it
        for i, p in enumerate(parent[1:].tolist(), start=1):
            while path and path[-1] != p:
                path.pop()
            if not path:
                raise ValueError('bodies must be numbered depth-first from the root')
            path.append(i)
        depth = np.zeros(n, dtype=np.int64)
        for i in range(1, n):
            depth[i] = depth[parent[i]] + 1
        end = np.arange(1, n + 1, dtype=np.int64)
        for i in range(n - 1, 0, -1):
            end[parent[i]] = max(end[parent[i]], end[i])
        self.n = n
        self.parent = frozen(parent)
        self.depth = frozen(depth)
        self.subtree_end = frozen(end)
        order = np.argsort(depth, kind='stable')
        bounds = np.searchsorted(depth[order], np.arange(int(depth.max()) + 2))
        levels: List[Tuple[object, object]] = []
        for d in range(1, int(depth.max()) + 1):
            children = order[bounds[d]:bounds[d + 1]]
            if len(children) == 1:
                levels.append((int(children[0]), int(parent[children[0]])))
            else:
                levels.append((frozen(children), frozen(parent[children])))
        self.levels: Tuple[Tuple[object, object], ...] = tuple(levels)
        # Path sums by one cumulative sum over the depth-first order: each body adds its value
        # where it enters and takes it away where its subtree ends (bodies whose subtrees end
        # at the same place are grouped, so that no unbuffered scatter is needed).
        exits = np.argsort(end, kind='stable')
        ends = end[exits]
        starts = np.flatnonzero(np.concatenate([[True], ends[1:] != ends[:-1]]))
        self._exit_order = frozen(exits)
        self._exit_starts = frozen(starts)
        self._exit_at = frozen(ends[starts])

    def supports(self, bodies: np.ndarray, body: int) -> np.ndarray:
        """
        Which of ``bodies`` support ``body`` (are ``body`` or one of its ancestors).

        :param bodies: body indices, any shape.
        :param body: the body.
        :return: a bool array shaped like ``bodies``.
        """
        return (bodies <= body) & (body < self.subtree_end[bodies])

    def path(self, body: int) -> np.ndarray:
        """
        Bodies from the root to ``body`` (both included), in depth order.

        :param body: the body.
        :return: ``(depth[body] + 1,)`` indices.
        """
        everyone = np.arange(body + 1)
        return everyone[self.supports(everyone, body)]

    def subtree_sums(self, values: np.ndarray) -> np.ndarray:
        """
        Sum of ``values`` over every body's subtree (the body included).

        :param values: ``(n, ...)`` per-body values.
        :return: ``(n, ...)`` subtree sums (a new array), added leaves first.
        """
        out = np.array(values, dtype=float)
        for children, parents in reversed(self.levels):
            if isinstance(children, int):
                out[parents] += out[children]
            else:
                np.add.at(out, parents, out[children])
        return out

    def accumulate_down(self, values: np.ndarray) -> np.ndarray:
        """
        Sum of ``values`` along every body's path from the root (the body included).

        :param values: ``(n, ...)`` per-body values.
        :return: ``(n, ...)`` path sums (a new array).
        """
        steps = np.zeros((self.n + 1,) + values.shape[1:])
        steps[:self.n] = values
        steps[self._exit_at] -= np.add.reduceat(values[self._exit_order], self._exit_starts,
                                                axis=0)
        return np.cumsum(steps, axis=0)[:self.n]
