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
"""Helpers shared by the tests of ``frame_kinematics.core.kinematics``."""

from conftest import all_joint_types_model, bundled
from frame_kinematics.core.joints import JointType
from frame_kinematics.core.spatial import exp_se3, quaternion_from_rotation, \
    rotation_from_quaternion
import numpy as np
import pytest

#: The tolerance of the cross-checks against Pinocchio.
TOL = 1e-10
#: The models of the finite-difference checks, by name (their test ids); fk_quadruped is
#: on a floating base.
MODEL_NAMES = ('all_types', 'fk_arm', 'fk_quadruped')


def integrate(model, q, v, dt):
    """Integrate q (+) v dt with the exponential map for floating and planar joints."""
    q = q.copy()
    for joint in model.actuated_joints:
        iq, iv = joint.idx_q, joint.idx_v
        if joint.type is JointType.FLOATING:
            pose = np.eye(4)
            pose[:3, :3] = rotation_from_quaternion(q[iq + 3:iq + 7])
            pose[:3, 3] = q[iq:iq + 3]
            pose = pose @ exp_se3(v[iv:iv + 6] * dt)
            q[iq:iq + 3] = pose[:3, 3]
            q[iq + 3:iq + 7] = quaternion_from_rotation(pose[:3, :3])
        elif joint.type is JointType.PLANAR:
            x, y, theta = q[iq:iq + 3]
            pose = np.eye(4)
            pose[:2, :2] = [[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]]
            pose[:2, 3] = [x, y]
            vx, vy, wz = v[iv:iv + 3]
            pose = pose @ exp_se3(np.array([vx, vy, 0, 0, 0, wz]) * dt)
            q[iq:iq + 3] = [pose[0, 3], pose[1, 3], np.arctan2(pose[1, 0], pose[0, 0])]
        else:
            q[iq] += v[iv] * dt
    return q


def _pinocchio_angles(values, pj, joint):
    """Our coordinates of a joint as Pinocchio's: continuous and planar angles as (cos, sin)."""
    if pj.nq == len(values):
        return values
    if joint.type is JointType.CONTINUOUS:
        return [np.cos(values[0]), np.sin(values[0])]
    return [values[0], values[1], np.cos(values[2]), np.sin(values[2])]  # planar


def to_pinocchio(model, pmodel, q, v, a):
    """Map our (q, v, a) to Pinocchio's, and the v-expansion matrix for mimic joints."""
    qp, vp, ap = np.zeros(pmodel.nq), np.zeros(pmodel.nv), np.zeros(pmodel.nv)
    expand = np.zeros((pmodel.nv, model.nv))
    for joint in model.joints:
        if joint.type is JointType.FIXED:
            continue
        pj = pmodel.joints[pmodel.getJointId(joint.name)]
        if joint.mimic is not None:
            master, mult, off = joint.mimic
            mj = model.joint(master)
            qp[pj.idx_q:pj.idx_q + pj.nq] = _pinocchio_angles([q[mj.idx_q] * mult + off], pj,
                                                              joint)
            vp[pj.idx_v] = v[mj.idx_v] * mult
            ap[pj.idx_v] = a[mj.idx_v] * mult
            expand[pj.idx_v, mj.idx_v] = mult
        else:
            qp[pj.idx_q:pj.idx_q + pj.nq] = _pinocchio_angles(
                q[joint.idx_q:joint.idx_q + joint.nq], pj, joint)
            vp[pj.idx_v:pj.idx_v + pj.nv] = v[joint.idx_v:joint.idx_v + joint.nv]
            ap[pj.idx_v:pj.idx_v + pj.nv] = a[joint.idx_v:joint.idx_v + joint.nv]
            expand[pj.idx_v:pj.idx_v + pj.nv, joint.idx_v:joint.idx_v + joint.nv] = \
                np.eye(joint.nv)
    return qp, vp, ap, expand


def model_fixture():
    """
    Make the module-scoped fixture ``model`` of a test file, assigned to ``model`` there.

    The fixture builds the model of :data:`MODEL_NAMES` that the test's parameter names
    (``indirect=True``), once for the module.
    """
    @pytest.fixture(scope='module', name='model')
    def model(request):
        """Build the model named by the test's parameter, once for the module."""
        if request.param == 'all_types':
            return all_joint_types_model()
        if request.param == 'fk_quadruped':
            return bundled('fk_quadruped', floating_base=True)
        return bundled(request.param)

    return model
