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
What joint names mean for a model, and the plan of a list of names.

The entries a joint_states message may carry, and what a list of names asks for (cached,
since drivers repeat their names).

Every step is linear in the number of names (sets and dicts, never a search per name).
"""

from collections import Counter
import heapq
from typing import Dict, List, Optional, Tuple

import numpy as np

from .tf_math import JointTransforms
from ..core.errors import NAMES_SHOWN
from ..core.joints import JointType
from ..core.model import RobotModel

#: Number of distinct name lists whose plans are kept.
PLAN_CACHE_SIZE = 32


class JointIndex:
    """
    Per-model name tables of the bridge.

    :param model: the robot model.
    :param skip_floating: floating joints are not on ``/tf`` and their entries are ignored
        (robot_state_publisher's behaviour).
    """

    def __init__(self, model: RobotModel, skip_floating: bool) -> None:
        self.model = model
        self.transforms = JointTransforms(model)
        floating = {j.name for j in model.joints if j.type is JointType.FLOATING}
        #: floating joints left out of ``/tf`` (``floating_joints: skip``).
        self.skipped = frozenset(floating if skip_floating else ())
        #: ``name -> q index`` for every configuration entry a joint_states message may carry.
        self.entry: Dict[str, int] = {}
        #: ``name -> v index`` for the one-dof actuated joints.
        self.velocity_index: Dict[str, int] = {}
        multi_entries = set()
        for joint in model.actuated_joints:
            if joint.nq == 1:
                self.entry[joint.name] = joint.idx_q
                self.velocity_index[joint.name] = joint.idx_v
        for i, name in enumerate(model.configuration_names):
            if name not in self.entry and name.split('/')[0] not in self.skipped:
                self.entry[name] = i
                multi_entries.add(name)
        #: joint whose transform a message entry moves (``base/x`` -> ``base``, mimics too).
        self.joint_of_entry: Dict[str, str] = {name: name.split('/')[0]
                                               if name in multi_entries else name
                                               for name in self.entry}
        self.followers: Dict[str, List[str]] = {}
        for joint in model.mimic_joints:
            self.joint_of_entry[joint.name] = joint.name
            self.followers.setdefault(joint.mimic[0], []).append(joint.name)
        self.fixed_names = frozenset(j.name for j in model.joints if not j.type.moves)
        self.mimic_names = frozenset(j.name for j in model.mimic_joints)
        #: names that are not entries but are checked (fixed joints and mimic joints).
        self.others = self.fixed_names | self.mimic_names
        #: names ignored without a warning (skipped floating joints and their entries).
        self.ignored = frozenset(self.skipped) | frozenset(
            name for name in model.configuration_names if name.split('/')[0] in self.skipped)
        #: q entries that must be received before the CoM is known (skipped joints excluded).
        self.needed = np.ones(model.nq, dtype=bool)
        #: v entries that joint_states can give (others are never known).
        self.velocity_given = np.zeros(model.nv, dtype=bool)
        self.velocity_given[list(self.velocity_index.values())] = True
        for joint in model.actuated_joints:
            if joint.name in self.skipped:
                self.needed[joint.idx_q:joint.idx_q + joint.nq] = False

    def support_joints(self, link: str) -> Tuple[str, ...]:
        """
        Actuated joints (and mimic masters) a link's pose depends on, root first.

        Walks the link's path in the topology (time linear in its depth, nothing stored per
        link); skipped floating joints are left out.

        :param link: the link name.
        :return: joint names, each once.
        """
        model = self.model
        names: Dict[str, None] = {}
        for row in model.topology.path(model.link_index(link))[1:]:
            joint = model.joints[row - 1]
            if joint.is_actuated and joint.name not in self.skipped:
                names[joint.name] = None
            elif joint.mimic is not None:
                names[joint.mimic[0]] = None
        return tuple(names)

    def plan(self, names: Tuple[str, ...], prefix: str) -> 'NamePlan':
        """
        Return the plan of a list of names.

        :param names: the names of a message.
        :param prefix: the frame prefix of the transforms.
        :return: a new plan (see :class:`NamePlan`).
        """
        return NamePlan(self, names, prefix)


class NamePlan:
    """
    What a list of joint names means for a model (built in time linear in the names).

    :ivar q_pos: positions in the message of the configuration entries.
    :ivar q_idx: their q indices.
    :ivar v_pos: positions in the message of the one-dof joints (with a velocity entry).
    :ivar v_idx: their v indices.
    :ivar multi: the message sets a multi-dof entry (the configuration must be checked).
    :ivar unknown: a few names the model does not have (the smallest ones).
    :ivar unknown_count: how many names the model does not have.
    :ivar others: ``(position, name)`` of fixed and mimic joints (checked, not stored).
    :ivar duplicates: a few joints of the model named more than once (the message is then
        refused); a repeated name the model does not read (an unknown name, an empty one, a
        skipped floating joint's entry) is ignored with the other unknown names, as
        robot_state_publisher ignores it.
    :ivar joints: joints whose ``/tf`` transform the message moves (throttle keys).
    :ivar tf_indices: moving-joint indices to publish (mimic followers included).
    """

    __slots__ = ('q_pos', 'q_idx', 'v_pos', 'v_idx', 'multi', 'unknown', 'unknown_count',
                 'others', 'duplicates', 'joints', 'tf_indices', 'parents', 'children')

    def __init__(self, index: JointIndex, names: Tuple[str, ...], prefix: str) -> None:
        unique = set(names)
        entry = index.entry
        self.duplicates: List[str] = []
        if len(unique) != len(names):
            self.duplicates = heapq.nsmallest(NAMES_SHOWN, (
                name for name, count in Counter(names).items()
                if count > 1 and (name in entry or name in index.others)))
        position_of = dict(zip(names, range(len(names))))
        known = unique.intersection(entry)
        others = unique.intersection(index.others)
        #: names the model does not have (a few of them, sorted) and how many there are.
        unknown = unique.difference(entry, index.others, index.ignored)
        self.unknown: List[str] = heapq.nsmallest(NAMES_SHOWN, unknown)
        self.unknown_count = len(unknown)
        self.others: List[Tuple[int, str]] = sorted((position_of[n], n) for n in others)
        ordered = sorted(known, key=position_of.__getitem__)
        q_pos, q_idx, v_pos, v_idx = [], [], [], []
        self.multi = False
        velocity_index = index.velocity_index
        for name in ordered:
            q_pos.append(position_of[name])
            q_idx.append(entry[name])
            velocity = velocity_index.get(name)
            if velocity is not None:
                v_pos.append(position_of[name])
                v_idx.append(velocity)
            else:
                self.multi = True
        self.q_pos = np.array(q_pos, dtype=int)
        self.q_idx = np.array(q_idx, dtype=int)
        self.v_pos = np.array(v_pos, dtype=int)
        self.v_idx = np.array(v_idx, dtype=int)
        joint_of = index.joint_of_entry
        moved = [n for _, n in sorted((position_of[n], n) for n in unique.intersection(joint_of))]
        self.joints = tuple(dict.fromkeys(joint_of[n] for n in moved))
        transforms = index.transforms
        chosen: Dict[int, None] = {}
        for joint in self.joints:
            chosen[transforms.index[joint]] = None
            for follower in index.followers.get(joint, ()):
                chosen[transforms.index[follower]] = None
        self.tf_indices = np.fromiter(chosen, dtype=int, count=len(chosen))
        self.parents = [prefix + transforms.parents[i] for i in chosen]
        self.children = [prefix + transforms.children[i] for i in chosen]


class PlanCache:
    """
    Plans of the last :data:`PLAN_CACHE_SIZE` distinct name lists of one joint index.

    :param index: the joint index.
    :param prefix: the frame prefix of the transforms.
    """

    def __init__(self, index: JointIndex, prefix: str) -> None:
        self.index = index
        self.prefix = prefix
        self._plans: Dict[Tuple[str, ...], NamePlan] = {}

    def get(self, names: Tuple[str, ...]) -> NamePlan:
        """Return the plan of ``names`` (built once per distinct list)."""
        plan: Optional[NamePlan] = self._plans.get(names)
        if plan is None:
            if len(self._plans) >= PLAN_CACHE_SIZE:
                self._plans.clear()
            plan = self._plans[names] = self.index.plan(names, self.prefix)
        return plan
