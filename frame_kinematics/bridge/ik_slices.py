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
A service's inverse kinematics, solved in short slices so that ``/tf`` never waits long.

The node's ``/tf`` path and its services share one Python interpreter: a solve that holds it
for long (a compiled kernel does not give it up while it runs) delays ``/tf``. So a service
calls the core's solver (:meth:`~frame_kinematics.core.robot.Robot.inverse_kinematics`)
again and again, each call bounded by :data:`SLICE_TIME` and :data:`SLICE_ITERATIONS`, each
seeded with the best configuration so far and drawing its restarts from one generator, and
gives the interpreter up (``pause(0)``) between two calls, until a slice succeeds, the
request's time is spent, or (when given) its iteration cap is reached.
"""

import time
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np

from ..core.ik import IKResult
from ..core.ik.schedule import STOP_MAX_ITERATIONS, STOP_TIME_BUDGET
from ..core.robot import Robot

#: Longest time budget of one slice (s).
SLICE_TIME = 0.002
#: Most solver iterations of one slice.
SLICE_ITERATIONS = 20


def _better(result: IKResult, best: Optional[IKResult]) -> bool:
    if best is None or result.success:
        return True
    return (result.position_error + result.orientation_error
            < best.position_error + best.orientation_error)


def solve_in_slices(model: Robot, tips: Sequence[str], targets: np.ndarray,
                    seed: np.ndarray, active_joints: Optional[Sequence[str]], deadline: float,
                    clock: Callable[[], float] = time.monotonic,
                    pause: Callable[[float], None] = time.sleep,
                    slice_time: float = SLICE_TIME,
                    slice_iterations: int = SLICE_ITERATIONS,
                    max_iterations: Optional[int] = None,
                    **options: Any) -> Tuple[IKResult, int]:
    """
    Solve for ``targets`` until a slice succeeds or ``deadline`` passes.

    :param model: the robot model.
    :param tips: the links to place (one target each).
    :param targets: ``root_T_target``, ``(4, 4)`` for one tip, ``(len(tips), 4, 4)`` else.
    :param seed: the start configuration; joints that are not active keep its values.
    :param active_joints: the joints the solver may move (None: the solver's default, every
        joint that moves the tips).
    :param deadline: when to stop, on ``clock``; at least one slice runs.
    :param clock: monotonic clock in seconds.
    :param pause: called with 0 between two slices (gives the interpreter to other threads).
    :param slice_time: time budget of one slice (s).
    :param slice_iterations: iteration limit of one slice.
    :param max_iterations: stop once the slices have made this many iterations, each slice
        counting what the solver reports up to ``slice_iterations`` (the compiled backend
        reports single-seed steps, more than its iterations; None: only the deadline stops
        the solve).
    :param options: more options of the solver for every slice (``position_only``,
        tolerances).
    :return: the best result (``success`` if any slice succeeded; ``iterations`` summed over
        the slices, ``elapsed`` the whole time, ``reason`` ``time_budget`` or
        ``max_iterations`` when none succeeded) and the number of slices.
    :raises FrameKinematicsError: for a tip or target the solver refuses.
    """
    tip = tips[0] if len(tips) == 1 else list(tips)
    rng = np.random.default_rng(0)
    best: Optional[IKResult] = None
    iterations = 0
    slices = 0
    counted = 0
    current = seed
    start = clock()
    active = None if active_joints is None else list(active_joints)
    reason = STOP_TIME_BUDGET
    while True:
        budget = min(slice_time, max(deadline - clock(), 1e-6))
        result = model.inverse_kinematics(tip, targets, seed=current, time_budget=budget,
                                          max_iterations=slice_iterations,
                                          active_joints=active, rng=rng,
                                          **options)
        slices += 1
        iterations += int(result.iterations)
        counted += min(int(result.iterations), slice_iterations)
        if _better(result, best):
            best = result
            current = result.q
        if best.success:
            reason = best.reason
            break
        if max_iterations is not None and counted >= max_iterations:
            reason = STOP_MAX_ITERATIONS
            break
        if clock() >= deadline:
            break
        pause(0)
    return (IKResult(best.q, best.success, best.position_error, best.orientation_error,
                     iterations, best.restarts, reason, clock() - start,
                     best.tip_position_errors, best.tip_orientation_errors), slices)


__all__ = ['SLICE_ITERATIONS', 'SLICE_TIME', 'solve_in_slices']
