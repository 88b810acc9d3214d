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
with the ``xacro`` package when it is installed (``pip install xacro``); its ``$(find pkg)``
needs ROS 2's ament index.
"""

import os
import re
from typing import Optional

from .common import CommandLineError
from .. import robots
from ..core.backend import resolve
from ..core.errors import URDFError
from ..core.robot import Robot
from ..core.urdf_source import decode_document, read_urdf_bytes, uses_xacro

#: Longest part of xacro's own message kept in an error.
_REASON_LENGTH = 300
#: ``$(find package)`` in a xacro document.
_FIND = re.compile(r'\$\(find\s+([^\s)]+)\s*\)')


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


def _find_failure(path: str, text: str, exc: Exception) -> str:
    """Explain a ``$(find pkg)`` that xacro could not resolve, naming the package."""
    named = re.search(r"package '([^']+)'", str(exc)) or _FIND.search(text)
    package = named.group(1) if named else 'a package'
    if 'ament_index_python' in str(exc):
        return (f"{path}: xacro cannot resolve $(find {package}): ROS 2's ament index is not "
                f'available (source the ROS 2 workspace that installs {package}, then run '
                'the command again)')
    return (f"{path}: xacro cannot resolve $(find {package}): the package '{package}' is not "
            'installed in the sourced ROS 2 workspaces (AMENT_PREFIX_PATH)')


def expand_xacro(path: str, document: bytes) -> str:
    """
    Expand a xacro document with the ``xacro`` package.

    :param path: the file it was read from (includes are found relative to it).
    :param document: its bytes.
    :return: the URDF text.
    :raises MissingDependencyError: without the xacro package.
    :raises CommandLineError: for a document xacro refuses or a package it cannot find.
    :raises URDFError: for bytes that do not decode.
    """
    try:
        import xacro
    except ImportError:
        from ..render import MissingDependencyError
        raise MissingDependencyError('xacro', f'{path} is a xacro document: expanding it'
                                     ) from None
    try:
        text = decode_document(document)[0]
    except URDFError as exc:
        raise URDFError(str(exc), f"file '{path}'") from None
    try:
        xacro.init_stacks(os.path.abspath(path))
        tree = xacro.parse(text)
        xacro.process_doc(tree)
        return tree.toxml()
    except Exception as exc:  # noqa: B902 (xacro evaluates the document's Python expressions)
        if '$(find' in text and ('ament_index' in str(exc) or
                                 type(exc).__name__ == 'PackageNotFoundError' or
                                 'PackageNotFoundError' in repr(getattr(exc, 'exc', None))):
            raise CommandLineError(_find_failure(path, text, exc)) from None
        reason = ' '.join(str(exc).split())[:_REASON_LENGTH] or type(exc).__name__
        raise CommandLineError(f'{path}: xacro cannot expand it: {reason}') from None


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
