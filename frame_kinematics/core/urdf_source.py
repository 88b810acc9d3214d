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
Where a URDF document comes from: bytes or text, a file, and how they are decoded.

Every bound is checked before work proportional to the input: a document's size before it is
decoded, a file's size while it is read (devices, pipes and huge files are read once, in
chunks, and refused as soon as they pass :data:`MAX_DOCUMENT_BYTES`; a FIFO nobody writes to
is refused after a wait: :mod:`.file_input`).
"""

import codecs
import os
import re
from typing import Optional, Tuple, Union

from .checks import as_path
from .errors import excerpt, URDFError
from .file_input import read_bounded

#: Largest document accepted, in bytes (a str counts its UTF-8 size).
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024

#: Byte order marks and the first bytes of an XML document without one (XML 1.0, appendix F),
#: longest first, with the codec they imply.
_SIGNATURES = ((codecs.BOM_UTF32_LE, 'utf-32'), (codecs.BOM_UTF32_BE, 'utf-32'),
               (codecs.BOM_UTF8, 'utf-8'), (codecs.BOM_UTF16_LE, 'utf-16'),
               (codecs.BOM_UTF16_BE, 'utf-16'), (b'<\0?\0', 'utf-16-le'),
               (b'\0<\0?', 'utf-16-be'))

#: ``<?xml ... encoding="name"`` at the start of a document (bounded: it reads the first bytes).
_DECLARATION = re.compile(
    rb'<\?xml\s[^>]{0,1000}?encoding\s*=\s*["\']([A-Za-z][\w.-]{0,63})["\']')

#: Codecs that Python knows but that are transforms, not character sets.
_NOT_CHARSETS = ('idna', 'punycode', 'unicode-escape', 'raw-unicode-escape', 'undefined')

#: How a xacro element starts.
_XACRO_ELEMENT = b'<xacro:'


def _too_large(size: int) -> URDFError:
    return URDFError(f'document of {size} bytes is larger than the limit of '
                     f'{MAX_DOCUMENT_BYTES} bytes')


def _encoding(data: bytes) -> Tuple[str, str]:
    for signature, codec in _SIGNATURES:
        if data.startswith(signature):
            return codec, codec.upper()
    declared = _DECLARATION.match(data)
    if declared is None:
        return 'utf-8', 'UTF-8 (no encoding is declared)'
    name = declared.group(1).decode('ascii')
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        raise URDFError(f"the document declares the unknown encoding '{name}'") from None
    if codec in _NOT_CHARSETS:
        raise URDFError(f"the document declares '{name}', which is not a character set")
    return codec, name


def decode_document(document) -> Tuple[str, bytes]:
    """
    Return the document as text and as the UTF-8 bytes that expat reads.

    Bytes are decoded with the encoding their byte order mark or XML declaration names (UTF-8
    if neither does), a leading byte order mark dropped; text is taken as is. Either is
    refused when larger than :data:`MAX_DOCUMENT_BYTES`.

    :param document: the document, as str or as bytes (bytes, bytearray or memoryview).
    :return: ``(text, utf8_bytes)``.
    :raises URDFError: if the document is neither str nor bytes, is larger than the limit,
        declares an unknown encoding or one that is not a character set, does not decode in
        its encoding, or holds a lone surrogate.
    """
    if isinstance(document, str):
        text = document
        if len(text) > MAX_DOCUMENT_BYTES:
            raise _too_large(len(text))
    elif isinstance(document, (bytes, bytearray, memoryview)):
        size = memoryview(document).nbytes
        if size > MAX_DOCUMENT_BYTES:
            raise _too_large(size)
        data = bytes(document)
        codec, name = _encoding(data)
        try:
            text = data.decode(codec).removeprefix('\ufeff')
        except UnicodeDecodeError as exc:
            raise URDFError(f'the document is not valid {name}: byte '
                            f'0x{data[exc.start]:02x} at offset {exc.start} '
                            f'({exc.reason})') from None
        except (UnicodeError, LookupError) as exc:
            raise URDFError(f"the document cannot be decoded as '{name}': "
                            f'{excerpt(str(exc))}') from None
    else:
        raise URDFError('a URDF document must be str or bytes, got '
                        f'{type(document).__name__}')
    try:
        encoded = text.encode('utf-8')
    except UnicodeEncodeError as exc:
        raise URDFError(f'the document holds a lone surrogate U+{ord(text[exc.start]):04X} '
                        f'at character {exc.start}, which is not text') from None
    if isinstance(document, str) and len(encoded) > MAX_DOCUMENT_BYTES:
        raise _too_large(len(encoded))
    return text, encoded


def read_urdf_bytes(path: Union[str, os.PathLike], wait: Optional[float] = None) -> bytes:
    """
    Read a URDF file's bytes once, at most :data:`MAX_DOCUMENT_BYTES` of them.

    A regular file, a device or a pipe (``/dev/stdin``, a shell's ``<(command)``) is read in
    chunks and refused as soon as it passes the limit, so an endless device costs no more
    memory than the limit. A FIFO of the file system is opened without waiting for a writer;
    if no data comes within ``wait`` seconds it is refused.

    :param path: path of the file (str, bytes or os.PathLike).
    :param wait: seconds a FIFO may stay without data (default
        :data:`~frame_kinematics.core.file_input.FIFO_WAIT_SECONDS`).
    :return: the bytes.
    :raises URDFError: naming the path, if it is not a path, cannot be read, is larger than
        the limit, or is a FIFO nobody writes to.
    """
    return read_bounded(path, MAX_DOCUMENT_BYTES, URDFError, 'a URDF path', wait)


def read_urdf_file(path: Union[str, os.PathLike], wait: Optional[float] = None) -> str:
    """
    Read a URDF file once (see :func:`read_urdf_bytes`) and decode it.

    The text is decoded as :func:`load_urdf` decodes bytes.

    :param path: path of the file (str, bytes or os.PathLike).
    :param wait: seconds a FIFO may stay without data (default
        :data:`~frame_kinematics.core.file_input.FIFO_WAIT_SECONDS`).
    :return: the document as a str.
    :raises URDFError: naming the path, if it is not a path, cannot be read, is larger than
        the limit, is a FIFO nobody writes to, or does not decode.
    """
    name = as_path(path, 'a URDF path', URDFError)  # once: a user's __fspath__ is called once
    data = read_urdf_bytes(name, wait)
    try:
        return decode_document(data)[0]
    except URDFError as exc:
        raise URDFError(str(exc), f"file '{os.fsdecode(name)}'") from None


def uses_xacro(data: bytes) -> bool:
    """
    Whether a document has xacro elements (``<xacro:...``) outside comments.

    The scan is linear in the document's size, whatever its comments.

    :param data: the document's bytes.
    :return: whether it needs xacro to become a URDF.
    """
    position = 0
    while True:
        element = data.find(_XACRO_ELEMENT, position)
        if element < 0:
            return False
        comment = data.find(b'<!--', position, element)
        if comment < 0:
            return True
        end = data.find(b'-->', comment + 4)
        if end < 0:
            return False
        position = end + 3
