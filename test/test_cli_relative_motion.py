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
"""Tests of frame_kinematics.cli.relative_motion: ``frame-kinematics relative-motion``."""

import json

from cli_testing import call
from conftest import bundled


def test_relative_motion_table_and_json(capsys, tmp_path):
    from frame_kinematics.core.relative_motion import RelativeMotion
    model = bundled()
    expected = RelativeMotion(model)
    expected.add_locked_joint('wrist_3_joint')
    expected.add_relative_transformation('tool0', None)
    expected.add_locked_joint('shoulder_pan_joint', parameterized=True)
    status, out, err = call(capsys, 'relative-motion', '--lock', 'wrist_3_joint',
                            '--transform', 'tool0', 'env', '--lock-parameterized',
                            'shoulder_pan_joint')
    assert status == 0, err
    lines = out.splitlines()
    rows = lines[2:2 + expected.size]
    for k, (line, values) in enumerate(zip(rows, expected.matrix)):
        cells = line.split()
        assert cells[0] == str(k) and cells[1] == expected.index_names[k]
        assert cells[-expected.size:] == ['CPU'[v] for v in values]
    assert lines[2 + expected.size].startswith('rigid groups')

    path = tmp_path / 'constraints.json'
    path.write_text(json.dumps([{'lock': 'wrist_3_joint'},
                                {'transformation': ['tool0', 'environment']},
                                {'lock': 'shoulder_pan_joint', 'parameterized': True},
                                {'transformation': ['elbow_joint'], 'mask': [1] * 5 + [0]}]))
    status, out, err = call(capsys, 'relative-motion', '--constraints', path, '--format',
                            'json')
    assert status == 0, err
    result = json.loads(out)
    assert result['matrix'] == [['CPU'[v] for v in row] for row in expected.matrix]
    assert result['rigid_groups'] == [list(g) for g in expected.rigid_groups()]
    assert result['bodies'][0] == 'base_link'
