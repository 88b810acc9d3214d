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
The manual in doc/ documents every public name, and CI builds it.

These tests read the reST sources and the package's own sources, so they need neither Sphinx
nor ROS: every name of ``frame_kinematics.core.__all__`` has a directive in the API reference,
every service and message type of ``frame_kinematics_interfaces`` is in the API reference and
each of its fields in the manual, and the node's parameters (the bridge's
``PARAMETER_DEFAULTS`` and ``USER_FRAME_DEFAULTS``), topics and services (those the node
creates) are in the node's page. ``.ci/run`` builds the manual and runs its doctests with
warnings as errors. Docstrings and comments of the package carry no measured times.
"""

import glob
import os
import re
import subprocess

from frame_kinematics import bridge, core
import pytest
from test_readme import _command, run_as_printed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, 'doc')
INTERFACES = os.path.join(ROOT, 'frame_kinematics_interfaces')
_CREATED = re.compile(r"create_(publisher|subscription|service)\(\s*\w+,\s*'([^']+)'")
_FIELD = re.compile(r'^[\w/]+(\[\])?\s+(\w+)\s*$')
_TIMING = re.compile(r'[0-9] ?(ns|us|µs)\b')


def console_examples():
    """``(page:line, argv, expected output)`` of each ``$ frame-kinematics`` line of the manual."""
    cases = []
    for path in sorted(glob.glob(os.path.join(DOC, '**', '*.rst'), recursive=True)):
        with open(path, encoding='utf-8') as handle:
            lines = handle.read().splitlines()
        page = os.path.relpath(path, DOC)
        k = 0
        while k < len(lines):
            if lines[k].strip() != '.. code-block:: console':
                k += 1
                continue
            k += 1
            block = []
            while k < len(lines) and (not lines[k].strip() or lines[k].startswith('   ')):
                block.append((k + 1, lines[k][3:]))
                k += 1
            for n, (number, text) in enumerate(block):
                argv = _command(text[2:]) if text.startswith('$ ') else None
                if argv is None:
                    continue
                output = []
                for _, rest in block[n + 1:]:
                    if rest.startswith('$ '):
                        break
                    output.append(rest)
                cases.append((f'{page}:{number}', argv, '\n'.join(output).strip('\n')))
    return cases


def _read(*paths):
    texts = []
    for pattern in paths:
        for path in sorted(glob.glob(os.path.join(DOC, pattern), recursive=True)):
            with open(path, encoding='utf-8') as handle:
                texts.append(handle.read())
    assert texts, paths
    return '\n'.join(texts)


def _literals(text):
    """Return the set of inline literals (````x````) of reST text."""
    return set(re.findall(r'``([^`]+)``', text))


def _interface_files():
    return sorted(glob.glob(os.path.join(INTERFACES, 'srv', '*.srv')) +
                  glob.glob(os.path.join(INTERFACES, 'msg', '*.msg')) +
                  glob.glob(os.path.join(INTERFACES, 'action', '*.action')))


@pytest.mark.parametrize('where, argv, expected', [
    pytest.param(where, argv, expected, id=where) for where, argv, expected in console_examples()])
def test_command_line_example_of_the_manual_runs_as_printed(tmp_path, where, argv, expected):
    run_as_printed(tmp_path, argv, expected, where)


def test_every_public_name_of_the_core_has_a_directive_in_the_api_reference():
    api = _read('api/*.rst')
    documented = set(re.findall(r'^\.\. auto\w+:: frame_kinematics\.core\.(\w+)\s*$', api,
                                flags=re.MULTILINE))
    assert set(core.__all__) - documented == set()


def test_every_public_name_of_the_bridge_has_a_directive_in_the_api_reference():
    api = _read('api/*.rst')
    documented = set(re.findall(r'^\.\. auto\w+:: frame_kinematics\.bridge\.(\w+)\s*$', api,
                                flags=re.MULTILINE))
    assert set(bridge.__all__) - documented == set()


def test_every_interface_type_is_in_the_api_reference():
    api = _read('api/interfaces.rst')
    files = _interface_files()
    assert len(files) >= 5
    for path in files:
        kind = os.path.basename(os.path.dirname(path))
        name = os.path.splitext(os.path.basename(path))[0]
        assert f'frame_kinematics_interfaces/{kind}/{name}' in api, name
        assert f'.. repository-file:: frame_kinematics_interfaces/{kind}/{name}.{kind}' in api, \
            name


def test_every_field_of_the_interfaces_is_described_in_the_node_page():
    literals = _literals(_read('node.rst'))
    missing = []
    for path in _interface_files():
        with open(path, encoding='utf-8') as handle:
            for line in handle:
                match = _FIELD.match(line.split('#')[0].strip())
                if match and match.group(2) not in literals:
                    missing.append(f'{os.path.basename(path)}: {match.group(2)}')
    assert missing == []


def test_every_parameter_of_the_node_is_in_the_node_page():
    literals = _literals(_read('node.rst'))
    names = list(bridge.PARAMETER_DEFAULTS) + \
        [f'user_frames.<name>.{key}' for key in bridge.USER_FRAME_DEFAULTS]
    assert len(names) > 20
    assert [name for name in names if name not in literals] == []


def test_every_topic_and_service_the_node_creates_is_in_the_node_page():
    with open(os.path.join(ROOT, 'frame_kinematics', 'node.py'), encoding='utf-8') as handle:
        created = _CREATED.findall(handle.read())
    kinds = {kind for kind, _ in created}
    assert kinds == {'publisher', 'subscription', 'service'}
    literals = _literals(_read('node.rst'))
    assert [name for _, name in created if name not in literals] == []


def test_ci_builds_the_manual_and_runs_its_doctests_with_warnings_as_errors():
    with open(os.path.join(ROOT, '.ci', 'run'), encoding='utf-8') as handle:
        lines = handle.read().splitlines()
    builds = [line for line in lines if 'sphinx-build' in line]
    assert any(' -W ' in line and ' -b html doc ' in line for line in builds), builds
    assert any(' -W ' in line and ' -b doctest doc ' in line for line in builds), builds
    tests = lines.index("python3 -m pip install -e '.[test]' && python3 -m pytest -q test")
    assert all(lines.index(line) > tests for line in builds)


def test_the_manual_has_the_pages_rosdoc2_looks_for():
    assert os.path.isfile(os.path.join(DOC, 'conf.py'))
    index = _read('index.rst')
    for page in ('getting_started', 'inverse_kinematics', 'command_line', 'node', 'performance',
                 'design', 'api/index', 'changelog'):
        assert os.path.isfile(os.path.join(DOC, page + '.rst')), page
        assert re.search(rf'^   {page}$', index, flags=re.MULTILINE), page


def test_no_measured_time_in_the_package_sources():
    proc = subprocess.run(['git', 'grep', '-nE', _TIMING.pattern, '--', 'frame_kinematics/*.py'],
                          cwd=ROOT, capture_output=True, text=True)
    if proc.returncode not in (0, 1):  # not a git checkout: read the files
        hits = []
        for path in glob.glob(os.path.join(ROOT, 'frame_kinematics', '**', '*.py'),
                              recursive=True):
            with open(path, encoding='utf-8') as handle:
                hits += [f'{path}: {line}' for line in handle if _TIMING.search(line)]
        assert hits == []
    else:
        assert proc.stdout == ''
