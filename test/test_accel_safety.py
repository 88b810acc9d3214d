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
Nothing reachable from a model, a state or a workspace crashes the process.

Every public callable of a model, its compiled backend's face (``model.executor`` and its
``tf``), a state and a workspace is called with hostile arguments, one argument at a time, in
a child process (a crash there fails the test instead of ending the test run). Each call
either answers or raises; the model, state and workspace raise only the library's own
errors.
"""

import os
import subprocess
import sys
import textwrap

from frame_kinematics import robots
from frame_kinematics.core import ExpressedIn, Robot, UnknownFrameError
from frame_kinematics.core.backend import numba_error
import numpy as np
import pytest

_PROBE = textwrap.dedent("""
    import inspect, sys
    import numpy as np
    from frame_kinematics import robots
    from frame_kinematics.core import ExpressedIn, FrameKinematicsError, Robot

    def read_only(array):
        array.setflags(write=False)
        return array

    model = Robot.from_urdf_file(robots.path(sys.argv[1]), backend=sys.argv[2])
    n, nq, nv = len(model.links), model.nq, model.nv
    q = model.neutral_configuration()
    state = model.forward_kinematics(q, np.zeros(nv), np.zeros(nv))
    tip = model.link_names[-1]
    GOOD = {'q': q, 'qs': np.stack([q, q]), 'link': tip, 'a': tip, 'b': tip, 'v': np.zeros(nv),
            'point': np.zeros(3), 'ref': ExpressedIn.LOCAL, 'expressed_in': 'local',
            'world': state.poses, 'rows': np.arange(n, dtype=np.int64), 'reference': 0,
            'q_out': np.empty(nq), 'name': 'q', 'values': {}, 'tip': tip,
            'target': np.eye(4)}
    HOSTILE = [None, 'abc', '', b'x', True, 10 ** 7, -1, 10 ** 100, 1e308, float('nan'),
               [1, 2], object(), np.zeros(0), np.zeros(1), np.zeros(2), np.zeros(nq + 7),
               np.full(nq, np.nan), np.full(nq, 1e308), np.zeros(nq, dtype=np.float32),
               np.zeros(2 * nq)[::2], np.zeros((1, 4, 4)), np.zeros((n + 3, 4, 4)),
               np.zeros((2, 2, 4, 4)), np.array([10 ** 6]), np.array([-5]),
               np.array([10 ** 6], dtype=np.int64), np.zeros((3, nq))[:, ::-1],
               np.ma.masked_array(np.zeros(nq), mask=True), ExpressedIn.WORLD,
               np.zeros((4, 4)), 'tool0'.encode(), read_only(np.zeros(nq)),
               read_only(np.zeros((n, 4, 4))), np.zeros(nq, dtype='>f8'),
               np.zeros(8 * nq + 1, dtype=np.uint8)[1:].view(np.float64)]
    SKIP = {'inverse_kinematics'}  # the IK solver's own suite covers it

    def good(param, index):
        if param.name in GOOD:
            return GOOD[param.name]
        if param.default is not inspect.Parameter.empty:
            return param.default
        return index

    foreign = []
    calls = 0
    for owner, strict in ((model, True), (model.executor, False),
                          (getattr(model.executor, 'tf', None), False), (state, True),
                          (model.workspace(), True)):
        if owner is None:
            continue
        for attr in sorted(dir(owner)):
            if attr.startswith('_') or attr in SKIP:
                continue
            function = getattr(owner, attr)
            if not callable(function) or inspect.isclass(function):
                continue
            try:
                params = [p for p in inspect.signature(function).parameters.values()
                          if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            except (TypeError, ValueError):
                continue
            for position in range(len(params)):
                for bad in HOSTILE:
                    args = [good(p, i) for i, p in enumerate(params)]
                    args[position] = bad
                    calls += 1
                    try:
                        function(*args)
                    except FrameKinematicsError:
                        pass
                    except Exception as error:
                        if strict:
                            foreign.append(f'{type(owner).__name__}.{attr} arg {position} '
                                           f'{bad!r:.40}: {type(error).__name__}: {error}')
    print('calls', calls)
    for line in foreign:
        print('foreign', line)
""")


def _backends():
    backends = ['numpy']
    try:
        import numba  # noqa: F401
        backends.append('numba')
    except ImportError:
        pass
    return backends


@pytest.mark.parametrize('robot', ['fk_arm', 'fk_quadruped'])
@pytest.mark.parametrize('backend', _backends())
def test_hostile_arguments_crash_nothing_and_get_the_library_errors(robot, backend):
    env = dict(os.environ, PYTHONFAULTHANDLER='1')
    done = subprocess.run([sys.executable, '-c', _PROBE, robot, backend], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith('calls ') and int(lines[0].split()[1]) > 500
    assert [line for line in lines if line.startswith('foreign')] == []


@pytest.fixture
def numba_arm():
    """Return the bundled arm on the compiled backend (skip without numba)."""
    if numba_error() is not None:
        pytest.skip('numba cannot be used here')
    return Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')


def test_a_read_only_point_is_taken_as_a_writable_one(numba_arm):
    rng = np.random.default_rng(19)
    q = numba_arm.neutral_configuration() + rng.uniform(-0.3, 0.3, numba_arm.nq)
    point = rng.uniform(-0.2, 0.2, 3)
    frozen = point.copy()
    frozen.setflags(write=False)
    tool = numba_arm.link_index('tool0')
    executor = numba_arm.executor
    for ref in ExpressedIn:
        expected = executor.checked_jacobian(q, tool, point, ref)
        np.testing.assert_array_equal(executor.checked_jacobian(q, tool, frozen, ref), expected)
        world = numba_arm.forward_kinematics(q).poses
        np.testing.assert_array_equal(executor.jacobian(world, tool, frozen, ref),
                                      executor.jacobian(world, tool, point, ref))
    assert not frozen.flags.writeable


def test_a_link_index_whose_conversion_fails_is_an_unknown_link_index(numba_arm):
    class BadIndex:

        def __index__(self):
            raise RuntimeError('no index')

        def __repr__(self):
            raise RuntimeError('no repr')

    q = numba_arm.neutral_configuration()
    with pytest.raises(UnknownFrameError, match='^unknown link index <BadIndex'):
        numba_arm.executor.checked_pose(q, BadIndex())


_LIARS = textwrap.dedent("""
    import numpy as np
    from frame_kinematics import robots
    from frame_kinematics.core import ExpressedIn, FrameKinematicsError, Robot

    model = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    executor, n, nq = model.executor, len(model.links), model.nq
    q = model.neutral_configuration()

    def liar(attribute, value):
        return type('Liar', (np.ndarray,), {attribute: property(lambda self: value)})

    class NotAnArray:
        __class__ = property(lambda self: np.ndarray)

    Shape, Flags = liar('shape', (n, 4, 4)), liar('flags', np.empty(1).flags)
    Float, Int = liar('dtype', np.dtype(np.float64)), liar('dtype', np.dtype(np.int64))
    Dims = liar('ndim', 3)
    frozen = np.frombuffer(bytes(n * 128), dtype=np.float64).reshape(n, 4, 4)
    CASES = {
        'short world': lambda: executor.checked_poses_into(q, np.empty(nq),
                                                           np.empty((1, 4, 4)).view(Shape)),
        'short q_out': lambda: executor.checked_poses_into(
            q, np.empty(1).view(liar('shape', (nq,))), np.empty((n, 4, 4))),
        'read-only world': lambda: executor.checked_poses_into(q, np.empty(nq),
                                                               frozen.view(Flags)),
        '2-D point': lambda: executor.checked_jacobian(
            q, 1, np.zeros((3, 3)).view(liar('shape', (3,))), ExpressedIn.LOCAL),
        'float32 point': lambda: executor.checked_jacobian(
            q, 1, np.zeros(3, np.float32).view(Float), ExpressedIn.LOCAL),
        'short poses': lambda: executor.center_of_mass(np.zeros((1, 4, 4)).view(Shape)),
        'float32 poses': lambda: executor.center_of_mass(
            np.zeros((n, 4, 4), np.float32).view(Float)),
        '3-D batch': lambda: executor.center_of_mass(np.zeros((n, 2, 4, 4)).view(Dims)),
        'short tf q': lambda: executor.tf.transforms(np.zeros(1).view(liar('shape', (nq,))),
                                                     np.arange(n)),
        'float rows': lambda: executor.tf.transforms(q, np.zeros(3).view(Int)),
        'not an array': lambda: executor.checked_poses_into(q, np.empty(nq), NotAnArray()),
        'overlapping outputs': lambda world=np.empty((n, 4, 4)): executor.checked_poses_into(
            q, world.reshape(-1)[16:16 + nq], world),
    }
    for name, call in CASES.items():
        try:
            call()
            print(name, 'answered')
        except FrameKinematicsError as error:
            print(name, 'refused')
        except Exception as error:
            print(name, 'foreign', type(error).__name__, error)
    print('bytes unchanged', bytes(frozen) == bytes(n * 128))
""")


def test_arrays_that_misreport_their_memory_are_checked_as_their_memory(numba_arm):
    done = subprocess.run([sys.executable, '-c', _LIARS], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONFAULTHANDLER='1'), timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert len(lines) == 13 and lines[-1] == 'bytes unchanged True', done.stdout
    assert [line for line in lines[:-1] if not line.endswith(' refused')] == [], done.stdout
