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
"""Tests of frame_kinematics.core.ik.options: checked option values, targets and seeds."""

from conftest import bundled, joint_xml, link_xml, random_configuration, real_robot_path, urdf
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ConfigurationError, Robot, UnknownFrameError
from frame_kinematics.core import ik
from ik_testing import arm_fixture, iiwa_numpy_fixture, reachable, \
    within_limits
import numpy as np
import pytest

arm = arm_fixture()
iiwa_numpy = iiwa_numpy_fixture()


def test_invalid_input_raises_and_changes_nothing(arm):
    rng = np.random.default_rng(13)
    _, root_T_target = reachable(arm, 'tool0', rng)
    seed = arm.neutral_configuration()
    kept = seed.copy()
    with pytest.raises(UnknownFrameError):
        ik.solve(arm, 'nope', root_T_target, seed=seed)
    bad = root_T_target.copy()
    bad[0, 3] = np.nan
    with pytest.raises(ConfigurationError, match='NaN'):
        ik.solve(arm, 'tool0', bad, seed=seed)
    skewed = root_T_target.copy()
    skewed[:3, :3] *= 1.1
    with pytest.raises(ConfigurationError, match='orthonormal'):
        ik.solve(arm, 'tool0', skewed, seed=seed)
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed[:3])
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target[:3], seed=seed)
    with pytest.raises(UnknownFrameError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, active_joints=['nope'])
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, position_tolerance=0.0)
    with pytest.raises(ConfigurationError):
        ik.solve(arm, ['tool0', 'wrist_3_link'], root_T_target, seed=seed)
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, weights=[1, 1, 1])
    with pytest.raises(TypeError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, no_such_option=1)
    with pytest.raises(ConfigurationError, match='no active joint'):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, active_joints=['left_finger_joint'])
    with pytest.raises(ConfigurationError):
        ik.solve(arm, 'tool0', root_T_target, seed=seed, reference_frame='base_link',
                 rest_posture=seed[:3])
    assert np.array_equal(seed, kept) and seed.flags.writeable


def test_seed_outside_the_limits_is_projected_with_a_warning(arm, core_log):
    rng = np.random.default_rng(14)
    _, root_T_target = reachable(arm, 'tool0', rng)
    seed = arm.neutral_configuration()
    seed[2] = 5.0
    log = core_log('frame_kinematics.core.ik')
    result = ik.solve(arm, 'tool0', root_T_target, seed=seed, time_budget=0.5)
    assert 'elbow_joint' in log.text
    assert result.success and within_limits(arm, result.q)
    assert seed[2] == 5.0


def test_seeds_targets_and_rest_postures_are_copied_not_kept(arm):
    rng = np.random.default_rng(33)
    root_T_target = reachable(arm, 'tool0', rng)[1].copy()
    seed = random_configuration(arm, rng)
    rest = random_configuration(arm, rng)
    inputs = (seed, root_T_target, rest)
    copies = [a.copy() for a in inputs]
    solver = ik.IKSolver(arm, 'tool0')
    result = solver.solve(root_T_target, seed=seed, rest_posture=rest, time_budget=10.0)
    assert result.success
    for given, kept in zip(inputs, copies):
        assert given.flags.writeable and np.array_equal(given, kept)
        assert not np.shares_memory(result.q, given)
        assert not np.shares_memory(solver.evaluator(seed).q_fixed, given)
    solved = result.q.copy()
    seed += 1.0
    root_T_target[:3, 3] += 1.0
    rest += 1.0
    assert np.array_equal(result.q, solved)
    targets = np.stack([root_T_target] * 3)
    seeds = np.stack([seed] * 3)
    kept = targets.copy(), seeds.copy()
    ik.solve_batch(arm, 'tool0', targets, seed=seeds, time_budget=0.1)
    assert np.array_equal(targets, kept[0]) and np.array_equal(seeds, kept[1])
    assert targets.flags.writeable and seeds.flags.writeable


@pytest.mark.parametrize('option, bad', [
    (option, bad) for option in ('max_iterations', 'restarts', 'parallel_seeds')
    for bad in (float('nan'), float('inf'), 1e300, 10 ** 30, True, 'x', -1, 2.5, [3], None)
    if bad is not None or option == 'max_iterations'])  # None: the others' default
def test_count_options_refuse_bad_values(arm, option, bad):
    with pytest.raises(ConfigurationError, match=option) as info:
        ik.solve(arm, 'tool0', np.eye(4), **{option: bad})
    assert len(str(info.value)) < 100


def test_parallel_seeds_are_bounded(arm):
    assert ik.MAX_PARALLEL_SEEDS == 1024
    with pytest.raises(ConfigurationError, match='parallel_seeds'):
        ik.solve(arm, 'tool0', np.eye(4), parallel_seeds=2e6)
    # The numpy engine advances the parallel seeds together (the compiled one, one at a time).
    numpy_arm = bundled(backend='numpy')
    result = ik.solve(numpy_arm, 'tool0', np.eye(4), parallel_seeds=1024, max_iterations=2,
                      time_budget=60.0)
    assert result.reason == 'max_iterations' and result.restarts == 1023


@pytest.mark.parametrize('option, bad', [
    ('time_budget', float('nan')), ('time_budget', float('inf')), ('time_budget', -0.1),
    ('time_budget', 1e9), ('time_budget', 'soon'), ('time_budget', True),
    ('position_tolerance', 0.0), ('position_tolerance', float('nan')),
    ('orientation_tolerance', 'x'), ('orientation_weight', -1.0), ('damping', 0.0),
    ('rest_gain', float('inf')), ('position_only', 'yes'), ('weights', [1, 1, 1, 1, 1, 'x']),
    ('weights', [1, 1, 1, 1, 1, float('nan')]), ('rng', 42), ('seed', 'abc'),
    ('seed', [0.0] * 6 + [1j]), ('reference_frame', 3)])
def test_other_options_refuse_bad_values(arm, option, bad):
    error = UnknownFrameError if option == 'reference_frame' else ConfigurationError
    with pytest.raises(error, match=option if error is ConfigurationError else None) as info:
        ik.solve(arm, 'tool0', np.eye(4), **{option: bad})
    assert len(str(info.value)) < 200


def test_bad_targets_get_the_librarys_error(arm):
    for bad, message in [('eye', 'target'), (np.eye(4) * 1j, 'complex'),
                         (np.full((4, 4), 1e300), 'target'), ([[1, 2], [3]], 'target')]:
        with pytest.raises(ConfigurationError, match=message):
            ik.solve(arm, 'tool0', bad)


@pytest.mark.parametrize('call', ['ik.solve', 'ik.solve_batch', 'IKSolver.solve',
                                  'IKSolver.solve_batch', 'Robot.inverse_kinematics'])
def test_an_unknown_option_names_the_call_and_the_option(call):
    model = bundled(backend='numpy')
    target = np.eye(4)[None] if 'batch' in call else np.eye(4)
    solver = ik.IKSolver(model, 'tool0')
    run = {'ik.solve': lambda **o: ik.solve(model, 'tool0', target, **o),
           'ik.solve_batch': lambda **o: ik.solve_batch(model, 'tool0', target, **o),
           'IKSolver.solve': lambda **o: solver.solve(target, **o),
           'IKSolver.solve_batch': lambda **o: solver.solve_batch(target, **o),
           'Robot.inverse_kinematics': lambda **o: model.inverse_kinematics(
               'tool0', target, **o)}[call]
    with pytest.raises(TypeError, match=r"^%s\(\) got an unknown option 'sed'" % call) as info:
        run(sed=1)
    assert isinstance(info.value, ConfigurationError) and 'read_options' not in str(info.value)


def test_abandon_stalled_must_be_a_bool(iiwa_numpy):
    with pytest.raises(ConfigurationError, match='abandon_stalled'):
        ik.IKSolver(iiwa_numpy, 'lbr_iiwa_link_7').solve_batch(np.eye(4)[None],
                                                               abandon_stalled='yes')


# -- the default seed lies within the limits ------------------------------------------------------
def test_the_default_seed_is_inside_the_limits_and_warns_about_nothing(core_log):
    body = '\n'.join([
        link_xml('base'), link_xml('a'), link_xml('b'), link_xml('tip'),
        joint_xml('bent', 'revolute', 'base', 'a', '0 0 0.1', axis='0 1 0'),
        joint_xml('elbow', 'revolute', 'a', 'b', '0 0 0.3', axis='0 1 0').replace(
            'lower="-2" upper="2"', 'lower="-3" upper="-1"'),
        joint_xml('tool', 'fixed', 'b', 'tip', '0 0 0.3'),
    ])
    model = Robot.from_urdf_string(urdf(body, 'bent_elbow'))
    log = core_log('frame_kinematics.core.ik')
    result = ik.solve(model, 'tip', np.eye(4), position_only=True, restarts=0,
                      max_iterations=0)
    assert result.q.tolist() == [0.0, -2.0]
    assert log.text == ''


def test_the_default_seed_of_panda_is_inside_its_limits(core_log):
    panda = Robot.from_urdf_file(real_robot_path('panda'))
    log = core_log('frame_kinematics.core.ik')
    goal = cfg.clip(panda, np.array([0.3, -0.3, 0.2, -2.0, 0.1, 1.8, 0.5, 0.02]))
    root_T_target = panda.forward_kinematics(goal).transform('panda_link8')
    result = panda.inverse_kinematics('panda_link8', root_T_target, time_budget=0.5)
    assert result.success and within_limits(panda, result.q)
    assert 'outside' not in log.text
    start = ik.solve(panda, 'panda_link8', root_T_target, restarts=0, max_iterations=0)
    assert within_limits(panda, start.q)


@pytest.mark.parametrize('name', ['position_tolerance', 'damping', 'time_budget'])
def test_a_number_beyond_the_floats_is_refused_in_the_librarys_words(name):
    model = bundled(backend='numpy')
    with pytest.raises(ConfigurationError, match=f'^{name} must be a number .* got inf$'):
        ik.solve(model, 'tool0', np.eye(4), **{name: 10 ** 400})


@pytest.mark.parametrize('backend', ['numpy', 'numba'])
@pytest.mark.parametrize('angle', [np.pi, 3 * np.pi, -np.pi, -3 * np.pi, 1e16])
def test_a_continuous_seed_angle_is_returned_in_minus_pi_to_pi(backend, angle):
    if backend == 'numba':
        pytest.importorskip('numba')
    model = Robot.from_urdf_string(urdf(''.join(link_xml(n) for n in 'ab') + joint_xml(
        'spin', 'continuous', 'a', 'b', '0.3 0 0', axis='0 0 1')), backend=backend)
    target = model.forward_kinematics(np.array([0.5])).transform('b')
    for options in ({'max_iterations': 0}, {'time_budget': 0.0}, {}):
        # one seed, the caller's: what is returned without a step is that seed
        options['parallel_seeds'] = 1
        result = ik.solve(model, 'b', target, seed=np.array([angle]), **options)
        assert -np.pi <= result.q[0] < np.pi, (options, result.q)
        batch = ik.solve_batch(model, 'b', target[None], seed=np.array([[angle]]), **options)
        assert -np.pi <= batch.q[0, 0] < np.pi, (options, batch.q)
