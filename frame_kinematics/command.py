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
The ``frame-kinematics`` script's entry: it loads the command line (:mod:`.cli`) itself.

Loading the command line (numpy and the core) takes a fraction of a second: a Ctrl-C then
ends it as a Ctrl-C during a command does, in one line with status
:data:`~frame_kinematics.EXIT_INTERRUPTED`, not with a traceback. A SIGTERM (``kill``) ends
it with status 143 after the same clean-ups (:mod:`.termination`).
"""

import sys

from . import EXIT_INTERRUPTED, PROG
from .termination import sigterm_raises_exit


def main() -> int:
    """
    Load and run the command line on ``sys.argv``; a SIGTERM ends it as ``SystemExit(143)``.

    :return: the exit status (:func:`frame_kinematics.cli.main`'s).
    :raises SystemExit: 143 after a SIGTERM (:func:`.termination.sigterm_raises_exit`), once
        the files being written are removed.
    """
    try:
        with sigterm_raises_exit():
            from .cli import main as run
            return run()
    except KeyboardInterrupt:
        sys.stderr.write(f'{PROG}: error: interrupted\n')
        return EXIT_INTERRUPTED


__all__ = ['main']
