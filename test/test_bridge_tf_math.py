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
"""The joint transforms the bridge publishes (frame_kinematics.bridge.tf_math)."""

from bridge_testing import ARM, ARM_JOINTS, as_matrix, compose, full_state, js, make, SEC
from conftest import ListLogger, random_configuration, real_robot_path
from frame_kinematics import robots
from frame_kinematics.bridge import Bridge
from frame_kinematics.core import Robot
from hypothesis import given, settings as hsettings, strategies as st
import numpy as np
import pytest


def test_transforms_equal_the_core_forward_kinematics_for_every_link():
    bridge, _, _ = make()
    model = bridge.model
    rng = np.random.default_rng(11)
    static = bridge.initial_output(0).tf_static
    for k in range(5):
        q = random_configuration(model, rng)
        out = bridge.on_joint_state(full_state(bridge, q, stamp=(k + 1) * SEC), (k + 1) * SEC)
        poses = compose(static + out.tf, model.root_link)
        state = model.forward_kinematics(q)
        for link in model.link_names:
            np.testing.assert_allclose(poses[link], state.transform(link), atol=1e-12)
        for link in model.links:
            if link.mass > 0:
                np.testing.assert_allclose(poses[link.name + '_com'][:3, 3],
                                           state.position(link.name, link.link_p_com),
                                           atol=1e-12)
        np.testing.assert_allclose(poses['com'][:3, 3], state.center_of_mass(), atol=1e-12)


@pytest.mark.parametrize('robot', ['fk_quadruped', 'ur5', 'panda', 'talos', 'solo12', 'iiwa'])
def test_transforms_equal_the_core_on_real_robots(robot):
    """The bridge's TF (the joint kernel's quaternions) against the core's FK, every robot."""
    path = robots.path(robot) if robot == 'fk_quadruped' else real_robot_path(robot)
    model = Robot.from_urdf_file(path)
    bridge = Bridge(model.urdf, logger=ListLogger())
    rng = np.random.default_rng(2)
    q = random_configuration(model, rng)
    static = bridge.initial_output(0).tf_static
    out = bridge.on_joint_state(full_state(bridge, q), SEC)
    poses = compose(static + out.tf, model.root_link)
    state = model.forward_kinematics(q)
    for link in model.link_names:
        np.testing.assert_allclose(poses[link], state.transform(link), atol=1e-11)


@hsettings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-3.0, 3.0), min_size=7, max_size=7),
       st.sets(st.sampled_from(ARM_JOINTS), min_size=1))
def test_each_published_transform_is_the_core_local_pose(values, subset):
    bridge = Bridge(ARM, logger=ListLogger())
    names = sorted(subset)
    q = bridge.model.neutral_configuration()
    for name, value in zip(ARM_JOINTS, values):
        q[bridge.model.joint(name).idx_q] = value
    positions = [q[bridge.model.joint(n).idx_q] for n in names]
    out = bridge.on_joint_state(js(names, positions), SEC)
    state = bridge.model.forward_kinematics(bridge.configuration)
    for transform in out.tf:
        if transform.child == 'com':
            continue
        local = state.local_poses[bridge.model.link_index(transform.child)]
        np.testing.assert_allclose(as_matrix(transform), local, atol=1e-12)
        assert transform.stamp_ns == SEC
