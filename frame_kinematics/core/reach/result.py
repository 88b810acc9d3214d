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
The result of a reach study: saved and loaded as one versioned ``.npz``, summarised, queried.

Target ``(i, j)`` is orientation ``j`` at point ``i``; every array is indexed so. Positions
and orientations are in the model's root link. ``status`` says what became of a target:
:data:`STATUS_SOLVED` (first pass), :data:`STATUS_NEIGHBOUR` (seeded from a neighbour),
:data:`STATUS_UNSOLVED`, :data:`STATUS_BEYOND` (outside the reach bound, not tried).
"""

from dataclasses import dataclass
import io
import json
import os
from types import MappingProxyType
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np

from .files import file_name, MAX_STUDY_BYTES, read_arrays, read_file
from ..checks import check_number, check_point
from ..errors import ConfigurationError, quote, TargetFileError
from ..file_output import name_limit, name_too_long, replacing
from ..spatial import log_so3, rotation_from_quaternion
from ..transform_checks import check_pose

#: Version of the ``.npz`` layout that :meth:`ReachResult.save` writes.
FORMAT_VERSION = 1
STATUS_BEYOND = -1
STATUS_UNSOLVED = 0
STATUS_SOLVED = 1
STATUS_NEIGHBOUR = 2
#: The kinds of numbers of every array, and its shape from ``P`` points, ``O`` orientations
#: and ``n`` joint coordinates.
_LAYOUT = MappingProxyType({
    'points': ('f', 'P3'), 'normals': ('f', 'P3'), 'regions': ('iu', 'P'),
    'quaternions': ('f', 'PO4'), 'q': ('f', 'POn'), 'status': ('iu', 'PO'),
    'manipulability': ('f', 'PO'), 'joint_limit_margin': ('f', 'PO'), 'score': ('f', 'PO')})
#: The arrays of a study, in the order they are saved.
_ARRAYS = tuple(_LAYOUT)
#: The entries of the metadata, and their types.
_META = MappingProxyType({'robot': str, 'tip': str, 'active_joints': list, 'settings': dict,
                          'stats': dict})


def _statistics(values: np.ndarray) -> Dict[str, Optional[float]]:
    values = values[np.isfinite(values)]
    if not len(values):
        return {'min': None, 'mean': None, 'median': None, 'max': None}
    return {'min': float(values.min()), 'mean': float(values.mean()),
            'median': float(np.median(values)), 'max': float(values.max())}


def save_path(path: Union[str, os.PathLike]) -> str:
    """
    Return the file :meth:`ReachResult.save` writes for ``path``, checked before any work.

    The command line checks ``--output`` with it before a study starts.

    :param path: the file (``.npz`` is appended when missing).
    :return: the file's name.
    :raises TargetFileError: for what is not a path, a name without a file (``''``,
        ``folder/``, ``.``, ``..``), with a NUL byte or that the file system cannot encode (a
        lone surrogate), a directory that does not exist or cannot be written, a file that is
        a directory, or a name longer than the file system accepts.
    """
    name = file_name(path, 'a study path')
    if '\0' in name:
        raise TargetFileError('is not a file name: it holds a NUL byte', name)
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        raise TargetFileError('is not a file name the file system can encode', name) from None
    folder, file = os.path.split(name)
    if file in ('', os.curdir, os.pardir):
        raise TargetFileError('is not a file name', name)
    if folder and not os.path.isdir(folder):
        raise TargetFileError('cannot be written: its directory does not exist', name)
    if not os.access(folder or os.curdir, os.W_OK | os.X_OK):
        raise TargetFileError('cannot be written: its directory is not writable', name)
    name = name if name.endswith('.npz') else f'{name}.npz'
    if os.path.isdir(name):
        raise TargetFileError('cannot be written: it is a directory', name)
    if name_too_long(name):
        raise TargetFileError(f'cannot be written: its name is longer than the '
                              f'{name_limit(name)} bytes the file system accepts', name)
    return name


@dataclass(frozen=True)
class ReachComparison:
    """
    Which targets of two studies of the same targets each reaches.

    :ivar only_first: ``(P, O)`` reached by the first study only.
    :ivar only_second: ``(P, O)`` reached by the second study only.
    :ivar both: ``(P, O)`` reached by both.
    :ivar index_change: ``(P,)`` second reachability index minus the first.
    """

    only_first: np.ndarray
    only_second: np.ndarray
    both: np.ndarray
    index_change: np.ndarray

    def summary(self) -> Dict[str, int]:
        """Return the counts: ``only_first``, ``only_second``, ``both``, ``neither``."""
        total = self.both.size
        counts = {name: int(np.count_nonzero(getattr(self, name)))
                  for name in ('only_first', 'only_second', 'both')}
        counts['neither'] = total - sum(counts.values())
        return counts


@dataclass(frozen=True)
class ReachResult:
    """
    Everything a reach study found (see the module for the indexing and ``status``).

    :ivar robot: the model's name.
    :ivar tip: the tip link.
    :ivar active_joints: the joints that moved.
    :ivar points: ``(P, 3)`` target positions (m).
    :ivar normals: ``(P, 3)`` unit normals.
    :ivar regions: ``(P,)`` region labels.
    :ivar quaternions: ``(P, O, 4)`` target orientations ``[x, y, z, w]``.
    :ivar q: ``(P, O, nq)`` solutions (NaN where unsolved).
    :ivar status: ``(P, O)`` int8 status codes.
    :ivar manipulability: ``(P, O)`` (NaN where unsolved).
    :ivar joint_limit_margin: ``(P, O)`` (NaN where unsolved).
    :ivar score: ``(P, O)`` combined score (NaN where unsolved).
    :ivar settings: the study's settings (seed, budgets, tolerances, weights).
    :ivar stats: counts of the passes, the reach bound's radius and the elapsed time.
    """

    robot: str
    tip: str
    active_joints: Tuple[str, ...]
    points: np.ndarray
    normals: np.ndarray
    regions: np.ndarray
    quaternions: np.ndarray
    q: np.ndarray
    status: np.ndarray
    manipulability: np.ndarray
    joint_limit_margin: np.ndarray
    score: np.ndarray
    settings: Dict[str, Any]
    stats: Dict[str, Any]

    @property
    def reached(self) -> np.ndarray:
        """``(P, O)`` whether each target was reached."""
        return self.status >= STATUS_SOLVED

    @property
    def reachability_index(self) -> np.ndarray:
        """``(P,)`` fraction of each point's orientations reached (as capability maps)."""
        return self.reached.mean(axis=1)

    @property
    def reached_fraction(self) -> float:
        """Fraction of all targets reached."""
        return float(self.reached.mean())

    def point_score(self) -> np.ndarray:
        """Return ``(P,)`` the best combined score of each point's solutions (NaN: none)."""
        score = np.where(self.reached, self.score, -np.inf).max(axis=1)
        return np.where(np.isfinite(score), score, np.nan)

    def summary(self) -> Dict[str, Any]:
        """
        Return the counts, percent reached, score statistics and per-region breakdown.

        :return: a JSON-ready dictionary.
        """
        reached = self.reached
        # one pass over the targets for all the regions (a set may have a region per point)
        labels, which = np.unique(self.regions, return_inverse=True)
        which = which.reshape(-1)
        points = np.bincount(which, minlength=len(labels))
        hits = np.bincount(which, reached.sum(axis=1), len(labels))
        finite = np.isfinite(self.score)
        scored = np.bincount(which, finite.sum(axis=1), len(labels))
        totals = np.bincount(which, np.where(finite, self.score, 0.0).sum(axis=1), len(labels))
        width = reached.shape[1]
        regions = [{'region': int(label), 'points': int(points[k]),
                    'targets': int(points[k]) * width,
                    'percent_reached': 100.0 * float(hits[k]) / (points[k] * width),
                    'mean_index': float(hits[k]) / (points[k] * width),
                    'mean_score': float(totals[k] / scored[k]) if scored[k] else None}
                   for k, label in enumerate(labels)]
        return {'robot': self.robot, 'tip': self.tip, 'points': len(self.points),
                'orientations': int(self.status.shape[1]), 'targets': int(self.status.size),
                'reached': int(reached.sum()), 'percent_reached': 100.0 * self.reached_fraction,
                'points_fully_reached': int(np.all(reached, axis=1).sum()),
                'points_never_reached': int((~np.any(reached, axis=1)).sum()),
                'manipulability': _statistics(self.manipulability),
                'joint_limit_margin': _statistics(self.joint_limit_margin),
                'score': _statistics(self.score), 'regions': regions, **self.stats}

    def _near(self, root_p: np.ndarray, radius: float) -> np.ndarray:
        return np.nonzero(np.linalg.norm(self.points - root_p, axis=1) <= radius)[0]

    def is_reachable(self, root_T_pose, max_distance: float, max_angle: float) -> bool:
        """
        Whether a reached target lies within ``max_distance`` and ``max_angle`` of a pose.

        :param root_T_pose: ``(4, 4)`` the pose in the root link.
        :param max_distance: largest distance of the target's position (m, >= 0).
        :param max_angle: largest angle between the orientations (rad, >= 0).
        :return: True when such a reached target exists.
        :raises ConfigurationError: for a bad pose or bound.
        """
        pose = check_pose(root_T_pose, 'root_T_pose')
        max_distance = check_number(max_distance, 'max_distance must be a number >= 0', 0.0)
        max_angle = check_number(max_angle, 'max_angle must be a number >= 0', 0.0)
        rows = self._near(pose[:3, 3], max_distance)
        if not len(rows):
            return False
        rot = rotation_from_quaternion(self.quaternions[rows])
        angle = np.linalg.norm(log_so3(np.swapaxes(rot, -1, -2) @ pose[:3, :3]), axis=-1)
        return bool(np.any((angle <= max_angle) & self.reached[rows]))

    def best_near(self, root_p, radius: float) -> Optional[Dict[str, Any]]:
        """
        Return the best-scoring solution within ``radius`` of a point.

        :param root_p: ``(3,)`` the point in the root link (m).
        :param radius: search radius (m, >= 0).
        :return: ``{'point': i, 'orientation': j, 'q': ..., 'score': ...}``, or None when no
            target within the radius is reached.
        :raises ConfigurationError: for a bad point or radius.
        """
        point = check_point(root_p, 'root_p')
        rows = self._near(point, check_number(radius, 'radius must be a number >= 0', 0.0))
        score = np.where(self.reached[rows], self.score[rows], -np.inf)
        if not len(rows) or not np.isfinite(score.max()):
            return None
        i, j = np.unravel_index(int(np.argmax(score)), score.shape)
        return {'point': int(rows[i]), 'orientation': int(j), 'q': self.q[rows[i], j].copy(),
                'score': float(self.score[rows[i], j])}

    def compare(self, other: 'ReachResult') -> ReachComparison:
        """
        Compare with a study of the same targets (e.g. from another base placement).

        Target ``(i, j)`` of one study is target ``(i, j)`` of the other, as REACH compares
        its databases. The targets are in each study's root link: those of two base
        placements differ by the motion of the base, so that one rigid motion must take every
        target pose of this study to the other's (within 1e-9 m and 1e-6 rad).

        :param other: the second study.
        :return: the comparison (this study first).
        :raises ConfigurationError: when ``other`` is not a study or its targets differ.
        """
        if not isinstance(other, ReachResult):
            raise ConfigurationError(f'can compare with a ReachResult only, got '
                                     f'{type(other).__name__}')
        if self.status.shape != other.status.shape:
            raise ConfigurationError(f'cannot compare studies of different targets (points '
                                     f'or orientations): {self.status.shape} and '
                                     f'{other.status.shape} targets')
        if not _same_targets(self, other):
            raise ConfigurationError('cannot compare studies of different targets (points '
                                     'or orientations): no one rigid motion takes the first '
                                     "study's targets to the second's")
        a, b = self.reached, other.reached
        return ReachComparison(a & ~b, b & ~a, a & b,
                               other.reachability_index - self.reachability_index)

    def save(self, path: Union[str, os.PathLike]) -> str:
        """
        Save to one ``.npz`` (format :data:`FORMAT_VERSION`).

        :param path: the file (``.npz`` is appended when missing; see :func:`save_path`).
        :return: the path written.
        :raises TargetFileError: for a path :func:`save_path` refuses, a file that cannot be
            written (a FIFO nobody reads, a full disk: the file is then left as it was) or a
            study larger than :data:`~.files.MAX_STUDY_BYTES`, which :meth:`load` would
            refuse.
        """
        name = save_path(path)
        meta = {'version': FORMAT_VERSION, 'robot': self.robot, 'tip': self.tip,
                'active_joints': list(self.active_joints), 'settings': self.settings,
                'stats': self.stats}
        buffer = io.BytesIO()
        np.savez(buffer, meta=np.array(json.dumps(meta)),
                 **{key: getattr(self, key) for key in _ARRAYS})
        if buffer.tell() > MAX_STUDY_BYTES:
            raise TargetFileError(f'would be {buffer.tell()} bytes: more than the limit of '
                                  f'{MAX_STUDY_BYTES} that load reads', name)
        try:  # in full or not at all; without waiting for a reader of a FIFO
            with replacing(name) as written:
                fd = os.open(written, os.O_WRONLY | os.O_CREAT | os.O_TRUNC |
                             getattr(os, 'O_NONBLOCK', 0), 0o666)
                with open(fd, 'wb') as stream:
                    os.set_blocking(fd, True)
                    stream.write(buffer.getbuffer())
        except OSError as exc:
            raise TargetFileError(f'cannot be written: {exc.strerror or exc}', name) from None
        return name

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> 'ReachResult':
        """
        Load a study saved by :meth:`save`.

        The file is read once, at most :data:`~.files.MAX_STUDY_BYTES` (a FIFO nobody writes
        to is refused); every array's kind and shape is checked against the others.

        :param path: the ``.npz`` file.
        :return: the study.
        :raises TargetFileError: for a missing, unreadable or too large file, another format
            version, missing or bad metadata, or arrays that do not fit together.
        """
        name = file_name(path, 'a study path')
        arrays = read_arrays(read_file(name, MAX_STUDY_BYTES), name, ('meta',) + _ARRAYS,
                             MAX_STUDY_BYTES)
        missing = [key for key in ('meta',) + _ARRAYS if key not in arrays]
        if missing:
            raise TargetFileError(f"is not a reach study: no array '{missing[0]}'", name)
        meta = _meta(arrays.pop('meta'), name)
        _check_arrays(arrays, name)
        return cls(robot=meta['robot'], tip=meta['tip'],
                   active_joints=tuple(meta['active_joints']), settings=meta['settings'],
                   stats=meta['stats'], **arrays)


def _same_targets(first: ReachResult, second: ReachResult) -> bool:
    """
    Whether one rigid motion takes every target pose of ``first`` to that of ``second``.

    :param first: a study.
    :param second: a study of as many points and orientations.
    :return: True for the same targets seen from two placements of the robot's base.
    """
    rot_a = rotation_from_quaternion(first.quaternions.reshape(-1, 4))
    rot_b = rotation_from_quaternion(second.quaternions.reshape(-1, 4))
    turn = rot_b[0] @ rot_a[0].T
    shift = second.points[0] - turn @ first.points[0]
    with np.errstate(invalid='ignore', over='ignore'):
        moved = first.points @ turn.T + shift
        placed = np.all(np.abs(moved - second.points) <= 1e-9)
        turned = np.all(np.abs(turn @ rot_a - rot_b) <= 1e-6)
    return bool(placed and turned)


def _meta(array: np.ndarray, name: str) -> Dict[str, Any]:
    """Return the metadata of a saved study, checked."""
    try:
        meta = json.loads(str(array)) if array.dtype.kind == 'U' and not array.ndim else None
    except (ValueError, RecursionError):
        meta = None
    if not isinstance(meta, dict):
        raise TargetFileError("is not a reach study: its 'meta' is not a JSON object", name)
    if type(meta.get('version')) is not int or meta['version'] != FORMAT_VERSION:
        raise TargetFileError(f"has format version {quote(meta.get('version'), 20)}, this "
                              f'library reads {FORMAT_VERSION}', name)
    for key, kind in _META.items():
        if not isinstance(meta.get(key), kind):
            raise TargetFileError(f"has a bad 'meta': '{key}' must be a {kind.__name__}", name)
    if not all(isinstance(joint, str) for joint in meta['active_joints']):
        raise TargetFileError("has a bad 'meta': 'active_joints' must be names", name)
    return meta


def _check_arrays(arrays: Dict[str, np.ndarray], name: str) -> None:
    """Refuse arrays whose kinds or shapes do not fit together, or unknown status codes."""
    status = arrays['status']
    q = arrays['q']
    if status.ndim != 2 or q.ndim != 3 or not status.size:
        raise TargetFileError(f"has 'status' {status.shape} and 'q' {q.shape}: not (P, O) and "
                              '(P, O, nq) for some targets', name)
    sizes = {'P': status.shape[0], 'O': status.shape[1], 'n': q.shape[2], '3': 3, '4': 4}
    for key, (kinds, axes) in _LAYOUT.items():
        shape = tuple(sizes[axis] for axis in axes)
        if arrays[key].dtype.kind not in kinds or arrays[key].shape != shape:
            raise TargetFileError(f"has array '{key}' {arrays[key].shape} of "
                                  f'{arrays[key].dtype}, not {shape} of the study', name)
    known = (STATUS_BEYOND, STATUS_UNSOLVED, STATUS_SOLVED, STATUS_NEIGHBOUR)
    if not np.all(np.isin(status, known)):
        raise TargetFileError(f'has status codes other than {known}', name)
