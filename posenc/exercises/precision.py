"""Checkers of the appendix *Positions in low precision*.

The expected values are worked out here with NumPy's own float16 and float32
arithmetic and with the bit layout of bfloat16 (the upper half of a float32),
not with ``posenc.precision``, so that a checker and the code the appendix
teaches do not share a mistake.
"""

from __future__ import annotations

import numpy as np

from ._common import _as_array, _report

__all__ = [
    "check_prec_bf16_neighbours",
    "check_prec_fp16_largest",
    "check_prec_fp32_angle",
]


def _whole_number(answer, what):
    """The answer as a Python int, or ``None`` with a printed hint."""
    arr = None if isinstance(answer, (str, bytes)) else _as_array(answer)
    if arr is None or arr.size != 1 or not np.isfinite(arr).all():
        _report(False, "", f"Give a single whole number: {what}.")
        return None
    value = float(arr.reshape(()))
    if value != round(value):
        _report(False, "", f"Positions are whole numbers; give {what} as an integer.")
        return None
    return int(value)


def _bfloat16(n):
    """Integers ``n`` (below 2**24, so exact in float32) rounded to bfloat16.

    bfloat16 keeps the upper 16 bits of a float32; rounding to nearest, ties
    to even, adds 0x7FFF plus the lowest kept bit before cutting the lower 16.
    """
    u = np.asarray(n, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16
    return u.astype(np.uint32).view(np.float32).astype(np.float64)


def check_prec_bf16_neighbours(answer):
    """Check the first position that bfloat16 cannot tell from the next one.

    The exercise: the smallest integer ``p >= 0`` such that ``p`` and
    ``p + 1``, each rounded to bfloat16, are the same number.

    Parameters
    ----------
    answer : int
        The position ``p``; any whole-number type is accepted.

    Returns
    -------
    bool
        ``True`` if ``answer`` is that position.
    """
    p = _whole_number(answer, "the first position p that shares its bfloat16 value with p + 1")
    if p is None:
        return False
    n = np.arange(1 << 17)
    stored = _bfloat16(n)
    expected = int(np.argmax(stored[:-1] == stored[1:]))
    if p == expected:
        return _report(True, "From there on, neighbours can share a bfloat16 value.", "")
    if p == expected + 1:
        hint = ("That is the first integer bfloat16 cannot store. Which stored value "
                "does it take, and which of its neighbours has the same one?")
    elif p == 2048 or p == 2049:
        hint = "That is float16's limit (11 significant bits); bfloat16 keeps 8."
    elif 0 <= p < len(n) - 1 and stored[p] != stored[p + 1]:
        hint = (f"{p} and the position after it still round to different bfloat16 numbers. How many "
                "significant bits does bfloat16 keep, and up to which integer is "
                "every integer exact?")
    else:
        hint = ("Round 0, 1, 2, ... to bfloat16 and look for the first p whose "
                "stored value equals that of p + 1; an earlier p already does.")
    return _report(False, "", hint)


def check_prec_fp16_largest(answer):
    """Check the largest integer position that float16 stores as a finite number.

    Parameters
    ----------
    answer : int
        The position; any whole-number type is accepted.

    Returns
    -------
    bool
        ``True`` if ``answer`` rounds to a finite float16 and ``answer + 1``
        does not.
    """
    p = _whole_number(answer, "the largest position that float16 stores as a finite number")
    if p is None:
        return False
    with np.errstate(over="ignore"):  # the positions past float16's range become inf
        finite = np.isfinite(np.arange(1 << 17, dtype=np.float64).astype(np.float16))
    expected = int(np.flatnonzero(finite)[-1])
    if p == expected:
        return _report(True, "One more and the position rounds to infinity.", "")
    if p == int(np.finfo(np.float16).max):
        hint = ("That is the largest finite float16 number. But a position a little "
                "above it is rounded to the nearest float16: which integers still "
                "round down to it?")
    elif p == expected + 1:
        hint = "That one is a tie, and ties go to the even neighbour: which is infinity here."
    elif p == 2048:
        hint = ("That is the end of the run of exact integers. The question asks for "
                "finite values, exact or not.")
    elif p > expected:
        hint = f"Store {p} in float16 and print it: it is no longer finite."
    else:
        hint = f"{p + 1} is still finite in float16: go higher."
    return _report(False, "", hint)


def check_prec_fp32_angle(answer):
    """Check the first position whose float32 angle for pair 1 is off by more than 1e-3.

    The exercise: head_dim 128, base 10000, pair ``i = 1``. The frequency
    ``theta_1 = 10000**(-2/128)`` is computed in float64 and rounded to
    float32, the position converted to float32, and the product computed in
    float32. The error is the distance to ``m * theta_1`` in float64.

    Parameters
    ----------
    answer : int
        The first position ``m >= 0`` whose error exceeds 1e-3 radian.

    Returns
    -------
    bool
        ``True`` if ``answer`` is that position.
    """
    m0 = _whole_number(answer, "the first position whose float32 angle is off by more than 1e-3")
    if m0 is None:
        return False
    theta = 10000.0 ** (-2 / 128)
    m = np.arange(1 << 17)
    angle32 = m.astype(np.float32) * np.float32(theta)
    error = np.abs(angle32.astype(np.float64) - m * theta)
    expected = int(np.argmax(error > 1e-3))
    if m0 == expected:
        return _report(True, "Before it, pair 1's float32 angle is within 1e-3 rad.", "")
    cos_error = np.abs(np.cos(angle32.astype(np.float64)) - np.cos(m * theta))
    if m0 == int(np.argmax(cos_error > 1e-3)):
        hint = "That is where the cosine's error passes 1e-3; the question is about the angle."
    elif 0 <= m0 < len(m) and error[m0] <= 1e-3:
        hint = (f"At position {m0} the float32 angle is still within 1e-3. Compute the "
                "error for every position and find the first one above 1e-3.")
    elif m0 > expected:
        hint = ("An earlier position is already off by more than 1e-3. Did you compute "
                "the error of every position, not a sample?")
    else:
        hint = "Compute the error for m = 0, 1, 2, ... and find the first one above 1e-3."
    return _report(False, "", hint)
