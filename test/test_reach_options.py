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
"""The settings of a study's targets, read once for the command line and the action."""

import re

from frame_kinematics.core.errors import ConfigurationError
from frame_kinematics.core.reach import grid_targets, so3_orientations
from frame_kinematics.core.reach.options import TARGET_SETTINGS, TargetOptions, \
    targets_from_options
import numpy as np
import pytest


def test_a_box_makes_the_grid_with_its_orientations_and_workpiece_pose():
    options = TargetOptions(box=(0, 0, 0, 0.2, 0.1, 0.1), step=0.1, so3=3,
                            workpiece_xyz=(1.0, 0.0, 0.0), frame='base_link')
    targets = targets_from_options(options)
    expected = grid_targets((0, 0, 0), (0.2, 0.1, 0.1), 0.1, so3_orientations(3))
    np.testing.assert_allclose(targets.poses(), expected.poses())
    assert targets.frame == 'base_link'
    np.testing.assert_allclose(targets.frame_T_workpiece[:3, 3], [1.0, 0.0, 0.0])


def test_messages_use_the_callers_names():
    def spell(name):
        return '--' + name.replace('_', '-')
    with pytest.raises(ConfigurationError, match='--box needs --step'):
        targets_from_options(TargetOptions(box=(0, 0, 0, 1, 1, 1)), spell)
    with pytest.raises(ConfigurationError, match='--rpy or --so3, not both'):
        targets_from_options(TargetOptions(box=(0, 0, 0, 1, 1, 1), step=1, rpy=(0, 0, 0),
                                           so3=2), spell)
    with pytest.raises(ConfigurationError, match='--workpiece-rpy'):
        targets_from_options(TargetOptions(box=(0, 0, 0, 1, 1, 1), step=1,
                                           workpiece_rpy=(0, float('inf'), 0)), spell)


@pytest.mark.parametrize('options, words', [
    ({'box': 5, 'step': 0.5}, 'box (x0 y0 z0 x1 y1 z1) must be 6 numbers'),
    ({'box': (0, 0, 0, 1, 1, 1), 'step': 0.5, 'cone': 5}, 'cone is an angle, a number of'),
    ({'box': (0, 0, 0, 1, 1, 1), 'step': 0.5, 'radii': (1,)}, 'radii goes with sphere, not'),
    ({'box': (0, 0, 0, 1, 1, 1), 'step': 0.5, 'count': 3}, 'count goes with sphere, not'),
    ({'points': 'part.csv', 'step': 0.3}, 'step goes with box, not with points'),
    ({'sphere': (0, 0, 0), 'radii': np.array([]), 'count': 3}, 'radii must be one or more'),
])
def test_settings_that_do_not_fit_are_refused_by_name(options, words):
    with pytest.raises(ConfigurationError, match=re.escape(words)):
        targets_from_options(TargetOptions(**options))


def test_radii_may_be_an_array():
    targets = targets_from_options(TargetOptions(sphere=(0, 0, 0), radii=np.array([1.0, 2.0]),
                                                 count=3))
    assert len(targets.points) == 6


def test_the_settings_are_the_command_lines_options():
    from frame_kinematics.cli.parser import build_parser
    args = build_parser().parse_args(['reach', '--box', '0', '0', '0', '1', '1', '1',
                                      '--step', '1', '-o', 'x.npz'])
    assert all(hasattr(args, name) for name in TARGET_SETTINGS)
