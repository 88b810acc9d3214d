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
:class:`Executor`: what a compiled backend hands out to evaluate one model's kinematics.

The registry (:func:`frame_kinematics.core.backend.executor`) hands out an executor for a
model and a backend: None for numpy (the reference code runs), and for numba the checked face
of its kernels (:class:`~frame_kinematics.core.accel.Accelerator`), a subclass of
:class:`Executor`. States and workspaces keep the executor they were made with.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .model import RobotModel

__all__ = ['Executor']


class Executor:
    """
    A backend's kernels bound to one model's data (read-only, shared by threads).

    :ivar name: the backend's name (``'numba'``).
    """

    name = ''

    def __init__(self, model: 'RobotModel') -> None:
        """
        Bind to a model's data.

        :param model: the robot model whose tables the kernels read.
        """
        self._model = model

    def serves(self, model: 'RobotModel') -> bool:
        """
        Whether this executor evaluates ``model``: its own, or a model sharing its data.

        A :class:`~frame_kinematics.core.robot.Robot` wrapping a model shares the model's
        tables, so an executor bound to either serves both.

        :param model: a robot model.
        :return: whether ``model``'s tables are those the executor was bound to.
        """
        return model is self._model or getattr(model, 'kernel', None) is self._model.kernel
