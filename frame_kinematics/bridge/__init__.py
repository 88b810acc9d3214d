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
The ROS-free half of the frame_kinematics node.

:class:`Bridge` makes every decision the node takes, on plain Python data: which joint
values to accept, which transforms to publish on ``/tf`` and ``/tf_static`` with which stamps,
when to publish the center of mass, how to swap the robot model, and (with
:mod:`frame_kinematics.bridge.services`) how to answer the kinematics services. The rclpy node
(:mod:`frame_kinematics.node`) only converts messages to and from these dataclasses.

One concept per module:

* :mod:`~frame_kinematics.bridge.messages`: the plain-data inputs and outputs;
* :mod:`~frame_kinematics.bridge.settings`: the settings and the check of each value;
* :mod:`~frame_kinematics.bridge.parameters`: the node's parameters and how they make settings;
* :mod:`~frame_kinematics.bridge.log`: short excerpts and throttled warnings;
* :mod:`~frame_kinematics.bridge.tf_math`: the joints' ``parent_T_child`` transforms;
* :mod:`~frame_kinematics.bridge.names`: what the names of a message mean;
* :mod:`~frame_kinematics.bridge.throttle`: when transforms are due, CoM stamps;
* :mod:`~frame_kinematics.bridge.published_frames`: the frame tree, user frames and the static set;
* :mod:`~frame_kinematics.bridge.model_core`: one model with one set of settings (immutable);
* :mod:`~frame_kinematics.bridge.snapshot`: what a service reads (immutable);
* :mod:`~frame_kinematics.bridge.published_com`: the robot CoM frame and topics;
* :mod:`~frame_kinematics.bridge.bridge`: the ``/tf`` path, the lock and the swaps;
* :mod:`~frame_kinematics.bridge.swap`: model swaps and settings changes, prepared;
* :mod:`~frame_kinematics.bridge.service_types`: the services' requests and responses;
* :mod:`~frame_kinematics.bridge.services`: the kinematics services;
* :mod:`~frame_kinematics.bridge.ik_slices`: a service's IK, solved in short slices;
* :mod:`~frame_kinematics.bridge.moveit_types`, :mod:`~frame_kinematics.bridge.moveit_groups`,
  :mod:`~frame_kinematics.bridge.moveit`: MoveIt's ``GetPositionIK`` and ``GetPositionFK``
  (their plain data, what an SRDF group means on the model, the answers).

Transform rules (those of robot_state_publisher, plus the additions of this package)
------------------------------------------------------------------------------------
* A movable joint (revolute, continuous, prismatic, and the mimic joints) named in an accepted
  ``joint_states`` message gives one ``/tf`` transform ``parent link -> child link``, stamped
  with the message's stamp. Mimic followers of a master named in the message are published
  with it. Planar joints, and floating joints with ``floating_joints: tf``, are movable too;
  their configuration entries are named ``joint/x``, ... With ``floating_joints: skip`` (the
  default) floating joints are neither published nor waited for (robot_state_publisher's
  behaviour).
* Throttling as robot_state_publisher (see :mod:`~frame_kinematics.bridge.throttle`).
* Fixed joints go to ``/tf_static`` (stamped with the current time), together with the link
  center-of-mass frames ``<link>_com`` and the user frames; the whole static set is sent
  again each time it changes. Tools (``tools.<tip>.*``) and the world placement
  (``world.*``) are fixed joints of the model the bridge uses, so they go there too.
* The robot center-of-mass frame goes to ``/tf`` with the joint transforms, once every
  needed joint has been received, with strictly increasing stamps.
* ``frame_prefix`` is prepended to every frame id, as robot_state_publisher does.
"""

from .bridge import Bridge
from .log import ThrottledLog
from .messages import BridgeOutput, CenterOfMassOut, JointStateInput, TransformOut
from .parameters import (PARAMETER_DEFAULTS, ParameterError, settings_from_parameters,
                         TOOL_DEFAULTS, USER_FRAME_DEFAULTS)
from .settings import (BridgeSettings, COM_ORIENTATIONS, FLOATING_JOINT_MODES, SettingError,
                       ToolSetting, UserFrame)
from .snapshot import Snapshot

__all__ = [
    'Bridge', 'BridgeOutput', 'BridgeSettings', 'CenterOfMassOut', 'COM_ORIENTATIONS',
    'FLOATING_JOINT_MODES', 'JointStateInput', 'PARAMETER_DEFAULTS', 'ParameterError',
    'SettingError', 'settings_from_parameters', 'Snapshot', 'ThrottledLog', 'TOOL_DEFAULTS',
    'ToolSetting', 'TransformOut', 'USER_FRAME_DEFAULTS', 'UserFrame',
]
