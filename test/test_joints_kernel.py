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
"""Tests of frame_kinematics.core.joints.kernel: JointKernel's evaluations and tables."""

from conftest import all_joint_types_model, bundled, random_configuration, real_robot_path
from frame_kinematics.core import Robot
from frame_kinematics.core.joints import JointKernel, JointType
from frame_kinematics.core.spatial import quaternion_from_rotation, rotation_from_quaternion
import numpy as np
import pytest

RNG_SEED = 7


#: The models every joint evaluation is checked on, by name (their test ids).
MODEL_NAMES = ('all_types', 'fk_arm', 'fk_quadruped', 'panda', 'talos')


@pytest.fixture(scope='module')
def model(request):
    """Build the model named by the test's parameter, once for the module."""
    name = request.param
    if name == 'all_types':
        return all_joint_types_model()
    if name in ('panda', 'talos'):  # skips the test when the robot data is missing
        return Robot.from_urdf_file(real_robot_path(name), floating_base=(name == 'talos'))
    return bundled(name)


def _reference_local(model, q):
    """``parent_T_link`` of every link from JointType.transform alone."""
    kernel = model.kernel
    out = np.empty((kernel.n_rows, 4, 4))
    out[0] = np.eye(4)
    for joint in model.joints:
        row = model.link_index(joint.child)
        source = joint if joint.mimic is None else model.joint(joint.mimic[0])
        if joint.type.one_dof:
            multiplier, offset = (1.0, 0.0) if joint.mimic is None else joint.mimic[1:]
            coords = q[source.idx_q:source.idx_q + 1] * multiplier + offset
        else:
            coords = q[joint.idx_q:joint.idx_q + joint.nq]
        out[row] = joint.parent_T_joint @ joint.type.transform(joint.axis, coords)
    return out


@pytest.mark.parametrize('model', MODEL_NAMES, indirect=True)
def test_every_evaluation_equals_the_type_definition(model):
    rng = np.random.default_rng(RNG_SEED)
    qs = random_configuration(model, rng, batch=20)
    kernel = model.kernel
    batch_local = kernel.local_transforms(qs)
    prepared = kernel.prepare_batch_last(qs)
    for b, q in enumerate(qs):
        expected = _reference_local(model, q)
        np.testing.assert_allclose(kernel.local_transforms(q), expected, atol=1e-13)
        np.testing.assert_allclose(batch_local[:, b], expected, atol=1e-13)
        xyz, quat = kernel.local_tf(q, np.arange(kernel.n_rows))
        np.testing.assert_allclose(xyz, expected[:, :3, 3], atol=1e-13)
        np.testing.assert_allclose(rotation_from_quaternion(quat), expected[:, :3, :3],
                                   atol=1e-13)
        np.testing.assert_allclose(np.linalg.norm(quat, axis=-1), 1.0, atol=1e-14)
    for row in range(1, kernel.n_rows):
        if not kernel.moves[row]:
            continue
        # Start from arbitrary poses: the motion is a right product, whatever the start.
        start = np.stack([np.eye(4)[:3] @ kernel.origin[row]] * len(qs), axis=-1)
        start = start + rng.normal(scale=0.1, size=start.shape)
        pose = start.copy()
        kernel.move_batch_last(row, pose, prepared)
        for b in range(len(qs)):
            full = np.vstack([start[..., b], [0, 0, 0, 1]]) @ np.linalg.inv(kernel.origin[row])
            expected = full @ batch_local[row, b]
            np.testing.assert_allclose(pose[..., b], expected[:3], atol=1e-12)


@pytest.mark.parametrize('model', MODEL_NAMES, indirect=True)
def test_one_configuration_is_a_batch_of_one_and_tf_is_its_transforms_as_quaternions(model):
    """One joint evaluation: no second formula for one configuration or for TF."""
    kernel = model.kernel
    q = random_configuration(model, np.random.default_rng(RNG_SEED))
    local = kernel.local_transforms(q)
    assert np.array_equal(local, kernel.local_transforms(q[None])[:, 0])
    rows = np.arange(kernel.n_rows)[::-1]
    xyz, quat = kernel.local_tf(q, rows)
    assert np.array_equal(xyz, local[rows, :3, 3])
    assert np.array_equal(quat, quaternion_from_rotation(local[rows, :3, :3]))


def test_kernel_tables_cannot_be_written():
    kernel = bundled('fk_arm').kernel
    for name in ('type_code', 'axis', 'origin', 'q_index', 'multiplier', 'offset',
                 'column_row', 'column_v', 'column_multiplier', 'column_twist', 'origin_t'):
        table = getattr(kernel, name)
        assert table.dtype.kind in 'if'
        with pytest.raises(ValueError):
            table.flags.writeable = True
        with pytest.raises(ValueError):
            table[...] = 0


def test_kernel_copies_its_inputs():
    origin = np.stack([np.eye(4)] * 2)
    axis = np.array([[1.0, 0, 0], [0, 0, 1.0]])
    kernel = JointKernel([JointType.FIXED, JointType.REVOLUTE], axis, origin, [-1, 0],
                         [-1, 0], [1.0, 1.0], [0.0, 0.0])
    origin[1, 0, 3] = 5.0
    axis[1] = [1.0, 0, 0]
    assert kernel.origin[1, 0, 3] == 0.0 and np.array_equal(kernel.axis[1], [0, 0, 1.0])
    assert origin.flags.writeable and axis.flags.writeable
