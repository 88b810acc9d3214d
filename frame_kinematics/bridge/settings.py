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
The bridge's settings and the checks of each value (type and range).

Each check takes a value as it comes (a Python value from code, or an rclpy parameter value,
possibly dynamically typed) and returns it normalised, or raises :class:`SettingError` naming
the setting and quoting at most a short excerpt of the value. :class:`BridgeSettings` and the
node's parameters (:mod:`frame_kinematics.bridge.parameters`) use the same checks.
"""

from dataclasses import dataclass, fields, replace
import math
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence, Tuple

import numpy as np

from ..core import checks
from ..core.checks import first_repeated, number_within
from ..core.errors import ConfigurationError, quote
from ..core.frames import COM_ORIENTATION_MODES
from ..core.placement import tool_link_name
from ..core.transform_checks import unit_quaternion
from ..core.velocity import SINGULARITY_THRESHOLD

COM_ORIENTATIONS = COM_ORIENTATION_MODES
#: ``skip`` (the default, robot_state_publisher's behaviour): floating joints are not published
#: and not waited for (another publisher gives the base pose); the CoM is then given relative to
#: the floating joint's child. ``tf``: floating joints are moving joints on ``/tf`` (their pose
#: comes on joint_states).
FLOATING_JOINT_MODES = ('skip', 'tf')
#: Range of ``publish_frequency`` (Hz), as robot_state_publisher's.
FREQUENCY_RANGE = (0.0, 1000.0)
#: Smallest positive ``publish_frequency`` (Hz): its throttle interval, 1e9 s, is within the
#: 2**31 s a ``builtin_interfaces/Time`` counts; a smaller one would never let a message
#: through, so it is refused (0 is an interval of 0: every message not older than the last).
MIN_PUBLISH_FREQUENCY = 1e-9
#: Range of ``singularity_threshold``.
THRESHOLD_RANGE = (0.0, 1e3)
#: Range of ``warn_period`` (seconds).
WARN_PERIOD_RANGE = (0.0, 3600.0)
#: Largest coordinate of a user frame offset (metres or radians): keeps poses finite.
OFFSET_LIMIT = 1e6
#: Longest frame name or prefix (characters).
NAME_LIMIT = 256
#: Most user frames.
USER_FRAME_LIMIT = 1000
#: Most tools.
TOOL_LIMIT = 1000


class SettingError(ConfigurationError):
    """A setting or node parameter has a wrong type or is out of range."""


def _is_sequence(value: Any) -> bool:
    return (not isinstance(value, (str, bytes, bytearray, dict))
            and hasattr(value, '__len__') and hasattr(value, '__iter__'))


def check_bool(value: Any, what: str) -> bool:
    """
    Return ``value`` if it is a bool.

    :raises SettingError: otherwise.
    """
    if isinstance(value, bool):
        return value
    raise SettingError(f'{what} must be true or false, got {quote(value)}')


def check_number(value: Any, what: str, low: float, high: float) -> float:
    """
    Return ``value`` as a float if it is a real number (not a bool) within ``[low, high]``.

    :raises SettingError: otherwise.
    """
    if isinstance(value, str):  # ros2 param set sends 1e3 as text (YAML 1.1 reads 1.0e+3)
        raise SettingError(f'{what} must be a number from {low:g} to {high:g}, got the text '
                           f'{quote(value)} (write a number with a dot: 1.0e+3, not 1e3)')
    number = number_within(value, low, high)
    if number is not None:
        return number
    raise SettingError(f'{what} must be a number from {low:g} to {high:g}, got {quote(value)}')


def check_vector(value: Any, what: str, size: int, limit: float = math.inf
                 ) -> Tuple[float, ...]:
    """
    Return ``value`` as a tuple of ``size`` finite floats of magnitude at most ``limit``.

    :raises SettingError: otherwise.
    """
    if _is_sequence(value) and len(value) == size:
        out = tuple(None if isinstance(item, str) else number_within(item, -limit, limit)
                    for item in value)
        if None not in out:
            return out
    bound = '' if math.isinf(limit) else f' of magnitude at most {limit:g}'
    raise SettingError(f'{what} must be a list of {size} finite numbers{bound}, got '
                       f'{quote(value)}')


def check_string(value: Any, what: str, limit: int = NAME_LIMIT, empty: bool = True) -> str:
    """
    Return ``value`` if it is a string of at most ``limit`` characters (non-empty if asked).

    :raises SettingError: otherwise.
    """
    if isinstance(value, str) and len(value) <= limit and (empty or value):
        return value
    need = 'a string' if empty else 'a non-empty string'
    raise SettingError(f'{what} must be {need} of at most {limit} characters, got '
                       f'{quote(value)}')


def check_choice(value: Any, what: str, choices: Tuple[str, ...]) -> str:
    """
    Return ``value`` if it is one of ``choices``.

    The rule of :func:`~frame_kinematics.core.checks.check_choice`, with this module's error.

    :raises SettingError: otherwise.
    """
    return checks.check_choice(value, what, choices, SettingError)


def check_quaternion(value: Any, what: str) -> Tuple[float, float, float, float]:
    """
    Return a unit quaternion ``[x, y, z, w]`` (normalised when within the tolerance).

    :raises SettingError: otherwise.
    """
    quat = check_vector(value, what, 4)
    try:
        return tuple(unit_quaternion(np.array(quat), f'{what} [x, y, z, w]').tolist())
    except ConfigurationError as exc:
        raise SettingError(str(exc)) from None


@dataclass(frozen=True)
class UserFrame:
    """
    A frame added by the user, fixed relative to its parent (mc_rbdyn's ``Frame``).

    :ivar name: frame name (must not clash with a link or another frame).
    :ivar parent: a link, a ``<link>_com`` frame or a user frame defined before it.
    :ivar xyz: ``parent_p_frame``.
    :ivar rpy: URDF roll-pitch-yaw of ``parent_R_frame``.
    :ivar baked: placed once relative to the reference link (the root link, or the floating
        joint's child when floating joints are skipped) from the first complete joint state,
        then no longer follows its parent.
    """

    name: str
    parent: str
    xyz: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    rpy: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    baked: bool = False

    def validated(self) -> 'UserFrame':
        """
        Check every field.

        :return: a copy with normalised values.
        :raises SettingError: naming the field at fault.
        """
        name = check_string(self.name, 'user frame name', empty=False)
        what = f"user frame '{name}'"
        return UserFrame(name, check_string(self.parent, f'{what} parent', empty=False),
                         check_vector(self.xyz, f'{what} xyz', 3, OFFSET_LIMIT),
                         check_vector(self.rpy, f'{what} rpy', 3, OFFSET_LIMIT),
                         check_bool(self.baked, f'{what} baked'))


def _validated_items(value: Any, what: str, kind: type, limit: int) -> Tuple[Any, ...]:
    """Check a list of settings items (``UserFrame``, ``ToolSetting``), each validated."""
    if not _is_sequence(value) or len(value) > limit:
        raise SettingError(f'{what} must be a list of at most {limit} {kind.__name__}, '
                           f'got {quote(value)}')
    items = []
    for item in value:
        if not isinstance(item, kind):
            raise SettingError(f'{what} must hold {kind.__name__} items, got {quote(item)}')
        items.append(item.validated())
    return tuple(items)


def _check_unique(names: Sequence[str], label: str) -> None:
    twice = first_repeated(names)
    if twice is not None:
        raise SettingError(f"{label} must be unique: '{twice}' is given twice")


def _user_frames(value: Any, what: str) -> Tuple[UserFrame, ...]:
    frames = _validated_items(value, what, UserFrame, USER_FRAME_LIMIT)
    _check_unique([frame.name for frame in frames], 'user frame names')
    return frames


@dataclass(frozen=True)
class ToolSetting:
    """
    A tool fixed after a tip link (rl::kin's ``tool(i)``): a link ``<tip>_tool`` unless named.

    :ivar tip: the link the tool is fixed to.
    :ivar xyz: ``tip_p_tool``.
    :ivar rpy: URDF roll-pitch-yaw of ``tip_R_tool``.
    :ivar name: the tool link's name ('' for ``<tip>_tool``).
    """

    tip: str
    xyz: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    rpy: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    name: str = ''

    @property
    def link_name(self) -> str:
        """Return the name of the tool link."""
        return self.name or tool_link_name(self.tip)

    def validated(self) -> 'ToolSetting':
        """
        Check every field.

        :return: a copy with normalised values.
        :raises SettingError: naming the field at fault.
        """
        tip = check_string(self.tip, 'tool tip', empty=False)
        what = f"tool of '{tip}'"
        return ToolSetting(tip, check_vector(self.xyz, f'{what} xyz', 3, OFFSET_LIMIT),
                           check_vector(self.rpy, f'{what} rpy', 3, OFFSET_LIMIT),
                           check_string(self.name, f'{what} name'))


def _tools(value: Any, what: str) -> Tuple[ToolSetting, ...]:
    tools = _validated_items(value, what, ToolSetting, TOOL_LIMIT)
    _check_unique([tool.tip for tool in tools], 'tips')
    _check_unique([tool.link_name for tool in tools], 'tool link names')
    return tools


def _frequency(value: Any, what: str) -> float:
    number = check_number(value, what, *FREQUENCY_RANGE)
    if 0.0 < number < MIN_PUBLISH_FREQUENCY:
        raise SettingError(f'{what} must be 0 (no interval) or from {MIN_PUBLISH_FREQUENCY:g} '
                           f'to {FREQUENCY_RANGE[1]:g} Hz, got {quote(value)}: a throttle '
                           'interval longer than the 2**31 s a stamp counts would never let a '
                           'message through')
    return number


def _frame_name(value: Any, what: str) -> str:
    return check_string(value, what, empty=False)


#: The check of each setting: ``attribute -> check(value, what)``.
CHECKS: Mapping[str, Callable[[Any, str], Any]] = MappingProxyType({
    'publish_frequency': _frequency,
    'ignore_timestamp': check_bool,
    'frame_prefix': check_string,
    'publish_joint_transforms': check_bool,
    'publish_fixed_transforms': check_bool,
    'publish_link_com_frames': check_bool,
    'publish_com_frame': check_bool,
    'publish_user_frames': check_bool,
    'publish_com_topics': check_bool,
    'publish_com_markers': check_bool,
    'com_frame': _frame_name,
    'com_orientation': lambda v, w: check_choice(v, w, COM_ORIENTATIONS),
    'com_quaternion': check_quaternion,
    'com_ypr': lambda v, w: check_vector(v, w, 3, OFFSET_LIMIT),
    'com_yaw_link': check_string,
    'floating_joints': lambda v, w: check_choice(v, w, FLOATING_JOINT_MODES),
    'user_frames': _user_frames,
    'tools': _tools,
    'world_frame': _frame_name,
    'world_xyz': lambda v, w: check_vector(v, w, 3, OFFSET_LIMIT),
    'world_rpy': lambda v, w: check_vector(v, w, 3, OFFSET_LIMIT),
    'singularity_threshold': lambda v, w: check_number(v, w, *THRESHOLD_RANGE),
    'warn_period': lambda v, w: check_number(v, w, *WARN_PERIOD_RANGE),
})


@dataclass(frozen=True)
class BridgeSettings:
    """
    Run-time settings of the bridge (the node's parameters other than the URDF).

    :ivar publish_frequency: maximum rate (Hz) of joint transforms per joint, 0 or
        :data:`MIN_PUBLISH_FREQUENCY` to 1000; 0: an interval of 0 (a message older than the
        last published stamp of its joints is not published).
    :ivar ignore_timestamp: publish every message whatever its stamp.
    :ivar frame_prefix: prepended to every frame id.
    :ivar publish_joint_transforms: movable joints on ``/tf``.
    :ivar publish_fixed_transforms: fixed joints on ``/tf_static``.
    :ivar publish_link_com_frames: ``<link>_com`` frames on ``/tf_static``.
    :ivar publish_com_frame: the robot CoM frame on ``/tf``.
    :ivar publish_user_frames: user frames on ``/tf_static``.
    :ivar publish_com_topics: CoM position, velocity and angular momentum topics.
    :ivar publish_com_markers: the CoM MarkerArray (:mod:`~frame_kinematics.bridge.markers`).
    :ivar com_frame: name of the robot CoM frame.
    :ivar com_orientation: ``root`` (axes of the root link), ``yaw`` (yaw of
        :attr:`com_yaw_link` about the root's z axis), ``ypr`` (:attr:`com_ypr`, root axes)
        or ``quaternion`` (:attr:`com_quaternion`, root axes).
    :ivar com_quaternion: ``[x, y, z, w]`` for the ``quaternion`` mode (normalised when its
        norm is within
        :data:`~frame_kinematics.core.transform_checks.QUATERNION_NORM_TOLERANCE` of 1).
    :ivar com_ypr: ``[yaw, pitch, roll]`` for the ``ypr`` mode.
    :ivar com_yaw_link: link whose yaw the ``yaw`` mode follows ('' for the base link: the
        child of a floating root joint, else the root link).
    :ivar floating_joints: one of :data:`FLOATING_JOINT_MODES`.
    :ivar user_frames: frames added by the user.
    :ivar tools: tools fixed after tip links, published as fixed frames; poses, Jacobians,
        the CoM and IK of the services see them as links.
    :ivar world_frame: name of the world link placed above the root link when
        :attr:`world_xyz` or :attr:`world_rpy` is not zero.
    :ivar world_xyz: position of the root link in the world.
    :ivar world_rpy: URDF roll-pitch-yaw of the root link in the world (when it and
        :attr:`world_xyz` are all zero, no world link is added).
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
    publish_com_markers: bool = True
    com_frame: str = 'com'
    com_orientation: str = 'root'
    com_quaternion: Tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)
    com_ypr: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    com_yaw_link: str = ''
    floating_joints: str = 'skip'
    user_frames: Tuple[UserFrame, ...] = ()
    tools: Tuple[ToolSetting, ...] = ()
    world_frame: str = 'world'
    world_xyz: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    world_rpy: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    singularity_threshold: float = SINGULARITY_THRESHOLD
    warn_period: float = 5.0

    def validated(self) -> 'BridgeSettings':
        """
        Check every value by type and range (those that do not depend on the model).

        :return: a copy with normalised values (floats, tuples, unit quaternion).
        :raises SettingError: naming the setting at fault.
        """
        values = {f.name: CHECKS[f.name](getattr(self, f.name), f.name)
                  for f in fields(self)}
        return replace(self, **values)

    @property
    def places_world(self) -> bool:
        """Whether a world link is placed above the root (a non-zero world placement)."""
        return any(self.world_xyz) or any(self.world_rpy)

    def placement(self) -> Tuple[Any, ...]:
        """
        Return the settings that shape the model: its tools and its world placement.

        :return: a tuple that compares equal exactly when the placed models are the same.
        """
        world = (self.world_frame, self.world_xyz, self.world_rpy) if self.places_world \
            else None
        return tuple(sorted(self.tools, key=lambda tool: tool.tip)), world
