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

import reprlib
from typing import Any, Iterable, Optional


#: Longest quote of an input in a message, in characters: a 20 MB value never reaches a
#: message or a log line whole.
EXCERPT_LENGTH = 60
#: Longest excerpt of a whole line in a message or a log line, in characters: another
#: library's error message, a child process's last line, a log line built from an error.
LINE_LENGTH = 4 * EXCERPT_LENGTH
#: Most names a message lists.
NAMES_SHOWN = 8


def _bounded_repr() -> reprlib.Repr:
    """Return a ``repr`` that stops early in huge or deeply nested containers."""
    bounded = reprlib.Repr()
    bounded.maxlevel = 4
    bounded.maxstring = bounded.maxother = bounded.maxlong = LINE_LENGTH
    bounded.maxlist = bounded.maxtuple = bounded.maxset = bounded.maxfrozenset = 30
    bounded.maxdeque = bounded.maxarray = 30
    bounded.maxdict = 15
    return bounded


def excerpt(text: str, limit: int = EXCERPT_LENGTH) -> str:
    """
    Shorten a piece of text for a message (the one rule every message of the package follows).

    :param text: the input at fault (an attribute value, a name).
    :param limit: most characters kept.
    :return: ``text`` itself up to ``limit`` characters, else its start, ``...`` and its
        length.
    """
    if len(text) <= limit:
        return text
    return f'{text[:limit]}... ({len(text)} characters)'


def shown_path(path: Any, limit: int = EXCERPT_LENGTH) -> str:
    """
    Show a path in a message: itself up to ``limit`` characters, else ``...`` and its end.

    :param path: the path (its ``str``).
    :param limit: most characters kept (the end is kept: the file's name).
    :return: the text.
    """
    text = str(path)
    return text if len(text) <= limit else f'...{text[-limit:]}'


def quote(value: Any, limit: int = EXCERPT_LENGTH) -> str:
    """
    Quote any value for a message: its ``repr``, shortened as :func:`excerpt` does.

    :param value: anything (a huge string is cut before its ``repr`` is taken; a huge or
        deeply nested container is shown by its start; an object whose ``repr`` fails by its
        type).
    :param limit: most characters kept.
    :return: the quote.
    """
    try:
        if isinstance(value, (str, bytes)):
            if len(value) > 4 * limit:
                text = repr(value[:limit])
                return f'{text[:limit]}... ({len(value)} characters)'
            text = repr(value)
        else:
            text = _bounded_repr().repr(value)  # made per call: no module state to change
    except Exception:  # a foreign object whose repr fails is still refused politely
        text = f'<{type(value).__name__}>'
    return excerpt(text, limit)


def name_list(names: Iterable[Any], limit: int = NAMES_SHOWN) -> str:
    """
    Join names for a message, each quoted briefly, at most ``limit`` of them.

    A short name of printable characters without a space or a comma is shown as it is;
    anything else is quoted (:func:`quote`), so that an empty name reads ``''``.

    :param names: the names.
    :param limit: most names shown.
    :return: ``a, b, c`` or ``a, b, ... (12 in all)``.
    """
    shown = []
    count = 0
    for count, name in enumerate(names, 1):
        if count <= limit:
            bare = isinstance(name, str) and 0 < len(name) <= EXCERPT_LENGTH and \
                name.isprintable() and ' ' not in name and ',' not in name
            shown.append(name if bare else quote(name))
    text = ', '.join(shown)
    return text if count <= limit else f'{text}, ... ({count} in all)'


def _quoted_name(name: Any) -> str:
    """
    Quote a name for a message: ``'name'`` for a short printable string, else :func:`quote`.

    A name with a newline or an escape sequence (a request's frame id, say) is shown escaped,
    so that a message, and the log line made of it, stays one line.
    """
    if type(name) is str and len(name) <= EXCERPT_LENGTH and name.isprintable():
        return f"'{name}'"
    return quote(name)


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


class SRDFError(FrameKinematicsError, ValueError):
    """
    A semantic robot description (MoveIt's SRDF) that cannot be read or does not fit a model.

    :param message: what is wrong.
    :param element: the SRDF element at fault, e.g. ``group 'arm'`` (optional).
    """

    def __init__(self, message: str, element: Optional[str] = None) -> None:
        self.element = element
        super().__init__(f'{element}: {message}' if element else message)


class UnknownFrameError(FrameKinematicsError, LookupError):
    """
    A frame, link or joint name that the model or frame tree does not know.

    :param name: the name that was asked for (anything: a short string is shown in quotes,
        anything else as :func:`quote` shows it).
    :param available: the names that exist.
    :param kind: what kind of name it is (``frame``, ``link``, ``joint``).
    """

    def __init__(self, name: Any, available: Iterable[str] = (), kind: str = 'frame') -> None:
        self.name = name
        self.available = sorted(available)
        self.kind = kind
        super().__init__(f'unknown {kind} {_quoted_name(name)} '
                         f'(known: {name_list(self.available)})')

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


class TargetFileError(FrameKinematicsError, ValueError):
    """
    A file of reach targets (points with normals) or a saved study that cannot be read.

    :param message: what is wrong.
    :param path: the file at fault (a long path is shown by its end, the file's name).
    """

    def __init__(self, message: str, path: str) -> None:
        self.path = path
        super().__init__(f"file '{shown_path(path)}' {message}")


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
            self.args = (f'cannot relate {_quoted_name(other)} and {_quoted_name(name)}: '
                         f'{self.args[0]}',)
