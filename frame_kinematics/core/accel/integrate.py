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
Compiled ``q ⊕ v`` of configurations with floating and planar joints, for the IK solve.

The formulas of :meth:`ConfigurationLayout.integrate
<frame_kinematics.core.joints.ConfigurationLayout.integrate>`: one-dof coordinates add, a
floating joint follows its local twist on SE(3) (``start @ exp_se3(v)``, the quaternion
renormalised, ``w >= 0``), a planar joint its local twist on SE(2); continuous angles are not
wrapped here (the solve wraps every iterate with :func:`wrap`). The layout is given as
``steps = (one_q, one_v, floating_q, floating_v, planar_q, planar_v)``, the ``q`` and ``v``
indices of each kind of joint.
"""

import numba
import numpy as np

#: Below this rotation angle the series of the SE(3) and SE(2) exponentials are used.
_SERIES = 1e-3


@numba.njit(error_model='numpy', inline='always')
def wrap(angle):
    """
    One angle into ``[-pi, pi)``: :func:`~frame_kinematics.core.joints.wrap_angle`.

    Just below ``-pi``, ``angle + pi`` rounds the remainder up to ``2 pi``: that is ``-pi``.
    """
    wrapped = np.mod(angle + np.pi, 2.0 * np.pi) - np.pi
    return wrapped - 2.0 * np.pi if wrapped >= np.pi else wrapped


@numba.njit(error_model='numpy')
def normalize(q, steps):
    """Normalise the floating joints' quaternions of ``q`` in place (``w >= 0``)."""
    for iq in steps[2]:
        x, y, z, w = q[iq + 3], q[iq + 4], q[iq + 5], q[iq + 6]
        norm = np.sqrt(x * x + y * y + z * z + w * w)
        if w < 0.0:
            norm = -norm
        q[iq + 3], q[iq + 4], q[iq + 5], q[iq + 6] = x / norm, y / norm, z / norm, w / norm


@numba.njit(error_model='numpy')
def integrate(q, v, steps, out):
    """Write ``q ⊕ v`` into ``out`` (``q`` with unit quaternions)."""
    one_q, one_v, floating_q, floating_v, planar_q, planar_v = steps
    out[:] = q
    for k in range(len(one_q)):
        out[one_q[k]] += v[one_v[k]]
    for k in range(len(floating_q)):
        iq, iv = floating_q[k], floating_v[k]
        x, y, z, w = q[iq + 3], q[iq + 4], q[iq + 5], q[iq + 6]
        v0, v1, v2, w0, w1, w2 = v[iv], v[iv + 1], v[iv + 2], v[iv + 3], v[iv + 4], v[iv + 5]
        theta = np.sqrt(w0 * w0 + w1 * w1 + w2 * w2)
        t2 = theta * theta
        if theta < _SERIES:
            b = 0.5 - t2 / 24.0 + t2 * t2 / 720.0
            c = 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0
            half = 0.5 - t2 / 48.0
        else:
            b = 2.0 * np.sin(0.5 * theta) ** 2 / t2
            c = (theta - np.sin(theta)) / (t2 * theta)
            half = np.sin(0.5 * theta) / theta
        # (I + b K + c K^2) v with K = [w]x: the translation of exp_se3 in the joint frame
        kv0, kv1, kv2 = w1 * v2 - w2 * v1, w2 * v0 - w0 * v2, w0 * v1 - w1 * v0
        kkv0, kkv1, kkv2 = w1 * kv2 - w2 * kv1, w2 * kv0 - w0 * kv2, w0 * kv1 - w1 * kv0
        d0, d1, d2 = v0 + b * kv0 + c * kkv0, v1 + b * kv1 + c * kkv1, v2 + b * kv2 + c * kkv2
        out[iq] += ((1 - 2 * (y * y + z * z)) * d0 + 2 * (x * y - z * w) * d1
                    + 2 * (x * z + y * w) * d2)
        out[iq + 1] += (2 * (x * y + z * w) * d0 + (1 - 2 * (x * x + z * z)) * d1
                        + 2 * (y * z - x * w) * d2)
        out[iq + 2] += (2 * (x * z - y * w) * d0 + 2 * (y * z + x * w) * d1
                        + (1 - 2 * (x * x + y * y)) * d2)
        # quaternion of the start times that of exp_so3(w)
        a, e0, e1, e2 = np.cos(0.5 * theta), half * w0, half * w1, half * w2
        out[iq + 3] = w * e0 + x * a + y * e2 - z * e1
        out[iq + 4] = w * e1 - x * e2 + y * a + z * e0
        out[iq + 5] = w * e2 + x * e1 - y * e0 + z * a
        out[iq + 6] = w * a - x * e0 - y * e1 - z * e2
    normalize(out, steps)
    for k in range(len(planar_q)):
        iq, iv = planar_q[k], planar_v[k]
        vx, vy, omega = v[iv], v[iv + 1], v[iv + 2]
        if abs(omega) < 1e-9:
            a, b = 1.0 - omega * omega / 6.0, omega / 2.0
        else:
            a, b = np.sin(omega) / omega, (1.0 - np.cos(omega)) / omega
        dx, dy = a * vx - b * vy, b * vx + a * vy
        cos, sin = np.cos(q[iq + 2]), np.sin(q[iq + 2])
        out[iq] += cos * dx - sin * dy
        out[iq + 1] += sin * dx + cos * dy
        out[iq + 2] = q[iq + 2] + omega
