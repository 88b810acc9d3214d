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
What every command of the command line shares: its name, exit codes, error and output.

Output goes through :func:`emit` (stdout); warnings and progress go to stderr through the
``frame_kinematics`` logger and :class:`Progress`, both silenced by ``-q``.
"""

import contextlib
import io
import json
import logging
import math
import sys
import time
from typing import Dict, Iterator, Optional, Sequence, Tuple

import numpy as np

from .. import PROG
from ..core.errors import ConfigurationError, FrameKinematicsError
from ..core.model import RobotModel


#: Exit status of an error, a usage error and an inverse kinematics failure.
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_NOT_CONVERGED = 3

#: Logger of the command line; a child of the package logger that ``main`` prints.
LOG = logging.getLogger('frame_kinematics.cli')


class CommandLineError(FrameKinematicsError, ValueError):
    """A command line or input file that cannot be used (wrong form, conflicting options)."""


class UsageError(CommandLineError):
    """Options that do not fit together, or an option's value refused before any work: status 2."""


@contextlib.contextmanager
def usage_errors(option: Optional[str] = None,
                 errors: Tuple[type, ...] = (ConfigurationError,)) -> Iterator[None]:
    """
    Make the refusal of an option's value a usage error (exit status 2).

    :param option: the option, named before the reason (None: the reason alone, which names
        the options itself).
    :param errors: the errors that refuse the value.
    :raises UsageError: for one of ``errors``.
    """
    try:
        yield
    except errors as exc:
        raise UsageError(str(exc) if option is None else f'{option}: {exc}') from None


def fmt(x: float, precision: int) -> str:
    """
    Format a number with a fixed number of decimals, without a negative zero.

    :param x: the number.
    :param precision: decimals.
    :return: the text.
    """
    return f'{round(float(x), precision) + 0.0:.{precision}f}'


def sci(x: float) -> str:
    """
    Format an error in scientific notation.

    :param x: the number.
    :return: the text.
    """
    return f'{x:.3e}'


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], precision: int) -> str:
    """
    Lay out a table: first column left-aligned, the others right-aligned.

    :param headers: column titles.
    :param rows: cells; strings as they are, numbers with ``precision`` decimals.
    :param precision: decimals of the numbers.
    :return: the table's lines.
    """
    cells = [list(headers)] + [[c if isinstance(c, str) else fmt(c, precision) for c in row]
                               for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append('  '.join(parts).rstrip())
    return '\n'.join(lines)


def finite(x: float) -> Optional[float]:
    """
    Return a float for strict JSON, ``None`` for an infinite value or NaN.

    :param x: the number.
    :return: ``x`` as a float, or ``None``.
    """
    return float(x) if math.isfinite(x) else None


def to_json(document) -> str:
    """
    Write a JSON document, indented: strict JSON, an infinite value or NaN written as null.

    :param document: plain data (dicts, lists and tuples, strings, numbers, None).
    :return: the text.
    """
    return json.dumps(_strict(document), indent=2, allow_nan=False)


def _strict(value):
    if isinstance(value, float):
        return finite(value)
    if isinstance(value, dict):
        return {key: _strict(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(item) for item in value]
    return value


def configuration_dict(model: RobotModel, q: np.ndarray) -> Dict[str, float]:
    """
    Name every entry of a configuration: the one shape ``q`` has in JSON output.

    :param model: the robot model.
    :param q: ``(nq,)``.
    :return: ``{configuration name: value}``.
    """
    return dict(zip(model.configuration_names, np.asarray(q, dtype=float).tolist()))


def config_line(model: RobotModel, q: np.ndarray) -> str:
    """
    Describe a configuration by its entries that differ from the neutral configuration.

    :param model: the robot model.
    :param q: ``(nq,)``.
    :return: ``name=value, ...`` or ``neutral configuration``.
    """
    neutral = model.neutral_configuration()
    changed = [f'{name}={float(value):g}' for name, value, rest in
               zip(model.configuration_names, q, neutral) if value != rest]
    return ', '.join(changed) if changed else 'neutral configuration'


def emit(text: str) -> None:
    """
    Print a result on stdout.

    :param text: the lines.
    :raises BrokenPipeError: when stdout is closed (the command line stops quietly).
    :raises CommandLineError: when stdout cannot be written.
    """
    write_stdout(text + '\n')


def write_stdout(text: str) -> None:
    """
    Write text on stdout.

    :param text: the text.
    :raises BrokenPipeError: when stdout is closed (the command line stops quietly).
    :raises CommandLineError: when stdout cannot be written.
    """
    if sys.stdout is None:
        raise BrokenPipeError('stdout is closed')
    with _writing_stdout():
        buffer = getattr(sys.stdout, 'buffer', None)
        if not isinstance(buffer, io.RawIOBase):  # buffered (writes all or raises), or text
            # through the text layer: its newline translation (Windows) and line buffering (a
            # terminal) apply
            sys.stdout.write(text)
            return
        # unbuffered (python -u): the bytes, until all are written: when the reader of a pipe
        # goes away in the middle of a large write, the file takes part of it and Python's
        # text layer drops the rest without an error; the next write raises BrokenPipeError
        sys.stdout.flush()
        data = memoryview(text.encode(sys.stdout.encoding, sys.stdout.errors or 'strict'))
        while data:
            data = data[buffer.write(data):]


def flush_stdout() -> None:
    """
    Write out what :func:`emit` printed.

    :raises BrokenPipeError: when the reader went away (the command line stops quietly).
    :raises CommandLineError: when stdout cannot be written (a full disk, ``/dev/full``).
    """
    if sys.stdout is not None:
        with _writing_stdout():
            sys.stdout.flush()


@contextlib.contextmanager
def _writing_stdout() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise CommandLineError(f'cannot write the output (stdout): {exc.strerror or exc}'
                               ) from None


class Progress:
    """
    Progress of a long run on stderr, unless ``-q``.

    A self-updating line on a terminal, else a line at every tenth of the work.

    :param label: what is counted (``targets``, ``frames``).
    :param enabled: whether to print at all.
    """

    def __init__(self, label: str, enabled: bool = True) -> None:
        self.label = label
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.start = time.monotonic()
        self.reported = -1

    def __call__(self, done: int, total: int, detail: str = '') -> None:
        """
        Report ``done`` of ``total``.

        :param done: work done so far.
        :param total: all the work.
        :param detail: appended to the count (``, 12 solved``).
        """
        if not self.enabled or total <= 0:
            return
        tenth = (10 * done) // total
        if not self.tty and tenth == self.reported and done != total:
            return
        self.reported = tenth
        elapsed = time.monotonic() - self.start
        text = f'{PROG}: {done}/{total} {self.label}{detail} ({elapsed:.1f} s)'
        if self.tty:
            sys.stderr.write('\r' + text + ('\n' if done == total else ''))
        else:
            sys.stderr.write(text + '\n')
        sys.stderr.flush()
