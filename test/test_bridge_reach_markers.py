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
"""A reach study's heat map and cloud (frame_kinematics.bridge.reach_markers)."""

from frame_kinematics.bridge.reach_markers import (CLOUD_FIELDS, heat_colors, heat_map,
                                                   INDEX_NAMESPACE, load_visuals,
                                                   NO_VALUE_COLOR, reach_cloud, save_visuals,
                                                   SCORE_NAMESPACE)
from frame_kinematics.core.reach import ReachResult
import numpy as np
import pytest


def _hand_result():
    """Three points, two orientations: indices 1, 0.5, 0; best scores 0.8, 0.4, none."""
    nan = np.nan
    return ReachResult(
        robot='r', tip='t', active_joints=('j',),
        points=np.array([[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.3, 0.0, 0.0]]),
        normals=np.tile([0.0, 0.0, 1.0], (3, 1)), regions=np.zeros(3, dtype=np.int64),
        quaternions=np.tile([0.0, 0.0, 0.0, 1.0], (3, 2, 1)), q=np.zeros((3, 2, 1)),
        status=np.array([[1, 2], [1, 0], [0, -1]], dtype=np.int8),
        manipulability=np.zeros((3, 2)), joint_limit_margin=np.zeros((3, 2)),
        score=np.array([[0.2, 0.8], [0.4, nan], [nan, nan]]), settings={}, stats={})


def test_heat_map_against_hand_values():
    index, score = heat_map(_hand_result(), 'prefix/base_link', 123)
    assert (index.namespace, score.namespace) == (INDEX_NAMESPACE, SCORE_NAMESPACE)
    assert index.frame_id == 'prefix/base_link' and index.stamp_ns == 123
    # nearest neighbours at 0.1, 0.1, 0.2 m: median 0.1 m, spheres of 0.6 of it
    assert index.diameter == pytest.approx(0.06)
    np.testing.assert_allclose(index.points, _hand_result().points)
    np.testing.assert_allclose(index.colors, [[0, 1, 0, 0.9], [1, 1, 0, 0.9], [1, 0, 0, 0.9]])
    np.testing.assert_allclose(score.colors, [[0.4, 1, 0, 0.9], [1, 0.8, 0, 0.9],
                                              NO_VALUE_COLOR])


def test_heat_colors_clip_and_grey_out():
    np.testing.assert_allclose(heat_colors(np.array([-1.0, 2.0, 0.25]))[:, :3],
                               [[1, 0, 0], [0, 1, 0], [1, 0.5, 0]])


def test_cloud_against_hand_values():
    cloud = reach_cloud(_hand_result(), 'base_link', 5)
    assert cloud.width == 3 and cloud.point_step == 20
    assert cloud.fields == tuple(zip(CLOUD_FIELDS, (0, 4, 8, 12, 16)))
    table = np.frombuffer(cloud.data, dtype='<f4').reshape(3, 5)
    np.testing.assert_allclose(table[:, :3], _hand_result().points, atol=1e-7)
    np.testing.assert_allclose(table[:2, 3], [0.8, 0.4], rtol=1e-6)
    assert np.isnan(table[2, 3])
    np.testing.assert_allclose(table[:, 4], [1.0, 0.5, 0.0])


def test_the_visuals_saved_by_the_study_process_are_the_heat_map_and_cloud(tmp_path):
    save_visuals(_hand_result(), str(tmp_path / 'v.npz'))
    markers, cloud = load_visuals(str(tmp_path / 'v.npz'), 'base_link', 9)
    assert cloud == reach_cloud(_hand_result(), 'base_link', 9)
    expected_markers = heat_map(_hand_result(), 'base_link', 9)
    assert len(markers) == len(expected_markers) > 0
    for got, expected in zip(markers, expected_markers):
        assert (got.namespace, got.frame_id, got.stamp_ns) == \
            (expected.namespace, expected.frame_id, expected.stamp_ns)
        assert got.diameter == expected.diameter
        np.testing.assert_array_equal(got.colors, expected.colors)
    np.save(tmp_path / 'other.npy', np.zeros(3))
    with pytest.raises((OSError, ValueError)):
        load_visuals(str(tmp_path / 'other.npy'), 'base_link', 9)
