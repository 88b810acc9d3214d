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
"""Text on a picture of :mod:`frame_kinematics.render`: link labels that never overlap, a title."""

from typing import Optional, Sequence, Tuple, TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure
    from matplotlib.text import Text

#: Label positions tried around a frame origin: offset in points, alignment.
LABEL_SPOTS = ((4, 2, 'left', 'bottom'), (-4, 2, 'right', 'bottom'),
               (4, -2, 'left', 'top'), (-4, -2, 'right', 'top'),
               (0, 6, 'center', 'bottom'), (0, -6, 'center', 'top'),
               (10, 0, 'left', 'center'), (-10, 0, 'right', 'center'),
               (8, 10, 'left', 'bottom'), (-8, 10, 'right', 'bottom'),
               (8, -10, 'left', 'top'), (-8, -10, 'right', 'top'))
#: Labels are drawn above every line and dot (mplot3d gives those depth-sorted orders).
_LABEL_ZORDER = 10_000


def place_labels(ax, names: Sequence[Tuple[str, np.ndarray, object]], fontsize: float,
                 drawn: Optional[np.ndarray] = None) -> None:
    """
    Write names next to their points in the picture, over what is drawn and never overlapping.

    Each name takes, among the spots around its projected point (see :data:`LABEL_SPOTS`)
    inside the drawn box that cover neither another label nor another named point, the first
    that covers none of the ``drawn`` points (else the one covering fewest); a name that finds
    no spot is left out. Labels are drawn above the lines and dots, with a white halo.

    :param ax: the 3D axes.
    :param names: ``(text, point, color)`` for each name, most wanted first.
    :param fontsize: the font size in points.
    :param drawn: ``(N, 3)`` points along the drawn lines and dots, which labels avoid.
    """
    from matplotlib import patheffects
    from matplotlib.transforms import Bbox, IdentityTransform
    from mpl_toolkits.mplot3d import proj3d
    if not names:
        return
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    ax.apply_aspect()  # the position drawing gives the axes (a square for a 3D box aspect)
    points = np.array([p for _, p, _ in names], dtype=float)
    obstacles = np.zeros((0, 3)) if drawn is None else np.asarray(drawn, dtype=float)
    corners = np.array(np.meshgrid(ax.get_xlim(), ax.get_ylim(), ax.get_zlim())).reshape(3, -1)
    x, y, _ = proj3d.proj_transform(*np.concatenate([points.T, corners, obstacles.T], axis=1),
                                    ax.get_proj())
    projected = ax.transData.transform(np.column_stack([x, y]))
    screen = projected[:len(points)]
    box_corners = projected[len(points):len(points) + len(corners.T)]
    drawn_screen = projected[len(points) + len(corners.T):]
    # inside the drawn box, so that no label covers the tick labels around it
    frame = Bbox.intersection(ax.get_window_extent(renderer),
                              Bbox([box_corners.min(axis=0), box_corners.max(axis=0)]))
    scale = fig.dpi / 72.0
    halo = [patheffects.withStroke(linewidth=2.5, foreground='white')]
    boxes = []
    for k, ((name, _, color), (px, py)) in enumerate(zip(names, screen)):
        others = np.delete(screen, k, axis=0)
        text = ax.text2D(px, py, name, fontsize=fontsize, color=color, zorder=_LABEL_ZORDER,
                         transform=IdentityTransform(), path_effects=halo)
        best = None
        for spot, (dx, dy, ha, va) in enumerate(LABEL_SPOTS):
            text.set_position((px + dx * scale, py + dy * scale))
            text.set_ha(ha)
            text.set_va(va)
            box = text.get_window_extent(renderer).padded(2.0)
            inside = frame.x0 <= box.x0 and box.x1 <= frame.x1 and \
                frame.y0 <= box.y0 and box.y1 <= frame.y1
            if not inside or _inside(others, box) or any(box.overlaps(b) for b in boxes):
                continue
            crossed = _inside(drawn_screen, box)
            if best is None or crossed < best[0]:
                best = (crossed, spot, box)
            if crossed == 0:
                break
        if best is None:
            text.remove()
            continue
        dx, dy, ha, va = LABEL_SPOTS[best[1]]
        text.set_position((px + dx * scale, py + dy * scale))
        text.set_ha(ha)
        text.set_va(va)
        boxes.append(best[2])


def _inside(points: np.ndarray, box) -> int:
    """How many screen points lie inside a box."""
    return int(np.count_nonzero((points[:, 0] > box.x0) & (points[:, 0] < box.x1) &
                                (points[:, 1] > box.y0) & (points[:, 1] < box.y1)))


def reserve_title(fig: 'Figure', text: str, fontsize: float) -> 'Text':
    """
    Put ``text`` at the top of the figure and shrink the plot below it, whatever its lines.

    :param fig: the figure (on a canvas: its renderer measures the title).
    :param text: the title, one line or several.
    :param fontsize: its font size in points.
    :return: the title's text artist.
    """
    title = fig.suptitle(text, fontsize=fontsize, va='top', y=1.0 - 4.0 / fig.bbox.height)
    height = title.get_window_extent(fig.canvas.get_renderer()).height
    fig.subplots_adjust(left=0.0, right=1.0, bottom=0.02,
                        top=max(0.5, 1.0 - (height + 10.0) / fig.bbox.height))
    return title
