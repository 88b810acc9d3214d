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
"""Tests of frame_kinematics.cli.ik: ``frame-kinematics ik``."""

import json

from cli_testing import assert_one_line_error, call, run
from conftest import bundled, random_configuration, urdf
from frame_kinematics import cli
from frame_kinematics.core.spatial import quaternion_from_rotation, rpy_from_rotation
import numpy as np
import pytest


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
    results = json.loads(out)['results']
    assert len(results) == 2
    for item in results:
        assert list(item['q']) == list(model.configuration_names)


@pytest.mark.parametrize('args, words', [
    (['--targets', '/nonexistent/t.csv'], '/nonexistent/t.csv'),
    (['--xyz', '0.4', '0', '0.3'], 'target: give the orientation as rpy'),
    (['--xyz', '0.4', 'x', '0.3', '--position-only'], '--xyz must be a number'),
])
def test_targets_are_read_before_the_model_is_built(capsys, monkeypatch, args, words):
    def no_model(_args):
        raise AssertionError('the model was built before the targets were read')

    monkeypatch.setattr('frame_kinematics.cli.ik.model_of', no_model)
    status, out, err = call(capsys, 'ik', *args)
    assert status in (1, 2) and words in err and 'the model was built' not in err, err
