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
The ``frame-kinematics`` command line, checked against the core.

A few tests run the real program as a subprocess (``python -m frame_kinematics`` and the
console script); the error paths and file formats call :func:`frame_kinematics.cli.main` in
the test process, which runs the same code without the start-up cost.
"""

import json
import os
import shutil
import subprocess
import sys

from conftest import bundled, erd_urdf, link_xml, moveit_resource, random_configuration, urdf
from frame_kinematics import cli
from frame_kinematics.core import backend, ExpressedIn, Robot
from frame_kinematics.core.spatial import quaternion_from_rotation, rpy_from_rotation
import numpy as np
import pytest


def run(*args, cwd=None):
    """Run ``python -m frame_kinematics ARGS`` and return the completed process."""
    return subprocess.run([sys.executable, '-m', 'frame_kinematics', *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def call(capsys, *args):
    """Run :func:`cli.main` in this process: ``(exit status, stdout, stderr)``."""
    try:
        status = cli.main([str(a) for a in args])
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status, out, err, *words, code=1):
    assert status == code, (status, out, err)
    assert out == ''
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith('frame-kinematics: error: ')
    assert 'Traceback' not in err
    for word in words:
        assert word in lines[0]


def pairs(model, q):
    return [f'{name}={float(value)!r}' for name, value in zip(model.configuration_names, q)]


def same_rotation(a_R_b, quat):
    """Whether a quaternion (either sign) is the rotation a_R_b."""
    expected = quaternion_from_rotation(a_R_b)
    return min(np.abs(expected - quat).max(), np.abs(expected + quat).max()) < 1e-9


# -- subprocess runs on the bundled robots --------------------------------------------------------
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


def test_console_script_and_info_tree():
    # the script of this interpreter's installation (next to it, or where setup.cfg puts it
    # for ROS: lib/<package>), else the one on PATH
    script = shutil.which('frame-kinematics', path=os.pathsep.join([
        os.path.dirname(sys.executable), os.path.join(sys.prefix, 'lib', 'frame_kinematics')
    ])) or shutil.which('frame-kinematics')
    if script is None:
        pytest.skip('the console script is not installed (pip install -e .)')
    proc = subprocess.run([script, 'info'], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    model = bundled()
    lines = proc.stdout.splitlines()
    assert lines[0] == ('robot fk_arm: 12 links, 11 joints (7 actuated, 1 mimic, 3 fixed), '
                        'nq=7, nv=7')
    assert lines[1] == f'total mass: {model.total_mass:g} kg'
    assert lines[2] == 'base_link [4 kg]'
    mimic = [line for line in lines if 'right_finger_joint' in line]
    assert len(mimic) == 1
    assert 'prismatic' in mimic[0] and 'mimic 1 * left_finger_joint + 0' in mimic[0]
    assert '[0, 0.04] m' in mimic[0] and mimic[0].endswith('-> right_finger_link [0.05 kg]')
    assert any(line.endswith('-> tool0 [no inertial]') for line in lines)
    expected = backend.resolve(None, default='numpy')  # the command line's default
    assert lines[-1].startswith(f'kinematics backend: {expected} ')
    if expected == 'numpy':
        assert "the command line's default for single queries" in lines[-1]
    # every joint appears once, every link is named once
    for joint in model.joints:
        assert sum(f' {joint.name} (' in line for line in lines) == 1


def test_error_in_a_subprocess_is_one_line_without_traceback(tmp_path):
    bad = tmp_path / 'bad.urdf'
    bad.write_text('<robot name="x"><link name="a"/><joint name="j" type="revolute">')
    proc = run('--urdf', str(bad), 'info')
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, str(bad))
    proc = run('fk', '--no-such-option')
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, '--no-such-option',
                          code=2)


def test_ik_reaches_a_reachable_target():
    model = bundled()
    q = random_configuration(model, np.random.default_rng(8))
    root_T_tool = model.forward_kinematics(q).transform('tool0')
    quat = quaternion_from_rotation(root_T_tool[:3, :3])
    proc = run('ik', '--link', 'tool0', '--xyz', *[repr(float(x)) for x in root_T_tool[:3, 3]],
               '--quat', *[repr(float(x)) for x in quat], '--format', 'json')
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result['success'] is True
    solution = np.array(list(result['q'].values()))
    reached = model.forward_kinematics(solution).transform('tool0')
    assert np.linalg.norm(reached[:3, 3] - root_T_tool[:3, 3]) < 1e-5
    assert result['position_error'] == pytest.approx(
        np.linalg.norm(reached[:3, 3] - root_T_tool[:3, 3]), abs=1e-9)
    np.testing.assert_allclose(reached[:3, :3], root_T_tool[:3, :3], atol=1e-5)
    assert np.all(solution >= model.lower) and np.all(solution <= model.upper)


# -- in-process runs: outputs ---------------------------------------------------------------------
def test_info_json(capsys):
    status, out, err = call(capsys, 'info', '--format', 'json')
    assert status == 0, err
    info = json.loads(out)
    model = bundled()
    assert info['total_mass'] == pytest.approx(model.total_mass)
    assert info['backend'] == backend.resolve(None, default='numpy')  # the default
    assert info['configuration_names'] == list(model.configuration_names)
    joints = {j['name']: j for j in info['joints']}
    assert joints['right_finger_joint']['mimic'] == {'joint': 'left_finger_joint',
                                                     'multiplier': 1.0, 'offset': 0.0}
    assert joints['tool0_fixed_joint']['lower'] is None
    assert sum(link['mass'] or 0.0 for link in info['links']) == pytest.approx(
        model.total_mass)


@pytest.mark.parametrize('form', ['joint_state', 'list', 'positions'])
def test_configuration_files(capsys, tmp_path, form):
    yaml = pytest.importorskip('yaml')
    model = bundled()
    rng = np.random.default_rng(6)
    q = random_configuration(model, rng)
    v = rng.normal(size=model.nv)
    names = list(model.joint_names)
    if form == 'joint_state':
        document = {'header': {'frame_id': ''}, 'name': names, 'position': q.tolist(),
                    'velocity': v.tolist(), 'effort': []}
        text = yaml.safe_dump(document) + '---\n'
    elif form == 'list':
        text = json.dumps(q.tolist())
        v = None
    else:
        text = yaml.safe_dump({'positions': dict(zip(names, q.tolist())),
                               'velocities': dict(zip(names, v.tolist()))})
    path = tmp_path / ('q.json' if form == 'list' else 'q.yaml')
    path.write_text(text)
    status, out, err = call(capsys, 'com', '--config', path, '--format', 'json')
    assert status == 0, err
    result = json.loads(out)
    state = model.forward_kinematics(q, v)
    np.testing.assert_allclose(list(result['configuration'].values()), q, atol=1e-15)
    np.testing.assert_allclose(result['center_of_mass'], state.center_of_mass(), atol=1e-12)
    if v is None:
        assert 'angular_momentum' not in result
    else:
        np.testing.assert_allclose(result['angular_momentum'], state.angular_momentum(),
                                   atol=1e-12)


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


def test_relative_motion_table_and_json(capsys, tmp_path):
    from frame_kinematics.core.relative_motion import RelativeMotion
    model = bundled()
    expected = RelativeMotion(model)
    expected.add_locked_joint('wrist_3_joint')
    expected.add_relative_transformation('tool0', None)
    expected.add_locked_joint('shoulder_pan_joint', parameterized=True)
    status, out, err = call(capsys, 'relative-motion', '--lock', 'wrist_3_joint',
                            '--transform', 'tool0', 'env', '--lock-parameterized',
                            'shoulder_pan_joint')
    assert status == 0, err
    lines = out.splitlines()
    rows = lines[2:2 + expected.size]
    for k, (line, values) in enumerate(zip(rows, expected.matrix)):
        cells = line.split()
        assert cells[0] == str(k) and cells[1] == expected.index_names[k]
        assert cells[-expected.size:] == ['CPU'[v] for v in values]
    assert lines[2 + expected.size].startswith('rigid groups')

    path = tmp_path / 'constraints.json'
    path.write_text(json.dumps([{'lock': 'wrist_3_joint'},
                                {'transformation': ['tool0', 'environment']},
                                {'lock': 'shoulder_pan_joint', 'parameterized': True},
                                {'transformation': ['elbow_joint'], 'mask': [1] * 5 + [0]}]))
    status, out, err = call(capsys, 'relative-motion', '--constraints', path, '--format',
                            'json')
    assert status == 0, err
    result = json.loads(out)
    assert result['matrix'] == [['CPU'[v] for v in row] for row in expected.matrix]
    assert result['rigid_groups'] == [list(g) for g in expected.rigid_groups()]
    assert result['bodies'][0] == 'base_link'


def test_help_of_every_command_has_an_example(capsys):
    status, out, _ = call(capsys, '--help')
    assert status == 0 and 'example:' in out
    commands = ['info', 'fk', 'jacobian', 'com', 'ik', 'relative-motion', 'render']
    for command in commands:
        assert command in out
        status, out_command, _ = call(capsys, command, '--help')
        assert status == 0
        assert f'example:\n  frame-kinematics {command}' in out_command


def test_options_before_or_after_the_command(capsys):
    first = call(capsys, '--robot', 'fk_quadruped', 'fk', '--links', 'imu_link')
    second = call(capsys, 'fk', '--robot', 'fk_quadruped', '--links', 'imu_link')
    assert first[0] == second[0] == 0
    assert first[1] == second[1]
    assert first[1].startswith('# fk_quadruped')


# -- in-process runs: every error path is one line, nothing on stdout -----------------------------
@pytest.mark.parametrize('args, words', [
    (['fk', '--links', 'tool0', 'nope'], ["unknown link 'nope'", 'tool0']),
    (['fk', 'foo=1', 'bar=2'], ['foo', 'bar', 'elbow_joint']),
    (['fk', 'elbow_joint=1,5'], ["malformed number '1,5'", 'elbow_joint']),
    (['fk', 'elbow_joint=nan'], ['elbow_joint', 'not a finite number']),
    (['fk', 'elbow_joint'], ["'elbow_joint'", 'NAME=VALUE']),
    (['fk', 'elbow_joint=1', 'elbow_joint=2'], ['elbow_joint', 'twice']),
    (['fk', '--relative-to', 'nowhere'], ["'nowhere'"]),
    (['info', '--urdf', '/nonexistent/robot.urdf'], ['/nonexistent/robot.urdf']),
    (['fk', '--config', '/nonexistent/q.yaml'], ['/nonexistent/q.yaml']),
    (['info', '--robot', 'fk_octopus'], ["'fk_octopus'", 'fk_quadruped']),
    (['jacobian', '--robot', 'fk_quadruped'], ["'tool0'", '--link']),
    (['jacobian', '--link', 'tool1'], ["'tool1'"]),
    (['com', '--velocity', 'elbow_joint=fast'], ["'fast'", 'elbow_joint']),
    (['com', '--velocity', 'wrist_9=1'], ["'wrist_9'"]),
    (['fk', '--robot', 'fk_quadruped', '--floating-base', 'root_joint=0,0,1'],
     ['root_joint', '7 values']),
    (['fk', '--robot', 'fk_quadruped', '--floating-base', 'root_joint/qw=0.5'],
     ['root_joint', 'quaternion']),
    (['relative-motion', '--lock', 'nope_joint'], ["'nope_joint'"]),
    (['relative-motion', '--transform', 'tool0', 'tool0_fixed_joint'], ['itself']),
    (['render', '-o', 'picture.jpg'], ['.png']),
    (['render', '-o', '/nonexistent/folder/p.png'], ['/nonexistent/folder']),
    (['ik', '--rpy', '0', '0', '0'], ['--xyz']),
    (['ik', '--xyz', '0.3', '0', '0.4'], ['rpy', 'quat']),
    (['ik', '--xyz', '0.3', '0', '0.4', '--quat', '0', '0', '0', '2'], ['norm 2']),
    (['ik', '--link', 'hand', '--xyz', '0.3', '0', '0.4', '--rpy', '0', '0', '0'],
     ["'hand'"]),
    (['ik', '--xyz', '0.3', '0', '0.4', '--rpy', '0', '0', '0', '--relative-to', 'shelf'],
     ["'shelf'"]),
    (['ik', '--targets', '/nonexistent/t.csv'], ['/nonexistent/t.csv']),
    (['ik', '--xyz', '0.3', '0', '0.4', '--rpy', '0', '0', '0', '--relative-to',
      'shoulder_link'], ["'shoulder_link'", 'moved by the active joints']),
])
def test_error_paths(capsys, args, words):
    status, out, err = call(capsys, *args)
    assert_one_line_error(status, out, err, *words)


@pytest.mark.parametrize('name, text, words', [
    ('bad.json', '{"elbow_joint": ', ['bad.json', 'not valid JSON']),
    ('bad.yaml', 'elbow_joint: [1,', ['bad.yaml', 'not valid YAML']),
    ('word.yaml', 'elbow_joint: fast', ["'fast'", 'elbow_joint']),
    ('scalar.yaml', '3', ['scalar.yaml', 'mapping']),
    ('short.json', '[0.1, 0.2]', ['has 7 values', 'got 2']),
    ('bad.urdf', '<robot name="r"><link name="a"/><link name="a"/></robot>',
     ['bad.urdf', 'duplicate link name']),
    ('cons.yaml', '- {lock: elbow_joint, mask: [1, 1, 1, 1, 1, 1]}', ['mask']),
    ('cons2.yaml', '- {weld: tool0}', ['lock or transformation']),
])
def test_error_paths_in_files(capsys, tmp_path, name, text, words):
    path = tmp_path / name
    path.write_text(text)
    if name.endswith('.urdf'):
        args = ['--urdf', path, 'info']
    elif name.startswith('cons'):
        args = ['relative-motion', '--constraints', path]
    else:
        args = ['fk', '--config', path]
    if name.endswith('.yaml'):
        pytest.importorskip('yaml')
    status, out, err = call(capsys, *args)
    assert_one_line_error(status, out, err, *words)


def test_missing_optional_dependencies_are_one_line(capsys, tmp_path, monkeypatch):
    path = tmp_path / 'q.yaml'
    path.write_text('elbow_joint: 1.0\n')
    monkeypatch.setitem(sys.modules, 'yaml', None)
    status, out, err = call(capsys, 'fk', '--config', path)
    assert_one_line_error(status, out, err, 'pyyaml', 'pip install pyyaml')
    monkeypatch.setitem(sys.modules, 'matplotlib.figure', None)
    status, out, err = call(capsys, 'render', '-o', tmp_path / 'p.png')
    assert_one_line_error(status, out, err, 'matplotlib', 'pip install matplotlib')
    assert not os.path.exists(tmp_path / 'p.png')


def test_usage_errors_exit_2(capsys):
    for args in (['fk', '--format', 'xml'], ['fk', '--precision', '99'], ['nope'], []):
        status, out, err = call(capsys, *args)
        assert_one_line_error(status, out, err, code=2)


# -- inverse kinematics ---------------------------------------------------------------------------
def test_ik_relative_to_a_frame_and_table(capsys):
    model = bundled()
    q = model.configuration_from_dict({'shoulder_lift_joint': -1.0, 'elbow_joint': 1.2,
                                       'wrist_2_joint': 0.5})
    state = model.forward_kinematics(q)
    upper_T_tool = state.relative_transform('upper_arm_link', 'tool0')
    rpy = rpy_from_rotation(upper_T_tool[:3, :3])
    # the shoulder joints are held at the seed, so upper_arm_link is a valid reference frame
    status, out, err = call(capsys, 'ik', '--xyz', *upper_T_tool[:3, 3].tolist(), '--rpy',
                            *rpy.tolist(), '--relative-to', 'upper_arm_link',
                            '--active-joints', 'elbow_joint', 'wrist_1_joint', 'wrist_2_joint',
                            'wrist_3_joint', 'shoulder_lift_joint=-1.0', 'shoulder_pan_joint=2',
                            '--format', 'json')
    assert status == 0, err
    solution = np.array(list(json.loads(out)['q'].values()))
    assert solution[:2].tolist() == [2.0, -1.0]
    reached = model.forward_kinematics(solution).relative_transform(
        'upper_arm_link', 'tool0')
    np.testing.assert_allclose(reached, upper_T_tool, atol=2e-5)

    root_T_tool = state.transform('tool0')
    rpy = rpy_from_rotation(root_T_tool[:3, :3])
    status, out, err = call(capsys, 'ik', '--xyz', *root_T_tool[:3, 3].tolist(), '--rpy',
                            *rpy.tolist(), '--precision', '9')
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith('# fk_arm: inverse kinematics of tool0 to xyz')
    assert lines[0].endswith('in base_link')
    assert lines[1].startswith('converged: yes (converged, ')
    assert float(lines[2].split(':')[1]) < 1e-5
    values = {line.split()[0]: float(line.split()[1]) for line in lines[5:]}
    assert list(values) == list(model.configuration_names)
    solution = np.array(list(values.values()))
    reached = model.forward_kinematics(solution).transform('tool0')
    np.testing.assert_allclose(reached, root_T_tool, atol=2e-5)


def test_ik_failure_exits_3_with_the_best_configuration(capsys):
    status, out, err = call(capsys, 'ik', '--xyz', '3', '0', '0.5', '--rpy', '0', '0', '0',
                            '--format', 'json', '--max-iterations', '50')
    assert status == cli.EXIT_NOT_CONVERGED
    result = json.loads(out)
    assert result['success'] is False
    assert result['position_error'] > 1.0
    lines = err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith('frame-kinematics: error: inverse kinematics of tool0 did not '
                               'converge')


def test_ik_over_a_file_of_targets(capsys, tmp_path):
    yaml = pytest.importorskip('yaml')
    model = bundled()
    q = random_configuration(model, np.random.default_rng(9), batch=12)
    root_T_tool = model.forward_kinematics(q).transform('tool0')
    lines = ['# x y z roll pitch yaw']
    for pose in root_T_tool[:6]:
        values = np.concatenate([pose[:3, 3], rpy_from_rotation(pose[:3, :3])])
        lines.append(', '.join(repr(float(v)) for v in values))
    for pose in root_T_tool[6:]:
        values = np.concatenate([pose[:3, 3], quaternion_from_rotation(pose[:3, :3])])
        lines.append(' '.join(repr(float(v)) for v in values))
    csv = tmp_path / 'targets.csv'
    csv.write_text('\n'.join(lines) + '\n\n')
    status, out, err = call(capsys, 'ik', '--targets', csv, '--chunk', '5', '--format',
                            'json')
    assert status == 0, err
    result = json.loads(out)
    assert result['count'] == result['solved'] == 12
    solutions = np.array([list(r['q'].values()) for r in result['results']])
    reached = model.forward_kinematics(solutions).transform('tool0')
    assert np.abs(reached[:, :3, 3] - root_T_tool[:, :3, 3]).max() < 1e-5
    assert np.abs(reached[:, :3, :3] - root_T_tool[:, :3, :3]).max() < 1e-4
    progress = err.splitlines()
    assert [line.split()[1] for line in progress[:3]] == ['5/12', '10/12', '12/12']
    assert progress[2].startswith('frame-kinematics: 12/12 targets tried, 12 solved (')
    assert progress[-1].startswith('frame-kinematics: solved 12 of 12 targets in ')

    targets = [{'xyz': root_T_tool[0, :3, 3].tolist(),
                'rpy': rpy_from_rotation(root_T_tool[0, :3, :3]).tolist()},
               {'xyz': [5.0, 0.0, 0.0], 'quat': [0.0, 0.0, 0.0, 1.0]}]
    path = tmp_path / 'targets.yaml'
    path.write_text(yaml.safe_dump({'targets': targets}))
    status, out, err = call(capsys, 'ik', '--targets', path, '--quiet', '--max-iterations',
                            '200')
    assert status == cli.EXIT_NOT_CONVERGED
    assert err == ''
    rows = out.splitlines()
    assert rows[0].endswith('1 solved in ' + rows[0].split(' solved in ')[1])
    assert rows[2].split()[:2] == ['0', 'yes'] and rows[3].split()[:2] == ['1', 'no']


@pytest.mark.parametrize('name, text, words', [
    ('t.csv', '0.1 0.2 0.3 0 0\n', ['t.csv line 1', 'got 5 numbers']),
    ('t.txt', '0.1 0.2 0.3 0 0 zero\n', ["'zero'", 't.txt line 1 yaw']),
    ('t.csv', '# nothing\n', ['no targets']),
    ('t.json', '[{"xyz": [0, 0, 1], "rpy": [0, 0]}]', ['t.json target 0', 'rpy']),
    ('t.json', '[{"xyz": [0, 0, 1], "rpy": [0, 0, 0], "quat": [0, 0, 0, 1]}]',
     ['t.json target 0', 'not both']),
    ('t.json', '{"xyz": [0, 0, 1]}', ['list of targets']),
])
def test_ik_target_file_errors(capsys, tmp_path, name, text, words):
    path = tmp_path / name
    path.write_text(text)
    status, out, err = call(capsys, 'ik', '--targets', path)
    assert_one_line_error(status, out, err, *words)


def test_ik_options_conflict_is_a_usage_error(capsys):
    status, out, err = call(capsys, 'ik', '--xyz', '0', '0', '1', '--rpy', '0', '0', '0',
                            '--quat', '0', '0', '0', '1')
    assert_one_line_error(status, out, err, '--quat', code=2)


# -- a new user's trial ---------------------------------------------------------------------------
def panda_path():
    return erd_urdf('panda_description/urdf/panda.urdf')


def mimic_urdf(tmp_path, multiplier='2', offset='0.1'):
    """Write a two-joint arm whose second joint mimics the first: ``b = m * a + o``."""
    body = '\n'.join([
        link_xml('base', 1.0), link_xml('l1', 0.5), link_xml('l2', 0.5),
        '<joint name="a" type="revolute"><parent link="base"/><child link="l1"/>'
        '<axis xyz="0 0 1"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>',
        '<joint name="b" type="revolute"><parent link="l1"/><child link="l2"/>'
        '<origin xyz="0.5 0 0"/><axis xyz="0 0 1"/>'
        '<limit lower="-5" upper="5" effort="1" velocity="1"/>'
        f'<mimic joint="a" multiplier="{multiplier}" offset="{offset}"/></joint>'])
    path = tmp_path / 'mimic.urdf'
    path.write_text(urdf(body, 'mimic_arm'))
    return path


def test_ik_position_only_needs_no_orientation(capsys, tmp_path):
    model = bundled()
    status, out, err = call(capsys, 'ik', '--xyz', '0.4', '0.2', '0.3', '--position-only')
    assert status == 0, err
    assert 'orientation' not in out and 'rpy' not in out
    assert '(position only)' in out.splitlines()[0]
    status, out, err = call(capsys, 'ik', '--xyz', '0.4', '0.2', '0.3', '--position-only',
                            '--format', 'json')
    assert status == 0, err
    result = json.loads(out)
    assert 'orientation_error' not in result and result['position_only'] is True
    q = np.array([result['q'][name] for name in model.configuration_names])
    reached = model.forward_kinematics(q).transform('tool0')[:3, 3]
    assert np.abs(reached - [0.4, 0.2, 0.3]).max() < 1e-5

    text = tmp_path / 'points.csv'
    text.write_text('0.4 0.2 0.3\n0.3, -0.2, 0.4\n')
    listed = tmp_path / 'points.json'
    listed.write_text(json.dumps([{'xyz': [0.4, 0.2, 0.3]}, {'xyz': [0.3, -0.2, 0.4]}]))
    for path in (text, listed):
        status, out, err = call(capsys, 'ik', '--targets', path, '--position-only', '-q')
        assert status == 0, err
        assert 'ori_err' not in out.splitlines()[1]
        status, out, err = call(capsys, 'ik', '--targets', path, '--position-only',
                                '--format', 'json', '-q')
        results = json.loads(out)['results']
        assert len(results) == 2 and all('orientation_error' not in r for r in results)
    status, out, err = call(capsys, 'ik', '--targets', text)
    assert_one_line_error(status, out, err, 'got 3 numbers', '--position-only')


def test_default_seed_and_configuration_lie_within_the_limits(capsys):
    path = panda_path()
    model = Robot.from_urdf_file(path)
    assert not model.lower[3] <= 0.0 <= model.upper[3]     # panda_joint4 excludes 0
    status, out, err = call(capsys, 'ik', '--urdf', path, '--link', 'panda_hand',
                            '--xyz', '0.4', '0.2', '0.5', '--rpy', '3.14159', '0', '0')
    assert status == 0, err
    assert err == ''
    status, out, err = call(capsys, 'fk', '--urdf', path, '--format', 'json')
    assert status == 0 and err == ''
    configuration = json.loads(out)['configuration']
    assert configuration['panda_joint4'] == model.upper[3]
    assert configuration['panda_joint1'] == 0.0


def test_values_beyond_the_limits_warn_once_in_every_command_and_q_silences(capsys, tmp_path):
    path = panda_path()
    targets = tmp_path / 't.csv'
    targets.write_text('0.4 0.2 0.5 3.14159 0 0\n' * 10)
    commands = [['fk', '--links', 'panda_hand'], ['jacobian', '--link', 'panda_hand'],
                ['com'], ['ik', '--link', 'panda_hand', '--xyz', '0.4', '0.2', '0.5',
                          '--position-only'],
                ['ik', '--link', 'panda_hand', '--targets', targets, '--chunk', '1']]
    for command in commands:
        status, out, err = call(capsys, '--urdf', path, *command, 'panda_joint1=10')
        assert status == 0, err
        warnings = [line for line in err.splitlines() if 'WARNING' in line]
        assert len(warnings) == 1, err
        assert 'beyond the joint limits: panda_joint1=10 (limits -2.8973 to 2.8973)' in \
            warnings[0]
        status, out, err = call(capsys, '--urdf', path, *command, 'panda_joint1=10', '-q')
        assert status == 0 and err == '', err


def test_verbose_adds_the_informational_messages_of_the_core(capsys):
    args = ['ik', '--xyz', '0.4', '0.2', '0.3', '--position-only', '--active-joints',
            'shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_joint', 'left_finger_joint']
    status, out, err = call(capsys, *args)
    assert status == 0 and 'INFO' not in err
    status, out, err = call(capsys, '-v', *args)
    assert 'INFO' in err and 'left_finger_joint' in err
    status, out, err = call(capsys, '-v', '-q', *args)
    assert_one_line_error(status, out, err, '-q', '-v', code=2)


def test_ik_on_a_robot_without_joints_is_refused_cleanly(capsys, tmp_path):
    path = tmp_path / 'rigid.urdf'
    path.write_text(urdf('<link name="a"/><link name="b"/>'
                         '<joint name="j" type="fixed"><parent link="a"/><child link="b"/>'
                         '</joint>', 'rigid'))
    for target in (['--xyz', '0', '0', '0', '--rpy', '0', '0', '0'],
                   ['--targets', path.with_suffix('.csv')]):
        path.with_suffix('.csv').write_text('0 0 0 0 0 0\n')
        status, out, err = call(capsys, 'ik', '--urdf', path, '--link', 'b', *target)
        assert_one_line_error(status, out, err, "robot 'rigid' has no joints to move")
    status, out, err = call(capsys, 'ik', '--link', 'base_link', '--xyz', '0', '0', '0',
                            '--position-only')
    assert_one_line_error(status, out, err, "link 'base_link' is not moved by any joint")


def test_config_file_with_many_configurations_says_it_takes_one(capsys, tmp_path):
    path = tmp_path / 'batch.json'
    path.write_text(json.dumps([[0.0] * 7, [0.1] * 7]))
    status, out, err = call(capsys, 'fk', '--config', path)
    assert_one_line_error(status, out, err, 'one configuration', 'ik --targets')
    assert '(B, 7)' not in err
    status, out, err = call(capsys, 'fk', '--help')
    assert '(B, 7)' not in out


def test_batch_progress_and_summary_agree(capsys, tmp_path):
    targets = tmp_path / 't.csv'
    targets.write_text('5 0 0 0 0 0\n' * 30)     # out of reach: none is solved
    status, out, err = call(capsys, 'ik', '--targets', targets, '--chunk', '10',
                            '--max-iterations', '20')
    assert status == cli.EXIT_NOT_CONVERGED
    lines = err.splitlines()
    assert lines[-1].startswith('frame-kinematics: solved 0 of 30 targets in ')
    assert [line.split(' (')[0] for line in lines[:-1]] == [
        f'frame-kinematics: {done}/30 targets tried, 0 solved' for done in (10, 20, 30)]


def test_mimic_joints_set_their_master(capsys, tmp_path):
    path = mimic_urdf(tmp_path)
    model = Robot.from_urdf_file(path)
    assert model.configuration_names == ('a',)
    status, out, err = call(capsys, 'fk', '--urdf', path, 'b=1.1', '--format', 'json')
    assert status == 0, err
    assert json.loads(out)['configuration'] == {'a': pytest.approx(0.5)}
    status, out, err = call(capsys, 'fk', '--urdf', path, 'a=0.5', 'b=1.1')
    assert status == 0, err
    config = tmp_path / 'js.yaml'
    config.write_text('name: [a, b]\nposition: [0.5, 1.1]\nvelocity: [1.0, 2.0]\n')
    status, out, err = call(capsys, 'com', '--urdf', path, '--config', config,
                            '--format', 'json')
    assert status == 0, err
    assert json.loads(out)['velocity'] == {'a': pytest.approx(1.0)}
    status, out, err = call(capsys, 'fk', '--urdf', path, 'a=0.4', 'b=1.1')
    assert_one_line_error(status, out, err, "'b'", "mimic of 'a'", 'a=0.4', 'a=0.5')
    path = mimic_urdf(tmp_path, multiplier='0')
    status, out, err = call(capsys, 'fk', '--urdf', path, 'b=1')
    assert_one_line_error(status, out, err, "'b'", 'multiplier 0', 'give a')


def test_json_q_is_a_mapping_for_one_target_and_for_each_of_a_batch(capsys, tmp_path):
    model = bundled()
    status, out, err = call(capsys, 'ik', '--xyz', '0.4', '0.2', '0.3', '--position-only',
                            '--format', 'json')
    assert list(json.loads(out)['q']) == list(model.configuration_names)
    targets = tmp_path / 't.json'
    targets.write_text(json.dumps([{'xyz': [0.4, 0.2, 0.3]}] * 2))
    status, out, err = call(capsys, 'ik', '--targets', targets, '--position-only',
                            '--format', 'json')
    assert status == 0, err
    for item in json.loads(out)['results']:
        assert list(item['q']) == list(model.configuration_names)


def test_jacobian_help_examples_are_not_singular(capsys):
    status, out, err = call(capsys, 'jacobian', '--help')
    examples = out.split('example:')[1].split('\n\n')[0].replace('\\\n', ' ')
    commands = [line.split()[1:] for line in examples.splitlines()
                if line.strip().startswith('frame-kinematics')]
    assert len(commands) == 2
    for command in commands:
        status, out, err = call(capsys, *command, '--format', 'json')
        assert status == 0, err
        assert json.loads(out)['manipulability'] > 1e-2, command


@pytest.mark.parametrize('args, words', [
    (['ik', '--position-only', '--xyz', '0.4', '0', '0.3', '--restarts', '-1'],
     ["--restarts must be a whole number >= 0, got '-1'"]),
    (['ik', '--targets', 't.csv', '--chunk', '0'],
     ["--chunk must be a whole number >= 1, got '0'"]),
    (['ik', '--position-only', '--xyz', '0.4', '0', '0.3', '--time-budget', 'nan'],
     ['--time-budget must be a number > 0']),
    (['ik', '--position-only', '--xyz', '0.4', '0', '0.3', '--max-iterations', '1.5'],
     ["--max-iterations must be a whole number >= 1, got '1.5'"]),
    (['ik', '--position-only', '--xyz', '0.4', '0', '0.3', '--position-tolerance', '0'],
     ['--position-tolerance must be a number > 0']),
    (['fk', '--precision', '18'], ['--precision must be a whole number between 0 and 17']),
    (['render', '-o', 'x.gif', '--to', 'elbow_joint=1', '--frames', '1'],
     ['--frames must be a whole number between 2 and 200']),
    (['render', '-o', 'x.gif', '--to', 'elbow_joint=1', '--fps', '0'],
     ['--fps must be a number > 0']),
])
def test_bad_option_values_are_usage_errors_in_the_options_words(capsys, args, words):
    status, out, err = call(capsys, *args)
    assert_one_line_error(status, out, err, *words, code=2)
    assert 'None' not in err


def test_a_latin1_urdf_that_declares_its_encoding_is_read(capsys, tmp_path):
    path = tmp_path / 'latin1.urdf'
    path.write_bytes('<?xml version="1.0" encoding="ISO-8859-1"?>\n<robot name="caf\u00e9">'
                     '<link name="b\u00e4se"/></robot>\n'.encode('latin-1'))
    status, out, err = call(capsys, 'info', '--urdf', path)
    assert status == 0, err
    assert out.startswith('robot caf\u00e9:') and 'b\u00e4se' in out


def test_setup_py_has_no_obsolete_or_unused_options():
    import ast
    setup_py = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            'setup.py')
    with open(setup_py, encoding='utf-8') as handle:
        tree = ast.parse(handle.read())
    call_node = next(node for node in ast.walk(tree) if isinstance(node, ast.Call) and
                     getattr(node.func, 'id', None) == 'setup')
    keywords = {k.arg: k.value for k in call_node.keywords}
    assert 'tests_require' not in keywords
    requires = ast.literal_eval(keywords['install_requires'])
    assert not any(r.startswith('setuptools') for r in requires)
    assert keywords['entry_points'] is not None
    scripts = ast.literal_eval(keywords['entry_points'])['console_scripts']
    assert 'frame-kinematics = frame_kinematics.cli:main' in scripts


def test_info_shows_the_collision_flags(capsys):
    status, out, err = call(capsys, 'info')
    assert status == 0, err
    assert out.splitlines()[-2] == 'collision pairs to test: 55 of 66 (11 parent/child pairs off)'
    status, out, err = call(capsys, 'info', '--format', 'json')
    assert json.loads(out)['collision'] == {'pairs': 66, 'parent_child': 11, 'srdf_disabled': 0,
                                            'tested': 55, 'srdf_disabled_pairs': []}


def test_info_with_an_srdf_counts_its_disabled_pairs(capsys):
    path = moveit_resource('panda_description/urdf/panda.urdf')
    srdf = moveit_resource('panda_moveit_config/config/panda.srdf')
    status, out, err = call(capsys, 'info', '--urdf', path, '--srdf', srdf)
    assert status == 0, err
    assert out.splitlines()[-2] == (f'collision pairs to test: 30 of 66 (11 parent/child pairs '
                                    f'off, 34 pairs disabled by {srdf})')
    status, out, err = call(capsys, 'info', '--urdf', path, '--srdf', srdf, '--format', 'json')
    collision = json.loads(out)['collision']
    assert collision['tested'] == 30 and collision['srdf_disabled'] == 34
    assert ['panda_leftfinger', 'panda_rightfinger', 'Default'] in \
        collision['srdf_disabled_pairs']


def test_info_refuses_a_bad_srdf_in_one_line(capsys, tmp_path):
    status, out, err = call(capsys, 'info', '--srdf', tmp_path / 'missing.srdf')
    assert_one_line_error(status, out, err, 'missing.srdf')
    wrong = tmp_path / 'wrong.srdf'
    wrong.write_text('<robot><disable_collisions link1="tool0" link2="elsewhere"/></robot>')
    status, out, err = call(capsys, 'info', '--srdf', wrong)
    assert_one_line_error(status, out, err, "unknown link 'elsewhere'")
