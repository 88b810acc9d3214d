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
Validation of numeric inputs: the one check every public entry point uses.

A checked array is always a new float array owned by the library: the caller's array is
never kept, frozen or written.
"""

import math
import os
import re
import sys
from typing import Callable, Iterable, Optional, Sequence, Tuple, Union

import numpy as np

from .errors import ConfigurationError, FrameKinematicsError, name_list, quote

#: Largest magnitude of every number the kinematics uses (URDF values, configurations,
#: velocities, points): lengths (m), angles (rad), joint
#: limits, mimic multipliers and offsets, masses (kg) and inertias (kg m^2). It admits the
#: +-1e16 limits that SDFormat conversions write for unlimited revolute joints, and it is small
#: enough that sums over a million links (1e22) and products of up to five such numbers (a
#: mimic's multiplier times its master's limit, a mass times a squared distance: < 1e100) stay
#: far from float overflow (1.8e308): poses, Jacobians and centres of mass of a model that
#: loads are finite for every configuration within its limits.
MAX_MAGNITUDE = 1e16
#: Arrays up to this size are checked with Python's min/max (faster for a few numbers).
_SMALL = 32


def as_float_array(x, name: str) -> np.ndarray:
    """
    Convert real numbers (bools, integers, floats) to a new float array.

    :param x: array-like.
    :param name: what it is called in error messages.
    :return: a new float array.
    :raises ConfigurationError: for complex numbers, strings, bytes, objects, ragged lists,
        masked arrays, an object whose conversion fails (its ``__array__``, ``__len__`` or
        ``__getitem__`` raising anything but ``KeyboardInterrupt`` or ``SystemExit``), or an
        array whose copy does not fit in memory.
    """
    if isinstance(x, (str, bytes, bytearray, memoryview)):
        raise ConfigurationError(f'{name} must be numbers, got {type(x).__name__}')
    # No masked array exists before numpy.ma is imported; while another thread imports it,
    # the module is in sys.modules without its classes yet.
    masked = getattr(sys.modules.get('numpy.ma'), 'MaskedArray', None)
    if masked is not None and isinstance(x, masked):
        raise ConfigurationError(f'{name} must not be a masked array (its masked entries '
                                 'would be read): pass x.filled(value) or a plain array')
    try:
        raw = np.asarray(x)
    except Exception:  # a user's __array__, __len__ or __getitem__ that fails, a ragged list
        raise ConfigurationError(f'{name} must be an array of numbers, got '
                                 f'{type(x).__name__} that does not convert to one') from None
    if raw.dtype.kind not in 'biuf':
        what = 'complex numbers' if raw.dtype.kind == 'c' else f'{raw.dtype.kind!r}-kind data'
        if raw.dtype.kind == 'O':
            what = 'objects that are not real numbers'
        raise ConfigurationError(f'{name} must be real numbers, got {what}')
    try:
        return np.array(raw, dtype=float)
    except MemoryError:  # a huge broadcast view, say: its copy does not fit
        raise ConfigurationError(f'{name} has {raw.size} numbers, whose copy needs '
                                 f'{8 * raw.size} bytes, more memory than is free: pass '
                                 'fewer at a time') from None


def plain_array(x) -> Optional[np.ndarray]:
    """
    Return an array as a plain ``numpy.ndarray`` of its memory, or None for anything else.

    A subclass may answer ``shape``, ``dtype`` or ``flags`` with properties that do not
    describe its memory, and compiled code reads and writes the memory: an array handed to
    compiled code is checked as this view, and this view is handed over.

    :param x: anything.
    :return: ``x`` itself for a plain array, a view for a subclass (what is written into it
        reaches ``x``), None for what is not an array (whatever its ``__class__`` says).
    """
    return np.asarray(x) if issubclass(type(x), np.ndarray) else None


def check_finite(arr: np.ndarray, name: str, entries: Optional[Sequence[str]] = None,
                 bound: float = MAX_MAGNITUDE) -> np.ndarray:
    """
    Refuse NaN, inf and magnitudes beyond ``bound``, naming the entries at fault.

    :param arr: a float array whose last axis has one entry per name.
    :param name: what it is called in error messages.
    :param entries: a name per entry of the last axis.
    :param bound: the largest accepted magnitude.
    :return: ``arr``.
    :raises ConfigurationError: for a bad entry.
    """
    if arr.size <= _SMALL:
        # Python's min/max of a few floats cost less than numpy's reductions; they are
        # trusted only when the sum shows no NaN.
        values = arr.ravel().tolist()
        if not values or (-bound <= min(values) and max(values) <= bound
                          and math.isfinite(sum(values))):
            return arr
    elif -bound <= arr.min() and arr.max() <= bound:
        return arr
    with np.errstate(invalid='ignore'):
        bad = ~(np.abs(arr) <= bound)
    if np.any(bad):
        columns = np.unique(np.nonzero(bad)[-1]) if arr.ndim else np.zeros(1, dtype=int)
        where = name_list([entries[i] for i in columns] if entries else columns.tolist())
        raise ConfigurationError(f'{name} has NaN or inf or a magnitude above {bound:g} for '
                                 f'{where if entries else "entries " + where}')
    return arr


def check_vector(x, size: int, name: str, entries: Optional[Sequence[str]] = None,
                 bound: float = MAX_MAGNITUDE) -> np.ndarray:
    """
    Validate a vector of ``size`` numbers, or a batch of them, and return a float copy.

    :param x: array-like of shape ``(size,)`` or ``(B, size)``.
    :param size: the number of entries of a vector.
    :param name: what it is called in error messages.
    :param entries: a name per entry, to say which entries are bad.
    :param bound: the largest accepted magnitude.
    :return: a new float array.
    :raises ConfigurationError: for a wrong type or shape, NaN, inf or a huge value.
    """
    return check_finite(as_vectors(x, size, name), name, entries, bound)


def as_vectors(x, size: int, name: str) -> np.ndarray:
    """
    Convert a vector of ``size`` real numbers, or a batch of them, to a new float array.

    :param x: array-like of shape ``(size,)`` or ``(B, size)``.
    :param size: the number of entries of a vector.
    :param name: what it is called in error messages.
    :return: a new float array (NaN and inf are left for the caller to judge).
    :raises ConfigurationError: for a wrong type or shape.
    """
    arr = as_float_array(x, name)
    if arr.ndim not in (1, 2) or arr.shape[-1] != size:
        raise ConfigurationError(f'{name} must have shape ({size},) or (B, {size}), got '
                                 f'{arr.shape}')
    return arr


def check_one_vector(x, size: int, name: str,
                     entries: Optional[Sequence[str]] = None) -> np.ndarray:
    """
    Validate one vector of exactly ``size`` real numbers (no batch).

    :param x: array-like of shape ``(size,)``.
    :param size: the number of entries.
    :param name: what it is called in error messages.
    :param entries: a name per entry, to say which entries are bad.
    :return: a new float array of shape ``(size,)``.
    :raises ConfigurationError: for a wrong type or shape, NaN, inf or a magnitude above
        :data:`MAX_MAGNITUDE`.
    """
    arr = as_float_array(x, name)
    if arr.shape != (size,):
        raise ConfigurationError(f'{name} must be {size} numbers, got shape {arr.shape}')
    return check_finite(arr, name, entries)


def check_point(point, name: str = 'point') -> np.ndarray:
    """
    Validate a 3D point or vector.

    :param point: three numbers.
    :param name: what it is called in error messages.
    :return: a new float array of shape ``(3,)``.
    :raises ConfigurationError: for anything else.
    """
    return check_one_vector(point, 3, name, ('x', 'y', 'z'))


#: A number written as text (an XML attribute, a command-line value): ASCII digits, no ``_``;
#: INF and NaN are read so that their callers can say they must be finite.
_NUMBER_TEXT = re.compile(r'[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?'
                          r'|inf(?:inity)?|nan)', re.IGNORECASE)


def parse_number(text: str) -> float:
    """
    Read one number written as text, as XML (and C's ``strtod``, without hexadecimal) write it.

    :param text: the text (white space around it is ignored).
    :return: the number (INF and NaN included: the caller decides on them).
    :raises ValueError: for anything else (``1_0``, digits of other scripts, ``0x1p3``),
        which Python's ``float`` would partly read.
    """
    text = text.strip(' \t\n\r')
    if _NUMBER_TEXT.fullmatch(text) is None:
        raise ValueError(text)
    return float(text)


#: A whole number written as text: ASCII digits only, no ``_``, an optional sign.
_WHOLE_TEXT = re.compile(r'[+-]?[0-9]+')


def parse_whole(text: str) -> int:
    """
    Read one whole number written as text, with ASCII digits only (as :func:`parse_number`).

    :param text: the text (white space around it is ignored, as :func:`parse_number` does).
    :return: the number.
    :raises ValueError: for anything else (``1_0``, ``1.0``, digits of other scripts, more
        digits than Python converts), which Python's ``int`` would partly read.
    """
    text = text.strip(' \t\n\r')
    if _WHOLE_TEXT.fullmatch(text) is None:
        raise ValueError(text)
    return int(text)


def number_within(value, low: float = -MAX_MAGNITUDE, high: float = MAX_MAGNITUDE,
                  strict_low: bool = False) -> Optional[float]:
    """
    Decide whether ``value`` is a real number within bounds: the one rule for every number.

    The core, the bridge's parameters and the command line's options all decide with it and
    raise their own error in their own words.

    :param value: anything: a real number (not a bool), or a string of one (a command-line
        option).
    :param low: smallest value accepted (default: minus :data:`MAX_MAGNITUDE`).
    :param high: largest value accepted (default :data:`MAX_MAGNITUDE`).
    :param strict_low: whether ``low`` itself is refused.
    :return: the value as a float, or None when it is not such a number (NaN, inf, out of
        bounds, another type).
    """
    if isinstance(value, str):
        try:
            number = parse_number(value)
        except ValueError:
            return None
    elif isinstance(value, (int, float, np.integer, np.floating)) and \
            not isinstance(value, (bool, np.bool_)):
        try:
            number = float(value)
        except OverflowError:
            return None
    else:
        return None
    above = number > low if strict_low else number >= low
    return number if math.isfinite(number) and above and number <= high else None


def check_number(value, rule: str, low: float = -MAX_MAGNITUDE,
                 high: float = MAX_MAGNITUDE, strict_low: bool = False) -> float:
    """
    Return a real number within bounds given to the core (:func:`number_within`, no string).

    :param value: anything.
    :param rule: what the value must be, the start of the message (``'radius must be a
        number >= 0'``).
    :param low: smallest value accepted (default: minus :data:`MAX_MAGNITUDE`).
    :param high: largest value accepted (default :data:`MAX_MAGNITUDE`).
    :param strict_low: whether ``low`` itself is refused (``'a number > 0'``).
    :return: the value as a float.
    :raises ConfigurationError: ``'<rule>, got <value>'`` for anything else.
    """
    number = None if isinstance(value, str) else number_within(value, low, high, strict_low)
    if number is None:
        raise ConfigurationError(f'{rule}, got {quote(value)}')
    return number


def check_count(value, name: str, minimum: int = 0, maximum: int = 10 ** 9) -> int:
    """
    Validate a whole number (a count, a number of iterations or restarts).

    :param value: an int, or a float with an integral value (``5.0``).
    :param name: what it is called in error messages.
    :param minimum: the smallest accepted value.
    :param maximum: the largest accepted value.
    :return: the int.
    :raises ConfigurationError: for anything else (bool, NaN, inf, fractions, out of range).
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                     np.floating)):
        raise ConfigurationError(f'{name} must be a whole number, got {type(value).__name__}')
    if isinstance(value, (int, np.integer)):
        number = int(value)
    elif math.isfinite(value) and value == math.floor(value):
        number = int(value)
    else:
        raise ConfigurationError(f'{name} must be a whole number, got {float(value)!r}')
    if not minimum <= number <= maximum:
        shown = str(number) if abs(number) < 10 ** 20 else \
            f"{'-' if number < 0 else ''}an integer of {number.bit_length()} bits"
        raise ConfigurationError(f'{name} must be between {minimum} and {maximum}, got {shown}')
    return number


def as_names(names: Iterable[str], rule: str) -> Tuple[str, ...]:
    """
    Read a collection of names: a list, a tuple, a set, any iterable of strs, but not one str.

    :param names: the collection.
    :param rule: what it must be, the start of the message (``'tip must be a link name or a
        list of names'``).
    :return: the names in order, as plain strs (a str subclass's ``__hash__`` and ``__eq__``
        are never called).
    :raises ConfigurationError: ``'<rule>, got ...'`` for one str or bytes, anything not
        iterable (or whose iteration fails), or an item that is not a str.
    """
    if isinstance(names, (str, bytes)):
        raise ConfigurationError(f'{rule}, got {type(names).__name__} {quote(names)}')
    try:
        given = tuple(names)
    except Exception:  # not iterable, or a user's __iter__ that fails
        raise ConfigurationError(f'{rule}, got {type(names).__name__}') from None
    if not all(isinstance(name, str) for name in given):
        raise ConfigurationError(f'{rule}, got {quote(given)}')
    return tuple(str.__str__(name) for name in given)


def first_repeated(names: Iterable[str]) -> Optional[str]:
    """
    Return the first name that comes a second time, in order.

    :param names: the names.
    :return: that name, or None when every name comes once.
    """
    seen = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


def check_flag(value, name: str) -> bool:
    """
    Validate a yes-or-no option.

    :param value: a bool (numpy's included).
    :param name: what it is called in error messages.
    :return: the bool.
    :raises ConfigurationError: for anything else (``1``, ``'yes'``, None).
    """
    if not isinstance(value, (bool, np.bool_)):
        raise ConfigurationError(f'{name} must be True or False, got {type(value).__name__}')
    return bool(value)


def check_choice(value, what: str, choices: Sequence[str],
                 error: Callable[[str], FrameKinematicsError] = ConfigurationError) -> str:
    """
    Validate a choice among names.

    :param value: anything.
    :param what: what it is called in error messages.
    :param choices: the names accepted.
    :param error: the error raised (a :class:`ConfigurationError` by default).
    :return: ``value``, one of ``choices``.
    :raises FrameKinematicsError: ``error``, ``'<what> must be one of <choices>, got
        <value>'``, for anything else.
    """
    if isinstance(value, str) and value in choices:
        return value
    raise error(f"{what} must be one of {', '.join(choices)}, got {quote(value)}")


def as_path(path, what: str = 'path',
            error: Callable[[str], FrameKinematicsError] = ConfigurationError
            ) -> Union[str, bytes]:
    """
    Convert a path a user gives (str, bytes or os.PathLike) to a str or bytes.

    :param path: the path.
    :param what: what it is called in error messages.
    :param error: the library error raised, made from the message.
    :return: ``os.fspath(path)``.
    :raises FrameKinematicsError: made by ``error``, for anything else, or an object whose
        ``__fspath__`` fails or returns something else.
    """
    try:
        return os.fspath(path)
    except Exception:  # not a path, or a user's __fspath__ that fails
        raise error(f'{what} must be str, bytes or os.PathLike, got '
                    f'{type(path).__name__}') from None
