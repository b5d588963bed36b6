"""Tests of the checkers of the chapter "Stretching the context".

Each expected answer is derived here by hand, not with the checker's code:

* dynamic NTK, Llama 2 head (d = 128, base 10000, L = 4096), factor 2 at
  10240 tokens: scale 2 * 10240 / 4096 - 1 = 4, base 10000 * 4 ** (128/126);
* YaRN, d = 64, base 10000, L = 2048: pair i turns r_i = 2048 / (2 pi
  10000 ** (i/32)) times; r_i = 32 at i = 32 ln(2048 / (64 pi)) / ln 10000
  = 8.06, which the reference code rounds down to 8, where the ramp is still
  0: pairs 0 to 8 keep their frequency;
* Llama 3.1's rule on a Llama 2 head (d = 128, base 10000, L = 4096,
  factor 4, low 1, high 4): wavelength 2 pi 10000 ** (i/64) is below
  4096 / 4 = 1024 up to i = 64 ln(1024 / 2 pi) / ln 10000 = 35.4 and above
  4096 from i = 45.03: 36 pairs kept (0-35), 10 blended (36-45), 18
  divided (46-63);
* YaRN with s = 16: q and k are both scaled by 0.1 ln 16 + 1, the logits by
  its square.

The two numerical answers may be rounded: the dynamic base to the nearest
whole number (a relative 1.4e-6 from the exact value; the base of a length
off by one, 10239 tokens, is 1.2e-4 away and is refused), the logit factor
to four significant figures (1.631, a relative 2.4e-4).

Right answers in several forms pass; wrong answers fail with a hint that
does not contain the expected value; no answer makes a checker raise.
"""

from __future__ import annotations

import re

import math

import numpy as np
import pytest

from posenc import exercises

DYNAMIC_BASE = 10000 * 4 ** (128 / 126)
YARN_KEPT = list(range(9))
LLAMA3_BANDS = (36, 10, 18)
MSCALE = 0.1 * math.log(16) + 1
YARN_LOGITS = MSCALE**2

CHECKERS = [exercises.check_stretch_dynamic_base, exercises.check_stretch_yarn_kept,
            exercises.check_stretch_llama3_bands, exercises.check_stretch_yarn_logits]


# --- right answers -----------------------------------------------------------


@pytest.mark.parametrize("form", [float, np.float32, np.array, lambda v: [v],
                                  lambda v: np.float64(v * (1 + 1e-8)), round,
                                  lambda v: round(v, 2)])
def test_dynamic_base_right(form, reveals_nothing):
    text = reveals_nothing(
        exercises.check_stretch_dynamic_base, (form(DYNAMIC_BASE),),
        ["40889", "4.08", "40,889"])
    assert "Transformers" in text


def _mask(indices):
    mask = np.zeros(32, dtype=bool)
    mask[indices] = True
    return mask


@pytest.mark.parametrize("form", [list, np.array, tuple, set, lambda v: v[::-1],
                                  lambda v: np.array(v, dtype=float),
                                  _mask, lambda v: _mask(v).tolist()])
def test_yarn_kept_right(form, reveals_nothing):
    reveals_nothing(exercises.check_stretch_yarn_kept,
                                   (form(YARN_KEPT),), ["[0, 1", "0 to 8", "nine", " 9 "])


@pytest.mark.parametrize("form", [tuple, list, np.array, lambda v: np.array(v, dtype=float)])
def test_llama3_bands_right(form, reveals_nothing):
    reveals_nothing(exercises.check_stretch_llama3_bands,
                                   (form(LLAMA3_BANDS),), ["36", "10", "18"])


@pytest.mark.parametrize("form", [float, np.float32, lambda v: [v],
                                  lambda v: round(v, 4), lambda v: round(v, 3),
                                  lambda v: round(MSCALE, 3) ** 2])
def test_yarn_logits_right(form, reveals_nothing):
    reveals_nothing(exercises.check_stretch_yarn_logits,
                                   (form(YARN_LOGITS),), ["1.63", "1.27"])


# --- wrong answers, with the hint they deserve ---------------------------------


@pytest.mark.parametrize(("answer", "words"), [
    (10000.0, "does change the base"),
    (10000 * 2 ** (128 / 126), "fixed NTK base"),
    (10000 * 2.5 ** (128 / 126), "factor 1"),
    (40000.0, "power d / (d - 2)"),
    (DYNAMIC_BASE * 1.01, "current scale"),
    (DYNAMIC_BASE * 1.001, "keep more digits"),
    (round(DYNAMIC_BASE, -2), "keep more digits"),
    (10000 * (2 * 10239 / 4096 - 1) ** (128 / 126), "number of tokens"),
    (10000 * (2 * 10241 / 4096 - 1) ** (128 / 126), "number of tokens"),
    ("40889.94", "one number"),
])
def test_dynamic_base_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_stretch_dynamic_base, answer)
    assert words in text and "40889" not in text


@pytest.mark.parametrize(("answer", "words"), [
    (9, "not how many"),
    (list(range(8)), "first pair of the ramp"),
    (list(range(9)) + [31], "slow pairs"),
    (list(range(10)), "turns does it make"),
    ([0, 0, 1], "once"),
    ([0, 32], "32 pairs"),
    ([[0, 1]], "flat list"),
    ([0.5], "whole-number"),
    (_mask(list(range(8))), "first pair of the ramp"),
    (_mask(list(range(10))), "turns does it make"),
    (_mask(YARN_KEPT)[:31], "one True/False per pair"),
    (np.ones((2, 32), dtype=bool), "one True/False per pair"),
])
def test_yarn_kept_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_stretch_yarn_kept, answer)
    assert words in text and "[0, 1, 2" not in text


@pytest.mark.parametrize(("answer", "words"), [
    ((36, 10, 19), "add up to 64"),
    ((18, 10, 36), "another order"),
    ((10, 36, 18), "another order"),
    ((36, 18, 10), "another order"),
    ((18, 36, 10), "another order"),
    ((29, 6, 29), "Llama 3.1 head"),
    ((46, 0, 18), "blends"),
    ((36, 0, 28), "blends"),
    ((35, 11, 18), "Count the wavelengths"),
    ((36, 10), "three whole numbers"),
])
def test_llama3_bands_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_stretch_llama3_bands, answer)
    assert words in text and "36" not in text and "18" not in text


@pytest.mark.parametrize(("answer", "words"), [
    (MSCALE, "attention factor itself"),
    (1 / YARN_LOGITS, "larger, not smaller"),
    ((0.1 * math.log10(16) + 1) ** 2, "natural logarithm"),
    (2.0, "follow it through q and k"),
    (round(YARN_LOGITS, 2), "keep more digits"),
])
def test_yarn_logits_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_stretch_yarn_logits, answer)
    assert words in text and "1.63" not in text and "1.27" not in text


def test_yarn_logits_hint_for_the_unsquared_factor_keeps_the_answer(not_yet):
    """It points to where the factor acts, without saying that it acts twice."""
    text = not_yet(exercises.check_stretch_yarn_logits, MSCALE).lower()
    for giveaway in ["both", "square", "twice", "two vectors", "query and the key"]:
        assert giveaway not in text, giveaway


@pytest.mark.parametrize("answer", [
    None, "text", {"a": 1}, [[1.0], [1.0, 2.0]], float("nan"), float("inf"), 10**400,
    [10**400], [1e30], 2**40, [], (), print, object(), 1j, [1 + 1j], {1.5}, True, -3,
], ids=lambda answer: re.sub(r" at 0x[0-9a-f]+", "", repr(answer)))
@pytest.mark.parametrize("check", CHECKERS, ids=lambda c: c.__name__)
def test_no_answer_makes_a_checker_raise(check, answer, not_yet):
    not_yet(check, answer)
