"""Checkers for the exercises of the book, one per exercise.

A checker takes the learner's answer, prints either ``Correct!`` with a
short confirmation or ``Not yet.`` with a hint that helps without giving the
answer away, and returns ``True`` or ``False``. In a notebook the check cell
reads ``assert check_xxx(answer)``, so an autograder (nbgrader, otter-grader)
sees a wrong answer as a failed cell, and a learner sees the hint first.

Checkers accept every correct answer: numbers within a tolerance, arrays of
the right shape and values, and equivalent forms (a list for an array, an int
for a float...). They never print the expected value.
"""

from __future__ import annotations

import numpy as np

__all__: list[str] = []


def _report(ok, success, hint):
    """Print the verdict and return it as a bool."""
    ok = bool(ok)
    print(f"Correct! {success}" if ok else f"Not yet. {hint}")
    return ok


def _as_array(answer):
    """The learner's answer as a float array, or None if it is not numeric."""
    try:
        arr = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None
    return arr


def _close(answer, expected, *, atol=1e-6, rtol=1e-6):
    """True if ``answer`` has the shape of ``expected`` and the same values."""
    arr = _as_array(answer)
    expected = np.asarray(expected, dtype=float)
    return (
        arr is not None
        and arr.shape == expected.shape
        and bool(np.allclose(arr, expected, atol=atol, rtol=rtol))
    )


# --- Chapter: why order matters ------------------------------------------

# The checkers of this section work their expected answers out from the
# sentences of the exercises, so they cannot drift from what the chapter uses.
from .attention import attention as _attention  # noqa: E402
from .attention import causal_mask as _causal_mask  # noqa: E402
from .text import build_vocab as _build_vocab  # noqa: E402
from .text import encode as _encode  # noqa: E402
from .text import tokenize as _tokenize  # noqa: E402

_WHY_BAG_TEXT = "The cat sat on the mat."
_WHY_PERM_A = "the dog chased the cat"
_WHY_PERM_B = "the cat chased the dog"
_WHY_SWAP_A = "The cat sat on the mat."
_WHY_SWAP_B = "The cat on sat the mat."


def _int_list(answer, name):
    """``answer`` as a list of Python ints, or ``None`` with a printed hint."""
    if isinstance(answer, (str, bytes, dict)):
        print(f"Not yet. {name} should be a list (or array) of integers, got a {type(answer).__name__}.")
        return None
    try:
        arr = np.asarray(list(answer) if isinstance(answer, (set, frozenset)) else answer)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.ndim != 1 or arr.dtype.kind not in "iuf" or (
        arr.dtype.kind == "f" and not np.all(np.isfinite(arr) & (arr == np.round(arr)))
    ):
        print(f"Not yet. {name} should be a flat list (or 1-D array) of whole numbers.")
        return None
    return [int(x) for x in arr]


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
    arr = _as_array(counts)
    if arr is None or arr.ndim != 1:
        return _report(False, "", "counts should be a 1-D list or array of numbers, one per vocabulary entry.")
    if arr.shape[0] == len(set(_tokenize(_WHY_BAG_TEXT))):
        return _report(False, "", "counts has one entry too many: did you lower-case the tokens "
                                  "(tokenize(..., lower=True)), so that 'The' and 'the' are one token?")
    if arr.shape != expected.shape:
        return _report(False, "", "counts should have one entry per vocabulary entry: len(vocab) of them.")
    if not np.isclose(arr.sum(), len(tokens)):
        return _report(False, "", "the counts should add up to the number of tokens in the sentence.")
    if np.allclose(np.sort(arr), np.sort(expected)):
        ok = np.allclose(arr, expected)
        return _report(ok, "One count per distinct word: word order is gone.",
                       "right numbers, wrong order: entry i should count the token that build_vocab "
                       "numbered i (numbers follow first appearance).")
    return _report(False, "", "some counts are off: look at which tokens occur more than once.")


def check_why_permutation(perm):
    """Check a permutation that turns "the dog chased the cat" into "the cat chased the dog".

    Any ``perm`` with ``[words_a[i] for i in perm] == words_b`` is right,
    where ``words_a`` and ``words_b`` are the tokens of the two sentences
    (exercise ex-why-permutation); there is more than one.

    Parameters
    ----------
    perm : sequence of int
        A list, tuple or integer array with each of ``0 .. 4`` once.

    Returns
    -------
    bool
        ``True`` if ``perm`` is a permutation that maps the first sentence to
        the second. A verdict, with a hint if wrong, is printed.

    Examples
    --------
    >>> check_why_permutation([0, 1, 2, 3, 4])  # doctest: +ELLIPSIS
    Not yet. ...
    False
    """
    tokens_a = _tokenize(_WHY_PERM_A)
    tokens_b = _tokenize(_WHY_PERM_B)
    n = len(tokens_a)
    perm = _int_list(perm, "perm")
    if perm is None:
        return False
    if sorted(perm) != list(range(n)):
        return _report(False, "", f"perm should contain each of the positions 0 to {n - 1} exactly once.")
    got = [tokens_a[i] for i in perm]
    ok = got == tokens_b
    return _report(
        ok,
        "Row t of the new sentence is row perm[t] of the old one. There are two such "
        "permutations, because the two 'the's are interchangeable.",
        f"reordered by your perm, the first sentence reads {' '.join(got)!r}. Remember that "
        "position t of the new sentence takes the word at position perm[t] of the old one.",
    )


def _why_reference(X, W_q, W_k, W_v, causal):
    mask = _causal_mask(len(X)) if causal else None
    return _attention(X @ W_q, X @ W_k, X @ W_v, mask=mask)[0]


def check_why_self_attention(fn):
    r"""Check a from-scratch self-attention function (exercise ex-why-self-attention).

    ``fn(X, W_q, W_k, W_v, causal=False)`` must return
    :math:`\mathrm{softmax}(QK^\top/\sqrt{d_k})\,V` with :math:`Q = XW_q`,
    :math:`K = XW_k`, :math:`V = XW_v`, and with query ``i`` restricted to
    keys ``j <= i`` when ``causal`` is true. The checker calls it on random
    inputs of several shapes (with ``d_k`` different from ``d_v`` and from
    the width of ``X``) and compares with :func:`posenc.attention`. A
    returned ``(output, weights)`` pair is accepted too.

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
        return _report(False, "", f"pass the function itself (no parentheses), got a {type(fn).__name__}.")
    rng = np.random.default_rng(2024)
    for n, d_model, d_k, d_v in [(5, 4, 3, 2), (1, 3, 2, 4), (6, 6, 6, 6)]:
        X = rng.normal(size=(n, d_model))
        W_q, W_k = rng.normal(size=(2, d_model, d_k))
        W_v = rng.normal(size=(d_model, d_v))
        for causal in (False, True):
            try:
                got = fn(X.copy(), W_q.copy(), W_k.copy(), W_v.copy(), causal=causal)
            except Exception as exc:  # the learner's code: report, do not crash
                return _report(False, "", f"your function raised {type(exc).__name__}: {exc}")
            if isinstance(got, tuple) and len(got) == 2:
                got = got[0]
            got = _as_array(got)
            if got is None or got.shape != (n, d_v):
                shape = None if got is None else got.shape
                return _report(False, "", f"for X of shape {X.shape} and W_v of shape {W_v.shape} the "
                                          f"output should have shape (n, d_v) = {(n, d_v)}, got {shape}.")
            want = _why_reference(X, W_q, W_k, W_v, causal)
            if np.allclose(got, want, atol=1e-8):
                continue
            Q, K, V = X @ W_q, X @ W_k, X @ W_v
            S = Q @ K.T
            if causal:
                if np.allclose(got, _why_reference(X, W_q, W_k, W_v, False), atol=1e-8):
                    return _report(False, "", "with causal=True, query i may only look at keys j <= i.")
                if n > 1 and np.allclose(got, _why_masked(S / np.sqrt(d_k), np.triu(np.ones((n, n), bool))) @ V):
                    return _report(False, "", "your mask points the wrong way: query i may see keys j <= i "
                                              "(the past), not j >= i.")
                S = np.where(np.tril(np.ones((n, n), bool)), S, -np.inf)
            if np.allclose(got, _why_softmax(S, axis=-1) @ V):
                return _report(False, "", "the scores need scaling: divide Q K^T by sqrt(d_k).")
            if np.allclose(got, _why_softmax(S / np.sqrt(d_model), axis=-1) @ V):
                return _report(False, "", "divide by sqrt(d_k), the width of the queries and keys, "
                                          "not of the embeddings.")
            if not causal and np.allclose(got, _why_softmax(S / np.sqrt(d_k), axis=0) @ V):
                return _report(False, "", "take the softmax along the keys, so that each row of "
                                          "weights sums to 1 (axis=-1).")
            return _report(False, "", f"the output is wrong for X of shape {X.shape} with causal={causal}. "
                                      "Compare your steps with the formula: project, score, scale, "
                                      "mask, softmax over keys, weight the values.")
    return _report(True, "Your attention matches posenc.attention, with and without the causal mask.", "")


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
    arr = np.asarray(list(changed) if isinstance(changed, (set, frozenset)) else changed)
    if arr.dtype == bool:
        if arr.shape != (n,):
            return _report(False, "", f"a boolean answer needs one entry per position ({n} of them).")
        got = set(np.flatnonzero(arr).tolist())
    else:
        as_list = _int_list(changed, "changed")
        if as_list is None:
            return False
        got = set(as_list)
        if not got <= set(range(n)):
            return _report(False, "", f"positions run from 0 to {n - 1}.")
    first = min(t for t in range(n) if a[t] != b[t])
    if any(t < first for t in got):
        return _report(False, "", "a position before the swap sees exactly the same words as before: "
                                  "can its output change?")
    if not {t for t in expected if t >= first} <= got:
        return _report(False, "", "a word that moved now sees a different set of earlier words.")
    ok = got == expected
    return _report(
        ok,
        "One causal layer sees the words before each position as a set: after the swapped pair, "
        "the set is the same again, and so is the output.",
        "look at the positions after the swapped pair: which words can each of them see, "
        "and does one layer of attention care in which order they came?",
    )




# --- Chapter: the sinusoidal formula --------------------------------------


# --- Chapter: the worked example ------------------------------------------


def _cat_pe(pos):
    """PE(pos) for d_model = 4, written out: [sin p, cos p, sin p/100, cos p/100]."""
    return np.array([np.sin(pos), np.cos(pos), np.sin(pos / 100), np.cos(pos / 100)])


def _cat_whole(x):
    """``x`` as an int if it is a whole number (int, numpy int, 3.0), else None."""
    if isinstance(x, (bool, np.bool_)):
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return int(f) if f.is_integer() else None


def check_cat_vocab_sizes(cased, lowered):
    """Check the vocabulary sizes of "The dog saw the cat and the cat saw the dog."

    Parameters
    ----------
    cased : int
        Number of rows the embedding table needs when case is kept
        (``tokenize(sentence)``).
    lowered : int
        Number of rows with ``tokenize(sentence, lower=True)``.

    Returns
    -------
    bool
        ``True`` if both counts are right; a hint is printed otherwise.

    Examples
    --------
    >>> check_cat_vocab_sizes(3, 3)
    Not yet. Lower-casing merges a capitalised word with its lower-case twin, so the two counts differ here.
    False
    """
    # the sentence's tokens, written out so the checker does not rely on tokenize
    tokens = "The dog saw the cat and the cat saw the dog".split()
    expected = (len(set(tokens)), len({t.lower() for t in tokens}))
    answer = (_cat_whole(cased), _cat_whole(lowered))
    if None in answer:
        return _report(False, "", "Both answers are whole numbers: counts of distinct tokens.")
    if answer == expected:
        return _report(True, "Lower-casing saves one row: 'The' and 'the' share it.", "")
    if len(tokens) in answer:
        hint = ("That counts every token of the sentence; the table needs one row per "
                "*distinct* token (build_vocab numbers each new token once).")
    elif len(tokens) + 1 in answer or answer[0] == expected[0] + 1:
        hint = "tokenize drops punctuation: the final '.' is not a token."
    elif answer[0] == answer[1]:
        hint = ("Lower-casing merges a capitalised word with its lower-case twin, "
                "so the two counts differ here.")
    elif answer[0] < answer[1]:
        hint = "Lower-casing can merge tokens but never split them: it cannot add rows."
    else:
        hint = ("Write the tokens in order, then cross out each one you have seen before; "
                "count what is left, once keeping case and once after lower-casing.")
    return _report(False, "", hint)


def check_cat_pe3(pe3):
    r"""Check PE(3) for d_model = 4, positions counted from 1.

    Parameters
    ----------
    pe3 : array_like of 4 numbers
        :math:`[\sin(3/10000^{0}), \cos(3/10000^{0}), \sin(3/10000^{1/2}),
        \cos(3/10000^{1/2})]`, computed by hand; three decimals are enough.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_cat_pe3([0.0, 0.0, 0.0])
    Not yet. PE(3) has d_model = 4 numbers: a sine and a cosine for each of the two pairs.
    False
    """
    expected = _cat_pe(3)
    arr = _as_array(pe3)
    if arr is None or arr.shape != (4,):
        return _report(False, "", "PE(3) has d_model = 4 numbers: a sine and a cosine for "
                                  "each of the two pairs.")
    if _close(arr, expected, atol=1e-3, rtol=0):
        return _report(True, "The fast pair has turned 3 radians, the slow pair only 0.03.", "")
    degrees = np.radians([3, 3, 0.03, 0.03])
    if _close(arr, np.sin(degrees) * [1, 0, 1, 0] + np.cos(degrees) * [0, 1, 0, 1],
              atol=1e-3, rtol=0):
        hint = "Your calculator is in degrees. The angles are in radians: switch it to RAD."
    elif _close(arr[[1, 0, 3, 2]], expected, atol=1e-3, rtol=0):
        hint = "Sine and cosine are swapped: even dimensions (0, 2) hold the sines."
    elif _close(arr[:2], expected[:2], atol=1e-3, rtol=0):
        hint = ("The first pair is right. For the second pair (i = 1) the divisor is "
                "10000 ** (2 * 1 / 4); check it, then the angle 3 / divisor.")
    elif any(_close(arr, _cat_pe(p), atol=1e-3, rtol=0) for p in (2, 4)):
        hint = ("That is the encoding of a neighbouring position. In this chapter the "
                "position of the third token is 3, and the angles are 3 / divisor.")
    else:
        hint = ("For pair i the angle is 3 / 10000 ** (2i / 4), with i = 0 for dims 0, 1 "
                "and i = 1 for dims 2, 3; take the sine for the even dim, the cosine for "
                "the odd one.")
    return _report(False, "", hint)


def check_cat_most_changed(step_12, step_34):
    """Check which dimension of PE changes most between two positions (d_model = 4).

    Parameters
    ----------
    step_12 : int
        The dimension (0 to 3) with the largest ``|PE(2)[d] - PE(1)[d]|``.
    step_34 : int
        The same for ``|PE(4)[d] - PE(3)[d]|``.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_cat_most_changed(3, 3)
    Not yet. The slow pair (dims 2 and 3) turns by only 0.01 radians per step; look at the fast pair.
    False
    """
    pe = np.array([_cat_pe(p) for p in range(5)])
    expected = tuple(int(np.argmax(np.abs(pe[b] - pe[a]))) for a, b in ((1, 2), (3, 4)))
    answer = (_cat_whole(step_12), _cat_whole(step_34))
    if None in answer or not all(0 <= a < 4 for a in answer):
        return _report(False, "", "Each answer is a dimension: a whole number from 0 to 3.")
    if answer == expected:
        return _report(True, "The fast pair always wins, but whether its sine or its cosine "
                             "moves more depends on where the hand is on the circle.", "")
    if any(a >= 2 for a in answer):
        hint = ("The slow pair (dims 2 and 3) turns by only 0.01 radians per step; "
                "look at the fast pair.")
    else:
        hint = ("Within the fast pair, compare |sin(p+1) - sin(p)| with |cos(p+1) - cos(p)| "
                "for each step. The sine changes fastest where the cosine is large, and the "
                "other way round.")
    return _report(False, "", hint)


def check_cat_the_difference(diff):
    """Check ``x_5 - x_1``, the difference of the two "the" input vectors.

    With ``lower=True`` both occurrences of "the" (positions 1 and 5) look up
    the same embedding row, so their input vectors ``x = E[id] + PE(pos)``
    differ only through the positions.

    Parameters
    ----------
    diff : array_like of 4 numbers
        The input vector of the second "the" minus that of the first.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_cat_the_difference([1, 2])
    Not yet. The difference of two input vectors has d_model = 4 numbers.
    False
    """
    expected = _cat_pe(5) - _cat_pe(1)
    arr = _as_array(diff)
    if arr is None or arr.shape != (4,):
        return _report(False, "", "The difference of two input vectors has d_model = 4 numbers.")
    if _close(arr, expected, atol=1e-3, rtol=0):
        return _report(True, "The embedding cancels: whatever the word, the difference is "
                             "PE(5) - PE(1).", "")
    if _close(-arr, expected, atol=1e-3, rtol=0):
        hint = "The sign is reversed: take the second 'the' (position 5) minus the first."
    elif _close(arr, _cat_pe(4) - _cat_pe(0), atol=1e-3, rtol=0):
        hint = "Those are positions counted from 0; this chapter counts from 1."
    else:
        hint = ("Both rows look up the same embedding, so E cancels in x_5 - x_1; "
                "what is left depends only on the two positions.")
    return _report(False, "", hint)


# --- Chapter: learned alternatives ----------------------------------------


# --- Chapter: relative and rotary positions --------------------------------
