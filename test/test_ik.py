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
"""Tests of frame_kinematics.core.ik (the package): no module of it keeps state."""

import gc
import weakref

from conftest import bundled, random_configuration
from frame_kinematics.core import ik
import numpy as np


def test_solving_leaves_no_state_behind():
    model = bundled()
    seed = random_configuration(model, np.random.default_rng(16))
    result = ik.solve(model, 'tool0', model.forward_kinematics(seed).transform('tool0'),
                      time_budget=0.5)
    assert result.success
    assert not hasattr(ik, '_EVALUATORS') and not hasattr(ik, '_PROBLEMS')
    alive = weakref.ref(model)
    del model
    gc.collect()
    assert alive() is None
