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
Framed quantities: values that carry the frame they are expressed in (seed 000).

Each object is immutable; :meth:`change_frame` returns the same physical quantity expressed in
another frame of the same :class:`~frame_kinematics.core.frames.FrameTree`, using the tree's
current configuration. Arithmetic between two framed objects checks that their frames match
and raises :class:`~frame_kinematics.core.errors.ReferenceFrameError` otherwise.

Spatial vectors are ``[linear; angular]``: a :class:`SpatialMotion` is the twist of
``body_frame`` relative to ``base_frame``, expressed in ``frame`` (RobotDynamics'
``expressedInFrame``); forces and momenta are ``[force; torque]`` and ``[linear; angular]``.
"""

from typing import Sequence, Tuple

import numpy as np

from .checks import as_float_array, check_finite, check_number, check_one_vector, MAX_MAGNITUDE
from .errors import ConfigurationError, quote, ReferenceFrameError
from .frames import ReferenceFrame
from .spatial import (force_transform, motion_transform, quaternion_from_rotation,
                      rotation_from_quaternion, skew)
from .transform_checks import unit_quaternion


#: Tolerance of the symmetry and positive semi-definiteness of a rotational inertia, relative
#: to its largest entry (at least 1 kg m^2).
INERTIA_TOLERANCE = 1e-9


def _vector(values, size: int, what: str) -> np.ndarray:
    arr = check_one_vector(values, size, what)
    arr.flags.writeable = False
    return arr


def _frame(frame, what: str) -> ReferenceFrame:
    if not isinstance(frame, ReferenceFrame):
        raise ReferenceFrameError(f'{what} must be a ReferenceFrame (FrameTree.frame(name)), '
                                  f'got {type(frame).__name__} {quote(frame)}')
    return frame


def _operand(other, kind: type, what: str):
    if not isinstance(other, kind):
        raise ConfigurationError(f'{what} needs a {kind.__name__}, got {type(other).__name__} '
                                 f'{quote(other)}')
    return other


def _scale(scale) -> float:
    return check_number(scale, f'a scale factor must be a real number within +-{MAX_MAGNITUDE:g}')


def _match(a: ReferenceFrame, b: ReferenceFrame, what: str) -> None:
    if a is not b:
        raise ReferenceFrameError(f"{what}: frames do not match ('{a.name}' and '{b.name}')",
                                  a.name, b.name)


class FrameObject:
    """Base of framed quantities: a ``frame`` and a ``value`` array."""

    __slots__ = ('frame', 'value')
    #: numpy's operators defer to the quantity's (``array * vector`` is ``vector.__rmul__``):
    #: an array never holds quantities as objects, nor applies them element by element.
    __array_ufunc__ = None

    def __init__(self, frame: ReferenceFrame, value: np.ndarray) -> None:
        """
        Create the quantity.

        :param frame: the frame the value is expressed in.
        :param value: the value (kept as given, not copied or checked).
        :raises ReferenceFrameError: if ``frame`` is not a :class:`ReferenceFrame`.
        """
        self.frame = _frame(frame, 'the frame of a quantity')
        self.value = value

    def _target_T_frame(self, target) -> Tuple[ReferenceFrame, np.ndarray]:
        """
        Return the frame ``target`` and the pose ``target_T_frame`` of this quantity's frame.

        :param target: frame name or :class:`ReferenceFrame` of the same tree.
        :return: the frame and one 4x4 transform.
        :raises ConfigurationError: if the tree holds a batch of configurations: a quantity is
            one value, expressed at one configuration.
        """
        tree = self.frame.tree
        target_frame = tree.frame(target)
        target_T_frame = tree.transform(target_frame, self.frame)
        if target_T_frame.shape != (4, 4):
            raise ConfigurationError(
                f'a {type(self).__name__} changes frame at one configuration, but the tree holds '
                f'a batch of {target_T_frame.shape[0]} configurations: update it with one')
        return target_frame, target_T_frame

    def __repr__(self) -> str:
        return f"{type(self).__name__}('{self.frame.name}', {np.round(self.value, 6).tolist()})"


class FramePoint(FrameObject):
    """A 3D point expressed in a frame."""

    def __init__(self, frame: ReferenceFrame, xyz: Sequence[float]) -> None:
        """
        Create the quantity.

        :param frame: the frame.
        :param xyz: coordinates in that frame.
        :raises ConfigurationError: unless ``xyz`` is 3 real numbers within
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`.
        :raises ReferenceFrameError: if ``frame`` is not a :class:`ReferenceFrame`.
        """
        super().__init__(frame, _vector(xyz, 3, 'a point'))

    def change_frame(self, target) -> 'FramePoint':
        """
        Return the same point expressed in ``target``.

        :param target: frame name or :class:`ReferenceFrame`.
        :return: a new :class:`FramePoint`.
        :raises ConfigurationError: if the tree holds a batch of configurations.
        """
        frame, t = self._target_T_frame(target)
        return FramePoint(frame, t[:3, :3] @ self.value + t[:3, 3])

    def __sub__(self, other: 'FramePoint') -> 'FrameVector':
        if not isinstance(other, FramePoint):
            return NotImplemented
        _match(self.frame, other.frame, 'point - point')
        return FrameVector(self.frame, self.value - other.value)

    def __add__(self, other: 'FrameVector') -> 'FramePoint':
        if not isinstance(other, FrameVector):
            return NotImplemented
        _match(self.frame, other.frame, 'point + vector')
        return FramePoint(self.frame, self.value + other.value)


class FrameVector(FrameObject):
    """A free 3D vector (direction, velocity, force...) expressed in a frame."""

    def __init__(self, frame: ReferenceFrame, xyz: Sequence[float]) -> None:
        """
        Create the quantity.

        :param frame: the frame.
        :param xyz: components in that frame.
        :raises ConfigurationError: unless ``xyz`` is 3 real numbers within
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`.
        :raises ReferenceFrameError: if ``frame`` is not a :class:`ReferenceFrame`.
        """
        super().__init__(frame, _vector(xyz, 3, 'a vector'))

    def change_frame(self, target) -> 'FrameVector':
        """
        Return the same vector expressed in ``target`` (rotation only).

        :param target: frame name or :class:`ReferenceFrame`.
        :return: a new :class:`FrameVector`.
        :raises ConfigurationError: if the tree holds a batch of configurations.
        """
        frame, t = self._target_T_frame(target)
        return FrameVector(frame, t[:3, :3] @ self.value)

    def __add__(self, other: 'FrameVector') -> 'FrameVector':
        if not isinstance(other, FrameVector):
            return NotImplemented
        _match(self.frame, other.frame, 'vector + vector')
        return FrameVector(self.frame, self.value + other.value)

    def __sub__(self, other: 'FrameVector') -> 'FrameVector':
        if not isinstance(other, FrameVector):
            return NotImplemented
        _match(self.frame, other.frame, 'vector - vector')
        return FrameVector(self.frame, self.value - other.value)

    def __mul__(self, scale: float) -> 'FrameVector':
        return FrameVector(self.frame, self.value * _scale(scale))

    __rmul__ = __mul__

    def dot(self, other: 'FrameVector') -> float:
        """
        Dot product with a vector of the same frame.

        :param other: the other vector.
        :return: the dot product.
        :raises ReferenceFrameError: if their frames differ.
        :raises ConfigurationError: if ``other`` is not a :class:`FrameVector`.
        """
        _operand(other, FrameVector, 'dot')
        _match(self.frame, other.frame, 'dot')
        return float(self.value @ other.value)

    def cross(self, other: 'FrameVector') -> 'FrameVector':
        """
        Cross product with a vector of the same frame.

        :param other: the other vector (right-hand operand).
        :return: a new :class:`FrameVector`, ``self x other``.
        :raises ReferenceFrameError: if their frames differ.
        :raises ConfigurationError: if ``other`` is not a :class:`FrameVector`.
        """
        _operand(other, FrameVector, 'cross')
        _match(self.frame, other.frame, 'cross')
        return FrameVector(self.frame, np.cross(self.value, other.value))


class FrameVectorPair(FrameObject):
    """
    A linear and an angular 3D vector expressed in one frame (RobotDynamics' FrameVectorPair).

    ``value`` is ``[linear; angular]``. Unlike a :class:`SpatialMotion`, changing its frame
    rotates both vectors and moves neither (no lever arm): it holds, e.g., a point's velocity
    and a body's angular velocity side by side.
    """

    def __init__(self, frame: ReferenceFrame, linear: Sequence[float],
                 angular: Sequence[float]) -> None:
        """
        Create the quantity.

        :param frame: the frame both vectors are expressed in.
        :param linear: the linear vector's components.
        :param angular: the angular vector's components.
        :raises ConfigurationError: unless each is 3 real numbers within
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`.
        :raises ReferenceFrameError: if ``frame`` is not a :class:`ReferenceFrame`.
        """
        pair = np.concatenate([_vector(linear, 3, 'a linear vector'),
                               _vector(angular, 3, 'an angular vector')])
        pair.flags.writeable = False
        super().__init__(frame, pair)

    @classmethod
    def from_vectors(cls, linear: FrameVector, angular: FrameVector) -> 'FrameVectorPair':
        """
        Pair two framed vectors of the same frame.

        :param linear: the linear vector.
        :param angular: the angular vector.
        :return: the pair.
        :raises ReferenceFrameError: if their frames differ.
        :raises ConfigurationError: if either is not a :class:`FrameVector`.
        """
        _operand(linear, FrameVector, 'a vector pair (linear)')
        _operand(angular, FrameVector, 'a vector pair (angular)')
        _match(linear.frame, angular.frame, 'vector pair (linear and angular)')
        return cls(linear.frame, linear.value, angular.value)

    @property
    def linear(self) -> FrameVector:
        """Return the linear vector."""
        return FrameVector(self.frame, self.value[:3])

    @property
    def angular(self) -> FrameVector:
        """Return the angular vector."""
        return FrameVector(self.frame, self.value[3:])

    def change_frame(self, target) -> 'FrameVectorPair':
        """
        Return both vectors expressed in ``target`` (rotation only).

        :param target: frame name or :class:`ReferenceFrame`.
        :return: a new :class:`FrameVectorPair`.
        :raises ConfigurationError: if the tree holds a batch of configurations.
        """
        frame, t = self._target_T_frame(target)
        rot = t[:3, :3]
        return FrameVectorPair(frame, rot @ self.value[:3], rot @ self.value[3:])

    def __add__(self, other: 'FrameVectorPair') -> 'FrameVectorPair':
        if not isinstance(other, FrameVectorPair):
            return NotImplemented
        _match(self.frame, other.frame, 'vector pair + vector pair')
        total = self.value + other.value
        return FrameVectorPair(self.frame, total[:3], total[3:])

    def __sub__(self, other: 'FrameVectorPair') -> 'FrameVectorPair':
        if not isinstance(other, FrameVectorPair):
            return NotImplemented
        _match(self.frame, other.frame, 'vector pair - vector pair')
        difference = self.value - other.value
        return FrameVectorPair(self.frame, difference[:3], difference[3:])

    def __mul__(self, scale: float) -> 'FrameVectorPair':
        scaled = self.value * _scale(scale)
        return FrameVectorPair(self.frame, scaled[:3], scaled[3:])

    __rmul__ = __mul__


class FrameOrientation(FrameObject):
    """An orientation (unit quaternion ``[x, y, z, w]``) relative to a frame."""

    def __init__(self, frame: ReferenceFrame, quaternion: Sequence[float]) -> None:
        """
        Create the quantity.

        :param frame: the frame.
        :param quaternion: unit quaternion ``[x, y, z, w]`` (normalised if within
            :data:`~frame_kinematics.core.transform_checks.QUATERNION_NORM_TOLERANCE`).
        :raises ConfigurationError: unless ``quaternion`` is 4 real numbers of norm 1.
        :raises ReferenceFrameError: if ``frame`` is not a :class:`ReferenceFrame`.
        """
        quat = unit_quaternion(_vector(quaternion, 4, 'an orientation'), 'an orientation')
        quat.flags.writeable = False
        super().__init__(frame, quat)

    @property
    def rotation(self) -> np.ndarray:
        """Return the orientation as a rotation matrix ``frame_R_orientation``."""
        return rotation_from_quaternion(self.value)

    def change_frame(self, target) -> 'FrameOrientation':
        """
        Return the same orientation relative to ``target``.

        :param target: frame name or :class:`ReferenceFrame`.
        :return: a new :class:`FrameOrientation`.
        :raises ConfigurationError: if the tree holds a batch of configurations.
        """
        frame, t = self._target_T_frame(target)
        return FrameOrientation(frame, quaternion_from_rotation(t[:3, :3] @ self.rotation))


class SpatialMotion(FrameObject):
    """Twist ``[v; w]`` of ``body_frame`` relative to ``base_frame``, expressed in ``frame``."""

    __slots__ = ('body_frame', 'base_frame')

    def __init__(self, body_frame: ReferenceFrame, base_frame: ReferenceFrame,
                 frame: ReferenceFrame, vector: Sequence[float]) -> None:
        """
        Create the quantity.

        :param body_frame: the moving frame.
        :param base_frame: the frame it moves relative to.
        :param frame: the frame the vector is expressed in.
        :param vector: ``[linear; angular]``.
        :raises ConfigurationError: unless ``vector`` is 6 real numbers within
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`.
        :raises ReferenceFrameError: if a frame is not a :class:`ReferenceFrame`, or the three
            frames are not of one tree.
        """
        super().__init__(frame, _vector(vector, 6, type(self).__name__))
        what = type(self).__name__
        self.body_frame = _frame(body_frame, f'the body frame of a {what}')
        self.base_frame = _frame(base_frame, f'the base frame of a {what}')
        for role, other in (('body', self.body_frame), ('base', self.base_frame)):
            if other.tree is not self.frame.tree:
                raise ReferenceFrameError(
                    f"the {role} frame '{other.name}' of a {what} belongs to another tree than "
                    f"the frame '{self.frame.name}' it is expressed in", other.name,
                    self.frame.name)

    def change_frame(self, target) -> 'SpatialMotion':
        """
        Return the same motion expressed in ``target`` (``target_X_frame @ vector``).

        :param target: frame name or :class:`ReferenceFrame`.
        :return: a new object of the same type.
        :raises ConfigurationError: if the tree holds a batch of configurations.
        """
        frame, t = self._target_T_frame(target)
        return type(self)(self.body_frame, self.base_frame, frame,
                          motion_transform(t) @ self.value)

    def __add__(self, other):
        """Chain motions: (b relative to a) + (c relative to b) = (c relative to a)."""
        if type(other) is not type(self):
            return NotImplemented
        _match(self.frame, other.frame, 'motion + motion (expressed-in frames)')
        _match(self.body_frame, other.base_frame, 'motion + motion (body of the first, base '
               'of the second)')
        return type(self)(other.body_frame, self.base_frame, self.frame,
                          self.value + other.value)

    def __sub__(self, other):
        """(b relative to a) - (c relative to a) = (b relative to c)."""
        if type(other) is not type(self):
            return NotImplemented
        _match(self.frame, other.frame, 'motion - motion (expressed-in frames)')
        _match(self.base_frame, other.base_frame, 'motion - motion (base frames)')
        return type(self)(self.body_frame, other.body_frame, self.frame,
                          self.value - other.value)


class SpatialAcceleration(SpatialMotion):
    """
    Spatial acceleration ``[linear; angular]`` of ``body_frame`` relative to ``base_frame``.

    Changing the frame it is expressed in applies the same 6x6 transform as a twist.
    """

    __slots__ = ()


class SpatialForce(FrameObject):
    """A wrench ``[force; torque]`` expressed in a frame (torque about its origin)."""

    def __init__(self, frame: ReferenceFrame, vector: Sequence[float]) -> None:
        """
        Create the quantity.

        :param frame: the frame.
        :param vector: ``[force; torque]``.
        :raises ConfigurationError: unless ``vector`` is 6 real numbers within
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`.
        :raises ReferenceFrameError: if ``frame`` is not a :class:`ReferenceFrame`.
        """
        super().__init__(frame, _vector(vector, 6, type(self).__name__))

    def change_frame(self, target) -> 'SpatialForce':
        """
        Return the same wrench expressed in ``target``.

        :param target: frame name or :class:`ReferenceFrame`.
        :return: a new object of the same type.
        :raises ConfigurationError: if the tree holds a batch of configurations.
        """
        frame, t = self._target_T_frame(target)
        return type(self)(frame, force_transform(t) @ self.value)

    def __add__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        _match(self.frame, other.frame, f'{type(self).__name__} + {type(other).__name__}')
        return type(self)(self.frame, self.value + other.value)

    def __sub__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        _match(self.frame, other.frame, f'{type(self).__name__} - {type(other).__name__}')
        return type(self)(self.frame, self.value - other.value)


class SpatialMomentum(SpatialForce):
    """Momentum ``[linear; angular]`` (angular about the frame's origin) expressed in a frame."""

    __slots__ = ()


class SpatialInertia(FrameObject):
    """Rigid-body inertia expressed in a frame, as a 6x6 matrix in ``[v; w]`` order."""

    def __init__(self, frame: ReferenceFrame, mass: float, com: Sequence[float],
                 inertia_com: np.ndarray) -> None:
        """
        Create the quantity.

        :param frame: the frame.
        :param mass: mass (kg, >= 0).
        :param com: center of mass in the frame.
        :param inertia_com: 3x3 rotational inertia about the CoM, in the frame's axes.
        :raises ConfigurationError: for a mass that is not a real number between 0 and
            :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE`, an inertia that is not a 3x3
            matrix of such numbers, symmetric and positive semi-definite (within
            :data:`INERTIA_TOLERANCE`), or a center of mass that is not 3 such numbers.
        :raises ReferenceFrameError: if ``frame`` is not a :class:`ReferenceFrame`.
        """
        _frame(frame, 'the frame of a SpatialInertia')
        mass = check_number(mass, 'the mass of a spatial inertia must be a real number from 0 to '
                            f'{MAX_MAGNITUDE:g}', 0.0)
        inertia = as_float_array(inertia_com, 'the inertia of a spatial inertia')
        if inertia.shape != (3, 3):
            raise ConfigurationError(f'the inertia of a spatial inertia must be a 3x3 matrix, '
                                     f'got shape {inertia.shape}')
        check_finite(inertia, 'the inertia of a spatial inertia')
        tol = INERTIA_TOLERANCE * max(1.0, float(np.abs(inertia).max()))
        if np.abs(inertia - inertia.T).max() > tol:
            raise ConfigurationError('the inertia of a spatial inertia must be symmetric, got '
                                     f'{quote(inertia.tolist())}')
        if np.linalg.eigvalsh(inertia).min() < -tol:
            raise ConfigurationError('the inertia of a spatial inertia must be positive '
                                     f'semi-definite, got {quote(inertia.tolist())}')
        c = _vector(com, 3, 'a center of mass')
        sc = skew(c)
        matrix = np.zeros((6, 6))
        matrix[:3, :3] = mass * np.eye(3)
        matrix[:3, 3:] = -mass * sc
        matrix[3:, :3] = mass * sc
        matrix[3:, 3:] = inertia - mass * sc @ sc
        matrix.flags.writeable = False
        inertia.flags.writeable = False
        super().__init__(frame, matrix)
        self.mass = float(mass)
        self.com = c
        self.inertia_com = inertia

    def change_frame(self, target) -> 'SpatialInertia':
        """
        Return the same inertia expressed in ``target``.

        :param target: frame name or :class:`ReferenceFrame`.
        :return: a new :class:`SpatialInertia`.
        :raises ConfigurationError: if the tree holds a batch of configurations.
        """
        frame, t = self._target_T_frame(target)
        rot = t[:3, :3]
        return SpatialInertia(frame, self.mass, rot @ self.com + t[:3, 3],
                              rot @ self.inertia_com @ rot.T)

    def __matmul__(self, motion: SpatialMotion) -> SpatialMomentum:
        """Momentum of the body moving with ``motion`` (expressed in the same frame)."""
        if not isinstance(motion, SpatialMotion):
            return NotImplemented
        _match(self.frame, motion.frame, 'inertia @ motion')
        return SpatialMomentum(self.frame, self.value @ motion.value)
