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
The ``frame-kinematics`` argument parser: sub-commands, options and their examples.

Every option value is checked here, one rule per kind of value, with messages in the options'
own words (``--restarts must be a whole number >= 0, got '-1'``), before any command runs: a
name or path must not be empty, a number must be finite and at most
:data:`~frame_kinematics.core.checks.MAX_MAGNITUDE` in magnitude (or within the option's own
bounds). An option of one value given twice is refused; an option of many values
(``--links A B``) given twice collects them all. Options that contradict each other are
refused. All of these are usage errors (exit status 2).
"""

import argparse
import math
import re
import sys
from types import MappingProxyType
from typing import Callable, List, Sequence

from .common import EXIT_USAGE, PROG, write_stdout
from .ik import run as run_ik
from .info import run as run_info
from .parser_types import bundled_robot, coordinate, nonempty, real, whole
from .pictures import run as run_render
from .poses import run_com, run_fk, run_jacobian
from .reach import run as run_reach
from .reach_options import add_options as add_reach_options
from .relative_motion import run as run_relative_motion
from .. import __version__, robots
from ..core.checks import first_repeated
from ..core.errors import ConfigurationError, excerpt, quote
from ..core.ik.options import MAX_TIME_BUDGET
from ..core.kinematics import ExpressedIn
from ..core.transform_checks import unit_quaternion
from ..render import AXES, FPS_RANGE, MAX_FRAMES

#: Value of ``--time-budget`` that lifts the wall-clock limit.
NO_TIME_BUDGET = 'none'


class _StoreOnce(argparse.Action):
    """Store an option's value, refusing the option when it was given already."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = set(getattr(namespace, 'given_options', ()))
        if option_string is not None and self.dest in given:
            parser.error(f'{option_string} is given twice: give it once')
        given.add(self.dest)
        namespace.given_options = given
        setattr(namespace, self.dest, values)


class _Commands(argparse._SubParsersAction):
    """Sub-commands whose options may also come before the command, but not in both places."""

    def __call__(self, parser, namespace, values, option_string=None):
        before = set(getattr(namespace, 'given_options', ()))
        namespace.given_options = set()
        super().__call__(parser, namespace, values, option_string)
        twice = sorted(before & namespace.given_options)
        if twice:
            parser.error(f"--{twice[0].replace('_', '-')} is given before and after the "
                         'command: give it once')
        namespace.given_options |= before


#: What argparse reads as a negative number rather than an option: ``-`` and a digit, or
#: ``-.`` and a digit (``-1e-3``, ``-.5``, ``-2``).
_NEGATIVE_NUMBER = re.compile(r'-\.?\d')


class Parser(argparse.ArgumentParser):
    """Argument parser whose usage errors are one line on stderr, and options given once."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A value such as -1e-3 is a number, not an option, as Python 3.13's argparse reads it
        # (3.10 to 3.12 know only -1 and -1.5; no option of this parser looks like a number)
        self._negative_number_matcher = _NEGATIVE_NUMBER
        self.register('action', 'store', _StoreOnce)
        self.register('action', None, _StoreOnce)
        self.register('action', 'parsers', _Commands)

    def _print_message(self, message: str, file=None) -> None:
        """Print help, usage or the version (argparse would ignore a failed write)."""
        if message and file is sys.stdout:
            write_stdout(message)
        elif message:
            (file or sys.stderr).write(message)

    def _check_value(self, action, value) -> None:
        """Refuse a value that is not one of an option's choices, quoting an excerpt of it."""
        if action.choices is not None and value not in action.choices:
            choices = ', '.join(map(repr, action.choices))
            raise argparse.ArgumentError(action, f'invalid choice: {quote(value)} (choose from '
                                                 f'{choices})')

    def error(self, message: str) -> None:
        """
        Print ``frame-kinematics: error: ...`` and exit with status 2.

        :param message: what is wrong.
        """
        option, sep, rest = message.partition(': ')
        if sep and option.startswith('argument ') and rest.startswith('must '):
            message = f"{option[len('argument '):]} {rest}"
        sys.stderr.write(f"{PROG}: error: {message} (see '{self.prog} --help')\n")
        sys.exit(EXIT_USAGE)


def time_budget(text: str) -> float:
    """
    Option type of ``--time-budget``: seconds up to the core's limit, or ``none``.

    :param text: the option's value.
    :return: the seconds, ``math.inf`` for ``none``.
    """
    if text.strip().lower() == NO_TIME_BUDGET:
        return math.inf
    try:
        return real(0, True, MAX_TIME_BUDGET)(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"must be a number > 0 and <= {MAX_TIME_BUDGET:g} or '{NO_TIME_BUDGET}', got "
            f'{quote(text)}') from None


_EXAMPLES = MappingProxyType({
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
  frame-kinematics jacobian --link tool0 shoulder_lift_joint=-1.2 elbow_joint=1.0 \\
      wrist_1_joint=-1.0 wrist_2_joint=1.0
  frame-kinematics jacobian --link wrist_3_link --point 0 0 0.1 --expressed-in local \\
      shoulder_lift_joint=-1.2 elbow_joint=1.0 wrist_1_joint=-1.0 wrist_2_joint=1.0

rows are [vx vy vz wx wy wz] (twist = J v), columns the velocity entries.
manipulability is sqrt(det(J J^T)) = the product of the singular values (0 if nv < 6), as
core.velocity.manipulability.""",
    'com': """example:
  frame-kinematics com shoulder_lift_joint=-1.2
  frame-kinematics com elbow_joint=1.0 --velocity shoulder_pan_joint=0.5 elbow_joint=-1""",
    'ik': """example:
  frame-kinematics ik --link tool0 --xyz 0.4 0.2 0.5 --rpy 3.14159 0 0
  frame-kinematics ik --xyz 0.4 0.2 0.5 --quat 1 0 0 0 shoulder_lift_joint=-1 --format json
  frame-kinematics ik --xyz 0.4 0.2 0.5 --position-only
  frame-kinematics ik --targets targets.csv --time-budget 0.05 > solutions.txt

NAME=VALUE pairs (or --config) give the seed configuration; joints not given start at 0, or
at their nearest limit when 0 is outside the limits. Exit status 3 when a target is not
reached within the tolerances (the best configuration found is still printed).
A targets file is .csv/.txt lines "x y z roll pitch yaw" or "x y z qx qy qz qw" ("x y z"
with --position-only), or a JSON/YAML list of {xyz, rpy} or {xyz, quat} ({xyz} with
--position-only). With --targets, progress goes to stderr (-q to silence it). In JSON
output, q is a mapping {name: value}: one for a target, one per item of 'results' for a
file of targets.""",
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
})


def _model_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """
    Model selection and message options, on the top parser and on every sub-command.

    On sub-commands their defaults are suppressed so that an option given before the
    sub-command is kept.
    """
    default = (lambda value: value) if top else (lambda value: argparse.SUPPRESS)
    group = parser.add_argument_group('robot model')
    group.add_argument('--urdf', metavar='PATH', type=nonempty, default=default(None),
                       help='URDF file (default: the bundled arm)')
    group.add_argument('--robot', metavar='NAME', type=bundled_robot, default=default(None),
                       help=f"bundled robot: {', '.join(robots.names())} "
                            f'(default {robots.DEFAULT_ROBOT})')
    group.add_argument('--floating-base', action='store_true', default=default(False),
                       help="add a floating joint 'root_joint' from a 'world' link to the root")
    group.add_argument('--backend', choices=('numpy', 'numba', 'auto'), default=default(None),
                       help='kinematics backend (default: $FRAME_KINEMATICS_BACKEND, else numpy, '
                            'and auto for ik --targets and reach: numba when installed)')
    group = parser.add_argument_group('messages on stderr')
    group.add_argument('-q', '--quiet', action='store_true', default=default(False),
                       help='print nothing on stderr but errors: no progress, no warnings')
    group.add_argument('-v', '--verbose', action='store_true', default=default(False),
                       help="also log the core's informational messages on stderr (warnings "
                            'are printed without -v)')


def _config_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument('pairs', nargs='*', metavar='NAME=VALUE',
                        help='joint values (rad or m); a mimic joint sets its master; '
                             'others are 0, or their nearest limit when 0 is outside the limits')
    parser.add_argument('--config', metavar='FILE', type=nonempty,
                        help='configuration file, JSON or YAML (pairs override it)')


def _output_options(parser: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    parser.add_argument('--format', choices=formats, default=formats[0],
                        help=f'output format (default {formats[0]})')
    parser.add_argument('--precision', type=whole(0, 17), default=6, metavar='N',
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
    parser = Parser(prog=PROG, description='Kinematics of a URDF robot without ROS: model '
                    'tree, poses, Jacobians, center of mass, inverse kinematics, '
                    'relative motion, pictures and reach studies.',
                    epilog='example:\n  frame-kinematics fk shoulder_lift_joint=-1.2 '
                    'elbow_joint=1.0 --links tool0\n\nrun "frame-kinematics COMMAND --help" '
                    'for the options of a command.',
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--version', action='version', version=f'%(prog)s {__version__}')
    _model_options(parser, top=True)
    commands = parser.add_subparsers(dest='command', metavar='COMMAND', parser_class=Parser)
    commands.required = True

    info = _subparser(commands, 'info', 'the model as a tree: joints, limits, mimics, masses',
                      run_info)
    _output_options(info, ('table', 'json'))
    info.add_argument('--srdf', metavar='PATH',
                      help='MoveIt SRDF whose disable_collisions pairs are not tested')

    fk = _subparser(commands, 'fk', 'poses of links at a configuration', run_fk)
    _config_options(fk)
    fk.add_argument('--links', nargs='+', action='extend', type=nonempty, metavar='LINK',
                    help='links to show (default all)')
    fk.add_argument('--relative-to', metavar='LINK', type=nonempty,
                    help='frame the poses are given in (default: the root link)')
    _output_options(fk, ('table', 'json', 'tf'))

    jac = _subparser(commands, 'jacobian', 'Jacobian of a link, manipulability and singular '
                     'values', run_jacobian)
    _config_options(jac)
    jac.add_argument('--link', type=nonempty, help="the link (default 'tool0')")
    jac.add_argument('--point', nargs=3, type=coordinate, metavar=('X', 'Y', 'Z'),
                     help='a point fixed in the link, in the link frame (default: its origin)')
    jac.add_argument('--expressed-in', default='local_world_aligned',
                     choices=[e.value for e in ExpressedIn],
                     help='where the twist is expressed (default local_world_aligned)')
    _output_options(jac, ('table', 'json'))

    com = _subparser(commands, 'com', 'mass, center of mass, CoM velocity and angular momentum',
                     run_com)
    _config_options(com)
    com.add_argument('--velocity', nargs='+', action='extend', metavar='NAME=VALUE',
                     help='joint velocities (rad/s or m/s): adds CoM velocity and momentum')
    _output_options(com, ('table', 'json'))

    ik = _subparser(commands, 'ik', 'inverse kinematics of a link to a target pose (or a '
                    'file of targets)', run_ik)
    _config_options(ik)
    ik.add_argument('--link', type=nonempty, help="the tip link (default 'tool0')")
    ik.add_argument('--xyz', nargs=3, type=coordinate, metavar=('X', 'Y', 'Z'),
                    help='target position (m)')
    orientation = ik.add_mutually_exclusive_group()
    orientation.add_argument('--rpy', nargs=3, type=coordinate, metavar=('R', 'P', 'Y'),
                             help='target roll, pitch, yaw (rad, URDF convention)')
    orientation.add_argument('--quat', nargs=4, type=coordinate,
                             metavar=('X', 'Y', 'Z', 'W'),
                             help='target orientation as a quaternion')
    ik.add_argument('--targets', metavar='FILE', type=nonempty,
                    help='many targets: JSON/YAML list of {xyz, rpy|quat}, or .csv/.txt lines '
                         'of "x y z roll pitch yaw" or "x y z qx qy qz qw"')
    ik.add_argument('--relative-to', metavar='LINK', type=nonempty,
                    help='frame the target is given in (default: the root link)')
    ik.add_argument('--position-only', action='store_true', help='ignore the orientation')
    ik.add_argument('--position-tolerance', type=real(0, True), default=1e-5, metavar='M',
                    help='success threshold on the position error (default 1e-5 m)')
    ik.add_argument('--orientation-tolerance', type=real(0, True), default=1e-5, metavar='RAD',
                    help='success threshold on the orientation error (default 1e-5 rad)')
    ik.add_argument('--orientation-weight', type=real(0, False), default=1.0, metavar='W',
                    help='weight of orientation (rad) against position (m) errors (default 1)')
    ik.add_argument('--max-iterations', type=whole(1), default=1000, metavar='N',
                    help='iteration limit per target (default 1000; the compiled backend '
                         'counts the step of each of the 16 seeds it tries together, up to '
                         '16 times as many)')
    ik.add_argument('--time-budget', type=time_budget, default=math.inf, metavar='S',
                    help='wall-clock limit per target in seconds, at most '
                         f"{MAX_TIME_BUDGET:g} (default '{NO_TIME_BUDGET}': the solve stops "
                         'at --max-iterations and --restarts alone, so that its result does '
                         'not depend on the machine)')
    ik.add_argument('--restarts', type=whole(0), metavar='N',
                    help='random restarts allowed (default: unlimited within --max-iterations)')
    ik.add_argument('--active-joints', nargs='+', action='extend', type=nonempty,
                    metavar='JOINT',
                    help='joints allowed to move (default: all that move the link)')
    ik.add_argument('--random-seed', type=whole(0), default=0, metavar='N',
                    help='seed of the random restarts (default 0: reproducible)')
    ik.add_argument('--chunk', type=whole(1), default=100, metavar='N',
                    help='targets solved per vectorised call with --targets (default 100)')
    _output_options(ik, ('table', 'json'))

    rel = _subparser(commands, 'relative-motion', 'which bodies move with respect to which '
                     'under constraints (locked joints, fixed transformations)',
                     run_relative_motion)
    rel.add_argument('--lock', nargs='+', action='extend', type=nonempty, metavar='JOINT',
                     help='joints locked at a constant '
                     'value')
    rel.add_argument('--lock-parameterized', nargs='+', action='extend', type=nonempty,
                     metavar='JOINT',
                     help='joints locked at a value that changes between uses')
    rel.add_argument('--transform', nargs=2, action='append', type=nonempty,
                     metavar=('A', 'B'),
                     help='constant relative pose of bodies A and B (joint or link names; '
                          "'env' for the environment); repeatable")
    rel.add_argument('--transform-parameterized', nargs=2, action='append', type=nonempty,
                     metavar=('A', 'B'), help='relative pose of A and B fixed at a value that '
                     'changes between uses; repeatable')
    rel.add_argument('--constraints', metavar='FILE', type=nonempty,
                     help='constraints file, JSON or YAML')
    _output_options(rel, ('table', 'json'))

    ren = _subparser(commands, 'render', 'PNG picture of the frame tree, or a GIF/strip of a '
                     'motion', run_render)
    _config_options(ren)
    ren.add_argument('-o', '--output', required=True, metavar='FILE', type=nonempty,
                     help='.png picture; with --to/--to-config a .gif animation or a .png strip')
    ren.add_argument('--to', nargs='+', action='extend', metavar='NAME=VALUE',
                     help='end configuration of a motion (joints not given: as in NAME=VALUE)')
    ren.add_argument('--to-config', metavar='FILE', type=nonempty,
                     help='end configuration file of a motion')
    ren.add_argument('--frames', type=whole(2, MAX_FRAMES), default=8,
                     help=f'frames of a motion, at most {MAX_FRAMES} (default 8)')
    ren.add_argument('--columns', type=whole(1), default=4,
                     help='pictures per row of a strip (default 4)')
    ren.add_argument('--fps', type=real(FPS_RANGE[0], False, FPS_RANGE[1]), default=8.0,
                     help=f'GIF frames per second, {FPS_RANGE[0]:g} to {FPS_RANGE[1]:g} '
                          '(default 8)')
    ren.add_argument('--size', nargs=2, type=whole(16, 8000), default=[800, 600],
                     metavar=('W', 'H'),
                     help='size of one picture in pixels (default 800 600)')
    ren.add_argument('--view', nargs=2, type=coordinate, default=[25.0, -60.0],
                     metavar=('ELEV', 'AZIM'), help='camera angles in degrees (default 25 -60)')
    ren.add_argument('--links', nargs='+', action='extend', type=nonempty, metavar='LINK',
                     help='links whose axes and names are drawn (default: names where they '
                          'fit, axes as --axes says)')
    ren.add_argument('--axes', choices=AXES, default='tips',
                     help='frame axes drawn without --links: tips (the root and the end of '
                          'every chain, the default), all links, or none')
    ren.add_argument('--axis-length', type=real(0, True), metavar='M',
                     help="length of the frame axes in m (default 8%% of the robot's size)")
    ren.add_argument('--no-labels', action='store_true', help='do not write link names')

    add_reach_options(_subparser(commands, 'reach', 'reach study: which target poses the tip '
                                 'reaches, how well, and from which base pose', run_reach))
    return parser


#: Options that contradict each other: (option, its attribute, the others, their attributes).
_CONFLICTS = (
    ('--urdf', 'urdf', '--robot', ('robot',)),
    ('--position-only', 'position_only', '--rpy/--quat', ('rpy', 'quat')),
    ('--targets', 'targets', '--xyz/--rpy/--quat', ('xyz', 'rpy', 'quat')),
)


#: Options that list joints, each at most once.
_JOINT_LISTS = (('--active-joints', 'active_joints'), ('--lock', 'lock'),
                ('--lock-parameterized', 'lock_parameterized'))


def check_usage(args: argparse.Namespace) -> None:
    """
    Refuse contradicting options and a ``--quat`` off unit norm (usage errors, status 2).

    :param args: the parsed command line.
    """
    if args.quiet and args.verbose:
        args.parser.error('give -q (quiet) or -v (verbose), not both')
    for option, name, others, names in _CONFLICTS:
        if getattr(args, name, None) and any(getattr(args, n, None) is not None
                                             for n in names):
            args.parser.error(f'give either {option} or {others}, not both')
    for option, name in _JOINT_LISTS:
        repeated = first_repeated(getattr(args, name, None) or ())
        if repeated is not None:
            args.parser.error(f'{option} names {quote(repeated)} twice')
    if getattr(args, 'quat', None) is not None:
        try:
            unit_quaternion(args.quat, '--quat [x y z w]')
        except ConfigurationError as exc:
            args.parser.error(str(exc))
    both = first_repeated(list(getattr(args, 'lock', None) or ())
                          + list(getattr(args, 'lock_parameterized', None) or ()))
    if both is not None:
        args.parser.error(f'{quote(both)} is given to --lock and to --lock-parameterized: '
                          'give it to one')


def split_extras(args: argparse.Namespace, extras: List[str]) -> None:
    """
    Move ``NAME=VALUE`` tokens that argparse could not place into ``args.pairs``.

    ``--links`` takes one or more values, so ``--links tool0 elbow_joint=1`` puts the pair in
    the links (``--active-joints`` too); argparse also leaves pairs that follow an option as
    unrecognised.
    """
    if not hasattr(args, 'pairs'):
        if extras:
            args.parser.error(f"unrecognized arguments: {excerpt(' '.join(extras))}")
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
            args.parser.error(f'unrecognized argument: {excerpt(token)}')
