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
"""Tests of frame_kinematics.core.kinematics.state: KinematicsState and its checks."""

import glob
import logging
import os

from conftest import bundled, erd_urdf, random_configuration, real_robot_path, REAL_ROBOTS
from frame_kinematics.core import ConfigurationError, ExpressedIn, Robot, UnknownFrameError
from frame_kinematics.core.joints import JointType
from kinematics_testing import integrate, model_fixture, MODEL_NAMES, \
    to_pinocchio, TOL
import numpy as np
import pytest

PIN_REFS = ('WORLD', 'LOCAL', 'LOCAL_WORLD_ALIGNED')


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


model = model_fixture()


@pytest.mark.parametrize('name', ['ur5', 'panda', 'iiwa', 'talos', 'solo12'])
def test_matches_pinocchio_on_real_robots(name):
    pin, model, pmodel = _pinocchio_setup(name)
    pdata = pmodel.createData()
    rng = np.random.default_rng(7)
    skip_root = model.joints[0].type is JointType.FLOATING
    for _ in range(3):
        q = random_configuration(model, rng)
        v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
        qp, vp, ap, expand = to_pinocchio(model, pmodel, q, v, a)
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


@pytest.mark.parametrize('model', MODEL_NAMES, indirect=True)
def test_velocity_acceleration_and_com_match_finite_differences(model):
    rng = np.random.default_rng(5)
    dt = 1e-6
    q = random_configuration(model, rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    state = model.forward_kinematics(q, v, a)
    plus = model.forward_kinematics(integrate(model, q, v, dt), v + a * dt)
    minus = model.forward_kinematics(integrate(model, q, v, -dt), v - a * dt)
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


@pytest.mark.parametrize('call, patched', [
    (lambda s: s.world_columns(), 'column_twists'),
    (lambda s: s.jacobian('tool0'), 'to_velocity_entries'),
    (lambda s: s.spatial_velocities(), 'column_rates'),
    (lambda s: s.velocity('tool0'), 'column_rates'),
    (lambda s: s.center_of_mass_velocity(), 'column_rates'),
    (lambda s: s.relative_transform('wrist_1_link', 'tool0'), 'inverse'),
])
def test_a_quantity_of_a_batch_that_does_not_fit_is_refused_with_its_size(
        call, patched, monkeypatch):
    from frame_kinematics.core.kinematics import state as state_module
    robot = bundled('fk_arm', backend='numpy')
    q = random_configuration(robot, np.random.default_rng(8), 5)
    state = robot.forward_kinematics(q, np.ones_like(q))
    expected = call(state)
    state = robot.forward_kinematics(q, np.ones_like(q))
    kept = dict(vars(state))

    def out_of_memory(*_args, **_kwargs):
        raise MemoryError

    monkeypatch.setattr(state_module, patched, out_of_memory)
    with pytest.raises(ConfigurationError, match=r'^\w+ of a batch of 5 configurations needs '
                       'more memory than is free: evaluate it in smaller batches$'):
        call(state)
    assert all(vars(state)[key] is value for key, value in kept.items())
    monkeypatch.undo()
    np.testing.assert_array_equal(call(state), expected)


def test_matches_pinocchio_on_every_example_robot_data_robot():
    pin = pytest.importorskip('pinocchio')
    root = os.path.dirname(os.path.dirname(erd_urdf('ur_description/urdf/ur5_robot.urdf')))
    paths = sorted(glob.glob(os.path.join(os.path.dirname(root), '**', '*.urdf'),
                             recursive=True))
    rng = np.random.default_rng(23)
    checked = []
    for path in paths:
        logging.disable(logging.WARNING)  # meshes, mimics of fixed joints, ...
        try:
            # floating: Pinocchio counts no mass of a fixed base's root body in the CoM
            model = Robot.from_urdf_file(path, floating_base=True, world_frame='fk_world',
                                         backend='numpy')
            pmodel = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer())
        except Exception:  # a xacro left unexpanded, a joint type one of them lacks
            continue
        finally:
            logging.disable(logging.NOTSET)
        pdata = pmodel.createData()
        for _ in range(2):
            q = random_configuration(model, rng)
            qp, _, _, expand = to_pinocchio(model, pmodel, q, np.zeros(model.nv),
                                            np.zeros(model.nv))
            pin.forwardKinematics(pmodel, pdata, qp)
            pin.updateFramePlacements(pmodel, pdata)
            pin.computeJointJacobians(pmodel, pdata, qp)
            state = model.forward_kinematics(q)
            for link in model.link_names[1:]:  # all but our world link, Pinocchio's universe
                fid = pmodel.getFrameId(link, pin.BODY)
                np.testing.assert_allclose(state.transform(link), pdata.oMf[fid].homogeneous,
                                           atol=TOL, err_msg=f'{path}: {link}')
                np.testing.assert_allclose(
                    state.jacobian(link), pin.getFrameJacobian(
                        pmodel, pdata, fid, pin.LOCAL_WORLD_ALIGNED) @ expand,
                    atol=TOL, err_msg=f'{path}: {link}')
            if model.total_mass > 0:
                np.testing.assert_allclose(state.center_of_mass(),
                                           pin.centerOfMass(pmodel, pdata, qp), atol=TOL,
                                           err_msg=path)
        checked.append(path)
    assert len(checked) >= 68, checked
