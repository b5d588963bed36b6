"""Checkers of chapter 4, *Learned positional embeddings*.
"""

from __future__ import annotations

import itertools

import numpy as np

from ._common import _as_array, _correct, _not_yet, _raised_hint

__all__ = [
    "check_learned_gpt2_params",
    "check_learned_extend",
    "check_learned_bag_tasks",
    "check_learned_causal_none",
]

_MOST_ITEMS = 26  # the letters of an answer to the bag-tasks exercise, with room for repeats


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
        return _not_yet("Give a single number: the count of trainable entries.")
    value = float(arr.reshape(()))
    if value == rows * width:
        return _correct("That is the number of trainable entries in the table.")
    if value == rows:
        hint = "That is the number of rows. Every row is a whole vector: how many numbers does it hold?"
    elif value == width:
        hint = "That is the size of one row. How many rows (positions) does the table have?"
    elif value in (512 * width, rows * 1600):
        hint = "That is another model's table: use 1024 positions and d_model = 768."
    else:
        hint = "The table has one row per position and one column per model dimension."
    return _not_yet(hint)


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
        return _not_yet("Pass the function itself: extend, without calling it.")
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
        given = P.copy()
        try:
            got = extend(given, n_trained)
        except (Exception, SystemExit) as error:  # the learner's code may fail in any way
            return _not_yet(_raised_hint("extend(P, n_trained)", error))
        if not np.array_equal(given, P):
            return _not_yet("extend changed the P it was given: work on a copy (P.copy()) and return "
                            "that. The tables of the chapter's stack are views of its trained models, "
                            "so changing P in place changes those models too.")
        try:
            out = _as_array(got)
        except Exception:  # an array-like whose conversion fails in its own way
            out = None
        if out is None:
            return _not_yet("Return a table of real numbers (a NumPy array), one row per position.")
        if out.shape != P.shape:
            return _not_yet("Return a table of the same shape as P, one row per position.")
        if not np.allclose(out[:n_trained], P[:n_trained], rtol=0, atol=1e-9):
            return _not_yet("Leave the trained rows (0 to n_trained - 1) as they are.")
        if not np.allclose(out[n_trained:], expected[n_trained:], rtol=1e-6, atol=1e-6):
            return _not_yet(_extend_hint(out, P, n_trained))
    return _correct("The trained rows stay; the untrained rows continue their line.")


def _extend_hint(out, P, n_trained):
    """The hint for a table ``out`` whose untrained rows do not continue the line of ``P``."""
    if np.allclose(out, P):
        return "Rows from n_trained on should continue the line a + r * b that fits the trained rows."
    if np.allclose(out[n_trained:], _line_through(P, len(P))[n_trained:], rtol=1e-6, atol=1e-6):
        return ("Fit the line to the trained rows only, rows 0 to n_trained - 1: the later rows were "
                "never trained, and fitted with the others they pull the line away.")
    if n_trained == 6:  # the case whose trained rows are off a line
        return ("Right on exact lines, not on noisy rows: fit a + r * b to all trained rows by "
                "least squares (np.linalg.lstsq), not through two of them.")
    return ("Rows from n_trained on should continue the line a + r * b that fits the "
            "trained rows; check the values of r you use (the position of each row).")


def _line_through(P, n_rows):
    """Every row of the least-squares line a + r * b through rows 0 to n_rows - 1 of P."""
    X = np.stack([np.ones(n_rows), np.arange(n_rows)], axis=1)
    a, b = np.linalg.lstsq(X, P[:n_rows], rcond=None)[0]
    return a + np.arange(len(P))[:, None] * b


def check_learned_bag_tasks(answer):
    """Check which of the chapter's four tasks the model without positions can solve exactly.

    The tasks, on sequences of ``A``, ``B`` and filler tokens: (a) is ``A``
    before ``B``? (b) are there more ``A`` than ``B``? (c) is the first
    token an ``A``? (d) does the token ``h`` occur? The question is for which
    of them that model can reach 100% accuracy, at least in principle, on
    every sequence up to a given length.

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
    give_letters = "Give the letters of the tasks, for example \"ac\" or [\"a\", \"c\"]."
    if isinstance(answer, str):
        # str's own lower and strip: a subclass of str may override them to raise
        words = "".join(c if c.isalpha() else " " for c in str.lower(answer)).split()
        letters = [c for w in words if w not in ("and", "or", "task", "tasks") for c in w]
    else:
        try:  # at most a few more items than there are tasks: an endless iterator stops here
            items = list(itertools.islice(iter(answer), _MOST_ITEMS + 1))
            letters = [str.lower(str.strip(x)) if isinstance(x, str) else None for x in items]
        except Exception:  # not iterable, or an iterator that fails in its own way
            return _not_yet(give_letters)
        if len(items) > _MOST_ITEMS or None in letters:
            return _not_yet(give_letters)
    chosen = set(letters)
    if not chosen or not chosen <= {"a", "b", "c", "d"}:
        return _not_yet("Choose among the letters a, b, c and d.")
    if chosen == expected:
        return _correct("Exactly the tasks a model without positions can always get right.")
    if "a" in chosen:
        hint = ("Task (a) is the chapter's task: swapping A and B flips its label but not "
                "the bag of tokens.")
    elif "c" in chosen:
        hint = ("For task (c), move the first A to the end of the sequence: the bag of "
                "tokens stays the same; does the label?")
    else:
        hint = ("A model without positions can be right on every sequence only when the label "
                "does not change under any reordering of the tokens. Test each task with that question.")
    return _not_yet(hint)


def check_learned_causal_none(accuracy):
    """Check the measured accuracy of the model without positions but with a causal mask.

    The model is trained as in the chapter (``"none"``, seed 0, default
    settings) except ``causal=True``, and evaluated on the chapter's
    test set of swapped pairs of length 16.

    Parameters
    ----------
    accuracy : float
        The accuracy, a number between 0 and 1.

    Returns
    -------
    bool
        ``True`` if the accuracy is what this set-up measures (at least 0.99;
        the chapter's solution measures 1.000).

    Examples
    --------
    >>> check_learned_causal_none(0.5)
    Not yet. Check the set-up: did the model you trained and evaluated get causal=True?
    False
    """
    arr = _as_array(accuracy)
    if arr is None or arr.size != 1:
        return _not_yet("Give a single number between 0 and 1.")
    value = float(arr.reshape(()))
    if not 0 <= value <= 1:
        return _not_yet("An accuracy lies between 0 and 1 (use 0.95, not 95).")
    if value >= 0.99:
        return _correct("Your accuracy is in the range this set-up reaches here.")
    if abs(value - 0.5) < 0.05:
        hint = "Check the set-up: did the model you trained and evaluated get causal=True?"
    else:
        hint = ("Train a fresh init_model(\"none\", causal=True, seed=0, dtype=np.float32) with "
                "posenc.training.train(..., seed=0) and the chapter's settings (STEPS, CHECK_EVERY), "
                "and evaluate the trained model, not the untrained one, on the test set of swapped "
                "pairs of length 16.")
    return _not_yet(hint)
