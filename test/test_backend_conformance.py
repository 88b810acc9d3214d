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
The backend conformance suite: every backend gives the numpy reference's numbers.

Poses, every Jacobian variant, the center of mass, its Jacobian and the centroidal momentum,
velocities and accelerations, a robot's one-link shortcuts, for single configurations and
batches of 1, 15, 16 and 64 (the numpy batch path changes at 16), on the bundled robots,
every robot of example-robot-data the loader accepts, and random trees whose joint axes are
principal up to float noise (as float32 exports write them); and the inverse kinematics
iterates without restarts (the same iterations to the same solution).
Each robot is parsed once, as data (a ``RobotModel``), and evaluated by a state per backend
(``KinematicsState(model, q, backend=...)``).
"""

import glob
import logging
import os

from conftest import all_joint_types_model, joint_xml, link_xml, random_configuration, urdf
from frame_kinematics import robots
from frame_kinematics.core import ExpressedIn, ik, KinematicsState, Robot, RobotModel, \
    URDFError
from frame_kinematics.core.backend import again
from frame_kinematics.core.joints import JointType
from hypothesis import given, HealthCheck, settings, strategies as st
import numpy as np
import pytest

TOL = 1e-12
BATCHES = (1, 15, 16, 64)
#: Axes that are +-e_k up to float noise, as float32 exports write them.
NEAR_PRINCIPAL = ('0 -1 -4.37114e-08', '-1.2968763121522752e-08 -1.0000002970337007 0.0',
                  '1 1e-17 0', '0 1e-9 1')


def _backends():
    params = [pytest.param('numpy', id='numpy')]
    try:
        import numba  # noqa: F401
        params.append(pytest.param('numba', id='numba'))
    except ImportError:
        params.append(pytest.param('numba', id='numba', marks=pytest.mark.skip(
            reason='numba is not installed')))
    return params


def _example_robot_data():
    """Every URDF of example-robot-data, relative to its robots folder (none without it)."""
    probe = robots.example_robot_data('ur_description/urdf/ur5_robot.urdf')
    if probe is None:
        return []
    root = probe[:probe.index('ur_description')]
    return sorted(os.path.relpath(p, root)
                  for p in glob.glob(os.path.join(root, '**', '*.urdf'), recursive=True))


def _load(text, floating_base=False):
    logging.disable(logging.WARNING)  # example-robot-data's URDFs warn about meshes etc.
    try:
        return RobotModel.from_urdf_string(text, floating_base=floating_base)
    finally:
        logging.disable(logging.NOTSET)


def _assert_conforms(model, backend, seed=3):
    """Compare states of ``model`` on ``backend`` with numpy's, on random configurations."""
    rng = np.random.default_rng(seed)
    links = [link.name for link in model.links]
    point = rng.normal(size=3) * 0.1
    ours = KinematicsState(model, model.neutral_configuration(), backend=backend)
    assert ours.backend == backend
    executor = ours.executor  # bound once, as a Robot's
    for size in (None,) + BATCHES:
        q = random_configuration(model, rng, size)
        ours = KinematicsState(model, q, backend=again(executor))
        ref = KinematicsState(model, q, backend='numpy')
        np.testing.assert_allclose(ours.poses, ref.poses, rtol=0, atol=TOL)
        for link in links[-3:]:
            for expressed in ExpressedIn:
                for at in (None, point):
                    np.testing.assert_allclose(ours.jacobian(link, at, expressed),
                                               ref.jacobian(link, at, expressed),
                                               rtol=0, atol=TOL)
        if model.total_mass > 0:
            np.testing.assert_allclose(ours.center_of_mass(), ref.center_of_mass(),
                                       rtol=0, atol=TOL)
            np.testing.assert_allclose(ours.center_of_mass_jacobian(),
                                       ref.center_of_mass_jacobian(), rtol=0, atol=TOL)
        if size is not None:  # each configuration of a batch equals the single call
            for k in (0, size - 1):
                single = KinematicsState(model, q[k], backend='numpy')
                np.testing.assert_allclose(ours.poses[:, k], single.poses, rtol=0, atol=TOL)
    q = random_configuration(model, rng)
    robot = Robot(model, backend)  # its one-link shortcuts walk the link's path alone
    ref = KinematicsState(model, q, backend='numpy')
    for link in links:
        np.testing.assert_allclose(robot.transform(q, link), ref.transform(link), rtol=0,
                                   atol=TOL)
        for expressed in ExpressedIn:
            np.testing.assert_allclose(robot.jacobian(q, link, point, expressed),
                                       ref.jacobian(link, point, expressed), rtol=0, atol=TOL)
    v, a = rng.normal(size=(2, model.nv))
    ours = KinematicsState(model, q, v, a, backend=again(executor))
    ref = KinematicsState(model, q, v, a, backend='numpy')
    quantities = ['local_poses', 'spatial_velocities', 'spatial_accelerations']
    if model.total_mass > 0:
        quantities += ['center_of_mass_velocity', 'centroidal_momentum']
    for quantity in quantities:
        expected = getattr(ref, quantity)
        expected = expected() if callable(expected) else expected
        actual = getattr(ours, quantity)
        actual = actual() if callable(actual) else actual
        # rounding grows with the magnitude (a momentum of 3e3 kg m/s on a humanoid)
        np.testing.assert_allclose(actual, expected, rtol=0,
                                   atol=TOL * max(1.0, float(np.abs(expected).max())))


@pytest.mark.parametrize('backend', _backends())
@pytest.mark.parametrize('name', robots.names())
def test_bundled_robots_conform(backend, name):
    text = open(robots.path(name)).read()
    _assert_conforms(_load(text), backend)


@pytest.mark.parametrize('backend', _backends())
def test_every_joint_type_conforms(backend):
    _assert_conforms(all_joint_types_model(backend='numpy'), backend)


def _assert_ik_conforms(model, backend, tip, active_joints=None, seed=5):
    """Without restarts, ``backend`` takes numpy's iterations to numpy's solution."""
    rng = np.random.default_rng(seed)
    goals = random_configuration(model, rng, 6)
    seeds = random_configuration(model, rng, 6)
    seeds[::2] = goals[::2]  # a seed that solves its target already: no step is taken
    for joint in model.actuated_joints:  # and quaternions of the other sign than steps give
        if joint.type is JointType.FLOATING:
            quat = seeds[:, joint.idx_q + 3:joint.idx_q + 7]
            quat *= -np.sign(quat[:, 3:])
    targets = KinematicsState(model, goals, backend='numpy').transform(tip)
    solvers = [ik.IKSolver(model, tip, active_joints, backend=chosen)
               for chosen in ('numpy', backend)]
    for target, start in zip(targets, seeds):
        ref, ours = [solver.solve(target, seed=start, restarts=0, max_iterations=100,
                                  time_budget=60.0) for solver in solvers]
        assert (ours.iterations, ours.reason) == (ref.iterations, ref.reason)
        np.testing.assert_allclose(ours.q, ref.q, rtol=0, atol=1e-9)


@pytest.mark.parametrize('backend', _backends())
@pytest.mark.parametrize('floating_base', [False, True])
@pytest.mark.parametrize('name, tip', [('fk_arm', 'tool0'), ('fk_quadruped', 'front_left_foot')])
def test_bundled_robots_inverse_kinematics_conform(backend, name, tip, floating_base):
    text = open(robots.path(name)).read()
    _assert_ik_conforms(_load(text, floating_base), backend, tip)


@pytest.mark.parametrize('backend', _backends())
@pytest.mark.parametrize('active_joints', [None, ['j_rev', 'j_pri']])
def test_every_joint_type_inverse_kinematics_conforms(backend, active_joints):
    _assert_ik_conforms(all_joint_types_model(backend='numpy'), backend, 'tip', active_joints)


@pytest.mark.parametrize('backend', _backends())
def test_every_example_robot_data_robot_conforms(backend):
    paths = _example_robot_data()
    if not paths:
        pytest.skip('example-robot-data is not installed')
    checked = 0
    for relative in paths:
        text = open(robots.example_robot_data(relative), 'rb').read()
        try:
            model = _load(text)
        except URDFError:  # a xacro left unexpanded, a mimic of a missing joint
            continue
        _assert_conforms(model, backend)
        checked += 1
    assert checked >= 60


def _near_principal_chain(axes, kinds):
    """Write a chain with one joint per axis (revolute or continuous), tilted origins."""
    body = [link_xml('l0', 1.0)]
    for i, (axis, kind) in enumerate(zip(axes, kinds)):
        body.append(link_xml(f'l{i + 1}', 0.5, '0.02 0 0.1'))
        body.append(joint_xml(f'j{i}', kind, f'l{i}', f'l{i + 1}', '0.01 0.02 0.3',
                              f'{0.1 * i} 0.2 -0.3', axis))
    return urdf('\n'.join(body), 'near_principal')


@pytest.mark.parametrize('backend', _backends())
@settings(max_examples=15, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_axes_principal_up_to_float_noise_conform(backend, data):
    count = data.draw(st.integers(1, 5), label='joints')
    axes = data.draw(st.lists(st.sampled_from(NEAR_PRINCIPAL + ('0 0 1', '0 -1 0')),
                              min_size=count, max_size=count), label='axes')
    kinds = data.draw(st.lists(st.sampled_from(['revolute', 'continuous']), min_size=count,
                               max_size=count), label='kinds')
    text = _near_principal_chain(axes, kinds)
    _assert_conforms(_load(text), backend,
                     seed=data.draw(st.integers(0, 2**31), label='seed'))


def _random_tree(data):
    """Draw a tree of every joint type: tilted and near-principal axes, mimics, inertials."""
    count = data.draw(st.integers(2, 9), label='joints')
    axes = st.sampled_from(NEAR_PRINCIPAL + ('0 0 1', '1 0 0', '0 -1 0', '0.6 0 0.8',
                                             '0.2 -0.3 0.9327379053'))
    numbers = st.floats(-1.0, 1.0, allow_nan=False).map(lambda x: f'{x:.6f}')
    triple = st.tuples(numbers, numbers, numbers).map(' '.join)
    body = [link_xml('l0', 1.0)]
    one_dof = []
    for i in range(1, count + 1):
        parent = data.draw(st.integers(0, i - 1), label=f'parent {i}')
        kind = data.draw(st.sampled_from(['revolute', 'continuous', 'prismatic', 'fixed',
                                          'floating', 'planar', 'mimic']), label=f'type {i}')
        extra = ''
        if kind == 'mimic':
            if not one_dof:
                kind = 'revolute'
            else:
                master = data.draw(st.sampled_from(one_dof), label=f'master {i}')
                extra = f'<mimic joint="{master}" multiplier="-1.5" offset="0.2"/>'
                kind = 'revolute'
        elif kind in ('revolute', 'prismatic', 'continuous'):
            one_dof.append(f'j{i}')
        mass = data.draw(st.floats(0.1, 3.0), label=f'mass {i}')
        body.append(link_xml(f'l{i}', round(mass, 3), data.draw(triple, label=f'com {i}')))
        body.append(joint_xml(f'j{i}', kind, f'l{parent}', f'l{i}', data.draw(triple),
                              data.draw(triple), data.draw(axes, label=f'axis {i}'), extra))
    return urdf('\n'.join(body), 'random_tree')


@pytest.mark.parametrize('backend', _backends())
@settings(max_examples=25, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_trees_of_every_joint_type_conform(backend, data):
    text = _random_tree(data)
    _assert_conforms(_load(text), backend,
                     seed=data.draw(st.integers(0, 2**31), label='seed'))


def test_only_exact_unit_axes_are_principal():
    text = _near_principal_chain(NEAR_PRINCIPAL + ('0 0 1', '-1 0 0', '0 1 0'),
                                 ['revolute'] * 7)
    model = _load(text)
    assert model.kernel.principal_axis[1:].tolist() == [-1, -1, -1, -1, 2, 0, 1]


@pytest.mark.parametrize('backend', _backends())
def test_axes_principal_up_to_float_noise_match_pinocchio(backend):
    pin = pytest.importorskip('pinocchio')
    text = _near_principal_chain(NEAR_PRINCIPAL, ['revolute'] * len(NEAR_PRINCIPAL))
    model = _load(text)
    pmodel = pin.buildModelFromXML(text)
    pdata = pmodel.createData()
    rng = np.random.default_rng(11)
    for q in random_configuration(model, rng, 16):
        pin.framesForwardKinematics(pmodel, pdata, q)
        poses = KinematicsState(model, q, backend=backend).poses
        for link in model.links:
            frame = pmodel.getFrameId(link.name, pin.BODY)
            np.testing.assert_allclose(poses[link.index], pdata.oMf[frame].homogeneous,
                                       rtol=0, atol=TOL)
