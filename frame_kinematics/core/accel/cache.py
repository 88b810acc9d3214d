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
The compiled kernels' disk cache, keyed on exactly what each kernel depends on.

numba's own ``cache=True`` checks a cached kernel against its source file's time stamp and
its own bytecode only: the functions it inlines from other modules and the constants it
reads (a table layout, a type code) are not part of the key, and the directory depends on
environment variables read when numba is first imported and on where the package is
installed. Here every kernel gets a cache of its own (:func:`attach`):

* its key, :func:`kernel_digest`, hashes the kernel's bytecode and compile options, those
  of every compiled function it calls (transitively) and the value of every constant they
  read;
* its files live in one directory (:func:`~frame_kinematics.core.backend.cache_directory`)
  under names that carry that digest: another install of the same sources (a second colcon
  workspace, a virtual environment) loads what one compiled, and no edit can load a stale
  kernel, whatever was imported first;
* where that directory cannot be written, kernels are compiled in memory (the caller says
  so once).

numba's caching classes are not a public API: :func:`supported` says whether this numba
has the pieces used here, and kernels are compiled in memory when it does not.
"""

import hashlib
import os
import sys
import tempfile
import types
from typing import Iterable, Optional

from numba.core import caching
from numba.core.dispatcher import Dispatcher
import numpy as np

#: numba's attributes this module relies on.
_NEEDED = (hasattr(caching, 'FunctionCache') and hasattr(caching, 'CompileResultCacheImpl')
           and hasattr(caching, '_CacheLocator'))


def supported() -> bool:
    """Whether this numba has the caching classes :func:`attach` builds on."""
    return _NEEDED


def _constant(value) -> Optional[bytes]:
    """Return the bytes a kernel's global contributes to its digest (None: not a constant)."""
    if isinstance(value, (bool, int, float, complex, str, bytes, type(None))):
        return repr((type(value).__name__, value)).encode()
    if isinstance(value, np.ndarray):
        return repr((value.dtype.str, value.shape)).encode() + value.tobytes()
    if isinstance(value, np.generic):
        return repr((value.dtype.str, value.item())).encode()
    if isinstance(value, tuple):
        parts = [_constant(item) for item in value]
        if all(part is not None for part in parts):
            return b'(' + b','.join(parts) + b')'
    return None


def _code_objects(code: types.CodeType) -> Iterable[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _follow(digest, pending: list, name: str, value) -> None:
    """Add a global a kernel reads to ``digest``, or queue it when it is compiled code."""
    constant = _constant(value)
    if constant is not None:
        digest.update(name.encode() + b'=' + constant)
    elif isinstance(value, Dispatcher) or hasattr(value, '_defn'):
        pending.append(value)


def kernel_digest(function) -> str:
    """
    Hash what a compiled function depends on: 16 hexadecimal digits.

    The bytecode, constants and compile options (``inline``, ``error_model``, ...) of the
    function, and for every global name it reads (or attribute of a module it reads): the
    value of a constant (number, string, array, tuple of them), or, for another compiled
    function or an intrinsic, the same hash of it, transitively.

    :param function: a numba dispatcher (or intrinsic, or plain Python function).
    :return: the digest; the same for the same code and constants, in any process.
    """
    digest = hashlib.sha256()
    seen = set()
    pending = [function]
    while pending:
        item = pending.pop()
        py_func = getattr(item, 'py_func', None) or getattr(item, '_defn', None) or item
        code = getattr(py_func, '__code__', None)
        if code is None or id(code) in seen:
            continue
        seen.add(id(code))
        digest.update(repr(sorted(getattr(item, 'targetoptions', {}).items())).encode())
        scope = getattr(py_func, '__globals__', {})
        for part in _code_objects(code):
            digest.update(part.co_code)
            digest.update(repr([c for c in part.co_consts
                                if not isinstance(c, types.CodeType)]).encode())
            digest.update(repr(part.co_names).encode())
            for name in part.co_names:
                value = scope.get(name)
                if isinstance(value, types.ModuleType):  # module.attribute: the attributes
                    for attribute in part.co_names:
                        _follow(digest, pending, f'{name}.{attribute}',
                                getattr(value, attribute, None))
                else:
                    _follow(digest, pending, name, value)
        for cell in py_func.__closure__ or ():
            constant = _constant(cell.cell_contents)
            digest.update(b'?' if constant is None else constant)
    return digest.hexdigest()[:16]


def writable(directory: str) -> bool:
    """
    Whether kernels can be cached in ``directory`` (created if missing).

    :param directory: the cache directory.
    :return: True when a file can be created there.
    """
    try:
        os.makedirs(directory, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()  # a name of its own: threads may probe
    except OSError:
        return False
    return True


def _cache_class(directory: str, digest: str):
    """Return a numba ``FunctionCache`` class: files in ``directory``, keyed on ``digest``."""

    class Locator(caching._CacheLocator):

        def __init__(self, py_func, py_file) -> None:
            self._py_file = py_file

        def ensure_cache_path(self) -> None:
            os.makedirs(directory, exist_ok=True)

        def get_cache_path(self) -> str:
            return directory

        def get_source_stamp(self) -> str:
            return digest

        def get_disambiguator(self) -> str:
            return digest

        @classmethod
        def from_function(cls, py_func, py_file):
            return cls(py_func, py_file)

    class Impl(caching.CompileResultCacheImpl):
        _locator_classes = [Locator]

    class KernelCache(caching.FunctionCache):
        _impl_class = Impl

        def load_overload(self, sig, target_context):
            try:
                return super().load_overload(sig, target_context)
            except Exception:  # a damaged file (cut short, written by another numba): a miss
                return None    # numba compiles the kernel again and writes it anew

    return KernelCache


def attach(dispatchers: Iterable[Dispatcher], directory: Optional[str]) -> None:
    """
    Give each dispatcher a disk cache in ``directory`` before its first compilation.

    Dispatchers that already have an overload or a cache of this module keep theirs.

    :param dispatchers: numba dispatchers (compiled lazily, no ``cache=True``).
    :param directory: a writable directory, or None to compile in memory.
    """
    if directory is None or not supported():
        return
    for dispatcher in dispatchers:
        if dispatcher.overloads or isinstance(dispatcher._cache, caching.FunctionCache):
            continue
        dispatcher._cache = _cache_class(directory, kernel_digest(dispatcher))(
            dispatcher.py_func)


def cached(directory: str, dispatcher: Dispatcher) -> bool:
    """
    Whether ``directory`` holds an index of ``dispatcher`` for its current digest.

    :param directory: the cache directory.
    :param dispatcher: a kernel.
    :return: whether the index file (``.nbi``) of the kernel's digest exists there.
    """
    py_func = dispatcher.py_func
    module = os.path.splitext(os.path.basename(py_func.__code__.co_filename))[0]
    name = (f'{module}.{py_func.__qualname__}-{kernel_digest(dispatcher)}'
            f'.py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, "abiflags", "")}.nbi')
    return os.path.exists(os.path.join(directory, name))
