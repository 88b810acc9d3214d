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
"""The Bridge class (frame_kinematics.bridge.bridge): its /tf path, lock, views and changes."""

import sys
import threading
import time

from bridge_testing import (ARM, ARM_JOINTS, arm_state, as_matrix, full_state, js, logged_bridge,
                            make, MS, SEC)
from conftest import all_joint_types_model, ListLogger, random_configuration
from frame_kinematics import robots
from frame_kinematics.bridge import Bridge, BridgeSettings, JointStateInput, UserFrame
from frame_kinematics.bridge.markers import com_markers
from frame_kinematics.bridge.services import get_jacobian, JacobianRequest
from frame_kinematics.core.spatial import inverse
import numpy as np
import pytest


def test_subset_publishes_only_named_joints_and_keeps_others():
    bridge, _, _ = make()
    out = bridge.on_joint_state(js(['elbow_joint'], [0.5]), SEC)
    assert out.accepted
    assert [(t.parent, t.child) for t in out.tf] == [('upper_arm_link', 'forearm_link')]
    out = bridge.on_joint_state(js(['wrist_1_joint'], [0.2], stamp=2 * SEC), 2 * SEC)
    assert [(t.parent, t.child) for t in out.tf] == [('forearm_link', 'wrist_1_link')]
    q = bridge.configuration
    assert q[bridge.model.joint('elbow_joint').idx_q] == 0.5
    assert q[bridge.model.joint('wrist_1_joint').idx_q] == 0.2
    assert q[bridge.model.joint('shoulder_pan_joint').idx_q] == 0.0


def test_unknown_names_are_ignored_with_a_throttled_warning():
    bridge, logger, clock = make()
    out = bridge.on_joint_state(js(['elbow_joint', 'ghost_joint', 'other'], [0.3, 1, 2]), SEC)
    assert out.accepted
    assert [t.child for t in out.tf] == ['forearm_link']
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.3
    warnings = [w for w in logger.texts() if 'does not have' in w]
    assert len(warnings) == 1 and 'ghost_joint' in warnings[0] and 'other' in warnings[0]
    bridge.on_joint_state(js(['ghost_joint'], [1]), SEC)
    assert len([w for w in logger.texts() if 'does not have' in w]) == 1
    clock.t += 10
    bridge.on_joint_state(js(['ghost_joint'], [1]), SEC)
    warnings = [w for w in logger.texts() if 'does not have' in w]
    assert len(warnings) == 2 and '1 similar message(s) suppressed' in warnings[1]


def test_nan_values_of_names_the_robot_does_not_read_do_not_refuse_the_message():
    # another robot's joint (or a fixed one) with a NaN on a shared joint_states: ignored, as
    # robot_state_publisher ignores it, and the robot's own joints are published
    bridge, logger, _ = make()
    nan = float('nan')
    out = bridge.on_joint_state(js(['other_robot_joint', 'elbow_joint', 'tool0_fixed_joint'],
                                   [nan, 0.4, float('inf')], [nan, 0.1, 1e300]), SEC)
    assert out.accepted and [t.child for t in out.tf] == ['forearm_link']
    assert bridge.configuration[bridge.model.joint('elbow_joint').idx_q] == 0.4


@pytest.mark.parametrize('message, fragment', [
    (js(['elbow_joint', 'wrist_1_joint'], [0.1]), '2 names and 1 positions'),
    (js(['elbow_joint'], [0.1, 0.2]), '1 names and 2 positions'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, 0.2], [1.0]), '1 velocities'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, float('nan')]), 'wrist_1_joint'),
    (js(['elbow_joint', 'wrist_1_joint'], [float('inf'), 0.2]), 'elbow_joint'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, 0.2], [0.0, float('inf')]), 'NaN, inf'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, 1e300]), 'wrist_1_joint'),
    (js(['elbow_joint', 'wrist_1_joint'], [0.1, 0.2], [-1e17, 0.0]), 'magnitude above 1e+16'),
    (js(['elbow_joint', 'elbow_joint'], [0.1, 0.2]), 'more than once'),
    (js(['elbow_joint'], ['abc']), 'not numbers'),
])
def test_bad_messages_are_rejected_whole_and_keep_the_last_good_state(message, fragment):
    bridge, logger, clock = make()
    bridge.on_joint_state(js(['elbow_joint', 'wrist_1_joint'], [0.7, 0.8]), SEC)
    before = bridge.configuration
    out = bridge.on_joint_state(message, 2 * SEC)
    assert not out.accepted and not out.tf and out.tf_static is None
    assert fragment in out.reason
    np.testing.assert_array_equal(bridge.configuration, before)
    assert any(fragment in w and 'keeping the last good state' in w for w in logger.texts())
    count = len(logger.texts())
    bridge.on_joint_state(message, 3 * SEC)
    assert len(logger.texts()) == count  # throttled


def test_mimic_named_alone_is_published_from_its_master_and_a_mismatch_is_logged():
    bridge, logger, _ = make()
    bridge.on_joint_state(js(['left_finger_joint'], [0.02]), SEC)
    out = bridge.on_joint_state(js(['right_finger_joint'], [0.035]), 2 * SEC)
    assert out.accepted
    assert [t.child for t in out.tf] == ['right_finger_link']
    assert out.tf[0].translation == pytest.approx((-0.03, 0.0, 0.04))
    assert any("mimic joint 'right_finger_joint'" in w for w in logger.texts())
    count = len(logger.texts())
    bridge.on_joint_state(js(['right_finger_joint'], [0.02]), 3 * SEC)
    assert len(logger.texts()) == count  # a consistent value is fine


def test_fixed_joint_named_in_a_message_is_ignored_with_a_warning():
    bridge, logger, _ = make()
    out = bridge.on_joint_state(js(['tool0_fixed_joint', 'elbow_joint'], [1.0, 0.1]), SEC)
    assert [t.child for t in out.tf] == ['forearm_link']
    assert any("fixed joint 'tool0_fixed_joint'" in w for w in logger.texts())


def test_non_unit_floating_quaternion_rejects_the_message():
    model = all_joint_types_model()
    bridge = Bridge(model.urdf, BridgeSettings(floating_joints='tf'), logger=ListLogger())
    out = bridge.on_joint_state(js(['j_free/qw', 'j_free/qx'], [0.5, 0.5]), SEC)
    assert not out.accepted and 'quaternion' in out.reason


def test_frame_prefix_is_prepended_everywhere():
    bridge, _, _ = make(frame_prefix='r1/', user_frames=(UserFrame('cam', 'tool0'),))
    static = bridge.initial_output(0).tf_static
    assert all(t.parent.startswith('r1/') and t.child.startswith('r1/') for t in static)
    out = bridge.on_joint_state(full_state(bridge, bridge.model.neutral_configuration()), SEC)
    assert all(t.parent.startswith('r1/') and t.child.startswith('r1/') for t in out.tf)
    assert ('r1/base_link', 'r1/com') in {(t.parent, t.child) for t in out.tf}
    assert out.center_of_mass.frame_id == 'r1/base_link'


def test_groups_can_be_switched_off():
    bridge, _, _ = make(publish_fixed_transforms=False, publish_link_com_frames=False,
                        publish_user_frames=False, publish_joint_transforms=False,
                        publish_com_frame=False, publish_com_topics=False,
                        user_frames=(UserFrame('cam', 'tool0'),))
    assert bridge.initial_output(0).tf_static == []
    out = bridge.on_joint_state(full_state(bridge, bridge.model.neutral_configuration()), SEC)
    assert out.tf == [] and out.center_of_mass is None
    out = bridge.update_settings(BridgeSettings(publish_fixed_transforms=False,
                                                publish_user_frames=False), 7)
    children = {t.child for t in out.tf_static}
    assert children == {link.name + '_com' for link in bridge.model.links if link.mass > 0}


def test_com_waits_for_every_joint_with_one_warning():
    bridge, logger, _ = make()
    out = bridge.on_joint_state(js(['elbow_joint'], [0.1]), SEC)
    assert out.center_of_mass is None and 'com' not in {t.child for t in out.tf}
    missing = [w for w in logger.texts() if 'never received' in w]
    assert len(missing) == 1
    for name in ('shoulder_pan_joint', 'wrist_3_joint', 'left_finger_joint'):
        assert name in missing[0]
    assert 'elbow_joint,' not in missing[0]
    bridge.on_joint_state(js(['wrist_1_joint'], [0.1], stamp=2 * SEC), 2 * SEC)
    assert len([w for w in logger.texts() if 'never received' in w]) == 1
    assert bridge.missing_joints() == ['shoulder_pan_joint', 'shoulder_lift_joint',
                                       'wrist_2_joint', 'wrist_3_joint', 'left_finger_joint']
    out = bridge.on_joint_state(js(ARM_JOINTS, [0.0] * 7, stamp=3 * SEC), 3 * SEC)
    assert out.center_of_mass is not None and 'com' in {t.child for t in out.tf}
    assert bridge.missing_joints() == []


def test_apply_parameters_is_all_or_nothing():
    bridge, _, _ = make()
    urdf_before = bridge.model.urdf
    out = bridge.apply_parameters({'robot_description': 'not xml', 'publish_frequency': 5.0},
                                  0)
    assert not out.accepted and bridge.settings.publish_frequency == 20.0
    assert bridge.model.urdf == urdf_before
    out = bridge.apply_parameters({'publish_frequency': 5.0, 'frame_prefix': 'x/'}, 0)
    assert out.accepted and out.robot_description is None
    assert bridge.settings.publish_frequency == 5.0
    assert all(t.child.startswith('x/') for t in out.tf_static)


def test_transform_between_frames():
    bridge, _, _ = make()
    q = random_configuration(bridge.model, np.random.default_rng(9))
    bridge.on_joint_state(full_state(bridge, q), SEC)
    state = bridge.model.forward_kinematics(q)
    np.testing.assert_allclose(
        inverse(bridge.root_T_frame('wrist_1_link')) @ bridge.root_T_frame('tool0'),
        state.relative_transform('wrist_1_link', 'tool0'), atol=1e-12)


def test_tf_stays_exact_while_services_run_in_another_thread():
    """A service's read, preempted by joint_states, leaves neither TF nor its answer stale."""
    bridge, _ = logged_bridge()  # 20 Hz: most messages are throttled, their values only stored
    model = bridge.model
    bridge.on_joint_state(arm_state(0.0), SEC)
    errors = []
    answered = []
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
            answered.append(values[0])

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    thread = threading.Thread(target=services)
    thread.start()
    published = 0
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
            published += len(out.tf)
            for transform in out.tf:
                if transform.child == 'com':
                    np.testing.assert_allclose(transform.translation, state.center_of_mass(),
                                               atol=1e-12)
                else:
                    np.testing.assert_allclose(
                        as_matrix(transform),
                        state.local_poses[model.link_index(transform.child)], atol=1e-12)
    finally:
        waited = time.monotonic()
        while not (answered or errors) and thread.is_alive() and time.monotonic() < waited + 60:
            time.sleep(0.001)  # a starved service thread answers at least once
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    assert not errors, errors[0]
    assert published > 0 and answered  # both sides ran: the checks above checked something


def test_static_set_is_resent_only_when_it_changed():
    bridge, _ = logged_bridge()
    assert bridge.apply_parameters({'publish_frequency': 30.0}, 0).tf_static is None
    assert bridge.apply_parameters({'ignore_timestamp': False}, 0).tf_static is None
    assert bridge.apply_parameters({'frame_prefix': 'r/'}, 0).tf_static is not None
    assert bridge.apply_parameters({'frame_prefix': 'r/'}, 0).tf_static is None


# -- the bridge: when markers go out ----------------------------------------------------------
def _arm_bridge(**settings):
    bridge = Bridge(open(robots.path('fk_arm')).read(),
                    BridgeSettings(publish_frequency=0.0, **settings), logger=ListLogger())
    bridge.initial_output(0)
    return bridge


def _message(bridge, stamp_ns, value=0.1):
    names = list(bridge.model.joint_names)
    return JointStateInput(names, [value] * len(names), (), stamp_ns)


def test_the_bridge_sends_markers_with_the_com_ten_times_a_second_at_most():
    bridge = _arm_bridge()
    sent = []
    for k in range(25):  # 25 messages 10 ms apart: 250 ms of stamps
        stamp = 10**9 + k * 10_000_000
        out = bridge.on_joint_state(_message(bridge, stamp), stamp)
        assert out.tf and out.center_of_mass is not None
        if out.markers is not None:
            sent.append((stamp, out.markers))
    assert [stamp for stamp, _ in sent] == [10**9, 10**9 + 100_000_000, 10**9 + 200_000_000]
    state = bridge.model.forward_kinematics(np.full(bridge.model.nq, 0.1))
    expected = com_markers(bridge.model, state, sent[-1][0])
    assert sent[-1][1] == expected


def test_the_bridge_clears_markers_on_a_model_swap_and_when_switched_off():
    bridge = _arm_bridge()
    assert bridge.on_joint_state(_message(bridge, 10**9), 10**9).markers
    off = bridge.apply_parameters({'publish.com_markers': False}, 2 * 10**9)
    assert off.accepted and off.clear_markers
    out = bridge.on_joint_state(_message(bridge, 3 * 10**9), 3 * 10**9)
    assert out.tf and out.markers is None
    back = bridge.apply_parameters({'publish.com_markers': True}, 4 * 10**9)
    assert back.accepted and not back.clear_markers
    swap = bridge.apply_parameters(
        {'robot_description': open(robots.path('fk_quadruped')).read()}, 5 * 10**9)
    assert swap.accepted and swap.clear_markers


@pytest.mark.parametrize('value', [1, 'true', None, [True]])
def test_the_markers_switch_is_a_bool(value):
    bridge = _arm_bridge()
    out = bridge.apply_parameters({'publish.com_markers': value}, 10**9)
    assert not out.accepted and 'publish.com_markers' in out.reason


def test_a_robot_swapped_in_while_a_message_is_read_makes_it_read_again(monkeypatch):
    quadruped = open(robots.path('fk_quadruped')).read()
    bridge, _ = logged_bridge(quadruped, publish_frequency=0.0)
    message = full_state(bridge, bridge.model.neutral_configuration() + 0.1)
    assert bridge.on_joint_state(message, SEC).accepted  # the quadruped's plans in place
    from frame_kinematics.bridge import names
    plan = names.PlanCache.get
    swapped = []

    def get_then_swap(cache, joints):  # another thread loads the arm at this moment
        found = plan(cache, joints)
        if not swapped:
            swapped.append(bridge.set_robot_description(ARM, SEC))
        return found

    monkeypatch.setattr(names.PlanCache, 'get', get_then_swap)
    out = bridge.on_joint_state(message, 2 * SEC)  # read again under the arm
    assert swapped[0].accepted and bridge.model.name == 'fk_arm'
    assert out.accepted  # the quadruped's names are unknown to the arm, and said so


def test_parameters_applied_while_the_compiled_robot_moves_in_keep_it(monkeypatch):
    pytest.importorskip('numba')
    from frame_kinematics.bridge import bridge as bridge_module
    from frame_kinematics.core import Robot
    bridge, _ = logged_bridge(publish_frequency=0.0)
    compiled = Robot.from_urdf_string(ARM, backend='numba')
    prepare = bridge_module.prepare
    built = []

    def prepare_then_move(current, values):  # the compile thread installs its robot now
        built.append(prepare(current, values))
        if len(built) == 1:
            bridge._install_compiled(compiled)
        return built[-1]

    monkeypatch.setattr(bridge_module, 'prepare', prepare_then_move)
    assert bridge.apply_parameters({'warn_throttle_period': 7.0}, SEC).accepted
    assert len(built) == 2  # built again from the compiled core
    assert (bridge.model.backend, bridge.settings.warn_period) == ('numba', 7.0)
