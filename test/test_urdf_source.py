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
"""Tests of frame_kinematics.core.urdf_source: URDF documents decoded and files read."""

import codecs
import os
import pathlib
import threading

from conftest import joint_xml, link_xml, urdf
from frame_kinematics.core import file_input, urdf_source as urdf_module
from frame_kinematics.core import Robot, URDFError
from frame_kinematics.core.urdf import parse_urdf
from frame_kinematics.core.urdf_source import MAX_DOCUMENT_BYTES
import pytest
from urdf_testing import OncePath

#: A document whose names are not ASCII, and its declaration for a given encoding.
NAMES = ('épaule', 'coude')
BODY = (link_xml(NAMES[0]) + link_xml(NAMES[1])
        + joint_xml('gelenk_ä', 'revolute', NAMES[0], NAMES[1]))


def document(encoding=None):
    declaration = '<?xml version="1.0"?>' if encoding is None else \
        f'<?xml version="1.0" encoding="{encoding}"?>'
    return f'{declaration}\n<robot name="r">{BODY}</robot>\n'


@pytest.mark.parametrize('encoding, data', [
    ('utf-8', document().encode('utf-8')),
    ('declared utf-8', document('UTF-8').encode('utf-8')),
    ('utf-8 with BOM', document().encode('utf-8-sig')),
    ('ISO-8859-1', document('ISO-8859-1').encode('latin-1')),
    ('latin-1', document('latin-1').encode('latin-1')),
    ('cp1252', document('windows-1252').encode('cp1252')),
    ('utf-16 with BOM', document('UTF-16').encode('utf-16')),
    ('utf-16-be without BOM', document('UTF-16').encode('utf-16-be')),
    ('utf-16-le, no declaration', document().encode('utf-16-le')),
    ('utf-32 with BOM', document('UTF-32').encode('utf-32')),
    ('bytearray', bytearray(document('ISO-8859-1').encode('latin-1'))),
    ('memoryview', memoryview(document().encode('utf-8'))),
])
def test_bytes_in_any_declared_encoding(encoding, data):
    model = Robot.from_urdf_string(data)
    assert model.link_names == NAMES, encoding
    assert model.joint_names == ('gelenk_ä',)
    assert isinstance(model.urdf, str) and NAMES[0] in model.urdf


@pytest.mark.parametrize('encoding', ['ISO-8859-1', 'UTF-16', 'koi8-r'])
def test_str_is_parsed_as_text_whatever_it_declares(encoding):
    text = document(encoding)
    model = Robot.from_urdf_string(text)
    assert model.link_names == NAMES
    assert model.urdf == text


@pytest.mark.parametrize('data, message', [
    (b'<robot name="r"><link name="\xff"/></robot>',
     r'not valid UTF-8 \(no encoding is declared\): byte 0xff at offset 28'),
    ('<?xml version="1.0" encoding="utf-8"?><robot name="é"/>'.encode('latin-1'),
     'not valid utf-8: byte 0xe9 at offset 51'),
    (b'<?xml version="1.0" encoding="bogus-8"?><robot/>', "unknown encoding 'bogus-8'"),
    (b'<?xml version="1.0" encoding="hex"?><robot/>', "cannot be decoded as 'hex'"),
    (b'<?xml version="1.0" encoding="punycode"?><robot/>', 'not a character set'),
    (b'\xff\xfe<\x00r\x00o', 'not valid UTF-16: byte 0x6f at offset 6'),
    (codecs.BOM_UTF8 + b'<robot name="\xff"/>', 'not valid UTF-8: byte 0xff at offset 16'),
])
def test_undecodable_bytes_name_the_offset(data, message):
    with pytest.raises(URDFError, match=message):
        Robot.from_urdf_string(data)


def test_lone_surrogate_is_a_urdf_error():
    with pytest.raises(URDFError, match='lone surrogate U\\+D800 at character 28'):
        Robot.from_urdf_string('<robot name="r"><link name="\ud800"/></robot>')


@pytest.mark.parametrize('value, name', [
    (42, 'int'), (None, 'NoneType'), ([urdf(link_xml('a'))], 'list'),
    (pathlib.Path('robot.urdf'), 'PosixPath' if os.name == 'posix' else 'WindowsPath'),
])
def test_other_types_are_refused_by_name(value, name):
    with pytest.raises(URDFError, match=f'must be str or bytes, got {name}'):
        Robot.from_urdf_string(value)
    with pytest.raises(URDFError, match=f'must be str or bytes, got {name}'):
        parse_urdf(value)


def test_size_is_checked_before_decoding(monkeypatch):
    monkeypatch.setattr(urdf_module, 'MAX_DOCUMENT_BYTES', 1000)
    with pytest.raises(URDFError, match='1001 bytes is larger than the limit of 1000 bytes'):
        Robot.from_urdf_string(b'\xff' * 1001)
    with pytest.raises(URDFError, match='larger than the limit of 1000 bytes'):
        Robot.from_urdf_string(memoryview(b'\xff' * 1001))
    with pytest.raises(URDFError, match='1001 bytes is larger than the limit'):
        Robot.from_urdf_string('\ud800' * 1001)
    # A str counts its UTF-8 size.
    with pytest.raises(URDFError, match='1200 bytes is larger than the limit'):
        Robot.from_urdf_string('é' * 600)


def test_file_in_a_declared_encoding(tmp_path):
    path = tmp_path / 'latin.urdf'
    path.write_bytes(document('ISO-8859-1').encode('latin-1'))
    for given in (path, str(path), os.fsencode(path)):
        model = Robot.from_urdf_file(given)
        assert model.link_names == NAMES
        assert model.urdf == document('ISO-8859-1')


def test_undecodable_file_names_the_file_and_offset(tmp_path):
    path = tmp_path / 'bad.urdf'
    path.write_bytes(b'<robot name="\xff"/>')
    with pytest.raises(URDFError, match=f"file '{path}': the document is not valid UTF-8 .*"
                       'offset 13'):
        Robot.from_urdf_file(path)


def test_a_path_is_converted_once_even_when_the_document_fails(tmp_path):
    path = tmp_path / 'bad.urdf'
    path.write_bytes(b'<robot name="\xff"/>')
    with pytest.raises(URDFError, match=f"file '{path}': the document is not valid UTF-8"):
        urdf_module.read_urdf_file(OncePath(path))


@pytest.mark.skipif(not os.path.exists('/dev/zero'), reason='needs /dev/zero')
def test_endless_device_is_refused_at_the_limit():
    with pytest.raises(URDFError, match=f"file '/dev/zero': larger than the limit of "
                       f'{MAX_DOCUMENT_BYTES} bytes'):
        Robot.from_urdf_file('/dev/zero')


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
def test_pipe_is_read_no_further_than_the_limit(tmp_path, monkeypatch):
    limit = 100_000
    monkeypatch.setattr(urdf_module, 'MAX_DOCUMENT_BYTES', limit)
    fifo = tmp_path / 'robot.fifo'
    os.mkfifo(fifo)
    written = [0]

    def writer():
        with open(fifo, 'wb', buffering=0) as pipe:
            try:
                while written[0] < 100 * limit:
                    written[0] += pipe.write(b' ' * 4096)
            except BrokenPipeError:
                pass

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    with pytest.raises(URDFError, match=f'larger than the limit of {limit} bytes'):
        Robot.from_urdf_file(fifo)
    thread.join(timeout=60)
    # What the reader took, plus what the pipe buffered before the reader closed it.
    assert written[0] < 10 * limit


def test_pipe_holding_a_document_loads(tmp_path):
    if not hasattr(os, 'mkfifo'):
        pytest.skip('needs FIFOs')
    fifo = tmp_path / 'robot.fifo'
    os.mkfifo(fifo)
    text = document()

    def writer():
        with open(fifo, 'w', encoding='utf-8') as pipe:
            pipe.write(text)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    assert Robot.from_urdf_file(fifo).link_names == NAMES
    thread.join(timeout=60)


@pytest.mark.parametrize('path, message', [
    (42, 'must be str, bytes or os.PathLike, got int'),
    (None, 'must be str, bytes or os.PathLike, got NoneType'),
    (['robot.urdf'], 'got list'),
    ('nul\0in/path', "cannot read 'nul"),
])
def test_bad_paths(path, message):
    with pytest.raises(URDFError, match=message):
        Robot.from_urdf_file(path)


def test_directory_and_missing_file(tmp_path):
    with pytest.raises(URDFError, match=f"cannot read '{tmp_path}': Is a directory"):
        Robot.from_urdf_file(tmp_path)
    with pytest.raises(URDFError, match='No such file or directory'):
        Robot.from_urdf_file(tmp_path / 'missing.urdf')


def test_unreadable_file(tmp_path):
    with pytest.raises(URDFError, match='cannot read'):
        Robot.from_urdf_file(tmp_path / 'missing.urdf')


@pytest.mark.skipif(not hasattr(os, 'geteuid') or os.geteuid() == 0,
                    reason='root reads every file')
def test_unreadable_permissions(tmp_path):
    path = tmp_path / 'secret.urdf'
    path.write_text(urdf(link_xml('a')))
    path.chmod(0)
    with pytest.raises(URDFError, match='Permission denied'):
        Robot.from_urdf_file(path)


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='needs FIFOs')
def test_a_fifo_nobody_writes_to_is_refused_after_the_wait(tmp_path, monkeypatch):
    fifo = tmp_path / 'robot.urdf'
    os.mkfifo(fifo)
    errors = []

    def reader():
        try:
            Robot.from_urdf_file(fifo)
        except URDFError as exc:
            errors.append(str(exc))

    monkeypatch.setattr(file_input, 'FIFO_WAIT_SECONDS', 0.1)
    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    thread.join(timeout=30)
    if thread.is_alive():  # release the reader a regression left blocked on the FIFO
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert errors == [f"file '{fifo}': no process wrote to this FIFO within 0.1 s: start the "
                      'writer first, or give a file']
    with pytest.raises(URDFError, match='within 0.05 s'):
        urdf_module.read_urdf_bytes(fifo, wait=0.05)


def test_a_file_is_read_as_bytes_once(tmp_path):
    path = tmp_path / 'robot.urdf'
    path.write_bytes(document('ISO-8859-1').encode('latin-1'))
    assert urdf_module.read_urdf_bytes(path) == path.read_bytes()
