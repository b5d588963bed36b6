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


# --- Chapter: the sinusoidal formula --------------------------------------


# --- Chapter: the worked example ------------------------------------------


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
        return _report(True, "One vector of 768 numbers for each of the 1024 positions.", "")
    if value == rows:
        hint = "That is the number of rows. Every row is a whole vector: how many numbers does it hold?"
    elif value == width:
        hint = "That is the size of one row. How many rows (positions) does the table have?"
    elif value in (512 * width, rows * 1600):
        hint = "That is another model's table: use 1024 positions and d_model = 768."
    else:
        hint = "The table has one row per position and one column per model dimension."
    return _report(False, "", hint)


def check_learned_untouched_rows(rows):
    """Check which rows of the trained position table never moved from their initial values.

    In the chapter the table has 64 rows and the model is trained on
    sequences of 4 to 16 tokens.

    Parameters
    ----------
    rows : array_like of int, or array_like of bool
        The indices of the untouched rows, in any order (a list, a range, an
        array), or a boolean mask with one entry per row of the table.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_learned_untouched_rows([])
    Not yet. Some rows were never used by any training sequence: compare the trained table with a fresh one, row by row.
    False
    """
    n_rows, trained = 64, 16
    expected = np.arange(trained, n_rows)
    arr = np.asarray(list(rows) if isinstance(rows, (range, set, frozenset)) else rows)
    if arr.dtype == bool:
        if arr.shape != (n_rows,):
            return _report(False, "", "A boolean mask needs one entry per row of the table (64).")
        arr = np.flatnonzero(arr)
    if arr.size and (arr.dtype.kind not in "iuf" or arr.ndim != 1 or np.any(arr != np.round(arr))):
        return _report(False, "", "Give the row numbers as a 1-D list or array of integers.")
    found = np.unique(arr.astype(int)) if arr.size else np.array([], dtype=int)
    if len(found) == len(arr) and np.array_equal(found, expected):
        return _report(
            True,
            "No training sequence was long enough to reach these rows, so their gradient "
            "was always zero and Adam never moved them.",
            "",
        )
    if len(found) != len(arr):
        hint = "Each row should appear once."
    elif found.size == 0:
        hint = ("Some rows were never used by any training sequence: compare the trained "
                "table with a fresh one, row by row.")
    elif np.array_equal(found, np.arange(trained + 1, n_rows)) or np.array_equal(
        found, np.arange(trained - 1, n_rows)
    ):
        hint = ("Off by one: positions are counted from 0, so a sequence of length n "
                "uses rows 0 to n - 1.")
    elif found.min() < trained:
        hint = "Some of these rows were used in training: sequences of 4 tokens already reach rows 0 to 3."
    else:
        hint = "Some untouched rows are missing: the table has 64 rows in all."
    return _report(False, "", hint)


def check_learned_bag_tasks(answer):
    """Check which of the chapter's four tasks the model without positions can learn.

    The tasks, on sequences of ``A``, ``B`` and filler tokens: (a) is ``A``
    before ``B``? (b) are there more ``A`` than ``B``? (c) is the first
    token an ``A``? (d) does the token ``h`` occur?

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
        return _report(
            True,
            "Those labels depend only on which tokens occur and how often, and a "
            "permutation-invariant model sees exactly that.",
            "",
        )
    if "a" in chosen:
        hint = ("Task (a) is the chapter's task: swapping A and B flips its label but not "
                "the bag of tokens.")
    elif "c" in chosen:
        hint = ("For task (c), move the first A to the end of the sequence: the bag of "
                "tokens is the same, is the label?")
    else:
        hint = ("A task is learnable without positions when its label does not change under "
                "any reordering of the tokens. Test each task with that question.")
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
    Not yet. That is chance level. Did the model you trained and evaluated get causal=True?
    False
    """
    arr = _as_array(accuracy)
    if arr is None or arr.size != 1:
        return _report(False, "", "Give a single number between 0 and 1.")
    value = float(arr.reshape(()))
    if not 0 <= value <= 1:
        return _report(False, "", "An accuracy lies between 0 and 1 (use 0.95, not 95).")
    if value >= 0.9:
        return _report(
            True,
            "The causal mask breaks the permutation symmetry: a token sees only the tokens "
            "before it, so the output depends on the order even without any position signal.",
            "",
        )
    if abs(value - 0.5) < 0.05:
        hint = "That is chance level. Did the model you trained and evaluated get causal=True?"
    else:
        hint = ("Train a fresh init_model(\"none\", causal=True, seed=0) with learned.train(..., seed=0) "
                "and evaluate the trained model on the mirrored test set of length 16.")
    return _report(False, "", hint)


# --- Chapter: relative and rotary positions --------------------------------
