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

numba checks the type of every array argument of every call (about 40 ns each), so the
kernels called from Python take the joint kernel's and the topology's tables as one integer
and one float array (:func:`pack`) and take views of them (:func:`links`, :func:`columns`,
:func:`input_checks`), which costs nothing. The arrays hold:

* integers: the link count ``n``, the column count ``c`` and the floating-joint count ``f``,
  then ``type_code``, ``q_index``, ``parent``, ``subtree_end`` (``n`` each), ``column_row``,
  ``column_v`` (``c`` each) and the ``q`` index of every floating joint's quaternion;
* floats: the magnitude bound of :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE` and
  :data:`~frame_kinematics.core.spatial.QUATERNION_NORM_TOLERANCE`, then ``origin``
  (``16 n``), ``axis`` (``3 n``), ``multiplier``, ``offset`` (``n`` each), the plane bases
  (``9 n``, see :func:`~frame_kinematics.core.joints.plane_basis`), ``column_multiplier``
  (``c``) and ``column_twist`` (``6 c``).
"""

from typing import Tuple, TYPE_CHECKING

import numba
import numpy as np

from ..checks import MAX_MAGNITUDE
from ..joints import frozen, JointType, plane_basis
from ..spatial import QUATERNION_NORM_TOLERANCE

if TYPE_CHECKING:  # pragma: no cover
    from ..model import RobotModel

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
    quaternions = [iq + 3 for iq, _, _ in model.layout.floating]
    planes = [plane_basis(kernel.axis[i]) if t is JointType.PLANAR else np.eye(3)
              for i, t in enumerate(kernel.types)]
    ints = np.concatenate([
        [len(kernel.type_code), kernel.n_columns, len(quaternions)], kernel.type_code,
        kernel.q_index, topology.parent, topology.subtree_end, kernel.column_row,
        kernel.column_v, quaternions]).astype(np.int64)
    floats = np.concatenate([
        [MAX_MAGNITUDE, QUATERNION_NORM_TOLERANCE], kernel.origin.ravel(), kernel.axis.ravel(),
        kernel.multiplier, kernel.offset, np.ravel(planes), kernel.column_multiplier,
        kernel.column_twist.ravel()]).astype(np.float64)
    return frozen(ints), frozen(floats)


@numba.njit(cache=True, inline='always')
def links(ints, floats):
    """
    Return views of the link tables.

    :return: ``(type_code, axis, origin, q_index, multiplier, offset, plane, parent)``, the
        arguments of :func:`~frame_kinematics.core.accel.poses.poses_into`.
    """
    n = ints[0]
    i, f = _INT_HEADER, _FLOAT_HEADER
    return (ints[i:i + n], floats[f + 16 * n:f + 19 * n].reshape((n, 3)),
            floats[f:f + 16 * n].reshape((n, 4, 4)), ints[i + n:i + 2 * n],
            floats[f + 19 * n:f + 20 * n], floats[f + 20 * n:f + 21 * n],
            floats[f + 21 * n:f + 30 * n].reshape((n, 3, 3)), ints[i + 2 * n:i + 3 * n])


@numba.njit(cache=True, inline='always')
def columns(ints, floats):
    """
    Return views of the motion-column tables and the topology's ``subtree_end``.

    :return: ``(column_row, column_v, column_multiplier, column_twist, subtree_end)``.
    """
    n, c = ints[0], ints[1]
    i, f = _INT_HEADER + 4 * n, _FLOAT_HEADER + 30 * n
    return (ints[i:i + c], ints[i + c:i + 2 * c], floats[f:f + c],
            floats[f + c:f + 7 * c].reshape((c, 6)),
            ints[_INT_HEADER + 3 * n:_INT_HEADER + 4 * n])


@numba.njit(cache=True, inline='always')
def input_checks(ints, floats):
    """
    Return what a configuration is checked against.

    :return: ``(bound, tolerance, quaternions)``: the largest magnitude, the quaternion norm
        tolerance and the ``q`` index of every floating joint's quaternion.
    """
    n, c, f = ints[0], ints[1], ints[2]
    start = _INT_HEADER + 4 * n + 2 * c
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
