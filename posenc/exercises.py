"""Checkers for the exercises of the book, one per exercise.

A checker takes the learner's answer, prints either ``Correct!`` with a
short confirmation or ``Not yet.`` with a hint that helps without giving the
answer away, and returns ``True`` or ``False``. In a notebook the check cell
reads ``assert check_xxx(answer)``, so an autograder (nbgrader, otter-grader)
sees a wrong answer as a failed cell, and a learner sees the hint first.

Checkers accept every correct answer: numbers within a tolerance, arrays of
the right shape and values, and equivalent forms (a list for an array, an int
for a float...). They never print the expected value.
"""

from __future__ import annotations

import numpy as np

__all__: list[str] = []


def _report(ok, success, hint):
    """Print the verdict and return it as a bool."""
    ok = bool(ok)
    print(f"Correct! {success}" if ok else f"Not yet. {hint}")
    return ok


def _as_array(answer):
    """The learner's answer as a float array, or None if it is not numeric.

    Complex values count only when their imaginary parts are all zero (numpy
    would silently drop them, with a warning); ragged lists, functions and
    other non-numbers give None.
    """
    try:
        arr = np.asarray(answer)
        if arr.dtype.kind == "c":
            if np.any(arr.imag != 0):
                return None
            arr = arr.real
        return arr.astype(float)
    except (TypeError, ValueError):
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


# --- Chapter: why order matters ------------------------------------------


# --- Chapter: the sinusoidal formula --------------------------------------


# --- Chapter: the worked example ------------------------------------------


# --- Chapter: learned alternatives ----------------------------------------


# --- Chapter: relative and rotary positions --------------------------------
