r"""Plain scaled dot-product attention (Vaswani et al., 2017).

.. math::

    \mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{Q K^\top}{\sqrt{d_k}} + B\right) V

``Q`` has one row per query, ``K`` and ``V`` one row per key. ``B`` is an
optional additive bias (ALiBi, T5) and a boolean mask can forbid some
query/key pairs (a causal model may not look ahead).
"""

from __future__ import annotations

import numpy as np

from . import _checks

__all__ = ["softmax", "attention", "causal_mask"]


def softmax(x, axis=-1):
    r"""Softmax along ``axis``: :math:`e^{x_j} / \sum_l e^{x_l}`.

    The maximum is subtracted first, so large logits do not overflow.
    Entries equal to ``-inf`` get weight 0; every slice must have at least
    one finite entry.

    Parameters
    ----------
    x : array_like
    axis : int, default -1

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; non-negative, summing to 1 along ``axis``.

    Examples
    --------
    >>> softmax([0.0, np.log(3.0)])
    array([0.25, 0.75])
    """
    x = np.asarray(x, dtype=float)
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("x must not contain NaN or +inf")
    m = np.max(x, axis=axis, keepdims=True)
    if np.isneginf(m).any():
        raise ValueError("every slice of x along axis needs at least one finite entry")
    e = np.exp(x - m)
    return e / e.sum(axis=axis, keepdims=True)


def causal_mask(n):
    """Boolean ``(n, n)`` mask: query ``i`` may attend to key ``j`` iff ``j <= i``.

    ``True`` means "may attend", as in PyTorch's boolean ``attn_mask``.

    Examples
    --------
    >>> causal_mask(3)
    array([[ True, False, False],
           [ True,  True, False],
           [ True,  True,  True]])
    """
    n = _checks.positive_int("n", n)
    return np.tril(np.ones((n, n), dtype=bool))


def attention(q, k, v, *, mask=None, bias=None):
    r"""Scaled dot-product attention; returns the output and the weights.

    .. math::

        S = \frac{q k^\top}{\sqrt{d_k}} + \mathrm{bias}, \qquad
        W = \mathrm{softmax}(S \text{ with masked entries } = -\infty), \qquad
        \mathrm{output} = W v

    Parameters
    ----------
    q : array_like of shape (..., n_q, d_k)
        Queries, one row per position.
    k : array_like of shape (..., n_k, d_k)
        Keys.
    v : array_like of shape (..., n_k, d_v)
        Values.
    mask : array_like of bool, broadcastable to (..., n_q, n_k), optional
        ``True`` where query ``i`` may attend to key ``j``. Every query needs
        at least one allowed key.
    bias : array_like, broadcastable to (..., n_q, n_k), optional
        Added to the scaled scores before the softmax. ``-inf`` entries act
        like a mask.

    Returns
    -------
    output : numpy.ndarray of shape (..., n_q, d_v)
    weights : numpy.ndarray of shape (..., n_q, n_k)
        Row ``i`` holds how much query ``i`` takes from each key; rows sum to 1.

    Raises
    ------
    ValueError
        If the shapes do not fit together, the mask is not boolean or
        forbids every key for some query.

    Examples
    --------
    >>> q = k = v = np.eye(2)
    >>> out, w = attention(q, k, v)
    >>> w.round(3)
    array([[0.67, 0.33],
           [0.33, 0.67]])
    """
    q = _checks.array("q", q, min_ndim=2)
    k = _checks.array("k", k, min_ndim=2)
    v = _checks.array("v", v, min_ndim=2)
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"q and k must have the same last dimension d_k, got q {q.shape} and k {k.shape}"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            f"k and v must have the same number of rows (keys), got k {k.shape} and v {v.shape}"
        )
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if bias is not None:
        bias = np.asarray(bias, dtype=float)
        if np.isnan(bias).any() or np.isposinf(bias).any():
            raise ValueError("bias must not contain NaN or +inf (-inf is allowed: it masks)")
        scores = scores + _broadcast("bias", bias, scores.shape)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool:
            raise TypeError(f"mask must be a boolean array (True = may attend), got dtype {mask.dtype}")
        mask = _broadcast("mask", mask, scores.shape)
        if not mask.any(axis=-1).all():
            raise ValueError("mask forbids every key for at least one query")
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ v, weights


def _broadcast(name, x, shape):
    try:
        return np.broadcast_to(x, shape)
    except ValueError:
        raise ValueError(
            f"{name} has shape {x.shape}, which does not fit the scores of shape {shape} "
            "(n_q, n_k last)"
        ) from None
