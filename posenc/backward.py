r"""The tiny model's backward pass, written out by hand: the loss and its gradients.

The model is that of ``posenc.model``; this module differentiates its
mean cross-entropy with respect to every parameter, in the order the
forward pass ran, backwards (the formulas are in :func:`loss_and_grads`).
The tests check every entry of every gradient against central finite
differences, for every scheme.
"""

from __future__ import annotations

import numpy as np

from . import engine
from .model import _finite, _inputs, _labels
from .rotary import _turn
from .schemes import SCHEMES

__all__ = ["loss_and_grads"]


def loss_and_grads(model, tokens, labels):
    r"""Mean cross-entropy of a batch, and its gradient for every parameter.

    The backward pass, in the order it runs (``dX`` is the gradient of the
    loss with respect to ``X``; :math:`r` and :math:`\bar a` are defined in
    the module docstring):

    .. math::

        d\mathrm{logits} &= (\mathrm{softmax}(\mathrm{logits}) - Y)/\mathrm{batch}, &
        dW_\mathrm{out} &= \bar o^\top d\mathrm{logits}, \\
        d\bar o &= d\mathrm{logits}\, W_\mathrm{out}^\top, &
        dv_j &= \bar a_j\, d\bar o, \quad g_j = v_j \cdot d\bar o, \\
        dS_{ij} &= r_i A_{ij} \big(g_j - \textstyle\sum_l A_{il}\, g_l\big), &
        dq &= dS\, k / \sqrt{d_h},\quad dk = dS^\top q / \sqrt{d_h}, \\
        dW_q &= h^\top dq \ (\text{same for } k, v), &
        dh &= dq\,W_q^\top + dk\,W_k^\top + dv\,W_v^\top

    (:math:`dS` is the backward pass of the softmax,
    :math:`A \odot (dA - \mathrm{rowsum}(dA \odot A))`, with
    :math:`dA_{ij} = r_i g_j`), then ``dh`` is added into the rows of the
    token table that were looked up (and, for ``"learned"``, into the rows
    of the position table). With ``"rope"``, ``dq`` and ``dk`` are rotated
    back, by the opposite angles, before ``dW_q`` and ``dW_k``. A trained
    bias (``"t5"``) enters the scores as it is, so each of its entries
    gets the sum of :math:`dS_{ij}` over the scores that read it:
    :math:`dR_{h,b} = \sum_{i, j:\, \mathrm{bucket}(j - i) = b} dS_{h,ij}`,
    summed over the batch.

    Parameters
    ----------
    model : dict
    tokens : array_like of int, shape ``(batch, n)`` (or ``(M, batch, n)`` for a stack)
    labels : array_like of int, shape ``(batch,)`` (or ``(M, batch)`` for a stack)
        Class of each sequence, in ``[0, n_classes)``.

    Returns
    -------
    loss : float, or numpy.ndarray of shape ``(M,)`` for a stack
        The loss of each model of a stack is its own mean over its batch,
        so its gradient is the one it would get alone.
    grads : dict
        Same keys and shapes as ``model["params"]``.

    Examples
    --------
    >>> from posenc.model import init_model
    >>> from posenc.tasks import order_task
    >>> model = init_model("learned")
    >>> loss, grads = loss_and_grads(model, *order_task(4, 6))
    >>> grads["P"].shape
    (64, 16)
    >>> bool(np.all(grads["P"][6:] == 0))  # rows past the sequence get nothing
    True
    """
    params, tokens, labels = _loss_arguments(model, tokens, labels)
    with np.errstate(all="ignore"):  # an overflow is reported just below, by name
        loss, grads, logits = _loss_and_grads(model, params, tokens, labels)
    _finite(model, logits, *grads.values())
    if model.get("n_models") is None:
        return float(loss[0]), {name: g[0] for name, g in grads.items()}
    return loss, grads


def _loss_and_grads(model, p, tokens, labels):
    """Loss of each model of the stack, gradients (stacked), and the logits."""
    logits, cache = engine.forward(model, p, tokens)
    M, batch = logits.shape[:2]
    labels = np.broadcast_to(labels, (M, batch))
    q, k, v, A, a_bar, first, r = (cache[name] for name in
                                   ("q", "k", "v", "A", "a_bar", "first", "r"))
    _, vocab_size, d_model = p["E"].shape
    n, n_heads = v.shape[-2], model["n_heads"]
    d_h, scheme = d_model // n_heads, SCHEMES[model["scheme"]]

    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))  # stable log-softmax
    one_hot_labels = labels[..., None] == np.arange(logits.shape[-1])  # Y, (M, batch, n_classes)
    loss = -np.sum(log_probs * one_hot_labels, axis=(1, 2)) / batch  # one mean per model
    d_logits = (np.exp(log_probs) - one_hot_labels) / batch  # (softmax(logits) - Y) / batch

    grads = {"W_out": np.swapaxes(cache["pooled"], 1, 2) @ d_logits, "b_out": d_logits.sum(axis=1)}
    d_pooled = (d_logits @ np.swapaxes(p["W_out"], 1, 2)).reshape(*a_bar.shape[:3], d_h)
    d_v = a_bar[..., :, None] @ d_pooled[..., None, :]  # dv_j = a_bar_j d_pooled
    # dA_ij = r_i g_j with g_j = v_j . d_pooled; every row read has the same weight r_i
    # (1/n for "mean", 1 for the last row alone), so it goes into g: g -> r_i g
    g = v @ (r[0] * d_pooled)[..., None]  # (M, batch, H, n, 1)
    d_S = np.swapaxes(g, -1, -2) - A @ g  # g_j - sum_l A_il g_l
    d_S *= A  # the softmax backward: A * (dA - rowsum(dA * A))
    if scheme.bias_table:  # S = ... + R[h, index[i, j]]: each entry of R gets the dS of its scores
        index = scheme.bias_index(model, n)[first:].ravel()  # (rows * n,)
        reads = (index[:, None] == np.arange(p["R"].shape[-1])).astype(d_S.dtype)  # one-hot
        grads["R"] = d_S.sum(axis=1).reshape(M, n_heads, -1) @ reads  # (M, H, entries)
    d_q = d_S @ k  # S = q k^T / sqrt(d_h); rows first..n-1
    d_q /= np.sqrt(d_h, dtype=d_S.dtype)
    d_k = np.swapaxes(d_S, -1, -2) @ q

    # back into the table: add up the gradients of every look-up of (position i, token t),
    # one matrix product per position, one_hot^T @ (the gradients of that position,
    # sequence by sequence); q's of rows first..n-1 only, k's and v's of all rows
    one_hot = (np.broadcast_to(tokens, (M, batch, n)).transpose(0, 2, 1)[..., None, :] ==
               np.arange(vocab_size)[:, None]).astype(v.dtype)  # (M, n, V, batch)
    d_table = np.zeros((M, n, vocab_size, 3, d_model), dtype=v.dtype)  # q, k, v; heads side by side
    for part, (d, start) in enumerate([(d_q, first), (d_k, 0), (d_v, 0)]):
        d = engine.moved(d.transpose(0, 3, 1, 2, 4)).reshape(M, n - start, batch, d_model)
        d_table[:, start:, :, part] = one_hot[:, start:] @ d
    d_table = d_table.reshape(M, n, vocab_size, 3 * d_model)  # q of every head, then k, then v
    if scheme.turned:  # the transpose of a rotation turns by the opposite angle
        cos, sin = engine.turns(model, n, d_table.dtype)
        d_table[..., :2 * d_model] = _turn(d_table[..., :2 * d_model], cos[:, None], -sin[:, None])
    # table = E[t] W + p_i W: each (position, token) entry holds both parts
    d_EW, W = d_table.sum(axis=1), cache["W"]  # (M, V, 3 d)
    d_W = np.swapaxes(p["E"], 1, 2) @ d_EW
    if cache["position"] is not None:
        d_pW = d_table.sum(axis=2)  # (M, n, 3 d)
        d_W += np.swapaxes(cache["position"], 1, 2) @ d_pW
        if scheme.table:
            grads["P"] = np.zeros_like(p["P"])
            grads["P"][:, :n] = d_pW @ np.swapaxes(W, 1, 2)
    grads["W_q"], grads["W_k"], grads["W_v"] = np.split(d_W, 3, axis=-1)
    grads["E"] = d_EW @ np.swapaxes(W, 1, 2)
    return loss, {name: grads[name] for name in p}, logits


def _loss_arguments(model, tokens, labels):
    """The stacked parameters, tokens and labels of :func:`loss_and_grads`, checked."""
    params, tokens = _inputs(model, tokens)
    shape = ((model.get("n_models") or 1),) + tokens.shape[-2:-1]
    return params, tokens, _labels(labels, shape, model)
