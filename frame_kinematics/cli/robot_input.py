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
The robot a command works on: ``--urdf PATH``, ``--robot NAME`` or the bundled arm.

``--urdf`` is read once, with the core's size limit, whatever it is: a file, a pipe
(``--urdf <(xacro robot.urdf.xacro)``, ``/dev/stdin``) or a FIFO (refused when nobody writes
to it). A xacro document (a ``.xacro`` file, or bytes with ``<xacro:`` elements) is expanded
with the ``xacro`` package when it is installed (``pip install xacro``), in a child process
stopped after :data:`XACRO_TIMEOUT_SECONDS`, to a URDF as large as a URDF document may be; its
``$(find pkg)`` needs ROS 2's ament index.
"""

import importlib.util
import os
import subprocess
import sys
from typing import Optional

from .common import CommandLineError
from .. import robots
from ..core.backend import resolve
from ..core.errors import URDFError
from ..core.robot import Robot
from ..core.urdf_source import (decode_document, MAX_DOCUMENT_BYTES, read_urdf_bytes,
                                uses_xacro)
from ..picture_canvas import MissingDependencyError

#: Seconds xacro may take to expand a document.
XACRO_TIMEOUT_SECONDS = 60.0
#: Where the ``frame_kinematics`` package is, for the child process that runs xacro.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_model(urdf: Optional[str], robot: Optional[str], floating_base: bool,
               backend: str = 'numpy') -> Robot:
    """
    Load the robot of ``--urdf`` or ``--robot`` (default: the bundled arm).

    :param urdf: a URDF or xacro file, or ``None``.
    :param robot: a bundled robot name, or ``None``.
    :param floating_base: add a floating joint from a ``world`` link.
    :param backend: the kinematics backend, resolved (``'numpy'`` or ``'numba'``).
    :return: the model.
    :raises URDFError: for a file that cannot be read or a bad document, naming the file.
    :raises CommandLineError: for a xacro document that cannot be expanded.
    :raises MissingDependencyError: for a xacro document without the xacro package.
    """
    if urdf is None:
        return Robot.from_urdf_file(robots.path(robot or robots.DEFAULT_ROBOT),
                                    floating_base=floating_base, backend=backend)
    document = read_urdf_bytes(urdf)
    if urdf.lower().endswith('.xacro') or uses_xacro(document):
        document = expand_xacro(urdf, document)
    try:
        return Robot.from_urdf_string(document, floating_base=floating_base,
                                      backend=backend)
    except URDFError as exc:
        raise URDFError(f'{urdf}: {exc}') from None


def expand_xacro(path: str, document: bytes) -> str:
    """
    Expand a xacro document with the ``xacro`` package, in a child process.

    The child is stopped after :data:`XACRO_TIMEOUT_SECONDS`; a URDF larger than the URDF
    documents read is refused.

    :param path: the file it was read from (includes are found relative to it).
    :param document: its bytes.
    :return: the URDF text.
    :raises MissingDependencyError: without the xacro package.
    :raises CommandLineError: for a document xacro refuses, a package it cannot find, an
        expansion that takes too long or gives too large a URDF.
    :raises URDFError: for bytes that do not decode.
    """
    if importlib.util.find_spec('xacro') is None:
        raise MissingDependencyError('xacro', f'{path} is a xacro document: expanding it')
    try:
        text = decode_document(document)[0]
    except URDFError as exc:
        raise URDFError(str(exc), f"file '{path}'") from None
    paths = [_ROOT] + [p for p in [os.environ.get('PYTHONPATH')] if p]
    try:
        child = subprocess.run(
            [sys.executable, '-m', 'frame_kinematics.cli.xacro_process', path,
             str(MAX_DOCUMENT_BYTES)], input=text.encode('utf-8'), stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, timeout=XACRO_TIMEOUT_SECONDS, check=False,
            env=dict(os.environ, PYTHONPATH=os.pathsep.join(paths), OPENBLAS_NUM_THREADS='1'))
    except subprocess.TimeoutExpired:
        raise CommandLineError(f'{path}: xacro did not expand it within '
                               f'{XACRO_TIMEOUT_SECONDS:g} s (an expression or include that '
                               'does not end?)') from None
    except OSError as exc:
        raise CommandLineError(f'{path}: cannot run xacro: {exc.strerror or exc}') from None
    status, _, body = child.stdout.partition(b'\n')
    if status == b'ok':
        return body.decode('utf-8')
    if status == b'error':
        raise CommandLineError(body.decode('utf-8', 'replace'))
    raise CommandLineError(f'{path}: xacro stopped without a result (exit status '
                           f'{child.returncode})')


def model_of(args) -> Robot:
    """
    Load the model a command's options (``--urdf``, ``--robot``, ``--floating-base``) name.

    Its backend is ``--backend``, else the environment's, else numpy: a single query
    answers sooner than the compiled kernels load; a batch of targets (``ik --targets``,
    ``reach``) takes numba when it is installed.

    :param args: the parsed command line.
    :return: the model.
    :raises BackendError: for numba asked for and not usable.
    """
    batch = getattr(args, 'targets', None) is not None or getattr(args, 'batch_work', False)
    backend = resolve(args.backend, default='auto' if batch else 'numpy')
    return load_model(args.urdf, args.robot, args.floating_base, backend)
