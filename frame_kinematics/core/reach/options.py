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
The settings of a study's targets, as a user gives them, and the targets they make.

The command line (``frame-kinematics reach``) and the node's ``ReachStudy`` action take the
same settings: exactly one kind of points (a grid in a box, sphere shells or a file of points
with normals), at most one orientation set, the frame and the workpiece pose.
:func:`targets_from_options` is the one place that reads them; each caller names the settings
in its own words (``--box`` on the command line, ``box`` in a goal) through ``spell``.
"""

from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Callable, Optional, Sequence

import numpy as np

from .cloud import read_points
from .targets import (cone_orientations, grid_targets, make_targets, shell_targets,
                      single_orientation, so3_orientations, TargetSet)
from ..checks import check_one_vector, check_point
from ..errors import ConfigurationError
from ..spatial import transform_from_xyz_rpy

#: The names of the settings as :class:`TargetOptions` spells them.
Spelling = Callable[[str], str]


def _as_is(name: str) -> str:
    return name


#: The settings that go with one kind of targets.
_COMPANIONS = MappingProxyType({'step': 'box', 'radii': 'sphere', 'count': 'sphere'})


@dataclass(frozen=True)
class TargetOptions:
    """
    The targets of a study as given (None: not given); :func:`targets_from_options` checks.

    :ivar box: ``(x0, y0, z0, x1, y1, z1)`` a grid in this box (m), with ``step``.
    :ivar step: grid spacing (m).
    :ivar sphere: ``(x, y, z)`` shells about this centre (m), with ``radii`` and ``count``.
    :ivar radii: shell radii (m).
    :ivar count: points per shell.
    :ivar points: a file of points with normals (.csv, .txt, .npz, .ply, .pcd).
    :ivar frame: the link the targets are given in (None: the root link).
    :ivar workpiece_xyz: workpiece position in ``frame`` (m).
    :ivar workpiece_rpy: workpiece roll, pitch, yaw (rad).
    :ivar rpy: one orientation in the point's frame (rad).
    :ivar cone: ``(angle, directions, rotations)``: see
        :func:`~.targets.cone_orientations`.
    :ivar so3: orientations spread over SO(3).
    """

    box: Optional[Sequence[float]] = None
    step: Optional[float] = None
    sphere: Optional[Sequence[float]] = None
    radii: Optional[Sequence[float]] = None
    count: Optional[int] = None
    points: Optional[str] = None
    frame: Optional[str] = None
    workpiece_xyz: Sequence[float] = (0.0, 0.0, 0.0)
    workpiece_rpy: Sequence[float] = (0.0, 0.0, 0.0)
    rpy: Optional[Sequence[float]] = None
    cone: Optional[Sequence[float]] = None
    so3: Optional[int] = None


#: The names of the settings, in order.
TARGET_SETTINGS = tuple(item.name for item in fields(TargetOptions))


def _orientations(options: TargetOptions, spell: Spelling) -> Optional[np.ndarray]:
    given = [name for name in ('rpy', 'cone', 'so3') if getattr(options, name) is not None]
    if len(given) > 1:
        raise ConfigurationError('give at most one orientation set: '
                                 f"{' or '.join(spell(name) for name in given)}, not both")
    if options.rpy is not None:
        return single_orientation(options.rpy)
    if options.cone is not None:
        try:
            angle, directions, rotations = options.cone
        except (TypeError, ValueError):
            raise ConfigurationError(f'{spell("cone")} is an angle, a number of directions '
                                     'and a number of rotations') from None
        try:
            return cone_orientations(angle, directions, rotations)
        except ConfigurationError as exc:
            raise ConfigurationError(f'{spell("cone")}: {exc}') from None
    if options.so3 is not None:
        return so3_orientations(options.so3)
    return None


def targets_from_options(options: TargetOptions, spell: Spelling = _as_is) -> TargetSet:
    """
    Build the targets of the settings (a box, shells or a file), before any model work.

    :param options: the settings.
    :param spell: how the caller names a setting in a message (``box`` -> ``--box``).
    :return: the targets.
    :raises ConfigurationError: for none or several kinds of points, a missing companion
        setting, several orientation sets, a bad value or too many targets.
    :raises TargetFileError: for an unreadable points file.
    """
    given = [name for name in ('box', 'sphere', 'points') if getattr(options, name) is not None]
    if len(given) != 1:
        raise ConfigurationError(
            f"give one kind of targets: {spell('box')} (with {spell('step')}), "
            f"{spell('sphere')} (with {spell('radii')}, {spell('count')}) or {spell('points')}"
            f"{', not ' if given else ''}{' and '.join(spell(name) for name in given)}")
    for companion, owner in _COMPANIONS.items():
        if getattr(options, companion) is not None and owner != given[0]:
            raise ConfigurationError(f'{spell(companion)} goes with {spell(owner)}, not with '
                                     f'{spell(given[0])}')
    rot = _orientations(options, spell)
    pose = transform_from_xyz_rpy(check_point(options.workpiece_xyz, spell('workpiece_xyz')),
                                  check_point(options.workpiece_rpy, spell('workpiece_rpy')))
    where = {'frame': options.frame, 'frame_T_workpiece': pose}
    if options.box is not None:
        if options.step is None:
            raise ConfigurationError(f"{spell('box')} needs {spell('step')}")
        box = check_one_vector(options.box, 6, f"{spell('box')} (x0 y0 z0 x1 y1 z1)")
        return grid_targets(box[:3], box[3:], options.step, rot, **where)
    if options.sphere is not None:
        if options.radii is None or options.count is None:
            raise ConfigurationError(f"{spell('sphere')} needs {spell('radii')} and "
                                     f"{spell('count')}")
        return shell_targets(options.sphere, options.radii, options.count, rot, **where)
    points, normals = read_points(options.points)
    return make_targets(points, normals, rot, **where)


__all__ = ['Spelling', 'TARGET_SETTINGS', 'TargetOptions', 'targets_from_options']
