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
``frame-kinematics ik``: inverse kinematics of a link to one target or a file of targets.

The seed is the configuration given (``NAME=VALUE`` pairs, ``--config``); entries not given
take their default, within the joint limits, and given values beyond the limits start at the
nearest limit (with a warning). With ``--position-only`` a target needs no orientation and
no orientation error is reported. Without ``--time-budget`` a solve has no wall-clock limit:
it stops at ``--max-iterations`` (and ``--restarts``), so that its result is the same on a
busy machine as on an idle one.
"""

import argparse
import sys
import time
from typing import List, Optional, Sequence

import numpy as np

from .common import (CommandLineError, configuration_dict, emit, EXIT_NOT_CONVERGED, fmt,
                     PROG, Progress, sci, table, to_json, usage_errors, UsageError)
from .inputs import default_link, number, read_document, read_states, read_text
from .poses import pose_json
from .robot_input import model_of
from ..core import configuration as cfg
from ..core.ik.options import MAX_TIME_BUDGET
from ..core.robot import Robot
from ..core.spatial import rpy_from_rotation, transform_from_xyz_quaternion, transform_from_xyz_rpy
from ..core.transform_checks import unit_quaternion

_TARGET_FORMS = '{xyz: [x, y, z], rpy: [r, p, y]} or {xyz: [...], quat: [x, y, z, w]}'


def target_pose(xyz: Sequence, rpy: Optional[Sequence] = None,
                quat: Optional[Sequence] = None, where: str = 'target',
                position_only: bool = False) -> np.ndarray:
    """
    Build a target pose from a position and an orientation (rpy or quaternion).

    :param xyz: position, 3 numbers.
    :param rpy: roll, pitch, yaw, or ``None``.
    :param quat: quaternion ``[x y z w]``, or ``None``.
    :param where: the target, for messages.
    :param position_only: whether the orientation may be left out (then the identity).
    :return: 4x4 ``frame_T_target``.
    :raises CommandLineError: for a missing or doubled orientation.
    :raises ConfigurationError: for a malformed number or a non-unit quaternion.
    """
    position = np.array([number(x, f'{where} {k}') for x, k in zip(xyz, 'xyz')])
    if rpy is not None and quat is not None:
        raise CommandLineError(f'{where}: give the orientation as rpy or as quat, not both')
    if rpy is None and quat is None:
        if position_only:
            return transform_from_xyz_rpy(position, np.zeros(3))
        raise CommandLineError(f'{where}: give the orientation as rpy (3 angles) or quat '
                               '(x y z w), or solve for the position alone with '
                               '--position-only')
    if rpy is not None:
        angles = [number(a, f'{where} {k}') for a, k in zip(rpy, ('roll', 'pitch', 'yaw'))]
        return transform_from_xyz_rpy(position, np.array(angles))
    quaternion = np.array([number(c, f'{where} q{k}') for c, k in zip(quat, 'xyzw')])
    return transform_from_xyz_quaternion(
        position, unit_quaternion(quaternion, f'{where}: quaternion [x y z w]'))


def _text_targets(path: str, position_only: bool) -> List[np.ndarray]:
    lines = read_text(path).splitlines()
    sizes = (3, 6, 7) if position_only else (6, 7)
    poses = []
    for line_number, line in enumerate(lines, 1):
        cells = line.split('#')[0].replace(',', ' ').split()
        if not cells:
            continue
        where = f'{path} line {line_number}'
        if len(cells) not in sizes:
            forms = 'x y z roll pitch yaw or x y z qx qy qz qw'
            hint = ' (add --position-only for x y z)' if len(cells) == 3 else ''
            raise CommandLineError(f"{where}: expected {'x y z, ' if position_only else ''}"
                                   f'{forms}, got {len(cells)} numbers{hint}')
        rpy = cells[3:] if len(cells) == 6 else None
        quat = cells[3:] if len(cells) == 7 else None
        poses.append(target_pose(cells[:3], rpy, quat, where, position_only))
    return poses


def read_targets(path: str, position_only: bool = False) -> np.ndarray:
    """
    Read a file of targets: a JSON/YAML list, or a text/CSV file of 6 or 7 numbers a line.

    With ``position_only`` a target may be its position alone (``{xyz}``, 3 numbers).

    :param path: the file.
    :param position_only: whether orientations may be left out.
    :return: ``(B, 4, 4)`` ``frame_T_target``.
    :raises CommandLineError: for an unreadable or malformed file.
    """
    if path.lower().endswith(('.csv', '.txt')):
        poses = _text_targets(path, position_only)
    else:
        document = read_document(path)
        if isinstance(document, dict) and 'targets' in document:
            document = document['targets']
        if not isinstance(document, list):
            raise CommandLineError(f'{path}: expected a list of targets {_TARGET_FORMS}')
        poses = []
        for k, item in enumerate(document):
            where = f'{path} target {k}'
            if not isinstance(item, dict) or set(item) - {'xyz', 'rpy', 'quat'} or \
                    not isinstance(item.get('xyz'), list) or len(item['xyz']) != 3:
                raise CommandLineError(f'{where}: expected {_TARGET_FORMS}, got {item!r}')
            for key, size in (('rpy', 3), ('quat', 4)):
                if key in item and (not isinstance(item[key], list) or len(item[key]) != size):
                    raise CommandLineError(f'{where}: {key} must be a list of {size} numbers')
            poses.append(target_pose(item['xyz'], item.get('rpy'), item.get('quat'), where,
                                     position_only))
    if not poses:
        raise CommandLineError(f'{path} has no targets')
    return np.stack(poses)


def _moved(model: Robot, link: str) -> bool:
    """Whether a movable joint lies between the root and ``link``."""
    return any(model.kernel.moves[row] for row in model.topology.path(model.link_index(link)))


def _options(args: argparse.Namespace) -> dict:
    options = {'position_only': args.position_only,
               'position_tolerance': args.position_tolerance,
               'orientation_tolerance': args.orientation_tolerance,
               'max_iterations': args.max_iterations, 'restarts': args.restarts,
               'orientation_weight': args.orientation_weight,
               'rng': np.random.default_rng(args.random_seed)}
    if args.relative_to:
        options['reference_frame'] = args.relative_to
    if args.active_joints:
        options['active_joints'] = list(args.active_joints)
    return options


def run(args: argparse.Namespace) -> int:
    """
    Solve inverse kinematics and print the solution(s) and errors.

    :param args: the parsed command line.
    :return: 0, or :data:`EXIT_NOT_CONVERGED` when a target is not reached.
    """
    # the targets first: a bad one is refused before the model (and its kernels) is built
    targets = frame_T_target = None
    if args.targets:
        targets = read_targets(args.targets, args.position_only)
    elif args.xyz is None:
        raise UsageError('give the target with --xyz X Y Z and --rpy R P Y or '
                         '--quat X Y Z W (or a file of targets with --targets)')
    else:
        with usage_errors(errors=(CommandLineError,)):  # an orientation missing or doubled
            frame_T_target = target_pose(args.xyz, args.rpy, args.quat, 'target',
                                         args.position_only)
    model = model_of(args)
    if model.nv == 0:
        raise CommandLineError(f"robot '{model.name}' has no joints to move")
    seed, _ = read_states(model, args.pairs, args.config, 'the seed starts at the nearest limit')
    seed = cfg.clip(model, seed)
    link = default_link(model, args.link)
    if not args.active_joints and not _moved(model, link):
        raise CommandLineError(f"link '{link}' is not moved by any joint: choose another "
                               'with --link')
    frame = args.relative_to or model.root_link
    model.link_index(frame)
    options = _options(args)
    if targets is not None:
        return _solve_batch(model, link, frame, targets, seed, options, args)
    options['time_budget'] = min(args.time_budget, MAX_TIME_BUDGET)
    result = model.inverse_kinematics(link, frame_T_target, seed=seed, **options)
    position_only = args.position_only
    if args.format == 'json':
        document = {'robot': model.name, 'link': link, 'frame': frame,
                    'position_only': position_only,
                    'target': {'position': frame_T_target[:3, 3].tolist()} if position_only
                    else pose_json(frame_T_target),
                    'success': bool(result.success), 'reason': result.reason,
                    'position_error': result.position_error}
        if not position_only:
            document['orientation_error'] = result.orientation_error
        document.update({'iterations': int(result.iterations),
                         'restarts': int(result.restarts), 'elapsed': result.elapsed,
                         'q': configuration_dict(model, result.q)})
        emit(to_json(document))
    else:
        p = args.precision
        xyz_text = ' '.join(fmt(x, p) for x in frame_T_target[:3, 3])
        if position_only:
            goal = f'xyz [{xyz_text}] in {frame} (position only)'
        else:
            rpy_text = ' '.join(fmt(x, p) for x in rpy_from_rotation(frame_T_target[:3, :3]))
            goal = f'xyz [{xyz_text}] rpy [{rpy_text}] in {frame}'
        emit(f'# {model.name}: inverse kinematics of {link} to {goal}')
        emit(f"converged: {'yes' if result.success else 'no'} ({result.reason}, "
             f'{result.iterations} iterations, {result.restarts} restarts, '
             f'{1e3 * result.elapsed:.1f} ms)')
        emit(f'position error [m]: {sci(result.position_error)}')
        if not position_only:
            emit(f'orientation error [rad]: {sci(result.orientation_error)}')
        emit(table(['joint', 'value'], [[name, value] for name, value in
                                        zip(model.configuration_names, result.q)], p))
    if not result.success:
        errors = f'position error {sci(result.position_error)} m'
        if not position_only:
            errors += f', orientation error {sci(result.orientation_error)} rad'
        sys.stderr.write(f'{PROG}: error: inverse kinematics of {link} did not converge '
                         f'({result.reason}; {errors})\n')
        return EXIT_NOT_CONVERGED
    return 0


def _solve_batch(model: Robot, link: str, frame: str, frame_T_targets: np.ndarray,
                 seed: np.ndarray, options: dict, args: argparse.Namespace) -> int:
    count = len(frame_T_targets)
    chunk = min(args.chunk, count)
    progress = Progress('targets tried', not args.quiet and count > chunk)
    results = []
    solved = 0
    start = time.monotonic()
    for first in range(0, count, chunk):
        part = frame_T_targets[first:first + chunk]
        options['time_budget'] = min(args.time_budget * len(part), MAX_TIME_BUDGET)
        results.append(model.inverse_kinematics(link, part, seed=seed, **options))
        solved += int(np.count_nonzero(results[-1].success))
        progress(first + len(part), count, f', {solved} solved')
    elapsed = time.monotonic() - start
    q = np.concatenate([r.q for r in results])
    success = np.concatenate([r.success for r in results])
    position_error = np.concatenate([r.position_error for r in results])
    orientation_error = np.concatenate([r.orientation_error for r in results])
    iterations = np.concatenate([r.iterations for r in results])
    reasons = [reason for r in results for reason in r.reason]
    position_only = args.position_only
    if args.format == 'json':
        items = []
        for k in range(count):
            item = {'success': bool(success[k]), 'reason': reasons[k],
                    'position_error': float(position_error[k])}
            if not position_only:
                item['orientation_error'] = float(orientation_error[k])
            item.update({'iterations': int(iterations[k]), 'q': configuration_dict(model, q[k])})
            items.append(item)
        emit(to_json({'robot': model.name, 'link': link, 'frame': frame, 'count': count,
                      'position_only': position_only, 'solved': solved, 'elapsed': elapsed,
                      'results': items}))
    else:
        emit(f'# {model.name}: inverse kinematics of {link} for {count} targets in {frame}'
             f"{' (position only)' if position_only else ''}: {solved} solved in "
             f'{elapsed:.2f} s')
        errors = ['pos_err'] if position_only else ['pos_err', 'ori_err']
        rows = [[str(k), 'yes' if success[k] else 'no', sci(position_error[k])] +
                ([] if position_only else [sci(orientation_error[k])]) +
                [str(int(iterations[k]))] + list(q[k]) for k in range(count)]
        emit(table(['target', 'ok'] + errors + ['iter'] + list(model.configuration_names),
                   rows, args.precision))
    if not args.quiet:
        sys.stderr.write(f'{PROG}: solved {solved} of {count} targets in {elapsed:.2f} s\n')
    return 0 if solved == count else EXIT_NOT_CONVERGED
