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
"""``frame-kinematics relative-motion``: the relative-motion matrix under constraints."""

import argparse
from typing import List, Optional

from .common import CommandLineError, emit, to_json
from .inputs import read_document
from .robot_input import model_of
from ..core.errors import quote
from ..core.model import RobotModel

_ENVIRONMENT_NAMES = ('env', 'environment', '<environment>')
_MOTION_LETTERS = 'CPU'


def _body(model: RobotModel, name) -> Optional[str]:
    if name is None:
        return None
    if not isinstance(name, str):
        raise CommandLineError(f'a body must be a joint or link name, got {quote(name)}')
    known = model.has_link(name) or name in {j.name for j in model.joints}
    return None if name.lower() in _ENVIRONMENT_NAMES and not known else name


def _constraints_from_file(path: str) -> List[dict]:
    document = read_document(path)
    if isinstance(document, dict) and 'constraints' in document:
        document = document['constraints']
    if not isinstance(document, list) or not all(isinstance(c, dict) for c in document):
        raise CommandLineError(f'{path}: expected a list of constraints such as '
                               '{lock: JOINT} or {transformation: [A, B]}')
    return document


def _constraints(args: argparse.Namespace) -> List[dict]:
    constraints = _constraints_from_file(args.constraints) if args.constraints else []
    for parameterized, joints in ((False, args.lock), (True, args.lock_parameterized)):
        constraints += [{'lock': j, 'parameterized': parameterized} for j in joints or ()]
    for parameterized, pairs in ((False, args.transform), (True, args.transform_parameterized)):
        constraints += [{'transformation': list(p), 'parameterized': parameterized}
                        for p in pairs or ()]
    return constraints


def _apply_constraint(model: RobotModel, motion, constraint: dict) -> dict:
    kinds = [k for k in ('lock', 'transformation') if k in constraint]
    unknown = set(constraint) - {'lock', 'transformation', 'parameterized', 'mask'}
    if len(kinds) != 1 or unknown:
        raise CommandLineError(f'constraint {quote(constraint)} must have exactly one of lock or '
                               'transformation, and optionally parameterized and mask')
    parameterized = constraint.get('parameterized', False)
    if not isinstance(parameterized, bool):
        raise CommandLineError(f'parameterized must be true or false in {quote(constraint)}')
    if kinds[0] == 'lock':
        if not isinstance(constraint['lock'], str) or not constraint['lock']:
            raise CommandLineError(f"lock takes one joint name, got {quote(constraint['lock'])} "
                                   '(give one {lock: JOINT} item per joint)')
        if 'mask' in constraint:
            raise CommandLineError(f'a locked joint takes no mask: {quote(constraint)}')
        motion.add_locked_joint(constraint['lock'], parameterized)
        return {'lock': constraint['lock'], 'parameterized': parameterized}
    pair = constraint['transformation']
    if isinstance(pair, str):
        pair = [pair]
    if not isinstance(pair, list) or len(pair) not in (1, 2):
        raise CommandLineError(f'transformation must be [A] or [A, B] (B defaults to the '
                               f'environment), got {quote(pair)}')
    body_a = _body(model, pair[0])
    body_b = _body(model, pair[1]) if len(pair) == 2 else None
    motion.add_relative_transformation(body_a, body_b, parameterized, constraint.get('mask'))
    return {'transformation': [body_a, body_b], 'parameterized': parameterized,
            'mask': constraint.get('mask')}


def run(args: argparse.Namespace) -> int:
    """
    Print the relative-motion matrix and the rigid groups under the constraints given.

    :param args: the parsed command line.
    :return: the exit status.
    """
    from ..core.relative_motion import RelativeMotion
    model = model_of(args)
    motion = RelativeMotion(model)
    applied = [_apply_constraint(model, motion, c) for c in _constraints(args)]
    matrix = motion.matrix
    bodies = [model.root_link] + [j.child for j in model.joints]
    groups = motion.rigid_groups()
    if args.format == 'json':
        emit(to_json({'robot': model.name, 'index_names': list(motion.index_names),
                     'bodies': bodies, 'constraints': applied,
                      'matrix': [[_MOTION_LETTERS[v] for v in row] for row in matrix],
                      'rigid_groups': [list(g) for g in groups]}))
        return 0
    emit(f'# {model.name}: relative motion under {len(applied)} constraint(s); '
         'C constrained, P parameterized, U unconstrained; index k is the body (child link) '
         'of joint k, 0 the environment')
    labels = [f'{k:>2} {name} [{body}]' for k, (name, body) in
              enumerate(zip(motion.index_names, bodies))]
    width = max(len(label) for label in labels)
    emit(' ' * width + '  ' + ' '.join(f'{k % 100:>2}' for k in range(len(labels))))
    for label, row in zip(labels, matrix):
        emit(label.ljust(width) + '  ' + ' '.join(f'{_MOTION_LETTERS[v]:>2}' for v in row))
    emit('rigid groups (constrained or parameterized):')
    for group in groups:
        emit('  ' + ', '.join(group))
    return 0
