"""Tests of the checkers of the chapter "The sinusoidal formula".

Each checker must accept every correct form of the answer, reject wrong
answers with a hint, and never print the expected value. The right answers
below are derived from the formula by hand (or written out in a different
way from the checker), not copied from the checker's own output.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import posenc
from posenc import exercises as ex
from posenc import rotation_matrix, sinusoidal

# --- check_sines_longest_wavelength -------------------------------------------

# d_model = 64: last pair i = 31, 2i / d = 62 / 64, wavelength 2*pi * 10000**(62/64)
LONGEST = 2 * math.pi * 10000 ** (31 / 32)


@pytest.mark.parametrize(
    "answer",
    [LONGEST, np.float32(LONGEST), np.array(LONGEST), np.array([LONGEST]),
     2 * math.pi / 10000 ** (-62 / 64), float(2 * np.pi / 1e-4 ** (62 / 64)),
     round(LONGEST, 2),  # two decimals, as the hint asks
     2 * np.float32(np.pi) * np.float32(10000) ** np.float32(62 / 64)],  # all float32
)
def test_longest_wavelength_right(answer, correct):
    correct(ex.check_sines_longest_wavelength, answer)


@pytest.mark.parametrize(
    "answer, words",
    [
        (2 * math.pi * 10000, "round figure"),
        (2 * math.pi, "fastest pair"),
        (10000 ** (62 / 64), "2*pi / omega_i"),
        (2 * math.pi * 10000 ** (31 / 64), "2i / d_model"),
        (2 * math.pi * 10000 ** (63 / 64), "largest i"),
        (LONGEST * 1.001, "largest i"),
        # issue 27, item 7: the whole number got the generic formula hint
        (47117, "keep more digits"),
        (round(LONGEST, -2), "keep more digits"),
        (np.float32(47117.0), "keep more digits"),
        # issue 39: one decimal was accepted while the whole number was refused
        (round(LONGEST, 1), "keep more digits"),
        ("sixty thousand", "single number"),
        ([LONGEST, LONGEST], "single number"),
    ],
)
def test_longest_wavelength_wrong(answer, words, not_yet):
    out = not_yet(ex.check_sines_longest_wavelength, answer)
    assert words in out
    for shown in (f"{LONGEST:.0f}", f"{LONGEST:.1f}", f"{LONGEST:.3g}", f"{LONGEST:,.0f}"):
        assert shown not in out


# --- check_sines_spot_the_bug --------------------------------------------------


def fixed_loop(length, d_model):
    """The formula written entry by entry, the slow way."""
    pe = [[0.0] * d_model for _ in range(length)]
    for pos in range(length):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            pe[pos][2 * i] = math.sin(angle)
            pe[pos][2 * i + 1] = math.cos(angle)
    return pe  # a list of lists is accepted too


def fixed_exp_log(length, d_model):
    position = np.arange(length)[:, None]
    div_term = np.exp(np.arange(0, d_model, 2) * -(np.log(10000.0) / d_model))
    pe = np.zeros((length, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def buggy(length, d_model):
    """The exercise's bug: i runs over 0, 2, 4, ... and is doubled again."""
    pos = np.arange(length)[:, None]
    i = np.arange(0, d_model, 2)
    pe = np.zeros((length, d_model))
    pe[:, 0::2] = np.sin(pos / 10000 ** (2 * i / d_model))
    pe[:, 1::2] = np.cos(pos / 10000 ** (2 * i / d_model))
    return pe


def i_not_2i(length, d_model):
    """The other famous slip: exponent i / d_model."""
    pos = np.arange(length)[:, None]
    i = np.arange(d_model // 2)
    pe = np.zeros((length, d_model))
    pe[:, 0::2] = np.sin(pos / 10000 ** (i / d_model))
    pe[:, 1::2] = np.cos(pos / 10000 ** (i / d_model))
    return pe


def halves(length, d_model):
    pos = np.arange(length)[:, None]
    angles = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.hstack([np.sin(angles), np.cos(angles)])


def wrong_base(length, d_model):
    pos = np.arange(length)[:, None]
    angles = pos / 1000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((length, d_model))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
    return pe


def test_the_wrong_answers_are_what_their_names_say():
    assert np.allclose(halves(7, 8), sinusoidal(7, 8, layout="halves"))
    assert np.allclose(wrong_base(7, 8), sinusoidal(7, 8, base=1000.0))


def raises(length, d_model):
    raise ZeroDivisionError("oops")


@pytest.mark.parametrize("func", [fixed_loop, fixed_exp_log])
def test_spot_the_bug_right(func, correct):
    correct(ex.check_sines_spot_the_bug, func)


@pytest.mark.parametrize(
    "func, words",
    [
        (buggy, "still the buggy numbers"),
        (i_not_2i, "off the other way"),
        (halves, "wrong columns"),
        (wrong_base, "first pair of columns is right"),
        (lambda length, d_model: np.ones((length, d_model)), "position 0 gives"),
        (lambda length, d_model: np.zeros((d_model, length)), "shape"),
        (raises, "ZeroDivisionError"),
        (sinusoidal(4, 6), "function itself"),
    ],
)
def test_spot_the_bug_wrong(func, words, not_yet):
    out = not_yet(ex.check_sines_spot_the_bug, func)
    assert words in out


def fixed_with_frequencies(length, d_model):
    # right, but the exercise says "NumPy only, without calling posenc"
    angles = np.arange(length)[:, None] * posenc.frequencies(d_model)
    pe = np.zeros((length, d_model))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
    return pe


@pytest.mark.parametrize("func, name", [
    (lambda length, d_model: sinusoidal(length, d_model), "posenc.sinusoidal"),
    (fixed_with_frequencies, "posenc.frequencies"),
])
def test_spot_the_bug_holds_the_exercise_to_numpy_only(func, name, not_yet):
    # issue 27, item 8: calling posenc.sinusoidal got "Correct!"
    out = not_yet(ex.check_sines_spot_the_bug, func)
    assert "NumPy only" in out and name in out


def test_spot_the_bug_hint_never_shows_the_table(not_yet):
    out = not_yet(ex.check_sines_spot_the_bug, buggy)
    # sin(1 / 10000**(2/6)) and cos of it, the first entries the bug gets wrong
    for shown in ("0.0464", "0.9989", "2 * i", "2*i", "2i / d_model", "arange"):
        assert shown not in out


def test_spot_the_bug_only_the_first_pair_is_right():
    # The solution and the hint say the bug leaves columns 0 and 1 right and no
    # others; over the chapter's 50 positions every other column visibly differs.
    gap = np.abs(buggy(50, 6) - sinusoidal(50, 6)).max(axis=0)
    assert np.all(gap[:2] <= 1e-12)
    assert np.all(gap[2:] > 1e-3)


# --- check_sines_dot_at_offset -------------------------------------------------


def dot_sum(k, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    return np.sum(np.cos(k * omega))


def dot_from_table(k, d_model):
    # PE(pos) . PE(pos + k) at an arbitrary position, straight from the table
    start = 7 - min(k, 0)
    pe = sinusoidal(abs(k) + 1, d_model, start=start if k >= 0 else start + k)
    return float(pe[0] @ pe[-1])


def dot_from_a_numpy_table(k, d_model):
    # the same, with the table written in NumPy: rows at whole positions only
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    angles = np.arange(abs(k) + 1)[:, None] * omega
    pe = np.zeros((abs(k) + 1, d_model))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
    return float(pe[0] @ pe[abs(k)])


def dot_loop(k, d_model):
    return sum(math.cos(k / 10000 ** (2 * i / d_model)) for i in range(d_model // 2))


def dot_with_frequencies(k, d_model):
    return float(np.cos(k * posenc.frequencies(d_model)).sum())


@pytest.mark.parametrize("func", [dot_sum, dot_loop, dot_with_frequencies,
                                  lambda k, d: np.array([dot_sum(k, d)])])
def test_dot_at_offset_right(func, correct):
    correct(ex.check_sines_dot_at_offset, func)


def test_a_table_answers_whole_offsets_right():
    # so the checker's verdict on the table answers below is about the rule
    for k in (0, 3, -3, 37):
        assert dot_from_table(k, 8) == pytest.approx(dot_sum(k, 8), abs=1e-9)
        assert dot_from_a_numpy_table(k, 8) == pytest.approx(dot_sum(k, 8), abs=1e-9)


@pytest.mark.parametrize("func, words", [
    (dot_from_table, "no table, and your function calls posenc.sinusoidal"),
    (dot_from_a_numpy_table, "not at k = 2.5"),
    (lambda k, d: dot_sum(round(k), d), "not at k = 2.5"),
])
def test_dot_at_offset_holds_the_exercise_to_no_table(func, words, not_yet):
    # issue 27, item 8: the exercise says "without building a table", and a
    # table got "Correct!"
    out = not_yet(ex.check_sines_dot_at_offset, func)
    assert words in out


@pytest.mark.parametrize(
    "func, words",
    [
        (lambda k, d: d / 2, "Right at k = 0"),
        (lambda k, d: d, "Start with k = 0"),
        (lambda k, d: dot_sum(abs(k) + 1, d), "Start with k = 0"),
        (lambda k, d: np.sum(np.sin(k * 10000.0 ** (-np.arange(0, d, 2) / d))) + d / 2 * (k == 0),
         "Test it against a table"),
        (lambda k, d: [1.0, 2.0], "one number"),
        (lambda k, d: 1 / 0, "ZeroDivisionError"),
        (4.0, "function itself"),
    ],
)
def test_dot_at_offset_wrong(func, words, not_yet):
    out = not_yet(ex.check_sines_dot_at_offset, func)
    assert words in out


# --- check_sines_rotation ------------------------------------------------------


def rotation_by_hand(k=5, d_model=6):
    M = np.zeros((d_model, d_model))
    for i in range(d_model // 2):
        a = k / 10000 ** (2 * i / d_model)
        M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]]
    return M


@pytest.mark.parametrize(
    "M",
    [rotation_by_hand(), rotation_by_hand().tolist(), rotation_matrix(5, 6),
     rotation_matrix(1, 6) @ rotation_matrix(4, 6), rotation_matrix(-5, 6).T,
     rotation_by_hand().astype(np.float32)],
)
def test_rotation_right(M, correct):
    correct(ex.check_sines_rotation, M)


def least_squares_from_one_row():
    # maps PE(0) to PE(5), and nothing else: a rank-one "solution"
    pe = sinusoidal(6, 6)
    return np.outer(pe[5], pe[0]) / (pe[0] @ pe[0])


@pytest.mark.parametrize(
    "M, words",
    [
        (rotation_by_hand().T, "5 positions back"),
        (np.eye(6), "identity"),
        (least_squares_from_one_row(), "works for pos = 0"),
        (rotation_by_hand(k=4), "angle-addition formulas. Which entries"),
        # issue 27, item 7: rounded entries got the generic hint
        (np.round(rotation_by_hand(), 4), "keep more digits"),
        (np.round(rotation_by_hand(), 3), "keep more digits"),
        (rotation_matrix(5, 6, layout="halves"), "angle-addition formulas. Which entries"),
        (np.eye(4), "6 x 6"),
        ("M", "6 x 6"),
    ],
)
def test_rotation_wrong(M, words, not_yet):
    out = not_yet(ex.check_sines_rotation, M)
    assert words in out
    # cos(5) and sin(5), the top-left block, never appear
    assert "0.2837" not in out and "0.9589" not in out


# --- check_sines_layout_permutation --------------------------------------------

# halves holds sin(pair 0..4) in columns 0..4 and cos(pair 0..4) in 5..9; the
# interleaved table wants sin 0, cos 0, sin 1, cos 1, ...
PERM = [0, 5, 1, 6, 2, 7, 3, 8, 4, 9]
FORWARD = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9]  # interleaved -> halves, shown in the chapter


@pytest.mark.parametrize(
    "perm",
    [PERM, tuple(PERM), np.array(PERM), np.array(PERM, dtype=float), np.argsort(FORWARD),
     np.stack([np.arange(5), np.arange(5) + 5], axis=1).ravel()],
)
def test_layout_permutation_right(perm, correct):
    correct(ex.check_sines_layout_permutation, perm)


@pytest.mark.parametrize(
    "perm, words",
    [
        (FORWARD, "the way back"),
        (list(range(10)), "keeps the columns"),
        ([5, 0, 6, 1, 7, 2, 8, 3, 9, 4], "Where are those two columns"),
        ([0, 5, 1, 6, 2, 7, 3, 8, 4], "exactly once"),
        ([0, 0, 1, 6, 2, 7, 3, 8, 4, 9], "exactly once"),
        ([0.5, 5, 1, 6, 2, 7, 3, 8, 4, 9], "exactly once"),
        ("0516273849", "exactly once"),
    ],
)
def test_layout_permutation_wrong(perm, words, not_yet):
    out = not_yet(ex.check_sines_layout_permutation, perm)
    assert words in out
    assert "0, 5, 1, 6" not in out and "[0 5 1 6" not in out


def test_checkers_return_real_bools():
    results = [
        ex.check_sines_longest_wavelength(LONGEST),
        ex.check_sines_spot_the_bug(fixed_loop),
        ex.check_sines_dot_at_offset(dot_sum),
        ex.check_sines_rotation(rotation_by_hand()),
        ex.check_sines_layout_permutation(PERM),
        ex.check_sines_layout_permutation([9] * 10),
    ]
    assert [type(r) for r in results] == [bool] * 6
    assert results == [True] * 5 + [False]


# --- success messages give nothing away ----------------------------------------
# The book prints the check's output under the exercise, outside the solution's
# toggle, so "Correct! ..." must not state the answer, its value, its structure
# or the reasoning the exercise asks for.


@pytest.mark.parametrize("check, answer, giveaways", [
    (ex.check_sines_longest_wavelength, LONGEST,
     ["31", "62", "i =", "last pair", "round figure", "short of", "10000", "2*pi",
      f"{LONGEST:.0f}", f"{LONGEST:.1f}", f"{LONGEST:.3g}", f"{LONGEST:,.0f}", "47"]),
    (ex.check_sines_spot_the_bug, fixed_loop,
     ["2i", "2 * i", "4i", "10000", "**", "exponent", "first pair", "columns 0"]),
    (ex.check_sines_dot_at_offset, dot_sum,
     ["cos", "sum", "omega", "-k", "offset only", "symmetric", "property"]),
    (ex.check_sines_rotation, rotation_by_hand(),
     ["2 x 2", "2x2", "rotation", "block", "diagonal", "omega", "5 *", "angle",
      "0.2837", "0.9589", "0.284", "0.959", "cos", "sin"]),
    (ex.check_sines_layout_permutation, PERM,
     ["inverse", "column i", "5 + i", "sine", "cosine", "argsort", "0, 5, 1, 6", "[0 5 1 6",
      str(PERM), str(PERM)[1:-1]]),
])
def test_success_message_gives_nothing_away(check, answer, giveaways, reveals_nothing):
    reveals_nothing(check, [answer], giveaways)
