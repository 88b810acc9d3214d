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
Every code block of README.md runs as printed.

* ```python blocks run, each on its own, in a fresh interpreter (exit 0).
* In ```bash and ```console blocks, the commands that call the command line
  (``frame-kinematics ...`` or ``python3 -m frame_kinematics ...``, also after ``&&``) run;
  their exit status must be 0, or non-zero when the README shows an error line. The output
  the README shows (after ``$ command`` in a console block, or in the plain ``` block right
  after a bash block) must be what they print, times in ms or s aside.
* Blocks in the "## ROS 2 node" section need ROS and are not run, nor is a block preceded by
  the line ``<!-- no-test -->``.

The commands run against this checkout (``PYTHONPATH``) in a temporary folder.
"""

import os
import re
import shlex
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, 'README.md')
SKIPPED_SECTIONS = ('## ROS 2 node',)
NO_TEST = '<!-- no-test -->'
_PROGRAMS = (('frame-kinematics',), ('python3', '-m', 'frame_kinematics'))
_TIMES = re.compile(r'\d+(\.\d+)? m?s\b')


def readme_blocks():
    """``(line, language, text)`` of every fenced block outside the skipped sections."""
    with open(README, encoding='utf-8') as handle:
        lines = handle.read().splitlines()
    blocks = []
    section = ''
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.startswith('## '):
            section = line
        stripped = line.strip()
        if stripped.startswith('```'):
            language = stripped[3:].strip()
            start = k
            k += 1
            body = []
            while not lines[k].strip().startswith('```'):
                body.append(lines[k])
                k += 1
            indent = len(line) - len(line.lstrip())
            text = '\n'.join(b[indent:] for b in body)
            marked = start > 0 and lines[start - 1].strip() == NO_TEST or \
                start > 1 and not lines[start - 1].strip() and \
                lines[start - 2].strip() == NO_TEST
            if not section.startswith(SKIPPED_SECTIONS) and not marked:
                blocks.append((start + 1, language, text))
        k += 1
    return blocks


def _command(line):
    """Return the argument list of a command-line call, or ``None`` for another command."""
    words = shlex.split(line)
    for program in _PROGRAMS:
        if tuple(words[:len(program)]) == program:
            return [sys.executable, '-m', 'frame_kinematics'] + words[len(program):]
    return None


def shell_cases():
    """``(line, [(argv, expected output or None)])`` of every bash and console block."""
    blocks = readme_blocks()
    cases = []
    for k, (line, language, text) in enumerate(blocks):
        runs = []
        if language == 'bash':
            for command in text.replace('\\\n', ' ').splitlines():
                for part in command.split('&&'):
                    argv = _command(part.strip())
                    if argv is not None:
                        runs.append([argv, None])
            after = blocks[k + 1] if k + 1 < len(blocks) else None
            if runs and after is not None and after[1] == '':
                runs[-1][1] = after[2]
        elif language == 'console':
            for entry in re.split(r'^\$ ', text, flags=re.MULTILINE)[1:]:
                command, _, output = entry.partition('\n')
                argv = _command(command)
                if argv is not None:
                    runs.append([argv, output.rstrip('\n')])
        if runs:
            cases.append((line, [tuple(r) for r in runs]))
    return cases


def _environment():
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([ROOT] + [p for p in env.get('PYTHONPATH', '').split(
        os.pathsep) if p])
    return env


def _needs(argv):
    if 'render' in argv:
        pytest.importorskip('matplotlib')


def test_readme_has_blocks_of_every_kind():
    languages = [language for _, language, _ in readme_blocks()]
    assert languages.count('python') >= 1
    assert len(shell_cases()) >= 3


@pytest.mark.parametrize('line, code', [
    pytest.param(line, text, id=f'line{line}') for line, language, text in readme_blocks()
    if language == 'python'])
def test_python_block_runs_as_printed(tmp_path, line, code):
    proc = subprocess.run([sys.executable, '-c', code], cwd=tmp_path, env=_environment(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f'README.md line {line}:\n{proc.stderr}'


def run_as_printed(cwd, argv, expected, where):
    """
    Run a command-line call and check it against what the documentation prints.

    :param cwd: the folder to run in.
    :param argv: the call, as :func:`_command` makes it.
    :param expected: the printed output (stderr when it shows an error), or None.
    :param where: where the call is written, for the failure message.
    """
    _needs(argv)
    # The printed outputs are the numpy backend's (the compiled solver takes other restarts).
    env = dict(_environment(), FRAME_KINEMATICS_BACKEND='numpy')
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    shows_error = expected is not None and 'frame-kinematics: error:' in expected
    where = f"{where}: {' '.join(argv[3:])}"
    if shows_error:
        assert proc.returncode != 0, where
        printed = proc.stderr
    else:
        assert proc.returncode == 0, f'{where}\n{proc.stderr}'
        printed = proc.stdout
    if expected is not None:
        assert _TIMES.sub('<time>', printed.rstrip('\n')) == \
            _TIMES.sub('<time>', expected), where


@pytest.mark.parametrize('line, runs', [pytest.param(line, runs, id=f'line{line}')
                                        for line, runs in shell_cases()])
def test_command_block_runs_as_printed(tmp_path, line, runs):
    for argv, expected in runs:
        run_as_printed(tmp_path, argv, expected, f'README.md line {line}')


def test_no_example_writes_into_the_tracked_doc_folder():
    outputs = [argv[argv.index('-o') + 1] for _, runs in shell_cases() for argv, _ in runs
               if '-o' in argv]
    assert outputs
    assert not [path for path in outputs if os.path.normpath(path).startswith('doc')]


def test_ci_runs_the_venv_and_test_commands_of_the_quick_start():
    bash = [text.strip() for line, language, text in readme_blocks() if language == 'bash']
    venv = [line for text in bash for line in text.splitlines() if 'venv' in line]
    tests = [text for text in bash if 'pytest' in text]
    assert venv == ['python3 -m venv --upgrade-deps .venv && . .venv/bin/activate']
    assert tests[0].startswith('python3 -m pip install') and tests[0].endswith('pytest -q test')
    with open(os.path.join(ROOT, '.ci', 'run'), encoding='utf-8') as handle:
        ci = handle.read().splitlines()
    assert venv[0] in ci and tests[0] in ci
    assert ci.index(venv[0]) < ci.index(tests[0])
