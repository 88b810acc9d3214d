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

The model (:class:`~frame_kinematics.core.model.RobotModel`) is data and has no backend; the
choice is made per :class:`~frame_kinematics.core.robot.Robot` (a model with its backend,
:attr:`Robot.backend <frame_kinematics.core.robot.Robot.backend>`) or per state and
workspace (their argument ``backend=``), and :func:`executor` hands out what evaluates it.
A name is resolved by :func:`resolve`: ``numpy`` or ``numba`` as asked, else the environment
variable :data:`ENVIRONMENT_VARIABLE` (``numpy`` or ``numba``), else ``numba`` when it can be
used (``pip install '.[fast]'`` on a platform with a POSIX monotonic clock) and ``numpy``
otherwise.

This module is the one place that reads the environment for the backends; it writes none.
Nothing here is module state: every call looks at its argument and the environment again.
The compiled kernels are cached on disk in :func:`cache_directory`, keyed on what each kernel
depends on (:mod:`frame_kinematics.core.accel.cache`): the same directory serves every install
of the same sources, and a directory that cannot be written means kernels compiled in memory.
"""

import importlib
import logging
import os
import time
from typing import Mapping, Optional, TYPE_CHECKING, Union

from .errors import BackendError, excerpt
from .executor import Executor
from .model import require_model

if TYPE_CHECKING:  # pragma: no cover
    from .accel import Accelerator
    from .model import RobotModel

#: The backends, reference first.
BACKENDS = ('numpy', 'numba')
#: Environment variable that selects the backend when no argument does.
ENVIRONMENT_VARIABLE = 'FRAME_KINEMATICS_BACKEND'
#: Environment variable that sets the compiled kernels' cache directory.
CACHE_VARIABLE = 'FRAME_KINEMATICS_CACHE_DIR'
#: Value of the argument (or the variable) that picks numba when it can be used.
AUTO = 'auto'

_LOG = logging.getLogger('frame_kinematics.core')


def cache_directory(environ: Optional[Mapping[str, str]] = None) -> str:
    """
    Directory of the compiled kernels' disk cache.

    :param environ: the environment (default ``os.environ``).
    :return: :data:`CACHE_VARIABLE` when set, else ``$XDG_CACHE_HOME/frame_kinematics/numba``,
        by default ``~/.cache/frame_kinematics/numba``.
    """
    env = os.environ if environ is None else environ
    if env.get(CACHE_VARIABLE):
        return env[CACHE_VARIABLE]
    base = env.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'frame_kinematics', 'numba')


def numba_error() -> Optional[str]:
    """
    Say why the numba backend cannot be used here, if it cannot.

    It needs numba and the POSIX monotonic clock (``time.clock_gettime`` and
    ``time.CLOCK_MONOTONIC``), which compiled solves read for their time budget.

    :return: None when it can be used, else the reason.
    """
    if not (hasattr(time, 'clock_gettime') and hasattr(time, 'CLOCK_MONOTONIC')):
        return 'this platform has no POSIX monotonic clock (time.clock_gettime)'
    try:
        importlib.import_module('numba')
    except ImportError as error:
        return f'numba is not importable ({excerpt(str(error))})'
    return None


def resolve(requested: Optional[str] = None, default: str = AUTO) -> str:
    """
    Return the backend to use: ``'numpy'`` or ``'numba'``.

    ``auto`` falls back to numpy with a one-line notice (logger ``frame_kinematics.core``)
    when numba is installed but cannot be used on this platform.

    :param requested: ``'numpy'``, ``'numba'``, ``'auto'`` or None (then the environment
        variable decides, and ``default`` when it is unset or empty).
    :param default: what None means without the environment variable.
    :return: the backend's name.
    :raises BackendError: for an unknown name, or ``numba`` asked for and not usable.
    """
    source = 'backend'
    if requested is None:
        requested = os.environ.get(ENVIRONMENT_VARIABLE, '') or default
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
        raise BackendError(f"{source} numba asked for, but {reason}: pip install '.[fast]' "
                           'on a platform with a POSIX monotonic clock')
    if not reason.startswith('numba is not importable'):
        _LOG.warning(f'kinematics on numpy: {reason}')
    return 'numpy'


def compiled_cache(directory: str, node: bool = False) -> Optional[bool]:
    """
    Say what the compiled backend's kernel cache holds (numba is imported).

    :param directory: the cache directory (:func:`cache_directory`).
    :param node: whether a node's kernels count too: the ``/tf`` kernel and the solvers'.
    :return: None when no kernel can be cached there, else whether every kernel a model (or
        a node) needs first is cached for these sources.
    """
    from .accel import cache, kernels
    if not cache.writable(directory):
        return None
    return kernels.cached(directory, node=node)


def bind(model: 'RobotModel', backend: str) -> Optional['Accelerator']:
    """
    Bind a backend to a model: its compiled face for numba, nothing for numpy.

    Every call binds anew; :func:`executor` reuses a
    :class:`~frame_kinematics.core.robot.Robot`'s own.

    The backend reads the model's public tables only (kernel, topology, layout, masses).

    :param model: the model (built up to its tables).
    :param backend: ``'numpy'`` or ``'numba'`` (resolved).
    :return: the :class:`~frame_kinematics.core.accel.Accelerator`, or None for numpy.
    """
    if backend != 'numba':
        return None
    from .accel import Accelerator
    return Accelerator(model, cache_directory())


def executor(model: 'RobotModel', backend: Union[None, str, Executor] = None
             ) -> Optional['Accelerator']:
    """
    Return what evaluates ``model``'s kinematics: the compiled face for numba, None for numpy.

    :param model: the robot model (a :class:`~frame_kinematics.core.robot.Robot` or plain
        data).
    :param backend: None: the model's own executor when it is a
        :class:`~frame_kinematics.core.robot.Robot`, else the process default
        (:func:`resolve` of None); a name (``'numpy'``, ``'numba'``, ``'auto'``): that backend,
        the Robot's own executor when it is the Robot's backend; or an executor this function
        handed out for the same model data (a state's :attr:`executor`), kept as it is.
    :return: the executor (None: numpy).
    :raises BackendError: for an unknown name, numba asked for and not usable, an executor
        bound to another model, or anything else.
    :raises ConfigurationError: for a ``model`` that is not a
        :class:`~frame_kinematics.core.model.RobotModel` (None, a URDF string, a state or a
        workspace, which carry their model's executor).
    """
    own = getattr(model, 'executor', model)  # a Robot's executor; a model is not one
    if own is model or getattr(own, '_model', None) is not model:  # but a numba Robot's own
        require_model(model)
    if backend is None:
        return bind(model, resolve(None)) if own is model else own
    if isinstance(backend, str):
        name = resolve(backend)
        if own is not model and name == model.backend:
            return own
        return bind(model, name)
    if isinstance(backend, Executor):
        if not backend.serves(model):
            raise BackendError(f'backend {type(backend).__name__} was bound to robot '
                               f"'{excerpt(backend._model.name)}', not to this model of "
                               f"'{excerpt(getattr(model, 'name', '?'))}'")
        return backend
    raise BackendError(f'backend must be None, a name ({", ".join(BACKENDS + (AUTO,))}) or '
                       f'an executor, got {type(backend).__name__}')


def name_of(chosen: Optional[Executor]) -> str:
    """
    Name the backend of an executor from :func:`executor`.

    :param chosen: the executor (None: numpy).
    :return: ``'numpy'`` or the executor's backend name.
    """
    return 'numpy' if chosen is None else chosen.name


def again(chosen: Optional[Executor]) -> Union[str, Executor]:
    """
    Return the ``backend=`` argument that gives an executor from :func:`executor` again.

    :param chosen: the executor (None: numpy).
    :return: the executor itself, or ``'numpy'`` for None (a None argument would mean the
        default, which may be another backend).
    """
    return 'numpy' if chosen is None else chosen


def describe(backend: str) -> str:
    """
    Name a backend and its version in a few words, for logs and ``frame-kinematics info``.

    :param backend: ``'numpy'`` or ``'numba'``.
    :return: e.g. ``numba 0.68.1 (kernel cache ~/.cache/frame_kinematics/numba)`` or
        ``numpy 2.4.6``.
    """
    if backend == 'numba':
        numba = importlib.import_module('numba')
        return f'numba {numba.__version__} (kernel cache {cache_directory()})'
    numpy = importlib.import_module('numpy')
    return f'numpy {numpy.__version__}'
