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
"""Helpers shared by the tests of ``frame_kinematics.core.frames`` and ``.quantities``."""

from typing import Callable

from conftest import bundled, random_configuration
from frame_kinematics.core.frames import FrameTree
import numpy as np
import pytest


def tree_fixture() -> Callable:
    """Make the fixture ``tree`` (a frame tree of the bundled arm, one a test) of a test file."""
    @pytest.fixture(name='tree')
    def tree():
        """Return a frame tree of the bundled arm at a random configuration (seed 0)."""
        model = bundled('fk_arm')
        return FrameTree(model, random_configuration(model, np.random.default_rng(0)))

    return tree
