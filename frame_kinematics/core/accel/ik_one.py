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
One inverse kinematics target from the caller's arrays: the input checks and the solve.

The single-target path of :class:`~frame_kinematics.core.ik.solver.IKSolver` on the compiled
backend: :func:`usable` checks a target and a full seed (the numpy checks of
:func:`~frame_kinematics.core.ik.options.read_targets` and
:func:`~frame_kinematics.core.ik.options.seeds`, same criteria: finite, at most
:data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`, a rigid transform to 1e-6, the seed
within the limits); when they fail, the solver takes its general path, which raises the
library's error (or projects the seed, with its warning). :func:`solve_full` reduces the full
seed, runs :func:`~.ik.solve_into` and writes the solution (the configuration its errors were
evaluated at, continuous angles in ``[-pi, pi)``) back into the full configuration.
"""

import numba
import numpy as np

from .ik import solve_into
from ..checks import MAX_MAGNITUDE
from ..transform_checks import TRANSFORM_TOLERANCE


@numba.njit(error_model='numpy', nogil=True)
def usable(target, q, lower, upper):
    """
    Whether targets ``(n_tips, 4, 4)`` are rigid and ``q`` is within ``[lower, upper]``.

    Rigid: every entry finite and of magnitude at most ``MAX_MAGNITUDE``, ``max |R^T R - I|``
    and the last row's distance to ``[0, 0, 0, 1]`` at most ``TRANSFORM_TOLERANCE``, a
    non-negative determinant (the criteria of ``check_finite`` and ``check_transform``).
    """
    for t in range(target.shape[0]):
        for i in range(4):
            for j in range(4):
                if not abs(target[t, i, j]) <= MAX_MAGNITUDE:
                    return False
        for i in range(3):
            for j in range(3):
                s = (target[t, 0, i] * target[t, 0, j] + target[t, 1, i] * target[t, 1, j]
                     + target[t, 2, i] * target[t, 2, j])
                if abs(s - (1.0 if i == j else 0.0)) > TRANSFORM_TOLERANCE:
                    return False
        for j in range(4):
            if abs(target[t, 3, j] - (1.0 if j == 3 else 0.0)) > TRANSFORM_TOLERANCE:
                return False
        r = target[t]
        det = (r[0, 0] * (r[1, 1] * r[2, 2] - r[1, 2] * r[2, 1])
               - r[0, 1] * (r[1, 0] * r[2, 2] - r[1, 2] * r[2, 0])
               + r[0, 2] * (r[1, 0] * r[2, 1] - r[1, 1] * r[2, 0]))
        if det < 0.0:
            return False
    for i in range(len(q)):
        if not lower[i] <= q[i] <= upper[i]:
            return False
    return True


@numba.njit(error_model='numpy', nogil=True)
def solve_full(table, node_parent, tip_parent, tip_constant, columns, bounds, settings,
               q_index, target, q, state, limits, deadline, err):
    """
    Solve one target from the full configuration ``q``, which becomes the solution.

    :param table: the chain's node kernel, packed (:func:`~.tables.pack_kernel`).
    :param node_parent: ``(n_nodes,)`` the node above every node (-1: the root).
    :param tip_parent: ``(n_tips,)`` the node above every tip (-1: the root).
    :param tip_constant: ``(n_tips, 4, 4)`` the constant ``node_T_tip`` of every tip
        (``root_T_tip`` for a tip without a node above it).
    :param columns: the nodes' ``(column_row, column_v, column_multiplier, column_twist)``.
    :param bounds: the limits, restart draws, integration indices, per-tip weights and rest
        posture of the reduced configuration, as :func:`~.ik.solve_into` reads them.
    :param settings: ``(tol_p, tol_o, damping, rest_gain, clock_id, time_slice)``, as
        :func:`~.ik.solve_into`.
    :param q_index: the full-``q`` index of every reduced entry.
    :param target: ``(n_tips, 4, 4)`` ``root_T_target`` (checked by :func:`usable`).
    :param q: ``(nq,)`` the seed (checked by :func:`usable`), overwritten by the solution.
    :param state: the uint64 generator state ``(1,)`` of this solve.
    :param limits: ``(max_iterations, max_restarts, window)`` of this solve, as
        :func:`~.ik.solve_into`.
    :param deadline: clock value (of the clock ``clock_id``) at which to stop.
    :param err: ``(2, n_tips)`` the solution's position and orientation errors.
    :return: ``(reason, iterations, restarts)`` of :func:`~.ik.solve_into`.
    """
    n = len(q_index)
    seed = np.empty(n)
    for j in range(n):
        seed[j] = q[q_index[j]]
    found = np.empty(n)
    reason, iterations, restarts = solve_into(
        table, node_parent, tip_parent, tip_constant, columns, bounds, settings, target, seed,
        state, limits, deadline, found, err)
    for j in range(n):
        q[q_index[j]] = found[j]
    return reason, iterations, restarts
