"""What every checker shares: how a verdict is printed, and how an answer is read.

A checker prints ``Correct! <what was checked>`` or ``Not yet. <hint>`` and
returns the verdict as a bool (:func:`_report`). Answers are read leniently:
:func:`_as_array` turns any numeric answer into a float array (or ``None``),
:func:`_close` compares it with the expected value within a tolerance.
"""

from __future__ import annotations

import numbers

import numpy as np

def _report(ok, success, hint):
    """Print the verdict and return it as a bool."""
    ok = bool(ok)
    print(f"Correct! {success}" if ok else f"Not yet. {hint}")
    return ok


def _as_array(answer):
    """The learner's answer as a float array, or None if it is not numeric.

    Complex values count only when their imaginary parts are all zero (numpy
    would silently drop them, with a warning). Strings (``"786432"``),
    booleans, ``None``, ragged lists, functions, numbers beyond float64 and
    other non-numbers give None: numpy would turn a string or a bool into a
    number, but the learner did not write one.
    """
    try:
        arr = np.asarray(answer)
        if arr.dtype.kind == "c":
            if np.any(arr.imag != 0):
                return None
            arr = arr.real
        if arr.dtype.kind == "O" and not all(
            isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_)) for x in arr.flat
        ):
            return None
        if arr.dtype.kind not in "iufO":
            return None
        return arr.astype(float)
    except (TypeError, ValueError, OverflowError):
        return None


def _close(answer, expected, *, atol=1e-6, rtol=1e-6):
    """True if ``answer`` has the shape of ``expected`` and the same values."""
    arr = _as_array(answer)
    expected = np.asarray(expected, dtype=float)
    return (
        arr is not None
        and arr.shape == expected.shape
        and bool(np.allclose(arr, expected, atol=atol, rtol=rtol))
    )


def _int_list(answer, name):
    """``answer`` as a list of Python ints, or ``None`` with a printed hint."""
    if isinstance(answer, (str, bytes, dict)):
        print(f"Not yet. {name} should be a list (or array) of integers, got a {type(answer).__name__}.")
        return None
    try:
        arr = np.asarray(list(answer) if isinstance(answer, (set, frozenset)) else answer)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.ndim != 1 or arr.dtype.kind not in "iuf" or (
        arr.dtype.kind == "f" and not np.all(np.isfinite(arr) & (arr == np.round(arr)))
    ):
        print(f"Not yet. {name} should be a flat list (or 1-D array) of whole numbers.")
        return None
    return [int(x) for x in arr]


def _integer_array(answer):
    """The answer as an int array if every entry is a whole number, else None."""
    arr = _as_array(answer)
    if arr is None or not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
        return None
    if np.any(np.abs(arr) >= 2.0**63):  # whole, but beyond int64
        return None
    return arr.astype(int)
