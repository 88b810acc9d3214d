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
One model's tables packed into two flat read-only arrays, and their views in compiled code.

numba checks the type of every array argument of every call (about 40 ns each) and every
view taken in compiled code costs a reference count, so the kernels called from Python take
the joint kernel's and the topology's tables as one integer and one float array
(:func:`pack`), holding one row per link and one row per motion column:

* integers: the link count ``n``, the column count ``c`` and the floating-joint count ``f``;
  the link rows ``(n, 3)``: ``type_code``, ``q_index``, ``parent``; the column rows
  ``(c, 3)``: ``column_row``, ``column_v`` and the ``subtree_end`` of the column's link;
  then the ``q`` index of every floating joint's quaternion;
* floats: the bound :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE` and
  :data:`~frame_kinematics.core.spatial.QUATERNION_NORM_TOLERANCE`; the link rows
  ``(n, 26)``: ``origin`` (rotation row by row, then translation, from :data:`ORIGIN`),
  ``axis`` (:data:`AXIS`), ``multiplier`` and ``offset`` (:data:`SCALE`), the plane basis
  row by row (:data:`PLANE`, see :func:`~frame_kinematics.core.joints.plane_basis`); the
  column rows ``(c, 7)``: ``column_multiplier`` and ``column_twist``.
"""

from typing import Tuple, TYPE_CHECKING

import numba
import numpy as np

from ..checks import MAX_MAGNITUDE
from ..joints import frozen, JointType, plane_basis
from ..spatial import QUATERNION_NORM_TOLERANCE

if TYPE_CHECKING:  # pragma: no cover
    from ..joints import JointKernel
    from ..model import RobotModel

#: Columns of the float link rows.
ORIGIN, AXIS, SCALE, PLANE = 0, 12, 15, 17
_LINK_FLOATS = 26
_INT_HEADER = 3
_FLOAT_HEADER = 2


def pack(model: 'RobotModel') -> Tuple[np.ndarray, np.ndarray]:
    """
    Pack the tables of ``model`` (see the module's description).

    :param model: the robot model (its kernel, topology and layout).
    :return: ``(ints, floats)``, read-only int64 and float64 arrays.
    """
    kernel = model.kernel
    topology = model.topology
    n = len(kernel.type_code)
    quaternions = [iq + 3 for iq, _, _ in model.layout.floating]
    link_floats = np.concatenate([
        kernel.origin[:, :3, :3].reshape(n, 9), kernel.origin[:, :3, 3], kernel.axis,
        kernel.multiplier[:, None], kernel.offset[:, None], plane_bases(kernel).reshape(n, 9)],
        axis=1)
    column_ints = np.stack([kernel.column_row, kernel.column_v,
                            topology.subtree_end[kernel.column_row]], axis=-1)
    ints = np.concatenate([
        [n, kernel.n_columns, len(quaternions)],
        np.stack([kernel.type_code, kernel.q_index, topology.parent], axis=-1).ravel(),
        column_ints.ravel(), quaternions]).astype(np.int64)
    floats = np.concatenate([
        [MAX_MAGNITUDE, QUATERNION_NORM_TOLERANCE], link_floats.ravel(),
        np.concatenate([kernel.column_multiplier[:, None], kernel.column_twist],
                       axis=1).ravel()]).astype(np.float64)
    return frozen(ints), frozen(floats)


def plane_bases(kernel: 'JointKernel') -> np.ndarray:
    """
    Return the plane basis of every row of a joint kernel, ``(n, 3, 3)`` (identity if not planar).

    :param kernel: the joint kernel (a model's, or an inverse-kinematics chain's).
    """
    return np.reshape([plane_basis(kernel.axis[i]) if t is JointType.PLANAR else np.eye(3)
                       for i, t in enumerate(kernel.types)], (-1, 3, 3))


@numba.njit(cache=True, inline='always')
def links(ints, floats):
    """
    Return views of the link rows.

    :return: ``(ri, rf)``: ``(n, 3)`` integers and ``(n, 26)`` floats.
    """
    n = ints[0]
    i, f = _INT_HEADER, _FLOAT_HEADER
    return (ints[i:i + 3 * n].reshape((n, 3)),
            floats[f:f + _LINK_FLOATS * n].reshape((n, _LINK_FLOATS)))


@numba.njit(cache=True, inline='always')
def columns(ints, floats):
    """
    Return views of the motion-column rows.

    :return: ``(ci, cf)``: ``(c, 3)`` integers ``(row, v, subtree_end[row])`` and ``(c, 7)``
        floats ``(multiplier, twist)``.
    """
    n, c = ints[0], ints[1]
    i, f = _INT_HEADER + 3 * n, _FLOAT_HEADER + _LINK_FLOATS * n
    return ints[i:i + 3 * c].reshape((c, 3)), floats[f:f + 7 * c].reshape((c, 7))


@numba.njit(cache=True, inline='always')
def input_checks(ints, floats):
    """
    Return what a configuration is checked against.

    :return: ``(bound, tolerance, quaternions)``: the largest magnitude, the quaternion norm
        tolerance and the ``q`` index of every floating joint's quaternion.
    """
    n, c, f = ints[0], ints[1], ints[2]
    start = _INT_HEADER + 3 * n + 3 * c
    return floats[0], floats[1], ints[start:start + f]


@numba.njit(cache=True, error_model='numpy', inline='always')
def copy_configuration(ints, floats, q, out):
    """
    Copy ``q`` into ``out`` if it passes the input checks, quaternions normalised.

    The checks of :meth:`RobotModel.check_configuration
    <frame_kinematics.core.model.RobotModel.check_configuration>`, as a yes or no: every
    entry finite and within the bound, every floating joint's quaternion of unit norm within
    the tolerance. The caller gets the message from the Python check when this says no.

    :return: whether ``q`` passed (``out`` is partly written when not).
    """
    bound, tolerance, quaternions = input_checks(ints, floats)
    for i in range(len(q)):
        x = q[i]
        if not abs(x) <= bound:
            return False
        out[i] = x
    for k in range(len(quaternions)):
        i = quaternions[k]
        norm = np.sqrt(out[i] * out[i] + out[i + 1] * out[i + 1] + out[i + 2] * out[i + 2]
                       + out[i + 3] * out[i + 3])
        if not abs(norm - 1.0) <= tolerance:
            return False
        for j in range(4):
            out[i + j] /= norm
    return True
