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

The study's process makes both (:func:`save_visuals`) and the node reads them
(:func:`load_visuals`): the node's interpreter, which its ``/tf`` path needs, does no more
than read a few arrays.
"""

from dataclasses import dataclass
from typing import Dict, List, Tuple

import numpy as np

from ..core.reach import ReachResult
from ..core.reach.neighbours import point_spacing

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
#: The arrays :func:`save_visuals` writes.
_TABLES = ('points', 'diameter', 'index_colors', 'score_colors', 'cloud')


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


def _tables(result: ReachResult) -> Dict[str, np.ndarray]:
    """Return the arrays the heat map and the cloud are made of (see :func:`save_visuals`)."""
    spacing = point_spacing(result.points)
    diameter = SPHERE_FRACTION * spacing if spacing > 0 else SINGLE_POINT_DIAMETER
    cloud = np.empty((len(result.points), len(CLOUD_FIELDS)), dtype='<f4')
    cloud[:, :3] = result.points
    cloud[:, 3] = result.point_score()
    cloud[:, 4] = result.reachability_index
    return {'points': np.array(result.points, dtype=float), 'diameter': np.array(diameter),
            'index_colors': heat_colors(result.reachability_index),
            'score_colors': heat_colors(result.point_score()), 'cloud': cloud}


def _markers(tables: Dict[str, np.ndarray], frame_id: str,
             stamp_ns: int) -> List[HeatMapMarker]:
    diameter = float(tables['diameter'])
    return [HeatMapMarker(INDEX_NAMESPACE, 0, frame_id, stamp_ns, diameter,
                          np.array(tables['points']), np.array(tables['index_colors'])),
            HeatMapMarker(SCORE_NAMESPACE, 0, frame_id, stamp_ns, diameter,
                          np.array(tables['points']), np.array(tables['score_colors']))]


def _cloud(tables: Dict[str, np.ndarray], frame_id: str, stamp_ns: int) -> CloudOut:
    table = np.ascontiguousarray(tables['cloud'], dtype='<f4')
    size = table.dtype.itemsize
    return CloudOut(frame_id, stamp_ns, len(table),
                    tuple((name, k * size) for k, name in enumerate(CLOUD_FIELDS)),
                    size * len(CLOUD_FIELDS), table.tobytes())


def heat_map(result: ReachResult, frame_id: str, stamp_ns: int) -> List[HeatMapMarker]:
    """
    Return the heat map of a study: by reachability index, then by score (see the module).

    :param result: the study.
    :param frame_id: the (prefixed) root link of the study's model.
    :param stamp_ns: the markers' stamp.
    :return: the two markers.
    """
    return _markers(_tables(result), frame_id, stamp_ns)


def reach_cloud(result: ReachResult, frame_id: str, stamp_ns: int) -> CloudOut:
    """
    Return the point cloud of a study (see the module for the fields).

    :param result: the study.
    :param frame_id: the (prefixed) root link of the study's model.
    :param stamp_ns: the cloud's stamp.
    :return: the cloud.
    """
    return _cloud(_tables(result), frame_id, stamp_ns)


def save_visuals(result: ReachResult, path: str) -> None:
    """
    Save what :func:`load_visuals` needs to make the heat map and cloud of a study.

    The study's process does the work (the neighbour search of the spacing, the colours), so
    that the node only reads a few arrays.

    :param result: the study.
    :param path: an ``.npz`` file.
    """
    with open(path, 'wb') as handle:
        np.savez(handle, **_tables(result))


def load_visuals(path: str, frame_id: str,
                 stamp_ns: int) -> Tuple[List[HeatMapMarker], CloudOut]:
    """
    Read the heat map and the cloud that :func:`save_visuals` saved.

    :param path: the file.
    :param frame_id: the (prefixed) root link of the study's model.
    :param stamp_ns: their stamp.
    :return: ``(heat map, cloud)``, equal to :func:`heat_map` and :func:`reach_cloud`.
    :raises OSError: for a missing file.
    :raises ValueError: for a file that is not such arrays.
    """
    archive = np.load(path, allow_pickle=False)
    try:
        tables = {name: np.array(archive[name]) for name in _TABLES}
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f'{path} is not the heat map of a study: {exc}') from None
    finally:
        if hasattr(archive, 'close'):
            archive.close()
    return _markers(tables, frame_id, stamp_ns), _cloud(tables, frame_id, stamp_ns)


__all__ = ['CLOUD_FIELDS', 'CloudOut', 'heat_colors', 'heat_map', 'HeatMapMarker',
           'HEAT_ALPHA', 'INDEX_NAMESPACE', 'load_visuals', 'NO_VALUE_COLOR',
           'reach_cloud', 'save_visuals', 'SCORE_NAMESPACE', 'SINGLE_POINT_DIAMETER',
           'SPHERE_FRACTION']
