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
The layout of a configuration vector and the per-type operations on it.

A :class:`ConfigurationLayout` indexes a sequence of joints laid out one after the other in
``q`` and ``v`` (a model's actuated joints, or a subset for inverse kinematics), grouped by
type: one-dof coordinates, wrapping angles, floating and planar joints. It owns the limit
table, the neutral configuration, quaternion normalisation, the exponential (``integrate``),
the logarithm (``difference``) and the sampling bounds, for every joint type.
"""

from typing import List, Optional, Sequence, Tuple

import numpy as np

from .joint_type import JointType
from .kernel import frozen
from ..spatial import exp_se3, log_se3, quaternion_from_rotation, rotation_from_quaternion, \
    transform
from ..transform_checks import QUATERNION_NORM_TOLERANCE, unit_quaternion

_TWO_PI = 2.0 * np.pi


def wrap_angle(angle: np.ndarray) -> np.ndarray:
    """
    Wrap angles into ``[-pi, pi)``.

    Just below ``-pi``, ``angle + pi`` rounds the remainder up to ``2 pi``: that is ``-pi``.

    :param angle: angles in radians, any shape.
    :return: the wrapped angles.
    """
    wrapped = np.mod(np.asarray(angle, dtype=float) + np.pi, _TWO_PI) - np.pi
    return wrapped - _TWO_PI * (wrapped >= np.pi)


def _planar_coefficients(w: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """``sin(w)/w`` and ``(1 - cos(w))/w`` (series near 0) of the SE(2) exponential."""
    small = np.abs(w) < 1e-9
    safe = np.where(small, 1.0, w)
    a = np.where(small, 1.0 - w * w / 6.0, np.sin(safe) / safe)
    b = np.where(small, w / 2.0, (1.0 - np.cos(safe)) / safe)
    return a, b


class ConfigurationLayout:
    """
    Index tables of a configuration vector, grouped by joint type.

    :ivar names: the joint names, in layout order.
    :ivar one_q: ``q`` index of every one-dof joint (revolute, continuous, prismatic).
    :ivar one_v: the matching ``v`` index.
    :ivar wrap_q: ``q`` indices of continuous joints.
    :ivar wrap_v: the matching ``v`` indices.
    :ivar turn_q: ``q`` indices of revolute joints.
    :ivar floating: ``(idx_q, idx_v, name)`` of every floating joint.
    :ivar planar: ``(idx_q, idx_v, name)`` of every planar joint.
    :ivar lower: lower limit of every ``q`` entry (read-only; see :meth:`JointType.limits`).
    :ivar upper: upper limit of every ``q`` entry (read-only).
    """

    def __init__(self, joints: Sequence[Tuple[str, JointType, float, float]]) -> None:
        """
        Build the tables of joints laid out one after the other.

        :param joints: ``(name, type, lower, upper)`` of each joint with coordinates, in the
            order of its coordinates.
        """
        one_q: List[int] = []
        one_v: List[int] = []
        wrap_q: List[int] = []
        wrap_v: List[int] = []
        turn_q: List[int] = []
        self.floating: List[Tuple[int, int, str]] = []
        self.planar: List[Tuple[int, int, str]] = []
        lower, upper, neutral = [], [], []
        iq = iv = 0
        for name, jtype, lo, hi in joints:
            if jtype.one_dof:
                one_q.append(iq)
                one_v.append(iv)
                if jtype is JointType.CONTINUOUS:
                    wrap_q.append(iq)
                    wrap_v.append(iv)
                elif jtype is JointType.REVOLUTE:
                    turn_q.append(iq)
            elif jtype is JointType.FLOATING:
                self.floating.append((iq, iv, name))
            elif jtype is JointType.PLANAR:
                self.planar.append((iq, iv, name))
            entry_lo, entry_hi = jtype.limits(lo, hi)
            lower.append(entry_lo)
            upper.append(entry_hi)
            neutral.append(jtype.neutral())
            iq += jtype.nq
            iv += jtype.nv
        self.names: Tuple[str, ...] = tuple(j[0] for j in joints)
        self.one_q = frozen(np.array(one_q, dtype=np.int64))
        self.one_v = frozen(np.array(one_v, dtype=np.int64))
        self.wrap_q = frozen(np.array(wrap_q, dtype=np.int64))
        self.wrap_v = frozen(np.array(wrap_v, dtype=np.int64))
        self.turn_q = frozen(np.array(turn_q, dtype=np.int64))
        self.lower = frozen(np.concatenate(lower + [np.zeros(0)]))
        self.upper = frozen(np.concatenate(upper + [np.zeros(0)]))
        self._neutral = frozen(np.concatenate(neutral + [np.zeros(0)]))
        self.nq = iq
        self.nv = iv
        self.simple = not self.floating and not self.planar

    def neutral(self) -> np.ndarray:
        """Return the neutral configuration (a new array; identity quaternions)."""
        return self._neutral.copy()

    def normalize_quaternions(self, q: np.ndarray, name: str) -> np.ndarray:
        """
        Check floating-joint quaternions are unit within tolerance and normalise them.

        :param q: ``(*B, nq)`` floats.
        :param name: what ``q`` is called in error messages.
        :return: ``q`` itself when there is no floating joint, else a normalised copy.
        :raises ConfigurationError: for a quaternion whose norm is off by more than
            :data:`~frame_kinematics.core.transform_checks.QUATERNION_NORM_TOLERANCE`.
        """
        if not self.floating:
            return q
        q = q.copy()
        for iq, _, joint in self.floating:
            q[..., iq + 3:iq + 7] = unit_quaternion(
                q[..., iq + 3:iq + 7], f"{name}: quaternion of floating joint '{joint}'")
        return q

    def quaternions_unit(self, q: np.ndarray, tolerance: float = 0.0) -> np.ndarray:
        """
        Whether every floating-joint quaternion of ``q`` has a unit norm.

        :param q: ``(*B, nq)``.
        :param tolerance: slack added to :data:`QUATERNION_NORM_TOLERANCE`.
        :return: a bool array of shape ``B``.
        """
        ok = np.ones(q.shape[:-1], dtype=bool)
        for iq, _, _ in self.floating:
            norm = np.linalg.norm(q[..., iq + 3:iq + 7], axis=-1)
            ok &= np.abs(norm - 1.0) <= QUATERNION_NORM_TOLERANCE + tolerance
        return ok

    def is_valid(self, q: np.ndarray, tolerance: float) -> np.ndarray:
        """
        Whether configurations are finite, within the limits and unit-quaternion.

        Quaternion entries are judged by their norm alone (a unit quaternion's entries lie in
        ``[-1, 1]``; one within :data:`QUATERNION_NORM_TOLERANCE` of unit is valid).

        :param q: ``(*B, nq)`` floats, NaN and inf allowed.
        :param tolerance: slack on each limit and on the quaternion norms.
        :return: a bool array of shape ``B``.
        """
        with np.errstate(invalid='ignore'):
            ok = np.all(np.isfinite(q), axis=-1)
            inside = (q >= self.lower - tolerance) & (q <= self.upper + tolerance)
            for iq, _, _ in self.floating:
                inside[..., iq + 3:iq + 7] = True
            ok &= np.all(inside, axis=-1)
            ok &= self.quaternions_unit(q, tolerance)
        return ok

    def positive_w(self, q: np.ndarray) -> np.ndarray:
        """
        Return the configurations with every quaternion of sign ``w >= 0`` (a new array).

        The sign :meth:`integrate` gives a floating joint's quaternion (the same orientation).

        :param q: ``(*B, nq)`` with unit quaternions.
        :return: the configurations.
        """
        out = np.array(q, dtype=float)
        for iq, _, _ in self.floating:
            quat = out[..., iq + 3:iq + 7]
            quat *= np.where(quat[..., 3:] < 0.0, -1.0, 1.0)
        return out

    def clip(self, q: np.ndarray) -> np.ndarray:
        """
        Project validated configurations onto the limits (a new array).

        Bounded coordinates are clipped and continuous angles wrapped into ``[-pi, pi)``.

        :param q: ``(*B, nq)`` with unit quaternions.
        :return: the projected configurations.
        """
        out = np.clip(q, self.lower, self.upper)
        if len(self.wrap_q):
            out[..., self.wrap_q] = wrap_angle(out[..., self.wrap_q])
        return out

    def integrate(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """
        ``q ⊕ v`` for validated arrays (broadcast against each other).

        One-dof coordinates add, continuous angles wrap, floating joints follow their local
        twist on SE(3) (quaternion renormalised), planar joints on SE(2).

        :param q: ``(*B, nq)``.
        :param v: ``(*B, nv)``.
        :return: the new configurations.
        """
        shape = np.broadcast_shapes(q.shape[:-1], v.shape[:-1])
        out = np.array(np.broadcast_to(q, shape + (self.nq,)), dtype=float)
        if len(self.one_q):
            out[..., self.one_q] += v[..., self.one_v]
        if len(self.wrap_q):
            out[..., self.wrap_q] = wrap_angle(out[..., self.wrap_q])
        for iq, iv, _ in self.floating:
            start = transform(rotation_from_quaternion(out[..., iq + 3:iq + 7]),
                              out[..., iq:iq + 3])
            end = start @ exp_se3(v[..., iv:iv + 6])
            out[..., iq:iq + 3] = end[..., :3, 3]
            out[..., iq + 3:iq + 7] = quaternion_from_rotation(end[..., :3, :3])
        for iq, iv, _ in self.planar:
            theta = out[..., iq + 2]
            local = v[..., iv:iv + 3]
            a, b = _planar_coefficients(local[..., 2])
            dx = a * local[..., 0] - b * local[..., 1]
            dy = b * local[..., 0] + a * local[..., 1]
            c, s = np.cos(theta), np.sin(theta)
            out[..., iq] += c * dx - s * dy
            out[..., iq + 1] += s * dx + c * dy
            out[..., iq + 2] = theta + local[..., 2]
        return out

    def difference(self, q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
        """
        ``v`` with ``q0 ⊕ v == q1`` for validated arrays (the logarithm, shortest way).

        :param q0: ``(*B, nq)``.
        :param q1: ``(*B, nq)``.
        :return: ``(*B, nv)``.
        """
        shape = np.broadcast_shapes(q0.shape[:-1], q1.shape[:-1])
        out = np.zeros(shape + (self.nv,))
        if len(self.one_q):
            out[..., self.one_v] = q1[..., self.one_q] - q0[..., self.one_q]
        if len(self.wrap_q):
            out[..., self.wrap_v] = wrap_angle(out[..., self.wrap_v])
        for iq, iv, _ in self.floating:
            start = transform(rotation_from_quaternion(q0[..., iq + 3:iq + 7]),
                              q0[..., iq:iq + 3])
            end = transform(rotation_from_quaternion(q1[..., iq + 3:iq + 7]),
                            q1[..., iq:iq + 3])
            r_t = np.swapaxes(start[..., :3, :3], -1, -2)
            relative = np.zeros(shape + (4, 4))
            relative[..., :3, :3] = r_t @ end[..., :3, :3]
            relative[..., :3, 3] = (r_t @ (end[..., :3, 3] - start[..., :3, 3])[..., None])[
                ..., 0]
            relative[..., 3, 3] = 1.0
            out[..., iv:iv + 6] = log_se3(relative)
        for iq, iv, _ in self.planar:
            theta0 = q0[..., iq + 2]
            w = wrap_angle(q1[..., iq + 2] - theta0)
            c, s = np.cos(theta0), np.sin(theta0)
            dpx = q1[..., iq] - q0[..., iq]
            dpy = q1[..., iq + 1] - q0[..., iq + 1]
            lx, ly = c * dpx + s * dpy, -s * dpx + c * dpy
            a, b = _planar_coefficients(w)
            det = a * a + b * b
            out[..., iv] = (a * lx + b * ly) / det
            out[..., iv + 1] = (-b * lx + a * ly) / det
            out[..., iv + 2] = w
        return out

    def turn_bounds(self) -> Tuple[np.ndarray, np.ndarray]:
        """
        Return the limits, with the angle of a one-dof joint over one turn at most.

        A continuous angle: ``[-pi, pi)``. A revolute angle whose limits span more than a turn:
        the turn ``[-pi, pi]``, moved as little as its limits need. It holds every orientation
        of the joint, at angles a float resolves finely: limits of 1e16 rad (as some exports
        write for free rotors) are no range to draw from, a float's spacing there being 2.
        Any other coordinate: its limits.

        :return: ``(lower, upper)`` (new arrays).
        """
        lower, upper = self.lower.copy(), self.upper.copy()
        if len(self.wrap_q):
            lower[self.wrap_q], upper[self.wrap_q] = -np.pi, np.pi
        wide = self.turn_q[upper[self.turn_q] - lower[self.turn_q] > _TWO_PI]
        start = np.clip(-np.pi, lower[wide], upper[wide] - _TWO_PI)
        lower[wide], upper[wide] = start, np.minimum(start + _TWO_PI, upper[wide])
        return lower, upper

    def sampling_bounds(self, translation_range: float) -> Tuple[np.ndarray, np.ndarray]:
        """
        Bounds to draw coordinates in: :meth:`turn_bounds`, and for a planar angle one turn.

        :param translation_range: half-width for coordinates without limits.
        :return: ``(lower, upper)`` (new arrays).
        """
        lower, upper = self.turn_bounds()
        for iq, _, _ in self.planar:
            lower[iq + 2], upper[iq + 2] = -np.pi, np.pi
        unbounded = ~np.isfinite(lower) | ~np.isfinite(upper)
        lower[unbounded] = -abs(float(translation_range))
        upper[unbounded] = abs(float(translation_range))
        return lower, upper

    def sample_uniform(self, rng: np.random.Generator, size: Optional[int],
                       translation_range: float) -> np.ndarray:
        """
        Draw configurations uniformly within :meth:`sampling_bounds`.

        Floating orientations are uniform on SO(3).

        :param rng: the random generator.
        :param size: number of configurations (None: one, shape ``(nq,)``).
        :param translation_range: half-width for coordinates without limits.
        :return: ``(nq,)`` or ``(size, nq)``.
        """
        lower, upper = self.sampling_bounds(translation_range)
        shape = (self.nq,) if size is None else (int(size), self.nq)
        q = lower + rng.random(shape) * (upper - lower)
        for iq, _, _ in self.floating:
            quat = rng.normal(size=q.shape[:-1] + (4,))
            q[..., iq + 3:iq + 7] = quat / np.linalg.norm(quat, axis=-1, keepdims=True)
        return q
