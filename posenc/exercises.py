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
    """The learner's answer as a float array, or None if it is not numeric.

    Complex values count only when their imaginary parts are all zero (numpy
    would silently drop them, with a warning); ragged lists, functions and
    other non-numbers give None.
    """
    try:
        arr = np.asarray(answer)
        if arr.dtype.kind == "c":
            if np.any(arr.imag != 0):
                return None
            arr = arr.real
        return arr.astype(float)
    except (TypeError, ValueError):
        return None


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
        "Reordered by your perm, the first sentence reads exactly like the second.",
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
        return _report(False, "", "a position whose output changes is missing: for each position, "
                                  "compare its own word and the words it can see in the two sentences.")
    ok = got == expected
    return _report(
        ok,
        "You listed exactly the positions whose output differs between the two sentences.",
        "look at the positions after the swapped pair: which words can each of them see, "
        "and does one layer of attention care in which order they came?",
    )




# --- Chapter: the sinusoidal formula --------------------------------------


def _paper_table(length, d_model, base=10000.0):
    """The paper's interleaved table, written out independently of posenc.sinusoidal."""
    pos = np.arange(length, dtype=float)[:, None]
    omega = base ** (-2.0 * np.arange(d_model // 2) / d_model)
    table = np.empty((length, d_model))
    table[:, 0::2] = np.sin(pos * omega)
    table[:, 1::2] = np.cos(pos * omega)
    return table


def check_sin_longest_wavelength(answer):
    r"""Check the longest wavelength of the paper's encoding for ``d_model = 64``.

    The wavelength of pair :math:`i` is :math:`2\pi / \omega_i` positions. The
    checker recognises the usual wrong answers (the round figure, a missing
    :math:`2\pi`, a wrong exponent) and gives a hint for each.

    Parameters
    ----------
    answer : float
        The wavelength, in positions. Any real number type is accepted
        (Python float, numpy scalar, 0-d or 1-element array).

    Returns
    -------
    bool
        ``True`` if ``answer`` is within a relative ``1e-6`` of the exact value.

    Examples
    --------
    >>> check_sin_longest_wavelength(2 * np.pi)
    Not yet. That is the wavelength of the fastest pair (i = 0). The longest belongs to the last pair.
    False
    """
    expected = 2 * np.pi * 10000.0 ** (62 / 64)
    arr = _as_array(answer)
    if arr is None or arr.size != 1:
        return _report(False, "", "Give a single number: the wavelength in positions.")
    value = float(arr.reshape(()))
    close = lambda target: np.isclose(value, target, rtol=1e-6, atol=0)  # noqa: E731
    if close(expected):
        return _report(True, "Your value is the exact wavelength of the slowest pair for "
                             "d_model = 64, in positions.", "")
    if close(2 * np.pi * 10000.0):
        hint = ("That is the round figure quoted in the paper. The ladder stops one rung "
                "earlier: which i is the last pair, and what is 2i / d_model for it?")
    elif close(2 * np.pi):
        hint = "That is the wavelength of the fastest pair (i = 0). The longest belongs to the last pair."
    elif close(10000.0 ** (62 / 64)) or close(10000.0 ** (-62 / 64)):
        hint = ("A wavelength is the number of positions for one full turn, 2*pi / omega_i; "
                "check the factor 2*pi and the sign of the exponent.")
    elif close(2 * np.pi * 10000.0 ** (31 / 64)):
        hint = "The exponent is 2i / d_model, not i / d_model."
    else:
        hint = ("Use wavelength_i = 2*pi / omega_i with omega_i = 10000**(-2i/d_model), "
                "for the largest i that exists when d_model = 64.")
    return _report(False, "", hint)


def check_sin_spot_the_bug(fixed_sinusoidal):
    r"""Check a corrected version of the buggy encoding function of the chapter.

    ``fixed_sinusoidal(length, d_model)`` must return the paper's table
    (interleaved sines and cosines, :math:`\omega_i = 10000^{-2i/d_{model}}`,
    positions from 0) for even ``d_model``. It is called on a few sizes and
    compared with the formula, and with the buggy versions a learner is
    likely to produce, so that the hint can say what is still wrong.

    Parameters
    ----------
    fixed_sinusoidal : callable
        A function ``(length, d_model) -> array of shape (length, d_model)``.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_sin_spot_the_bug(lambda length, d_model: np.zeros((length, d_model)))
    Not yet. The shape is right but the values are not: compare your first row with the formula (position 0 gives 0, 1, 0, 1, ...).
    False
    """
    if not callable(fixed_sinusoidal):
        return _report(False, "", "Pass the function itself (fixed_sinusoidal), not a table it made.")
    sizes = [(4, 6), (10, 8), (50, 128), (3, 2)]
    for length, d_model in sizes:
        try:
            got = fixed_sinusoidal(length, d_model)
        except Exception as err:  # the learner's code may raise anything
            return _report(False, "", f"Calling it with ({length}, {d_model}) raised "
                                      f"{type(err).__name__}: {err}")
        arr = _as_array(got)
        if arr is None or arr.shape != (length, d_model):
            shape = None if arr is None else arr.shape
            return _report(False, "", f"With ({length}, {d_model}) it must return an array of "
                                      f"shape ({length}, {d_model}); got {shape}.")
        expected = _paper_table(length, d_model)
        if np.allclose(arr, expected, atol=1e-6, rtol=0):
            continue
        pos = np.arange(length, dtype=float)[:, None]

        def interleave(omega):
            table = np.empty((length, d_model))
            table[:, 0::2], table[:, 1::2] = np.sin(pos * omega), np.cos(pos * omega)
            return table

        pairs = np.arange(d_model // 2)
        still_buggy = interleave(10000.0 ** (-4.0 * pairs / d_model))  # the exercise's bug
        other_slip = interleave(10000.0 ** (-1.0 * pairs / d_model))  # i instead of 2i
        halves = np.hstack([expected[:, 0::2], expected[:, 1::2]])
        if np.allclose(arr, still_buggy, atol=1e-6):
            hint = ("These are still the buggy numbers: only the first pair of columns is right. "
                    "What values does the variable i take, and what does the formula need there?")
        elif np.allclose(arr, other_slip, atol=1e-6):
            hint = ("Now the exponent is off the other way (the slip discussed with the tutorial's "
                    "table): the later pairs turn too fast. Compare the exponent with the formula "
                    "once more.")
        elif np.allclose(arr, halves, atol=1e-6):
            hint = ("The numbers are right but in the wrong columns: the paper interleaves, "
                    "sine in column 2i and cosine in column 2i + 1.")
        elif np.allclose(arr[:, :2], expected[:, :2], atol=1e-6):
            hint = ("The first pair of columns is right, the others turn at the wrong speed: "
                    "check the exponent of 10000.")
        else:
            hint = ("The shape is right but the values are not: compare your first row with "
                    "the formula (position 0 gives 0, 1, 0, 1, ...).")
        return _report(False, "", hint)
    return _report(True, "Your fixed_sinusoidal gives the paper's table at every size tested.", "")


def check_sin_dot_at_offset(dot_at_offset):
    r"""Check a function that gives :math:`PE(pos) \cdot PE(pos + k)` without a table.

    The function is called for several offsets ``k`` (positive, negative and
    zero) and even widths, and compared with the dot products of rows of the
    paper's table (base 10000).

    Parameters
    ----------
    dot_at_offset : callable
        A function ``(k, d_model) -> float``.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_sin_dot_at_offset(lambda k, d_model: d_model / 2)
    Not yet. Right at k = 0, where every pair contributes 1, but not for other offsets: how much does pair i contribute when the two angles differ by k * omega_i?
    False
    """
    if not callable(dot_at_offset):
        return _report(False, "", "Pass the function itself (dot_at_offset), not a number it returned.")
    cases = [(0, 8), (1, 8), (-3, 8), (10, 128), (37, 128), (500, 512), (-500, 512), (2, 2)]
    for k, d_model in cases:
        try:
            got = dot_at_offset(k, d_model)
        except Exception as err:  # the learner's code may raise anything
            return _report(False, "", f"Calling it with (k={k}, d_model={d_model}) raised "
                                      f"{type(err).__name__}: {err}")
        arr = _as_array(got)
        if arr is None or arr.size != 1:
            return _report(False, "", f"It must return one number; with (k={k}, d_model={d_model}) "
                                      "it returned something else.")
        omega = 10000.0 ** (-2.0 * np.arange(d_model // 2) / d_model)
        if not np.isclose(float(arr.reshape(())), np.cos(k * omega).sum(), atol=1e-6, rtol=1e-6):
            if k == 0:
                hint = "Start with k = 0: a row dotted with itself gives its squared norm."
            elif np.isclose(float(arr.reshape(())), d_model / 2):
                hint = ("Right at k = 0, where every pair contributes 1, but not for other "
                        "offsets: how much does pair i contribute when the two angles differ "
                        "by k * omega_i?")
            else:
                hint = (f"Wrong for k = {k}, d_model = {d_model}. Test it against a table: "
                        "pe = posenc.sinusoidal(k + 1, d_model); pe[0] @ pe[k].")
            return _report(False, "", hint)
    return _report(True, "Your dot_at_offset agrees with dot products of table rows for every "
                         "offset and width tested, negative offsets included.", "")


def check_sin_rotation(M):
    r"""Check the 6 x 6 matrix that moves every encoding 5 positions on.

    ``M @ PE(pos)`` must equal ``PE(pos + 5)`` for every ``pos``, with the
    paper's table for ``d_model = 6`` (interleaved, base 10000).

    Parameters
    ----------
    M : array_like of shape (6, 6)

    Returns
    -------
    bool

    Examples
    --------
    >>> check_sin_rotation(np.eye(6))
    Not yet. M @ PE(pos) should equal PE(pos + 5) for every pos; the identity leaves every row where it is.
    False
    """
    arr = _as_array(M)
    if arr is None or arr.shape != (6, 6):
        shape = None if arr is None else arr.shape
        return _report(False, "", f"M must be a 6 x 6 array; got shape {shape}.")
    table = _paper_table(40, 6)
    moved = table[:-5] @ arr.T  # row p becomes M @ PE(p)
    if np.allclose(moved, table[5:], atol=1e-6):
        return _report(True, "Your matrix maps PE(pos) to PE(pos + 5) for every position tested.", "")
    if np.allclose(table[5:] @ arr.T, table[:-5], atol=1e-6):
        hint = ("This M moves rows 5 positions back. Check the signs of the sine entries "
                "against the angle-addition formulas.")
    elif np.allclose(arr, np.eye(6)):
        hint = ("M @ PE(pos) should equal PE(pos + 5) for every pos; the identity leaves "
                "every row where it is.")
    elif np.allclose(moved[:1], table[5:6], atol=1e-6):
        hint = ("It works for pos = 0 but not for every pos: M must not depend on the position, "
                "only on the shift 5 (use the angle-addition formulas).")
    else:
        hint = ("Follow the chapter's construction of M_k, now with k = 5: write each entry of "
                "PE(pos + 5) with the angle-addition formulas. Which entries of PE(pos) does it "
                "need, and with which coefficients?")
    return _report(False, "", hint)


def check_sin_layout_permutation(perm):
    """Check the column order that turns the "halves" table back into the interleaved one.

    For ``d_model = 10``, ``sinusoidal(L, 10, layout="halves")[:, perm]`` must
    equal ``sinusoidal(L, 10)`` (the paper's interleaved layout).

    Parameters
    ----------
    perm : sequence of int
        A permutation of ``0, 1, ..., 9`` (list, tuple or integer array).

    Returns
    -------
    bool

    Examples
    --------
    >>> check_sin_layout_permutation(list(range(10)))
    Not yet. That keeps the columns where they are. In the interleaved table, which column of the halves table comes second?
    False
    """
    arr = _as_array(perm)
    if (arr is None or arr.shape != (10,) or not np.all(arr == np.round(arr))
            or sorted(arr.astype(int).tolist()) != list(range(10))):
        return _report(False, "", "perm must list each of the column numbers 0, 1, ..., 9 exactly once.")
    perm = arr.astype(int)
    inter = _paper_table(12, 10)
    halves = np.hstack([inter[:, 0::2], inter[:, 1::2]])
    if np.array_equal(halves[:, perm], inter):
        return _report(True, "The halves table, reordered by your perm, equals the interleaved "
                             "table.", "")
    if np.array_equal(inter[:, perm], halves):
        hint = ("This turns the interleaved table into the halves one, the direction shown in "
                "the chapter. You need the way back: where does each interleaved column sit "
                "in the halves table?")
    elif np.array_equal(perm, np.arange(10)):
        hint = ("That keeps the columns where they are. In the interleaved table, which column "
                "of the halves table comes second?")
    else:
        hint = ("Column 2i of the interleaved table is the sine of pair i and column 2i + 1 its "
                "cosine. Where are those two columns in the halves table?")
    return _report(False, "", hint)


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
        return _report(True, "Both counts are right, with case kept and lower-cased.", "")
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
        return _report(True, "All four numbers of PE(3) are right to three decimals.", "")
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
    Not yet. How far does the slow pair (dims 2 and 3) turn in one step, compared with the fast pair (dims 0 and 1)?
    False
    """
    pe = np.array([_cat_pe(p) for p in range(5)])
    expected = tuple(int(np.argmax(np.abs(pe[b] - pe[a]))) for a, b in ((1, 2), (3, 4)))
    answer = (_cat_whole(step_12), _cat_whole(step_34))
    if None in answer or not all(0 <= a < 4 for a in answer):
        return _report(False, "", "Each answer is a dimension: a whole number from 0 to 3.")
    if answer == expected:
        return _report(True, "Both dimensions are right, for the first step and for the second.", "")
    if any(a >= 2 for a in answer):
        hint = ("How far does the slow pair (dims 2 and 3) turn in one step, compared with "
                "the fast pair (dims 0 and 1)?")
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
        return _report(True, "All four numbers of x_5 - x_1 are right to three decimals.", "")
    if _close(-arr, expected, atol=1e-3, rtol=0):
        hint = "The sign is reversed: take the second 'the' (position 5) minus the first."
    elif _close(arr, _cat_pe(4) - _cat_pe(0), atol=1e-3, rtol=0):
        hint = "Those are positions counted from 0; this chapter counts from 1."
    else:
        hint = ("Both rows look up the same embedding, so E cancels in x_5 - x_1; "
                "what is left depends only on the two positions.")
    return _report(False, "", hint)


# --- Chapter: learned alternatives ----------------------------------------


def check_learned_gpt2_params(n_params):
    """Check the number of parameters in the position table of the smallest GPT-2.

    That model has a context of 1024 positions and ``d_model = 768``; its
    table has one trainable vector per position.

    Parameters
    ----------
    n_params : int
        The number of trainable numbers in the table. Any numeric type is
        accepted (int, float, numpy scalar, 0-d or 1-element array).

    Returns
    -------
    bool

    Examples
    --------
    >>> check_learned_gpt2_params(1024)
    Not yet. That is the number of rows. Every row is a whole vector: how many numbers does it hold?
    False
    """
    rows, width = 1024, 768
    arr = _as_array(n_params)
    if arr is None or arr.size != 1:
        return _report(False, "", "Give a single number: the count of trainable entries.")
    value = float(arr.reshape(()))
    if value == rows * width:
        return _report(True, "That is the number of trainable entries in the table.", "")
    if value == rows:
        hint = "That is the number of rows. Every row is a whole vector: how many numbers does it hold?"
    elif value == width:
        hint = "That is the size of one row. How many rows (positions) does the table have?"
    elif value in (512 * width, rows * 1600):
        hint = "That is another model's table: use 1024 positions and d_model = 768."
    else:
        hint = "The table has one row per position and one column per model dimension."
    return _report(False, "", hint)


def check_learned_extend(extend):
    r"""Check a function that continues a learned position table along a straight line.

    ``extend(P, n_trained)`` receives a table whose first ``n_trained`` rows
    were trained and must return a table of the same shape in which those
    rows are unchanged and every later row ``r`` continues the straight line
    :math:`a + r\,b` that best fits the trained rows (least squares). The
    checker calls it on tables whose trained rows lie exactly on a line, so
    that the right continuation is known, and on one where they do not.

    Parameters
    ----------
    extend : callable
        ``extend(P, n_trained) -> numpy.ndarray`` of the shape of ``P``.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_learned_extend(lambda P, n_trained: P)
    Not yet. Rows from n_trained on should continue the line a + r * b that fits the trained rows.
    False
    """
    if not callable(extend):
        return _report(False, "", "Pass the function itself: extend, without calling it.")
    rng = np.random.default_rng(2024)
    cases = []
    for n_rows, d_model, n_trained in [(64, 16, 16), (10, 3, 4), (7, 2, 2)]:
        a, b = rng.normal(size=d_model), rng.normal(size=d_model)
        line = a + np.arange(n_rows)[:, None] * b
        P = line.copy()
        P[n_trained:] = rng.normal(0.0, 0.02, size=(n_rows - n_trained, d_model))
        cases.append((P, n_trained, line))
    # trained rows off a line: the continuation is the least-squares fit
    P = rng.normal(size=(12, 4))
    X = np.stack([np.ones(6), np.arange(6)], axis=1)
    coef = np.linalg.lstsq(X, P[:6], rcond=None)[0]
    fit = P.copy()
    fit[6:] = coef[0] + np.arange(6, 12)[:, None] * coef[1]
    cases.append((P, 6, fit))

    for P, n_trained, expected in cases:
        try:
            out = np.asarray(extend(P.copy(), n_trained), dtype=float)
        except Exception as error:  # the learner's code may fail in any way
            return _report(False, "", f"Calling extend(P, n_trained) raised {type(error).__name__}: {error}")
        if out.shape != P.shape:
            return _report(False, "", "Return a table of the same shape as P, one row per position.")
        if not np.allclose(out[:n_trained], P[:n_trained], rtol=0, atol=1e-9):
            return _report(False, "", "Leave the trained rows (0 to n_trained - 1) as they are.")
        if not np.allclose(out[n_trained:], expected[n_trained:], rtol=1e-6, atol=1e-6):
            if np.allclose(out, P):
                hint = "Rows from n_trained on should continue the line a + r * b that fits the trained rows."
            elif n_trained == 6:
                hint = ("Right on exact lines, not on noisy rows: fit a + r * b to all trained rows by "
                        "least squares (np.linalg.lstsq), not through two of them.")
            else:
                hint = ("Rows from n_trained on should continue the line a + r * b that fits the "
                        "trained rows; check the values of r you use (the position of each row).")
            return _report(False, "", hint)
    return _report(True, "The trained rows stay, and the rows training never reached continue their line.", "")


def check_learned_bag_tasks(answer):
    """Check which of the chapter's four tasks the model without positions can solve exactly.

    The tasks, on sequences of ``A``, ``B`` and filler tokens: (a) is ``A``
    before ``B``? (b) are there more ``A`` than ``B``? (c) is the first
    token an ``A``? (d) does the token ``h`` occur? The question is for which
    of them that model can reach 100% accuracy, at least in principle.

    Parameters
    ----------
    answer : str or collection of str
        The letters of the tasks, in any order and case: ``"ab"``,
        ``"a, b"``, ``["a", "b"]`` or ``{"A", "B"}`` all mean tasks (a) and (b).

    Returns
    -------
    bool

    Examples
    --------
    >>> check_learned_bag_tasks("a")
    Not yet. Task (a) is the chapter's task: swapping A and B flips its label but not the bag of tokens.
    False
    """
    expected = {"b", "d"}
    if isinstance(answer, str):
        words = "".join(c if c.isalpha() else " " for c in answer.lower()).split()
        letters = [c for w in words if w not in ("and", "or", "task", "tasks") for c in w]
    else:
        try:
            letters = [str(x).strip().lower() for x in answer]
        except TypeError:
            return _report(False, "", "Give the letters of the tasks, for example \"ac\" or [\"a\", \"c\"].")
    chosen = set(letters)
    if not chosen or not chosen <= {"a", "b", "c", "d"}:
        return _report(False, "", "Choose among the letters a, b, c and d.")
    if chosen == expected:
        return _report(True, "You chose exactly the tasks that the model without positions can "
                             "get right on every sequence.", "")
    if "a" in chosen:
        hint = ("Task (a) is the chapter's task: swapping A and B flips its label but not "
                "the bag of tokens.")
    elif "c" in chosen:
        hint = ("For task (c), move the first A to the end of the sequence: the bag of "
                "tokens is the same, is the label?")
    else:
        hint = ("A model without positions can be right on every sequence only when the label "
                "does not change under any reordering of the tokens. Test each task with that question.")
    return _report(False, "", hint)


def check_learned_causal_none(accuracy):
    """Check the measured accuracy of the model without positions but with a causal mask.

    The model is trained as in the chapter (``"none"``, seed 0, default
    settings) except ``causal=True``, and evaluated on the chapter's
    mirrored test set of length 16.

    Parameters
    ----------
    accuracy : float
        The accuracy, a number between 0 and 1.

    Returns
    -------
    bool
        ``True`` if the accuracy is clearly above chance (at least 0.9).

    Examples
    --------
    >>> check_learned_causal_none(0.5)
    Not yet. Check the set-up: did the model you trained and evaluated get causal=True?
    False
    """
    arr = _as_array(accuracy)
    if arr is None or arr.size != 1:
        return _report(False, "", "Give a single number between 0 and 1.")
    value = float(arr.reshape(()))
    if not 0 <= value <= 1:
        return _report(False, "", "An accuracy lies between 0 and 1 (use 0.95, not 95).")
    if value >= 0.9:
        return _report(True, "Your accuracy is in the range this set-up reaches on the mirrored "
                             "test set of length 16.", "")
    if abs(value - 0.5) < 0.05:
        hint = "Check the set-up: did the model you trained and evaluated get causal=True?"
    else:
        hint = ("Train a fresh init_model(\"none\", causal=True, seed=0) with learned.train(..., seed=0) "
                "and evaluate the trained model on the mirrored test set of length 16.")
    return _report(False, "", hint)


# --- Chapter: relative and rotary positions --------------------------------

__all__ += [
    "check_rel_shaw_index",
    "check_rel_t5_bucket_mates",
    "check_rel_rope_matrix",
    "check_rel_layout_permutation",
    "check_rel_alibi_half_life",
]


def _integer_array(answer):
    """The answer as an int array if every entry is a whole number, else None."""
    arr = _as_array(answer)
    if arr is None or not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
        return None
    return arr.astype(int)


def check_rel_shaw_index(answer):
    """Check the row indices into Shaw et al.'s table of relative vectors.

    The exercise: 4 queries, 6 keys, clipping distance ``k = 2``; the table
    holds the ``2k + 1 = 5`` vectors :math:`w_{-2}, \\dots, w_{2}` in rows
    0 to 4. Entry ``[i, j]`` of the answer is the row used by query ``i`` and
    key ``j``.

    Parameters
    ----------
    answer : array_like of int, shape (4, 6)

    Returns
    -------
    bool
        ``True`` if every index is right.
    """
    from .relative import relative_positions

    expected = relative_positions(4, 6, max_distance=2) + 2
    arr = _integer_array(answer)
    if arr is None:
        return _report(False, "", "Give whole-number row indices, for example as an int array.")
    if arr.shape != expected.shape:
        return _report(False, "", f"Expected shape (4, 6), one row index per (query, key) pair; got {arr.shape}.")
    if arr.min() < 0 or arr.max() > 4:
        return _report(False, "", "Row indices of a 5-row table run from 0 to 4: shift the clipped offset by k.")
    if not np.all(np.diag(arr) == 2):
        return _report(False, "", "A query looking at its own position (offset 0) uses the middle row of the table.")
    if np.array_equal(arr, 4 - expected):
        return _report(False, "", "Check the sign: the offset is key position minus query position, j - i.")
    return _report(
        np.array_equal(arr, expected),
        "Every (query, key) pair with the same clipped offset shares one table row.",
        "For each (query, key) pair: what is the offset j - i, what does clipping to k make of it, "
        "and which of the 5 rows holds the vector for that clipped offset?",
    )


def check_rel_t5_bucket_mates(answer):
    """Check the relative positions that share T5's bucket with ``-20``.

    The exercise: T5's defaults (bidirectional, 32 buckets, max distance
    128), relative positions from -200 to 200. The answer lists, in any
    order, every relative position in that range whose bucket equals the
    bucket of ``-20``.

    Parameters
    ----------
    answer : array_like of int, 1-D

    Returns
    -------
    bool
    """
    from .relative import t5_bucket

    rel = np.arange(-200, 201)
    expected = rel[t5_bucket(rel) == t5_bucket(-20)]
    arr = _integer_array(answer)
    if arr is None or arr.ndim != 1:
        return _report(False, "", "Give a 1-D list or array of whole-number relative positions.")
    if len(np.unique(arr)) != len(arr):
        return _report(False, "", "Each relative position should appear once.")
    if np.any(arr > 0):
        return _report(False, "", "Keys after the query (positive offsets) use the other half of the buckets.")
    if -20 not in arr:
        return _report(False, "", "The list should contain -20 itself.")
    ok = np.array_equal(np.sort(arr), expected)
    return _report(
        ok,
        "Your list is exactly the offsets that share the bucket of -20.",
        "Which bucket holds a key 20 positions in the past? Which other distances share that bucket, "
        "and can a key in the future ever land in it?",
    )


def check_rel_rope_matrix(answer):
    """Check the matrix form of RoPE for ``d = 6`` at position ``m = 3``.

    The exercise: the 6 x 6 matrix ``R`` with ``R @ x == rope(x[None], [3])[0]``
    for every vector ``x`` (interleaved layout, base 10000).

    Parameters
    ----------
    answer : array_like of float, shape (6, 6)

    Returns
    -------
    bool
    """
    from .rotary import rope

    expected = rope(np.eye(6), np.full(6, 3.0)).T
    arr = _as_array(answer)
    if arr is None or arr.shape != (6, 6):
        shape = None if arr is None else arr.shape
        return _report(False, "", f"Expected a 6 x 6 array of numbers, got shape {shape}.")
    if _close(arr, expected.T):
        return _report(False, "", "This is the transpose: the rotation turns (1, 0) towards (0, 1), "
                       "so the lower entry of each 2 x 2 block is +sin.")
    if _close(arr, rope(np.eye(6), np.full(6, 3.0), layout="halves").T):
        return _report(False, "", "That is the 'halves' layout; here pairs are dimensions (0, 1), (2, 3), (4, 5).")
    if not np.allclose(arr @ arr.T, np.eye(6), atol=1e-6):
        return _report(False, "", "A rotation matrix is orthogonal (R @ R.T is the identity); yours is not.")
    return _report(
        _close(arr, expected),
        "Your R3 moves every vector exactly as posenc.rope does at position 3.",
        "Block i rotates by the angle 3 * 10000 ** (-2 i / 6); check the frequency of each block.",
    )


def check_rel_layout_permutation(answer):
    """Check the column order that moves a 'halves' RoPE checkpoint to 'interleaved' code.

    The exercise: a head of width ``d = 8`` was trained with
    ``layout="halves"``, with queries ``x @ W_q`` and keys ``x @ W_k``
    (``W_q`` and ``W_k`` of shape ``(5, 8)``, the book's ``x W``
    convention). Reordering the columns of both projections as
    ``W[:, perm]`` must make ``layout="interleaved"`` give the same
    attention scores for every input. (In PyTorch, whose ``nn.Linear``
    stores the transpose, the same ``perm`` reorders the rows of
    ``weight``.)

    Parameters
    ----------
    answer : array_like of int, a permutation of ``0, ..., 7``

    Returns
    -------
    bool
    """
    from .rotary import rope

    arr = _integer_array(answer)
    if arr is None or arr.shape != (8,) or not np.array_equal(np.sort(arr), np.arange(8)):
        return _report(False, "", "Give an array holding each of the numbers 0 to 7 exactly once.")
    if np.array_equal(arr, np.r_[0:8:2, 1:8:2]):
        return _report(False, "", "That reorders the other way round (an interleaved checkpoint for halves "
                       "code). Where must each coordinate of the halves-trained head go so that "
                       "interleaved code pairs it with its partner?")
    rng = np.random.default_rng(0)
    w_q, w_k = rng.normal(size=(2, 5, 8))  # input width 5, head width 8
    x = rng.normal(size=(9, 5))
    trained = rope(x @ w_q, layout="halves") @ rope(x @ w_k, layout="halves").T
    moved = rope(x @ w_q[:, arr]) @ rope(x @ w_k[:, arr]).T
    return _report(
        np.allclose(moved, trained, atol=1e-9),
        "Same scores: the layouts differ only in the order of the dimensions.",
        "Ask which two trained dimensions rotate together, and where interleaved code expects a pair to sit.",
    )


def check_rel_alibi_half_life(answer):
    """Check the ALiBi 'half-life' of each of 8 heads.

    The exercise: with equal content scores, ALiBi multiplies the weight of
    a key at distance ``D`` by ``exp(-m D)`` compared with distance 0. The
    answer gives, for each head (head 0 first), the distance at which this
    factor is one half.

    Parameters
    ----------
    answer : array_like of float, shape (8,)

    Returns
    -------
    bool
    """
    from .relative import alibi_slopes

    slopes = alibi_slopes(8)
    expected = np.log(2.0) / slopes
    arr = _as_array(answer)
    if arr is None or arr.shape != (8,):
        shape = None if arr is None else arr.shape
        return _report(False, "", f"Expected 8 numbers, one per head; got shape {shape}.")
    if _close(arr, expected[::-1], rtol=1e-3):
        return _report(False, "", "Head 0 has the steepest slope, so it should have the shortest half-life.")
    if _close(arr, 1 / slopes, rtol=1e-3):
        return _report(False, "", "Solve exp(-m D) = 1/2 for D: a logarithm is missing.")
    return _report(
        _close(arr, expected, rtol=1e-3),
        "All 8 half-lives are right, head 0 first.",
        "Solve exp(-m D) = 1/2 for D, with m from the ALiBi slopes of 8 heads.",
    )
