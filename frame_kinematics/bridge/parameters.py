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
The node's parameters: names, defaults, checks, and how they make :class:`BridgeSettings`.

Parameters are flat (``publish.com_frame``, ``user_frames.camera.xyz``, as in
``config/frame_kinematics.yaml``). Only the names of :data:`PARAMETER_DEFAULTS`, the per-frame
names ``user_frames.<name>.parent|xyz|rpy|baked``, the per-tool names
``tools.<tip>.xyz|rpy|name`` and the parameters rclpy itself declares exist: any other name
is refused as robot_state_publisher refuses it. Each value is checked by type and range (the
checks of :mod:`frame_kinematics.bridge.settings`), whatever type a dynamically typed parameter
arrives with. A tool exists as soon as one of its parameters is set.

A user frame needs several parameters, which ``ros2 param set`` gives one at a time: a frame
listed in ``user_frames.names`` without its ``parent`` yet (or a frame whose parameters are
set but that is not listed yet) waits, with a warning, until its definition is complete.
"""

from dataclasses import fields
import functools
import re
from types import MappingProxyType
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from .qos import PREFIX, refuse_changes
from .settings import (BridgeSettings, check_bool, check_choice, check_string, check_vector,
                       CHECKS, OFFSET_LIMIT, SettingError, ToolSetting, USER_FRAME_LIMIT,
                       UserFrame)
from ..core.errors import quote

#: Parameter name -> :class:`BridgeSettings` attribute.
SETTING_OF: Mapping[str, str] = MappingProxyType({
    'publish_frequency': 'publish_frequency', 'ignore_timestamp': 'ignore_timestamp',
    'frame_prefix': 'frame_prefix',
    'publish.joint_transforms': 'publish_joint_transforms',
    'publish.fixed_transforms': 'publish_fixed_transforms',
    'publish.link_com_frames': 'publish_link_com_frames',
    'publish.com_frame': 'publish_com_frame',
    'publish.user_frames': 'publish_user_frames',
    'publish.com_topics': 'publish_com_topics',
    'publish.com_markers': 'publish_com_markers',
    'com.frame': 'com_frame', 'com.orientation': 'com_orientation',
    'com.quaternion': 'com_quaternion', 'com.ypr': 'com_ypr', 'com.yaw_link': 'com_yaw_link',
    'floating_joints': 'floating_joints',
    'singularity_threshold': 'singularity_threshold',
    'warn_throttle_period': 'warn_period',
    'world.frame': 'world_frame', 'world.xyz': 'world_xyz', 'world.rpy': 'world_rpy',
})

_DEFAULT_SETTINGS = BridgeSettings()

#: The node's parameters and their defaults (``config/frame_kinematics.yaml`` documents them);
#: user frames add ``user_frames.<name>.parent|xyz|rpy|baked`` for each listed name.
#: ``user_frames.names`` is ``['']`` by default (ROS cannot declare an empty list whose type
#: is known); empty names are ignored.
PARAMETER_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    'robot_description': '',
    **{name: (list(getattr(_DEFAULT_SETTINGS, attr))
              if isinstance(getattr(_DEFAULT_SETTINGS, attr), tuple)
              else getattr(_DEFAULT_SETTINGS, attr))
       for name, attr in SETTING_OF.items()},
    'user_frames.names': [''],
    'robot_description_semantic': '',
    'moveit.compute_ik_service': 'compute_ik',
    'moveit.compute_fk_service': 'compute_fk',
    'tf_serialization': 'cdr',
    'joint_states_serialization': 'cdr',
    'joint_states_intake': 'batches',
})

#: Ways to serialize ``/tf`` and read ``joint_states``: rclpy's message objects, or the byte
#: writer and reader of :mod:`frame_kinematics.ros.tf_cdr` and
#: :mod:`frame_kinematics.ros.joint_state_cdr` (used only as far as they agree with rclpy's
#: own serialization).
TF_SERIALIZATIONS = ('messages', 'cdr')
#: How the ``/tf`` path takes ``joint_states``: the queued messages after each wake-up of its
#: executor (:mod:`frame_kinematics.bridge.intake`), or one message per wake-up.
JOINT_STATES_INTAKES = ('batches', 'executor')
#: Parameters the node reads at start-up only: a change at run time is refused.
START_ONLY = ('moveit.compute_ik_service', 'moveit.compute_fk_service', 'tf_serialization',
              'joint_states_serialization', 'joint_states_intake')
_SERVICE_NAME = re.compile(r'~?/?[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*\Z')

#: Defaults of the per-frame parameters ``user_frames.<name>.<key>``.
USER_FRAME_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    'parent': '', 'xyz': [0.0, 0.0, 0.0], 'rpy': [0.0, 0.0, 0.0], 'baked': False,
})

#: Defaults of the per-tool parameters ``tools.<tip>.<key>``: a tool exists as soon as one of
#: them is set (``name`` '' is ``<tip>_tool``).
TOOL_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    'xyz': [0.0, 0.0, 0.0], 'rpy': [0.0, 0.0, 0.0], 'name': '',
})

#: Parameters rclpy declares on every node: accepted as they are (rclpy checks them).
ROS_PARAMETERS = ('use_sim_time', 'start_type_description_service')


class ParameterError(SettingError):
    """A node parameter that does not exist, or whose value is refused."""


def _names(value: Any, what: str) -> Tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not hasattr(value, '__iter__') or \
            not hasattr(value, '__len__') or len(value) > USER_FRAME_LIMIT + 1:
        raise ParameterError(f'{what} must be a list of at most {USER_FRAME_LIMIT} frame '
                             f'names, got {quote(value)}')
    names = []
    for item in value:
        if item == '':
            continue
        names.append(check_string(item, f'{what} entry', empty=False))
    if len(set(names)) != len(names):
        raise ParameterError(f'{what} must not repeat a name, got {quote(list(value))}')
    return tuple(names)


_FRAME_CHECKS: Mapping[str, Callable[[Any, str], Any]] = MappingProxyType({
    'parent': check_string,
    'xyz': lambda v, w: check_vector(v, w, 3, OFFSET_LIMIT),
    'rpy': lambda v, w: check_vector(v, w, 3, OFFSET_LIMIT),
    'baked': check_bool,
})


def is_ros_parameter(name: str) -> bool:
    """Whether ``name`` is one of rclpy's own parameters (not the bridge's)."""
    return name in ROS_PARAMETERS or name.startswith(PREFIX)


def own_parameters(values: Mapping[str, Any]) -> Tuple[Dict[str, Any], Tuple[str, ...]]:
    """
    Split the parameters a node starts with into its own and those of other nodes.

    A parameters file shared by several nodes (a ``/**`` section) names parameters of the
    others: robot_state_publisher ignores them at start-up, and so does this node (a name set
    later, with ``ros2 param set``, is refused by :func:`check_parameter`).

    :param values: ``{name: value}`` the node was started with.
    :return: ``(its own parameters, rclpy's included; the other names, sorted)``.
    """
    own, others = {}, []
    for name, value in values.items():
        if _checker(name) is not None or is_ros_parameter(name):
            own[name] = value
        else:
            others.append(name)
    return own, tuple(sorted(others))


def split_frame_parameter(name: str) -> Optional[Tuple[str, str]]:
    """
    Split ``user_frames.<frame>.<key>`` into ``(frame, key)``.

    :param name: a parameter name.
    :return: the pair, or None when ``name`` is not a per-frame parameter.
    """
    if not name.startswith('user_frames.') or name == 'user_frames.names':
        return None
    frame, _, key = name[len('user_frames.'):].rpartition('.')
    if not frame or key not in USER_FRAME_DEFAULTS:
        return None
    return frame, key


def split_tool_parameter(name: str) -> Optional[Tuple[str, str]]:
    """
    Split ``tools.<tip>.<key>`` into ``(tip, key)``.

    :param name: a parameter name.
    :return: the pair, or None when ``name`` is not a per-tool parameter.
    """
    if not name.startswith('tools.'):
        return None
    tip, _, key = name[len('tools.'):].rpartition('.')
    if not tip or key not in TOOL_DEFAULTS:
        return None
    return tip, key


def _service_name(value: Any, what: str) -> str:
    name = check_string(value, what, empty=False)
    if not _SERVICE_NAME.match(name):
        raise ParameterError(f'{what} must be a ROS service name (letters, digits, _ and /, '
                             f'not starting with a digit), got {quote(value)}')
    return name


def _document(value: Any, what: str, kind: str) -> str:
    if not isinstance(value, str):
        raise ParameterError(f'{what} must be a string ({kind}), got {quote(value)}')
    return value


#: Checks of the node's own parameters (not settings of the bridge).
_NODE_CHECKS: Mapping[str, Callable[[Any, str], Any]] = MappingProxyType({
    'robot_description': lambda v, w: _document(v, w, 'URDF'),
    'robot_description_semantic': lambda v, w: _document(v, w, 'SRDF'),
    'moveit.compute_ik_service': _service_name,
    'moveit.compute_fk_service': _service_name,
    'tf_serialization': lambda v, w: check_choice(v, w, TF_SERIALIZATIONS),
    'joint_states_serialization': lambda v, w: check_choice(v, w, TF_SERIALIZATIONS),
    'joint_states_intake': lambda v, w: check_choice(v, w, JOINT_STATES_INTAKES),
})


_TOOL_CHECKS: Mapping[str, Callable[[Any, str], Any]] = MappingProxyType({
    'xyz': _FRAME_CHECKS['xyz'], 'rpy': _FRAME_CHECKS['rpy'], 'name': check_string,
})


def _keyed(what: str, owner_key: Tuple[str, str],
           checks: Mapping[str, Callable[[Any, str], Any]], value: Any, name: str) -> Any:
    """Check the owner named in a per-frame or per-tool parameter, then its value."""
    check_string(owner_key[0], what, empty=False)
    return checks[owner_key[1]](value, name)


def _checker(name: str) -> Optional[Callable[[Any, str], Any]]:
    """
    Return the check of one of the node's own parameters.

    :param name: a parameter name.
    :return: ``check(value, name)`` giving the normalised value, or None when ``name`` is not
        a parameter of the node (rclpy's own included).
    """
    if name in _NODE_CHECKS:
        return _NODE_CHECKS[name]
    if name == 'user_frames.names':
        return _names
    if name in SETTING_OF:
        return CHECKS[SETTING_OF[name]]
    frame_key = split_frame_parameter(name)
    if frame_key is not None:
        return functools.partial(_keyed, 'user frame name', frame_key, _FRAME_CHECKS)
    tool_key = split_tool_parameter(name)
    if tool_key is not None:
        return functools.partial(_keyed, 'tool tip', tool_key, _TOOL_CHECKS)
    return None


def check_parameter(name: Any, value: Any) -> Any:
    """
    Check one parameter by name, type and range.

    :param name: the parameter name.
    :param value: its value (any type: dynamically typed parameters are checked here).
    :return: the normalised value (floats for numbers, tuples for lists).
    :raises ParameterError: for a name that is not a parameter of the node (the message of
        robot_state_publisher), or a value of the wrong type or out of range, naming it.
    """
    if not isinstance(name, str) or len(name) > 2 * 256:
        raise ParameterError(f'parameter {quote(name)} cannot be set because it was not '
                             'declared')
    check = _checker(name)
    if check is None:
        raise ParameterError(f'parameter {quote(name)} cannot be set because it was not '
                             'declared')
    try:
        return check(value, name)
    except ParameterError:
        raise
    except SettingError as exc:
        raise ParameterError(str(exc)) from None


class ParameterValues:
    """
    The bridge's current parameters, checked and normalised (immutable).

    :param values: ``{name: value}``; each is checked with :func:`check_parameter`. Missing
        names take their defaults; rclpy's own parameters are ignored.
    :raises ParameterError: for an unknown name or a bad value (the first one met).
    """

    def __init__(self, values: Mapping[str, Any] = MappingProxyType({})) -> None:
        checked = {name: check_parameter(name, default) if name != 'robot_description'
                   else default for name, default in PARAMETER_DEFAULTS.items()}
        for name, value in values.items():
            if isinstance(name, str) and is_ros_parameter(name):
                continue
            checked[name] = check_parameter(name, value)
        self._values = MappingProxyType(checked)

    @property
    def values(self) -> Mapping[str, Any]:
        """Return every parameter (read-only mapping)."""
        return self._values

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def changed(self, changes: Mapping[str, Any]) -> 'ParameterValues':
        """
        Return the parameters with some of them changed; this object does not change.

        :param changes: ``{name: value}``.
        :return: new parameters: these with ``changes`` applied (each checked).
        :raises ParameterError: for an unknown name or a bad value, or a change of a
            parameter read at start-up only (:data:`START_ONLY`).
        :raises QoSOverrideError: for a change of a QoS override (read-only).
        """
        refuse_changes(changes)
        merged = dict(self._values)
        merged.update(changes)
        values = ParameterValues(merged)
        for name in START_ONLY:
            if values[name] != self._values[name]:
                raise ParameterError(f'{name} is read at start-up only: restart the node to '
                                     'change it')
        return values

    @classmethod
    def from_settings(cls, settings: BridgeSettings, urdf: str) -> 'ParameterValues':
        """
        Return the parameters that give ``settings`` and ``urdf``.

        :param settings: validated settings.
        :param urdf: the robot description.
        :return: the parameters (``robot_description``, the settings' parameters and those of
            each user frame and tool).
        """
        values: Dict[str, Any] = {'robot_description': urdf}
        for name, attr in SETTING_OF.items():
            values[name] = getattr(settings, attr)
        values['user_frames.names'] = [f.name for f in settings.user_frames] or ['']
        for frame in settings.user_frames:
            for key in USER_FRAME_DEFAULTS:
                values[f'user_frames.{frame.name}.{key}'] = getattr(frame, key)
        for tool in settings.tools:
            for key in TOOL_DEFAULTS:
                values[f'tools.{tool.tip}.{key}'] = getattr(tool, key)
        return cls(values)

    def settings(self) -> Tuple[BridgeSettings, List[str]]:
        """
        Build the settings; user frames whose definition is not complete wait.

        :return: the settings (checked by type and range) and one warning per waiting frame.
        """
        values = self._values
        attrs = {attr: values[name] for name, attr in SETTING_OF.items()}
        listed = values['user_frames.names']
        frames = []
        waiting = []
        for name in listed:
            parent = values.get(f'user_frames.{name}.parent', '')
            if not parent:
                waiting.append(f"user frame '{name}' waits for its parameter "
                               f"'user_frames.{name}.parent'")
                continue
            frames.append(UserFrame(
                name, parent,
                values.get(f'user_frames.{name}.xyz', (0.0, 0.0, 0.0)),
                values.get(f'user_frames.{name}.rpy', (0.0, 0.0, 0.0)),
                values.get(f'user_frames.{name}.baked', False)))
        listed_set = set(listed)
        unlisted = sorted({key[0] for key in map(split_frame_parameter, values)
                           if key is not None and key[0] not in listed_set})
        waiting.extend(f"user frame '{name}' has parameters but is not in user_frames.names: "
                       'it waits until it is listed' for name in unlisted)
        attrs['user_frames'] = tuple(frames)
        attrs['tools'] = self._tools()
        names = {f.name for f in fields(BridgeSettings)}
        return BridgeSettings(**{k: v for k, v in attrs.items() if k in names}), waiting

    def _tools(self) -> Tuple[ToolSetting, ...]:
        tips: Dict[str, Dict[str, Any]] = {}
        for name, value in self._values.items():
            tool_key = split_tool_parameter(name)
            if tool_key is not None:
                tips.setdefault(tool_key[0], {})[tool_key[1]] = value
        return tuple(ToolSetting(tip, **tips[tip]) for tip in sorted(tips))


def settings_from_parameters(params: Mapping[str, Any],
                             base: Optional[BridgeSettings] = None) -> BridgeSettings:
    """
    Build settings from the node's flat parameters (as ``config/frame_kinematics.yaml``).

    :param params: ``{parameter name: value}``; missing parameters keep the values of
        ``base`` (default: the defaults).
    :param base: the settings that missing parameters keep.
    :return: validated settings; user frames whose definition is incomplete are left out.
    :raises ParameterError: for an unknown parameter or a bad value.
    """
    start = ParameterValues.from_settings(base, '') if base is not None else ParameterValues()
    return start.changed(params).settings()[0].validated()
