"""Tests of the checkers of the worked-example chapter ("The cat sat on the mat.").

Every expected answer here is derived by hand (the derivation is in the
comments), not copied from the checkers. For each checker: right answers in
several equivalent forms pass, typical wrong answers fail with a hint, and
no message ever prints the expected value.
"""

from __future__ import annotations

import math

import nbformat
import numpy as np
import pytest
from tools.paths import BOOK

import posenc
from posenc import exercises

# PE(pos) for d_model = 4 is [sin pos, cos pos, sin(pos/100), cos(pos/100)]
PE10 = [math.sin(10), math.cos(10), math.sin(0.1), math.cos(0.1)]
# "The dog saw the cat and the cat saw the dog.", counted from 1: "cat" at 5
# and 8. x_8 - x_5 = PE(8) - PE(5): the shared embedding of "cat" cancels
DIFF = [math.sin(8) - math.sin(5), math.cos(8) - math.cos(5),
        math.sin(0.08) - math.sin(0.05), math.cos(0.08) - math.cos(0.05)]
# the same on a calculator in degree mode: sin 8 degrees, ..., cos 0.05 degrees
_deg = math.radians
DEG_DIFF = [math.sin(_deg(8)) - math.sin(_deg(5)), math.cos(_deg(8)) - math.cos(_deg(5)),
            math.sin(_deg(0.08)) - math.sin(_deg(0.05)), math.cos(_deg(0.08)) - math.cos(_deg(0.05))]
# the misconception "PE(8) - PE(5) = PE(8 - 5)"
PE3 = [math.sin(3), math.cos(3), math.sin(0.03), math.cos(0.03)]
# what the chapter prints for its two "the"s (positions 1 and 5)
THE_DIFF = [math.sin(5) - math.sin(1), math.cos(5) - math.cos(1),
            math.sin(0.05) - math.sin(0.01), math.cos(0.05) - math.cos(0.01)]


def never_reveals(text, values, decimals=(2, 3, 4)):
    for v in values:
        for d in decimals:
            assert f"{v:.{d}f}" not in text, f"hint reveals {v:.{d}f}: {text!r}"


# --- check_cat_vocab_sizes ----------------------------------------------------
# "The dog saw the cat and the cat saw the dog." has 11 tokens. Distinct with
# case kept: The, dog, saw, the, cat, and -> 6. Lower-cased: the, dog, saw,
# cat, and -> 5.


@pytest.mark.parametrize("answer", [(6, 5), (6.0, 5.0), (np.int64(6), np.int32(5))])
def test_vocab_sizes_right(answer, correct):
    correct(exercises.check_cat_vocab_sizes, *answer)


@pytest.mark.parametrize(
    "answer, hint",
    [
        ((11, 11), "distinct"),        # counted every token
        ((7, 6), "punctuation"),       # counted the full stop
        ((6, 6), "merges"),            # forgot that lower-casing merges The/the
        ((5, 6), "never split"),       # swapped
        ((4, 3), "cross out"),         # miscounted
        (("six", 5), "whole numbers"),
        ((6.5, 5), "whole numbers"),
        ((True, 5), "whole numbers"),
    ],
)
def test_vocab_sizes_wrong(answer, hint, not_yet):
    out = not_yet(exercises.check_cat_vocab_sizes, *answer)
    assert hint in out
    assert "6" not in out and "5" not in out


# --- check_cat_pe10 -----------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        PE10,
        np.array(PE10),
        tuple(PE10),
        [round(v, 3) for v in PE10],          # three decimals are enough
        [-0.544, -0.8391, 0.1, 0.995],        # pencil, with sin x ~ x, cos x ~ 1 - x^2/2
        np.array(PE10, dtype=np.float32),
    ],
)
def test_pe10_right(answer, correct):
    correct(exercises.check_cat_pe10, answer)


@pytest.mark.parametrize("shape", [(1, 4), (4, 1), (1, 1, 4)])
def test_pe10_accepts_a_row_of_a_table(shape, correct):
    # issue 39: posenc.sinusoidal(1, 4, start=10) returns a (1, 4) row, and was refused
    correct(exercises.check_cat_pe10, np.reshape(PE10, shape))
    row = posenc.sinusoidal(1, 4, start=10)
    assert row.shape == (1, 4)
    correct(exercises.check_cat_pe10, row)


def test_the_chapter_does_not_print_the_answers():
    # The exercises ask for numbers the reader cannot copy from the chapter:
    # no output of book/03 shows PE(10) or x_8 - x_5 (or their values).
    nb = nbformat.read(BOOK / "03_cat.ipynb", as_version=4)
    shown = "\n".join(out.get("text", "") + out.get("data", {}).get("text/plain", "")
                      for cell in nb.cells if cell.cell_type == "code"
                      and "BEGIN SOLUTION" not in cell.source
                      for out in cell.get("outputs", []))
    assert "PE(10) =" not in shown and "x_8 - x_5 =" not in shown
    for values in (PE10, DIFF):
        assert not all(f"{v:.4f}" in shown for v in values)


DEG = [math.sin(math.radians(10)), math.cos(math.radians(10)),
       math.sin(math.radians(0.1)), math.cos(math.radians(0.1))]


@pytest.mark.parametrize(
    "answer, hint",
    [
        (DEG, "degrees"),
        ([PE10[1], PE10[0], PE10[3], PE10[2]], "swapped"),
        # divisor 10 instead of 100 for the second pair (exponent i/d instead of 2i/d)
        ([PE10[0], PE10[1], math.sin(1.0), math.cos(1.0)], "second pair"),
        # PE(9) and PE(11): off by one position
        ([math.sin(9), math.cos(9), math.sin(0.09), math.cos(0.09)], "neighbouring"),
        ([math.sin(11), math.cos(11), math.sin(0.11), math.cos(0.11)], "neighbouring"),
        # fast pair taken as if 10 rad were 10 - 2 pi wrongly, e.g. 10 - pi
        ([math.sin(10 - math.pi), math.cos(10 - math.pi), PE10[2], PE10[3]], "full turn"),
        ([0.0, 0.0, 0.0, 0.0], "For pair i"),
        ([round(v, 1) for v in PE10], "For pair i"),  # one decimal is too coarse
        (PE10[:3], "4 numbers"),
        ([PE10, PE10], "4 numbers"),  # two rows ([PE10], one row, is right: issue 39)
        ("-0.54, -0.84, 0.1, 1.0", "4 numbers"),
        (None, "4 numbers"),
    ],
)
def test_pe10_wrong(answer, hint, not_yet):
    out = not_yet(exercises.check_cat_pe10, answer)
    assert hint in out
    never_reveals(out, PE10)


# --- check_cat_most_changed ---------------------------------------------------
# 1 -> 2: |sin 2 - sin 1| = 0.068, |cos 2 - cos 1| = 0.956, slow pair <= 0.01: dim 1.
# 3 -> 4: |sin 4 - sin 3| = 0.898, |cos 4 - cos 3| = 0.336: dim 0.


def test_most_changed_by_hand_derivation():
    assert abs(math.cos(2) - math.cos(1)) > abs(math.sin(2) - math.sin(1)) > 0.01
    assert abs(math.sin(4) - math.sin(3)) > abs(math.cos(4) - math.cos(3)) > 0.01


@pytest.mark.parametrize("answer", [(1, 0), (1.0, 0.0), (np.int64(1), np.int64(0))])
def test_most_changed_right(answer, correct):
    correct(exercises.check_cat_most_changed, *answer)


@pytest.mark.parametrize(
    "answer, hint",
    [
        ((0, 0), "sine changes fastest"),
        ((0, 1), "sine changes fastest"),
        ((1, 1), "sine changes fastest"),
        ((2, 0), "slow pair"),
        ((1, 3), "slow pair"),
        ((4, 0), "0 to 3"),
        ((-1, 0), "0 to 3"),
        (("dim 1", 0), "0 to 3"),
        ((1.5, 0), "0 to 3"),
        # issue 39: the right dimensions counted from 1 got the slow-pair hint
        ((2, 1), "Count the dimensions from 0"),
        ((2.0, 1.0), "Count the dimensions from 0"),
    ],
)
def test_most_changed_wrong(answer, hint, not_yet):
    out = not_yet(exercises.check_cat_most_changed, *answer)
    assert hint in out
    assert "dim 1" not in out and "dim 0" not in out and "dimension 1" not in out


@pytest.mark.parametrize("answer, which", [
    # issue 27, item 7: (1, 1) did not say which of the two answers is wrong
    ((1, 1), "step_12 is right; step_34 is not"),
    ((1, 3), "step_12 is right; step_34 is not"),
    ((0, 0), "step_34 is right; step_12 is not"),
    ((3, 0), "step_34 is right; step_12 is not"),
    ((0, 1), "Neither answer is right"),
])
def test_most_changed_says_which_answer_is_wrong(answer, which, not_yet):
    out = not_yet(exercises.check_cat_most_changed, *answer)
    assert which in out


# --- check_cat_two_cats -------------------------------------------------------


def test_the_two_cats_stand_at_positions_5_and_8():
    words = "The dog saw the cat and the cat saw the dog".split()
    assert [p for p, w in enumerate(words, start=1) if w == "cat"] == [5, 8]


@pytest.mark.parametrize(
    "answer",
    [DIFF, np.array(DIFF), tuple(DIFF), [round(v, 3) for v in DIFF],
     [1.9483, -0.4292, 0.03, -0.0019]],
)
def test_two_cats_right(answer, correct):
    correct(exercises.check_cat_two_cats, answer)


def test_two_cats_is_independent_of_the_embedding(correct):
    # any embedding e cancels: (e + PE(8)) - (e + PE(5))
    e = np.array([0.3, -1.2, 2.0, 0.7])
    pe5 = np.array([math.sin(5), math.cos(5), math.sin(0.05), math.cos(0.05)])
    pe8 = np.array([math.sin(8), math.cos(8), math.sin(0.08), math.cos(0.08)])
    correct(exercises.check_cat_two_cats, (e + pe8) - (e + pe5))


@pytest.mark.parametrize(
    "answer, hint",
    [
        ([-v for v in DIFF], "sign is reversed"),
        # positions counted from 0: PE(7) - PE(4)
        ([math.sin(7) - math.sin(4), math.cos(7) - math.cos(4),
          math.sin(0.07) - math.sin(0.04), math.cos(0.07) - math.cos(0.04)], "counted from 0"),
        # copied from the chapter: the two "the"s, PE(5) - PE(1)
        (THE_DIFF, "two 'the's"),
        ([-v for v in THE_DIFF], "two 'the's"),
        ([0.0, 0.0, 0.0, 0.0], "E cancels"),
        # issue 27, item 7: a calculator in degree mode, and "the difference is
        # PE(3)", got the generic hint
        (DEG_DIFF, "in degrees"),
        ([-v for v in DEG_DIFF], "in degrees"),
        (PE3, "PE(8 - 5)"),
        ([-v for v in PE3], "PE(8 - 5)"),
        (DIFF[:2], "4 numbers"),
        ("x8 - x5", "4 numbers"),
    ],
)
def test_two_cats_wrong(answer, hint, not_yet):
    out = not_yet(exercises.check_cat_two_cats, answer)
    assert hint in out
    never_reveals(out, DIFF)


def test_two_cats_accepts_a_row_of_a_table(correct):
    # issue 39: the difference of two (1, 4) rows of posenc.sinusoidal was refused
    rows = posenc.sinusoidal(1, 4, start=8) - posenc.sinusoidal(1, 4, start=5)
    assert rows.shape == (1, 4)
    correct(exercises.check_cat_two_cats, rows)
    correct(exercises.check_cat_two_cats, np.reshape(DIFF, (4, 1)))


@pytest.mark.parametrize("answer", [np.zeros((2, 2)), np.zeros((2, 4)), np.zeros((1, 5))])
def test_two_cats_refuses_other_shapes(answer, not_yet):
    assert "4 numbers" in not_yet(exercises.check_cat_two_cats, answer)


# --- success messages give nothing away ----------------------------------------
# The book prints the check's output under the exercise, outside the solution's
# toggle, so "Correct! ..." must not state the answer, its numbers, the angles
# the exercise asks to write down first, or the reasoning it asks for.

PE1 = [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)]


@pytest.mark.parametrize("check, args, giveaways, values", [
    (exercises.check_cat_vocab_sizes, (6, 5),
     ["6", "5", "one row", "saves", "share", "'The'", "merge"], []),
    (exercises.check_cat_pe10, (PE10,),
     ["10 radians", "0.1", "radian", "fast pair", "slow pair", "angle", "turned", "turn"],
     PE10),
    (exercises.check_cat_most_changed, (1, 0),
     ["1", "0", "fast pair", "slow pair", "sine", "cosine", "circle", "wins"], []),
    (exercises.check_cat_two_cats, (DIFF,),
     ["PE(8)", "PE(5)", "cancel", "embedding", "whatever the word", "only the positions"],
     DIFF),
])
def test_success_message_gives_nothing_away(check, args, giveaways, values, reveals_nothing):
    out = reveals_nothing(check, args, giveaways)
    never_reveals(out, values)
