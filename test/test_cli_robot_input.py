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
"""Tests of frame_kinematics.cli.robot_input: the robot a command reads (``--urdf``)."""

from cli_testing import call


def test_a_latin1_urdf_that_declares_its_encoding_is_read(capsys, tmp_path):
    path = tmp_path / 'latin1.urdf'
    path.write_bytes('<?xml version="1.0" encoding="ISO-8859-1"?>\n<robot name="caf\u00e9">'
                     '<link name="b\u00e4se"/></robot>\n'.encode('latin-1'))
    status, out, err = call(capsys, 'info', '--urdf', path)
    assert status == 0, err
    assert out.startswith('robot caf\u00e9:') and 'b\u00e4se' in out
