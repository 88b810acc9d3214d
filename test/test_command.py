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
"""The ``frame-kinematics`` script's entry, which loads the command line itself."""

import frame_kinematics
from frame_kinematics import cli, command


def test_a_ctrl_c_while_the_command_line_loads_ends_it_in_one_line(monkeypatch, capsys):
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, 'main', interrupted)
    assert command.main() == frame_kinematics.EXIT_INTERRUPTED == 130
    out, err = capsys.readouterr()
    assert (out, err) == ('', 'frame-kinematics: error: interrupted\n')


def test_the_entry_runs_the_command_line_on_the_arguments(monkeypatch, capsys):
    monkeypatch.setattr('sys.argv', ['frame-kinematics', '--version'])
    assert command.main() == 0
    assert capsys.readouterr().out.strip().endswith(frame_kinematics.__version__)
