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
"""The in-place workspace against new states, on both backends; its refusals change nothing."""

from conftest import all_joint_types_model, bundled, random_configuration
from frame_kinematics.core import ConfigurationError, KinematicsWorkspace, UnknownFrameError
import numpy as np
import pytest

MODELS = ('fk_arm', 'fk_quadruped', 'all_types')


@pytest.fixture(params=[(name, b) for name in MODELS for b in ('numpy', 'numba')],
                ids=lambda p: f'{p[0]}-{p[1]}')
def model(request):
    name, backend = request.param
    if backend == 'numba':
        pytest.importorskip('numba')
    if name == 'all_types':
        return all_joint_types_model(backend=backend)
    return bundled(name, floating_base=name == 'fk_quadruped', backend=backend)


def test_a_workspace_starts_neutral_and_follows_every_configuration(model):
    workspace = model.workspace()
    assert isinstance(workspace, KinematicsWorkspace)
    neutral = model.forward_kinematics(model.neutral_configuration())
    np.testing.assert_array_equal(workspace.q, neutral.q)
    np.testing.assert_allclose(workspace.poses, neutral.poses, rtol=0, atol=1e-15)
    rng = np.random.default_rng(3)
    poses, q_view = workspace.poses, workspace.q
    for q in random_configuration(model, rng, batch=5):
        state = model.forward_kinematics(q)
        for form in (q, q.tolist(), q[::1].copy(), np.repeat(q, 2)[::2]):
            out = workspace.forward_kinematics(form)
            assert out is poses and workspace.poses is poses and workspace.q is q_view
            np.testing.assert_allclose(out, state.poses, rtol=0, atol=1e-12)
            np.testing.assert_allclose(workspace.q, state.q, rtol=0, atol=1e-15)
        link = model.link_names[-1]
        np.testing.assert_allclose(workspace.transform(link), state.transform(link), atol=1e-12)
        np.testing.assert_allclose(workspace.state().poses, state.poses, atol=1e-12)


def test_what_a_workspace_exposes_cannot_be_written_and_keeps_no_caller_array(model):
    workspace = model.workspace()
    q = random_configuration(model, np.random.default_rng(4))
    workspace.forward_kinematics(q)
    for array in (workspace.q, workspace.poses):
        assert not array.flags.writeable
        with pytest.raises(ValueError):
            array[0] = 0.0
    before = workspace.poses.copy()
    q += 0.3  # the caller's array is copied, not kept
    np.testing.assert_array_equal(workspace.poses, before)
    pose = workspace.transform(model.link_names[-1])
    pose[:] = 0.0  # a copy
    np.testing.assert_array_equal(workspace.poses, before)
    other = bundled('fk_quadruped', floating_base=True, backend=model.backend)
    for name, value in (('executor', other.executor), ('model', other)):
        with pytest.raises(AttributeError):  # bound to the workspace's arrays
            setattr(workspace, name, value)
    np.testing.assert_array_equal(workspace.forward_kinematics(workspace.q.copy()), before)


@pytest.mark.parametrize('bad', ['nan', 'inf', 'huge', 'short', 'long', 'batch', 'text', 'bytes',
                                 'none', 'object'])
def test_a_refused_configuration_leaves_the_workspace_as_it_was(model, bad):
    workspace = model.workspace()
    good = random_configuration(model, np.random.default_rng(5))
    workspace.forward_kinematics(good)
    q_before, poses_before = workspace.q.copy(), workspace.poses.copy()
    value = {'nan': np.where(np.arange(model.nq) == model.nq - 1, np.nan, good),
             'inf': np.full(model.nq, np.inf), 'huge': np.full(model.nq, 1e308),
             'short': good[:-1].copy(), 'long': np.append(good, 0.0),
             'batch': np.stack([good, good]), 'text': 'abc', 'bytes': b'\x00' * 8,
             'none': None, 'object': np.array([object()] * model.nq)}[bad]
    with pytest.raises(ConfigurationError) as caught:
        workspace.forward_kinematics(value)
    assert len(str(caught.value)) < 400
    np.testing.assert_array_equal(workspace.q, q_before)
    np.testing.assert_array_equal(workspace.poses, poses_before)


def test_a_bad_quaternion_is_refused_without_a_change():
    for backend in ('numpy', 'numba'):
        if backend == 'numba':
            pytest.importorskip('numba')
        model = bundled('fk_quadruped', floating_base=True, backend=backend)
        workspace = model.workspace()
        before = workspace.poses.copy()
        q = model.neutral_configuration()
        start = model.layout.floating[0][0] + 3
        q[start:start + 4] = [0.0, 0.0, 0.0, 1.2]
        with pytest.raises(ConfigurationError, match='quaternion'):
            workspace.forward_kinematics(q)
        np.testing.assert_array_equal(workspace.poses, before)


def test_an_unknown_link_is_refused(model):
    with pytest.raises(UnknownFrameError):
        model.workspace().transform('no_such_link')
