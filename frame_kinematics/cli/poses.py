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
``frame-kinematics fk``, ``jacobian`` and ``com``: kinematics at one configuration.

Given values beyond the joint limits are used as they are, with a warning.
"""

import argparse
import math

import numpy as np

from .common import config_line, configuration_dict, emit, fmt, table, to_json
from .inputs import default_link, number, parse_pairs, read_states, velocity_vector
from .robot_input import model_of
from ..core import velocity
from ..core.kinematics import ExpressedIn
from ..core.spatial import quaternion_from_rotation, rpy_from_rotation

_AS_GIVEN = 'computed at the values given'


def pose_json(a_T_b: np.ndarray) -> dict:
    """
    Describe a pose for JSON output.

    :param a_T_b: 4x4 pose.
    :return: position, quaternion ``[x y z w]``, rpy and the matrix.
    """
    return {'position': a_T_b[:3, 3].tolist(),
            'quaternion': quaternion_from_rotation(a_T_b[:3, :3]).tolist(),
            'rpy': rpy_from_rotation(a_T_b[:3, :3]).tolist(),
            'matrix': a_T_b.tolist()}


def run_fk(args: argparse.Namespace) -> int:
    """
    Print link poses (``fk``).

    :param args: the parsed command line.
    :return: the exit status.
    """
    model = model_of(args)
    q, _ = read_states(model, args.pairs, args.config, _AS_GIVEN)
    links = list(args.links) if args.links else list(model.link_names)
    reference = args.relative_to or model.root_link
    for name in links + [reference]:
        model.link_index(name)
    state = model.forward_kinematics(q)
    poses = {name: state.relative_transform(reference, name) for name in links}
    if args.format == 'json':
        emit(to_json({'robot': model.name, 'frame': reference,
                     'configuration': configuration_dict(model, q),
                      'poses': {name: pose_json(pose) for name, pose in poses.items()}}))
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
                          f'{k}: {fmt(x, p)}' for k, x in zip('xyz', xyz)) + '}',
                      '    rotation: {' + ', '.join(
                          f'{k}: {fmt(x, p)}' for k, x in zip('xyzw', quat)) + '}']
        emit('\n'.join(lines))
    else:
        rows = [[name] + list(pose[:3, 3]) + list(rpy_from_rotation(pose[:3, :3]))
                for name, pose in poses.items()]
        emit(f'# {model.name}: poses in {reference} (x y z in m, roll pitch yaw in rad); '
             f'{config_line(model, q)}')
        emit(table(['link', 'x', 'y', 'z', 'roll', 'pitch', 'yaw'], rows, args.precision))
    return 0


def run_jacobian(args: argparse.Namespace) -> int:
    """
    Print a Jacobian, its singular values, manipulability and condition number.

    :param args: the parsed command line.
    :return: the exit status.
    """
    model = model_of(args)
    q, _ = read_states(model, args.pairs, args.config, _AS_GIVEN)
    link = default_link(model, args.link)
    point = None
    if args.point is not None:
        point = [number(x, f'--point {axis}') for x, axis in zip(args.point, 'xyz')]
    expressed_in = ExpressedIn.parse(args.expressed_in)
    jac = model.forward_kinematics(q).jacobian(link, point, expressed_in)
    singular = np.linalg.svd(jac, compute_uv=False)
    manipulability = velocity.manipulability(jac)
    rank_tol = max(jac.shape) * np.finfo(float).eps * (singular[0] if len(singular) else 0.0)
    condition = float(singular[0] / singular[-1]) if len(singular) and \
        singular[-1] > rank_tol else math.inf
    columns = list(model.velocity_names)
    rows = ['vx', 'vy', 'vz', 'wx', 'wy', 'wz']
    point_list = [0.0, 0.0, 0.0] if point is None else point
    if args.format == 'json':
        emit(to_json({'robot': model.name, 'link': link, 'point': point_list,
                     'expressed_in': expressed_in.value,
                      'configuration': configuration_dict(model, q),
                      'rows': rows, 'columns': columns, 'jacobian': jac.tolist(),
                      'singular_values': singular.tolist(), 'manipulability': manipulability,
                      'condition_number': condition}))
        return 0
    p = args.precision
    point_text = ' '.join(fmt(x, p) for x in point_list)
    emit(f'# {model.name}: Jacobian of {link} at point [{point_text}] (link frame), expressed '
         f'in {expressed_in.value}; {config_line(model, q)}')
    emit(table([''] + columns, [[r] + list(row) for r, row in zip(rows, jac)], p))
    emit(f"singular values: {' '.join(fmt(s, p) for s in singular)}")
    emit(f'manipulability sqrt(det(J J^T)): {fmt(manipulability, p)}')
    emit(f"condition number: {'inf' if math.isinf(condition) else f'{condition:.{p}g}'}")
    return 0


def run_com(args: argparse.Namespace) -> int:
    """
    Print the mass and center of mass (and CoM velocity and momentum with velocities).

    :param args: the parsed command line.
    :return: the exit status.
    """
    model = model_of(args)
    q, v = read_states(model, args.pairs, args.config, _AS_GIVEN)
    if args.velocity:
        v = velocity_vector(model, parse_pairs(args.velocity, 'joint velocity'), v)
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
        result['configuration'] = configuration_dict(model, q)
        emit(to_json(result))
        return 0
    emit(f'# {model.name}: in {model.root_link} axes; {config_line(model, q)}')
    emit(f'mass [kg]: {fmt(model.total_mass, args.precision)}')
    emit(table(['quantity', 'x', 'y', 'z'], rows, args.precision))
    return 0
