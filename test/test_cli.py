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
The ``frame-kinematics`` command line as a whole: :func:`frame_kinematics.cli.main`, ``__main__``.

Its contract with every command: an error is one line on stderr without a traceback, nothing on
stdout; ``-q`` and ``-v`` set what the core's log records print; ``python -m frame_kinematics``
and the console script run it. Each command's own tests are in ``test_cli_<module>.py``.
"""

import os
import sys

from cli_testing import assert_one_line_error, call, run
import pytest


def test_error_in_a_subprocess_is_one_line_without_traceback(tmp_path):
    bad = tmp_path / 'bad.urdf'
    bad.write_text('<robot name="x"><link name="a"/><joint name="j" type="revolute">')
    proc = run('--urdf', str(bad), 'info')
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, str(bad))
    proc = run('fk', '--no-such-option')
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, '--no-such-option',
                          code=2)


@pytest.mark.parametrize('args, words', [
    (['fk', '--links', 'tool0', 'nope'], ["unknown link 'nope'", 'tool0']),
    (['fk', 'foo=1', 'bar=2'], ['foo', 'bar', 'elbow_joint']),
    (['fk', 'elbow_joint=1,5'], ["malformed number '1,5'", 'elbow_joint']),
    (['fk', 'elbow_joint=1_0'], ["malformed number '1_0'", 'elbow_joint']),
    (['fk', 'elbow_joint=\u0661'], ["malformed number '\u0661'", 'elbow_joint']),
    (['fk', 'elbow_joint=nan'], ['elbow_joint', 'not a finite number']),
    (['fk', 'elbow_joint'], ["'elbow_joint'", 'NAME=VALUE']),
    (['fk', 'elbow_joint=1', 'elbow_joint=2'], ['elbow_joint', 'twice']),
    (['fk', '--relative-to', 'nowhere'], ["'nowhere'"]),
    (['info', '--urdf', '/nonexistent/robot.urdf'], ['/nonexistent/robot.urdf']),
    (['fk', '--config', '/nonexistent/q.yaml'], ['/nonexistent/q.yaml']),
    (['jacobian', '--robot', 'fk_quadruped'], ["'tool0'", '--link']),
    (['jacobian', '--link', 'tool1'], ["'tool1'"]),
    (['com', '--velocity', 'elbow_joint=fast'], ["'fast'", 'elbow_joint']),
    (['com', '--velocity', 'wrist_9=1'], ["'wrist_9'"]),
    (['fk', '--robot', 'fk_quadruped', '--floating-base', 'root_joint=0,0,1'],
     ['root_joint', '7 values']),
    (['fk', '--robot', 'fk_quadruped', '--floating-base', 'root_joint/qw=0.5'],
     ['root_joint', 'quaternion']),
    (['fk', '--robot', 'fk_quadruped', '--floating-base', 'root_joint=0,0,0.4,0,0,0,1',
      'root_joint/z=1'], ["'root_joint/z' is given twice: as 'root_joint' and as "
                          "'root_joint/z'"]),
    (['relative-motion', '--lock', 'nope_joint'], ["'nope_joint'"]),
    (['relative-motion', '--transform', 'tool0', 'tool0_fixed_joint'], ['itself']),
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


def test_verbose_adds_the_informational_messages_of_the_core(capsys):
    args = ['ik', '--xyz', '0.4', '0.2', '0.3', '--position-only', '--active-joints',
            'shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_joint', 'left_finger_joint']
    status, out, err = call(capsys, *args)
    assert status == 0 and 'INFO' not in err
    status, out, err = call(capsys, '-v', *args)
    assert 'INFO' in err and 'left_finger_joint' in err
    status, out, err = call(capsys, '-v', '-q', *args)
    assert_one_line_error(status, out, err, '-q', '-v', code=2)


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
    assert 'frame-kinematics = frame_kinematics.command:main' in scripts
