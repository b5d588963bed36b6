"""Checkers of chapter 5, *Relative and rotary positions*.
"""

from __future__ import annotations

import numpy as np

from ..relative import alibi_slopes, relative_positions, t5_bucket
from ..rotary import rope
from ._common import _as_array, _close, _integer_array, _not_yet, _report

__all__ = [
    "check_rel_shaw_index",
    "check_rel_t5_bucket_mates",
    "check_rel_rope_matrix",
    "check_rel_layout_permutation",
    "check_rel_alibi_half_life",
]


def check_rel_shaw_index(answer):
    """Check the row indices into Shaw et al.'s table of relative vectors.

    The exercise: 4 queries, 6 keys, clipping distance ``k = 2``; the table
    holds the ``2k + 1 = 5`` vectors :math:`w_{-2}, \\dots, w_{2}` in rows
    0 to 4.

    Parameters
    ----------
    answer : array_like of int, shape (4, 6)
        Entry ``[i, j]`` is the row used by query ``i`` and key ``j``.

    Returns
    -------
    bool
        ``True`` if every index is right.
    """
    expected = relative_positions(4, 6, max_distance=2) + 2
    arr = _integer_array(answer)
    if arr is None:
        return _not_yet("Give whole-number row indices, for example as an int array.")
    if arr.shape != expected.shape:
        return _not_yet(f"Expected shape (4, 6), one row index per (query, key) pair; got {arr.shape}.")
    if arr.min() < 0 or arr.max() > 4:
        return _not_yet("Row indices of a 5-row table run from 0 to 4: shift the clipped offset by k.")
    if not np.all(np.diag(arr) == 2):
        return _not_yet("A query looking at its own position (offset 0) uses the middle row of the table.")
    if np.array_equal(arr, 4 - expected):
        return _not_yet("Check the sign: the offset is key position minus query position, j - i.")
    return _report(
        np.array_equal(arr, expected),
        "Pairs with the same clipped offset share one table row.",
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
    answer : array_like of int, 1-D, or a set of int

    Returns
    -------
    bool
    """

    rel = np.arange(-200, 201)
    expected = rel[t5_bucket(rel) == t5_bucket(-20)]
    if isinstance(answer, (set, frozenset)):  # "in any order": a set is a fine answer
        answer = list(answer)
    arr = _integer_array(answer)
    if arr is None or arr.ndim != 1:
        return _not_yet("Give a 1-D list or array of whole-number relative positions.")
    if len(np.unique(arr)) != len(arr):
        return _not_yet("Each relative position should appear once.")
    if np.any(arr > 0):
        return _not_yet("Keys after the query (positive offsets) use the other half of the buckets.")
    if -20 not in arr:
        return _not_yet("The list should contain -20 itself.")
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
        The matrix ``R``.

    Returns
    -------
    bool
    """
    expected = rope(np.eye(6), np.full(6, 3.0)).T
    arr = _as_array(answer)
    if arr is None or arr.shape != (6, 6):
        shape = None if arr is None else arr.shape
        return _not_yet(f"Expected a 6 x 6 array of numbers, got shape {shape}.")
    if _close(arr, expected.T):
        return _not_yet("This is the transpose: the rotation turns (1, 0) towards (0, 1), "
                        "so the lower entry of each 2 x 2 block is +sin.")
    if _close(arr, rope(np.eye(6), np.full(6, 3.0), layout="halves").T):
        return _not_yet("That is the 'halves' layout; here pairs are dimensions (0, 1), (2, 3), (4, 5).")
    if not _close(arr, expected) and _close(arr, expected, atol=6e-4, rtol=0):  # a rounded printout
        return _not_yet("Nearly: your entries look rounded. Keep full precision "
                        "(build the matrix from the formula, don't copy printed digits).")
    with np.errstate(all="ignore"):  # entries near 1e308 overflow: not a rotation, not an error
        gram = arr @ arr.T
    if not np.allclose(gram, np.eye(6), atol=1e-6):
        return _not_yet("A rotation matrix is orthogonal (R @ R.T is the identity); yours is not.")
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
    arr = _integer_array(answer)
    if arr is None or arr.shape != (8,) or not np.array_equal(np.sort(arr), np.arange(8)):
        return _not_yet("Give an array holding each of the numbers 0 to 7 exactly once.")
    if np.array_equal(arr, np.r_[0:8:2, 1:8:2]):
        return _not_yet("That reorders the other way round (an interleaved checkpoint for halves "
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

    slopes = alibi_slopes(8)
    expected = np.log(2.0) / slopes
    arr = _as_array(answer)
    if arr is None or arr.shape != (8,):
        shape = None if arr is None else arr.shape
        return _not_yet(f"Expected 8 numbers, one per head; got shape {shape}.")
    if _close(arr, expected[::-1], rtol=1e-3):
        return _not_yet("Head 0 has the steepest slope, so it should have the shortest half-life.")
    if _close(arr, 1 / slopes, rtol=1e-3):
        return _not_yet("Solve exp(-m D) = 1/2 for D: a logarithm is missing.")
    return _report(
        _close(arr, expected, rtol=1e-3),
        "All 8 half-lives are right, head 0 first.",
        "Solve exp(-m D) = 1/2 for D, with m from the ALiBi slopes of 8 heads.",
    )
