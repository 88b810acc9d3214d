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
The compiled backend for the ``/tf`` path, made ready off it.

The bridge publishes from its first joint_states on the numpy backend, as
robot_state_publisher does; when numba is the backend, :func:`switch_to_compiled` gets the same
robot on the compiled one meanwhile, in a thread of the bridge: a child process loads or
compiles every kernel into the disk cache (so that the compiler never holds this process's
interpreter), then the numpy model's data are put on the compiled backend here, from that
cache (the URDF is not parsed again, nor its warnings logged twice). The kernels do not
depend on the robot (its tables are data), so the child warms them on the bundled arm.
"""

import subprocess
import sys
from typing import Callable

from .log import last_line
from ..core import backend
from ..core.errors import FrameKinematicsError
from ..core.robot import Robot

#: How long the child process may take to compile every kernel on an empty cache (s).
COMPILE_TIMEOUT = 1800.0

#: What the child runs: every kernel the node uses (the /tf path's and the solvers').
_WARM = ('from frame_kinematics import robots\n'
         'from frame_kinematics.core import Robot\n'
         "model = Robot.from_urdf_file(robots.path(), backend='numba')\n"
         'model.executor.tf\n'
         'model.executor.threads\n')


def switch_to_compiled(parsed: Robot, install: Callable[[Robot], None], logger) -> None:
    """
    Put ``parsed``'s data on the numba backend without compiling here, and hand it over.

    Runs in a thread of the bridge. When the disk cache does not hold the node's kernels yet,
    a child process compiles them all first (the ``/tf`` path's and the solvers'), so that
    neither ``/tf`` nor a service ever waits for the compiler in this process.

    :param parsed: the robot description's model on numpy (its data are shared).
    :param install: takes the model, its checked, ``/tf`` and solver kernels loaded.
    :param logger: where to say what happens (``info``/``warning``); when the compiled backend
        cannot be made ready, the reason is logged and ``install`` is not called.
    """
    directory = backend.cache_directory()
    cached = backend.compiled_cache(directory, node=True)
    if cached is None:
        logger.warning(f"the compiled kernels cannot be cached in '{directory}': /tf stays on "
                       f'numpy (set {backend.CACHE_VARIABLE} to a writable directory)')
        return
    if not cached:
        logger.info(f'compiling the numba kernels in the background, once (kernel cache '
                    f'{directory}): /tf is published on numpy meanwhile')
        try:
            done = subprocess.run([sys.executable, '-c', _WARM], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, timeout=COMPILE_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as error:
            logger.warning(f'the kernel compilation did not end ({error}): /tf stays on numpy')
            return
        if done.returncode != 0:
            logger.warning('the kernel compilation failed: /tf stays on numpy '
                           f"({last_line(done.stderr) or 'no message'})")
            return
    try:
        model = Robot(parsed, backend='numba')
        model.executor.tf  # loaded now, not on a message
        model.executor.threads  # the solvers' kernels, loaded now, not on a request
    except FrameKinematicsError as error:
        logger.warning(f'the compiled backend is not ready ({error}): /tf stays on numpy')
        return
    install(model)
