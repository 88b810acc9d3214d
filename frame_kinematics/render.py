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
Pictures of a robot's frame tree (matplotlib, an optional dependency).

* :func:`render_configuration`: one PNG of the tree at a configuration: links as segments
  from the parent's origin to the child's origin (none for a floating joint), frame axes
  (x red, y green, z blue; by default on the root and the chain ends only), link centers of
  mass as orange dots sized by mass, the robot's center of mass as a black cross, link names
  (over the drawing, with a white halo), and a title with the robot name and the joints away
  from zero. The drawn box is as long on each axis as the robot needs, at one scale.
* :func:`render_motion`: the same along a motion interpolated between two configurations,
  as an animated GIF (needs pillow) or as a strip of frames (a PNG grid).

matplotlib is imported when a picture is drawn, not when this module is imported; without it
a :class:`~frame_kinematics.picture_canvas.MissingDependencyError` says what to install. The
canvas, the checks of the output path and size, and
:func:`~frame_kinematics.picture_canvas.picture_size` are in :mod:`.picture_canvas` (both
names are importable from here too).
"""

import math
import textwrap
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .core.checks import check_choice, check_count, check_flag, check_number, MAX_MAGNITUDE
from .core.configuration import interpolate
from .core.errors import ConfigurationError, name_list, quote
from .core.file_output import replacing
from .core.joints import JointType
from .core.kinematics import KinematicsState
from .core.model import RobotModel
from .picture_canvas import (check_output, check_size, DPI, MAX_PIXELS, MissingDependencyError,
                             new_figure, picture_size, save_png, writing)
from .picture_text import place_labels, reserve_title

#: Default picture size in pixels (width, height).
DEFAULT_SIZE = (800, 600)
#: Default view: elevation and azimuth in degrees (matplotlib's ``view_init``).
DEFAULT_VIEW = (25.0, -60.0)
_AXIS_COLORS = ((0.85, 0.1, 0.1), (0.1, 0.65, 0.1), (0.1, 0.25, 0.9))
_STRIP_HEADER = 40
_TITLE_FONTSIZE = 8.5
#: Which links get frame axes by default: the root and the chain ends, every link, or none.
AXES = ('tips', 'all', 'none')
#: Most configurations a drawn motion has (its ``frames``): an animation holds every frame in
#: memory.
MAX_FRAMES = 200
#: Frames per second of an animation: from one frame in 100 s (a GIF counts a frame's
#: delay in hundredths of a second, in 16 bits) to 100.
FPS_RANGE = (0.01, 100.0)
#: Shortest side of the drawn box, as a fraction of the longest (a flat robot stays visible).
_THINNEST = 0.3
#: Points per drawn line that labels avoid covering.
_SAMPLES = 12
#: Zoom of a single picture's box: the one that fills the picture, within these bounds.
_ZOOM_RANGE = (0.7, 1.4)
#: Fraction of the picture the box and its tick labels fill.
_FIT_MARGIN = 0.97


def interpolate_configurations(model: RobotModel, q_start, q_end, count: int) -> np.ndarray:
    """
    Return configurations evenly spaced from ``q_start`` to ``q_end`` (both included).

    They follow :func:`frame_kinematics.core.configuration.interpolate`: continuous joints go
    the short way round, floating and planar joints follow the geodesic.

    :param model: the robot model.
    :param q_start: first configuration ``(nq,)``.
    :param q_end: last configuration ``(nq,)``.
    :param count: number of configurations, from 2 to :data:`MAX_FRAMES`.
    :return: ``(count, nq)``.
    :raises ConfigurationError: for invalid configurations or count.
    """
    q0 = model.check_configuration(q_start, 'start configuration')
    q1 = model.check_configuration(q_end, 'end configuration')
    if q0.ndim != 1 or q1.ndim != 1:
        raise ConfigurationError('start and end configurations must be single vectors (nq,)')
    count = check_count(count, 'number of frames', 2, MAX_FRAMES)
    return interpolate(model, q0, q1, np.linspace(0.0, 1.0, count))


def _changed_joints(model: RobotModel, q: np.ndarray) -> str:
    neutral = model.neutral_configuration()
    changed = [f'{name}={value:.3g}' for name, value, zero in
               zip(model.configuration_names, q, neutral) if abs(value - zero) > 1e-12]
    if not changed:
        return 'neutral configuration'
    return name_list(changed)


class _Scene:
    """What is drawn for one robot, with limits shared by every frame of a motion."""

    def __init__(self, model: RobotModel, configurations: np.ndarray,
                 links: Optional[Sequence[str]], axis_length: Optional[float],
                 labels: bool, axes: str = 'tips') -> None:
        axes = check_choice(axes, 'axes', AXES)
        labels = check_flag(labels, 'labels')
        axis_length = _axis_length(axis_length)
        self.model = model
        self.parent = model.topology.parent
        named = None if links is None else \
            np.array([model.link_index(name) for name in links], dtype=int)
        if axes == 'none':
            self.marked = np.zeros(0, dtype=int)
        elif named is not None:
            self.marked = named
        elif axes == 'all':
            self.marked = np.arange(len(model.links))
        else:
            self.marked = np.array(self._tips(), dtype=int)
        self.labels = labels
        state = KinematicsState(model, configurations)
        # (n_links, B, 4, 4): the poses of every frame of the motion.
        self.poses = state.poses
        self.link_com = state.link_centers_of_mass()
        self.com = state.center_of_mass() if model.total_mass > 0 else None
        origins = self.poses[..., :3, 3].reshape(-1, 3)
        low, high = origins.min(axis=0), origins.max(axis=0)
        extent = float(max(np.max(high - low), 0.1))
        self.axis_length = 0.08 * extent if axis_length is None else axis_length
        # one scale on every axis, each only as long as the robot needs: it fills the picture
        half = 0.5 * np.maximum(high - low, _THINNEST * extent) + self.axis_length
        center = 0.5 * (low + high)
        self.limits = np.stack([center - half, center + half], axis=1)
        self.aspect = tuple(float(h) for h in half)
        masses = model.link_masses
        self.massive = np.nonzero(masses > 0)[0]
        self.marker_size = 15.0 + 250.0 * masses[self.massive] / max(masses.max(initial=0), 1e-12)
        # a floating joint is no body: no segment from the world to the floating base
        floating = {j.child for j in model.joints if j.type is JointType.FLOATING}
        self.children = np.array([link.index for link in model.links
                                  if link.parent is not None and link.name not in floating],
                                 dtype=int)
        self.label_order = self._label_candidates(named)
        self.grid_step = _nice_step(2.0 * float(half.max()) / 5.0)

    def _tips(self) -> List[int]:
        """
        Return the root and the ends of the chains: a leaf per link a movable joint moves.

        Leaves behind fixed joints (a tool frame, camera frames, finger tips) share the moved
        link they hang from, so that a humanoid gets a few axis triads, not one per frame.
        """
        model = self.model
        has_child = np.zeros(len(self.parent), dtype=bool)
        has_child[self.parent[self.parent >= 0]] = True
        moved = {model.link_index(j.child) for j in model.joints if j.type.moves}
        ends = {}
        for i in range(len(model.links)):
            if has_child[i] or self.parent[i] < 0:
                continue
            anchor = i
            while anchor not in moved and self.parent[anchor] >= 0:
                anchor = int(self.parent[anchor])
            ends.setdefault(anchor, i)
        return [i for i in range(len(model.links)) if self.parent[i] < 0] + list(ends.values())

    def _label_candidates(self, links: Optional[np.ndarray]) -> List[int]:
        """
        Links that may be named, most wanted first.

        The links asked for; by default the root, the leaves, then the links a movable joint
        moves (links behind fixed joints inside a chain are left unnamed).
        """
        if links is not None:
            return [int(i) for i in dict.fromkeys(links.tolist())]
        model = self.model
        has_child = np.zeros(len(self.parent), dtype=bool)
        has_child[self.parent[self.parent >= 0]] = True
        moved = {model.link_index(j.child) for j in model.joints if j.type.moves}
        root = [i for i in range(len(model.links)) if self.parent[i] < 0]
        leaves = [i for i in range(len(model.links)) if not has_child[i] and i not in root]
        inner = [i for i in range(len(model.links))
                 if has_child[i] and i in moved and i not in root]
        return root + leaves + inner

    def draw(self, ax, frame: int, line_collection, fontsize: float, ticks: bool = True,
             zoom: Optional[float] = 1.0) -> None:
        poses = self.poses[:, frame]
        origins = poses[:, :3, 3]
        segments = np.stack([origins[self.parent[self.children]], origins[self.children]],
                            axis=1)
        if len(self.children):
            ax.add_collection3d(line_collection(segments, colors=(0.3, 0.3, 0.35),
                                                linewidths=2.2))
        marked = poses[self.marked]
        axes = []
        colors = []
        for k in range(3):
            tips = marked[:, :3, 3] + self.axis_length * marked[:, :3, k]
            axes.append(np.stack([marked[:, :3, 3], tips], axis=1))
            colors += [_AXIS_COLORS[k]] * len(marked)
        if len(marked):
            ax.add_collection3d(line_collection(np.concatenate(axes), colors=colors,
                                                linewidths=1.3))
        com = self.link_com[self.massive, frame]
        if len(self.massive):
            ax.scatter(com[:, 0], com[:, 1], com[:, 2], s=self.marker_size,
                       color=(1.0, 0.55, 0.0), alpha=0.55, depthshade=False)
        if self.com is not None:
            c = self.com[frame]
            ax.scatter([c[0]], [c[1]], [c[2]], s=70, marker='X', color='black',
                       depthshade=False)
        ax.set_xlim(*self.limits[0])
        ax.set_ylim(*self.limits[1])
        ax.set_zlim(*self.limits[2])
        from matplotlib.ticker import MultipleLocator
        for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
            axis.set_major_locator(MultipleLocator(self.grid_step))
        if ticks:
            ax.set_xlabel('x [m]', fontsize=fontsize)
            ax.set_ylabel('y [m]', fontsize=fontsize)
            ax.set_zlabel('z [m]', fontsize=fontsize)
            ax.tick_params(labelsize=fontsize)
        else:
            ax.set_xticklabels([])
            ax.set_yticklabels([])
            ax.set_zticklabels([])
        _zoom(ax, self.aspect, zoom)
        if self.labels:
            names = [('CoM', self.com[frame], 'black')] if self.com is not None else []
            names += [(self.model.links[i].name, origins[i], (0.15, 0.15, 0.15))
                      for i in self.label_order]
            lines = np.concatenate([segments] + axes)
            along = np.linspace(0.0, 1.0, _SAMPLES)[None, :, None]
            drawn = lines[:, :1] + along * (lines[:, 1:] - lines[:, :1])
            place_labels(ax, names, fontsize, np.concatenate([drawn.reshape(-1, 3), com]))


def _axis_length(axis_length) -> Optional[float]:
    """Check ``axis_length``: None (the default length) or metres in (0, MAX_MAGNITUDE]."""
    if axis_length is None:
        return None
    return check_number(axis_length, f'axis_length must be None or a number of metres > 0 and '
                        f'<= {MAX_MAGNITUDE:g}', 0.0, MAX_MAGNITUDE, strict_low=True)


def _fps(fps) -> float:
    """Check ``fps``: frames per second within :data:`FPS_RANGE`."""
    low, high = FPS_RANGE
    return check_number(fps, f'fps must be a number from {low:g} to {high:g}', low, high)


def _zoom(ax, aspect: Tuple[float, float, float], zoom: Optional[float]) -> None:
    """Set the box's aspect and zoom (``None``: the box and its tick labels fill the axes)."""
    try:
        ax.set_box_aspect(aspect, zoom=1.0 if zoom is None else zoom)
    except TypeError:  # matplotlib < 3.6 has no zoom
        ax.set_box_aspect(aspect)
        return
    if zoom is not None:
        return
    renderer = ax.figure.canvas.get_renderer()
    ax.apply_aspect()
    area = ax.get_position().transformed(ax.figure.transFigure)
    drawn = ax.get_tightbbox(renderer)
    fit = min(area.width / drawn.width, area.height / drawn.height)
    ax.set_box_aspect(aspect, zoom=float(np.clip(_FIT_MARGIN * fit, *_ZOOM_RANGE)))


def _nice_step(span: float) -> float:
    """Return the 1, 2 or 5 times a power of ten closest below ``span``: the grid step."""
    power = 10.0 ** math.floor(math.log10(span))
    return max(m * power for m in (1.0, 2.0, 5.0) if m * power <= span)


def _title(model: RobotModel, q: np.ndarray, width: int) -> str:
    chars = max(30, int(width / 7.5))
    return '\n'.join(textwrap.wrap(f'{model.name}: {_changed_joints(model, q)}', chars,
                                   max_lines=3, placeholder=' ...'))


def render_configuration(model: RobotModel, q, path: str,
                         size: Sequence[int] = DEFAULT_SIZE,
                         view: Sequence[float] = DEFAULT_VIEW,
                         links: Optional[Sequence[str]] = None,
                         axis_length: Optional[float] = None,
                         labels: bool = True, axes: str = 'tips') -> str:
    """
    Draw the frame tree at one configuration into a PNG file (or a one-frame GIF).

    :param model: the robot model.
    :param q: configuration ``(nq,)``.
    :param path: output file, ending with ``.png`` (or ``.gif``, which needs pillow).
    :param size: picture size in pixels ``(width, height)``.
    :param view: elevation and azimuth of the camera in degrees.
    :param links: links whose frame axes and names are drawn (default: names of the root, the
        leaves and the links moved by a joint, where they fit; axes as ``axes`` says).
    :param axis_length: length of the drawn frame axes in m, a number > 0 and at most
        :data:`~frame_kinematics.core.checks.MAX_MAGNITUDE` (default None: 8 % of the robot's
        size).
    :param labels: whether to write link names (a bool).
    :param axes: which links get frame axes without ``links``: ``'tips'`` the root and one
        end of every chain, ``'all'`` every link, ``'none'`` none (not even ``links``).
    :return: the path written.
    :raises MissingDependencyError: without matplotlib.
    :raises ConfigurationError: for a bad configuration, size or option (``axis_length`` not
        None nor such a number, say).
    :raises UnknownFrameError: for an unknown link in ``links``.
    """
    path = check_output(path, ('.png', '.gif'))
    size = check_size(size)
    q = model.check_configuration(q)
    if q.ndim != 1:
        raise ConfigurationError(f'render_configuration draws one configuration (nq,), got '
                                 f'shape {q.shape}')
    scene = _Scene(model, q[None, :], links, axis_length, labels, axes)
    if path.lower().endswith('.gif'):
        _animate(scene, q[None, :], path, size, _view(view), 1.0, None)
        return path
    fig, line_collection = new_figure(size)
    reserve_title(fig, _title(model, q, size[0]), _TITLE_FONTSIZE)
    ax = fig.add_subplot(projection='3d')
    ax.view_init(*_view(view))
    scene.draw(ax, 0, line_collection, fontsize=7.5, zoom=None)
    save_png(fig, path)
    return path


def _view(view: Sequence[float]) -> Tuple[float, float]:
    try:
        elev, azim = view
    except (TypeError, ValueError):
        raise ConfigurationError(f'view must be two numbers (elevation, azimuth), got '
                                 f'{quote(view)}') from None
    return (check_number(elev, 'view elevation must be a finite number of degrees'),
            check_number(azim, 'view azimuth must be a finite number of degrees'))


def render_motion(model: RobotModel, q_start, q_end, path: str, frames: int = 8,
                  columns: int = 4, size: Sequence[int] = DEFAULT_SIZE,
                  view: Sequence[float] = DEFAULT_VIEW,
                  links: Optional[Sequence[str]] = None,
                  axis_length: Optional[float] = None, labels: bool = True,
                  fps: float = 8.0, progress=None, axes: str = 'tips') -> str:
    """
    Draw a motion interpolated between two configurations.

    A path ending with ``.gif`` gives an animation (matplotlib's ``PillowWriter``, needs
    pillow), one ``.png`` gives a strip: a grid of ``frames`` pictures, ``columns`` wide, each
    of ``size`` pixels under a 40-pixel title. The limits and the view are the same in every
    frame.

    :param model: the robot model.
    :param q_start: first configuration ``(nq,)``.
    :param q_end: last configuration ``(nq,)``.
    :param path: output file, ``.gif`` or ``.png``.
    :param frames: number of configurations along the motion (both ends included), from 2 to
        :data:`MAX_FRAMES`.
    :param columns: pictures per row of a strip.
    :param size: size of one picture in pixels ``(width, height)``.
    :param view: elevation and azimuth of the camera in degrees.
    :param links: links whose frame axes and names are drawn (see
        :func:`render_configuration`).
    :param axis_length: length of the drawn frame axes in m (see
        :func:`render_configuration`; default None: 8 % of the size of the robot's motion).
    :param labels: whether to write link names (a bool).
    :param fps: frames per second of an animation, a number within :data:`FPS_RANGE`
        (checked for a strip too, which does not use it).
    :param progress: optional callable ``progress(done, total)`` called after each frame.
    :param axes: which links get frame axes (see :func:`render_configuration`).
    :return: the path written.
    :raises MissingDependencyError: without matplotlib (or without pillow for a GIF).
    :raises ConfigurationError: for bad configurations or options (``axis_length`` or ``fps``
        out of their ranges or not numbers, say).
    :raises UnknownFrameError: for an unknown link in ``links``.
    """
    path = check_output(path, ('.gif', '.png'))
    size = check_size(size)
    view = _view(view)
    fps = _fps(fps)
    path_q = interpolate_configurations(model, q_start, q_end, frames)
    scene = _Scene(model, path_q, links, axis_length, labels, axes)
    count = len(path_q)
    if path.lower().endswith('.gif'):
        _animate(scene, path_q, path, size, view, fps, progress)
        return path
    columns = min(check_count(columns, 'columns', 1), count)
    rows = -(-count // columns)
    if columns * size[0] > MAX_PIXELS or rows * size[1] + _STRIP_HEADER > MAX_PIXELS:
        raise ConfigurationError(f'a strip of {rows}x{columns} pictures of {size[0]}x{size[1]} '
                                 f'pixels is too large (at most {MAX_PIXELS} per side)')
    width, height = columns * size[0], rows * size[1] + _STRIP_HEADER
    fontsize = float(np.clip(6.5 * min(size[0] / 400, size[1] / 300), 4.0, 8.0))
    fig, line_collection = new_figure((width, height))
    for frame in range(count):
        row, column = divmod(frame, columns)
        ax = fig.add_axes((column * size[0] / width,
                           1.0 - (_STRIP_HEADER + (row + 1) * size[1]) / height,
                           size[0] / width, size[1] / height), projection='3d')
        ax.view_init(*view)
        scene.draw(ax, frame, line_collection, fontsize=fontsize, ticks=False, zoom=1.15)
        ax.text2D(0.03, 0.95, f'{frame + 1}/{count}  t = {frame / (count - 1):.2f}  '
                  f'grid {scene.grid_step:g} m', transform=ax.transAxes, fontsize=fontsize + 1)
        if progress is not None:
            progress(frame + 1, count)
    motion = f'{model.name}: {_changed_joints(model, path_q[0])} -> ' \
        f'{_changed_joints(model, path_q[-1])}'
    fig.suptitle(textwrap.shorten(motion, max(20, width // 6), placeholder=' ...'),
                 fontsize=8, y=1.0 - 6.0 / height, va='top')
    save_png(fig, path)
    return path


def _animate(scene: _Scene, path_q: np.ndarray, path: str, size: Tuple[int, int],
             view: Tuple[float, float], fps: float, progress) -> None:
    from matplotlib.animation import PillowWriter
    if not PillowWriter.isAvailable():
        raise MissingDependencyError('pillow', 'writing a GIF animation')
    fig, line_collection = new_figure(size)
    count = len(path_q)
    titles = [_title(scene.model, q, size[0]) for q in path_q]
    if count > 1:
        titles = [f'{title}\nframe {frame + 1}/{count}' for frame, title in enumerate(titles)]
    longest = max(titles, key=lambda title: title.count('\n'))
    title = reserve_title(fig, longest, _TITLE_FONTSIZE)
    ax = fig.add_subplot(projection='3d')
    writer = PillowWriter(fps=fps)
    with writing(path), replacing(path) as written, writer.saving(fig, written, DPI):
        for frame in range(count):
            ax.cla()
            ax.view_init(*view)
            title.set_text(titles[frame])
            scene.draw(ax, frame, line_collection, fontsize=7.5, zoom=None)
            writer.grab_frame()
            if progress is not None:
                progress(frame + 1, count)


__all__ = ['DEFAULT_SIZE', 'DEFAULT_VIEW', 'FPS_RANGE', 'MAX_FRAMES', 'MissingDependencyError',
           'interpolate_configurations', 'picture_size', 'render_configuration',
           'render_motion']
