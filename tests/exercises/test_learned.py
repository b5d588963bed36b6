"""Tests of the checkers of chapter 4, "Learned positional embeddings".

Each checker must accept every correct form of the answer, reject wrong
answers with a hint, and never print the expected value. The right answers
are derived by hand from the chapter's set-up (GPT-2: 1024 positions,
d_model 768; the table: 64 rows, training lengths 4 to 16).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from posenc import exercises as ex

# --- check_learned_gpt2_params ------------------------------------------------

GPT2 = 1024 * 768  # 786,432


@pytest.mark.parametrize("answer", [GPT2, float(GPT2), np.int64(GPT2), np.array(GPT2), np.array([GPT2]),
                                    np.zeros((1024, 768)).size, 2**18 * 3])
def test_gpt2_params_right(answer, correct):
    correct(ex.check_learned_gpt2_params, answer)


@pytest.mark.parametrize(
    "answer, words",
    [
        (1024, "number of rows"),
        (768, "size of one row"),
        (512 * 768, "another model"),
        (1024 * 1600, "another model"),
        (GPT2 + 1, "one row per position"),
        (GPT2 * 2, "one row per position"),
        ("lots", "single number"),
        ([1024, 768], "single number"),
    ],
)
def test_gpt2_params_wrong(answer, words, not_yet):
    out = not_yet(ex.check_learned_gpt2_params, answer)
    assert words in out
    for shown in ("786432", "786,432", "7.86", "786 432"):
        assert shown not in out


# --- check_learned_extend ------------------------------------------------------


def extend_lstsq(P, n_trained):
    """Least-squares line through the trained rows, continued."""
    r = np.arange(n_trained)
    X = np.stack([np.ones(n_trained), r], axis=1)
    (a, b), *_ = np.linalg.lstsq(X, P[:n_trained], rcond=None)
    out = P.copy()
    out[n_trained:] = a + np.arange(n_trained, len(P))[:, None] * b
    return out


def extend_polyfit(P, n_trained):
    """The same line from np.polyfit, one column at a time, written into a copy."""
    rows, out = np.arange(len(P)), np.array(P, dtype=float)
    for j in range(P.shape[1]):
        slope, intercept = np.polyfit(np.arange(n_trained), P[:n_trained, j], 1)
        out[n_trained:, j] = intercept + slope * rows[n_trained:]
    return out.tolist()


def extend_in_place(P, n_trained):
    """The right rows, but written into the P it was given (issue 39, 4.2)."""
    P[n_trained:] = extend_lstsq(P, n_trained)[n_trained:]
    return P


def extend_all_rows(P, n_trained):
    """The line fitted to every row of P, the untrained ones included (issue 39, 4.2)."""
    X = np.stack([np.ones(len(P)), np.arange(len(P))], axis=1)
    a, b = np.linalg.lstsq(X, P, rcond=None)[0]
    out = P.copy()
    out[n_trained:] = a + np.arange(n_trained, len(P))[:, None] * b
    return out


def extend_two_points(P, n_trained):
    """Through the last two trained rows only: exact on a line, wrong on noisy rows."""
    out = P.copy()
    step = P[n_trained - 1] - P[n_trained - 2]
    out[n_trained:] = P[n_trained - 1] + np.arange(1, len(P) - n_trained + 1)[:, None] * step
    return out


def extend_off_by_one(P, n_trained):
    out = extend_lstsq(P, n_trained)
    out[n_trained:] += out[1] - out[0]  # continues from r + 1
    return out


def extend_overwrites(P, n_trained):
    """Replaces the trained rows by the fitted line too."""
    out = extend_lstsq(P, n_trained)
    X = np.stack([np.ones(n_trained), np.arange(n_trained)], axis=1)
    out[:n_trained] = X @ np.linalg.lstsq(X, P[:n_trained], rcond=None)[0]
    return out


def extend_crashes(P, n_trained):
    raise RuntimeError("not written yet")


@pytest.mark.parametrize("answer", [extend_lstsq, extend_polyfit])
def test_extend_right(answer, correct):
    correct(ex.check_learned_extend, answer)


@pytest.mark.parametrize(
    "answer, words",
    [
        (lambda P, n_trained: P, "continue the line"),
        (extend_two_points, "least squares"),
        (extend_off_by_one, "values of r"),
        (extend_overwrites, "Leave the trained rows"),
        (extend_in_place, "work on a copy"),
        (extend_all_rows, "trained rows only"),
        (lambda P, n_trained: P[:n_trained], "same shape"),
        (extend_crashes, "raised RuntimeError: not written yet"),
        (extend_lstsq(np.ones((4, 2)), 2), "function itself"),
    ],
)
def test_extend_wrong(answer, words, not_yet):
    out = not_yet(ex.check_learned_extend, answer)
    assert words in out


def quietly(check, answer):
    """The checker's verdict, with every warning an error (a warning under an exercise is a failure)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return check(answer)


@pytest.mark.parametrize("answer, words", [
    # issue 28, item 11: a table of strings was read as numbers, a complex one with a warning
    (lambda P, n_trained: extend_lstsq(P, n_trained).astype(str), "real numbers"),
    (lambda P, n_trained: extend_lstsq(P, n_trained) + 5j, "real numbers"),
    (lambda P, n_trained: [["1.0"] * P.shape[1]] * len(P), "real numbers"),
    (lambda P, n_trained: None, "real numbers"),
])
def test_extend_refuses_what_is_not_a_table_of_real_numbers(answer, words, not_yet):
    out = not_yet(quietly, ex.check_learned_extend, answer)
    assert words in out


def test_extend_accepts_a_complex_table_whose_imaginary_parts_are_zero():
    assert quietly(ex.check_learned_extend, lambda P, n: extend_lstsq(P, n) + 0j) is True


# --- check_learned_bag_tasks -----------------------------------------------------


def failing_iterator():
    yield "b"
    raise RuntimeError("the iterator fails")


@pytest.mark.parametrize("answer", [
    itertools.count(),  # issue 28, item 11: endless, used to hang
    itertools.cycle("bd"),
    failing_iterator(),
    ["b", "d", 3],
    [b"b", b"d"],
])
def test_bag_tasks_answers_odd_iterables_with_a_hint(answer, not_yet):
    out = not_yet(quietly, ex.check_learned_bag_tasks, answer)
    assert "Give the letters" in out


@pytest.mark.parametrize("answer", ["bd", "db", "b, d", "B D", ["b", "d"], {"D", "b"}, ("d", "b"), "(b) and (d)"])
def test_bag_tasks_right(answer, correct):
    correct(ex.check_learned_bag_tasks, answer)


@pytest.mark.parametrize(
    "answer, words",
    [
        ("a", "chapter's task"),
        ("abcd", "chapter's task"),
        ("bcd", "task (c)"),
        ("b", "any reordering"),
        ("d", "any reordering"),
        ("", "letters a, b, c and d"),
        ("bx", "letters a, b, c and d"),
        (3, "Give the letters"),
    ],
)
def test_bag_tasks_wrong(answer, words, not_yet):
    out = not_yet(ex.check_learned_bag_tasks, answer)
    assert words in out
    assert "b and d" not in out and "(b) and (d)" not in out


# --- check_learned_causal_none ---------------------------------------------------


@pytest.mark.parametrize("answer", [1.0, 0.995, np.float64(0.99), np.array(0.999), np.array([1.0]), 1])
def test_causal_none_right(answer, correct):
    correct(ex.check_learned_causal_none, answer)


@pytest.mark.parametrize(
    "answer, words",
    [
        (0.5, "Check the set-up"),
        (0.52, "Check the set-up"),
        (0.7, "causal=True"),
        (0.9, "posenc.training.train"),  # the set-up measures 1.000 (issue 39, 4.4)
        (0.97, "the trained model"),
        (95, "between 0 and 1"),
        (-0.1, "between 0 and 1"),
        ("high", "single number"),
        ([0.9, 1.0], "single number"),
    ],
)
def test_causal_none_wrong(answer, words, not_yet):
    out = not_yet(ex.check_learned_causal_none, answer)
    assert words in out


# --- success messages give nothing away ----------------------------------------
# The book prints the check's output under the exercise, outside the solution's
# toggle, so "Correct! ..." must not state the answer, its factors or the
# reasoning (and for the causal model, not whether it stays at chance).


@pytest.mark.parametrize("check, answer, giveaways", [
    (ex.check_learned_gpt2_params, GPT2,
     ["786432", "786,432", "786 432", "786", "768", "1024", "vector", "each of the", "times"]),
    (ex.check_learned_extend, extend_lstsq, ["improve", "longest", "24", "32"]),
    (ex.check_learned_bag_tasks, "bd",
     ["(b)", "(d)", "b and d", "which tokens occur", "how often", "permutation-invariant",
      "bag", "reorder"]),
    (ex.check_learned_causal_none, 1.0,
     ["chance", "above", "permutation", "symmetry", "breaks", "order", "position signal",
      "sees only", "1.0", "100%"]),
])
def test_success_message_gives_nothing_away(check, answer, giveaways, reveals_nothing):
    reveals_nothing(check, [answer], giveaways)
