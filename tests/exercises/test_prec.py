"""Tests of the checkers of the appendix "Positions in low precision".

The right answers are worked out here by brute force, with plain integer
rounding for bfloat16 and for the 8-bit E5M2 (and E5M2 cross-checked with
ml_dtypes), independently of the checkers and of posenc.precision.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from posenc import exercises as ex


def bfloat16_by_truncation_and_tie(n):
    """Integers below 2**24 rounded to bfloat16, ties to even, written plainly."""
    out = []
    for k in n:
        if k < 256:
            out.append(k)
            continue
        step = 2 ** (int(k).bit_length() - 8)  # 8 significant bits
        low, rest = divmod(k, step)
        if 2 * rest > step or (2 * rest == step and low % 2 == 1):
            low += 1
        out.append(low * step)
    return np.array(out)


def e5m2_by_truncation_and_tie(k):
    """A non-negative integer rounded to E5M2 (3 significant bits, largest 57344)."""
    step = 2 ** max(k.bit_length() - 3, 0)
    low, rest = divmod(k, step)
    if 2 * rest > step or (2 * rest == step and low % 2 == 1):
        low += 1
    return low * step if low * step <= 57344 else np.inf


STORED = bfloat16_by_truncation_and_tie(range(4096))
PAIR = int(np.flatnonzero(STORED[:-1] == STORED[1:])[0])
TRIPLE = int(np.flatnonzero((STORED[:-2] == STORED[1:-1]) & (STORED[1:-1] == STORED[2:]))[0])
FP8_LARGEST = max(k for k in range(70000) if np.isfinite(e5m2_by_truncation_and_tie(k)))
THETA = 10000.0 ** (-2 / 128)
M = np.arange(1 << 17)
ERROR = np.abs((M.astype(np.float32) * np.float32(THETA)).astype(np.float64) - M * THETA)
FP32_ANGLE = int(np.flatnonzero(ERROR > 1e-3)[0])


def test_the_brute_force_answers_are_what_the_formats_say():
    assert PAIR == 256  # 257 is a tie between 256 and 258: to even, 256
    # 258 ends in fraction bit 1 and loses both its ties; 260 takes 259 and 261
    assert TRIPLE == 259 and list(STORED[255:262]) == [255, 256, 256, 258, 260, 260, 260]
    assert FP8_LARGEST == 61439  # 61440 is the tie between 57344 and 65536 (inf)
    e5m2 = np.array([61439, 61440, 57344], np.float32).astype(ml_dtypes.float8_e5m2)
    assert list(e5m2.astype(np.float64)) == [57344.0, np.inf, 57344.0]
    assert ERROR[FP32_ANGLE - 1] <= 1e-3 < ERROR[FP32_ANGLE]


def giveaways(value):
    return [str(value), f"{value:,}"]


# --- check_prec_bf16_neighbours -------------------------------------------------


@pytest.mark.parametrize("answer", [TRIPLE, np.int64(TRIPLE), float(TRIPLE),
                                    np.array([TRIPLE]), np.float32(TRIPLE)])
def test_bf16_neighbours_right(answer, reveals_nothing):
    reveals_nothing(ex.check_prec_bf16_neighbours, (answer,),
                                   giveaways(TRIPLE))


@pytest.mark.parametrize("answer, words", [
    (PAIR, "asks for three neighbours"),
    (2051, "float16's answer"),
    (TRIPLE - 1, "Round every position 0, 1, 2"),
    (TRIPLE - 2, "Round every position 0, 1, 2"),
    (100, "Round every position 0, 1, 2"),
    (5000, "Round every position 0, 1, 2"),
    (-1, "start at 0"),
    (259.5, "whole numbers"),
    ("259", "single whole number"),
    ([1, 2], "single whole number"),
    (None, "single whole number"),
    (np.nan, "single whole number"),
])
def test_bf16_neighbours_wrong(answer, words, not_yet):
    out = not_yet(ex.check_prec_bf16_neighbours, answer)
    assert words in out, out
    if not isinstance(answer, str):
        assert str(TRIPLE) not in out.replace(str(answer), "")


# --- check_prec_fp8_largest -------------------------------------------------------


@pytest.mark.parametrize("answer", [FP8_LARGEST, np.int32(FP8_LARGEST), float(FP8_LARGEST)])
def test_fp8_largest_right(answer, reveals_nothing):
    reveals_nothing(ex.check_prec_fp8_largest, (answer,),
                                   giveaways(FP8_LARGEST))


@pytest.mark.parametrize("answer, words", [
    (57344, "largest finite E5M2 number"),
    (np.float16(57344), "largest finite E5M2 number"),
    (FP8_LARGEST + 1, "gives it to the even neighbour"),
    (65519, "float16's answer"),
    (65504, "float16's answer"),
    (65535, "Find the spacing"),
    (60000, "Find the spacing"),
    (0, "Find the spacing"),
    (-5, "start at 0"),
    (np.inf, "single whole number"),
    ("61439", "single whole number"),
])
def test_fp8_largest_wrong(answer, words, not_yet):
    out = not_yet(ex.check_prec_fp8_largest, answer)
    assert words in out, out
    assert str(FP8_LARGEST) not in out


# --- check_prec_fp32_angle --------------------------------------------------------


@pytest.mark.parametrize("answer", [FP32_ANGLE, np.int64(FP32_ANGLE), float(FP32_ANGLE),
                                    np.array(FP32_ANGLE)])
def test_fp32_angle_right(answer, reveals_nothing):
    reveals_nothing(ex.check_prec_fp32_angle, (answer,),
                                   giveaways(FP32_ANGLE))


def test_fp32_angle_wrong(not_yet):
    cos_error = np.abs(np.cos((M.astype(np.float32) * np.float32(THETA)).astype(np.float64))
                       - np.cos(M * THETA))
    first_cos = int(np.flatnonzero(cos_error > 1e-3)[0])
    assert first_cos != FP32_ANGLE
    below = int(np.flatnonzero(ERROR <= 1e-3)[-1])  # an error still under 1e-3
    above = int(np.flatnonzero(ERROR > 1e-3)[-1])  # past the first one
    for answer, words in [(first_cos, "the cosine's error"), (below, "for every position"),
                          (above, "for every position"),
                          (10**7, "for every position"), (-5, "m = 0, 1, 2"),
                          (1.5, "whole numbers"), (object(), "single whole number")]:
        out = not_yet(ex.check_prec_fp32_angle, answer)
        assert words in out, (answer, out)
        assert str(FP32_ANGLE) not in out


def test_fp32_angle_names_the_wrong_reference_angle(not_yet):
    # issue 39: the usual slip is an error measured against the wrong angle
    angle32 = (M.astype(np.float32) * np.float32(THETA)).astype(np.float64)
    theta32 = float(np.float32(THETA))
    # the reference m * float32(theta): only the product's rounding is left
    product_only = int(np.flatnonzero(np.abs(angle32 - M * theta32) > 1e-3)[0])
    # the product in float64, rounded once: the frequency's rounding is left out
    once = np.abs((M * THETA).astype(np.float32).astype(np.float64) - M * THETA)
    rounded_once = int(np.flatnonzero(once > 1e-3)[0])
    # the reference in float32 as well: no error anywhere, argmax gives 0
    same = M.astype(np.float32) * np.float32(THETA)
    all_zero = int(np.argmax(np.abs(same - M.astype(np.float32) * np.float32(THETA)) > 1e-3))
    assert len({product_only, rounded_once, all_zero, FP32_ANGLE}) == 4
    for answer, words in [(all_zero, "reference angle was rounded too"),
                          (product_only, "uses the float32 frequency"),
                          (rounded_once, "rounds only the product")]:
        out = not_yet(ex.check_prec_fp32_angle, answer)
        assert words in out, (answer, out)
        assert str(FP32_ANGLE) not in out


# --- issue 40: a hint points at the method, never brackets the number ----------


@pytest.mark.parametrize("check, answer, named", [
    # (checker, its answer, the wrong answers that get a hint of their own:
    # a mistake the hint names, never a side of the answer)
    (ex.check_prec_bf16_neighbours, TRIPLE, {PAIR, 2051}),
    (ex.check_prec_fp8_largest, FP8_LARGEST, {57344, FP8_LARGEST + 1, 65504, 65519}),
    (ex.check_prec_fp32_angle, FP32_ANGLE, set()),
])
def test_a_hint_is_the_same_on_either_side_of_the_answer(check, answer, named, not_yet):
    # check_prec_fp8_largest(61438) once said "61439 is still finite in
    # E5M2: go higher", and 61439 is the answer; "go higher", "an earlier
    # one works" let a learner find any answer by bisection
    near = [answer + d for d in (-1000, -100, -10, -2, -1, 1, 2, 10, 100, 1000)]
    hints = {not_yet(check, p) for p in near if p not in named | {answer} and p >= 0}
    if check is ex.check_prec_fp32_angle:  # the mistakes with a hint of their own
        own = ("cosine", "reference angle", "float32 frequency", "rounds only the product")
        hints = {h for h in hints if not any(words in h for words in own)}
    assert len(hints) == 1, hints
    (hint,) = hints
    for words in ("higher", "lower", "earlier", "later", "still", "no longer"):
        assert words not in hint.lower(), hint
