"""Tests of the checkers of the chapter "Positions in the models you use".

Each expected answer is derived here by hand, not with the checker's code:

* Phi-2: heads of 2560 / 32 = 80 features; int(80 * 0.4) = 32 turn, in
  16 pairs: (32, 16);
* the permutation for rotate_half: new feature 4j + i is old feature 2i + j,
  columns [0, 2, 4, 6, 1, 3, 5, 7] of W_q;
* OPT, mask rows with 3, 1 and 0 pads: positions cumsum(mask) * mask - 1,
  rows positions + 2: [1, 1, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6, 7],
  [2, 3, 4, 5, 6, 7, 8];
* Phi-3's pair 20 at 5000 tokens (past 4096): 10000 ** (-40 / 96) divided by
  long_factor[20] = 15.789999961853027;
* Llama 4 at position 40000: 1 + 0.1 ln(1 + floor(40001 / 8192)) = 1 + 0.1 ln 5.

Right answers in several forms pass; wrong answers fail with a hint that
does not contain the expected value; no answer makes a checker raise.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import exercises

ROTATED = (32, 16)
PERMUTATION = [0, 2, 4, 6, 1, 3, 5, 7]
W_Q = np.random.default_rng(9).normal(size=(6, 8))
OPT_ROWS = [[1, 1, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6, 7], [2, 3, 4, 5, 6, 7, 8]]
PAIR_20 = 10000.0 ** (-40 / 96) / 15.789999961853027
LLAMA4 = 1 + 0.1 * math.log(5)


# --- right answers -----------------------------------------------------------------


@pytest.mark.parametrize("form", [tuple, list, np.array, lambda v: np.array(v, float)])
def test_rotated_width_right(form, reveals_nothing):
    reveals_nothing(exercises.check_models_rotated_width, (form(ROTATED),), ["32", "16"])


@pytest.mark.parametrize("form", [np.array, lambda w: w.tolist(), np.copy])
def test_permute_right(form, correct):
    correct(exercises.check_models_permute, form(W_Q[:, PERMUTATION]))


@pytest.mark.parametrize("form", [list, np.array, lambda v: np.array(v, float)])
def test_opt_rows_right(form, reveals_nothing):
    reveals_nothing(exercises.check_models_opt_rows, (form(OPT_ROWS),), ["[1, 1, 1", "+ 2"])


@pytest.mark.parametrize("form", [float, np.float32, lambda v: [v], np.array,
                                  lambda v: v * (1 + 5e-7)])
def test_longrope_pair_right(form, reveals_nothing):
    reveals_nothing(exercises.check_models_longrope_pair, (form(PAIR_20),),
                    [f"{PAIR_20:.4g}", "15.79"])


@pytest.mark.parametrize("form", [float, np.float64, lambda v: [v], lambda v: v * (1 + 5e-7)])
def test_llama4_scale_right(form, reveals_nothing):
    reveals_nothing(exercises.check_models_llama4_scale, (form(LLAMA4),), ["1.16", "ln 5"])


# --- wrong answers, each with its own hint -------------------------------------------


@pytest.mark.parametrize("answer, words", [
    ((16, 32), "other order"),
    ((1024, 512), "not of the\nhidden size|hidden size"),
    ((80, 40), "whole head"),
    ((32, 32), "How many frequencies"),
    ((30, 15), "hidden_size / num_attention_heads"),
    ("32, 16", "two whole numbers"),
    ((32,), "two whole numbers"),
])
def test_rotated_width_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_models_rotated_width, answer)
    assert any(w in text for w in words.split("|")), text


@pytest.mark.parametrize("answer, words", [
    (W_Q, "as it was"),
    (W_Q[:, np.argsort(PERMUTATION)], "way back"),
    (W_Q[[1, 0, 2, 3, 4, 5]], "columns, not the rows"),
    (W_Q[:, [1, 0, 2, 3, 4, 5, 6, 7]], "new feature j * 4 + i"),
    (W_Q.T, "shape (6, 8)"),
    ("W_q", "shape (6, 8)"),
])
def test_permute_wrong(answer, words, not_yet):
    assert words in not_yet(exercises.check_models_permute, answer)


@pytest.mark.parametrize("answer, words", [
    (np.array(OPT_ROWS) - 2, "position ids"),
    (np.tile(np.arange(7), (3, 1)) + 2, "from the attention mask"),
    (np.tile(np.arange(7), (3, 1)), "from the attention mask"),
    (np.where(np.array(OPT_ROWS) == 1, 0, OPT_ROWS), "real tokens are right"),
    (np.array(OPT_ROWS) + 1, "cumulative sum"),
    (np.array(OPT_ROWS)[:2], "shape (3, 7)"),
])
def test_opt_rows_wrong(answer, words, not_yet):
    assert words in not_yet(exercises.check_models_opt_rows, answer)


THETA_20 = 10000.0 ** (-40 / 96)


@pytest.mark.parametrize("answer, words", [
    (THETA_20 / 2.000000000000001, "short factors"),
    (THETA_20, "plain ladder"),
    (THETA_20 * 15.789999961853027, "divide, do not multiply"),
    (2 * math.pi / PAIR_20, "wavelength"),
    (PAIR_20 * 1.0004, "more digits"),
    (PAIR_20 * 2, "divide it by the\nfactor|pair 20 of the plain ladder"),
    ("0.0001", "one number"),
])
def test_longrope_pair_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_models_longrope_pair, answer)
    assert any(w in text for w in words.split("|")), text


@pytest.mark.parametrize("answer, words", [
    (1 + 0.1 * math.log1p(40000 / 8192), "rounds the position down"),
    (1 + 0.1 * math.log10(5), "natural logarithm"),
    (1.0, "above 1"),
    (LLAMA4 * 1.0004, "more digits"),
    (1 + 0.1 * math.log(4), "1 + attn_scale"),
    ([1.1, 1.2], "one number"),
])
def test_llama4_scale_wrong(answer, words, not_yet):
    assert words in not_yet(exercises.check_models_llama4_scale, answer)
