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
        "Entry [i, j] is clip(j - i, -k, k) + k; offsets beyond k share the outermost rows.",
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
        f"These {len(expected)} offsets cannot be told apart by T5's position bias.",
        "Compare t5_bucket(r) with t5_bucket(-20) for every r in range(-200, 201) and keep the equal ones.",
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
        "RoPE at position m is block-diagonal: 2 x 2 rotations by m * theta_i.",
        "Block i rotates by the angle 3 * 10000 ** (-2 i / 6); check the frequency of each block.",
    )


def check_rel_layout_permutation(answer):
    """Check the row order that moves a 'halves' RoPE checkpoint to 'interleaved' code.

    The exercise: a head of width ``d = 8`` was trained with
    ``layout="halves"``. Reordering the rows of its query and key
    projections as ``W[perm]`` must make ``layout="interleaved"`` give the
    same attention scores for every input.

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
        return _report(False, "", "That is the permutation for the opposite direction "
                       "(interleaved checkpoint to halves code); invert it.")
    rng = np.random.default_rng(0)
    w_q, w_k = rng.normal(size=(2, 8, 5))
    h = rng.normal(size=(9, 5))
    trained = rope(h @ w_q.T, layout="halves") @ rope(h @ w_k.T, layout="halves").T
    moved = rope(h @ w_q[arr].T) @ rope(h @ w_k[arr].T).T
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
        "Each head halves its weights twice as slowly as the one before it.",
        "Solve exp(-m D) = 1/2 for D, with m from the ALiBi slopes of 8 heads.",
    )
