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
"""Tests of frame_kinematics.core.xml_elements: DOCTYPEs and entities are refused unexpanded."""

from frame_kinematics.core import Robot, URDFError
import pytest


def test_billion_laughs_fails_fast():
    lols = ''.join(f'<!ENTITY lol{i} "{"&lol%d;" % (i - 1) * 10}">' for i in range(1, 10))
    text = (f'<?xml version="1.0"?><!DOCTYPE robot [<!ENTITY lol0 "lol">{lols}]>'
            '<robot name="&lol9;"><link name="a"/></robot>')
    with pytest.raises(URDFError, match='DOCTYPE'):  # refused before any entity is expanded
        Robot.from_urdf_string(text)


def test_external_entities_are_refused(tmp_path):
    secret = tmp_path / 'secret.txt'
    secret.write_text('hidden')
    text = (f'<?xml version="1.0"?><!DOCTYPE robot [<!ENTITY x SYSTEM "file://{secret}">]>'
            '<robot name="r"><link name="&x;"/></robot>')
    with pytest.raises(URDFError, match='not allowed'):
        Robot.from_urdf_string(text)
    network = ('<?xml version="1.0"?><!DOCTYPE robot SYSTEM "http://127.0.0.1:9/robot.dtd">'
               '<robot name="r"><link name="a"/></robot>')
    with pytest.raises(URDFError, match='not allowed'):
        Robot.from_urdf_string(network)
