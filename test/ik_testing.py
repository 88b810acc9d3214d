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
Helpers of the tests of :mod:`frame_kinematics.core.ik`: shared models, targets and checks.

The fixtures are made per test file, as ``ros_testing.loopback_fixture`` is: a file writes
``arm = arm_fixture()`` (no model is built at import, and no fixture name is shared between
test files that define their own).
"""

from typing import Callable

from conftest import bundled, random_configuration, real_robot_path
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import Robot
import numpy as np
import pytest

#: The position (m) and orientation (rad) tolerance the solutions are checked against.
TOL = 1e-5


def arm_fixture() -> Callable:
    """Make the module-scoped fixture ``arm`` (the bundled arm) of a test file."""
    @pytest.fixture(scope='module', name='arm')
    def arm():
        """Return the bundled arm, one model for the module's tests."""
        return bundled()

    return arm


def arm_joints_fixture() -> Callable:
    """Make the module-scoped fixture ``arm_joints`` (it needs ``arm``) of a test file."""
    @pytest.fixture(scope='module', name='arm_joints')
    def arm_joints(arm):
        """Return the bundled arm's six arm joints (its gripper's finger left out)."""
        return arm.joint_names[:6]

    return arm_joints


def iiwa_numpy_fixture() -> Callable:
    """Make the module-scoped fixture ``iiwa_numpy`` (the iiwa on the numpy backend)."""
    @pytest.fixture(scope='module', name='iiwa_numpy')
    def iiwa_numpy():
        return Robot.from_urdf_file(real_robot_path('iiwa'), backend='numpy')

    return iiwa_numpy


def reachable(model, tip, rng, count=None):
    """Return random configurations (one, or ``count``) and the poses of ``tip`` there."""
    q = random_configuration(model, rng, count)
    return q, model.forward_kinematics(q).transform(tip)


def within_limits(model, q):
    """Whether ``q`` is a valid configuration of ``model`` (to 1e-12)."""
    return bool(np.all(cfg.is_valid(model, q, tolerance=1e-12)))


def same_result(a, b):
    """Assert that two IK results are the same to the bit: configuration, outcome, errors."""
    assert np.array_equal(a.q, b.q)
    assert (a.success, a.reason, a.iterations, a.restarts, a.position_error,
            a.orientation_error) == (b.success, b.reason, b.iterations, b.restarts,
                                     b.position_error, b.orientation_error)
