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
"""Where a Jacobian, twist or acceleration is expressed (Pinocchio's ``ReferenceFrame``)."""

import enum
from types import MappingProxyType
from typing import Union

from ..errors import ConfigurationError, quote


class ExpressedIn(enum.Enum):
    """
    Where a Jacobian, twist or acceleration is expressed (Pinocchio's meanings).

    * ``WORLD``: world axes, taken at the world origin (spatial twist).
    * ``LOCAL``: the link's (or point's) own axes, at the point.
    * ``LOCAL_WORLD_ALIGNED``: world axes, at the point.
    """

    WORLD = 'world'
    LOCAL = 'local'
    LOCAL_WORLD_ALIGNED = 'local_world_aligned'

    @classmethod
    def parse(cls, value: Union['ExpressedIn', str]) -> 'ExpressedIn':
        """
        Accept an :class:`ExpressedIn` or its name/value in any case.

        :param value: e.g. ``ExpressedIn.LOCAL`` or ``'local_world_aligned'``.
        :return: the enum member.
        :raises ConfigurationError: for an unknown name.
        """
        if isinstance(value, cls):
            return value
        member = _BY_NAME.get(value.strip().lower()) if isinstance(value, str) else None
        if member is None:
            names = ', '.join(m.value for m in cls)
            raise ConfigurationError(f"unknown 'expressed in' value {quote(value)} "
                                     f'(expected one of {names})')
        return member


#: Every member by its value and its lower-case name.
_BY_NAME = MappingProxyType({**{m.value: m for m in ExpressedIn},
                             **{m.name.lower(): m for m in ExpressedIn}})
