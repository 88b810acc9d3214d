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
What a due joint_states message publishes: its joint transforms and the robot CoM.

On the compiled backend (numba) one call into compiled code gives both, with the CoM velocity
and the angular momentum when the CoM topics publish them
(:meth:`JointTransforms.compute_with_com
<frame_kinematics.bridge.tf_math.JointTransforms.compute_with_com>`), with no frame tree,
unless the CoM markers or a CoM orientation that follows the link poses (``yaw``, ``ypr``)
need one; otherwise, and always on the numpy backend, the ``/tf`` path's own frame tree is
moved to the message's configuration.
"""

from typing import Any, Optional, Tuple

import numpy as np

from .markers import com_markers
from .messages import BridgeOutput, TransformOut
from .model_core import ModelCore
from .names import NamePlan
from .published_com import center_of_mass, center_of_mass_at, POSE_FREE_ORIENTATIONS
from .tf_math import transforms_out
from ..core.frames import FrameTree


class Publisher:
    """The ``/tf`` path's last step, with its own frame tree (one thread only)."""

    def __init__(self) -> None:
        self._tree: Optional[FrameTree] = None

    def reset(self) -> None:
        """Forget the frame tree (a new model core)."""
        self._tree = None

    def publish(self, out: BridgeOutput, core: ModelCore, plan: NamePlan, q: np.ndarray,
                v: Optional[np.ndarray], stamp_ns: int, joints: bool, com_ns: Optional[int],
                markers: bool) -> None:
        """
        Fill ``out`` with the transforms (and CoM values) of a stored message.

        :param out: the output to fill.
        :param core: the model core the message was stored under.
        :param plan: the plan of the message's names.
        :param q: the configuration stored (validated, read-only).
        :param v: the velocity when the CoM topics publish the CoM velocity, else None.
        :param stamp_ns: the stamp of the joint transforms.
        :param joints: publish the joint transforms of ``plan``.
        :param com_ns: the stamp of the robot CoM, or None for no CoM.
        :param markers: publish the CoM markers.
        """
        rows = plan.tf_indices if joints else plan.tf_indices[:0]
        transforms = core.index.transforms
        if transforms.compiled and not markers and \
                core.settings.com_orientation in POSE_FREE_ORIENTATIONS:
            reference = -1 if com_ns is None else core.model.link_index(core.reference)
            translations, quats, com = transforms.compute_with_com(q, rows, reference, v)
            out.tf = transforms_out(plan.parents, plan.children, stamp_ns, translations, quats)
            if com_ns is not None:
                values = com.tolist()
                motion = (None, None) if v is None else (tuple(values[3:6]), tuple(values[6:]))
                _add_com(out, center_of_mass_at(core, tuple(values[:3]), com_ns, *motion))
            return
        tree = self._tree_at(core, q, v)
        if joints:
            translations, quats = transforms.compute(q, rows)
            out.tf = transforms_out(plan.parents, plan.children, stamp_ns, translations, quats)
        if com_ns is not None:
            _add_com(out, center_of_mass(core, tree, com_ns, v is not None))
            if markers:
                out.markers = com_markers(core.model, tree.state, com_ns,
                                          core.settings.frame_prefix)

    def _tree_at(self, core: ModelCore, q: np.ndarray, v: Optional[np.ndarray]) -> FrameTree:
        """Move the frame tree to ``q`` (and ``v``); return it."""
        if self._tree is None:
            self._tree = core.make_tree(q, complete=True, v=v)
        else:
            self._tree.update(q, v)
        return self._tree


def _add_com(out: BridgeOutput, com: Tuple[Optional[TransformOut], Any]) -> None:
    transform, out.center_of_mass = com
    if transform is not None:
        out.tf.append(transform)
