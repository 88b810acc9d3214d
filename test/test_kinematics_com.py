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
"""Tests of frame_kinematics.core.kinematics.com: center of mass and momentum."""

import logging

from conftest import random_configuration, real_robot_path
from frame_kinematics.core import Robot
from kinematics_testing import to_pinocchio, TOL
import numpy as np
import pytest


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
        qp, vp, _a, expand = to_pinocchio(model, pmodel, q, v, v)
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
