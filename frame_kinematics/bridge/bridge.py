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
The bridge: joint_states in, what to publish out, and the state the services read.

Two kinds of callers use one :class:`Bridge` from two threads:

* the ``/tf`` path, :meth:`Bridge.on_joint_state`, one message after the other;
* services and parameter changes (:meth:`Bridge.snapshot`, :meth:`Bridge.apply_parameters`).

The joint values are arrays that are never written once published: the ``/tf`` path builds
new ones and swaps them in under a lock, and :meth:`Bridge.snapshot` takes the model core and
the arrays together under the same lock. A parameter change builds a whole new
:class:`~frame_kinematics.bridge.model_core.ModelCore` outside the lock and swaps the
reference in, so the ``/tf`` path never waits for a rebuild, a service, or a solver.
"""

import logging
import threading
import time
from typing import Any, Callable, List, Mapping, Optional, Tuple

import numpy as np

from .compiled import switch_to_compiled
from .log import shorten, ThrottledLog
from .messages import (BridgeOutput, check_values, JointStateInput, read_joint_state,
                       RefusedMessage)
from .model_core import ModelCore, parse_description
from .names import PlanCache
from .parameters import ParameterValues
from .publish import Publisher
from .published_frames import baked_placements, stamped
from .settings import BridgeSettings
from .snapshot import MIMIC_TOLERANCE, Snapshot
from .swap import prepare, SwapError
from .throttle import Throttle
from ..core.backend import resolve
from ..core.errors import ConfigurationError, FrameKinematicsError, name_list, quote
from ..core.joints import JointType
from ..core.robot import Robot


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _never_received(model: Robot, received: np.ndarray) -> List[str]:
    """Actuated joints of ``model`` whose entries ``received`` does not mark, in ``q`` order."""
    if received.all():
        return []
    return [j.name for j in model.actuated_joints if not received[j.idx_q:j.idx_q + j.nq].all()]


class Bridge:
    """
    The decisions of the frame_kinematics node, on plain data.

    :param urdf: the robot description (URDF XML).
    :param settings: run-time settings.
    :param logger: where to log (``logging.Logger`` or an rclpy logger).
    :param clock: monotonic clock in seconds for warning throttling (injectable for tests).
    :param backend: the kinematics backend (``'numpy'``, ``'numba'``, ``'auto'``; None: the
        environment decides, see :func:`~frame_kinematics.core.backend.resolve`). The bridge
        always starts on numpy; with numba it moves to the compiled backend once its kernels
        are ready (:mod:`~frame_kinematics.bridge.compiled`), between two messages.
    :raises FrameKinematicsError: for a URDF, settings or a backend that cannot be used.
    """

    def __init__(self, urdf: str, settings: BridgeSettings = BridgeSettings(),
                 logger=None, clock: Callable[[], float] = time.monotonic,
                 backend: Optional[str] = 'numpy') -> None:
        self.logger = logger if logger is not None else logging.getLogger(__name__)
        self._backend = resolve(backend)
        settings = settings.validated()
        core = ModelCore(parse_description(urdf), settings)
        self._lock = threading.Lock()
        self._params = ParameterValues.from_settings(settings, urdf)
        self._log = ThrottledLog(self.logger, settings.warn_period, clock)
        # the core's warnings that the node forwards (services' included): keys of their own,
        # so that a flood of them cannot take the /tf path's keys (MAX_KEYS)
        self._forwarded_log = ThrottledLog(self.logger, settings.warn_period, clock)
        self._throttle = Throttle(self.logger)
        self._core = core
        self._sent_static = core.static
        self._install_state(core, core.initial_configuration(), core.initial_received())
        self._tf_core: Optional[ModelCore] = None
        self._plans: Optional[PlanCache] = None
        self._publisher = Publisher()
        self._warned_missing = False
        self._compiling: Optional[threading.Thread] = None
        self._compile(core)

    @classmethod
    def from_parameters(cls, params: Mapping[str, Any], logger=None,
                        clock: Callable[[], float] = time.monotonic,
                        backend: Optional[str] = 'numpy') -> 'Bridge':
        """
        Build a bridge from the node's flat parameters (``robot_description`` included).

        :param params: ``{parameter name: value}`` (see
            :mod:`frame_kinematics.bridge.parameters`).
        :param logger: where to log.
        :param clock: see :class:`Bridge`.
        :param backend: see :class:`Bridge`.
        :return: the bridge (a user frame waiting for its parameters is logged as a warning).
        :raises FrameKinematicsError: for an unknown parameter, a bad value or an unusable
            robot description (one line naming the fault).
        """
        values = ParameterValues(params)
        settings, waiting = values.settings()
        bridge = cls(values['robot_description'], settings, logger, clock, backend)
        bridge._params = values
        for text in waiting:
            bridge.logger.warning(text)
        return bridge

    def _compile(self, core: ModelCore) -> None:
        """Start moving ``core``'s robot to the compiled backend, when that is the backend."""
        if self._backend != 'numba':
            return
        self._compiling = threading.Thread(
            target=switch_to_compiled, name='frame_kinematics_compiled', daemon=True,
            args=(core.urdf_model, self._install_compiled, self.logger))
        self._compiling.start()

    def _install_compiled(self, model: Robot) -> None:
        """
        Put the compiled ``model`` in place of the numpy model of the same description.

        The model core is rebuilt around it with the current settings and baked frames and
        swapped in if nothing changed meanwhile; the joint values stay (same layout).
        """
        for _ in range(3):
            current = self._core
            if current.urdf_model.urdf != model.urdf or current.urdf_model.backend == 'numba':
                return  # another robot was loaded meanwhile: its own switch follows
            promoted = ModelCore(model, current.settings, current.baked)
            if promoted.model is not model:
                promoted.model.executor.tf  # the placed robot's, loaded now
            with self._lock:
                if self._core is current:
                    self._core = promoted
                    self._sent_static = promoted.static
                    self.logger.info('kinematics now on the compiled backend (numba)')
                    return

    def wait_compiled(self, timeout: Optional[float] = None) -> bool:
        """
        Wait until the move to the compiled backend has ended (for tests and tools).

        :param timeout: seconds, or None to wait as long as it takes.
        :return: whether the model is now on the compiled backend.
        """
        thread = self._compiling
        if thread is not None:
            thread.join(timeout)
        return self.model.backend == 'numba'

    def _install_state(self, core: ModelCore, q: np.ndarray, received: np.ndarray) -> None:
        """Set the joint values (called under the lock, or before any other thread runs)."""
        model = core.model
        self._q = _frozen(q)
        self._received = _frozen(received)
        self._complete = bool(received.all())
        self._v = _frozen(np.zeros(model.nv))
        self._v_known = _frozen(np.zeros(model.nv, dtype=bool))
        self._v_known_all = False

    # -- views ---------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """Return the model core and the joint values, taken together (for the services)."""
        with self._lock:
            return Snapshot(self._core, self._q, self._received)

    @property
    def model(self) -> Robot:
        """Return the current robot model."""
        return self._core.model

    @property
    def settings(self) -> BridgeSettings:
        """Return the current settings."""
        return self._core.settings

    @property
    def warnings(self) -> ThrottledLog:
        """
        Return the throttle for the core's warnings forwarded to the bridge's log.

        It follows ``warn_period`` as the bridge's own does, and holds keys of its own: however
        many different warnings it takes, the joint_states warnings keep theirs.
        """
        return self._forwarded_log

    @property
    def configuration(self) -> np.ndarray:
        """Return a copy of the latest configuration ``q``."""
        return self.snapshot().q.copy()

    def missing_joints(self) -> List[str]:
        """Actuated joints never received yet (in ``q`` order; skipped joints excluded)."""
        snap = self.snapshot()
        return _never_received(snap.model, snap.received)

    def frame_dependencies(self, frame: str) -> Tuple[str, ...]:
        """Actuated joints a frame's pose depends on (see :meth:`Snapshot.frame_dependencies`)."""
        return self.snapshot().frame_dependencies(frame)

    def root_T_frame(self, frame: str, q: Optional[np.ndarray] = None) -> np.ndarray:
        """
        Pose of a frame in the root link.

        :param frame: a frame name of the tree ('' for the root link).
        :param q: configuration to use (default: the latest joint values).
        :return: ``root_T_frame`` (4x4).
        """
        snap = self.snapshot()
        return snap.root_T_frame(frame, snap.q if q is None else q)

    def initial_output(self, now_ns: int) -> BridgeOutput:
        """
        Return what to publish at start-up: the robot description and the static set.

        :param now_ns: current time (stamp of the static transforms).
        :return: the robot description and the whole static set, stamped ``now_ns``.
        """
        core = self._core
        return BridgeOutput(tf_static=stamped(core.static, now_ns),
                            robot_description=core.model.urdf)

    # -- parameters and model swaps ------------------------------------------------------------
    def set_robot_description(self, urdf: str, now_ns: int) -> BridgeOutput:
        """
        Swap the model for a new URDF; a bad one changes nothing.

        :param urdf: the new robot description.
        :param now_ns: current time (stamp of the static transforms).
        :return: the description and the static set to publish, or ``accepted=False``.
        """
        return self.apply_parameters({'robot_description': urdf}, now_ns)

    def update_settings(self, settings: BridgeSettings, now_ns: int) -> BridgeOutput:
        """
        Replace the settings; invalid ones change nothing.

        :param settings: the new settings.
        :param now_ns: current time.
        :return: the new static set if it changed (``accepted=False`` with the reason).
        """
        try:
            values = ParameterValues.from_settings(settings.validated(), self.model.urdf)
        except FrameKinematicsError as exc:
            return self._refuse(f'rejected the new settings, keeping the previous ones: {exc}')
        return self._apply(values, now_ns)

    def apply_parameters(self, params: Mapping[str, Any], now_ns: int) -> BridgeOutput:
        """
        Apply changed node parameters at once: all of them, or none if one is bad.

        :param params: the changed parameters (names as
            :mod:`~frame_kinematics.bridge.parameters`); rclpy's own are ignored.
        :param now_ns: current time.
        :return: what to publish (the static set if it changed; the description and the static
            set whenever ``robot_description`` is set, even to the same URDF, as
            robot_state_publisher publishes them again), or ``accepted=False`` with the reason
            (also logged as an error).
        """
        try:
            values = self._params.changed(params)
        except FrameKinematicsError as exc:
            return self._refuse(f'rejected the new parameters: {exc}')
        out = self._apply(values, now_ns)
        if out.accepted and out.robot_description is None and 'robot_description' in params:
            again = self.initial_output(now_ns)
            out.robot_description, out.tf_static = again.robot_description, again.tf_static
            self.logger.info(f"robot '{self.model.name}' set again (the same URDF): its "
                             'description and static frames are published again')
        return out

    def _refuse(self, reason: str) -> BridgeOutput:
        reason = shorten(reason)
        self.logger.error(reason)
        return BridgeOutput(accepted=False, reason=reason)

    def _apply(self, values: ParameterValues, now_ns: int) -> BridgeOutput:
        for _ in range(3):  # built from the current core, swapped in if it is still current
            current = self._core
            try:
                core, carry, waiting = prepare(current, values)
            except SwapError as exc:
                return self._refuse(str(exc))
            with self._lock:
                if self._core is current:
                    changed = self._swap_in(core, carry, values)
                    break
        else:
            return self._refuse('the robot changed three times while the parameters were '
                                'applied: set them again')
        previous = current.settings
        self._log.period = self._forwarded_log.period = core.settings.warn_period
        for text in waiting:
            self.logger.warning(text)
        out = BridgeOutput(tf_static=stamped(core.static, now_ns) if changed else None)
        out.clear_markers = carry is not None or (previous.publish_com_markers
                                                  and not core.settings.publish_com_markers)
        if carry is not None:
            model = core.model
            out.robot_description = model.urdf
            out.tf_static = stamped(core.static, now_ns)
            self.logger.info(f"robot '{model.name}' loaded: {len(model.links)} links, "
                             f'{len(model.joint_names)} actuated joints')
            self._compile(core)
        return out

    def _swap_in(self, core: ModelCore, carry, values: ParameterValues) -> bool:
        """Install ``core`` and its joint values, the lock held: whether /tf_static changes."""
        if carry is not None:
            q = core.initial_configuration()
            received = core.initial_received()
            q[carry[0]] = self._q[carry[1]]
            received[carry[0]] |= self._received[carry[1]]
            self._install_state(core, q, received)
        elif self._core.index.skipped != core.index.skipped:
            self._install_state(core, self._q.copy(), self._received | core.initial_received())
        self._core = core
        self._params = values
        changed = core.static != self._sent_static
        self._sent_static = core.static
        return changed

    # -- joint states: the /tf path ------------------------------------------------------------
    def _tf_caches(self, core: ModelCore) -> None:
        """Make the /tf path's own caches follow a new model core."""
        previous = self._tf_core
        if previous is None or previous.urdf_model.urdf != core.urdf_model.urdf:
            self._throttle.reset()
            self._warned_missing = False
        if previous is None or previous.index is not core.index or \
                previous.settings.frame_prefix != core.settings.frame_prefix:
            self._plans = PlanCache(core.index, core.settings.frame_prefix)
        self._publisher.reset()
        self._tf_core = core

    def on_joint_state(self, msg: JointStateInput, now_ns: int) -> BridgeOutput:
        """
        Take a joint_states message: store its values and say what to publish.

        :param msg: the message.
        :param now_ns: the node clock's current time (for the backwards-time check).
        :return: the transforms (and CoM) to publish; ``accepted=False`` if it was rejected.
        """
        try:
            names, positions, velocities, stamp_ns = read_joint_state(msg)
        except RefusedMessage as refused:
            return self._reject(refused.key, str(refused))
        for _ in range(3):
            core = self._core
            if core is not self._tf_core:
                self._tf_caches(core)
            out = self._take(core, names, positions, velocities, stamp_ns, now_ns)
            if out is not None:
                return out
        return BridgeOutput(accepted=False, reason='the model changed while the message was '
                            'read')

    def pause_ns(self, now_ns: int, sim_time: bool) -> int:
        """
        How long the ``/tf`` path may wait before it takes joint_states again.

        Called by the thread that calls :meth:`on_joint_state`.

        :param now_ns: the node clock.
        :param sim_time: whether the node clock is simulated time.
        :return: the wait (ns), as
            :meth:`Throttle.pause_ns <frame_kinematics.bridge.throttle.Throttle.pause_ns>`
            gives it for the current publish interval.
        """
        return self._throttle.pause_ns(now_ns, self._core.interval_ns, sim_time)

    def _take(self, core: ModelCore, names: Tuple[str, ...], positions: np.ndarray,
              velocities: np.ndarray, stamp_ns: int, now_ns: int) -> Optional[BridgeOutput]:
        """Store a checked message under ``core``; None if ``core`` was swapped meanwhile."""
        plan = self._plans.get(names)
        if plan.duplicates:
            return self._reject('duplicate', 'ignored a joint_states message naming '
                                f'{name_list(plan.duplicates)} more than once')
        try:
            known = check_values(names, positions, velocities, plan.q_pos, plan.v_pos)
        except RefusedMessage as refused:
            return self._reject(refused.key, str(refused))
        model = core.model
        with self._lock:  # the values of ``core``'s robot: another robot's may follow a swap
            if self._core is not core:
                return None
            q, received, complete = self._q.copy(), self._received, self._complete
            v, v_known, v_known_all = self._v, self._v_known, self._v_known_all
        q[plan.q_idx] = positions[plan.q_pos]
        if plan.multi:
            try:
                q = model.check_configuration(q)
            except ConfigurationError as exc:
                return self._reject('multi', shorten(f'ignored a joint_states message: {exc}'))
        if plan.unknown_count:
            self._log.warning('unknown', 'joint_states names joints that robot '
                              f"'{model.name}' does not have (ignored): "
                              f'{name_list(plan.unknown)}'
                              + (f' ({plan.unknown_count} in all)'
                                 if plan.unknown_count > len(plan.unknown) else ''))
        if not complete:
            received = received.copy()
            received[plan.q_idx] = True
            complete = bool(received.all())
        if len(plan.v_idx):
            v = v.copy()
            if known is None:  # every velocity read is known, or none is given
                v[plan.v_idx] = velocities[plan.v_pos] if len(velocities) else 0.0
            else:  # a NaN: unknown (a joint without a velocity interface in ros2_control)
                v[plan.v_idx] = np.where(known, velocities[plan.v_pos], 0.0)
            if not (v_known_all and len(velocities) and known is None):
                v_known = v_known.copy()
                v_known[plan.v_idx] = bool(len(velocities)) if known is None else known
                v_known_all = bool(v_known.all())
        with self._lock:
            if self._core is not core:
                return None
            self._q = _frozen(q)
            if received is not self._received:
                self._received = _frozen(received)
                self._complete = complete
            if v is not self._v:
                self._v = _frozen(v)
                self._v_known = _frozen(v_known)
                self._v_known_all = v_known_all
        out = BridgeOutput()
        if plan.others:
            self._check_others(model, q, [(name, float(positions[i])) for i, name in plan.others])
        if not complete:
            self._warn_missing(core, received)
        if complete and core.needs_baking:
            core = self._place_baked(core, q, out, now_ns)
        if not self._throttle.due(stamp_ns, plan.joints, now_ns, core.interval_ns):
            return out
        settings = core.settings
        publish_joints = settings.publish_joint_transforms and len(plan.tf_indices)
        publish_com = complete and not core.com_note and \
            (settings.publish_com_frame or settings.publish_com_topics
             or settings.publish_com_markers)
        if not (publish_joints or publish_com):
            return out
        com_ns = self._throttle.com_stamp(stamp_ns) if publish_com else None
        with_v = com_ns is not None and settings.publish_com_topics and v_known_all
        markers = com_ns is not None and settings.publish_com_markers and \
            not core.index.skipped and self._throttle.markers_due(com_ns)
        self._publisher.publish(out, core, plan, q, v if with_v else None, stamp_ns,
                                bool(publish_joints), com_ns, markers)
        return out

    def _reject(self, key: str, text: str) -> BridgeOutput:
        self._log.warning(key, text + ' (keeping the last good state)')
        return BridgeOutput(accepted=False, reason=text)

    def _check_others(self, model: Robot, q: np.ndarray,
                      others: List[Tuple[str, float]]) -> None:
        for name, value in others:
            joint = model.joint(name)
            if joint.mimic is None:
                self._log.warning('fixed', f"joint_states gives a value for fixed joint '{name}'"
                                  ' (ignored)')
                continue
            master, multiplier, offset = joint.mimic
            expected = multiplier * q[model.joint(master).idx_q] + offset
            if abs(expected - value) > MIMIC_TOLERANCE:
                self._log.warning('mimic', f'joint_states gives {quote(value)} for mimic '
                                  f"joint '{name}', which follows '{master}' ({expected:.6g}): "
                                  'the value from the master is used')

    def _warn_missing(self, core: ModelCore, received: np.ndarray) -> None:
        """Say once which joints of ``core``'s robot were never received (``received``)."""
        if self._warned_missing:
            return
        self._warned_missing = True
        note = ''
        floating = any(j.type is JointType.FLOATING for j in core.model.joints)
        if floating and not core.index.skipped:
            note = (' (a floating joint whose pose comes from another TF publisher: set '
                    'floating_joints to skip)')
        self.logger.warning('the center of mass (and baked frames) wait for joints never '
                            f'received yet: {name_list(_never_received(core.model, received))}'
                            f'{note}')

    def _place_baked(self, core: ModelCore, q: np.ndarray, out: BridgeOutput,
                     now_ns: int) -> ModelCore:
        """Place the baked frames from the first complete state; swap in the new core."""
        try:
            tree = core.make_tree(q, complete=True)
            placed = ModelCore(core.urdf_model, core.settings,
                               baked_placements(tree, core.settings, core.reference),
                               core.model)
        except FrameKinematicsError as exc:
            self._log.warning('baked', shorten(f'cannot place the baked frames: {exc}'))
            return core
        with self._lock:
            if self._core is not core:
                return core
            self._core = placed
            self._sent_static = placed.static
        self._tf_caches(placed)
        out.tf_static = stamped(placed.static, now_ns)
        return placed
