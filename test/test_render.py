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
"""Tests of frame_kinematics.render: pictures of the frame tree, motions and their errors."""

import os
import subprocess
import sys

from conftest import all_joint_types_model, bundled, link_xml, random_configuration, urdf
from frame_kinematics import render
from frame_kinematics.core import ConfigurationError, Robot, UnknownFrameError
from frame_kinematics.core.configuration import distance
from hypothesis import given, settings, strategies as st
import numpy as np
from picture_testing import REAL, saved_figures
import pytest


def read_png(path):
    image = pytest.importorskip('matplotlib.image')
    return image.imread(str(path))


def drawn_fraction(pixels):
    """Fraction of pixels that are not (nearly) white."""
    return float(np.mean(np.any(pixels[..., :3] < 0.9, axis=-1)))


def has_color(pixels, rgb, tol=0.12):
    return bool(np.any(np.all(np.abs(pixels[..., :3] - np.array(rgb)) < tol, axis=-1)))


@pytest.fixture(scope='module')
def arm():
    return bundled()


@pytest.fixture(scope='module')
def arm_q(arm):
    return arm.configuration_from_dict({'shoulder_lift_joint': -1.2, 'elbow_joint': 1.0,
                                        'wrist_2_joint': 0.4, 'left_finger_joint': 0.03})


def test_configuration_picture_has_size_and_content(tmp_path, arm, arm_q):
    pytest.importorskip('matplotlib')
    path = tmp_path / 'arm.png'
    assert render.render_configuration(arm, arm_q, str(path), size=(640, 480)) == str(path)
    assert render.picture_size(path) == (640, 480)
    pixels = read_png(path)
    assert pixels.shape[:2] == (480, 640)
    assert 0.01 < drawn_fraction(pixels) < 0.9
    # links (dark grey), x axes (red), y axes (green), z axes (blue), CoM markers (orange)
    for rgb in ((0.3, 0.3, 0.35), (0.85, 0.1, 0.1), (0.1, 0.65, 0.1), (0.1, 0.25, 0.9),
                (1.0, 0.7, 0.4)):
        assert has_color(pixels, rgb), rgb


def test_pictures_differ_with_the_configuration_and_options(tmp_path, arm, arm_q):
    pytest.importorskip('matplotlib')
    size = (240, 180)
    render.render_configuration(arm, arm_q, str(tmp_path / 'a.png'), size=size)
    render.render_configuration(arm, arm.neutral_configuration(), str(tmp_path / 'b.png'),
                                size=size)
    render.render_configuration(arm, arm_q, str(tmp_path / 'c.png'), size=size,
                                links=['tool0'], labels=False, view=(90, -90),
                                axis_length=0.2)
    a, b, c = (read_png(tmp_path / f'{n}.png') for n in 'abc')
    assert a.shape == b.shape == c.shape == (180, 240, 4)
    assert np.mean(np.abs(a - b)) > 1e-3
    assert np.mean(np.abs(a - c)) > 1e-3


def test_robots_without_segments_or_mass(tmp_path):
    pytest.importorskip('matplotlib')
    single = Robot.from_urdf_string(urdf(link_xml('alone')))
    path = tmp_path / 'single.png'
    render.render_configuration(single, single.neutral_configuration(), str(path),
                                size=(200, 150))
    assert render.picture_size(path) == (200, 150)
    assert has_color(read_png(path), (0.85, 0.1, 0.1))  # its frame's x axis
    floating = Robot.from_urdf_string(urdf(link_xml('alone')), floating_base=True)
    q1 = floating.configuration_from_dict({'root_joint/x': 1.0})
    render.render_motion(floating, floating.neutral_configuration(), q1,
                         str(tmp_path / 'floating.png'), frames=2, size=(200, 150))
    assert render.picture_size(tmp_path / 'floating.png') == (400, 190)


def test_strip_of_a_motion(tmp_path, arm, arm_q):
    pytest.importorskip('matplotlib')
    path = tmp_path / 'strip.png'
    done = []
    render.render_motion(arm, arm.neutral_configuration(), arm_q, str(path), frames=5,
                         columns=3, size=(200, 150), progress=lambda i, n: done.append((i, n)))
    assert render.picture_size(path) == (600, 2 * 150 + 40)
    assert done == [(i, 5) for i in range(1, 6)]
    pixels = read_png(path)
    panels = [pixels[40 + r * 150:40 + (r + 1) * 150, c * 200:(c + 1) * 200]
              for r in range(2) for c in range(3)]
    assert all(drawn_fraction(p) > 0.02 for p in panels[:5])
    assert drawn_fraction(panels[5]) < 0.005  # the sixth cell of the grid is empty


def test_gif_animation(tmp_path, arm, arm_q):
    pytest.importorskip('matplotlib')
    image = pytest.importorskip('PIL.Image')
    path = tmp_path / 'motion.gif'
    render.render_motion(arm, arm.neutral_configuration(), arm_q, str(path), frames=4,
                         size=(160, 120))
    assert render.picture_size(path) == (160, 120)
    with image.open(path) as gif:
        assert gif.n_frames == 4
        frames = []
        for k in range(gif.n_frames):
            gif.seek(k)
            frames.append(np.asarray(gif.convert('RGB'), dtype=float))
    assert np.mean(np.abs(frames[0] - frames[-1])) > 0.1


def test_an_interrupted_gif_leaves_no_partial_file(tmp_path, arm, arm_q, monkeypatch):
    pytest.importorskip('matplotlib')
    pytest.importorskip('PIL.Image')
    from matplotlib.animation import PillowWriter
    grab = PillowWriter.grab_frame
    frames = []

    def grab_then_interrupt(writer, **kwargs):
        grab(writer, **kwargs)
        frames.append(1)
        if len(frames) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(PillowWriter, 'grab_frame', grab_then_interrupt)
    (tmp_path / 'old.gif').write_bytes(b'older picture')
    for name in ('new.gif', 'old.gif'):
        frames.clear()
        with pytest.raises(KeyboardInterrupt):
            render.render_motion(arm, arm.neutral_configuration(), arm_q,
                                 str(tmp_path / name), frames=4, size=(160, 120))
    assert os.listdir(tmp_path) == ['old.gif']  # neither a partial GIF nor a temporary file
    assert (tmp_path / 'old.gif').read_bytes() == b'older picture'


def test_interpolation_ends_and_quaternions():
    model = all_joint_types_model()
    rng = np.random.default_rng(7)
    q0, q1 = random_configuration(model, rng, batch=2)
    path = render.interpolate_configurations(model, q0, q1, 9)
    assert path.shape == (9, model.nq)
    np.testing.assert_allclose(path[0], q0, atol=1e-12)
    assert distance(model, path[-1], q1) < 1e-9
    free = model.joint('j_free')
    quat = slice(free.idx_q + 3, free.idx_q + 7)
    np.testing.assert_allclose(np.linalg.norm(path[:, quat], axis=1), 1.0, atol=1e-12)
    rev = model.joint('j_rev').idx_q
    np.testing.assert_allclose(np.diff(path[:, rev]), (q1[rev] - q0[rev]) / 8, atol=1e-12)


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.integers(2, 12))
def test_interpolated_motion_moves_at_constant_speed(seed, count):
    model = all_joint_types_model()
    q0, q1 = random_configuration(model, np.random.default_rng(seed), batch=2)
    path = render.interpolate_configurations(model, q0, q1, count)
    assert model.check_configuration(path).shape == (count, model.nq)
    steps = distance(model, path[:-1], path[1:])
    np.testing.assert_allclose(steps, distance(model, q0, q1) / (count - 1), atol=1e-9)
    free = model.joint('j_free')
    quat = path[:, free.idx_q + 3:free.idx_q + 7]
    angles = 2 * np.arccos(np.clip(np.abs(np.sum(quat[1:] * quat[:-1], axis=1)), 0, 1))
    np.testing.assert_allclose(angles, angles[0], atol=1e-6)


@pytest.mark.parametrize('kwargs, error, words', [
    ({'path': 'x.jpg'}, ConfigurationError, ['.png']),
    ({'size': (8, 100)}, ConfigurationError, ['picture width', '16', 'got 8']),
    ({'size': ('a', 3)}, ConfigurationError, ['picture width must be a whole number', 'str']),
    ({'links': ['tool0', 'hand']}, UnknownFrameError, ["'hand'"]),
    ({'axis_length': -1.0}, ConfigurationError, ['axis_length must be', '-1.0']),
    ({'view': (float('nan'), 0)}, ConfigurationError, ['view elevation', 'nan']),
    ({'view': (30, '45')}, ConfigurationError, ['view azimuth', "'45'"]),
    ({'view': 'x' * 10 ** 4}, ConfigurationError, ['view must be two numbers']),
    ({'q': np.full(7, np.nan)}, ConfigurationError, ['NaN']),
    ({'size': (float('inf'), 100)}, ConfigurationError, ['picture width', 'inf']),
    ({'size': 800}, ConfigurationError, ['size must be two integers']),
    ({'path': 'missing/p.png'}, ConfigurationError, ['folder does not exist']),
    ({'path': 5}, ConfigurationError, ['output must be', 'int']),
])
def test_configuration_errors(tmp_path, arm, arm_q, kwargs, error, words):
    pytest.importorskip('matplotlib')
    options = {'q': arm_q, 'path': str(tmp_path / 'p.png'), **kwargs}
    if isinstance(options['path'], str) and not options['path'].startswith(str(tmp_path)):
        options['path'] = str(tmp_path / options['path'])
    with pytest.raises(error) as info:
        render.render_configuration(arm, options.pop('q'), options.pop('path'), **options)
    for word in words:
        assert word in str(info.value)
    assert not (tmp_path / 'p.png').exists()


@pytest.mark.parametrize('count', [1, render.MAX_FRAMES + 1, 2.5, None, 'x', float('nan'),
                                   float('inf'), True])
def test_interpolation_refuses_a_count_that_is_not_a_whole_number_of_frames(count):
    model = all_joint_types_model()
    q0, q1 = random_configuration(model, np.random.default_rng(3), batch=2)
    with pytest.raises(ConfigurationError, match='number of frames must be'):
        render.interpolate_configurations(model, q0, q1, count)


def test_motion_errors(tmp_path, arm, arm_q):
    start = arm.neutral_configuration()
    with pytest.raises(ConfigurationError, match='number of frames must be between 2 and'):
        render.render_motion(arm, start, arm_q, str(tmp_path / 'm.png'), frames=1)
    for columns in (0, 'x', 1.5):
        with pytest.raises(ConfigurationError, match='columns must be'):
            render.render_motion(arm, start, arm_q, str(tmp_path / 'm.png'), frames=3,
                                 columns=columns)
    with pytest.raises(ConfigurationError, match='too large'):
        render.render_motion(arm, start, arm_q, str(tmp_path / 'm.png'), frames=40,
                             columns=40, size=(400, 300))
    with pytest.raises(ConfigurationError, match='end configuration'):
        render.render_motion(arm, start, arm_q[:3], str(tmp_path / 'm.gif'))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize('axis_length', ['0.1', [1, 2], 1e300, True, 0.0, float('nan'),
                                         np.array([0.1, 0.2])])
def test_an_axis_length_that_is_not_metres_is_refused_by_name(tmp_path, arm, arm_q, axis_length):
    start = arm.neutral_configuration()
    for draw in (lambda: render.render_configuration(arm, arm_q, str(tmp_path / 'p.png'),
                                                     axis_length=axis_length),
                 lambda: render.render_motion(arm, start, arm_q, str(tmp_path / 'm.png'),
                                              frames=2, axis_length=axis_length)):
        with pytest.raises(ConfigurationError, match='^axis_length must be None or a number '
                                                     'of metres > 0 and <= 1e[+]16, got '):
            draw()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize('fps', [None, '8', True, 0, -1.0, 101, float('inf'), [8], 0.001,
                                 1e-300])
@pytest.mark.parametrize('name', ['m.gif', 'm.png'])
def test_a_frame_rate_that_is_not_a_number_up_to_100_is_refused_by_name(tmp_path, arm, arm_q,
                                                                        fps, name):
    # a GIF counts a frame's delay in hundredths of a second, in 16 bits: 0.001 fps overflows
    with pytest.raises(ConfigurationError, match='^fps must be a number from 0.01 to 100, got '):
        render.render_motion(arm, arm.neutral_configuration(), arm_q, str(tmp_path / name),
                             frames=2, fps=fps)
    assert list(tmp_path.iterdir()) == []


def test_the_largest_axis_length_and_frame_rate_are_drawn(tmp_path, arm, arm_q):
    pytest.importorskip('matplotlib')
    path = tmp_path / 'p.png'
    render.render_configuration(arm, arm_q, str(path), size=(160, 120), axis_length=1e16)
    assert render.picture_size(path) == (160, 120)
    path = tmp_path / 's.png'
    render.render_motion(arm, arm.neutral_configuration(), arm_q, str(path), frames=2,
                         size=(160, 120), fps=render.FPS_RANGE[1], axis_length=1.5)
    assert render.picture_size(path) == (320, 160)


def test_missing_matplotlib_is_a_clear_error(tmp_path, arm, arm_q, monkeypatch):
    monkeypatch.setitem(sys.modules, 'matplotlib.figure', None)
    with pytest.raises(render.MissingDependencyError, match='pip install matplotlib'):
        render.render_configuration(arm, arm_q, str(tmp_path / 'p.png'))


def test_render_command(tmp_path):
    pytest.importorskip('matplotlib')
    proc = subprocess.run([sys.executable, '-m', 'frame_kinematics', 'render',
                           'shoulder_lift_joint=-1.2', 'elbow_joint=1.0', '-o', 'arm.png',
                           '--size', '400', '300'], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == 'wrote arm.png (400x300 pixels)\n'
    assert render.picture_size(tmp_path / 'arm.png') == (400, 300)
    assert drawn_fraction(read_png(tmp_path / 'arm.png')) > 0.01
    proc = subprocess.run([sys.executable, '-m', 'frame_kinematics', 'render', '-o', 's.png',
                           '--to', 'elbow_joint=1', '--frames', '3', '--size', '100', '80',
                           '--quiet'], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ''
    assert render.picture_size(tmp_path / 's.png') == (300, 120)


# -- readable pictures of real robots -------------------------------------------------------------
def test_strip_tiles_carry_their_scale(tmp_path, monkeypatch, arm, arm_q):
    saved = saved_figures(monkeypatch)
    render.render_motion(arm, arm.neutral_configuration(), arm_q, str(tmp_path / 's.png'),
                         frames=4, columns=2, size=(320, 240))
    (fig,) = saved
    assert len(fig.axes) == 4
    for ax in fig.axes:
        corner = [t.get_text() for t in ax.texts if 'grid' in t.get_text()]
        assert len(corner) == 1, [t.get_text() for t in ax.texts]
        step = float(corner[0].split('grid ')[1].split(' m')[0])
        ticks = ax.get_xticks()
        assert np.allclose(np.diff(ticks), step)
        assert np.allclose(np.diff(ax.get_zticks()), step)


def test_a_gif_without_a_motion_is_one_frame(tmp_path, arm, arm_q):
    animation = pytest.importorskip('matplotlib.animation')
    if not animation.PillowWriter.isAvailable():
        pytest.skip('pillow is not installed')
    path = tmp_path / 'one.gif'
    assert render.render_configuration(arm, arm_q, str(path), size=(320, 240)) == str(path)
    assert render.picture_size(path) == (320, 240)
    proc = subprocess.run([sys.executable, '-m', 'frame_kinematics', 'render', '-o',
                           str(tmp_path / 'cli.gif'), 'elbow_joint=1'],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"wrote {tmp_path / 'cli.gif'} (800x600 pixels)")


@pytest.mark.parametrize('axes, links, expected', [
    ('tips', None, ['world', 'left_sole_link', 'right_sole_link']),
    ('all', None, None),
    ('none', None, []),
    ('tips', ['base_link'], ['base_link']),
])
def test_axis_triads_only_where_asked(tmp_path, monkeypatch, axes, links, expected):
    from conftest import erd_urdf
    model = Robot.from_urdf_file(erd_urdf(REAL['talos'][0]), floating_base=True)
    saved = saved_figures(monkeypatch)
    render.render_configuration(model, model.neutral_configuration(), str(tmp_path / 't.png'),
                                axes=axes, links=links)
    (fig,) = saved
    (ax,) = fig.axes
    triads = sum(len(c.get_segments()) for c in ax.collections
                 if hasattr(c, 'get_segments') and len(c.get_linewidths()) and
                 c.get_linewidths()[0] < 2.0) // 3
    if expected is None:
        assert triads == len(model.links)
    else:
        assert len(expected) <= triads <= max(len(expected), 12)
    # the robot fills the picture: its box is as tall as the robot, not as wide as it is tall
    x, y, z = (np.ptp(limits) for limits in (ax.get_xlim(), ax.get_ylim(), ax.get_zlim()))
    assert z > 1.5 * max(x, y)
    with pytest.raises(ConfigurationError, match='axes must be one of tips, all, none'):
        render.render_configuration(model, model.neutral_configuration(),
                                    str(tmp_path / 'u.png'), axes='some')


def test_links_behind_fixed_joints_inside_a_chain_are_not_labelled():
    model = bundled()
    scene = render._Scene(model, model.neutral_configuration()[None], None, None, True)
    has_child = {link.parent for link in model.links if link.parent is not None}
    fixed_inner = {model.link_index(j.child) for j in model.joints
                   if not j.type.moves and j.child in has_child}
    assert fixed_inner, 'fk_arm has a link behind a fixed joint inside its chain'
    assert not fixed_inner & set(scene.label_order)


@pytest.mark.parametrize('fps', list(render.FPS_RANGE))
def test_a_gif_at_either_end_of_the_frame_rates_is_written(tmp_path, arm, arm_q, fps):
    pytest.importorskip('matplotlib')
    image = pytest.importorskip('PIL.Image')
    path = tmp_path / 'motion.gif'
    render.render_motion(arm, arm.neutral_configuration(), arm_q, str(path), frames=2,
                         size=(80, 60), fps=fps)
    with image.open(path) as gif:
        assert gif.info['duration'] == pytest.approx(1000.0 / fps, rel=0.01)


@pytest.mark.parametrize('labels', ['no', 0, None, np.array([True])])
def test_labels_that_are_not_a_bool_are_refused_by_name(tmp_path, arm, arm_q, labels):
    with pytest.raises(ConfigurationError, match='^labels must be True or False, got '):
        render.render_configuration(arm, arm_q, str(tmp_path / 'p.png'), labels=labels)


@pytest.mark.parametrize('axes', [np.array(['tips']), ['tips'], None, b'tips'])
def test_axes_that_are_not_a_name_are_refused_by_name(tmp_path, arm, arm_q, axes):
    with pytest.raises(ConfigurationError, match='^axes must be one of tips, all, none, got '):
        render.render_configuration(arm, arm_q, str(tmp_path / 'p.png'), axes=axes)
