"""What every checker shares: how a verdict is printed, and how an answer is read.

A checker prints ``Correct! <what was checked>`` or ``Not yet. <hint>`` and
returns the verdict as a bool (:func:`_report`; :func:`_correct` and
:func:`_not_yet` when the verdict is known). Answers are read leniently:
:func:`_as_array` turns any numeric answer into a float array (or ``None``),
:func:`_close` compares it with the expected value within a tolerance.
:func:`_numbers`, :func:`_one_number` and :func:`_whole_numbers` read an
answer more strictly, for the checkers that refuse text such as ``"2.5"``.
:func:`_raised_hint` says what a learner's function raised, and
:func:`_call_watching` runs a learner's function and says which of the
functions an exercise rules out ("NumPy only, not ``posenc.attention``") it
called, so that the checker can hold the exercise to its own rules.
"""

from __future__ import annotations

import numbers
import sys

import numpy as np


def _report(ok, success, hint):
    """Print the verdict and return it as a bool."""
    ok = bool(ok)
    print(f"Correct! {success}" if ok else f"Not yet. {hint}")
    return ok


def _correct(success):
    """Print ``Correct! <success>`` and return True."""
    return _report(True, success, "")


def _not_yet(hint):
    """Print ``Not yet. <hint>`` and return False."""
    return _report(False, "", hint)


def _as_array(answer):
    """The learner's answer as a float array, or None if it is not numeric.

    Complex values count only when their imaginary parts are all zero (numpy
    would silently drop them, with a warning). Strings (``"786432"``),
    booleans, ``None``, ragged lists, functions, numbers beyond float64 and
    other non-numbers give None: numpy would turn a string or a bool into a
    number, but the learner did not write one. So does an object that cannot
    be read as numbers at all, because its ``__array__`` or ``__float__``
    raises (a torch tensor that requires grad, for one): the checker then
    says what it wants instead of passing the exception on. A signalling NaN
    (float32 ``0x7fa00000``) is read as a quiet NaN, without the warning that
    the cast would give.
    """
    try:
        with np.errstate(invalid="ignore"):  # a signalling NaN: quiet it, silently
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
    except Exception:  # whatever the answer's own __array__, __len__ or __float__ raises
        return None


def _close(answer, expected, *, atol=1e-6, rtol=1e-6):
    """True if ``answer`` has the shape of ``expected`` and the same values.

    NaN is never close to anything, not even to NaN.
    """
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
    except Exception:  # a ragged list, or an __array__ that raises
        arr = None
    with np.errstate(invalid="ignore"):  # rounding a signalling NaN: no warning
        whole = arr is not None and arr.ndim == 1 and arr.dtype.kind in "iuf" and (
            arr.dtype.kind != "f" or bool(np.all(np.isfinite(arr) & (arr == np.round(arr))))
        )
    if not whole:
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


def _raised_hint(call, error):
    """The hint for a learner's function that raised ``error`` when called as ``call``."""
    return f"Calling {call} raised {type(error).__name__}: {error}"


def _numbers(answer):
    """The answer as a float array, or None: text is not a number (not even
    ``"2.5"``), nor is a bool, nor an integer too big for a float."""
    try:
        if np.asarray(answer).dtype.kind in "USb":
            return None
    except Exception:  # an answer numpy cannot read (its __array__ raises)
        return None
    return _as_array(answer)


def _one_number(answer):
    """The answer as one finite float, or None."""
    arr = _numbers(answer)
    if arr is None or arr.size != 1 or not np.all(np.isfinite(arr)):
        return None
    return float(arr.ravel()[0])


def _whole_numbers(answer):
    """The answer as an int array if every entry is a modest whole number, else None."""
    arr = _numbers(answer)
    if arr is None or not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
        return None
    if arr.size and np.abs(arr).max() > 2**31:
        return None
    return arr.astype(int)


def _call_watching(watched, fn, *args, **kwargs):
    """Call ``fn(*args, **kwargs)``; return its result and the names of the ``watched`` functions it called.

    ``watched`` maps a name (``"posenc.attention"``) to a function. A call
    counts however the learner reached the function (``posenc.attention``,
    ``from posenc import attention``, a helper of the chapter that calls it),
    because the check looks at the code that runs, through
    :func:`sys.setprofile`, not at names. Floating-point warnings of the
    learner's code (an ``exp`` that overflows) are silenced: the checker
    reports the NaN or inf they lead to instead. Whatever ``fn`` raises is
    raised again, after the previous profiler is restored.
    """
    codes = {f.__code__: name for name, f in watched.items()}
    called = set()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in codes:
            called.add(codes[frame.f_code])

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        with np.errstate(all="ignore"):
            result = fn(*args, **kwargs)
    finally:
        sys.setprofile(previous)
    return result, sorted(called)
