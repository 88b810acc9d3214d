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
"""Topology queries against brute force on random trees (hypothesis)."""

from frame_kinematics.core.topology import Topology
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest


@st.composite
def trees(draw):
    """Parents of a random tree in depth-first pre-order, with a value per body."""
    n = draw(st.integers(1, 40))
    parent = [-1]
    open_path = [0]  # bodies whose subtree may still grow: the current path
    for i in range(1, n):
        depth = draw(st.integers(0, len(open_path) - 1))
        del open_path[depth + 1:]
        parent.append(open_path[-1])
        open_path.append(i)
    values = draw(st.lists(st.floats(-1e3, 1e3), min_size=2 * n, max_size=2 * n))
    return parent, np.array(values).reshape(n, 2)


def _ancestors(parent, i):
    out = []
    while i >= 0:
        out.append(i)
        i = parent[i]
    return out[::-1]


@settings(max_examples=200)
@given(trees())
def test_queries_equal_brute_force(tree):
    parent, values = tree
    topology = Topology(parent)
    n = len(parent)
    down = topology.accumulate_down(values)
    up = topology.subtree_sums(values)
    for i in range(n):
        path = _ancestors(parent, i)
        assert topology.path(i).tolist() == path
        assert topology.supports(np.arange(n), i).tolist() == [j in path for j in range(n)]
        np.testing.assert_allclose(down[i], values[path].sum(axis=0), rtol=1e-12, atol=1e-9)
        subtree = [j for j in range(n) if i in _ancestors(parent, j)]
        np.testing.assert_allclose(up[i], values[subtree].sum(axis=0), rtol=1e-12, atol=1e-9)
        assert topology.depth[i] == len(path) - 1


@pytest.mark.parametrize('parent', [[0], [-1, 1], [-1, 0, 3, 1], [-1, -1], [-1, 0, 0, 1]])
def test_orders_that_are_not_depth_first_are_refused(parent):
    with pytest.raises(ValueError, match='depth-first'):
        Topology(parent)
