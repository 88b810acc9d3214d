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
The actions of the launch file, evaluated without starting anything.

Needs the ``launch`` and ``launch_ros`` Python packages (skipped without); rviz2 need not be
installed: the package look-up is replaced, so the RViz node's arguments (fixed frame) and
remappings can be checked where rviz2 cannot be built.
"""

import importlib.util
import os

from conftest import link_xml, urdf
import pytest

launch = pytest.importorskip('launch')
pytest.importorskip('launch_ros')
packages = pytest.importorskip('ament_index_python.packages')
actions_module = pytest.importorskip('launch.actions')
substitutions = pytest.importorskip('launch.substitutions')
perform_substitutions = pytest.importorskip('launch.utilities').perform_substitutions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_launch_file(rviz_installed):
    """Import the launch file with package look-ups answered from this repository."""
    spec = importlib.util.spec_from_file_location(
        'frame_kinematics_launch', os.path.join(ROOT, 'launch', 'frame_kinematics.launch.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def share(package):
        if package == 'frame_kinematics':
            return ROOT
        if package == 'rviz2' and rviz_installed:
            return '/opt/rviz2/share/rviz2'
        raise packages.PackageNotFoundError(f"package '{package}' not found")

    module.get_package_share_directory = share
    return module


def evaluate(rviz_installed=True, **arguments):
    """Return the launch file's actions for ``arguments`` (others at their defaults)."""
    description = load_launch_file(rviz_installed).generate_launch_description()
    context = launch.LaunchContext()
    for entity in description.entities:
        if isinstance(entity, actions_module.DeclareLaunchArgument):
            context.launch_configurations[entity.name] = perform_substitutions(
                context, entity.default_value)
    unknown = set(arguments) - set(context.launch_configurations)
    assert not unknown, f'undeclared arguments {unknown}'
    context.launch_configurations.update(arguments)
    (function,) = [e for e in description.entities if isinstance(e, actions_module.OpaqueFunction)]
    return context, function.execute(context)


def command_arguments(context, node):
    """Return the arguments a node is started with, before the ROS arguments."""
    words = [perform_substitutions(context, part) for part in node.cmd[1:]
             if not any(isinstance(s, substitutions.LocalSubstitution) for s in part)]
    return words[:words.index('--ros-args')]


def by_executable(actions):
    return {action.node_executable: action for action in actions}


def test_rviz_fixed_frame_is_the_root_link_of_the_robot(tmp_path):
    path = tmp_path / 'robot.urdf'
    path.write_text(urdf(link_xml('my_root', 1.0), 'rooted'))
    context, actions = evaluate(urdf=str(path))
    rviz = by_executable(actions)['rviz2']
    assert command_arguments(context, rviz) == [
        '-d', os.path.join(ROOT, 'rviz', 'frame_kinematics.rviz'), '-f', 'my_root']
    context, actions = evaluate(urdf=str(path), fixed_frame='robot1/my_root')
    assert command_arguments(context, by_executable(actions)['rviz2'])[-2:] == \
        ['-f', 'robot1/my_root']


def test_a_namespace_reaches_the_nodes_and_rviz_topics():
    context, actions = evaluate(namespace='/arm1/', node_name='legs')
    nodes = by_executable(actions)
    for action in actions:
        action._perform_substitutions(context)
    assert nodes['frame_kinematics_node'].expanded_node_namespace == '/arm1'
    assert nodes['frame_kinematics_node'].node_name == '/arm1/legs'
    assert nodes['demo_joint_states'].expanded_node_namespace == '/arm1'
    assert nodes['rviz2'].expanded_remapping_rules == [
        ('/robot_description', '/arm1/robot_description'), ('/com_markers', '/arm1/com_markers'),
        ('/frame_kinematics/reach/markers', '/arm1/legs/reach/markers'),
        ('/frame_kinematics/reach/points', '/arm1/legs/reach/points')]
    context, actions = evaluate()
    rviz = by_executable(actions)['rviz2']
    rviz._perform_substitutions(context)
    assert not rviz.expanded_remapping_rules


def test_without_rviz2_the_node_and_demo_start_and_a_warning_says_why(core_log):
    log = core_log('frame_kinematics.launch')
    _, actions = evaluate(rviz_installed=False)
    assert sorted(by_executable(actions)) == ['demo_joint_states', 'frame_kinematics_node']
    assert 'rviz2 is not installed: starting without RViz' in log.text


def test_switches_leave_out_the_demo_and_rviz(core_log):
    log = core_log('frame_kinematics.launch')
    _, actions = evaluate(rviz_installed=False, demo='false', rviz='false')
    assert list(by_executable(actions)) == ['frame_kinematics_node']
    assert log.text == ''


def test_an_srdf_file_becomes_the_robot_description_semantic_parameter(tmp_path):
    path = tmp_path / 'robot.srdf'
    path.write_text('<robot name="fk_arm"><group name="arm"/></robot>')
    context, actions = evaluate(rviz_installed=False, demo='false', srdf=str(path))
    node = by_executable(actions)['frame_kinematics_node']
    # launch_ros keeps a node's parameters with substitutions as keys (no public accessor)
    (given,) = [p for p in node._Node__parameters if isinstance(p, dict)]
    names = {perform_substitutions(context, list(key)) for key in given}
    assert {'robot_description', 'robot_description_semantic'} <= names
    with pytest.raises(Exception, match='srdf:=.*no such file'):
        evaluate(rviz_installed=False, srdf=str(tmp_path / 'missing.srdf'))
