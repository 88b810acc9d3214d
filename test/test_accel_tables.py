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
"""Tests of frame_kinematics.core.accel.tables."""

from conftest import all_joint_types_model
import numpy as np
import pytest


def test_the_packed_table_holds_the_kernel_tables_bit_for_bit():
    pytest.importorskip('numba')
    from frame_kinematics.core.accel import tables
    model = all_joint_types_model(backend='numba')
    table = tables.pack(model)
    n, c = len(model.links), model.kernel.n_columns
    ints = table.view(np.int64)
    assert list(ints[:4]) == [n, c, len(model.layout.floating), model.nq]
    rows = ints[4:4 + 5 * n].reshape(n, 5)
    np.testing.assert_array_equal(rows[:, 0], model.kernel.type_code)
    np.testing.assert_array_equal(rows[:, 2], model.topology.parent)
    np.testing.assert_array_equal(rows[:, 4], model.topology.subtree_end)
    np.testing.assert_array_equal(rows[:, 3], model.kernel.principal_axis)
