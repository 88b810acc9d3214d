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
A demo joint-state source: every joint sweeps smoothly within its limits.

:class:`Sweep` and :func:`timer_period` are the ROS-free math; :func:`main` runs them as an
rclpy node publishing ``joint_states`` (parameters ``robot_description``, ``rate`` in Hz
within :data:`RATE_RANGE`, ``period`` in s within :data:`PERIOD_RANGE`).
"""

import math
import sys
from typing import Tuple

import numpy as np

from .core.checks import check_number, MAX_MAGNITUDE
from .core.model import RobotModel
from .core.robot import Robot

#: Fraction of a joint's range the sweep covers (it stays clear of the limits).
RANGE_FRACTION = 0.9
#: Amplitude (rad or m) used for joints without limits (continuous joints).
UNBOUNDED_AMPLITUDE = math.pi * 0.9
#: Range of a sweep's ``period`` (s): from one tick of the fastest ``rate`` to the magnitude of
#: every number (a shorter period would make the angular velocity overflow).
PERIOD_RANGE = (1e-3, MAX_MAGNITUDE)
#: Publishing ``rate`` (Hz) taken: from one message in 1e9 s (a timer's nanoseconds fit in
#: 64 bits) to robot_state_publisher's largest ``publish_frequency``.
RATE_RANGE = (1e-9, 1000.0)


class Sweep:
    """
    Smooth sinusoidal motion of every one-dof actuated joint of a model.

    Joint ``i`` follows ``center + amplitude sin(2 pi t / period + phase_i)`` with the phases
    spread over the joints, so the robot never moves as one block. Mimic joints are left to
    their master; floating and planar joints are not swept.

    :param model: the robot model.
    :param period: seconds per sweep, a number within :data:`PERIOD_RANGE`.
    :raises ConfigurationError: for a period that is not such a number (a bool, a string, NaN).
    """

    def __init__(self, model: RobotModel, period: float = 10.0) -> None:
        period = check_number(period, f'period must be a number of seconds from '
                              f'{PERIOD_RANGE[0]:g} to {PERIOD_RANGE[1]:g}', *PERIOD_RANGE)
        joints = [j for j in model.actuated_joints if j.nq == 1]
        self.names: Tuple[str, ...] = tuple(j.name for j in joints)
        lower = np.array([model.lower[j.idx_q] for j in joints])
        upper = np.array([model.upper[j.idx_q] for j in joints])
        bounded = np.isfinite(lower) & np.isfinite(upper)
        low = np.where(bounded, lower, -1.0)
        high = np.where(bounded, upper, 1.0)
        self.center = np.where(bounded, (low + high) / 2, 0.0)
        self.amplitude = np.where(bounded, RANGE_FRACTION * (high - low) / 2,
                                  UNBOUNDED_AMPLITUDE)
        self.phase = 2 * np.pi * np.arange(len(joints)) / max(len(joints), 1)
        self.omega = 2 * np.pi / period

    def __call__(self, t: float) -> Tuple[np.ndarray, np.ndarray]:
        """
        Positions and velocities at time ``t``.

        :param t: seconds since the start.
        :return: ``(positions, velocities)``, one entry per name of :attr:`names`.
        """
        angle = self.omega * t + self.phase
        return (self.center + self.amplitude * np.sin(angle),
                self.amplitude * self.omega * np.cos(angle))


def timer_period(rate: float) -> float:
    """
    Return the seconds between two messages published at ``rate``.

    :param rate: messages per second (Hz), a number within :data:`RATE_RANGE`.
    :return: ``1 / rate``.
    :raises ConfigurationError: for anything else (a bool, a string, 0, NaN, 1e-300).
    """
    low, high = RATE_RANGE
    return 1.0 / check_number(rate, f'rate must be a number of Hz from {low:g} to {high:g}', low,
                              high)


def main(args=None) -> int:
    """
    Publish the sweep on ``joint_states`` until Ctrl-C or SIGTERM.

    :param args: command-line arguments for rclpy.
    :return: the process exit code.
    """
    from .core.errors import FrameKinematicsError
    from .node import run

    return run(_make_node, args, (FrameKinematicsError, ValueError, TypeError))


def _make_node():
    """Create the demo node: parameters, publisher and the timer that publishes the sweep."""
    import rclpy
    from sensor_msgs.msg import JointState

    node = rclpy.create_node('demo_joint_states')
    urdf = node.declare_parameter('robot_description', '').value
    interval = timer_period(node.declare_parameter('rate', 30.0).value)
    # numpy: the sweep needs the joints and their limits, no compiled kinematics
    sweep = Sweep(Robot.from_urdf_string(urdf, backend='numpy'),
                  node.declare_parameter('period', 10.0).value)
    publisher = node.create_publisher(JointState, 'joint_states', 10)
    start = node.get_clock().now()

    def tick() -> None:
        now = node.get_clock().now()
        positions, velocities = sweep((now - start).nanoseconds * 1e-9)
        msg = JointState()
        msg.header.stamp = now.to_msg()
        msg.name = list(sweep.names)
        msg.position = positions.tolist()
        msg.velocity = velocities.tolist()
        publisher.publish(msg)

    node.create_timer(interval, tick)
    return node


if __name__ == '__main__':
    sys.exit(main())
