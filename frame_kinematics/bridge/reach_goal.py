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
The ``ReachStudy`` action as plain data: goal, feedback and result, and the goal's check.

:class:`ReachGoal` mirrors ``frame_kinematics_interfaces/action/ReachStudy`` (an empty array,
string or a zero count means "not given"). :func:`study_request` turns it into a
:class:`StudyRequest` through the command line's own reading of the reach options
(:func:`~frame_kinematics.core.reach.options.targets_from_options`), and refuses a bad goal
with the library's error before any work: no kind or several kinds of targets, a missing
companion setting, NaN or huge values, too many targets, an unreadable points file, an unknown
tip, frame or joint, a missing output path.
"""

from dataclasses import dataclass, field
import math
import os
from types import MappingProxyType
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

from ..core.checks import check_count
from ..core.errors import ConfigurationError, quote, TargetFileError, UnknownFrameError
from ..core.model import RobotModel
from ..core.reach.options import TargetOptions, targets_from_options
from ..core.reach.result import save_path
from ..core.reach.targets import TargetSet
from ..core.robot import Robot

#: The tip of a goal that names none (the command line's default).
DEFAULT_TIP = 'tool0'
#: Stages of the feedback.
STAGE_TARGETS = 'targets'
STAGE_NEIGHBOURS = 'neighbours'
#: How a goal names the settings that it spells otherwise than the command line.
_GOAL_NAMES: Mapping[str, str] = MappingProxyType({
    'points': 'points_file', 'so3': 'so3_count',
    'cone': 'cone (cone_angle, cone_directions, cone_rotations)'})


def goal_name(name: str) -> str:
    """
    Return the goal field of a target setting, for messages.

    :param name: the setting's name in :class:`~frame_kinematics.core.reach.options.TargetOptions`.
    :return: the field of the goal.
    """
    return _GOAL_NAMES.get(name, name)


@dataclass(frozen=True)
class ReachGoal:
    """
    A ``ReachStudy`` goal as plain data (see the action file for each field).

    Arrays are tuples of floats; an empty one, an empty string or a zero count is not given.
    """

    tip_link: str = ''
    box: Tuple[float, ...] = ()
    step: float = 0.0
    sphere: Tuple[float, ...] = ()
    radii: Tuple[float, ...] = ()
    count: int = 0
    points_file: str = ''
    frame: str = ''
    workpiece_xyz: Tuple[float, ...] = ()
    workpiece_rpy: Tuple[float, ...] = ()
    rpy: Tuple[float, ...] = ()
    cone_angle: float = 0.0
    cone_directions: int = 0
    cone_rotations: int = 0
    so3_count: int = 0
    active_joints: Tuple[str, ...] = ()
    seed: int = 0
    output: str = ''


@dataclass(frozen=True)
class StudyRequest:
    """
    A checked goal: what the study process runs.

    :ivar tip: the tip link.
    :ivar options: the target settings (JSON-ready values).
    :ivar active_joints: the joints allowed to move (None: all that move the tip).
    :ivar seed: the seed of the random restarts.
    :ivar output: the absolute path of the ``.npz`` to write.
    :ivar targets: how many targets the settings make.
    :ivar backend: the backend of the robot the goal was checked against, which the study
        process evaluates the same robot on (the same study for the same seed).
    """

    tip: str
    options: TargetOptions
    active_joints: Optional[Tuple[str, ...]]
    seed: int
    output: str
    targets: int
    backend: str

    def document(self, urdf: str) -> Dict[str, Any]:
        """
        Return what the study process reads (JSON-ready).

        :param urdf: the robot description the study runs on.
        :return: the document.
        """
        options = {name: (list(value) if isinstance(value, tuple) else value)
                   for name, value in vars(self.options).items()}
        return {'urdf': urdf, 'tip': self.tip, 'options': options,
                'active_joints': None if self.active_joints is None
                else list(self.active_joints), 'seed': self.seed, 'output': self.output,
                'backend': self.backend}


@dataclass(frozen=True)
class ReachFeedback:
    """
    The progress of a study.

    :ivar stage: :data:`STAGE_TARGETS` or :data:`STAGE_NEIGHBOURS`.
    :ivar done: targets tried (first pass) or rounds done (neighbour pass).
    :ivar total: targets to try or rounds.
    :ivar solved: targets solved so far.
    """

    stage: str
    done: int
    total: int
    solved: int


@dataclass(frozen=True)
class ReachAnswer:
    """
    The result of a ``ReachStudy`` goal (see the action file; NaN score: none reached).

    :ivar success: whether the study ran to its end and was saved.
    :ivar message: why not, or the study in one line.
    :ivar path: the saved ``.npz`` ('' when none).
    :ivar summary: the figures of the result (the action's result fields by name).
    """

    success: bool
    message: str
    path: str = ''
    summary: Dict[str, float] = field(default_factory=dict)


#: The result's figures, read from :meth:`ReachResult.summary` (by name) and its statistics.
SUMMARY_COUNTS = ('targets', 'points', 'orientations', 'reached', 'points_fully_reached',
                  'points_never_reached', 'beyond_reach', 'solved_neighbour_pass')
SUMMARY_FIGURES = ('percent_reached', 'elapsed')


def answer_from_summary(summary: Dict[str, Any], path: str) -> ReachAnswer:
    """
    Return the successful answer of a study from its summary.

    :param summary: :meth:`ReachResult.summary <frame_kinematics.core.reach.ReachResult.summary>`.
    :param path: the saved study.
    :return: the answer.
    """
    figures: Dict[str, float] = {name: int(summary[name]) for name in SUMMARY_COUNTS}
    figures.update({name: float(summary[name]) for name in SUMMARY_FIGURES})
    for key in ('min', 'mean', 'max'):
        value = summary['score'][key]
        figures[f'score_{key}'] = math.nan if value is None else float(value)
    message = (f"{summary['reached']} of {summary['targets']} targets reached "
               f"({summary['percent_reached']:.1f} %), saved to {path}")
    return ReachAnswer(True, message, path, figures)


def _given(values: Sequence[float]) -> Optional[Tuple[float, ...]]:
    return tuple(float(v) for v in values) if len(values) else None


def target_options(goal: ReachGoal) -> TargetOptions:
    """
    Return the target settings of a goal (unchecked: :func:`study_request` checks).

    :param goal: the goal.
    :return: the settings, as the command line would give them.
    """
    cone = None
    if goal.cone_rotations or goal.cone_directions or goal.cone_angle:
        cone = (float(goal.cone_angle), goal.cone_directions, goal.cone_rotations)
    return TargetOptions(
        box=_given(goal.box), step=float(goal.step) if goal.step else None,
        sphere=_given(goal.sphere), radii=_given(goal.radii), count=goal.count or None,
        points=goal.points_file or None, frame=goal.frame or None,
        workpiece_xyz=_given(goal.workpiece_xyz) or (0.0, 0.0, 0.0),
        workpiece_rpy=_given(goal.workpiece_rpy) or (0.0, 0.0, 0.0),
        rpy=_given(goal.rpy), cone=cone, so3=goal.so3_count or None)


def _check_names(model: RobotModel, frame: Optional[str], tip: str,
                 joints: Optional[Tuple[str, ...]]) -> None:
    model.link_index(tip)
    if frame is not None:
        model.link_index(frame)
    for joint in joints or ():
        if joint not in model.joint_names:
            raise UnknownFrameError(joint, model.joint_names, 'joint')


def study_request(goal: ReachGoal, model: Robot,
                  cwd: str) -> Tuple[StudyRequest, TargetSet]:
    """
    Check a goal against a model and return what the study runs, before any work.

    :param goal: the goal.
    :param model: the robot the study runs on (on its backend).
    :param cwd: the directory a relative output path is taken from.
    :return: the request and its targets.
    :raises ConfigurationError: for bad settings (the message names the goal's field).
    :raises UnknownFrameError: for an unknown tip, frame or joint.
    :raises TargetFileError: for an unreadable points file.
    """
    if not goal.output.strip():
        raise ConfigurationError(f'output must name the .npz file the study is saved to, got '
                                 f'{quote(goal.output)}')
    if not goal.output.isprintable():  # it is logged, and a log line stays one line
        raise ConfigurationError(f'output must be printable (no newline, tab or escape '
                                 f'sequence), got {quote(goal.output)}')
    options = target_options(goal)
    tip = goal.tip_link or DEFAULT_TIP
    joints = tuple(goal.active_joints) or None
    # the names first: building up to MAX_TARGETS targets takes the node tens of seconds and
    # gigabytes, not to be spent on a goal refused for an unknown tip
    _check_names(model, options.frame, tip, joints)
    targets = targets_from_options(options, goal_name)
    seed = check_count(goal.seed, 'seed', 0, 2 ** 63 - 1)
    try:
        # the name as given is checked (os.path.abspath would make 'folder/' or 'folder/..'
        # a file beside the folder: '/tmp/' would write '/tmp.npz')
        output = os.path.abspath(save_path(os.path.join(cwd, goal.output)))
    except TargetFileError as exc:  # the rule ReachResult.save applies
        raise ConfigurationError(f'output: {exc}') from None
    return StudyRequest(tip, options, joints, seed, output, len(targets),
                        model.backend), targets


__all__ = ['answer_from_summary', 'DEFAULT_TIP', 'goal_name', 'ReachAnswer', 'ReachFeedback',
           'ReachGoal', 'STAGE_NEIGHBOURS', 'STAGE_TARGETS', 'study_request', 'StudyRequest',
           'SUMMARY_COUNTS', 'SUMMARY_FIGURES', 'target_options']
