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
What compiled solves need from the system: a monotonic clock and a random generator.

* :func:`monotonic`: ``clock_gettime`` read from compiled code, so that a
  solve checks its deadline at every iteration without returning to Python. The clock id is
  the caller's (``time.CLOCK_MONOTONIC``, the clock of ``time.perf_counter`` on Linux).
* :func:`address` and :func:`int_address`: a pointer into an array.
* :func:`borrowed`: an array passed to another compiled function without its reference count.
* :func:`uniform`: splitmix64 on a one-word state owned by the solve, seeded from the
  caller's ``numpy.random.Generator``: reproducible and free of shared state (numba's own
  ``np.random`` keeps one state per thread).
"""

import numba
from numba import types
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array
import numpy as np

_clock_gettime = types.ExternalFunction(
    'clock_gettime', types.intc(types.intc, types.CPointer(types.int64)))


@intrinsic
def address(typingctx, array, index):
    """
    Return the address of ``array.flat[index]`` of a C-contiguous array, a ``CPointer``.

    For C functions that write into an array, and for ``numba.carray`` views of a packed
    table (:mod:`.tables`), which unlike a reshaped slice cost no reference count.
    """
    signature = types.CPointer(array.dtype)(array, index)

    def codegen(context, builder, sig, args):
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        return builder.gep(data, [args[1]])

    return signature, codegen


@intrinsic
def int_address(typingctx, array, index):
    """Return :func:`address` as a pointer to int64 (a table's integers, :mod:`.tables`)."""
    signature = types.CPointer(types.int64)(array, index)

    def codegen(context, builder, sig, args):
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        pointer = builder.gep(data, [args[1]])
        return builder.bitcast(pointer, context.get_value_type(sig.return_type))

    return signature, codegen


@intrinsic
def borrowed(typingctx, array):
    """
    Return ``array`` without its reference count: the same memory, shape and strides.

    numba counts the references to an array passed to another compiled function, with atomic
    operations, when the call starts and when it ends: in the pose loop (:mod:`.poses`) they
    cost a tenth of a single configuration's time. A borrowed array is not counted; it is
    valid while the caller holds ``array``, so a caller passes it down to a function that
    keeps and returns no array, and never returns or stores it itself.
    """
    if not isinstance(array, types.Array):
        return None
    signature = array(array)

    def codegen(context, builder, sig, args):
        source = context.make_array(sig.args[0])(context, builder, args[0])
        view = context.make_array(sig.return_type)(context, builder)
        populate_array(view, data=source.data, shape=source.shape, strides=source.strides,
                       itemsize=source.itemsize, meminfo=None)
        return view._getvalue()

    return signature, codegen


@numba.njit
def monotonic(clock_id, scratch):
    """Seconds of clock ``clock_id``; ``scratch`` is an int64 array of 2 (a ``timespec``)."""
    _clock_gettime(clock_id, address(scratch, 0))
    return scratch[0] + scratch[1] * 1e-9


@numba.njit
def uniform(state):
    """Draw a float in ``[0, 1)`` from the uint64 generator state ``state[0]`` (advanced)."""
    z = state[0] + np.uint64(0x9E3779B97F4A7C15)
    state[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)
