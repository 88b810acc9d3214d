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
rl::kin's distance family, for planners' nearest-neighbour search (k-d trees).

The metric is a product of the joints' own metrics: one-dof joints and the translations of
planar and floating joints are Euclidean (m or rad), continuous joints and the angle of planar
joints wrap around (the distance between ``-pi + e`` and ``pi - e`` is ``2 e``), and the
rotation of a floating joint counts its angle (rad, at most ``pi``). The *transformed distance*
is the square of the distance: a sum of one term per coordinate (per rotation, for floating
joints), cheap to compare and to update when a k-d tree crosses a cutting plane.

Unlike :func:`frame_kinematics.core.configuration.distance` (the norm of the SE(3) and SE(2)
logarithms, which couple a base's rotation with its translation), this metric splits into
coordinates, which is what a k-d tree needs. The rectangle distances bound the distance from a
configuration to every configuration in an axis-aligned box of coordinates (a k-d tree's
cell): they are exact for one-dof, planar and translation coordinates and a bound for
quaternions. Every function takes single configurations ``(nq,)`` or batches ``(B, nq)``.
"""

from typing import Tuple, Union

import numpy as np

from .checks import as_float_array, check_count, check_finite, check_vector
from .errors import ConfigurationError, name_list
from .joints.layout import wrap_angle

__all__ = ['coordinate_kinds', 'coordinate_min_distance_to_rectangle',
           'coordinate_transformed_distance', 'distance', 'inverse_of_transformed_distance',
           'joint_transformed_distances', 'LINEAR', 'max_distance_to_rectangle',
           'min_distance_to_rectangle', 'new_distance', 'QUATERNION', 'transform_distance',
           'transformed_distance', 'WRAP']

#: How each coordinate is measured: Euclidean, an angle that wraps, a quaternion entry.
LINEAR, WRAP, QUATERNION = 0, 1, 2

_SQRT2 = np.sqrt(2.0)


def coordinate_kinds(model) -> np.ndarray:
    """
    How each coordinate of a model's ``q`` is measured.

    :param model: the robot model.
    :return: a new ``(nq,)`` int array of :data:`LINEAR`, :data:`WRAP`, :data:`QUATERNION`.
    """
    kinds = np.full(model.nq, LINEAR, dtype=np.int64)
    layout = model.layout
    kinds[layout.wrap_q] = WRAP
    for iq, _, _ in layout.planar:
        kinds[iq + 2] = WRAP
    for iq, _, _ in layout.floating:
        kinds[iq + 3:iq + 7] = QUATERNION
    return kinds


def _float(value, name: str) -> Union[float, np.ndarray]:
    arr = check_finite(as_float_array(value, name), name)
    return float(arr) if arr.ndim == 0 else arr


def _result(d: np.ndarray) -> Union[float, np.ndarray]:
    return float(d) if d.ndim == 0 else d


def _rotation_angle(quat_a: np.ndarray, quat_b: np.ndarray) -> np.ndarray:
    """Angle of the rotation between unit quaternions (accurate near 0 and ``pi``)."""
    chord = np.minimum(np.linalg.norm(quat_a - quat_b, axis=-1),
                       np.linalg.norm(quat_a + quat_b, axis=-1))
    return 4.0 * np.arcsin(np.minimum(chord, _SQRT2) / 2.0)


def _terms(kinds: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Return the transformed term of each coordinate's offset (quaternion entries: 0)."""
    offset = np.where(kinds == WRAP, wrap_angle(offset), offset)
    return np.where(kinds == QUATERNION, 0.0, offset * offset)


def joint_transformed_distances(model, q1, q2) -> np.ndarray:
    """
    Return the transformed distance joint by joint (summing to :func:`transformed_distance`).

    :param model: the robot model.
    :param q1: ``(nq,)`` or ``(B, nq)``.
    :param q2: ``(nq,)`` or ``(B, nq)`` (broadcast against ``q1``).
    :return: ``(n,)`` or ``(B, n)``, one column per actuated joint, in
        :attr:`~RobotModel.actuated_joints` order.
    :raises ConfigurationError: for wrong shapes, NaN, inf or non-unit quaternions.
    """
    q1 = model.check_configuration(q1, 'q1')
    q2 = model.check_configuration(q2, 'q2')
    terms = _terms(coordinate_kinds(model), q2 - q1)
    starts = [joint.idx_q for joint in model.actuated_joints]
    shape = terms.shape[:-1] + (len(starts),)
    if not starts:
        return np.zeros(shape)
    per_joint = np.add.reduceat(terms, starts, axis=-1)
    for iq, _, _ in model.layout.floating:
        at = slice(iq + 3, iq + 7)
        per_joint[..., starts.index(iq)] += _rotation_angle(q1[..., at], q2[..., at]) ** 2
    return per_joint


def transformed_distance(model, q1, q2) -> Union[float, np.ndarray]:
    """
    Return the squared distance of configurations (rl::kin's ``transformedDistance(q1, q2)``).

    :param model: the robot model.
    :param q1: ``(nq,)`` or ``(B, nq)``.
    :param q2: ``(nq,)`` or ``(B, nq)``.
    :return: a float, or ``(B,)``.
    :raises ConfigurationError: for wrong shapes, NaN, inf or non-unit quaternions.
    """
    return _result(np.sum(joint_transformed_distances(model, q1, q2), axis=-1))


def distance(model, q1, q2) -> Union[float, np.ndarray]:
    """
    Return the distance between configurations: the root of :func:`transformed_distance`.

    :param model: the robot model.
    :param q1: ``(nq,)`` or ``(B, nq)``.
    :param q2: ``(nq,)`` or ``(B, nq)``.
    :return: a float, or ``(B,)``.
    :raises ConfigurationError: for wrong shapes, NaN, inf or non-unit quaternions.
    """
    return _result(np.sqrt(np.asarray(transformed_distance(model, q1, q2))))


def transform_distance(d) -> Union[float, np.ndarray]:
    """
    Return a distance's transformed value, its square (rl::kin's ``transformedDistance(d)``).

    :param d: distances (a number or an array), non-negative.
    :return: ``d ** 2``.
    :raises ConfigurationError: for NaN, inf, huge or negative values.
    """
    d = _float(d, 'distance')
    if np.any(np.asarray(d) < 0):
        raise ConfigurationError('a distance must be non-negative')
    return d * d


def inverse_of_transformed_distance(d) -> Union[float, np.ndarray]:
    """
    Return the distance of a transformed distance, its root (``inverseOfTransformedDistance``).

    :param d: transformed distances (a number or an array), non-negative.
    :return: ``sqrt(d)``.
    :raises ConfigurationError: for NaN, inf, huge or negative values.
    """
    d = _float(d, 'transformed distance')
    if np.any(np.asarray(d) < 0):
        raise ConfigurationError('a transformed distance must be non-negative')
    return _result(np.sqrt(d))


def _index(model, index) -> int:
    if model.nq == 0:
        raise ConfigurationError(f"robot '{model.name}' has no coordinates")
    return check_count(index, 'coordinate index', 0, model.nq - 1)


def coordinate_transformed_distance(model, a, b, index) -> Union[float, np.ndarray]:
    """
    One coordinate's transformed term (rl::kin's ``transformedDistance(q1, q2, i)``).

    A quaternion entry's term is 0: a rotation is measured as a whole, in
    :func:`transformed_distance`, so a sum of coordinate terms never exceeds it.

    :param model: the robot model.
    :param a: values of coordinate ``index`` (a number or an array).
    :param b: other values of it (broadcast against ``a``).
    :param index: the coordinate, ``0 <= index < nq``.
    :return: ``(b - a) ** 2``, the offset wrapped for angles that wrap.
    :raises ConfigurationError: for a bad index, NaN, inf or huge values.
    """
    i = _index(model, index)
    kinds = coordinate_kinds(model)[i]
    offset = np.asarray(_float(b, 'b')) - np.asarray(_float(a, 'a'))
    return _result(_terms(kinds, offset))


def new_distance(model, dist, old_offset, new_offset, index) -> Union[float, np.ndarray]:
    """
    Update a transformed distance when one coordinate's offset changes (``newDistance``).

    A k-d tree's incremental bound: ``dist`` minus the old offset's term plus the new one's,
    along the cutting coordinate ``index`` (angles wrap, quaternion entries count 0).

    :param model: the robot model.
    :param dist: the transformed distance so far.
    :param old_offset: the coordinate's previous offset.
    :param new_offset: its new offset.
    :param index: the cutting coordinate.
    :return: the updated transformed distance.
    :raises ConfigurationError: for a bad index, NaN, inf or huge values.
    """
    i = _index(model, index)
    kinds = coordinate_kinds(model)[i]
    old = _terms(kinds, np.asarray(_float(old_offset, 'old offset')))
    new = _terms(kinds, np.asarray(_float(new_offset, 'new offset')))
    return _result(np.asarray(_float(dist, 'distance')) - old + new)


def _rectangle(model, lower, upper) -> Tuple[np.ndarray, np.ndarray]:
    lower = check_vector(lower, model.nq, 'rectangle lower', model.configuration_names)
    upper = check_vector(upper, model.nq, 'rectangle upper', model.configuration_names)
    if np.any(lower > upper):
        bad = np.unique(np.nonzero(lower > upper)[-1])
        raise ConfigurationError('rectangle lower is above upper for '
                                 + name_list(model.configuration_names[i] for i in bad))
    return lower, upper


def _arc_offsets(q: np.ndarray, lower: np.ndarray, upper: np.ndarray
                 ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Whether ``q`` is on the arc ``[lower, upper]``, and its wrapped offsets to the ends."""
    width = upper - lower
    from_lower = np.mod(q - lower, 2.0 * np.pi)
    on_arc = (width >= 2.0 * np.pi) | (from_lower <= width)
    return on_arc, np.abs(wrap_angle(q - lower)), np.abs(wrap_angle(q - upper))


def _coordinate_bounds(kinds: np.ndarray, q: np.ndarray, lower: np.ndarray,
                       upper: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Nearest and farthest offset of each coordinate to its interval (quaternions: 0)."""
    near = np.maximum(np.maximum(lower - q, q - upper), 0.0)
    far = np.maximum(np.abs(q - lower), np.abs(q - upper))
    wrap = kinds == WRAP
    if np.any(wrap):
        on_arc, to_lower, to_upper = _arc_offsets(q, lower, upper)
        antipode_on_arc, _, _ = _arc_offsets(q + np.pi, lower, upper)
        near = np.where(wrap, np.where(on_arc, 0.0, np.minimum(to_lower, to_upper)), near)
        far = np.where(wrap, np.where(antipode_on_arc, np.pi, np.maximum(to_lower, to_upper)),
                       far)
    quaternion = kinds == QUATERNION
    return np.where(quaternion, 0.0, near), np.where(quaternion, 0.0, far)


def _rectangle_distances(model, q, lower, upper) -> Tuple[np.ndarray, np.ndarray]:
    q = model.check_configuration(q)
    lower, upper = _rectangle(model, lower, upper)
    near, far = _coordinate_bounds(coordinate_kinds(model), q, lower, upper)
    low = np.sum(near * near, axis=-1)
    high = np.sum(far * far, axis=-1)
    for iq, _, _ in model.layout.floating:
        at = slice(iq + 3, iq + 7)
        quat, lo, hi = q[..., at], lower[at], upper[at]
        nearest = [np.linalg.norm(np.maximum(np.maximum(lo - s, s - hi), 0.0), axis=-1)
                   for s in (quat, -quat)]
        farthest = [np.linalg.norm(np.maximum(np.abs(s - lo), np.abs(s - hi)), axis=-1)
                    for s in (quat, -quat)]
        low = low + (4.0 * np.arcsin(np.minimum(np.minimum(*nearest), _SQRT2) / 2.0)) ** 2
        high = high + (4.0 * np.arcsin(np.minimum(np.minimum(*farthest), _SQRT2) / 2.0)) ** 2
    return low, high


def min_distance_to_rectangle(model, q, lower, upper) -> Union[float, np.ndarray]:
    """
    Return a lower bound of the transformed distance from ``q`` to any point of a box.

    rl::kin's ``minDistanceToRectangle(q, min, max)``: exact (the squared distance to the
    nearest point) for every coordinate but quaternions, whose rotation angle is bounded
    below.

    :param model: the robot model.
    :param q: ``(nq,)`` or ``(B, nq)``.
    :param lower: ``(nq,)`` the box's lower corner (finite).
    :param upper: ``(nq,)`` its upper corner (``lower <= upper``; an angle's arc runs from
        lower to upper, all the way round when ``upper - lower >= 2 pi``).
    :return: a float, or ``(B,)``.
    :raises ConfigurationError: for wrong shapes, NaN, inf, or ``lower > upper``.
    """
    return _result(_rectangle_distances(model, q, lower, upper)[0])


def max_distance_to_rectangle(model, q, lower, upper) -> Union[float, np.ndarray]:
    """
    Return an upper bound of the transformed distance from ``q`` to any point of a box.

    rl::kin's ``maxDistanceToRectangle(q, min, max)`` (see :func:`min_distance_to_rectangle`).

    :param model: the robot model.
    :param q: ``(nq,)`` or ``(B, nq)``.
    :param lower: ``(nq,)`` the box's lower corner.
    :param upper: ``(nq,)`` its upper corner.
    :return: a float, or ``(B,)``.
    :raises ConfigurationError: for wrong shapes, NaN, inf, or ``lower > upper``.
    """
    return _result(_rectangle_distances(model, q, lower, upper)[1])


def coordinate_min_distance_to_rectangle(model, value, lower, upper, index
                                         ) -> Union[float, np.ndarray]:
    """
    One coordinate's term of :func:`min_distance_to_rectangle` (the cutting-dimension form).

    :param model: the robot model.
    :param value: values of coordinate ``index`` (a number or an array).
    :param lower: the interval's lower end.
    :param upper: its upper end (``lower <= upper``).
    :param index: the coordinate.
    :return: the squared offset to the interval (0 inside it, and for quaternion entries).
    :raises ConfigurationError: for a bad index, NaN, inf, or ``lower > upper``.
    """
    i = _index(model, index)
    kinds = coordinate_kinds(model)[i]
    value = np.asarray(_float(value, 'value'))
    lower = np.asarray(_float(lower, 'lower'))
    upper = np.asarray(_float(upper, 'upper'))
    if np.any(lower > upper):
        raise ConfigurationError('lower is above upper')
    near, _ = _coordinate_bounds(kinds, value, lower, upper)
    return _result(near * near)
