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
"""The /tf path's throttle: robot_state_publisher's per-joint rule, however it is computed."""

from bridge_testing import ARM_JOINTS, arm_state, js, logged_bridge, make, MS, SEC
from conftest import ListLogger
from frame_kinematics.bridge.throttle import (JOINT_STATES_DEPTH, MAX_PAUSE_NS,
                                              MAX_STREAM_PAUSE_NS, PAUSE_SHARE,
                                              publish_interval_ns, Throttle)
import numpy as np
import pytest


def rule(history, stamp_ns, joints, now_ns, interval_ns):
    """robot_state_publisher's rule, written out (the reference)."""
    if interval_ns is None:
        due = True
    else:
        due = stamp_ns >= min([now_ns] + [history.get(j, 0) for j in joints]) + interval_ns
    if due:
        history.update(dict.fromkeys(joints, stamp_ns))
    return due


def test_a_stream_of_sources_is_throttled_as_the_per_joint_rule_says():
    rng = np.random.default_rng(18)
    sources = [('a', 'b', 'c'), ('c', 'd'), ('e',), ()]
    for interval_ns in (publish_interval_ns(20.0), publish_interval_ns(333.0), None):
        throttle, history, last_now = Throttle(ListLogger()), {}, 0
        now = 10 ** 9
        for _ in range(3000):
            joints = sources[int(rng.integers(len(sources)))]
            now += int(rng.integers(-2, 8)) * 1_000_000  # now and then backwards
            stamp = now + int(rng.integers(-3, 3)) * 1_000_000
            if now < last_now:
                history.clear()
            last_now = now
            expected = rule(history, stamp, joints, now, interval_ns)
            assert throttle.due(stamp, joints, now, interval_ns) == expected


def test_the_same_joints_are_due_again_one_interval_after_their_last_publish():
    throttle = Throttle(ListLogger())
    joints = ('a', 'b')
    interval = publish_interval_ns(20.0)
    start = 5 * 10 ** 9
    due = [throttle.due(start + k * 1_000_000, joints, start + k * 1_000_000, interval)
           for k in range(120)]
    assert [k for k, d in enumerate(due) if d] == [0, 50, 100]
    throttle.due(start + 101 * 1_000_000, ('b',), start + 101 * 1_000_000, None)
    # 'b' was published at 101 ms, but 'a' last at 100 ms: due again at 150 ms
    assert throttle.due(start + 150 * 1_000_000, joints, start + 150 * 1_000_000, interval)
    throttle.reset()
    assert throttle.due(start + 151 * 1_000_000, joints, start + 151 * 1_000_000, interval)


def test_the_tf_path_waits_for_most_of_the_interval_after_a_due_message():
    throttle = Throttle(ListLogger())
    interval = publish_interval_ns(20.0)
    start = 7 * 10 ** 9
    assert throttle.pause_ns(start, interval, False) == 0  # nothing was due yet
    assert throttle.due(start, ('a',), start, interval)
    assert throttle.pause_ns(start, interval, False) == 45_000_000
    assert throttle.pause_ns(start + 10_000_000, interval, False) == 35_000_000
    assert throttle.pause_ns(start + 45_000_000, interval, False) == 0
    assert throttle.pause_ns(start + 60_000_000, interval, False) == 0  # never negative
    assert not throttle.due(start + 1_000_000, ('a',), start + 1_000_000, interval)
    # a message that is not due does not move the wait
    assert throttle.pause_ns(start + 1_000_000, interval, False) == 44_000_000
    # the wait over, a 1 kHz stream is waited for one of its periods
    assert throttle.pause_ns(start + 46_000_000, interval, False) == 1_000_000


def test_the_tf_path_never_waits_under_sim_time():
    throttle = Throttle(ListLogger())
    interval = publish_interval_ns(20.0)
    assert throttle.due(10 ** 9, ('a',), 10 ** 9, interval)
    assert throttle.pause_ns(10 ** 9, interval, True) == 0
    throttle.due(10 ** 9 + 1_000_000, ('a',), 10 ** 9, None)
    assert throttle.pause_ns(10 ** 9, None, True) == 0
    throttle.reset()
    assert throttle.pause_ns(10 ** 9, interval, False) == 0


def test_when_every_message_is_due_a_fast_stream_is_waited_for_one_of_its_periods():
    throttle = Throttle(ListLogger())
    start = 3 * 10 ** 9
    assert throttle.pause_ns(start, None, False) == 0  # no message yet
    throttle.due(start, ('a',), start, None)
    assert throttle.pause_ns(start, None, False) == 0  # one message: no period yet
    throttle.due(start + 1_000_000, ('a',), start, None)  # 1 kHz
    assert throttle.pause_ns(start, None, False) == 1_000_000
    throttle.due(start + 1_000_000 + MAX_STREAM_PAUSE_NS + 1, ('a',), start, None)  # slower
    assert throttle.pause_ns(start, None, False) == 0
    throttle.due(start, ('a',), start, None)  # a stamp from the past: no period
    assert throttle.pause_ns(start, None, False) == 0
    throttle.due(start, ('b',), start, None)  # two sources on one tick: no period
    assert throttle.pause_ns(start, None, False) == 0
    throttle.due(start + 500_000, ('a',), start, None)
    throttle.reset()
    assert throttle.pause_ns(start, None, False) == 0


def test_a_wait_is_bounded_and_the_queue_holds_what_a_1khz_stream_sends_meanwhile():
    throttle = Throttle(ListLogger())
    slow = publish_interval_ns(1.0)
    assert throttle.due(10 ** 10, ('a',), 10 ** 10, slow)
    assert throttle.pause_ns(10 ** 10, slow, False) == MAX_PAUSE_NS
    assert throttle.pause_ns(0, slow, False) == MAX_PAUSE_NS  # the clock went back
    assert JOINT_STATES_DEPTH >= 2 * MAX_PAUSE_NS // 1_000_000
    assert 0 < PAUSE_SHARE < 1


def test_publish_frequency_throttles_per_joint_by_stamp():
    bridge, _, _ = make(publish_frequency=20.0)  # 50 ms
    assert bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=SEC), SEC).tf
    assert not bridge.on_joint_state(js(['elbow_joint'], [0.2], stamp=SEC + 30 * MS),
                                     SEC).tf
    # values are stored even when the transforms are throttled
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.2
    out = bridge.on_joint_state(js(['elbow_joint'], [0.3], stamp=SEC + 50 * MS), SEC)
    assert out.tf and out.tf[0].stamp_ns == SEC + 50 * MS
    # a joint never published before makes the message due at once
    out = bridge.on_joint_state(js(['elbow_joint', 'wrist_1_joint'], [0.3, 0.1],
                                   stamp=SEC + 60 * MS), SEC)
    assert {t.child for t in out.tf} == {'forearm_link', 'wrist_1_link'}


def test_publish_frequency_uses_whole_milliseconds_as_robot_state_publisher():
    bridge, _, _ = make(publish_frequency=30.0)  # int(1000 / 30) = 33 ms
    bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=SEC), SEC)
    assert bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=SEC + 33 * MS), SEC).tf


def test_publish_frequency_zero_publishes_what_is_not_older_as_robot_state_publisher():
    bridge, _, _ = make(publish_frequency=0.0)
    for k in range(3):  # the same stamp again and again
        out = bridge.on_joint_state(js(['elbow_joint'], [0.1 * k], stamp=SEC), SEC)
        assert out.tf and out.tf[0].stamp_ns == SEC
    # robot_state_publisher 3.3 throttles with an interval of 0: a stamp older than the last
    # published one of the joints a message names (zero too) is not published
    for stamp in (SEC - 1, 0):
        assert not bridge.on_joint_state(js(['elbow_joint'], [0.5], stamp=stamp), SEC).tf
    assert bridge.on_joint_state(js(['wrist_1_joint'], [0.5], stamp=SEC - 1), SEC).tf
    assert bridge.on_joint_state(js(['elbow_joint'], [0.5], stamp=SEC + 1), SEC).tf


def test_ignore_timestamp_publishes_old_stamps_with_their_stamp():
    bridge, _, _ = make(ignore_timestamp=True)
    bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=5 * SEC), 5 * SEC)
    out = bridge.on_joint_state(js(['elbow_joint'], [0.2], stamp=SEC), 5 * SEC)
    assert out.tf and out.tf[0].stamp_ns == SEC


def test_zero_stamp_is_throttled_as_robot_state_publisher():
    bridge, _, _ = make()
    assert not bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=0), 0).tf


def test_clock_going_backwards_clears_the_publish_history():
    bridge, logger, _ = make()
    bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=10 * SEC), 10 * SEC)
    assert not bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=2 * SEC), 10 * SEC).tf
    out = bridge.on_joint_state(js(['elbow_joint'], [0.1], stamp=2 * SEC), 3 * SEC)
    assert out.tf and any('backwards in time' in w for w in logger.texts())


#: The stamps a builtin_interfaces/Time holds at its ends (sec is an int32), and negative ones.
EXTREME_STAMPS = [-2 ** 31 * SEC, -2 ** 31 * SEC + 999_999_999, -SEC - 1, -1, 0,
                  (2 ** 31 - 1) * SEC + 999_999_999]


@pytest.mark.parametrize('stamp', EXTREME_STAMPS)
def test_any_stamp_of_a_time_message_reaches_tf_exactly(stamp):
    bridge, _ = logged_bridge(ignore_timestamp=True)
    out = bridge.on_joint_state(arm_state(0.2, stamp), SEC)
    assert out.tf and {t.stamp_ns for t in out.tf} == {stamp}
    assert out.center_of_mass.stamp_ns == stamp


def test_the_com_stamp_never_passes_the_last_time_a_message_holds():
    last = (2 ** 31 - 1) * SEC + 999_999_999
    bridge, _ = logged_bridge(publish_frequency=0.0)
    bridge.on_joint_state(arm_state(0.2, last), SEC)
    out = bridge.on_joint_state(arm_state(0.3, last), SEC)  # the same stamp again
    assert out.tf and all(t.stamp_ns == last for t in out.tf)
    assert out.center_of_mass is None  # one nanosecond later would not fit in a Time


def test_two_sources_with_one_stamp_give_increasing_com_stamps():
    bridge, _ = logged_bridge(publish_frequency=0.0)
    stamps = []
    for tick in range(1, 4):
        for names in (ARM_JOINTS[:6], ARM_JOINTS[6:]):
            out = bridge.on_joint_state(js(names, [0.01] * len(names), stamp=tick * SEC),
                                        tick * SEC)
            stamps += [t.stamp_ns for t in out.tf if t.child == 'com']
    assert len(stamps) == 5  # the first arm message comes before any gripper value
    assert all(b > a for a, b in zip(stamps, stamps[1:]))
    assert all(abs(s - round(s / SEC) * SEC) < MS for s in stamps)
