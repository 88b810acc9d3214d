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
Log lines of the bridge: short excerpts of values, and warnings throttled per key.

A value quoted in a log line or a refusal is cut to :data:`EXCERPT_LENGTH` characters, so a
20 MB parameter or message never reaches the log whole.
"""

import time
from typing import Any, Callable, Dict, Iterable

#: Longest quote of a value in a message (characters of its ``repr``).
EXCERPT_LENGTH = 60
#: Most names listed in one log line.
NAMES_SHOWN = 8


def excerpt(value: Any, limit: int = EXCERPT_LENGTH) -> str:
    """
    Quote a value for a message: its ``repr``, cut to ``limit`` characters.

    :param value: anything.
    :param limit: most characters kept.
    :return: the quote, with the total length when it was cut.
    """
    if isinstance(value, (str, bytes)) and len(value) > 4 * limit:
        text = repr(value[:limit])
        size = len(value)
    else:
        try:
            text = repr(value)
        except Exception:  # a foreign object whose repr fails is still refused politely
            text = f'<{type(value).__name__}>'
        size = len(text)
    if len(text) <= limit:
        return text
    return f'{text[:limit]}... ({size} characters)'


def shorten(text: str, limit: int = 4 * EXCERPT_LENGTH) -> str:
    """
    Cut a log line built from an error message to ``limit`` characters.

    :param text: the line.
    :param limit: most characters kept.
    """
    if len(text) <= limit:
        return text
    return f'{text[:limit]}... ({len(text)} characters)'


def name_list(names: Iterable[Any], limit: int = NAMES_SHOWN) -> str:
    """
    Join names for a message, each quoted briefly, at most ``limit`` of them.

    :param names: the names.
    :param limit: most names shown.
    :return: ``a, b, c`` or ``a, b, ... (12 in all)``.
    """
    shown = []
    count = 0
    for count, name in enumerate(names, 1):
        if count <= limit:
            shown.append(name if isinstance(name, str) and len(name) <= EXCERPT_LENGTH
                         else excerpt(name))
    text = ', '.join(shown)
    return text if count <= limit else f'{text}, ... ({count} in all)'


class ThrottledLog:
    """
    Warnings repeated at most once per period and key, with a count of the skipped ones.

    :param logger: anything with ``info``, ``warning`` and ``error`` taking one string
        (a ``logging.Logger`` or an rclpy logger).
    :param period: seconds between two messages of the same key.
    :param clock: monotonic clock in seconds (injectable for tests).
    """

    def __init__(self, logger, period: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.period = period
        self._clock = clock
        self._last: Dict[str, float] = {}
        self._skipped: Dict[str, int] = {}

    def warning(self, key: str, text: str) -> None:
        """
        Log ``text`` unless the same key was logged less than a period ago.

        :param key: what kind of warning it is.
        :param text: the message.
        """
        now = self._clock()
        last = self._last.get(key)
        if last is not None and now - last < self.period:
            self._skipped[key] = self._skipped.get(key, 0) + 1
            return
        skipped = self._skipped.pop(key, 0)
        if skipped:
            text += f' ({skipped} similar message(s) suppressed)'
        self._last[key] = now
        self.logger.warning(text)
