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
"""Tests of frame_kinematics.cli.xacro_process: xacro's refusals and the size limit, one line."""

import io
import os
import sys

from cli_testing import assert_one_line_error, call, XACRO
from frame_kinematics.cli import robot_input, xacro_process
import pytest


def test_a_xacro_expansion_over_the_size_limit_is_refused(capsys, tmp_path, monkeypatch):
    pytest.importorskip('xacro')
    monkeypatch.setattr(robot_input, 'MAX_DOCUMENT_BYTES', 1000)
    path = tmp_path / 'robot.urdf.xacro'
    four = '<xacro:{0} n="${{n}}a"/><xacro:{0} n="${{n}}b"/><xacro:{0} n="${{n}}c"/>' \
        '<xacro:{0} n="${{n}}d"/>'
    path.write_text(XACRO.format(
        '<xacro:macro name="l" params="n"><link name="link_${n}"/></xacro:macro>'
        f'<xacro:macro name="m" params="n">{four.format("l")}</xacro:macro>'
        f'<xacro:macro name="h" params="n">{four.format("m")}</xacro:macro>'
        '<xacro:h n="x"/><xacro:h n="y"/><xacro:h n="z"/>'))
    assert path.stat().st_size < 1000
    status, out, err = call(capsys, '--urdf', path, 'info')
    assert_one_line_error(status, out, err, f'{path}: xacro expands it to more than the limit '
                          'of 1000 bytes')


def test_xacro_that_cannot_be_expanded_is_one_line(capsys, tmp_path, monkeypatch):
    pytest.importorskip('xacro')
    path = tmp_path / 'robot.urdf.xacro'
    path.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                    '<xacro:include filename="missing_arm.xacro"/><link name="a"/></robot>')
    status, out, err = call(capsys, 'info', '--urdf', path)
    assert_one_line_error(status, out, err, str(path), 'xacro cannot expand it',
                          'missing_arm.xacro')
    path.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                    '<xacro:include filename="$(find my_arm_description)/urdf/arm.xacro"/>'
                    '<link name="a"/></robot>')
    # xacro runs in a child process: an ament_index_python without packages stands for none
    (tmp_path / 'no_ament' / 'ament_index_python').mkdir(parents=True)
    (tmp_path / 'no_ament' / 'ament_index_python' / '__init__.py').write_text('')
    monkeypatch.setenv('PYTHONPATH', os.pathsep.join(
        [str(tmp_path / 'no_ament')] + [p for p in [os.environ.get('PYTHONPATH')] if p]))
    status, out, err = call(capsys, 'info', '--urdf', path)
    assert_one_line_error(status, out, err, 'cannot resolve $(find my_arm_description)',
                          'ament index is not available')


@pytest.mark.skipif(not sys.platform.startswith('linux'),
                    reason='RLIMIT_DATA bounds large allocations on Linux only')
def test_a_xacro_expression_that_needs_too_much_memory_is_refused_in_one_line(capsys,
                                                                              tmp_path):
    pytest.importorskip('xacro')
    path = tmp_path / 'robot.urdf.xacro'
    path.write_text(XACRO.format('<xacro:property name="n" value="${len([0] * 10**10)}"/>'
                                 '<link name="a${n}"/>'))
    status, out, err = call(capsys, '--urdf', path, 'info')
    assert_one_line_error(status, out, err, f'{path}: xacro cannot expand it within 4 GiB of '
                          'memory')


def test_the_child_bounds_its_memory_before_it_expands(monkeypatch, capsys):
    pytest.importorskip('xacro')
    resource = pytest.importorskip('resource')
    calls = []
    monkeypatch.setattr(resource, 'setrlimit', lambda *args: calls.append(args))
    monkeypatch.setattr(resource, 'getrlimit', lambda kind: (resource.RLIM_INFINITY,) * 2)
    document = XACRO.format('<link name="a"/>').encode('utf-8')
    stdin = io.TextIOWrapper(io.BytesIO(document), encoding='utf-8')
    monkeypatch.setattr(sys, 'stdin', stdin)
    stdout = io.TextIOWrapper(io.BytesIO(), encoding='utf-8')
    monkeypatch.setattr(sys, 'stdout', stdout)
    assert xacro_process.main(['robot.urdf.xacro', '1000']) == 0
    assert calls == [(resource.RLIMIT_DATA, (xacro_process.XACRO_MEMORY_BYTES,
                                             resource.RLIM_INFINITY))]
    assert stdout.buffer.getvalue().startswith(b'ok\n<?xml')
