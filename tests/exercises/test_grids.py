"""Tests of the checkers of the chapter "Positions in two dimensions, and three".

Each expected answer is derived here by hand, not with the checker's code:

* 2 text tokens, an image of 4 x 8 patches merged 2 x 2 (2 x 4 tokens),
  3 text tokens: text ids 0, 1; the image at time 2, heights 2, 3, widths
  2 to 5 (row by row); the largest id is 5, so the text after it gets 6, 7, 8;
* MAE's 14 x 14 table of width 16: patch (2, 5) is row 2 * 14 + 5 = 33;
  entry 9 is index 1 of the second half (the row, r = 2), a halves layout of
  width 8: the sine of pair 1, frequency 10000 ** (-2/8) = 0.1, so sin(0.2);
* 2-D RoPE: the score of (1, 1) and (3, 4) depends on the offset (2, 3);
  pairs a (0, 0)-(2, 3), d (5, -2)-(7, 1) and e (2, 2)-(4, 5) have it; b is
  reversed, c has rows and columns swapped, f is mirrored;
* Qwen2-VL's sections (16, 24, 24) in the halves layout: the height section
  is pairs 16 to 39, coordinates 16 to 39 and 80 to 103.

Right answers in several forms pass and reveal nothing; wrong answers get
the hint written for them; no answer makes a checker raise
(tests/exercises/test_any_answer.py feeds them anything).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import exercises

IDS = np.array([[0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 6, 7, 8],
                [0, 1, 2, 2, 2, 2, 3, 3, 3, 3, 6, 7, 8],
                [0, 1, 2, 3, 4, 5, 2, 3, 4, 5, 6, 7, 8]])
ROW_INDEX, ENTRY = 33, math.sin(0.2)
SAME_SCORE = ["a", "d", "e"]
HEIGHT = list(range(16, 40)) + list(range(80, 104))


# --- right answers -----------------------------------------------------------------


@pytest.mark.parametrize("form", [np.array, lambda v: v.tolist(), lambda v: v.astype(float),
                                  lambda v: v.astype(np.int32)])
def test_mrope_ids_right(form, reveals_nothing):
    reveals_nothing(exercises.check_grids_mrope_ids, (form(IDS),), ["6, 7, 8", "[0 1 2", "13"])


@pytest.mark.parametrize("index, entry", [(33, ENTRY), (np.int64(33), np.float32(ENTRY)),
                                          (33.0, round(ENTRY, 6)), ([33], [ENTRY])])
def test_mae_entry_right(index, entry, reveals_nothing):
    reveals_nothing(exercises.check_grids_mae_entry, (index, entry), ["33", "0.198", "0.2)"])


@pytest.mark.parametrize("form", [list, tuple, set, lambda v: "".join(v), lambda v: ", ".join(v),
                                  lambda v: [x.upper() for x in v[::-1]], np.array])
def test_rope_shift_right(form, reveals_nothing):
    reveals_nothing(exercises.check_grids_rope_shift, (form(SAME_SCORE),), ["a, d", "'a'", "ade"])


@pytest.mark.parametrize("form", [list, np.array, set, lambda v: v[::-1],
                                  lambda v: np.array(v, dtype=float)])
def test_sections_right(form, reveals_nothing):
    reveals_nothing(exercises.check_grids_sections, (form(HEIGHT),), ["16", "39", "80", "103"])


# --- wrong answers get their hint --------------------------------------------------


def with_text_after(start):
    ids = IDS.copy()
    ids[:, 10:] = start + np.arange(3)
    return ids


@pytest.mark.parametrize("answer, words", [
    (IDS.T, "Transpose it"),
    (np.zeros((3, 37), dtype=int), "merged 2 x 2"),
    (np.zeros((3, 12), dtype=int), "one column per token"),
    (with_text_after(10), "does not continue the count of tokens"),
    (with_text_after(5), "one past the largest id"),
    (IDS[[0, 2, 1]], "Height and width are swapped"),
    (np.concatenate([IDS[:, :2], IDS[:, 2:10] - 2, IDS[:, 10:]], axis=1), "do not start at 0"),
    (np.concatenate([IDS[:, :2], np.vstack([np.arange(2, 10), IDS[1:, 2:10]]), IDS[:, 10:]],
                    axis=1), "share the same time id"),
    (IDS + 1, "Text tokens get three equal ids"),
    ("ids", "whole numbers"),
    (IDS + 0.5, "whole numbers"),
])
def test_mrope_ids_wrong(answer, words, not_yet):
    assert words in not_yet(exercises.check_grids_mrope_ids, answer)


@pytest.mark.parametrize("index, entry, words", [
    (5 * 14 + 2, ENTRY, "read row by row"),
    (32, ENTRY, "Count the patches"),
    (33, math.sin(0.5), "which coordinate does MAE's second half encode"),
    (33, math.cos(2.0), "first 4 entries of a half are sines"),
    (33, math.sin(2 * 10000 ** (-2 / 16)), "width d / 2 = 8"),
    (33, math.cos(0.2), "a sine, not a cosine"),
    (33, 0.2, "find which pair and which function"),
    (33, round(ENTRY, 2), "find which pair"),
    ("33", ENTRY, "Give two numbers"),
    (33, None, "Give two numbers"),
])
def test_mae_entry_wrong(index, entry, words, not_yet):
    assert words in not_yet(exercises.check_grids_mae_entry, index, entry)


@pytest.mark.parametrize("answer, words", [
    (["a", "b", "d", "e"], "swaps the query and the key"),
    (["a", "c", "d", "e"], "swaps the row and the column"),
    (["a", "d", "e", "f"], "mirrored offset"),
    (["a", "e"], "only the offset from query to key counts"),
    (["a", "d", "e", "g"], "labelled a to f"),
    ([], "Compute the offset"),
    (["ad", "e"], "Give the letters"),
    (3, "Give the letters"),
])
def test_rope_shift_wrong(answer, words, not_yet):
    assert words in not_yet(exercises.check_grids_rope_shift, answer)


@pytest.mark.parametrize("answer, words", [
    (list(range(16, 40)), "pair i is coordinates i and i + 64"),
    (list(range(80, 104)), "pair i is coordinates i and i + 64"),
    (list(range(32, 80)), "interleaved layout"),
    (list(range(16)) + list(range(64, 80)), "another section"),
    (list(range(40, 64)) + list(range(104, 128)), "another section"),
    (HEIGHT + [16], "appear once"),
    (HEIGHT[:-1] + [128], "0 to 127"),
    (HEIGHT[:-1], "Find the pairs of the second section"),
    ("16-39", "whole-number"),
])
def test_sections_wrong(answer, words, not_yet):
    assert words in not_yet(exercises.check_grids_sections, answer)
