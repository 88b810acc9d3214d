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
"""Tests of frame_kinematics.bridge.reach_worker: the study's process and its cancel."""

import json
import os
import signal
import subprocess
import sys

from conftest import killed_on_exit
import pytest

#: A worker whose study is being saved when it is cancelled (its ``run`` replaced).
_SAVING_WORKER = """
import sys
import time
from frame_kinematics.bridge import reach_worker
from frame_kinematics.core.file_output import replacing


def saving(document, out):
    with replacing(document['output']) as name:
        with open(name, 'wb') as stream:
            stream.write(b'half a study')
        out.write('saving\\n')
        out.flush()
        time.sleep(60)
    return 0


reach_worker.run = saving
sys.exit(reach_worker.main())
"""


@pytest.mark.skipif(not hasattr(signal, 'SIGTERM') or os.name != 'posix',
                    reason='needs POSIX signals')
def test_a_study_cancelled_while_it_is_saved_leaves_no_temporary_file(tmp_path):
    output = tmp_path / 'study.npz'
    process = subprocess.Popen([sys.executable, '-c', _SAVING_WORKER], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    with killed_on_exit(process):
        process.stdin.write(json.dumps({'output': str(output)}))
        process.stdin.close()
        assert process.stdout.readline() == 'saving\n'
        process.terminate()  # as ReachJob.cancel ends it
        assert process.wait(timeout=30) != 0
    assert os.listdir(tmp_path) == []
