"""The shared helpers of posenc/exercises/_common.py, which every checker uses."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from posenc.exercises._common import _as_array, _close, _report


def test_report_prints_the_verdict_and_returns_a_bool(capsys):
    assert _report(np.True_, "Well done.", "Try again.") is True
    assert capsys.readouterr().out == "Correct! Well done.\n"
    assert _report(0, "Well done.", "Look at the axis.") is False
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
