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
What a planning group of an SRDF means on a robot model, as MoveIt reads it.

* a ``<chain base_link tip_link>`` holds the links from the tip up to the base and the joints
  between them (the base's own parent joint excluded); a chain whose base is not above its tip
  goes through their common ancestor;
* a ``<joint>`` holds the joint and its child link; a ``<link>`` holds the link and its parent
  joint; a ``<group>`` holds everything of that subgroup;
* the active joints are the group's joints that move and are not mimic joints (the SRDF's
  virtual joints are not joints of the URDF: they place the model frame, see
  :func:`model_frame`);
* the tips (what IK places when a request names no link) are the parent links of the end
  effectors attached to the group, else the tips of its chains, else the tips of its
  subgroups (in SRDF order), else its last link in the model's order.
"""

from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

from ..core.errors import SRDFError
from ..core.joints import JointType
from ..core.model import RobotModel
from ..core.srdf import Group, SemanticDescription


@dataclass(frozen=True)
class GroupKinematics:
    """
    A planning group resolved on a model.

    :ivar name: the group name.
    :ivar joints: the model joints of the group, in model order.
    :ivar active_joints: those IK may move (movable, not mimic), in model order.
    :ivar links: the links of the group, in model order.
    :ivar tips: the links IK places by default.
    """

    name: str
    joints: Tuple[str, ...]
    active_joints: Tuple[str, ...]
    links: Tuple[str, ...]
    tips: Tuple[str, ...]


def _up(model: RobotModel, link: str) -> List[str]:
    """Return ``link`` and its ancestors, up to the root link."""
    path = []
    current = link
    while current:
        path.append(current)
        current = model.link(current).parent or ''
    return path


def _known_link(model: RobotModel, name: str, where: str) -> str:
    if not model.has_link(name):
        raise SRDFError(f"unknown link '{name}' on robot '{model.name}'", where)
    return name


def _chain(model: RobotModel, base: str, tip: str, where: str,
           joints: Set[str], links: Set[str]) -> None:
    tip_up = _up(model, _known_link(model, tip, where))
    base_up = _up(model, _known_link(model, base, where))
    on_base = set(base_up)
    common = next(link for link in tip_up if link in on_base)
    for path in (tip_up, base_up):
        for link in path[:path.index(common)]:
            links.add(link)
            joints.add(model.link(link).parent_joint)
    links.add(common)


def _collect(semantic: SemanticDescription, model: RobotModel, group: Group,
             joints: Set[str], links: Set[str], seen: Set[str]) -> None:
    seen.add(group.name)
    where = f"group '{group.name}'"
    virtual = {joint.name for joint in semantic.virtual_joints}
    for base, tip in group.chains:
        _chain(model, base, tip, where, joints, links)
    names = set(model.joint_names) | {joint.name for joint in model.joints}
    for name in group.joints:
        if name in virtual:
            continue
        if name not in names:
            raise SRDFError(f"unknown joint '{name}' on robot '{model.name}'", where)
        joints.add(name)
        links.add(model.joint(name).child)
    for name in group.links:
        links.add(_known_link(model, name, where))
        parent_joint = model.link(name).parent_joint
        if parent_joint:
            joints.add(parent_joint)
    for sub in group.subgroups:
        if sub not in seen:
            _collect(semantic, model, semantic.group(sub), joints, links, seen)


def _tips(semantic: SemanticDescription, model: RobotModel, group: Group,
          links: Tuple[str, ...], resolved: Dict[str, GroupKinematics]) -> Tuple[str, ...]:
    attached = [e.parent_link for e in semantic.end_effectors
                if e.parent_group == group.name
                or (e.parent_group is None and e.parent_link in links)]
    if not attached:
        attached = [tip for _, tip in group.chains]
    if not attached and group.subgroups and not group.joints and not group.links:
        for sub in group.subgroups:
            attached.extend(resolve_group(semantic, model, sub, resolved).tips)
    if not attached and links:
        attached = [links[-1]]
    return tuple(dict.fromkeys(attached))


def resolve_group(semantic: SemanticDescription, model: RobotModel, name: str,
                  resolved: Dict[str, GroupKinematics] = None) -> GroupKinematics:
    """
    Resolve a planning group on a model.

    :param semantic: the SRDF.
    :param model: the robot model.
    :param name: the group name.
    :param resolved: groups already resolved in this call (filled; for subgroups).
    :return: the group's joints, active joints, links and tips.
    :raises SRDFError: for an unknown group, or a group naming a link or joint the model
        does not have.
    """
    resolved = {} if resolved is None else resolved
    if name in resolved:
        return resolved[name]
    group = semantic.group(name)
    joints: Set[str] = set()
    links: Set[str] = set()
    _collect(semantic, model, group, joints, links, set())
    joint_order = [joint.name for joint in model.joints if joint.name in joints]
    active = tuple(joint.name for joint in model.joints if joint.name in joints
                   and joint.is_actuated and joint.type is not JointType.FIXED)
    link_order = tuple(link for link in model.link_names if link in links)
    result = GroupKinematics(name, tuple(joint_order), active, link_order,
                             _tips(semantic, model, group, link_order, resolved))
    resolved[name] = result
    return result


def model_frame(semantic: Optional[SemanticDescription], model: RobotModel) -> str:
    """
    Return MoveIt's model frame: the parent frame of the virtual joint above the root link.

    :param semantic: the SRDF (None: the node has none).
    :param model: the robot model.
    :return: that frame, or the root link when no SRDF or virtual joint holds the root link.
    """
    for joint in () if semantic is None else semantic.virtual_joints:
        if joint.child_link == model.root_link:
            return joint.parent_frame
    return model.root_link


__all__ = ['GroupKinematics', 'model_frame', 'resolve_group']
