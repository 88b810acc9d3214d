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
A live reference-frame tree over a robot model (RobotDynamics ReferenceFrame, mc_rbdyn Frame).

A :class:`FrameTree` owns the current configuration of one robot and a tree of named
:class:`ReferenceFrame` objects:

* the **world** frame: the model's root link (one per tree);
* a **body** frame for every link moved by a joint, a **fixed** frame for every link attached
  by a fixed joint (named like the link);
* a **com** frame ``<link>_com`` at every link's center of mass (link axes) for links whose
  ``<inertial>`` has a positive mass;
* the **robot CoM** frame (``com`` by default) at the robot's center of mass, oriented as
  :meth:`FrameTree.set_com_orientation` says;
* **user** frames added at run time with a parent and a constant offset, optionally *baked*
  (placed once in the world from the current state, then no longer following their parent);
* extra **root** frames (:meth:`FrameTree.add_root_frame`) that start trees of their own:
  nothing relates them to the world, so asking for a transform across roots raises
  :class:`~frame_kinematics.core.errors.ReferenceFrameError`.

Poses to the root are cached and recomputed after :meth:`FrameTree.update`, on first use:
a reader never sees a stale pose and never has to call an ``update`` on a frame itself.
"""

import enum
import logging
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .backend import again
from .checks import check_flag, check_one_vector
from .errors import ConfigurationError, name_list, quote, ReferenceFrameError, \
    UnknownReferenceFrameError, URDFError
from .executor import Executor
from .joints import JointType
from .kinematics import KinematicsState
from .model import require_model, RobotModel
from .spatial import inverse, rotation_from_quaternion, rotation_from_rpy, rpy_from_rotation
from .transform_checks import check_pose, unit_quaternion
from .urdf import check_name, MAX_NAME_LENGTH

_LOG = logging.getLogger(__name__)


class FrameKind(enum.Enum):
    """What a frame of the tree is."""

    WORLD = 'world'
    BODY = 'body'
    FIXED = 'fixed'
    COM = 'com'
    ROBOT_COM = 'robot_com'
    USER = 'user'
    ROOT = 'root'


class ReferenceFrame:
    """
    A named frame of a :class:`FrameTree`. Created by the tree, never directly.

    :param tree: the tree the frame belongs to.
    :param name: the frame name, unique in the tree.
    :param kind: what the frame is.
    :param parent: the parent frame (None for a root frame).
    :param link: index of the model link the frame follows (world, body and fixed frames).
    :param offset: constant pose of the frame in its parent (4x4; com and user frames).
    :param baked: whether this user frame was baked (placed once in its root, which is then its
        parent).
    """

    __slots__ = ('name', 'kind', 'parent', 'root', 'baked', '_tree', '_link', '_offset',
                 '_cached')

    def __init__(self, tree: 'FrameTree', name: str, kind: FrameKind,
                 parent: Optional['ReferenceFrame'], link: Optional[int] = None,
                 offset: Optional[np.ndarray] = None, baked: bool = False) -> None:
        self.name = name
        self.kind = kind
        self.parent = parent
        self.root: ReferenceFrame = self if parent is None else parent.root
        self.baked = baked
        self._tree = tree
        self._link = link
        self._offset = offset
        #: ``(revision, root_T_frame)`` of the last pose computed, kept as one object.
        self._cached: Tuple[int, Optional[np.ndarray]] = (-1, None)

    @property
    def tree(self) -> 'FrameTree':
        """Return the tree this frame belongs to."""
        return self._tree

    @property
    def is_static(self) -> bool:
        """Whether the pose relative to the parent is constant (TF's ``/tf_static``)."""
        return self.kind in (FrameKind.FIXED, FrameKind.COM, FrameKind.USER)

    @property
    def parent_T_frame(self) -> np.ndarray:
        """Return the current pose of this frame in its parent (identity for a root)."""
        if self.parent is None:
            return np.eye(4)
        if self._offset is not None:
            return self._offset.copy()
        if self._link is not None:
            return self._tree.state.local_poses[self._link].copy()
        return inverse(self.parent.root_T_frame) @ self.root_T_frame

    @property
    def root_T_frame(self) -> np.ndarray:
        """Return the current pose of this frame in its root (read-only array)."""
        tree = self._tree
        revision, pose = self._cached
        if revision != tree.revision:
            # the revision before the pose: an update meanwhile leaves the pose tagged older,
            # and the next call computes it again
            revision = tree.revision
            pose = tree._compute_root_T(self)
            pose.flags.writeable = False
            self._cached = (revision, pose)
        return pose

    def pose_in(self, other: 'ReferenceFrame') -> np.ndarray:
        """
        Pose of this frame in ``other``: ``other_T_self``.

        :param other: a frame of the same tree.
        :return: a 4x4 transform.
        :raises ReferenceFrameError: if the frames have different roots.
        """
        return self._tree.transform(other, self)

    def __repr__(self) -> str:
        parent = None if self.parent is None else self.parent.name
        return f"ReferenceFrame('{self.name}', {self.kind.value}, parent={parent!r})"


COM_ORIENTATION_MODES = ('root', 'yaw', 'ypr', 'quaternion')


def _frame_name(name: str, what: str) -> str:
    """
    Read a frame name given outside the model as a link name is read (:func:`check_name`).

    :param name: a str.
    :param what: what it is called in messages.
    :return: the name as a plain str (a subclass's ``__eq__`` and ``__hash__`` are not called).
    :raises ReferenceFrameError: for an empty name, one longer than a URDF name may be, or one
        with characters no URDF name can hold (NUL, other control characters).
    """
    try:
        return check_name(name, what)
    except URDFError as exc:
        raise ReferenceFrameError(str(exc), str.__str__(name)[:MAX_NAME_LENGTH]) from None


class FrameTree:
    """
    The frames of one robot at its current configuration (see the module docstring).

    :param model: the robot model.
    :param q: initial configuration (default: the neutral configuration).
    :param com_frame: name of the robot center-of-mass frame.
    :param backend: what evaluates its states (see
        :func:`~frame_kinematics.core.backend.executor`; None: the model's backend when it is a
        :class:`~frame_kinematics.core.robot.Robot`, else the process default).
    :raises BackendError: for an invalid ``backend``.
    :raises ConfigurationError: for a ``model`` that is not a
        :class:`~frame_kinematics.core.model.RobotModel`, or an invalid ``q``.
    :raises ReferenceFrameError: if ``com_frame`` is not a non-empty string or is already the
        name of a frame of the tree (a link or a link center-of-mass frame).
    """

    def __init__(self, model: RobotModel, q: Optional[Sequence[float]] = None,
                 com_frame: str = 'com', backend: Union[None, str, Executor] = None) -> None:
        if not isinstance(com_frame, str) or not com_frame:
            raise ReferenceFrameError(f'the robot CoM frame name must be a non-empty string, got '
                                      f'{type(com_frame).__name__} {quote(com_frame)}')
        com_frame = _frame_name(com_frame, 'the robot CoM frame name')
        self.model = require_model(model)
        self.revision = 0
        self._frames: Dict[str, ReferenceFrame] = {}
        self._state = KinematicsState(model, model.neutral_configuration() if q is None else q,
                                      backend=backend)
        joints = {joint.child: joint for joint in model.joints}
        for link in model.links:
            if link.parent is None:
                frame = ReferenceFrame(self, link.name, FrameKind.WORLD, None, link.index)
            else:
                moves = joints[link.name].type.moves
                kind = FrameKind.BODY if moves else FrameKind.FIXED
                frame = ReferenceFrame(self, link.name, kind, self._frames[link.parent],
                                       link.index)
            self._frames[link.name] = frame
        self.world = self._frames[model.root_link]
        taken = []  # links whose <link>_com is the name of a link: warned of in one line
        for link in model.links:
            if link.mass <= 0:
                continue
            name = f'{link.name}_com'
            if name in self._frames:
                taken.append(link.name)
                continue
            offset = np.eye(4)
            offset[:3, 3] = link.link_p_com
            self._frames[name] = ReferenceFrame(self, name, FrameKind.COM,
                                                self._frames[link.name], offset=offset)
        if taken:
            _LOG.warning('no center-of-mass frame for link%s %s: a link has the name '
                         '<link>_com', 's' if len(taken) > 1 else '', name_list(taken))
        if com_frame in self._frames:
            raise ReferenceFrameError(f'the robot CoM frame name {quote(com_frame)} is already a '
                                      'frame of the tree', com_frame)
        self.com_frame = ReferenceFrame(self, com_frame, FrameKind.ROBOT_COM, self.world)
        self._frames[com_frame] = self.com_frame
        floating = [j for j in model.joints if j.type is JointType.FLOATING and j.parent ==
                    model.root_link]
        self._base_link = floating[0].child if floating else model.root_link
        self._com_mode = 'root'
        self._com_R = np.eye(3)
        self._com_link = self._base_link

    # -- state --------------------------------------------------------------------------------
    @property
    def state(self) -> KinematicsState:
        """Return the current kinematic state."""
        return self._state

    def update(self, q: Sequence[float], v: Optional[Sequence[float]] = None) -> None:
        """
        Move the tree to a new configuration (and velocity).

        Validation happens first: on error nothing changes.

        :param q: configuration ``(nq,)``, or a batch ``(B, nq)`` (every pose is then a batch).
        :param v: velocity ``(nv,)`` or ``(B, nv)`` (optional).
        :raises ConfigurationError: for an invalid configuration.
        """
        self._state = KinematicsState(self.model, q, v, backend=again(self._state.executor))
        self.revision += 1

    # -- frames ---------------------------------------------------------------------------
    @property
    def frame_names(self) -> Tuple[str, ...]:
        """Names of every frame, in creation order."""
        return tuple(self._frames)

    def frames(self, kind: Union[None, FrameKind, str] = None) -> List[ReferenceFrame]:
        """
        Return the frames of the tree, optionally only those of one kind.

        :param kind: a :class:`FrameKind`, or its value (``'body'``), to filter on.
        :return: the frames in creation order.
        :raises ReferenceFrameError: if ``kind`` is neither.
        """
        if kind is not None and not isinstance(kind, FrameKind):
            values = [k.value for k in FrameKind]
            if not (isinstance(kind, str) and str.__str__(kind) in values):  # no other __eq__
                raise ReferenceFrameError('a frame kind must be a FrameKind or one of '
                                          f"{', '.join(values)}, got {quote(kind)}")
            kind = FrameKind(str.__str__(kind))
        return [f for f in self._frames.values() if kind is None or f.kind is kind]

    def frame(self, name) -> ReferenceFrame:
        """
        Return the frame called ``name`` (a frame of this tree is returned as is).

        :param name: frame name.
        :return: the frame.
        :raises UnknownReferenceFrameError: if there is no such frame.
        :raises ReferenceFrameError: if ``name`` is neither a string nor a frame of this tree.
        """
        if isinstance(name, ReferenceFrame):
            if name.tree is not self or self._frames.get(name.name) is not name:
                raise ReferenceFrameError(f"frame '{name.name}' does not belong to this tree",
                                          name.name)
            return name
        if not isinstance(name, str):
            raise ReferenceFrameError(f'a frame is given by its name or as a ReferenceFrame, '
                                      f'got {type(name).__name__}')
        name = str.__str__(name)  # a plain str: a subclass's __eq__ or __hash__ is not called
        try:
            return self._frames[name]
        except KeyError:
            raise UnknownReferenceFrameError(name, self._frames) from None

    def __contains__(self, name: str) -> bool:
        return isinstance(name, str) and str.__str__(name) in self._frames

    def add_frame(self, name: str, parent, parent_T_frame: np.ndarray,
                  baked: bool = False) -> ReferenceFrame:
        """
        Add a user frame with a constant offset from a parent frame.

        :param name: new, unique frame name.
        :param parent: parent frame (name or :class:`ReferenceFrame`).
        :param parent_T_frame: pose of the new frame in the parent (4x4, rigid).
        :param baked: place the frame once in the parent's root from the current state; it then
            no longer follows ``parent`` (seed 001's baked frames).
        :return: the new frame.
        :raises ReferenceFrameError: if the name is taken, empty or not a string, or the parent
            is neither a name nor a frame of this tree.
        :raises UnknownFrameError: if the parent does not exist.
        :raises ConfigurationError: if the offset is not one rigid transform of real numbers,
            ``baked`` is not a bool, or a frame is baked while the tree holds a batch.
        """
        name = self._new_name(name)
        parent_frame = self.frame(parent)
        offset = check_pose(parent_T_frame, f'offset of frame {quote(name)}')
        if check_flag(baked, 'baked'):
            root_T_parent = parent_frame.root_T_frame
            if root_T_parent.shape != (4, 4):
                raise ConfigurationError(f'frame {quote(name)} can only be baked from a single '
                                         'configuration, not a batch')
            offset = root_T_parent @ offset
            parent_frame = parent_frame.root
        offset.flags.writeable = False
        frame = ReferenceFrame(self, name, FrameKind.USER, parent_frame, offset=offset,
                               baked=baked)
        self._frames[name] = frame
        return frame

    def _new_name(self, name) -> str:
        """Return a new frame's name as a plain str, checked."""
        if not isinstance(name, str):
            raise ReferenceFrameError(f'a frame name must be a string, got '
                                      f'{type(name).__name__} {quote(name)}')
        name = _frame_name(name, 'a frame name')
        if name in self._frames:
            raise ReferenceFrameError(f'a frame named {quote(name)} already exists', name)
        return name

    def add_root_frame(self, name: str) -> ReferenceFrame:
        """
        Add a frame that starts a tree of its own, unrelated to the world.

        :param name: new, unique frame name.
        :return: the new root frame.
        :raises ReferenceFrameError: if the name is taken, empty or not a string.
        """
        name = self._new_name(name)
        frame = ReferenceFrame(self, name, FrameKind.ROOT, None)
        self._frames[name] = frame
        return frame

    def remove_frame(self, name: str) -> None:
        """
        Remove a user or root frame that has no children.

        :param name: the frame.
        :raises ReferenceFrameError: for a model frame or a frame with children.
        :raises UnknownFrameError: for an unknown frame.
        """
        frame = self.frame(name)
        if frame.kind not in (FrameKind.USER, FrameKind.ROOT):
            raise ReferenceFrameError(f"frame '{frame.name}' belongs to the model and cannot "
                                      'be removed', frame.name)
        children = [f.name for f in self._frames.values() if f.parent is frame]
        if children:
            raise ReferenceFrameError(f"frame '{frame.name}' still has children: "
                                      f'{name_list(children)}', frame.name)
        del self._frames[frame.name]

    # -- transforms -----------------------------------------------------------------------
    def transform(self, a, b) -> np.ndarray:
        """
        Pose of frame ``b`` in frame ``a``: ``a_T_b``.

        :param a: frame (name or :class:`ReferenceFrame`) the result is expressed in.
        :param b: frame whose pose is wanted.
        :return: a 4x4 transform (``(B, 4, 4)`` for a batched state).
        :raises UnknownReferenceFrameError: for an unknown frame (names both frames).
        :raises ReferenceFrameError: if the frames belong to different roots.
        """
        frame_a, frame_b = self._lookup(a, b), self._lookup(b, a)
        if frame_a.root is not frame_b.root:
            raise ReferenceFrameError(
                f"frames '{frame_a.name}' and '{frame_b.name}' have different roots "
                f"('{frame_a.root.name}' and '{frame_b.root.name}'): no transform relates them",
                frame_a.name, frame_b.name)
        if frame_a is frame_a.root:
            return frame_b.root_T_frame.copy()
        return inverse(frame_a.root_T_frame) @ frame_b.root_T_frame

    def _lookup(self, name, other) -> ReferenceFrame:
        if not isinstance(name, str) or name in self:
            return self.frame(name)
        raise UnknownReferenceFrameError(
            name, self._frames, other.name if isinstance(other, ReferenceFrame) else other)

    def _compute_root_T(self, frame: ReferenceFrame) -> np.ndarray:
        if frame.parent is None and frame._link is None:
            return np.eye(4)
        if frame._link is not None:
            return self._state.poses[frame._link].copy()
        if frame.kind is FrameKind.ROBOT_COM:
            return self._com_pose()
        return frame.parent.root_T_frame @ frame._offset

    # -- robot center of mass -------------------------------------------------------------
    def set_com_orientation(self, mode: str = 'root', quaternion: Optional[Sequence[float]] = None,
                            ypr: Optional[Sequence[float]] = None,
                            link: Optional[str] = None) -> None:
        """
        Choose the orientation of the robot CoM frame (seed 000's updateCenterOfMassFrame).

        * ``'root'``: aligned with the root (world) frame;
        * ``'yaw'``: the yaw of ``link`` (default: the base link, the floating joint's child or
          the root), roll and pitch removed;
        * ``'ypr'``: fixed yaw, pitch, roll (``Rz(y) Ry(p) Rx(r)``) in root axes;
        * ``'quaternion'``: a fixed unit quaternion ``[x, y, z, w]`` in root axes.

        :param mode: one of the above.
        :param quaternion: for ``'quaternion'``.
        :param ypr: for ``'ypr'``.
        :param link: for ``'yaw'``.
        :raises ReferenceFrameError: for a bad mode or missing/invalid argument.
        :raises UnknownFrameError: for an unknown ``link``.
        """
        rot = np.eye(3)
        if not isinstance(mode, str) or str.__str__(mode) not in COM_ORIENTATION_MODES:
            raise ReferenceFrameError(f'unknown CoM orientation mode {quote(mode)} (expected one '
                                      f"of {', '.join(COM_ORIENTATION_MODES)})",
                                      self.com_frame.name)
        mode = str.__str__(mode)  # plain strs, kept: a subclass's __eq__ is never called
        if link is not None:
            if not isinstance(link, str):
                raise ReferenceFrameError(f'the CoM orientation link must be a link name, got '
                                          f'{type(link).__name__} {quote(link)}',
                                          self.com_frame.name)
            link = str.__str__(link)
        if mode == 'quaternion':
            rot = rotation_from_quaternion(self._com_angles(quaternion, 4, 'quaternion'))
        elif mode == 'ypr':
            rot = rotation_from_rpy(self._com_angles(ypr, 3, 'ypr')[::-1])
        elif mode == 'yaw':
            self.model.link_index(link or self._base_link)
        self._com_mode = mode
        self._com_R = rot
        self._com_link = link or self._base_link
        self.revision += 1

    def _com_angles(self, values, size: int, name: str) -> np.ndarray:
        what = 'a unit quaternion [x, y, z, w]' if size == 4 else '[yaw, pitch, roll]'
        try:
            arr = check_one_vector([] if values is None else values, size, name)
            return unit_quaternion(arr, name) if size == 4 else arr
        except ConfigurationError as exc:
            raise ReferenceFrameError(f'CoM orientation needs {what}: {exc}',
                                      self.com_frame.name) from None

    def _com_pose(self) -> np.ndarray:
        state = self._state
        com = state.center_of_mass()
        pose = np.zeros(com.shape[:-1] + (4, 4))
        pose[..., 3, 3] = 1.0
        pose[..., :3, 3] = com
        if self._com_mode == 'yaw':
            link_R = state.poses[self.model.link_index(self._com_link)][..., :3, :3]
            yaw = rpy_from_rotation(link_R)[..., 2]
            pose[..., :3, :3] = rotation_from_rpy(
                np.stack([np.zeros_like(yaw), np.zeros_like(yaw), yaw], axis=-1))
        else:
            pose[..., :3, :3] = self._com_R
        return pose
