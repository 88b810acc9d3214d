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
The frames the bridge publishes besides the joints, and the static set for ``/tf_static``.

The frame tree of a model gets the CoM orientation and the user frames of the settings.
A baked user frame is placed once relative to the reference link (the root link, or the child
of the floating root joint when floating joints are skipped) and stays there.
"""

from typing import List, Mapping, Optional, Tuple

import numpy as np

from .messages import TransformOut
from .settings import BridgeSettings, UserFrame
from ..core.errors import ConfigurationError, UnknownFrameError
from ..core.frames import FrameKind, FrameTree
from ..core.model import RobotModel
from ..core.spatial import inverse, quaternion_from_rotation, transform_from_xyz_rpy

#: One static transform without its stamp: ``(parent, child, translation, rotation)``.
StaticEntry = Tuple[str, str, Tuple[float, float, float], Tuple[float, float, float, float]]


def _add_user_frame(tree: FrameTree, frame: UserFrame, reference: str,
                    baked: Mapping[str, np.ndarray]) -> None:
    """Add a user frame; a baked one at its stored placement if it has one."""
    if frame.baked and frame.name in baked:
        tree.add_frame(frame.name, reference, baked[frame.name])
        return
    tree.add_frame(frame.name, frame.parent,
                   transform_from_xyz_rpy(np.array(frame.xyz), np.array(frame.rpy)),
                   baked=frame.baked)


def build_tree(model: RobotModel, settings: BridgeSettings, q: np.ndarray, reference: str,
               baked: Mapping[str, np.ndarray], complete: bool,
               v: Optional[np.ndarray] = None) -> FrameTree:
    """
    Build a frame tree with the CoM orientation and the user frames of ``settings``.

    Baked frames without a stored placement are placed only when ``complete`` (every needed
    joint received); until then they, and the user frames hanging from them, wait.

    :param model: the robot model.
    :param settings: validated settings.
    :param q: the configuration.
    :param reference: link baked frames are placed in.
    :param baked: ``reference_T_frame`` of the baked frames already placed.
    :param complete: whether every needed joint has been received.
    :param v: velocity (optional).
    :return: the tree; a frame waiting for its placement (or for its parent) is left out.
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
            _add_user_frame(tree, frame, reference, baked)
    return tree


def baked_placements(tree: FrameTree, settings: BridgeSettings,
                     reference: str) -> Mapping[str, np.ndarray]:
    """
    Return ``reference_T_frame`` of every baked frame placed in a tree (read-only arrays).

    :param tree: a tree from :func:`build_tree`.
    :param settings: the settings that made it.
    :param reference: the link baked frames are placed in.
    :return: ``{frame name: reference_T_frame}`` (4x4) of the baked frames in ``tree``.
    """
    reference_T_root = inverse(tree.frame(reference).root_T_frame)
    out = {}
    for frame in settings.user_frames:
        if frame.baked and frame.name in tree:
            pose = reference_T_root @ tree.frame(frame.name).root_T_frame
            pose.setflags(write=False)
            out[frame.name] = pose
    return out


def static_entries(tree: FrameTree, settings: BridgeSettings) -> Tuple[StaticEntry, ...]:
    """
    Return the whole static set: fixed joints, link CoM frames, user frames (prefixed, no stamp).

    :param tree: a tree from :func:`build_tree`.
    :param settings: the settings (switches and prefix).
    :return: one ``(parent, child, translation, quaternion)`` entry per frame (names prefixed,
        quaternion ``(x, y, z, w)``); empty when nothing is published.
    """
    kinds = set()
    if settings.publish_fixed_transforms:
        kinds.add(FrameKind.FIXED)
    if settings.publish_link_com_frames:
        kinds.add(FrameKind.COM)
    if settings.publish_user_frames:
        kinds.add(FrameKind.USER)
    frames = [f for f in tree.frames() if f.kind in kinds]
    if not frames:
        return ()
    poses = np.array([f.parent_T_frame for f in frames])
    quats = quaternion_from_rotation(poses[:, :3, :3]).tolist()
    prefix = settings.frame_prefix
    return tuple((prefix + f.parent.name, prefix + f.name, tuple(pose[:3, 3].tolist()),
                  tuple(quat)) for f, pose, quat in zip(frames, poses, quats))


def stamped(entries: Tuple[StaticEntry, ...], stamp_ns: int) -> List[TransformOut]:
    """Stamp a static set."""
    return [TransformOut(parent, child, stamp_ns, t, r) for parent, child, t, r in entries]
