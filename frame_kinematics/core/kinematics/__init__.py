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
Forward kinematics, velocities, accelerations, Jacobians and center of mass.

* :mod:`.forward`: ``root_T_link`` of every link (one configuration, or a batch);
* :mod:`.columns`: motion columns and their sums (Jacobians, velocities);
* :mod:`.com`: center of mass, its Jacobian, centroidal momentum;
* :mod:`.state`: :class:`KinematicsState`, which holds them for one configuration;
* :mod:`.workspace`: :class:`KinematicsWorkspace`, link poses recomputed in place (loops);
* :mod:`.expressed`: :class:`ExpressedIn`.

Joint motion itself comes from the joint kernel (:mod:`frame_kinematics.core.joints`).
"""

from .expressed import ExpressedIn
from .forward import BATCH_THRESHOLD
from .state import KinematicsState
from .workspace import KinematicsWorkspace

__all__ = ['BATCH_THRESHOLD', 'ExpressedIn', 'KinematicsState', 'KinematicsWorkspace']
