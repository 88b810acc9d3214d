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
The ROS-free half of the frame_kinematics node.

:class:`Bridge` makes every decision the node takes, on plain Python data: which joint
values to accept, which transforms to publish on ``/tf`` and ``/tf_static`` with which stamps,
when to publish the center of mass, how to swap the robot model and how to answer the
kinematics services (see :mod:`frame_kinematics.bridge_services`). The rclpy node
(:mod:`frame_kinematics.node`) only converts messages to and from these dataclasses.

Stamps are integer nanoseconds (``builtin_interfaces/Time`` as one number).

Transform rules (those of robot_state_publisher, plus the additions of this package)
------------------------------------------------------------------------------------
* A movable joint (revolute, continuous, prismatic, and the mimic joints) named in an accepted
  ``joint_states`` message gives one ``/tf`` transform ``parent link -> child link``, stamped
  with the message's stamp. Mimic followers of a master named in the message are published
  with it. Floating and planar joints are movable too (robot_state_publisher skips floating
  joints and freezes planar ones); their configuration entries are named ``joint/x``, ... as
  :attr:`RobotModel.configuration_names <frame_kinematics.core.model.RobotModel>`.
* Throttling as robot_state_publisher: the message is published when its stamp is at least
  ``1/publish_frequency`` (whole milliseconds) after the least recently published joint it
  names, or always with ``ignore_timestamp``; ``publish_frequency: 0`` publishes every
  message. If the node clock goes backwards, the publish history is cleared. Joint values are
  stored from every accepted message, throttled or not.
* Fixed joints go to ``/tf_static`` (stamped with the current time), together with the link
  center-of-mass frames ``<link>_com`` and the user frames; the whole static set is sent
  again each time it changes (model swap, settings change, a baked frame being placed).
* The robot center-of-mass frame goes to ``/tf`` with the joint transforms, once every
  actuated joint has been received (one warning names the missing joints until then).
* ``frame_prefix`` is prepended to every frame id, as robot_state_publisher does.
"""

from dataclasses import dataclass, field, replace
import logging
import math
import time
from typing import (Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence,
                    Tuple)

import numpy as np

from .core.errors import ConfigurationError, FrameKinematicsError, UnknownFrameError
from .core.frames import COM_ORIENTATION_MODES, FrameKind, FrameTree
from .core.joints import JointType
from .core.kinematics import KinematicsState
from .core.model import RobotModel
from .core.spatial import (quaternion_from_rotation, quaternion_multiply,
                           transform_from_xyz_rpy)

COM_ORIENTATIONS = COM_ORIENTATION_MODES


@dataclass(frozen=True)
class JointStateInput:
    """
    A ``sensor_msgs/JointState`` as plain data.

    :ivar names: joint names (any subset of the model's joints).
    :ivar positions: one position per name.
    :ivar velocities: one velocity per name, or empty.
    :ivar stamp_ns: header stamp in nanoseconds.
    """

    names: Sequence[str]
    positions: Sequence[float]
    velocities: Sequence[float] = ()
    stamp_ns: int = 0


class TransformOut(NamedTuple):
    """
    One ``geometry_msgs/TransformStamped`` to publish: ``parent_T_child``.

    :ivar parent: header frame id (prefixed).
    :ivar child: child frame id (prefixed).
    :ivar stamp_ns: stamp in nanoseconds.
    :ivar translation: ``parent_p_child``.
    :ivar rotation: quaternion ``[x, y, z, w]`` of ``parent_R_child``.
    """

    parent: str
    child: str
    stamp_ns: int
    translation: Tuple[float, float, float]
    rotation: Tuple[float, float, float, float]


@dataclass(frozen=True)
class CenterOfMassOut:
    """
    Robot center of mass to publish on the topics.

    :ivar frame_id: the (prefixed) root link, the frame every vector is expressed in.
    :ivar position: ``root_p_com``.
    :ivar velocity: CoM velocity in root axes, None unless every joint velocity is known.
    :ivar angular_momentum: centroidal angular momentum (about the CoM, root axes), or None.
    """

    stamp_ns: int
    frame_id: str
    position: Tuple[float, float, float]
    velocity: Optional[Tuple[float, float, float]]
    angular_momentum: Optional[Tuple[float, float, float]]


@dataclass
class BridgeOutput:
    """
    What the node publishes after an event.

    :ivar accepted: whether the input was accepted.
    :ivar tf: transforms for ``/tf``.
    :ivar tf_static: the whole static set for ``/tf_static`` when it must be (re)sent, else None.
    :ivar center_of_mass: values for the CoM topics, or None.
    :ivar robot_description: URDF to publish on ``robot_description``, or None.
    :ivar reason: why an input was rejected (empty when accepted).
    """

    accepted: bool = True
    tf: List[TransformOut] = field(default_factory=list)
    tf_static: Optional[List[TransformOut]] = None
    center_of_mass: Optional[CenterOfMassOut] = None
    robot_description: Optional[str] = None
    reason: str = ''


@dataclass(frozen=True)
class UserFrame:
    """
    A frame added by the user, fixed relative to its parent (mc_rbdyn's ``Frame``).

    :ivar name: frame name (must not clash with a link or another frame).
    :ivar parent: a link, a ``<link>_com`` frame or a user frame defined before it.
    :ivar xyz: ``parent_p_frame``.
    :ivar rpy: URDF roll-pitch-yaw of ``parent_R_frame``.
    :ivar baked: placed once relative to the root link from the first complete joint state,
        then no longer follows its parent.
    """

    name: str
    parent: str
    xyz: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    rpy: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    baked: bool = False


@dataclass(frozen=True)
class BridgeSettings:
    """
    Run-time settings of the bridge (the node's parameters other than the URDF).

    :ivar publish_frequency: maximum rate (Hz) of joint transforms per joint; 0: no throttling.
    :ivar ignore_timestamp: publish every message whatever its stamp.
    :ivar frame_prefix: prepended to every frame id.
    :ivar publish_joint_transforms: movable joints on ``/tf``.
    :ivar publish_fixed_transforms: fixed joints on ``/tf_static``.
    :ivar publish_link_com_frames: ``<link>_com`` frames on ``/tf_static``.
    :ivar publish_com_frame: the robot CoM frame on ``/tf``.
    :ivar publish_user_frames: user frames on ``/tf_static``.
    :ivar publish_com_topics: CoM position, velocity and angular momentum topics.
    :ivar com_frame: name of the robot CoM frame.
    :ivar com_orientation: ``root`` (axes of the root link), ``yaw`` (yaw of
        :attr:`com_yaw_link` about the root's z axis), ``ypr`` (:attr:`com_ypr`, root axes)
        or ``quaternion`` (:attr:`com_quaternion`, root axes).
    :ivar com_quaternion: ``[x, y, z, w]`` for the ``quaternion`` mode (normalised when its
        norm is within 1e-3 of 1).
    :ivar com_ypr: ``[yaw, pitch, roll]`` for the ``ypr`` mode.
    :ivar com_yaw_link: link whose yaw the ``yaw`` mode follows ('' for the base link: the
        child of a floating root joint, else the root link).
    :ivar user_frames: frames added by the user.
    :ivar singularity_threshold: smallest singular value under which a Jacobian is singular.
    :ivar warn_period: seconds between two repeats of a throttled warning.
    """

    publish_frequency: float = 20.0
    ignore_timestamp: bool = False
    frame_prefix: str = ''
    publish_joint_transforms: bool = True
    publish_fixed_transforms: bool = True
    publish_link_com_frames: bool = True
    publish_com_frame: bool = True
    publish_user_frames: bool = True
    publish_com_topics: bool = True
    com_frame: str = 'com'
    com_orientation: str = 'root'
    com_quaternion: Tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)
    com_ypr: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    com_yaw_link: str = ''
    user_frames: Tuple[UserFrame, ...] = ()
    singularity_threshold: float = 1e-4
    warn_period: float = 5.0

    def validated(self) -> 'BridgeSettings':
        """
        Check the values that do not depend on the model.

        :return: a copy with normalised values (unit quaternion, tuples).
        :raises ConfigurationError: naming the setting at fault.
        """
        for name in ('ignore_timestamp', 'publish_joint_transforms', 'publish_fixed_transforms',
                     'publish_link_com_frames', 'publish_com_frame', 'publish_user_frames',
                     'publish_com_topics'):
            if not isinstance(getattr(self, name), bool):
                raise ConfigurationError(f'{name} must be true or false, got '
                                         f'{getattr(self, name)!r}')
        for name in ('frame_prefix', 'com_frame', 'com_orientation', 'com_yaw_link'):
            if not isinstance(getattr(self, name), str):
                raise ConfigurationError(f'{name} must be a string, got {getattr(self, name)!r}')
        numbers = {}
        for name in ('publish_frequency', 'singularity_threshold', 'warn_period'):
            value = _finite([getattr(self, name)], 1, name)[0]
            if value < 0:
                raise ConfigurationError(f'{name} must be >= 0, got {value}')
            numbers[name] = float(value)
        if self.com_orientation not in COM_ORIENTATIONS:
            raise ConfigurationError(f"com orientation '{self.com_orientation}' is not one of "
                                     f"{', '.join(COM_ORIENTATIONS)}")
        quat = _finite(self.com_quaternion, 4, 'com quaternion')
        norm = float(np.linalg.norm(quat))
        if abs(norm - 1.0) > 1e-3:
            raise ConfigurationError(f'com quaternion must be a unit quaternion [x, y, z, w], '
                                     f'got {tuple(quat.tolist())} (norm {norm:.6g})')
        ypr = _finite(self.com_ypr, 3, 'com ypr')
        if not self.com_frame:
            raise ConfigurationError('the com frame name must not be empty')
        frames = []
        for frame in self.user_frames:
            if not frame.name or not frame.parent:
                raise ConfigurationError(f"user frame '{frame.name}' needs a name and a parent")
            if not isinstance(frame.baked, bool):
                raise ConfigurationError(f"user frame '{frame.name}': baked must be true or "
                                         f'false, got {frame.baked!r}')
            frames.append(replace(
                frame, xyz=tuple(_finite(frame.xyz, 3, f"user frame '{frame.name}' xyz").tolist()),
                rpy=tuple(_finite(frame.rpy, 3, f"user frame '{frame.name}' rpy").tolist())))
        names = [frame.name for frame in frames]
        if len(set(names)) != len(names):
            raise ConfigurationError(f'user frame names must be unique, got {names}')
        return replace(self, com_quaternion=tuple((quat / norm).tolist()),
                       com_ypr=tuple(ypr.tolist()), user_frames=tuple(frames), **numbers)


def _finite(values, size: int, what: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ConfigurationError(f'{what} must be {size} numbers, got {values!r}') from None
    if arr.shape != (size,) or not np.all(np.isfinite(arr)):
        raise ConfigurationError(f'{what} must be {size} finite numbers, got {values!r}')
    return arr


class ThrottledLog:
    """
    Warnings repeated at most once per period and key, with a count of the skipped ones.

    :param logger: anything with ``info``, ``warning`` and ``error`` taking one string
        (a ``logging.Logger`` or an rclpy logger).
    :param period: seconds between two messages of the same key.
    :param clock: monotonic clock in seconds (injectable for tests).
    """

    def __init__(self, logger, period: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.period = period
        self._clock = clock
        self._last: Dict[str, float] = {}
        self._skipped: Dict[str, int] = {}

    def warning(self, key: str, text: str) -> None:
        """
        Log ``text`` unless the same key was logged less than a period ago.

        :param key: what kind of warning it is.
        :param text: the message.
        """
        now = self._clock()
        last = self._last.get(key)
        if last is not None and now - last < self.period:
            self._skipped[key] = self._skipped.get(key, 0) + 1
            return
        skipped = self._skipped.pop(key, 0)
        if skipped:
            text += f' ({skipped} similar message(s) suppressed)'
        self._last[key] = now
        self.logger.warning(text)


class _ModelTables:
    """Per-model constants of the bridge: joint lookup and joint transform tables."""

    def __init__(self, model: RobotModel) -> None:
        self.model = model
        #: ``name -> q index`` for every configuration entry a joint_states message may carry.
        self.entry: Dict[str, int] = {}
        #: ``name -> v index`` for the one-dof actuated joints.
        self.velocity_index: Dict[str, int] = {}
        self.multi_entries = set()
        for joint in model.actuated_joints:
            if joint.nq == 1:
                self.entry[joint.name] = joint.idx_q
                self.velocity_index[joint.name] = joint.idx_v
        for i, name in enumerate(model.configuration_names):
            if name not in self.entry:
                self.entry[name] = i
                self.multi_entries.add(name)
        movable = [j for j in model.joints if j.type.moves]
        self.movable_index = {j.name: i for i, j in enumerate(movable)}
        #: joint whose transform a message entry moves (``base/x`` -> ``base``, mimics too).
        self.joint_of_entry: Dict[str, str] = {name: name.split('/')[0]
                                               if name in self.multi_entries else name
                                               for name in self.entry}
        self.followers: Dict[str, List[str]] = {}
        for joint in model.mimic_joints:
            self.joint_of_entry[joint.name] = joint.name
            self.followers.setdefault(joint.mimic[0], []).append(joint.name)
        self.fixed_names = {j.name for j in model.joints if j.type is JointType.FIXED}
        self.child_index = np.array([model.link_index(j.child) for j in movable], dtype=int)
        self.parents = [j.parent for j in movable]
        self.children = [j.child for j in movable]
        quat0 = quaternion_from_rotation(
            np.array([j.parent_T_joint[:3, :3] for j in movable]).reshape(-1, 3, 3))
        pure_axis = np.zeros((len(movable), 4))
        pure_axis[:, :3] = [j.axis for j in movable]
        revolute = np.array([j.type.rotates for j in movable], dtype=bool)
        src, mult, off = [], [], []
        for joint in movable:
            if joint.mimic is not None:
                master, multiplier, offset = joint.mimic
                src.append(model.joint(master).idx_q)
                mult.append(multiplier)
                off.append(offset)
            else:
                src.append(max(joint.idx_q, 0))
                mult.append(1.0)
                off.append(0.0)
        # origin_q * [axis sin(t/2), cos(t/2)] = cos(t/2) origin_q + sin(t/2) (origin_q * axis)
        self.quat0 = quat0.reshape(-1, 4)
        self.quat_axis = quaternion_multiply(self.quat0, pure_axis).reshape(-1, 4)
        self.src = np.array(src, dtype=int)
        self.half_mult = np.where(revolute, mult, 0.0) / 2.0
        self.half_off = np.where(revolute, off, 0.0) / 2.0
        self.multi_dof = np.array([not j.type.one_dof for j in movable],
                                  dtype=bool)
        self.any_multi_dof = bool(self.multi_dof.any())
        self.support_joints: Dict[str, Tuple[str, ...]] = {}
        for link in model.links:
            chain, current = [], link
            while current.parent_joint is not None:
                joint = model.joint(current.parent_joint)
                if joint.is_actuated:
                    chain.append(joint.name)
                elif joint.mimic is not None:
                    chain.append(joint.mimic[0])
                current = model.link(current.parent)
            self.support_joints[link.name] = tuple(dict.fromkeys(reversed(chain)))

    def joint_transforms(self, state: KinematicsState, indices: np.ndarray
                         ) -> Tuple[np.ndarray, np.ndarray]:
        """
        ``parent_T_child`` of movable joints: translations and quaternions.

        :param state: the kinematics of the current configuration.
        :param indices: indices of movable joints (non-fixed joints in model order).
        :return: ``(n, 3)`` translations and ``(n, 4)`` quaternions ``[x, y, z, w]``.
        """
        links = self.child_index[indices]
        translations = state.local_poses[links, :3, 3]
        half = state.q[self.src[indices]] * self.half_mult[indices] + self.half_off[indices]
        quats = self.quat0[indices] * np.cos(half)[:, None] + \
            self.quat_axis[indices] * np.sin(half)[:, None]
        if self.any_multi_dof:
            multi = self.multi_dof[indices]
            if multi.any():
                quats[multi] = quaternion_from_rotation(state.local_poses[links[multi], :3, :3])
        return translations, quats


class _NamePlan:
    """What a list of joint names means for a model (cached: drivers repeat their names)."""

    __slots__ = ('q_pos', 'q_idx', 'v_pos', 'v_idx', 'multi', 'unknown', 'others',
                 'duplicates', 'joints', 'tf_indices', 'parents', 'children')

    def __init__(self, tables: _ModelTables, names: Tuple[str, ...], prefix: str) -> None:
        q_pos, q_idx, v_pos, v_idx = [], [], [], []
        self.multi = False
        self.unknown: List[str] = []
        self.others: List[Tuple[int, str]] = []
        for i, name in enumerate(names):
            index = tables.entry.get(name)
            if index is None:
                if name in tables.movable_index or name in tables.fixed_names:
                    self.others.append((i, name))
                else:
                    self.unknown.append(name)
                continue
            q_pos.append(i)
            q_idx.append(index)
            if name in tables.velocity_index:
                v_pos.append(i)
                v_idx.append(tables.velocity_index[name])
            else:
                self.multi = True
        self.q_pos = np.array(q_pos, dtype=int)
        self.q_idx = np.array(q_idx, dtype=int)
        self.v_pos = np.array(v_pos, dtype=int)
        self.v_idx = np.array(v_idx, dtype=int)
        self.duplicates = sorted({n for n in names if names.count(n) > 1}) \
            if len(set(names)) != len(names) else []
        joint_of = tables.joint_of_entry
        self.joints = tuple(dict.fromkeys(joint_of[n] for n in names if n in joint_of))
        chosen: Dict[int, None] = {}
        for joint in self.joints:
            chosen[tables.movable_index[joint]] = None
            for follower in tables.followers.get(joint, ()):
                chosen[tables.movable_index[follower]] = None
        self.tf_indices = np.fromiter(chosen, dtype=int, count=len(chosen))
        self.parents = [prefix + tables.parents[i] for i in chosen]
        self.children = [prefix + tables.children[i] for i in chosen]


#: Number of distinct name lists whose plans are kept.
PLAN_CACHE_SIZE = 32


class Bridge:
    """
    The decisions of the frame_kinematics node, on plain data.

    The frames live in a :class:`~frame_kinematics.core.frames.FrameTree` that follows the
    latest value of every joint (updated lazily, when a pose is needed).

    :param urdf: the robot description (URDF XML).
    :param settings: run-time settings.
    :param logger: where to log (``logging.Logger`` or an rclpy logger).
    :param clock: monotonic clock in seconds for warning throttling (injectable for tests).
    :raises FrameKinematicsError: for a URDF or settings that cannot be used.
    """

    def __init__(self, urdf: str, settings: BridgeSettings = BridgeSettings(),
                 logger=None, clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger if logger is not None else logging.getLogger(__name__)
        settings = settings.validated()
        tables = _ModelTables(_parse(urdf))
        self._log = ThrottledLog(self.logger, settings.warn_period, clock)
        self._baked: Dict[str, np.ndarray] = {}
        q = tables.model.neutral_configuration()
        received = np.zeros(tables.model.nq, dtype=bool)
        tree = _build_tree(tables.model, settings, q, {}, not tables.model.nq)
        self.settings = settings
        self._n_baked = sum(f.baked for f in settings.user_frames)
        self._install(tables, tree, q, received)

    # -- model ------------------------------------------------------------------------------
    @property
    def model(self) -> RobotModel:
        """Return the current robot model."""
        return self._tables.model

    @property
    def tree(self) -> FrameTree:
        """Return the frame tree at the latest joint values."""
        if self._dirty:
            self._tree.update(self._q, self._v if self.settings.publish_com_topics else None)
            self._dirty = False
        return self._tree

    @property
    def state(self) -> KinematicsState:
        """Kinematics of the latest value of every joint (neutral where never received)."""
        return self.tree.state

    @property
    def configuration(self) -> np.ndarray:
        """Return a copy of the latest configuration ``q``."""
        return self._q.copy()

    def _install(self, tables: _ModelTables, tree: FrameTree, q: np.ndarray,
                 received: np.ndarray) -> None:
        model = tables.model
        v = np.zeros(model.nv)
        v_known = np.ones(model.nv, dtype=bool)
        v_known[list(tables.velocity_index.values())] = False
        self._tables = tables
        self._tree = tree
        self._q = q
        self._received = received
        self._v = v
        self._v_known = v_known
        self._v_known_all = bool(v_known.all())
        self._complete = bool(received.all())
        self._plans: Dict[Tuple[str, ...], _NamePlan] = {}
        self._dirty = True
        self._last_publish: Dict[str, int] = {}
        self._last_callback_ns = 0
        self._warned_missing = False
        self._baked = {name: tree.frame(name).root_T_frame.copy()
                       for name in tree.frame_names if tree.frame(name).baked}

    def _carry_over(self, model: RobotModel) -> Tuple[np.ndarray, np.ndarray]:
        """Latest values of the joints a new model shares (same name and type) with the old."""
        q = model.neutral_configuration()
        received = np.zeros(model.nq, dtype=bool)
        old = self.model
        for joint in model.actuated_joints:
            try:
                before = old.joint(joint.name)
            except UnknownFrameError:
                continue
            if before.type == joint.type and before.nq == joint.nq:
                q[joint.idx_q:joint.idx_q + joint.nq] = \
                    self._q[before.idx_q:before.idx_q + before.nq]
                received[joint.idx_q:joint.idx_q + joint.nq] = \
                    self._received[before.idx_q:before.idx_q + before.nq]
        return q, received

    def set_robot_description(self, urdf: str, now_ns: int) -> BridgeOutput:
        """
        Swap the model for a new URDF; a bad one changes nothing.

        The latest values of joints that keep their name and type are kept; baked frames are
        placed again on the new model once every joint is known.

        :param urdf: the new robot description.
        :param now_ns: current time (stamp of the static transforms).
        :return: the description and the static set to publish, or ``accepted=False`` with
            the reason (also logged as an error).
        """
        return self.apply_parameters({'robot_description': urdf}, now_ns)

    def update_settings(self, settings: BridgeSettings, now_ns: int) -> BridgeOutput:
        """
        Replace the settings; invalid ones change nothing.

        Baked frames keep their placement while their definition does not change.

        :param settings: the new settings.
        :param now_ns: current time.
        :return: the new static set (``accepted=False`` with the reason if rejected).
        """
        return self._apply(None, settings, now_ns)

    def apply_parameters(self, params: Mapping[str, Any], now_ns: int) -> BridgeOutput:
        """
        Apply changed node parameters at once: all of them, or none if one is bad.

        :param params: node parameters, all of them or only the changed ones (names as
            :func:`settings_from_parameters`, plus ``robot_description``); user frames are
            read from ``user_frames.names`` and ``user_frames.<name>.*`` when it is given.
        :param now_ns: current time.
        :return: what to publish (the static set; the description if it changed), or
            ``accepted=False`` with the reason (also logged as an error).
        """
        try:
            settings = settings_from_parameters(params, self.settings)
        except FrameKinematicsError as exc:
            return self._refuse(f'rejected the new parameters: {exc}')
        urdf = params.get('robot_description')
        if urdf is None or urdf == self.model.urdf:
            return self._apply(None, settings, now_ns)
        try:
            tables = _ModelTables(_parse(urdf))
        except FrameKinematicsError as exc:
            return self._refuse('rejected the new robot_description, keeping robot '
                                f"'{self.model.name}': {exc}")
        return self._apply(tables, settings, now_ns)

    def _refuse(self, reason: str) -> BridgeOutput:
        self.logger.error(reason)
        return BridgeOutput(accepted=False, reason=reason)

    def _apply(self, tables: Optional[_ModelTables], settings: BridgeSettings,
               now_ns: int) -> BridgeOutput:
        try:
            settings = settings.validated()
            if tables is None:
                old = {f.name: f for f in self.settings.user_frames}
                keep = {name: pose for name, pose in self._baked.items()
                        if name in old and old[name] in settings.user_frames}
                tree = _build_tree(self.model, settings, self._q, keep,
                                   bool(self._received.all()), self._v)
            else:
                q, received = self._carry_over(tables.model)
                tree = _build_tree(tables.model, settings, q, {}, bool(received.all()))
        except FrameKinematicsError as exc:
            what = 'settings' if tables is None else f"robot '{tables.model.name}'"
            return self._refuse(f'rejected the new {what}, keeping the previous ones: {exc}')
        self.settings = settings
        self._log.period = settings.warn_period
        self._n_baked = sum(f.baked for f in settings.user_frames)
        self._plans = {}
        if tables is None:
            self._tree = tree
            self._dirty = False
            self._baked = {name: tree.frame(name).root_T_frame.copy()
                           for name in tree.frame_names if tree.frame(name).baked}
            return BridgeOutput(tf_static=self.static_transforms(now_ns))
        self._install(tables, tree, q, received)
        model = tables.model
        self.logger.info(f"robot '{model.name}' loaded: {len(model.links)} links, "
                         f'{len(model.joint_names)} actuated joints')
        return BridgeOutput(tf_static=self.static_transforms(now_ns),
                            robot_description=model.urdf)

    def initial_output(self, now_ns: int) -> BridgeOutput:
        """
        Return what to publish at start-up: the robot description and the static set.

        :param now_ns: current time.
        :return: the output.
        """
        return BridgeOutput(tf_static=self.static_transforms(now_ns),
                            robot_description=self.model.urdf)

    # -- joint state ----------------------------------------------------------------------------
    def missing_joints(self) -> List[str]:
        """Actuated joints never received yet (in ``q`` order)."""
        if self._received.all():
            return []
        return [j.name for j in self.model.actuated_joints
                if not self._received[j.idx_q:j.idx_q + j.nq].all()]

    def on_joint_state(self, msg: JointStateInput, now_ns: int) -> BridgeOutput:
        """
        Take a joint_states message: store its values and say what to publish.

        :param msg: the message.
        :param now_ns: the node clock's current time (for the backwards-time check).
        :return: the transforms (and CoM) to publish; ``accepted=False`` if it was rejected.
        """
        names = tuple(msg.names)
        try:
            positions = np.asarray(msg.positions, dtype=float).reshape(-1)
            velocities = np.asarray(msg.velocities, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            return self._reject('values', 'ignored a joint_states message whose positions '
                                'or velocities are not numbers')
        if len(positions) != len(names):
            return self._reject('length', f'ignored a joint_states message with {len(names)} '
                                f'names and {len(positions)} positions '
                                f"(joints {', '.join(names[:5])})")
        if len(velocities) and len(velocities) != len(names):
            return self._reject('length', f'ignored a joint_states message with {len(names)} '
                                f'names and {len(velocities)} velocities '
                                f"(joints {', '.join(names[:5])})")
        finite = np.isfinite(positions)
        if len(velocities):
            finite &= np.isfinite(velocities)
        if not finite.all():
            bad = [n for n, ok in zip(names, finite.tolist()) if not ok]
            return self._reject('nan', 'ignored a joint_states message with NaN or inf for '
                                f"{', '.join(bad)}")
        plan = self._plans.get(names)
        if plan is None:
            if len(self._plans) >= PLAN_CACHE_SIZE:
                self._plans.clear()
            plan = self._plans[names] = _NamePlan(self._tables, names,
                                                  self.settings.frame_prefix)
        if plan.duplicates:
            return self._reject('duplicate', 'ignored a joint_states message naming '
                                f"{', '.join(plan.duplicates)} more than once")
        q = self._q.copy()
        q[plan.q_idx] = positions[plan.q_pos]
        if plan.multi:
            try:
                q = self.model.check_configuration(q)
            except ConfigurationError as exc:
                return self._reject('multi', f'ignored a joint_states message: {exc}')
        if plan.unknown:
            self._log.warning('unknown', 'joint_states names joints that robot '
                              f"'{self.model.name}' does not have (ignored): "
                              f"{', '.join(sorted(plan.unknown))}")
        self._q = q
        if not self._complete:
            self._received = self._received.copy()
            self._received[plan.q_idx] = True
        if len(plan.v_idx):
            self._v = self._v.copy()
            self._v[plan.v_idx] = velocities[plan.v_pos] if len(velocities) else 0.0
            if not (self._v_known_all and len(velocities)):
                self._v_known = self._v_known.copy()
                self._v_known[plan.v_idx] = bool(len(velocities))
                self._v_known_all = bool(self._v_known.all())
        self._dirty = True
        out = BridgeOutput()
        if plan.others:
            self._check_others([(name, float(positions[i])) for i, name in plan.others])
        complete = self._check_complete()
        if complete and len(self._baked) < self._n_baked:
            self._place_baked()
            out.tf_static = self.static_transforms(now_ns)
        if not self._throttle(msg.stamp_ns, plan.joints, now_ns):
            return out
        if self.settings.publish_joint_transforms and len(plan.tf_indices):
            out.tf = self._joint_transforms(plan, msg.stamp_ns)
        if complete:
            self._center_of_mass(out, msg.stamp_ns)
        return out

    def _reject(self, key: str, text: str) -> BridgeOutput:
        self._log.warning(key, text + ' (keeping the last good state)')
        return BridgeOutput(accepted=False, reason=text)

    def _check_others(self, others: List[Tuple[str, float]]) -> None:
        model = self.model
        for name, value in others:
            joint = model.joint(name)
            if joint.mimic is None:
                self._log.warning('fixed', f"joint_states gives a value for fixed joint '{name}'"
                                  ' (ignored)')
                continue
            master, multiplier, offset = joint.mimic
            expected = multiplier * self._q[model.joint(master).idx_q] + offset
            if abs(expected - value) > 1e-6:
                self._log.warning('mimic', f'joint_states gives {value:.6g} for mimic joint '
                                  f"'{name}', which follows '{master}' ({expected:.6g}): "
                                  'the value from the master is used')

    def _throttle(self, stamp_ns: int, joints: Sequence[str], now_ns: int) -> bool:
        if now_ns < self._last_callback_ns:
            self.logger.warning('moved backwards in time, re-publishing joint transforms')
            self._last_publish.clear()
        self._last_callback_ns = now_ns
        freq = self.settings.publish_frequency
        publish = self.settings.ignore_timestamp or freq == 0
        if not publish:
            last = now_ns
            for name in joints:
                last = min(last, self._last_publish.get(name, 0))
            publish = stamp_ns >= last + int(1000.0 / freq) * 1_000_000
        if publish:
            for name in joints:
                self._last_publish[name] = stamp_ns
        return publish

    def _check_complete(self) -> bool:
        if self._complete:
            return True
        if self._received.all():
            self._complete = True
            return True
        if not self._warned_missing:
            self._warned_missing = True
            self.logger.warning('the center of mass (and baked frames) wait for joints never '
                                f"received yet: {', '.join(self.missing_joints())}")
        return False

    def _joint_transforms(self, plan: _NamePlan, stamp_ns: int) -> List[TransformOut]:
        translations, quats = self._tables.joint_transforms(self.state, plan.tf_indices)
        rows = zip(plan.parents, plan.children, translations.tolist(), quats.tolist())
        return [TransformOut(parent, child, stamp_ns, tuple(t), tuple(r))
                for parent, child, t, r in rows]

    def _center_of_mass(self, out: BridgeOutput, stamp_ns: int) -> None:
        settings = self.settings
        if not (settings.publish_com_frame or settings.publish_com_topics) or \
                self.model.total_mass <= 0:
            return
        tree = self.tree
        root_T_com = tree.com_frame.root_T_frame
        position = tuple(root_T_com[:3, 3].tolist())
        prefix = settings.frame_prefix
        root = prefix + self.model.root_link
        if settings.publish_com_frame:
            out.tf.append(TransformOut(root, prefix + settings.com_frame, stamp_ns, position,
                                       self._com_quaternion(root_T_com)))
        if settings.publish_com_topics:
            velocity = momentum = None
            if self._v_known_all:
                state = tree.state
                velocity = tuple(state.center_of_mass_velocity().tolist())
                momentum = tuple(state.angular_momentum().tolist())
            out.center_of_mass = CenterOfMassOut(stamp_ns, root, position, velocity, momentum)

    def _com_quaternion(self, root_T_com: np.ndarray) -> Tuple[float, float, float, float]:
        mode = self.settings.com_orientation
        if mode == 'root':
            return (0.0, 0.0, 0.0, 1.0)
        if mode == 'yaw':
            yaw = math.atan2(root_T_com[1, 0], root_T_com[0, 0])
            return (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
        if mode == 'quaternion':
            return self.settings.com_quaternion
        return tuple(quaternion_from_rotation(root_T_com[:3, :3]).tolist())

    # -- frames ---------------------------------------------------------------------------------
    def _place_baked(self) -> None:
        tree = self.tree
        for frame in self.settings.user_frames:
            if frame.name not in tree:
                _add_user_frame(tree, frame, self._baked)
        self._baked = {name: tree.frame(name).root_T_frame.copy()
                       for name in tree.frame_names if tree.frame(name).baked}

    def static_transforms(self, now_ns: int) -> List[TransformOut]:
        """
        Return the whole static set: fixed joints, link CoM frames, user frames.

        :param now_ns: their stamp.
        :return: the transforms for ``/tf_static``.
        """
        settings = self.settings
        kinds = set()
        if settings.publish_fixed_transforms:
            kinds.add(FrameKind.FIXED)
        if settings.publish_link_com_frames:
            kinds.add(FrameKind.COM)
        if settings.publish_user_frames:
            kinds.add(FrameKind.USER)
        frames = [f for f in self.tree.frames() if f.kind in kinds]
        if not frames:
            return []
        poses = np.array([f.parent_T_frame for f in frames])
        quats = quaternion_from_rotation(poses[:, :3, :3]).tolist()
        prefix = settings.frame_prefix
        return [TransformOut(prefix + f.parent.name, prefix + f.name, now_ns,
                             tuple(pose[:3, 3].tolist()), tuple(quat))
                for f, pose, quat in zip(frames, poses, quats)]

    def strip_prefix(self, frame_id: str) -> str:
        """
        Remove the frame prefix from a frame id (as received in a request).

        :param frame_id: a frame id, prefixed or not.
        :return: the bare frame name.
        """
        prefix = self.settings.frame_prefix
        if prefix and frame_id.startswith(prefix):
            return frame_id[len(prefix):]
        return frame_id

    def frame_dependencies(self, frame: str) -> Tuple[str, ...]:
        """
        Actuated joints whose values a frame's pose in the root link depends on.

        :param frame: a frame name of the tree.
        :return: joint names (every actuated joint for the robot CoM frame).
        :raises UnknownFrameError: for an unknown frame.
        """
        current = self._tree.frame(frame)
        if current.kind is FrameKind.ROBOT_COM:
            return self.model.joint_names
        support = self._tables.support_joints
        while current is not None and current.name not in support:
            current = current.parent
        return () if current is None else support[current.name]

    def root_T_frame(self, frame: str, q: Optional[np.ndarray] = None) -> np.ndarray:
        """
        Pose of a frame in the root link.

        :param frame: a frame name of the tree ('' for the root link).
        :param q: configuration to use (default: the latest joint values).
        :return: ``root_T_frame`` (4x4).
        :raises UnknownFrameError: for an unknown frame.
        """
        tree = self.tree
        if q is not None:
            tree = _build_tree(self.model, self.settings, q, self._baked, False)
        return tree.frame(frame or self.model.root_link).root_T_frame.copy()

    # -- configurations from requests --------------------------------------------------------
    def configuration_for(self, names: Sequence[str], positions: Sequence[float],
                          needed: Sequence[str]) -> np.ndarray:
        """
        Build a configuration: the latest values overridden by a request's joint state.

        :param names: joint (configuration entry) names of the request, possibly empty.
        :param positions: their values.
        :param needed: joints that must have a value (received or in the request).
        :return: the configuration ``q``.
        :raises ConfigurationError: for a malformed joint state, or missing needed joints.
        :raises UnknownFrameError: for an unknown joint name.
        """
        tables = self._tables
        names = list(names)
        if len(positions) != len(names):
            raise ConfigurationError(f'joint state has {len(names)} names and '
                                     f'{len(positions)} positions')
        values = _finite(positions, len(names), 'joint state positions')
        q = self._q.copy()
        have = self._received.copy()
        for name, value in zip(names, values.tolist()):
            index = tables.entry.get(name)
            if index is None:
                raise UnknownFrameError(name, tables.entry, 'joint')
            q[index] = value
            have[index] = True
        model = self.model
        missing = []
        for name in dict.fromkeys(needed):
            joint = model.joint(name)
            if not have[joint.idx_q:joint.idx_q + joint.nq].all():
                missing.append(name)
        if missing:
            raise ConfigurationError('no value received yet for joint(s) '
                                     f"{', '.join(missing)}: give them in the request's joint "
                                     'state or wait for joint_states')
        return model.check_configuration(q)


def _parse(urdf: str) -> RobotModel:
    if not isinstance(urdf, str) or not urdf.strip():
        raise ConfigurationError('robot_description is empty')
    return RobotModel.from_urdf_string(urdf)


def _add_user_frame(tree: FrameTree, frame: UserFrame, baked: Mapping[str, np.ndarray]) -> None:
    """Add a user frame; a baked one at its stored placement if it has one."""
    if frame.baked and frame.name in baked:
        tree.add_frame(frame.name, tree.world, baked[frame.name], baked=True)
        return
    tree.add_frame(frame.name, frame.parent,
                   transform_from_xyz_rpy(np.array(frame.xyz), np.array(frame.rpy)),
                   baked=frame.baked)


def _build_tree(model: RobotModel, settings: BridgeSettings, q: np.ndarray,
                baked: Mapping[str, np.ndarray], complete: bool,
                v: Optional[np.ndarray] = None) -> FrameTree:
    """
    Build a frame tree with the CoM orientation and the user frames of ``settings``.

    Baked frames without a stored placement are placed only when ``complete`` (every joint
    received); until then they, and the user frames hanging from them, wait.

    :raises FrameKinematicsError: for a clash of names or a parent that does not exist.
    """
    tree = FrameTree(model, q, com_frame=settings.com_frame)
    if v is not None:
        tree.update(q, v)
    link = settings.com_yaw_link or None
    if link is not None:
        model.link_index(link)
    tree.set_com_orientation(settings.com_orientation, quaternion=settings.com_quaternion,
                             ypr=settings.com_ypr, link=link)
    declared = set(tree.frame_names)
    for frame in settings.user_frames:
        if frame.name in declared:
            raise ConfigurationError(f"user frame '{frame.name}' clashes with an existing "
                                     'frame of that name')
        if frame.parent not in declared:
            raise UnknownFrameError(frame.parent, declared,
                                    f"parent of user frame '{frame.name}': frame")
        declared.add(frame.name)
        waiting = frame.baked and frame.name not in baked and not complete
        if not waiting and frame.parent in tree:
            _add_user_frame(tree, frame, baked)
    return tree


#: The node's parameters and their defaults (``config/frame_kinematics.yaml`` documents them);
#: user frames add ``user_frames.<name>.parent|xyz|rpy|baked`` for each listed name.
PARAMETER_DEFAULTS: Dict[str, Any] = {
    'robot_description': '',
    'publish_frequency': 20.0,
    'ignore_timestamp': False,
    'frame_prefix': '',
    'publish.joint_transforms': True,
    'publish.fixed_transforms': True,
    'publish.link_com_frames': True,
    'publish.com_frame': True,
    'publish.user_frames': True,
    'publish.com_topics': True,
    'com.frame': 'com',
    'com.orientation': 'root',
    'com.quaternion': [0.0, 0.0, 0.0, 1.0],
    'com.ypr': [0.0, 0.0, 0.0],
    'com.yaw_link': '',
    'singularity_threshold': 1e-4,
    'warn_throttle_period': 5.0,
    'user_frames.names': [''],
}

#: Defaults of the per-frame parameters ``user_frames.<name>.<key>``.
USER_FRAME_DEFAULTS: Dict[str, Any] = {
    'parent': '', 'xyz': [0.0, 0.0, 0.0], 'rpy': [0.0, 0.0, 0.0], 'baked': False,
}


def settings_from_parameters(params: Mapping[str, Any],
                             base: BridgeSettings = BridgeSettings()) -> BridgeSettings:
    """
    Build settings from the node's flat parameters (as ``config/frame_kinematics.yaml``).

    Unknown keys are ignored (the node passes all its parameters).

    :param params: ``{parameter name: value}``; user frames as ``user_frames.names`` and
        ``user_frames.<name>.parent|xyz|rpy|baked``.
    :param base: the settings that missing parameters keep.
    :return: the settings (not validated yet: see :meth:`BridgeSettings.validated`).
    :raises ConfigurationError: for a user frame without its parent parameter.
    """
    mapping = {
        'publish_frequency': 'publish_frequency', 'ignore_timestamp': 'ignore_timestamp',
        'frame_prefix': 'frame_prefix',
        'publish.joint_transforms': 'publish_joint_transforms',
        'publish.fixed_transforms': 'publish_fixed_transforms',
        'publish.link_com_frames': 'publish_link_com_frames',
        'publish.com_frame': 'publish_com_frame',
        'publish.user_frames': 'publish_user_frames',
        'publish.com_topics': 'publish_com_topics',
        'com.frame': 'com_frame', 'com.orientation': 'com_orientation',
        'com.quaternion': 'com_quaternion', 'com.ypr': 'com_ypr',
        'com.yaw_link': 'com_yaw_link',
        'singularity_threshold': 'singularity_threshold',
        'warn_throttle_period': 'warn_period',
    }
    changes: Dict[str, Any] = {}
    for key, attr in mapping.items():
        if key in params:
            value = params[key]
            changes[attr] = tuple(value) if attr in ('com_quaternion', 'com_ypr') else value
    if 'user_frames.names' in params:
        frames = []
        for name in params['user_frames.names'] or ():
            if not name:
                continue
            parent = params.get(f'user_frames.{name}.parent')
            if not parent:
                raise ConfigurationError(f"user frame '{name}' has no parameter "
                                         f"'user_frames.{name}.parent'")
            frames.append(UserFrame(
                name, parent, tuple(params.get(f'user_frames.{name}.xyz') or (0.0, 0.0, 0.0)),
                tuple(params.get(f'user_frames.{name}.rpy') or (0.0, 0.0, 0.0)),
                params.get(f'user_frames.{name}.baked', False)))
        changes['user_frames'] = tuple(frames)
    return replace(base, **changes)
