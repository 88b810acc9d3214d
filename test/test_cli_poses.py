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
"""Tests of frame_kinematics.cli.poses: ``frame-kinematics fk``, ``jacobian`` and ``com``."""

import json

from cli_testing import call, run
from conftest import bundled, erd_urdf, random_configuration
from frame_kinematics.core import ExpressedIn, Robot
from frame_kinematics.core.spatial import quaternion_from_rotation, rpy_from_rotation
import numpy as np
import pytest


def pairs(model, q):
    return [f'{name}={float(value)!r}' for name, value in zip(model.configuration_names, q)]


def same_rotation(a_R_b, quat):
    """Whether a quaternion (either sign) is the rotation a_R_b."""
    expected = quaternion_from_rotation(a_R_b)
    return min(np.abs(expected - quat).max(), np.abs(expected + quat).max()) < 1e-9


def test_fk_json_of_every_link_matches_core(tmp_path):
    model = bundled()
    q = random_configuration(model, np.random.default_rng(1))
    config = tmp_path / 'q.json'
    config.write_text(json.dumps(dict(zip(model.configuration_names, q.tolist()))))
    proc = run('fk', '--config', str(config), '--format', 'json')
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ''
    result = json.loads(proc.stdout)
    state = model.forward_kinematics(q)
    assert result['frame'] == 'base_link'
    assert list(result['poses']) == list(model.link_names)
    for name, pose in result['poses'].items():
        root_T_link = state.transform(name)
        np.testing.assert_allclose(pose['matrix'], root_T_link, atol=1e-12)
        np.testing.assert_allclose(pose['position'], root_T_link[:3, 3], atol=1e-12)
        assert same_rotation(root_T_link[:3, :3], np.array(pose['quaternion']))
        np.testing.assert_allclose(pose['rpy'], rpy_from_rotation(root_T_link[:3, :3]),
                                   atol=1e-12)


def test_fk_table_and_tf_list_match_core():
    model = bundled()
    q = model.configuration_from_dict({'shoulder_lift_joint': -1.2, 'elbow_joint': 1.0,
                                       'wrist_2_joint': 0.3})
    state = model.forward_kinematics(q)
    proc = run('fk', 'shoulder_lift_joint=-1.2', '--links', 'tool0', 'wrist_2_link',
               'elbow_joint=1.0', '--relative-to', 'shoulder_link', 'wrist_2_joint=0.3',
               '--precision', '9')
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith('# fk_arm: poses in shoulder_link')
    assert lines[1].split() == ['link', 'x', 'y', 'z', 'roll', 'pitch', 'yaw']
    for line, name in zip(lines[2:], ('tool0', 'wrist_2_link')):
        cells = line.split()
        assert cells[0] == name
        a_T_b = state.relative_transform('shoulder_link', name)
        expected = np.concatenate([a_T_b[:3, 3], rpy_from_rotation(a_T_b[:3, :3])])
        np.testing.assert_allclose([float(c) for c in cells[1:]], expected, atol=1e-9)
    assert len(lines) == 4

    yaml = pytest.importorskip('yaml')
    proc = run('fk', 'shoulder_lift_joint=-1.2', 'elbow_joint=1.0', 'wrist_2_joint=0.3',
               '--format', 'tf', '--precision', '12')
    assert proc.returncode == 0, proc.stderr
    transforms = yaml.safe_load(proc.stdout)
    assert [t['child_frame_id'] for t in transforms] == list(model.link_names)
    for t in transforms:
        assert t['header']['frame_id'] == 'base_link'
        root_T_link = state.transform(t['child_frame_id'])
        xyz = [t['transform']['translation'][k] for k in 'xyz']
        quat = np.array([t['transform']['rotation'][k] for k in 'xyzw'])
        np.testing.assert_allclose(xyz, root_T_link[:3, 3], atol=1e-12)
        assert same_rotation(root_T_link[:3, :3], quat)


def test_jacobian_json_matches_core():
    model = bundled()
    q = random_configuration(model, np.random.default_rng(2))
    proc = run('jacobian', *pairs(model, q), '--link', 'wrist_3_link', '--point', '0.01',
               '-0.02', '0.1', '--expressed-in', 'local', '--format', 'json')
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    jac = model.forward_kinematics(q).jacobian('wrist_3_link', [0.01, -0.02, 0.1],
                                               ExpressedIn.LOCAL)
    np.testing.assert_allclose(result['jacobian'], jac, atol=1e-12)
    assert result['columns'] == list(model.joint_names)
    assert result['rows'] == ['vx', 'vy', 'vz', 'wx', 'wy', 'wz']
    singular = np.linalg.svd(jac, compute_uv=False)
    np.testing.assert_allclose(result['singular_values'], singular, atol=1e-12)
    assert result['manipulability'] == pytest.approx(np.sqrt(np.linalg.det(jac @ jac.T)),
                                                     rel=1e-9, abs=1e-12)
    assert result['manipulability'] > 1e-6
    assert result['condition_number'] == pytest.approx(singular[0] / singular[-1], rel=1e-9)


def test_jacobian_table_has_joint_headers_and_measures(capsys):
    model = bundled()
    q = model.configuration_from_dict({'shoulder_lift_joint': -1.2, 'elbow_joint': 1.0,
                                       'wrist_2_joint': 0.3})
    status, out, err = call(capsys, 'jacobian', 'shoulder_lift_joint=-1.2', 'elbow_joint=1.0',
                            'wrist_2_joint=0.3', '--precision', '10')
    assert status == 0, err
    lines = out.splitlines()
    assert lines[1].split() == list(model.joint_names)
    jac = model.forward_kinematics(q).jacobian('tool0')
    for line, row, label in zip(lines[2:8], jac, ('vx', 'vy', 'vz', 'wx', 'wy', 'wz')):
        cells = line.split()
        assert cells[0] == label
        np.testing.assert_allclose([float(c) for c in cells[1:]], row, atol=1e-10)
    singular = np.linalg.svd(jac, compute_uv=False)
    assert lines[8].startswith('singular values: ')
    np.testing.assert_allclose([float(c) for c in lines[8].split(':')[1].split()], singular,
                               atol=1e-10)
    assert float(lines[9].split(':')[1]) == pytest.approx(np.prod(singular), abs=1e-10)


def test_com_json_with_velocities_matches_core():
    model = bundled()
    rng = np.random.default_rng(3)
    q = random_configuration(model, rng)
    v = rng.normal(size=model.nv)
    proc = run('com', *pairs(model, q), '--velocity', *pairs(model, v), '--format', 'json')
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    state = model.forward_kinematics(q, v)
    assert result['mass'] == pytest.approx(model.total_mass, rel=1e-15)
    np.testing.assert_allclose(result['center_of_mass'], state.center_of_mass(), atol=1e-12)
    np.testing.assert_allclose(result['center_of_mass_velocity'],
                               state.center_of_mass_velocity(), atol=1e-12)
    momentum = state.centroidal_momentum()
    np.testing.assert_allclose(result['linear_momentum'], momentum[:3], atol=1e-12)
    np.testing.assert_allclose(result['angular_momentum'], momentum[3:], atol=1e-12)
    assert np.abs(momentum[3:]).max() > 1e-3


def test_quadruped_with_floating_base_matches_core():
    model = bundled('fk_quadruped', floating_base=True)
    q = random_configuration(model, np.random.default_rng(4))
    base = ','.join(repr(float(x)) for x in q[:7])
    joints = [p for p in pairs(model, q) if not p.startswith('root_joint/')]
    proc = run('--robot', 'fk_quadruped', '--floating-base', 'fk', f'root_joint={base}',
               *joints, '--links', 'front_left_foot', 'imu_link', '--format', 'json')
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result['frame'] == 'world'
    state = model.forward_kinematics(q)
    for name in ('front_left_foot', 'imu_link'):
        np.testing.assert_allclose(result['poses'][name]['matrix'], state.transform(name),
                                   atol=1e-12)


def test_example_robot_data_robot_matches_core():
    pytest.importorskip('pinocchio')
    path = erd_urdf('panda_description/urdf/panda.urdf')
    model = Robot.from_urdf_file(path)
    q = random_configuration(model, np.random.default_rng(5))
    proc = run('--urdf', path, 'fk', *pairs(model, q), '--links', 'panda_hand',
               'panda_link4', '--format', 'json')
    assert proc.returncode == 0, proc.stderr
    state = model.forward_kinematics(q)
    poses = json.loads(proc.stdout)['poses']
    for name in ('panda_hand', 'panda_link4'):
        np.testing.assert_allclose(poses[name]['matrix'], state.transform(name), atol=1e-12)
    proc = run('jacobian', '--urdf', path, *pairs(model, q), '--link', 'panda_hand',
               '--expressed-in', 'world', '--format', 'json')
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_allclose(json.loads(proc.stdout)['jacobian'],
                               state.jacobian('panda_hand', expressed_in='world'), atol=1e-12)


def test_pairs_override_the_file_and_com_table(capsys, tmp_path):
    path = tmp_path / 'q.json'
    path.write_text(json.dumps({'elbow_joint': 0.5, 'shoulder_lift_joint': -1.0}))
    status, out, err = call(capsys, 'com', '--config', path, 'elbow_joint=1.5',
                            '--velocity', 'elbow_joint=2', '--precision', '9')
    assert status == 0, err
    model = bundled()
    q = model.configuration_from_dict({'elbow_joint': 1.5, 'shoulder_lift_joint': -1.0})
    v = np.zeros(model.nv)
    v[model.joint('elbow_joint').idx_v] = 2.0
    state = model.forward_kinematics(q, v)
    rows = {line.split('  ')[0]: line.split()[-3:] for line in out.splitlines()[2:]}
    np.testing.assert_allclose([float(x) for x in rows['center of mass [m]']],
                               state.center_of_mass(), atol=1e-9)
    np.testing.assert_allclose([float(x) for x in rows['CoM velocity [m/s]']],
                               state.center_of_mass_velocity(), atol=1e-9)
    assert out.splitlines()[1] == f'mass [kg]: {model.total_mass:.9f}'
