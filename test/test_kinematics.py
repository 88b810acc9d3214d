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
Forward kinematics, velocities, accelerations, Jacobians and CoM.

Cross-checked against Pinocchio on real robots (6-DOF UR5, 7-DOF Panda and KUKA iiwa, the
Talos humanoid and Solo12 with a floating base) to 1e-10, and against finite differences on
inline URDFs with every joint type.
"""

import logging

from conftest import (all_joint_types_model, bundled, random_configuration, real_robot_path,
                      REAL_ROBOTS)
from frame_kinematics.core import ConfigurationError, ExpressedIn, Robot, UnknownFrameError
from frame_kinematics.core.joints import JointType
from frame_kinematics.core.kinematics import BATCH_THRESHOLD
from frame_kinematics.core.spatial import exp_se3, log_so3, quaternion_from_rotation, \
    rotation_from_quaternion
import numpy as np
import pytest

TOL = 1e-10
PIN_REFS = ('WORLD', 'LOCAL', 'LOCAL_WORLD_ALIGNED')


def _integrate(model, q, v, dt):
    """Integrate q (+) v dt with the exponential map for floating and planar joints."""
    q = q.copy()
    for joint in model.actuated_joints:
        iq, iv = joint.idx_q, joint.idx_v
        if joint.type is JointType.FLOATING:
            pose = np.eye(4)
            pose[:3, :3] = rotation_from_quaternion(q[iq + 3:iq + 7])
            pose[:3, 3] = q[iq:iq + 3]
            pose = pose @ exp_se3(v[iv:iv + 6] * dt)
            q[iq:iq + 3] = pose[:3, 3]
            q[iq + 3:iq + 7] = quaternion_from_rotation(pose[:3, :3])
        elif joint.type is JointType.PLANAR:
            x, y, theta = q[iq:iq + 3]
            pose = np.eye(4)
            pose[:2, :2] = [[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]]
            pose[:2, 3] = [x, y]
            vx, vy, wz = v[iv:iv + 3]
            pose = pose @ exp_se3(np.array([vx, vy, 0, 0, 0, wz]) * dt)
            q[iq:iq + 3] = [pose[0, 3], pose[1, 3], np.arctan2(pose[1, 0], pose[0, 0])]
        else:
            q[iq] += v[iv] * dt
    return q


def _pinocchio_setup(name):
    pin = pytest.importorskip('pinocchio')
    path = real_robot_path(name)
    floating = REAL_ROBOTS.get(name, ('', False))[1]
    logging.disable(logging.WARNING)
    try:
        model = Robot.from_urdf_file(path, floating_base=floating)
    finally:
        logging.disable(logging.NOTSET)
    pmodel = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if floating \
        else pin.buildModelFromUrdf(path)
    return pin, model, pmodel


def _to_pinocchio(model, pmodel, q, v, a):
    """Map our (q, v, a) to Pinocchio's, and the v-expansion matrix for mimic joints."""
    qp, vp, ap = np.zeros(pmodel.nq), np.zeros(pmodel.nv), np.zeros(pmodel.nv)
    expand = np.zeros((pmodel.nv, model.nv))
    for joint in model.joints:
        if joint.type is JointType.FIXED:
            continue
        pj = pmodel.joints[pmodel.getJointId(joint.name)]
        if joint.mimic is not None:
            master, mult, off = joint.mimic
            mj = model.joint(master)
            qp[pj.idx_q] = q[mj.idx_q] * mult + off
            vp[pj.idx_v] = v[mj.idx_v] * mult
            ap[pj.idx_v] = a[mj.idx_v] * mult
            expand[pj.idx_v, mj.idx_v] = mult
        else:
            qp[pj.idx_q:pj.idx_q + pj.nq] = q[joint.idx_q:joint.idx_q + joint.nq]
            vp[pj.idx_v:pj.idx_v + pj.nv] = v[joint.idx_v:joint.idx_v + joint.nv]
            ap[pj.idx_v:pj.idx_v + pj.nv] = a[joint.idx_v:joint.idx_v + joint.nv]
            expand[pj.idx_v:pj.idx_v + pj.nv, joint.idx_v:joint.idx_v + joint.nv] = \
                np.eye(joint.nv)
    return qp, vp, ap, expand


@pytest.mark.parametrize('name', ['ur5', 'panda', 'iiwa', 'talos', 'solo12'])
def test_matches_pinocchio_on_real_robots(name):
    pin, model, pmodel = _pinocchio_setup(name)
    pdata = pmodel.createData()
    rng = np.random.default_rng(7)
    skip_root = model.joints[0].type is JointType.FLOATING
    for _ in range(3):
        q = random_configuration(model, rng)
        v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
        qp, vp, ap, expand = _to_pinocchio(model, pmodel, q, v, a)
        pin.forwardKinematics(pmodel, pdata, qp, vp, ap)
        pin.updateFramePlacements(pmodel, pdata)
        pin.computeJointJacobians(pmodel, pdata, qp)
        state = model.forward_kinematics(q, v, a)
        point = rng.normal(size=3) * 0.1
        for link in model.links[1:] if skip_root else model.links:
            fid = pmodel.getFrameId(link.name, pin.BODY)
            np.testing.assert_allclose(state.transform(link.name),
                                       pdata.oMf[fid].homogeneous, atol=TOL)
            for ref in PIN_REFS:
                pref = getattr(pin, ref)
                ours = ExpressedIn[ref]
                np.testing.assert_allclose(state.jacobian(link.name, expressed_in=ours),
                                           pin.getFrameJacobian(pmodel, pdata, fid, pref)
                                           @ expand, atol=TOL)
                np.testing.assert_allclose(state.velocity(link.name, expressed_in=ours),
                                           pin.getFrameVelocity(pmodel, pdata, fid,
                                                                pref).vector, atol=TOL)
                np.testing.assert_allclose(state.acceleration(link.name, expressed_in=ours),
                                           pin.getFrameAcceleration(pmodel, pdata, fid,
                                                                    pref).vector, atol=1e-9)
                if ref != 'WORLD':
                    np.testing.assert_allclose(
                        state.acceleration(link.name, expressed_in=ours, classical=True),
                        pin.getFrameClassicalAcceleration(pmodel, pdata, fid, pref).vector,
                        atol=1e-9)
        # A point fixed in a link: Pinocchio frame with that placement.
        link = model.links[-1].name
        parent = pmodel.frames[pmodel.getFrameId(link, pin.BODY)]
        fid = pmodel.addFrame(pin.Frame(f'probe{_}', parent.parentJoint, parent.parentFrame,
                                        parent.placement * pin.SE3(np.eye(3), point),
                                        pin.OP_FRAME))
        pdata = pmodel.createData()
        pin.computeJointJacobians(pmodel, pdata, qp)
        pin.updateFramePlacements(pmodel, pdata)
        for ref in PIN_REFS:
            np.testing.assert_allclose(
                state.jacobian(link, point, ExpressedIn[ref]),
                pin.getFrameJacobian(pmodel, pdata, fid, getattr(pin, ref)) @ expand, atol=TOL)


@pytest.mark.parametrize('name', ['ur5', 'panda', 'talos'])
def test_center_of_mass_matches_pinocchio(name):
    """Pinocchio leaves out bodies welded to its universe: compare with a floating base."""
    pin = pytest.importorskip('pinocchio')
    path = real_robot_path(name)
    logging.disable(logging.WARNING)
    try:
        model = Robot.from_urdf_file(path, floating_base=True, world_frame='universe')
    finally:
        logging.disable(logging.NOTSET)
    pmodel = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer())
    pdata = pmodel.createData()
    rng = np.random.default_rng(3)
    for _ in range(3):
        q = random_configuration(model, rng)
        v = rng.normal(size=model.nv)
        qp, vp, _a, expand = _to_pinocchio(model, pmodel, q, v, v)
        state = model.forward_kinematics(q, v)
        com = pin.centerOfMass(pmodel, pdata, qp, vp)
        np.testing.assert_allclose(state.center_of_mass(), com, atol=TOL)
        np.testing.assert_allclose(state.center_of_mass_velocity(), pdata.vcom[0], atol=TOL)
        np.testing.assert_allclose(state.center_of_mass_jacobian(),
                                   pin.jacobianCenterOfMass(pmodel, pdata, qp) @ expand,
                                   atol=TOL)
        pin.computeCentroidalMomentum(pmodel, pdata, qp, vp)
        np.testing.assert_allclose(state.centroidal_momentum(), pdata.hg.vector, atol=TOL)
        assert model.total_mass == pytest.approx(pdata.mass[0], abs=1e-12)


#: The models of the finite-difference checks, by name (their test ids); fk_quadruped is
#: on a floating base.
MODEL_NAMES = ('all_types', 'fk_arm', 'fk_quadruped')


@pytest.fixture(scope='module')
def model(request):
    """Build the model named by the test's parameter, once for the module."""
    if request.param == 'all_types':
        return all_joint_types_model()
    if request.param == 'fk_quadruped':
        return bundled('fk_quadruped', floating_base=True)
    return bundled(request.param)


@pytest.mark.parametrize('model', MODEL_NAMES, indirect=True)
def test_jacobians_match_finite_differences(model):
    rng = np.random.default_rng(11)
    dt = 1e-6
    for _ in range(3):
        q = random_configuration(model, rng)
        state = model.forward_kinematics(q)
        for link in model.links:
            point = rng.normal(size=3) * 0.2
            jac = {ref: state.jacobian(link.name, point, ref) for ref in ExpressedIn}
            for k in range(model.nv):
                dv = np.zeros(model.nv)
                dv[k] = 1.0
                plus = model.forward_kinematics(_integrate(model, q, dv, dt))
                minus = model.forward_kinematics(_integrate(model, q, dv, -dt))
                p_dot = (plus.position(link.name, point) - minus.position(link.name, point)) \
                    / (2 * dt)
                r_plus = plus.transform(link.name)[:3, :3]
                r_minus = minus.transform(link.name)[:3, :3]
                w = log_so3(r_plus @ r_minus.T) / (2 * dt)
                lwa = jac[ExpressedIn.LOCAL_WORLD_ALIGNED][:, k]
                np.testing.assert_allclose(lwa, np.concatenate([p_dot, w]), atol=1e-7)
                rot = state.transform(link.name)[:3, :3]
                np.testing.assert_allclose(jac[ExpressedIn.LOCAL][:, k],
                                           np.concatenate([rot.T @ p_dot, rot.T @ w]),
                                           atol=1e-7)
                p_world = state.position(link.name, point)
                np.testing.assert_allclose(jac[ExpressedIn.WORLD][:, k],
                                           np.concatenate([p_dot - np.cross(w, p_world), w]),
                                           atol=1e-7)


@pytest.mark.parametrize('model', MODEL_NAMES, indirect=True)
def test_velocity_acceleration_and_com_match_finite_differences(model):
    rng = np.random.default_rng(5)
    dt = 1e-6
    q = random_configuration(model, rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    state = model.forward_kinematics(q, v, a)
    plus = model.forward_kinematics(_integrate(model, q, v, dt), v + a * dt)
    minus = model.forward_kinematics(_integrate(model, q, v, -dt), v - a * dt)
    np.testing.assert_allclose(state.center_of_mass_velocity(),
                               (plus.center_of_mass() - minus.center_of_mass()) / (2 * dt),
                               atol=1e-7)
    np.testing.assert_allclose(state.center_of_mass_jacobian() @ v,
                               state.center_of_mass_velocity(), atol=1e-12)
    for link in model.links:
        np.testing.assert_allclose(
            state.acceleration(link.name, expressed_in=ExpressedIn.WORLD),
            (plus.velocity(link.name, expressed_in=ExpressedIn.WORLD)
             - minus.velocity(link.name, expressed_in=ExpressedIn.WORLD)) / (2 * dt),
            atol=1e-6)
        classical = state.acceleration(link.name, classical=True)
        np.testing.assert_allclose(classical[:3], (plus.velocity(link.name)[:3]
                                                   - minus.velocity(link.name)[:3]) / (2 * dt),
                                   atol=1e-6)
    momentum = state.centroidal_momentum()
    np.testing.assert_allclose(momentum[:3], model.total_mass * state.center_of_mass_velocity(),
                               atol=1e-12)


def test_angular_momentum_of_a_spinning_body():
    """One body spinning about its own CoM axis: h = I w; CoM frame at the CoM."""
    from conftest import urdf
    text = urdf('<link name="base"/><link name="wheel"><inertial><origin xyz="0 0 0"/>'
                '<mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" '
                'izz="0.5"/></inertial></link><joint name="spin" type="continuous">'
                '<parent link="base"/><child link="wheel"/><origin xyz="1 2 3"/>'
                '<axis xyz="0 0 1"/></joint>')
    model = Robot.from_urdf_string(text)
    state = model.forward_kinematics([0.7], [3.0])
    np.testing.assert_allclose(state.center_of_mass(), [1, 2, 3])
    np.testing.assert_allclose(state.angular_momentum(), [0, 0, 1.5], atol=1e-15)
    np.testing.assert_allclose(state.center_of_mass_velocity(), 0, atol=1e-15)
    assert model.center_of_mass([0.0])[0] == 2.0


def test_mimic_joint_follows_master():
    model = all_joint_types_model()
    q = random_configuration(model, np.random.default_rng(2))
    state = model.forward_kinematics(q)
    mimic = model.joint('j_mimic')
    angle = -1.5 * q[model.joint('j_rev').idx_q] + 0.2
    from frame_kinematics.core.spatial import rotation_from_axis_angle
    expected = mimic.parent_T_joint[:3, :3] @ rotation_from_axis_angle(mimic.axis, angle)
    np.testing.assert_allclose(state.relative_transform('c', 'd')[:3, :3], expected,
                               atol=1e-14)
    assert 'j_mimic' not in model.joint_names


@pytest.mark.parametrize('size', [6, BATCH_THRESHOLD + 3])
@pytest.mark.parametrize('model', MODEL_NAMES, indirect=True)
def test_batched_results_equal_single_results(model, size):
    """Small batches are vectorised over links, large ones link by link: both agree."""
    rng = np.random.default_rng(9)
    q = random_configuration(model, rng, batch=size)
    v, a = rng.normal(size=(size, model.nv)), rng.normal(size=(size, model.nv))
    batch = model.forward_kinematics(q, v, a)
    assert batch.transform(model.links[-1].name).shape == (size, 4, 4)
    for b in range(0, size, 5):
        np.testing.assert_allclose(batch.local_poses[:, b],
                                   model.forward_kinematics(q[b]).local_poses, atol=1e-13)
        single = model.forward_kinematics(q[b], v[b], a[b])
        np.testing.assert_allclose(batch.poses[:, b], single.poses, atol=1e-14)
        for ref in ExpressedIn:
            link = model.links[-1].name
            np.testing.assert_allclose(batch.jacobian(link, [0.1, 0, 0], ref)[b],
                                       single.jacobian(link, [0.1, 0, 0], ref), atol=1e-14)
            np.testing.assert_allclose(batch.acceleration(link, expressed_in=ref)[b],
                                       single.acceleration(link, expressed_in=ref), atol=1e-13)
        np.testing.assert_allclose(batch.center_of_mass()[b], single.center_of_mass(),
                                   atol=1e-14)
        np.testing.assert_allclose(batch.centroidal_momentum()[b],
                                   single.centroidal_momentum(), atol=1e-13)
        np.testing.assert_allclose(batch.center_of_mass_jacobian()[b],
                                   single.center_of_mass_jacobian(), atol=1e-14)
    assert model.jacobian(q, model.links[-1].name).shape == (size, 6, model.nv)


def test_minimum_public_api_on_the_bundled_arm():
    model = bundled('fk_arm')
    q = np.zeros(len(model.joint_names))
    state = model.forward_kinematics(q)
    assert state.transform('tool0').shape == (4, 4)
    np.testing.assert_allclose(state.relative_transform('base_link', 'tool0'),
                               state.transform('tool0'), atol=1e-15)
    np.testing.assert_allclose(state.relative_transform('tool0', 'base_link')
                               @ state.transform('tool0'), np.eye(4), atol=1e-14)
    assert model.jacobian(q, 'tool0').shape == (6, model.nv)
    pose = model.transform(q, 'tool0')  # a new array, the caller's
    np.testing.assert_array_equal(pose, state.transform('tool0'))
    pose[:] = 0.0
    np.testing.assert_array_equal(model.transform(q, 'tool0'), state.transform('tool0'))
    assert model.transform(np.zeros((3, model.nq)), 'tool0').shape == (3, 4, 4)
    mass, com = model.center_of_mass(q)
    assert mass == pytest.approx(21.5)
    assert com.shape == (3,)
    # tool0 is 0.1 m past the gripper base along its z axis.
    np.testing.assert_allclose(state.relative_transform('gripper_base_link', 'tool0')[:3, 3],
                               [0, 0, 0.1], atol=1e-15)


@pytest.mark.parametrize('bad, message', [
    (np.zeros(3), 'shape'),
    (np.full(7, np.nan), 'NaN or inf'),
    ([0, 0, np.inf, 0, 0, 0, 0], 'elbow_joint'),
    (np.zeros((2, 3, 7)), 'shape'),
    ('abc', 'numbers'),
])
def test_bad_configurations_are_refused(bad, message):
    model = bundled('fk_arm')
    with pytest.raises(ConfigurationError, match=message):
        model.forward_kinematics(bad)


def test_bad_velocities_and_points_are_refused():
    model = bundled('fk_arm')
    with pytest.raises(ConfigurationError, match="v for robot 'fk_arm' must have shape"):
        model.forward_kinematics(np.zeros(7), np.zeros(3))
    with pytest.raises(ConfigurationError, match='needs a velocity'):
        model.forward_kinematics(np.zeros(7), None, np.zeros(7))
    state = model.forward_kinematics(np.zeros(7))
    with pytest.raises(ConfigurationError, match='no velocity'):
        state.velocity('tool0')
    with pytest.raises(ConfigurationError, match='point'):
        state.jacobian('tool0', [0, np.nan, 0])
    with pytest.raises(UnknownFrameError, match="unknown link 'tool1'"):
        state.jacobian('tool1')
    with pytest.raises(ConfigurationError, match='expressed in'):
        state.jacobian('tool0', expressed_in='sideways')


class _Unprintable:

    def __repr__(self):
        raise RuntimeError('no repr')


@pytest.mark.parametrize('expressed_in', [_Unprintable(), [[[[[[[[[[[0]]]]]]]]]]] * 1000])
def test_an_expressed_in_of_any_kind_is_refused_with_a_short_quote(expressed_in):
    state = bundled().forward_kinematics(np.zeros(7))
    with pytest.raises(ConfigurationError, match='expressed in') as info:
        state.jacobian('tool0', expressed_in=expressed_in)
    assert len(str(info.value)) < 200


def test_floating_quaternion_is_checked_and_normalised():
    model = bundled('fk_quadruped', floating_base=True)
    q = model.neutral_configuration()
    q[3:7] = [0, 0, 0, 2.0]
    with pytest.raises(ConfigurationError, match="floating joint 'root_joint'"):
        model.forward_kinematics(q)
    q[6] = 1.00001
    state = model.forward_kinematics(q)
    np.testing.assert_allclose(state.q[3:7], [0, 0, 0, 1.0], atol=1e-15)


def test_state_arrays_are_read_only():
    state = bundled('fk_arm').forward_kinematics(np.zeros(7))
    with pytest.raises(ValueError):
        state.transform('tool0')[0, 3] = 1.0
    with pytest.raises(ValueError):
        state.q[0] = 1.0


def test_model_without_degrees_of_freedom():
    from conftest import urdf
    model = Robot.from_urdf_string(urdf(
        '<link name="a"><inertial><mass value="1"/></inertial></link><link name="b"/>'
        '<joint name="f" type="fixed"><parent link="a"/><child link="b"/>'
        '<origin xyz="1 0 0"/></joint>'))
    assert (model.nq, model.nv, model.joint_names) == (0, 0, ())
    for q in (np.zeros(0), np.zeros((BATCH_THRESHOLD + 1, 0))):
        state = model.forward_kinematics(q)
        np.testing.assert_allclose(state.transform('b')[..., :3, 3],
                                   np.broadcast_to([1.0, 0, 0], q.shape[:-1] + (3,)))
        assert state.jacobian('b').shape == q.shape[:-1] + (6, 0)
        assert state.center_of_mass_jacobian().shape == q.shape[:-1] + (3, 0)
