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
"""A service's inverse kinematics runs in short slices, giving the interpreter up in between."""

import threading
import time

from conftest import moveit_resource
from frame_kinematics.bridge.ik_slices import SLICE_ITERATIONS, SLICE_TIME, solve_in_slices
from frame_kinematics.core import Robot
import numpy as np
import pytest


class Recorder:
    """Wraps a model: records the options of every solver call."""

    def __init__(self, model):
        self.model = model
        self.calls = []

    def inverse_kinematics(self, tip, target, **options):
        self.calls.append(options)
        return self.model.inverse_kinematics(tip, target, **options)


@pytest.fixture
def panda():
    return Robot.from_urdf_file(moveit_resource('panda_description/urdf/panda.urdf'))


ARM = [f'panda_joint{i}' for i in range(1, 8)]


def test_an_unreachable_target_is_solved_in_bounded_slices_until_the_deadline(panda):
    recorder = Recorder(panda)
    now = [0.0]

    def clock():
        now[0] += 0.001  # every reading moves a millisecond on
        return now[0]

    pauses = []
    far = np.eye(4)
    far[:3, 3] = (3.0, 0.0, 0.0)
    result, slices = solve_in_slices(recorder, ['panda_link8'], far,
                                     panda.neutral_configuration(), ARM, 0.05, clock,
                                     pauses.append)
    assert not result.success and result.reason == 'time_budget'
    assert slices == len(recorder.calls) >= 2 and len(pauses) == slices - 1
    assert set(pauses) == {0}
    for options in recorder.calls:
        assert 0 < options['time_budget'] <= SLICE_TIME
        assert options['max_iterations'] == SLICE_ITERATIONS
        assert options['active_joints'] == ARM
    # each slice starts from the best configuration seen so far, drawing restarts from one
    # generator (not the same random seeds again)
    assert recorder.calls[0]['rng'] is recorder.calls[-1]['rng']


def test_a_reachable_target_stops_at_the_first_successful_slice(panda):
    recorder = Recorder(panda)
    q = panda.neutral_configuration()
    q[:7] = (0.3, -0.4, 0.2, -2.0, 0.1, 1.6, 0.5)
    target = panda.forward_kinematics(q).transform('panda_link8')
    result, slices = solve_in_slices(recorder, ['panda_link8'], target,
                                     panda.neutral_configuration(), ARM,
                                     time.monotonic() + 5.0)
    assert result.success and slices == len(recorder.calls)
    reached = panda.forward_kinematics(result.q).transform('panda_link8')
    np.testing.assert_allclose(reached, target, atol=1e-4)


def test_another_thread_runs_while_a_slow_solve_goes_on(panda):
    """
    A thread that ticks every millisecond keeps ticking during a 0.3 s solve.

    The longest gap between two ticks is printed (how long the solve held the interpreter at
    most, plus the scheduler's delay); only that the thread ran at all is asserted.
    """
    gaps = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            start = time.perf_counter()
            time.sleep(0.001)
            gaps.append(time.perf_counter() - start)

    far = np.eye(4)
    far[:3, 3] = (3.0, 0.0, 0.0)
    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        time.sleep(0.01)
        before = len(gaps)
        _, slices = solve_in_slices(panda, ['panda_link8'], far, panda.neutral_configuration(),
                                    ARM, time.monotonic() + 0.3)
        during = gaps[before:]
    finally:
        done.set()
        ticker.join()
    print(f'\n{slices} slices; ticks during the solve: {len(during)}, longest gap '
          f'{1e3 * max(during):.2f} ms (backend {panda.backend})')
    assert slices > 1 and during
