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
The joint kernel: every joint type's meaning and motion, in one place.

* :mod:`.joint_type`: :class:`JointType` (sizes, entry names, limits, neutral value, motion
  subspace, ``joint_T_child``);
* :mod:`.kernel`: :class:`JointKernel`, the joints of a tree as flat arrays, evaluated in
  batches (local transforms, batch-last poses, TF translations and quaternions, motion
  columns);
* :mod:`.layout`: :class:`ConfigurationLayout`, the configuration vector (limits, neutral,
  quaternion normalisation, integrate, difference, sampling).
"""

from .joint_type import entry_names, JointType, plane_basis
from .kernel import frozen, JointKernel, TYPE_CODES
from .layout import ConfigurationLayout, wrap_angle

__all__ = ['ConfigurationLayout', 'entry_names', 'frozen', 'JointKernel', 'JointType',
           'plane_basis', 'TYPE_CODES', 'wrap_angle']
