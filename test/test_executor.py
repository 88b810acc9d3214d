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
"""Tests of frame_kinematics.core.executor: which models an executor serves (no numba needed)."""

from conftest import bundled
from frame_kinematics.core import Robot
from frame_kinematics.core.executor import Executor


def test_an_executor_serves_its_model_and_the_robots_sharing_its_tables():
    model = bundled('fk_arm', backend='numpy')
    executor = Executor(model)
    assert executor.serves(model)
    assert executor.serves(Robot(model, 'numpy'))  # a Robot wrapping it shares its tables
    assert Executor(Robot(model, 'numpy')).serves(model)
    assert not executor.serves(bundled('fk_arm', backend='numpy'))  # equal, but other tables
    assert not executor.serves(bundled('fk_quadruped', backend='numpy'))
    assert not executor.serves(None) and not executor.serves('fk_arm')
