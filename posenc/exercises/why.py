"""Checkers of chapter 1, *Why order matters*.

They work their expected answers out from the sentences of the exercises,
so they cannot drift from what the chapter uses.
"""

from __future__ import annotations

import numpy as np

from ..attention import attention as _attention
from ..attention import causal_mask as _causal_mask
from ..attention import softmax as _softmax
from ..text import build_vocab as _build_vocab
from ..text import encode as _encode
from ..text import tokenize as _tokenize
from ._common import _as_array, _call_watching, _correct, _int_list, _not_yet, _report

__all__ = [
    "check_why_bag_of_words",
    "check_why_permutation",
    "check_why_self_attention",
    "check_why_causal_swap",
]


_WHY_BAG_TEXT = "The cat sat on the mat."
_WHY_PERM_A = "the dog chased the cat"
_WHY_PERM_B = "the cat chased the dog"
_WHY_SWAP_A = "The cat sat on the mat."
_WHY_SWAP_B = "The cat on sat the mat."


def check_why_bag_of_words(counts):
    """Check the bag-of-words counts of "The cat sat on the mat." (exercise ex-why-bag-of-words).

    The expected answer has one entry per vocabulary entry of the lower-cased
    sentence, in the order of :func:`posenc.build_vocab`: entry ``i`` counts
    how often token number ``i`` occurs.

    Parameters
    ----------
    counts : array_like of int
        A list, tuple or array; whole-number floats are accepted too.

    Returns
    -------
    bool
        ``True`` if the counts are right. A verdict, with a hint if wrong, is
        printed.

    Examples
    --------
    >>> check_why_bag_of_words([1, 1, 1, 1, 1])  # doctest: +ELLIPSIS
    Not yet. ...
    False
    """
    tokens = _tokenize(_WHY_BAG_TEXT, lower=True)
    vocab = _build_vocab(tokens)
    expected = np.bincount(_encode(tokens, vocab), minlength=len(vocab))
    cased = _tokenize(_WHY_BAG_TEXT)
    arr = _as_array(counts)
    if arr is None or arr.ndim != 1:
        return _not_yet("counts should be a 1-D list or array of numbers, one per vocabulary entry.")
    ids = [_encode(tokens, vocab), _encode(cased, _build_vocab(cased))]
    if any(arr.shape == i.shape and np.array_equal(arr, i) for i in ids):
        return _not_yet("these are the token ids, one per token of the sentence. counts has "
                        "one entry per vocabulary entry: entry i says how many times id i "
                        "occurs (np.bincount counts them).")
    if arr.shape == (len(cased),) and np.array_equal(arr, np.ones(len(cased))):
        return _not_yet("every token counted once: did you lower-case the tokens "
                        "(tokenize(..., lower=True)), so that 'The' and 'the' are one token?")
    if arr.shape != expected.shape:
        return _not_yet(f"counts has {arr.shape[0]} entries; it should have one entry "
                        "per vocabulary entry: len(vocab) of them.")
    if not np.isclose(arr.sum(), len(tokens)):
        return _not_yet("the counts should add up to the number of tokens in the sentence.")
    if np.allclose(np.sort(arr), np.sort(expected)):
        ok = np.allclose(arr, expected)
        return _report(ok, "One count per distinct word: word order is gone.",
                       "right numbers, wrong order: entry i should count the token that build_vocab "
                       "numbered i (numbers follow first appearance).")
    return _not_yet("some counts are off: look at which tokens occur more than once.")


def check_why_permutation(reorder):
    """Check a permutation that turns "the dog chased the cat" into "the cat chased the dog".

    Any permutation ``reorder`` (each position ``0 .. 4`` once) with
    ``[words_a[i] for i in reorder] == words_b`` is right, where ``words_a``
    and ``words_b`` are the tokens of the two sentences (exercise
    ex-why-permutation); there is more than one. A list that reads the
    second sentence but takes one position twice is not a reordering of the
    rows (one row would be lost), and the hint says so. The
    exercise names its answer ``reorder``, not ``perm``: the chapter has its
    own ``perm`` (for "dog bites man"), and a learner who has not answered
    yet should get a ``NameError`` for their own variable, not a hint about
    the chapter's.

    Parameters
    ----------
    reorder : sequence of int
        A list, tuple or integer array with each of ``0 .. 4`` once.

    Returns
    -------
    bool
        ``True`` if ``reorder`` is a permutation that maps the first sentence
        to the second. A verdict, with a hint if wrong, is printed.

    Examples
    --------
    >>> check_why_permutation([0, 1, 2, 3, 4])  # doctest: +ELLIPSIS
    Not yet. ...
    False
    """
    tokens_a = _tokenize(_WHY_PERM_A)
    tokens_b = _tokenize(_WHY_PERM_B)
    n = len(tokens_a)
    reorder = _int_list(reorder, "reorder")
    if reorder is None:
        return False
    if len(reorder) == n and all(0 <= i < n for i in reorder) and sorted(reorder) != list(range(n)):
        if [tokens_a[i] for i in reorder] == tokens_b:
            return _not_yet("your list does read the second sentence, but it takes one "
                            "position twice and leaves another out. The exercise asks for a "
                            "reordering, a permutation: each position 0 to "
                            f"{n - 1} exactly once, so that no row is lost.")
    if sorted(reorder) != list(range(n)):
        return _not_yet(f"reorder should contain each of the positions 0 to {n - 1} "
                        "exactly once.")
    got = [tokens_a[i] for i in reorder]
    ok = got == tokens_b
    return _report(
        ok,
        "Reordered by your list, the first sentence reads like the second.",
        f"reordered by your list, the first sentence reads {' '.join(got)!r}. Remember that "
        "position t of the new sentence takes the word at position reorder[t] of the old one.",
    )


def _why_reference(X, W_q, W_k, W_v, causal):
    mask = _causal_mask(len(X)) if causal else None
    return _attention(X @ W_q, X @ W_k, X @ W_v, mask=mask)[0]


# What ex-why-self-attention rules out ("NumPy only, not posenc.attention").
_WHY_NOT_NUMPY = {"posenc.attention": _attention, "posenc.softmax": _softmax,
                  "posenc.causal_mask": _causal_mask}


def check_why_self_attention(fn):
    r"""Check a from-scratch self-attention function (exercise ex-why-self-attention).

    ``fn(X, W_q, W_k, W_v, causal=False)`` must return
    :math:`\mathrm{softmax}(QK^\top/\sqrt{d_k})\,V` with :math:`Q = XW_q`,
    :math:`K = XW_k`, :math:`V = XW_v`, and with query ``i`` restricted to
    keys ``j <= i`` when ``causal`` is true. The checker calls it on random
    inputs of several shapes (with ``d_k`` different from ``d_v`` and from
    the width of ``X``), and on inputs whose scores run into the thousands,
    where a softmax that takes ``exp`` of the raw scores overflows; it
    compares the output with :func:`posenc.attention`. A returned
    ``(output, weights)`` pair is accepted too.

    The exercise asks for NumPy only: a function that calls
    :func:`posenc.attention`, :func:`posenc.softmax` or
    :func:`posenc.causal_mask` (directly or through the chapter's
    ``self_attention``) gets a hint that says so, even if its output is right.
    The learner's floating-point warnings are silenced: an overflow shows as
    the NaN it leads to, and gets its own hint.

    Parameters
    ----------
    fn : callable

    Returns
    -------
    bool
        ``True`` if ``fn`` agrees with the reference on every test input. A
        verdict, with a hint if wrong, is printed.

    Examples
    --------
    >>> check_why_self_attention(lambda X, W_q, W_k, W_v, causal=False: X @ W_v)  # doctest: +ELLIPSIS
    Not yet. ...
    False
    """
    if not callable(fn):
        return _not_yet(f"pass the function itself (no parentheses), got a {type(fn).__name__}.")
    rng = np.random.default_rng(2024)
    # (n, d_model, d_k, d_v, scale of X); the last case's scores reach the
    # thousands: exp of a raw score overflows there (beyond about 709)
    for n, d_model, d_k, d_v, scale in [(5, 4, 3, 2, 1), (1, 3, 2, 4, 1), (6, 6, 6, 6, 1), (4, 3, 2, 3, 20)]:
        X = scale * rng.normal(size=(n, d_model))
        W_q, W_k = rng.normal(size=(2, d_model, d_k))
        W_v = rng.normal(size=(d_model, d_v))
        for causal in (False, True):
            try:
                got, called = _call_watching(_WHY_NOT_NUMPY, fn, X.copy(), W_q.copy(), W_k.copy(),
                                             W_v.copy(), causal=causal)
            except (Exception, SystemExit) as exc:  # the learner's code: report, do not crash
                return _not_yet(f"your function raised {type(exc).__name__}: {exc}")
            if called:
                return _not_yet(f"the exercise asks for NumPy only, and your function calls "
                                f"{' and '.join(called)}. Write that step with NumPy: "
                                "it takes a few lines.")
            if isinstance(got, tuple) and len(got) == 2:
                got = got[0]
            returned = got
            got = _as_array(got)
            if got is None:  # a string, None, a bool, a ragged list: say which
                what = ("None (does it end with a return statement?)"
                        if returned is None else f"a {type(returned).__name__}")
                return _not_yet(f"your function should return an array of numbers of shape "
                                f"(n, d_v) = {(n, d_v)} for X of shape {X.shape} and W_v of "
                                f"shape {W_v.shape}; it returned {what}.")
            if got.shape != (n, d_v):
                return _not_yet(f"for X of shape {X.shape} and W_v of shape {W_v.shape} the "
                                f"output should have shape (n, d_v) = {(n, d_v)}, got {got.shape}.")
            with np.errstate(all="ignore"):
                hint = _why_attention_hint(got, X, W_q, W_k, W_v, causal)
            if hint:
                return _not_yet(hint)
    return _correct("Your attend matches posenc.attention, with and without a causal mask.")


def _why_attention_hint(got, X, W_q, W_k, W_v, causal):
    """None if ``got`` is the right output, else a hint that says what is wrong."""
    n, d_model = X.shape
    d_k = W_q.shape[1]
    want = _why_reference(X, W_q, W_k, W_v, causal)
    if np.allclose(got, want, atol=1e-8):
        return None
    if not np.all(np.isfinite(got)):
        top = np.abs(X @ W_q @ (X @ W_k).T).max() / np.sqrt(d_k)
        if top > 709:  # exp(710) is beyond float64
            return (f"your output holds NaN or inf for X of shape {X.shape}, whose scores reach "
                    f"{top:.0f}: exp overflows beyond about 709. Subtract each row's largest score "
                    "before exp; the softmax does not change, and no exp exceeds 1.")
        return (f"your output holds NaN or inf for X of shape {X.shape} with causal={causal}, "
                "although its scores are small: look for a division by zero, or for inf - inf "
                "(a masked score minus another).")
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ K.T
    past = np.tril(np.ones((n, n), bool))
    if causal:
        if np.allclose(got, _why_reference(X, W_q, W_k, W_v, False), atol=1e-8):
            return "with causal=True, query i may only look at keys j <= i."
        if n > 1 and np.allclose(got, _why_masked(S / np.sqrt(d_k), np.triu(np.ones((n, n), bool))) @ V):
            return ("your mask points the wrong way: query i may see keys j <= i "
                    "(the past), not j >= i.")
        if n > 1 and np.allclose(got, _why_softmax(np.where(past, S / np.sqrt(d_k), 0), axis=-1) @ V):
            return ("the masked scores must be -inf (-np.inf), not 0: a score of 0 still gets the "
                    "weight exp(0) = 1 before the row is normalised, so the future still counts.")
        S = np.where(past, S, -np.inf)
    if np.allclose(got, _why_softmax(S, axis=-1) @ V):
        return "the scores need scaling: divide Q K^T by sqrt(d_k)."
    if np.allclose(got, _why_softmax(S / np.sqrt(d_model), axis=-1) @ V):
        return "divide by sqrt(d_k), the width of the queries and keys, not of the embeddings."
    if not causal and np.allclose(got, _why_softmax(S / np.sqrt(d_k), axis=0) @ V):
        return "take the softmax along the keys, so that each row of weights sums to 1 (axis=-1)."
    return (f"the output is wrong for X of shape {X.shape} with causal={causal}. Compare your steps "
            "with the formula: project, score, scale, mask, softmax over keys, weight the values.")


def _why_softmax(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _why_masked(scores, allowed):
    return _why_softmax(np.where(allowed, scores, -np.inf), axis=-1)


def check_why_causal_swap(changed):
    """Check which positions change when two words swap under a causal mask.

    In "The cat sat on the mat." the words "sat" and "on" trade places
    (exercise ex-why-causal-swap). With the causal mask, one layer of
    self-attention gives a new output to some positions only; ``changed``
    lists them (positions in the new sentence, counted from 0).

    Parameters
    ----------
    changed : collection of int, or array_like of bool
        The positions, in any order (list, tuple, set, integer array), or a
        boolean array with one entry per position, ``True`` where the output
        changed.

    Returns
    -------
    bool
        ``True`` if exactly the right positions are listed. A verdict, with a
        hint if wrong, is printed.

    Examples
    --------
    >>> check_why_causal_swap([0, 1, 2, 3, 4, 5])  # doctest: +ELLIPSIS
    Not yet. ...
    False
    """
    a = _tokenize(_WHY_SWAP_A, lower=True)
    b = _tokenize(_WHY_SWAP_B, lower=True)
    n = len(a)
    # position t changes iff the query word or the set of words it sees changes
    expected = {t for t in range(n) if b[t] != a[t] or sorted(b[: t + 1]) != sorted(a[: t + 1])}
    try:
        arr = np.asarray(list(changed) if isinstance(changed, (set, frozenset)) else changed)
    except Exception:  # a ragged list, an __array__ that raises: _int_list gives the hint
        arr = None
    if arr is not None and arr.dtype == bool:
        if arr.shape != (n,):
            return _not_yet(f"a boolean answer needs one entry per position ({n} of them).")
        got = set(np.flatnonzero(arr).tolist())
    else:
        as_list = _int_list(changed, "changed")
        if as_list is None:
            return False
        got = set(as_list)
        if not got <= set(range(n)):
            return _not_yet(f"positions run from 0 to {n - 1}.")
    first = min(t for t in range(n) if a[t] != b[t])
    if not got:
        return _not_yet("no position changes in your computation? Embed both sentences "
                        "with one vocabulary (built from the first sentence) and one "
                        "embedding table: with a vocabulary per sentence, the swapped words "
                        "trade ids too, and the two inputs come out equal.")
    if any(t < first for t in got):
        return _not_yet("a position before the swap sees exactly the same words as before: "
                        "can its output change?")
    if not {t for t in expected if t >= first} <= got:
        return _not_yet("a position whose output changes is missing: for each position, "
                        "compare its own word and the words it can see in the two sentences.")
    ok = got == expected
    return _report(
        ok,
        "You listed exactly the positions whose output changes.",
        "look at the positions after the swapped pair: which words can each of them see, "
        "and does one layer of attention care in which order they came?",
    )
