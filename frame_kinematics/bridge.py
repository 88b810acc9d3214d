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
"""The ROS-free half of the frame_kinematics node.

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
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .core.errors import ConfigurationError, FrameKinematicsError, UnknownFrameError
from .core.kinematics import KinematicsState
from .core.model import RobotModel
from .core.spatial import (inverse, quaternion_from_rotation, quaternion_multiply,
                           rotation_from_quaternion, transform_from_xyz_rpy)

COM_ORIENTATIONS = ('root', 'yaw', 'quaternion')


@dataclass(frozen=True)
class JointStateInput:
    """A ``sensor_msgs/JointState`` as plain data.

    :ivar names: joint names (any subset of the model's joints).
    :ivar positions: one position per name.
    :ivar velocities: one velocity per name, or empty.
    :ivar stamp_ns: header stamp in nanoseconds.
    """

    names: Sequence[str]
    positions: Sequence[float]
    velocities: Sequence[float] = ()
    stamp_ns: int = 0


@dataclass(frozen=True)
class TransformOut:
    """One ``geometry_msgs/TransformStamped`` to publish: ``parent_T_child``.

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
    """Robot center of mass to publish on the topics.

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
    """What the node publishes after an event.

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
    """A frame added by the user, fixed relative to its parent (mc_rbdyn's ``Frame``).

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
    """Run-time settings of the bridge (the node's parameters other than the URDF).

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
    :ivar com_orientation: ``root`` (axes of the root link), ``yaw`` (yaw of the base link
        about the root's z axis) or ``quaternion`` (:attr:`com_quaternion`, root axes).
    :ivar com_quaternion: ``[x, y, z, w]`` for the ``quaternion`` mode.
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
    user_frames: Tuple[UserFrame, ...] = ()
    singularity_threshold: float = 1e-4
    warn_period: float = 5.0

    def validated(self) -> 'BridgeSettings':
        """Check the values that do not depend on the model.

        :return: a copy with normalised values (unit quaternion, tuples).
        :raises ConfigurationError: naming the setting at fault.
        """
        freq = float(self.publish_frequency)
        if not math.isfinite(freq) or freq < 0:
            raise ConfigurationError(f'publish_frequency must be >= 0 (0: no throttling), '
                                     f'got {self.publish_frequency}')
        if self.com_orientation not in COM_ORIENTATIONS:
            raise ConfigurationError(f"com orientation '{self.com_orientation}' is not one of "
                                     f"{', '.join(COM_ORIENTATIONS)}")
        quat = _finite(self.com_quaternion, 4, 'com quaternion')
        norm = float(np.linalg.norm(quat))
        if norm < 1e-9:
            raise ConfigurationError('com quaternion must not be zero')
        if not self.com_frame:
            raise ConfigurationError('the com frame name must not be empty')
        for name, value in (('singularity_threshold', self.singularity_threshold),
                            ('warn_period', self.warn_period)):
            if not math.isfinite(float(value)) or float(value) < 0:
                raise ConfigurationError(f'{name} must be a finite number >= 0, got {value}')
        frames = []
        for frame in self.user_frames:
            if not frame.name or not frame.parent:
                raise ConfigurationError(f"user frame '{frame.name}' needs a name and a parent")
            frames.append(replace(frame, xyz=tuple(_finite(frame.xyz, 3, frame.name + '.xyz')),
                                  rpy=tuple(_finite(frame.rpy, 3, frame.name + '.rpy')),
                                  baked=bool(frame.baked)))
        return replace(self, publish_frequency=freq, com_quaternion=tuple(quat / norm),
                       user_frames=tuple(frames))


def _finite(values, size: int, what: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ConfigurationError(f'{what} must be {size} numbers, got {values!r}') from None
    if arr.shape != (size,) or not np.all(np.isfinite(arr)):
        raise ConfigurationError(f'{what} must be {size} finite numbers, got {values!r}')
    return arr


class ThrottledLog:
    """Warnings repeated at most once per period and key, with a count of the skipped ones.

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
        """Log ``text`` unless the same key was logged less than a period ago.

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
    """Per-model constants of the bridge: joint lookup and transform tables."""

    def __init__(self, model: RobotModel) -> None:
        self.model = model
        root = model.root_link
        #: ``name -> (kind, data)`` for every name a joint_states message may carry.
        self.entry: Dict[str, Tuple[str, int]] = {}
        for joint in model.actuated_joints:
            if joint.nq == 1:
                self.entry[joint.name] = ('q', joint.idx_q)
        for i, name in enumerate(model.configuration_names):
            if name not in self.entry:
                self.entry[name] = ('multi', i)
        movable = [j for j in model.joints if j.type != 'fixed']
        self.movable = movable
        self.movable_index = {j.name: i for i, j in enumerate(movable)}
        self.joint_of_entry: Dict[str, str] = {}
        for name, (kind, _) in self.entry.items():
            self.joint_of_entry[name] = name.split('/')[0] if kind == 'multi' else name
        for joint in model.mimic_joints:
            self.joint_of_entry[joint.name] = joint.name
        followers: Dict[str, List[str]] = {}
        for joint in model.mimic_joints:
            followers.setdefault(joint.mimic[0], []).append(joint.name)
        self.followers = followers
        self.child_index = np.array([model.link_index(j.child) for j in movable], dtype=int)
        self.parents = [j.parent for j in movable]
        self.children = [j.child for j in movable]
        quat0, axis, src, mult, off, rev = [], [], [], [], [], []
        for joint in movable:
            quat0.append(quaternion_from_rotation(joint.parent_T_joint[:3, :3]))
            axis.append(joint.axis)
            rev.append(joint.type in ('revolute', 'continuous'))
            if joint.mimic is not None:
                master, multiplier, offset = joint.mimic
                src.append(model.joint(master).idx_q)
                mult.append(multiplier)
                off.append(offset)
            else:
                src.append(max(joint.idx_q, 0))
                mult.append(1.0)
                off.append(0.0)
        self.quat0 = np.array(quat0).reshape(-1, 4)
        self.half_axis = np.array(axis, dtype=float).reshape(-1, 3)
        self.src = np.array(src, dtype=int)
        self.mult = np.where(rev, mult, 0.0) / 2.0
        self.off = np.where(rev, off, 0.0) / 2.0
        self.multi_dof = np.array([j.type in ('floating', 'planar') for j in movable],
                                  dtype=bool)
        self.fixed = [j for j in model.joints if j.type == 'fixed']
        self.com_links = [link for link in model.links if link.has_inertial and link.mass > 0]
        self.base_index = 0
        for joint in model.actuated_joints:
            if joint.parent == root and joint.type in ('floating', 'planar'):
                self.base_index = model.link_index(joint.child)
                break
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
            self.support_joints[link.name] = tuple(dict.fromkeys(chain))

    def joint_transforms(self, state: KinematicsState, indices: np.ndarray
                         ) -> Tuple[np.ndarray, np.ndarray]:
        """``parent_T_child`` of the movable joints ``indices``: translations and quaternions.

        :param state: the kinematics of the current configuration.
        :param indices: indices into :attr:`movable`.
        :return: ``(n, 3)`` translations and ``(n, 4)`` quaternions ``[x, y, z, w]``.
        """
        links = self.child_index[indices]
        translations = state.local_poses[links, :3, 3]
        half = state.q[self.src[indices]] * self.mult[indices] + self.off[indices]
        turn = np.empty((len(indices), 4))
        turn[:, :3] = self.half_axis[indices] * np.sin(half)[:, None]
        turn[:, 3] = np.cos(half)
        quats = quaternion_multiply(self.quat0[indices], turn)
        multi = self.multi_dof[indices]
        if multi.any():
            quats[multi] = quaternion_from_rotation(state.local_poses[links[multi], :3, :3])
        return translations, quats


class Bridge:
    """The decisions of the frame_kinematics node, on plain data.

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
        model = _parse(urdf)
        tables = _ModelTables(model)
        _check_frames(tables, settings)
        self._log = ThrottledLog(self.logger, settings.warn_period, clock)
        self.settings = settings
        self._install(tables, None)

    # -- model ------------------------------------------------------------------------------
    @property
    def model(self) -> RobotModel:
        """The current robot model."""
        return self._tables.model

    def _install(self, tables: _ModelTables, previous: Optional['_ModelTables']) -> None:
        model = tables.model
        q = model.neutral_configuration()
        received = np.zeros(model.nq, dtype=bool)
        v = np.zeros(model.nv)
        v_known = np.zeros(model.nv, dtype=bool)
        for joint in model.actuated_joints:
            if joint.nq != 1:
                v_known[joint.idx_v:joint.idx_v + joint.nv] = True
        if previous is not None:
            old = previous.model
            for joint in model.actuated_joints:
                try:
                    before = old.joint(joint.name)
                except UnknownFrameError:
                    continue
                if before.type != joint.type or before.nq != joint.nq:
                    continue
                q[joint.idx_q:joint.idx_q + joint.nq] = \
                    self._q[before.idx_q:before.idx_q + before.nq]
                received[joint.idx_q:joint.idx_q + joint.nq] = \
                    self._received[before.idx_q:before.idx_q + before.nq]
                v[joint.idx_v:joint.idx_v + joint.nv] = \
                    self._v[before.idx_v:before.idx_v + before.nv]
                v_known[joint.idx_v:joint.idx_v + joint.nv] = \
                    self._v_known[before.idx_v:before.idx_v + before.nv]
        self._tables = tables
        self._q = q
        self._received = received
        self._v = v
        self._v_known = v_known
        self._state: Optional[KinematicsState] = None
        self._last_publish: Dict[str, int] = {}
        self._last_callback_ns = 0
        self._baked: Dict[str, np.ndarray] = {}
        self._warned_missing = False
        if not self.missing_joints():
            self._place_baked()

    def set_robot_description(self, urdf: str, now_ns: int) -> BridgeOutput:
        """Swap the model for a new URDF; a bad one changes nothing.

        Joint values already received for joints that keep their name and type are kept.

        :param urdf: the new robot description.
        :param now_ns: current time (stamp of the static transforms).
        :return: the description and the static set to publish, or ``accepted=False`` with
            the reason (also logged as an error).
        """
        try:
            tables = _ModelTables(_parse(urdf))
            _check_frames(tables, self.settings)
        except FrameKinematicsError as exc:
            reason = f'rejected the new robot_description, keeping robot ' \
                     f"'{self.model.name}': {exc}"
            self.logger.error(reason)
            return BridgeOutput(accepted=False, reason=reason)
        self._install(tables, self._tables)
        self.logger.info(f"robot '{tables.model.name}' loaded: {len(tables.model.links)} links, "
                         f'{len(tables.model.joint_names)} actuated joints')
        return BridgeOutput(tf_static=self.static_transforms(now_ns), robot_description=urdf)

    def initial_output(self, now_ns: int) -> BridgeOutput:
        """What to publish at start-up: the robot description and the static set.

        :param now_ns: current time.
        :return: the output.
        """
        return BridgeOutput(tf_static=self.static_transforms(now_ns),
                            robot_description=self.model.urdf)

    def update_settings(self, settings: BridgeSettings, now_ns: int) -> BridgeOutput:
        """Replace the settings; invalid ones change nothing.

        :param settings: the new settings.
        :param now_ns: current time.
        :return: the new static set (``accepted=False`` with the reason if rejected).
        """
        try:
            settings = settings.validated()
            _check_frames(self._tables, settings)
        except FrameKinematicsError as exc:
            reason = f'rejected the new settings: {exc}'
            self.logger.error(reason)
            return BridgeOutput(accepted=False, reason=reason)
        old = self.settings
        self.settings = settings
        self._log.period = settings.warn_period
        if old.user_frames != settings.user_frames:
            self._baked = {}
            if not self.missing_joints():
                self._place_baked()
        return BridgeOutput(tf_static=self.static_transforms(now_ns))

    # -- joint state ----------------------------------------------------------------------------
    def missing_joints(self) -> List[str]:
        """Actuated joints never received yet (in ``q`` order)."""
        model = self.model
        if self._received.all():
            return []
        return [j.name for j in model.actuated_joints
                if not self._received[j.idx_q:j.idx_q + j.nq].all()]

    @property
    def state(self) -> KinematicsState:
        """Kinematics of the latest value of every joint (neutral where never received)."""
        if self._state is None:
            self._state = self.model.forward_kinematics(self._q, self._v)
        return self._state

    @property
    def configuration(self) -> np.ndarray:
        """A copy of the latest configuration ``q``."""
        return self._q.copy()

    def on_joint_state(self, msg: JointStateInput, now_ns: int) -> BridgeOutput:
        """Take a joint_states message: store its values and say what to publish.

        :param msg: the message.
        :param now_ns: the node clock's current time (for the backwards-time check).
        :return: the transforms (and CoM) to publish; ``accepted=False`` if it was rejected.
        """
        tables = self._tables
        names = list(msg.names)
        try:
            positions = np.asarray(msg.positions, dtype=float).reshape(-1)
            velocities = np.asarray(msg.velocities, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            return self._reject('bad-values', 'ignored a joint_states message whose positions '
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
            bad = [n for n, ok in zip(names, finite) if not ok]
            return self._reject('nan', 'ignored a joint_states message with NaN or inf for '
                                f"{', '.join(bad)}")
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            return self._reject('duplicate', 'ignored a joint_states message naming '
                                f"{', '.join(dup)} more than once")
        entry = tables.entry
        q = self._q.copy()
        received = self._received.copy()
        v = self._v.copy()
        v_known = self._v_known.copy()
        unknown = []
        mimics = []
        multi = False
        for i, name in enumerate(names):
            hit = entry.get(name)
            if hit is None:
                if name in tables.movable_index or _is_fixed(tables.model, name):
                    mimics.append((name, positions[i]))
                else:
                    unknown.append(name)
                continue
            kind, index = hit
            q[index] = positions[i]
            received[index] = True
            if kind == 'multi':
                multi = True
                continue
            iv = tables.model.joint(name).idx_v
            if len(velocities):
                v[iv] = velocities[i]
            v_known[iv] = bool(len(velocities))
        if multi:
            try:
                q = tables.model.check_configuration(q)
            except ConfigurationError as exc:
                return self._reject('multi', f'ignored a joint_states message: {exc}')
        if unknown:
            self._log.warning('unknown', 'joint_states names joints that robot '
                              f"'{tables.model.name}' does not have (ignored): "
                              f"{', '.join(sorted(unknown))}")
        self._q, self._received, self._v, self._v_known = q, received, v, v_known
        self._state = None
        out = BridgeOutput()
        self._check_mimics(mimics)
        complete = self._check_complete()
        if complete and len(self._baked) < sum(f.baked for f in self.settings.user_frames):
            self._place_baked()
            out.tf_static = self.static_transforms(now_ns)
        if not self._throttle(msg, names, now_ns):
            return out
        if self.settings.publish_joint_transforms:
            out.tf = self._joint_transforms(names, msg.stamp_ns)
        if complete:
            self._center_of_mass(out, msg.stamp_ns)
        return out

    def _reject(self, key: str, text: str) -> BridgeOutput:
        self._log.warning(key, text + ' (keeping the last good state)')
        return BridgeOutput(accepted=False, reason=text)

    def _check_mimics(self, mimics: List[Tuple[str, float]]) -> None:
        model = self.model
        for name, value in mimics:
            joint = model.joint(name)
            if joint.mimic is None:
                self._log.warning('fixed', f"joint_states gives a value for fixed joint '{name}'"
                                  ' (ignored)')
                continue
            master, multiplier, offset = joint.mimic
            expected = multiplier * self._q[model.joint(master).idx_q] + offset
            if abs(expected - value) > 1e-6:
                self._log.warning('mimic', f"joint_states gives {value:.6g} for mimic joint "
                                  f"'{name}', which follows '{master}' ({expected:.6g}): "
                                  'the value from the master is used')

    def _throttle(self, msg: JointStateInput, names: Sequence[str], now_ns: int) -> bool:
        if now_ns < self._last_callback_ns:
            self.logger.warning('moved backwards in time, re-publishing joint transforms')
            self._last_publish.clear()
        self._last_callback_ns = now_ns
        joint_of = self._tables.joint_of_entry
        joints = {joint_of[n] for n in names if n in joint_of}
        freq = self.settings.publish_frequency
        publish = self.settings.ignore_timestamp or freq == 0
        if not publish:
            last = now_ns
            for name in joints:
                last = min(last, self._last_publish.get(name, 0))
            interval_ns = int(1000.0 / freq) * 1_000_000
            publish = msg.stamp_ns >= last + interval_ns
        if publish:
            for name in joints:
                self._last_publish[name] = msg.stamp_ns
        return publish

    def _check_complete(self) -> bool:
        if self._received.all():
            return True
        if not self._warned_missing:
            self._warned_missing = True
            self.logger.warning('center of mass and baked frames wait for joints never '
                                f"received yet: {', '.join(self.missing_joints())}")
        return False

    def _joint_transforms(self, names: Sequence[str], stamp_ns: int) -> List[TransformOut]:
        tables = self._tables
        joint_of = tables.joint_of_entry
        index = tables.movable_index
        chosen: Dict[int, None] = {}
        for name in names:
            joint = joint_of.get(name)
            if joint is None:
                continue
            chosen[index[joint]] = None
            for follower in tables.followers.get(joint, ()):
                chosen[index[follower]] = None
        if not chosen:
            return []
        indices = np.fromiter(chosen, dtype=int, count=len(chosen))
        translations, quats = tables.joint_transforms(self.state, indices)
        prefix = self.settings.frame_prefix
        parents, children = tables.parents, tables.children
        return [TransformOut(prefix + parents[i], prefix + children[i], stamp_ns,
                             tuple(t), tuple(r))
                for i, t, r in zip(indices.tolist(), translations.tolist(), quats.tolist())]

    def _center_of_mass(self, out: BridgeOutput, stamp_ns: int) -> None:
        settings = self.settings
        if not (settings.publish_com_frame or settings.publish_com_topics):
            return
        if self.model.total_mass <= 0:
            return
        state = self.state
        root_p_com = state.center_of_mass()
        prefix = settings.frame_prefix
        root = prefix + self.model.root_link
        if settings.publish_com_frame:
            out.tf.append(TransformOut(root, prefix + settings.com_frame, stamp_ns,
                                       tuple(root_p_com.tolist()),
                                       tuple(self._com_quaternion(state).tolist())))
        if settings.publish_com_topics:
            velocity = momentum = None
            if self._v_known.all():
                velocity = tuple(state.center_of_mass_velocity().tolist())
                momentum = tuple(state.angular_momentum().tolist())
            out.center_of_mass = CenterOfMassOut(stamp_ns, root, tuple(root_p_com.tolist()),
                                                 velocity, momentum)

    def _com_quaternion(self, state: KinematicsState) -> np.ndarray:
        mode = self.settings.com_orientation
        if mode == 'quaternion':
            return np.asarray(self.settings.com_quaternion)
        if mode == 'yaw':
            root_R_base = state.poses[self._tables.base_index, :3, :3]
            yaw = math.atan2(root_R_base[1, 0], root_R_base[0, 0])
            return np.array([0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2)])
        return np.array([0.0, 0.0, 0.0, 1.0])

    # -- frames ---------------------------------------------------------------------------------
    def _place_baked(self) -> None:
        state = self.state
        for frame in self.settings.user_frames:
            if frame.baked and frame.name not in self._baked:
                self._baked[frame.name] = self._root_T_frame(frame.parent, state) @ \
                    transform_from_xyz_rpy(np.array(frame.xyz), np.array(frame.rpy))

    def static_transforms(self, now_ns: int) -> List[TransformOut]:
        """The whole static set: fixed joints, link CoM frames, user frames.

        :param now_ns: their stamp.
        :return: the transforms for ``/tf_static``.
        """
        tables = self._tables
        settings = self.settings
        prefix = settings.frame_prefix
        out: List[Tuple[str, str, np.ndarray]] = []
        if settings.publish_fixed_transforms:
            out += [(j.parent, j.child, j.parent_T_joint) for j in tables.fixed]
        if settings.publish_link_com_frames:
            for link in tables.com_links:
                link_T_com = np.eye(4)
                link_T_com[:3, 3] = link.link_p_com
                out.append((link.name, link.name + '_com', link_T_com))
        if settings.publish_user_frames:
            root = self.model.root_link
            for frame in settings.user_frames:
                if not frame.baked:
                    out.append((frame.parent, frame.name,
                                transform_from_xyz_rpy(np.array(frame.xyz), np.array(frame.rpy))))
                elif frame.name in self._baked:
                    out.append((root, frame.name, self._baked[frame.name]))
        if not out:
            return []
        poses = np.array([pose for _, _, pose in out])
        quats = quaternion_from_rotation(poses[:, :3, :3]).tolist()
        return [TransformOut(prefix + parent, prefix + child, now_ns,
                             tuple(pose[:3, 3].tolist()), tuple(quat))
                for (parent, child, pose), quat in zip(out, quats)]

    def frame_names(self) -> List[str]:
        """Every frame the bridge knows: links, link CoM frames, user frames, robot CoM."""
        tables = self._tables
        names = list(self.model.link_names)
        names += [link.name + '_com' for link in tables.com_links]
        names += [frame.name for frame in self.settings.user_frames]
        if self.model.total_mass > 0:
            names.append(self.settings.com_frame)
        return names

    def strip_prefix(self, frame_id: str) -> str:
        """A frame id without the frame prefix (as received in a request).

        :param frame_id: a frame id, prefixed or not.
        :return: the bare frame name.
        """
        prefix = self.settings.frame_prefix
        if prefix and frame_id.startswith(prefix):
            return frame_id[len(prefix):]
        return frame_id

    def frame_dependencies(self, frame: str) -> Tuple[str, ...]:
        """Actuated joints whose values a frame's pose in the root link depends on.

        :param frame: a frame name (see :meth:`frame_names`).
        :return: joint names.
        :raises UnknownFrameError: for an unknown frame.
        """
        tables = self._tables
        if frame in tables.support_joints:
            return tables.support_joints[frame]
        if frame.endswith('_com') and frame[:-4] in {link.name for link in tables.com_links}:
            return tables.support_joints[frame[:-4]]
        for user in self.settings.user_frames:
            if user.name == frame:
                return () if user.baked else self.frame_dependencies(user.parent)
        if frame == self.settings.com_frame and self.model.total_mass > 0:
            return self.model.joint_names
        raise UnknownFrameError(frame, self.frame_names(), 'frame')

    def root_T_frame(self, frame: str, state: Optional[KinematicsState] = None) -> np.ndarray:
        """Pose of a frame in the root link.

        :param frame: a frame name (see :meth:`frame_names`), '' for the root link.
        :param state: the kinematics to use (default: the latest joint values).
        :return: ``root_T_frame`` (4x4).
        :raises UnknownFrameError: for an unknown frame.
        :raises ConfigurationError: for a baked frame not placed yet.
        """
        return self._root_T_frame(frame or self.model.root_link,
                                  self.state if state is None else state)

    def _root_T_frame(self, frame: str, state: KinematicsState) -> np.ndarray:
        model = self.model
        if model.has_link(frame):
            return state.transform(frame).copy()
        if frame.endswith('_com') and model.has_link(frame[:-4]):
            link = model.link(frame[:-4])
            if link.has_inertial and link.mass > 0:
                root_T_com = state.transform(link.name).copy()
                root_T_com[:3, 3] = state.position(link.name, link.link_p_com)
                return root_T_com
        for user in self.settings.user_frames:
            if user.name == frame:
                if user.baked:
                    if frame not in self._baked:
                        raise ConfigurationError(f"baked frame '{frame}' is not placed yet: it "
                                                 'waits for every joint to be received')
                    return self._baked[frame].copy()
                return self._root_T_frame(user.parent, state) @ transform_from_xyz_rpy(
                    np.array(user.xyz), np.array(user.rpy))
        if frame == self.settings.com_frame and model.total_mass > 0:
            root_T_com = np.eye(4)
            root_T_com[:3, :3] = rotation_from_quaternion(self._com_quaternion(state))
            root_T_com[:3, 3] = state.center_of_mass()
            return root_T_com
        raise UnknownFrameError(frame, self.frame_names(), 'frame')

    def transform(self, target: str, source: str) -> np.ndarray:
        """``target_T_source`` at the latest joint values (as a TF lookup).

        :param target: the frame the result is expressed in.
        :param source: the frame whose pose is wanted.
        :return: a 4x4 transform.
        """
        return inverse(self.root_T_frame(target)) @ self.root_T_frame(source)

    # -- configurations from requests --------------------------------------------------------
    def configuration_for(self, names: Sequence[str], positions: Sequence[float],
                          needed: Sequence[str]) -> np.ndarray:
        """A configuration from the latest values overridden by a request's joint state.

        :param names: joint (configuration entry) names of the request, possibly empty.
        :param positions: their values.
        :param needed: joints that must have a value (received or in the request).
        :return: the configuration ``q``.
        :raises ConfigurationError: for a malformed joint state, or missing needed joints.
        :raises UnknownFrameError: for an unknown joint name.
        """
        tables = self._tables
        names = list(names)
        values = _finite(positions, len(names), 'joint state positions') if names \
            else np.zeros(0)
        if len(positions) != len(names):
            raise ConfigurationError(f'joint state has {len(names)} names and '
                                     f'{len(positions)} positions')
        q = self._q.copy()
        have = self._received.copy()
        for name, value in zip(names, values):
            hit = tables.entry.get(name)
            if hit is None:
                raise UnknownFrameError(name, tables.entry, 'joint')
            q[hit[1]] = value
            have[hit[1]] = True
        model = self.model
        missing = [name for name in dict.fromkeys(needed)
                   if not have[model.joint(name).idx_q:model.joint(name).idx_q
                               + model.joint(name).nq].all()]
        if missing:
            raise ConfigurationError('no value received yet for joint(s) '
                                     f"{', '.join(missing)}: give them in the request's joint "
                                     'state or wait for joint_states')
        return model.check_configuration(q)


def _parse(urdf: str) -> RobotModel:
    if not isinstance(urdf, str) or not urdf.strip():
        raise ConfigurationError('robot_description is empty')
    return RobotModel.from_urdf_string(urdf)


def _is_fixed(model: RobotModel, name: str) -> bool:
    try:
        return model.joint(name).type == 'fixed'
    except UnknownFrameError:
        return False


def _check_frames(tables: _ModelTables, settings: BridgeSettings) -> None:
    """Check that frame names are unique and user-frame parents exist."""
    model = tables.model
    known = set(model.link_names)
    com_names = {link.name + '_com' for link in tables.com_links}
    for name in com_names:
        if name in known:
            raise ConfigurationError(f"link CoM frame '{name}' clashes with a link of that name")
    known |= com_names
    if settings.com_frame in known:
        raise ConfigurationError(f"com frame '{settings.com_frame}' clashes with a frame of "
                                 'that name: choose another com frame name')
    for frame in settings.user_frames:
        if frame.name in known or frame.name == settings.com_frame:
            raise ConfigurationError(f"user frame '{frame.name}' clashes with an existing frame")
        if frame.parent not in known:
            raise UnknownFrameError(frame.parent, known, f"parent of user frame '{frame.name}'")
        known.add(frame.name)


def settings_from_parameters(params: Mapping[str, Any],
                             base: BridgeSettings = BridgeSettings()) -> BridgeSettings:
    """Settings from the node's flat parameters (names as in ``config/frame_kinematics.yaml``).

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
        'com.quaternion': 'com_quaternion',
        'singularity_threshold': 'singularity_threshold',
        'warn_throttle_period': 'warn_period',
    }
    changes: Dict[str, Any] = {}
    for key, attr in mapping.items():
        if key in params:
            value = params[key]
            changes[attr] = tuple(value) if attr == 'com_quaternion' else value
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
                bool(params.get(f'user_frames.{name}.baked', False))))
        changes['user_frames'] = tuple(frames)
    return replace(base, **changes)
