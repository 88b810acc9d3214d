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
``frame-kinematics reach``: a reach study (or a base placement ranking) from the command line.

The study is :func:`frame_kinematics.core.reach.run_study`; this module reads the options
into targets, reports progress on stderr (a ``tqdm`` bar on a terminal when tqdm is
installed, else :class:`~.common.Progress`), writes the ``.npz`` and the pictures, and
prints the summary.
"""

import argparse
import contextlib
import sys
from typing import Callable, ContextManager, List, Optional, TYPE_CHECKING

import numpy as np

from .common import CommandLineError, emit, Progress, table, to_json, usage_errors, UsageError
from .inputs import default_link
from .robot_input import model_of
from .. import picture_canvas
from ..core.errors import excerpt, TargetFileError
from ..core.model import RobotModel
from ..core.reach import floor_grid, rank_bases, run_study, TargetSet
from ..core.reach.base_search import BaseRanking
from ..core.reach.options import TARGET_SETTINGS, TargetOptions, targets_from_options
from ..core.reach.result import ReachResult, save_path
from ..core.reach.scores import check_weights

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

#: Seconds the command line waits for a Dask scheduler to answer ``--scheduler``.
SCHEDULER_TIMEOUT_SECONDS = 10


class _Bar:
    """A tqdm bar per stage of the work (the total changes between stages)."""

    def __init__(self, tqdm) -> None:
        self.tqdm = tqdm
        self.bar, self.stage = None, None

    def __call__(self, done: int, total: int, what: str = '') -> None:
        stage, _, detail = what.partition(',')
        if self.bar is None or (total, stage) != self.stage:
            if self.bar is not None:
                self.bar.close()
            self.bar = self.tqdm(total=total, desc=stage, file=sys.stderr, leave=True)
            self.stage = (total, stage)
        self.bar.set_postfix_str(detail.strip())
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.bar.close()
            self.bar = None


def progress_reporter(enabled: bool) -> Callable[[int, int, str], None]:
    """
    Return the progress report of long work on stderr (the work names what it counts).

    :param enabled: whether to report at all (not with ``-q``).
    :return: a tqdm bar on a terminal when tqdm is installed, else plain lines.
    """
    if enabled and sys.stderr is not None and sys.stderr.isatty():
        try:
            from tqdm import tqdm
        except ImportError:
            tqdm = None
        if tqdm is not None:
            return _Bar(tqdm)
    return Progress('', enabled)


def _option_name(name: str) -> str:
    return '--' + name.replace('_', '-')


def read_targets(args: argparse.Namespace) -> TargetSet:
    """
    Build the targets of the options (a box, shells or a file), before any model work.

    :param args: the parsed command line.
    :return: the targets.
    :raises UsageError: for none or several kinds of targets, a missing companion option or a
        bad value (:func:`~frame_kinematics.core.reach.options.targets_from_options`).
    :raises TargetFileError: for a points file that cannot be read.
    """
    options = TargetOptions(**{name: getattr(args, name) for name in TARGET_SETTINGS})
    with usage_errors():  # the options themselves (a file is a TargetFileError)
        return targets_from_options(options, _option_name)


def _study_options(args: argparse.Namespace) -> dict:
    return {'active_joints': args.active_joints, 'seed': args.random_seed,
            'position_tolerance': args.position_tolerance,
            'orientation_tolerance': args.orientation_tolerance,
            'max_iterations': args.max_iterations, 'restarts': args.restarts,
            'neighbour_radius': args.neighbour_radius, 'weights': args.weights,
            'reject_beyond_reach': not args.no_bound}


def cluster_client(address: Optional[str]) -> ContextManager[Optional['Client']]:
    """
    Return a context that gives the Dask client of ``--scheduler`` (None without it).

    :param address: the scheduler's address, or None.
    :return: the context (the client is closed when it ends).
    :raises CommandLineError: when Dask is not installed or the scheduler does not answer.
    """
    if address is None:
        return contextlib.nullcontext()
    try:
        from distributed import Client
    except ImportError as exc:
        raise CommandLineError("--scheduler needs Dask: pip install 'dask[distributed]' (the "
                               "extra 'cluster')") from exc
    try:
        return Client(address, timeout=SCHEDULER_TIMEOUT_SECONDS)
    except (OSError, ValueError, TypeError) as exc:
        raise CommandLineError(f'--scheduler {excerpt(address)}: no Dask scheduler answers '
                               f'({excerpt(str(exc))})') from exc


def _number(value: Optional[float], precision: int) -> str:
    return '-' if value is None else f'{value:.{precision}f}'


def summary_lines(summary: dict, precision: int) -> List[str]:
    """
    Lay out a study's summary as a table of figures and a table of regions.

    :param summary: :meth:`ReachResult.summary`.
    :param precision: decimals.
    :return: the lines.
    """
    p = precision
    rows = [['targets', f"{summary['targets']} ({summary['points']} points x "
             f"{summary['orientations']} orientations)"],
            ['reached', f"{summary['reached']} ({summary['percent_reached']:.{p}f} %)"],
            ['points fully reached', str(summary['points_fully_reached'])],
            ['points never reached', str(summary['points_never_reached'])],
            ['beyond the reach bound', str(summary['beyond_reach'])],
            ['solved by neighbours', str(summary['solved_neighbour_pass'])],
            ['elapsed', f"{summary['elapsed']:.2f} s"]]
    for name in ('manipulability', 'joint_limit_margin', 'score'):
        stats = summary[name]
        rows.append([name.replace('_', ' '), ' / '.join(_number(stats[k], p) for k in
                                                        ('min', 'mean', 'max')) +
                     ' (min / mean / max)'])
    lines = [table(['study', 'value'], rows, p), '']
    regions = [[str(r['region']), str(r['points']), str(r['targets']),
                _number(r['percent_reached'], p), _number(r['mean_index'], p),
                _number(r['mean_score'], p)] for r in summary['regions']]
    lines.append(table(['region', 'points', 'targets', 'reached %', 'mean index',
                        'mean score'], regions, p))
    return lines


def _ranking_lines(ranking: BaseRanking, precision: int, shown: int = 10) -> List[str]:
    rows = []
    for rank, c in enumerate(ranking.order[:shown], 1):
        x, y = ranking.world_T_bases[c, :2, 3]
        rows.append([str(rank), _number(float(x), precision), _number(float(y), precision),
                     _number(100 * float(ranking.reached[c]), 1),
                     _number(None if np.isnan(ranking.mean_score[c])
                             else float(ranking.mean_score[c]), precision)])
    return [table(['rank', 'x', 'y', 'reached %', 'mean score'], rows, precision), '']


def _pictures(model: RobotModel, result: ReachResult, ranking: Optional[BaseRanking],
              args: argparse.Namespace) -> List[str]:
    if args.picture is None and args.base_map is None:
        return []
    from .. import reach_pictures
    written = []
    if args.picture is not None:
        written.append(reach_pictures.render_reach_map(model, result, args.picture,
                                                       color_by=args.color_by))
    if args.base_map is not None:
        written.append(reach_pictures.render_base_map(ranking, args.base_map))
    return written


def check_outputs(args: argparse.Namespace) -> None:
    """
    Refuse output files that cannot be written, before the work of a study.

    ``--output`` by the rule :meth:`ReachResult.save` applies
    (:func:`~frame_kinematics.core.reach.result.save_path`), ``--picture`` and ``--base-map``
    by a picture's (:func:`~frame_kinematics.picture_canvas.check_output`).

    :param args: the parsed command line.
    :raises UsageError: for a name without a file (``dir/``), a missing directory, a picture
        that is not a PNG, or ``--base-map`` without ``--bases``.
    """
    if args.base_map is not None and args.bases is None:
        raise UsageError('--base-map needs --bases')
    with usage_errors('--output', (TargetFileError,)):
        save_path(args.output)
    for option, path in (('--picture', args.picture), ('--base-map', args.base_map)):
        if path is not None:
            with usage_errors(option):
                picture_canvas.check_output(path, ('.png',))


def run(args: argparse.Namespace) -> int:
    """
    Run the study (or rank the base poses), write the files and print the summary.

    :param args: the parsed command line.
    :return: the exit status (0).
    """
    check_outputs(args)
    with usage_errors('--weights'):  # the study's own rule, before any work
        check_weights(args.weights)
    targets = read_targets(args)
    bases = None
    if args.bases is not None:
        if args.frame is not None:
            raise UsageError('with --bases the targets are in the world: leave out --frame')
        x0, x1, y0, y1, step = args.bases
        with usage_errors('--bases'):
            bases = floor_grid((x0, x1), (y0, y1), step)
    model = model_of(args)
    link = default_link(model, args.link)
    options = _study_options(args)
    ranking = None
    with cluster_client(args.scheduler) as client:
        progress = progress_reporter(not args.quiet)
        if bases is not None:
            ranking = rank_bases(model, link, targets, bases, **options, progress=progress,
                                 client=client)
            result = ranking.best
        else:
            result = run_study(model, link, targets, **options, client=client,
                               progress=lambda done, total, what, solved:
                               progress(done, total, what))
    path = result.save(args.output)
    written = [path] + _pictures(model, result, ranking, args)
    summary = result.summary()
    if args.format == 'json':
        document = {'summary': summary, 'files': written}
        if ranking is not None:
            document['bases'] = [{'x': float(ranking.world_T_bases[c, 0, 3]),
                                  'y': float(ranking.world_T_bases[c, 1, 3]),
                                  'reached': float(ranking.reached[c])}
                                 for c in ranking.order]
        emit(to_json(document))
        return 0
    emit(f'# {model.name}: reach study of {link}')
    if ranking is not None:
        emit('\n'.join(_ranking_lines(ranking, args.precision)))
        emit('# the best base pose:')
    emit('\n'.join(summary_lines(summary, args.precision)))
    emit('wrote ' + ', '.join(written))
    return 0
