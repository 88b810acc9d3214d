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
Configuration space of a model: joint limits, distances, interpolation and sampling.

The configuration ``q`` (size ``nq``) and the velocity ``v`` (size ``nv``) follow the layout of
:mod:`frame_kinematics.core.model`. The operations here respect every joint type:

* revolute and prismatic joints are plain coordinates with limits;
* continuous joints are angles that wrap around: results are kept in ``[-pi, pi)``, and the
  difference between two angles is the shortest signed one;
* floating joints move on SE(3): ``step`` follows the local twist with the SE(3) exponential
  and renormalises the quaternion, ``difference`` is the SE(3) logarithm;
* planar joints move on SE(2) in the same way.

Every function accepts one configuration ``(nq,)`` or a batch ``(B, nq)`` and returns new
arrays; nothing is modified in place.
"""

from typing import List, Optional, Sequence, Tuple, TYPE_CHECKING, Union
import weakref

import numpy as np

from .errors import ConfigurationError
from .spatial import exp_se3, log_se3, quaternion_from_rotation, rotation_from_quaternion, \
    transform

if TYPE_CHECKING:  # pragma: no cover
    from .model import Joint, RobotModel

_TWO_PI = 2.0 * np.pi

_LAYOUTS: 'weakref.WeakKeyDictionary' = weakref.WeakKeyDictionary()


class ConfigurationLayout:
    """
    Index tables of a configuration vector, grouped by joint type.

    :ivar one_q: ``q`` index of every one-dof joint (revolute, continuous, prismatic).
    :ivar one_v: the matching ``v`` index.
    :ivar wrap_q: ``q`` indices of continuous joints.
    :ivar wrap_v: the matching ``v`` indices.
    :ivar floating: ``(idx_q, idx_v, name)`` of every floating joint.
    :ivar planar: ``(idx_q, idx_v, name)`` of every planar joint.
    :ivar lower: lower limit of every ``q`` entry (``-inf`` where unbounded).
    :ivar upper: upper limit of every ``q`` entry (``inf`` where unbounded).
    """

    def __init__(self, joints: Sequence['Joint']) -> None:
        """
        Build the tables of a sequence of actuated joints laid out one after the other.

        With ``model.actuated_joints`` this is the model's own layout; with a subset it is
        the layout of the reduced vector made of those joints' coordinates.

        :param joints: actuated joints, in the order of their coordinates.
        """
        one_q, one_v, wrap_q, wrap_v = [], [], [], []
        self.floating: List[Tuple[int, int, str]] = []
        self.planar: List[Tuple[int, int, str]] = []
        lower: List[float] = []
        upper: List[float] = []
        iq = iv = 0
        for joint in joints:
            if joint.nq == 1:
                one_q.append(iq)
                one_v.append(iv)
                if joint.type == 'continuous':
                    wrap_q.append(iq)
                    wrap_v.append(iv)
                    lower.append(-np.inf)
                    upper.append(np.inf)
                else:
                    lower.append(joint.lower)
                    upper.append(joint.upper)
            else:
                group = self.floating if joint.type == 'floating' else self.planar
                group.append((iq, iv, joint.name))
                lower += [-np.inf] * joint.nq
                upper += [np.inf] * joint.nq
            iq += joint.nq
            iv += joint.nv
        self.one_q = np.array(one_q, dtype=int)
        self.one_v = np.array(one_v, dtype=int)
        self.wrap_q = np.array(wrap_q, dtype=int)
        self.wrap_v = np.array(wrap_v, dtype=int)
        self.lower = np.array(lower, dtype=float)
        self.upper = np.array(upper, dtype=float)
        self.nq = iq
        self.nv = iv
        self.simple = not self.floating and not self.planar


def layout(model: 'RobotModel') -> ConfigurationLayout:
    """
    Return the (cached) :class:`ConfigurationLayout` of a model.

    :param model: the robot model.
    :return: its layout.
    """
    try:
        return _LAYOUTS[model]
    except KeyError:
        result = _LAYOUTS[model] = ConfigurationLayout(model.actuated_joints)
        return result


def wrap_angle(angle: np.ndarray) -> np.ndarray:
    """
    Wrap angles into ``[-pi, pi)``.

    :param angle: angles in radians, any shape.
    :return: the wrapped angles.
    """
    return np.mod(np.asarray(angle, dtype=float) + np.pi, _TWO_PI) - np.pi


def joint_limits(model: 'RobotModel') -> Tuple[np.ndarray, np.ndarray]:
    """
    Lower and upper limits of every ``q`` entry.

    Continuous joints and the translations of floating and planar joints are unbounded
    (``-inf``/``inf``); quaternion entries are unbounded too (they are kept unit instead).

    :param model: the robot model.
    :return: ``(lower, upper)``, each of shape ``(nq,)``.
    """
    table = layout(model)
    return table.lower.copy(), table.upper.copy()


def clip(model: 'RobotModel', q) -> np.ndarray:
    """
    Project a configuration onto the joint limits.

    Bounded coordinates are clipped, continuous angles wrapped into ``[-pi, pi)`` and
    floating-joint quaternions normalised.

    :param model: the robot model.
    :param q: ``(nq,)`` or ``(B, nq)``.
    :return: the projected configuration (a new array).
    :raises ConfigurationError: for a wrong shape or non-finite values.
    """
    q = model.check_configuration(q)
    table = layout(model)
    out = np.clip(q, table.lower, table.upper)
    if len(table.wrap_q):
        out[..., table.wrap_q] = wrap_angle(out[..., table.wrap_q])
    return out


def is_valid(model: 'RobotModel', q, tolerance: float = 0.0) -> Union[bool, np.ndarray]:
    """
    Whether configurations are finite, unit-quaternion and within the joint limits.

    :param model: the robot model.
    :param q: ``(nq,)`` or ``(B, nq)``.
    :param tolerance: slack allowed on each limit.
    :return: a bool, or a ``(B,)`` bool array for a batch.
    :raises ConfigurationError: for a wrong shape.
    """
    arr = np.asarray(q, dtype=float)
    if arr.ndim not in (1, 2) or arr.shape[-1] != model.nq:
        raise ConfigurationError(f'q must have shape ({model.nq},) or (B, {model.nq}) for '
                                 f"robot '{model.name}', got {arr.shape}")
    table = layout(model)
    with np.errstate(invalid='ignore'):
        ok = np.all(np.isfinite(arr), axis=-1)
        ok &= np.all((arr >= table.lower - tolerance) & (arr <= table.upper + tolerance),
                     axis=-1)
        for iq, _, _ in table.floating:
            norm = np.linalg.norm(arr[..., iq + 3:iq + 7], axis=-1)
            ok &= np.abs(norm - 1.0) <= 1e-6 + tolerance
    return bool(ok) if arr.ndim == 1 else ok


def _planar_exp(theta: np.ndarray, v: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Displacement (in the starting frame) and rotation of a local SE(2) twist ``v``."""
    w = v[..., 2]
    small = np.abs(w) < 1e-9
    safe = np.where(small, 1.0, w)
    a = np.where(small, 1.0 - w * w / 6.0, np.sin(safe) / safe)
    b = np.where(small, w / 2.0, (1.0 - np.cos(safe)) / safe)
    dx = a * v[..., 0] - b * v[..., 1]
    dy = b * v[..., 0] + a * v[..., 1]
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([c * dx - s * dy, s * dx + c * dy], axis=-1), w


def integrate(model: 'RobotModel', q, v) -> np.ndarray:
    """
    ``q ⊕ v``: the configuration reached from ``q`` following the velocity ``v`` for 1 s.

    Floating joints follow their local twist on SE(3) (quaternion renormalised), planar
    joints on SE(2); continuous angles are wrapped into ``[-pi, pi)``.

    :param model: the robot model.
    :param q: ``(nq,)`` or ``(B, nq)``.
    :param v: ``(nv,)`` or ``(B, nv)`` (broadcast against ``q``).
    :return: the new configuration.
    :raises ConfigurationError: for wrong shapes or non-finite values.
    """
    q = model.check_configuration(q)
    v = model.check_velocity(v)
    return _integrate(layout(model), q, v)


def _integrate(table: ConfigurationLayout, q: np.ndarray, v: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(q.shape[:-1], v.shape[:-1])
    out = np.array(np.broadcast_to(q, shape + (table.nq,)), dtype=float)
    if len(table.one_q):
        out[..., table.one_q] += v[..., table.one_v]
    if len(table.wrap_q):
        out[..., table.wrap_q] = wrap_angle(out[..., table.wrap_q])
    for iq, iv, _ in table.floating:
        start = transform(rotation_from_quaternion(out[..., iq + 3:iq + 7]), out[..., iq:iq + 3])
        end = start @ exp_se3(v[..., iv:iv + 6])
        out[..., iq:iq + 3] = end[..., :3, 3]
        out[..., iq + 3:iq + 7] = quaternion_from_rotation(end[..., :3, :3])
    for iq, iv, _ in table.planar:
        theta = out[..., iq + 2]
        dp, w = _planar_exp(theta, v[..., iv:iv + 3])
        out[..., iq:iq + 2] += dp
        out[..., iq + 2] = theta + w
    return out


def step(model: 'RobotModel', q, qdot, dt: float = 1.0) -> np.ndarray:
    """
    ``q ⊕ qdot·dt`` (rl's ``step``): integrate a constant velocity for ``dt`` seconds.

    :param model: the robot model.
    :param q: ``(nq,)`` or ``(B, nq)``.
    :param qdot: velocity ``(nv,)`` or ``(B, nv)``.
    :param dt: duration in seconds.
    :return: the new configuration (see :func:`integrate`).
    :raises ConfigurationError: for wrong shapes or non-finite values.
    """
    v = model.check_velocity(qdot, 'qdot')
    return integrate(model, q, v * float(dt))


def difference(model: 'RobotModel', q0, q1) -> np.ndarray:
    """
    Return the velocity ``v`` with ``q0 ⊕ v == q1`` (the logarithm, shortest way round).

    Continuous joints take the shortest signed angle, floating joints the SE(3) logarithm
    (local twist), planar joints the SE(2) one.

    :param model: the robot model.
    :param q0: start configuration ``(nq,)`` or ``(B, nq)``.
    :param q1: end configuration ``(nq,)`` or ``(B, nq)``.
    :return: ``v`` of shape ``(nv,)`` or ``(B, nv)``.
    :raises ConfigurationError: for wrong shapes or non-finite values.
    """
    q0 = model.check_configuration(q0, 'q0')
    q1 = model.check_configuration(q1, 'q1')
    return _difference(layout(model), q0, q1)


def _difference(table: ConfigurationLayout, q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(q0.shape[:-1], q1.shape[:-1])
    out = np.zeros(shape + (table.nv,))
    if len(table.one_q):
        out[..., table.one_v] = q1[..., table.one_q] - q0[..., table.one_q]
    if len(table.wrap_q):
        out[..., table.wrap_v] = wrap_angle(out[..., table.wrap_v])
    for iq, iv, _ in table.floating:
        start = transform(rotation_from_quaternion(q0[..., iq + 3:iq + 7]), q0[..., iq:iq + 3])
        end = transform(rotation_from_quaternion(q1[..., iq + 3:iq + 7]), q1[..., iq:iq + 3])
        r_t = np.swapaxes(start[..., :3, :3], -1, -2)
        relative = np.zeros(shape + (4, 4))
        relative[..., :3, :3] = r_t @ end[..., :3, :3]
        relative[..., :3, 3] = (r_t @ (end[..., :3, 3] - start[..., :3, 3])[..., None])[..., 0]
        relative[..., 3, 3] = 1.0
        out[..., iv:iv + 6] = log_se3(relative)
    for iq, iv, _ in table.planar:
        theta0 = q0[..., iq + 2]
        w = wrap_angle(q1[..., iq + 2] - theta0)
        c, s = np.cos(theta0), np.sin(theta0)
        dpx = q1[..., iq] - q0[..., iq]
        dpy = q1[..., iq + 1] - q0[..., iq + 1]
        lx, ly = c * dpx + s * dpy, -s * dpx + c * dpy
        small = np.abs(w) < 1e-9
        safe = np.where(small, 1.0, w)
        a = np.where(small, 1.0 - w * w / 6.0, np.sin(safe) / safe)
        b = np.where(small, w / 2.0, (1.0 - np.cos(safe)) / safe)
        det = a * a + b * b
        out[..., iv] = (a * lx + b * ly) / det
        out[..., iv + 1] = (-b * lx + a * ly) / det
        out[..., iv + 2] = w
    return out


def distance(model: 'RobotModel', q0, q1) -> Union[float, np.ndarray]:
    """
    Distance between configurations: the Euclidean norm of :func:`difference`.

    Continuous joints wrap around (the distance between ``-pi + e`` and ``pi - e`` is
    ``2 e``); floating joints count their twist's linear (m) and angular (rad) parts alike.

    :param model: the robot model.
    :param q0: ``(nq,)`` or ``(B, nq)``.
    :param q1: ``(nq,)`` or ``(B, nq)``.
    :return: a float, or ``(B,)`` distances.
    :raises ConfigurationError: for wrong shapes or non-finite values.
    """
    d = np.linalg.norm(difference(model, q0, q1), axis=-1)
    return float(d) if d.ndim == 0 else d


def interpolate(model: 'RobotModel', q0, q1, alpha) -> np.ndarray:
    """
    Return the configuration a fraction ``alpha`` of the way from ``q0`` to ``q1``.

    ``q0 ⊕ alpha · (q1 ⊖ q0)``: continuous joints go the short way round (and stay wrapped),
    floating and planar joints follow the geodesic (constant local twist).

    :param model: the robot model.
    :param q0: ``(nq,)`` or ``(B, nq)``.
    :param q1: ``(nq,)`` or ``(B, nq)``.
    :param alpha: fraction in ``[0, 1]``, a scalar or one per batch entry ``(B,)``.
    :return: the interpolated configuration.
    :raises ConfigurationError: for wrong shapes or non-finite values.
    """
    q0 = model.check_configuration(q0, 'q0')
    q1 = model.check_configuration(q1, 'q1')
    alpha = np.asarray(alpha, dtype=float)
    if not np.all(np.isfinite(alpha)):
        raise ConfigurationError('alpha must be finite')
    table = layout(model)
    v = _difference(table, q0, q1)
    return _integrate(table, q0, v * alpha[..., None])


def _sampling_bounds(model: 'RobotModel', translation_range: float
                     ) -> Tuple[np.ndarray, np.ndarray]:
    table = layout(model)
    lower, upper = table.lower.copy(), table.upper.copy()
    if len(table.wrap_q):
        lower[table.wrap_q], upper[table.wrap_q] = -np.pi, np.pi
    unbounded = ~np.isfinite(lower) | ~np.isfinite(upper)
    lower[unbounded] = -abs(float(translation_range))
    upper[unbounded] = abs(float(translation_range))
    return lower, upper


def _fix_orientations(model: 'RobotModel', q: np.ndarray, rng: np.random.Generator) -> None:
    table = layout(model)
    for iq, _, _ in table.floating:
        quat = rng.normal(size=q.shape[:-1] + (4,))
        q[..., iq + 3:iq + 7] = quat / np.linalg.norm(quat, axis=-1, keepdims=True)
    for iq, _, _ in table.planar:
        q[..., iq + 2] = rng.uniform(-np.pi, np.pi, size=q.shape[:-1])


def random_uniform(model: 'RobotModel', rng: np.random.Generator, size: Optional[int] = None,
                   translation_range: float = 1.0) -> np.ndarray:
    """
    Draw configurations uniformly within the joint limits.

    Continuous angles (and planar angles) are drawn in ``[-pi, pi)``, floating orientations
    uniformly on SO(3); coordinates without limits (unbounded prismatic joints, floating and
    planar translations) are drawn in ``[-translation_range, translation_range]``.

    :param model: the robot model.
    :param rng: the random generator (``numpy.random.default_rng(seed)`` for reproducibility).
    :param size: number of configurations (default: a single one, shape ``(nq,)``).
    :param translation_range: half-width in metres for unbounded linear coordinates.
    :return: ``(nq,)`` or ``(size, nq)``.
    """
    lower, upper = _sampling_bounds(model, translation_range)
    shape = (model.nq,) if size is None else (int(size), model.nq)
    q = lower + rng.random(shape) * (upper - lower)
    _fix_orientations(model, q, rng)
    return q


def random_gaussian(model: 'RobotModel', rng: np.random.Generator, mean, sigma,
                    size: Optional[int] = None) -> np.ndarray:
    """
    Draw configurations around ``mean``: ``clip(mean ⊕ v)``, ``v ~ N(0, sigma²)``.

    The perturbation lives in the velocity space (local twists for floating joints), then
    the result is projected onto the joint limits with :func:`clip` (samples beyond a limit
    land on it).

    :param model: the robot model.
    :param rng: the random generator.
    :param mean: the centre configuration ``(nq,)``.
    :param sigma: standard deviation, a scalar or one per ``v`` entry ``(nv,)``.
    :param size: number of configurations (default: a single one).
    :return: ``(nq,)`` or ``(size, nq)``.
    :raises ConfigurationError: for an invalid mean or sigma.
    """
    mean = model.check_configuration(mean, 'mean')
    if mean.ndim != 1:
        raise ConfigurationError(f'mean must have shape ({model.nq},), got {mean.shape}')
    sigma = np.broadcast_to(np.asarray(sigma, dtype=float), (model.nv,))
    if not np.all(np.isfinite(sigma)) or np.any(sigma < 0):
        raise ConfigurationError('sigma must be finite and non-negative')
    shape = (model.nv,) if size is None else (int(size), model.nv)
    v = rng.normal(size=shape) * sigma
    return clip(model, _integrate(layout(model), mean, v))
