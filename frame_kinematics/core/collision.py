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
Collision flags bound to a model: which links a collision checker tests (rl::kin's flags).

Two kinds of flag, as rl::kin has them: whether a link is tested against the environment
(:meth:`CollisionFlags.is_colliding`), and whether two links are tested against each other
(:meth:`CollisionFlags.are_colliding`). By default every link is tested against the
environment and every pair of links against each other, except a link and its parent (joined
by a joint, they touch by design). An SRDF's ``<disable_collisions>`` pairs turn pairs off.

The model is immutable, so the flags are their own object: only the pairs set away from the
default are stored (memory grows with the changes, not with the square of the links).
"""

from typing import Dict, List, Optional, Tuple, Union

import numpy as np

from .checks import check_count
from .errors import ConfigurationError, SRDFError
from .srdf import SemanticDescription

__all__ = ['CollisionFlags']

#: A link given by name or by index in the model's :attr:`~RobotModel.links`.
LinkKey = Union[str, int]


class CollisionFlags:
    """
    Which links a collision checker tests, against the environment and against each other.

    :ivar model: the model the flags are bound to.
    :ivar srdf_disabled: the distinct pairs (link names, model order) an SRDF disabled, with
        the reason it gave, in document order.
    """

    def __init__(self, model, srdf: Optional[SemanticDescription] = None) -> None:
        """
        Bind default flags to a model, then disable an SRDF's pairs.

        :param model: the :class:`~frame_kinematics.core.model.RobotModel`.
        :param srdf: an SRDF whose ``<disable_collisions>`` pairs are turned off (optional).
        :raises SRDFError: if the SRDF names a link the model does not have.
        """
        self.model = model
        self._parent = model.topology.parent
        self._pairs: Dict[Tuple[int, int], bool] = {}
        self._bodies: Dict[int, bool] = {}
        self.srdf_disabled: Tuple[Tuple[str, str, str], ...] = ()
        if srdf is not None:
            self._disable(srdf)

    def _disable(self, srdf: SemanticDescription) -> None:
        model = self.model
        chosen: List[Tuple[int, int, str]] = []
        seen = set()
        for pair in srdf.disabled_collisions:
            for link in (pair.link1, pair.link2):
                if not model.has_link(link):
                    raise SRDFError(f"unknown link '{link}'",
                                    f"disable_collisions '{pair.link1}' '{pair.link2}'")
            key = self._key(model.link_index(pair.link1), model.link_index(pair.link2))
            if key[0] != key[1] and key not in seen:
                seen.add(key)
                chosen.append(key + (pair.reason,))
        for i, j, _ in chosen:
            self._set_pair(i, j, False)
        names = model.link_names
        self.srdf_disabled = tuple((names[i], names[j], reason) for i, j, reason in chosen)

    # -- lookup -------------------------------------------------------------------------------
    def index(self, link: LinkKey) -> int:
        """
        Index of a link given by name or index.

        :param link: a link name or an index into the model's links.
        :return: the index.
        :raises UnknownFrameError: for an unknown name.
        :raises ConfigurationError: for an index out of range or another type.
        """
        if isinstance(link, str):
            return self.model.link_index(link)
        if not isinstance(link, (int, np.integer)) or isinstance(link, (bool, np.bool_)):
            raise ConfigurationError('a link is a name or an index, got '
                                     f'{type(link).__name__}')
        return check_count(link, 'link index', 0, len(self.model.links) - 1)

    @staticmethod
    def _key(i: int, j: int) -> Tuple[int, int]:
        return (i, j) if i <= j else (j, i)

    def is_adjacent(self, a: LinkKey, b: LinkKey) -> bool:
        """
        Whether two links are parent and child (joined by one joint).

        :param a: a link (name or index).
        :param b: another link.
        :return: the answer.
        """
        i, j = self._key(self.index(a), self.index(b))
        return i != j and self._parent[j] == i

    @staticmethod
    def _flag(flag) -> bool:
        if not isinstance(flag, (bool, np.bool_)):
            raise ConfigurationError(f'a collision flag is True or False, got '
                                     f'{type(flag).__name__}')
        return bool(flag)

    # -- rl::kin's flags ----------------------------------------------------------------------
    def set_colliding(self, a: LinkKey, b, flag=None) -> None:
        """
        Set a flag of one link (``flag`` in place of ``b``) or of a pair of links.

        With two arguments, whether link ``a`` is tested against the environment (rl::kin's
        ``setColliding(i, doesCollide)``); with three, whether links ``a`` and ``b`` are tested
        against each other, both ways (``setColliding(i, j, doCollide)``). Nothing changes when
        an argument is refused.

        :param a: a link (name or index).
        :param b: the flag, or the other link.
        :param flag: the flag, when ``b`` is a link.
        :raises UnknownFrameError: for an unknown link name.
        :raises ConfigurationError: for a bad index, a flag that is not a bool, or a link
            paired with itself.
        """
        if flag is None:
            i, value = self.index(a), self._flag(b)
            if value:
                self._bodies.pop(i, None)
            else:
                self._bodies[i] = False
            return
        i, j, value = self.index(a), self.index(b), self._flag(flag)
        if i == j:
            raise ConfigurationError('a link is not tested against itself: '
                                     f"'{self.model.links[i].name}'")
        self._set_pair(i, j, value)

    def _set_pair(self, i: int, j: int, value: bool) -> None:
        key = self._key(i, j)
        default = self._parent[key[1]] != key[0]
        if value == default:
            self._pairs.pop(key, None)
        else:
            self._pairs[key] = value

    def is_colliding(self, a: LinkKey) -> bool:
        """
        Whether a link is tested against the environment (rl::kin's ``isColliding(i)``).

        :param a: a link (name or index).
        :return: the flag.
        """
        return self._bodies.get(self.index(a), True)

    def are_colliding(self, a: LinkKey, b: LinkKey) -> bool:
        """
        Whether two links are tested against each other (rl::kin's ``areColliding(i, j)``).

        A link is never tested against itself.

        :param a: a link (name or index).
        :param b: another link.
        :return: the flag (the same both ways).
        """
        i, j = self._key(self.index(a), self.index(b))
        if i == j:
            return False
        return self._pairs.get((i, j), self._parent[j] != i)

    # -- export -------------------------------------------------------------------------------
    def index_pairs(self) -> np.ndarray:
        """
        Return the pairs a collision checker tests, as link indices.

        :return: a new ``(P, 2)`` int array, each row ``i < j``, rows in lexicographic order.
        """
        n = len(self.model.links)
        rows, cols = np.triu_indices(n, 1)
        keep = self._parent[cols] != rows
        for (i, j), value in self._pairs.items():
            keep[i * n - i * (i + 1) // 2 + j - i - 1] = value
        return np.stack([rows[keep], cols[keep]], axis=1).astype(np.int64)

    def pairs(self) -> Tuple[Tuple[str, str], ...]:
        """
        Return the pairs a collision checker tests, as link names.

        :return: ``(name_i, name_j)`` with ``i < j`` in the model's link order.
        """
        names = self.model.link_names
        return tuple((names[i], names[j]) for i, j in self.index_pairs().tolist())

    def colliding_links(self) -> Tuple[str, ...]:
        """
        Return the links tested against the environment.

        :return: their names, in the model's link order.
        """
        return tuple(link.name for link in self.model.links
                     if self._bodies.get(link.index, True))

    def pair_count(self) -> int:
        """
        Count the pairs tested against each other, without listing them.

        :return: the count.
        """
        n = len(self.model.links)
        count = n * (n - 1) // 2 - (n - 1)
        for value in self._pairs.values():
            count += 1 if value else -1
        return count

    def counts(self) -> Dict[str, int]:
        """
        How many pairs there are, are off by default, were disabled by an SRDF, are tested.

        :return: ``{'pairs', 'parent_child', 'srdf_disabled', 'srdf_only', 'tested'}``: every
            pair of links, the parent/child pairs (off by default), the distinct pairs an SRDF
            disabled (some may be parent/child too), those of them that are not parent/child
            (the pairs the SRDF adds to those off by default), the pairs tested against each
            other.
        """
        n = len(self.model.links)
        srdf_only = sum(not self.is_adjacent(a, b) for a, b, _ in self.srdf_disabled)
        return {'pairs': n * (n - 1) // 2, 'parent_child': max(n - 1, 0),
                'srdf_disabled': len(self.srdf_disabled), 'srdf_only': srdf_only,
                'tested': self.pair_count()}

    def copy(self) -> 'CollisionFlags':
        """
        Return independent flags with the same values.

        :return: the copy.
        """
        other = CollisionFlags(self.model)
        other._pairs = dict(self._pairs)
        other._bodies = dict(self._bodies)
        other.srdf_disabled = self.srdf_disabled
        return other

    def __repr__(self) -> str:
        return (f"CollisionFlags('{self.model.name}', {self.pair_count()} pairs tested, "
                f'{len(self.srdf_disabled)} disabled by an SRDF)')
