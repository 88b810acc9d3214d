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
"""Tests of frame_kinematics.core.backend: which backend a robot gets, and its cache."""

import os
import time

from frame_kinematics import robots
from frame_kinematics.core import backend, BackendError, Robot
import pytest


def test_the_argument_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, 'numba')
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numpy')
    assert model.backend == 'numpy' and model.executor is None


def test_the_environment_variable_selects_numpy(monkeypatch):
    monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, ' NumPy ')
    assert backend.resolve() == 'numpy'
    assert Robot.from_urdf_file(robots.path('fk_arm')).backend == 'numpy'


def test_auto_picks_numba_exactly_when_it_imports(monkeypatch):
    monkeypatch.delenv(backend.ENVIRONMENT_VARIABLE, raising=False)
    expected = 'numba' if backend.numba_error() is None else 'numpy'
    assert backend.resolve() == expected
    assert backend.resolve('auto') == expected
    assert Robot.from_urdf_file(robots.path('fk_arm')).backend == expected


@pytest.mark.parametrize('bad', ['numpyy', '', 'fast' * 30, 3, None])
def test_unknown_backends_are_refused(monkeypatch, bad):
    if bad is None:
        monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, 'cuda')
        with pytest.raises(BackendError, match=backend.ENVIRONMENT_VARIABLE):
            backend.resolve()
        return
    with pytest.raises(BackendError) as error:
        Robot.from_urdf_file(robots.path('fk_arm'), backend=bad)
    assert len(str(error.value)) < 200


def test_numba_asked_for_without_numba_is_refused():
    if backend.numba_error() is None:
        pytest.skip('numba is installed')
    with pytest.raises(BackendError, match="'.\\[fast\\]'"):
        backend.resolve('numba')


def test_cache_directory_follows_the_environment():
    variable = backend.CACHE_VARIABLE
    assert backend.cache_directory({variable: '/x/kernels', 'XDG_CACHE_HOME': '/y'}) == \
        '/x/kernels'
    assert backend.cache_directory({'XDG_CACHE_HOME': '/x/cache'}) == \
        os.path.join('/x/cache', 'frame_kinematics', 'numba')
    assert backend.cache_directory({}) == os.path.join(
        os.path.expanduser('~'), '.cache', 'frame_kinematics', 'numba')


def test_choosing_a_backend_writes_no_environment(monkeypatch):
    for name in ('NUMBA_CACHE_DIR', 'NUMBA_THREADING_LAYER'):
        monkeypatch.delenv(name, raising=False)
    before = dict(os.environ)
    backend.resolve('auto')
    backend.numba_error()
    assert dict(os.environ) == before


@pytest.mark.parametrize('missing', ['clock_gettime', 'CLOCK_MONOTONIC'])
def test_without_the_posix_clock_auto_falls_back_to_numpy_with_a_notice(monkeypatch, missing,
                                                                        core_log):
    pytest.importorskip('numba')
    monkeypatch.delattr(time, missing)
    log = core_log('frame_kinematics.core')
    assert backend.resolve('auto') == 'numpy'
    assert 'POSIX monotonic clock' in log.text and len(log.lines) == 1
    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='auto')
    assert model.backend == 'numpy' and model.executor is None
    with pytest.raises(BackendError, match='POSIX monotonic clock'):
        backend.resolve('numba')


def test_describe_names_the_backend():
    assert backend.describe('numpy').startswith('numpy ')
    if backend.numba_error() is None:
        assert backend.describe('numba').startswith('numba ')
        assert backend.cache_directory() in backend.describe('numba')


def test_the_compiled_cache_says_whether_it_can_be_written_and_what_it_holds(tmp_path):
    pytest.importorskip('numba')
    blocker = tmp_path / 'a_file'
    blocker.write_text('')
    assert backend.compiled_cache(str(blocker / 'cache')) is None  # a file is in the way
    assert backend.compiled_cache(str(tmp_path / 'empty')) is False  # nothing compiled there
