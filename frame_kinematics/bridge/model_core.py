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
The immutable half of the bridge: one robot model with one set of settings.

A :class:`ModelCore` is built whole (off the ``/tf`` path when parameters change) and then
swapped in by reference: nothing in it changes after construction, so any thread may read it.
"""

from typing import Mapping, Optional, Tuple

import numpy as np

from .names import JointIndex
from .published_frames import build_tree, static_entries, StaticEntry
from .settings import BridgeSettings, SettingError
from .throttle import publish_interval_ns
from ..core.errors import ConfigurationError, UnknownFrameError
from ..core.frames import FrameTree
from ..core.joints import JointType
from ..core.placement import place
from ..core.robot import Robot
from ..core.spatial import transform_from_xyz_rpy


def parse_description(urdf: str) -> Robot:
    """
    Load a robot description on the numpy backend (the bridge moves to a compiled one later).

    :param urdf: the URDF XML (the ``robot_description`` parameter or topic).
    :return: the model.
    :raises ConfigurationError: for what is not a string, or an empty one.
    :raises FrameKinematicsError: for an unusable URDF.
    """
    if not isinstance(urdf, str):
        raise ConfigurationError(f'robot_description must be a string of URDF XML, got '
                                 f'{type(urdf).__name__}')
    if not urdf.strip():
        raise ConfigurationError('robot_description is empty')
    return Robot.from_urdf_string(urdf, backend='numpy')


def placed_model(model: Robot, settings: BridgeSettings) -> Robot:
    """
    Give a parsed model the tools and the world placement of the settings.

    :param model: the model of the robot description.
    :param settings: validated settings.
    :return: ``model`` itself without tools or world placement, else a new model with a link
        per tool and a world link (see :func:`~frame_kinematics.core.placement.place`).
    :raises FrameKinematicsError: for an unknown tip or a tool or world name already taken.
    """
    if not settings.tools and not settings.places_world:
        return model
    tools = {tool.tip: transform_from_xyz_rpy(np.array(tool.xyz), np.array(tool.rpy))
             for tool in settings.tools}
    world_T_root = None
    if settings.places_world:
        if model.has_link(settings.world_frame):
            raise SettingError(f"world.frame '{settings.world_frame}' is a link of the robot: "
                               'the world link needs a name of its own')
        world_T_root = transform_from_xyz_rpy(np.array(settings.world_xyz),
                                              np.array(settings.world_rpy))
    return place(model, tools, world_T_root, settings.world_frame,
                 {tool.tip: tool.link_name for tool in settings.tools})


class ModelCore:
    """
    A model, its settings and everything derived from them (read-only).

    :param model: the model of the robot description.
    :param settings: validated settings.
    :param baked: ``reference_T_frame`` of the baked frames already placed.
    :param placed: :func:`placed_model` of ``model`` and ``settings`` when it is known already
        (reused, so the model keeps its identity).
    :raises FrameKinematicsError: when the settings do not fit the model (a user frame
        parent that does not exist, a clash of names, ``com.frame`` naming a link, an unknown
        ``com.yaw_link``, an unknown tool tip).
    :ivar urdf_model: the model of the robot description.
    :ivar model: the model the bridge uses: ``urdf_model`` with the tools and world link.
    :ivar reference: the link the robot CoM and baked frames are given in.
    :ivar com_note: why the robot CoM is not published ('' when it is).
    """

    def __init__(self, model: Robot, settings: BridgeSettings,
                 baked: Optional[Mapping[str, np.ndarray]] = None,
                 placed: Optional[Robot] = None) -> None:
        self.urdf_model = model
        model = placed_model(model, settings) if placed is None else placed
        if model.has_link(settings.com_frame):
            raise SettingError(f"com.frame '{settings.com_frame}' is a link of the robot: the "
                               'robot CoM frame needs a name of its own (set com.frame; '
                               'robot_state_publisher has no CoM frame)')
        self.model = model
        self.settings = settings
        skip = settings.floating_joints == 'skip'
        self.index = JointIndex(model, skip)
        floating = [j for j in model.joints if j.type is JointType.FLOATING]
        self.reference = model.root_link
        self.com_note = ''
        if model.total_mass <= 0:
            self.com_note = 'the robot has no mass'
        elif skip and floating:
            if len(floating) == 1 and floating[0].parent == model.root_link:
                self.reference = floating[0].child
            else:
                self.com_note = ('floating_joints is skip and the robot has floating joints '
                                 'other than one at its root: the CoM would depend on poses '
                                 'the node does not receive')
        self.baked = dict(baked or {})
        self.n_baked = sum(f.baked for f in settings.user_frames)
        self.interval_ns: Optional[int] = None
        if not settings.ignore_timestamp:
            self.interval_ns = publish_interval_ns(settings.publish_frequency)
        q = self.initial_configuration()
        tree = self.make_tree(q, complete=False)
        self.static: Tuple[StaticEntry, ...] = static_entries(tree, settings)

    def initial_configuration(self) -> np.ndarray:
        """Return the configuration before any joint_states (neutral, a copy)."""
        return self.model.neutral_configuration()

    def initial_received(self) -> np.ndarray:
        """Return which q entries count as received before any joint_states (skipped ones)."""
        return ~self.index.needed

    def make_tree(self, q: np.ndarray, complete: bool, v: Optional[np.ndarray] = None
                  ) -> FrameTree:
        """
        Build a new frame tree at ``q`` (owned by the caller).

        :param q: a configuration.
        :param complete: every needed joint was received (baked frames may be placed).
        :param v: a velocity (optional).
        :return: the tree (see :func:`~frame_kinematics.bridge.published_frames.build_tree`).
        """
        return build_tree(self.model, self.settings, q, self.reference, self.baked, complete,
                          v)

    @property
    def needs_baking(self) -> bool:
        """Whether some baked frames still wait for their placement."""
        return len(self.baked) < self.n_baked

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

    def carry_over(self, old: 'ModelCore') -> Tuple[np.ndarray, np.ndarray]:
        """
        Index arrays ``(new, old)`` of the q entries a new model shares with ``old``.

        Joints that keep their name and type keep their latest values.
        """
        new_idx, old_idx = [], []
        for joint in self.model.actuated_joints:
            try:
                before = old.model.joint(joint.name)
            except UnknownFrameError:
                continue
            if before.type == joint.type and before.nq == joint.nq:
                new_idx.extend(range(joint.idx_q, joint.idx_q + joint.nq))
                old_idx.extend(range(before.idx_q, before.idx_q + before.nq))
        return np.array(new_idx, dtype=int), np.array(old_idx, dtype=int)
