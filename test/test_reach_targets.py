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
"""Reach study targets: grid and shell counts, orientation sets, frames, refusals."""

import warnings

from frame_kinematics.core import ConfigurationError
from frame_kinematics.core.reach import (cone_orientations, grid_targets, make_targets,
                                         MAX_TARGETS, shell_targets, single_orientation,
                                         so3_orientations)
from frame_kinematics.core.reach.targets import align_z
from frame_kinematics.core.spatial import log_so3
import numpy as np
import pytest


def _angles(a, b):
    return np.linalg.norm(log_so3(np.swapaxes(a, -1, -2) @ b), axis=-1)


def test_grid_counts_corners_and_layers():
    targets = grid_targets([0, 0, 0], [0.4, 0.2, 0.1], 0.1)
    assert targets.shape == (5 * 3 * 2, 1)
    assert np.allclose(targets.points.min(axis=0), [0, 0, 0])
    assert np.allclose(targets.points.max(axis=0), [0.4, 0.2, 0.1])
    assert sorted(set(targets.regions.tolist())) == [0, 1]
    assert np.allclose(targets.points[targets.regions == 1, 2], 0.1)


def test_shells_lie_on_their_spheres_with_inward_normals():
    center = np.array([0.1, -0.2, 0.3])
    targets = shell_targets(center, [0.2, 0.5], 50)
    assert targets.shape == (100, 1)
    radius = np.linalg.norm(targets.points - center, axis=1)
    assert np.allclose(radius[targets.regions == 0], 0.2)
    assert np.allclose(radius[targets.regions == 1], 0.5)
    inward = (center - targets.points) / radius[:, None]
    assert np.allclose(targets.normals, inward)
    poses = targets.poses()
    assert np.allclose(poses[:, 0, :3, 2], inward)  # the target's z axis is the normal


def test_cone_orientations_tilt_and_spin():
    rot = cone_orientations(0.4, 6, 3)
    assert rot.shape == ((1 + 6) * 3, 3, 3)
    tilt = np.arccos(np.clip(rot[:, 2, 2], -1, 1))
    assert np.allclose(tilt[:3], 0.0)
    assert np.allclose(tilt[3:], 0.4)
    assert np.allclose(_angles(rot[0], rot[1]), 2 * np.pi / 3)
    assert cone_orientations(0.0, 6, 4).shape == (4, 3, 3)


def test_so3_orientations_are_spread():
    rot = so3_orientations(64)
    assert rot.shape == (64, 3, 3)
    assert np.allclose(rot @ np.swapaxes(rot, -1, -2), np.eye(3), atol=1e-12)
    pairwise = _angles(rot[:, None], rot[None])
    nearest = np.min(pairwise + 10 * np.eye(64), axis=1)
    assert nearest.min() > 0.3  # no two orientations close together
    assert nearest.max() < 1.2  # and no large hole


def test_align_z_takes_z_to_the_normal_and_handles_minus_z():
    normals = np.array([[0, 0, 1.0], [0, 0, -1.0], [1.0, 0, 0], [0.6, 0, 0.8]])
    rot = align_z(normals)
    assert np.allclose(rot[:, :, 2], normals)
    assert np.allclose(np.linalg.det(rot), 1.0)


def test_targets_use_orientation_about_normal_and_workpiece_pose():
    rot = single_orientation([0.0, 0.0, 0.5])
    targets = make_targets([[1.0, 2.0, 3.0]], [[0, 0, 2.0]], rot, frame='base_link',
                           frame_T_workpiece=np.diag([1.0, 1.0, 1.0, 1.0]))
    pose = targets.poses()[0, 0]
    assert np.allclose(pose[:3, :3], rot[0])
    assert np.allclose(pose[:3, 3], [1, 2, 3])
    assert targets.frame == 'base_link'


@pytest.mark.parametrize('make, words', [
    (lambda: grid_targets([0, 0, 0], [1, 1, 1], 1e-4), 'GB'),
    (lambda: shell_targets([0, 0, 0], [1.0], 10 ** 9), 'limit'),
    (lambda: make_targets(np.zeros((0, 3))), 'P >= 1'),
    (lambda: make_targets([[0, 0, np.nan]]), 'NaN'),
    (lambda: make_targets([[0, 0, 0]], [[0, 0, 0]]), 'zero-length'),
    (lambda: make_targets([[0, 0, 0]], orientations=np.ones((1, 3, 3))), 'orthonormal'),
    (lambda: cone_orientations(4.0, 2, 2), 'half_angle'),
    (lambda: so3_orientations(0), 'count'),
])
def test_bad_requests_are_refused_before_any_work(make, words):
    with pytest.raises(ConfigurationError, match=words):
        make()


def test_a_ten_gigabyte_grid_names_its_size():
    with pytest.raises(ConfigurationError) as info:
        grid_targets([0, 0, 0], [1, 1, 1], 2e-3, so3_orientations(64))
    assert f'limit of {MAX_TARGETS}' in str(info.value)
    assert '8.01 GB' in str(info.value) or 'GB' in str(info.value)


@pytest.mark.parametrize('step', [5e-324, 1e-300, 1e-200])
def test_a_step_whose_count_overflows_is_refused_without_a_numpy_warning(step):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with pytest.raises(ConfigurationError, match=f'limit of {MAX_TARGETS}'):
            grid_targets([-1e16, -1e16, -1e16], [1e16, 1e16, 1e16], step)


def test_point_rotations_give_each_point_its_frame():
    frames = so3_orientations(3)
    targets = make_targets(np.eye(3), point_rotations=frames,
                           orientations=single_orientation([0.0, 0.0, 0.3]))
    poses = targets.poses()
    assert np.allclose(poses[:, 0, :3, :3], frames @ single_orientation([0.0, 0.0, 0.3])[0])
    assert np.allclose(targets.normals, frames[:, :, 2])
    with pytest.raises(ConfigurationError, match='not both'):
        make_targets(np.eye(3), np.eye(3), point_rotations=frames)
    with pytest.raises(ConfigurationError, match='orthonormal'):
        make_targets(np.eye(3), point_rotations=2 * frames)


@pytest.mark.parametrize('orientations', [5, float('nan'), {'a': 1}, 'xyz'])
def test_orientations_are_checked_before_they_are_counted(orientations):
    with pytest.raises(ConfigurationError, match='orientations'):
        grid_targets([0, 0, 0], [1, 1, 1], 0.5, orientations)
    with pytest.raises(ConfigurationError, match='orientations'):
        shell_targets([0, 0, 0], [1.0], 4, orientations)


@pytest.mark.parametrize('call', [lambda: so3_orientations(10 ** 400),
                                  lambda: shell_targets([0, 0, 0], [1.0], -10 ** 400),
                                  lambda: cone_orientations(0.5, 10 ** 400, 1)])
def test_a_count_beyond_the_floats_is_refused_in_the_librarys_words(call):
    with pytest.raises(ConfigurationError, match='an integer of 13.. bits'):
        call()


@pytest.mark.parametrize('pose, words', [
    (np.stack([np.eye(4)] * 2), 'frame_T_workpiece must be one 4x4 transform, got shape'),
    (np.diag([1.0, 1.0, 2.0, 1.0]), 'frame_T_workpiece has a rotation that is not orthonormal'),
    ([[1, 0, 0, 1e17], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
     'frame_T_workpiece has NaN or inf or a magnitude above'),
])
def test_a_workpiece_pose_is_one_rigid_transform(pose, words):
    with pytest.raises(ConfigurationError, match=words):
        make_targets([[0.0, 0.0, 0.0]], frame_T_workpiece=pose)
