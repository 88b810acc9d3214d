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
Reach studies of the node: one at a time, each in a child process, cancellable.

A study runs in a child process (:mod:`~frame_kinematics.bridge.reach_worker`), not in a thread
of the node: a study computes in Python for seconds to minutes, and a thread doing so would
hold the interpreter the ``/tf`` path needs (measured in the performance page). The child has the
interpreter and the compiler to itself; the node only reads its progress lines in a thread
that waits on the pipe, then reads the heat map and point cloud that the child made.

:class:`ReachStudies` admits one study at a time (:meth:`ReachStudies.reserve` says why not);
:class:`ReachJob` is one running study.
"""

from dataclasses import dataclass
import json
import os
import subprocess
import sys
import tempfile
import threading
from typing import Callable, List, Optional

from .log import last_line, shorten
from .reach_goal import answer_from_summary, ReachAnswer, ReachFeedback, StudyRequest
from .reach_markers import CloudOut, HeatMapMarker, load_visuals
from ..core.errors import FrameKinematicsError

#: Seconds a cancelled child has to end after SIGTERM before it is killed.
TERMINATE_WAIT = 5.0
#: What the child runs.
WORKER = 'frame_kinematics.bridge.reach_worker'
#: The answer of a cancelled study.
CANCELLED = 'the study was cancelled'


@dataclass(frozen=True)
class ReachOutcome:
    """
    How a study ended: its answer and, when it succeeded, what RViz shows of it.

    :ivar answer: the action's result.
    :ivar markers: the heat map (empty unless it succeeded).
    :ivar cloud: the point cloud (None unless it succeeded).
    :ivar cancelled: whether it was cancelled.
    """

    answer: ReachAnswer
    markers: List[HeatMapMarker]
    cloud: Optional[CloudOut]
    cancelled: bool = False


def _failure(message: str, cancelled: bool = False) -> ReachOutcome:
    return ReachOutcome(ReachAnswer(False, message), [], None, cancelled)


class ReachJob:
    """
    One study in a child process: progress lines in, the outcome at the end.

    :param request: the checked goal.
    :param urdf: the robot description the study runs on.
    :param frame_id: the frame of the markers and cloud (the prefixed root link).
    :param stamp_ns: their stamp.
    :param on_feedback: called with every :class:`ReachFeedback` (in the job's thread).
    :param on_end: called once with the :class:`ReachOutcome` (in the job's thread).
    """

    def __init__(self, request: StudyRequest, urdf: str, frame_id: str, stamp_ns: int,
                 on_feedback: Callable[[ReachFeedback], None],
                 on_end: Callable[[ReachOutcome], None]) -> None:
        """Prepare the job (:meth:`start` starts it)."""
        self.request = request
        self._document = request.document(urdf)
        self._frame_id, self._stamp_ns = frame_id, stamp_ns
        self._on_feedback, self._on_end = on_feedback, on_end
        self._cancelled = threading.Event()
        self._process: Optional[subprocess.Popen] = None
        self._thread = threading.Thread(target=self._run, name='reach_study', daemon=True)

    def start(self) -> None:
        """Start the child process and the thread that reads it."""
        self._thread.start()

    def cancel(self) -> None:
        """End the study (its outcome says it was cancelled); nothing when it has ended."""
        self._cancelled.set()
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()

    def join(self, timeout: Optional[float] = None) -> bool:
        """
        Wait for the outcome to be delivered.

        :param timeout: seconds (None: no limit).
        :return: whether the job has ended.
        """
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        try:
            outcome = self._study()
        except (FrameKinematicsError, OSError, ValueError) as exc:
            outcome = _failure(shorten(f'the study failed: {exc}'))
        self._on_end(outcome)

    def _study(self) -> ReachOutcome:
        with tempfile.TemporaryDirectory(prefix='reach_study') as folder:
            visuals = os.path.join(folder, 'visuals.npz')
            errors_path = os.path.join(folder, 'errors.txt')
            with open(errors_path, 'w+') as errors:
                if self._cancelled.is_set():
                    return _failure(CANCELLED, True)
                self._process = process = subprocess.Popen(
                    [sys.executable, '-m', WORKER], stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=errors, text=True)
                if self._cancelled.is_set():
                    process.terminate()
                last = self._read(process, visuals)
                process.wait()
                errors.seek(0)
                trace = errors.read()
            if self._cancelled.is_set():
                return _failure(CANCELLED, True)
            if 'summary' in last:
                markers, cloud = load_visuals(visuals, self._frame_id, self._stamp_ns)
                return ReachOutcome(answer_from_summary(last['summary'], last['path']),
                                    markers, cloud)
        reason = last.get('error') or last_line(trace) or f'exit status {process.returncode}'
        return _failure(shorten(f'the study failed: {reason}'))

    def _read(self, process: subprocess.Popen, visuals: str) -> dict:
        """Send the request, pass the progress on, and return the last line but progress."""
        try:
            process.stdin.write(json.dumps(dict(self._document, visuals=visuals)))
            process.stdin.close()
        except OSError:  # the child ended at once: its error line or status says why
            pass
        last: dict = {}
        for line in process.stdout:
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if not isinstance(item, dict):
                continue
            if 'progress' in item:
                self._on_feedback(ReachFeedback(*item['progress']))
            else:
                last = item
        process.stdout.close()
        return last


class ReachStudies:
    """The node's studies: at most one at a time."""

    def __init__(self) -> None:
        """No study yet."""
        self._lock = threading.Lock()
        self._busy = False
        self._job: Optional[ReachJob] = None

    def reserve(self) -> Optional[str]:
        """
        Take the one place for a new study.

        :return: None when taken (:meth:`start` or :meth:`release` follow), else why not.
        """
        with self._lock:
            if self._busy:
                return 'a reach study is running: the node runs one at a time'
            self._busy = True
            return None

    def release(self) -> None:
        """Give the place back (a goal refused after :meth:`reserve`, or a study ended)."""
        with self._lock:
            self._busy = False
            self._job = None

    def start(self, request: StudyRequest, urdf: str, frame_id: str, stamp_ns: int,
              on_feedback: Callable[[ReachFeedback], None],
              on_end: Callable[[ReachOutcome], None]) -> ReachJob:
        """
        Start a study in the reserved place; the place is given back before ``on_end``.

        :param request: the checked goal.
        :param urdf: the robot description.
        :param frame_id: the frame of the markers and cloud.
        :param stamp_ns: their stamp.
        :param on_feedback: see :class:`ReachJob`.
        :param on_end: see :class:`ReachJob`.
        :return: the job.
        """
        def end(outcome: ReachOutcome) -> None:
            self.release()
            on_end(outcome)

        job = ReachJob(request, urdf, frame_id, stamp_ns, on_feedback, end)
        with self._lock:
            self._job = job
        job.start()
        return job

    def cancel(self) -> None:
        """Cancel the running study, if any."""
        with self._lock:
            job = self._job
        if job is not None:
            job.cancel()


__all__ = ['CANCELLED', 'ReachJob', 'ReachOutcome', 'ReachStudies']
