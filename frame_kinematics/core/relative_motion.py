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
Relative-motion matrix: which bodies of a robot move rigidly with respect to which.

The idea comes from HPP's ``RelativeMotion``: given a set of constraints, a symmetric
``(N+1) x (N+1)`` matrix tells for every pair of bodies whether their relative pose is

* :attr:`RelativeMotionType.CONSTRAINED`: fixed, with a constant value;
* :attr:`RelativeMotionType.PARAMETERIZED`: fixed, but the value may change between two uses
  of the constraints (e.g. the right-hand side of a grasp or of a locked joint is set per path);
* :attr:`RelativeMotionType.UNCONSTRAINED`: free to change.

Indexing
--------
Index 0 is the environment; index ``k + 1`` is ``model.joints[k]``, so ``N = len(model.joints)``.
Every URDF joint is indexed, fixed and mimic joints included, so that every link has a row:
an entry stands for the *child body* of the joint (its child link), the environment for the
root link. A link name therefore resolves to the index of its parent joint, and the model's
root link resolves to the environment (0): the model's world is its root link, as Pinocchio's
universe and HPP's environment. With ``floating_base=True`` the added world link is the
environment and the URDF's root link is the child of ``root_joint``.

Fixed and mimic joints
----------------------
* A fixed joint rigidly ties its child body to its parent body: a fresh matrix already has
  CONSTRAINED between a fixed joint and its parent joint (then everything rigidly linked
  through fixed joints, by transitivity). A model without fixed joints starts with
  CONSTRAINED on the diagonal and UNCONSTRAINED elsewhere, as HPP.
* A mimic joint is *not* rigid with respect to its master: it moves its child body relative
  to its own parent body. What ties them is the joint value: a mimic's value is fixed exactly
  when its master's value is fixed (``value = multiplier * master + offset``). So the pair
  (mimic, parent of the mimic) and the pair (master, parent of the master) always carry the
  same value: locking a master locks its mimics, and a constraint that makes a mimic's child
  rigid with respect to its parent (a lock, a 6D transformation, a closed loop) fixes the
  master too. A mimic with multiplier 0 has a constant value and is treated as a fixed joint.

Constraints
-----------
* :meth:`RelativeMotion.add_locked_joint`: a locked joint fixes the joint's child body with
  respect to its parent body (HPP's ``LockedJoint``: the pair (joint, parent joint) becomes
  CONSTRAINED, or PARAMETERIZED if the locked value may change between uses).
* :meth:`RelativeMotion.add_relative_transformation`: a 6D transformation between two bodies
  (joints or links) or between a body and the environment; with a ``mask`` that leaves any
  component out it is of lower dimension and leaves the pair UNCONSTRAINED.
* :meth:`RelativeMotion.set_relative_motion`: the raw update, as HPP's ``recurseSetRelMotion``.

Closure
-------
Composing two relative motions gives the larger value (CONSTRAINED < PARAMETERIZED <
UNCONSTRAINED), and a pair keeps the smallest value over every chain of constraints joining
it. The matrix is thus the min-max (bottleneck) path closure of the constraint graph; it is
updated in O(N^2) per constraint, does not depend on the order in which constraints are added,
and never weakens a value.
"""

import enum
import logging
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .checks import as_float_array, check_flag
from .errors import ConfigurationError, FrameKinematicsError, quote, UnknownFrameError
from .model import require_model, RobotModel

_LOG = logging.getLogger(__name__)

#: Name of index 0 (the environment) in :attr:`RelativeMotion.index_names`; also accepted,
#: like ``None``, wherever a body name is expected.
ENVIRONMENT = '<environment>'


class RelativeMotionType(enum.IntEnum):
    """How two bodies may move with respect to each other (ordered from strongest)."""

    #: The relative pose is fixed and constant.
    CONSTRAINED = 0
    #: The relative pose is fixed, but its value may change between uses of the constraints.
    PARAMETERIZED = 1
    #: The relative pose may change.
    UNCONSTRAINED = 2

    def combine(self, other: 'RelativeMotionType') -> 'RelativeMotionType':
        """
        Relative motion of a chain of two relative motions (the weaker of the two).

        :param other: the second relative motion (a :class:`RelativeMotionType` or its value).
        :return: CONSTRAINED+CONSTRAINED gives CONSTRAINED, UNCONSTRAINED with anything gives
            UNCONSTRAINED, anything else PARAMETERIZED.
        :raises RelativeMotionError: if ``other`` is not a :class:`RelativeMotionType` value.
        """
        return RelativeMotionType(max(self, _motion_type(other, 'a relative motion')))


class RelativeMotionError(FrameKinematicsError, ValueError):
    """
    A relative-motion constraint that makes no sense (a body with itself, an ambiguous name).

    :param message: what is wrong.
    """


def _motion_type(value, what: str) -> RelativeMotionType:
    if isinstance(value, RelativeMotionType):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and \
            0 <= value <= 2:
        return RelativeMotionType(int(value))
    raise RelativeMotionError(f'{what} must be a RelativeMotionType (0, 1 or 2), got '
                              f'{type(value).__name__} {quote(value)}')


class RelativeMotion:
    """
    Relative-motion matrix of a robot under a set of constraints (HPP's ``RelativeMotion``).

    :param model: the robot model; index ``k + 1`` is ``model.joints[k]``, 0 the environment.
    :raises ConfigurationError: for a ``model`` that is not a
        :class:`~frame_kinematics.core.model.RobotModel`.
    """

    def __init__(self, model: RobotModel) -> None:
        self.model = require_model(model)
        self._joint_index: Dict[str, int] = {j.name: k + 1 for k, j in enumerate(model.joints)}
        self._link_index: Dict[str, int] = {
            link.name: 0 if link.parent_joint is None else self._joint_index[link.parent_joint]
            for link in model.links}
        self.index_names: Tuple[str, ...] = (ENVIRONMENT,) + tuple(j.name for j in model.joints)
        #: Index of the parent body of each index (the environment is its own parent).
        self.parent_index = np.array(
            [0] + [self._link_index[j.parent] for j in model.joints], dtype=np.intp)
        couplings = []
        rigid = []
        for joint in model.joints:
            k = self._joint_index[joint.name]
            if not joint.type.moves or (joint.mimic is not None and joint.mimic[1] == 0.0):
                rigid.append(k)
            elif joint.mimic is not None:
                master = self._joint_index[joint.mimic[0]]
                couplings.append((k, self.parent_index[k], master, self.parent_index[master]))
        self._couplings = np.array(couplings, dtype=np.intp).reshape(-1, 4)
        size = len(self.index_names)
        self._matrix = np.full((size, size), RelativeMotionType.UNCONSTRAINED, dtype=np.int8)
        np.fill_diagonal(self._matrix, RelativeMotionType.CONSTRAINED)
        for k in rigid:
            self._update(k, int(self.parent_index[k]), RelativeMotionType.CONSTRAINED)

    # -- indices ------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Return the number of rows (and columns): ``len(model.joints) + 1``."""
        return len(self.index_names)

    def index(self, name: Optional[str]) -> int:
        """
        Matrix index of a body given by a joint name, a link name or the environment.

        :param name: a joint name (its child body), a link name (the child body of its parent
            joint; the root link is the environment), or ``None``/:data:`ENVIRONMENT`.
        :return: the index, 0 for the environment.
        :raises UnknownFrameError: if the name is neither a joint nor a link.
        :raises RelativeMotionError: if the name is both a joint and a link of different bodies
            (or :data:`ENVIRONMENT` and a joint or a link other than the root), or is neither a
            string nor None.
        """
        if name is None:
            return 0
        if not isinstance(name, str):
            raise RelativeMotionError(f'a body is given by a joint or link name or None, got '
                                      f'{type(name).__name__} {quote(name)}')
        name = str.__str__(name)  # a plain str: a subclass's __eq__ or __hash__ is not called
        by_joint = self._joint_index.get(name)
        by_link = self._link_index.get(name)
        if name == ENVIRONMENT:
            bodies = sorted({k for k in (by_joint, by_link) if k})
            if bodies:
                raise RelativeMotionError(
                    f"'{ENVIRONMENT}' names both the environment and a body of the model (index "
                    f'{bodies[0]}): give the environment as None and name the body by its joint '
                    'or link instead')
            return 0
        if by_joint is None and by_link is None:
            raise UnknownFrameError(name, list(self._joint_index) + list(self._link_index),
                                    'joint or link')
        if by_joint is not None and by_link is not None and by_joint != by_link:
            raise RelativeMotionError(
                f"'{name}' names both a joint and a link of different bodies (indices "
                f'{by_joint} and {by_link}): name the joint by its child link or the link by '
                f'its parent joint instead')
        return by_joint if by_joint is not None else by_link

    # -- constraints --------------------------------------------------------------------------
    def add_locked_joint(self, joint: str, parameterized: bool = False) -> None:
        """
        Lock a joint: its child body becomes rigid with respect to its parent body.

        Locking a mimic joint (or its master) fixes the master and all its mimics. Locking a
        fixed joint changes nothing (it is already CONSTRAINED).

        :param joint: the joint name.
        :param parameterized: True if the locked value may change between uses
            (PARAMETERIZED), False for a constant value (CONSTRAINED).
        :raises UnknownFrameError: if the model has no such joint.
        :raises RelativeMotionError: if ``joint`` is not a string.
        :raises ConfigurationError: if ``parameterized`` is not a bool.
        """
        if not isinstance(joint, str):
            raise RelativeMotionError(f'a joint is given by its name, got {type(joint).__name__} '
                                      f'{quote(joint)}')
        joint = str.__str__(joint)  # a plain str, as in index()
        if joint not in self._joint_index:
            raise UnknownFrameError(joint, self._joint_index, 'joint')
        k = self._joint_index[joint]
        motion = (RelativeMotionType.PARAMETERIZED if check_flag(parameterized, 'parameterized')
                  else RelativeMotionType.CONSTRAINED)
        self._update(k, int(self.parent_index[k]), motion)

    def add_relative_transformation(self, body_a: Optional[str], body_b: Optional[str] = None,
                                    parameterized: bool = False,
                                    mask: Optional[Sequence[bool]] = None) -> None:
        """
        Constrain the relative pose of two bodies, or of a body and the environment.

        :param body_a: a joint or link name (see :meth:`index`), or None for the environment.
        :param body_b: the other body; None (default) for the environment.
        :param parameterized: True if the target transformation may change between uses
            (PARAMETERIZED), False for a constant one (CONSTRAINED).
        :param mask: six booleans ``[x, y, z, rx, ry, rz]`` telling which components are
            constrained (default all). A constraint of lower dimension leaves the pair
            UNCONSTRAINED (it is only checked and logged).
        :raises UnknownFrameError: for an unknown joint or link name.
        :raises RelativeMotionError: if both names are the same body, or a name is neither a
            string nor None.
        :raises ConfigurationError: for a mask that is not six booleans, or a
            ``parameterized`` that is not a bool.
        """
        i, j = self._pair(body_a, body_b)
        parameterized = check_flag(parameterized, 'parameterized')
        if mask is not None:
            try:
                flags = as_float_array(mask, 'mask')
            except ConfigurationError:
                flags = np.zeros(0)
            if flags.shape != (6,) or not np.all((flags == 0) | (flags == 1)):
                raise ConfigurationError(
                    f'mask of the transformation between {self._label(body_a, i)} and '
                    f'{self._label(body_b, j)} must be six booleans, got {quote(mask)}')
            if not np.all(flags):
                _LOG.debug('transformation between %s and %s constrains %d of 6 components: '
                           'the pair stays unconstrained', self._label(body_a, i),
                           self._label(body_b, j), int(np.count_nonzero(flags)))
                return
        motion = (RelativeMotionType.PARAMETERIZED if parameterized
                  else RelativeMotionType.CONSTRAINED)
        self._update(i, j, motion)

    def set_relative_motion(self, body_a: Optional[str], body_b: Optional[str],
                            motion: RelativeMotionType) -> None:
        """
        Set the relative motion of two bodies and update every pair it links.

        This is HPP's ``recurseSetRelMotion``. UNCONSTRAINED does nothing, and a pair already
        stronger than ``motion`` keeps its value.

        :param body_a: a joint or link name, or None for the environment.
        :param body_b: the other body.
        :param motion: the relative motion of the two bodies.
        :raises UnknownFrameError: for an unknown joint or link name.
        :raises RelativeMotionError: if both names are the same body, a name is neither a
            string nor None, or ``motion`` is not a :class:`RelativeMotionType` value.
        """
        i, j = self._pair(body_a, body_b)
        value = _motion_type(motion, f'relative motion between {self._label(body_a, i)} and '
                                     f'{self._label(body_b, j)}')
        self._update(i, j, value)

    # -- queries ------------------------------------------------------------------------------
    @property
    def matrix(self) -> np.ndarray:
        """Return a copy of the matrix: ``(N+1, N+1)`` int8 of :class:`RelativeMotionType`."""
        return self._matrix.copy()

    def value(self, body_a: Optional[str], body_b: Optional[str] = None) -> RelativeMotionType:
        """
        Relative motion of two bodies.

        :param body_a: a joint or link name, or None for the environment.
        :param body_b: the other body; None (default) for the environment.
        :return: the relative motion (CONSTRAINED for a body with itself).
        :raises UnknownFrameError: for an unknown joint or link name.
        :raises RelativeMotionError: for a name that is neither a string nor None.
        """
        return RelativeMotionType(int(self._matrix[self.index(body_a), self.index(body_b)]))

    def rigid_groups(self, include_parameterized: bool = True) -> List[Tuple[str, ...]]:
        """
        Partition of the indices into groups of bodies that move rigidly together.

        :param include_parameterized: count PARAMETERIZED pairs as rigid (they are, within one
            use of the constraints); False keeps only CONSTRAINED pairs.
        :return: tuples of :attr:`index_names` (ENVIRONMENT for index 0), each in index order,
            groups ordered by their first index; every index is in exactly one group.
        :raises ConfigurationError: if ``include_parameterized`` is not a bool.
        """
        limit = (RelativeMotionType.PARAMETERIZED
                 if check_flag(include_parameterized, 'include_parameterized')
                 else RelativeMotionType.CONSTRAINED)
        assigned = np.zeros(self.size, dtype=bool)
        groups = []
        for i in range(self.size):
            if assigned[i]:
                continue
            members = np.flatnonzero(self._matrix[i] <= limit)
            assigned[members] = True
            groups.append(tuple(self.index_names[k] for k in members))
        return groups

    def copy(self) -> 'RelativeMotion':
        """
        Return an independent copy, with the same model and constraints.

        :return: the copy.
        """
        other = object.__new__(RelativeMotion)
        other.__dict__.update(self.__dict__)
        other._matrix = self._matrix.copy()
        return other

    def __str__(self) -> str:
        letters = np.array(['C', 'P', 'U'])
        width = max(len(name) for name in self.index_names)
        rows = [f'{i:3d} {name:<{width}} ' + ' '.join(letters[self._matrix[i]])
                for i, name in enumerate(self.index_names)]
        return '\n'.join([repr(self)] + rows)

    def __repr__(self) -> str:
        return f"RelativeMotion('{self.model.name}', {self.size} indices)"

    # -- internals ----------------------------------------------------------------------------
    def _label(self, name: Optional[str], index: int) -> str:
        """
        Name a body in a message, as given and, for a link or a name of index 0, as an index.

        :param name: the body as the caller gave it, a name or None (read as a plain str: a
            subclass's ``__eq__`` is never called).
        :param index: its index.
        :return: the label.
        """
        if isinstance(name, str):
            name = str.__str__(name)
        if index == 0:
            return ('the environment' if name in (None, ENVIRONMENT)
                    else f'{quote(name)} (environment)')
        joint = self.index_names[index]
        return quote(name) if name == joint else f"{quote(name)} (body of joint '{joint}')"

    def _pair(self, body_a: Optional[str], body_b: Optional[str]) -> Tuple[int, int]:
        i, j = self.index(body_a), self.index(body_b)
        if i == j:
            raise RelativeMotionError(
                f'a constraint between {self._label(body_a, i)} and {self._label(body_b, j)} '
                f'relates a body to itself')
        return i, j

    def _update(self, i: int, j: int, motion: RelativeMotionType) -> None:
        pending = [(i, j, int(motion))]
        matrix = self._matrix
        while pending:
            u, v, weight = pending.pop()
            if weight >= RelativeMotionType.UNCONSTRAINED or matrix[u, v] <= weight:
                continue
            through = np.maximum(np.maximum(matrix[:, u], weight)[:, None], matrix[v][None, :])
            np.minimum(matrix, through, out=matrix)
            np.minimum(matrix, through.T, out=matrix)
            for mimic, mimic_parent, master, master_parent in self._couplings:
                a, b = matrix[mimic, mimic_parent], matrix[master, master_parent]
                if a < b:
                    pending.append((master, master_parent, int(a)))
                elif b < a:
                    pending.append((mimic, mimic_parent, int(b)))
