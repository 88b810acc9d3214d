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
"""Tests of frame_kinematics.cli.parser: sub-commands, options, usage errors and examples."""

import json

from cli_testing import assert_one_line_error, call


def test_help_of_every_command_has_an_example(capsys):
    status, out, _ = call(capsys, '--help')
    assert status == 0 and 'example:' in out
    commands = ['info', 'fk', 'jacobian', 'com', 'ik', 'relative-motion', 'render']
    for command in commands:
        assert command in out
        status, out_command, _ = call(capsys, command, '--help')
        assert status == 0
        assert f'example:\n  frame-kinematics {command}' in out_command


def test_options_before_or_after_the_command(capsys):
    first = call(capsys, '--robot', 'fk_quadruped', 'fk', '--links', 'imu_link')
    second = call(capsys, 'fk', '--robot', 'fk_quadruped', '--links', 'imu_link')
    assert first[0] == second[0] == 0
    assert first[1] == second[1]
    assert first[1].startswith('# fk_quadruped')


def test_usage_errors_exit_2(capsys):
    for args in (['fk', '--format', 'xml'], ['fk', '--precision', '99'], ['nope'], []):
        status, out, err = call(capsys, *args)
        assert_one_line_error(status, out, err, code=2)


def test_ik_options_conflict_is_a_usage_error(capsys):
    status, out, err = call(capsys, 'ik', '--xyz', '0', '0', '1', '--rpy', '0', '0', '0',
                            '--quat', '0', '0', '0', '1')
    assert_one_line_error(status, out, err, '--quat', code=2)


def test_jacobian_help_examples_are_not_singular(capsys):
    status, out, err = call(capsys, 'jacobian', '--help')
    examples = out.split('example:')[1].split('\n\n')[0].replace('\\\n', ' ')
    commands = [line.split()[1:] for line in examples.splitlines()
                if line.strip().startswith('frame-kinematics')]
    assert len(commands) == 2
    for command in commands:
        status, out, err = call(capsys, *command, '--format', 'json')
        assert status == 0, err
        assert json.loads(out)['manipulability'] > 1e-2, command


def test_negative_numbers_with_an_exponent_are_values_not_options(capsys):
    written = call(capsys, 'ik', '--xyz', '0.4', '0.2', '0.3', '--rpy', '3.14159', '-1e-3',
                   '-.5', '--format', 'json')
    plain = call(capsys, 'ik', '--xyz', '0.4', '0.2', '0.3', '--rpy', '3.14159', '-0.001',
                 '-0.5', '--format', 'json')
    assert written[0] == plain[0] == 0, written[2]
    answers = [json.loads(out) for _, out, _ in (written, plain)]
    for answer in answers:
        del answer['elapsed']
    assert answers[0] == answers[1]
    status, out, err = call(capsys, 'render', '--view', '25', '-6e1', '-o', '-x.png')
    assert_one_line_error(status, out, err, code=2)  # -x.png is still an option
