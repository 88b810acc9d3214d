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
The Levenberg-Marquardt schedule of inverse kinematics: the constants both engines read.

The numpy engine (:mod:`.engine`) and the compiled one
(:mod:`frame_kinematics.core.accel.ik`) take their damping schedule, stall and restart rules
from here; neither re-types them, and both apply the same rules, so that with one seed and
no restart they take the same steps (up to rounding):

* a step solves ``(J J^T + d I) y = e`` (or ``(J^T J + d I)``, whichever is smaller) with
  ``d = lam + ERROR_DAMPING * cost``, the cost being the squared weighted residual;
* from iteration ``CLAMP_AFTER + 1`` on, joints at a limit that the step pushes further are
  taken out and the step solved again (one-dof joints only);
* a step that lowers the cost is accepted and ``lam`` multiplied by
  :data:`DAMPING_DECREASE`, otherwise by :data:`DAMPING_INCREASE`, never below
  :data:`DAMPING_MIN` (nor is the initial damping);
* a seed whose cost decreased by less than :data:`STALL_PROGRESS` for
  :data:`STALL_ITERATIONS` iterations in a row, or whose ``lam`` exceeds :data:`DAMPING_MAX`,
  is restarted from a random configuration, with ``lam = min(RESTART_DAMPING * initial,
  max(initial, RESTART_DAMPING_CAP))``; with no restart left it stops (``max_restarts``)
  before that iteration is counted;
* with ``abandon_stalled`` (an option of the batch solve that reach studies turn on), a target
  is abandoned as hopeless (stop reason ``stalled``) when, at a multiple of
  :data:`ABANDON_ITERATIONS` iterations, the lowest cost of all its seeds so far is above
  :data:`ABANDON_PROGRESS` times what it was at the previous multiple: the check comes after
  the iteration limit's, before the restart rule's.

The stop reasons a solve reports (``IKResult.reason``) are named here too, for both engines
and the callers that read them.
"""

#: Factor applied to the damping after an accepted step.
DAMPING_DECREASE = 0.3
#: Factor applied to the damping after a rejected step.
DAMPING_INCREASE = 10.0
#: Smallest damping used (a smaller initial damping is raised to it).
DAMPING_MIN = 1e-10
#: A seed whose damping exceeds this is stuck in a local minimum and is restarted.
DAMPING_MAX = 1e2
#: A seed whose cost has decreased by less than this fraction ...
STALL_PROGRESS = 0.25
#: ... this many iterations in a row is restarted.
STALL_ITERATIONS = 3
#: From this iteration on, a step that pushes joints beyond their limits is solved again
#: without them (it costs a second solve; the first iterations rarely need it).
CLAMP_AFTER = 5
#: Damping added per unit of cost (squared residual norm) to a step's damping, so that steps
#: far from the target are damped and steps near it are Gauss-Newton steps.
ERROR_DAMPING = 0.01
#: A restart (a random configuration, far from the target) starts with this many times the
#: initial damping ...
RESTART_DAMPING = 30.0
#: ... but at most this, or the initial damping if that is larger.
RESTART_DAMPING_CAP = 1.0
#: With ``abandon_stalled``, a target whose lowest cost has not fallen below this fraction of
#: what it was ...
ABANDON_PROGRESS = 0.5
#: ... this many iterations earlier (checked every this many iterations) is abandoned.
ABANDON_ITERATIONS = 20

#: Stop reasons of a solve (``IKResult.reason``): every tip within both tolerances ...
STOP_CONVERGED = 'converged'
#: ... the iteration limit reached ...
STOP_MAX_ITERATIONS = 'max_iterations'
#: ... a seed to restart with no restart left ...
STOP_MAX_RESTARTS = 'max_restarts'
#: ... the time budget spent ...
STOP_TIME_BUDGET = 'time_budget'
#: ... the target abandoned as hopeless (``abandon_stalled``) ...
STOP_STALLED = 'stalled'
#: ... or converged on the solver's reduced chain, but forward kinematics of the solution is
#: outside a tolerance (the two round differently: far from the origin, or tolerances at the
#: rounding), so it is no success.
STOP_UNCONFIRMED = 'unconfirmed'
#: All of them; the compiled engine reports a reason by its index here.
STOP_REASONS = (STOP_CONVERGED, STOP_MAX_ITERATIONS, STOP_MAX_RESTARTS, STOP_TIME_BUDGET,
                STOP_STALLED, STOP_UNCONFIRMED)
