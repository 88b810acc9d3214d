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
"""Shared test helpers: robot files and small inline URDFs."""

import contextlib
import logging
import os
import subprocess

from frame_kinematics import robots
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ik, Robot
from frame_kinematics.core.joints import JointType
from frame_kinematics.core.reach import cone_orientations, grid_targets
from frame_kinematics.core.spatial import log_so3
from hypothesis import HealthCheck, settings
import numpy as np
import pytest

# Every property test draws the same examples at every run (derived from the test's name),
# with no deadline and no example database: neither a busy machine nor an earlier run changes
# what a run checks. A test's own @settings keep these for what they do not set.
settings.register_profile('frame_kinematics', derandomize=True, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile('frame_kinematics')


def erd_urdf(relative):
    """Return the path of an example-robot-data URDF; skip the test when it is missing."""
    path = robots.example_robot_data(relative)
    if path is None:
        pytest.skip('example-robot-data is not installed')
    return path


def iiwa_urdf():
    """KUKA iiwa URDF shipped with pybullet; skip when pybullet_data is missing."""
    pybullet_data = pytest.importorskip('pybullet_data')
    return os.path.join(pybullet_data.getDataPath(), 'kuka_iiwa', 'model.urdf')


REAL_ROBOTS = {
    'ur5': ('ur_description/urdf/ur5_robot.urdf', False),
    'panda': ('panda_description/urdf/panda.urdf', False),
    'talos': ('talos_data/robots/talos_reduced.urdf', True),
    'solo12': ('solo_description/robots/solo12.urdf', True),
}


def real_robot_path(name):
    """Path of a real robot used in cross-checks (see REAL_ROBOTS, plus 'iiwa')."""
    if name == 'iiwa':
        return iiwa_urdf()
    return erd_urdf(REAL_ROBOTS[name][0])


def moveit_resource(relative):
    """
    Path of a file of ``shared/data/moveit_resources`` beside the repository; skip without it.

    The folder is looked for at ``../shared/data`` from the repository root (a fresh clone
    has it beside itself).
    """
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(os.path.dirname(root), 'shared', 'data', 'moveit_resources', relative)
    if not os.path.isfile(path):
        pytest.skip(f'{relative} is not in shared/data/moveit_resources')
    return path


def bundled(name='fk_arm', **kwargs):
    """Load a bundled robot model."""
    return Robot.from_urdf_file(robots.path(name), **kwargs)


def reach_grid():
    """Return the reach tests' targets: a grid about the bundled arm, 6 orientations a point."""
    return grid_targets([-0.9, -0.9, 0.0], [0.9, 0.9, 0.9], 0.3, cone_orientations(0.5, 3, 2))


def random_configuration(model, rng, batch=None):
    """Draw a random configuration within limits (+-pi for unbounded joints)."""
    shape = (model.nq,) if batch is None else (batch, model.nq)
    lower = np.where(np.isfinite(model.lower), model.lower, -np.pi)
    upper = np.where(np.isfinite(model.upper), model.upper, np.pi)
    q = rng.uniform(lower, upper, size=shape)
    for joint in model.actuated_joints:
        if joint.type is JointType.FLOATING:
            quat = rng.normal(size=shape[:-1] + (4,))
            q[..., joint.idx_q + 3:joint.idx_q + 7] = quat / np.linalg.norm(
                quat, axis=-1, keepdims=True)
    return q


def rest_pulls(model, tip, goals, rest, time_budget):
    """
    Solve each goal's pose from ``rest`` with and without the pull toward ``rest``.

    :return: ``(free, biased)``: the distances to ``rest`` of the solutions without and with
        the pull (gain 0.2); every solve must succeed and stay valid.
    """
    free, biased = [], []
    for goal in goals:
        target = model.forward_kinematics(goal).transform(tip)
        plain = ik.solve(model, tip, target, seed=rest, restarts=0, time_budget=time_budget)
        pulled = ik.solve(model, tip, target, seed=rest, restarts=0, rest_posture=rest,
                          rest_gain=0.2, time_budget=time_budget)
        assert plain.success and pulled.success
        assert np.all(cfg.is_valid(model, pulled.q, tolerance=1e-12))
        free.append(cfg.distance(model, plain.q, rest))
        biased.append(cfg.distance(model, pulled.q, rest))
    return free, biased


def assert_verified(model, tip, root_T_target, result, tolerance=1e-5, position_only=False):
    """
    Check an IK result the way a user would: its ``q`` is accepted, and a success is true.

    :param tolerance: the position and orientation tolerances the solve was given.
    :param position_only: whether the solve ignored the orientation.
    """
    q = model.check_configuration(result.q)
    assert np.all(cfg.is_valid(model, q, tolerance=1e-12))
    if result.success:
        root_T_tip = model.forward_kinematics(q).transform(tip)
        error = np.linalg.norm(root_T_tip[:3, 3] - root_T_target[:3, 3])
        assert error < tolerance, (error, result.position_error)
        turn = np.linalg.norm(log_so3(root_T_tip[:3, :3].T @ root_T_target[:3, :3]))
        assert position_only or turn < tolerance, (turn, result.orientation_error)


def far_continuous_seed_case(backend):
    """
    PR2's right arm with ``r_forearm_roll_joint`` seeded 1e16 rad away, and targets near it.

    :return: ``(model, tip, active, seed, targets)``: the targets are reached from the seed by
        small moves of the other joints (the roll itself can only move by steps of 2 rad).
    """
    model = Robot.from_urdf_file(erd_urdf('pr2_description/urdf/pr2.urdf'),
                                 backend=backend)
    active = [f'r_{name}_joint' for name in ('shoulder_pan', 'shoulder_lift', 'upper_arm_roll',
                                             'elbow_flex', 'forearm_roll', 'wrist_flex',
                                             'wrist_roll')]
    seed = model.neutral_configuration()
    seed[model.joint('r_elbow_flex_joint').idx_q] = -1.0
    seed[model.joint('r_wrist_flex_joint').idx_q] = -0.5
    seed[model.joint('r_forearm_roll_joint').idx_q] = -1e16 + 2.0 * 12345
    rng = np.random.default_rng(17)
    moved = [model.joint(name).idx_q for name in active if name != 'r_forearm_roll_joint']
    goals = np.stack([seed] * 8)
    goals[:, moved] += rng.uniform(-0.05, 0.05, (8, len(moved)))
    tip = 'r_gripper_palm_link'
    return model, tip, active, seed, model.forward_kinematics(goals).transform(tip)


def assert_edge_solutions_accepted(model, seed_rng, tolerances=(1e-5,)):
    """
    Solve for targets 1e16 m away along each axis, the floating base seeded there too.

    Every solution must be one the model accepts (entries within ``MAX_MAGNITUDE``) and true
    when reported a success. ``tolerances`` are the position tolerances tried (a
    ``numpy.float64`` one takes the compiled backend's general path).
    """
    for axis in range(3):
        for sign in (-1.0, 1.0):
            seed = random_configuration(model, seed_rng)
            seed[axis] = sign * 1e16
            target = np.eye(4)
            target[axis, 3] = sign * 1e16
            for tolerance in tolerances:
                result = ik.solve(model, 'tip', target, seed=seed, position_only=True,
                                  max_iterations=30, time_budget=60.0,
                                  position_tolerance=tolerance)
                assert_verified(model, 'tip', target, result, position_only=True)


def far_base_case(backend):
    """
    Solo12 on a floating base, a seed with the base 1e16 m away, and ordinary targets.

    :return: ``(model, tip, far_seed, targets)``.
    """
    model = Robot.from_urdf_file(real_robot_path('solo12'), floating_base=True,
                                 backend=backend)
    far_seed = model.neutral_configuration()
    far_seed[0] = 1e16
    rng = np.random.default_rng(18)
    goals = random_configuration(model, rng, 6)
    goals[:, :3] = rng.normal(size=(6, 3))
    tip = 'FL_FOOT'
    return model, tip, far_seed, model.forward_kinematics(goals).transform(tip)


def urdf(body, name='inline'):
    """Wrap link/joint elements into a robot document."""
    return f'<?xml version="1.0"?>\n<robot name="{name}">\n{body}\n</robot>\n'


def joint_xml(name, jtype, parent, child, xyz='0 0 0', rpy='0 0 0', axis='0 0 1', extra=''):
    """Write a joint element with limits for revolute/prismatic joints."""
    limit = '<limit lower="-2" upper="2" effort="1" velocity="1"/>' \
        if jtype in ('revolute', 'prismatic') else ''
    return (f'<joint name="{name}" type="{jtype}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="{xyz}" rpy="{rpy}"/>'
            f'<axis xyz="{axis}"/>{limit}{extra}</joint>')


def link_xml(name, mass=None, com='0 0 0'):
    """Write a link element, with an inertial when a mass is given."""
    if mass is None:
        return f'<link name="{name}"/>'
    return (f'<link name="{name}"><inertial><origin xyz="{com}" rpy="0.1 0.2 0.3"/>'
            f'<mass value="{mass}"/><inertia ixx="0.3" ixy="0.01" ixz="0.02" iyy="0.2" '
            f'iyz="0.03" izz="0.1"/></inertial></link>')


def all_joint_types_model(**kwargs):
    """Build a tree with every joint type, tilted axes, a mimic and inertials everywhere."""
    body = '\n'.join([
        link_xml('base', 1.0), link_xml('free', 2.0, '0.1 0 0'), link_xml('a', 1.5, '0 0.1 0'),
        link_xml('b', 0.7, '0 0 0.2'), link_xml('c', 0.4, '0.05 0.05 0'),
        link_xml('d', 0.3, '0 0 0.1'), link_xml('e', 0.2), link_xml('tip'),
        link_xml('plane', 0.5, '0.1 0.1 0'),
        joint_xml('j_free', 'floating', 'base', 'free', '0.1 0.2 0.3', '0.3 0.2 0.1'),
        joint_xml('j_rev', 'revolute', 'free', 'a', '0 0 0.3', '0.1 0 0', '0 0.6 0.8'),
        joint_xml('j_pri', 'prismatic', 'a', 'b', '0.2 0 0', '0 0.4 0', '1 0 0'),
        joint_xml('j_cont', 'continuous', 'b', 'c', '0 0.1 0.2', '0 0 0.5', '0 0 -1'),
        joint_xml('j_mimic', 'revolute', 'c', 'd', '0.1 0 0', '0 0 0', '0.6 0 0.8',
                  '<mimic joint="j_rev" multiplier="-1.5" offset="0.2"/>'),
        joint_xml('j_fixed', 'fixed', 'd', 'e', '0 0 0.1', '0.2 0.1 0'),
        joint_xml('j_tip', 'fixed', 'e', 'tip', '0.05 0.05 0.05'),
        joint_xml('j_planar', 'planar', 'base', 'plane', '0 0.5 0', '0 0 0', '0 0.6 0.8'),
    ])
    return Robot.from_urdf_string(urdf(body, 'all_types'), **kwargs)


@contextlib.contextmanager
def killed_on_exit(process: subprocess.Popen):
    """Give ``process``; on leaving, kill it if it still runs, close its pipes and reap it."""
    with process:
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()


class HostileName(str):
    """A str whose hash and equality fail: a name the library must read as a plain str."""

    def __hash__(self):
        raise RuntimeError('no hash')

    def __eq__(self, other):
        raise RuntimeError('no eq')


class ListLogger:
    """A bridge logger that collects its lines as ``(level, text)``."""

    def __init__(self) -> None:
        self.lines = []

    def info(self, text) -> None:
        self.lines.append(('info', text))

    def warning(self, text) -> None:
        self.lines.append(('warning', text))

    def error(self, text) -> None:
        self.lines.append(('error', text))

    def texts(self, level='warning'):
        """Return the lines of one level (every line for None)."""
        return [text for lvl, text in self.lines if level is None or lvl == level]


class LogLines(logging.Handler):
    """Collects the messages of one logger, whatever the logger class in use."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record) -> None:
        self.lines.append(record.getMessage())

    @property
    def text(self) -> str:
        """Return every collected message, one per line."""
        return '\n'.join(self.lines)


@pytest.fixture
def core_log():
    """
    Collect the log lines of the loggers named in the test, through a returned function.

    Usage: ``log = core_log('frame_kinematics.core.ik')``, then ``log.text``.

    Not pytest's caplog: in a sourced ROS 2 environment the launch_pytest plugin installs a
    logger class that does not propagate to the root logger, where caplog listens.
    """
    attached = []

    def attach(name: str) -> LogLines:
        logger = logging.getLogger(name)
        handler = LogLines()
        attached.append((logger, handler, logger.level))
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        return handler

    yield attach
    for logger, handler, level in attached:
        logger.removeHandler(handler)
        logger.setLevel(level)
