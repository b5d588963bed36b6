r"""Plain scaled dot-product attention (Vaswani et al., 2017).

.. math::

    \mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{Q K^\top}{\sqrt{d_k}} + B\right) V

``Q`` has one row per query, ``K`` and ``V`` one row per key. ``B`` is an
optional additive bias (ALiBi, T5) and a boolean mask can forbid some
query/key pairs (a causal model may not look ahead).
"""

from __future__ import annotations

import math

import numpy as np

from . import _checks

__all__ = ["softmax", "attention", "causal_mask"]


def softmax(x, axis=-1):
    r"""Softmax along ``axis``: :math:`\mathrm{softmax}(x)_j = e^{x_j} / \sum_l e^{x_l}`.

    The maximum is subtracted first, so large logits do not overflow.
    Entries equal to ``-inf`` get weight 0 (this is how a mask works); every
    slice must have at least one finite entry. A logit so far below the
    maximum that the difference overflows to ``-inf`` gets weight 0 too,
    which is its weight to within float64 precision.

    Parameters
    ----------
    x : array_like of numbers
        The logits; at least one entry. ``-inf`` is allowed, NaN and ``+inf``
        are not, and neither are strings, booleans or ``None``.
    axis : int, default -1
        The axis along which the result sums to 1.

    Returns
    -------
    numpy.ndarray of float64
        Same shape as ``x``; non-negative, summing to 1 along ``axis``. The
        book's examples are small, and every input is computed in float64,
        float32 included (the tiny model of ``posenc.model`` keeps float32
        with a softmax of its own).

    Examples
    --------
    >>> softmax([0.0, np.log(3.0)])
    array([0.25, 0.75])
    >>> softmax([[1.0, 1.0], [0.0, -np.inf]])
    array([[0.5, 0.5],
           [1. , 0. ]])
    """
    x, axis = _validate_softmax(x, axis)
    m = np.max(x, axis=axis, keepdims=True)
    with np.errstate(over="ignore"):  # x - m <= 0 can only overflow to -inf: weight 0
        e = np.exp(x - m)
    return e / e.sum(axis=axis, keepdims=True)


def _validate_softmax(x, axis):
    """The checks of :func:`softmax`: logits, an axis, a finite entry in every slice."""
    x = _checks.logits("x", x)
    if x.ndim == 0 or x.size == 0:
        raise ValueError(f"x must have at least one axis and one entry, got shape {x.shape}")
    axis = _checks.integer("axis", axis)
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis must be in [{-x.ndim}, {x.ndim - 1}] for x of shape {x.shape}, got {axis}")
    if np.isneginf(x).all(axis=axis).any():
        raise ValueError("every slice of x along axis needs at least one finite entry")
    return x, axis


def causal_mask(n):
    """Boolean ``(n, n)`` mask: query ``i`` may attend to key ``j`` iff ``j <= i``.

    ``True`` means "may attend", as in PyTorch's boolean ``attn_mask``. With
    this mask, position ``i`` sees itself and the ``i`` positions before it,
    never the future: the rule of a decoder that writes left to right.

    Parameters
    ----------
    n : int
        Sequence length, at least 1.

    Returns
    -------
    numpy.ndarray of bool, shape ``(n, n)``
        Lower-triangular, diagonal included.

    Examples
    --------
    >>> causal_mask(3)
    array([[ True, False, False],
           [ True,  True, False],
           [ True,  True,  True]])
    """
    n = _validate_causal_mask(n)
    return np.tril(np.ones((n, n), dtype=bool))


def _validate_causal_mask(n):
    """The checks of :func:`causal_mask`: ``n >= 1``, and the cap."""
    n = _checks.positive_int("n", n)
    _checks.entries(f"n ** 2 = {_checks.show(n)} ** 2", 2 * n**2)  # the ones, and the mask
    return n


def attention(q, k, v, *, mask=None, bias=None):
    r"""Scaled dot-product attention; returns the output and the weights.

    .. math::

        S &= \frac{q k^\top}{\sqrt{d_k}} + \mathrm{bias}, \\
        W &= \mathrm{softmax}(S \text{ with masked entries } = -\infty), \\
        \mathrm{output} &= W v

    The softmax runs over the keys (the last axis of ``S``), so row ``i`` of
    ``W`` says how query ``i`` shares its attention among the keys.

    Parameters
    ----------
    q : array_like of shape (..., n_q, d_k)
        Queries, one row per position.
    k : array_like of shape (..., n_k, d_k)
        Keys.
    v : array_like of shape (..., n_k, d_v)
        Values.
    mask : array_like of bool, optional
        ``True`` where query ``i`` may attend to key ``j``; its last two axes
        must broadcast to ``(n_q, n_k)``. Every query needs at least one
        allowed key.
    bias : array_like, optional
        Added to the scaled scores before the softmax (ALiBi, T5); its last
        two axes must broadcast to ``(n_q, n_k)``. ``-inf`` entries act like
        a mask.

    Leading (batch) axes of ``q``, ``k``, ``v``, ``mask`` and ``bias``
    broadcast as in numpy: a bias of shape ``(n_heads, n_q, n_k)`` with 2-D
    ``q``, ``k``, ``v`` gives one output per head.

    Returns
    -------
    output : numpy.ndarray of shape (..., n_q, d_v), float64
        Computed in float64 whatever the inputs' dtype, as :func:`softmax`.
    weights : numpy.ndarray of shape (..., n_q, n_k)
        Row ``i`` holds how much query ``i`` takes from each key; rows sum to 1.

    Examples
    --------
    >>> q = k = v = np.eye(2)
    >>> out, w = attention(q, k, v)
    >>> w.round(3)
    array([[0.67, 0.33],
           [0.33, 0.67]])
    >>> out, w = attention(q, k, v, mask=causal_mask(2))
    >>> w.round(3)
    array([[1.  , 0.  ],
           [0.33, 0.67]])
    """
    q, k, v, mask, bias = _validate_attention(q, k, v, mask, bias)
    scores = _scores(q, k, bias)  # q k^T / sqrt(d_k) + bias, refused by name if it overflows
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ v, weights


def _validate_attention(q, k, v, mask, bias):
    """The checks of :func:`attention`: shapes that fit, a boolean mask, a key for every query, the cap."""
    q, k, v = (_matrices(name, x) for name, x in (("q", q), ("k", k), ("v", v)))
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"q and k must have the same last dimension d_k, got q {q.shape} and k {k.shape}"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            f"k and v must have the same number of rows (keys), got k {k.shape} and v {v.shape}"
        )
    try:
        batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise ValueError(
            "the leading (batch) axes of q, k and v must broadcast together, "
            f"got q {q.shape}, k {k.shape} and v {v.shape}"
        ) from None
    shape = (*batch, q.shape[-2], k.shape[-2])  # of the scores
    if bias is not None:
        bias = _fit("bias", _checks.logits("bias", bias), shape)
        shape = bias.shape  # one bias per head gives one output per head
    if mask is not None:
        mask = _fit("mask", _boolean_mask(mask), shape)
    n_scores = math.prod(shape)
    # the scores, scaled, biased, masked and their softmax; and the output
    _checks.entries(f"the scores, batch * n_q * n_k = {math.prod(shape[:-2])} * {shape[-2]} * "
                    f"{shape[-1]}", 5 * n_scores + n_scores // shape[-1] * v.shape[-1])
    if mask is not None and not mask.any(axis=-1).all():
        raise ValueError("mask forbids every key for at least one query")
    if bias is not None:
        blocked = np.isneginf(bias) if mask is None else np.isneginf(bias) | ~mask
        blocked = blocked.all(axis=-1)  # the scores are finite: only bias (and mask) give -inf
        if blocked.any():
            query = np.argwhere(blocked)[0][-1]
            who = "bias gives" if mask is None else "bias and mask together give"
            raise ValueError(
                f"{who} every key -inf for query {query}: every query needs at least one key "
                "with a finite score"
            )
    return q, k, v, mask, bias


def _scores(q, k, bias):
    """The scores ``q k^T / sqrt(d_k) + bias``, refused by name where they overflow float64."""
    with np.errstate(over="ignore", invalid="ignore"):  # checked just below
        scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if not np.isfinite(scores).all():
        raise ValueError(
            "the scores q k^T / sqrt(d_k) overflow float64 (q holds entries up to "
            f"{np.abs(q).max():.3g} in size, k up to {np.abs(k).max():.3g}); scale q and k down"
        )
    if bias is None:
        return scores
    with np.errstate(over="ignore"):  # checked just below
        scores = scores + bias
    if np.any(np.isinf(scores) & np.isfinite(bias)):
        raise ValueError(
            "the scores plus bias overflow float64 (bias holds finite entries up to "
            f"{np.abs(bias[np.isfinite(bias)]).max():.3g} in size); use -inf in bias "
            "to forbid a key, and finite entries well inside float64 otherwise"
        )
    return scores


def _boolean_mask(mask):
    """``mask`` as a numpy array of booleans (True = may attend)."""
    mask = _checks.asarray("mask", mask, "booleans")
    if mask.dtype != bool:
        raise TypeError(f"mask must be a boolean array (True = may attend), got dtype {mask.dtype}")
    return mask


def _matrices(name, x):
    """``x`` as a float array with at least 2 axes, none of them empty."""
    x = _checks.array(name, x, min_ndim=2)
    if x.size == 0:
        raise ValueError(f"{name} must not have an empty axis, got shape {x.shape}")
    return x


def _fit(name, x, shape):
    """Broadcast ``x`` against scores of ``shape``; the last two axes must fit (n_q, n_k)."""
    try:
        full = np.broadcast_shapes(x.shape, shape)
    except ValueError:
        full = None
    if full is None or full[-2:] != shape[-2:]:
        raise ValueError(
            f"{name} has shape {x.shape}, which does not fit the scores of shape {shape} "
            "(its last two axes must broadcast to (n_q, n_k))"
        )
    return np.broadcast_to(x, full)


def _softmax_scores(S):
    """Softmax over the last axis of a stack of score matrices ``(..., rows, keys)``, fast.

    The same function as :func:`softmax`, for the tiny model of
    :mod:`posenc.model`, which calls it millions of times on small matrices
    whose checks it has already made. A softmax does not change when a
    constant is subtracted from a row, and subtracting the largest score of
    the whole matrix keeps :math:`e^x` from overflowing as well as one per
    row, and faster. A row whose exponentials then underflow
    (every score of that row far below the matrix's largest) is shifted by
    its own maximum instead; the other rows are left as they are, so a row's
    weights never depend on another sequence of the batch.
    """
    A = S - S.max(axis=(-2, -1), keepdims=True)
    np.exp(A, out=A)  # in place: a new array of this size costs more than the exponentials
    sums = A @ np.ones((A.shape[-1], 1), dtype=A.dtype)  # row sums, (..., rows, 1)
    low = ~(sums[..., 0] > _SAFE_SUM[A.dtype.char])  # rows that lost precision to underflow
    if low.any():
        rows = S[low]  # (k, keys)
        A[low] = np.exp(rows - _row_max(rows))
        sums[low] = A[low].sum(axis=-1, keepdims=True)
    A /= sums
    return A


def _row_max(S):
    """``S.max(axis=-1, keepdims=True)``, the largest entry of every row.

    numpy reduces a short last axis row by row, slowly: for rows of 16
    keys or fewer, the element-wise maximum of the columns, one column at a
    time, gives the same numbers faster.
    """
    if S.shape[-1] > 16:
        return S.max(axis=-1, keepdims=True)
    largest = S[..., :1].copy()
    for j in range(1, S.shape[-1]):
        np.maximum(largest, S[..., j:j + 1], out=largest)
    return largest


# a row whose sum of exponentials is below this has lost precision to underflow
_SAFE_SUM = {t: np.finfo(t).tiny / np.finfo(t).eps for t in np.typecodes["Float"]}
