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
Pictures of reach studies (matplotlib, an optional dependency, as :mod:`.render`).

* :func:`render_reach_map`: a heat map of a study: a 3-D view of the target points with the
  robot at its rest configuration (drawn by :mod:`.render`), and three orthogonal slices
  through the points (top, front and side views, the robot's links projected), coloured by
  the reachability index (fraction of a point's orientations reached) or by the best
  combined score, with one colour bar.
* :func:`render_base_map`: the candidate base poses of a base placement ranking on the floor,
  coloured by the percentage of targets reached, the best one marked, the task's points.
"""

from typing import Tuple

import numpy as np

from .core.checks import check_choice
from .core.ik.options import default_seed
from .core.model import RobotModel
from .core.reach.base_search import BaseRanking
from .core.reach.neighbours import point_spacing
from .core.reach.result import ReachResult
from .picture_canvas import check_output, check_size, new_figure, save_png
from .render import _Scene

#: Size of the heat map in pixels.
MAP_SIZE = (1500, 1100)
#: Size of the base placement map in pixels.
BASE_MAP_SIZE = (1000, 800)
#: Most points drawn in the 3-D view (a random subset beyond).
_MOST_3D = 20000
_CMAP = 'viridis'
_NO_SOLUTION = (0.8, 0.8, 0.8)
#: The slices: (title, the plane's normal axis, horizontal axis, vertical axis).
_SLICES = (('top view (slice z = {:.2f} m)', 2, 0, 1),
           ('front view (slice y = {:.2f} m)', 1, 0, 2),
           ('side view (slice x = {:.2f} m)', 0, 1, 2))
_AXIS = 'xyz'
#: What a heat map's colours show: the reachability index or the best combined score.
COLOR_BY = ('index', 'score')


def _canvas(path: str, size: Tuple[int, int]):
    """Check a PNG path and a size; return the path, a figure and the 3-D line collection."""
    path = check_output(path, ('.png',))
    fig, line_collection = new_figure(check_size(size))
    return path, fig, line_collection


def _values(result: ReachResult, color_by: str) -> Tuple[np.ndarray, str]:
    if color_by == 'index':
        return result.reachability_index, 'reachability index (fraction of orientations reached)'
    return result.point_score(), 'best combined score (grey: no orientation reached)'


def _spacing(points: np.ndarray) -> Tuple[float, bool]:
    """Return the points' typical spacing (:func:`point_spacing`) and whether they are a grid."""
    uniques = [np.unique(np.round(points[:, k], 9)) for k in range(3)]
    on_grid = bool(np.prod([float(len(u)) for u in uniques]) == len(points))
    return point_spacing(points) or 0.05 * (float(np.ptp(points)) or 1.0), on_grid


def _colors(cmap, values: np.ndarray) -> np.ndarray:
    colors = cmap(np.nan_to_num(values, nan=0.0))
    colors[np.isnan(values), :3] = _NO_SOLUTION
    return colors


def _slice(ax, fig, scene: _Scene, points: np.ndarray, colors: np.ndarray, spec, step: float,
           grid: bool, fontsize: float) -> None:
    title, normal, h, v = spec
    levels = np.unique(np.round(points[:, normal], 9))
    level = levels[np.argmin(np.abs(levels - np.median(points[:, normal])))]
    # a grid's layer; scattered points within a slab two spacings thick
    rows = np.abs(points[:, normal] - level) <= (0.5 if grid else 1.0) * step + 1e-9
    low = points[:, [h, v]].min(axis=0) - step
    high = points[:, [h, v]].max(axis=0) + step
    origins = scene.poses[:, 0, :3, 3]
    for child in scene.children:
        parent = scene.parent[child]
        ax.plot(origins[[parent, child], h], origins[[parent, child], v], color=(0.2, 0.2, 0.25),
                linewidth=2.0, zorder=3, solid_capstyle='round')
    ax.scatter(origins[scene.children, h], origins[scene.children, v], s=8,
               color=(0.2, 0.2, 0.25), zorder=3)
    ax.set_xlim(low[0], high[0])
    ax.set_ylim(low[1], high[1])
    ax.set_aspect('equal')
    box = ax.get_window_extent()
    scale = min(box.width / (high[0] - low[0]), box.height / (high[1] - low[1]))
    size = max(((0.9 if grid else 0.6) * step * scale * 72.0 / fig.dpi) ** 2, 1.0)
    ax.scatter(points[rows, h], points[rows, v], c=colors[rows], s=size,
               marker='s' if grid else 'o', linewidths=0, zorder=2)
    ax.set_title(title.format(level) if grid else
                 title.format(level).replace('slice', f'slab {2 * step:.2f} m thick about'),
                 fontsize=fontsize + 1)
    ax.set_xlabel(f'{_AXIS[h]} [m]', fontsize=fontsize)
    ax.set_ylabel(f'{_AXIS[v]} [m]', fontsize=fontsize)
    ax.tick_params(labelsize=fontsize)
    ax.grid(True, color=(0.9, 0.9, 0.9), linewidth=0.6, zorder=0)


def render_reach_map(model: RobotModel, result: ReachResult, path: str,
                     color_by: str = 'index', size: Tuple[int, int] = MAP_SIZE) -> str:
    """
    Draw a study's heat map into a PNG file (see the module).

    :param model: the robot model of the study (drawn at its rest configuration).
    :param result: the study.
    :param path: output file, ending with ``.png``.
    :param color_by: ``'index'`` (reachability index) or ``'score'`` (best combined score).
    :param size: picture size in pixels.
    :return: the path written.
    :raises MissingDependencyError: without matplotlib.
    :raises ConfigurationError: for a bad path or size, or a ``color_by`` that is not one of
        :data:`COLOR_BY`.
    """
    color_by = check_choice(color_by, 'color_by', COLOR_BY)
    path, fig, line_collection = _canvas(path, size)
    values, label = _values(result, color_by)
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.ticker import MaxNLocator
    cmap = colormaps[_CMAP]
    colors = _colors(cmap, values)
    scene = _Scene(model, default_seed(model.layout)[None], [model.root_link, result.tip], None,
                   True)
    summary = result.summary()
    fig.suptitle(f"{result.robot}: reach study of {result.tip}: {summary['percent_reached']:.1f}"
                 f" % of {summary['targets']} targets reached ({summary['points']} points x "
                 f"{summary['orientations']} orientations)", fontsize=12)
    grid = fig.add_gridspec(2, 2, left=0.05, right=0.88, top=0.92, bottom=0.06, wspace=0.18,
                            hspace=0.22)
    ax3d = fig.add_subplot(grid[0, 0], projection='3d')
    points = result.points
    shown = np.arange(len(points))
    if len(shown) > _MOST_3D:
        shown = np.sort(np.random.default_rng(0).choice(len(points), _MOST_3D, replace=False))
    scene.draw(ax3d, 0, line_collection, fontsize=8, zoom=1.0)
    some = shown[np.nan_to_num(values[shown]) > 0]
    none = shown[~(np.nan_to_num(values[shown]) > 0)]
    ax3d.scatter(points[none, 0], points[none, 1], points[none, 2], color=_NO_SOLUTION,
                 s=2, alpha=0.5, depthshade=False, linewidths=0)
    ax3d.scatter(points[some, 0], points[some, 1], points[some, 2], c=colors[some],
                 s=14 if len(some) < 3000 else 4, alpha=0.6, depthshade=False, linewidths=0)
    everything = np.concatenate([points, scene.limits.T])
    low, high = everything.min(axis=0), everything.max(axis=0)
    half = 0.5 * np.maximum(high - low, 0.05 * np.max(high - low))
    center = 0.5 * (low + high)
    ax3d.set_xlim(center[0] - half[0], center[0] + half[0])
    ax3d.set_ylim(center[1] - half[1], center[1] + half[1])
    ax3d.set_zlim(center[2] - half[2], center[2] + half[2])
    ax3d.set_box_aspect(tuple(half))
    for axis in (ax3d.xaxis, ax3d.yaxis, ax3d.zaxis):
        axis.set_major_locator(MaxNLocator(5))
    ax3d.set_title('3-D view, robot at rest (grey: no orientation reached)', fontsize=10)
    step, on_grid = _spacing(points)
    for spec, cell in zip(_SLICES, (grid[0, 1], grid[1, 0], grid[1, 1])):
        _slice(fig.add_subplot(cell), fig, scene, points, colors, spec, step, on_grid, 8.5)
    bar_axes = fig.add_axes([0.91, 0.15, 0.018, 0.7])
    bar = fig.colorbar(ScalarMappable(Normalize(0.0, 1.0), cmap), cax=bar_axes)
    bar.set_label(label, fontsize=10)
    bar.ax.tick_params(labelsize=9)
    save_png(fig, path, fig.dpi)
    return path


def render_base_map(ranking: BaseRanking, path: str,
                    size: Tuple[int, int] = BASE_MAP_SIZE) -> str:
    """
    Draw the base placement map into a PNG file (see the module).

    :param ranking: the ranking of the candidate base poses.
    :param path: output file, ending with ``.png``.
    :param size: picture size in pixels.
    :return: the path written.
    :raises MissingDependencyError: without matplotlib.
    :raises ConfigurationError: for a bad path or size.
    """
    path, fig, _ = _canvas(path, size)
    ax = fig.add_subplot()
    fig.subplots_adjust(bottom=0.17)
    bases = ranking.world_T_bases[:, :2, 3]
    best = int(ranking.order[0])
    world_T_root = ranking.world_T_bases[best]
    task = ranking.best.points @ world_T_root[:3, :3].T + world_T_root[:3, 3]
    gaps = [np.diff(np.unique(np.round(bases[:, k], 9))) for k in range(2)]
    step = min([float(g.min()) for g in gaps if len(g)] or [0.1])
    everything = np.concatenate([bases, task[:, :2]])
    low, high = everything.min(axis=0) - step, everything.max(axis=0) + step
    ax.set_xlim(low[0], high[0])
    ax.set_ylim(low[1], high[1])
    ax.set_aspect('equal')
    box = ax.get_window_extent()
    scale = min(box.width / (high[0] - low[0]), box.height / (high[1] - low[1]))
    marker = max((0.92 * step * scale * 72.0 / fig.dpi) ** 2, 4.0)
    drawn = ax.scatter(bases[:, 0], bases[:, 1], c=100.0 * ranking.reached, cmap=_CMAP,
                       vmin=0.0, vmax=100.0, s=marker, marker='s', linewidths=0, zorder=2)
    ax.scatter(task[:, 0], task[:, 1], s=6, color='black', alpha=0.6, zorder=3,
               label='task targets')
    ax.scatter([bases[best, 0]], [bases[best, 1]], s=260, marker='*', color='red',
               edgecolors='white', linewidths=1.0, zorder=4,
               label=f'best base: {100 * ranking.reached[best]:.1f} % reached')
    ax.legend(loc='upper center', bbox_to_anchor=(0.5, -0.09), ncol=2, fontsize=9)
    ax.set_xlabel('x [m]', fontsize=10)
    ax.set_ylabel('y [m]', fontsize=10)
    ax.tick_params(labelsize=9)
    ax.set_title(f'{ranking.best.robot}: base placement, {len(bases)} candidate poses '
                 f'(tip {ranking.best.tip})', fontsize=11)
    bar = fig.colorbar(drawn, ax=ax, fraction=0.046, pad=0.03)
    bar.set_label('targets reached [%]', fontsize=10)
    save_png(fig, path, fig.dpi)
    return path
