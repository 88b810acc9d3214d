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

from typing import Optional, Sequence, Tuple, TYPE_CHECKING, Union

import numpy as np

from .checks import as_float_array, as_vectors, check_count, check_finite, check_vector
from .errors import ConfigurationError, name_list, quote
from .joints import wrap_angle

if TYPE_CHECKING:  # pragma: no cover
    from .model import RobotModel

__all__ = ['clip', 'difference', 'distance', 'entries_in_order', 'integrate', 'interpolate',
           'is_valid', 'joint_limits', 'random_gaussian', 'random_uniform', 'step',
           'wrap_angle']


def entries_in_order(model: 'RobotModel', joint_names: Sequence[str], space: str = 'q'
                     ) -> np.ndarray:
    """
    Return the indices of the ``q`` (or ``v``) entries in another library's joint order.

    This library orders joints depth-first from the root, children in document order;
    Pinocchio orders the children of a link by joint name, so the two orders differ on most
    robots with several limbs. With ``index = entries_in_order(model, names)``, where ``names``
    lists the other library's joints in its order (Pinocchio: ``list(pin_model.names)[1:]``),
    ``q_other = q[..., index]`` and ``q[..., index] = q_other``. A joint's own entries keep
    their order (a floating joint's ``x y z qx qy qz qw``, as in Pinocchio).

    :param model: the model.
    :param joint_names: a list of every actuated joint of the model, once, in the other order
        (mimic and fixed joints have no entries of their own and are refused).
    :param space: ``'q'`` for configuration entries, ``'v'`` for velocity entries.
    :return: ``(nq,)`` or ``(nv,)`` int64 indices, a permutation.
    :raises ConfigurationError: for a space other than ``q`` or ``v``, or names that are not
        the actuated joints of the model, each once.
    :raises UnknownFrameError: for a name that is no joint of the model.
    """
    if space not in ('q', 'v'):
        raise ConfigurationError(f"space must be 'q' or 'v', got {quote(space)}")
    if not isinstance(joint_names, (list, tuple)) or \
            not all(isinstance(n, str) for n in joint_names):
        raise ConfigurationError('joint_names must be a list of joint names')
    names = list(joint_names)
    actuated = set(model.joint_names)
    unknown = [n for n in names if n not in actuated]
    for name in unknown:
        model.joint(name)  # raises UnknownFrameError for a name that is no joint at all
    if unknown or len(names) != len(actuated) or len(set(names)) != len(names):
        missing = sorted(actuated - set(names))
        raise ConfigurationError(
            'joint_names must list every actuated joint once: '
            + (f'not actuated (fixed or mimic): {name_list(unknown)}; ' if unknown else '')
            + (f'missing: {name_list(missing)}; ' if missing else '')
            + f'{len(names)} names for {len(actuated)} actuated joints')
    index = []
    for name in names:
        joint = model.joint(name)
        start, size = (joint.idx_q, joint.nq) if space == 'q' else (joint.idx_v, joint.nv)
        index.extend(range(start, start + size))
    return np.array(index, dtype=np.int64)


def joint_limits(model: 'RobotModel') -> Tuple[np.ndarray, np.ndarray]:
    """
    Lower and upper limits of every ``q`` entry (the model's one limit table).

    Continuous joints and the translations and angle of floating and planar joints are
    unbounded (``-inf``/``inf``); the quaternion entries of a floating joint lie in
    ``[-1, 1]`` (see :meth:`JointType.limits <frame_kinematics.core.joints.JointType.limits>`).

    :param model: the robot model.
    :return: ``(lower, upper)``, new arrays of shape ``(nq,)``.
    """
    return model.lower.copy(), model.upper.copy()


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
    return model.layout.clip(model.check_configuration(q))


def is_valid(model: 'RobotModel', q, tolerance: float = 0.0) -> Union[bool, np.ndarray]:
    """
    Whether configurations are finite, unit-quaternion and within the joint limits.

    :param model: the robot model.
    :param q: ``(nq,)`` or ``(B, nq)``.
    :param tolerance: slack allowed on each limit (and on quaternion norms).
    :return: a bool, or a ``(B,)`` bool array for a batch.
    :raises ConfigurationError: for a wrong type or shape.
    """
    arr = as_vectors(q, model.nq, f"q for robot '{model.name}'")
    tolerance = float(check_vector([tolerance], 1, 'tolerance')[0])
    ok = model.layout.is_valid(arr, tolerance)
    return bool(ok) if arr.ndim == 1 else ok


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
    return model.layout.integrate(model.check_configuration(q), model.check_velocity(v))


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
    return integrate(model, q, v * float(check_vector([dt], 1, 'dt')[0]))


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
    return model.layout.difference(model.check_configuration(q0, 'q0'),
                                   model.check_configuration(q1, 'q1'))


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
    alpha = check_finite(as_float_array(alpha, 'alpha'), 'alpha')
    layout = model.layout
    return layout.integrate(q0, layout.difference(q0, q1) * alpha[..., None])


def random_uniform(model: 'RobotModel', rng: np.random.Generator, size: Optional[int] = None,
                   translation_range: float = 1.0) -> np.ndarray:
    """
    Draw configurations uniformly within the joint limits.

    Continuous angles (and planar angles) are drawn in ``[-pi, pi)``, revolute angles over one
    turn at most (:meth:`~frame_kinematics.core.joints.ConfigurationLayout.turn_bounds`),
    floating orientations uniformly on SO(3); coordinates without limits (unbounded prismatic
    joints, floating and planar translations) are drawn in
    ``[-translation_range, translation_range]``.

    :param model: the robot model.
    :param rng: the random generator (``numpy.random.default_rng(seed)`` for reproducibility).
    :param size: number of configurations (default: a single one, shape ``(nq,)``).
    :param translation_range: half-width in metres for unbounded linear coordinates.
    :return: ``(nq,)`` or ``(size, nq)``.
    """
    size = None if size is None else check_count(size, 'size')
    translation_range = float(check_vector([translation_range], 1, 'translation_range')[0])
    return model.layout.sample_uniform(rng, size, translation_range)


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
    sigma = check_finite(as_float_array(sigma, 'sigma'), 'sigma')
    if sigma.shape not in ((), (model.nv,)) or np.any(sigma < 0):
        raise ConfigurationError(f'sigma must be one or {model.nv} non-negative numbers')
    shape = (model.nv,) if size is None else (check_count(size, 'size'), model.nv)
    v = rng.normal(size=shape) * sigma
    return clip(model, model.layout.integrate(mean, v))
