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
Bad inputs of the command line: one clear line and the right exit status, never a hang.

Inputs that could exhaust memory or block (devices, pipes, FIFOs, closed streams, huge
models) run the real program in a subprocess with an address-space limit and a timeout, so
that a regression fails the test instead of taking the machine down.
"""

import json
import os
import subprocess
import sys

from cli_testing import assert_one_line_error, call
from conftest import joint_xml, link_xml, urdf
import frame_kinematics
import pytest
from test_urdf import MACRO_ARM
from urdf_testing import chain_urdf

#: Address space a subprocess may use (numpy and a model fit well within it).
MEMORY_LIMIT = 1536 * 1024 * 1024
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(frame_kinematics.__file__)))


def _limit_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run(*args, stdin=None, code=None, shell=None, timeout=120):
    """Run the command line (or ``python -c code``, or a shell line) with a memory limit."""
    pytest.importorskip('resource')
    env = dict(os.environ, PYTHONPATH=ROOT, FRAME_KINEMATICS_BACKEND='numpy',
               OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1')
    if shell is not None:
        command = ['sh', '-c', shell.replace('PROGRAM', f"'{sys.executable}' -m "
                                             'frame_kinematics')]
    elif code is not None:
        command = [sys.executable, '-c', code]
    else:
        command = [sys.executable, '-m', 'frame_kinematics', *map(str, args)]
    return subprocess.run(command, input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=env, preexec_fn=_limit_memory)


def assert_fifo_without_writer_refused(fifo, args, timeout=120):
    """
    Make the FIFO ``fifo``, which no process writes: the command line must refuse it.

    The program runs in a subprocess (:func:`run`) with the FIFO wait cut to 0.2 s, and must
    end with one line saying that no process wrote to ``fifo`` within it.

    :param args: the command line's arguments, ``fifo`` among them.
    :param timeout: seconds the subprocess may take.
    """
    os.mkfifo(fifo)
    code = ('import sys; from frame_kinematics import cli; '
            'from frame_kinematics.core import file_input; '
            'file_input.FIFO_WAIT_SECONDS = 0.2; '
            f'sys.exit(cli.main({[str(arg) for arg in args]!r}))')
    proc = run(code=code, timeout=timeout)
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr,
                          f"error: file '{fifo}': no process wrote to this FIFO within 0.2 s")


ARM = urdf(link_xml('a') + link_xml('b', 1.0) +
           joint_xml('j', 'revolute', 'a', 'b', xyz='0 0 0.5'), 'pipe_arm')


# -- --urdf: read once, bounded, never blocking ----------------------------------------------
@pytest.mark.skipif(not os.path.exists('/dev/zero'), reason='needs /dev/zero')
def test_endless_device_is_refused_at_the_size_limit():
    proc = run('--urdf', '/dev/zero', 'fk')
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, '/dev/zero',
                          'larger than the limit of 67108864 bytes')


@pytest.mark.skipif(not os.path.exists('/dev/stdin'), reason='needs /dev/stdin')
def test_a_pipe_is_read_once():
    proc = run('--urdf', '/dev/stdin', 'info', stdin=ARM)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith('robot pipe_arm: 2 links')
    proc = run(shell='cat | PROGRAM --urdf /dev/stdin fk --links b', stdin=ARM)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[2].split()[:4] == ['b', '0.000000', '0.000000', '0.500000']


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
def test_a_fifo_without_a_writer_is_refused_after_a_wait(tmp_path):
    fifo = tmp_path / 'robot.urdf'
    assert_fifo_without_writer_refused(fifo, ['--urdf', fifo, 'info'])


# -- xacro -------------------------------------------------------------------------------------
def test_xacro_files_are_expanded(capsys, tmp_path):
    pytest.importorskip('xacro')
    path = tmp_path / 'arm.urdf.xacro'
    path.write_text(MACRO_ARM)
    status, out, err = call(capsys, 'fk', '--urdf', path, '--links', 'left_tip',
                            'left_joint=0.3')
    assert status == 0, err
    assert out.splitlines()[2].split()[:4] == ['left_tip', '0.000000', '0.000000', '0.500000']
    # xacro detected on the bytes of a pipe, whatever its name
    proc = run('--urdf', '/dev/stdin', 'info', stdin=MACRO_ARM)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith('robot macro_arm: 3 links')


def test_xacro_without_the_xacro_package_says_what_to_install(capsys, tmp_path, monkeypatch):
    path = tmp_path / 'robot.urdf.xacro'
    path.write_text(MACRO_ARM)
    monkeypatch.setitem(sys.modules, 'xacro', None)
    status, out, err = call(capsys, 'info', '--urdf', path)
    assert_one_line_error(status, out, err, f'{path} is a xacro document: expanding it needs '
                          "the python package 'xacro' (pip install xacro)")
    # a URDF made by xacro may keep the namespace and macros in comments: it is read as it is
    made = tmp_path / 'made.urdf'
    made.write_text('<?xml version="1.0"?>\n<robot name="r" '
                    'xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '<!-- <xacro:arm prefix="left"/> -->\n<link name="a"/>\n</robot>\n')
    status, out, err = call(capsys, 'info', '--urdf', made)
    assert status == 0, err


# -- one rule per kind of option value --------------------------------------------------------
@pytest.mark.parametrize('args, words', [
    (['--urdf', '', 'fk'], ['--urdf must not be empty']),
    (['fk', '--robot', ''], ["--robot must be a bundled robot (fk_arm, fk_quadruped), got ''"]),
    (['jacobian', '--link', ''], ['--link must not be empty']),
    (['fk', '--links', 'tool0', ''], ['--links must not be empty']),
    (['fk', '--relative-to', ' '], ['--relative-to must not be empty']),
    (['fk', '--config', ''], ['--config must not be empty']),
    (['ik', '--targets', ''], ['--targets must not be empty']),
    (['relative-motion', '--lock', ''], ['--lock must not be empty']),
    (['render', '-o', ''], ['-o/--output must not be empty']),
    (['ik', '--xyz', '0.4', '0', '0.3', '--rpy', '1e300', '0', '0'],
     ['--rpy must be a number >= -1e+16 and <= 1e+16', "'1e300'"]),
    (['ik', '--xyz', '0.3', 'o', '0.4', '--rpy', '0', '0', '0'], ['--xyz', "'o'"]),
    (['jacobian', '--point', '0', 'x', '0'], ['--point', "'x'"]),
    (['render', '-o', 'p.png', '--view', '1e17', '0'], ['--view']),
    (['render', '-o', 'p.gif', '--to', 'elbow_joint=1', '--frames', '100000'],
     ['--frames must be a whole number between 2 and 200', "'100000'"]),
    (['render', '-o', 'p.png', '--axis-length', '1e300'],
     ['--axis-length must be a number > 0 and <= 1e+16']),
    (['ik', '--xyz', '0.4', '0', '0.3', '--position-only', '--max-iterations', '1e30'],
     ['--max-iterations must be a whole number >= 1']),
    (['ik', '--xyz', '0.4', '0', '0.3', '--position-only', '--max-iterations', '10' * 15],
     ['--max-iterations must be a whole number <= 1000000000']),
    (['ik', '--xyz', '0.4', '0', '0.3', '--position-only', '--time-budget', '1e9'],
     ["--time-budget must be a number > 0 and <= 3600 or 'none', got '1e9'"]),
    (['ik', '--xyz', '0.4', '0', '0.3', '--position-only', '--time-budget', '0'],
     ["--time-budget must be a number > 0 and <= 3600 or 'none', got '0'"]),
    (['ik', '--xyz', '0.4', '0', '0.3', '--position-only', '--rpy', '0', '0', '0'],
     ['give either --position-only or --rpy/--quat, not both']),
    (['ik', '--xyz', '0.3', '0', '0.4', '--quat', '0', '0', '0', '2'],
     ['--quat [x y z w] has norm 2, expected a unit quaternion']),
    (['ik', '--xyz', '0.3', '0', '0.4', '--quat', '0', '0', '0', '0'],
     ['--quat [x y z w] has norm 0, expected a unit quaternion']),
    (['ik', '--targets', 't.csv', '--xyz', '0.3', '0', '0.4'],
     ['give either --targets or --xyz/--rpy/--quat, not both']),
    (['info', '--urdf', 'a.urdf', '--robot', 'fk_arm'], ['--urdf', '--robot']),
    (['jacobian', '--link', 'tool0', '--link', 'wrist_3_link'], ['--link is given twice']),
    (['--urdf', 'a.urdf', 'info', '--urdf', 'b.urdf'], ['--urdf is given before and after']),
    (['--robot', 'nope', 'info'],
     ["--robot must be a bundled robot (fk_arm, fk_quadruped), got 'nope'"]),
    (['ik', '--rpy', '0', '0', '0'], ['give the target with --xyz X Y Z']),
    (['ik', '--xyz', '0.4', '0', '0.3'], ['target: give the orientation as rpy']),
    (['ik', '--xyz', '0.4', '0', '0.3', '--position-only', '--active-joints', 'elbow_joint',
      'elbow_joint'], ["--active-joints names 'elbow_joint' twice"]),
    (['relative-motion', '--lock', 'wrist_3_joint', '--lock', 'wrist_3_joint'],
     ["--lock names 'wrist_3_joint' twice"]),
    (['relative-motion', '--lock', 'wrist_3_joint', '--lock-parameterized', 'wrist_3_joint'],
     ["'wrist_3_joint' is given to --lock and to --lock-parameterized: give it to one"]),
    (['render', '-o', 'picture.jpg'], ["-o/--output: output 'picture.jpg' must end with .png"]),
    (['render', '-o', '/nonexistent/folder/p.png'],
     ["-o/--output: output folder does not exist: '/nonexistent/folder'"]),
])
def test_bad_option_values_are_usage_errors(capsys, args, words):
    status, out, err = call(capsys, *args)
    assert_one_line_error(status, out, err, *words, code=2)


def test_numbers_in_pairs_have_the_same_magnitude_cap(capsys):
    status, out, err = call(capsys, 'fk', 'elbow_joint=1e300')
    assert_one_line_error(status, out, err, 'elbow_joint', 'exceeds 1e+16')


def test_repeated_options_of_many_values_collect_them_all(capsys):
    status, out, err = call(capsys, 'fk', '--links', 'tool0', '--links', 'base_link')
    assert status == 0, err
    assert [line.split()[0] for line in out.splitlines()[2:]] == ['tool0', 'base_link']
    status, out, err = call(capsys, 'relative-motion', '--lock', 'elbow_joint', '--lock',
                            'wrist_1_joint', '--format', 'json')
    assert status == 0, err
    assert [c['lock'] for c in json.loads(out)['constraints']] == ['elbow_joint',
                                                                   'wrist_1_joint']


# -- output streams ----------------------------------------------------------------------------
def test_closed_stdout_and_broken_pipe_stop_quietly(tmp_path):
    proc = run(shell='PROGRAM fk >&-')
    assert (proc.returncode, proc.stderr) == (1, '')
    path = tmp_path / 'chain.urdf'
    path.write_text(chain_urdf(200))
    proc = run(shell=f"PROGRAM --urdf '{path}' fk | head -n 1")
    assert proc.returncode == 0
    assert proc.stdout.startswith('# chain: poses in l0')
    assert proc.stderr == ''


@pytest.mark.skipif(not os.path.exists('/dev/full'), reason='needs /dev/full')
@pytest.mark.parametrize('command', ['fk', '--help', '--version', 'ik --help'])
def test_output_that_cannot_be_written_is_an_error_naming_stdout(command):
    proc = run(shell=f'PROGRAM {command} > /dev/full')
    assert proc.returncode == 1
    assert proc.stderr == ('frame-kinematics: error: cannot write the output (stdout): No '
                           'space left on device\n')


@pytest.mark.skipif(not os.path.exists('/dev/full'), reason='needs /dev/full')
def test_a_picture_that_cannot_be_written_is_an_error_naming_it(tmp_path):
    pytest.importorskip('matplotlib')
    (tmp_path / 'full.png').symlink_to('/dev/full')
    (tmp_path / 'folder.png').mkdir()
    proc = run(shell=f"cd '{tmp_path}' && PROGRAM render -o full.png")
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr,
                          "cannot write 'full.png': No space left on device")
    proc = run(shell=f"cd '{tmp_path}' && PROGRAM render -o folder.png")
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr,
                          "-o/--output: output 'folder.png' is a folder", code=2)


def test_info_on_a_long_chain(tmp_path):
    path = tmp_path / 'chain.urdf'
    path.write_text(chain_urdf(1500))
    proc = run('--urdf', path, 'info')
    assert proc.returncode == 0, proc.stderr[-300:]
    lines = proc.stdout.splitlines()
    assert lines[0].startswith('robot chain: 1500 links, 1499 joints')
    assert lines[-3].endswith('j1499 (revolute, axis 0 0 1, [-2, 2] rad, vmax 1 rad/s, '
                              'effort 1 N m) -> l1499 [no inertial]')


# -- files -------------------------------------------------------------------------------------
@pytest.mark.parametrize('name, command', [
    ('q.json', ['fk', '--config']),
    ('q.yaml', ['fk', '--config']),
    ('t.json', ['ik', '--position-only', '--targets']),
    ('c.yaml', ['relative-motion', '--constraints']),
    ('c.json', ['relative-motion', '--constraints']),
])
@pytest.mark.parametrize('depth', [40, 100_000])
def test_deeply_nested_files_are_refused(tmp_path, name, command, depth):
    if name.endswith('.yaml'):
        pytest.importorskip('yaml')
    path = tmp_path / name
    path.write_text('[' * depth + ']' * depth)
    proc = run(*command, path)
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, str(path),
                          'nests lists or mappings more than 16 deep')


@pytest.mark.parametrize('lock', ['[elbow_joint, wrist_1_joint]', '{joint: elbow_joint}', "''"])
def test_lock_takes_one_joint_name(capsys, tmp_path, lock):
    pytest.importorskip('yaml')
    path = tmp_path / 'c.yaml'
    path.write_text(f'- {{lock: {lock}}}\n')
    status, out, err = call(capsys, 'relative-motion', '--constraints', path)
    assert_one_line_error(status, out, err, 'lock takes one joint name')
