"""Tests of the checkers of chapter 1, "Why order matters"."""

from __future__ import annotations

import numpy as np
import pytest

import posenc
from posenc import attention, build_vocab, causal_mask, encode, random_embeddings, tokenize
from posenc.exercises import (
    check_why_bag_of_words,
    check_why_causal_swap,
    check_why_permutation,
    check_why_self_attention,
)


# --- ex-why-bag-of-words ------------------------------------------------------

# "the cat sat on the mat": vocabulary the, cat, sat, on, mat; "the" twice.
BAG = [2, 1, 1, 1, 1]


@pytest.mark.parametrize(
    "answer",
    [BAG, tuple(BAG), np.array(BAG), np.array(BAG, dtype=float), [2.0, 1, 1, 1, 1],
     np.bincount([0, 1, 2, 3, 0, 4])],
)
def test_bag_of_words_accepts_right_answers(answer, correct):
    correct(check_why_bag_of_words, answer)


@pytest.mark.parametrize(
    "answer, hint",
    [
        ([1, 1, 1, 1, 1], "add up"),
        ([1, 1, 1, 2, 1], "wrong order"),
        ([1, 1, 1, 1, 2], "wrong order"),
        ([1, 1, 1, 1, 1, 1], "lower-case"),
        ([2, 1, 1, 1], "one entry per vocabulary entry"),
        ([3, 1, 1, 1, 0], "counts are off"),
        ([[2, 1, 1, 1, 1]], "1-D"),
        ("21111", "1-D"),
        (None, "1-D"),
    ],
)
def test_bag_of_words_rejects_wrong_answers_without_revealing(answer, hint, not_yet):
    text = not_yet(check_why_bag_of_words, answer)
    assert hint in text
    assert "2, 1, 1" not in text and "[2 1 1" not in text


@pytest.mark.parametrize("lower", [True, False])
def test_bag_of_words_tells_token_ids_from_counts(lower, not_yet):
    # issue 27, item 7: the token ids [0 1 2 3 0 4] (six entries, like the
    # cased vocabulary) were told "did you lower-case the tokens?", although
    # the learner had lower-cased
    tokens = tokenize("The cat sat on the mat.", lower=lower)
    ids = encode(tokens, build_vocab(tokens))
    text = not_yet(check_why_bag_of_words, ids)
    assert "token ids" in text and "lower-case" not in text


def test_bag_of_words_asks_about_lower_case_only_for_the_cased_counts(not_yet):
    text = not_yet(check_why_bag_of_words, [1, 1, 1, 1, 1, 1])
    assert "lower-case" in text
    text = not_yet(check_why_bag_of_words, [2, 1, 1, 1, 1, 0])
    assert "lower-case" not in text and "one entry per vocabulary entry" in text


# --- ex-why-permutation -------------------------------------------------------

# "the dog chased the cat" -> "the cat chased the dog": swap positions 1 and 4;
# the two "the"s (positions 0 and 3) may also trade places.
PERMS = [[0, 4, 2, 3, 1], [3, 4, 2, 0, 1]]


@pytest.mark.parametrize(
    "answer",
    [PERMS[0], PERMS[1], tuple(PERMS[0]), np.array(PERMS[1]), np.array(PERMS[0], dtype=np.int32),
     [0.0, 4.0, 2.0, 3.0, 1.0]],
)
def test_permutation_accepts_both_right_answers_in_any_form(answer, correct):
    correct(check_why_permutation, answer)


def test_permutation_answers_really_map_the_sentences():
    a, b = tokenize("the dog chased the cat"), tokenize("the cat chased the dog")
    for perm in PERMS:
        assert [a[i] for i in perm] == b


@pytest.mark.parametrize(
    "answer, hint",
    [
        ([0, 1, 2, 3, 4], "'the dog chased the cat'"),
        ([4, 3, 2, 1, 0], "'cat the chased dog the'"),
        ([0, 4, 2, 3], "exactly once"),
        ([0, 4, 2, 3, 3], "exactly once"),
        ([1, 5, 3, 4, 2], "exactly once"),
        ([0, 4.5, 2, 3, 1], "whole numbers"),
        ("04231", "list (or array) of integers"),
        ([[0, 4, 2, 3, 1]], "flat list"),
    ],
)
def test_permutation_rejects_wrong_answers_without_revealing(answer, hint, not_yet):
    text = not_yet(check_why_permutation, answer)
    assert hint in text
    for perm in PERMS:
        assert str(perm)[1:-1] not in text


@pytest.mark.parametrize("answer", [[0, 4, 2, 0, 1], [3, 4, 2, 3, 1]])
def test_permutation_says_why_a_list_that_reads_the_sentence_is_not_a_reordering(answer, not_yet):
    # issue 27, item 7: these lists satisfy [words_a[i] for i in reorder] ==
    # words_b but take one "the" twice; the hint was the generic "exactly once"
    a, b = tokenize("the dog chased the cat"), tokenize("the cat chased the dog")
    assert [a[i] for i in answer] == b
    text = not_yet(check_why_permutation, answer)
    assert "does read the second sentence" in text and "permutation" in text


# --- ex-why-self-attention ----------------------------------------------------


def softmax_rows(S):
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def past_only(S, fill=-np.inf):
    """The causal mask: the scores of keys after their query become ``fill``."""
    return np.where(np.tril(np.ones(S.shape, dtype=bool)), S, fill)


def attend_by_steps(X, W_q, W_k, W_v, causal, *, scale=None, mask=past_only, softmax=softmax_rows):
    """softmax(Q K^T / scale) V, masked by ``mask`` when ``causal``: the right
    steps by default (scale sqrt(d_k)); each answer below that uses it
    changes one step."""
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ K.T / (np.sqrt(K.shape[1]) if scale is None else scale)
    if causal:
        S = mask(S)
    return softmax(S) @ V


def attend_vectorized(X, W_q, W_k, W_v, causal=False):
    return attend_by_steps(X, W_q, W_k, W_v, causal)


def attend_loops(X, W_q, W_k, W_v, causal=False):
    # one query at a time, the way one would write it on paper
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    out = []
    for i in range(len(X)):
        keys = range(i + 1) if causal else range(len(X))
        s = np.array([Q[i] @ K[j] for j in keys]) / np.sqrt(Q.shape[1])
        w = np.exp(s - s.max())
        w /= w.sum()
        out.append(sum(w_j * V[j] for w_j, j in zip(w, keys)))
    return np.array(out)


def attend_with_posenc(X, W_q, W_k, W_v, causal=False):
    return attention(X @ W_q, X @ W_k, X @ W_v, mask=causal_mask(len(X)) if causal else None)


def attend_as_list(X, W_q, W_k, W_v, causal=False):
    return attend_vectorized(X, W_q, W_k, W_v, causal).tolist()


def attend_subtracting_a_constant(X, W_q, W_k, W_v, causal=False):
    # masks with a large negative number instead of -inf, and shifts by the
    # overall largest score: both fine
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ K.T / np.sqrt(W_q.shape[1])
    if causal:
        S = np.where(np.tril(np.ones(S.shape, dtype=bool)), S, -1e30)
    e = np.exp(S - S.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True) @ V


@pytest.mark.parametrize("fn", [attend_vectorized, attend_loops, attend_as_list, attend_subtracting_a_constant])
def test_self_attention_accepts_right_implementations(fn, correct):
    correct(check_why_self_attention, fn)


def attend_with_posenc_softmax(X, W_q, W_k, W_v, causal=False):
    return attend_by_steps(X, W_q, W_k, W_v, causal, softmax=posenc.softmax)


def attend_with_posenc_mask(X, W_q, W_k, W_v, causal=False):
    return attend_by_steps(X, W_q, W_k, W_v, causal,
                           mask=lambda S: np.where(causal_mask(len(S)), S, -np.inf))


def attend_through_a_helper(X, W_q, W_k, W_v, causal=False):
    # like the chapter's self_attention: posenc.attention one call away
    return _helper(X @ W_q, X @ W_k, X @ W_v, causal)[0]


def _helper(q, k, v, causal):
    return posenc.attention(q, k, v, mask=posenc.causal_mask(len(q)) if causal else None)


@pytest.mark.parametrize("fn, name", [
    (attend_with_posenc, "posenc.attention"),
    (attend_with_posenc_softmax, "posenc.softmax"),
    (attend_with_posenc_mask, "posenc.causal_mask"),
    (attend_through_a_helper, "posenc.attention"),
])
def test_self_attention_holds_the_exercise_to_numpy_only(fn, name, not_yet):
    # issue 27, item 8: the exercise says "NumPy only (not posenc.attention)";
    # a function that calls posenc got "Correct!"
    text = not_yet(check_why_self_attention, fn)
    assert "NumPy only" in text and name in text


def test_watching_for_posenc_leaves_no_profiler_behind(not_yet):
    import sys

    before = sys.getprofile()
    not_yet(check_why_self_attention, attend_with_posenc)
    not_yet(check_why_self_attention, crashes)
    assert sys.getprofile() is before


def no_scaling(X, W_q, W_k, W_v, causal=False):
    return attend_by_steps(X, W_q, W_k, W_v, causal, scale=1.0)


def scaled_by_d_model(X, W_q, W_k, W_v, causal=False):
    # divides by sqrt of the width of X instead of sqrt(d_k)
    return attend_by_steps(X, W_q, W_k, W_v, causal, scale=np.sqrt(X.shape[1]))


def softmax_over_queries(X, W_q, W_k, W_v, causal=False):
    S = (X @ W_q) @ (X @ W_k).T / np.sqrt(W_k.shape[1])
    e = np.exp(S - S.max(axis=0, keepdims=True))
    return (e / e.sum(axis=0, keepdims=True)) @ (X @ W_v)


def ignores_causal(X, W_q, W_k, W_v, causal=False):
    return attend_vectorized(X, W_q, W_k, W_v, causal=False)


def mask_upside_down(X, W_q, W_k, W_v, causal=False):
    return attend_by_steps(X, W_q, W_k, W_v, causal,
                           mask=lambda S: np.where(np.triu(np.ones(S.shape, dtype=bool)), S, -np.inf))


def returns_weights(X, W_q, W_k, W_v, causal=False):
    S = (X @ W_q) @ (X @ W_k).T / np.sqrt(W_k.shape[1])
    return softmax_rows(S)


def crashes(X, W_q, W_k, W_v, causal=False):
    return X @ W_q @ W_v


def no_causal_argument(X, W_q, W_k, W_v):
    return attend_vectorized(X, W_q, W_k, W_v)


def values_unprojected(X, W_q, W_k, W_v, causal=False):
    return attend_vectorized(X, W_q, W_k, np.eye(X.shape[1]), causal)[:, : W_v.shape[1]]


def mask_with_zeros(X, W_q, W_k, W_v, causal=False):
    return attend_by_steps(X, W_q, W_k, W_v, causal, mask=lambda S: past_only(S, fill=0.0))


def mask_by_multiplying(X, W_q, W_k, W_v, causal=False):
    return attend_by_steps(X, W_q, W_k, W_v, causal, mask=lambda S: S * np.tril(np.ones(S.shape)))


def naive_softmax(X, W_q, W_k, W_v, causal=False):
    # exp of the raw scores: right for small scores, NaN once one exceeds ~709
    return attend_by_steps(X, W_q, W_k, W_v, causal,
                           softmax=lambda S: np.exp(S) / np.exp(S).sum(axis=1, keepdims=True))


@pytest.mark.parametrize(
    "fn, hint",
    [
        (no_scaling, "divide Q K^T by sqrt(d_k)"),
        (scaled_by_d_model, "not of the embeddings"),
        (softmax_over_queries, "softmax along the keys"),
        (ignores_causal, "may only look at keys j <= i"),
        (mask_upside_down, "mask points the wrong way"),
        (returns_weights, "should have shape (n, d_v)"),
        (crashes, "raised ValueError"),
        (no_causal_argument, "raised TypeError"),
        (values_unprojected, "the output is wrong"),
        # issue 27, item 7: a mask of 0 instead of -inf got the generic hint,
        # and no input was large enough to make exp of a raw score overflow
        (mask_with_zeros, "must be -inf"),
        (mask_by_multiplying, "must be -inf"),
        (naive_softmax, "Subtract each row's largest score"),
        ("attend", "pass the function itself"),
        # issue 39: a function that returned a str was told it "got None"
        (lambda X, W_q, W_k, W_v, causal=False: "out", "it returned a str"),
        (lambda X, W_q, W_k, W_v, causal=False: None, "it returned None (does it end"),
        (attend_vectorized(np.ones((2, 2)), np.eye(2), np.eye(2), np.eye(2)), "pass the function itself"),
    ],
)
def test_self_attention_rejects_wrong_implementations(fn, hint, not_yet):
    text = not_yet(check_why_self_attention, fn)
    assert hint in text


def test_naive_softmax_is_right_on_small_scores():
    # so the overflow hint is about the large inputs only
    rng = np.random.default_rng(0)
    X, W_q, W_k, W_v = rng.normal(size=(4, 5, 5))
    for causal in (False, True):
        assert np.allclose(naive_softmax(X, W_q, W_k, W_v, causal), attend_with_posenc(X, W_q, W_k, W_v, causal)[0])


# --- ex-why-causal-swap -------------------------------------------------------

# "the cat sat on the mat" -> "the cat on sat the mat": positions 2 and 3
# swap. Positions 0, 1 see the same words as before; positions 4, 5 see the
# same *set* of words with the same query word; only 2 and 3 change.
CHANGED = [2, 3]


def test_causal_swap_answer_matches_a_computation():
    a = tokenize("The cat sat on the mat.", lower=True)
    b = tokenize("The cat on sat the mat.", lower=True)
    vocab = build_vocab(a)
    for seed in range(3):
        E = random_embeddings(len(vocab), 8, seed=seed)
        W_q, W_k, W_v = np.random.default_rng(seed + 10).normal(size=(3, 8, 8))
        mask = causal_mask(6)
        out = [attention(X @ W_q, X @ W_k, X @ W_v, mask=mask)[0] for X in (E[encode(a, vocab)], E[encode(b, vocab)])]
        gaps = np.abs(out[0] - out[1]).max(axis=1)
        assert np.flatnonzero(gaps > 1e-9).tolist() == CHANGED
        assert gaps[CHANGED].min() > 1e-3 and gaps[[0, 1, 4, 5]].max() < 1e-12


@pytest.mark.parametrize(
    "answer",
    [CHANGED, (3, 2), {2, 3}, np.array(CHANGED), [2.0, 3.0],
     np.array([False, False, True, True, False, False]), np.flatnonzero([0, 0, 1, 1, 0, 0])],
)
def test_causal_swap_accepts_right_answers(answer, correct):
    correct(check_why_causal_swap, answer)


def test_causal_swap_with_a_vocabulary_per_sentence_changes_nothing():
    # the mistake the hint for an empty answer names
    a = tokenize("The cat sat on the mat.", lower=True)
    b = tokenize("The cat on sat the mat.", lower=True)
    assert np.array_equal(encode(a, build_vocab(a)), encode(b, build_vocab(b)))


@pytest.mark.parametrize(
    "answer, hint",
    [
        ([2, 3, 4, 5], "positions after the swapped pair"),
        ([2, 3, 4], "positions after the swapped pair"),
        ([0, 1, 2, 3, 4, 5], "before the swap"),
        ([1, 2, 3], "before the swap"),
        ([2], "compare its own word"),
        # issue 27, item 4: with a vocabulary per sentence nothing changes,
        # and the hint for [] did not help
        ([], "one vocabulary"),
        (set(), "one vocabulary"),
        (np.zeros(6, dtype=bool), "one vocabulary"),
        ([2, 3, 6], "from 0 to 5"),
        ([2.5, 3], "whole numbers"),
        (np.array([False, True, True, False]), "one entry per position"),
        ("23", "list (or array) of integers"),
    ],
)
def test_causal_swap_rejects_wrong_answers_without_revealing(answer, hint, not_yet):
    text = not_yet(check_why_causal_swap, answer)
    assert hint in text
    assert "[2, 3]" not in text and "{2, 3}" not in text and "2 and 3" not in text


# --- success messages give nothing away ----------------------------------------
# The book prints the check's output under the exercise, outside the solution's
# toggle, so "Correct! ..." must not answer the exercise's question either: how
# many permutations there are and why, or which positions change and why.


@pytest.mark.parametrize("check, answer, giveaways", [
    (check_why_bag_of_words, BAG, ["2, 1, 1", "[2 1 1", "twice"]),
    (check_why_permutation, PERMS[0],
     ["two", "2", "3", "both", "interchangeable", "the's", "'the'", "same embedding", "more than one"]),
    (check_why_permutation, PERMS[1], ["two", "2", "0, 4", "interchangeable", "the's"]),
    (check_why_self_attention, attend_vectorized, ["sqrt", "softmax", "tril"]),
    (check_why_causal_swap, CHANGED,
     ["2", "3", "set", "order", "after the swap", "before", "moved", "same words"]),
])
def test_success_message_gives_nothing_away(check, answer, giveaways, reveals_nothing):
    reveals_nothing(check, [answer], giveaways + [str(answer), str(answer)[1:-1]])


# --- a blank answer is reported as the learner's own ----------------------------
# In the student edition the solution cells are emptied. A check cell whose
# answer variable the chapter itself defined earlier (chapter 1 once had its
# own `perm` before the exercise asked for one) then checks the chapter's
# value and prints a hint about a variable the learner never wrote. Each
# answer variable must be new at its exercise, so a blank notebook gives a
# NameError for the learner's own variable instead.


def _names(source, ctx):
    import ast

    tree = ast.parse(source)
    found = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}
    if ctx is ast.Store:
        found |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    return found


@pytest.mark.parametrize("chapter", ["01_why", "02_sines", "03_cat"])
def test_answer_variables_are_new_at_their_exercise(chapter):
    import ast

    import nbformat

    from tools import classroom
    from tools.paths import BOOK

    nb = nbformat.read(BOOK / f"{chapter}.ipynb", as_version=4)
    exercises, _ = classroom.find_exercises(nb)
    assert exercises, f"{chapter}: no exercises found"
    for ex in exercises:
        answers = _names(nb.cells[ex.cells["check"]].source, ast.Load) - {"posenc"}
        assert answers, f"{ex.label}: the check cell reads no answer variable"
        earlier = set()
        for cell in nb.cells[: ex.cells["exercise"]]:
            if cell.cell_type == "code" and not classroom.is_solution_cell(cell):
                earlier |= _names(cell.source, ast.Store)
        clash = answers & earlier
        assert not clash, (f"{chapter}, {ex.label}: the check reads {sorted(clash)}, which the "
                           "chapter defines before the exercise; a blank answer would be "
                           "checked against the chapter's value")


def test_permutation_hints_name_the_exercise_variable(not_yet):
    text = not_yet(check_why_permutation, [0, 4, 2, 3])
    assert "reorder" in text and "perm " not in text


def nan_from_the_mask(X, W_q, W_k, W_v, causal=False):
    # subtracts the masked -inf from itself: NaN even where scores are small
    out = attend_vectorized(X, W_q, W_k, W_v, causal)
    if causal:
        out = out + (np.full(out.shape, -np.inf) - np.full(out.shape, -np.inf))
    return out


def test_self_attention_names_overflow_only_when_the_scores_overflow(not_yet):
    text = not_yet(check_why_self_attention, nan_from_the_mask)
    assert "NaN or inf" in text and "inf - inf" in text and "overflows" not in text
