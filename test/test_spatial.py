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
"""Algebra axioms and round trips of the spatial module (hypothesis)."""

from frame_kinematics.core import spatial as sp
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays
import numpy as np
import pytest

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
vec3 = arrays(float, 3, elements=finite)
vec6 = arrays(float, 6, elements=finite)
angles = arrays(float, 3, elements=st.floats(-np.pi, np.pi))
quats = arrays(float, 4, elements=st.floats(-1, 1)).filter(lambda q: np.linalg.norm(q) > 0.1)


@st.composite
def transforms(draw):
    quat = draw(quats)
    return sp.transform_from_xyz_quaternion(draw(vec3), quat / np.linalg.norm(quat))


@settings(max_examples=200)
@given(transforms(), transforms(), transforms())
def test_composition_is_associative_and_inverse_works(a_T_b, b_T_c, c_T_d):
    np.testing.assert_allclose((a_T_b @ b_T_c) @ c_T_d, a_T_b @ (b_T_c @ c_T_d), atol=1e-12)
    np.testing.assert_allclose(sp.inverse(a_T_b) @ a_T_b, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(sp.inverse(a_T_b @ b_T_c), sp.inverse(b_T_c) @ sp.inverse(a_T_b),
                               atol=1e-12)


@settings(max_examples=200)
@given(quats)
def test_quaternion_matrix_round_trip(quat):
    quat = quat / np.linalg.norm(quat)
    rot = sp.rotation_from_quaternion(quat)
    np.testing.assert_allclose(rot.T @ rot, np.eye(3), atol=1e-12)
    assert np.linalg.det(rot) == pytest.approx(1.0)
    back = sp.quaternion_from_rotation(rot)
    assert back[3] >= 0
    sign = 1.0 if back @ quat >= 0 else -1.0
    np.testing.assert_allclose(back, sign * quat, atol=1e-12)


@settings(max_examples=200)
@given(quats, quats)
def test_the_quaternion_product_composes_rotations(q1, q2):
    q1, q2 = q1 / np.linalg.norm(q1), q2 / np.linalg.norm(q2)
    product = sp.quaternion_multiply(q1, q2)
    np.testing.assert_allclose(sp.rotation_from_quaternion(product),
                               sp.rotation_from_quaternion(q1) @ sp.rotation_from_quaternion(q2),
                               atol=1e-12)
    batch = sp.quaternion_multiply(np.stack([q1, q2]), np.stack([q2, q1]))
    np.testing.assert_allclose(batch[0], product, atol=0.0)
    np.testing.assert_allclose(sp.quaternion_multiply(q1, [0.0, 0.0, 0.0, 1.0]), q1, atol=0.0)


@settings(max_examples=200)
@given(arrays(float, 3, elements=st.floats(-3.1, 3.1)), st.floats(-1.5, 1.5))
def test_rpy_round_trip(rpy, pitch):
    rpy = np.array([rpy[0], pitch, rpy[2]])
    rot = sp.rotation_from_rpy(rpy)
    np.testing.assert_allclose(sp.rotation_from_rpy(sp.rpy_from_rotation(rot)), rot, atol=1e-11)
    np.testing.assert_allclose(sp.rpy_from_rotation(rot), rpy, atol=1e-9)


def test_rpy_matches_urdf_fixed_axis_convention():
    roll, pitch, yaw = 0.3, -0.2, 1.1
    rx = sp.rotation_from_axis_angle([1, 0, 0], roll)
    ry = sp.rotation_from_axis_angle([0, 1, 0], pitch)
    rz = sp.rotation_from_axis_angle([0, 0, 1], yaw)
    np.testing.assert_allclose(sp.rotation_from_rpy([roll, pitch, yaw]), rz @ ry @ rx,
                               atol=1e-15)
    gimbal = sp.rpy_from_rotation(sp.rotation_from_rpy([0.0, np.pi / 2, 0.4]))
    np.testing.assert_allclose(sp.rotation_from_rpy(gimbal),
                               sp.rotation_from_rpy([0.0, np.pi / 2, 0.4]), atol=1e-12)


@settings(max_examples=200)
@given(arrays(float, 3, elements=st.floats(-3.0, 3.0)))
def test_so3_exp_log_round_trip(omega):
    rot = sp.exp_so3(omega)
    np.testing.assert_allclose(sp.exp_so3(sp.log_so3(rot)), rot, atol=1e-12)
    if np.linalg.norm(omega) < 3.0:
        np.testing.assert_allclose(sp.log_so3(rot), omega, atol=1e-9)


def test_so3_log_near_pi_and_zero():
    for angle in (np.pi - 1e-9, np.pi, 1e-12, 0.0):
        axis = np.array([0.6, 0.0, 0.8])
        rot = sp.rotation_from_axis_angle(axis, angle)
        np.testing.assert_allclose(sp.exp_so3(sp.log_so3(rot)), rot, atol=1e-12)
        assert np.linalg.norm(sp.log_so3(rot)) == pytest.approx(angle, abs=1e-9)


def test_so3_log_is_continuous_where_it_takes_the_axis_from_the_quaternion():
    axis = np.random.default_rng(5).normal(size=3)
    axis /= np.linalg.norm(axis)
    for below_pi in (1e-3, 2e-4, 1.0001e-4, 1e-4, 0.9999e-4, 5e-5, 1e-7):
        angle = np.pi - below_pi
        rot = sp.rotation_from_axis_angle(axis, angle)
        np.testing.assert_allclose(sp.log_so3(rot), axis * angle, rtol=0, atol=1e-11)
        np.testing.assert_allclose(sp.log_so3(rot[None, None])[0, 0], sp.log_so3(rot), rtol=0,
                                   atol=0)


@settings(max_examples=200)
@given(vec6)
def test_se3_exp_log_round_trip(twist):
    twist = twist * np.array([1, 1, 1, 0.15, 0.15, 0.15])
    pose = sp.exp_se3(twist)
    np.testing.assert_allclose(sp.exp_se3(sp.log_se3(pose)), pose, atol=1e-10)
    np.testing.assert_allclose(sp.log_se3(pose), twist, atol=1e-8)


@settings(max_examples=100)
@given(transforms(), transforms(), vec6, vec6)
def test_adjoints_are_homomorphisms_and_dual(a_T_b, b_T_c, twist, wrench):
    np.testing.assert_allclose(sp.motion_transform(a_T_b @ b_T_c),
                               sp.motion_transform(a_T_b) @ sp.motion_transform(b_T_c),
                               atol=1e-10)
    np.testing.assert_allclose(sp.motion_transform(sp.inverse(a_T_b)),
                               np.linalg.inv(sp.motion_transform(a_T_b)), atol=1e-9)
    # Power is frame independent: (X* f) . (X v) = f . v
    np.testing.assert_allclose(
        (sp.force_transform(a_T_b) @ wrench) @ (sp.motion_transform(a_T_b) @ twist),
        wrench @ twist, atol=1e-8)


@settings(max_examples=100)
@given(transforms(), vec6)
def test_exp_of_conjugated_twist(a_T_b, twist):
    twist = twist * 0.2
    np.testing.assert_allclose(a_T_b @ sp.exp_se3(twist) @ sp.inverse(a_T_b),
                               sp.exp_se3(sp.motion_transform(a_T_b) @ twist), atol=1e-10)


def test_motion_cross_and_force_cross():
    rng = np.random.default_rng(0)
    v1, v2, f = rng.normal(size=6), rng.normal(size=6), rng.normal(size=6)
    np.testing.assert_allclose(sp.motion_cross(v1) @ v2, -sp.motion_cross(v2) @ v1, atol=1e-14)
    np.testing.assert_allclose(f @ (sp.motion_cross(v1) @ v2), -(sp.force_cross(v1) @ f) @ v2,
                               atol=1e-12)
    np.testing.assert_allclose(sp.skew(v1[:3]) @ v2[:3], np.cross(v1[:3], v2[:3]))


def test_spatial_inertia_gives_kinetic_energy():
    rng = np.random.default_rng(1)
    mass, c = 2.5, rng.normal(size=3)
    inertia_c = np.diag([0.2, 0.3, 0.4])
    inertia = sp.spatial_inertia(mass, c, inertia_c)
    twist = rng.normal(size=6)
    v_com = twist[:3] + np.cross(twist[3:], c)
    energy = 0.5 * mass * v_com @ v_com + 0.5 * twist[3:] @ inertia_c @ twist[3:]
    assert 0.5 * twist @ inertia @ twist == pytest.approx(energy)


def test_batched_calls_match_single_calls():
    rng = np.random.default_rng(2)
    rpy = rng.uniform(-1, 1, size=(5, 3))
    batch = sp.rotation_from_rpy(rpy)
    for i in range(5):
        np.testing.assert_allclose(batch[i], sp.rotation_from_rpy(rpy[i]))
    np.testing.assert_allclose(sp.rotation_from_quaternion(sp.quaternion_from_rotation(batch)),
                               batch, atol=1e-12)
