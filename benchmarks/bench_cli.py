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
Command-line benchmark: what a ``frame-kinematics`` run costs against its floor.

Each command is run as a subprocess (``python -m frame_kinematics``) and compared with the
smallest thing that could do the same work in the same run:

* ``fk`` and ``jacobian`` against ``python -c 'import numpy'`` (interpreter and numpy start);
* ``ik --targets FILE`` against the core's batched solve of the same targets in this process
  plus that start-up floor;
* ``render`` against ``python -c`` importing matplotlib's Agg canvas and 3D axes.

Prints a Markdown table of the best wall time over ``--repeat`` runs and the ratio.

Usage: ``python3 benchmarks/bench_cli.py [--targets 1000] [--repeat 3]``
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

from frame_kinematics import robots
from frame_kinematics.core import Robot
from frame_kinematics.core.spatial import rpy_from_rotation
import numpy as np

_CLI = [sys.executable, '-m', 'frame_kinematics']
_POSE = ['shoulder_pan_joint=0.5', 'shoulder_lift_joint=-1.2', 'elbow_joint=1.4',
         'wrist_1_joint=-1.6', 'wrist_2_joint=-1.57']


def _wall(command, repeat, cwd):
    best = float('inf')
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def _targets(model, count, path):
    rng = np.random.default_rng(0)
    lower = np.where(np.isfinite(model.lower), model.lower, -np.pi)
    upper = np.where(np.isfinite(model.upper), model.upper, np.pi)
    root_T_tool = model.forward_kinematics(rng.uniform(lower, upper, (count, model.nq))
                                           ).transform('tool0')
    rpy = rpy_from_rotation(root_T_tool[:, :3, :3])
    with open(path, 'w', encoding='utf-8') as handle:
        for xyz, angles in zip(root_T_tool[:, :3, 3], rpy):
            handle.write(' '.join(repr(float(v)) for v in np.concatenate([xyz, angles])) + '\n')
    return root_T_tool


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--targets', type=int, default=1000)
    parser.add_argument('--repeat', type=int, default=3)
    args = parser.parse_args()
    model = Robot.from_urdf_file(robots.path())
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        floor = _wall([sys.executable, '-c', 'import numpy'], args.repeat, folder)
        for name, extra in (('fk tool0', ['fk', *_POSE, '--links', 'tool0']),
                            ('jacobian tool0', ['jacobian', *_POSE])):
            rows.append((name, _wall(_CLI + extra, args.repeat, folder), 'python + numpy start',
                         floor))
        root_T_tool = _targets(model, args.targets, os.path.join(folder, 'targets.csv'))
        cli = _wall(_CLI + ['ik', '--targets', 'targets.csv', '--quiet'], args.repeat, folder)
        best = float('inf')
        for _ in range(args.repeat):
            start = time.perf_counter()
            model.inverse_kinematics('tool0', root_T_tool)
            best = min(best, time.perf_counter() - start)
        rows.append((f'ik --targets ({args.targets} targets)', cli,
                     'core batch solve + python start', best + floor))
        mpl = _wall([sys.executable, '-c', 'import matplotlib.figure, mpl_toolkits.mplot3d'],
                    args.repeat, folder)
        rows.append(('render 800x600 PNG', _wall(_CLI + ['render', *_POSE, '-o', 'a.png'],
                                                 args.repeat, folder),
                     'python + matplotlib import', mpl))
    print(f'Best wall time of {args.repeat} runs, python {sys.version.split()[0]}, '
          f'numpy {np.__version__}\n')
    print('| command | frame-kinematics (s) | floor | floor (s) | ratio |')
    print('|---|---:|---|---:|---:|')
    for name, ours, peer_name, peer in rows:
        print(f'| {name} | {ours:.3f} | {peer_name} | {peer:.3f} | {ours / peer:.2f} |')


if __name__ == '__main__':
    main()
