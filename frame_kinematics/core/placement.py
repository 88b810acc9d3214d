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
Tools and world placement (rl::kin's ``tool(i)`` and ``world()``) as links of a new model.

Rather than a transform threaded through every algorithm, :func:`place` returns a new model in
which each tool is a link fixed to its tip (``<tip>_tool`` unless named) and, when asked, a
world link stands above the root, joined by a fixed joint at ``world_T_root``. Forward
kinematics, Jacobians of the tool point, the center of mass in the world frame and inverse
kinematics of the tool are then consistent by construction: they are those of the new links.

The configuration layout does not change (only fixed joints are added), so configurations of
the original model are configurations of the placed one. The placed model keeps the original
URDF text (its added links have no geometry).
"""

from typing import Dict, List, Mapping, Optional

import numpy as np

from .errors import ConfigurationError, excerpt, quote, URDFError
from .model import RobotModel
from .robot import Robot
from .transform_checks import check_pose
from .urdf import (Inertial, JointDescription, LinkDescription, MAX_NAME_LENGTH, Mimic,
                   RobotDescription)

__all__ = ['place', 'tool_link_name']


def tool_link_name(tip: str) -> str:
    """
    Return the default name of the tool link of a tip.

    :param tip: the tip link.
    :return: ``<tip>_tool``.
    """
    return f'{tip}_tool'


def _description(model: RobotModel) -> RobotDescription:
    """Return the model's links and joints as a description that assembles into it again."""
    links = []
    for link in model.links:
        inertial = None
        if link.has_inertial:
            link_T_com = np.eye(4)
            link_T_com[:3, 3] = link.link_p_com
            inertial = Inertial(link.mass, link_T_com, np.array(link.inertia))
        links.append(LinkDescription(link.name, inertial))
    joints = []
    for joint in model.joints:
        mimic = None if joint.mimic is None else Mimic(*joint.mimic)
        joints.append(JointDescription(joint.name, joint.type.value, joint.parent, joint.child,
                                       np.array(joint.parent_T_joint), np.array(joint.axis),
                                       joint.lower, joint.upper, joint.velocity, joint.effort,
                                       mimic))
    return RobotDescription(model.name, tuple(links), tuple(joints))


def _fixed(name: str, parent: str, child: str, parent_T_child: np.ndarray) -> JointDescription:
    return JointDescription(name, 'fixed', parent, child, parent_T_child,
                            np.array([1.0, 0.0, 0.0]))


def place(model: RobotModel, tools: Optional[Mapping[str, object]] = None,
          world_T_root=None, world: str = 'world',
          tool_names: Optional[Mapping[str, str]] = None,
          backend: Optional[str] = None) -> Robot:
    """
    Return a new robot with tool links after tips and a world link above the root.

    Each tool link ``<name>`` hangs from its tip by a fixed joint ``<name>_joint`` at
    ``tip_T_tool``; the world link hangs the old root from itself by a fixed joint
    ``<world>_joint`` at ``world_T_root``. The original model does not change.

    :param model: the model to place.
    :param tools: ``{tip link: tip_T_tool}`` (4x4 rigid transforms); None or empty: no tool.
    :param world_T_root: pose of the root link in the world (4x4); None: no world link.
    :param world: name of the world link.
    :param tool_names: ``{tip link: tool link name}`` for tools not called ``<tip>_tool``.
    :param backend: the new robot's backend (default: the model's when it is a
        :class:`~frame_kinematics.core.robot.Robot`, else the process default).
    :return: the new :class:`~frame_kinematics.core.robot.Robot` (same name, configuration
        layout and URDF text).
    :raises UnknownFrameError: for a tip (or a ``tool_names`` key) that is not a link.
    :raises ConfigurationError: for ``tools`` or ``tool_names`` that is neither None nor a
        mapping, or a transform that is not rigid or not finite.
    :raises URDFError: for an added link or joint whose name is taken, or an empty name.
    """
    tools = _mapping(tools, 'tools', '{tip link: tip_T_tool}')
    tool_names = _mapping(tool_names, 'tool_names', '{tip link: tool link name}')
    for tip in list(tools) + list(tool_names):
        model.link_index(tip)
    for tip in tool_names:
        if tip not in tools:
            raise ConfigurationError(f"tool_names names tip '{tip}', which has no tool")
    description = _description(model)
    tool_links, tool_joints = [], []
    for tip, pose in tools.items():
        name = tool_names.get(tip, tool_link_name(tip))
        tip_T_tool = check_pose(pose, f"tip_T_tool of tip '{tip}'")
        tool_links.append(LinkDescription(name))
        tool_joints.append(_fixed(f'{name}_joint', tip, name, tip_T_tool))
    world_links, world_joints = [], []
    if world_T_root is not None:
        world_links.append(LinkDescription(world))
        world_joints.append(_fixed(f'{world}_joint', world, model.root_link,
                                   check_pose(world_T_root, 'world_T_root')))
    _check_names(model, world_links + tool_links, world_joints + tool_joints)
    placed = RobotDescription(
        model.name, tuple(world_links) + description.links + tuple(tool_links),
        tuple(world_joints) + description.joints + tuple(tool_joints))
    if backend is None and isinstance(model, Robot):
        backend = model.backend
    return Robot(placed, backend, urdf=model.urdf)


def _mapping(value, name: str, shape: str) -> Dict:
    """
    Read an optional mapping given to :func:`place`.

    :param value: None, a mapping, or ``(key, value)`` pairs (what ``dict`` takes).
    :param name: the argument's name, for the message.
    :param shape: what it maps, for the message.
    :return: a new dict (empty for None).
    :raises ConfigurationError: for anything else (a string, a bool), or items that cannot be
        read.
    """
    if value is None:
        return {}
    if not isinstance(value, (str, bytes)):
        try:
            return dict(value)
        except Exception:  # not pairs, or a user's mapping whose keys or items fail
            pass
    raise ConfigurationError(f'{name} must be None, a mapping {shape} or its (key, value) '
                             f'pairs, got {type(value).__name__} {quote(value)}')


def _check_names(model: RobotModel, links: List[LinkDescription],
                 joints: List[JointDescription]) -> None:
    taken_links = set(model.link_names)
    taken_joints = {joint.name for joint in model.joints}
    for link in links:
        if not isinstance(link.name, str) or not 0 < len(link.name) <= MAX_NAME_LENGTH:
            raise URDFError(f'an added link needs a name of 1 to {MAX_NAME_LENGTH} characters, '
                            f'got {excerpt(repr(link.name))}')
        if link.name in taken_links:
            raise URDFError(f"cannot add link '{link.name}': the robot has a link of that "
                            'name')
        taken_links.add(link.name)
    for joint in joints:
        if joint.name in taken_joints:
            raise URDFError(f"cannot add joint '{joint.name}': the robot has a joint of that "
                            'name')
        taken_joints.add(joint.name)
