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
Where the compiled kernels come from: the disk cache, or the compiler, once per process.

Every kernel is compiled lazily, on its first call, except the checked ones, which take the
caller's configuration: :func:`prepare` compiles (or loads) those for their one signature
(:func:`~.tables.checked_signature`) when the first numba model of a process is built, and
stops their compilation, so that no later call with another kind of array compiles while a
robot runs. Before any of them is compiled, every kernel gets its disk cache
(:mod:`.cache`).
"""

import logging
from typing import Callable, Iterator, Optional, Tuple

from numba import types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher

from . import cache, com, ik, ik_one, integrate, jacobian, lm, poses, runtime, tables, tf, \
    transforms, twists
from .tables import checked_signature, MATRIX, POSES, TABLE, VECTOR

_LOG = logging.getLogger('frame_kinematics.core')

#: The modules that hold kernels.
_MODULES = (com, ik, ik_one, integrate, jacobian, lm, poses, runtime, tables, tf, transforms,
            twists)


def _checked() -> Tuple[Tuple[Dispatcher, types.Type], ...]:
    """Return every checked kernel with its one signature."""
    return (
        (poses.pose_checked, checked_signature(
            lambda q: types.boolean(TABLE, q, types.int64, MATRIX))),
        (poses.poses_checked, checked_signature(
            lambda q: types.boolean(TABLE, q, VECTOR, POSES))),
        (jacobian.jacobian_checked, checked_signature(
            lambda q: types.boolean(TABLE, q, types.int64, VECTOR, types.int64, MATRIX))),
    )


def entry_point(kernel: Dispatcher) -> Callable[..., bool]:
    """
    Return a checked kernel's compiled function for its one signature, past numba's dispatch.

    numba's dispatch finds every argument's type again at each call, a sixth of a single
    configuration's FK kernel. The checked face (:class:`~frame_kinematics.core.accel.
    Accelerator`) checks every argument in Python before it calls a kernel, so it calls this
    function instead: it types nothing, and takes only arguments of the signature's types.

    :param kernel: a checked kernel (:func:`~.tables.checked_signature`), after
        :func:`prepare`.
    :return: the compiled function, called with the kernel's arguments.
    """
    signature = next(signature for checked, signature in _checked() if checked is kernel)
    return kernel.overloads[signature.args].entry_point


def dispatchers() -> Iterator[Dispatcher]:
    """Yield every kernel of the compiled backend (each numba dispatcher once)."""
    seen = set()
    for module in _MODULES:
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and id(value) not in seen:
                seen.add(id(value))
                yield value


def prepared() -> bool:
    """Whether :func:`prepare` has run in this process."""
    return all(not kernel._can_compile for kernel, _ in _checked())


def prepare(directory: Optional[str], notice: Callable[[str], None] = _LOG.warning) -> None:
    """
    Give every kernel its disk cache, then compile (or load) the checked kernels.

    Does nothing when it has run before in this process.

    :param directory: the cache directory
        (:func:`~frame_kinematics.core.backend.cache_directory`), or None for no disk cache.
    :param notice: what says, once, that kernels are compiled in memory, or that they are
        compiled now because the cache does not hold them yet.

    Threads may build their first numba models at once: the preparation holds numba's own
    compiler lock, so one of them prepares and the others find it done. Once it is done, the
    lock is not taken (a model is not built after another thread's compilation of anything).
    """
    if prepared():
        return
    with global_compiler_lock:
        _prepare(directory, notice)


def _prepare(directory: Optional[str], notice: Callable[[str], None]) -> None:
    if prepared():
        return
    if directory is not None and not cache.writable(directory):
        notice(f"the kernel cache directory '{directory}' cannot be written: the compiled "
               'kernels are compiled in memory, by every process')
        directory = None
    elif directory is not None and not cache.supported():
        notice('this numba has no caching classes frame_kinematics knows: the compiled kernels '
               'are compiled in memory, by every process')
        directory = None
    if directory is not None and not cached(directory):
        notice(f'compiling the numba kernels, once (kernel cache {directory}): later processes '
               'load them')
    cache.attach(dispatchers(), directory)
    for kernel, signature in _checked():
        kernel.compile(signature)
        kernel.disable_compile()


def cached(directory: str, node: bool = False) -> bool:
    """
    Whether ``directory`` holds the kernels of these sources a model needs first.

    :param directory: the cache directory.
    :param node: also those of a node: the ``/tf`` kernel and the solvers'.
    :return: whether every one of them is cached there (:func:`.cache.cached`).
    """
    needed = [kernel for kernel, _ in _checked()]
    if node:
        needed += [tf.transforms, ik.solve_serial, ik.solve_parallel, ik_one.solve_full]
    return all(cache.cached(directory, kernel) for kernel in needed)
