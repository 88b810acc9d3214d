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
"""The service handlers of the ROS-free layer: IK, Jacobian, relative motion."""

from bridge_testing import arm_state, logged_bridge
from conftest import all_joint_types_model, random_configuration
from frame_kinematics import robots
from frame_kinematics.bridge import Bridge, BridgeSettings, JointStateInput, UserFrame
from frame_kinematics.bridge.services import (compute_ik, get_jacobian, get_relative_motion,
                                              IKRequest, JacobianRequest, JointValues,
                                              LockedJointIn, MatrixOut,
                                              MAX_RELATIVE_MOTION_ENTRIES,
                                              RelativeMotionRequest, RelativeTransformationIn)
from frame_kinematics.core.relative_motion import RelativeMotion
from frame_kinematics.core.spatial import inverse, quaternion_from_rotation
import numpy as np
import pytest

ARM = open(robots.path('fk_arm')).read()
SEC = 1_000_000_000


def arm(received=True, **kwargs):
    bridge = Bridge(ARM, BridgeSettings(**kwargs))
    q = random_configuration(bridge.model, np.random.default_rng(21))
    if received:
        names = list(bridge.model.joint_names)
        bridge.on_joint_state(JointStateInput(names, [q[bridge.model.joint(n).idx_q]
                                                      for n in names], (), SEC), SEC)
    return bridge, q


# -- Jacobian ------------------------------------------------------------------------------
@pytest.mark.parametrize('expressed_in', ['', 'world', 'local', 'LOCAL_WORLD_ALIGNED'])
def test_jacobian_equals_the_core(expressed_in):
    bridge, q = arm()
    point = (0.01, -0.02, 0.03)
    answer = get_jacobian(bridge.snapshot(), JacobianRequest('tool0', point, expressed_in))
    assert answer.success, answer.message
    expected = bridge.model.forward_kinematics(q).jacobian(
        'tool0', point, expressed_in or 'local_world_aligned')
    assert answer.jacobian.sizes == (6, 7) and answer.jacobian.labels == ('rows', 'columns')
    assert answer.jacobian.strides == (42, 7)
    np.testing.assert_allclose(answer.jacobian.to_array(), expected, atol=1e-12)
    assert answer.joint_names == bridge.model.joint_names
    # Yoshikawa's measure from its definition (not the implementation's product of singular
    # values), and a configuration known to be regular.
    assert answer.manipulability == pytest.approx(np.sqrt(np.linalg.det(expected @ expected.T)),
                                                  rel=1e-9)
    assert answer.manipulability > 1e-3 and not answer.singular


def test_jacobian_with_a_request_joint_state_and_a_prefixed_user_frame():
    bridge, _ = arm(received=False, frame_prefix='r/',
                    user_frames=(UserFrame('cam', 'tool0', (0.0, 0.1, 0.0)),))
    q = random_configuration(bridge.model, np.random.default_rng(3))
    names = list(bridge.model.joint_names)
    state = JointValues(names, [q[bridge.model.joint(n).idx_q] for n in names])
    answer = get_jacobian(bridge.snapshot(),
                          JacobianRequest('r/cam', (0.0, 0.0, 0.2), 'world', state))
    assert answer.success, answer.message
    # the point 0.2 along the camera z axis is a point of tool0
    tool0_p = np.array([0.0, 0.1, 0.2])
    expected = bridge.model.forward_kinematics(q).jacobian('tool0', tool0_p, 'world')
    np.testing.assert_allclose(answer.jacobian.to_array(), expected, atol=1e-12)


def test_singular_configuration_is_flagged():
    bridge, _ = arm(received=False)
    names = list(bridge.model.joint_names)
    # wrist_2 at 0 aligns the wrist_1 and wrist_3 axes: a wrist singularity
    answer = get_jacobian(bridge.snapshot(), JacobianRequest('tool0', joint_state=JointValues(
        names, [0.3, -1.0, 1.2, 0.4, 0.0, 0.5, 0.01])))
    assert answer.success and answer.singular and answer.manipulability < 1e-8


@pytest.mark.parametrize('request_, fragment', [
    (JacobianRequest('nowhere'), 'nowhere'),
    (JacobianRequest('tool0', expressed_in='sideways'), 'sideways'),
    (JacobianRequest('tool0', point=(0.0, float('nan'), 0.0)), 'point'),
    (JacobianRequest('tool0', point=(0.0, 1.0)), 'point'),
    (JacobianRequest('tool0', joint_state=JointValues(['elbow_joint'], [])), 'names'),
    (JacobianRequest('tool0', joint_state=JointValues(['ghost'], [0.1])), 'ghost'),
    (JacobianRequest('tool0', joint_state=JointValues(['elbow_joint'], [float('inf')])),
     'finite'),
    (JacobianRequest('com'), 'center of mass'),
])
def test_bad_jacobian_requests_get_success_false(request_, fragment):
    bridge, _ = arm()
    answer = get_jacobian(bridge.snapshot(), request_)
    assert not answer.success and fragment in answer.message
    assert answer.jacobian is None


def test_jacobian_before_every_joint_was_received_names_the_missing_joints():
    bridge, _ = arm(received=False)
    bridge.on_joint_state(JointStateInput(['shoulder_pan_joint'], [0.1], (), SEC), SEC)
    answer = get_jacobian(bridge.snapshot(), JacobianRequest('tool0'))
    assert not answer.success
    assert 'elbow_joint' in answer.message and 'wrist_3_joint' in answer.message
    assert 'shoulder_pan_joint,' not in answer.message
    # a link moved only by received joints needs nothing more
    assert get_jacobian(bridge.snapshot(), JacobianRequest('shoulder_link')).success
    assert get_jacobian(bridge.snapshot(), JacobianRequest('base_link')).success


def test_velocity_names_of_multi_dof_joints():
    model = all_joint_types_model()
    bridge = Bridge(model.urdf)
    names = bridge.model.velocity_names
    assert len(names) == model.nv
    assert names[:6] == tuple(f'j_free/{c}' for c in ('vx', 'vy', 'vz', 'wx', 'wy', 'wz'))


# -- IK ---------------------------------------------------------------------------------------
def test_ik_reaches_a_reachable_target_in_a_moving_frame():
    bridge, q = arm()
    goal = random_configuration(bridge.model, np.random.default_rng(5))
    state = bridge.model.forward_kinematics(goal)
    root_T_target = state.transform('tool0')
    # express the target in wrist_1_link at the current joint values
    frame_T_target = inverse(bridge.root_T_frame('wrist_1_link')) @ root_T_target
    answer = compute_ik(bridge.snapshot(), IKRequest(
        'tool0', 'wrist_1_link', frame_T_target[:3, 3],
        quaternion_from_rotation(frame_T_target[:3, :3]), timeout=0.5))
    assert answer.success, answer.message
    assert answer.names == bridge.model.configuration_names
    reached = bridge.model.forward_kinematics(np.array(answer.positions)).transform('tool0')
    np.testing.assert_allclose(reached, root_T_target, atol=1e-4)
    assert answer.position_error < 1e-5 and answer.iterations > 0


def test_ik_position_only_with_active_joints_and_a_seed():
    bridge, q = arm()
    names = list(bridge.model.joint_names)
    answer = compute_ik(bridge.snapshot(), IKRequest(
        'tool0', '', (0.3, 0.2, 0.5), position_only=True, position_tolerance=1e-4,
        active_joints=['shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_joint'],
        seed=JointValues(names, [0.0] * len(names)), timeout=0.5))
    assert answer.success, answer.message
    solution = dict(zip(answer.names, answer.positions))
    for name in ('wrist_1_joint', 'wrist_2_joint', 'wrist_3_joint', 'left_finger_joint'):
        assert solution[name] == 0.0
    reached = bridge.model.forward_kinematics(np.array(answer.positions)).position('tool0')
    np.testing.assert_allclose(reached, (0.3, 0.2, 0.5), atol=1e-4)


def test_ik_unreachable_target_answers_false_with_the_best_configuration():
    bridge, _ = arm()
    answer = compute_ik(bridge.snapshot(), IKRequest('tool0', '', (5.0, 0.0, 0.0), timeout=0.05))
    assert not answer.success and 'no solution' in answer.message
    assert len(answer.positions) == bridge.model.nq and answer.position_error > 3.0


@pytest.mark.parametrize('request_, fragment', [
    (IKRequest('nowhere'), 'nowhere'),
    (IKRequest('tool0', 'elsewhere'), 'elsewhere'),
    (IKRequest('tool0', target_orientation=(0.0, 0.0, 0.0, 3.0)), 'unit quaternion'),
    (IKRequest('tool0', target_position=(0.0, float('nan'), 0.0)), 'target position'),
    (IKRequest('tool0', position_tolerance=-1.0), 'position_tolerance'),
    (IKRequest('tool0', timeout=float('inf')), 'timeout'),
    (IKRequest('tool0', active_joints=['ghost']), 'ghost'),
    (IKRequest('tool0', seed=JointValues(['elbow_joint'], [0.1, 0.2])), 'names'),
])
def test_bad_ik_requests_get_success_false(request_, fragment):
    bridge, _ = arm()
    answer = compute_ik(bridge.snapshot(), request_)
    assert not answer.success and fragment in answer.message
    assert answer.positions == ()


def test_ik_target_in_a_moving_frame_needs_its_joints():
    bridge, _ = arm(received=False)
    answer = compute_ik(bridge.snapshot(), IKRequest('tool0', 'forearm_link', (0.1, 0.0, 0.0)))
    assert not answer.success and 'shoulder_pan_joint' in answer.message
    # the root link needs nothing
    answer = compute_ik(bridge.snapshot(), IKRequest('tool0', 'base_link', (0.3, 0.2, 0.5),
                                                     position_only=True, timeout=0.5))
    assert answer.success, answer.message


# -- relative motion ------------------------------------------------------------------------
def test_relative_motion_equals_the_core():
    bridge, _ = arm()
    request = RelativeMotionRequest(
        [LockedJointIn('elbow_joint'), LockedJointIn('wrist_2_joint', True)],
        [RelativeTransformationIn('tool0', '', True),
         RelativeTransformationIn('shoulder_link', 'forearm_link', False, [1, 1, 1, 0, 1, 1])])
    answer = get_relative_motion(bridge.snapshot(), request)
    assert answer.success, answer.message
    expected = RelativeMotion(bridge.model)
    expected.add_locked_joint('elbow_joint')
    expected.add_locked_joint('wrist_2_joint', True)
    expected.add_relative_transformation('tool0', None, True)
    assert answer.index_names == expected.index_names
    np.testing.assert_array_equal(answer.matrix.to_array(), expected.matrix)
    assert answer.matrix.sizes == (expected.size, expected.size)


@pytest.mark.parametrize('request_, fragment', [
    (RelativeMotionRequest([LockedJointIn('ghost')]), 'ghost'),
    (RelativeMotionRequest((), [RelativeTransformationIn('tool0', 'tool0')]), 'itself'),
    (RelativeMotionRequest((), [RelativeTransformationIn('tool0', '', False, [1, 1])]),
     'mask'),
    (RelativeMotionRequest((), [RelativeTransformationIn('nowhere')]), 'nowhere'),
])
def test_bad_relative_motion_requests_get_success_false(request_, fragment):
    bridge, _ = arm()
    answer = get_relative_motion(bridge.snapshot(), request_)
    assert not answer.success and fragment in answer.message and answer.matrix is None


class _Unread(list):
    """A request list whose entries must not be read (its length is)."""

    def __iter__(self):
        raise AssertionError('an entry was read')


@pytest.mark.parametrize('field', ['locked_joints', 'transformations'])
def test_relative_motion_refuses_a_list_longer_than_its_bound_before_reading_it(field):
    bridge, _ = arm()
    entry = LockedJointIn('elbow_joint') if field == 'locked_joints' else \
        RelativeTransformationIn('tool0')
    request = RelativeMotionRequest(**{field: _Unread([entry] * (MAX_RELATIVE_MOTION_ENTRIES
                                                                 + 1))})
    answer = get_relative_motion(bridge.snapshot(), request)
    assert not answer.success and answer.matrix is None
    assert answer.message == (f'relative motion: {field} has {MAX_RELATIVE_MOTION_ENTRIES + 1} '
                              f'entries, more than {MAX_RELATIVE_MOTION_ENTRIES}')
    at_bound = RelativeMotionRequest(**{field: [entry] * MAX_RELATIVE_MOTION_ENTRIES})
    assert get_relative_motion(bridge.snapshot(), at_bound).success


def test_matrix_layout_round_trip():
    matrix = np.arange(6.0).reshape(2, 3)
    out = MatrixOut.from_array(matrix, 'r', 'c')
    assert out.sizes == (2, 3) and out.strides == (6, 3) and out.data == tuple(range(6))
    np.testing.assert_array_equal(out.to_array(), matrix)


def test_ik_is_solved_in_slices_that_give_the_interpreter_up_and_keeps_its_iteration_cap():
    bridge, _ = arm()
    pauses = []
    answer = compute_ik(bridge.snapshot(), IKRequest('tool0', target_position=(5.0, 0.0, 0.0),
                                                     position_only=True, timeout=10.0),
                        pause=pauses.append)
    assert not answer.success and 'max_iterations' in answer.message
    assert answer.iterations >= 1000  # the cap of one solve (not the 10 s timeout)
    assert len(pauses) >= 1000 // 20 - 1 and set(pauses) == {0}


def test_ik_timeout_is_capped_and_counts_from_the_arrival():
    bridge, _ = logged_bridge()
    bridge.on_joint_state(arm_state(0.1), SEC)
    snapshot = bridge.snapshot()
    answer = compute_ik(snapshot, IKRequest('tool0', timeout=86400.0))
    assert not answer.success and 'timeout' in answer.message and '10' in answer.message
    now = [100.0]
    answer = compute_ik(snapshot, IKRequest('tool0', target_position=(0.3, 0.1, 0.4),
                                            position_only=True, timeout=0.5),
                        arrival=99.0, clock=lambda: now[0])
    assert not answer.success and 'before solving' in answer.message


def test_ik_timeout_counts_the_reading_of_a_huge_request():
    bridge, _ = logged_bridge()
    bridge.on_joint_state(arm_state(0.1), SEC)
    names = [f'joint_{i}' for i in range(120_000)]
    answer = compute_ik(bridge.snapshot(), IKRequest('tool0', target_position=(0.3, 0.1, 0.4),
                                                     position_only=True, timeout=0.02,
                                                     active_joints=names))
    assert not answer.success and '120000 joints' in answer.message
    # 30 ms spent reading a request whose timeout is 20 ms: nothing is left for the solver
    answer = compute_ik(bridge.snapshot(), IKRequest('tool0', target_position=(0.3, 0.1, 0.4),
                                                     position_only=True, timeout=0.02),
                        arrival=5.0, clock=lambda: 5.03)
    assert not answer.success and 'before solving' in answer.message


def test_jacobian_of_a_frame_below_the_com_frame_is_refused():
    bridge, _ = logged_bridge()
    assert bridge.apply_parameters({'user_frames.names': ['below'],
                                    'user_frames.below.parent': 'com'}, 0).accepted
    bridge.on_joint_state(arm_state(0.1), SEC)
    answer = get_jacobian(bridge.snapshot(), JacobianRequest('below'))
    assert not answer.success and 'center of mass' in answer.message


@pytest.mark.parametrize('request_', [
    JacobianRequest('tool0', point=(1e308, 0.0, 0.0)),
    JacobianRequest('tool0', joint_state=JointValues(['shoulder_pan_joint'], [1e308])),
])
def test_non_finite_jacobians_are_refused(request_):
    bridge, _ = logged_bridge()
    bridge.on_joint_state(arm_state(0.1), SEC)
    answer = get_jacobian(bridge.snapshot(), request_)
    assert not answer.success or (np.all(np.isfinite(answer.jacobian.to_array()))
                                  and np.isfinite(answer.manipulability))


def test_manipulability_and_singularity_are_the_core_definitions():
    from frame_kinematics.core.velocity import is_singular, manipulability
    bridge, _ = logged_bridge()
    bridge.on_joint_state(arm_state(0.0), SEC)
    answer = get_jacobian(bridge.snapshot(), JacobianRequest('tool0'))
    jacobian = answer.jacobian.to_array()
    assert answer.manipulability == manipulability(jacobian)
    assert answer.singular == is_singular(jacobian, bridge.settings.singularity_threshold)
