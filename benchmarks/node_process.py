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
"""Start and stop ROS 2 node processes for the node benchmarks."""

import os
import signal
import subprocess


def start(command):
    """Start a node in a process group of its own, its output discarded."""
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def stop(process) -> None:
    """
    Stop a node's process group: SIGINT, again, then SIGKILL.

    A plain rclpy node sometimes misses the first signal (a race in rclpy's shutdown).
    """
    for sig, wait in ((signal.SIGINT, 5), (signal.SIGINT, 3), (signal.SIGKILL, 3)):
        if process.poll() is not None:
            return
        os.killpg(process.pid, sig)
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue
