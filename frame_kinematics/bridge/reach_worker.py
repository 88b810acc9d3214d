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
The process that runs one reach study for the node, off its ``/tf`` path.

Started by :class:`~frame_kinematics.bridge.reach_job.ReachJob` as
``python -m frame_kinematics.bridge.reach_worker``: it reads one JSON document on stdin
(:meth:`StudyRequest.document <frame_kinematics.bridge.reach_goal.StudyRequest.document>`),
runs :func:`~frame_kinematics.core.reach.run_study` at a lower CPU priority, saves the study
and its heat map and cloud (:func:`~frame_kinematics.bridge.reach_markers.save_visuals`, in
the request's ``visuals`` file), and writes one JSON object per line on stdout:
``{"progress": [stage, done, total, solved]}`` as the study goes, then
``{"summary": ..., "path": ...}``, or ``{"error": message}`` (exit status 1).
"""

import json
import os
import sys
from typing import Callable, TextIO

from .reach_goal import STAGE_NEIGHBOURS, STAGE_TARGETS
from .reach_markers import save_visuals
from ..core.errors import FrameKinematicsError
from ..core.reach import run_study
from ..core.reach.options import TargetOptions, targets_from_options
from ..core.reach.study import NEIGHBOUR_ROUNDS
from ..core.robot import Robot
from ..termination import sigterm_raises_exit

#: How much lower the study's CPU priority is than the node's (``nice``): on a busy machine
#: the node's ``/tf`` path gets the processor first.
NICENESS = 10


def progress_writer(out: TextIO) -> Callable[[int, int, str, int], None]:
    """
    Return the progress callback of a study that writes progress lines to ``out``.

    :param out: the stream.
    :return: ``progress(done, total, what, solved)`` as :func:`run_study` calls it.
    """
    def progress(done: int, total: int, what: str, solved: int) -> None:
        stage = STAGE_NEIGHBOURS if what.startswith(NEIGHBOUR_ROUNDS) else STAGE_TARGETS
        out.write(json.dumps({'progress': [stage, int(done), int(total), int(solved)]}) + '\n')
        out.flush()
    return progress


def run(document: dict, out: TextIO) -> int:
    """
    Run the study of a request document and write its lines.

    :param document: the request.
    :param out: where the lines go.
    :return: the exit status (0, or 1 after an error line).
    """
    try:
        model = Robot.from_urdf_string(document['urdf'], backend=document['backend'])
        targets = targets_from_options(TargetOptions(**document['options']))
        joints = document['active_joints']
        result = run_study(model, document['tip'], targets, active_joints=joints,
                           seed=document['seed'], progress=progress_writer(out))
        path = result.save(document['output'])
        save_visuals(result, document['visuals'])
    except (FrameKinematicsError, OSError, ValueError, KeyError, TypeError) as exc:
        out.write(json.dumps({'error': f'{type(exc).__name__}: {exc}'}) + '\n')
        return 1
    out.write(json.dumps({'summary': result.summary(), 'path': path}) + '\n')
    return 0


def main() -> int:
    """
    Lower this process's CPU priority, read the request on stdin and run it.

    A cancel (SIGTERM, :meth:`ReachJob.cancel
    <frame_kinematics.bridge.reach_job.ReachJob.cancel>`) ends it by ``SystemExit``
    (:func:`~frame_kinematics.termination.sigterm_raises_exit`): the temporary file of a
    study being saved (:func:`~frame_kinematics.core.file_output.replacing`) is removed, not
    left beside the output.

    :return: the exit status.
    """
    with sigterm_raises_exit():
        try:
            os.nice(NICENESS)
        except OSError:  # not allowed here: the study runs at the node's priority
            pass
        return run(json.loads(sys.stdin.read()), sys.stdout)


__all__ = ['main', 'NICENESS', 'progress_writer', 'run']

if __name__ == '__main__':
    sys.exit(main())
