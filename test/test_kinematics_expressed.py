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
"""Tests of frame_kinematics.core.kinematics.expressed: ExpressedIn."""

from conftest import bundled
from frame_kinematics.core import ConfigurationError
import numpy as np
import pytest


class _Unprintable:

    def __repr__(self):
        raise RuntimeError('no repr')


@pytest.mark.parametrize('expressed_in', [_Unprintable(), [[[[[[[[[[[0]]]]]]]]]]] * 1000])
def test_an_expressed_in_of_any_kind_is_refused_with_a_short_quote(expressed_in):
    state = bundled().forward_kinematics(np.zeros(7))
    with pytest.raises(ConfigurationError, match='expressed in') as info:
        state.jacobian('tool0', expressed_in=expressed_in)
    assert len(str(info.value)) < 200
