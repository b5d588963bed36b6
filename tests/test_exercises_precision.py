"""Tests of the checkers of the appendix "Positions in low precision".

The right answers are worked out here by brute force with the bit layout of
each format (bfloat16 as the upper half of a float32, float16 with NumPy),
independently of the checkers and of posenc.precision.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_correct_reveals_nothing

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


STORED = bfloat16_by_truncation_and_tie(range(4096))
NEIGHBOURS = int(np.flatnonzero(STORED[:-1] == STORED[1:])[0])
with np.errstate(over="ignore"):
    FP16_LARGEST = max(p for p in range(70000) if np.isfinite(np.float16(p)))
THETA = 10000.0 ** (-2 / 128)
M = np.arange(1 << 17)
ERROR = np.abs((M.astype(np.float32) * np.float32(THETA)).astype(np.float64) - M * THETA)
FP32_ANGLE = int(np.flatnonzero(ERROR > 1e-3)[0])


def test_the_brute_force_answers_are_what_the_formats_say():
    assert NEIGHBOURS == 256  # 257 is a tie between 256 and 258: to even, 256
    assert FP16_LARGEST == 65519  # 65520 is the tie between 65504 and 65536 (inf)
    assert ERROR[FP32_ANGLE - 1] <= 1e-3 < ERROR[FP32_ANGLE]


def giveaways(value):
    return [str(value), f"{value:,}"]


# --- check_prec_bf16_neighbours -------------------------------------------------


@pytest.mark.parametrize("answer", [NEIGHBOURS, np.int64(NEIGHBOURS), float(NEIGHBOURS),
                                    np.array([NEIGHBOURS]), np.float32(NEIGHBOURS)])
def test_bf16_neighbours_right(answer, capsys):
    assert_correct_reveals_nothing(capsys, ex.check_prec_bf16_neighbours, (answer,),
                                   giveaways(NEIGHBOURS))


@pytest.mark.parametrize("answer, words", [
    (NEIGHBOURS + 1, "first integer bfloat16 cannot store"),
    (2048, "float16's limit"),
    (128, "still round to different"),
    (NEIGHBOURS - 1, "still round to different"),
    (5000, "an earlier p already does"),
    (256.5, "whole numbers"),
    ("256", "single whole number"),
    ([1, 2], "single whole number"),
    (None, "single whole number"),
    (np.nan, "single whole number"),
])
def test_bf16_neighbours_wrong(answer, words, capsys):
    assert ex.check_prec_bf16_neighbours(answer) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.") and words in out, out
    if not isinstance(answer, str):
        assert str(NEIGHBOURS) not in out.replace(str(answer), "")


# --- check_prec_fp16_largest ------------------------------------------------------


@pytest.mark.parametrize("answer", [FP16_LARGEST, np.int32(FP16_LARGEST), float(FP16_LARGEST)])
def test_fp16_largest_right(answer, capsys):
    assert_correct_reveals_nothing(capsys, ex.check_prec_fp16_largest, (answer,),
                                   giveaways(FP16_LARGEST))


@pytest.mark.parametrize("answer, words", [
    (65504, "largest finite float16 number"),
    (FP16_LARGEST + 1, "ties go to the even neighbour"),
    (2048, "end of the run of exact integers"),
    (65535, "no longer finite"),
    (60000, "still finite"),
    (np.float16(65504), "largest finite float16 number"),
    (np.inf, "single whole number"),
    ("65519", "single whole number"),
])
def test_fp16_largest_wrong(answer, words, capsys):
    assert ex.check_prec_fp16_largest(answer) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.") and words in out, out
    assert str(FP16_LARGEST) not in out


# --- check_prec_fp32_angle --------------------------------------------------------


@pytest.mark.parametrize("answer", [FP32_ANGLE, np.int64(FP32_ANGLE), float(FP32_ANGLE),
                                    np.array(FP32_ANGLE)])
def test_fp32_angle_right(answer, capsys):
    assert_correct_reveals_nothing(capsys, ex.check_prec_fp32_angle, (answer,),
                                   giveaways(FP32_ANGLE))


def test_fp32_angle_wrong(capsys):
    cos_error = np.abs(np.cos((M.astype(np.float32) * np.float32(THETA)).astype(np.float64))
                       - np.cos(M * THETA))
    first_cos = int(np.flatnonzero(cos_error > 1e-3)[0])
    assert first_cos != FP32_ANGLE
    below = int(np.flatnonzero(ERROR <= 1e-3)[-1])  # an error still under 1e-3
    above = int(np.flatnonzero(ERROR > 1e-3)[-1])  # past the first one
    for answer, words in [(first_cos, "the cosine's error"), (below, "still within 1e-3"),
                          (0, "still within 1e-3"), (above, "An earlier position"),
                          (10**7, "An earlier position"), (-5, "m = 0, 1, 2"),
                          (1.5, "whole numbers"), (object(), "single whole number")]:
        assert ex.check_prec_fp32_angle(answer) is False
        out = capsys.readouterr().out
        assert out.startswith("Not yet.") and words in out, (answer, out)
        assert str(FP32_ANGLE) not in out
