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
Tests of frame_kinematics.core.accel.kernels: the checked kernels' entry points.

The kernels' cache and their preparation are tested in ``test_accel_cache.py``.
"""

import threading

from frame_kinematics import robots
from frame_kinematics.core import Robot
import numpy as np
import pytest

numba = pytest.importorskip('numba')


def test_a_checked_kernels_entry_point_is_its_compiled_function_with_the_same_answers():
    from frame_kinematics.core.accel import jacobian, kernels, poses, twists
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    table = model.executor._table
    q = model.layout.sample_uniform(np.random.default_rng(4), None, 1.0)
    for kernel, args in (
            (poses.poses_checked, (table, q, np.empty(model.nq),
                                   np.empty((len(model.links), 4, 4)))),
            (poses.pose_checked, (table, q, 3, np.empty((4, 4)))),
            (jacobian.jacobian_checked, (table, q, 3, np.array([0.1, 0.2, 0.3]),
                                         twists.WORLD, np.zeros((6, model.nv))))):
        entry = kernels.entry_point(kernel)
        assert entry is not kernel and len(kernel.signatures) == 1
        theirs = [np.copy(arg) if isinstance(arg, np.ndarray) else arg for arg in args]
        assert entry(*args) is True and kernel(*theirs) is True
        for ours, reference in zip(args, theirs):
            np.testing.assert_array_equal(ours, reference)
        bad = np.full(model.nq, np.nan)
        assert entry(table, bad, *args[2:]) is False


def test_a_model_is_built_while_another_thread_holds_numbas_compiler_lock():
    from numba.core.compiler_lock import global_compiler_lock
    Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')  # the kernels are prepared
    held, release = threading.Event(), threading.Event()

    def compiling():  # as a thread compiling a function of its own
        with global_compiler_lock:
            held.set()
            release.wait(600)

    holder = threading.Thread(target=compiling)
    holder.start()
    built = []
    try:
        assert held.wait(600)
        builder = threading.Thread(target=lambda: built.append(
            Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')))
        builder.start()
        builder.join(120)
        assert built, 'building a model waited for the compiler lock'
    finally:
        release.set()
        holder.join()
