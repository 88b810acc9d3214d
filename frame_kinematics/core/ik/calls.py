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
The one-call functions :func:`solve` and :func:`solve_batch`, and the solvers they reuse.

A call of :func:`solve` (or ``Robot.inverse_kinematics``) on a
:class:`~frame_kinematics.core.robot.Robot` takes its :class:`~.solver.IKSolver` from the
robot's bounded cache (:attr:`~frame_kinematics.core.robot.Robot.ik_solvers`), by tips and
active joints, so that the chains are built once and not at every call (:func:`solver_for`);
on a plain :class:`~frame_kinematics.core.model.RobotModel` (data, no cache) each call builds
its solver on the process's default backend. A solver's answers
do not depend on its earlier calls, so a reused solver answers as a new one would.
"""

import time
from typing import Optional, Sequence, Tuple, TYPE_CHECKING, Union

from .options import check_option_names
from .result import IKBatchResult, IKResult
from .selection import Tips
from .solver import IKSolver

if TYPE_CHECKING:  # pragma: no cover
    from ..model import RobotModel


def _key(tip, active_joints) -> Optional[Tuple]:
    """``(tips, active joints)`` as a key, or None for anything but names (not kept)."""
    tips = (tip,) if isinstance(tip, str) else tip
    if not isinstance(tips, (tuple, list)) or not all(type(t) is str for t in tips):
        return None
    if active_joints is None or type(active_joints) is str:
        return tuple(tips), active_joints
    if not isinstance(active_joints, (tuple, list)) or \
            not all(type(j) is str for j in active_joints):
        return None
    return tuple(tips), tuple(active_joints)


def solver_for(model: 'RobotModel', tip: Tips, active_joints: Optional[Sequence[str]]
               ) -> IKSolver:
    """
    Return the model's solver of some tips and active joints (built and kept the first time).

    :param model: the model (a :class:`~frame_kinematics.core.robot.Robot`'s
        :attr:`~frame_kinematics.core.robot.Robot.ik_solvers` keeps the solver; a plain model
        keeps none).
    :param tip: a tip link or a list of them.
    :param active_joints: the active joints (None: every joint moving the tips).
    :return: the solver.
    :raises FrameKinematicsError: as :class:`~.solver.IKSolver` does for bad tips or joints
        (nothing is kept then).
    """
    key = _key(tip, active_joints)
    kept = getattr(model, 'ik_solvers', None)  # a Robot's; a model is data and keeps none
    if key is None or kept is None:
        return IKSolver(model, tip, active_joints)
    return kept.get(key, lambda: IKSolver(model, tip, active_joints))


def one_call(call: str, model: 'RobotModel', tip: Tips, target, batch: Optional[bool],
             options: dict) -> Union[IKResult, IKBatchResult]:
    """
    Solve with the model's solver of the tips and active joints in ``options``.

    :param call: the function the user called, named in errors.
    :param model: the robot model.
    :param tip: the tip link(s).
    :param target: the target(s).
    :param batch: True for a batch, None to decide from the target's shape.
    :param options: the call's keyword options, ``active_joints`` included.
    :return: the result.
    """
    start = time.perf_counter()
    options = dict(options)
    active_joints = options.pop('active_joints', None)
    check_option_names(options, call)
    solver = solver_for(model, tip, active_joints)
    if batch:
        return solver._run(start, target, True, options)
    return solver._solve(start, target, options)


def solve(model: 'RobotModel', tip: Tips, target, *,
          active_joints: Optional[Sequence[str]] = None, **options
          ) -> Union[IKResult, IKBatchResult]:
    """
    Inverse position kinematics of one or several tips.

    The solver of the tips and active joints is built at the first call and reused by the
    next ones (see :func:`solver_for`); its answers are those of a new solver.

    :param model: the robot model.
    :param tip: the tip link, or a list of tip links (each with its own target).
    :param target: the target pose(s), see :meth:`IKSolver.solve <.solver.IKSolver.solve>`.
    :param active_joints: joints allowed to move (default: every joint moving the tips);
        the others stay at the seed's values.
    :param options: the keyword options of :meth:`IKSolver.solve <.solver.IKSolver.solve>`.
    :return: an :class:`IKResult` (or :class:`IKBatchResult` for a batch).
    :raises UnknownFrameError: for an unknown tip, reference frame or joint.
    :raises ConfigurationError: for invalid input or when no active joint moves the tips.
    :raises ReferenceFrameError: if the reference frame is moved by the active joints.
    :raises UnknownOptionError: for an unknown option (also a ``TypeError``).
    """
    return one_call('ik.solve', model, tip, target, None,
                    dict(options, active_joints=active_joints))


def solve_batch(model: 'RobotModel', tip: Tips, targets, *,
                active_joints: Optional[Sequence[str]] = None, **options) -> IKBatchResult:
    """
    Solve many targets in one vectorised call (see :meth:`IKSolver.solve` for the options).

    :param model: the robot model.
    :param tip: the tip link, or a list of tip links.
    :param targets: ``(B, 4, 4)`` for one tip, ``(B, n_tips, 4, 4)`` for several.
    :param active_joints: joints allowed to move (default: every joint moving the tips).
    :param options: the keyword options of :meth:`IKSolver.solve`; ``seed`` may be
        ``(B, nq)``.
    :return: the per-target results.
    :raises UnknownOptionError: for an unknown option (also a ``TypeError``).
    """
    return one_call('ik.solve_batch', model, tip, targets, True,
                    dict(options, active_joints=active_joints))
