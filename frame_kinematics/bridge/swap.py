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
A model swap or settings change, prepared off the ``/tf`` path.

:func:`prepare` builds the whole new :class:`ModelCore` from the new parameters (parsing a new
URDF when it changed) and the index arrays that carry the joint values over; the bridge then
only swaps references under its lock.
"""

from typing import List, NamedTuple, Optional, Tuple

import numpy as np

from .model_core import ModelCore, parse_description
from .parameters import ParameterValues
from ..core.errors import FrameKinematicsError


class SwapError(FrameKinematicsError):
    """New parameters that cannot be applied (the message says what is kept)."""


class Swap(NamedTuple):
    """
    A prepared change.

    :ivar core: the new model core.
    :ivar carry: ``(new, old)`` q indices of the joints kept across a model swap, or None when
        the model did not change.
    :ivar waiting: warnings about user frames whose definition is not complete.
    """

    core: ModelCore
    carry: Optional[Tuple[np.ndarray, np.ndarray]]
    waiting: List[str]


def prepare(old: ModelCore, values: ParameterValues) -> Swap:
    """
    Build the model core of new parameters.

    Baked frames keep their placement while the model, the floating-joint mode and their own
    definition do not change.

    :param old: the current model core.
    :param values: all the new parameters.
    :return: the prepared change.
    :raises SwapError: naming the fault and what is kept.
    """
    urdf = values['robot_description']
    swap = urdf != old.model.urdf
    try:
        settings, waiting = values.settings()
        settings = settings.validated()
    except FrameKinematicsError as exc:
        raise SwapError(f'rejected the new parameters: {exc}') from None
    try:
        model = parse_description(urdf) if swap else old.urdf_model
    except FrameKinematicsError as exc:
        raise SwapError('rejected the new robot_description, keeping robot '
                        f"'{old.model.name}': {exc}") from None
    keep = {}
    if not swap and settings.floating_joints == old.settings.floating_joints:
        before = {f.name: f for f in old.settings.user_frames}
        keep = {name: pose for name, pose in old.baked.items()
                if before.get(name) in settings.user_frames}
    try:
        placed = old.model if not swap and settings.placement() == old.settings.placement() \
            else None
        core = ModelCore(model, settings, keep, placed)
    except FrameKinematicsError as exc:
        what = 'settings' if not swap else f"robot '{model.name}'"
        raise SwapError(f'rejected the new {what}, keeping the previous ones: {exc}') from None
    return Swap(core, core.carry_over(old) if swap else None, waiting)
