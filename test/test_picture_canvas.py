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
"""The canvas and the file of a picture: the size read back, a missing dependency."""

from frame_kinematics import picture_canvas, render
from frame_kinematics.core import ConfigurationError, FrameKinematicsError
import numpy as np
import pytest


@pytest.mark.parametrize('head, size', [
    (b'\x89PNG\r\n\x1a\n' + bytes(4) + b'IHDR' + (640).to_bytes(4, 'big')
     + (480).to_bytes(4, 'big'), (640, 480)),
    (b'GIF89a' + (320).to_bytes(2, 'little') + (240).to_bytes(2, 'little'), (320, 240)),
    (b'GIF87a' + (17).to_bytes(2, 'little') + (9000).to_bytes(2, 'little'), (17, 9000)),
])
def test_picture_size_reads_the_header(tmp_path, head, size):
    path = tmp_path / 'picture'
    path.write_bytes(head + bytes(16))
    assert picture_canvas.picture_size(path) == size
    assert picture_canvas.picture_size(str(path)) == size


def test_picture_size_refuses_what_is_not_a_png_or_gif(tmp_path):
    text = tmp_path / 'notes.txt'
    text.write_text('not a picture')
    with pytest.raises(ConfigurationError, match='neither a PNG nor a GIF'):
        picture_canvas.picture_size(text)
    with pytest.raises(ConfigurationError, match='cannot read'):
        picture_canvas.picture_size(tmp_path / 'missing.png')


def test_a_missing_dependency_says_what_to_install():
    error = picture_canvas.MissingDependencyError('pillow', 'writing a GIF animation')
    assert isinstance(error, ImportError)
    assert isinstance(error, FrameKinematicsError)
    assert (error.package, error.feature) == ('pillow', 'writing a GIF animation')
    assert str(error) == ("writing a GIF animation needs the python package 'pillow' "
                          '(pip install pillow)')


def test_the_names_stay_importable_from_render():
    assert render.picture_size is picture_canvas.picture_size
    assert render.MissingDependencyError is picture_canvas.MissingDependencyError


@pytest.mark.parametrize('size', [(16, 16), (800, 600), (picture_canvas.MAX_PIXELS, 16)])
def test_check_size_takes_two_integers_in_range(size):
    assert picture_canvas.check_size(size) == size


def test_check_size_takes_whole_floats_as_integers():
    assert picture_canvas.check_size(np.array([800.0, 600.0])) == (800, 600)


@pytest.mark.parametrize('size, match', [
    ((15, 600), 'picture width must be between 16'),
    ((800, picture_canvas.MAX_PIXELS + 1), 'picture height must be between 16'),
    ((800,), 'two integers'), ('800x600', 'two integers'), (None, 'two integers'),
    ((800, float('nan')), 'picture height must be a whole number'),
    ((20.7, 30), 'picture width must be a whole number, got 20.7'),
    ((True, 600), 'picture width must be a whole number'),
])
def test_check_size_refuses(size, match):
    with pytest.raises(ConfigurationError, match=match):
        picture_canvas.check_size(size)


def test_check_output_takes_a_path_with_an_allowed_ending(tmp_path):
    path = tmp_path / 'robot.PNG'
    assert picture_canvas.check_output(path, ('.png', '.gif')) == str(path)


@pytest.mark.parametrize('name, match', [
    ('robot.jpg', r'must end with \.png or \.gif'), ('missing/robot.png', 'does not exist'),
    ('r' * 300 + '.png', 'has a name longer than the [0-9]+ bytes the file system accepts'),
])
def test_check_output_refuses(tmp_path, name, match):
    with pytest.raises(ConfigurationError, match=match):
        picture_canvas.check_output(tmp_path / name, ('.png', '.gif'))
    with pytest.raises(ConfigurationError, match='output'):
        picture_canvas.check_output(b'\xff' * 3 + b'\0', ('.png',))
