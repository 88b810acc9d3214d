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
"""The options of ``frame-kinematics reach``: targets, orientations, budgets, outputs."""

import argparse

from .parser_types import coordinate, nonempty, real, whole

EXAMPLE = """example:
  frame-kinematics reach --box -0.8 -0.8 0 0.8 0.8 0.8 --step 0.1 --cone 0.5 6 4 \\
      -o study.npz --picture study.png
  frame-kinematics reach --points part.ply --frame base_link --workpiece-xyz 0.5 0 0.2 \\
      -o part.npz --format json
  frame-kinematics reach --sphere 0.4 0 0.3 --radii 0.1 0.2 --count 200 --so3 16 -o s.npz
  frame-kinematics reach --points part.pcd --bases -1 0 -0.5 0.5 0.25 -o best.npz \\
      --base-map bases.png

targets: a grid in a box (--box, --step), sphere shells (--sphere, --radii, --count) or a
file of points with normals (--points: .csv/.txt "x y z nx ny nz", .npz with 'points' and
'normals', .ply or .pcd, ASCII or binary little-endian). Each point gets the orientation set
of --rpy, --cone or --so3 (default: one orientation, the point's frame, whose z axis is its
normal). The targets are in --frame (default: the root link) at the workpiece pose.
With --bases, the targets are in the world and every base pose on the floor grid gets a
study; the best one's study is written. The summary goes to stdout, progress to stderr."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """
    Add the options of ``reach`` to its sub-parser.

    :param parser: the sub-command's parser.
    """
    parser.epilog = EXAMPLE
    parser.set_defaults(batch_work=True)
    parser.add_argument('--link', type=nonempty, help="the tip link (default 'tool0')")
    where = parser.add_argument_group('targets (one of)')
    where.add_argument('--box', nargs=6, type=coordinate,
                       metavar=('X0', 'Y0', 'Z0', 'X1', 'Y1', 'Z1'),
                       help='a grid in this box (m), with --step')
    where.add_argument('--step', type=real(0, True), metavar='M', help='grid spacing (m)')
    where.add_argument('--sphere', nargs=3, type=coordinate, metavar=('X', 'Y', 'Z'),
                       help='shells about this centre (m), with --radii and --count')
    where.add_argument('--radii', nargs='+', type=real(0, True), metavar='R',
                       help='shell radii (m)')
    where.add_argument('--count', type=whole(1), metavar='N', help='points per shell')
    where.add_argument('--points', metavar='FILE', type=nonempty,
                       help='points with normals: .csv, .txt, .npz, .ply or .pcd')
    where.add_argument('--frame', metavar='LINK', type=nonempty,
                       help='link the targets are given in (default: the root link)')
    where.add_argument('--workpiece-xyz', nargs=3, type=coordinate, metavar=('X', 'Y', 'Z'),
                       default=[0.0, 0.0, 0.0], help='workpiece position in --frame (m)')
    where.add_argument('--workpiece-rpy', nargs=3, type=coordinate, metavar=('R', 'P', 'Y'),
                       default=[0.0, 0.0, 0.0], help='workpiece roll, pitch, yaw (rad)')
    turn = parser.add_argument_group('orientations per point (one of)')
    kinds = turn.add_mutually_exclusive_group()
    kinds.add_argument('--rpy', nargs=3, type=coordinate, metavar=('R', 'P', 'Y'),
                       help="one orientation in the point's frame")
    kinds.add_argument('--cone', nargs=3, type=real(0, False), metavar=('ANGLE', 'DIRS', 'ROTS'),
                       help='the normal and DIRS directions tilted by ANGLE (rad), each with '
                            'ROTS rotations about itself')
    kinds.add_argument('--so3', type=whole(1, 4096), metavar='N',
                       help='N orientations spread over SO(3) (super-Fibonacci)')
    solve = parser.add_argument_group('solver')
    solve.add_argument('--max-iterations', type=whole(1, 10 ** 6), default=60, metavar='N',
                       help='iterations per target in the first pass (default 60)')
    solve.add_argument('--restarts', type=whole(0, 10 ** 6), default=8, metavar='N',
                       help='random restarts per target in the first pass (default 8)')
    solve.add_argument('--position-tolerance', type=real(0, True), default=1e-5, metavar='M',
                       help='success threshold on the position error (default 1e-5 m)')
    solve.add_argument('--orientation-tolerance', type=real(0, True), default=1e-5,
                       metavar='RAD', help='success threshold (default 1e-5 rad)')
    solve.add_argument('--neighbour-radius', type=real(0, False), metavar='M',
                       help='neighbours seeding unsolved targets (default: twice the spacing; '
                            '0: no neighbour pass)')
    solve.add_argument('--no-bound', action='store_true',
                       help='try the targets beyond the reach bound too')
    solve.add_argument('--weights', nargs=2, type=real(0, False), default=[0.5, 0.5],
                       metavar=('WM', 'WL'),
                       help='weights of manipulability and joint-limit margin in the score')
    solve.add_argument('--random-seed', type=whole(0), default=0, metavar='N',
                       help='seed of the random restarts (default 0: reproducible)')
    solve.add_argument('--active-joints', nargs='+', action='extend', type=nonempty,
                       metavar='JOINT', help='joints allowed to move (default: all)')
    solve.add_argument('--scheduler', metavar='ADDRESS', type=nonempty,
                       help='solve on this Dask cluster, e.g. tcp://10.0.0.5:8786 (the extra '
                            "'cluster'; the same result as without it)")
    base = parser.add_argument_group('base placement')
    base.add_argument('--bases', nargs=5, type=coordinate,
                      metavar=('X0', 'X1', 'Y0', 'Y1', 'STEP'),
                      help='rank base poses on this floor grid (targets in the world)')
    out = parser.add_argument_group('output')
    out.add_argument('-o', '--output', required=True, metavar='FILE', type=nonempty,
                     help='the study (.npz)')
    out.add_argument('--picture', metavar='FILE', type=nonempty,
                     help='PNG heat map: three slices and a 3-D view, robot at rest')
    out.add_argument('--color-by', choices=('index', 'score'), default='index',
                     help='colour of the heat map: reachability index or best score')
    out.add_argument('--base-map', metavar='FILE', type=nonempty,
                     help='PNG map of the base poses coloured by percent reached')
    out.add_argument('--format', choices=('table', 'json'), default='table',
                     help='summary format (default table)')
    out.add_argument('--precision', type=whole(0, 17), default=3, metavar='N',
                     help='decimals printed in tables (default 3)')
