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
"""Tests of frame_kinematics.core.kinematics.forward: link poses, one or a batch."""

from conftest import all_joint_types_model, random_configuration
from frame_kinematics.core import ExpressedIn, Robot
from frame_kinematics.core.kinematics import BATCH_THRESHOLD
from kinematics_testing import model_fixture, MODEL_NAMES
import numpy as np
import pytest

model = model_fixture()


def test_mimic_joint_follows_master():
    model = all_joint_types_model()
    q = random_configuration(model, np.random.default_rng(2))
    state = model.forward_kinematics(q)
    mimic = model.joint('j_mimic')
    angle = -1.5 * q[model.joint('j_rev').idx_q] + 0.2
    from frame_kinematics.core.spatial import rotation_from_axis_angle
    expected = mimic.parent_T_joint[:3, :3] @ rotation_from_axis_angle(mimic.axis, angle)
    np.testing.assert_allclose(state.relative_transform('c', 'd')[:3, :3], expected,
                               atol=1e-14)
    assert 'j_mimic' not in model.joint_names


@pytest.mark.parametrize('size', [6, BATCH_THRESHOLD + 3])
@pytest.mark.parametrize('model', MODEL_NAMES, indirect=True)
def test_batched_results_equal_single_results(model, size):
    """Small batches are vectorised over links, large ones link by link: both agree."""
    rng = np.random.default_rng(9)
    q = random_configuration(model, rng, batch=size)
    v, a = rng.normal(size=(size, model.nv)), rng.normal(size=(size, model.nv))
    batch = model.forward_kinematics(q, v, a)
    assert batch.transform(model.links[-1].name).shape == (size, 4, 4)
    for b in range(0, size, 5):
        np.testing.assert_allclose(batch.local_poses[:, b],
                                   model.forward_kinematics(q[b]).local_poses, atol=1e-13)
        single = model.forward_kinematics(q[b], v[b], a[b])
        np.testing.assert_allclose(batch.poses[:, b], single.poses, atol=1e-14)
        for ref in ExpressedIn:
            link = model.links[-1].name
            np.testing.assert_allclose(batch.jacobian(link, [0.1, 0, 0], ref)[b],
                                       single.jacobian(link, [0.1, 0, 0], ref), atol=1e-14)
            np.testing.assert_allclose(batch.acceleration(link, expressed_in=ref)[b],
                                       single.acceleration(link, expressed_in=ref), atol=1e-13)
        np.testing.assert_allclose(batch.center_of_mass()[b], single.center_of_mass(),
                                   atol=1e-14)
        np.testing.assert_allclose(batch.centroidal_momentum()[b],
                                   single.centroidal_momentum(), atol=1e-13)
        np.testing.assert_allclose(batch.center_of_mass_jacobian()[b],
                                   single.center_of_mass_jacobian(), atol=1e-14)
    assert model.jacobian(q, model.links[-1].name).shape == (size, 6, model.nv)


def test_model_without_degrees_of_freedom():
    from conftest import urdf
    model = Robot.from_urdf_string(urdf(
        '<link name="a"><inertial><mass value="1"/></inertial></link><link name="b"/>'
        '<joint name="f" type="fixed"><parent link="a"/><child link="b"/>'
        '<origin xyz="1 0 0"/></joint>'))
    assert (model.nq, model.nv, model.joint_names) == (0, 0, ())
    for q in (np.zeros(0), np.zeros((BATCH_THRESHOLD + 1, 0))):
        state = model.forward_kinematics(q)
        np.testing.assert_allclose(state.transform('b')[..., :3, 3],
                                   np.broadcast_to([1.0, 0, 0], q.shape[:-1] + (3,)))
        assert state.jacobian('b').shape == q.shape[:-1] + (6, 0)
        assert state.center_of_mass_jacobian().shape == q.shape[:-1] + (3, 0)
