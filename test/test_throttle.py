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

from conftest import ListLogger
from frame_kinematics.bridge.throttle import (JOINT_STATES_DEPTH, MAX_PAUSE_NS,
                                              MAX_STREAM_PAUSE_NS, PAUSE_SHARE,
                                              publish_interval_ns, Throttle)
import numpy as np


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
