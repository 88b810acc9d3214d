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
Base placement: rank candidate base poses by the reach study of the same task targets.

The task targets are given in the world (a :class:`~.targets.TargetSet` whose frame is the
world, ``frame=None``); a candidate is ``world_T_base``, the pose of the model's root link
in the world. Every candidate gets a full study (:func:`~.study.run_study`, the same seed
and settings), and the candidates are ranked by the fraction of targets reached, then by the
mean combined score of the reached ones.
"""

from dataclasses import dataclass, replace
import inspect
from typing import Callable, Optional, Sequence

import numpy as np

from .result import ReachResult
from .study import check_progress, run_study
from .targets import grid_counts, TargetSet
from ..checks import as_float_array, check_finite, check_point, check_vector
from ..errors import ConfigurationError, name_list, UnknownOptionError
from ..robot import Robot
from ..spatial import inverse, rotation_from_rpy, transform
from ..transform_checks import check_transform

#: Most candidate base poses of one ranking.
MAX_CANDIDATES = 100000


@dataclass(frozen=True)
class BaseRanking:
    """
    Candidate base poses with their study's figures, and the best one's study.

    :ivar world_T_bases: ``(C, 4, 4)`` the candidates, in the order given.
    :ivar reached: ``(C,)`` fraction of the targets reached from each.
    :ivar mean_score: ``(C,)`` mean combined score of the reached targets (NaN: none).
    :ivar order: ``(C,)`` candidate indices, best first.
    :ivar best: the study of the best candidate.
    """

    world_T_bases: np.ndarray
    reached: np.ndarray
    mean_score: np.ndarray
    order: np.ndarray
    best: ReachResult


def floor_grid(x_range: Sequence[float], y_range: Sequence[float], step: float,
               z: float = 0.0, yaw: float = 0.0) -> np.ndarray:
    """
    Candidate base poses on a grid of the floor plane (corners included), one yaw.

    :param x_range: ``(x_min, x_max)`` (m).
    :param y_range: ``(y_min, y_max)`` (m).
    :param step: grid spacing (m, > 0).
    :param z: height of the base (m).
    :param yaw: rotation of the base about z (rad).
    :return: ``(C, 4, 4)`` ``world_T_base``.
    :raises ConfigurationError: for bad ranges or more than :data:`MAX_CANDIDATES`.
    """
    xr, yr = check_vector(x_range, 2, 'x_range'), check_vector(y_range, 2, 'y_range')
    values = check_point([step, z, yaw], 'step, z, yaw')
    step = float(values[0])
    if not step > 0 or xr.ndim != 1 or yr.ndim != 1 or xr[1] < xr[0] or yr[1] < yr[0]:
        raise ConfigurationError('a floor grid needs step > 0 and ranges (min, max)')
    nx, ny = grid_counts(np.array([xr[0], yr[0]]), np.array([xr[1], yr[1]]), step)
    if nx * ny > MAX_CANDIDATES:
        raise ConfigurationError(f'a floor grid of {nx * ny:.4g} candidates: more than the '
                                 f'limit of {MAX_CANDIDATES}')
    x, y = np.meshgrid(xr[0] + step * np.arange(int(nx)), yr[0] + step * np.arange(int(ny)),
                       indexing='ij')
    xyz = np.stack([x.ravel(), y.ravel(), np.full(x.size, values[1])], axis=-1)
    return transform(rotation_from_rpy(np.array([0.0, 0.0, values[2]])), xyz)


def rank_bases(model: Robot, tip: str, targets: TargetSet, world_T_bases, *,
               progress: Optional[Callable[[int, int, str], None]] = None,
               **study_options) -> BaseRanking:
    """
    Run a study from every candidate base pose and rank them.

    :param model: the robot model.
    :param tip: the tip link.
    :param targets: the task targets, in the world (``targets.frame`` must be None).
    :param world_T_bases: ``(C, 4, 4)`` candidate poses of the root link in the world.
    :param progress: called as ``progress(done, total, what)`` after every candidate.
    :param study_options: keyword options of :func:`~.study.run_study`.
    :return: the ranking.
    :raises ConfigurationError: for bad candidates, targets not in the world or a
        ``progress`` that is not callable.
    :raises UnknownOptionError: for an option :func:`~.study.run_study` does not take (before
        any study).
    """
    check_progress(progress)
    taken = inspect.signature(run_study).parameters
    unknown = [name for name in study_options
               if name not in taken or taken[name].kind is not inspect.Parameter.KEYWORD_ONLY
               or name == 'progress']
    if unknown:
        raise UnknownOptionError(f'rank_bases got options run_study does not take: '
                                 f'{name_list(unknown)}')
    if not isinstance(targets, TargetSet) or targets.frame is not None:
        raise ConfigurationError('base placement needs targets in the world (frame=None)')
    bases = as_float_array(world_T_bases, 'world_T_bases')
    if bases.ndim == 2:
        bases = bases[None]
    if bases.ndim != 3 or bases.shape[1:] != (4, 4) or not len(bases) or \
            len(bases) > MAX_CANDIDATES:
        raise ConfigurationError(f'world_T_bases must be (C, 4, 4) with 1 <= C <= '
                                 f'{MAX_CANDIDATES}, got {bases.shape}')
    check_transform(check_finite(bases, 'world_T_bases'), 'world_T_bases')
    reached = np.zeros(len(bases))
    mean_score = np.full(len(bases), np.nan)
    best, best_key = None, None
    for c, world_T_base in enumerate(bases):
        placed = replace(targets, frame_T_workpiece=inverse(world_T_base)
                         @ targets.frame_T_workpiece)
        result = run_study(model, tip, placed, **study_options)
        reached[c] = result.reached_fraction
        scores = result.score[result.reached]
        if len(scores):
            mean_score[c] = float(scores.mean())
        key = (reached[c], 0.0 if np.isnan(mean_score[c]) else mean_score[c])
        if best_key is None or key > best_key:
            best, best_key = result, key
        if progress is not None:
            progress(c + 1, len(bases), f'base poses, best {100 * best_key[0]:.1f} % reached')
    order = np.lexsort((-np.nan_to_num(mean_score, nan=-1.0), -reached))
    return BaseRanking(bases.copy(), reached, mean_score, order, best)
