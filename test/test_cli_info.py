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
"""Tests of frame_kinematics.cli.info: ``frame-kinematics info``."""

import json
import os
import shutil
import subprocess
import sys

from cli_testing import assert_one_line_error, call
from conftest import bundled, moveit_resource
from frame_kinematics.cli.info import MAX_TREE_INDENT
from frame_kinematics.core import backend
import pytest
from urdf_testing import chain_urdf


def test_console_script_and_info_tree():
    # the script of this interpreter's installation (next to it, or where setup.cfg puts it
    # for ROS: lib/<package>), else the one on PATH
    script = shutil.which('frame-kinematics', path=os.pathsep.join([
        os.path.dirname(sys.executable), os.path.join(sys.prefix, 'lib', 'frame_kinematics')
    ])) or shutil.which('frame-kinematics')
    if script is None:
        pytest.skip('the console script is not installed (pip install -e .)')
    proc = subprocess.run([script, 'info'], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    model = bundled()
    lines = proc.stdout.splitlines()
    assert lines[0] == ('robot fk_arm: 12 links, 11 joints (7 actuated, 1 mimic, 3 fixed), '
                        'nq=7, nv=7')
    assert lines[1] == f'total mass: {model.total_mass:g} kg'
    assert lines[2] == 'base_link [4 kg]'
    mimic = [line for line in lines if 'right_finger_joint' in line]
    assert len(mimic) == 1
    assert 'prismatic' in mimic[0] and 'mimic 1 * left_finger_joint + 0' in mimic[0]
    assert '[0, 0.04] m' in mimic[0] and mimic[0].endswith('-> right_finger_link [0.05 kg]')
    assert any(line.endswith('-> tool0 [no inertial]') for line in lines)
    expected = backend.resolve(None, default='numpy')  # the command line's default
    assert lines[-1].startswith(f'kinematics backend: {expected} ')
    if expected == 'numpy':
        assert "the command line's default for single queries" in lines[-1]
    # every joint appears once, every link is named once
    for joint in model.joints:
        assert sum(f' {joint.name} (' in line for line in lines) == 1


def test_info_tree_of_a_long_chain_keeps_its_lines_short(capsys, tmp_path):
    # a chain indented level by level would print O(n**2) characters: 100,000 links, 20 GB
    path = tmp_path / 'chain.urdf'
    path.write_text(chain_urdf(3 * MAX_TREE_INDENT))
    status, out, err = call(capsys, '--urdf', path, 'info')
    assert status == 0, err
    tree = [line for line in out.splitlines() if ' -> l' in line]
    assert len(tree) == 3 * MAX_TREE_INDENT - 1
    indent = 4 * (MAX_TREE_INDENT - 1)
    assert all(len(line) - len(line.lstrip(' `-|')) <= indent + 4 for line in tree)
    assert tree[MAX_TREE_INDENT - 1].startswith(' ' * indent + f'`-- j{MAX_TREE_INDENT} (')
    assert tree[MAX_TREE_INDENT].startswith(
        ' ' * indent + f'`-- [depth {MAX_TREE_INDENT + 1}] j{MAX_TREE_INDENT + 1} (')
    assert tree[-1].startswith(' ' * indent + f'`-- [depth {3 * MAX_TREE_INDENT - 1}] '
                               f'j{3 * MAX_TREE_INDENT - 1} (')


def test_info_json(capsys):
    status, out, err = call(capsys, 'info', '--format', 'json')
    assert status == 0, err
    info = json.loads(out)
    model = bundled()
    assert info['total_mass'] == pytest.approx(model.total_mass)
    assert info['backend'] == backend.resolve(None, default='numpy')  # the default
    assert info['configuration_names'] == list(model.configuration_names)
    joints = {j['name']: j for j in info['joints']}
    assert joints['right_finger_joint']['mimic'] == {'joint': 'left_finger_joint',
                                                     'multiplier': 1.0, 'offset': 0.0}
    assert joints['tool0_fixed_joint']['lower'] is None
    assert sum(link['mass'] or 0.0 for link in info['links']) == pytest.approx(
        model.total_mass)


def test_info_shows_the_collision_flags(capsys):
    status, out, err = call(capsys, 'info')
    assert status == 0, err
    assert out.splitlines()[-2] == 'collision pairs to test: 55 of 66 (11 parent/child pairs off)'
    status, out, err = call(capsys, 'info', '--format', 'json')
    assert json.loads(out)['collision'] == {'pairs': 66, 'parent_child': 11, 'srdf_disabled': 0,
                                            'srdf_only': 0, 'tested': 55,
                                            'srdf_disabled_pairs': []}


def test_info_with_an_srdf_counts_its_disabled_pairs(capsys):
    path = moveit_resource('panda_description/urdf/panda.urdf')
    srdf = moveit_resource('panda_moveit_config/config/panda.srdf')
    status, out, err = call(capsys, 'info', '--urdf', path, '--srdf', srdf)
    assert status == 0, err
    assert out.splitlines()[-2] == (f'collision pairs to test: 30 of 66 (11 parent/child pairs '
                                    f'off, 25 more disabled by {srdf} (which also names 9 of '
                                    'the parent/child pairs))')
    status, out, err = call(capsys, 'info', '--urdf', path, '--srdf', srdf, '--format', 'json')
    collision = json.loads(out)['collision']
    assert collision['tested'] == 30 and collision['srdf_disabled'] == 34
    assert collision['pairs'] - collision['parent_child'] - collision['srdf_only'] == 30
    assert ['panda_leftfinger', 'panda_rightfinger', 'Default'] in \
        collision['srdf_disabled_pairs']


def test_info_refuses_a_bad_srdf_in_one_line(capsys, tmp_path):
    status, out, err = call(capsys, 'info', '--srdf', tmp_path / 'missing.srdf')
    assert_one_line_error(status, out, err, 'missing.srdf')
    wrong = tmp_path / 'wrong.srdf'
    wrong.write_text('<robot><disable_collisions link1="tool0" link2="elsewhere"/></robot>')
    status, out, err = call(capsys, 'info', '--srdf', wrong)
    assert_one_line_error(status, out, err, "unknown link 'elsewhere'")
