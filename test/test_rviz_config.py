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
The RViz configuration shows what the node publishes (no ROS needed).

The node's publishers are read from its source (every ``create_publisher(Type, 'topic',
qos)`` call of the package outside the core), so the test follows the node wherever its
code lives.
"""

import ast
import os

from conftest import bundled
from frame_kinematics.bridge import markers as com_markers
from frame_kinematics.bridge import reach_markers
import pytest

yaml = pytest.importorskip('yaml')

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, 'frame_kinematics')
CONFIG = os.path.join(ROOT, 'rviz', 'frame_kinematics.rviz')
#: The node whose own topics the configuration shows (the launch file's default node name).
RVIZ_NODE = '/frame_kinematics'


def node_publishers():
    """Map each topic the package publishes to ``(message type, QoS expression)``."""
    found = {}
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = [d for d in dirs if d not in ('core', '__pycache__')]
        for name in files:
            if not name.endswith('.py'):
                continue
            with open(os.path.join(folder, name), encoding='utf-8') as handle:
                tree = ast.parse(handle.read())
            for call in ast.walk(tree):
                if not isinstance(call, ast.Call):
                    continue
                func = call.func
                callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, 'id', '')
                if callee != 'create_publisher' or len(call.args) < 3:
                    continue
                kind, topic, qos = call.args[:3]
                if isinstance(topic, ast.Constant):
                    found[topic.value] = (ast.unparse(kind), ast.unparse(qos))
    return found


def absolute(topic):
    """Resolve a topic name in the root namespace, where the launch file starts RViz."""
    if topic.startswith('~/'):  # the node's own topic: the launch file's default node name
        return RVIZ_NODE + topic[1:]
    return topic if topic.startswith('/') else '/' + topic


@pytest.fixture(scope='module')
def config():
    with open(CONFIG, encoding='utf-8') as handle:
        return yaml.safe_load(handle)


def displays(config, cls):
    """Return the displays of one class, all enabled (there must be at least one)."""
    found = [d for d in config['Visualization Manager']['Displays']
             if d['Class'] == f'rviz_default_plugins/{cls}']
    assert found, f'the RViz config has no {cls} display'
    assert all(d['Enabled'] for d in found), f'a {cls} display is disabled'
    return found


def test_the_node_publishes_what_the_source_scan_expects():
    publishers = node_publishers()
    assert publishers['robot_description'][0] == 'String'
    assert publishers['com_markers'][0] == 'MarkerArray'
    assert publishers['/tf_static'][0] == 'TFMessage'
    assert publishers['/tf'][0] == 'TFMessage'


def test_robot_model_reads_the_latched_description(config):
    publishers = node_publishers()
    topics = {absolute(t): v for t, v in publishers.items()}
    (model,) = displays(config, 'RobotModel')
    assert model['Description Source'] == 'Topic'
    topic = model['Description Topic']
    assert topics[topic['Value']] == ('String', 'latched_qos()')
    # A volatile subscription would miss the description published once at start-up.
    assert topic['Durability Policy'] == 'Transient Local'
    assert topic['Reliability Policy'] == 'Reliable'


def display_of(config, cls, topic):
    """Return the one display of a class that reads ``topic``."""
    (found,) = [d for d in displays(config, cls) if d['Topic']['Value'] == topic]
    return found


def test_marker_array_shows_the_com_markers(config):
    publishers = node_publishers()
    topics = {absolute(t): v for t, v in publishers.items()}
    markers = display_of(config, 'MarkerArray', '/com_markers')
    topic = markers['Topic']
    assert topics[topic['Value']][0] == 'MarkerArray'
    assert topic['Durability Policy'] == 'Volatile'
    assert set(markers['Namespaces']) == {com_markers.COM_NAMESPACE,
                                          com_markers.GROUND_NAMESPACE,
                                          com_markers.LINK_NAMESPACE}
    assert all(markers['Namespaces'].values())


def test_tf_display_and_fixed_frame(config):
    assert '/tf' in node_publishers()
    displays(config, 'TF')
    # The launch file replaces it with the robot's root link (rviz2 -f); the file's own
    # value is that of the default robot.
    assert config['Visualization Manager']['Global Options']['Fixed Frame'] == \
        bundled().root_link


def test_every_topic_display_reads_a_published_topic(config):
    published = {absolute(t) for t in node_publishers()}
    for display in config['Visualization Manager']['Displays']:
        for key in ('Topic', 'Description Topic'):
            if key in display:
                assert display[key]['Value'] in published, display['Name']


def test_reach_heat_map_and_cloud_are_shown_latched(config):
    topics = {absolute(t): v for t, v in node_publishers().items()}
    heat = display_of(config, 'MarkerArray', f'{RVIZ_NODE}/reach/markers')
    cloud = display_of(config, 'PointCloud2', f'{RVIZ_NODE}/reach/points')
    assert topics[heat['Topic']['Value']] == ('MarkerArray', 'latched_qos')
    assert topics[cloud['Topic']['Value']] == ('PointCloud2', 'latched_qos')
    for display in (heat, cloud):
        # a volatile subscription would miss the study published before RViz started
        assert display['Topic']['Durability Policy'] == 'Transient Local'
        assert display['Topic']['Reliability Policy'] == 'Reliable'
    assert set(heat['Namespaces']) == {reach_markers.INDEX_NAMESPACE,
                                       reach_markers.SCORE_NAMESPACE}
    assert heat['Namespaces'][reach_markers.INDEX_NAMESPACE]
    assert cloud['Channel Name'] in reach_markers.CLOUD_FIELDS
    assert cloud['Color Transformer'] == 'Intensity'
