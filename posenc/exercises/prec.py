"""Checkers of the appendix *Positions in low precision*.

The expected values are worked out here with NumPy's own float32
arithmetic, with the bit layout of bfloat16 (the upper half of a float32) and
with plain integer arithmetic for the 8-bit format E5M2, not with
``posenc.precision``, so that a checker and the code the appendix teaches do
not share a mistake.
"""

from __future__ import annotations

import numpy as np

from ._common import _as_array, _correct, _not_yet

__all__ = [
    "check_prec_bf16_neighbours",
    "check_prec_fp8_largest",
    "check_prec_fp32_angle",
]


def _whole_number(answer, what):
    """The answer as a Python int, or ``None`` with a printed hint."""
    arr = None if isinstance(answer, (str, bytes)) else _as_array(answer)
    if arr is None or arr.size != 1 or not np.isfinite(arr).all():
        _not_yet(f"Give a single whole number: {what}.")
        return None
    value = float(arr.reshape(()))
    if value != round(value):
        _not_yet(f"Positions are whole numbers; give {what} as an integer.")
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


def _e5m2_integer(k):
    """A non-negative integer ``k`` rounded to the 8-bit format E5M2, as a float.

    E5M2 keeps 3 significant bits (2 stored): above 8 the integers it holds
    are the multiples of ``2**(bits - 3)``. Ties go to the even multiple, and
    a result above the largest finite number, ``(2 - 2**-2) * 2**15``, is
    infinite (IEEE 754, as float16). Plain integer arithmetic, exact.
    """
    step = 2 ** max(int(k).bit_length() - 3, 0)
    low, rest = divmod(int(k), step)
    if 2 * rest > step or (2 * rest == step and low % 2 == 1):
        low += 1
    value = low * step
    return float(value) if value <= 57344 else float("inf")


def check_prec_bf16_neighbours(answer):
    """Check the first position whose bfloat16 value it shares with its next two.

    The exercise: the smallest integer ``p >= 0`` such that ``p``, ``p + 1``
    and ``p + 2``, each rounded to bfloat16, are the same number. (The
    appendix prints the first *pair* of neighbours that share a value, 256
    and 257; three neighbours need the rule for ties.)

    Parameters
    ----------
    answer : int
        The position ``p``; any whole-number type is accepted.

    Returns
    -------
    bool
        ``True`` if ``answer`` is that position.
    """
    p = _whole_number(answer, "the first position p that shares its bfloat16 value with "
                              "p + 1 and p + 2")
    if p is None:
        return False
    n = np.arange(1 << 17)
    stored = _bfloat16(n)
    triple = (stored[:-2] == stored[1:-1]) & (stored[1:-1] == stored[2:])
    expected = int(np.argmax(triple))
    if p == expected:
        return _correct("From there on, bfloat16 gives some values to three positions "
                        "at once.")
    pair = int(np.argmax(stored[:-1] == stored[1:]))  # the appendix's 256
    if p < 0:
        hint = "Positions start at 0: look among p = 0, 1, 2, ..."
    elif p == pair:
        hint = ("That position and the next share a value, as the appendix showed; the "
                "question asks for three neighbours, p, p + 1 and p + 2. Where the spacing is "
                "2, an odd position is a tie: work out which of its two even neighbours it "
                "goes to.")
    elif p == 2051:  # the same question for float16, whose spacing 2 starts at 2048
        hint = "That is float16's answer (11 significant bits); bfloat16 keeps 8."
    else:  # the same hint on either side of the answer: it must not bracket it
        hint = ("Round every position 0, 1, 2, ... to bfloat16 (ties to even), not a sample, "
                "and take the first p whose stored value equals those of p + 1 and p + 2.")
    return _not_yet(hint)


def check_prec_fp8_largest(answer):
    """Check the largest integer position that the 8-bit format E5M2 keeps finite.

    E5M2 has 5 exponent bits and 2 fraction bits and follows IEEE 754 like
    float16: its largest finite number is 57344, and a number that rounds
    above it is infinite.

    Parameters
    ----------
    answer : int
        The position; any whole-number type is accepted.

    Returns
    -------
    bool
        ``True`` if ``answer`` rounds to a finite E5M2 number and
        ``answer + 1`` does not.
    """
    p = _whole_number(answer, "the largest position that E5M2 stores as a finite number")
    if p is None:
        return False
    top = 57344  # (2 - 2**-2) * 2**15, the largest finite E5M2 number
    expected = next(k for k in range(top, 2 * top) if np.isinf(_e5m2_integer(k + 1)))
    if p == expected:
        return _correct("One more and the position rounds to infinity.")
    if p < 0:
        hint = "Positions start at 0, and the question asks for the largest finite one."
    elif p == top:
        hint = ("That is the largest finite E5M2 number. The question is about positions, "
                "and a position is rounded to the nearest E5M2 number before it is stored: "
                "which integers are stored as a finite number?")
    elif p == expected + 1:
        hint = ("Check how your rounding treats a tie: IEEE 754 gives it to the even "
                "neighbour, the one whose last fraction bit is 0.")
    elif p in (65504, 65519):
        hint = "That is float16's answer; E5M2 keeps only 2 fraction bits, float16 10."
    else:  # the same hint on either side of the answer: it must not bracket it
        hint = ("Find the spacing of E5M2 numbers just below its largest one, then the point "
                "halfway to the next step, which does not exist: round the integers near it "
                "to nearest, ties to even.")
    return _not_yet(hint)


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
        return _correct("Before it, pair 1's float32 angle is within 1e-3 rad.")
    cos_error = np.abs(np.cos(angle32.astype(np.float64)) - np.cos(m * theta))
    theta32 = float(np.float32(theta))
    # the usual slip: an angle compared with the wrong reference, or computed
    # with one rounding left out
    product_only = np.abs(angle32.astype(np.float64) - m * theta32)  # reference with theta32
    rounded_once = np.abs((m * theta).astype(np.float32).astype(np.float64) - m * theta)
    if m0 == int(np.argmax(cos_error > 1e-3)):
        hint = "That is where the cosine's error passes 1e-3; the question is about the angle."
    elif m0 == 0:
        hint = ("At position 0 the angle is exactly 0 in every format. If none of your errors "
                "passes 1e-3, your reference angle was rounded too: compute it as m * theta "
                "in float64, with theta = 10000**(-2/128) not rounded to float32.")
    elif m0 == int(np.argmax(product_only > 1e-3)):
        hint = ("Your reference angle uses the float32 frequency, m * float32(theta), so "
                "your error leaves out the frequency's own rounding. Compare with m * theta, "
                "theta = 10000**(-2/128) in float64.")
    elif m0 == int(np.argmax(rounded_once > 1e-3)):
        hint = ("Your float32 angle rounds only the product: round theta to float32 first "
                "(np.float32(theta)), then multiply the float32 position by it in float32.")
    else:  # the same hint on either side of the answer: it must not bracket it
        hint = ("Compute the error for every position m = 0, 1, 2, ... (not a sample): "
                "round theta_1 and m to float32, multiply in float32, compare with m * theta_1 "
                "in float64, and find the first error above 1e-3.")
    return _not_yet(hint)
