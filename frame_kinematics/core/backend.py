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
Which backend evaluates the kinematics: ``numpy`` (the reference) or ``numba`` (compiled).

The choice is made when a model is built and kept on it
(:attr:`RobotModel.backend <frame_kinematics.core.model.RobotModel.backend>`): the argument
``backend=`` of :meth:`RobotModel.from_urdf_string` / ``from_urdf_file`` if given, else the
environment variable :data:`ENVIRONMENT_VARIABLE` (``numpy`` or ``numba``), else ``numba``
when it can be imported (``pip install frame_kinematics[fast]``) and ``numpy`` otherwise.
Nothing here is module state: every call looks at its argument and the environment again.

Compiled kernels are cached on disk. Unless ``NUMBA_CACHE_DIR`` is already set, it is set to
a directory of the user's (:func:`default_cache_directory`) before numba is imported, so the
cache works when the package is installed read-only (system packages, containers). Unless
``NUMBA_THREADING_LAYER`` is set, it is set to ``threadsafe``: threaded kernels then run on a
layer that several Python threads may call at once (OpenMP or TBB), or, when neither is
installed, on one thread (numba's own ``workqueue`` layer aborts the process on concurrent
calls).
"""

import hashlib
import importlib
import os
from typing import Mapping, Optional

from .errors import BackendError, excerpt

#: The backends, reference first.
BACKENDS = ('numpy', 'numba')
#: Environment variable that selects the backend when no argument does.
ENVIRONMENT_VARIABLE = 'FRAME_KINEMATICS_BACKEND'
#: Value of the argument (or the variable) that picks numba when importable.
AUTO = 'auto'


def default_cache_directory(environ: Optional[Mapping[str, str]] = None) -> str:
    """
    Directory of the compiled-kernel cache when ``NUMBA_CACHE_DIR`` is not set.

    The last component is :func:`sources_digest`: numba checks a cached kernel against its
    own file only, not against the functions and constants it inlined from other modules, so
    kernels compiled from other sources of the core are never loaded.

    :param environ: the environment (default ``os.environ``).
    :return: ``$XDG_CACHE_HOME/frame_kinematics/numba/<digest>``, by default
        ``~/.cache/frame_kinematics/numba/<digest>``.
    """
    env = os.environ if environ is None else environ
    base = env.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'frame_kinematics', 'numba', sources_digest())


def sources_digest() -> str:
    """
    Return 16 hexadecimal digits of a SHA-256 of the core's Python sources (what kernels read).

    :return: the digest, the same for the same sources.
    """
    root = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(f for f in files if f.endswith('.py')):
            path = os.path.join(folder, name)
            digest.update(os.path.relpath(path, root).encode())
            with open(path, 'rb') as handle:
                digest.update(handle.read())
    return digest.hexdigest()[:16]


def numba_error() -> Optional[str]:
    """
    Import numba (first setting its cache directory and threading layer) and say why not.

    :return: None when numba imports, else the reason it does not.
    """
    if 'NUMBA_CACHE_DIR' not in os.environ:  # the digest reads the sources: only when needed
        os.environ['NUMBA_CACHE_DIR'] = default_cache_directory()
    os.environ.setdefault('NUMBA_THREADING_LAYER', 'threadsafe')
    try:
        importlib.import_module('numba')
    except ImportError as error:
        return f'numba is not importable ({excerpt(str(error))})'
    return None


def resolve(requested: Optional[str] = None) -> str:
    """
    Return the backend to use: ``'numpy'`` or ``'numba'``.

    :param requested: ``'numpy'``, ``'numba'``, ``'auto'`` or None (then the environment
        variable decides, and ``auto`` when it is unset or empty).
    :return: the backend's name.
    :raises BackendError: for an unknown name, or ``numba`` asked for and not importable.
    """
    source = 'backend'
    if requested is None:
        requested = os.environ.get(ENVIRONMENT_VARIABLE, '') or AUTO
        source = ENVIRONMENT_VARIABLE
    if not isinstance(requested, str):
        raise BackendError(f'{source} must be a string, got {type(requested).__name__}')
    name = requested.strip().lower()
    if name not in BACKENDS + (AUTO,):
        raise BackendError(f"unknown {source} '{excerpt(requested)}' (expected one of "
                           f"{', '.join(BACKENDS + (AUTO,))})")
    if name == 'numpy':
        return name
    reason = numba_error()
    if reason is None:
        return 'numba'
    if name == 'numba':
        raise BackendError(f'{source} numba asked for, but {reason}: pip install '
                           "'frame_kinematics[fast]'")
    return 'numpy'


def first_compile_note(requested: Optional[str] = None) -> Optional[str]:
    """
    Say so when building a model is about to compile the kernels (numba, empty cache).

    For a log line or a message before the first model of a process is built: the first
    compilation takes tens of seconds, later processes load the cached kernels.

    :param requested: as :func:`resolve` (None: the environment decides).
    :return: the note, or None when the backend is numpy, the cache already holds kernels, or
        the backend cannot be resolved (building the model then says why).
    """
    try:
        if resolve(requested) != 'numba':
            return None
    except BackendError:
        return None
    cache = os.environ.get('NUMBA_CACHE_DIR') or default_cache_directory()
    for _, _, files in os.walk(cache):
        if any(name.endswith('.nbi') for name in files):
            return None
    return ('compiling the numba kernels, once: this first start takes about a minute (kernel '
            f'cache {cache})')


def describe(backend: str) -> str:
    """
    Name a backend and its version in a few words, for logs and ``frame-kinematics info``.

    :param backend: ``'numpy'`` or ``'numba'``.
    :return: e.g. ``numba 0.68.1 (kernel cache ~/.cache/frame_kinematics/numba/<digest>)`` or
        ``numpy 2.4.6``.
    """
    if backend == 'numba':
        numba = importlib.import_module('numba')
        cache = os.environ.get('NUMBA_CACHE_DIR') or default_cache_directory()
        return f'numba {numba.__version__} (kernel cache {cache})'
    numpy = importlib.import_module('numpy')
    return f'numpy {numpy.__version__}'
