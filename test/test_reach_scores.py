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
"""Reach study scores against hand values and the core's one manipulability."""

import re

from conftest import bundled
from frame_kinematics.core import ConfigurationError, velocity
from frame_kinematics.core.reach import combined_score, DEFAULT_WEIGHTS, joint_limit_margin
from frame_kinematics.core.reach.scores import manipulability
import numpy as np
import pytest


def test_joint_limit_margin_by_hand():
    lower = np.array([-1.0, 0.0, -np.inf])
    upper = np.array([1.0, 4.0, np.inf])
    q = np.array([[0.0, 2.0, 50.0],    # both at mid range: 1
                  [0.5, 2.0, 0.0],     # 0.5 from a limit of a half range 1: 0.5
                  [0.0, 3.5, 0.0],     # 0.5 from a limit of a half range 2: 0.25
                  [1.0, 2.0, 0.0]])    # at a limit: 0
    assert np.allclose(joint_limit_margin(q, lower, upper), [1.0, 0.5, 0.25, 0.0])
    assert np.allclose(joint_limit_margin(q, np.full(3, -np.inf), np.full(3, np.inf)), 1.0)


def test_combined_score_by_hand():
    manip = np.array([0.2, 0.1, 0.0])
    margin = np.array([1.0, 0.5, 0.0])
    assert DEFAULT_WEIGHTS == (0.5, 0.5)
    assert np.allclose(combined_score(manip, margin), [1.0, 0.5, 0.0])
    assert np.allclose(combined_score(manip, margin, (3.0, 1.0)), [1.0, 0.5, 0.0])
    assert np.allclose(combined_score(manip, margin, (1.0, 0.0), reference=0.1), [1, 1, 0])
    assert np.allclose(combined_score(manip, margin, (0.0, 2.0)), margin)


@pytest.mark.parametrize('weights', [(0, 0), (-1, 2), (1, np.nan), (1, 2, 3)])
def test_bad_weights_are_refused(weights):
    with pytest.raises(ConfigurationError, match='weights'):
        combined_score(np.ones(2), np.ones(2), weights)


def test_manipulability_is_the_cores_definition():
    model = bundled('fk_arm', backend='numpy')
    joints = [j.name for j in model.joints if j.name.endswith('_joint') and
              j.type.value == 'revolute']
    q = np.random.default_rng(3).uniform(-1, 1, (5, model.nq))
    state = model.forward_kinematics(q)
    jac = state.jacobian('tool0')[..., [model.joint(name).idx_v for name in joints]]
    expected = velocity.manipulability(jac)
    assert np.allclose(manipulability(state, 'tool0', joints), expected)
    assert np.all(expected > 0)


@pytest.mark.parametrize('q, lower, upper, words', [
    ('abc', np.zeros(2), np.ones(2), 'q must be numbers'),
    (np.zeros((3, 2)), np.zeros(3), np.ones(3), 'q must have shape (B, 3), got (3, 2)'),
    (np.zeros(2), np.zeros(2), np.ones(2), 'q must have shape (B, 2), got (2,)'),
    (np.full((1, 2), np.nan), np.zeros(2), np.ones(2), 'q has NaN'),
    ({'a': 1}, np.zeros(2), np.ones(2), 'q must be real numbers'),
    (np.zeros((1, 2)), None, np.ones(2), 'lower must be real numbers'),
    (np.zeros((1, 2)), np.zeros(2), np.ones(3), 'got (2,) and (3,)'),
    (np.zeros((1, 2)), np.array([0, np.nan]), np.ones(2), 'without NaN'),
])
def test_joint_limit_margin_refuses_bad_inputs(q, lower, upper, words):
    with pytest.raises(ConfigurationError, match=re.escape(words)):
        joint_limit_margin(q, lower, upper)


@pytest.mark.parametrize('manip, margin, reference, words', [
    ('abc', np.ones(2), None, 'manip must be numbers'),
    (np.ones(2), None, None, 'margin must be real numbers'),
    (np.ones(2), np.ones(3), None, 'one shape, got (2,) and (3,)'),
    (np.array([1.0, np.nan]), np.ones(2), None, 'manip has NaN'),
    (np.ones(2), np.ones(2), 'big', "reference must be a number >= 0, got 'big'"),
    (np.ones(2), np.ones(2), -1.0, 'reference must be a number >= 0'),
])
def test_combined_score_refuses_bad_inputs(manip, margin, reference, words):
    with pytest.raises(ConfigurationError, match=re.escape(words)):
        combined_score(manip, margin, reference=reference)
