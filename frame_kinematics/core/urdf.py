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
Safe URDF parsing into plain description objects.

The parser is built on :mod:`xml.parsers.expat` directly: a document with a DOCTYPE, an entity
declaration or an external reference is refused before anything is expanded, so entity
bombs ("billion laughs") and external entity or network access are impossible. Only the
kinematic and inertial content is read; visuals, collisions, transmissions and extensions are
ignored.
"""

from dataclasses import dataclass, field
import math
from typing import Dict, List, Optional, Tuple
import xml.parsers.expat

import numpy as np

from .errors import URDFError
from .spatial import transform_from_xyz_rpy

#: URDF joint types understood by the parser.
JOINT_TYPES = ('revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar')

#: Tolerance on ``|axis| - 1`` before an axis is rejected as non-unit (it is then normalised).
AXIS_UNIT_TOLERANCE = 1e-4

#: Largest document accepted, in bytes.
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Inertial:
    """
    Inertial properties of a link.

    :ivar mass: mass in kg (non-negative).
    :ivar link_T_com: pose of the inertial frame (center of mass) in the link frame.
    :ivar inertia: 3x3 rotational inertia about the center of mass, in the inertial frame.
    """

    mass: float
    link_T_com: np.ndarray
    inertia: np.ndarray


@dataclass(frozen=True)
class LinkDescription:
    """A ``<link>``: a name and optional inertial properties."""

    name: str
    inertial: Optional[Inertial] = None


@dataclass(frozen=True)
class Mimic:
    """A ``<mimic>``: ``value = multiplier * value(joint) + offset``."""

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0


@dataclass(frozen=True)
class JointDescription:
    """
    A ``<joint>`` as written in the document.

    :ivar parent_T_joint: pose of the joint frame (= child link frame at zero) in the parent.
    :ivar axis: unit axis in the joint frame (plane normal for planar joints).
    """

    name: str
    type: str  # noqa: A003 (the URDF attribute name)
    parent: str
    child: str
    parent_T_joint: np.ndarray
    axis: np.ndarray
    lower: float = -math.inf
    upper: float = math.inf
    velocity: float = math.inf
    effort: float = math.inf
    mimic: Optional[Mimic] = None


@dataclass(frozen=True)
class RobotDescription:
    """The parsed document: robot name, links and joints in document order."""

    name: str
    links: Tuple[LinkDescription, ...]
    joints: Tuple[JointDescription, ...]


@dataclass
class _Element:
    tag: str
    attrib: Dict[str, str]
    children: List['_Element'] = field(default_factory=list)

    def find(self, tag: str) -> Optional['_Element']:
        for child in self.children:
            if child.tag == tag:
                return child
        return None


def _refuse(what: str):
    def handler(*_args):
        raise URDFError(f'{what} is not allowed in a robot description '
                        '(entities and DTDs are refused for safety)')
    return handler


def _parse_xml(text: str) -> _Element:
    parser = xml.parsers.expat.ParserCreate()
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _refuse('a DOCTYPE declaration')
    parser.EntityDeclHandler = _refuse('an entity declaration')
    parser.ExternalEntityRefHandler = _refuse('an external entity reference')
    stack: List[_Element] = []
    root: List[_Element] = []

    def start(tag, attrib):
        element = _Element(tag, dict(attrib))
        if stack:
            stack[-1].children.append(element)
        else:
            root.append(element)
        stack.append(element)

    def end(_tag):
        stack.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as exc:
        raise URDFError(f'malformed XML: {exc}') from None
    return root[0]


def _floats(text: Optional[str], count: int, default: Tuple[float, ...], where: str,
            attribute: str) -> np.ndarray:
    if text is None:
        return np.array(default, dtype=float)
    parts = text.split()
    if len(parts) != count:
        raise URDFError(f"attribute '{attribute}' needs {count} numbers, got '{text}'", where)
    try:
        values = np.array([float(p) for p in parts])
    except ValueError:
        raise URDFError(f"attribute '{attribute}' is not a number list: '{text}'",
                        where) from None
    if not np.all(np.isfinite(values)):
        raise URDFError(f"attribute '{attribute}' must be finite, got '{text}'", where)
    return values


def _float(element: Optional[_Element], attribute: str, default: Optional[float], where: str,
           allow_inf: bool = False) -> float:
    text = None if element is None else element.attrib.get(attribute)
    if text is None:
        if default is None:
            raise URDFError(f"missing attribute '{attribute}'", where)
        return default
    try:
        value = float(text)
    except ValueError:
        raise URDFError(f"attribute '{attribute}' is not a number: '{text}'", where) from None
    if math.isnan(value) or (math.isinf(value) and not allow_inf):
        raise URDFError(f"attribute '{attribute}' must be finite, got '{text}'", where)
    return value


def _origin(element: Optional[_Element], where: str) -> np.ndarray:
    if element is None:
        return np.eye(4)
    xyz = _floats(element.attrib.get('xyz'), 3, (0.0, 0.0, 0.0), where, 'origin xyz')
    rpy = _floats(element.attrib.get('rpy'), 3, (0.0, 0.0, 0.0), where, 'origin rpy')
    return transform_from_xyz_rpy(xyz, rpy)


def _inertial(element: Optional[_Element], where: str) -> Optional[Inertial]:
    if element is None:
        return None
    mass = _float(element.find('mass'), 'value', None, where + ' <mass>')
    if mass < 0:
        raise URDFError(f'negative mass {mass}', where)
    tensor = element.find('inertia')
    names = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')
    ixx, ixy, ixz, iyy, iyz, izz = (_float(tensor, n, 0.0, where + ' <inertia>') for n in names)
    inertia = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    return Inertial(mass, _origin(element.find('origin'), where), inertia)


def _name(element: _Element, what: str) -> str:
    name = element.attrib.get('name')
    if not name:
        raise URDFError(f'a <{what}> without a name')
    return name


def _joint(element: _Element) -> JointDescription:
    name = _name(element, 'joint')
    where = f"joint '{name}'"
    jtype = element.attrib.get('type')
    if jtype not in JOINT_TYPES:
        raise URDFError(f"unknown joint type '{jtype}' (expected one of "
                        f"{', '.join(JOINT_TYPES)})", where)
    links = []
    for tag in ('parent', 'child'):
        sub = element.find(tag)
        if sub is None or not sub.attrib.get('link'):
            raise URDFError(f'missing <{tag} link="..."/>', where)
        links.append(sub.attrib['link'])
    axis_element = element.find('axis')
    axis = _floats(None if axis_element is None else axis_element.attrib.get('xyz'),
                   3, (1.0, 0.0, 0.0), where, 'axis xyz')
    if jtype not in ('fixed', 'floating'):
        norm = float(np.linalg.norm(axis))
        if norm == 0.0:
            raise URDFError('axis is zero', where)
        if abs(norm - 1.0) > AXIS_UNIT_TOLERANCE:
            raise URDFError(f'axis {axis.tolist()} is not a unit vector (norm {norm:.6g})',
                            where)
        axis = axis / norm
    limit = element.find('limit')
    lower, upper = -math.inf, math.inf
    if jtype in ('revolute', 'prismatic'):
        if limit is None:
            raise URDFError(f'a {jtype} joint needs a <limit>', where)
        lower = _float(limit, 'lower', 0.0, where + ' <limit>')
        upper = _float(limit, 'upper', 0.0, where + ' <limit>')
        if lower > upper:
            raise URDFError(f'limit lower {lower} is above upper {upper}', where)
    velocity = _float(limit, 'velocity', math.inf, where + ' <limit>', allow_inf=True)
    effort = _float(limit, 'effort', math.inf, where + ' <limit>', allow_inf=True)
    mimic = None
    mimic_element = element.find('mimic')
    if mimic_element is not None:
        master = mimic_element.attrib.get('joint')
        if not master:
            raise URDFError('<mimic> without a joint attribute', where)
        mimic = Mimic(master, _float(mimic_element, 'multiplier', 1.0, where + ' <mimic>'),
                      _float(mimic_element, 'offset', 0.0, where + ' <mimic>'))
    return JointDescription(name, jtype, links[0], links[1], _origin(element.find('origin'),
                            where), axis, lower, upper, velocity, effort, mimic)


def urdf_text(text) -> str:
    """
    Return a URDF document as text.

    :param text: str or UTF-8 bytes.
    :return: the text.
    :raises URDFError: for undecodable bytes or another type.
    """
    if isinstance(text, str):
        return text
    if isinstance(text, (bytes, bytearray)):
        try:
            return bytes(text).decode('utf-8')
        except UnicodeDecodeError as exc:
            raise URDFError(f'not UTF-8 at byte {exc.start}') from None
    raise URDFError(f'a URDF is text, got {type(text).__name__}')


def read_urdf_file(path) -> bytes:
    """
    Read a URDF file.

    :param path: its path.
    :return: its bytes.
    :raises URDFError: if it cannot be read.
    """
    try:
        with open(path, 'rb') as handle:
            return handle.read(MAX_DOCUMENT_BYTES + 1)
    except (OSError, TypeError) as exc:
        raise URDFError(f'cannot read {path}: {exc}') from None


def parse_urdf(text: str) -> RobotDescription:
    """
    Parse a URDF document into a :class:`RobotDescription`.

    Structural checks (one root, no cycles, known links) are done by the model builder.

    :param text: the URDF XML.
    :return: the description.
    :raises URDFError: for malformed XML, forbidden constructs or bad elements.
    """
    if isinstance(text, bytes):
        text = text.decode('utf-8')
    if len(text) > MAX_DOCUMENT_BYTES:
        raise URDFError(f'document larger than {MAX_DOCUMENT_BYTES} bytes')
    root = _parse_xml(text)
    if root.tag != 'robot':
        raise URDFError(f'the root element must be <robot>, got <{root.tag}>')
    links = []
    joints = []
    for element in root.children:
        if element.tag == 'link':
            name = _name(element, 'link')
            links.append(LinkDescription(name, _inertial(element.find('inertial'),
                                                         f"link '{name}'")))
        elif element.tag == 'joint':
            joints.append(_joint(element))
    return RobotDescription(root.attrib.get('name', ''), tuple(links), tuple(joints))
