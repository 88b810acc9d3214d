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
Tests of frame_kinematics.core.accel: the Accelerator against the numpy reference.

Every quantity the compiled kernels give (poses, every Jacobian variant, CoM, CoM Jacobian)
must equal the numpy path's to 1e-12 on every bundled and real robot, and its one-call
paths refuse what the numpy path refuses. Skipped when numba is not installed.
"""

from accel_testing import assert_close, backend_pair
from conftest import random_configuration, REAL_ROBOTS
from frame_kinematics import robots
from frame_kinematics.core import backend, ConfigurationError, ExpressedIn, Robot
import numpy as np
import pytest

ROBOTS = tuple(f'bundled:{name}' for name in robots.names()) + ('all_types',) + \
    tuple(REAL_ROBOTS) + ('iiwa',)


@pytest.fixture(scope='module', params=ROBOTS)
def pair(request):
    pytest.importorskip('numba')
    return backend_pair(request.param)


@pytest.mark.parametrize('batch', [None, 3, 40])
def test_poses_jacobians_and_com_equal_numpy(pair, batch):
    reference, compiled = pair
    assert (reference.backend, compiled.backend) == ('numpy', 'numba')
    assert reference.executor is None and compiled.executor is not None
    q = random_configuration(reference, np.random.default_rng(11), batch)
    ours, theirs = compiled.forward_kinematics(q), reference.forward_kinematics(q)
    assert_close(ours.poses, theirs.poses)
    assert_close(ours.local_poses, theirs.local_poses)
    rng = np.random.default_rng(12)
    for link in reference.link_names:
        point = rng.uniform(-0.5, 0.5, 3)
        for ref in ('world', 'local', 'local_world_aligned'):
            for at in (None, point):
                assert_close(ours.jacobian(link, at, ref), theirs.jacobian(link, at, ref))
    if reference.total_mass > 0:
        assert_close(ours.center_of_mass(), theirs.center_of_mass())
        assert_close(ours.center_of_mass_jacobian(), theirs.center_of_mass_jacobian())


def test_compiled_state_is_read_only_and_keeps_no_caller_array(pair):
    _, compiled = pair
    q = random_configuration(compiled, np.random.default_rng(3))
    kept = q.copy()
    state = compiled.forward_kinematics(q)
    q += 1.0
    assert q.flags.writeable
    for array in (state.q, state.poses, state.local_poses):
        assert not array.flags.writeable
    np.testing.assert_array_equal(state.q, compiled.check_configuration(kept))
    moved = compiled.link_names[compiled.kernel.column_row[-1]]
    jac = state.jacobian(moved)
    jac[:] = 0.0
    assert np.any(state.jacobian(moved) != 0.0)


def _forms(q):
    """``q`` as the arrays and lists callers pass: the first two take the one-call path."""
    frozen_q = q.copy()
    frozen_q.setflags(write=False)
    strided = np.repeat(q, 2)[::2]
    return [q.copy(), frozen_q, q.tolist(), strided, q.astype(np.float32).astype(float)]


def test_the_one_call_paths_equal_numpy(pair):
    reference, compiled = pair
    q = random_configuration(reference, np.random.default_rng(21))
    forms = _forms(q)
    assert [compiled.executor.takes(f) for f in forms] == [True, True, False, True, True]
    rng = np.random.default_rng(22)
    for form in forms:
        ours, theirs = compiled.forward_kinematics(form), reference.forward_kinematics(form)
        assert_close(ours.poses, theirs.poses)
        assert_close(ours.q, theirs.q)
        for link in reference.link_names[::3] + reference.link_names[-1:]:
            assert_close(compiled.transform(form, link), reference.transform(form, link))
            point = rng.uniform(-0.5, 0.5, 3)
            for ref in ('world', 'LOCAL', 'local_world_aligned'):
                for at in (None, point, list(point)):
                    assert_close(compiled.jacobian(form, link, at, ref),
                                 reference.jacobian(form, link, at, ref))


def _error(call):
    with pytest.raises(ConfigurationError) as caught:
        call()
    return str(caught.value)


def test_the_one_call_paths_refuse_what_the_numpy_path_refuses():
    pytest.importorskip('numba')
    reference, compiled = backend_pair('bundled:fk_quadruped')
    good = random_configuration(reference, np.random.default_rng(5))
    assert compiled.layout.floating
    quaternion = slice(compiled.layout.floating[0][0] + 3, compiled.layout.floating[0][0] + 7)
    cases = [(0, np.nan), (2, np.inf), (8, -1e17), (quaternion, 1.01 * good[quaternion])]
    bads = []
    for index, value in cases:
        bad = good.copy()
        bad[index] = value
        bads.append(bad)
    bads += [good[:-1].copy(), np.append(good, 0.0), np.zeros(0)]  # the kernels check sizes
    for bad in bads:
        assert compiled.executor.takes(bad)
        for call in ('forward_kinematics', 'jacobian', 'transform'):
            args = (bad,) if call == 'forward_kinematics' else (bad, 'base_link')
            message = _error(lambda: getattr(compiled, call)(*args))
            assert message == _error(lambda: getattr(reference, call)(*args))
    swapped = good.astype('>f8')  # float64 of the other byte order: the Python checks convert it
    assert not compiled.executor.takes(swapped)
    assert_close(compiled.forward_kinematics(swapped).poses,
                 reference.forward_kinematics(good).poses)
    near = good.copy()
    near[quaternion] *= 1.0 + 5e-5
    assert_close(compiled.forward_kinematics(near).q, reference.check_configuration(near))
    assert np.linalg.norm(compiled.forward_kinematics(near).q[quaternion]) == \
        pytest.approx(1.0, abs=1e-15)


def test_every_one_call_path_takes_the_same_configurations(pair):
    _, compiled = pair
    accelerator = compiled.executor
    q = random_configuration(compiled, np.random.default_rng(23))
    for form in _forms(q) + [q.astype('>f8'), np.stack([q, q]), q.astype(np.float32)]:
        taken = accelerator.takes(form)
        assert (accelerator.checked_poses(form) is not None) == taken
        assert (accelerator.checked_pose(form, len(compiled.links) - 1) is not None) == taken
        assert (accelerator.checked_jacobian(form, 0, None, ExpressedIn.LOCAL) is not None) == \
            taken
        workspace = (np.empty(compiled.nq), np.empty((len(compiled.links), 4, 4)))
        assert accelerator.checked_poses_into(form, *workspace) == taken


def test_a_massless_robot_has_no_center_of_mass_on_either_backend():
    pytest.importorskip('numba')
    text = ('<robot name="light"><link name="a"/><link name="b"/>'
            '<joint name="j" type="continuous"><parent link="a"/><child link="b"/>'
            '<axis xyz="0 0 1"/></joint></robot>')
    for name in backend.BACKENDS:
        state = Robot.from_urdf_string(text, backend=name).forward_kinematics([0.3])
        with pytest.raises(ConfigurationError, match='no mass'):
            state.center_of_mass()
        with pytest.raises(ConfigurationError, match='no mass'):
            state.center_of_mass_jacobian()


def test_a_bad_point_is_refused_by_the_compiled_jacobian():
    pytest.importorskip('numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    state = model.forward_kinematics(model.neutral_configuration())
    for point in ([1.0, np.nan, 0.0], [1.0, 2.0], 'abc'):
        with pytest.raises(ConfigurationError, match='point'):
            state.jacobian('tool0', point)
