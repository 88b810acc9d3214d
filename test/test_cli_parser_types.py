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
"""Tests of frame_kinematics.cli.parser_types: option values refused in the options' words."""

from cli_testing import assert_one_line_error, call
import pytest


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
     ["--fps must be a number >= 0.01 and <= 100, got '0'"]),
    (['render', '-o', 'x.gif', '--to', 'elbow_joint=1', '--fps', '0.005'],
     ["--fps must be a number >= 0.01 and <= 100, got '0.005'"]),
    (['ik', '--position-only', '--xyz', '0.4', '0', '0.3', '--max-iterations', '1_0'],
     ["--max-iterations must be a whole number >= 1, got '1_0'"]),
    (['ik', '--position-only', '--xyz', '0.4', '0', '0.3', '--restarts', '\u0663'],
     ["--restarts must be a whole number >= 0, got '\u0663'"]),
    (['fk', '--precision', '\uff13'],
     ["--precision must be a whole number between 0 and 17, got '\uff13'"]),
])
def test_bad_option_values_are_usage_errors_in_the_options_words(capsys, args, words):
    status, out, err = call(capsys, *args)
    assert_one_line_error(status, out, err, *words, code=2)
    assert 'None' not in err


@pytest.mark.parametrize('args', [
    ['fk', '--precision', 'x' * 100_000], ['--robot', 'x' * 100_000, 'info'],
    ['fk', '--format', 'x' * 100_000], ['x' * 100_000],
    ['ik', '--xyz', '0.4', '0', '0.3', '--position-only', '--time-budget', 'x' * 100_000],
    ['info', 'x' * 100_000],
])
def test_a_huge_option_value_is_quoted_by_an_excerpt(capsys, args):
    status, out, err = call(capsys, *args)
    assert_one_line_error(status, out, err, code=2)
    assert len(err) < 600, err[:600]
