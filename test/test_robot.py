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
A robot is a model with the backend that evaluates it, and its methods are thin sugar.

Its results equal those of the algorithms over the model data with the same backend
(``KinematicsState(model, q, backend=...)``, ``IKSolver(model, ..., backend=...)``); a
state or a workspace can take another backend than the robot's, and refuses anything that is
not a backend.
"""

from conftest import HostileName, random_configuration
from frame_kinematics import robots
from frame_kinematics.core import BackendError, ConfigurationError, ExpressedIn, ik, IKSolver, \
    KinematicsState, KinematicsWorkspace, Robot, RobotModel, UnknownFrameError
from frame_kinematics.core.backend import numba_error
from frame_kinematics.core.ik import JointSelection
from frame_kinematics.core.kinematics import state as state_module
import numpy as np
import pytest

TOL = 1e-12
BACKENDS = ['numpy', pytest.param('numba', marks=pytest.mark.skipif(
    numba_error() is not None, reason='numba cannot be used here'))]


@pytest.fixture
def model():
    """Load the bundled arm as data."""
    return RobotModel.from_urdf_file(robots.path('fk_arm'))


@pytest.mark.parametrize('backend', BACKENDS)
def test_robot_results_equal_the_algorithms_over_the_model(model, backend):
    robot = Robot(model, backend=backend)
    rng = np.random.default_rng(5)
    for size in (None, 3, 20):
        q = random_configuration(model, rng, size)
        v = rng.normal(size=q.shape[:-1] + (model.nv,))
        state = KinematicsState(model, q, v, backend=backend)
        ours = robot.forward_kinematics(q, v)
        assert ours.backend == state.backend == backend
        np.testing.assert_allclose(ours.poses, state.poses, rtol=0, atol=TOL)
        np.testing.assert_allclose(robot.transform(q, 'tool0'), state.transform('tool0'),
                                   rtol=0, atol=TOL)
        for expressed in ExpressedIn:
            np.testing.assert_allclose(robot.jacobian(q, 'tool0', [0.1, 0, 0], expressed),
                                       state.jacobian('tool0', [0.1, 0, 0], expressed),
                                       rtol=0, atol=TOL)
        mass, com = robot.center_of_mass(q)
        assert mass == model.total_mass
        np.testing.assert_allclose(com, state.center_of_mass(), rtol=0, atol=TOL)
        np.testing.assert_allclose(ours.centroidal_momentum(), state.centroidal_momentum(),
                                   rtol=0, atol=TOL)
    workspace = KinematicsWorkspace(model, backend=backend)
    assert robot.workspace().executor is robot.executor
    np.testing.assert_allclose(workspace.forward_kinematics(q[0]),
                               robot.workspace().forward_kinematics(q[0]), rtol=0, atol=TOL)


@pytest.mark.parametrize('backend', BACKENDS)
def test_a_robot_state_without_velocity_is_the_constructors_to_the_last_bit(model, backend):
    robot = Robot(model, backend=backend)
    q = random_configuration(model, np.random.default_rng(9))
    frozen = q.copy()
    frozen.setflags(write=False)
    for form in (q, frozen, np.repeat(q, 2)[::2], q.tolist(), q.astype(np.float32), q[None],
                 q.astype('>f8')):
        ours, theirs = robot.forward_kinematics(form), KinematicsState(robot, form)
        assert type(ours) is KinematicsState and ours.model is robot
        assert ours.executor is robot.executor and ours.backend == backend
        assert (ours.v, ours.a, ours.batch_shape) == (None, None, theirs.batch_shape)
        for name in ('q', 'poses', 'local_poses'):
            assert not getattr(ours, name).flags.writeable
            np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))
        assert not np.shares_memory(ours.q, q) and not np.shares_memory(ours.q, frozen)
    for index, value in ((0, np.nan), (1, 1e308)):
        bad = q.copy()
        bad[index] = value
        with pytest.raises(ConfigurationError) as ours:
            robot.forward_kinematics(bad)
        with pytest.raises(ConfigurationError) as theirs:
            KinematicsState(robot, bad)
        assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize('backend', BACKENDS)
def test_robot_inverse_kinematics_equals_a_solver_over_the_model(model, backend):
    robot = Robot(model, backend=backend)
    goal = random_configuration(model, np.random.default_rng(8))
    target = robot.transform(goal, 'tool0')
    options = {'seed': model.neutral_configuration(), 'restarts': 0, 'max_iterations': 50,
               'time_budget': 60.0}
    ours = robot.inverse_kinematics('tool0', target, **options)
    theirs = IKSolver(model, 'tool0', backend=backend).solve(target, **options)
    assert ours.success == theirs.success and ours.iterations == theirs.iterations
    np.testing.assert_allclose(ours.q, theirs.q, rtol=0, atol=TOL)
    assert len(robot.ik_solvers) == 1


def test_wrapping_a_model_shares_its_data_and_parses_nothing(model, monkeypatch):
    import frame_kinematics.core.model as model_module
    monkeypatch.setattr(model_module, 'load_urdf', None)  # a parse would fail
    robot = Robot(model, backend='numpy')
    assert robot.kernel is model.kernel and robot.link_masses is model.link_masses
    assert robot.urdf == model.urdf and robot.joint_names == model.joint_names
    assert isinstance(robot, RobotModel) and not hasattr(model, 'executor')
    assert 'backend=' in repr(robot)


@pytest.mark.skipif(numba_error() is not None, reason='numba cannot be used here')
def test_a_robot_wrapping_another_takes_its_own_backend(model):
    compiled = Robot(model, 'numba')
    rewrapped = Robot(compiled, 'numpy')
    assert rewrapped.backend == 'numpy' and rewrapped.executor is None
    assert rewrapped.ik_solvers is not compiled.ik_solvers
    again = Robot(rewrapped, 'numba')
    assert again.backend == 'numba' and again.executor is not None
    assert again.executor.serves(model) and again.kernel is model.kernel


@pytest.mark.skipif(numba_error() is not None, reason='numba cannot be used here')
def test_a_state_takes_another_backend_than_its_robots(model):
    q = random_configuration(model, np.random.default_rng(2))
    compiled, reference = Robot(model, backend='numba'), Robot(model, backend='numpy')
    on_numpy = KinematicsState(compiled, q, backend='numpy')
    assert on_numpy.executor is None and on_numpy.backend == 'numpy'
    on_numba = KinematicsState(reference, q, backend='numba')
    assert on_numba.executor is not None and on_numba.backend == 'numba'
    assert KinematicsState(compiled, q).executor is compiled.executor
    assert KinematicsState(compiled, q, backend='numba').executor is compiled.executor
    assert KinematicsState(model, q, backend=compiled.executor).executor is compiled.executor
    assert KinematicsWorkspace(compiled, backend='numpy').executor is None
    np.testing.assert_allclose(on_numpy.poses, on_numba.poses, rtol=0, atol=TOL)


def test_a_plain_model_takes_the_process_default(model, monkeypatch):
    monkeypatch.setenv('FRAME_KINEMATICS_BACKEND', 'numpy')
    assert KinematicsState(model, model.neutral_configuration()).executor is None
    assert KinematicsWorkspace(model).executor is None


HOSTILE = [b'numpy', 1e308, float('nan'), '', ' ', 'x' * 10**6, 'numpy\x00', '/dev/zero',
           ['numpy'], ('numpy',), True, 0, object(), np.array(['numpy']), np.float64(1.0),
           'numba;rm -rf /', 'NUMPY2']


@pytest.mark.parametrize('bad', HOSTILE, ids=[type(b).__name__ + str(i)
                                              for i, b in enumerate(HOSTILE)])
def test_hostile_backends_are_refused_with_backend_error(model, bad):
    q = model.neutral_configuration()
    for make in (lambda: KinematicsState(model, q, backend=bad),
                 lambda: KinematicsWorkspace(model, backend=bad),
                 lambda: IKSolver(model, 'tool0', backend=bad),
                 lambda: Robot(model, backend=bad)):
        with pytest.raises(BackendError) as info:
            make()
        assert len(str(info.value)) < 300


@pytest.mark.skipif(numba_error() is not None, reason='numba cannot be used here')
def test_an_executor_of_another_model_is_refused(model):
    other = Robot.from_urdf_file(robots.path('fk_quadruped'), backend='numba')
    with pytest.raises(BackendError, match='fk_quadruped'):
        KinematicsState(model, model.neutral_configuration(), backend=other.executor)
    with pytest.raises(BackendError, match='fk_quadruped'):
        KinematicsWorkspace(model, backend=other.executor)


@pytest.mark.skipif(numba_error() is not None, reason='numba cannot be used here')
def test_a_state_or_workspace_given_as_the_model_is_refused():
    robot = Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    q = robot.neutral_configuration()
    for carrier in (robot.forward_kinematics(q), robot.workspace()):
        with pytest.raises(ConfigurationError, match=type(carrier).__name__):
            KinematicsState(carrier, q)


@pytest.mark.parametrize('not_a_model', [None, 'fk_arm', b'<robot/>', object()])
def test_algorithms_refuse_what_is_not_a_model_by_name(model, not_a_model):
    q = model.neutral_configuration()
    calls = [lambda: KinematicsState(not_a_model, q), lambda: KinematicsWorkspace(not_a_model),
             lambda: IKSolver(not_a_model, 'tool0'), lambda: JointSelection(not_a_model, 'tool0'),
             lambda: ik.solve(not_a_model, 'tool0', np.eye(4)),
             lambda: ik.solve_batch(not_a_model, 'tool0', np.eye(4)[None])]
    for backend in ('numpy',) + (('numba',) if numba_error() is None else ()):
        calls.append(lambda backend=backend: KinematicsState(not_a_model, q, backend=backend))
    for call in calls:
        with pytest.raises(ConfigurationError, match='^model must be a RobotModel or a Robot, '
                           f'got {type(not_a_model).__name__}$'):
            call()


@pytest.mark.parametrize('backend', BACKENDS)
def test_a_batch_whose_poses_do_not_fit_is_refused_with_its_size(model, backend, monkeypatch):
    robot = Robot(model, backend=backend)
    q = np.zeros((3, model.nq))

    def out_of_memory(*_args):
        raise MemoryError

    if backend == 'numpy':
        monkeypatch.setattr(state_module, 'link_poses', out_of_memory)
    else:
        monkeypatch.setattr(robot.executor, 'poses', out_of_memory)
    need = 3 * len(model.links) * 128
    with pytest.raises(ConfigurationError, match=f'^a batch of 3 configurations needs at least '
                       f'{need} bytes for its link poses'):
        robot.forward_kinematics(q)


@pytest.mark.parametrize('backend', BACKENDS)
def test_a_link_given_as_a_str_subclass_is_read_as_a_plain_str(model, backend):
    robot = Robot(model, backend=backend)
    q = model.neutral_configuration()
    np.testing.assert_array_equal(robot.jacobian(q, HostileName('tool0')),
                                  robot.jacobian(q, 'tool0'))
    np.testing.assert_array_equal(robot.transform(q, HostileName('tool0')),
                                  robot.transform(q, 'tool0'))
    np.testing.assert_array_equal(robot.forward_kinematics(q).position(HostileName('tool0')),
                                  robot.forward_kinematics(q).position('tool0'))
    with pytest.raises(UnknownFrameError, match="^unknown link 'nope'"):
        robot.jacobian(q, HostileName('nope'))


@pytest.mark.parametrize('backend', BACKENDS)
@pytest.mark.parametrize('link', [['tool0'], {'tool0': 1}, None, 3])
def test_a_link_that_is_not_a_str_is_an_unknown_link(model, backend, link):
    robot = Robot(model, backend=backend)
    q = model.neutral_configuration()
    for call in (lambda: robot.jacobian(q, link), lambda: robot.transform(q, link),
                 lambda: robot.forward_kinematics(q).position(link)):
        with pytest.raises(UnknownFrameError, match='^unknown link '):
            call()


@pytest.mark.parametrize('not_data', [None, 'fk_arm', b'<robot/>', object()])
def test_a_robot_and_a_model_are_built_from_data_only(not_data):
    with pytest.raises(ConfigurationError, match='^model_or_description must be a RobotModel '
                       f'or a parsed description .*got {type(not_data).__name__}$'):
        Robot(not_data, backend='numpy')
    with pytest.raises(ConfigurationError, match='^description must be a RobotDescription .*'
                       f'got {type(not_data).__name__}$'):
        RobotModel(not_data)
    description, _ = RobotModel.parse(open(robots.path('fk_arm'), encoding='utf-8').read())
    if not isinstance(not_data, str):
        with pytest.raises(ConfigurationError, match='^urdf must be the URDF text'):
            RobotModel(description, not_data)
