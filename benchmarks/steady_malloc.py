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
Run a benchmark with glibc malloc's thresholds fixed, the same for every library timed.

glibc serves large blocks (128 KiB and more) with ``mmap`` until the first such block is
freed, then raises its threshold to that block's size. Until then, and in a process where
something changed the thresholds (``import pinocchio`` does), every large numpy temporary is
new memory that page-faults on first touch: a batched Jacobian of the bundled arm takes 790
minor faults and 3.5x the time of the same call at steady state. Which call first frees a big
enough block depends on the whole process, so timings would depend on the order of the runs.
:func:`ensure` restarts the script once with ``MALLOC_MMAP_THRESHOLD_`` and
``MALLOC_TRIM_THRESHOLD_`` set, so numpy, the core and Pinocchio all run at steady state.
"""

import os
import sys

#: Environment that fixes the thresholds (32 MiB blocks from the heap, trim above 256 MiB).
ENVIRONMENT = {'MALLOC_MMAP_THRESHOLD_': '33554432', 'MALLOC_TRIM_THRESHOLD_': '268435456'}


def ensure() -> None:
    """Re-run the current script with :data:`ENVIRONMENT` unless it is already set."""
    if all(os.environ.get(name) == value for name, value in ENVIRONMENT.items()):
        return
    env = dict(os.environ, **ENVIRONMENT)
    sys.stdout.flush()
    os.execve(sys.executable, [sys.executable] + sys.argv, env)
