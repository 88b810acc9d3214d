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
"""SIGTERM as an exception, so that a terminated process runs its clean-ups."""

import os
import signal
import subprocess
import sys
import threading

from conftest import killed_on_exit
from frame_kinematics.termination import sigterm_raises_exit
import pytest

posix_signals = pytest.mark.skipif(os.name != 'posix', reason='needs POSIX signals')

#: The command line, whose command writes a file under a temporary name and waits there.
_WRITING_COMMAND = """
import sys
import time

import frame_kinematics.cli as cli
from frame_kinematics import command
from frame_kinematics.core.file_output import replacing


def writing():
    with replacing(sys.argv[1]) as name:
        with open(name, 'w') as f:
            f.write('half')
        print('writing', flush=True)
        time.sleep(120)
    return 0


cli.main = writing
sys.exit(command.main())
"""


@posix_signals
def test_sigterm_raises_exit_in_the_block_and_the_handler_is_restored_after_it():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as ended:
        with sigterm_raises_exit():
            signal.raise_signal(signal.SIGTERM)  # its handler runs before it returns
    assert ended.value.code == 128 + signal.SIGTERM == 143
    assert signal.getsignal(signal.SIGTERM) is before


def test_outside_the_main_thread_the_block_runs_unchanged():
    before = signal.getsignal(signal.SIGTERM)
    seen = []

    def block():
        with sigterm_raises_exit():
            seen.append(signal.getsignal(signal.SIGTERM))

    worker = threading.Thread(target=block)
    worker.start()
    worker.join()
    assert seen == [before]


@posix_signals
def test_a_command_line_terminated_while_it_writes_leaves_no_temporary_file(tmp_path):
    output = tmp_path / 'out.npz'
    process = subprocess.Popen([sys.executable, '-c', _WRITING_COMMAND, str(output)],
                               stdout=subprocess.PIPE, text=True)
    with killed_on_exit(process):
        assert process.stdout.readline() == 'writing\n'
        process.terminate()
        assert process.wait(timeout=60) == 143
    assert os.listdir(tmp_path) == []
