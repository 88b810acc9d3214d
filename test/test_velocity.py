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
"""The rl::kin-style toolbox: velocities, forces, Jacobian inverses, singularities."""

from conftest import bundled, joint_xml, link_xml, random_configuration, urdf
from frame_kinematics.core import ConfigurationError, ExpressedIn, Robot, \
    UnknownFrameError
from frame_kinematics.core import velocity as vel
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

VARIANTS = list(ExpressedIn)
L1, L2 = 0.7, 0.4


@pytest.fixture(scope='module')
def arm():
    """Return the bundled arm, one model for the module's tests."""
    return bundled()


def _planar_2r():
    body = '\n'.join([link_xml('base'), link_xml('upper'), link_xml('fore'), link_xml('hand'),
                      joint_xml('shoulder', 'revolute', 'base', 'upper'),
                      joint_xml('elbow', 'revolute', 'upper', 'fore', xyz=f'{L1} 0 0'),
                      joint_xml('wrist', 'fixed', 'fore', 'hand', xyz=f'{L2} 0 0')])
    return Robot.from_urdf_string(urdf(body, 'planar_2r'))


def _arm_state(arm, seed, batch=None):
    q = random_configuration(arm, np.random.default_rng(seed), batch)
    return arm.forward_kinematics(q)


def _arm_jacobian(state, expressed_in=ExpressedIn.LOCAL_WORLD_ALIGNED):
    """Tool Jacobian over the six arm joints (square)."""
    return state.jacobian('tool0', expressed_in=expressed_in)[..., :6]


def test_forward_positions_and_stacked_jacobian(arm):
    state = _arm_state(arm, 0)
    tips = ['tool0', 'left_finger_link', 'wrist_2_link']
    poses = vel.forward_positions(state, tips)
    assert poses.shape == (3, 4, 4)
    for pose, tip in zip(poses, tips):
        assert np.array_equal(pose, state.transform(tip))
    for variant in VARIANTS:
        stacked = vel.stacked_jacobian(state, tips, variant)
        assert stacked.shape == (18, arm.nv)
        for i, tip in enumerate(tips):
            assert np.array_equal(stacked[6 * i:6 * i + 6], state.jacobian(tip, None, variant))
    batch = _arm_state(arm, 1, batch=5)
    assert vel.stacked_jacobian(batch, tips).shape == (5, 18, arm.nv)
    assert vel.forward_positions(batch, 'tool0').shape == (1, 5, 4, 4)
    with pytest.raises(UnknownFrameError):
        vel.stacked_jacobian(state, ['tool0', 'nope'])


@settings(max_examples=25)
@given(st.integers(0, 2 ** 31 - 1), st.sampled_from(VARIANTS))
def test_pseudo_inverse_identities_off_singularities(arm, seed, variant):
    jac = _arm_jacobian(_arm_state(arm, seed), variant)
    inverse = vel.jacobian_inverse(jac)
    if inverse.singular_values[-1] < 1e-3:
        return
    assert np.allclose(jac @ inverse.matrix, np.eye(6), atol=1e-8)
    assert np.allclose(inverse.matrix, np.linalg.inv(jac), atol=1e-6)
    # Rectangular (6 x 7 with the finger): J J+ = I still holds, J+ J is a projector.
    full = _arm_state(arm, seed).jacobian('tool0', expressed_in=variant)
    pinv = vel.jacobian_inverse(full).matrix
    assert np.allclose(full @ pinv, np.eye(6), atol=1e-8)
    projector = pinv @ full
    assert np.allclose(projector @ projector, projector, atol=1e-8)


def test_singular_values_are_exposed_and_sorted(arm):
    jac = _arm_jacobian(_arm_state(arm, 3))
    inverse = vel.jacobian_inverse(jac)
    assert np.allclose(inverse.singular_values, np.linalg.svd(jac, compute_uv=False))
    assert np.all(np.diff(inverse.singular_values) <= 0)
    assert inverse.rank == 6 and inverse.method == 'svd' and inverse.damping == 0.0


def test_damped_least_squares_by_svd_and_by_solve_agree(arm):
    jac = _arm_jacobian(_arm_state(arm, 4))
    for damping in (1e-3, 0.1, 1.0):
        svd = vel.jacobian_inverse(jac, damping, 'svd').matrix
        dls = vel.jacobian_inverse(jac, damping, 'dls').matrix
        expected = jac.T @ np.linalg.inv(jac @ jac.T + damping ** 2 * np.eye(6))
        assert np.allclose(svd, expected, atol=1e-10)
        assert np.allclose(dls, expected, atol=1e-10)
    # The damping shrinks the inverse: the joint speed of a DLS solution is smaller.
    xdot = np.ones(6)
    fast = np.linalg.norm(vel.jacobian_inverse(jac).matrix @ xdot)
    slow = np.linalg.norm(vel.jacobian_inverse(jac, 0.5).matrix @ xdot)
    assert slow < fast


def test_manipulability_of_the_planar_arm_and_its_singularity():
    planar = _planar_2r()
    for elbow in (0.3, 1.0, -2.0):
        state = planar.forward_kinematics([0.4, elbow])
        jac = state.jacobian('hand')[:2]
        assert vel.manipulability(jac) == pytest.approx(abs(L1 * L2 * np.sin(elbow)))
        assert not vel.is_singular(jac)
    stretched = planar.forward_kinematics([0.4, 0.0]).jacobian('hand')[:2]
    assert vel.manipulability(stretched) == pytest.approx(0.0, abs=1e-15)
    assert vel.is_singular(stretched)
    # The damped inverse stays bounded at the singularity.
    inverse = vel.jacobian_inverse(stretched, damping=0.01)
    assert np.all(np.isfinite(inverse.matrix)) and inverse.rank == 1


def test_manipulability_is_sqrt_det_and_singular_arm_poses(arm):
    jac = _arm_jacobian(_arm_state(arm, 5))
    assert vel.manipulability(jac) == pytest.approx(np.sqrt(np.linalg.det(jac @ jac.T)))
    # Wrist singularity: wrist_2 at 0 aligns the axes of wrist_1 and wrist_3.
    q = arm.configuration_from_dict({'shoulder_lift_joint': -1.0, 'elbow_joint': 1.2,
                                     'wrist_2_joint': 0.0})
    state = arm.forward_kinematics(q)
    singular = _arm_jacobian(state)
    assert vel.manipulability(singular) < 1e-12
    assert vel.is_singular(singular)
    assert vel.tip_manipulability(state, 'tool0', joints=arm.joint_names[:6]) < 1e-12
    batch = _arm_jacobian(_arm_state(arm, 6, batch=4))
    assert vel.manipulability(batch).shape == (4,)
    assert vel.is_singular(batch).shape == (4,)
    # More task rows than joints: never full rank.
    assert vel.manipulability(np.ones((3, 2))) == 0.0 and vel.is_singular(np.eye(3)[:, :2])


@settings(max_examples=25)
@given(st.integers(0, 2 ** 31 - 1), st.sampled_from(VARIANTS))
def test_velocity_and_force_duality(arm, seed, variant):
    rng = np.random.default_rng(seed)
    state = _arm_state(arm, seed)
    qdot = rng.normal(size=arm.nv)
    wrench = rng.normal(size=6)
    xdot = vel.forward_velocity(state, 'tool0', qdot, variant)
    assert np.allclose(xdot, state.jacobian('tool0', None, variant) @ qdot)
    tau = vel.inverse_force(state, 'tool0', wrench, variant)
    # Power is the same in joint space and in task space.
    assert float(wrench @ xdot) == pytest.approx(float(tau @ qdot), rel=1e-9, abs=1e-9)
    # Off singularities the forward force inverts the inverse force, the inverse velocity
    # the forward velocity.
    if vel.jacobian_inverse(_arm_jacobian(state, variant)).singular_values[-1] > 1e-3:
        assert np.allclose(vel.forward_force(state, 'tool0', tau, variant), wrench, atol=1e-7)
        back = vel.inverse_velocity(state, 'tool0', xdot, variant)
        assert np.allclose(vel.forward_velocity(state, 'tool0', back, variant), xdot,
                           atol=1e-8)


def test_inverse_velocity_is_minimum_norm_and_batched(arm):
    state = _arm_state(arm, 8)
    xdot = np.array([0.1, -0.2, 0.05, 0.0, 0.3, -0.1])
    qdot = vel.inverse_velocity(state, 'tool0', xdot)
    # Minimum norm: the finger does not move tool0, so it gets no velocity.
    assert np.allclose(qdot[6:], 0.0)
    dls = vel.inverse_velocity(state, 'tool0', xdot, damping=0.05, method='dls')
    assert np.linalg.norm(dls) < np.linalg.norm(qdot)
    batch = _arm_state(arm, 9, batch=3)
    out = vel.inverse_velocity(batch, 'tool0', np.tile(xdot, (3, 1)))
    assert out.shape == (3, arm.nv)
    two = vel.forward_velocity(batch, ['tool0', 'wrist_3_link'], np.ones((3, arm.nv)))
    assert two.shape == (3, 12)


def test_invalid_inputs_raise(arm):
    state = _arm_state(arm, 10)
    with pytest.raises(ConfigurationError):
        vel.forward_velocity(state, 'tool0', np.ones(3))
    with pytest.raises(ConfigurationError):
        vel.inverse_force(state, 'tool0', [np.nan] * 6)
    with pytest.raises(ConfigurationError):
        vel.jacobian_inverse(np.eye(3), damping=-1.0)
    with pytest.raises(ConfigurationError):
        vel.jacobian_inverse(np.eye(3), method='qr')
    with pytest.raises(ConfigurationError):
        vel.manipulability(np.ones(3))
    with pytest.raises(ConfigurationError):
        vel.stacked_jacobian(state, [])
