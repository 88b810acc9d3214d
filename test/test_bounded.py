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
"""Tests of frame_kinematics.core.bounded: BoundedCache keeps the most recently used values."""

from frame_kinematics.core.bounded import BoundedCache


def test_the_least_recently_used_value_is_dropped_first_and_none_is_not_kept():
    cache = BoundedCache(2)
    a, b, c = object(), object(), object()
    assert cache.get('a', lambda: a) is a
    assert cache.get('b', lambda: b) is b
    assert cache.get('a', lambda: None) is a  # found, not built again: now the most recent
    assert cache.get('c', lambda: c) is c
    assert len(cache) == 2
    assert cache.get('b', lambda: None) is None  # 'b' was dropped; a None built is not kept
    assert cache.get('a', lambda: None) is a and cache.get('c', lambda: None) is c
