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
"""Shared helpers of the reach tests: a small point cloud (plain constants)."""

import numpy as np

#: Three points and their unit normals, the content of the cloud files the tests write.
POINTS = np.array([[0.1, 0.2, 0.3], [-0.5, 0.25, 1.0], [2.0, -1.5, 0.0]])
NORMALS = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.6, 0.0, -0.8]])
