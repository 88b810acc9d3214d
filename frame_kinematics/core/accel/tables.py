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
One model's tables packed into one flat array, and their views in compiled code.

numba checks the type of every array argument of every call, so the
kernels called from Python take the joint kernel's and the topology's tables as one float64
array (:func:`pack`), holding one row per link and one row per motion column. Its first part
holds integers (int64 values, stored bit for bit); compiled code reads both parts through
:func:`links`, :func:`columns` and :func:`input_checks`, ``numba.carray``
views that cost no reference count (a reshaped slice costs one):

* integers: the link count ``n``, the column count ``c``, the floating-joint count ``f`` and
  ``nq``; the link rows ``(n, 5)``: ``type_code``, ``q_index``, ``parent``, the principal
  axis (:attr:`~frame_kinematics.core.joints.JointKernel.principal_axis`) and
  ``subtree_end``; the column rows ``(c, 3)``:
  ``column_row``, ``column_v`` and the ``subtree_end`` of the column's link; the ``q`` index
  of every floating joint's quaternion;
* floats: the bound :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE` and
  :data:`~frame_kinematics.core.transform_checks.QUATERNION_NORM_TOLERANCE`; the link rows
  ``(n, 26)``: ``origin`` (rotation row by row, then translation, from :data:`ORIGIN`),
  ``axis`` (:data:`AXIS`), ``multiplier`` and ``offset`` (:data:`SCALE`), the plane basis
  row by row (:data:`PLANE`, see :func:`~frame_kinematics.core.joints.plane_basis`); the
  column rows ``(c, 7)``: ``column_multiplier`` and ``column_twist``.
"""

from typing import Callable, TYPE_CHECKING

import numba
from numba import types
import numpy as np

from .runtime import address, int_address
from ..checks import MAX_MAGNITUDE
from ..joints import JointType, plane_basis
from ..transform_checks import QUATERNION_NORM_TOLERANCE

if TYPE_CHECKING:  # pragma: no cover
    from ..joints import ConfigurationLayout, JointKernel
    from ..model import RobotModel

#: numba types of the packed table, of a vector, of a matrix and of the poses ``(n, 4, 4)``.
TABLE = VECTOR = types.Array(types.float64, 1, 'C')
MATRIX = types.Array(types.float64, 2, 'C')
POSES = types.Array(types.float64, 3, 'C')

#: Columns of the float link rows.
ORIGIN, AXIS, SCALE, PLANE = 0, 12, 15, 17
_LINK_FLOATS = 26
_LINK_INTS = 5
_INT_HEADER = 4
_FLOAT_HEADER = 2


def pack(model: 'RobotModel') -> np.ndarray:
    """
    Pack the tables of ``model`` (see the module's description).

    :param model: the robot model (its kernel, topology and layout).
    :return: a new float64 array. It is writable, because numba's dispatch checks a read-only
        array argument more slowly than a writable one: the caller keeps it private
        (the kernels only read it).
    """
    topology = model.topology
    return pack_kernel(model.kernel, topology.parent, topology.subtree_end, model.layout)


def pack_kernel(kernel: 'JointKernel', parent: np.ndarray, subtree_end: np.ndarray,
                layout: 'ConfigurationLayout') -> np.ndarray:
    """
    Pack a joint kernel whose rows form a tree: a model's, or an inverse-kinematics chain's.

    :param kernel: the joint kernel.
    :param parent: ``(n,)`` the row above every row (-1 for a root), in depth-first order.
    :param subtree_end: ``(n,)`` one past the last row of every row's subtree.
    :param layout: the layout of the configurations it reads.
    :return: a new float64 array, as :func:`pack`.
    """
    n = len(kernel.type_code)
    quaternions = [iq + 3 for iq, _, _ in layout.floating]
    nq = layout.nq
    link_floats = np.concatenate([
        kernel.origin[:, :3, :3].reshape(n, 9), kernel.origin[:, :3, 3], kernel.axis,
        kernel.multiplier[:, None], kernel.offset[:, None], plane_bases(kernel).reshape(n, 9)],
        axis=1)
    column_ints = np.stack([kernel.column_row, kernel.column_v,
                            subtree_end[kernel.column_row]], axis=-1)
    ints = np.concatenate([
        [n, kernel.n_columns, len(quaternions), nq],
        np.stack([kernel.type_code, kernel.q_index, parent, kernel.principal_axis,
                  subtree_end], axis=-1).ravel(),
        column_ints.ravel(), quaternions]).astype(np.int64)
    floats = np.concatenate([
        [MAX_MAGNITUDE, QUATERNION_NORM_TOLERANCE], link_floats.ravel(),
        np.concatenate([kernel.column_multiplier[:, None], kernel.column_twist],
                       axis=1).ravel()]).astype(np.float64)
    return np.concatenate([ints.view(np.float64), floats])


def checked_signature(signature: Callable[[types.Type], types.Type]) -> types.Type:
    """
    Return the one signature of a checked kernel (:func:`configuration_ok`).

    Its configuration is any float64 vector (layout ``A``, read-only in the signature), so that
    contiguous or strided, writable or read-only arrays all take it; the caller converts any
    other array first and checks every other argument
    (:class:`~frame_kinematics.core.accel.Accelerator`).
    Compiled once (:func:`~.kernels.prepare`), it is never compiled again while a robot runs.

    :param signature: builds the signature from the configuration's type.
    :return: the signature, for a read-only float64 configuration of any layout.
    """
    return signature(types.Array(types.float64, 1, 'A', readonly=True))


def plane_bases(kernel: 'JointKernel') -> np.ndarray:
    """
    Return the plane basis of every row of a joint kernel, ``(n, 3, 3)`` (identity if not planar).

    :param kernel: the joint kernel (a model's, or an inverse-kinematics chain's).
    :return: a new ``(n, 3, 3)`` float array (see
        :func:`~frame_kinematics.core.joints.plane_basis`).
    """
    return np.reshape([plane_basis(kernel.axis[i]) if t is JointType.PLANAR else np.eye(3)
                       for i, t in enumerate(kernel.types)], (-1, 3, 3))


@numba.njit(inline='always')
def _counts(table):
    """Return ``(n, c, f, nq, start)``: the header, and where the floats start."""
    header = numba.carray(int_address(table, 0), (_INT_HEADER,))
    n, c, f = header[0], header[1], header[2]
    return n, c, f, header[3], _INT_HEADER + _LINK_INTS * n + 3 * c + f


@numba.njit(inline='always')
def link_count(table):
    """Return the number of links ``n``."""
    return _counts(table)[0]


@numba.njit(inline='always')
def links(table):
    """
    Return views of the link rows.

    :return: ``(ri, rf)``: ``(n, 5)`` integers and ``(n, 26)`` floats.
    """
    n, _, _, _, start = _counts(table)
    return (numba.carray(int_address(table, _INT_HEADER), (n, _LINK_INTS)),
            numba.carray(address(table, start + _FLOAT_HEADER), (n, _LINK_FLOATS)))


@numba.njit(inline='always')
def columns(table):
    """
    Return views of the motion-column rows.

    :return: ``(ci, cf)``: ``(c, 3)`` integers ``(row, v, subtree_end[row])`` and ``(c, 7)``
        floats ``(multiplier, twist)``.
    """
    n, c, _, _, start = _counts(table)
    return (numba.carray(int_address(table, _INT_HEADER + _LINK_INTS * n), (c, 3)),
            numba.carray(address(table, start + _FLOAT_HEADER + _LINK_FLOATS * n), (c, 7)))


@numba.njit(inline='always')
def input_checks(table):
    """
    Return what a configuration is checked against.

    :return: ``(nq, bound, tolerance, quaternions)``: the configuration's size, the largest
        magnitude, the quaternion norm tolerance and the ``q`` index of every floating joint's
        quaternion.
    """
    n, c, f, nq, start = _counts(table)
    return (nq, table[start], table[start + 1],
            numba.carray(int_address(table, _INT_HEADER + _LINK_INTS * n + 3 * c), (f,)))


@numba.njit(error_model='numpy', inline='always')
def configuration_ok(table, q):
    """
    Whether ``q`` passes the input checks, as a yes or no.

    The checks of :meth:`RobotModel.check_configuration
    <frame_kinematics.core.model.RobotModel.check_configuration>`: as many entries as the
    model's ``nq``, every one finite and within the bound, every floating joint's quaternion of
    unit norm within the tolerance. The caller gets the message from the Python check when
    this says no.
    """
    nq, bound, tolerance, quaternions = input_checks(table)
    if len(q) != nq:
        return False
    for i in range(len(q)):
        if not abs(q[i]) <= bound:
            return False
    for k in range(len(quaternions)):
        i = quaternions[k]
        norm = np.sqrt(q[i] * q[i] + q[i + 1] * q[i + 1] + q[i + 2] * q[i + 2]
                       + q[i + 3] * q[i + 3])
        if not abs(norm - 1.0) <= tolerance:
            return False
    return True


@numba.njit(error_model='numpy', inline='always')
def copy_configuration(table, q, out):
    """
    Copy ``q`` into ``out``, quaternions normalised, if it passes :func:`configuration_ok`.

    :return: whether ``q`` passed (``out`` is not written when not).
    """
    if not configuration_ok(table, q):
        return False
    quaternions = input_checks(table)[3]
    for i in range(len(q)):
        out[i] = q[i]
    for k in range(len(quaternions)):
        i = quaternions[k]
        norm = np.sqrt(out[i] * out[i] + out[i + 1] * out[i + 1] + out[i + 2] * out[i + 2]
                       + out[i + 3] * out[i + 3])
        for j in range(4):
            out[i + j] /= norm
    return True
