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
What RViz shows of a reach study, as plain data (no ROS): a heat map and a point cloud.

:func:`heat_map` makes the content of the node's ``~/reach/markers`` topic (a
``visualization_msgs/MarkerArray``): one ``SPHERE_LIST`` marker per colouring, every target
point a sphere, in the model's root link (where the study's points are):

* namespace ``reach_index``, id 0: coloured by the point's reachability index (the fraction of
  its orientations reached);
* namespace ``reach_score``, id 0: coloured by the best combined score of the point's
  solutions (grey where none).

Colour map (:func:`heat_colors`, values in ``[0, 1]``): red ``(1, 0, 0)`` at 0, yellow
``(1, 1, 0)`` at 0.5, green ``(0, 1, 0)`` at 1, linear in between, alpha
:data:`HEAT_ALPHA`; a point without a value (NaN: no solution) is grey
(:data:`NO_VALUE_COLOR`). The spheres' diameter is :data:`SPHERE_FRACTION` of the median
distance between a point and its nearest neighbour.

:func:`reach_cloud` makes the ``~/reach/points`` topic's content (a
``sensor_msgs/PointCloud2``): one point per target point with the float32 fields ``x``,
``y``, ``z``, ``score`` (best combined score, NaN where none) and ``reachability`` (the
index), little-endian, unorganised (height 1).
"""

from dataclasses import dataclass
from typing import List, Tuple

import numpy as np

from ..core.reach import ReachResult
from ..core.reach.neighbours import nearest

#: Marker namespaces of the heat map.
INDEX_NAMESPACE = 'reach_index'
SCORE_NAMESPACE = 'reach_score'
#: Alpha of a point with a value.
HEAT_ALPHA = 0.9
#: Colour of a point without a value (no solution).
NO_VALUE_COLOR = (0.5, 0.5, 0.5, 0.3)
#: Sphere diameter as a fraction of the points' spacing.
SPHERE_FRACTION = 0.6
#: Sphere diameter of a study of one point (m).
SINGLE_POINT_DIAMETER = 0.02
#: The point cloud's fields (float32 each, in this order).
CLOUD_FIELDS = ('x', 'y', 'z', 'score', 'reachability')


@dataclass(frozen=True)
class HeatMapMarker:
    """
    One ``SPHERE_LIST`` marker: spheres of one size with a colour each (pose: identity).

    :ivar namespace: marker namespace.
    :ivar marker_id: id within the namespace.
    :ivar frame_id: header frame id.
    :ivar stamp_ns: header stamp (ns).
    :ivar diameter: every sphere's diameter (m).
    :ivar points: ``(N, 3)`` centres.
    :ivar colors: ``(N, 4)`` RGBA in ``[0, 1]``.
    """

    namespace: str
    marker_id: int
    frame_id: str
    stamp_ns: int
    diameter: float
    points: np.ndarray
    colors: np.ndarray


@dataclass(frozen=True)
class CloudOut:
    """
    The content of a ``sensor_msgs/PointCloud2`` of float32 fields (height 1).

    :ivar frame_id: header frame id.
    :ivar stamp_ns: header stamp (ns).
    :ivar width: number of points.
    :ivar fields: ``(name, byte offset)`` of every float32 field.
    :ivar point_step: bytes per point.
    :ivar data: the points, little-endian.
    """

    frame_id: str
    stamp_ns: int
    width: int
    fields: Tuple[Tuple[str, int], ...]
    point_step: int
    data: bytes


def heat_colors(values: np.ndarray) -> np.ndarray:
    """
    Colour values in ``[0, 1]`` red - yellow - green (see the module); NaN grey.

    :param values: ``(N,)`` values (clipped to ``[0, 1]``).
    :return: ``(N, 4)`` RGBA.
    """
    v = np.clip(np.asarray(values, dtype=float), 0.0, 1.0)
    colors = np.empty(v.shape + (4,))
    colors[:, 0] = np.minimum(1.0, 2.0 * (1.0 - v))
    colors[:, 1] = np.minimum(1.0, 2.0 * v)
    colors[:, 2] = 0.0
    colors[:, 3] = HEAT_ALPHA
    colors[np.isnan(v)] = NO_VALUE_COLOR
    return colors


def point_spacing(points: np.ndarray) -> float:
    """
    Return the median distance of a point to its nearest neighbour (0 for one point).

    :param points: ``(N, 3)``.
    :return: the distance (m).
    """
    if len(points) < 2:
        return 0.0
    distances, _ = nearest(points, points, 2, np.inf)
    spacing = distances[:, 1]
    spacing = spacing[np.isfinite(spacing) & (spacing > 0)]
    return float(np.median(spacing)) if len(spacing) else 0.0


def heat_map(result: ReachResult, frame_id: str, stamp_ns: int) -> List[HeatMapMarker]:
    """
    Return the heat map of a study: by reachability index, then by score (see the module).

    :param result: the study.
    :param frame_id: the (prefixed) root link of the study's model.
    :param stamp_ns: the markers' stamp.
    :return: the two markers.
    """
    spacing = point_spacing(result.points)
    diameter = SPHERE_FRACTION * spacing if spacing > 0 else SINGLE_POINT_DIAMETER
    points = np.array(result.points, dtype=float)
    return [HeatMapMarker(INDEX_NAMESPACE, 0, frame_id, stamp_ns, diameter, points,
                          heat_colors(result.reachability_index)),
            HeatMapMarker(SCORE_NAMESPACE, 0, frame_id, stamp_ns, diameter, points.copy(),
                          heat_colors(result.point_score()))]


def reach_cloud(result: ReachResult, frame_id: str, stamp_ns: int) -> CloudOut:
    """
    Return the point cloud of a study (see the module for the fields).

    :param result: the study.
    :param frame_id: the (prefixed) root link of the study's model.
    :param stamp_ns: the cloud's stamp.
    :return: the cloud.
    """
    table = np.empty((len(result.points), len(CLOUD_FIELDS)), dtype='<f4')
    table[:, :3] = result.points
    table[:, 3] = result.point_score()
    table[:, 4] = result.reachability_index
    size = table.dtype.itemsize
    return CloudOut(frame_id, stamp_ns, len(table),
                    tuple((name, k * size) for k, name in enumerate(CLOUD_FIELDS)),
                    size * len(CLOUD_FIELDS), table.tobytes())


__all__ = ['CLOUD_FIELDS', 'CloudOut', 'heat_colors', 'heat_map', 'HeatMapMarker',
           'HEAT_ALPHA', 'INDEX_NAMESPACE', 'NO_VALUE_COLOR', 'point_spacing', 'reach_cloud',
           'SCORE_NAMESPACE', 'SINGLE_POINT_DIAMETER', 'SPHERE_FRACTION']
