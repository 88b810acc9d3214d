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
The whole package keeps the core's rules: no module-level state, one error base.

Every module that imports here is checked (the ROS modules need rclpy and the message
packages; the core alone is checked in ``test_core_integrity``, with its optional
dependencies).
"""

import importlib
import inspect
import pkgutil
from types import MappingProxyType
import weakref

import frame_kinematics
from frame_kinematics.core.errors import FrameKinematicsError
import numpy as np


def _modules():
    """Yield every module of the package that can be imported here."""
    package = frame_kinematics
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + '.',
                                      onerror=lambda name: None):
        try:
            yield importlib.import_module(info.name)
        except ImportError as exc:  # a dependency missing here (rclpy, numba, ...)
            if (exc.name or '').startswith(package.__name__):
                raise


def test_no_module_level_mutable_containers_in_the_package():
    mutable = (dict, list, set, bytearray, weakref.WeakKeyDictionary,
               weakref.WeakValueDictionary)
    found = []
    for module in _modules():
        for name, value in vars(module).items():
            if name.startswith('__') or isinstance(value, MappingProxyType):
                continue
            if isinstance(value, mutable) or (isinstance(value, np.ndarray)
                                              and value.flags.writeable):
                found.append(f'{module.__name__}.{name}')
    assert found == []


def test_every_exception_of_the_package_is_a_frame_kinematics_error():
    found = []
    for module in _modules():
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and \
                    value.__module__ == module.__name__ and \
                    not issubclass(value, FrameKinematicsError):
                found.append(f'{module.__name__}.{name}')
    assert found == []
