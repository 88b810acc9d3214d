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
Safe XML reading for robot descriptions (URDF, SRDF) into a small element tree.

Built on :mod:`xml.parsers.expat` directly: a document with a DOCTYPE, an entity declaration or
an external reference is refused before anything is expanded, so entity bombs ("billion
laughs") and external entity or network access are impossible. Only the elements a reader asks
for are kept; everything else is skipped with its subtree without being stored.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Type
import xml.parsers.expat

from .errors import excerpt, FrameKinematicsError


@dataclass
class Element:
    """An XML element that was kept: its tag, attributes and kept children."""

    tag: str
    attrib: Dict[str, str]
    children: List['Element'] = field(default_factory=list)

    def find(self, tag: str) -> Optional['Element']:
        """
        Return the first kept child with that tag.

        :param tag: the tag.
        :return: the child, or None.
        """
        for child in self.children:
            if child.tag == tag:
                return child
        return None


def _refuse(what: str, error: Type[FrameKinematicsError]):
    def handler(*_args):
        raise error(f'{what} is not allowed in a robot description '
                    '(entities and DTDs are refused for safety)')
    return handler


def parse_elements(data: bytes, read: Mapping[str, Sequence[str]], repeated: Sequence[str],
                   error: Type[FrameKinematicsError]) -> Element:
    """
    Parse UTF-8 XML, keeping only the elements ``read`` names.

    :param data: the document as UTF-8 bytes (the encoding overrides its declaration).
    :param read: for each parent tag, the child tags kept (the root element is always kept).
    :param repeated: parent tags under which every kept child is stored; under any other
        parent only the first child of each tag is.
    :param error: the error class raised (constructed from a message).
    :return: the root element.
    :raises FrameKinematicsError: of class ``error``, for malformed XML, a DOCTYPE, an entity
        declaration, an external entity reference or a xacro element (an unexpanded xacro
        document).
    """
    parser = xml.parsers.expat.ParserCreate('utf-8')
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _refuse('a DOCTYPE declaration', error)
    parser.EntityDeclHandler = _refuse('an entity declaration', error)
    parser.ExternalEntityRefHandler = _refuse('an external entity reference', error)
    stack: List[Element] = []
    root: List[Element] = []
    skipping = [0]

    def kept(parent: Element, tag: str) -> bool:
        if tag not in read.get(parent.tag, ()):
            return False
        return parent.tag in repeated or parent.find(tag) is None

    def start(tag, attrib):
        if tag.startswith('xacro:'):
            raise error(f'this is a xacro document: expand it first (it has a '
                        f'<{excerpt(tag)}> element; run xacro, or install the xacro '
                        'package for the command line to expand it)')
        if skipping[0] or (stack and not kept(stack[-1], tag)):
            skipping[0] += 1
            return
        element = Element(tag, attrib)
        if stack:
            stack[-1].children.append(element)
        else:
            root.append(element)
        stack.append(element)

    def end(_tag):
        if skipping[0]:
            skipping[0] -= 1
        else:
            stack.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        raise error(f'malformed XML: {exc}') from None
    return root[0]
