"""Tests of the checkers of the chapter "Relative and rotary positions".

Each expected answer is derived here independently of the checker: by hand
(Shaw indices, T5 buckets from the bucket edges verified against T5's
reference code, ALiBi slopes 1/2, 1/4, ..., 1/256) or from the formula
(rotation blocks). Right answers in several forms pass, wrong answers fail,
and the printed hint never contains the expected answer.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import exercises

# --- expected answers, derived by hand --------------------------------------

# 4 queries x 6 keys, k = 2: row index clip(j - i, -2, 2) + 2
SHAW = np.array([
    [2, 3, 4, 4, 4, 4],
    [1, 2, 3, 4, 4, 4],
    [0, 1, 2, 3, 4, 4],
    [0, 0, 1, 2, 3, 4],
])
# T5 defaults: bucket 10 of each direction holds distances 16..22
T5_MATES = np.arange(-22, -15)
# d = 6, m = 3: blocks rotate by 3, 3 * 10000**(-1/3), 3 * 10000**(-2/3)
ANGLES = [3.0, 3.0 * 10000 ** (-1 / 3), 3.0 * 10000 ** (-2 / 3)]
ROPE = np.zeros((6, 6))
for b, a in enumerate(ANGLES):
    ROPE[2 * b:2 * b + 2, 2 * b:2 * b + 2] = [[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]
# halves checkpoint -> interleaved code, projections x @ W[:, PERM]: column 2i
# gets trained column i, column 2i+1 gets trained column i + 4
PERM = np.array([0, 4, 1, 5, 2, 6, 3, 7])
# 8 heads: slopes 2**-1 ... 2**-8, half-life ln 2 / m
HALF_LIFE = math.log(2) * 2.0 ** np.arange(1, 9)


def _numbers(arr):
    """Strings under which the expected answer could leak into a hint."""
    arr = np.asarray(arr)
    out = {str(arr), repr(arr.tolist()), np.array2string(arr, precision=4)}
    if arr.dtype.kind == "f":
        out |= {f"{v:.3f}" for v in arr.ravel() if abs(v) > 1e-9 and abs(abs(v) - 1) > 1e-9}
    return out


def _no_leak(text, expected):
    """The hint ``text`` shows none of the numbers of ``expected``."""
    for s in _numbers(expected):
        assert s not in text, f"hint reveals {s!r}: {text}"


# --- right answers, in several forms --------------------------------------------


@pytest.mark.parametrize("form", [np.asarray, lambda a: a.tolist(), lambda a: a.astype(float),
                                  lambda a: tuple(map(tuple, a))])
def test_shaw_index_right(form, correct):
    correct(exercises.check_rel_shaw_index, form(SHAW))


@pytest.mark.parametrize("form", [np.asarray, lambda a: a.tolist(), lambda a: a[::-1].tolist(),
                                  lambda a: np.random.default_rng(1).permutation(a).astype(float)])
def test_t5_bucket_mates_right(form, correct):
    correct(exercises.check_rel_t5_bucket_mates, form(T5_MATES))


@pytest.mark.parametrize("form", [np.asarray, lambda a: a.tolist(), lambda a: a.astype(np.float32)])
def test_rope_matrix_right(form, correct):
    correct(exercises.check_rel_rope_matrix, form(ROPE))


def test_layout_permutation_expected_answer():
    # PERM, derived by hand above, does what the exercise asks in the book's
    # convention (queries x @ W_q, W_q of shape (5, 8)), checked here without
    # the checker: interleaved RoPE on x @ W[:, PERM] gives the halves scores
    from posenc import rope

    rng = np.random.default_rng(7)
    w_q, w_k = rng.normal(size=(2, 5, 8))
    x = rng.normal(size=(11, 5))
    trained = rope(x @ w_q, layout="halves") @ rope(x @ w_k, layout="halves").T
    moved = rope(x @ w_q[:, PERM]) @ rope(x @ w_k[:, PERM]).T
    np.testing.assert_allclose(moved, trained, atol=1e-12)


@pytest.mark.parametrize("form", [np.asarray, lambda a: a.tolist(), lambda a: a.astype(float), tuple])
def test_layout_permutation_right(form, correct):
    correct(exercises.check_rel_layout_permutation, form(PERM))


@pytest.mark.parametrize("form", [np.asarray, lambda a: a.tolist(), lambda a: np.round(a, 4)])
def test_alibi_half_life_right(form, correct):
    correct(exercises.check_rel_alibi_half_life, form(HALF_LIFE))


# --- wrong answers fail without revealing the answer -----------------------------


@pytest.mark.parametrize("wrong", [
    SHAW - 2,                   # clipped offsets, not shifted to row indices
    4 - SHAW,                   # i - j instead of j - i
    SHAW[:, :5],                # wrong shape
    SHAW + 0.5,                 # not whole numbers
    np.where(SHAW == 0, 1, SHAW),  # one clipping step wrong
    "2 3 4",
])
def test_shaw_index_wrong(wrong, not_yet):
    _no_leak(not_yet(exercises.check_rel_shaw_index, wrong), SHAW)


@pytest.mark.parametrize("wrong", [
    np.arange(-22, -16),              # one missing
    np.arange(-23, -15),              # one too many
    -T5_MATES,                        # the other direction
    np.r_[T5_MATES, T5_MATES[0]],     # duplicates
    np.arange(-31, -22),              # a different bucket
    [[-20]],
])
def test_t5_bucket_mates_wrong(wrong, not_yet):
    _no_leak(not_yet(exercises.check_rel_t5_bucket_mates, wrong), T5_MATES)


@pytest.mark.parametrize("wrong", [
    ROPE.T,                                     # rotation the wrong way
    np.eye(6),                                  # position 0
    ROPE[[0, 2, 4, 1, 3, 5]][:, [0, 2, 4, 1, 3, 5]],  # halves layout
    ROPE[:4, :4],
    2 * ROPE,                                   # not orthogonal
])
def test_rope_matrix_wrong(wrong, not_yet):
    _no_leak(not_yet(exercises.check_rel_rope_matrix, wrong), ROPE)


@pytest.mark.parametrize("wrong", [
    np.r_[0:8:2, 1:8:2],          # the opposite direction
    np.arange(8),                 # no reordering
    [1, 0, 3, 2, 5, 4, 7, 6],     # swaps within pairs
    [0, 4, 1, 5, 2, 6, 3, 3],     # not a permutation
    PERM[:7],
])
def test_layout_permutation_wrong(wrong, not_yet):
    _no_leak(not_yet(exercises.check_rel_layout_permutation, wrong), PERM)


@pytest.mark.parametrize("wrong", [
    HALF_LIFE[::-1],              # heads reversed
    2.0 ** np.arange(1, 9),       # 1 / m: log missing
    math.log10(2) * 2.0 ** np.arange(1, 9),  # wrong logarithm
    HALF_LIFE[:4],
    HALF_LIFE * 1.01,
])
def test_alibi_half_life_wrong(wrong, not_yet):
    _no_leak(not_yet(exercises.check_rel_alibi_half_life, wrong), HALF_LIFE)


@pytest.mark.parametrize("check, wrong, recipes", [
    # a one-entry slip reaches the last, most general hint
    (exercises.check_rel_shaw_index, np.where(np.arange(24).reshape(4, 6) == 5, 3, SHAW),
     ["clip(", "+ k", "relative_positions"]),
    (exercises.check_rel_t5_bucket_mates, np.arange(-22, -16),
     ["t5_bucket(", "range(", "== t5_bucket"]),
    (exercises.check_rel_layout_permutation, np.r_[0:8:2, 1:8:2],
     ["invert", "inverse", "argsort"]),
])
def test_hints_do_not_spell_out_the_solution(check, wrong, recipes, not_yet):
    # a hint asks the question that leads to the answer; it does not hand over
    # the solution cell's recipe
    text = not_yet(check, wrong)
    for recipe in recipes:
        assert recipe not in text, f"hint gives the method away ({recipe!r}): {text}"


# --- success messages give nothing away ----------------------------------------
# The book prints the check's output under the exercise, outside the solution's
# toggle, so "Correct! ..." must not answer the exercise's question either.


@pytest.mark.parametrize("check, answer, giveaways", [
    (exercises.check_rel_t5_bucket_mates, T5_MATES, ["7", "16", "22", "offsets cannot"]),
    (exercises.check_rel_rope_matrix, ROPE, ["block", "diagonal", "theta", "2 x 2", "rotation"]),
    (exercises.check_rel_alibi_half_life, HALF_LIFE, ["twice", "double", "slow", "1.386", "177"]),
])
def test_success_message_gives_nothing_away(check, answer, giveaways, reveals_nothing):
    reveals_nothing(check, [answer], giveaways + sorted(_numbers(answer)))


# --- issue 32 (nits) and issue 28 (item 11): answers the checkers once misread ---


@pytest.mark.parametrize("form", [lambda a: set(a.tolist()), lambda a: frozenset(a.tolist()),
                                  lambda a: set(a.astype(float).tolist())])
def test_t5_bucket_mates_accepts_a_set(form, correct):
    # "in any order": a set holding the right offsets is a right answer
    correct(exercises.check_rel_t5_bucket_mates, form(T5_MATES))


@pytest.mark.parametrize("wrong", [set(range(-22, -16)), {-20, "a"}, set(), frozenset({20})])
def test_t5_bucket_mates_wrong_sets(wrong, not_yet):
    _no_leak(not_yet(exercises.check_rel_t5_bucket_mates, wrong), T5_MATES)


@pytest.mark.parametrize("decimals", [3, 4])
def test_rope_matrix_rounded_printout_gets_the_precision_hint(decimals, not_yet):
    # the solution prints R3.round(4); copying those digits is not "not
    # orthogonal" (which points the wrong way): the hint asks for full precision
    text = not_yet(exercises.check_rel_rope_matrix, ROPE.round(decimals))
    assert "full precision" in text
    assert "orthogonal" not in text
    assert not any(s in text for s in _numbers(ROPE))
