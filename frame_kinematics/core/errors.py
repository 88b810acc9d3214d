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
Exceptions raised by the frame_kinematics core.

Every error derives from :class:`FrameKinematicsError`, so a caller can catch one class.
The subclasses carry the context of the failure (frame, joint or link names) as attributes
and name it in their message.
"""

from typing import Iterable, Optional


#: Longest excerpt of a bad input that an error message quotes, in characters.
EXCERPT_LENGTH = 40


def excerpt(text: str) -> str:
    """
    Shorten a piece of bad input for an error message.

    :param text: the input at fault (an attribute value, a name).
    :return: ``text`` itself up to :data:`EXCERPT_LENGTH` characters, else its start and ``...``.
    """
    if len(text) <= EXCERPT_LENGTH:
        return text
    return text[:EXCERPT_LENGTH] + '...'


class FrameKinematicsError(Exception):
    """Base class of every error raised by frame_kinematics."""


class URDFError(FrameKinematicsError, ValueError):
    """
    A robot description that cannot be turned into a model.

    :param message: what is wrong.
    :param element: the URDF element at fault, e.g. ``joint 'elbow'`` (optional).
    """

    def __init__(self, message: str, element: Optional[str] = None) -> None:
        self.element = element
        super().__init__(f'{element}: {message}' if element else message)


class UnknownFrameError(FrameKinematicsError, LookupError):
    """
    A frame, link or joint name that the model or frame tree does not know.

    :param name: the name that was asked for.
    :param available: the names that exist.
    :param kind: what kind of name it is (``frame``, ``link``, ``joint``).
    """

    def __init__(self, name: str, available: Iterable[str] = (), kind: str = 'frame') -> None:
        self.name = name
        self.available = sorted(available)
        self.kind = kind
        shown = ', '.join(self.available[:12])
        if len(self.available) > 12:
            shown += f', ... ({len(self.available)} in all)'
        super().__init__(f"unknown {kind} '{name}' (known: {shown})")

    def __str__(self) -> str:
        return str(self.args[0])


class ReferenceFrameError(FrameKinematicsError, ValueError):
    """
    An operation mixing frames that do not fit together.

    Raised when two framed quantities expressed in different frames are combined, or
    when a transform is asked between frames of different trees (roots).

    :param message: what is wrong.
    :param frame_a: name of the first frame involved.
    :param frame_b: name of the second frame involved.
    """

    def __init__(self, message: str, frame_a: Optional[str] = None,
                 frame_b: Optional[str] = None) -> None:
        self.frame_a = frame_a
        self.frame_b = frame_b
        super().__init__(message)


class ConfigurationError(FrameKinematicsError, ValueError):
    """
    A joint configuration, velocity or other numeric input that is unusable.

    Wrong length, NaN or inf, a non-unit quaternion, a non-rigid transform.
    """


class UnknownOptionError(ConfigurationError, TypeError):
    """
    A keyword option that a call does not take.

    Also a ``TypeError``, as Python's own error for an unexpected keyword argument is.
    """


class BackendError(FrameKinematicsError, ValueError):
    """A kinematics backend that is unknown or not installed (see :mod:`.backend`)."""


class UnknownReferenceFrameError(UnknownFrameError, ReferenceFrameError):
    """
    A frame name that a frame tree does not know.

    Both an :class:`UnknownFrameError` and a :class:`ReferenceFrameError`, so either handler
    catches it.

    :param name: the unknown frame.
    :param available: the frames of the tree.
    :param other: the other frame of the operation, named in the message.
    """

    def __init__(self, name: str, available: Iterable[str] = (),
                 other: Optional[str] = None) -> None:
        UnknownFrameError.__init__(self, name, available, 'frame')
        self.frame_a = other
        self.frame_b = name
        if other is not None:
            self.args = (f"cannot relate '{other}' and '{name}': {self.args[0]}",)
