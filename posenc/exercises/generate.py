"""Checkers of chapter 10, *Positions when a model generates*.
"""

from __future__ import annotations

import numpy as np

from ..rotary import rope
from ._common import _correct, _not_yet, _one_number, _raised_hint, _whole_numbers

__all__ = [
    "check_generate_padding_ids",
    "check_generate_sink_positions",
    "check_generate_window_oldest",
    "check_generate_shift",
    "check_generate_packed_mask",
]

_BATCH_MASK = np.array([[0, 0, 0, 1, 1, 1],
                        [0, 1, 1, 1, 1, 1],
                        [1, 1, 1, 1, 1, 1]])


def check_generate_padding_ids(answer):
    """Check the position ids of the exercise's left-padded batch.

    Parameters
    ----------
    answer : array_like of int, shape (3, 6)
        ``cumsum(mask) - 1`` where the mask is 1, and 0 on the padding, as
        Transformers 5.24.0's generation computes them.

    Returns
    -------
    bool
    """
    ids = _whole_numbers(answer)
    if ids is None:
        return _not_yet("Give the ids as a 3 x 6 array (or nested list) of whole numbers.")
    if ids.shape != _BATCH_MASK.shape:
        return _not_yet(f"The batch has 3 rows of 6 entries: give a 3 x 6 array, not shape {ids.shape}.")
    count = np.cumsum(_BATCH_MASK, axis=1)
    token = _BATCH_MASK == 1
    expected = np.where(token, count - 1, 0)
    if np.array_equal(ids, expected):
        return _correct("Every prompt's first token is at position 0, whatever its padding.")
    if np.array_equal(ids, np.broadcast_to(np.arange(6), ids.shape)):
        return _not_yet("Those are the naive ids, counted from the first column of every row. "
                        "Count from the first token of each row instead: use the mask.")
    if np.array_equal(ids[token], expected[token]):
        if np.array_equal(ids, count - 1):
            return _not_yet("The tokens are right. On the padding, cumsum - 1 gives -1; "
                            "Transformers 5.24.0 sets those entries to 0.")
        if np.all(ids[~token] == 1):
            return _not_yet("The tokens are right, and padding at 1 is what GPT-2's code did in "
                            "Transformers 4. Transformers 5.24.0 sets the padding to 0.")
        return _not_yet("The tokens are right. What does Transformers 5.24.0 put on the padding?")
    if np.array_equal(ids[token], count[token]):
        return _not_yet("Positions are counted from 0: the first token of each row is at 0, not 1.")
    return _not_yet("For each token, count the tokens of its row up to and including it, "
                    "then subtract 1.")


def check_generate_sink_positions(answer):
    """Check the text positions a StreamingLLM cache of 10 entries, 4 of them sinks, holds after 1000 tokens.

    Parameters
    ----------
    answer : array_like of int, 1-D, any order

    Returns
    -------
    bool
    """
    values = _whole_numbers(answer)
    if values is None or values.ndim != 1:
        return _not_yet("Give the positions as a flat list (or 1-D array) of whole numbers.")
    got = sorted(values.tolist())
    expected = [0, 1, 2, 3, *range(994, 1000)]
    if got == expected:
        return _correct("Four sinks and the six most recent tokens: ten entries.")
    if len(set(got)) != len(got):
        return _not_yet("Each position is held once: your list repeats one.")
    if len(got) != 10:
        return _not_yet(f"The cache holds 10 entries in all, sinks included; you gave {len(got)}.")
    if got == [0, 1, 2, 3, *range(995, 1001)] or got == [0, 1, 2, 3, *range(993, 999)]:
        return _not_yet("Off by one: the tokens read are 0 to 999, and the last one read is kept.")
    if got == list(range(990, 1000)):
        return _not_yet("That is a plain window of 10. A sink cache keeps its first tokens too.")
    if got[:4] != [0, 1, 2, 3]:
        return _not_yet("The sinks are the first tokens of the text, and they are never evicted.")
    return _not_yet("The cache keeps the 4 sinks, and fills its other entries with the most "
                    "recent tokens.")


def check_generate_window_oldest(answer):
    """Check the oldest position the query of token 10,000 sees in a window of 4096 (Mistral 7B).

    Parameters
    ----------
    answer : int
        The position, 10,000 - 4,096 + 1.

    Returns
    -------
    bool
    """
    value = _one_number(answer)
    if value is None:
        return _not_yet("Give one whole number, a position.")
    t, window = 10_000, 4096
    expected = t - window + 1
    if value == expected:
        return _correct("W keys, the query's own included: the largest offset is W - 1.")
    if value == t - window:
        return _not_yet("Off by one: the window's W keys include the query's own token.")
    if value == window - 1:
        return _not_yet("That is the largest offset. The question asks for the position of the "
                        "oldest key.")
    if value == t:
        return _not_yet("That is the query's own position, the newest key it sees.")
    return _not_yet("Query t sees the keys j with t - W < j <= t.")


def check_generate_shift(answer):
    """Check a function ``score_from_offset(q, k, offset)`` that gives a RoPE score from the offset alone.

    Parameters
    ----------
    answer : callable
        ``score_from_offset(q, k, offset) -> float``: the score of ``q`` at
        any position ``m`` and ``k`` at ``m + offset``, interleaved layout,
        base 10000.

    Returns
    -------
    bool

    Notes
    -----
    It is called on random vectors of widths 2, 8 and 12 at offsets from
    -7 to 50, and compared to a relative 1e-5 (float32's rounding passes);
    a function that fails on one is told which call failed.
    """
    if not callable(answer):
        return _not_yet("Give the function itself, score_from_offset, not a number or its result.")
    rng = np.random.default_rng(17)
    for width, offset in [(8, 3), (8, 0), (2, 5), (12, -7), (8, 50)]:
        q, k = rng.normal(size=(2, width))
        m = int(rng.integers(0, 1000))
        expected = float(rope(q[None], [m])[0] @ rope(k[None], [m + offset])[0])
        call = f"score_from_offset(q, k, {offset}) with vectors of width {width}"
        try:
            with np.errstate(all="ignore"):
                got = answer(q.copy(), k.copy(), offset)
        except (Exception, SystemExit) as error:  # the learner's code may fail in any way
            return _not_yet(_raised_hint(call, error))
        value = _one_number(got)
        if value is None:
            return _not_yet(f"{call} should return one number, the score.")
        if not np.isclose(value, expected, rtol=1e-5, atol=1e-6):  # float32 is right too
            swapped = float(rope(q[None], [offset])[0] @ k)
            if np.isclose(value, swapped, rtol=1e-5, atol=1e-6) and offset:
                return _not_yet(f"{call} turns the query by the offset. The key sits at m + offset: "
                                "which vector should turn, and which way?")
            if np.isclose(value, float(q @ k), rtol=1e-5, atol=1e-6) and offset:
                return _not_yet(f"{call} returns the plain dot product q . k: the offset must turn "
                                "one of the vectors.")
            return _not_yet(f"{call} is not the RoPE score. R(m)^T R(m + offset) is one rotation: "
                            "by which angle?")
    return _correct("The score needs only the offset: the position m cancels.")


def check_generate_packed_mask(answer):
    """Check the block-diagonal causal mask of documents of 2, 3 and 1 tokens packed into one row.

    Parameters
    ----------
    answer : array_like of bool (or 0/1), shape (6, 6)

    Returns
    -------
    bool
    """
    try:
        arr = np.asarray(answer)
        numeric = arr.dtype.kind in "biuf" and arr.shape == (6, 6)
        if numeric:
            with np.errstate(invalid="ignore"):
                numeric = bool(np.isin(arr, (0, 1)).all())
    except Exception:  # noqa: BLE001 - a ragged list, or an __array__ that raises
        numeric = False
    if not numeric:
        return _not_yet("Give a 6 x 6 array of True/False (or 0/1): rows are queries, columns keys.")
    mask = arr.astype(bool)
    document = np.repeat([0, 1, 2], [2, 3, 1])
    same = document[:, None] == document[None, :]
    causal = np.tril(np.ones((6, 6), dtype=bool))
    if np.array_equal(mask, same & causal):
        return _correct("Each document's queries see its own keys, up to themselves.")
    if np.array_equal(mask, same):
        return _not_yet("Inside each document the mask must still be causal: a token may not "
                        "see the tokens after it.")
    if np.array_equal(mask, causal):
        return _not_yet("That is the plain causal mask: the later documents see the earlier ones.")
    if np.array_equal(mask, (same & causal).T):
        return _not_yet("Transposed: rows are the queries, columns the keys, and a query sees "
                        "keys at or before itself.")
    return _not_yet("Query i may see key j when both are in the same document and j <= i.")
