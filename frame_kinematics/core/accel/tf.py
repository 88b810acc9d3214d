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
Compiled TF: ``parent_T_link`` of some rows as translations and quaternions, and the CoM.

A row's ``parent_T_link`` is the pose loop's own (:func:`~.poses.poses_into`), its rotation
turned into a quaternion by the one compiled quaternion formula
(:func:`~.transforms.quaternion_of`), as :meth:`JointKernel.local_tf
<frame_kinematics.core.joints.JointKernel.local_tf>` does with numpy; optionally with the
robot's center of mass in one link, from the poses of the same loop, so that a joint_states
message becomes its ``/tf`` content in one call.
"""

from typing import Optional, Tuple, TYPE_CHECKING

import numba
import numpy as np

from .com import center_of_mass_into, center_of_mass_motion_into
from .poses import poses_into
from .tables import link_count
from .transforms import load, quaternion_of
from ..checks import plain_array
from ..errors import ConfigurationError

if TYPE_CHECKING:  # pragma: no cover
    from ..model import RobotModel


@numba.njit(error_model='numpy')
def transforms(table, masses, p_coms, inertias, total, q, rows, reference, v):
    """
    ``parent_T_link`` of ``rows`` ``(m, 7)`` and the CoM in link ``reference``.

    The CoM is computed only for ``reference >= 0`` (else an empty array): from the poses of
    every link, ``reference_p_com = R^T (root_p_com - p)`` with ``root_T_reference = [R, p]``,
    followed, when ``v`` is not empty, by the CoM velocity and the angular momentum about the
    CoM in root-aligned axes (:func:`~.com.center_of_mass_motion_into`): ``(3,)`` or ``(9,)``.
    """
    n = link_count(table)
    world = np.empty((n, 4, 4))
    local = np.empty((n, 4, 4))
    poses_into(table, q, world, local, True)
    out = np.empty((len(rows), 7))
    for k in range(len(rows)):
        m = load(local, rows[k])
        out[k, 0], out[k, 1], out[k, 2] = m[9], m[10], m[11]
        out[k, 3], out[k, 4], out[k, 5], out[k, 6] = quaternion_of(m)
    if reference < 0:
        return out, np.empty(0)
    com = np.empty(3 if len(v) == 0 else 9)
    center_of_mass_into(world, masses, p_coms, total, com)
    if len(v) > 0:  # from the root CoM, before it is expressed in the reference link
        center_of_mass_motion_into(world, table, masses, p_coms, inertias, total,
                                   com[:3], v, com[3:])
    if reference > 0:
        x = com[0] - world[reference, 0, 3]
        y = com[1] - world[reference, 1, 3]
        z = com[2] - world[reference, 2, 3]
        for i in range(3):
            com[i] = world[reference, 0, i] * x + world[reference, 1, i] * y + \
                world[reference, 2, i] * z
    return out, com


class TfKernels:
    """
    The compiled TF kernel bound to one model's tables (read-only, shared by threads).

    Built by the model's :class:`~frame_kinematics.core.accel.Accelerator` on first use
    (``robot.executor.tf``).
    """

    def __init__(self, model: 'RobotModel', table: np.ndarray) -> None:
        """
        Bind the kernel to a model and load (or compile) it now, not on a message.

        :param model: the robot model.
        :param table: its packed table (:func:`~.tables.pack`).
        """
        kernel = model.kernel
        self._n = kernel.n_rows
        self._nq, self._nv = model.nq, model.nv
        self._has_mass = model.total_mass > 0
        self._tables = (table, model.link_masses, model.link_p_coms, model.link_inertias,
                        model.total_mass if self._has_mass else 1.0)
        self.transforms(model.neutral_configuration(), np.arange(self._n, dtype=np.int64),
                        0 if self._has_mass else -1, np.zeros(model.nv))

    def transforms(self, q: np.ndarray, rows: np.ndarray, reference: int = -1,
                   v: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
        """
        ``parent_T_link`` of some rows, and the CoM in a link (and how it moves).

        Every argument is checked before the compiled call; read-only arrays are copied, so
        that the kernel is compiled for one kind of arrays only.

        :param q: a validated configuration ``(nq,)`` (float64).
        :param rows: kernel rows (links), ``(m,)`` int64, each in ``[0, n_links)``.
        :param reference: index of the link the CoM is given in, or -1 for no CoM (a model
            without mass has none).
        :param v: a validated velocity ``(nv,)`` (float64) for the CoM velocity and the
            angular momentum, or None.
        :return: ``(table (m, 7) [x, y, z, qx, qy, qz, qw], com)``, new arrays: ``com`` is
            ``(0,)`` without a CoM, ``reference_p_com (3,)`` without ``v``, else followed by
            the root-aligned CoM velocity and angular momentum about the CoM ``(9,)``.
        :raises ConfigurationError: for arrays of another kind or rows out of range.
        """
        rows = plain_array(rows)
        if rows is None or rows.dtype != np.int64 or rows.ndim != 1:
            raise ConfigurationError('rows must be an int64 vector')
        if len(rows) and not (0 <= rows.min() and rows.max() < self._n):
            raise ConfigurationError(f'rows must be link indices from 0 to {self._n - 1}')
        if isinstance(reference, (bool, np.bool_)) or \
                not isinstance(reference, (int, np.integer)) or not -1 <= reference < self._n:
            raise ConfigurationError(f'reference must be an int from -1 to {self._n - 1}')
        return self._transforms(q, np.array(rows), int(reference), v)

    def _transforms(self, q: np.ndarray, rows: np.ndarray, reference: int = -1,
                    v: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
        """
        :meth:`transforms` of rows and a reference known to be in range (the bridge's own).

        :param rows: a writable C-contiguous int64 vector of link indices (a new array).
        """
        q = _vector(q, self._nq, 'q')
        v = np.zeros(0) if v is None else _vector(v, self._nv, 'v')
        return transforms(*self._tables, q, rows,
                          reference if self._has_mass else -1, v)


def _vector(array, size: int, name: str) -> np.ndarray:
    """
    Return a float64 ``(size,)`` array as a plain writable C-contiguous one (else a copy).

    Checked as the plain view (:func:`~frame_kinematics.core.checks.plain_array`), which is
    returned.
    """
    plain = plain_array(array)
    if plain is None or plain.dtype != np.float64 or plain.shape != (size,):
        raise ConfigurationError(f'{name} must be a float64 array of shape ({size},)')
    if plain.flags.c_contiguous and plain.flags.writeable:
        return plain
    return np.array(plain)
