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
MoveIt's kinematics services (``GetPositionIK``, ``GetPositionFK``) on plain data, ROS-free.

:class:`MoveItKinematics` answers them as move_group's kinematics capability does:

* ``compute_ik``: ``group_name`` is a group of the SRDF (the ``robot_description_semantic``
  parameter or topic; :mod:`~frame_kinematics.bridge.moveit_groups` says what a group holds),
  else ``INVALID_GROUP_NAME``. The seed is the latest joint_states values overridden by
  ``robot_state`` (a malformed state: ``INVALID_ROBOT_STATE``). One target
  (``pose_stamped``, or a ``pose_stamped_vector`` of one) places ``ik_link_name`` (or
  ``ik_link_names[0]``), else the group's first tip; several targets need as many
  ``ik_link_names`` (else ``INVALID_LINK_NAME``). A pose is given in the model frame (''), or
  any frame of the tree at the latest joint values (else ``FRAME_TRANSFORM_FAILURE``). Only
  the group's active joints move; the answer is the whole robot state. A link IK cannot place,
  an unreachable target and a spent timeout answer ``NO_IK_SOLUTION``, as move_group does
  (its ``setFromIK`` has no other answer; the message says which). ``timeout`` 0 (or below)
  is :data:`DEFAULT_IK_TIMEOUT`, at most :data:`MAX_TIMEOUT`; it counts from the request's
  arrival. ``avoid_collisions`` and ``constraints`` are not enforced: the solve goes on and a
  throttled warning says so.
* ``compute_fk``: the pose of every frame of ``fk_link_names`` at ``robot_state`` in
  ``frame_id`` (the model frame when empty); unknown names, and frames without a pose (the CoM
  of a robot without mass: the message says why), are left out and the answer is then
  ``INVALID_LINK_NAME``, as is an empty list or one of more than :data:`MAX_FK_LINKS` names.

The model frame is MoveIt's: the parent frame of the SRDF's virtual joint above the root link
(``world`` for the Panda), placed at the root link unless ``robot_state`` gives that virtual
joint a transform; without an SRDF, the root link.
"""

import math
import threading
import time
from typing import Callable, List, Optional, Tuple

import numpy as np

from .ik_slices import solve_in_slices
from .log import shorten, ThrottledLog
from .moveit_groups import GroupKinematics, model_frame, resolve_group
from .moveit_types import (FRAME_TRANSFORM_FAILURE, INVALID_GROUP_NAME, INVALID_LINK_NAME,
                           INVALID_ROBOT_STATE, NO_IK_SOLUTION, PoseIn, PoseOut,
                           PositionFKAnswer, PositionFKRequestIn, PositionIKAnswer,
                           PositionIKRequestIn, RobotStateIn, RobotStateOut, SUCCESS)
from .service_types import MAX_TIMEOUT
from .snapshot import Snapshot
from ..core.checks import check_finite, first_repeated
from ..core.errors import (ConfigurationError, FrameKinematicsError, name_list, quote,
                           SRDFError, UnknownFrameError)
from ..core.ik.schedule import STOP_TIME_BUDGET
from ..core.joints import JointType
from ..core.spatial import inverse, quaternion_from_rotation, transform_from_xyz_quaternion
from ..core.srdf import load_srdf, SemanticDescription
from ..core.transform_checks import unit_quaternion

#: IK time (s) of a request whose timeout is 0.
DEFAULT_IK_TIMEOUT = 0.05
#: The most names a ``GetPositionFK`` request may give (a robot has far fewer frames).
MAX_FK_LINKS = 10_000


class _Refused(FrameKinematicsError):
    """A request answered with an error code (internal: never leaves this module)."""

    def __init__(self, code: int, text: str) -> None:
        """Keep the code and the text."""
        super().__init__(text)
        self.code = code


def _pose_matrix(pose: PoseIn, what: str) -> np.ndarray:
    try:
        position = np.asarray(pose.position, dtype=float).reshape(3)
        quat = np.asarray(pose.orientation, dtype=float).reshape(4)
    except (ValueError, TypeError, OverflowError) as exc:
        raise _Refused(NO_IK_SOLUTION, f'{what} is not a pose: {exc}') from None
    if not (np.all(np.isfinite(position)) and np.all(np.isfinite(quat))):
        raise _Refused(NO_IK_SOLUTION, f'{what} is not a pose: not finite')
    try:
        # bounded as every position of the core is: a virtual joint 1e300 m away would
        # otherwise place every answered pose there (or at inf once rotated)
        check_finite(position, f'{what} position', ('x', 'y', 'z'))
        return transform_from_xyz_quaternion(position, unit_quaternion(quat, what))
    except ConfigurationError as exc:  # a huge position, a quaternion that is not a rotation
        raise _Refused(NO_IK_SOLUTION, f'{what} is not a pose: {exc}') from None


def _timeout(value) -> Tuple[float, str]:
    try:
        seconds = float(value)
    except (TypeError, ValueError, OverflowError):
        seconds = math.nan
    if not seconds > 0:
        return DEFAULT_IK_TIMEOUT, ''
    if seconds > MAX_TIMEOUT:
        return MAX_TIMEOUT, f' (timeout cut to {MAX_TIMEOUT:g} s)'
    return seconds, ''


class MoveItKinematics:
    """
    The MoveIt-compatible services: the SRDF they read, and their answers.

    The SRDF is swapped by reference (:meth:`set_semantic`), so a service thread and a
    parameter callback may use one object together.

    :param logger: where warnings go (``info``, ``warning``, ``error``).
    :param clock: monotonic clock in seconds.
    :param pause: called between two IK slices (see :mod:`~frame_kinematics.bridge.ik_slices`).
    :param warn_period: seconds between two repeats of a warning.
    """

    def __init__(self, logger, clock: Callable[[], float] = time.monotonic,
                 pause: Callable[[float], None] = time.sleep, warn_period: float = 5.0) -> None:
        """Start without an SRDF (every ``compute_ik`` is ``INVALID_GROUP_NAME``)."""
        self.logger = logger
        self._clock = clock
        self._pause = pause
        self._log = ThrottledLog(logger, warn_period, clock)
        self._semantic: Optional[SemanticDescription] = None
        self._lock = threading.Lock()

    @property
    def semantic(self) -> Optional[SemanticDescription]:
        """Return the SRDF in use (None before one is set)."""
        return self._semantic

    @staticmethod
    def read_semantic(document: str, model=None) -> Optional[SemanticDescription]:
        """
        Read an SRDF and check it against a model, without using it yet.

        :param document: the SRDF XML ('' for none).
        :param model: the robot model whose links and joints it must name (None: not checked).
        :return: the description (None for '').
        :raises SRDFError: for a document that is not a valid SRDF, or names what the model
            lacks.
        """
        if not isinstance(document, str):
            raise SRDFError(f'the SRDF must be a string, got {quote(document)}')
        if not document.strip():
            return None
        semantic = load_srdf(document)
        if model is not None:
            semantic.check_against(model.link_names, [joint.name for joint in model.joints])
        return semantic

    def use_semantic(self, semantic: Optional[SemanticDescription]) -> None:
        """
        Use an SRDF read by :meth:`read_semantic` (None forgets it); log its groups.

        An SRDF without groups is used too (its virtual joint places ``compute_fk``'s answers),
        with a warning: every ``compute_ik`` is then ``INVALID_GROUP_NAME``.

        :param semantic: the description.
        """
        with self._lock:
            self._semantic = semantic
        if semantic is None:
            return
        if semantic.groups:
            self.logger.info(f"SRDF of robot '{semantic.name}' in use: groups "
                             f'{name_list(g.name for g in semantic.groups)}')
        else:
            self.logger.warning(f"SRDF of robot '{semantic.name}' in use has no groups: "
                                'compute_ik refuses every group_name (INVALID_GROUP_NAME)')

    def set_semantic(self, document: str, model=None) -> Optional[SemanticDescription]:
        """
        Read, check and use a new SRDF; a bad one changes nothing.

        :param document: the SRDF XML ('' forgets the SRDF).
        :param model: see :meth:`read_semantic`.
        :return: the description in use.
        :raises SRDFError: see :meth:`read_semantic`.
        """
        semantic = self.read_semantic(document, model)
        self.use_semantic(semantic)
        return semantic

    # -- shared steps --------------------------------------------------------------------------
    def _state(self, snapshot: Snapshot, state: RobotStateIn, semantic
               ) -> Tuple[np.ndarray, np.ndarray]:
        """Return ``q`` (latest values overridden by ``state``) and ``model_T_root``."""
        model = snapshot.model
        names, positions = list(state.names), list(state.positions)
        model_T_root = np.eye(4)
        virtual = {} if semantic is None else \
            {v.name: v for v in semantic.virtual_joints if v.child_link == model.root_link}
        try:
            if len(state.multi_dof_names) != len(state.multi_dof_transforms):
                raise ConfigurationError(
                    f'multi_dof_joint_state has {len(state.multi_dof_names)} names and '
                    f'{len(state.multi_dof_transforms)} transforms')
            # a name given twice is refused as in joint_state, before any transform is read:
            # the loop below then ends by the first name that is not a multi-dof joint
            repeated = first_repeated(state.multi_dof_names)
            if repeated is not None:
                raise ConfigurationError(f'multi_dof_joint_state names {quote(repeated)} more '
                                         'than once')
            for name, (translation, rotation) in zip(state.multi_dof_names,
                                                     state.multi_dof_transforms):
                pose = _pose_matrix(PoseIn('', translation, rotation),
                                    f'transform of {quote(name)}')
                if name in virtual:
                    model_T_root = pose
                    continue
                entries = _multi_dof_entries(model, name, pose)
                names.extend(entries[0])
                positions.extend(entries[1])
            q = snapshot.configuration_for(names, positions, ())
        except _Refused as exc:
            raise _Refused(INVALID_ROBOT_STATE, f'robot_state: {exc}') from None
        except (FrameKinematicsError, ValueError, TypeError) as exc:
            raise _Refused(INVALID_ROBOT_STATE, shorten(f'robot_state: {exc}')) from None
        return q, model_T_root

    def _in_root(self, snapshot: Snapshot, frame_id, model_frame_name: str,
                 model_T_root: np.ndarray) -> np.ndarray:
        """Return ``root_T_frame`` of a request's frame (at the latest joint values)."""
        if not isinstance(frame_id, str):
            raise _Refused(FRAME_TRANSFORM_FAILURE, f'frame_id {quote(frame_id)} is not text')
        frame = snapshot.strip_prefix(frame_id)
        if frame in ('', model_frame_name) and not self._in_tree(snapshot, frame):
            return inverse(model_T_root)
        try:
            return snapshot.root_T_frame(frame, snapshot.q)
        except UnknownFrameError:
            raise _Refused(FRAME_TRANSFORM_FAILURE,
                           f'unknown frame {quote(frame_id)}: neither the model '
                           f"frame '{model_frame_name}' nor a frame of the tree") from None
        except FrameKinematicsError as exc:  # a frame of the tree without a pose
            raise _Refused(FRAME_TRANSFORM_FAILURE,
                           shorten(f'frame {quote(frame_id)} has no pose: {exc}')) from None

    @staticmethod
    def _in_tree(snapshot: Snapshot, frame: str) -> bool:
        if not frame:
            return False
        try:
            snapshot.frame_dependencies(frame)
        except FrameKinematicsError:
            return False
        return True

    # -- GetPositionIK ---------------------------------------------------------------------------
    def compute_ik(self, snapshot: Snapshot, request: PositionIKRequestIn,
                   arrival: Optional[float] = None) -> PositionIKAnswer:
        """
        Answer a ``GetPositionIK`` request as move_group does (see the module's text).

        :param snapshot: the model and the latest joint values.
        :param request: the request.
        :param arrival: when it arrived, on the clock (default: now).
        :return: the answer; never raises for a bad request.
        """
        start = self._clock() if arrival is None else arrival
        try:
            return self._compute_ik(snapshot, request, start)
        except _Refused as exc:
            return PositionIKAnswer(exc.code, shorten(str(exc)))

    def _compute_ik(self, snapshot: Snapshot, request: PositionIKRequestIn,
                    start: float) -> PositionIKAnswer:
        semantic = self._semantic
        model = snapshot.model
        group = self._group(semantic, snapshot, request.group_name)
        if request.avoid_collisions:
            self._log.warning('avoid_collisions', 'compute_ik: avoid_collisions is not '
                              'supported (no collision checking): solving without it')
        if request.has_constraints:
            self._log.warning('constraints', 'compute_ik: constraints are not supported: '
                              'solving without them')
        q, model_T_root = self._state(snapshot, request.robot_state, semantic)
        frame_name = model_frame(semantic, model)
        vector = list(request.pose_stamped_vector)
        if len(vector) <= 1:
            poses = [vector[0] if vector else request.pose_stamped]
            if vector:
                links = [request.ik_link_names[0] if len(request.ik_link_names) else '']
            else:
                links = [request.ik_link_name]
            if not links[0]:
                if not group.tips:
                    raise _Refused(NO_IK_SOLUTION, f"group '{group.name}' has no tip link")
                links = [group.tips[0]]
        else:
            if len(vector) != len(request.ik_link_names):
                raise _Refused(INVALID_LINK_NAME,
                               f'{len(vector)} poses in pose_stamped_vector but '
                               f'{len(request.ik_link_names)} ik_link_names')
            poses, links = vector, list(request.ik_link_names)
        tips = []
        for link in links:
            tip = snapshot.strip_prefix(link) if isinstance(link, str) else ''
            if not model.has_link(tip):
                raise _Refused(NO_IK_SOLUTION, f'unknown link {quote(link)}: ik_link_name '
                               f"must be a link of robot '{model.name}'")
            tips.append(tip)
        targets = [self._in_root(snapshot, pose.frame_id, frame_name, model_T_root)
                   @ _pose_matrix(pose, f'pose of {tip}') for pose, tip in zip(poses, tips)]
        timeout, note = _timeout(request.timeout)
        deadline = start + timeout
        try:
            result, slices = solve_in_slices(
                model, tips, targets[0] if len(targets) == 1 else np.stack(targets), q,
                group.active_joints, deadline, self._clock, self._pause)
        except FrameKinematicsError as exc:
            raise _Refused(NO_IK_SOLUTION, shorten(f'inverse kinematics of '
                                                   f'{name_list(tips)}: {exc}')) from None
        if not result.success:
            why = (f'timed out after {timeout:g} s' if result.reason == STOP_TIME_BUDGET
                   else result.reason)
            return PositionIKAnswer(NO_IK_SOLUTION, f'no solution for {name_list(tips)} '
                                    f'({why}{note}): position error '
                                    f'{result.position_error:.3g} m, orientation error '
                                    f'{result.orientation_error:.3g} rad')
        return PositionIKAnswer(SUCCESS, f'solved {name_list(tips)} in {result.iterations} '
                                f'iterations ({slices} slices){note}',
                                robot_state(snapshot, np.asarray(result.q, dtype=float)))

    def _group(self, semantic, snapshot: Snapshot, name) -> GroupKinematics:
        if semantic is None:
            raise _Refused(INVALID_GROUP_NAME, 'no SRDF: set the robot_description_semantic '
                           'parameter or publish it on the robot_description_semantic topic')
        if not isinstance(name, str):
            raise _Refused(INVALID_GROUP_NAME, f'group_name {quote(name)} is not text')
        try:
            return resolve_group(semantic, snapshot.model, name)
        except SRDFError as exc:
            raise _Refused(INVALID_GROUP_NAME, shorten(str(exc))) from None

    # -- GetPositionFK ---------------------------------------------------------------------------
    def compute_fk(self, snapshot: Snapshot, request: PositionFKRequestIn) -> PositionFKAnswer:
        """
        Answer a ``GetPositionFK`` request as move_group does (see the module's text).

        :param snapshot: the model and the latest joint values.
        :param request: the request.
        :return: the answer; never raises for a bad request.
        """
        names = list(request.fk_link_names)
        if not names:
            return PositionFKAnswer(INVALID_LINK_NAME, 'no links in fk_link_names')
        if len(names) > MAX_FK_LINKS:
            return PositionFKAnswer(INVALID_LINK_NAME, f'fk_link_names has {len(names)} names, '
                                    f'more than {MAX_FK_LINKS}')
        semantic = self._semantic
        try:
            q, model_T_root = self._state(snapshot, request.robot_state, semantic)
            frame_name = model_frame(semantic, snapshot.model)
            root_T_out = self._in_root(snapshot, request.frame_id, frame_name, model_T_root)
        except _Refused as exc:
            return PositionFKAnswer(exc.code, shorten(str(exc)))
        out_T_root = inverse(root_T_out)
        out_frame = request.frame_id or frame_name
        tree = snapshot.tree(q)
        answered: List[str] = []
        poses: List[PoseOut] = []
        unknown = []
        unplaced = []  # frames of the tree that have no pose (the CoM of a massless robot)
        reason = ''
        for name in names:
            try:
                root_T_frame = tree.frame(snapshot.strip_prefix(name)).root_T_frame
            except (UnknownFrameError, TypeError):
                unknown.append(name)
                continue
            except FrameKinematicsError as exc:
                unplaced.append(name)
                reason = reason or str(exc)
                continue
            out_T_frame = out_T_root @ root_T_frame
            answered.append(name)
            poses.append(PoseOut(out_frame, tuple(out_T_frame[:3, 3].tolist()),
                                 tuple(quaternion_from_rotation(out_T_frame[:3, :3]).tolist())))
        if unknown or unplaced:
            why = [f'unknown frames {name_list(unknown)}'] if unknown else []
            if unplaced:
                why.append(f'cannot place {name_list(unplaced)}: {reason}')
            return PositionFKAnswer(INVALID_LINK_NAME, shorten('; '.join(why)),
                                    tuple(answered), tuple(poses))
        return PositionFKAnswer(SUCCESS, f'{len(poses)} poses in {out_frame}',
                                tuple(answered), tuple(poses))


def _multi_dof_entries(model, name: str, pose: np.ndarray) -> Tuple[List[str], List[float]]:
    """Return the configuration entries of a floating or planar joint from its transform."""
    try:
        joint = model.joint(name)
    except FrameKinematicsError:
        raise ConfigurationError(f'unknown multi-dof joint {quote(name)}') from None
    if joint.type is JointType.FLOATING:
        values = pose[:3, 3].tolist() + quaternion_from_rotation(pose[:3, :3]).tolist()
        return [f'{name}/{axis}' for axis in ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw')], values
    if joint.type is JointType.PLANAR:
        theta = math.atan2(pose[1, 0], pose[0, 0])
        return [f'{name}/x', f'{name}/y', f'{name}/theta'], [pose[0, 3], pose[1, 3], theta]
    raise ConfigurationError(f"joint '{name}' is not a floating or planar joint")


def robot_state(snapshot: Snapshot, q: np.ndarray) -> RobotStateOut:
    """
    Return the whole robot state at ``q`` as move_group answers it.

    :param snapshot: the model.
    :param q: a configuration.
    :return: every one-variable joint (mimic joints from their master) and the floating and
        planar joints as transforms.
    """
    model = snapshot.model
    names: List[str] = []
    values: List[float] = []
    multi: List[str] = []
    transforms = []
    for joint in model.joints:
        if joint.type in (JointType.FLOATING, JointType.PLANAR) and joint.is_actuated:
            part = q[joint.idx_q:joint.idx_q + joint.nq]
            if joint.type is JointType.FLOATING:
                transforms.append((tuple(part[:3].tolist()), tuple(part[3:7].tolist())))
            else:
                half = 0.5 * float(part[2])
                transforms.append(((float(part[0]), float(part[1]), 0.0),
                                   (0.0, 0.0, math.sin(half), math.cos(half))))
            multi.append(joint.name)
        elif joint.is_actuated:
            names.append(joint.name)
            values.append(float(q[joint.idx_q]))
        elif joint.mimic is not None:
            master, multiplier, offset = joint.mimic
            names.append(joint.name)
            values.append(multiplier * float(q[model.joint(master).idx_q]) + offset)
    return RobotStateOut(tuple(names), tuple(values), tuple(multi), tuple(transforms))


__all__ = ['DEFAULT_IK_TIMEOUT', 'MoveItKinematics', 'robot_state']
