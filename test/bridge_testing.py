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
Shared helpers of the bridge tests: the bundled arm, bridges, joint_states, TF by hand.

The fixtures are made per test file, as ``ik_testing.arm_fixture`` is: a file writes
``arm = numpy_arm_fixture()`` or ``panda = panda_fixture()`` (no model is built at import).
"""

from typing import Callable

from conftest import joint_xml, link_xml, ListLogger, moveit_resource, urdf
from frame_kinematics import robots
from frame_kinematics.bridge import Bridge, BridgeSettings, JointStateInput
from frame_kinematics.bridge.moveit import MoveItKinematics
from frame_kinematics.core import Robot
from frame_kinematics.core.spatial import transform_from_xyz_quaternion
import numpy as np
import pytest

ARM = open(robots.path('fk_arm')).read()
ARM_JOINTS = ('shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_joint', 'wrist_1_joint',
              'wrist_2_joint', 'wrist_3_joint', 'left_finger_joint')
SEC = 1_000_000_000
MS = 1_000_000

FLOATING = urdf('\n'.join([
    link_xml('world'), link_xml('base', 2.0, '0.1 0 0'), link_xml('arm', 1.0, '0 0 0.3'),
    joint_xml('root_joint', 'floating', 'world', 'base', '0 0 0.5'),
    joint_xml('hip', 'revolute', 'base', 'arm', '0 0.2 0', axis='1 0 0'),
]), 'floater')


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def make(text=ARM, **kwargs):
    """Return ``(bridge, logger, clock)``: a bridge on ``text``, its warnings on a FakeClock."""
    logger = ListLogger()
    clock = FakeClock()
    bridge = Bridge(text, BridgeSettings(**kwargs), logger=logger, clock=clock)
    return bridge, logger, clock


def logged_bridge(text=ARM, **kwargs):
    """Return ``(bridge, logger)``: a bridge on ``text`` on the monotonic clock."""
    logger = ListLogger()
    return Bridge(text, BridgeSettings(**kwargs), logger=logger), logger


def js(names, positions, velocities=(), stamp=SEC):
    return JointStateInput(list(names), list(positions), list(velocities), stamp)


def arm_state(value, stamp=SEC):
    return js(ARM_JOINTS, [value] * 6 + [0.02], stamp=stamp)


def full_state(bridge, q, stamp=SEC, velocities=()):
    """Build a message naming every one-dof actuated joint with the values of q."""
    names = [j.name for j in bridge.model.actuated_joints]
    return js(names, [q[bridge.model.joint(n).idx_q] for n in names], velocities, stamp)


def as_matrix(transform):
    return transform_from_xyz_quaternion(np.array(transform.translation),
                                         np.array(transform.rotation))


def compose(transforms, root):
    """root_T_frame of every frame of a set of TF transforms (a TF buffer, by hand)."""
    edges = {t.child: (t.parent, as_matrix(t)) for t in transforms}
    poses = {root: np.eye(4)}

    def pose(frame):
        if frame not in poses:
            parent, parent_T_frame = edges[frame]
            poses[frame] = pose(parent) @ parent_T_frame
        return poses[frame]

    for frame in edges:
        pose(frame)
    return poses


# -- reach studies ---------------------------------------------------------------------------
#: A small study: 5 x 7 x 6 points x 2 orientations.
BOX = {'box': (0.2, -0.3, 0.1, 0.6, 0.3, 0.6), 'step': 0.1, 'so3_count': 2}


def numpy_arm_fixture() -> Callable:
    """Make the module-scoped fixture ``arm`` (the bundled arm on numpy) of a test file."""
    @pytest.fixture(scope='module', name='arm')
    def arm():
        return Robot.from_urdf_file(robots.path('fk_arm'), backend='numpy')

    return arm


# -- MoveIt ----------------------------------------------------------------------------------
#: The Panda's seven arm joints and its 'ready' pose.
ARM7 = [f'panda_joint{i}' for i in range(1, 8)]
READY = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]


def moveit_text(relative):
    """Return the text of a file of moveit_resources (skip the test without it)."""
    with open(moveit_resource(relative)) as handle:
        return handle.read()


def panda_fixture() -> Callable:
    """Make the fixture ``panda`` of a test file: ``(bridge, services, log)`` on the Panda."""
    @pytest.fixture(name='panda')
    def panda():
        """Return a bridge on the Panda at 'ready', and the services with its SRDF."""
        bridge = Bridge(moveit_text('panda_description/urdf/panda.urdf'), BridgeSettings())
        names = ARM7 + ['panda_finger_joint1']
        bridge.on_joint_state(JointStateInput(names, READY + [0.01], (), SEC), SEC)
        log = ListLogger()
        services = MoveItKinematics(log)
        services.set_semantic(moveit_text('panda_moveit_config/config/panda.srdf'))
        return bridge, services, log

    return panda
