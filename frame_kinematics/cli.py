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
``frame-kinematics``: the core's kinematics on any URDF from the command line, no ROS.

Sub-commands: ``info``, ``fk``, ``jacobian``, ``com``, ``ik``, ``relative-motion`` and
``render``; ``frame-kinematics COMMAND --help`` shows each one's options and an example.

Exit status: 0 on success, 1 for an error (bad URDF, unknown link or joint, malformed
number, missing file or dependency: one ``frame-kinematics: error: ...`` line on stderr, no
traceback), 2 for a usage error (unknown option), 3 when inverse kinematics does not converge.
"""

import argparse
import json
import logging
import math
import os
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import __version__, robots
from .core.errors import (ConfigurationError, FrameKinematicsError, UnknownFrameError,
                          URDFError)
from .core.joints import JointType
from .core.kinematics import ExpressedIn
from .core.model import RobotModel
from .core.spatial import (quaternion_from_rotation, rpy_from_rotation,
                           transform_from_xyz_quaternion, transform_from_xyz_rpy)

PROG = 'frame-kinematics'

#: Exit status of an error, a usage error and an inverse kinematics failure.
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_NOT_CONVERGED = 3

_LOG = logging.getLogger(PROG)


class CommandLineError(FrameKinematicsError, ValueError):
    """A command line or input file that cannot be used (wrong form, conflicting options)."""


class _Parser(argparse.ArgumentParser):
    """Argument parser whose usage errors are one line on stderr."""

    def error(self, message: str) -> None:
        """
        Print ``frame-kinematics: error: ...`` and exit with status 2.

        :param message: what is wrong.
        """
        sys.stderr.write(f"{PROG}: error: {message} (see '{self.prog} --help')\n")
        sys.exit(EXIT_USAGE)


# -- reading the inputs ---------------------------------------------------------------------
def _load_model(args: argparse.Namespace) -> RobotModel:
    if args.urdf and args.robot:
        raise CommandLineError('give either --urdf or --robot, not both')
    path = args.urdf or robots.path(args.robot or robots.DEFAULT_ROBOT)
    try:
        return RobotModel.from_urdf_file(path, floating_base=args.floating_base)
    except URDFError as exc:
        if path in str(exc):
            raise
        raise URDFError(f'{path}: {exc}') from None


def _number(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ConfigurationError(f"malformed number {value!r} for '{name}'")
    try:
        number = float(value)
    except ValueError:
        raise ConfigurationError(f"malformed number '{value}' for '{name}'") from None
    if not math.isfinite(number):
        raise ConfigurationError(f"'{value}' for '{name}' is not a finite number")
    return number


def _parse_pairs(tokens: Sequence[str], what: str) -> Dict[str, str]:
    pairs: Dict[str, str] = {}
    for token in tokens:
        name, sep, value = token.partition('=')
        name = name.strip()
        if not sep or not name:
            raise CommandLineError(f"expected NAME=VALUE for a {what}, got '{token}'")
        if name in pairs:
            raise CommandLineError(f"{what} '{name}' is given twice")
        pairs[name] = value.strip()
    return pairs


def _vector(model: RobotModel, values: Dict[str, object], velocity: bool) -> np.ndarray:
    """Build a ``q`` (or ``v``) from ``{entry: number}``; a multi-dof joint takes a list."""
    names = model.velocity_names if velocity else model.configuration_names
    index = {name: i for i, name in enumerate(names)}
    groups = {j.name: [n for n in names if n.startswith(j.name + '/')]
              for j in model.actuated_joints if not j.type.one_dof}
    unknown = [name for name in values if name not in index and name not in groups]
    if unknown:
        raise UnknownFrameError(', '.join(map(str, unknown)), list(index) + list(groups),
                                'joint' if len(unknown) == 1 else 'joints')
    x = np.zeros(len(names)) if velocity else model.neutral_configuration()
    for name, value in values.items():
        if name in groups:
            parts = value.split(',') if isinstance(value, str) else value
            if not isinstance(parts, (list, tuple)) or len(parts) != len(groups[name]):
                raise ConfigurationError(
                    f"joint '{name}' takes {len(groups[name])} values "
                    f"({', '.join(groups[name])}), got {value!r}")
            for entry, part in zip(groups[name], parts):
                x[index[entry]] = _number(part, entry)
        else:
            x[index[name]] = _number(value, name)
    return x


def _read_json(text: str, path: str):
    try:
        return json.loads(text)
    except ValueError as exc:
        raise CommandLineError(f'{path} is not valid JSON: {exc}') from None


def _read_document(path: str):
    try:
        with open(path, 'rb') as handle:
            text = handle.read().decode('utf-8')
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise CommandLineError(f'cannot read {path}: {reason}') from None
    if path.lower().endswith('.json'):
        return _read_json(text, path)
    try:
        import yaml
    except ImportError:
        if path.lower().endswith(('.yaml', '.yml')):
            from .render import MissingDependencyError
            raise MissingDependencyError('pyyaml', f'reading the YAML file {path}') from None
        return _read_json(text, path)
    try:
        documents = [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError as exc:
        raise CommandLineError(f'{path} is not valid YAML or JSON: '
                               f"{' '.join(str(exc).split())}") from None
    if not documents:
        raise CommandLineError(f'{path} is empty')
    return documents[0]


def _states_from_document(document, path: str) -> Tuple[object, Optional[object]]:
    """Positions and velocities of a configuration file (see the ``--config`` help)."""
    if isinstance(document, list):
        return document, None
    if not isinstance(document, dict):
        raise CommandLineError(f'{path}: expected a mapping of joint names to values or a list '
                               f'of numbers, got {type(document).__name__}')
    if isinstance(document.get('name'), list):
        names = document['name']
        out = []
        for key in ('position', 'velocity'):
            values = document.get(key) or []
            if values and len(values) != len(names):
                raise CommandLineError(f"{path}: '{key}' has {len(values)} values for "
                                       f'{len(names)} names')
            out.append(dict(zip(names, values)) if values else None)
        return out[0] or {}, out[1]
    if document and set(document) <= {'positions', 'velocities'}:
        return document.get('positions') or {}, document.get('velocities')
    return document, None


def _read_states(model: RobotModel, pairs: Sequence[str] = (),
                 config: Optional[str] = None) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """
    Read a configuration (and a velocity, if the file has one) and NAME=VALUE pairs.

    Pairs override the file's values; entries given nowhere are zero (identity quaternion).
    """
    positions: object = {}
    velocities: Optional[object] = None
    if config:
        positions, velocities = _states_from_document(_read_document(config), config)
    if isinstance(positions, list):
        q = model.check_configuration(np.array([_number(v, f'{config}[{i}]')
                                                for i, v in enumerate(positions)]),
                                      f'the configuration in {config}')
    elif isinstance(positions, dict):
        q = _vector(model, positions, velocity=False)
    else:
        raise CommandLineError(f'{config}: positions must be a mapping or a list')
    overrides = _parse_pairs(pairs, 'joint')
    if overrides:
        names = list(model.configuration_names)
        q = _vector(model, {**dict(zip(names, q)), **overrides}, velocity=False)
    v = None
    if velocities is not None:
        if not isinstance(velocities, dict):
            raise CommandLineError(f'{config}: velocities must be a mapping of joint names')
        v = _vector(model, velocities, velocity=True)
    return model.check_configuration(q), v


def _split_extras(args: argparse.Namespace, extras: List[str]) -> None:
    """
    Move ``NAME=VALUE`` tokens that argparse could not place into ``args.pairs``.

    ``--links`` takes one or more values, so ``--links tool0 elbow_joint=1`` puts the pair in
    the links (``--active-joints`` too); argparse also leaves pairs that follow an option as
    unrecognised.
    """
    if not hasattr(args, 'pairs'):
        if extras:
            args.parser.error(f"unrecognized arguments: {' '.join(extras)}")
        return
    args.pairs = list(args.pairs)
    for option in ('links', 'active_joints'):
        names = getattr(args, option, None) or []
        args.pairs += [t for t in names if '=' in t]
        if names:
            setattr(args, option, [t for t in names if '=' not in t])
    for token in extras:
        if '=' in token and not token.startswith('-'):
            args.pairs.append(token)
        else:
            args.parser.error(f'unrecognized argument: {token}')


# -- formatting -----------------------------------------------------------------------------
def _fmt(x: float, precision: int) -> str:
    return f'{round(float(x), precision) + 0.0:.{precision}f}'


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]], precision: int) -> str:
    cells = [list(headers)] + [[c if isinstance(c, str) else _fmt(c, precision) for c in row]
                               for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append('  '.join(parts).rstrip())
    return '\n'.join(lines)


def _finite(x: float) -> Optional[float]:
    return float(x) if math.isfinite(x) else None


def _json(document) -> str:
    return json.dumps(document, indent=2)


def _changed(model: RobotModel, q: np.ndarray) -> Dict[str, float]:
    neutral = model.neutral_configuration()
    return {name: float(value) for name, value, zero in
            zip(model.configuration_names, q, neutral) if value != zero}


def _config_line(model: RobotModel, q: np.ndarray) -> str:
    changed = _changed(model, q)
    if not changed:
        return 'neutral configuration'
    return ', '.join(f'{name}={value:g}' for name, value in changed.items())


def _emit(text: str) -> None:
    sys.stdout.write(text + '\n')


class _Progress:
    """
    Progress of a long run on stderr.

    A self-updating line on a terminal, else a line at every tenth of the work.
    """

    def __init__(self, label: str, enabled: bool = True) -> None:
        self.label = label
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.start = time.monotonic()
        self.reported = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        tenth = (10 * done) // total
        if not self.tty and tenth == self.reported and done != total:
            return
        self.reported = tenth
        elapsed = time.monotonic() - self.start
        text = f'{PROG}: {self.label} {done}/{total} ({elapsed:.1f} s)'
        if self.tty:
            sys.stderr.write('\r' + text + ('\n' if done == total else ''))
        else:
            sys.stderr.write(text + '\n')
        sys.stderr.flush()


# -- info -----------------------------------------------------------------------------------
def _limits_text(joint) -> str:
    unit = 'm' if joint.type is JointType.PRISMATIC else 'rad'
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


def _info_tree(model: RobotModel) -> str:
    n_fixed = sum(j.type is JointType.FIXED for j in model.joints)
    lines = [f'robot {model.name}: {len(model.links)} links, {len(model.joints)} joints '
             f'({len(model.actuated_joints)} actuated, {len(model.mimic_joints)} mimic, '
             f'{n_fixed} fixed), nq={model.nq}, nv={model.nv}',
             f'total mass: {model.total_mass:g} kg',
             f'{model.root_link} [{_mass_text(model.link(model.root_link))}]']
    children: Dict[str, List] = {link.name: [] for link in model.links}
    for joint in model.joints:
        children[joint.parent].append(joint)

    def walk(link_name: str, indent: str) -> None:
        below = children[link_name]
        for k, joint in enumerate(below):
            last = k == len(below) - 1
            child = model.link(joint.child)
            lines.append(f"{indent}{'`-- ' if last else '|-- '}{_joint_text(joint)} -> "
                         f'{child.name} [{_mass_text(child)}]')
            walk(child.name, indent + ('    ' if last else '|   '))

    walk(model.root_link, '')
    return '\n'.join(lines)


def _info_json(model: RobotModel) -> dict:
    return {
        'robot': model.name, 'root_link': model.root_link, 'nq': model.nq, 'nv': model.nv,
        'total_mass': model.total_mass,
        'configuration_names': list(model.configuration_names),
        'velocity_names': list(model.velocity_names),
        'links': [{'name': link.name, 'parent_joint': link.parent_joint,
                   'mass': link.mass if link.has_inertial else None,
                   'link_p_com': link.link_p_com.tolist() if link.has_inertial else None}
                  for link in model.links],
        'joints': [{'name': j.name, 'type': j.type.value, 'parent': j.parent, 'child': j.child,
                    'axis': j.axis.tolist(), 'lower': _finite(j.lower),
                    'upper': _finite(j.upper), 'velocity': _finite(j.velocity),
                    'effort': _finite(j.effort),
                    'mimic': None if j.mimic is None else {
                        'joint': j.mimic[0], 'multiplier': j.mimic[1], 'offset': j.mimic[2]},
                    'idx_q': j.idx_q, 'idx_v': j.idx_v}
                   for j in model.joints],
    }


def _cmd_info(args: argparse.Namespace) -> int:
    model = _load_model(args)
    _emit(_json(_info_json(model)) if args.format == 'json' else _info_tree(model))
    return 0


# -- fk -------------------------------------------------------------------------------------
def _pose_json(a_T_b: np.ndarray) -> dict:
    return {'position': a_T_b[:3, 3].tolist(),
            'quaternion': quaternion_from_rotation(a_T_b[:3, :3]).tolist(),
            'rpy': rpy_from_rotation(a_T_b[:3, :3]).tolist(),
            'matrix': a_T_b.tolist()}


def _cmd_fk(args: argparse.Namespace) -> int:
    model = _load_model(args)
    q, _ = _read_states(model, args.pairs, args.config)
    links = list(args.links) if args.links else list(model.link_names)
    reference = args.relative_to or model.root_link
    for name in links + [reference]:
        model.link_index(name)
    state = model.forward_kinematics(q)
    poses = {name: state.relative_transform(reference, name) for name in links}
    if args.format == 'json':
        _emit(_json({'robot': model.name, 'frame': reference,
                     'configuration': dict(zip(model.configuration_names, q.tolist())),
                     'poses': {name: _pose_json(pose) for name, pose in poses.items()}}))
    elif args.format == 'tf':
        lines = []
        p = args.precision
        for name, pose in poses.items():
            xyz = pose[:3, 3]
            quat = quaternion_from_rotation(pose[:3, :3])
            lines += [f'- header: {{frame_id: {reference}}}',
                      f'  child_frame_id: {name}',
                      '  transform:',
                      '    translation: {' + ', '.join(
                          f'{k}: {_fmt(x, p)}' for k, x in zip('xyz', xyz)) + '}',
                      '    rotation: {' + ', '.join(
                          f'{k}: {_fmt(x, p)}' for k, x in zip('xyzw', quat)) + '}']
        _emit('\n'.join(lines))
    else:
        rows = [[name] + list(pose[:3, 3]) + list(rpy_from_rotation(pose[:3, :3]))
                for name, pose in poses.items()]
        _emit(f'# {model.name}: poses in {reference} (x y z in m, roll pitch yaw in rad); '
              f'{_config_line(model, q)}')
        _emit(_table(['link', 'x', 'y', 'z', 'roll', 'pitch', 'yaw'], rows, args.precision))
    return 0


# -- jacobian -------------------------------------------------------------------------------
def _default_link(model: RobotModel, link: Optional[str]) -> str:
    if link:
        model.link_index(link)
        return link
    if model.has_link('tool0'):
        return 'tool0'
    raise CommandLineError(f"robot '{model.name}' has no link 'tool0': choose one with --link "
                           f"(links: {', '.join(model.link_names[:12])}"
                           f"{', ...' if len(model.links) > 12 else ''})")


def _cmd_jacobian(args: argparse.Namespace) -> int:
    model = _load_model(args)
    q, _ = _read_states(model, args.pairs, args.config)
    link = _default_link(model, args.link)
    point = None
    if args.point is not None:
        point = [_number(x, f'--point {axis}') for x, axis in zip(args.point, 'xyz')]
    expressed_in = ExpressedIn.parse(args.expressed_in)
    jac = model.forward_kinematics(q).jacobian(link, point, expressed_in)
    singular = np.linalg.svd(jac, compute_uv=False)
    manipulability = float(np.prod(singular)) if model.nv >= 6 else 0.0
    rank_tol = max(jac.shape) * np.finfo(float).eps * (singular[0] if len(singular) else 0.0)
    condition = float(singular[0] / singular[-1]) if len(singular) and \
        singular[-1] > rank_tol else math.inf
    columns = list(model.velocity_names)
    rows = ['vx', 'vy', 'vz', 'wx', 'wy', 'wz']
    point_list = [0.0, 0.0, 0.0] if point is None else point
    if args.format == 'json':
        _emit(_json({'robot': model.name, 'link': link, 'point': point_list,
                     'expressed_in': expressed_in.value,
                     'configuration': dict(zip(model.configuration_names, q.tolist())),
                     'rows': rows, 'columns': columns, 'jacobian': jac.tolist(),
                     'singular_values': singular.tolist(), 'manipulability': manipulability,
                     'condition_number': _finite(condition)}))
        return 0
    p = args.precision
    point_text = ' '.join(_fmt(x, p) for x in point_list)
    _emit(f'# {model.name}: Jacobian of {link} at point [{point_text}] (link frame), expressed '
          f'in {expressed_in.value}; {_config_line(model, q)}')
    _emit(_table([''] + columns, [[r] + list(row) for r, row in zip(rows, jac)], p))
    _emit(f"singular values: {' '.join(_fmt(s, p) for s in singular)}")
    _emit(f'manipulability sqrt(det(J J^T)): {_fmt(manipulability, p)}')
    _emit(f"condition number: {'inf' if math.isinf(condition) else f'{condition:.{p}g}'}")
    return 0


# -- com ------------------------------------------------------------------------------------
def _cmd_com(args: argparse.Namespace) -> int:
    model = _load_model(args)
    q, v = _read_states(model, args.pairs, args.config)
    if args.velocity:
        given = _parse_pairs(args.velocity, 'joint velocity')
        base = {} if v is None else dict(zip(model.velocity_names, v))
        v = _vector(model, {**base, **given}, velocity=True)
    state = model.forward_kinematics(q, v)
    root_p_com = state.center_of_mass()
    result = {'robot': model.name, 'frame': model.root_link, 'mass': model.total_mass,
              'center_of_mass': root_p_com.tolist()}
    rows = [['center of mass [m]'] + list(root_p_com)]
    if v is not None:
        momentum = state.centroidal_momentum()
        com_velocity = state.center_of_mass_velocity()
        result.update({'velocity': dict(zip(model.velocity_names, v.tolist())),
                       'center_of_mass_velocity': com_velocity.tolist(),
                       'linear_momentum': momentum[:3].tolist(),
                       'angular_momentum': momentum[3:].tolist()})
        rows += [['CoM velocity [m/s]'] + list(com_velocity),
                 ['linear momentum [kg m/s]'] + list(momentum[:3]),
                 ['angular momentum about CoM [kg m^2/s]'] + list(momentum[3:])]
    if args.format == 'json':
        result['configuration'] = dict(zip(model.configuration_names, q.tolist()))
        _emit(_json(result))
        return 0
    _emit(f'# {model.name}: in {model.root_link} axes; {_config_line(model, q)}')
    _emit(f'mass [kg]: {_fmt(model.total_mass, args.precision)}')
    _emit(_table(['quantity', 'x', 'y', 'z'], rows, args.precision))
    return 0


# -- ik -------------------------------------------------------------------------------------
#: Largest deviation of a target quaternion's norm from 1 accepted (it is then normalised).
QUATERNION_NORM_TOLERANCE = 1e-3


def _target_pose(xyz, rpy=None, quat=None, where: str = 'target') -> np.ndarray:
    xyz = [_number(x, f'{where} {k}') for x, k in zip(xyz, 'xyz')]
    if (rpy is None) == (quat is None):
        raise CommandLineError(f'{where}: give the orientation as rpy (3 angles) or as quat '
                               '(x y z w), not both and not neither')
    if rpy is not None:
        angles = [_number(a, f'{where} {k}') for a, k in zip(rpy, ('roll', 'pitch', 'yaw'))]
        return transform_from_xyz_rpy(np.array(xyz), np.array(angles))
    quaternion = np.array([_number(c, f'{where} q{k}') for c, k in zip(quat, 'xyzw')])
    norm = float(np.linalg.norm(quaternion))
    if abs(norm - 1.0) > QUATERNION_NORM_TOLERANCE:
        raise ConfigurationError(f'{where}: quaternion [x y z w] has norm {norm:.6g}, '
                                 'expected 1')
    return transform_from_xyz_quaternion(np.array(xyz), quaternion / norm)


def _read_targets(path: str) -> np.ndarray:
    """``(B, 4, 4)`` targets from a JSON/YAML list or a text/CSV file of 6 or 7 numbers."""
    if path.lower().endswith(('.csv', '.txt')):
        try:
            with open(path, encoding='utf-8') as handle:
                lines = handle.read().splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise CommandLineError(f'cannot read {path}: {reason}') from None
        poses = []
        for number, line in enumerate(lines, 1):
            cells = line.split('#')[0].replace(',', ' ').split()
            if not cells:
                continue
            where = f'{path} line {number}'
            if len(cells) not in (6, 7):
                raise CommandLineError(f'{where}: expected x y z roll pitch yaw or '
                                       f'x y z qx qy qz qw, got {len(cells)} numbers')
            rpy = cells[3:] if len(cells) == 6 else None
            quat = cells[3:] if len(cells) == 7 else None
            poses.append(_target_pose(cells[:3], rpy, quat, where))
    else:
        document = _read_document(path)
        if isinstance(document, dict) and 'targets' in document:
            document = document['targets']
        if not isinstance(document, list):
            raise CommandLineError(f'{path}: expected a list of targets {{xyz: [x, y, z], '
                                   'rpy: [r, p, y]} or {xyz: [...], quat: [x, y, z, w]}')
        poses = []
        for k, item in enumerate(document):
            where = f'{path} target {k}'
            if not isinstance(item, dict) or set(item) - {'xyz', 'rpy', 'quat'} or \
                    not isinstance(item.get('xyz'), list) or len(item['xyz']) != 3:
                raise CommandLineError(f'{where}: expected {{xyz: [x, y, z], rpy: [r, p, y]}} '
                                       f'or {{xyz: [...], quat: [x, y, z, w]}}, got {item!r}')
            for key, size in (('rpy', 3), ('quat', 4)):
                if key in item and (not isinstance(item[key], list) or len(item[key]) != size):
                    raise CommandLineError(f'{where}: {key} must be a list of {size} numbers')
            poses.append(_target_pose(item['xyz'], item.get('rpy'), item.get('quat'), where))
    if not poses:
        raise CommandLineError(f'{path} has no targets')
    return np.stack(poses)


def _ik_options(args: argparse.Namespace) -> dict:
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


def _sci(x: float) -> str:
    return f'{x:.3e}'


def _cmd_ik(args: argparse.Namespace) -> int:
    model = _load_model(args)
    seed, _ = _read_states(model, args.pairs, args.config)
    link = _default_link(model, args.link)
    frame = args.relative_to or model.root_link
    model.link_index(frame)
    options = _ik_options(args)
    if args.targets:
        if args.xyz is not None or args.rpy is not None or args.quat is not None:
            raise CommandLineError('give either --targets FILE or --xyz with --rpy/--quat')
        return _ik_batch(model, link, frame, _read_targets(args.targets), seed, options, args)
    if args.xyz is None:
        raise CommandLineError('give the target with --xyz X Y Z and --rpy R P Y or '
                               '--quat X Y Z W (or a file of targets with --targets)')
    frame_T_target = _target_pose(args.xyz, args.rpy, args.quat, 'target')
    if args.time_budget is not None:
        options['time_budget'] = args.time_budget
    result = model.inverse_kinematics(link, frame_T_target, seed=seed, **options)
    xyz = frame_T_target[:3, 3]
    rpy = rpy_from_rotation(frame_T_target[:3, :3])
    if args.format == 'json':
        _emit(_json({'robot': model.name, 'link': link, 'frame': frame,
                     'target': _pose_json(frame_T_target), 'success': bool(result.success),
                     'reason': result.reason, 'position_error': result.position_error,
                     'orientation_error': result.orientation_error,
                     'iterations': int(result.iterations), 'restarts': int(result.restarts),
                     'elapsed': result.elapsed,
                     'q': dict(zip(model.configuration_names, result.q.tolist()))}))
    else:
        p = args.precision
        xyz_text = ' '.join(_fmt(x, p) for x in xyz)
        rpy_text = ' '.join(_fmt(x, p) for x in rpy)
        _emit(f'# {model.name}: inverse kinematics of {link} to xyz [{xyz_text}] rpy '
              f'[{rpy_text}] in {frame}')
        _emit(f"converged: {'yes' if result.success else 'no'} ({result.reason}, "
              f'{result.iterations} iterations, {result.restarts} restarts, '
              f'{1e3 * result.elapsed:.1f} ms)')
        _emit(f'position error [m]: {_sci(result.position_error)}')
        _emit(f'orientation error [rad]: {_sci(result.orientation_error)}')
        _emit(_table(['joint', 'value'], [[name, value] for name, value in
                                          zip(model.configuration_names, result.q)], p))
    if not result.success:
        sys.stderr.write(f'{PROG}: error: inverse kinematics of {link} did not converge '
                         f'({result.reason}; position error {_sci(result.position_error)} m, '
                         f'orientation error {_sci(result.orientation_error)} rad)\n')
        return EXIT_NOT_CONVERGED
    return 0


def _ik_batch(model: RobotModel, link: str, frame: str, frame_T_targets: np.ndarray,
              seed: np.ndarray, options: dict, args: argparse.Namespace) -> int:
    count = len(frame_T_targets)
    chunk = max(1, min(args.chunk, count))
    progress = _Progress('solved targets', not args.quiet and count > chunk)
    results = []
    start = time.monotonic()
    for first in range(0, count, chunk):
        part = frame_T_targets[first:first + chunk]
        if args.time_budget is not None:
            options['time_budget'] = args.time_budget * len(part)
        results.append(model.inverse_kinematics(link, part, seed=seed, **options))
        progress(first + len(part), count)
    elapsed = time.monotonic() - start
    q = np.concatenate([r.q for r in results])
    success = np.concatenate([r.success for r in results])
    position_error = np.concatenate([r.position_error for r in results])
    orientation_error = np.concatenate([r.orientation_error for r in results])
    iterations = np.concatenate([r.iterations for r in results])
    reasons = [reason for r in results for reason in r.reason]
    solved = int(np.count_nonzero(success))
    if args.format == 'json':
        _emit(_json({'robot': model.name, 'link': link, 'frame': frame, 'count': count,
                     'solved': solved, 'elapsed': elapsed,
                     'configuration_names': list(model.configuration_names),
                     'results': [{'success': bool(success[k]), 'reason': reasons[k],
                                  'position_error': float(position_error[k]),
                                  'orientation_error': float(orientation_error[k]),
                                  'iterations': int(iterations[k]), 'q': q[k].tolist()}
                                 for k in range(count)]}))
    else:
        _emit(f'# {model.name}: inverse kinematics of {link} for {count} targets in {frame}: '
              f'{solved} solved in {elapsed:.2f} s')
        rows = [[str(k), 'yes' if success[k] else 'no', _sci(position_error[k]),
                 _sci(orientation_error[k]), str(int(iterations[k]))] + list(q[k])
                for k in range(count)]
        _emit(_table(['target', 'ok', 'pos_err', 'ori_err', 'iter'] +
                     list(model.configuration_names), rows, args.precision))
    if not args.quiet:
        sys.stderr.write(f'{PROG}: solved {solved}/{count} targets in {elapsed:.2f} s\n')
    return 0 if solved == count else EXIT_NOT_CONVERGED


# -- relative-motion ------------------------------------------------------------------------
_ENVIRONMENT_NAMES = ('env', 'environment', '<environment>')
_MOTION_LETTERS = 'CPU'


def _body(model: RobotModel, name) -> Optional[str]:
    if name is None:
        return None
    if not isinstance(name, str):
        raise CommandLineError(f'a body must be a joint or link name, got {name!r}')
    known = model.has_link(name) or name in {j.name for j in model.joints}
    return None if name.lower() in _ENVIRONMENT_NAMES and not known else name


def _constraints_from_file(path: str) -> List[dict]:
    document = _read_document(path)
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
        raise CommandLineError(f'constraint {constraint!r} must have exactly one of lock or '
                               'transformation, and optionally parameterized and mask')
    parameterized = constraint.get('parameterized', False)
    if not isinstance(parameterized, bool):
        raise CommandLineError(f'parameterized must be true or false in {constraint!r}')
    if kinds[0] == 'lock':
        if 'mask' in constraint:
            raise CommandLineError(f'a locked joint takes no mask: {constraint!r}')
        motion.add_locked_joint(constraint['lock'], parameterized)
        return {'lock': constraint['lock'], 'parameterized': parameterized}
    pair = constraint['transformation']
    if isinstance(pair, str):
        pair = [pair]
    if not isinstance(pair, list) or len(pair) not in (1, 2):
        raise CommandLineError(f'transformation must be [A] or [A, B] (B defaults to the '
                               f'environment), got {pair!r}')
    body_a = _body(model, pair[0])
    body_b = _body(model, pair[1]) if len(pair) == 2 else None
    motion.add_relative_transformation(body_a, body_b, parameterized, constraint.get('mask'))
    return {'transformation': [body_a, body_b], 'parameterized': parameterized,
            'mask': constraint.get('mask')}


def _cmd_relative_motion(args: argparse.Namespace) -> int:
    from .core.relative_motion import RelativeMotion
    model = _load_model(args)
    motion = RelativeMotion(model)
    applied = [_apply_constraint(model, motion, c) for c in _constraints(args)]
    matrix = motion.matrix
    bodies = [model.root_link] + [j.child for j in model.joints]
    groups = motion.rigid_groups()
    if args.format == 'json':
        _emit(_json({'robot': model.name, 'index_names': list(motion.index_names),
                     'bodies': bodies, 'constraints': applied,
                     'matrix': [[_MOTION_LETTERS[v] for v in row] for row in matrix],
                     'rigid_groups': [list(g) for g in groups]}))
        return 0
    _emit(f'# {model.name}: relative motion under {len(applied)} constraint(s); '
          'C constrained, P parameterized, U unconstrained; index k is the body (child link) '
          'of joint k, 0 the environment')
    labels = [f'{k:>2} {name} [{body}]' for k, (name, body) in
              enumerate(zip(motion.index_names, bodies))]
    width = max(len(label) for label in labels)
    _emit(' ' * width + '  ' + ' '.join(f'{k % 100:>2}' for k in range(len(labels))))
    for label, row in zip(labels, matrix):
        _emit(label.ljust(width) + '  ' + ' '.join(f'{_MOTION_LETTERS[v]:>2}' for v in row))
    _emit('rigid groups (constrained or parameterized):')
    for group in groups:
        _emit('  ' + ', '.join(group))
    return 0


# -- render ---------------------------------------------------------------------------------
def _cmd_render(args: argparse.Namespace) -> int:
    from . import render
    model = _load_model(args)
    q, _ = _read_states(model, args.pairs, args.config)
    links = list(args.links) if args.links else None
    options = {'size': args.size, 'view': args.view, 'links': links,
               'axis_length': args.axis_length, 'labels': not args.no_labels}
    if args.to is None and args.to_config is None:
        path = render.render_configuration(model, q, args.output, **options)
    else:
        q_end, _ = _read_states(model, args.to or (), args.to_config)
        path = render.render_motion(model, q, q_end, args.output, frames=args.frames,
                                    columns=args.columns, fps=args.fps,
                                    progress=_Progress('rendered frame', not args.quiet),
                                    **options)
    width, height = render.picture_size(path)
    _emit(f'wrote {path} ({width}x{height} pixels)')
    return 0


# -- parser ---------------------------------------------------------------------------------
_EXAMPLES = {
    'info': """example:
  frame-kinematics info --robot fk_quadruped
  frame-kinematics info --urdf panda.urdf --format json""",
    'fk': """example:
  frame-kinematics fk shoulder_lift_joint=-1.2 elbow_joint=1.0 --links tool0
  frame-kinematics fk --config joint_states.yaml --format tf --relative-to base_link
  frame-kinematics fk --robot fk_quadruped --floating-base root_joint=0,0,0.4,0,0,0,1

configuration file (--config, JSON or YAML): a mapping {joint: value}, a list of nq
values, {positions: {...}, velocities: {...}}, or a sensor_msgs/JointState as printed by
'ros2 topic echo --once /joint_states' (name, position, velocity). A floating or planar
joint takes a list, or its entries one by one (root_joint/z=0.4).""",
    'jacobian': """example:
  frame-kinematics jacobian --link tool0 shoulder_lift_joint=-1.2 elbow_joint=1.0
  frame-kinematics jacobian --link wrist_3_link --point 0 0 0.1 --expressed-in local

rows are [vx vy vz wx wy wz] (twist = J v), columns the velocity entries.
manipulability is sqrt(det(J J^T)) = the product of the singular values (0 if nv < 6).""",
    'com': """example:
  frame-kinematics com shoulder_lift_joint=-1.2
  frame-kinematics com elbow_joint=1.0 --velocity shoulder_pan_joint=0.5 elbow_joint=-1""",
    'ik': """example:
  frame-kinematics ik --link tool0 --xyz 0.4 0.2 0.5 --rpy 3.14159 0 0
  frame-kinematics ik --xyz 0.4 0.2 0.5 --quat 1 0 0 0 shoulder_lift_joint=-1 --format json
  frame-kinematics ik --targets targets.csv --time-budget 0.05 > solutions.txt

NAME=VALUE pairs (or --config) give the seed configuration. Exit status 3 when a target is
not reached within the tolerances (the best configuration found is still printed).
With --targets, progress goes to stderr (-q to silence it).""",
    'relative-motion': """example:
  frame-kinematics relative-motion --lock wrist_3_joint --transform tool0 env
  frame-kinematics relative-motion --constraints grasp.yaml --format json

constraints file: a list of {lock: JOINT, parameterized: false} and
{transformation: [A, B], parameterized: true, mask: [1, 1, 1, 1, 1, 1]} items
(B left out or 'env' for the environment; a mask with a 0 leaves the pair unconstrained).""",
    'render': """example:
  frame-kinematics render shoulder_lift_joint=-1.2 elbow_joint=1.0 -o arm.png
  frame-kinematics render -o motion.gif --to shoulder_lift_joint=-1.2 elbow_joint=1.0
  frame-kinematics render -o strip.png --frames 6 --columns 3 --to-config target.yaml

needs matplotlib (pip install matplotlib); a GIF needs pillow too. Links are drawn as
segments from the parent's origin to the child's origin, frame axes x red, y green, z blue,
link centers of mass as orange dots sized by mass, the robot's CoM as a black cross.""",
}


def _model_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """
    Model selection options, on the top parser and on every sub-command.

    On sub-commands their defaults are suppressed so that an option given before the
    sub-command is kept.
    """
    default = (lambda value: value) if top else (lambda value: argparse.SUPPRESS)
    group = parser.add_argument_group('robot model')
    group.add_argument('--urdf', metavar='PATH', default=default(None),
                       help='URDF file (default: the bundled arm)')
    group.add_argument('--robot', metavar='NAME', default=default(None),
                       help=f"bundled robot: {', '.join(robots.names())} "
                            f'(default {robots.DEFAULT_ROBOT})')
    group.add_argument('--floating-base', action='store_true', default=default(False),
                       help="add a floating joint 'root_joint' from a 'world' link to the root")
    group.add_argument('-v', '--verbose', action='store_true', default=default(False),
                       help='log warnings and details of the core on stderr')


def _config_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument('pairs', nargs='*', metavar='NAME=VALUE',
                        help='joint values (rad or m); others are 0')
    parser.add_argument('--config', metavar='FILE',
                        help='configuration file, JSON or YAML (pairs override it)')


def _output_options(parser: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    parser.add_argument('--format', choices=formats, default=formats[0],
                        help=f'output format (default {formats[0]})')
    parser.add_argument('--precision', type=int, default=6, metavar='N',
                        help='decimals printed in tables (default 6)')


def _subparser(commands, name: str, help_text: str,
               handler: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    parser = commands.add_parser(name, help=help_text, description=help_text,
                                 epilog=_EXAMPLES.get(name),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    _model_options(parser, top=False)
    parser.set_defaults(handler=handler, parser=parser)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """
    Build the ``frame-kinematics`` argument parser with all its sub-commands.

    :return: the parser.
    """
    parser = _Parser(prog=PROG, description='Kinematics of a URDF robot without ROS: model '
                     'tree, poses, Jacobians, center of mass, inverse kinematics, '
                     'relative motion and pictures.',
                     epilog='example:\n  frame-kinematics fk shoulder_lift_joint=-1.2 '
                     'elbow_joint=1.0 --links tool0\n\nrun "frame-kinematics COMMAND --help" '
                     'for the options of a command.',
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--version', action='version', version=f'%(prog)s {__version__}')
    _model_options(parser, top=True)
    commands = parser.add_subparsers(dest='command', metavar='COMMAND', parser_class=_Parser)
    commands.required = True

    info = _subparser(commands, 'info', 'the model as a tree: joints, limits, mimics, masses',
                      _cmd_info)
    _output_options(info, ('table', 'json'))

    fk = _subparser(commands, 'fk', 'poses of links at a configuration', _cmd_fk)
    _config_options(fk)
    fk.add_argument('--links', nargs='+', metavar='LINK', help='links to show (default all)')
    fk.add_argument('--relative-to', metavar='LINK',
                    help='frame the poses are given in (default: the root link)')
    _output_options(fk, ('table', 'json', 'tf'))

    jac = _subparser(commands, 'jacobian', 'Jacobian of a link, manipulability and singular '
                     'values', _cmd_jacobian)
    _config_options(jac)
    jac.add_argument('--link', help="the link (default 'tool0')")
    jac.add_argument('--point', nargs=3, metavar=('X', 'Y', 'Z'),
                     help='a point fixed in the link, in the link frame (default: its origin)')
    jac.add_argument('--expressed-in', default='local_world_aligned',
                     choices=[e.value for e in ExpressedIn],
                     help='where the twist is expressed (default local_world_aligned)')
    _output_options(jac, ('table', 'json'))

    com = _subparser(commands, 'com', 'mass, center of mass, CoM velocity and angular momentum',
                     _cmd_com)
    _config_options(com)
    com.add_argument('--velocity', nargs='+', metavar='NAME=VALUE',
                     help='joint velocities (rad/s or m/s): adds CoM velocity and momentum')
    _output_options(com, ('table', 'json'))

    ik = _subparser(commands, 'ik', 'inverse kinematics of a link to a target pose (or a '
                    'file of targets)', _cmd_ik)
    _config_options(ik)
    ik.add_argument('--link', help="the tip link (default 'tool0')")
    ik.add_argument('--xyz', nargs=3, metavar=('X', 'Y', 'Z'), help='target position (m)')
    orientation = ik.add_mutually_exclusive_group()
    orientation.add_argument('--rpy', nargs=3, metavar=('R', 'P', 'Y'),
                             help='target roll, pitch, yaw (rad, URDF convention)')
    orientation.add_argument('--quat', nargs=4, metavar=('X', 'Y', 'Z', 'W'),
                             help='target orientation as a quaternion')
    ik.add_argument('--targets', metavar='FILE',
                    help='many targets: JSON/YAML list of {xyz, rpy|quat}, or .csv/.txt lines '
                         'of "x y z roll pitch yaw" or "x y z qx qy qz qw"')
    ik.add_argument('--relative-to', metavar='LINK',
                    help='frame the target is given in (default: the root link)')
    ik.add_argument('--position-only', action='store_true', help='ignore the orientation')
    ik.add_argument('--position-tolerance', type=float, default=1e-5, metavar='M',
                    help='success threshold on the position error (default 1e-5 m)')
    ik.add_argument('--orientation-tolerance', type=float, default=1e-5, metavar='RAD',
                    help='success threshold on the orientation error (default 1e-5 rad)')
    ik.add_argument('--orientation-weight', type=float, default=1.0, metavar='W',
                    help='weight of orientation (rad) against position (m) errors (default 1)')
    ik.add_argument('--max-iterations', type=int, default=1000, metavar='N',
                    help='iteration limit per target (default 1000)')
    ik.add_argument('--time-budget', type=float, metavar='S',
                    help="time limit per target in seconds (default: the core's, 0.02 s)")
    ik.add_argument('--restarts', type=int, metavar='N',
                    help='random restarts allowed (default: unlimited within the budget)')
    ik.add_argument('--active-joints', nargs='+', metavar='JOINT',
                    help='joints allowed to move (default: all that move the link)')
    ik.add_argument('--random-seed', type=int, default=0, metavar='N',
                    help='seed of the random restarts (default 0: reproducible)')
    ik.add_argument('--chunk', type=int, default=100, metavar='N',
                    help='targets solved per vectorised call with --targets (default 100)')
    ik.add_argument('-q', '--quiet', action='store_true', help='no progress on stderr')
    _output_options(ik, ('table', 'json'))

    rel = _subparser(commands, 'relative-motion', 'which bodies move with respect to which '
                     'under constraints (locked joints, fixed transformations)',
                     _cmd_relative_motion)
    rel.add_argument('--lock', nargs='+', metavar='JOINT', help='joints locked at a constant '
                     'value')
    rel.add_argument('--lock-parameterized', nargs='+', metavar='JOINT',
                     help='joints locked at a value that changes between uses')
    rel.add_argument('--transform', nargs=2, action='append', metavar=('A', 'B'),
                     help='constant relative pose of bodies A and B (joint or link names; '
                          "'env' for the environment); repeatable")
    rel.add_argument('--transform-parameterized', nargs=2, action='append',
                     metavar=('A', 'B'), help='relative pose of A and B fixed at a value that '
                     'changes between uses; repeatable')
    rel.add_argument('--constraints', metavar='FILE', help='constraints file, JSON or YAML')
    _output_options(rel, ('table', 'json'))

    ren = _subparser(commands, 'render', 'PNG picture of the frame tree, or a GIF/strip of a '
                     'motion', _cmd_render)
    _config_options(ren)
    ren.add_argument('-o', '--output', required=True, metavar='FILE',
                     help='.png picture; with --to/--to-config a .gif animation or a .png strip')
    ren.add_argument('--to', nargs='+', metavar='NAME=VALUE',
                     help='end configuration of a motion (joints not given are 0)')
    ren.add_argument('--to-config', metavar='FILE', help='end configuration file of a motion')
    ren.add_argument('--frames', type=int, default=8, help='frames of a motion (default 8)')
    ren.add_argument('--columns', type=int, default=4,
                     help='pictures per row of a strip (default 4)')
    ren.add_argument('--fps', type=float, default=8.0, help='GIF frames per second (default 8)')
    ren.add_argument('--size', nargs=2, type=int, default=[800, 600], metavar=('W', 'H'),
                     help='size of one picture in pixels (default 800 600)')
    ren.add_argument('--view', nargs=2, type=float, default=[25.0, -60.0],
                     metavar=('ELEV', 'AZIM'), help='camera angles in degrees (default 25 -60)')
    ren.add_argument('--links', nargs='+', metavar='LINK',
                     help='links whose axes and names are drawn (default all)')
    ren.add_argument('--axis-length', type=float, metavar='M',
                     help="length of the frame axes in m (default 8%% of the robot's size)")
    ren.add_argument('--no-labels', action='store_true', help='do not write link names')
    ren.add_argument('-q', '--quiet', action='store_true', help='no progress on stderr')
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """
    Run the command line.

    :param argv: arguments without the program name (default ``sys.argv[1:]``).
    :return: the exit status.
    """
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    _split_extras(args, extras)
    if 'precision' in args and not 0 <= args.precision <= 17:
        args.parser.error(f'--precision must be between 0 and 17, got {args.precision}')
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format=f'{PROG}: %(levelname)s: %(message)s')
    try:
        return args.handler(args)
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR
    except (FrameKinematicsError, OSError, ValueError) as exc:
        message = ' '.join(str(exc).split()) or type(exc).__name__
        sys.stderr.write(f'{PROG}: error: {message}\n')
        return EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write(f'{PROG}: error: interrupted\n')
        return 130
