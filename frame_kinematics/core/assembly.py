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
From a parsed URDF to the model's ordered links and joints.

Checks the tree (one root, no cycle, no unknown or doubly parented link), resolves mimic
chains to an actuated master, and numbers links depth-first from the root (children in
document order; Pinocchio orders siblings by joint name) with each actuated joint's slice of
``q`` and ``v``.
"""

from dataclasses import dataclass
import logging
from typing import Dict, List, Optional, Tuple

import numpy as np

from .checks import first_repeated, MAX_MAGNITUDE
from .errors import name_list, URDFError
from .joints import frozen, JointType
from .urdf import JointDescription, LinkDescription, RobotDescription

_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class Joint:
    """
    A joint of the model (read-only).

    :ivar type: the :class:`~frame_kinematics.core.joints.JointType`.
    :ivar parent_T_joint: pose of the joint frame in the parent link (URDF ``<origin>``).
    :ivar axis: unit axis in the joint frame (plane normal for planar joints).
    :ivar idx_q: first index in ``q`` (-1 for fixed and mimic joints).
    :ivar idx_v: first index in ``v`` (-1 for fixed and mimic joints).
    :ivar mimic: the master joint's name, multiplier and offset, resolved to an actuated master.
    """

    name: str
    type: JointType  # noqa: A003 (the URDF attribute name)
    parent: str
    child: str
    parent_T_joint: np.ndarray
    axis: np.ndarray
    lower: float
    upper: float
    velocity: float
    effort: float
    mimic: Optional[Tuple[str, float, float]]
    idx_q: int
    nq: int
    idx_v: int
    nv: int

    @property
    def is_actuated(self) -> bool:
        """Whether the joint has its own coordinates in ``q``."""
        return self.nq > 0


@dataclass(frozen=True)
class Link:
    """
    A link of the model: a body frame (read-only).

    :ivar parent_joint: name of the joint whose child this link is (None for the root).
    :ivar mass: mass in kg (0 without ``<inertial>``).
    :ivar link_p_com: center of mass in the link frame.
    :ivar inertia: rotational inertia about the center of mass, in link axes.
    :ivar has_inertial: whether the URDF gives an ``<inertial>`` for it.
    """

    name: str
    index: int
    parent: Optional[str]
    parent_joint: Optional[str]
    mass: float
    link_p_com: np.ndarray
    inertia: np.ndarray
    has_inertial: bool


def _tree(description: RobotDescription) -> Tuple[str, Dict[str, List[JointDescription]]]:
    link_names = [link.name for link in description.links]
    twice = first_repeated(link_names)
    if twice is not None:
        raise URDFError('duplicate link name', f"link '{twice}'")
    if not link_names:
        raise URDFError('the robot has no <link>')
    joint_seen = set()
    parent_of: Dict[str, str] = {}
    children: Dict[str, List[JointDescription]] = {name: [] for name in link_names}
    for joint in description.joints:
        where = f"joint '{joint.name}'"
        if joint.name in joint_seen:
            raise URDFError('duplicate joint name', where)
        joint_seen.add(joint.name)
        for role, link in (('parent', joint.parent), ('child', joint.child)):
            if link not in children:
                raise URDFError(f"{role} link '{link}' does not exist", where)
        if joint.parent == joint.child:
            raise URDFError(f"joins link '{joint.child}' to itself", where)
        if joint.child in parent_of:
            raise URDFError(f"link '{joint.child}' already has parent joint "
                            f"'{parent_of[joint.child]}'", where)
        parent_of[joint.child] = joint.name
        children[joint.parent].append(joint)
    roots = [name for name in link_names if name not in parent_of]
    if not roots:
        raise URDFError('no root link: the joints form a cycle')
    if len(roots) > 1:
        raise URDFError(f'several root links: {name_list(roots)} (a URDF tree has one root)')
    return roots[0], children


def _resolve_mimics(joints: Dict[str, JointDescription]) -> Dict[str, Tuple[str, float, float]]:
    ignored = set()  # a <mimic> of a joint the URDF does not have: the joint moves on its own
    for name, joint in joints.items():
        if joint.mimic is not None and JointType(joint.type).one_dof and \
                joint.mimic.joint not in joints:
            _LOG.warning("joint '%s' mimics unknown joint '%s': its <mimic> is ignored (the joint "
                         'moves on its own, as robot_state_publisher and MoveIt take it)', name,
                         joint.mimic.joint)
            ignored.add(name)
    resolved = {}
    fixed = []  # fixed joints with a <mimic>: they do not move, and are warned of in one line
    for name, joint in joints.items():
        if joint.mimic is None or name in ignored:
            continue
        where = f"joint '{name}'"
        jtype = JointType(joint.type)
        if jtype is JointType.FIXED:
            fixed.append(name)
            continue
        if not jtype.one_dof:
            raise URDFError(f'a {jtype.value} joint cannot mimic another joint', where)
        multiplier, offset, current, visited = 1.0, 0.0, joint, [name]
        while current.mimic is not None and JointType(current.type) is not JointType.FIXED \
                and current.name not in ignored:
            master = current.mimic.joint
            offset = multiplier * current.mimic.offset + offset
            multiplier = multiplier * current.mimic.multiplier
            if master in visited:
                raise URDFError(f"mimic chain loops: {' -> '.join(visited + [master])}", where)
            visited.append(master)
            current = joints[master]
        if not JointType(current.type).one_dof:
            raise URDFError(f"mimics '{current.name}', a {current.type} joint", where)
        if not (abs(multiplier) <= MAX_MAGNITUDE and abs(offset) <= MAX_MAGNITUDE):
            raise URDFError(f"the mimic chain to '{current.name}' has multiplier "
                            f'{multiplier:g} and offset {offset:g}, beyond {MAX_MAGNITUDE:g}',
                            where)
        resolved[name] = (current.name, multiplier, offset)
    if fixed:
        _LOG.warning('the <mimic> of fixed joint%s %s is ignored (a fixed joint does not move)',
                     's' if len(fixed) > 1 else '', name_list(fixed))
    return resolved


def add_floating_root(description: RobotDescription, world: str) -> RobotDescription:
    """
    Put a floating joint ``root_joint`` between a new root link ``world`` and the root.

    :param description: the parsed URDF.
    :param world: name of the new root link.
    :return: the extended description.
    :raises URDFError: if a link is already called ``world`` or a joint ``root_joint``,
        naming the option that adds them.
    """
    root, _ = _tree(description)
    if any(link.name == world for link in description.links):
        raise URDFError(f"cannot add a floating base: a link is already named '{world}'")
    if any(joint.name == 'root_joint' for joint in description.joints):
        raise URDFError('cannot add a floating base: floating_base=True adds a joint named '
                        "'root_joint', and the URDF already has a joint of that name (load it "
                        'without floating_base, or rename its joint)')
    joint = JointDescription('root_joint', 'floating', world, root, np.eye(4),
                             np.array([1.0, 0.0, 0.0]))
    return RobotDescription(description.name, (LinkDescription(world),) + description.links,
                            (joint,) + description.joints)


def _make_link(desc: LinkDescription, index: int, parent: Optional[str],
               parent_joint: Optional[str]) -> Link:
    inertial = desc.inertial
    if inertial is None:
        return Link(desc.name, index, parent, parent_joint, 0.0, frozen(np.zeros(3)),
                    frozen(np.zeros((3, 3))), False)
    rot = inertial.link_T_com[:3, :3]
    return Link(desc.name, index, parent, parent_joint, float(inertial.mass),
                frozen(inertial.link_T_com[:3, 3]), frozen(rot @ inertial.inertia @ rot.T),
                True)


def assemble(description: RobotDescription) -> Tuple[str, Tuple[Link, ...], Tuple[Joint, ...]]:
    """
    Order a description's links depth-first and lay out its actuated joints.

    :param description: the parsed URDF.
    :return: ``(root link name, links, joints)``; ``joints[i]`` carries ``links[i + 1]``.
    :raises URDFError: for structural errors (roots, cycles, unknown links, mimics).
    """
    root, children = _tree(description)
    mimics = _resolve_mimics({joint.name: joint for joint in description.joints})
    link_desc = {link.name: link for link in description.links}
    links: List[Link] = []
    joints: List[Joint] = []
    idx_q = idx_v = 0
    stack: List[Tuple[str, Optional[JointDescription]]] = [(root, None)]
    while stack:
        link_name, via = stack.pop()
        if via is not None:
            jtype = JointType(via.type)
            actuated = via.name not in mimics and jtype.moves
            nq, nv = (jtype.nq, jtype.nv) if actuated else (0, 0)
            joints.append(Joint(via.name, jtype, via.parent, via.child,
                                frozen(via.parent_T_joint), frozen(via.axis), via.lower,
                                via.upper, via.velocity, via.effort, mimics.get(via.name),
                                idx_q if actuated else -1, nq, idx_v if actuated else -1, nv))
            idx_q += nq
            idx_v += nv
        links.append(_make_link(link_desc[link_name], len(links),
                                None if via is None else via.parent,
                                None if via is None else via.name))
        stack.extend((j.child, j) for j in reversed(children[link_name]))
    if len(links) != len(description.links):
        orphans = sorted(set(link_desc) - {link.name for link in links})
        raise URDFError(f"links in a cycle, unreachable from root '{root}': "
                        f'{name_list(orphans)}')
    return root, tuple(links), tuple(joints)
