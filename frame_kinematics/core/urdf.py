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
skipped without being kept.

Every bound is checked before work proportional to the input: the document size before it is
decoded or parsed, a number list's length before it is split. Every number the kinematics uses
is finite and at most :data:`MAX_MAGNITUDE` in magnitude, so a model that loads gives finite
results for every configuration within its limits.
"""

from dataclasses import dataclass
import logging
import math
import re
from types import MappingProxyType
from typing import Any, Optional, Tuple, Union

import numpy as np

from .checks import MAX_MAGNITUDE, parse_number
from .errors import excerpt, quote, URDFError
from .joints import JointType
from .spatial import transform_from_xyz_rpy
from .urdf_source import decode_document
from .xml_elements import Element, parse_elements

_LOG = logging.getLogger(__name__)

#: Tolerance on ``|axis| - 1`` beyond which the normalisation of an axis is logged.
AXIS_UNIT_TOLERANCE = 1e-4

#: Longest robot, link or joint name accepted, in characters.
MAX_NAME_LENGTH = 256
#: A character that no XML 1.0 document (so no URDF name) can hold.
_NOT_XML = re.compile('[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]')

#: The elements read, by parent: anything else is skipped with its subtree. Under ``robot``
#: every ``link`` and ``joint`` is kept, elsewhere only the first child of each tag.
_READ = MappingProxyType({
    'robot': ('link', 'joint'), 'link': ('inertial',), 'inertial': ('origin', 'mass', 'inertia'),
    'joint': ('origin', 'parent', 'child', 'axis', 'limit', 'mimic')})


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


def _not_a_number(attribute: str, kind: str, text: str, where: str) -> URDFError:
    if '${' in text or '$(' in text:
        return URDFError(f'this is a xacro document: expand it first (attribute '
                         f"'{attribute}' is the xacro expression '{excerpt(text)}')", where)
    return URDFError(f"attribute '{attribute}' is not {kind}: '{excerpt(text)}'", where)


def _checked(value: float, text: str, where: str, label: str, bound: bool = True) -> float:
    if not math.isfinite(value):
        raise URDFError(f"attribute '{label}' must be finite, got '{excerpt(text)}'", where)
    if bound and abs(value) > MAX_MAGNITUDE:
        raise URDFError(f'{label} {value:g} exceeds {MAX_MAGNITUDE:g}', where)
    return value


def _floats(text: Optional[str], count: int, default: Tuple[float, ...], where: str,
            label: str) -> np.ndarray:
    if text is None:
        return np.array(default, dtype=float)
    parts = text.split(maxsplit=count)
    if len(parts) != count:
        raise URDFError(f"attribute '{label}' needs {count} numbers, got '{excerpt(text)}'",
                        where)
    try:
        values = [parse_number(part) for part in parts]
    except ValueError:
        raise _not_a_number(label, 'a number list', text, where) from None
    return np.array([_checked(value, text, where, label) for value in values])


def _float(element: Optional[Element], attribute: str, default: Optional[float], where: str,
           bound: bool = True) -> float:
    text = None if element is None else element.attrib.get(attribute)
    if text is None:
        if default is None:
            raise URDFError(f"missing attribute '{attribute}'", where)
        return default
    try:
        value = parse_number(text)
    except ValueError:
        raise _not_a_number(attribute, 'a number', text, where) from None
    return _checked(value, text, where, attribute, bound)


def _origin(element: Optional[Element], where: str) -> np.ndarray:
    if element is None:
        return np.eye(4)
    xyz = _floats(element.attrib.get('xyz'), 3, (0.0, 0.0, 0.0), where, 'origin xyz')
    rpy = _floats(element.attrib.get('rpy'), 3, (0.0, 0.0, 0.0), where, 'origin rpy')
    return transform_from_xyz_rpy(xyz, rpy)


def _inertial(element: Optional[Element], where: str) -> Optional[Inertial]:
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


def _checked_name(name: str, what: str) -> str:
    if len(name) > MAX_NAME_LENGTH:
        raise URDFError(f"{what} '{excerpt(name)}' is longer than {MAX_NAME_LENGTH} characters")
    return name


def check_name(name: Any, what: str) -> str:
    """
    Validate a link or joint name given outside a URDF document, as the parser would read it.

    :param name: the name.
    :param what: what it is called in error messages (``world_frame``).
    :return: the name, as a plain str.
    :raises URDFError: for anything but a non-empty str of at most :data:`MAX_NAME_LENGTH`
        characters that an XML document can hold (no NUL or other control character).
    """
    if not isinstance(name, str):
        raise URDFError(f'{what} must be a link name (a str), got {type(name).__name__}')
    name = str.__str__(name)  # a plain str: a subclass's __eq__ or __hash__ is not called
    if not name:
        raise URDFError(f'{what} must not be empty')
    _checked_name(name, what)
    if _NOT_XML.search(name):
        raise URDFError(f'{what} {quote(name)} has characters no URDF name can hold '
                        '(NUL or another control character)')
    return name


def _name(element: Element, what: str) -> str:
    name = element.attrib.get('name')
    if not name:
        raise URDFError(f'a <{what}> without a name')
    return _checked_name(name, f'<{what}> name')


def _unit_axis(axis: np.ndarray, where: str) -> np.ndarray:
    """
    Normalise a moving joint's axis, as robot_state_publisher (KDL) and MoveIt read it.

    An axis whose norm is more than :data:`AXIS_UNIT_TOLERANCE` away from 1 is logged as a
    warning. The axis is scaled by its largest component first, so that a tiny one is not
    lost to underflow.

    :param axis: the axis read, three finite numbers.
    :param where: the joint, for the messages.
    :return: the unit axis.
    :raises URDFError: for a zero axis.
    """
    scale = float(np.max(np.abs(axis)))
    if scale == 0.0:
        raise URDFError('axis is zero', where)
    scaled = axis / scale
    length = float(np.linalg.norm(scaled))
    norm = length * scale
    if abs(norm - 1.0) > AXIS_UNIT_TOLERANCE:
        _LOG.warning('%s: axis %s is not a unit vector (norm %.6g): normalised', where,
                     axis.tolist(), norm)
    return scaled / length


def _joint(element: Element) -> JointDescription:
    name = _name(element, 'joint')
    where = f"joint '{excerpt(name)}'"
    jtype = JointType.from_urdf(element.attrib.get('type'), where)
    links = []
    for tag in ('parent', 'child'):
        sub = element.find(tag)
        if sub is None or not sub.attrib.get('link'):
            raise URDFError(f'missing <{tag} link="..."/>', where)
        links.append(_checked_name(sub.attrib['link'], f'{where}: {tag} link'))
    axis_element = element.find('axis')
    axis = _floats(None if axis_element is None else axis_element.attrib.get('xyz'),
                   3, (1.0, 0.0, 0.0), where, 'axis xyz')
    if jtype not in (JointType.FIXED, JointType.FLOATING):
        axis = _unit_axis(axis, where)
    limit = element.find('limit')
    lower, upper = -math.inf, math.inf
    if jtype.bounded:
        if limit is None:
            raise URDFError(f'a {jtype.value} joint needs a <limit>', where)
        lower = _float(limit, 'lower', 0.0, where + ' <limit>')
        upper = _float(limit, 'upper', 0.0, where + ' <limit>')
        if lower > upper:
            raise URDFError(f'limit lower {lower} is above upper {upper}', where)
    rates = []
    for attribute in ('velocity', 'effort'):
        rate = _float(limit, attribute, math.inf, where + ' <limit>', bound=False)
        if rate < 0:
            raise URDFError(f'negative {attribute} limit {rate:g}', where + ' <limit>')
        rates.append(rate)
    mimic = None
    mimic_element = element.find('mimic')
    if mimic_element is not None:
        master = mimic_element.attrib.get('joint')
        if not master:
            raise URDFError('<mimic> without a joint attribute', where)
        mimic = Mimic(_checked_name(master, f'{where}: mimic joint'),
                      _float(mimic_element, 'multiplier', 1.0, where + ' <mimic>'),
                      _float(mimic_element, 'offset', 0.0, where + ' <mimic>'))
    return JointDescription(name, jtype.value, links[0], links[1], _origin(element.find('origin'),
                            where), axis, lower, upper, rates[0], rates[1], mimic)


def load_urdf(document: Union[str, bytes]) -> Tuple[RobotDescription, str]:
    """
    Parse a URDF document and return it with its text.

    Bytes are decoded once, by their byte order mark, else by the encoding their XML
    declaration names (any character set Python knows), else as UTF-8. A str is parsed as the
    text it is, whatever encoding its declaration names. Structural checks (one root, no
    cycles, known links) are done by the model builder.

    :param document: the URDF XML, a str or bytes-like (bytes, bytearray, memoryview).
    :return: the description, and the document as a str.
    :raises URDFError: for another type, a document over :data:`MAX_DOCUMENT_BYTES`, bytes
        that do not decode, malformed XML, forbidden constructs or bad elements.
    """
    text, data = decode_document(document)
    root = parse_elements(data, _READ, ('robot',), URDFError)
    if root.tag != 'robot':
        raise URDFError(f'the root element must be <robot>, got <{excerpt(root.tag)}>')
    links = []
    joints = []
    for element in root.children:
        if element.tag == 'link':
            name = _name(element, 'link')
            links.append(LinkDescription(name, _inertial(element.find('inertial'),
                                                         f"link '{excerpt(name)}'")))
        elif element.tag == 'joint':
            joints.append(_joint(element))
    name = _checked_name(root.attrib.get('name', ''), '<robot> name')
    return RobotDescription(name, tuple(links), tuple(joints)), text


def parse_urdf(document: Union[str, bytes]) -> RobotDescription:
    """
    Parse a URDF document into a :class:`RobotDescription` (see :func:`load_urdf`).

    :param document: the URDF XML, a str or bytes-like.
    :return: the description.
    :raises URDFError: for a document that :func:`load_urdf` refuses.
    """
    return load_urdf(document)[0]
