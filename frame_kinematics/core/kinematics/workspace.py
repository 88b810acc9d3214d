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
Link poses recomputed in place, for loops over configurations.

A :class:`~.state.KinematicsState` is built for each configuration and never changes; on the
compiled backend its construction (two new arrays, made read-only) costs as much as the
kinematics. A :class:`KinematicsWorkspace` keeps the same two arrays and overwrites
them: Pinocchio's ``Data`` after ``forwardKinematics``, the Robotics Library's
``Kinematics`` after ``setPosition`` and ``forwardPosition``.
"""

from typing import TYPE_CHECKING, Union

import numpy as np

from .state import KinematicsState
from ..backend import again, executor
from ..errors import ConfigurationError

if TYPE_CHECKING:  # pragma: no cover
    from ..executor import Executor
    from ..model import RobotModel


class KinematicsWorkspace:
    """
    One configuration's link poses, overwritten by every :meth:`forward_kinematics`.

    Built at the neutral configuration (``KinematicsWorkspace(model, backend=...)``, or
    :meth:`Robot.workspace <frame_kinematics.core.robot.Robot.workspace>` on the robot's
    backend). The caller owns it: one thread uses it at a time (two
    threads evaluating at once would mix their configurations; give each its own).

    :ivar q: the configuration last evaluated, ``(nq,)``: a read-only view that the next
        evaluation overwrites (copy it to keep it).
    :ivar poses: ``root_T_link`` of every link at :attr:`q`, ``(n_links, 4, 4)``, likewise.
    """

    def __init__(self, model: 'RobotModel',
                 backend: Union[None, str, 'Executor'] = None) -> None:
        """
        Allocate the arrays and evaluate the neutral configuration.

        :param model: the robot model.
        :param backend: what evaluates it, as for
            :class:`~.state.KinematicsState` (None: the model's backend when it is a
            :class:`~frame_kinematics.core.robot.Robot`, else the process default).
        :raises ConfigurationError: for a model that is not a
            :class:`~frame_kinematics.core.model.RobotModel`.
        :raises BackendError: for an invalid ``backend``.
        """
        self._executor = executor(model, backend)  # which refuses what is not a model
        self._model = model
        self._q = model.neutral_configuration()
        self._poses = np.empty((len(model.links), 4, 4))
        self.q = self._q.view()
        self.q.setflags(write=False)
        self.poses = self._poses.view()
        self.poses.setflags(write=False)
        self.forward_kinematics(self._q.copy())

    @property
    def model(self) -> 'RobotModel':
        """Return the robot model the workspace was made for (it cannot be swapped)."""
        return self._model

    @property
    def executor(self) -> Union[None, 'Executor']:
        """
        Return what evaluates it (None: numpy).

        As :attr:`KinematicsState.executor <.state.KinematicsState.executor>`; bound to the
        workspace's arrays, it cannot be swapped.
        """
        return self._executor

    def forward_kinematics(self, q) -> np.ndarray:
        """
        Evaluate every link's pose at ``q``, in place.

        :param q: a configuration ``(nq,)`` (copied into :attr:`q`, quaternions normalised).
        :return: :attr:`poses` (the same read-only view at every call).
        :raises ConfigurationError: for an invalid ``q`` or a batch; the workspace then keeps
            the configuration it had.
        """
        accel = self._executor
        if accel is not None and accel._poses_into(q, self._q, self._poses):
            return self.poses  # one compiled call checked q and wrote both arrays
        state = KinematicsState(self.model, q, backend=again(self.executor))
        if state.batch_shape:
            raise ConfigurationError(
                f'a workspace holds one configuration: q has batch shape {state.batch_shape}')
        self._q[...] = state.q
        self._poses[...] = state.poses
        return self.poses

    def transform(self, link: str) -> np.ndarray:
        """
        Pose of a link in the root link, ``root_T_link`` ``(4, 4)``: a new array.

        :param link: the link's name.
        :return: a new ``(4, 4)`` array.
        :raises UnknownFrameError: for a name the model does not have.
        """
        return self._poses[self.model.link_index(link)].copy()

    def state(self) -> KinematicsState:
        """Return a :class:`~.state.KinematicsState` of :attr:`q` (for its other quantities)."""
        return KinematicsState(self.model, self._q, backend=again(self.executor))
