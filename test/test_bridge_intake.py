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
"""The /tf path's joint_states callback: a wake-up's message, then the queue, in order."""

import threading

from frame_kinematics.bridge.intake import JointStateIntake


class Queue:
    """A subscription's queue as the intake sees it: the next message, or None."""

    def __init__(self, messages):
        self.messages = list(messages)

    def __call__(self):
        return self.messages.pop(0) if self.messages else None


def intake_over(queue, pause_ns=0, depth=100, handle=None):
    handled, errors, asked = [], [], []

    def pause():
        asked.append(pause_ns)
        return pause_ns

    intake = JointStateIntake(handle or handled.append, pause, depth, errors.append)
    stopping = threading.Event()
    intake.attach(queue, stopping)
    return intake, handled, errors, asked, stopping


def test_without_a_queue_each_wake_up_hands_on_its_one_message_and_never_waits():
    intake, handled, errors, asked, _ = intake_over(None, pause_ns=10 ** 12)
    intake('m0')
    intake('m1')
    assert handled == ['m0', 'm1'] and asked == [] and errors == []


def test_a_wake_up_hands_on_its_message_then_the_queue_in_order():
    queue = Queue(['m1', 'm2', 'm3'])
    intake, handled, errors, asked, _ = intake_over(queue)
    intake('m0')
    assert handled == ['m0', 'm1', 'm2', 'm3'] and errors == [] and asked == [0]
    intake('m4')  # an empty queue: the message alone
    assert handled[-1] == 'm4' and len(handled) == 5


def test_a_short_wait_then_what_was_queued_in_turns_until_a_wait_brings_nothing():
    queue = Queue(['m1'])
    intake, handled, _, asked, _ = intake_over(queue, pause_ns=1_000_000)
    intake('m0')
    # m1 came with the first wait; the second wait brought nothing: back to the executor
    assert handled == ['m0', 'm1'] and asked == [1_000_000, 1_000_000]


class Stream(Queue):
    """A queue that a publisher fills while the intake waits: one message per look."""

    def __init__(self, count):
        super().__init__([])
        self.sent, self.count, self.looks = 0, count, 0

    def __call__(self):
        self.looks += 1
        if self.looks % 2 == 1 and self.sent < self.count:  # one arrived during the wait
            self.sent += 1
            return f's{self.sent}'
        return None


def test_a_stream_that_keeps_coming_is_taken_in_turns_without_the_executor():
    stream = Stream(5)
    intake, handled, _, asked, _ = intake_over(stream, pause_ns=1_000)
    intake('s0')
    assert handled == ['s0', 's1', 's2', 's3', 's4', 's5'] and len(asked) == 6


def test_without_a_reason_to_wait_one_turn_takes_the_queue_then_the_executor_waits():
    stream = Stream(5)
    intake, handled, _, asked, _ = intake_over(stream, pause_ns=0)
    intake('s0')
    assert handled == ['s0', 's1'] and asked == [0]


def test_a_batch_takes_at_most_the_queue_depth():
    queue = Queue([f'm{k}' for k in range(1, 10)])
    intake, handled, _, _, _ = intake_over(queue, depth=3)
    intake('m0')
    assert handled == ['m0', 'm1', 'm2', 'm3']
    assert queue.messages[0] == 'm4'  # left for the next wake-up


def test_a_stop_ends_a_wait_at_once_and_nothing_more_is_taken():
    queue = Queue(['m1'])
    intake, handled, _, _, stopping = intake_over(queue, pause_ns=10 ** 12)
    stopping.set()
    intake('m0')  # would wait 1000 s if the stop did not end the wait
    assert handled == ['m0'] and queue.messages == ['m1']


def test_a_stop_during_a_batch_ends_it():
    queue = Queue(['m1', 'm2', 'm3'])
    handled = []
    holder = {}

    def handle(msg):
        handled.append(msg)
        if msg == 'm1':
            holder['stopping'].set()

    intake, _, _, _, stopping = intake_over(queue, handle=handle)
    holder['stopping'] = stopping
    intake('m0')
    assert handled == ['m0', 'm1'] and queue.messages == ['m2', 'm3']


def test_a_queue_that_fails_is_reported_once_then_each_wake_up_takes_one_message():
    calls = []

    def broken():
        calls.append(1)
        raise TypeError('take_message() takes 3 arguments')

    intake, handled, errors, _, _ = intake_over(broken)
    intake('m0')
    intake('m1')
    assert handled == ['m0', 'm1'] and len(calls) == 1
    assert [str(e) for e in errors] == ['take_message() takes 3 arguments']
