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
:class:`BoundedCache`: the small thread-safe caches of derived objects (solvers, chains, plans).

What it keeps is built from immutable data and never changes once built, so two threads
that build the same entry at once may both build it: the first one stored is kept and
returned to both.
"""

from collections import OrderedDict
import threading
from typing import Callable, Hashable, Optional, TypeVar

Value = TypeVar('Value')


class BoundedCache:
    """At most ``size`` values by key, the least recently used dropped first; thread-safe."""

    def __init__(self, size: int) -> None:
        """
        Start empty.

        :param size: the most values kept (at least 1).
        """
        self._size = size
        self._values: 'OrderedDict[Hashable, object]' = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """Return the number of values kept."""
        return len(self._values)

    def get(self, key: Hashable, build: Callable[[], Optional[Value]]) -> Optional[Value]:
        """
        Return the value of ``key``, built by ``build()`` and kept when not there yet.

        :param key: the key.
        :param build: makes the value (outside the lock); a None it returns is not kept.
        :return: the value (or None).
        """
        with self._lock:
            found = self._values.get(key)
            if found is not None:
                self._values.move_to_end(key)
                return found
        built = build()
        if built is None:
            return None
        with self._lock:
            value = self._values.setdefault(key, built)
            while len(self._values) > self._size:
                self._values.popitem(last=False)
        return value
