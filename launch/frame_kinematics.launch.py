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
Start the frame_kinematics node, optionally the demo joint-state source and RViz.

The robot comes from one of ``urdf:=`` (a URDF file, or a ``.xacro`` file expanded with
xacro and ``xacro_args``), ``robot:=`` (a bundled robot: ``fk_arm``, ``fk_quadruped``) or
``robot_description:=`` (the URDF text); without any, the bundled ``fk_arm``. The description
is read once and given to the nodes as their ``robot_description`` parameter, as
robot_state_publisher's launch files do. RViz starts only where it is installed (a warning
says so otherwise), with its fixed frame from ``fixed_frame`` (default: the model's root
link). ``ros2 launch frame_kinematics frame_kinematics.launch.py --show-args`` lists every
argument.
"""

import os
import shlex
from xml.parsers.expat import ExpatError

from ament_index_python.packages import get_package_share_directory, PackageNotFoundError
from frame_kinematics import robots
from frame_kinematics.core import Robot
from frame_kinematics.core.errors import FrameKinematicsError
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.logging import get_logger
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

SOURCES = ('urdf', 'robot', 'robot_description')
#: The node whose topics the RViz configuration names (the default node_name).
RVIZ_NODE = '/frame_kinematics'


class RobotDescriptionError(RuntimeError):
    """The launch arguments give no usable robot description."""


def _flag(context, name: str) -> bool:
    value = LaunchConfiguration(name).perform(context).strip().lower()
    if value not in ('true', 'false', '1', '0'):
        raise RobotDescriptionError(f"argument {name} must be true or false, got '{value}'")
    return value in ('true', '1')


def _read_file(path: str, xacro_args: str) -> str:
    """Read a URDF file; expand a ``.xacro`` file with xacro."""
    if not os.path.isfile(path):
        raise RobotDescriptionError(f'urdf:={path}: no such file')
    if not path.endswith('.xacro'):
        with open(path, encoding='utf-8') as handle:
            return handle.read()
    try:
        import xacro
    except ImportError:
        raise RobotDescriptionError(
            f'urdf:={path} is a xacro file and xacro is not installed: install it '
            '(apt install ros-$ROS_DISTRO-xacro) or give the expanded URDF') from None
    mappings = {}
    for item in shlex.split(xacro_args):
        name, sep, value = item.partition(':=')
        if not sep or not name:
            raise RobotDescriptionError(f"xacro_args must be 'name:=value' items, got '{item}'")
        mappings[name] = value
    try:
        return xacro.process_file(path, mappings=mappings).toxml()
    except (xacro.XacroException, ExpatError, OSError, ValueError) as exc:
        raise RobotDescriptionError(f'urdf:={path}: xacro failed: {exc}') from None


def robot_description(context) -> str:
    """
    Return the URDF that the launch arguments name.

    :param context: the launch context.
    :return: the URDF text.
    :raises RobotDescriptionError: for more than one source, a missing file, a xacro file
        without xacro, or an unknown bundled robot.
    """
    values = {name: LaunchConfiguration(name).perform(context) for name in SOURCES}
    given = [name for name in SOURCES if values[name].strip()]
    if len(given) > 1:
        raise RobotDescriptionError(
            'give the robot with one of urdf:=, robot:= or robot_description:=, got '
            f"{', '.join(given)}")
    if 'urdf' in given:
        return _read_file(values['urdf'], LaunchConfiguration('xacro_args').perform(context))
    if 'robot_description' in given:
        return values['robot_description']
    name = values['robot'].strip() or robots.DEFAULT_ROBOT
    try:
        path = robots.path(name)
    except FrameKinematicsError as exc:
        raise RobotDescriptionError(f'robot:={name}: {exc}') from None
    with open(path, encoding='utf-8') as handle:
        return handle.read()


def _nodes(context):
    """Create the nodes from the arguments (the description is read once, here)."""
    description = robot_description(context)
    try:  # numpy: only the root link is needed here, no compiled kinematics
        root = Robot.from_urdf_string(description, backend='numpy').root_link
    except FrameKinematicsError as exc:
        raise RobotDescriptionError(f'the robot description is not usable: {exc}') from None
    sim_time = _flag(context, 'use_sim_time')
    namespace = LaunchConfiguration('namespace').perform(context).strip('/')
    urdf_param = {'robot_description': ParameterValue(description, value_type=str),
                  'use_sim_time': sim_time}
    node_params = dict(urdf_param)
    srdf = LaunchConfiguration('srdf').perform(context).strip()
    if srdf:
        if not os.path.isfile(srdf):
            raise RobotDescriptionError(f'srdf:={srdf}: no such file')
        with open(srdf, encoding='utf-8') as handle:
            node_params['robot_description_semantic'] = ParameterValue(handle.read(),
                                                                       value_type=str)
    actions = [
        Node(package='frame_kinematics', executable='frame_kinematics_node',
             name=LaunchConfiguration('node_name').perform(context), namespace=namespace,
             output='screen',
             parameters=[LaunchConfiguration('params_file').perform(context), node_params]),
    ]
    if _flag(context, 'demo'):
        actions.append(Node(package='frame_kinematics', executable='demo_joint_states',
                            name='demo_joint_states', namespace=namespace, output='screen',
                            parameters=[urdf_param]))
    if not _flag(context, 'rviz'):
        return actions
    try:
        get_package_share_directory('rviz2')
    except PackageNotFoundError:
        get_logger('frame_kinematics.launch').warning(
            'rviz2 is not installed: starting without RViz (install ros-$ROS_DISTRO-rviz2, '
            'or pass rviz:=false)')
        return actions
    topics = ('/robot_description', '/com_markers')
    remappings = [(topic, f'/{namespace}{topic}') for topic in topics] if namespace else []
    # the reach study's latched topics are the node's own (~/reach/...): the RViz
    # configuration names them for the default node name, in the root namespace
    node = '/' + '/'.join(part for part in (namespace,
                                            LaunchConfiguration('node_name').perform(context))
                          if part)
    if node != RVIZ_NODE:
        remappings += [(f'{RVIZ_NODE}/reach/{topic}', f'{node}/reach/{topic}')
                       for topic in ('markers', 'points')]
    fixed_frame = LaunchConfiguration('fixed_frame').perform(context) or root
    actions.append(Node(package='rviz2', executable='rviz2', name='rviz2', output='log',
                        arguments=['-d', LaunchConfiguration('rviz_config').perform(context),
                                   '-f', fixed_frame],
                        parameters=[{'use_sim_time': sim_time}], remappings=remappings))
    return actions


def generate_launch_description():
    """Launch description of the frame_kinematics node (see the module docstring)."""
    share = get_package_share_directory('frame_kinematics')
    arguments = [
        ('urdf', '', 'URDF file of the robot; a .xacro file is expanded with xacro'),
        ('xacro_args', '', "xacro arguments for a .xacro urdf, 'name:=value' items"),
        ('robot', '', f"bundled robot ({', '.join(robots.names())}); "
                      f'{robots.DEFAULT_ROBOT} when no robot is given'),
        ('robot_description', '', 'URDF text of the robot'),
        ('srdf', '', "SRDF file of the robot (MoveIt's planning groups, for compute_ik)"),
        ('node_name', 'frame_kinematics', 'name of the frame_kinematics node'),
        ('namespace', '', 'namespace of the nodes (topics and services)'),
        ('use_sim_time', 'false', 'use the /clock topic'),
        ('params_file', os.path.join(share, 'config', 'frame_kinematics.yaml'),
         'parameters of the frame_kinematics node'),
        ('demo', 'true', 'publish a demo joint-state sweep'),
        ('rviz', 'true', 'start RViz when it is installed'),
        ('rviz_config', os.path.join(share, 'rviz', 'frame_kinematics.rviz'),
         'RViz configuration'),
        ('fixed_frame', '', 'fixed frame of RViz (default: the root link of the robot)'),
    ]
    return LaunchDescription(
        [DeclareLaunchArgument(name, default_value=default, description=description)
         for name, default, description in arguments] + [OpaqueFunction(function=_nodes)])
