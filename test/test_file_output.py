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
"""Tests of frame_kinematics.core.file_output: a file written in full or not at all."""

import os

from frame_kinematics.core.file_output import replacing
import pytest


def test_a_new_file_appears_only_when_written_in_full(tmp_path):
    path = tmp_path / 'a.png'
    with replacing(str(path)) as name:
        assert name != str(path) and name.endswith('.png')
        assert not path.exists()
        with open(name, 'wb') as stream:
            stream.write(b'picture')
    assert path.read_bytes() == b'picture'
    assert os.listdir(tmp_path) == ['a.png']


@pytest.mark.parametrize('error', [OSError(28, 'No space left on device'), KeyboardInterrupt()])
def test_a_failed_write_leaves_the_file_as_it_was_and_nothing_beside_it(tmp_path, error):
    path = tmp_path / 'a.png'
    path.write_bytes(b'older')
    with pytest.raises(type(error)):
        with replacing(str(path)) as name:
            with open(name, 'wb') as stream:
                stream.write(b'half')
            raise error
    assert path.read_bytes() == b'older'
    assert os.listdir(tmp_path) == ['a.png']
    new = tmp_path / 'new.png'
    with pytest.raises(type(error)):
        with replacing(str(new)):
            raise error
    assert os.listdir(tmp_path) == ['a.png']


def test_the_replaced_file_keeps_its_permissions_and_its_symbolic_link(tmp_path):
    target = tmp_path / 'target.png'
    target.write_bytes(b'older')
    os.chmod(target, 0o640)
    link = tmp_path / 'link.png'
    link.symlink_to(target)
    with replacing(str(link)) as name:
        with open(name, 'wb') as stream:
            stream.write(b'newer')
    assert link.is_symlink() and target.read_bytes() == b'newer'
    assert os.stat(target).st_mode & 0o777 == 0o640


def test_a_file_that_may_not_be_written_is_refused_and_left_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / 'a.png'
    path.write_bytes(b'older')
    os.chmod(path, 0o444)
    # as permissions bind a user who is not root (root may write any file)
    access = os.access
    monkeypatch.setattr(os, 'access', lambda name, mode, **kwargs: (
        False if mode & os.W_OK and str(name) == str(path) else access(name, mode, **kwargs)))
    with pytest.raises(PermissionError):
        with replacing(str(path)):
            pytest.fail('a read-only file was to be replaced')
    assert path.read_bytes() == b'older'
    assert os.listdir(tmp_path) == ['a.png']


def test_a_writable_file_in_a_folder_that_is_not_is_written_in_place(tmp_path, monkeypatch):
    path = tmp_path / 'a.png'
    path.write_bytes(b'older')
    # as permissions bind a user who is not root: the file may be written, its folder not
    access = os.access
    monkeypatch.setattr(os, 'access', lambda name, mode, **kwargs: (
        False if mode & os.W_OK and str(name) == str(tmp_path) else access(name, mode, **kwargs)))
    with replacing(str(path)) as name:
        assert name == str(path)
        with open(name, 'wb') as stream:
            stream.write(b'newer')
    assert path.read_bytes() == b'newer'
    assert os.listdir(tmp_path) == ['a.png']


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
def test_a_fifo_or_a_device_is_written_in_place(tmp_path):
    os.mkfifo(tmp_path / 'f.npz')
    with replacing(str(tmp_path / 'f.npz')) as name:
        assert name == str(tmp_path / 'f.npz')
    if os.path.exists(os.devnull):
        with replacing(os.devnull) as name:
            assert name == os.devnull
    assert os.listdir(tmp_path) == ['f.npz']
