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
Input files of the command line (configurations, targets, constraints) and xacro documents.

Each is read once and bounded, whatever it is (a file, a device, a FIFO), holds the shape and
types its option takes, and is refused in one line when not; a xacro expansion is stopped
after a while. Inputs that could exhaust memory or block run the program in a subprocess with a
memory limit and a timeout (:func:`test_cli_bad_inputs.run`). Configurations
(:mod:`frame_kinematics.cli.inputs`): the forms of a ``--config`` file, defaults within the
joint limits, the warning for values beyond them, a mimic joint given for its master.
"""

import json
import os

from cli_testing import assert_one_line_error, call, XACRO
from conftest import bundled, erd_urdf, link_xml, random_configuration, urdf
from frame_kinematics.cli import inputs
from frame_kinematics.core import Robot
import numpy as np
import pytest
from test_cli_bad_inputs import assert_fifo_without_writer_refused, run

HUGE = 10 ** 400
#: Options that read a file of JSON or YAML, with the command around them.
FILE_OPTIONS = [
    (['fk', '--config'], 'q.json'),
    (['ik', '--position-only', '--targets'], 't.json'),
    (['ik', '--position-only', '--targets'], 't.csv'),
    (['relative-motion', '--constraints'], 'c.yaml'),
    (['render', '-o', 'strip.png', '--to-config'], 'q.yaml'),
]


# -- numbers -----------------------------------------------------------------------------------
@pytest.mark.parametrize('document, name', [
    ({'shoulder_pan_joint': HUGE}, 'shoulder_pan_joint'),
    ({'elbow_joint': -HUGE}, 'elbow_joint'),
    ({'right_finger_joint': HUGE}, 'right_finger_joint'),
    ({'positions': {}, 'velocities': {'wrist_1_joint': HUGE}}, 'wrist_1_joint'),
    ({'name': ['elbow_joint'], 'position': [0.1], 'velocity': [HUGE]}, 'elbow_joint'),
    ([0, 0, HUGE, 0, 0, 0, 0], '[2]'),
])
def test_huge_integers_in_a_configuration_are_refused(capsys, tmp_path, document, name):
    path = tmp_path / 'q.json'
    path.write_text(json.dumps(document))
    status, out, err = call(capsys, 'fk', '--config', path)
    assert_one_line_error(status, out, err, name, 'exceeds 1e+16 in magnitude', '...')


def test_huge_integers_in_targets_are_refused(capsys, tmp_path):
    path = tmp_path / 't.json'
    path.write_text(json.dumps([{'xyz': [0.3, HUGE, 0.4]}]))
    status, out, err = call(capsys, 'ik', '--position-only', '--targets', path)
    assert_one_line_error(status, out, err, 'target 0 y', 'exceeds 1e+16 in magnitude')


# -- the shape of a JointState -----------------------------------------------------------------
@pytest.mark.parametrize('document, words', [
    ({'name': ['elbow_joint'], 'position': 5}, ["'position' must be a list of numbers, got int"]),
    ({'name': ['elbow_joint'], 'position': [1], 'velocity': {'elbow_joint': 1}},
     ["'velocity' must be a list of numbers, got dict"]),
    ({'name': [[1]], 'position': [1]}, ["'name' must be a list of joint names, item 0 is [1]"]),
    ({'name': ['elbow_joint', None], 'position': [1, 2]}, ['item 1 is None']),
    ({'name': ['elbow_joint', 'elbow_joint'], 'position': [1, 2]},
     ["'name' gives the joint 'elbow_joint' twice"]),
    ({'name': ['elbow_joint'], 'position': [[1]]}, ['malformed number [1]', 'elbow_joint']),
    ({'name': ['elbow_joint'], 'position': [1, 2]}, ["'position' has 2 values for 1 names"]),
])
def test_malformed_joint_states_name_the_field(capsys, tmp_path, document, words):
    path = tmp_path / 'joint_states.json'
    path.write_text(json.dumps(document))
    status, out, err = call(capsys, 'fk', '--config', path)
    assert_one_line_error(status, out, err, *words)


def test_a_joint_state_without_velocities_is_read(capsys, tmp_path):
    path = tmp_path / 'joint_states.json'
    path.write_text(json.dumps({'name': ['elbow_joint'], 'position': [0.5], 'velocity': [],
                                'effort': None}))
    status, out, err = call(capsys, 'fk', '--config', path, '--format', 'json')
    assert status == 0, err
    assert json.loads(out)['configuration']['elbow_joint'] == 0.5


# -- bounded reads -----------------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
@pytest.mark.parametrize('command, name', FILE_OPTIONS)
def test_a_fifo_input_file_without_a_writer_is_refused(tmp_path, command, name):
    fifo = tmp_path / name
    assert_fifo_without_writer_refused(fifo, [*command, fifo], timeout=60)


@pytest.mark.skipif(not os.path.exists('/dev/zero'), reason='needs /dev/zero')
@pytest.mark.parametrize('command', [
    ['fk', '--config'], ['ik', '--position-only', '--targets'],
    ['relative-motion', '--constraints']])
def test_an_endless_device_input_is_refused_at_the_size_limit(command):
    proc = run(*command, '/dev/zero')
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr,
                          "file '/dev/zero': larger than the limit of 67108864 bytes")


@pytest.mark.parametrize('command, name', FILE_OPTIONS)
def test_an_input_file_over_the_limit_is_refused(capsys, tmp_path, monkeypatch, command,
                                                 name):
    monkeypatch.setattr(inputs, 'MAX_FILE_BYTES', 100)
    path = tmp_path / name
    path.write_text(' ' * 101)
    status, out, err = call(capsys, *[tmp_path / c if c == 'strip.png' else c
                                      for c in command], path)
    assert_one_line_error(status, out, err, f"file '{path}': larger than the limit of 100 "
                          'bytes')


def test_an_input_file_that_is_not_utf8_is_refused(capsys, tmp_path):
    path = tmp_path / 't.csv'
    path.write_bytes(b'0.3 0.1 \xff\n')
    status, out, err = call(capsys, 'ik', '--position-only', '--targets', path)
    assert_one_line_error(status, out, err, f"file '{path}': not UTF-8 text",
                          'invalid start byte at byte 8')


@pytest.mark.parametrize('name, text, args', [
    ('q.json', '{"elbow_joint": 1.0}', ['fk', '--config']),
    ('t.csv', '0.3 0.2 0.5\n', ['ik', '--position-only', '--max-iterations', '20', '--targets']),
])
def test_an_input_file_with_a_utf8_signature_is_read(capsys, tmp_path, name, text, args):
    path = tmp_path / name
    path.write_bytes(b'\xef\xbb\xbf' + text.encode('utf-8'))  # as Excel's "CSV UTF-8"
    status, out, err = call(capsys, *args, path)
    assert status in (0, 3) and out, err  # 3: a target not reached is still an answer
    assert 'error' not in err


# -- YAML anchors and aliases ------------------------------------------------------------------
def test_a_yaml_alias_bomb_is_refused_before_it_expands(tmp_path):
    pytest.importorskip('yaml')
    path = tmp_path / 'bomb.yaml'
    lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]']
    lines += [f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 9)}]" for k in range(1, 12)]
    path.write_text('\n'.join(lines) + '\n')
    proc = run('fk', '--config', path, timeout=60)
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, f'{path} line 1: YAML '
                          'anchors and aliases (&name, *name) are not accepted')


@pytest.mark.parametrize('text, line', [
    ('elbow_joint: 0.5\nwrist_1_joint: &v 0.2\nwrist_2_joint: *v\n', 2),
    ('- {xyz: &p [0.3, 0, 0.4]}\n- {xyz: *p}\n', 1),
])
def test_any_yaml_anchor_or_alias_is_refused(capsys, tmp_path, text, line):
    pytest.importorskip('yaml')
    path = tmp_path / 'q.yaml'
    path.write_text(text)
    command = ['fk', '--config'] if text.startswith('elbow') else \
        ['ik', '--position-only', '--targets']
    status, out, err = call(capsys, *command, path)
    assert_one_line_error(status, out, err, f'{path} line {line}: YAML anchors and aliases')


@pytest.mark.parametrize('name, text, key', [
    ('q.json', '{"elbow_joint": 1, "elbow_joint": 2}', 'elbow_joint'),
    ('q.yaml', 'elbow_joint: 1\nelbow_joint: 2\n', 'elbow_joint'),
    ('q.yaml', 'position: {elbow_joint: 1}\nname: [elbow_joint]\nposition: [2]\n', 'position'),
    ('q.yaml', '{a: {b: 1, c: [{d: 1}, {d: 2}], b: 2}}', 'b'),
])
def test_a_key_given_twice_in_a_mapping_is_refused(capsys, tmp_path, name, text, key):
    if name.endswith('.yaml'):
        pytest.importorskip('yaml')
    path = tmp_path / name
    path.write_text(text)
    status, out, err = call(capsys, 'fk', '--config', path)
    assert_one_line_error(status, out, err, f"{path}: the key '{key}' is given twice in one "
                                            'mapping')


def test_mappings_in_a_list_may_share_keys(tmp_path):
    pytest.importorskip('yaml')
    from frame_kinematics.cli.inputs import read_document
    path = tmp_path / 'targets.yaml'
    path.write_text('- {xyz: [0.3, 0, 0.4], rpy: [0, 0, 0]}\n- {xyz: [0.3, 0.1, 0.4], '
                    'rpy: [0, 0, 0]}\n')
    assert [sorted(item) for item in read_document(str(path))] == [['rpy', 'xyz']] * 2


def test_a_yaml_value_yaml_cannot_build_is_one_line(capsys, tmp_path):
    pytest.importorskip('yaml')
    path = tmp_path / 'q.yaml'
    path.write_text('elbow_joint: 1' + '0' * 5000 + '\n')
    status, out, err = call(capsys, 'fk', '--config', path)
    assert_one_line_error(status, out, err, f'{path} is not valid YAML or JSON')


# -- xacro -------------------------------------------------------------------------------------
@pytest.mark.parametrize('body', [
    '<link name="${9**9**9}"/>',
    '<xacro:include filename="fifo.xacro"/><link name="a"/>',
])
def test_a_xacro_expansion_that_does_not_end_is_stopped(tmp_path, body):
    pytest.importorskip('xacro')
    if 'fifo' in body and not hasattr(os, 'mkfifo'):
        pytest.skip('needs FIFOs')
    if 'fifo' in body:
        os.mkfifo(tmp_path / 'fifo.xacro')
    path = tmp_path / 'robot.urdf.xacro'
    path.write_text(XACRO.format(body))
    code = ('import sys; from frame_kinematics import cli; '
            'from frame_kinematics.cli import robot_input; '
            'robot_input.XACRO_TIMEOUT_SECONDS = 1; '
            f'sys.exit(cli.main(["--urdf", {str(path)!r}, "info"]))')
    proc = run(code=code, timeout=60)
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr,
                          f'{path}: xacro did not expand it within 1 s')


def test_a_huge_constraint_is_quoted_by_its_start(capsys, tmp_path):
    path = tmp_path / 'c.json'
    path.write_text(json.dumps([{'lock': 'elbow_joint', 'mask': [1] * 100_000}]))
    status, out, err = call(capsys, 'relative-motion', '--constraints', path)
    assert_one_line_error(status, out, err, 'a locked joint takes no mask', '... (')
    assert len(err) < 300


# -- configurations and their files ------------------------------------------------------------
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


def test_config_file_with_many_configurations_says_it_takes_one(capsys, tmp_path):
    path = tmp_path / 'batch.json'
    path.write_text(json.dumps([[0.0] * 7, [0.1] * 7]))
    status, out, err = call(capsys, 'fk', '--config', path)
    assert_one_line_error(status, out, err, 'one configuration', 'ik --targets')
    assert '(B, 7)' not in err
    status, out, err = call(capsys, 'fk', '--help')
    assert '(B, 7)' not in out


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


@pytest.mark.parametrize('pair', ['x' * 100_000, 'x' * 100_000 + '=1'])
def test_a_huge_pair_is_quoted_by_an_excerpt(capsys, pair):
    status, out, err = call(capsys, 'fk', pair, pair)
    assert_one_line_error(status, out, err, '... (100000 characters)')
    assert len(err) < 300
