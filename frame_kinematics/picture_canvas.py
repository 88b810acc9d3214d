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
The canvas and the file of a picture (:mod:`.render`, :mod:`.reach_pictures`).

The checks of a picture's output path and size in pixels, a matplotlib figure of that size on
the Agg canvas (no pyplot, no display, no global state), and :func:`picture_size`, which reads
the size of a written PNG or GIF file back from its header. matplotlib is imported when a
figure is made; without it a :class:`MissingDependencyError` says what to install.
"""

import contextlib
import os
from typing import Iterator, Sequence, Tuple, Type, TYPE_CHECKING

from .core.checks import as_path, check_count
from .core.errors import ConfigurationError, FrameKinematicsError, quote
from .core.file_output import name_limit, name_too_long, replacing

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure
    from mpl_toolkits.mplot3d.art3d import Line3DCollection

#: Dots per inch of every figure: a figure's size in inches is its size in pixels / DPI.
DPI = 100
#: Longest side of a picture in pixels.
MAX_PIXELS = 8000


class MissingDependencyError(FrameKinematicsError, ImportError):
    """
    An optional dependency (matplotlib, pillow, pyyaml) that a feature needs is missing.

    :param package: the pip package to install.
    :param feature: what needs it.
    """

    def __init__(self, package: str, feature: str) -> None:
        self.package = package
        self.feature = feature
        super().__init__(f"{feature} needs the python package '{package}' "
                         f'(pip install {package})')


def _matplotlib():
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from mpl_toolkits.mplot3d.art3d import Line3DCollection
    except ImportError:
        raise MissingDependencyError('matplotlib', 'drawing a picture') from None
    return Figure, FigureCanvasAgg, Line3DCollection


def check_size(size: Sequence[int]) -> Tuple[int, int]:
    """
    Check a picture size.

    :param size: ``(width, height)`` in pixels.
    :return: the two sides as integers.
    :raises ConfigurationError: unless two whole numbers from 16 to :data:`MAX_PIXELS`.
    """
    try:
        width, height = size
    except (TypeError, ValueError):
        raise ConfigurationError(f'size must be two integers (width, height), got '
                                 f'{quote(size)}') from None
    return (check_count(width, 'picture width', 16, MAX_PIXELS),
            check_count(height, 'picture height', 16, MAX_PIXELS))


def check_output(path: str, suffixes: Sequence[str]) -> str:
    """
    Check the file a picture is written to, before it is drawn.

    :param path: the file.
    :param suffixes: the endings it may have, e.g. ``('.png', '.gif')``.
    :return: the path as a str.
    :raises ConfigurationError: for what is not a path, another ending, a folder that does
        not exist, a path that is a folder, or a name longer than the file system accepts.
    """
    path = os.fsdecode(as_path(path, 'output'))
    if not path.lower().endswith(tuple(suffixes)):
        raise ConfigurationError(f"output {quote(path)} must end with {' or '.join(suffixes)}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ConfigurationError(f'output folder does not exist: {quote(folder)}')
    if os.path.isdir(path):
        raise ConfigurationError(f'output {quote(path)} is a folder')
    if name_too_long(path):
        raise ConfigurationError(f'output {quote(path)} has a name longer than the '
                                 f'{name_limit(path)} bytes the file system accepts')
    return path


def save_png(fig, path: str, dpi: float = DPI) -> None:
    """
    Write a figure to a PNG file, in full or not at all (:func:`replacing`).

    :param fig: the matplotlib figure.
    :param path: the file, checked by :func:`check_output`.
    :param dpi: dots per inch of the file.
    :raises ConfigurationError: naming the file, when it cannot be written (a full disk, a
        device, a folder made since it was checked).
    """
    with writing(path), replacing(path) as written:
        fig.savefig(written, dpi=dpi, format='png')


@contextlib.contextmanager
def writing(path: str) -> Iterator[None]:
    """
    Turn the operating system's error of writing a picture into one naming the file.

    :param path: the file being written.
    :raises ConfigurationError: ``cannot write '<path>': <reason>`` for an ``OSError``.
    """
    try:
        yield
    except OSError as exc:
        raise ConfigurationError(f'cannot write {quote(path)}: {exc.strerror or exc}') from None


def new_figure(size: Tuple[int, int]) -> Tuple['Figure', Type['Line3DCollection']]:
    """
    Make a matplotlib figure of ``size`` pixels on its own Agg canvas.

    :param size: ``(width, height)`` from :func:`check_size`.
    :return: ``(figure, Line3DCollection)``: the figure, and matplotlib's class of 3-D line
        collections for drawing many segments at once.
    :raises MissingDependencyError: without matplotlib.
    """
    figure_class, canvas_class, line_collection = _matplotlib()
    fig = figure_class(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI)
    canvas_class(fig)
    return fig, line_collection


def picture_size(path: str) -> Tuple[int, int]:
    """
    Width and height in pixels of a PNG or GIF file, read from its header.

    :param path: the picture file.
    :return: ``(width, height)``.
    :raises ConfigurationError: if the file cannot be read, or is neither a PNG nor a GIF.
    """
    name = os.fsdecode(as_path(path, 'a picture path'))
    try:
        with open(name, 'rb') as handle:
            head = handle.read(32)
    except OSError as exc:
        raise ConfigurationError(f'cannot read {quote(name)}: {exc.strerror or exc}') from None
    if head[:8] == b'\x89PNG\r\n\x1a\n':
        return int.from_bytes(head[16:20], 'big'), int.from_bytes(head[20:24], 'big')
    if head[:6] in (b'GIF87a', b'GIF89a'):
        return int.from_bytes(head[6:8], 'little'), int.from_bytes(head[8:10], 'little')
    raise ConfigurationError(f'{quote(name)} is neither a PNG nor a GIF file')


__all__ = ['check_output', 'check_size', 'DPI', 'MAX_PIXELS', 'MissingDependencyError',
           'new_figure', 'picture_size', 'save_png', 'writing']
