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
"""Tests of frame_kinematics.cli.common: number and table text, JSON, emit, Progress."""

import contextlib
import io
import json
import logging
import math
import os
import sys
import threading
import types

from conftest import joint_xml, link_xml, urdf
from frame_kinematics.cli import common
from frame_kinematics.core import ConfigurationError, FrameKinematicsError, Robot
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest


@pytest.fixture(scope='module')
def model():
    """Return a revolute joint ``a`` then a prismatic ``c`` limited to [0.2, 0.5] (neutral 0.2)."""
    return Robot.from_urdf_string(urdf('\n'.join([
        link_xml('base'), link_xml('l1'), link_xml('l2'),
        joint_xml('a', 'revolute', 'base', 'l1'),
        '<joint name="c" type="prismatic"><parent link="l1"/><child link="l2"/>'
        '<axis xyz="1 0 0"/><limit lower="0.2" upper="0.5" effort="1" velocity="1"/></joint>',
    ]), 'two'))


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def clock(monkeypatch):
    """Give the module a clock that reads ``clock[0]`` seconds."""
    now = [100.0]
    monkeypatch.setattr(common, 'time', types.SimpleNamespace(monotonic=lambda: now[0]))
    return now


def test_exit_statuses_program_name_error_class_and_logger():
    assert (common.EXIT_ERROR, common.EXIT_USAGE, common.EXIT_NOT_CONVERGED) == (1, 2, 3)
    assert common.PROG == 'frame-kinematics'
    error = common.CommandLineError('--foo and --bar')
    assert isinstance(error, FrameKinematicsError) and isinstance(error, ValueError)
    package = logging.getLogger('frame_kinematics')  # the logger main prints
    assert common.LOG.name == 'frame_kinematics.cli' and common.LOG.parent is package


def test_fmt_rounds_to_fixed_decimals_without_negative_zero():
    assert common.fmt(1.23456, 3) == '1.235'
    assert common.fmt(2, 2) == '2.00'
    assert common.fmt(np.float32(0.5), 1) == '0.5'
    assert common.fmt(-0.25, 1) == '-0.2'  # round half to even
    assert [common.fmt(x, 0) for x in (2.5, -1.5, 1e6)] == ['2', '-2', '1000000']
    assert [common.fmt(x, 3) for x in (-0.0, -0.0001, -0.0004)] == ['0.000'] * 3
    assert common.fmt(-0.4, 0) == '0'
    assert [common.fmt(x, 2) for x in (math.inf, -math.inf, math.nan)] == ['inf', '-inf',
                                                                           'nan']


@settings(max_examples=200)
@given(st.floats(-1e6, 1e6), st.integers(0, 6))
def test_fmt_text_is_the_number_within_half_a_last_decimal(x, precision):
    text = common.fmt(x, precision)
    digits = text.lstrip('-').split('.')
    assert len(digits[-1]) == precision if precision else len(digits) == 1
    assert abs(float(text) - x) <= 0.5 * 10.0 ** -precision * (1 + 1e-9) + 1e-9
    assert not (text.startswith('-') and float(text) == 0.0)


def test_sci_writes_three_decimals_and_an_exponent():
    assert common.sci(0.000123456) == '1.235e-04'
    assert common.sci(0) == '0.000e+00'
    assert common.sci(np.float64(12346.0)) == '1.235e+04'
    assert common.sci(math.inf) == 'inf'


def test_table_aligns_the_first_column_left_and_the_others_right():
    text = common.table(['joint', 'q', 'error'],
                        [['a', 1.5, 'n/a'], ['long_name', -0.25, -0.0001]], 2)
    assert text.split('\n') == ['joint          q  error',
                                'a           1.50    n/a',
                                'long_name  -0.25   0.00']


def test_table_formats_numbers_everywhere_and_strips_trailing_blanks():
    assert common.table(['name', 'x'], [[0.5, ''], ['b', np.float64(3)]], 1).split('\n') == [
        'name    x', '0.5', 'b     3.0']
    assert common.table(['only'], [['a'], ['longer']], 3) == 'only\na\nlonger'


def test_table_of_no_rows_is_its_header_line():
    assert common.table(['link', 'x', 'y'], [], 4) == 'link  x  y'


def test_finite_gives_a_float_or_none_for_json():
    value = common.finite(np.float32(2.5))
    assert value == 2.5 and type(value) is float
    assert type(common.finite(3)) is float
    assert [common.finite(x) for x in (math.inf, -math.inf, math.nan)] == [None] * 3
    document = [common.finite(np.inf), common.finite(1.0)]
    assert json.loads(common.to_json(document)) == [None, 1.0]


def test_to_json_indents_by_two_and_reads_back():
    document = {'a': [1, 2], 'b': None, 'c': {'d': 'text', 'e': 0.5}}
    text = common.to_json(document)
    assert text.startswith('{\n  "a": [\n    1,\n    2\n  ],\n  "b": null,')
    assert json.loads(text) == document


def test_to_json_writes_strict_json_an_infinite_value_or_nan_as_null():
    document = {'radius': math.inf, 'rows': [(1.0, np.float64(np.nan)), {'x': -math.inf}]}
    text = common.to_json(document)
    assert 'Infinity' not in text and 'NaN' not in text
    assert json.loads(text) == {'radius': None, 'rows': [[1.0, None], {'x': None}]}


def test_configuration_dict_names_every_entry_in_order_as_floats(model):
    named = common.configuration_dict(model, np.array([1, 0.3]))
    assert list(named.items()) == [('a', 1.0), ('c', 0.3)]
    assert all(type(value) is float for value in named.values())
    assert common.configuration_dict(model, [-0.5, 0.25]) == {'a': -0.5, 'c': 0.25}


def test_config_line_names_the_entries_away_from_the_neutral_configuration(model):
    neutral = model.neutral_configuration()
    assert neutral.tolist() == [0.0, 0.2]
    assert common.config_line(model, neutral) == 'neutral configuration'
    assert common.config_line(model, np.array([0.123456789, 0.2])) == 'a=0.123457'
    assert common.config_line(model, [-1e-7, 0.5]) == 'a=-1e-07, c=0.5'
    # Zero is not the reference: c=0 lies off its neutral value (its lower limit, 0.2).
    assert common.config_line(model, [0.0, 0.0]) == 'c=0'


def test_emit_prints_one_result_with_a_newline(capsys):
    common.emit('first\nsecond')
    common.emit('')
    assert capsys.readouterr() == ('first\nsecond\n\n', '')


def test_emit_raises_broken_pipe_when_stdout_is_closed(monkeypatch):
    monkeypatch.setattr(sys, 'stdout', None)
    with pytest.raises(BrokenPipeError, match='stdout is closed'):
        common.emit('lost')


@pytest.mark.skipif(not hasattr(os, 'pipe'), reason='needs pipes')
def test_emit_raises_broken_pipe_when_the_reader_goes_away_in_a_large_write(monkeypatch):
    # stdout as python -u or PYTHONUNBUFFERED=1 makes it: text over the file itself, whose
    # write may take part of the bytes
    read_end, write_end = os.pipe()
    stream = io.TextIOWrapper(io.FileIO(write_end, 'w'), encoding='utf-8', write_through=True)
    monkeypatch.setattr(sys, 'stdout', stream)

    def read_a_little_and_go():
        os.read(read_end, 10)
        os.close(read_end)

    reader = threading.Thread(target=read_a_little_and_go)
    reader.start()
    try:  # far more than a pipe holds: the write is under way when the reader goes away
        with pytest.raises(BrokenPipeError):
            common.emit('x' * (16 * 1024 * 1024))
    finally:
        reader.join()
        monkeypatch.undo()
        with contextlib.suppress(BrokenPipeError):
            stream.close()


def test_emit_keeps_the_newlines_and_the_line_buffering_of_a_buffered_stdout(monkeypatch):
    # stdout as Python makes it on Windows ('\n' written as '\r\n') and on a terminal (a
    # line written out at once)
    out = io.BytesIO()
    stream = io.TextIOWrapper(io.BufferedWriter(out), encoding='utf-8', newline='\r\n',
                              line_buffering=True)
    monkeypatch.setattr(sys, 'stdout', stream)
    common.emit('a\nb')
    assert out.getvalue() == b'a\r\nb\r\n'


def test_progress_off_a_terminal_prints_a_line_a_tenth_and_the_last(capsys, clock):
    progress = common.Progress('targets')
    assert not progress.tty
    for done in range(21):
        clock[0] += 0.5
        progress(done, 20, ', 3 solved' if done == 20 else '')
    lines = capsys.readouterr().err.splitlines()
    assert [line.split()[1] for line in lines] == [f'{d}/20' for d in range(0, 21, 2)]
    assert lines[1] == 'frame-kinematics: 2/20 targets (1.5 s)'
    assert lines[-1] == 'frame-kinematics: 20/20 targets, 3 solved (10.5 s)'


def test_progress_off_a_terminal_with_fewer_steps_than_tenths(capsys, clock):
    progress = common.Progress('frames drawn')
    for done in (1, 1, 2, 3, 3):
        progress(done, 3)
    assert [line.split()[1] for line in capsys.readouterr().err.splitlines()] == [
        '1/3', '2/3', '3/3', '3/3']


def test_progress_on_a_terminal_rewrites_one_line_and_ends_it(monkeypatch, clock):
    terminal = _Terminal()
    monkeypatch.setattr(sys, 'stderr', terminal)
    progress = common.Progress('targets')
    assert progress.tty
    for done in (1, 1, 2, 3):
        clock[0] += 0.25
        progress(done, 3)
    assert terminal.getvalue() == ''.join([
        '\rframe-kinematics: 1/3 targets (0.2 s)', '\rframe-kinematics: 1/3 targets (0.5 s)',
        '\rframe-kinematics: 2/3 targets (0.8 s)', '\rframe-kinematics: 3/3 targets (1.0 s)\n'])


def test_progress_disabled_or_without_work_prints_nothing(capsys, clock):
    quiet = common.Progress('targets', enabled=False)
    for done in range(4):
        quiet(done, 3)
    nothing = common.Progress('targets')
    nothing(0, 0)
    nothing(1, -1)
    assert capsys.readouterr() == ('', '')


def test_usage_errors_turn_an_options_refusal_into_a_usage_error():
    with pytest.raises(common.UsageError, match='^--bases: step must be > 0$'):
        with common.usage_errors('--bases'):
            raise ConfigurationError('step must be > 0')
    with pytest.raises(common.UsageError, match='^give one kind of targets$'):
        with common.usage_errors():
            raise ConfigurationError('give one kind of targets')
    with pytest.raises(FrameKinematicsError, match='no such file') as other:
        with common.usage_errors('--output', (common.CommandLineError,)):
            raise FrameKinematicsError('no such file')  # not one of the errors: as it is
    assert not isinstance(other.value, common.UsageError)
