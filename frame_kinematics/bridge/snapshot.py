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
A consistent, immutable view of the bridge for the services.

One model core and the joint values received so far, taken together under the bridge's lock.

A service works on its snapshot only (its own frame trees and kinematics), so the joint_states
path may move on meanwhile without the service ever seeing half of an update.
"""

from typing import Sequence, Tuple

import numpy as np

from .model_core import ModelCore
from .settings import BridgeSettings
from ..core.errors import ConfigurationError, name_list, quote, UnknownFrameError
from ..core.frames import FrameKind, FrameTree
from ..core.model import RobotModel

#: Largest difference between a mimic joint's value in a request and the one its master gives.
MIMIC_TOLERANCE = 1e-6


class Snapshot:
    """
    The model core and joint values at one instant (read-only).

    :param core: the model core.
    :param q: the configuration (read-only array, never written afterwards).
    :param received: which q entries were received (read-only array).
    """

    __slots__ = ('core', 'q', 'received')

    def __init__(self, core: ModelCore, q: np.ndarray, received: np.ndarray) -> None:
        self.core = core
        self.q = q
        self.received = received

    @property
    def model(self) -> RobotModel:
        """Return the robot model."""
        return self.core.model

    @property
    def settings(self) -> BridgeSettings:
        """Return the bridge settings of this snapshot."""
        return self.core.settings

    def strip_prefix(self, frame_id: str) -> str:
        """Remove the frame prefix from a frame id (see :meth:`ModelCore.strip_prefix`)."""
        return self.core.strip_prefix(frame_id)

    def tree(self, q: np.ndarray) -> FrameTree:
        """Return a new frame tree at ``q`` (owned by the caller)."""
        return self.core.make_tree(q, complete=bool(self.received.all()))

    def frame_dependencies(self, frame: str) -> Tuple[str, ...]:
        """
        Actuated joints whose values a frame's pose in the root link depends on.

        :param frame: a frame name of the tree.
        :return: joint names (every needed actuated joint for the robot CoM frame).
        :raises UnknownFrameError: for an unknown frame.
        """
        core = self.core
        current = self.tree(self.q).frame(frame)
        if current.kind is FrameKind.ROBOT_COM:
            return tuple(j.name for j in self.model.actuated_joints
                         if j.name not in core.index.skipped)
        model = self.model
        while current is not None and not model.has_link(current.name):
            current = current.parent
        return () if current is None else core.index.support_joints(current.name)

    def configuration_for(self, names: Sequence[str], positions: Sequence[float],
                          needed: Sequence[str]) -> np.ndarray:
        """
        Build a configuration: the latest values overridden by a request's joint state.

        A request's joint state is read as a joint_states message is: mimic joints are
        accepted when they agree with their master, fixed joints are ignored, a name given
        twice is refused.

        :param names: joint (configuration entry) names of the request, possibly empty.
        :param positions: their values.
        :param needed: joints that must have a value (received or in the request).
        :return: the configuration ``q`` (a new array).
        :raises ConfigurationError: for a malformed joint state, or missing needed joints.
        :raises UnknownFrameError: for an unknown joint name.
        """
        index = self.core.index
        model = self.model
        names = list(names)
        if len(positions) != len(names):
            raise ConfigurationError(f'joint state has {len(names)} names and '
                                     f'{len(positions)} positions')
        try:
            values = np.asarray(positions, dtype=float).reshape(-1)
        except (TypeError, ValueError, OverflowError):
            raise ConfigurationError('joint state positions must be numbers') from None
        bad = [n for n, ok in zip(names, np.isfinite(values).tolist()) if not ok]
        if bad:
            raise ConfigurationError(f'joint state positions must be finite, not for '
                                     f'{name_list(bad)}')
        plan = index.plan(tuple(names), '')
        if plan.duplicates:
            raise ConfigurationError(f'joint state names {name_list(plan.duplicates)} more '
                                     'than once')
        if plan.unknown_count:
            raise UnknownFrameError(plan.unknown[0], index.entry, 'joint')
        q = self.q.copy()
        have = self.received.copy()
        q[plan.q_idx] = values[plan.q_pos]
        have[plan.q_idx] = True
        for position, name in plan.others:
            joint = model.joint(name)
            if joint.mimic is None:
                continue
            master, multiplier, offset = joint.mimic
            expected = multiplier * q[model.joint(master).idx_q] + offset
            if abs(expected - values[position]) > MIMIC_TOLERANCE:
                raise ConfigurationError(
                    f'joint state gives {quote(float(values[position]))} for mimic joint '
                    f"'{name}', which follows '{master}' ({expected:.6g})")
        missing = []
        for name in dict.fromkeys(needed):
            joint = model.joint(name)
            if not have[joint.idx_q:joint.idx_q + joint.nq].all():
                missing.append(name)
        if missing:
            raise ConfigurationError(f'no value received yet for joint(s) {name_list(missing)}:'
                                     " give them in the request's joint state or wait for "
                                     'joint_states')
        return model.check_configuration(q)

    def root_T_frame(self, frame: str, q: np.ndarray) -> np.ndarray:
        """
        Pose of a frame in the root link at ``q``.

        :param frame: a frame name of the tree ('' for the root link).
        :param q: a configuration.
        :return: ``root_T_frame`` (4x4, a new array).
        :raises UnknownFrameError: for an unknown frame.
        """
        return self.tree(q).frame(frame or self.model.root_link).root_T_frame.copy()
