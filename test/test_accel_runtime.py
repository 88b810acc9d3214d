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
"""Tests of frame_kinematics.core.accel.runtime."""

import numpy as np
import pytest


def test_a_borrowed_array_is_the_same_memory_shape_and_strides():
    numba = pytest.importorskip('numba')
    from frame_kinematics.core.accel.runtime import borrowed

    @numba.njit
    def write_through(array, value):
        view = borrowed(array)
        for i in range(view.shape[0]):
            view[i, 0] = value + i
        return view.shape + view.strides

    base = np.zeros((6, 4))
    for array in (base, base[::2, 1:]):  # C-contiguous, then strided
        assert write_through(array, 7.0) == array.shape + array.strides
        assert array[:, 0].tolist() == [7.0 + i for i in range(len(array))]
    assert base[:, 0].tolist() == [7.0, 8.0, 9.0, 10.0, 11.0, 12.0]
