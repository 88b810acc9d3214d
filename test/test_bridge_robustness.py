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
The bridge under what a robot or a user sends.

Services and joint_states interleaved, bad parameters, many names, stamps, floating joints,
service requests, settings given one parameter at a time.
"""

import sys
import threading

from conftest import joint_xml, link_xml, ListLogger, urdf
from frame_kinematics import robots
from frame_kinematics.bridge import (Bridge, BridgeSettings, JointStateInput,
                                     settings_from_parameters)
from frame_kinematics.bridge.services import (compute_ik, get_jacobian, IKRequest,
                                              JacobianRequest, JointValues)
from frame_kinematics.core import FrameKinematicsError
from frame_kinematics.core.spatial import transform_from_xyz_quaternion
import numpy as np
import pytest

ARM = open(robots.path('fk_arm')).read()
ARM_JOINTS = ('shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_joint', 'wrist_1_joint',
              'wrist_2_joint', 'wrist_3_joint', 'left_finger_joint')
SEC = 1_000_000_000
MS = 1_000_000


def make(text=ARM, **kwargs):
    logger = ListLogger()
    return Bridge(text, BridgeSettings(**kwargs), logger=logger), logger


def js(names, positions, velocities=(), stamp=SEC):
    return JointStateInput(list(names), list(positions), list(velocities), stamp)


def arm_state(value, stamp=SEC):
    return js(ARM_JOINTS, [value] * 6 + [0.02], stamp=stamp)


def as_matrix(transform):
    return transform_from_xyz_quaternion(np.array(transform.translation),
                                         np.array(transform.rotation))


# -- services and joint_states interleaved -------------------------------------------------
def test_tf_stays_exact_while_services_run_in_another_thread():
    """Finding 1: a service's read preempted by joint_states must not leave TF stale."""
    bridge, _ = make()  # 20 Hz: most messages are throttled, their values only stored
    model = bridge.model
    bridge.on_joint_state(arm_state(0.0), SEC)
    errors = []
    stop = threading.Event()

    def services():
        try:
            check_services()
        except Exception as exc:  # reported by the main thread
            errors.append(repr(exc))

    def check_services():
        request = JacobianRequest('forearm_link_com')  # a frame: the tree is needed
        while not stop.is_set():
            snapshot = bridge.snapshot()
            answer = get_jacobian(snapshot, request)
            if not answer.success:
                errors.append(answer.message)
                return
            # the answer is the one of one configuration: the snapshot's
            link = model.link('forearm_link')
            expected = model.forward_kinematics(snapshot.q).jacobian(
                'forearm_link', link.link_p_com, 'local_world_aligned')
            if not np.allclose(answer.jacobian.to_array(), expected, atol=1e-12):
                errors.append('jacobian of a configuration other than its snapshot')
                return
            values = snapshot.q[[model.joint(n).idx_q for n in ARM_JOINTS[:6]]]
            if not np.all(values == values[0]):
                errors.append(f'snapshot mixes two messages: {values}')
                return

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    thread = threading.Thread(target=services)
    thread.start()
    try:
        for k in range(1, 1500):
            value = 0.001 * k
            stamp = SEC + k * 10 * MS
            out = bridge.on_joint_state(arm_state(value, stamp), stamp)
            q = model.neutral_configuration()
            for name in ARM_JOINTS[:6]:
                q[model.joint(name).idx_q] = value
            q[model.joint('left_finger_joint').idx_q] = 0.02
            state = model.forward_kinematics(q)
            for transform in out.tf:
                if transform.child == 'com':
                    np.testing.assert_allclose(transform.translation, state.center_of_mass(),
                                               atol=1e-12)
                else:
                    np.testing.assert_allclose(
                        as_matrix(transform),
                        state.local_poses[model.link_index(transform.child)], atol=1e-12)
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    assert not errors, errors[0]


def test_snapshot_is_immutable_and_does_not_follow_later_messages():
    bridge, _ = make()
    bridge.on_joint_state(arm_state(0.1), SEC)
    snapshot = bridge.snapshot()
    bridge.on_joint_state(arm_state(0.7, 2 * SEC), 2 * SEC)
    index = bridge.model.joint('elbow_joint').idx_q
    assert snapshot.q[index] == 0.1 and bridge.snapshot().q[index] == 0.7
    with pytest.raises(ValueError):
        snapshot.q[index] = 3.0


def test_ik_timeout_is_capped_and_counts_from_the_arrival():
    bridge, _ = make()
    bridge.on_joint_state(arm_state(0.1), SEC)
    snapshot = bridge.snapshot()
    answer = compute_ik(snapshot, IKRequest('tool0', timeout=86400.0))
    assert not answer.success and 'timeout' in answer.message and '10' in answer.message
    now = [100.0]
    answer = compute_ik(snapshot, IKRequest('tool0', target_position=(0.3, 0.1, 0.4),
                                            position_only=True, timeout=0.5),
                        arrival=99.0, clock=lambda: now[0])
    assert not answer.success and 'before solving' in answer.message


# -- parameters of the wrong type or out of range -------------------------------------------
BAD_PARAMETERS = [
    ('publish_frequency', 5e-324, 'publish_frequency'),
    ('publish_frequency', 4e-10, 'publish_frequency'),
    ('publish_frequency', -1.0, 'publish_frequency'),
    ('publish_frequency', 10 ** 400, 'publish_frequency'),
    ('publish_frequency', 1001.0, 'publish_frequency'),
    ('publish_frequency', 'fast', 'publish_frequency'),
    ('com.quaternion', 1.0, 'com.quaternion'),
    ('com.ypr', 1.0, 'com.ypr'),
    ('com.ypr', [], 'com.ypr'),
    ('user_frames.names', 1.0, 'user_frames.names'),
    ('user_frames.names', [5], 'user_frames.names'),
    ('user_frames.cam.xyz', 1.0, 'user_frames.cam.xyz'),
    ('user_frames.cam.xyz', [], 'user_frames.cam.xyz'),
    ('user_frames.cam.rpy', [1e308, 0.0, 0.0], 'user_frames.cam.rpy'),
    ('ignore_timestamp', 'yes', 'ignore_timestamp'),
    ('frame_prefix', 3, 'frame_prefix'),
    ('floating_joints', 'maybe', 'floating_joints'),
    ('moveit.compute_ik_service', '1st', 'moveit.compute_ik_service'),
    ('moveit.compute_fk_service', 'a b', 'moveit.compute_fk_service'),
    ('tf_serialization', 'json', 'tf_serialization'),
    ('joint_states_serialization', 'raw', 'joint_states_serialization'),
    ('joint_states_intake', 'polling', 'joint_states_intake'),
    ('robot_description_semantic', 5, 'robot_description_semantic'),
]


def test_parameters_read_at_start_up_only_are_refused_at_run_time():
    bridge, _ = make()
    for name, value in (('moveit.compute_ik_service', 'other_ik'),
                        ('tf_serialization', 'messages'),
                        ('joint_states_serialization', 'messages'),
                        ('joint_states_intake', 'executor')):
        out = bridge.apply_parameters({name: value}, 0)
        assert not out.accepted and 'start-up only' in out.reason and name in out.reason
    assert bridge.apply_parameters({'moveit.compute_ik_service': 'compute_ik'}, 0).accepted
    started = Bridge.from_parameters({'robot_description': ARM,
                                      'moveit.compute_ik_service': '/moveit/compute_ik'})
    assert started.apply_parameters({'publish_frequency': 5.0}, 0).accepted


@pytest.mark.parametrize('name, value, fragment', BAD_PARAMETERS)
def test_bad_parameters_are_refused_and_joint_states_keep_working(name, value, fragment):
    bridge, logger = make()
    before = bridge.settings
    out = bridge.apply_parameters({name: value}, 0)
    if fragment is not None:
        assert not out.accepted and fragment in out.reason
        assert bridge.settings == before
    out = bridge.on_joint_state(arm_state(0.2), SEC)
    assert out.accepted


@pytest.mark.parametrize('name, value, fragment', [p for p in BAD_PARAMETERS if p[2]])
def test_bad_parameters_at_start_up_give_the_library_error(name, value, fragment):
    with pytest.raises(FrameKinematicsError, match=fragment.replace('.', r'\.')) as info:
        settings_from_parameters({'user_frames.names': ['cam'],
                                  'user_frames.cam.parent': 'tool0', name: value})
    assert '\n' not in str(info.value) and len(str(info.value)) < 300


def test_a_publish_frequency_too_small_to_ever_publish_is_refused_with_a_reason():
    bridge, _ = make()
    out = bridge.apply_parameters({'publish_frequency': 5e-324}, 0)
    assert not out.accepted and '1e-09' in out.reason and 'never' in out.reason
    assert bridge.settings.publish_frequency == 20.0
    assert bridge.apply_parameters({'publish_frequency': 1e-9}, 0).accepted
    stamp = 2 * 10 ** 9 * SEC  # the smallest frequency still lets a message through
    out = bridge.on_joint_state(arm_state(0.2, stamp), stamp)
    assert out.accepted and out.tf
    out = bridge.on_joint_state(arm_state(0.3, stamp + SEC), stamp + SEC)
    assert out.accepted and not out.tf
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.3
    assert bridge.apply_parameters({'publish_frequency': 0.0}, 0).accepted


#: The stamps a builtin_interfaces/Time holds at its ends (sec is an int32), and negative ones.
EXTREME_STAMPS = [-2 ** 31 * SEC, -2 ** 31 * SEC + 999_999_999, -SEC - 1, -1, 0,
                  (2 ** 31 - 1) * SEC + 999_999_999]


@pytest.mark.parametrize('stamp', EXTREME_STAMPS)
def test_any_stamp_of_a_time_message_reaches_tf_exactly(stamp):
    bridge, _ = make(publish_frequency=0.0)
    out = bridge.on_joint_state(arm_state(0.2, stamp), SEC)
    assert out.tf and {t.stamp_ns for t in out.tf} == {stamp}
    assert out.center_of_mass.stamp_ns == stamp


def test_the_com_stamp_never_passes_the_last_time_a_message_holds():
    last = (2 ** 31 - 1) * SEC + 999_999_999
    bridge, _ = make(publish_frequency=0.0)
    bridge.on_joint_state(arm_state(0.2, last), SEC)
    out = bridge.on_joint_state(arm_state(0.3, last), SEC)  # the same stamp again
    assert out.tf and all(t.stamp_ns == last for t in out.tf)
    assert out.center_of_mass is None  # one nanosecond later would not fit in a Time


# -- cost linear in the number of names ------------------------------------------------------
class CountingName(str):
    """A name that counts its equality comparisons."""

    comparisons = 0

    def __eq__(self, other):
        CountingName.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_duplicate_check_is_linear_in_the_number_of_names():
    names = [CountingName(f'ghost_{i}') for i in range(3000)] + [CountingName('ghost_7')]
    bridge, _ = make()
    CountingName.comparisons = 0
    out = bridge.on_joint_state(js(names, [0.0] * len(names)), SEC)
    assert not out.accepted and 'ghost_7' in out.reason and 'more than once' in out.reason
    assert CountingName.comparisons < 20 * len(names)


def test_many_unknown_names_are_reported_briefly():
    names = [f'ghost_{i}' for i in range(100_000)] + ['elbow_joint']
    bridge, logger = make()
    out = bridge.on_joint_state(js(names, [0.0] * 100_000 + [0.4]), SEC)
    assert out.accepted and [t.child for t in out.tf] == ['forearm_link']
    (warning,) = [t for t in logger.texts(None) if 'does not have' in t]
    assert '100000 in all' in warning and len(warning) < 400


# -- robot CoM stamps strictly increase ------------------------------------------------------
def test_two_sources_with_one_stamp_give_increasing_com_stamps():
    bridge, _ = make(publish_frequency=0.0)
    stamps = []
    for tick in range(1, 4):
        for names in (ARM_JOINTS[:6], ARM_JOINTS[6:]):
            out = bridge.on_joint_state(js(names, [0.01] * len(names), stamp=tick * SEC),
                                        tick * SEC)
            stamps += [t.stamp_ns for t in out.tf if t.child == 'com']
    assert len(stamps) == 5  # the first arm message comes before any gripper value
    assert all(b > a for a, b in zip(stamps, stamps[1:]))
    assert all(abs(s - round(s / SEC) * SEC) < MS for s in stamps)


# -- floating joints -----------------------------------------------------------------------
FLOATING = urdf('\n'.join([
    link_xml('world'), link_xml('base', 2.0, '0.1 0 0'), link_xml('arm', 1.0, '0 0 0.3'),
    joint_xml('root_joint', 'floating', 'world', 'base', '0 0 0.5'),
    joint_xml('hip', 'revolute', 'base', 'arm', '0 0.2 0', axis='1 0 0'),
]), 'floater')


def test_skipped_floating_joint_gives_the_com_in_its_child():
    bridge, _ = make(FLOATING, floating_joints='skip', publish_frequency=0.0)
    model = bridge.model
    out = bridge.on_joint_state(js(['hip'], [0.3], [0.5]), SEC)
    assert {t.child for t in out.tf} == {'arm', 'com'}
    (com,) = [t for t in out.tf if t.child == 'com']
    q = model.neutral_configuration()
    q[model.joint('hip').idx_q] = 0.3
    state = model.forward_kinematics(q)
    world_T_base = state.transform('base')
    base_p_com = np.linalg.inv(world_T_base) @ np.append(state.center_of_mass(), 1.0)
    assert com.parent == 'base'
    np.testing.assert_allclose(com.translation, base_p_com[:3], atol=1e-12)
    assert out.center_of_mass.frame_id == 'base'
    assert out.center_of_mass.velocity is None  # the base velocity is not known
    answer = get_jacobian(bridge.snapshot(), JacobianRequest('arm'))
    assert answer.success, answer.message


def test_by_default_the_floating_joint_is_skipped_as_robot_state_publisher_does():
    bridge = Bridge.from_parameters({'robot_description': FLOATING}, logger=ListLogger())
    out = bridge.on_joint_state(js(['hip'], [0.3]), SEC)
    assert {t.child for t in out.tf} == {'arm', 'com'}
    assert out.center_of_mass is not None and out.center_of_mass.frame_id == 'base'
    assert 'root_joint' not in {t.child for t in bridge.initial_output(0).tf_static}
    tf_mode = Bridge.from_parameters({'robot_description': FLOATING, 'floating_joints': 'tf'},
                                     logger=ListLogger())
    out = tf_mode.on_joint_state(js(['hip'], [0.3]), SEC)
    assert {t.child for t in out.tf} == {'arm'} and out.center_of_mass is None


def test_floating_pose_without_its_velocity_publishes_no_com_velocity():
    bridge, _ = make(FLOATING, floating_joints='tf', publish_frequency=0.0)
    names = list(bridge.model.configuration_names)
    q = bridge.model.neutral_configuration()
    out = bridge.on_joint_state(js(names, q), SEC)
    assert out.center_of_mass is not None and out.center_of_mass.velocity is None
    out = bridge.on_joint_state(js(['hip'], [0.1], [1.0], stamp=2 * SEC), 2 * SEC)
    assert out.center_of_mass.velocity is None and out.center_of_mass.angular_momentum is None


# -- services accept what the topic accepts, and nothing non-finite -------------------------
def test_a_joint_state_naming_mimic_joints_is_a_valid_seed_and_configuration():
    bridge, _ = make()
    bridge.on_joint_state(arm_state(0.1), SEC)
    names = list(ARM_JOINTS) + ['right_finger_joint']
    positions = [0.1] * 6 + [0.02, 0.02]
    snapshot = bridge.snapshot()
    answer = get_jacobian(snapshot, JacobianRequest('tool0',
                                                    joint_state=JointValues(names, positions)))
    assert answer.success, answer.message
    answer = compute_ik(snapshot, IKRequest('tool0', target_position=(0.3, 0.1, 0.4),
                                            position_only=True, timeout=0.2,
                                            seed=JointValues(names, positions)))
    assert 'unknown' not in answer.message
    wrong = positions[:-1] + [0.03]
    answer = get_jacobian(snapshot, JacobianRequest('tool0',
                                                    joint_state=JointValues(names, wrong)))
    assert not answer.success and 'right_finger_joint' in answer.message


def test_a_seed_naming_a_joint_twice_is_refused():
    bridge, _ = make()
    bridge.on_joint_state(arm_state(0.1), SEC)
    answer = compute_ik(bridge.snapshot(), IKRequest(
        'tool0', target_position=(0.3, 0.1, 0.4), position_only=True,
        seed=JointValues(['elbow_joint', 'elbow_joint'], [0.1, 0.2])))
    assert not answer.success and 'elbow_joint' in answer.message and 'once' in answer.message


def test_ik_timeout_counts_the_reading_of_a_huge_request():
    bridge, _ = make()
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
    bridge, _ = make()
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
    bridge, _ = make()
    bridge.on_joint_state(arm_state(0.1), SEC)
    answer = get_jacobian(bridge.snapshot(), request_)
    assert not answer.success or (np.all(np.isfinite(answer.jacobian.to_array()))
                                  and np.isfinite(answer.manipulability))


def test_manipulability_and_singularity_are_the_core_definitions():
    from frame_kinematics.core.velocity import is_singular, manipulability
    bridge, _ = make()
    bridge.on_joint_state(arm_state(0.0), SEC)
    answer = get_jacobian(bridge.snapshot(), JacobianRequest('tool0'))
    jacobian = answer.jacobian.to_array()
    assert answer.manipulability == manipulability(jacobian)
    assert answer.singular == is_singular(jacobian, bridge.settings.singularity_threshold)


# -- multi-parameter settings one at a time; /tf_static only when it changed ---------------
def test_a_user_frame_defined_one_parameter_at_a_time_appears_when_complete():
    bridge, logger = make()
    out = bridge.apply_parameters({'user_frames.names': ['cam']}, 0)
    assert out.accepted and out.tf_static is None
    assert any("'cam' waits" in t and 'user_frames.cam.parent' in t
               for t in logger.texts('warning'))
    out = bridge.apply_parameters({'user_frames.cam.xyz': [0.0, 0.0, 0.1]}, 0)
    assert out.accepted and out.tf_static is None
    out = bridge.apply_parameters({'user_frames.cam.parent': 'tool0'}, 0)
    assert out.accepted
    (cam,) = [t for t in out.tf_static if t.child == 'cam']
    assert cam.parent == 'tool0' and cam.translation == pytest.approx((0.0, 0.0, 0.1))


def test_frame_parameters_before_the_name_wait_too():
    bridge, logger = make()
    assert bridge.apply_parameters({'user_frames.cam.parent': 'tool0'}, 0).accepted
    assert any('not in user_frames.names' in t for t in logger.texts('warning'))
    out = bridge.apply_parameters({'user_frames.names': ['cam']}, 0)
    assert out.accepted and any(t.child == 'cam' for t in out.tf_static)


def test_static_set_is_resent_only_when_it_changed():
    bridge, _ = make()
    assert bridge.apply_parameters({'publish_frequency': 30.0}, 0).tf_static is None
    assert bridge.apply_parameters({'ignore_timestamp': False}, 0).tf_static is None
    assert bridge.apply_parameters({'frame_prefix': 'r/'}, 0).tf_static is not None
    assert bridge.apply_parameters({'frame_prefix': 'r/'}, 0).tf_static is None


# -- short excerpts in logs -----------------------------------------------------------------
def test_a_huge_refused_value_is_not_quoted_whole():
    bridge, logger = make()
    huge = 'x' * 20_000_000
    out = bridge.apply_parameters({'com.frame': huge, 'com.orientation': 'sideways'}, 0)
    assert not out.accepted and len(out.reason) < 500
    out = bridge.apply_parameters({'robot_description': '<robot name="' + huge}, 0)
    assert not out.accepted and len(out.reason) < 500
    out = bridge.on_joint_state(js([huge], [float('nan')]), SEC)
    assert not out.accepted and len(out.reason) < 500
    assert all(len(text) < 600 for text in logger.texts(None))


# -- undeclared parameters ------------------------------------------------------------------
@pytest.mark.parametrize('name', ['publish_frequncy', 'com.colour', 'user_frames.cam.size'])
def test_a_misspelt_parameter_is_refused_as_robot_state_publisher(name):
    bridge, _ = make()
    out = bridge.apply_parameters({name: 50}, 0)
    assert not out.accepted
    assert out.reason.endswith(f"parameter '{name}' cannot be set because it was not declared")


def test_rclpy_parameters_pass_through():
    bridge, _ = make()
    assert bridge.apply_parameters({'use_sim_time': True}, 0).accepted
