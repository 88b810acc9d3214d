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
"""Tests of frame_kinematics.picture_text: link labels that never overlap, and the title."""

from conftest import bundled, random_configuration
from frame_kinematics import render, robots
from frame_kinematics.core import Robot
import numpy as np
from picture_testing import REAL, saved_figures
import pytest


@pytest.fixture(scope='module')
def arm():
    return bundled()


def text_boxes(fig):
    """Window extents of the visible texts of a saved figure (title, labels, tile texts)."""
    renderer = fig.canvas.get_renderer()
    texts = list(fig.texts) + [t for ax in fig.axes for t in ax.texts]
    texts += [ax.title for ax in fig.axes if ax.title.get_text()]
    return [(t.get_text().strip().split(' (+')[0], t.get_window_extent(renderer))
            for t in texts if t.get_visible() and t.get_text().strip()]


@pytest.mark.parametrize('name', sorted(REAL))
def test_labels_of_real_robots_do_not_collide(tmp_path, monkeypatch, name):
    from conftest import erd_urdf
    relative, floating, values = REAL[name]
    path = robots.path(name) if relative is None else erd_urdf(relative)
    model = Robot.from_urdf_file(path, floating_base=floating)
    saved = saved_figures(monkeypatch)
    render.render_configuration(model, model.configuration_from_dict(values),
                                str(tmp_path / f'{name}.png'))
    (fig,) = saved
    boxes = text_boxes(fig)
    names = {text for text, _ in boxes}
    assert len(names & set(model.link_names)) >= 5, names
    assert model.root_link in names
    renderer = fig.canvas.get_renderer()
    (ax,) = fig.axes
    ticks = [tick.label1.get_window_extent(renderer)
             for axis in (ax.xaxis, ax.yaxis, ax.zaxis) for tick in axis.get_major_ticks()
             if min(axis.get_view_interval()) <= tick.get_loc() <= max(axis.get_view_interval())
             and tick.label1.get_text()]
    assert ticks
    for k, (text_a, a) in enumerate(boxes):
        assert fig.bbox.x0 <= a.x0 and a.x1 <= fig.bbox.x1, text_a
        assert fig.bbox.y0 <= a.y0 and a.y1 <= fig.bbox.y1, text_a
        for text_b, b in boxes[k + 1:]:
            assert not a.overlaps(b), (text_a, text_b)
        assert not any(a.overlaps(tick) for tick in ticks), text_a


def test_a_wrapping_title_stays_inside_the_picture(tmp_path, monkeypatch, arm):
    saved = saved_figures(monkeypatch)
    q = random_configuration(arm, np.random.default_rng(3))
    render.render_configuration(arm, q, str(tmp_path / 'small.png'), size=(320, 240))
    (fig,) = saved
    titles = [(text, box) for text, box in text_boxes(fig) if text.startswith('fk_arm:')]
    assert len(titles) == 1 and titles[0][0].count('\n') >= 1
    box = titles[0][1]
    assert fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1
    assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1


def test_labels_are_drawn_over_lines_and_dots_with_a_halo(tmp_path, monkeypatch):
    arm = Robot.from_urdf_file(robots.path())
    saved = saved_figures(monkeypatch)
    render.render_configuration(arm, arm.configuration_from_dict(
        {'shoulder_lift_joint': -1.2, 'elbow_joint': 1.0}), str(tmp_path / 'a.png'))
    (fig,) = saved
    (ax,) = fig.axes
    labels = [t for t in ax.texts if t.get_text() in arm.link_names]
    assert 'tool0' in [t.get_text() for t in labels]
    top = max(artist.get_zorder() for artist in ax.collections)
    for text in labels:
        assert text.get_zorder() > top
        assert text.get_path_effects()
