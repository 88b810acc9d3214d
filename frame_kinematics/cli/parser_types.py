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
The option types of the ``frame-kinematics`` parser: whole numbers, reals, names, coordinates.

Each checks one kind of value with a message in the option's own words (``must be a whole
number >= 0, got '-1'``); argparse turns the message into a usage error.
"""

import argparse
from typing import Callable, Optional

from .. import robots
from ..core.checks import MAX_MAGNITUDE, number_within, parse_number, parse_whole
from ..core.errors import quote
from ..core.ik.options import MAX_COUNT


def whole(minimum: int, maximum: Optional[int] = None) -> Callable[[str], int]:
    """
    Option type: a whole number within bounds, in ASCII digits (:func:`parse_whole`).

    :param minimum: smallest value accepted.
    :param maximum: largest value accepted, or ``None`` for the core's limit of counts
        (:data:`MAX_COUNT`), which the message names only when it is passed or exceeded.
    :return: the converter for ``add_argument(type=...)``.
    """
    def parse(text: str) -> int:
        try:
            value = parse_whole(text)
        except ValueError:
            value = None
        if value is None or not minimum <= value <= (MAX_COUNT if maximum is None else maximum):
            bound = f'>= {minimum}' if maximum is None else f'between {minimum} and {maximum}'
            if value is not None and maximum is None and value > MAX_COUNT:
                bound = f'<= {MAX_COUNT}'
            raise argparse.ArgumentTypeError(f'must be a whole number {bound}, got {quote(text)}')
        return value
    return parse


def real(minimum: float, strict: bool, maximum: Optional[float] = None
         ) -> Callable[[str], float]:
    """
    Option type: a finite number above ``minimum`` (or at it, unless ``strict``).

    :param minimum: lower bound.
    :param strict: whether the bound itself is refused.
    :param maximum: largest value accepted, or ``None`` for the magnitude every number has at
        most (:data:`MAX_MAGNITUDE`), which the message names only when it is passed or
        exceeded.
    :return: the converter for ``add_argument(type=...)``.
    """
    high = MAX_MAGNITUDE if maximum is None else maximum

    def parse(text: str) -> float:
        value = number_within(text, minimum, high, strict_low=strict)
        if value is None:
            bound = f"{'>' if strict else '>='} {minimum:g}"
            if maximum is not None or _beyond(text, high):
                bound += f' and <= {high:g}'
            raise argparse.ArgumentTypeError(f'must be a number {bound}, got {quote(text)}')
        return value
    return parse


def _beyond(text: str, high: float) -> bool:
    """Whether ``text`` is a number above ``high`` (the message then names the bound)."""
    try:
        return parse_number(text) > high
    except ValueError:
        return False


def nonempty(text: str) -> str:
    """
    Option type: a name or path, which must not be empty.

    :param text: the option's value.
    :return: the text.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(f'must not be empty, got {quote(text)}')
    return text


def bundled_robot(text: str) -> str:
    """
    Option type of ``--robot``: the name of a robot the package bundles.

    :param text: the option's value.
    :return: the name.
    """
    if text not in robots.names():
        raise argparse.ArgumentTypeError(f"must be a bundled robot ({', '.join(robots.names())}),"
                                         f' got {quote(text)}')
    return text


def coordinate(text: str) -> float:
    """
    Option type: a number of magnitude at most :data:`MAX_MAGNITUDE`, as numbers everywhere.

    :param text: the option's value.
    :return: the number.
    """
    return real(-MAX_MAGNITUDE, False, MAX_MAGNITUDE)(text)
