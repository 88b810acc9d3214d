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
The compiled backend (numba) against the numpy reference, and the backend selection.

Both backends evaluate the same joint-kernel tables; every quantity the compiled kernels
give (poses, every Jacobian variant, CoM, CoM Jacobian) must equal the numpy path's to
1e-12 on every bundled and real robot. Skipped when numba is not installed.
"""

import os

from conftest import all_joint_types_model, random_configuration, real_robot_path, REAL_ROBOTS
from frame_kinematics import robots
from frame_kinematics.core import backend, BackendError, ConfigurationError, RobotModel
import numpy as np
import pytest

TOLERANCE = 1e-12
ROBOTS = tuple(f'bundled:{name}' for name in robots.names()) + ('all_types',) + \
    tuple(REAL_ROBOTS) + ('iiwa',)
FLOATING = {'bundled:fk_quadruped': True}


def _pair(name):
    """The same robot on both backends: ``(numpy model, numba model)``."""
    if name == 'all_types':
        return tuple(all_joint_types_model(backend=b) for b in backend.BACKENDS)
    if name.startswith('bundled:'):
        path, floating = robots.path(name[8:]), FLOATING.get(name, False)
    else:
        path, floating = real_robot_path(name), REAL_ROBOTS.get(name, ('', False))[1]
    return tuple(RobotModel.from_urdf_file(path, floating_base=floating, backend=b)
                 for b in backend.BACKENDS)


@pytest.fixture(scope='module', params=ROBOTS)
def pair(request):
    pytest.importorskip('numba')
    return _pair(request.param)


def _close(a, b):
    np.testing.assert_allclose(a, b, rtol=0.0, atol=TOLERANCE)


@pytest.mark.parametrize('batch', [None, 3, 40])
def test_poses_jacobians_and_com_equal_numpy(pair, batch):
    reference, compiled = pair
    assert (reference.backend, compiled.backend) == ('numpy', 'numba')
    assert reference.accelerator is None and compiled.accelerator is not None
    q = random_configuration(reference, np.random.default_rng(11), batch)
    ours, theirs = compiled.forward_kinematics(q), reference.forward_kinematics(q)
    _close(ours.poses, theirs.poses)
    _close(ours.local_poses, theirs.local_poses)
    rng = np.random.default_rng(12)
    for link in reference.link_names:
        point = rng.uniform(-0.5, 0.5, 3)
        for ref in ('world', 'local', 'local_world_aligned'):
            for at in (None, point):
                _close(ours.jacobian(link, at, ref), theirs.jacobian(link, at, ref))
    if reference.total_mass > 0:
        _close(ours.center_of_mass(), theirs.center_of_mass())
        _close(ours.center_of_mass_jacobian(), theirs.center_of_mass_jacobian())


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


def test_a_massless_robot_has_no_center_of_mass_on_either_backend():
    pytest.importorskip('numba')
    text = ('<robot name="light"><link name="a"/><link name="b"/>'
            '<joint name="j" type="continuous"><parent link="a"/><child link="b"/>'
            '<axis xyz="0 0 1"/></joint></robot>')
    for name in backend.BACKENDS:
        state = RobotModel.from_urdf_string(text, backend=name).forward_kinematics([0.3])
        with pytest.raises(ConfigurationError, match='no mass'):
            state.center_of_mass()
        with pytest.raises(ConfigurationError, match='no mass'):
            state.center_of_mass_jacobian()


def test_a_bad_point_is_refused_by_the_compiled_jacobian():
    pytest.importorskip('numba')
    model = RobotModel.from_urdf_file(robots.path('fk_arm'), backend='numba')
    state = model.forward_kinematics(model.neutral_configuration())
    for point in ([1.0, np.nan, 0.0], [1.0, 2.0], 'abc'):
        with pytest.raises(ConfigurationError, match='point'):
            state.jacobian('tool0', point)


# -- backend selection ----------------------------------------------------------------------
def test_the_argument_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, 'numba')
    model = RobotModel.from_urdf_file(robots.path('fk_arm'), backend='numpy')
    assert model.backend == 'numpy' and model.accelerator is None


def test_the_environment_variable_selects_numpy(monkeypatch):
    monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, ' NumPy ')
    assert backend.resolve() == 'numpy'
    assert RobotModel.from_urdf_file(robots.path('fk_arm')).backend == 'numpy'


def test_auto_picks_numba_exactly_when_it_imports(monkeypatch):
    monkeypatch.delenv(backend.ENVIRONMENT_VARIABLE, raising=False)
    expected = 'numba' if backend.numba_error() is None else 'numpy'
    assert backend.resolve() == expected
    assert backend.resolve('auto') == expected
    assert RobotModel.from_urdf_file(robots.path('fk_arm')).backend == expected


@pytest.mark.parametrize('bad', ['numpyy', '', 'fast' * 30, 3, None])
def test_unknown_backends_are_refused(monkeypatch, bad):
    if bad is None:
        monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, 'cuda')
        with pytest.raises(BackendError, match=backend.ENVIRONMENT_VARIABLE):
            backend.resolve()
        return
    with pytest.raises(BackendError) as error:
        RobotModel.from_urdf_file(robots.path('fk_arm'), backend=bad)
    assert len(str(error.value)) < 200


def test_numba_asked_for_without_numba_is_refused():
    if backend.numba_error() is None:
        pytest.skip('numba is installed')
    with pytest.raises(BackendError, match='frame_kinematics\\[fast\\]'):
        backend.resolve('numba')


def test_cache_directory_defaults_to_the_user_cache():
    assert backend.default_cache_directory({'XDG_CACHE_HOME': '/x/cache'}) == \
        os.path.join('/x/cache', 'frame_kinematics', 'numba')
    home = backend.default_cache_directory({})
    assert home == os.path.join(os.path.expanduser('~'), '.cache', 'frame_kinematics', 'numba')


def test_describe_names_the_backend():
    assert backend.describe('numpy').startswith('backend numpy ')
    if backend.numba_error() is None:
        assert backend.describe('numba').startswith('backend numba ')
