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
Reach study targets: points (a grid in a box, sphere shells, a file) with an orientation set.

A :class:`TargetSet` holds ``P`` points with a frame each and ``O`` orientations expressed
in that frame: target ``(i, j)`` is the pose whose position is point ``i`` and whose
rotation is ``point_rotation_i @ orientation_j``. A point given with a normal ``n`` has the
frame ``align(n)``, the smallest rotation taking the z axis to ``n`` (the point's frame may
also be given whole, e.g. targets made from configurations). A point without a normal (a
grid's) has ``+z``, so that its orientations are those of the frame the targets are in. As
in REACH, the target's z axis is the normal as given: flip the normals of a file for a tool
that must point into the surface.

The targets are expressed in ``frame`` (a link of the model; default its root), placed by
``frame_T_workpiece``. Every count is checked against :data:`MAX_TARGETS` before any array
is made.

Orientation sets: :func:`single_orientation`, :func:`cone_orientations` (approach directions
on a cone about the normal, each with rotations about itself) and :func:`so3_orientations`
(a super-Fibonacci spiral: Alexa, "Super-Fibonacci Spirals", CVPR 2022, near-uniform over
SO(3) for any count).
"""

from dataclasses import dataclass
import math
from typing import Optional, Sequence, Tuple

import numpy as np

from ..checks import as_float_array, check_count, check_finite, check_point, check_vector
from ..errors import ConfigurationError
from ..spatial import (rotation_from_axis_angle, rotation_from_quaternion, rotation_from_rpy,
                       transform)
from ..transform_checks import check_pose, check_transform

#: Most targets (points times orientations) of one set: 128 bytes of pose each, 1 GB.
MAX_TARGETS = 2 ** 23
#: Most orientations per point.
MAX_ORIENTATIONS = 4096
#: Bytes of one target pose (a 4x4 float matrix), to name the memory a refused set would take.
POSE_BYTES = 128
#: The second constant of the super-Fibonacci spiral (the root of x**4 = x + 4).
_PSI = 1.533751168755204288118041


def check_target_count(count: float, what: str) -> int:
    """
    Refuse a number of targets above :data:`MAX_TARGETS`, before anything is allocated.

    :param count: the number asked for (may be a huge float).
    :param what: what makes the targets, for the message.
    :return: the count as an int.
    :raises ConfigurationError: when it is too large (the message gives the memory it needs).
    """
    if not count <= MAX_TARGETS:
        gigabytes = count * POSE_BYTES / 1e9
        raise ConfigurationError(f'{what} makes {count:.4g} targets ({gigabytes:.3g} GB of '
                                 f'poses): more than the limit of {MAX_TARGETS}')
    return int(count)


def grid_counts(low: np.ndarray, high: np.ndarray, step: float) -> Tuple[float, ...]:
    """
    Count the points of a grid on every axis, from ``low`` to ``high`` (both included).

    :param low: lowest corner.
    :param high: highest corner (``>= low``).
    :param step: grid spacing (> 0).
    :return: the counts, as floats: ``inf`` for a step so small that the count overflows
        (without numpy's warning), which :func:`check_target_count` then refuses.
    """
    with np.errstate(over='ignore'):
        counts = np.floor((np.asarray(high) - np.asarray(low)) / step + 1e-9) + 1
    return tuple(float(count) for count in counts)


def _unit_rows(vectors: np.ndarray, name: str) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1)
    bad = ~(norms > 1e-9)
    if np.any(bad):
        raise ConfigurationError(f'{name} has a zero-length normal at row {int(np.argmax(bad))}')
    return vectors / norms[..., None]


def align_z(normals: np.ndarray) -> np.ndarray:
    """
    Return the smallest rotations taking the z axis to unit vectors (``-z``: a half turn about x).

    :param normals: ``(..., 3)`` unit vectors.
    :return: ``(..., 3, 3)`` rotations.
    """
    n = np.asarray(normals, dtype=float)
    axis = np.stack([-n[..., 1], n[..., 0], np.zeros(n.shape[:-1])], axis=-1)
    sin = np.linalg.norm(axis, axis=-1)
    angle = np.arctan2(sin, n[..., 2])
    flat = sin < 1e-12
    axis = np.where(flat[..., None], np.array([1.0, 0.0, 0.0]),
                    axis / np.where(flat, 1.0, sin)[..., None])
    return rotation_from_axis_angle(axis, np.where(flat & (n[..., 2] > 0), 0.0, angle))


def single_orientation(rpy: Sequence[float] = (0.0, 0.0, 0.0)) -> np.ndarray:
    """
    One orientation about the normal, from roll-pitch-yaw (URDF convention).

    :param rpy: the angles (rad).
    :return: ``(1, 3, 3)``.
    :raises ConfigurationError: for bad angles.
    """
    return rotation_from_rpy(check_point(rpy, 'rpy'))[None]


def cone_orientations(half_angle: float, directions: int, rotations: int) -> np.ndarray:
    """
    Approach directions on a cone about the normal, each with rotations about itself.

    The normal itself, then ``directions`` directions tilted by ``half_angle`` and spread
    evenly in azimuth (none when ``half_angle`` is 0); each with ``rotations`` rotations
    about the direction, evenly spread over a turn.

    :param half_angle: the cone's half angle (rad, 0 to pi).
    :param directions: tilted directions (0 to 1024).
    :param rotations: rotations about every direction (1 to 1024).
    :return: ``((1 + directions) * rotations, 3, 3)`` (``rotations`` without a tilt).
    :raises ConfigurationError: for bad values or more than :data:`MAX_ORIENTATIONS`.
    """
    half = float(check_vector([half_angle], 1, 'half_angle')[0])
    if not 0.0 <= half <= math.pi:
        raise ConfigurationError(f'half_angle must be between 0 and pi, got {half:g}')
    directions = check_count(directions, 'directions', 0, 1024) if half > 0 else 0
    rotations = check_count(rotations, 'rotations', 1, 1024)
    if (1 + directions) * rotations > MAX_ORIENTATIONS:
        raise ConfigurationError(f'{(1 + directions) * rotations} orientations: more than '
                                 f'the limit of {MAX_ORIENTATIONS}')
    azimuth = 2.0 * np.pi * np.arange(directions) / max(directions, 1)
    tilt_axes = np.stack([-np.sin(azimuth), np.cos(azimuth), np.zeros(directions)], axis=-1)
    tilts = np.concatenate([np.eye(3)[None],
                            rotation_from_axis_angle(tilt_axes, np.full(directions, half))])
    spins = rotation_from_axis_angle(np.array([0.0, 0.0, 1.0]),
                                     2.0 * np.pi * np.arange(rotations) / rotations)
    return (tilts[:, None] @ spins[None]).reshape(-1, 3, 3)


def so3_orientations(count: int) -> np.ndarray:
    """
    ``count`` orientations spread over SO(3): a super-Fibonacci spiral (Alexa 2022).

    :param count: how many (1 to :data:`MAX_ORIENTATIONS`).
    :return: ``(count, 3, 3)``.
    :raises ConfigurationError: for a bad count.
    """
    n = check_count(count, 'count', 1, MAX_ORIENTATIONS)
    s = np.arange(n) + 0.5
    r = np.sqrt(s / n)
    big = np.sqrt(1.0 - s / n)
    alpha = 2.0 * np.pi * s / math.sqrt(2.0)
    beta = 2.0 * np.pi * s / _PSI
    quat = np.stack([r * np.sin(alpha), r * np.cos(alpha), big * np.sin(beta),
                     big * np.cos(beta)], axis=-1)
    return rotation_from_quaternion(quat)


def _orientations(orientations) -> np.ndarray:
    rot = as_float_array(orientations, 'orientations')
    if rot.ndim == 2:
        rot = rot[None]
    if rot.ndim != 3 or rot.shape[1:] != (3, 3) or not len(rot):
        raise ConfigurationError(f'orientations must have shape (O, 3, 3) with O >= 1, got '
                                 f'{rot.shape}')
    check_count(len(rot), 'number of orientations', 1, MAX_ORIENTATIONS)
    check_finite(rot, 'orientations')
    check_transform(transform(rot, np.zeros(3)), 'orientations')
    return rot


@dataclass(frozen=True)
class TargetSet:
    """
    Points with normals, an orientation set, and the frame they are expressed in.

    Build one with :func:`make_targets`, :func:`grid_targets` or :func:`shell_targets` (they
    validate and copy); a study reads it and never changes it.

    :ivar points: ``(P, 3)`` positions in the workpiece frame (m).
    :ivar point_rotations: ``(P, 3, 3)`` frame of every point in the workpiece frame (its z
        axis is the point's normal).
    :ivar orientations: ``(O, 3, 3)`` rotations in the point's frame (see the module).
    :ivar regions: ``(P,)`` region label of every point (summaries break down by it).
    :ivar frame: the model's link the workpiece is placed in (None: the root link).
    :ivar frame_T_workpiece: ``(4, 4)`` pose of the workpiece in ``frame``.
    """

    points: np.ndarray
    point_rotations: np.ndarray
    orientations: np.ndarray
    regions: np.ndarray
    frame: Optional[str]
    frame_T_workpiece: np.ndarray

    @property
    def shape(self) -> Tuple[int, int]:
        """``(P, O)``: points and orientations per point."""
        return len(self.points), len(self.orientations)

    @property
    def normals(self) -> np.ndarray:
        """Return the unit normals, the z axes of the points' frames, ``(P, 3)``."""
        return self.point_rotations[:, :, 2]

    def __len__(self) -> int:
        """Return the number of targets, ``P * O``."""
        return len(self.points) * len(self.orientations)

    def poses(self) -> np.ndarray:
        """
        Return ``workpiece_T_target`` of every target.

        :return: a new ``(P, O, 4, 4)`` array.
        """
        rot = self.point_rotations[:, None] @ self.orientations[None]
        out = np.zeros(rot.shape[:2] + (4, 4))
        out[..., :3, :3] = rot
        out[..., :3, 3] = self.points[:, None]
        out[..., 3, 3] = 1.0
        return out


def make_targets(points, normals=None, orientations=None, regions=None,
                 frame: Optional[str] = None, frame_T_workpiece=None,
                 point_rotations=None) -> TargetSet:
    """
    Validate and copy points, normals and orientations into a :class:`TargetSet`.

    :param points: ``(P, 3)`` positions (m), ``P >= 1``.
    :param normals: ``(P, 3)`` normals (normalised here; default ``+z``).
    :param orientations: ``(O, 3, 3)`` rotations about the normal (default: the identity).
    :param regions: ``(P,)`` whole-number labels (default 0).
    :param frame: the link the workpiece is placed in (checked by the study; None: root).
    :param frame_T_workpiece: ``(4, 4)`` pose of the workpiece (default identity).
    :param point_rotations: ``(P, 3, 3)`` the points' frames, instead of ``normals``.
    :return: the target set.
    :raises ConfigurationError: for a bad shape, NaN or inf, an empty set, a zero normal,
        both normals and frames, or more than :data:`MAX_TARGETS` targets.
    """
    pts = as_float_array(points, 'points')
    if pts.ndim != 2 or pts.shape[1] != 3 or not len(pts):
        raise ConfigurationError(f'points must have shape (P, 3) with P >= 1, got {pts.shape}')
    check_finite(pts, 'points', ('x', 'y', 'z'))
    if point_rotations is not None:
        if normals is not None:
            raise ConfigurationError('give normals or point_rotations, not both')
        frames = as_float_array(point_rotations, 'point_rotations')
        if frames.shape != (len(pts), 3, 3):
            raise ConfigurationError(f'point_rotations must be ({len(pts)}, 3, 3), got '
                                     f'{frames.shape}')
        check_transform(transform(check_finite(frames, 'point_rotations'), np.zeros(3)),
                        'point_rotations')
    elif normals is None:
        frames = np.tile(np.eye(3), (len(pts), 1, 1))
    else:
        nrm = as_float_array(normals, 'normals')
        if nrm.shape != pts.shape:
            raise ConfigurationError(f'normals must have the shape of the points {pts.shape}, '
                                     f'got {nrm.shape}')
        frames = align_z(_unit_rows(check_finite(nrm, 'normals', ('nx', 'ny', 'nz')),
                                    'normals'))
    rot = np.eye(3)[None] if orientations is None else _orientations(orientations)
    check_target_count(float(len(pts)) * len(rot), f'{len(pts)} points x {len(rot)} '
                       'orientations')
    if regions is None:
        labels = np.zeros(len(pts), dtype=np.int64)
    else:
        raw = as_float_array(regions, 'regions')
        if raw.shape != (len(pts),) or not np.all(np.isfinite(raw)) or \
                np.any(raw != np.round(raw)) or np.any(np.abs(raw) > 2 ** 31):
            raise ConfigurationError(f'regions must be {len(pts)} whole numbers')
        labels = raw.astype(np.int64)
    pose = np.eye(4) if frame_T_workpiece is None else \
        check_pose(frame_T_workpiece, 'frame_T_workpiece')
    if frame is not None and (not isinstance(frame, str) or not frame.strip()):
        raise ConfigurationError('frame must be a link name (a non-empty string)')
    return TargetSet(pts, frames, rot, labels, frame, pose)


def grid_targets(low, high, step: float, orientations=None, frame: Optional[str] = None,
                 frame_T_workpiece=None) -> TargetSet:
    """
    Points on a regular grid in a box (corners included), regions by z layer.

    :param low: ``(3,)`` lowest corner (m).
    :param high: ``(3,)`` highest corner (m).
    :param step: grid spacing (m, > 0).
    :param orientations: see :func:`make_targets`.
    :param frame: see :func:`make_targets`.
    :param frame_T_workpiece: see :func:`make_targets`.
    :return: the target set.
    :raises ConfigurationError: for bad bounds, or too many targets (before any work).
    """
    lo, hi = check_point(low, 'low'), check_point(high, 'high')
    step = float(check_vector([step], 1, 'step')[0])
    if not step > 0 or np.any(hi < lo):
        raise ConfigurationError('a grid needs step > 0 and high >= low on every axis')
    counts = grid_counts(lo, hi, step)
    if orientations is not None:
        orientations = _orientations(orientations)
    n_rot = 1 if orientations is None else len(orientations)
    check_target_count(math.prod(counts) * n_rot, f'a grid with step {step:g} m')
    axes = [lo[k] + step * np.arange(int(counts[k])) for k in range(3)]
    xyz = np.stack(np.meshgrid(*axes, indexing='ij'), axis=-1).reshape(-1, 3)
    layers = np.repeat(np.arange(int(counts[2]))[None], int(counts[0] * counts[1]), 0)
    return make_targets(xyz, None, orientations, layers.reshape(-1), frame, frame_T_workpiece)


def shell_targets(center, radii: Sequence[float], count: int, orientations=None,
                  frame: Optional[str] = None, frame_T_workpiece=None) -> TargetSet:
    """
    Points on spheres about a centre (a Fibonacci lattice of ``count`` points per shell).

    The normals point to the centre (a tool approaching from outside); regions are shells.

    :param center: ``(3,)`` centre (m).
    :param radii: radii of the shells (m, > 0).
    :param count: points per shell (1 or more).
    :param orientations: see :func:`make_targets`.
    :param frame: see :func:`make_targets`.
    :param frame_T_workpiece: see :func:`make_targets`.
    :return: the target set.
    :raises ConfigurationError: for bad values, or too many targets (before any work).
    """
    c = check_point(center, 'center')
    r = check_finite(as_float_array(radii, 'radii').reshape(-1), 'radii')
    if not len(r) or np.any(r <= 0):
        raise ConfigurationError('radii must be one or more numbers > 0')
    n = check_count(count, 'count', 1, 10 ** 15)
    if orientations is not None:
        orientations = _orientations(orientations)
    n_rot = 1 if orientations is None else len(orientations)
    check_target_count(float(n) * len(r) * n_rot, f'{len(r)} shells of {n} points')
    k = np.arange(n) + 0.5
    z = 1.0 - 2.0 * k / n
    phi = np.pi * (1.0 + math.sqrt(5.0)) * k
    ring = np.sqrt(1.0 - z * z)
    unit = np.stack([ring * np.cos(phi), ring * np.sin(phi), z], axis=-1)
    xyz = (c + r[:, None, None] * unit[None]).reshape(-1, 3)
    normals = np.tile(-unit, (len(r), 1))
    shells = np.repeat(np.arange(len(r)), n)
    return make_targets(xyz, normals, orientations, shells, frame, frame_T_workpiece)
