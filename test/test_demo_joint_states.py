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
"""Tests of frame_kinematics.demo_joint_states: the demo joint-state sweep (its ROS-free math)."""

from conftest import all_joint_types_model, bundled
from frame_kinematics.bridge import Bridge, JointStateInput
from frame_kinematics.core import ConfigurationError
from frame_kinematics.demo_joint_states import (PERIOD_RANGE, RATE_RANGE, Sweep, timer_period,
                                                UNBOUNDED_AMPLITUDE)
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest


@settings(max_examples=50)
@given(st.floats(0.0, 1e4), st.sampled_from(['fk_arm', 'fk_quadruped']))
def test_sweep_stays_within_the_limits(t, robot):
    model = bundled(robot)
    sweep = Sweep(model, period=7.0)
    positions, velocities = sweep(t)
    lower = np.array([model.lower[model.joint(n).idx_q] for n in sweep.names])
    upper = np.array([model.upper[model.joint(n).idx_q] for n in sweep.names])
    assert np.all(positions > lower) and np.all(positions < upper)
    assert np.all(np.isfinite(velocities))


def test_sweep_names_every_one_dof_actuated_joint_but_no_mimic():
    model = bundled('fk_arm')
    sweep = Sweep(model)
    assert sweep.names == model.joint_names
    assert 'right_finger_joint' not in sweep.names


def test_sweep_velocity_is_the_derivative_and_joints_are_out_of_phase():
    sweep = Sweep(bundled('fk_arm'), period=4.0)
    t, dt = 1.3, 1e-6
    _, velocities = sweep(t)
    numeric = (sweep(t + dt)[0] - sweep(t - dt)[0]) / (2 * dt)
    np.testing.assert_allclose(velocities, numeric, rtol=1e-5, atol=1e-7)
    positions, _ = sweep(0.0)
    assert len(set(np.round(positions - sweep.center, 9))) > 1
    np.testing.assert_allclose(sweep(4.0)[0], sweep(0.0)[0], atol=1e-12)


def test_sweep_of_unbounded_joints_and_multi_dof_models():
    model = all_joint_types_model()
    sweep = Sweep(model)
    assert sweep.names == ('j_rev', 'j_pri', 'j_cont')
    assert sweep.amplitude[2] == UNBOUNDED_AMPLITUDE and sweep.center[2] == 0.0


@pytest.mark.parametrize('period', [0.0, -1.0, float('nan'), 'x', '10', True, None, 1e-300,
                                    1e300, [10.0]])
def test_sweep_refuses_a_period_that_is_not_seconds_by_name(period):
    with pytest.raises(ConfigurationError, match='^period must be a number of seconds from '
                                                 '0.001 to 1e[+]16, got '):
        Sweep(bundled('fk_arm'), period)


def test_sweep_takes_a_period_within_its_range():
    model = bundled('fk_arm')
    for period in (*PERIOD_RANGE, 3, np.float32(2.5)):
        positions, velocities = Sweep(model, period)(123.4)
        assert np.all(np.isfinite(positions)) and np.all(np.isfinite(velocities))


@pytest.mark.parametrize('rate, interval', [(30.0, 1 / 30), (RATE_RANGE[1], 1e-3), (2, 0.5),
                                            (RATE_RANGE[0], 1e9)])
def test_the_timer_ticks_once_per_rate(rate, interval):
    assert timer_period(rate) == pytest.approx(interval)


@pytest.mark.parametrize('rate', [0.0, -1.0, RATE_RANGE[1] * 2, float('inf'), '30', True, None,
                                  1e-300, 5e-324])
def test_a_rate_that_is_not_hz_is_refused_by_name(rate):
    # a timer counts its period in 64-bit nanoseconds: 1e-300 Hz would overflow it
    with pytest.raises(ConfigurationError, match='^rate must be a number of Hz from 1e-09 to '
                                                 '1000, got '):
        timer_period(rate)


def test_sweep_messages_are_accepted_by_the_bridge():
    model = bundled('fk_arm')
    sweep = Sweep(model)
    bridge = Bridge(model.urdf)
    positions, velocities = sweep(2.0)
    out = bridge.on_joint_state(JointStateInput(sweep.names, positions, velocities,
                                                1_000_000_000), 1_000_000_000)
    assert out.accepted and out.center_of_mass.velocity is not None
