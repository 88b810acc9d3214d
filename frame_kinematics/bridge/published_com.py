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
The robot center of mass as published: the CoM frame on ``/tf`` and the CoM topics.

The CoM is given in the reference link of the model core (the root link, or the child of the
floating root joint when floating joints are skipped). Its velocity and the centroidal angular
momentum are published only while every joint velocity is known: never from made-up values.
The compiled ``/tf`` path computes them without a frame tree (:func:`center_of_mass_at`).
"""

import math
from typing import Optional, Tuple

from .messages import CenterOfMassOut, TransformOut
from .model_core import ModelCore
from ..core.frames import FrameTree
from ..core.spatial import inverse, quaternion_from_rotation

Quaternion = Tuple[float, float, float, float]


def _orientation(core: ModelCore, reference_T_com) -> Quaternion:
    mode = core.settings.com_orientation
    if mode == 'root':
        return (0.0, 0.0, 0.0, 1.0)
    if mode == 'yaw':
        yaw = math.atan2(reference_T_com[1, 0], reference_T_com[0, 0])
        return (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
    if mode == 'quaternion':
        return core.settings.com_quaternion
    return tuple(quaternion_from_rotation(reference_T_com[:3, :3]).tolist())


#: CoM orientation modes whose published rotation does not depend on the link poses.
POSE_FREE_ORIENTATIONS = frozenset({'root', 'quaternion'})


def center_of_mass(core: ModelCore, tree: FrameTree, stamp_ns: int, velocities_known: bool
                   ) -> Tuple[Optional[TransformOut], Optional[CenterOfMassOut]]:
    """
    Return the robot CoM frame and topic values at the configuration of ``tree``.

    :param core: the model core (settings, reference link).
    :param tree: a frame tree of ``core`` at the current configuration (and velocity when
        ``velocities_known``).
    :param stamp_ns: the stamp to give them.
    :param velocities_known: every joint velocity is known (and in ``tree``).
    :return: ``(transform or None, topic values or None)`` as the settings ask.
    """
    settings = core.settings
    if core.com_note or not (settings.publish_com_frame or settings.publish_com_topics):
        return None, None
    reference_T_com = tree.com_frame.root_T_frame
    if core.reference != core.model.root_link:
        reference_T_com = inverse(tree.frame(core.reference).root_T_frame) @ reference_T_com
    velocity = momentum = None
    if velocities_known and settings.publish_com_topics:
        state = tree.state
        velocity = tuple(state.center_of_mass_velocity().tolist())
        momentum = tuple(state.angular_momentum().tolist())
    return _outputs(core, tuple(reference_T_com[:3, 3].tolist()), reference_T_com, stamp_ns,
                    velocity, momentum)


def center_of_mass_at(core: ModelCore, reference_p_com: Tuple[float, float, float],
                      stamp_ns: int, velocity: Optional[Tuple[float, float, float]] = None,
                      momentum: Optional[Tuple[float, float, float]] = None
                      ) -> Tuple[Optional[TransformOut], Optional[CenterOfMassOut]]:
    """
    :func:`center_of_mass` from values computed without a frame tree.

    For the orientation modes of :data:`POSE_FREE_ORIENTATIONS` only (the compiled ``/tf``
    path computes the values, no frame tree).

    :param core: the model core (settings, reference link).
    :param reference_p_com: the CoM in the reference link.
    :param stamp_ns: the stamp to give them.
    :param velocity: the CoM velocity, root-aligned (None: not published).
    :param momentum: the angular momentum about the CoM, root-aligned (with ``velocity``).
    :return: ``(transform or None, topic values or None)`` as the settings ask.
    """
    settings = core.settings
    if core.com_note or not (settings.publish_com_frame or settings.publish_com_topics):
        return None, None
    return _outputs(core, reference_p_com, None, stamp_ns, velocity, momentum)


def _outputs(core: ModelCore, position: Tuple[float, float, float], reference_T_com,
             stamp_ns: int, velocity, momentum
             ) -> Tuple[Optional[TransformOut], Optional[CenterOfMassOut]]:
    settings = core.settings
    frame_id = settings.frame_prefix + core.reference
    transform = topics = None
    if settings.publish_com_frame:
        transform = TransformOut(frame_id, settings.frame_prefix + settings.com_frame,
                                 stamp_ns, position, _orientation(core, reference_T_com))
    if settings.publish_com_topics:
        topics = CenterOfMassOut(stamp_ns, frame_id, position, velocity, momentum)
    return transform, topics
