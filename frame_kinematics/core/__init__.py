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
frame_kinematics core: URDF model, spatial algebra, frame tree and kinematics.

numpy and the standard library only; nothing here knows about ROS.

Conventions (used everywhere in this package)
---------------------------------------------
* ``a_T_b`` is the 4x4 pose of frame b in frame a, so ``a_T_c = a_T_b @ b_T_c`` and
  ``a_p = a_T_b @ b_p``. ``root_T_link`` is Pinocchio's ``data.oMf[frame]`` and what
  ``tf_buffer.lookup_transform('root', 'link', ...)`` returns in TF.
* ``a_R_b`` is its 3x3 rotation, ``a_p_b`` the position of b's origin in a, ``a_X_b`` the 6x6
  transform of twists from b to a.
* Twists are ``[linear; angular]`` and wrenches ``[force; torque]``, as ``geometry_msgs``.
  (Pinocchio's ``Motion.vector`` uses the same order.)
* Quaternions are ``[x, y, z, w]``; roll-pitch-yaw as URDF (``Rz(yaw) Ry(pitch) Rx(roll)``).
* Jacobians and twists take an explicit :class:`ExpressedIn` (``WORLD``, ``LOCAL``,
  ``LOCAL_WORLD_ALIGNED``) with Pinocchio's meanings; "world" is the model's root link.
* The model (:class:`RobotModel`) is data and never changes after parsing; everything that
  depends on a configuration lives in a :class:`KinematicsState` (Pinocchio's
  ``Model``/``Data`` split), or, recomputed in place for loops, in a
  :class:`KinematicsWorkspace`, each evaluated by the backend it was made with. A
  :class:`Robot` is a model with its backend and the one-call methods (Pinocchio's
  ``RobotWrapper``).
"""

from . import configuration, distance, ik, placement, reach, srdf, velocity
from .collision import CollisionFlags
from .errors import (BackendError, ConfigurationError, FrameKinematicsError, ReferenceFrameError,
                     SRDFError, TargetFileError, UnknownFrameError, UnknownOptionError,
                     UnknownReferenceFrameError, URDFError)
from .frames import FrameKind, FrameTree, ReferenceFrame
from .ik import ChainEvaluator, IKBatchResult, IKResult, IKSolver, solve_batch
from .kinematics import ExpressedIn, KinematicsState, KinematicsWorkspace
from .model import Joint, Link, RobotModel
from .quantities import (FrameOrientation, FramePoint, FrameVector, FrameVectorPair,
                         SpatialAcceleration, SpatialForce, SpatialInertia, SpatialMomentum,
                         SpatialMotion)
from .relative_motion import (ENVIRONMENT, RelativeMotion, RelativeMotionError,
                              RelativeMotionType)
from .robot import Robot
from .velocity import JacobianInverse

__all__ = [
    'BackendError',
    'ChainEvaluator',
    'CollisionFlags',
    'configuration',
    'ConfigurationError',
    'distance',
    'ENVIRONMENT',
    'ExpressedIn',
    'FrameKind',
    'FrameKinematicsError',
    'FrameOrientation',
    'FramePoint',
    'FrameTree',
    'FrameVector',
    'FrameVectorPair',
    'ik',
    'IKBatchResult',
    'IKResult',
    'IKSolver',
    'JacobianInverse',
    'Joint',
    'KinematicsState',
    'KinematicsWorkspace',
    'Link',
    'placement',
    'reach',
    'ReferenceFrame',
    'ReferenceFrameError',
    'RelativeMotion',
    'RelativeMotionError',
    'RelativeMotionType',
    'Robot',
    'RobotModel',
    'SpatialAcceleration',
    'SpatialForce',
    'SpatialInertia',
    'SpatialMomentum',
    'SpatialMotion',
    'solve_batch',
    'srdf',
    'SRDFError',
    'TargetFileError',
    'UnknownFrameError',
    'UnknownOptionError',
    'UnknownReferenceFrameError',
    'URDFError',
    'velocity',
]
