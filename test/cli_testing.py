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
"""Helpers of the command line's tests: running ``frame-kinematics`` and checking its errors."""

import subprocess
import sys

from frame_kinematics import cli


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


#: A xacro document: ``XACRO.format(body)`` puts ``body`` in its <robot>.
XACRO = '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">{}</robot>'
