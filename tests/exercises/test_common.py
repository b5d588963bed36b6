"""The shared helpers of posenc/exercises/_common.py, which every checker uses."""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import numpy as np
import pytest

from posenc.exercises._common import (_as_array, _call_watching, _close, _correct, _int_list, _integer_array,
                                     _not_yet, _numbers, _one_number, _report, _whole_numbers)


def test_report_prints_the_verdict_and_returns_a_bool(capsys):
    assert _report(np.True_, "Well done.", "Try again.") is True
    assert capsys.readouterr().out == "Correct! Well done.\n"
    assert _report(0, "Well done.", "Look at the axis.") is False
    assert capsys.readouterr().out == "Not yet. Look at the axis.\n"


def test_correct_and_not_yet_are_the_two_verdicts(capsys):
    assert _correct("Well done.") is True
    assert capsys.readouterr().out == "Correct! Well done.\n"
    assert _not_yet("Look at the axis.") is False
    assert capsys.readouterr().out == "Not yet. Look at the axis.\n"


@pytest.mark.parametrize("answer, expected", [
    (3, [3.0]), (2.5, [2.5]), ([1, 2], [1.0, 2.0]), ((1, 2), [1.0, 2.0]),
    (np.array([1, 2], dtype=np.int8), [1.0, 2.0]), (np.float32(0.5), [0.5]),
    (np.array([1 + 0j, 2 + 0j]), [1.0, 2.0]),
    (np.array([Fraction(1, 2), 2], dtype=object), [0.5, 2.0]), (10**300, [1e300]),
])
def test_as_array_turns_numbers_into_floats(answer, expected):
    arr = _as_array(answer)
    assert arr.dtype == np.float64
    assert np.array_equal(arr.ravel(), expected)


@pytest.mark.parametrize("answer", [
    [[1.0], [1.0, 2.0]],  # ragged
    np.array([1 + 1e-3j]), 1j,  # complex with an imaginary part
    {"a": 1}, print, "one",
    # numpy would make numbers of these, but the learner did not write a number
    "786432", b"3", True, np.array([True, False]), None, [1, None],
    np.array(["2020-01-01"], dtype="datetime64[D]"),
    10**400, [10**400],  # beyond float64
], ids=["ragged", "complex-array", "complex", "dict", "function", "word",
        "numeric-string", "bytes", "bool", "bool-array", "None", "list-with-None",
        "date", "huge-int", "list-with-huge-int"])
def test_as_array_refuses_what_is_not_a_real_number(answer):
    assert _as_array(answer) is None


def test_close_needs_the_same_shape_and_values():
    assert _close([1.0, 2.0], np.array([1.0, 2.0 + 1e-9]))
    assert _close(np.array([[1, 2]]), [[1.0, 2.0]])
    assert not _close([1.0, 2.0], [[1.0, 2.0]])  # same values, other shape
    assert not _close([1.0, 2.1], [1.0, 2.0])
    assert not _close([np.nan], [1.0])
    assert not _close("text", [1.0])
    assert not _close([1 + 1j, 2], [1.0, 2.0])
    assert _close(0.1 + 0.2, 0.3)
    assert not _close(1e-3, 0.0) and _close(1e-7, 0.0)  # atol 1e-6


# --- exotic answers (issue 28, items 9 and 11) ------------------------------------

# a float32 signalling NaN: casting it to float64 sets the "invalid" flag, which
# numpy reports as a RuntimeWarning, an error under this repository's settings
SNAN32 = np.array([0x7FA00000], dtype=np.uint32).view(np.float32)[0]


class ArrayRaises:
    """Like a torch tensor that requires grad: numpy cannot read it."""

    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("Can't call numpy() on Tensor that requires grad.")


class FloatRaises(float):
    def __float__(self):
        raise ValueError("no float for you")


def test_the_signalling_nan_is_one():
    assert np.isnan(SNAN32)
    with pytest.warns(RuntimeWarning, match="invalid value"):
        np.asarray(SNAN32).astype(float)


@pytest.mark.parametrize("answer", [
    SNAN32, np.full(4, SNAN32), np.full((6, 6), SNAN32), [SNAN32, 1.0],
    np.array([SNAN32], dtype=object),
])
def test_as_array_reads_a_signalling_nan_as_nan_without_a_warning(answer):
    arr = _as_array(answer)  # pytest turns any warning into an error here
    assert arr.dtype == np.float64 and np.isnan(arr).any()
    assert not _close(answer, np.zeros(np.shape(arr)))


@pytest.mark.parametrize("answer", [ArrayRaises(), [ArrayRaises()], [1.0, ArrayRaises()],
                                    np.array([FloatRaises(1.0)], dtype=object)])
def test_as_array_gives_none_when_the_answer_cannot_be_read(answer):
    assert _as_array(answer) is None
    assert not _close(answer, [1.0])


@pytest.mark.parametrize("answer", [ArrayRaises(), [ArrayRaises()], np.full(3, SNAN32),
                                    [1.0, float("nan")], [float("inf")] * 3])
def test_int_list_gives_a_hint_for_what_is_not_whole(answer, capsys):
    assert _int_list(answer, "changed") is None
    assert capsys.readouterr().out.startswith("Not yet. changed should be")


def test_int_list_reads_whole_numbers():
    assert _int_list(np.array([2.0, 3.0], dtype=np.float32), "x") == [2, 3]
    assert _int_list({3, 2}, "x") in ([2, 3], [3, 2])


def test_integer_array_refuses_nan_and_inf_without_a_warning():
    assert _integer_array(np.full(10, SNAN32)) is None
    assert _integer_array([math.inf] * 10) is None
    assert _integer_array([1.0, 2.0]).tolist() == [1, 2]


@pytest.mark.parametrize("answer", ["2.5", b"3", True, np.array([True, False]), ["1", "2"], ArrayRaises()])
def test_numbers_refuse_text_and_bools(answer):
    assert _numbers(answer) is None
    assert _one_number(answer) is None
    assert _whole_numbers(answer) is None


def test_one_number_is_one_finite_float():
    assert _one_number(np.array([[2.5]])) == 2.5 and isinstance(_one_number(3), float)
    assert _one_number([1.0, 2.0]) is None
    assert _one_number(math.inf) is None and _one_number(SNAN32) is None


def test_whole_numbers_are_modest_whole_numbers():
    assert _whole_numbers([3.0, -2]).tolist() == [3, -2]
    assert _whole_numbers(2**31).tolist() == 2**31
    assert _whole_numbers(2**31 + 1) is None  # not modest
    assert _whole_numbers([1.5, 2]) is None and _whole_numbers([math.nan]) is None


# --- _call_watching --------------------------------------------------------------


def test_call_watching_sees_a_call_however_the_function_was_reached():
    import posenc
    from posenc import sinusoidal

    watched = {"posenc.sinusoidal": posenc.sinusoidal, "posenc.frequencies": posenc.frequencies}
    assert _call_watching(watched, lambda n: np.zeros(n), 3)[1] == []
    assert _call_watching(watched, lambda n: posenc.sinusoidal(n, 4), 3)[1] == [
        "posenc.frequencies", "posenc.sinusoidal"]  # sinusoidal calls frequencies
    assert _call_watching(watched, lambda n, d=2: sinusoidal(n, d), 3, d=6)[1] == [
        "posenc.frequencies", "posenc.sinusoidal"]
    result, called = _call_watching(watched, posenc.frequencies, 4)
    assert called == ["posenc.frequencies"] and np.allclose(result, [1.0, 0.01])


def test_call_watching_silences_float_warnings_and_restores_the_profiler():
    def overflow():
        return np.exp(np.array([1000.0]))

    def fails():
        raise KeyError("the learner's bug")

    before = sys.getprofile()
    result, called = _call_watching({}, overflow)
    assert np.isinf(result).all() and called == []
    with pytest.raises(KeyError):
        _call_watching({}, fails)
    assert sys.getprofile() is before
