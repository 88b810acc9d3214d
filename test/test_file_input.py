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
"""The bounded reader of the files users give: limits, devices, FIFOs, odd paths."""

import os
import sys
import threading

from frame_kinematics.core import file_input
from frame_kinematics.core.errors import ConfigurationError
import pytest


class _BrokenPath:

    def __fspath__(self):
        raise RuntimeError('no path here')


@pytest.mark.parametrize('path', [None, 3, _BrokenPath()])
def test_what_is_not_a_path_is_refused_naming_its_type(path):
    with pytest.raises(ConfigurationError, match=f'a path must be .* got {type(path).__name__}'):
        file_input.read_bounded(path, 10, ConfigurationError)


def test_a_file_is_read_whole_up_to_the_limit_and_refused_beyond(tmp_path):
    path = tmp_path / 'data.txt'
    path.write_bytes(b'x' * 10)
    assert file_input.read_bounded(path, 10, ConfigurationError) == b'x' * 10
    with pytest.raises(ConfigurationError, match='data.txt.: larger than the limit of 9 bytes'):
        file_input.read_bounded(path, 9, ConfigurationError)


def test_a_missing_file_is_named():
    with pytest.raises(ConfigurationError, match="cannot read '/nonexistent/x'"):
        file_input.read_bounded('/nonexistent/x', 10, ConfigurationError)


@pytest.mark.skipif(not os.path.exists('/dev/zero'), reason='needs /dev/zero')
def test_a_huge_path_is_named_by_its_end():
    path = 'd' * 100_000 + '/robot.urdf'
    with pytest.raises(ConfigurationError) as info:
        file_input.read_bounded(path, 100, ConfigurationError)
    assert str(info.value).startswith("cannot read '...")
    assert "d/robot.urdf': " in str(info.value) and len(str(info.value)) < 300


def test_an_endless_device_costs_no_more_than_the_limit():
    with pytest.raises(ConfigurationError, match='larger than the limit of 1000 bytes'):
        file_input.read_bounded('/dev/zero', 1000, ConfigurationError)


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
def test_a_fifo_nobody_writes_to_is_refused_after_the_wait(tmp_path):
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    with pytest.raises(ConfigurationError, match='no process wrote to this FIFO within 0.05 s'):
        file_input.read_bounded(fifo, 10, ConfigurationError, wait=0.05)


@pytest.mark.skipif(not sys.platform.startswith('linux'),
                    reason='writes into a FIFO before its reader opens it (Linux O_RDWR)')
def test_a_fifo_whose_writer_goes_silent_without_closing_it_is_refused(tmp_path):
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # holds the FIFO open, as a stalled writer would
    try:
        os.write(writer, b'<robot')
        with pytest.raises(ConfigurationError, match="pipe': its writer sent nothing for 0.05 s "
                                                     'after 6 bytes, and did not close'):
            file_input.read_bounded(fifo, 100, ConfigurationError, wait=0.05)
    finally:
        os.close(writer)


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
def test_a_fifo_is_read_whole_until_its_writer_closes_it(tmp_path):
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    chunks = [b'x' * 70000, b'y' * 5]

    def write():
        with open(fifo, 'wb') as stream:  # opens once the reader has
            for chunk in chunks:
                stream.write(chunk)
                stream.flush()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert file_input.read_bounded(fifo, 10 ** 6, ConfigurationError) == b''.join(chunks)
    finally:
        writer.join()
