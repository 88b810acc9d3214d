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
"""The one rule for numbers (``core.checks.number_within``): the core, bridge and CLI use it."""

import math
import sys
import types

from frame_kinematics.core.checks import as_float_array, as_names, as_path, check_choice, \
    check_count, check_number, check_one_vector, first_repeated, MAX_MAGNITUDE, number_within, \
    parse_number, parse_whole, plain_array
from frame_kinematics.core.errors import ConfigurationError, URDFError
from hypothesis import given, strategies as st
import numpy as np
import pytest


@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(-10, 10), st.floats(-10, 10),
       st.booleans())
def test_a_number_is_taken_exactly_when_finite_and_within_the_bounds(value, low, high, strict):
    taken = number_within(value, low, high, strict_low=strict)
    inside = math.isfinite(value) and (value > low if strict else value >= low) and value <= high
    assert taken == (value if inside else None)
    assert number_within(repr(value), low, high, strict_low=strict) == taken  # as text too


@pytest.mark.parametrize('value', [True, False, np.bool_(True), None, [1.0], b'1', '1 2',
                                   '', 'nan', 'inf', 10 ** 400, complex(1, 0), object(),
                                   '1_0', '\u0661', '0x10'])
def test_anything_else_is_not_a_number(value):
    assert number_within(value) is None


@pytest.mark.parametrize('value, expected', [
    (3, 3.0), (np.int64(-2), -2.0), (np.float32(0.5), 0.5), ('  1e3 ', 1000.0),
    (MAX_MAGNITUDE, MAX_MAGNITUDE), (-MAX_MAGNITUDE, -MAX_MAGNITUDE)])
def test_integers_numpy_scalars_and_text_are_numbers(value, expected):
    assert number_within(value) == expected


def test_the_default_bounds_are_the_magnitude_every_number_has():
    assert number_within(MAX_MAGNITUDE * 1.5) is None
    assert number_within(-MAX_MAGNITUDE * 1.5) is None
    assert number_within(0.0, 0.0, 1.0, strict_low=True) is None
    assert number_within(0.0, 0.0, 1.0) == 0.0


def test_arrays_are_read_while_another_thread_imports_numpy_ma(monkeypatch):
    # numpy.ma is in sys.modules before its classes exist (scipy imports it in a thread of the
    # node while the /tf path reads joint values)
    monkeypatch.setitem(sys.modules, 'numpy.ma', types.ModuleType('numpy.ma'))
    np.testing.assert_array_equal(as_float_array([1.0, 2.0], 'q'), [1.0, 2.0])


def test_as_names_reads_any_collection_of_strs_as_plain_strs():
    class Name(str):

        def __hash__(self):
            raise RuntimeError('no hash')

    for collection in (['a', 'b'], ('a', 'b'), iter(['a', 'b']), [Name('a'), 'b']):
        names = as_names(collection, 'names must be names')
        assert names == ('a', 'b') and all(type(name) is str for name in names)
    assert as_names(set(), 'names must be names') == ()


class _NoIteration:

    def __iter__(self):
        raise RuntimeError('no iteration')


@pytest.mark.parametrize('collection, shown', [
    ('ab', "str 'ab'"), (b'ab', "bytes b'ab'"), (None, 'NoneType'), (3, 'int'),
    (_NoIteration(), '_NoIteration'), (['a', 3], "('a', 3)"), ([['a']], "(['a'],)"),
])
def test_as_names_refuses_one_str_and_anything_but_strs(collection, shown):
    with pytest.raises(ConfigurationError) as caught:
        as_names(collection, 'names must be names')
    assert str(caught.value) == f'names must be names, got {shown}'


def test_first_repeated_names_the_first_name_that_comes_again():
    assert first_repeated(['a', 'b', 'c']) is None
    assert first_repeated([]) is None
    assert first_repeated(['a', 'b', 'b', 'a']) == 'b'
    assert first_repeated(name for name in 'xyzy') == 'y'


class _Hostile:
    """A user object whose every conversion fails with its own exception."""

    def __init__(self, error=RuntimeError):
        self.error = error

    def _fail(self, *_args, **_kwargs):
        raise self.error('boom')

    __array__ = __len__ = __getitem__ = __iter__ = __float__ = __index__ = __fspath__ = _fail


def test_an_object_whose_conversion_fails_is_refused_by_name():
    with pytest.raises(ConfigurationError, match='^q must be an array of numbers, got _Hostile'):
        as_float_array(_Hostile(), 'q')
    with pytest.raises(ConfigurationError, match='^q must be'):
        as_float_array([_Hostile(), _Hostile()], 'q')


def test_an_interrupt_during_a_conversion_is_not_swallowed():
    with pytest.raises(KeyboardInterrupt):
        as_float_array(_Hostile(KeyboardInterrupt), 'q')


def test_an_array_whose_copy_does_not_fit_is_refused_with_its_size():
    huge = np.broadcast_to(np.zeros(7), (10 ** 12, 7))  # a view: no memory of its own
    with pytest.raises(ConfigurationError, match=r'^q has 7000000000000 numbers, whose copy '
                       r'needs 56000000000000 bytes'):
        as_float_array(huge, 'q')


def test_a_path_is_taken_as_os_fspath_takes_it_and_anything_else_refused():
    assert as_path('a.urdf') == 'a.urdf' and as_path(b'a') == b'a'
    for bad in (_Hostile(), None, 3):
        with pytest.raises(URDFError, match='^a URDF path must be str, bytes or os.PathLike'):
            as_path(bad, 'a URDF path', URDFError)
    with pytest.raises(ConfigurationError, match='^path must be'):
        as_path(_Hostile())


@pytest.mark.parametrize('value', [0.0, 2, np.float32(1.5), np.int64(3), MAX_MAGNITUDE])
def test_check_number_takes_real_numbers_within_its_bounds(value):
    assert check_number(value, 'x must be a number >= 0', 0.0) == float(value)


@pytest.mark.parametrize('value', ['1.5', True, None, float('nan'), -1.0, 10 ** 400, [1.0]])
def test_check_number_refuses_strings_and_what_number_within_refuses(value):
    with pytest.raises(ConfigurationError, match=r'^x must be a number >= 0, got '):
        check_number(value, 'x must be a number >= 0', 0.0)


def test_check_number_refuses_a_strict_lower_bound_itself():
    assert check_number(1e-300, 'x must be a number > 0', 0.0, strict_low=True) == 1e-300
    for value in (0.0, -0.0, np.float64(0)):
        with pytest.raises(ConfigurationError, match=r'^x must be a number > 0, got '):
            check_number(value, 'x must be a number > 0', 0.0, strict_low=True)


def test_check_one_vector_takes_exactly_one_vector_of_real_numbers():
    given = [1, 2.5, np.float32(3)]
    out = check_one_vector(given, 3, 'v')
    assert out.dtype == float and out.tolist() == [1.0, 2.5, 3.0]
    source = np.zeros(4)
    assert check_one_vector(source, 4, 'q') is not source  # a copy, never the caller's array
    for bad, words in (([[1, 2, 3]], r'v must be 3 numbers, got shape \(1, 3\)'),
                       ([1, 2], r'v must be 3 numbers, got shape \(2,\)'),
                       ([1, np.nan, 3], 'v'), ([1, 1e300, 3], 'v'), ('abc', 'v must be numbers')):
        with pytest.raises(ConfigurationError, match=words):
            check_one_vector(bad, 3, 'v')


@pytest.mark.parametrize('text, value', [
    ('1', 1.0), ('-2.5', -2.5), ('+.5', 0.5), ('3.', 3.0), ('1e-3', 1e-3), ('-4.2E+2', -420.0),
    (' 7 ', 7.0), ('\t0.25\n', 0.25), ('INF', float('inf')), ('-Infinity', -float('inf')),
])
def test_a_number_is_read_as_xml_writes_it(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize('text', ['1_0', '\u0661', '\uff11', '0x10', '1e', '.', '', '- 1',
                                  '1.0f', '\u00a01', 'nan1'])
def test_what_python_reads_beyond_xml_numbers_is_not_a_number(text):
    with pytest.raises(ValueError):
        parse_number(text)


@pytest.mark.parametrize('text, value', [
    ('0', 0), ('17', 17), ('-3', -3), ('+4', 4), ('007', 7), (' 12\n', 12),
    ('9' * 40, 10 ** 40 - 1),
])
def test_a_whole_number_is_read_in_ascii_digits(text, value):
    assert parse_whole(text) == value and type(parse_whole(text)) is int


@pytest.mark.parametrize('text', ['1_0', '\u0663', '\u0661\u0660', '\uff11', '\u00b2', '1.0',
                                  '1e3', '0x10', '', '+', '- 1', '\u00a01', '1' * 5000])
def test_what_python_reads_beyond_ascii_digits_is_not_a_whole_number(text):
    with pytest.raises(ValueError):
        parse_whole(text)


def test_check_count_names_an_integer_beyond_the_floats_by_its_size():
    with pytest.raises(ConfigurationError, match=r'^n must be between 0 and 10, got an integer '
                                                 r'of 1329 bits$'):
        check_count(10 ** 400, 'n', 0, 10)
    with pytest.raises(ConfigurationError, match='got -an integer of 1329 bits'):
        check_count(-10 ** 400, 'n', 0, 10)


def test_plain_array_is_the_memory_a_subclass_describes_or_none():
    plain = np.arange(3.0)
    assert plain_array(plain) is plain
    lying = type('Lying', (np.ndarray,), {'shape': property(lambda self: (7,))})
    view = plain_array(np.zeros(2).view(lying))
    assert type(view) is np.ndarray and view.shape == (2,)
    memory = np.zeros(2)
    plain_array(memory.view(lying))[0] = 5.0
    assert memory[0] == 5.0

    class NotAnArray:
        __class__ = property(lambda self: np.ndarray)

    assert isinstance(NotAnArray(), np.ndarray)
    for other in (NotAnArray(), [1.0, 2.0], None, 3.0, 'abc'):
        assert plain_array(other) is None


@pytest.mark.parametrize('value', ['diagonal', '', None, ['tips'], b'tips'])
def test_a_choice_is_one_of_the_names_or_the_given_error_names_them(value):
    assert check_choice('all', 'axes', ('tips', 'all')) == 'all'
    with pytest.raises(ConfigurationError, match='^axes must be one of tips, all, got '):
        check_choice(value, 'axes', ('tips', 'all'))
    with pytest.raises(URDFError, match='^axes must be one of'):
        check_choice(value, 'axes', ('tips', 'all'), URDFError)
