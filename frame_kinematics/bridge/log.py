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
Log lines of the bridge: lines cut to a length, and warnings throttled per key.

A child process's last line (:func:`last_line`) is cut as a log line is.

Values are quoted by the rule of the whole package
(:func:`~frame_kinematics.core.errors.quote`, :func:`~frame_kinematics.core.errors.name_list`).
"""

import logging
import threading
import time
from typing import Callable, Dict

from ..core.errors import excerpt, FrameKinematicsError, LINE_LENGTH

#: Errors a bad message, request or parameter explains: logged by their message alone.
INPUT_ERRORS = (FrameKinematicsError, ValueError, TypeError, OverflowError)
#: Most keys a :class:`ThrottledLog` remembers at once.
MAX_KEYS = 256
_OVERFLOW_KEY = 'more warnings than MAX_KEYS'
#: Keys of the forwarded warnings, apart from the bridge's own.
_FORWARDED = 'forwarded: '


def shorten(text: str, limit: int = LINE_LENGTH) -> str:
    """
    Cut a log line built from an error message to ``limit`` characters.

    It is :func:`~frame_kinematics.core.errors.excerpt` with the length of a whole line
    (:data:`~frame_kinematics.core.errors.LINE_LENGTH`) rather than of one quoted input.

    :param text: the line.
    :param limit: most characters kept.
    :return: ``text`` itself up to ``limit`` characters, else its start, ``...`` and its
        length (see :func:`~frame_kinematics.core.errors.excerpt`).
    """
    return excerpt(text, limit)


def last_line(text: str) -> str:
    """
    Return the last line that is not blank of a child process's output, shortened.

    :param text: the output (its standard error, say).
    :return: that line without surrounding spaces, cut as :func:`shorten` cuts; ``''`` when
        there is none.
    """
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return shorten(lines[-1]) if lines else ''


def error_text(exc: Exception) -> str:
    """
    Say what a callback caught, in one line (the node's callbacks never let an error through).

    :param exc: the error.
    :return: its message for one of :data:`INPUT_ERRORS`; else ``'unexpected <type>: <message>
        (a bug of frame_kinematics)'``: no input explains it.
    """
    if isinstance(exc, INPUT_ERRORS):
        return str(exc)
    return f'unexpected {type(exc).__name__}: {exc} (a bug of frame_kinematics)'


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
        self._lock = threading.Lock()  # the /tf path and the services warn from two threads
        self._last: Dict[str, float] = {}
        self._skipped: Dict[str, int] = {}

    def warning(self, key: str, text: str) -> None:
        """
        Log ``text`` unless the same key was logged less than a period ago.

        At most :data:`MAX_KEYS` keys are remembered, and one more: when more are live at once,
        the new ones share that one (a flood of different warnings is throttled as one).

        :param key: what kind of warning it is.
        :param text: the message.
        """
        with self._lock:
            now = self._clock()
            if key not in self._last and len(self._last) >= MAX_KEYS:
                self._forget(now)
                if len(self._last) >= MAX_KEYS:
                    key = _OVERFLOW_KEY
            last = self._last.get(key)
            if last is not None and now - last < self.period:
                self._skipped[key] = self._skipped.get(key, 0) + 1
                return
            skipped = self._skipped.pop(key, 0)
            if skipped:
                text += f' ({skipped} similar message(s) suppressed)'
            self._last[key] = now
        self.logger.warning(text)

    def _forget(self, now: float) -> None:
        """Forget the keys last logged a period ago or more (with their skipped counts)."""
        for key in [key for key, last in self._last.items() if now - last >= self.period]:
            del self._last[key]
            self._skipped.pop(key, None)


class ForwardingHandler(logging.Handler):
    """
    Hand Python log records (the core's warnings) to a logger of the bridge's kind.

    In the node, the core's module loggers (under ``frame_kinematics``) then write to the
    node's ROS log, ``/rosout`` included, instead of a bare line on stderr. Warnings go
    through :attr:`warnings`, throttled per message: a warning that every request earns (a
    seed outside the joint limits) is written at most once per period.

    :param logger: anything with ``info``, ``warning`` and ``error`` taking one string (an
        rclpy logger), for errors and information; :attr:`logger` may be replaced later (by
        the node's own, once it is made), and :attr:`warnings` with it: the warnings go to
        that throttle's logger.
    """

    def __init__(self, logger) -> None:
        super().__init__()
        self.logger = logger
        #: The throttle of the warnings (its logger is the one they are written to); the node
        #: hands over the bridge's, which follows ``warn_throttle_period``.
        self.warnings = ThrottledLog(logger)

    def emit(self, record: logging.LogRecord) -> None:
        """Write one record at its severity (errors, warnings, the rest as information)."""
        try:
            text = shorten(record.getMessage())
            if record.levelno >= logging.ERROR:
                self.logger.error(text)
            elif record.levelno >= logging.WARNING:
                self.warnings.warning(_FORWARDED + text, text)
            else:
                self.logger.info(text)
        except Exception:  # a record whose message cannot be made: logging's own report
            self.handleError(record)
