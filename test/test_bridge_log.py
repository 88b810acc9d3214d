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
"""Short and throttled log lines of the bridge (frame_kinematics.bridge.log)."""

import logging

from bridge_testing import ARM_JOINTS, FakeClock, js, logged_bridge, make, SEC
from conftest import ListLogger
from frame_kinematics.bridge import ThrottledLog
from frame_kinematics.bridge.log import error_text, ForwardingHandler, last_line, MAX_KEYS
from frame_kinematics.core.errors import ConfigurationError, LINE_LENGTH
import pytest


def test_throttled_log_counts_suppressed_messages():
    logger, clock = ListLogger(), FakeClock()
    log = ThrottledLog(logger, 1.0, clock)
    log.warning('a', 'first')
    log.warning('a', 'second')
    log.warning('b', 'other key')
    clock.t += 1.5
    log.warning('a', 'third')
    assert logger.texts() == ['first', 'other key', 'third (1 similar message(s) suppressed)']


def test_a_huge_refused_value_is_not_quoted_whole():
    bridge, logger = logged_bridge()
    huge = 'x' * 20_000_000
    out = bridge.apply_parameters({'com.frame': huge, 'com.orientation': 'sideways'}, 0)
    assert not out.accepted and len(out.reason) < 500
    out = bridge.apply_parameters({'robot_description': '<robot name="' + huge}, 0)
    assert not out.accepted and len(out.reason) < 500
    out = bridge.on_joint_state(js([huge, 'elbow_joint'], [float('nan')]), SEC)
    assert not out.accepted and len(out.reason) < 500
    out = bridge.on_joint_state(js([huge], [float('nan')]), SEC)  # an unknown name, not read
    assert out.accepted
    assert all(len(text) < 600 for text in logger.texts(None))


@pytest.mark.parametrize('exc', [ConfigurationError('q has NaN'), ValueError('q has NaN'),
                                 TypeError('q has NaN'), OverflowError('q has NaN')])
def test_an_error_of_the_input_is_said_by_its_message(exc):
    assert error_text(exc) == 'q has NaN'


def test_any_other_error_is_named_as_a_bug():
    assert error_text(AttributeError("'NoneType' object has no attribute 'x'")) == \
        "unexpected AttributeError: 'NoneType' object has no attribute 'x' (a bug of " \
        'frame_kinematics)'


def test_python_log_records_are_forwarded_at_their_severity():
    logger = ListLogger()
    source = logging.getLogger('frame_kinematics.test_forwarding')
    handler = ForwardingHandler(logger)
    source.addHandler(handler)
    try:
        source.warning('seed is outside the joint limits of %s', ['elbow_joint'])
        source.error('x' * 10 ** 4)
        source.critical('gone')
        source.info('hidden below the logger level')
    finally:
        source.removeHandler(handler)
    assert logger.lines[0] == ('warning', "seed is outside the joint limits of ['elbow_joint']")
    assert logger.lines[1][0] == 'error' and len(logger.lines[1][1]) < 300
    assert logger.lines[2] == ('error', 'gone') and len(logger.lines) == 3


def test_a_forwarded_warning_repeated_by_every_request_is_throttled_per_message():
    logger, clock = ListLogger(), FakeClock()
    source = logging.getLogger('frame_kinematics.test_forwarding_throttle')
    handler = ForwardingHandler(logger)
    handler.warnings = ThrottledLog(logger, 5.0, clock)  # as the node hands over the bridge's
    source.addHandler(handler)
    try:
        for joints in (['elbow_joint'], ['elbow_joint'], ['wrist_1_joint'], ['elbow_joint']):
            source.warning('seed is outside the joint limits of %s', joints)
        source.error('an error is never throttled')
        source.error('an error is never throttled')
        clock.t += 5.0
        source.warning('seed is outside the joint limits of %s', ['elbow_joint'])
    finally:
        source.removeHandler(handler)
    assert logger.lines == [
        ('warning', "seed is outside the joint limits of ['elbow_joint']"),
        ('warning', "seed is outside the joint limits of ['wrist_1_joint']"),
        ('error', 'an error is never throttled'), ('error', 'an error is never throttled'),
        ('warning', "seed is outside the joint limits of ['elbow_joint'] (2 similar "
                    'message(s) suppressed)')]


def test_a_throttled_log_remembers_a_bounded_number_of_keys():
    logger, clock = ListLogger(), FakeClock()
    log = ThrottledLog(logger, 1.0, clock)
    for k in range(10 * MAX_KEYS):  # a flood of different warnings, all within a period
        log.warning(f'key {k}', f'warning {k}')
    assert len(log._last) <= MAX_KEYS + 1
    assert len(logger.lines) == MAX_KEYS + 1  # the ones past the bound share one key
    clock.t += 1.0
    log.warning('new key', 'a warning after the period')  # the old keys are forgotten
    assert logger.texts()[-1] == 'a warning after the period' and len(log._last) == 1


def test_a_flood_of_forwarded_warnings_does_not_silence_the_joint_states_warnings():
    bridge, logger, _ = make(warn_period=5.0)
    source = logging.getLogger('frame_kinematics.test_forwarding_flood')
    handler = ForwardingHandler(logger)
    handler.warnings = bridge.warnings  # as the node hands over the bridge's
    source.addHandler(handler)
    try:  # more different core warnings than a throttle remembers, all within a period
        for k in range(MAX_KEYS + 5):
            source.warning('seed is outside the joint limits of %s', [f'joint_{k}'])
    finally:
        source.removeHandler(handler)
    flood = len(logger.lines)
    out = bridge.on_joint_state(js(ARM_JOINTS, [float('nan')] + [0.0] * 6), SEC)
    assert not out.accepted
    assert logger.lines[flood:] == [('warning', out.reason + ' (keeping the last good state)')]


def test_the_last_line_of_a_child_process_is_its_last_non_blank_line_shortened():
    assert last_line('Traceback\n  File "x"\nValueError: bad  \n\n  \n') == 'ValueError: bad'
    assert last_line(' \n\n') == ''
    long = last_line('x' * 10 ** 5)
    assert long.startswith('x' * LINE_LENGTH + '...') and len(long) < LINE_LENGTH + 30
