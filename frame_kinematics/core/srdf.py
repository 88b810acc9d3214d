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
A ROS-free reader of MoveIt's semantic robot description (SRDF).

Reads the groups (chains, joints, links, subgroups), the named group states, the end
effectors, the virtual and passive joints and the pairs of links whose collisions are disabled
(``<disable_collisions link1 link2 reason/>``). The document is read as a URDF is: bounded in
size, decoded by the same rules and parsed by
:func:`~frame_kinematics.core.xml_elements.parse_elements` (no DOCTYPE, no entities). Every
name is checked when read; :meth:`SemanticDescription.check_against` checks that the names it
uses exist in a model.
"""

from dataclasses import dataclass
import math
import os
from types import MappingProxyType
from typing import Dict, Iterable, Optional, Tuple, Type, Union

from .checks import as_names, as_path, first_repeated, MAX_MAGNITUDE, parse_number
from .errors import excerpt, name_list, SRDFError, URDFError
from .urdf import MAX_NAME_LENGTH
from .urdf_source import decode_document, read_urdf_file
from .xml_elements import Element, parse_elements

__all__ = ['DisabledCollision', 'EndEffector', 'Group', 'GroupState', 'load_srdf',
           'read_srdf_file', 'SemanticDescription', 'VirtualJoint']

#: The elements read, by parent; every one of them is kept, however often it repeats.
_READ = MappingProxyType({
    'robot': ('group', 'group_state', 'end_effector', 'virtual_joint', 'passive_joint',
              'disable_collisions'),
    'group': ('chain', 'joint', 'link', 'group'), 'group_state': ('joint',)})


@dataclass(frozen=True)
class Group:
    """
    A ``<group>``: a set of joints and links named for planning.

    :ivar chains: ``(base_link, tip_link)`` of each ``<chain>``.
    :ivar joints: names of its ``<joint>`` elements.
    :ivar links: names of its ``<link>`` elements.
    :ivar subgroups: names of the groups it includes.
    """

    name: str
    chains: Tuple[Tuple[str, str], ...]
    joints: Tuple[str, ...]
    links: Tuple[str, ...]
    subgroups: Tuple[str, ...]


@dataclass(frozen=True)
class GroupState:
    """
    A ``<group_state>``: named joint values of a group.

    :ivar values: ``(joint name, values)``; one number for one-dof joints, more for others.
    """

    name: str
    group: str
    values: Tuple[Tuple[str, Tuple[float, ...]], ...]


@dataclass(frozen=True)
class EndEffector:
    """An ``<end_effector>``: a group attached after ``parent_link`` (of ``parent_group``)."""

    name: str
    group: str
    parent_link: str
    parent_group: Optional[str]


@dataclass(frozen=True)
class VirtualJoint:
    """A ``<virtual_joint>``: how ``child_link`` (a root) stands in ``parent_frame``."""

    name: str
    type: str  # noqa: A003 (the SRDF attribute name)
    parent_frame: str
    child_link: str


@dataclass(frozen=True)
class DisabledCollision:
    """A ``<disable_collisions>``: a pair of links never tested (``reason`` may be empty)."""

    link1: str
    link2: str
    reason: str


@dataclass(frozen=True)
class SemanticDescription:
    """The parsed SRDF, every element in document order."""

    name: str
    groups: Tuple[Group, ...]
    group_states: Tuple[GroupState, ...]
    end_effectors: Tuple[EndEffector, ...]
    virtual_joints: Tuple[VirtualJoint, ...]
    passive_joints: Tuple[str, ...]
    disabled_collisions: Tuple[DisabledCollision, ...]

    def group(self, name: str) -> Group:
        """
        Return the group called ``name``.

        :param name: the group name.
        :return: the group.
        :raises SRDFError: if there is no such group.
        """
        for group in self.groups:
            if group.name == name:
                return group
        shown = name_list(g.name for g in self.groups) or 'none'
        raise SRDFError(f"unknown group '{excerpt(str(name))}' (known: {shown})")

    def check_against(self, link_names: Iterable[str], joint_names: Iterable[str]) -> None:
        """
        Check that every link, joint and group the description names exists.

        Virtual joints count as joints of the model (groups may name them).

        :param link_names: the model's links (a collection of names).
        :param joint_names: the model's joints (a collection of names).
        :raises SRDFError: naming the element and the unknown name.
        :raises ConfigurationError: if ``link_names`` or ``joint_names`` is not a collection of
            names (one str, None, a number, items that are not strs).
        """
        links = set(as_names(link_names, 'link_names must be a collection of names'))
        joints = set(as_names(joint_names, 'joint_names must be a collection of names')) | \
            {joint.name for joint in self.virtual_joints}
        groups = {group.name for group in self.groups}

        def known(name: str, names: set, kind: str, where: str) -> None:
            if name not in names:
                raise SRDFError(f"unknown {kind} '{excerpt(name)}'", where)

        for group in self.groups:
            where = f"group '{group.name}'"
            for base, tip in group.chains:
                known(base, links, 'link', where)
                known(tip, links, 'link', where)
            for link in group.links:
                known(link, links, 'link', where)
            for joint in group.joints:
                known(joint, joints, 'joint', where)
            for sub in group.subgroups:
                known(sub, groups, 'group', where)
        self._check_no_cycle()
        for state in self.group_states:
            where = f"group_state '{state.name}'"
            known(state.group, groups, 'group', where)
            for joint, _ in state.values:
                known(joint, joints, 'joint', where)
        for effector in self.end_effectors:
            where = f"end_effector '{effector.name}'"
            known(effector.group, groups, 'group', where)
            known(effector.parent_link, links, 'link', where)
            if effector.parent_group is not None:
                known(effector.parent_group, groups, 'group', where)
        for virtual in self.virtual_joints:
            known(virtual.child_link, links, 'link', f"virtual_joint '{virtual.name}'")
        for passive in self.passive_joints:
            known(passive, joints, 'joint', 'passive_joint')
        for pair in self.disabled_collisions:
            where = f"disable_collisions '{pair.link1}' '{pair.link2}'"
            known(pair.link1, links, 'link', where)
            known(pair.link2, links, 'link', where)

    def _check_no_cycle(self) -> None:
        subgroups = {group.name: group.subgroups for group in self.groups}
        done = set()
        for start in subgroups:
            path, on_path = [start], {start}
            stack = [(start, iter(subgroups[start]))]
            while stack:
                name, rest = stack[-1]
                sub = next(rest, None)
                if sub is None:
                    stack.pop()
                    on_path.discard(path.pop())
                    done.add(name)
                elif sub in on_path:
                    cycle = ' -> '.join(path[path.index(sub):] + [sub])
                    raise SRDFError(f'subgroups form a cycle: {cycle}', f"group '{sub}'")
                elif sub not in done:
                    on_path.add(sub)
                    path.append(sub)
                    stack.append((sub, iter(subgroups[sub])))


def _name(element: Element, attribute: str, where: Optional[str], required: bool = True
          ) -> Optional[str]:
    value = element.attrib.get(attribute)
    if value is None and not required:
        return None
    if not value:
        raise SRDFError(f"<{element.tag}> without a '{attribute}' attribute", where)
    if len(value) > MAX_NAME_LENGTH:
        raise SRDFError(f"{attribute} '{excerpt(value)}' is longer than {MAX_NAME_LENGTH} "
                        'characters', where)
    return value


def _values(element: Element, where: str) -> Tuple[float, ...]:
    text = element.attrib.get('value')
    if text is None:
        raise SRDFError("<joint> without a 'value' attribute", where)
    parts = text.split(maxsplit=7)
    if not 1 <= len(parts) <= 7:
        raise SRDFError(f"value needs 1 to 7 numbers, got '{excerpt(text)}'", where)
    try:
        values = tuple(parse_number(part) for part in parts)
    except ValueError:
        raise SRDFError(f"value is not a number list: '{excerpt(text)}'", where) from None
    if not all(math.isfinite(v) and abs(v) <= MAX_MAGNITUDE for v in values):
        raise SRDFError(f"value '{excerpt(text)}' is not finite or exceeds {MAX_MAGNITUDE:g}",
                        where)
    return values


def _group(element: Element) -> Group:
    name = _name(element, 'name', None)
    where = f"group '{excerpt(name)}'"
    chains, joints, links, subgroups = [], [], [], []
    for child in element.children:
        if child.tag == 'chain':
            chains.append((_name(child, 'base_link', where), _name(child, 'tip_link', where)))
        else:
            {'joint': joints, 'link': links, 'group': subgroups}[child.tag].append(
                _name(child, 'name', where))
    return Group(name, tuple(chains), tuple(joints), tuple(links), tuple(subgroups))


def _group_state(element: Element) -> GroupState:
    name = _name(element, 'name', None)
    where = f"group_state '{excerpt(name)}'"
    values = []
    for child in element.children:
        joint = _name(child, 'name', where)
        values.append((joint, _values(child, f"{where} joint '{excerpt(joint)}'")))
    return GroupState(name, _name(element, 'group', where), tuple(values))


def _unique(names: Iterable[str], what: str) -> None:
    twice = first_repeated(names)
    if twice is not None:
        raise SRDFError(f"two {what}s are named '{excerpt(twice)}'")


def _named(element: Element, kind: Type, required: Tuple[str, ...], optional: str = ''):
    """Read an element of a name, ``required`` attributes and an ``optional`` last one."""
    name = _name(element, 'name', None)
    where = f"{element.tag} '{excerpt(name)}'"
    values = [_name(element, attribute, where) for attribute in required]
    if optional:
        values.append(_name(element, optional, where, required=False))
    return kind(name, *values)


def _described(root: Element) -> SemanticDescription:
    if root.tag != 'robot':
        raise SRDFError(f'the root element must be <robot>, got <{excerpt(root.tag)}>')
    found: Dict[str, list] = {tag: [] for tag in _READ['robot']}
    for element in root.children:
        found[element.tag].append(element)
    groups = tuple(_group(e) for e in found['group'])
    _unique((g.name for g in groups), 'group')
    effectors = tuple(_named(e, EndEffector, ('group', 'parent_link'), 'parent_group')
                      for e in found['end_effector'])
    virtuals = tuple(_named(e, VirtualJoint, ('type', 'parent_frame', 'child_link'))
                     for e in found['virtual_joint'])
    pairs = []
    for element in found['disable_collisions']:
        pairs.append(DisabledCollision(_name(element, 'link1', None),
                                       _name(element, 'link2', None),
                                       element.attrib.get('reason', '')[:MAX_NAME_LENGTH]))
    passive = tuple(_name(e, 'name', None) for e in found['passive_joint'])
    return SemanticDescription(
        root.attrib.get('name', '')[:MAX_NAME_LENGTH], groups,
        tuple(_group_state(e) for e in found['group_state']), effectors, virtuals, passive,
        tuple(pairs))


def load_srdf(document: Union[str, bytes]) -> SemanticDescription:
    """
    Parse an SRDF document.

    Text and bytes are taken and bounded as :func:`~frame_kinematics.core.urdf.load_urdf`
    takes a URDF.

    :param document: the SRDF XML, a str or bytes-like.
    :return: the description.
    :raises SRDFError: for another type, an oversized or undecodable document, malformed XML,
        forbidden constructs, missing or overlong names, bad group-state values or two groups
        of one name.
    """
    try:
        _, data = decode_document(document)
    except URDFError as exc:
        raise SRDFError(str(exc).replace('a URDF', 'an SRDF')) from None
    return _described(parse_elements(data, _READ, tuple(_READ), SRDFError))


def read_srdf_file(path: Union[str, os.PathLike]) -> SemanticDescription:
    """
    Read and parse an SRDF file (bounded as a URDF file is read).

    :param path: path of the file.
    :return: the description.
    :raises SRDFError: naming the path, if it cannot be read or is not a valid SRDF.
    """
    name = as_path(path, 'an SRDF path', SRDFError)  # once: a user's __fspath__ is called once
    try:
        text = read_urdf_file(name)
    except URDFError as exc:
        raise SRDFError(str(exc).replace('a URDF', 'an SRDF')) from None
    try:
        return load_srdf(text)
    except SRDFError as exc:
        raise SRDFError(str(exc), f"file '{os.fsdecode(name)}'") from None
