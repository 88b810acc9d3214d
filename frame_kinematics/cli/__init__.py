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
``frame-kinematics``: the core's kinematics on any URDF from the command line, no ROS.

Sub-commands: ``info``, ``fk``, ``jacobian``, ``com``, ``ik``, ``relative-motion``,
``render`` and ``reach``; ``frame-kinematics COMMAND --help`` shows each one's options and an
example.
One module per concept: :mod:`.parser` (options), :mod:`.inputs` (model, configurations,
files), :mod:`.common` (output), and one module per command family.

Exit status: 0 on success, 1 for an error (bad URDF, unknown link or joint, malformed
number, missing file or dependency: one ``frame-kinematics: error: ...`` line on stderr, no
traceback), 2 for a usage error (unknown option, bad or empty option value, an option of one
value given twice, options that contradict each other), 3 when inverse kinematics does not
converge. When the reader of stdout goes away (``| head``) or stdout is closed, the command
stops quietly with status 1. Warnings go to stderr unless ``-q``.
"""

import logging
import os
import sys
from typing import Callable, Optional, Sequence

from .common import (CommandLineError, EXIT_ERROR, EXIT_NOT_CONVERGED, EXIT_USAGE,
                     flush_stdout, PROG, UsageError)
from .parser import build_parser, check_usage, split_extras
from .. import EXIT_INTERRUPTED
from ..core.errors import FrameKinematicsError

_PACKAGE_LOGGER = 'frame_kinematics'


def main(argv: Optional[Sequence[str]] = None) -> int:
    """
    Run the command line.

    Log records of the package (the core's warnings, the command line's own) are printed on
    stderr while it runs: warnings and errors by default, errors only with ``-q``, and
    informational messages too with ``-v``.

    :param argv: arguments without the program name (default ``sys.argv[1:]``).
    :return: the exit status.
    """
    parser = build_parser()
    parsed: list = []
    status = _finished(lambda: _parse(parser, argv, parsed))
    if not parsed:  # --help or --version, or their output could not be written
        return status
    args, extras = parsed
    split_extras(args, extras)
    check_usage(args)
    level = logging.ERROR if args.quiet else logging.INFO if args.verbose else logging.WARNING
    logger = logging.getLogger(_PACKAGE_LOGGER)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f'{PROG}: %(levelname)s: %(message)s'))
    saved = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    try:
        return _finished(lambda: args.handler(args))
    finally:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]


def _parse(parser, argv: Optional[Sequence[str]], parsed: list) -> int:
    """
    Parse the command line into ``parsed`` (``[args, extras]``), or print help or version.

    :return: 0 (after help or version, ``parsed`` stays empty).
    :raises SystemExit: 2 for a usage error.
    """
    try:
        parsed.extend(parser.parse_known_args(argv))
    except SystemExit as done:
        if done.code:
            raise
    return 0


def _finished(work: Callable[[], int]) -> int:
    """
    Run a command and flush stdout; say in one line what stopped it.

    :param work: the command; returns its exit status.
    :return: the exit status.
    """
    try:
        status = work()
        flush_stdout()
        return status
    except BrokenPipeError:
        # The reader went away (piped into head) or stdout is closed: stop quietly, as other
        # tools do, and keep the interpreter from flushing into the closed pipe at exit.
        if sys.stdout is not None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR
    except (FrameKinematicsError, OSError, ValueError) as exc:
        message = ' '.join(str(exc).split()) or type(exc).__name__
        sys.stderr.write(f'{PROG}: error: {message}\n')
        return EXIT_USAGE if isinstance(exc, UsageError) else EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write(f'{PROG}: error: interrupted\n')
        return EXIT_INTERRUPTED


__all__ = ['CommandLineError', 'EXIT_ERROR', 'EXIT_NOT_CONVERGED', 'EXIT_USAGE', 'PROG',
           'UsageError', 'build_parser', 'main']
