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
"""``frame-kinematics info``: the model as a tree, or as JSON data."""

import argparse
import math
from typing import Dict, List, Optional

from .common import emit, to_json
from .robot_input import model_of
from ..core.backend import describe
from ..core.collision import CollisionFlags
from ..core.joints import JointType
from ..core.robot import Robot
from ..core.srdf import read_srdf_file

#: Deepest level of the tree drawn indented; a joint deeper in a chain is drawn at this level
#: with its depth written out, so that every line stays short and the tree of a chain of
#: ``n`` joints takes ``O(n)`` characters, not ``O(n**2)``.
MAX_TREE_INDENT = 32


def _limits_text(joint) -> str:
    unit = joint.type.unit
    parts = []
    if joint.type.bounded:
        parts.append(f'[{joint.lower:g}, {joint.upper:g}] {unit}')
    elif joint.type is JointType.CONTINUOUS:
        parts.append('unbounded')
    if joint.type.one_dof:
        if math.isfinite(joint.velocity):
            parts.append(f'vmax {joint.velocity:g} {unit}/s')
        if math.isfinite(joint.effort):
            parts.append(f"effort {joint.effort:g} {'N' if unit == 'm' else 'N m'}")
    return ', '.join(parts)


def _joint_text(joint) -> str:
    parts = [joint.type.value]
    if joint.type not in (JointType.FIXED, JointType.FLOATING):
        parts.append('axis ' + ' '.join(f'{a:g}' for a in joint.axis + 0.0))
    limits = _limits_text(joint)
    if limits:
        parts.append(limits)
    if joint.mimic is not None:
        master, multiplier, offset = joint.mimic
        parts.append(f'mimic {multiplier:g} * {master} + {offset:g}')
    return f"{joint.name} ({', '.join(parts)})"


def _mass_text(link) -> str:
    return f'{link.mass:g} kg' if link.has_inertial else 'no inertial'


def _collision_text(flags: CollisionFlags, srdf: Optional[str]) -> str:
    counts = flags.counts()
    text = (f"collision pairs to test: {counts['tested']} of {counts['pairs']} "
            f"({counts['parent_child']} parent/child pairs off")
    if srdf is not None:
        text += f", {counts['srdf_only']} more disabled by {srdf}"
        adjacent = counts['srdf_disabled'] - counts['srdf_only']
        if adjacent:
            text += f' (which also names {adjacent} of the parent/child pairs)'
    return text + ')'


def _info_tree(model: Robot, collision: str) -> str:
    n_fixed = sum(not j.type.moves for j in model.joints)
    lines = [f'robot {model.name}: {len(model.links)} links, {len(model.joints)} joints '
             f'({len(model.actuated_joints)} actuated, {len(model.mimic_joints)} mimic, '
             f'{n_fixed} fixed), nq={model.nq}, nv={model.nv}',
             f'total mass: {model.total_mass:g} kg',
             f'{model.root_link} [{_mass_text(model.link(model.root_link))}]']
    children: Dict[str, List] = {link.name: [] for link in model.links}
    for joint in model.joints:
        children[joint.parent].append(joint)

    stack = [(joint, '', k == len(children[model.root_link]) - 1, 1)
             for k, joint in enumerate(children[model.root_link])][::-1]
    while stack:  # depth first, without recursion: a chain may be thousands of links long
        joint, indent, last, depth = stack.pop()
        child = model.link(joint.child)
        deep = f'[depth {depth}] ' if depth > MAX_TREE_INDENT else ''
        lines.append(f"{indent}{'`-- ' if last else '|-- '}{deep}{_joint_text(joint)} -> "
                     f'{child.name} [{_mass_text(child)}]')
        below = children[child.name]
        inner = indent if depth >= MAX_TREE_INDENT else indent + ('    ' if last else '|   ')
        stack += [(j, inner, k == len(below) - 1, depth + 1) for k, j in enumerate(below)][::-1]
    lines.append(collision)
    note = (" (the command line's default for single queries, answered sooner than compiled "
            'kernels load; --backend numba for those)') if model.backend == 'numpy' else ''
    lines.append(f'kinematics backend: {describe(model.backend)}{note}')
    return '\n'.join(lines)


def _info_json(model: Robot) -> dict:
    return {
        'robot': model.name, 'root_link': model.root_link, 'nq': model.nq, 'nv': model.nv,
        'total_mass': model.total_mass, 'backend': model.backend,
        'configuration_names': list(model.configuration_names),
        'velocity_names': list(model.velocity_names),
        'links': [{'name': link.name, 'parent_joint': link.parent_joint,
                   'mass': link.mass if link.has_inertial else None,
                   'link_p_com': link.link_p_com.tolist() if link.has_inertial else None}
                  for link in model.links],
        'joints': [{'name': j.name, 'type': j.type.value, 'parent': j.parent, 'child': j.child,
                    'axis': j.axis.tolist(), 'lower': j.lower, 'upper': j.upper,
                    'velocity': j.velocity, 'effort': j.effort,
                    'mimic': None if j.mimic is None else {
                        'joint': j.mimic[0], 'multiplier': j.mimic[1], 'offset': j.mimic[2]},
                    'idx_q': j.idx_q, 'idx_v': j.idx_v}
                   for j in model.joints],
    }


def run(args: argparse.Namespace) -> int:
    """
    Print the model's tree (``info``), or its data with ``--format json``.

    Both give the collision flags: the pairs of links a collision checker tests, with the
    pairs an SRDF (``--srdf``) disables.

    :param args: the parsed command line.
    :return: the exit status.
    """
    model = model_of(args)
    flags = CollisionFlags(model, None if args.srdf is None else read_srdf_file(args.srdf))
    if args.format == 'json':
        data = _info_json(model)
        data['collision'] = dict(flags.counts(), srdf_disabled_pairs=[
            list(pair) for pair in flags.srdf_disabled])
        emit(to_json(data))
    else:
        emit(_info_tree(model, _collision_text(flags, args.srdf)))
    return 0
