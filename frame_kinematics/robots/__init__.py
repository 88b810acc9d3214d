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
Robot descriptions shipped with the package (written for it, Apache-2.0).

* ``fk_arm``: a 6-DOF arm with a parallel gripper (one mimic finger) and a ``tool0`` frame.
* ``fk_quadruped``: a 12-DOF quadruped with inertials, foot frames and an IMU frame.
"""

import os
import site
import sys
from typing import Optional, Tuple

from ..core.errors import UnknownFrameError

DEFAULT_ROBOT = 'fk_arm'
_HERE = os.path.dirname(os.path.abspath(__file__))


def names() -> Tuple[str, ...]:
    """Names of the bundled robots."""
    return tuple(sorted(f[:-5] for f in os.listdir(_HERE) if f.endswith('.urdf')))


def path(name: str = DEFAULT_ROBOT) -> str:
    """
    Path of a bundled robot's URDF file.

    :param name: robot name (see :func:`names`).
    :return: absolute path of its URDF.
    :raises UnknownFrameError: for an unknown robot name.
    """
    if name not in names():
        raise UnknownFrameError(name, names(), 'bundled robot')
    return os.path.join(_HERE, name + '.urdf')


def example_robot_data(relative: str) -> Optional[str]:
    """
    Find a file of the ``example-robot-data`` package (PyPI), used by tests and benchmarks.

    :param relative: path below its ``robots`` folder, e.g.
        ``'panda_description/urdf/panda.urdf'``.
    :return: the absolute path, or None when the package or the file is not installed.
    """
    prefixes = site.getsitepackages() + [site.getusersitepackages(), sys.prefix]
    for prefix in prefixes:
        candidate = os.path.join(prefix, 'cmeel.prefix', 'share', 'example-robot-data', 'robots',
                                 relative)
        if os.path.exists(candidate):
            return candidate
    return None
