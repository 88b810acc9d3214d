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
"""
Reach studies: where a robot's tip can reach a set of target poses, and how well.

What REACH (ROS-Industrial) does with MoveIt, one target at a time, done with the core's
batch inverse kinematics and no ROS. Modules: :mod:`.targets` (points and orientation sets),
:mod:`.cloud` (points with normals from CSV, NPZ, PLY and PCD files), :mod:`.bounds` (the
reach bound that rejects hopeless targets before any solve), :mod:`.neighbours` (nearest
neighbours), :mod:`.scores` (manipulability, joint-limit margin, combined score),
:mod:`.study` (running a study), :mod:`.result` (the result: save, load, summary, queries,
comparison) and :mod:`.base_search` (ranking candidate base poses).
"""

from .base_search import BaseRanking, floor_grid, rank_bases
from .bounds import reach_bound, ReachBound
from .cloud import read_points
from .result import FORMAT_VERSION, ReachComparison, ReachResult
from .scores import combined_score, DEFAULT_WEIGHTS, joint_limit_margin
from .study import run_study
from .targets import (cone_orientations, grid_targets, make_targets, MAX_TARGETS,
                      shell_targets, single_orientation, so3_orientations, TargetSet)

__all__ = ['BaseRanking', 'combined_score', 'cone_orientations', 'DEFAULT_WEIGHTS',
           'floor_grid', 'FORMAT_VERSION', 'grid_targets', 'joint_limit_margin',
           'make_targets', 'MAX_TARGETS', 'rank_bases', 'reach_bound', 'ReachBound',
           'ReachComparison', 'ReachResult', 'read_points', 'run_study', 'shell_targets',
           'single_orientation', 'so3_orientations', 'TargetSet']
