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
"""Errors quote what is at fault through the one excerpt rule: bounded, and never failing."""

from frame_kinematics.core.errors import EXCERPT_LENGTH, name_list, quote, UnknownFrameError, \
    UnknownReferenceFrameError
import pytest


class _Unprintable:
    """A user object whose ``repr`` and ``str`` fail."""

    def __repr__(self):
        raise RuntimeError('no repr')

    __str__ = __repr__


def _deep_list(depth=5000):
    nested = [0.0]
    for _ in range(depth):
        nested = [nested]
    return nested


#: Names no message may show whole, made when a test runs.
NAMES = {'deep list': _deep_list, 'unprintable': _Unprintable, 'huge str': lambda: 'x' * 10 ** 6,
         'long list': lambda: list(range(10 ** 6)),
         'big dict': lambda: {i: [i] * 100 for i in range(1000)},
         'huge int': lambda: 10 ** 5000, 'huge bytes': lambda: b'\x00' * 10 ** 6}


@pytest.mark.parametrize('kind', sorted(NAMES))
def test_an_unknown_name_of_any_kind_is_quoted_briefly(kind):
    name = NAMES[kind]()
    error = UnknownFrameError(name, ['base_link', 'tool0'], 'link')
    message = str(error)
    assert message.startswith('unknown link ')
    assert message.endswith('(known: base_link, tool0)')
    assert len(message) < 2 * EXCERPT_LENGTH + 60
    assert error.name is name


def test_a_short_name_keeps_its_plain_quotes():
    assert str(UnknownFrameError('nope', ['a'], 'joint')) == "unknown joint 'nope' (known: a)"


@pytest.mark.parametrize('name', ['tool0\n[ERROR] [0.0] [node]: fake', '\x1b[31mred', 'a\rb',
                                  'tab\tname', 'nul\x00'])
def test_a_name_with_control_characters_is_shown_escaped_on_one_line(name):
    message = str(UnknownFrameError(name, ['a'], 'link'))
    assert message == f'unknown link {name!r} (known: a)'
    assert message.isprintable()


def test_both_frames_of_an_unrelatable_pair_are_quoted_briefly():
    message = str(UnknownReferenceFrameError('y' * 10 ** 6, ['a'], other=_Unprintable()))
    assert message.startswith('cannot relate <')
    assert '(1000000 characters)' in message
    assert len(message) < 4 * EXCERPT_LENGTH + 60


@pytest.mark.parametrize('kind', sorted(NAMES))
def test_quote_is_bounded_and_never_fails(kind):
    text = quote(NAMES[kind]())
    assert 0 < len(text) <= EXCERPT_LENGTH + 30


def test_quote_shows_small_values_as_repr_does():
    for value in (1.5, None, [1, 2], ('a', 'b'), {'k': 1}, 'text', b'raw'):
        assert quote(value) == repr(value)


def test_a_list_of_names_shows_plain_names_bare_and_quotes_the_others():
    assert name_list(['shoulder', '', 'a b', 'x,y', 'tab\there', 3]) == \
        "shoulder, '', 'a b', 'x,y', 'tab\\there', 3"
    assert name_list(['a', 'b', 'c'], limit=2) == 'a, b, ... (3 in all)'
