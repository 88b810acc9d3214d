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
Inverse position kinematics: vectorised Levenberg-Marquardt with parallel random restarts.

Algorithm
---------
:class:`ChainEvaluator` precompiles the part of the tree that moves the tips: the joints that
move with the active joints become the rows of a small joint kernel on the reduced
configuration; everything between two of them (fixed joints, inactive joints held at their
value) is folded into one constant transform. It evaluates the tip poses and the stacked
``LOCAL_WORLD_ALIGNED`` Jacobian for a whole batch of configurations with a handful of numpy
calls per node.

:meth:`IKSolver.solve` runs several seeds of one target side by side (the caller's seed and
random ones), each with its own Levenberg-Marquardt damping; a seed whose cost stops
decreasing is replaced by a fresh random configuration (a restart). It stops as soon as one
seed meets both tolerances, or when the time budget, the iteration limit or the restart limit
is reached; then it returns the best configuration seen. :meth:`IKSolver.solve_batch` does
the same for thousands of targets at once (one seed each), dropping solved targets from the
batch as it goes; when few targets are left, each gets more parallel seeds, and a target
still unsolved after a few iterations gets more again.

Every iterate is projected onto the joint limits (and within the magnitude the model accepts),
with its continuous angles in ``[-pi, pi)``: the configuration returned is the one whose errors
are reported. They are measured, once the solve ends, with forward kinematics of that ``q`` on
the solver's backend (the engines iterate on a reduced chain, which rounds otherwise: a base
1e12 m away, or tolerances at the rounding), so a success is one forward kinematics confirms. A
seed's continuous angle outside ``[-pi, pi)`` is wrapped before the solve, keeping its sine and
cosine. The chains depend on the held joints' values only, so a solver's answers never depend
on its earlier calls. Errors: position error is ``|root_p_target - root_p_tip|``, orientation
error is the angle of ``root_R_tip^T root_R_target``.

Modules: :mod:`.result` (what a call returns), :mod:`.selection` (which joints move the tips),
:mod:`.chain` (the reduced chain evaluator), :mod:`.residual` (the pose residual),
:mod:`.sampler` (random restarts), :mod:`.schedule` (the LM constants both engines read),
:mod:`.engine` (the LM loop), :mod:`.options` (validated options, targets and seeds),
:mod:`.solver` (the solver object), :mod:`.calls` (the one-call functions). No module keeps
state: caching lives in the :class:`IKSolver` a caller owns, and in the solvers the one-call
functions keep per model (:func:`.calls.solver_for`).
"""

from .calls import solve, solve_batch
from .chain import ChainEvaluator
from .options import MAX_PARALLEL_SEEDS, MAX_TIME_BUDGET
from .result import IKBatchResult, IKResult
from .selection import JointSelection
from .solver import IKSolver

__all__ = ['ChainEvaluator', 'IKBatchResult', 'IKResult', 'IKSolver', 'JointSelection',
           'MAX_PARALLEL_SEEDS', 'MAX_TIME_BUDGET', 'solve', 'solve_batch']
