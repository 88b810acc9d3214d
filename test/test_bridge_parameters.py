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
"""The node's parameters and their checks (frame_kinematics.bridge.parameters)."""

import os

from bridge_testing import ARM, arm_state, logged_bridge, SEC
from frame_kinematics.bridge import (Bridge, BridgeSettings, PARAMETER_DEFAULTS,
                                     settings_from_parameters, UserFrame)
from frame_kinematics.bridge.parameters import own_parameters
from frame_kinematics.core import FrameKinematicsError
import pytest


def test_settings_from_the_shipped_parameters_file():
    yaml = pytest.importorskip('yaml')
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, '..', 'config', 'frame_kinematics.yaml')) as handle:
        document = yaml.safe_load(handle)
    (params,) = [v['ros__parameters'] for v in document.values()]

    def flatten(tree, prefix=''):
        out = {}
        for key, value in tree.items():
            if isinstance(value, dict):
                out.update(flatten(value, prefix + key + '.'))
            else:
                out[prefix + key] = value
        return out

    flat = flatten(params)
    assert set(flat) == set(PARAMETER_DEFAULTS) - {'robot_description',
                                                   'robot_description_semantic'}
    for key, value in flat.items():
        assert value == PARAMETER_DEFAULTS[key], key
    assert settings_from_parameters(flat).validated() == BridgeSettings().validated()


def test_settings_from_parameters_reads_user_frames():
    params = dict(PARAMETER_DEFAULTS)
    params.update({'user_frames.names': ['cam', ''], 'user_frames.cam.parent': 'tool0',
                   'user_frames.cam.xyz': [0, 0, 1], 'user_frames.cam.baked': True,
                   'publish_frequency': 0, 'com.orientation': 'yaw'})
    settings = settings_from_parameters(params).validated()
    assert settings.user_frames == (UserFrame('cam', 'tool0', (0.0, 0.0, 1.0),
                                              (0.0, 0.0, 0.0), True),)
    assert settings.publish_frequency == 0.0 and settings.com_orientation == 'yaw'
    assert settings_from_parameters({'user_frames.names': ['cam']}).user_frames == ()


BAD_PARAMETERS = [
    ('publish_frequency', 5e-324, 'publish_frequency'),
    ('publish_frequency', 4e-10, 'publish_frequency'),
    ('publish_frequency', -1.0, 'publish_frequency'),
    ('publish_frequency', 10 ** 400, 'publish_frequency'),
    ('publish_frequency', 1001.0, 'publish_frequency'),
    ('publish_frequency', 'fast', 'publish_frequency'),
    ('publish_frequency', '1e3',
     "publish_frequency must be a number from 0 to 1000, got the text '1e3'"),
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
    bridge, _ = logged_bridge()
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
    bridge, logger = logged_bridge()
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


def test_a_user_frame_defined_one_parameter_at_a_time_appears_when_complete():
    bridge, logger = logged_bridge()
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
    bridge, logger = logged_bridge()
    assert bridge.apply_parameters({'user_frames.cam.parent': 'tool0'}, 0).accepted
    assert any('not in user_frames.names' in t for t in logger.texts('warning'))
    out = bridge.apply_parameters({'user_frames.names': ['cam']}, 0)
    assert out.accepted and any(t.child == 'cam' for t in out.tf_static)


@pytest.mark.parametrize('name', ['publish_frequncy', 'com.colour', 'user_frames.cam.size'])
def test_a_misspelt_parameter_is_refused_as_robot_state_publisher(name):
    bridge, _ = logged_bridge()
    out = bridge.apply_parameters({name: 50}, 0)
    assert not out.accepted
    assert out.reason.endswith(f"parameter '{name}' cannot be set because it was not declared")


def test_a_long_undeclared_parameter_is_named_by_its_excerpt_whole():
    bridge, _ = logged_bridge()
    out = bridge.apply_parameters({'x' * 300: 50}, 0)
    assert not out.accepted
    assert "parameter 'xxx" in out.reason
    assert out.reason.endswith('x... (300 characters) cannot be set because it was not declared')


def test_rclpy_parameters_pass_through():
    bridge, _ = logged_bridge()
    assert bridge.apply_parameters({'use_sim_time': True}, 0).accepted


def test_a_node_starts_with_its_own_parameters_and_leaves_other_nodes_ones():
    values = {'robot_description': ARM, 'publish_frequency': 10.0, 'use_sim_time': False,
              'qos_overrides./tf.publisher.depth': 10, 'user_frames.names': ['cam'],
              'user_frames.cam.parent': 'tool0', 'tools.tool0.xyz': [0.0, 0.0, 0.1],
              'bogus_param': 1, 'controller_manager.update_rate': 100}
    own, others = own_parameters(values)
    assert others == ('bogus_param', 'controller_manager.update_rate')
    assert own == {name: value for name, value in values.items() if name not in others}
    bridge = Bridge.from_parameters(own)  # the node's own are all taken
    assert [frame.name for frame in bridge.settings.user_frames] == ['cam']
    with pytest.raises(FrameKinematicsError, match="'bogus_param' cannot be set because it "
                                                   'was not declared'):
        Bridge.from_parameters(values)
