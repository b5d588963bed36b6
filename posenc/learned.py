r"""Learned position tables, and a tiny attention model trained in NumPy.

A learned absolute position table is a matrix :math:`P` with one trainable
row per position, as in BERT (512 rows) and GPT-2 (1024 rows). The forward
pass looks rows up, the backward pass adds each row's gradients back into
the table (a scatter-add): :func:`lookup` and :func:`lookup_backward`. Token
embeddings are a table too, looked up by token id instead of by position.

The model of the chapter is one attention layer between an embedding and a
linear readout, small enough to follow line by line:

.. math::

    h_i &= E[x_i] + p_i                      && \text{token + position signal} \\
    q_i, k_i, v_i &= h_i W_q,\; h_i W_k,\; h_i W_v  && \text{split into heads} \\
    A &= \mathrm{softmax}\!\left(q k^\top / \sqrt{d_h} + B\right)
                                              && \text{one matrix per head} \\
    o_i &= \textstyle\sum_j A_{ij} v_j        && \text{heads concatenated} \\
    \bar o &= \tfrac{1}{n} \textstyle\sum_i o_i  && \text{mean over positions} \\
    \mathrm{logits} &= \bar o\, W_\mathrm{out} + b_\mathrm{out}

With ``readout="last"``, :math:`\bar o` is replaced by :math:`o_n`, the
output of the last position, where a causal language model makes its
prediction.

The position ``scheme`` decides where position enters:

* ``"none"``: :math:`p_i = 0` and :math:`B = 0`;
* ``"sinusoidal"``: :math:`p_i` is row ``i`` of :func:`posenc.sinusoidal`;
* ``"learned"``: :math:`p_i = P[i]`, a trainable table of ``max_len`` rows;
* ``"rope"``: :math:`p_i = 0`; each head's ``q`` and ``k`` are rotated by
  :func:`posenc.rope`;
* ``"alibi"``: :math:`p_i = 0`; :math:`B` is :func:`posenc.alibi_bias`
  (fixed slopes, one per head).

Every function works on a whole batch at once; the backward pass is written
out by hand (:func:`loss_and_grads`) and checked against finite differences
in the tests.
"""

from __future__ import annotations

import numpy as np

from . import _checks
from .attention import causal_mask
from .relative import alibi_bias
from .rotary import rope
from .sinusoidal import sinusoidal

__all__ = [
    "SCHEMES",
    "READOUTS",
    "ORDER_VOCAB",
    "init_table",
    "lookup",
    "lookup_backward",
    "order_task",
    "lookback_task",
    "init_model",
    "forward",
    "attention_weights",
    "accuracy",
    "loss_and_grads",
    "adam_step",
    "train",
]

SCHEMES = ("none", "sinusoidal", "learned", "rope", "alibi")

READOUTS = ("mean", "last")

_CHUNK = 50  # forward() runs larger batches in pieces of this many sequences

ORDER_VOCAB = ("A", "B", "c", "d", "e", "f", "g", "h")
"""Tokens of :func:`order_task`: two markers, then six filler words."""


# --- a learned table: forward = lookup, backward = scatter-add ------------


def init_table(n_rows, d_model, *, std=0.02, seed=0):
    r"""A table of ``n_rows`` trainable vectors, drawn from :math:`\mathcal{N}(0, \mathrm{std}^2)`.

    BERT draws its position table with ``std = 0.02`` (from a normal
    distribution truncated at two standard deviations); GPT-2 with
    ``std = 0.01``, and its token table with 0.02.

    Parameters
    ----------
    n_rows : int
        Number of rows: positions for a position table, tokens for an
        embedding table.
    d_model : int
        Width of each row.
    std : float, default 0.02
        Standard deviation of the initial entries (positive).
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    numpy.ndarray of shape ``(n_rows, d_model)``

    Examples
    --------
    >>> P = init_table(1024, 768, std=0.01)  # the table of the smallest GPT-2
    >>> P.shape, P.size
    ((1024, 768), 786432)
    >>> float(P.std().round(3))
    0.01
    """
    n_rows = _checks.positive_int("n_rows", n_rows)
    d_model = _checks.positive_int("d_model", d_model)
    std = _checks.real("std", std, positive=True)
    return _rng(seed).normal(0.0, std, size=(n_rows, d_model))


def lookup(table, indices):
    """Rows of ``table`` at ``indices``: the forward pass of an embedding.

    Parameters
    ----------
    table : array_like of shape (n_rows, d_model)
    indices : array_like of int, any shape
        Row numbers in ``[0, n_rows)``: positions or token ids. An empty
        list looks up nothing (as ``t5_bucket([])`` buckets nothing).

    Returns
    -------
    numpy.ndarray of shape ``indices.shape + (d_model,)``

    Raises
    ------
    TypeError
        If ``indices`` are not integers.
    ValueError
        If an index is negative or past the last row. A learned position
        table has no row for a position it was not built for.

    Examples
    --------
    >>> P = np.arange(6.0).reshape(3, 2)
    >>> lookup(P, [2, 0])
    array([[4., 5.],
           [0., 1.]])
    """
    table = _checks.array("table", table, ndim=2)
    indices = _indices("indices", indices, len(table))
    return table[indices]


def lookup_backward(grad, indices, n_rows):
    r"""Gradient of a loss with respect to the table, given its gradient at the looked-up rows.

    Row ``r`` of the result is the sum of ``grad`` over every place where
    ``indices == r``; rows that were never looked up get exactly zero:

    .. math:: \frac{\partial L}{\partial P_r} = \sum_{t:\ \mathrm{indices}_t = r}
              \frac{\partial L}{\partial\, \mathrm{out}_t}

    Parameters
    ----------
    grad : array_like of shape ``indices.shape + (d_model,)``
        Gradient of the loss with respect to the output of :func:`lookup`.
    indices : array_like of int
        The indices given to :func:`lookup`.
    n_rows : int
        Number of rows of the table.

    Returns
    -------
    numpy.ndarray of shape ``(n_rows, d_model)``

    Examples
    --------
    >>> lookup_backward(np.ones((3, 2)), [0, 2, 0], n_rows=4)
    array([[2., 2.],
           [0., 0.],
           [1., 1.],
           [0., 0.]])
    """
    n_rows = _checks.positive_int("n_rows", n_rows)
    indices = _indices("indices", indices, n_rows)
    grad = _checks.array("grad", grad)
    if grad.ndim == 0 or grad.shape[:-1] != indices.shape:
        raise ValueError(
            f"grad must have shape indices.shape + (d_model,) = {indices.shape} + (d,), "
            f"got {grad.shape}"
        )
    d_table = np.zeros((n_rows, grad.shape[-1]))
    np.add.at(d_table, indices, grad)  # unbuffered: repeated indices add up
    return d_table


# --- the task -----------------------------------------------------------


def order_task(n_examples, length, *, seed=0):
    """Sequences holding one ``A`` and one ``B`` among fillers; the label says which came first.

    Every sequence has ``A`` (token 0) and ``B`` (token 1) at two distinct
    random positions; the other positions hold filler tokens 2 to 7 drawn
    uniformly (see ``posenc.learned.ORDER_VOCAB``). The label is 0 if ``A`` comes
    first and 1 if ``B`` does. Both labels have the same bag of tokens, so
    only the order can tell them apart.

    Parameters
    ----------
    n_examples : int
        Number of sequences (the batch size).
    length : int
        Tokens per sequence, at least 2.
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(n_examples, length)``
    labels : numpy.ndarray of int, shape ``(n_examples,)``

    Examples
    --------
    >>> tokens, labels = order_task(2, 6, seed=0)
    >>> for row, label in zip(tokens, labels):
    ...     print(" ".join(ORDER_VOCAB[t] for t in row), "->", "AB"[label], "first")
    h f B d d A -> B first
    c A d B f h -> A first
    """
    n_examples = _checks.positive_int("n_examples", n_examples)
    length = _checks.integer("length", length, minimum=2)
    rng = _rng(seed)
    tokens = rng.integers(2, len(ORDER_VOCAB), size=(n_examples, length))
    # two distinct random positions per row: the first two of a random permutation
    where = np.argsort(rng.random((n_examples, length)), axis=1)[:, :2]
    rows = np.arange(n_examples)
    tokens[rows, where[:, 0]] = 0  # A
    tokens[rows, where[:, 1]] = 1  # B
    labels = (where[:, 1] < where[:, 0]).astype(np.int64)
    return tokens, labels


def lookback_task(n_examples, length, *, window=2, seed=0):
    """Sequences that end in ``B`` and hold one ``A``; the label says whether ``A`` is close behind ``B``.

    The last token is ``B`` (token 1); one ``A`` (token 0) sits ``d`` places
    before it, at position ``length - 1 - d``; every other position holds a
    filler token 2 to 7 drawn uniformly (see ``posenc.learned.ORDER_VOCAB``).
    The label is 1 ("near") if ``d <= window`` and 0 ("far") otherwise. Each
    label has probability 1/2; given the label, ``d`` is uniform over
    ``1, ..., window`` (near) or ``window + 1, ..., length - 1`` (far).

    Both labels have the same kind of bag of tokens and the same last token:
    only the distance from ``A`` to the end tells them apart, a relative
    position. A model that reads its answer at the last position, as a
    causal language model does, has to look back from ``B``.

    Parameters
    ----------
    n_examples : int
        Number of sequences (the batch size).
    length : int
        Tokens per sequence, at least ``window + 2`` (so that a far ``A``
        has room).
    window : int, default 2
        The largest distance that counts as near (at least 1).
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(n_examples, length)``
    labels : numpy.ndarray of int, shape ``(n_examples,)``

    Examples
    --------
    >>> tokens, labels = lookback_task(4, 8, seed=3)
    >>> for row, label in zip(tokens, labels):
    ...     print(" ".join(ORDER_VOCAB[t] for t in row), "->", ["far", "near"][label])
    g c d d d A h B -> near
    c c d e A e d B -> far
    g g c c A e h B -> far
    e e f f d g A B -> near
    """
    n_examples = _checks.positive_int("n_examples", n_examples)
    window = _checks.positive_int("window", window)
    length = _checks.integer("length", length, minimum=window + 2)
    rng = _rng(seed)
    tokens = rng.integers(2, len(ORDER_VOCAB), size=(n_examples, length))
    labels = rng.integers(0, 2, size=n_examples)
    near = rng.integers(1, window + 1, size=n_examples)
    far = rng.integers(window + 1, length, size=n_examples)
    d = np.where(labels == 1, near, far)
    tokens[np.arange(n_examples), length - 1 - d] = 0  # A, d places before the end
    tokens[:, -1] = 1  # B
    return tokens, labels.astype(np.int64)


# --- the model ------------------------------------------------------------


def init_model(
    scheme,
    *,
    vocab_size=len(ORDER_VOCAB),
    n_classes=2,
    d_model=16,
    n_heads=4,
    max_len=64,
    causal=False,
    readout="mean",
    token_std=1.0,
    position_std=0.02,
    seed=0,
):
    """A fresh model: its configuration and a dict of parameters.

    Parameters
    ----------
    scheme : {"none", "sinusoidal", "learned", "rope", "alibi"}
        Where position enters (see the module docstring).
    vocab_size : int, default 8
        Number of token ids (rows of the token embedding).
    n_classes : int, default 2
        Number of outputs of the readout.
    d_model : int, default 16
        Width of embeddings and of the attention layer.
    n_heads : int, default 4
        Attention heads; must divide ``d_model``. With ``"rope"`` each head
        width ``d_model // n_heads`` must be even.
    max_len : int, default 64
        Rows of the learned position table (``"learned"`` only): the longest
        sequence the model accepts. Other schemes accept any length.
    causal : bool, default False
        ``True``: position ``i`` attends only to ``j <= i`` (a decoder).
    readout : {"mean", "last"}, default "mean"
        What the linear readout sees: ``"mean"``, the average of the
        outputs of all positions; ``"last"``, the output of the last
        position only, where a causal language model makes its prediction.
    token_std : float, default 1.0
        Standard deviation of the initial token embeddings. BERT and GPT-2
        start theirs at 0.02 and rescale every input with a LayerNorm; this
        model has no LayerNorm, so its tokens start at unit size directly.
        Weight matrices start from :math:`\\mathcal{N}(0, 1/d_{model})`.
    position_std : float, default 0.02
        Standard deviation of the initial position table (``"learned"``
        only): BERT's value (GPT-2 uses 0.01). Next to unit-size token
        embeddings, positions start almost silent, and rows that training
        never reaches stay close to zero.
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    dict
        ``{"scheme", "n_heads", "causal", "readout", "max_len", "params"}``; ``params``
        maps ``"E"`` (tokens), ``"P"`` (positions, ``"learned"`` only),
        ``"W_q"``, ``"W_k"``, ``"W_v"``, ``"W_out"`` and ``"b_out"`` to
        float64 arrays.

    Examples
    --------
    >>> model = init_model("learned", d_model=16, max_len=64)
    >>> {name: p.shape for name, p in model["params"].items()}
    {'E': (8, 16), 'P': (64, 16), 'W_q': (16, 16), 'W_k': (16, 16), 'W_v': (16, 16), 'W_out': (16, 2), 'b_out': (2,)}
    """
    scheme = _checks.choice("scheme", scheme, SCHEMES)
    vocab_size = _checks.positive_int("vocab_size", vocab_size)
    n_classes = _checks.integer("n_classes", n_classes, minimum=2)
    d_model = _checks.positive_int("d_model", d_model)
    n_heads = _checks.positive_int("n_heads", n_heads)
    max_len = _checks.positive_int("max_len", max_len)
    causal = _checks.boolean("causal", causal)
    readout = _checks.choice("readout", readout, READOUTS)
    token_std = _checks.real("token_std", token_std, positive=True)
    position_std = _checks.real("position_std", position_std, positive=True)
    if d_model % n_heads:
        raise ValueError(f"n_heads must divide d_model, got n_heads={n_heads}, d_model={d_model}")
    if scheme == "rope" and (d_model // n_heads) % 2:
        raise ValueError(
            f"rope rotates pairs, so the head width d_model // n_heads must be even, "
            f"got {d_model} // {n_heads} = {d_model // n_heads}"
        )
    rng = _rng(seed)
    params = {"E": init_table(vocab_size, d_model, std=token_std, seed=rng)}
    if scheme == "learned":
        params["P"] = init_table(max_len, d_model, std=position_std, seed=rng)
    for name in ("W_q", "W_k", "W_v"):
        params[name] = rng.normal(0.0, d_model**-0.5, size=(d_model, d_model))
    params["W_out"] = rng.normal(0.0, d_model**-0.5, size=(d_model, n_classes))
    params["b_out"] = np.zeros(n_classes)
    return {"scheme": scheme, "n_heads": n_heads, "causal": causal, "readout": readout,
            "max_len": max_len, "params": params}


def forward(model, tokens):
    """Logits of the model for a batch of token sequences.

    Parameters
    ----------
    model : dict
        From :func:`init_model` or :func:`train`.
    tokens : array_like of int, shape ``(batch, n)``
        Token ids; all sequences of a batch have the same length ``n``.
        At least one sequence (``batch >= 1``) of at least one token.

    Returns
    -------
    numpy.ndarray of shape ``(batch, n_classes)``

    Raises
    ------
    TypeError
        If ``model`` is not a model dict or ``tokens`` are not integers.
    ValueError
        If ``tokens`` is not 2-D or is empty, a token id is out of range or,
        with ``"learned"``, ``n`` is longer than the table (``max_len``).

    Examples
    --------
    >>> model = init_model("sinusoidal")
    >>> tokens, labels = order_task(3, 5)
    >>> forward(model, tokens).shape
    (3, 2)
    """
    model, tokens = _model(model), _tokens(tokens)
    if len(tokens) <= _CHUNK:
        return _forward(model, tokens)[0]
    # Sequences do not interact, so a large batch runs in pieces: the same logits,
    # but the (chunk, n_heads, n, n) temporaries stay small enough to be fast.
    return np.concatenate([_forward(model, tokens[i:i + _CHUNK])[0]
                           for i in range(0, len(tokens), _CHUNK)])


def attention_weights(model, tokens):
    """The attention matrices of the model, one per sequence and head.

    Parameters
    ----------
    model : dict
    tokens : array_like of int, shape ``(batch, n)``

    Returns
    -------
    numpy.ndarray of shape ``(batch, n_heads, n, n)``
        Row ``i`` of head ``h`` holds how much query ``i`` takes from each
        key; rows sum to 1.

    Examples
    --------
    >>> A = attention_weights(init_model("none"), [[2, 0, 3, 1]])
    >>> A.shape, bool(np.allclose(A.sum(axis=-1), 1))
    ((1, 4, 4, 4), True)
    """
    model, tokens = _model(model), _tokens(tokens)
    return _forward(model, tokens)[1]["A"]


def accuracy(model, tokens, labels):
    """Fraction of sequences whose largest logit is the label.

    Parameters
    ----------
    model : dict
    tokens : array_like of int, shape ``(batch, n)``
    labels : array_like of int, shape ``(batch,)``

    Returns
    -------
    float

    Examples
    --------
    Without positions the model cannot tell a sequence from its copy with
    ``A`` and ``B`` swapped, so it gets exactly one of each such pair right:

    >>> tokens, labels = order_task(500, 8)
    >>> swapped = np.where(tokens < 2, 1 - tokens, tokens)  # A <-> B
    >>> both, answers = np.concatenate([tokens, swapped]), np.concatenate([labels, 1 - labels])
    >>> accuracy(init_model("none"), both, answers)
    0.5
    """
    model, tokens = _model(model), _tokens(tokens)
    labels = _labels(labels, len(tokens), model)
    return float(np.mean(forward(model, tokens).argmax(axis=1) == labels))


def loss_and_grads(model, tokens, labels):
    r"""Mean cross-entropy of a batch, and its gradient for every parameter.

    The backward pass, in the order it runs (``dX`` is the gradient of the
    loss with respect to ``X``):

    .. math::

        d\mathrm{logits} &= (\mathrm{softmax}(\mathrm{logits}) - Y)/\mathrm{batch}, &
        dW_\mathrm{out} &= \bar o^\top d\mathrm{logits}, \\
        do_i &= d\mathrm{logits}\, W_\mathrm{out}^\top / n, &
        dA &= do\, v^\top,\quad dv = A^\top do, \\
        dS &= A \odot (dA - \mathrm{rowsum}(dA \odot A)), &
        dq &= dS\, k / \sqrt{d_h},\quad dk = dS^\top q / \sqrt{d_h}, \\
        dW_q &= h^\top dq \ (\text{same for } k, v), &
        dh &= dq\,W_q^\top + dk\,W_k^\top + dv\,W_v^\top

    (with ``readout="last"``, ``do_n = dlogits W_out^T`` and every other
    ``do_i`` is 0), then ``dh`` is scattered into the token table (and, for ``"learned"``,
    into the position table). With ``"rope"``, ``dq`` and ``dk`` are rotated
    back by the inverse rotation (positions ``-i``) before ``dW_q``.

    Parameters
    ----------
    model : dict
    tokens : array_like of int, shape ``(batch, n)``
    labels : array_like of int, shape ``(batch,)``
        Class of each sequence, in ``[0, n_classes)``.

    Returns
    -------
    loss : float
    grads : dict
        Same keys and shapes as ``model["params"]``.

    Examples
    --------
    >>> model = init_model("learned")
    >>> loss, grads = loss_and_grads(model, *order_task(4, 6))
    >>> grads["P"].shape
    (64, 16)
    >>> bool(np.all(grads["P"][6:] == 0))  # rows past the sequence get nothing
    True
    """
    model, tokens = _model(model), _tokens(tokens)
    return _loss_and_grads(model, tokens, labels)[:2]


def _loss_and_grads(model, tokens, labels):
    """:func:`loss_and_grads`, plus the logits (so that training need not run the model twice)."""
    logits, cache = _forward(model, tokens)
    labels = _labels(labels, len(logits), model)
    p = model["params"]
    h, q, k, v, A, pooled = (cache[name] for name in ("h", "q", "k", "v", "A", "pooled"))
    batch, n, d_model = h.shape
    rows = np.arange(batch)

    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))  # stable log-softmax
    loss = float(-np.mean(log_probs[rows, labels]))
    d_logits = np.exp(log_probs)  # softmax(logits)
    d_logits[rows, labels] -= 1.0
    d_logits /= batch

    grads = {"W_out": pooled.T @ d_logits, "b_out": d_logits.sum(axis=0)}
    d_pooled = d_logits @ p["W_out"].T
    if model["readout"] == "mean":  # every position gets 1/n of the gradient
        d_o = np.broadcast_to(d_pooled[:, None, :] / n, (batch, n, d_model))
    else:  # only the last position was read
        d_o = np.zeros((batch, n, d_model))
        d_o[:, -1] = d_pooled
    d_o = _split_heads(d_o, model["n_heads"])
    d_A = d_o @ np.swapaxes(v, -1, -2)
    d_v = np.swapaxes(A, -1, -2) @ d_o
    d_S = A * (d_A - np.sum(d_A * A, axis=-1, keepdims=True))  # softmax backward
    scale = 1.0 / np.sqrt(q.shape[-1])
    d_q = d_S @ k * scale
    d_k = np.swapaxes(d_S, -1, -2) @ q * scale
    if model["scheme"] == "rope":  # rotation backward = rotation by the opposite angle
        d_q, d_k = rope(np.stack([d_q, d_k]), -np.arange(n))

    d_h = np.zeros_like(h)
    for name, d_x in (("W_q", d_q), ("W_k", d_k), ("W_v", d_v)):
        d_x = _merge_heads(d_x)
        grads[name] = h.reshape(-1, d_model).T @ d_x.reshape(-1, d_model)
        d_h += d_x @ p[name].T
    tokens = np.asarray(tokens)
    grads["E"] = lookup_backward(d_h, tokens, len(p["E"]))
    if model["scheme"] == "learned":
        grads["P"] = lookup_backward(d_h.sum(axis=0), np.arange(n), len(p["P"]))
    return loss, {name: grads[name] for name in p}, logits


def _forward(model, tokens):
    """Logits, and a dict of what the backward pass needs.

    ``h`` is ``(batch, n, d_model)``; ``q, k, v`` are per head,
    ``(batch, n_heads, n, d_h)``, with ``q`` and ``k`` after the rotation of
    ``"rope"``; ``A`` is ``(batch, n_heads, n, n)``; ``pooled`` is
    ``(batch, d_model)``.
    """
    p, scheme, n_heads = model["params"], model["scheme"], model["n_heads"]
    tokens = _checks.array("tokens", tokens, ndim=2, dtype=None)
    if tokens.dtype.kind not in "iu":
        raise TypeError(f"tokens must be integer token ids, got dtype {tokens.dtype}")
    n, d_model = tokens.shape[1], p["E"].shape[1]
    if scheme == "learned" and n > len(p["P"]):
        raise ValueError(
            f"tokens has length {n}, but the learned position table has only "
            f"{len(p['P'])} rows (max_len): there is no vector for position {len(p['P'])}"
        )

    h = lookup(p["E"], tokens)  # (batch, n, d_model)
    if scheme == "sinusoidal":
        h = h + sinusoidal(n, d_model)
    elif scheme == "learned":
        h = h + p["P"][:n]
    q, k, v = (_split_heads(h @ p[name], n_heads) for name in ("W_q", "W_k", "W_v"))
    if scheme == "rope":
        q, k = rope(np.stack([q, k]))  # rotate row i of every head by angles i * theta
    S = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])  # (batch, n_heads, n, n)
    if scheme == "alibi":
        S = S + alibi_bias(n_heads, n, causal=model["causal"])  # -inf above the diagonal if causal
    elif model["causal"]:
        S = np.where(causal_mask(n), S, -np.inf)
    A = np.exp(S - S.max(axis=-1, keepdims=True))  # softmax over keys
    A /= A.sum(axis=-1, keepdims=True)
    o = A @ v
    o = _merge_heads(o)  # (batch, n, d_model)
    pooled = o.mean(axis=1) if model["readout"] == "mean" else o[:, -1]  # (batch, d_model)
    logits = pooled @ p["W_out"] + p["b_out"]
    return logits, {"h": h, "q": q, "k": k, "v": v, "A": A, "pooled": pooled}


def _split_heads(x, n_heads):
    """(batch, n, d_model) -> (batch, n_heads, n, d_model // n_heads)."""
    batch, n, d_model = x.shape
    return x.reshape(batch, n, n_heads, d_model // n_heads).transpose(0, 2, 1, 3)


def _merge_heads(x):
    """(batch, n_heads, n, d_h) -> (batch, n, n_heads * d_h)."""
    batch, n_heads, n, d_h = x.shape
    return x.transpose(0, 2, 1, 3).reshape(batch, n, n_heads * d_h)


# --- training -------------------------------------------------------------


def adam_step(params, grads, state, *, lr=0.01, beta1=0.9, beta2=0.999, eps=1e-8):
    r"""One step of Adam (Kingma and Ba, 2015), in place.

    .. math::

        m \leftarrow \beta_1 m + (1 - \beta_1) g, \quad
        v \leftarrow \beta_2 v + (1 - \beta_2) g^2, \quad
        \theta \leftarrow \theta - \mathrm{lr}\,
            \frac{m / (1 - \beta_1^t)}{\sqrt{v / (1 - \beta_2^t)} + \epsilon}

    An entry whose gradient has always been zero has :math:`m = 0` and does
    not move: rows of a position table that no sequence reached stay
    exactly at their initial values.

    Parameters
    ----------
    params, grads : dict of numpy.ndarray
        ``grads`` holds an array of the shape of ``params[name]`` for some or
        all of its names; the float arrays of ``params`` are updated in place.
    state : dict
        Adam's moments; pass ``{}`` at the first step, then the same dict.
    lr, beta1, beta2, eps : float
        The step size ``lr > 0``; the decay rates of the moments,
        ``0 <= beta1, beta2 < 1`` (at 1 the bias correction divides by
        zero); ``eps > 0``, which keeps the division finite.

    Returns
    -------
    dict
        ``state``, updated.

    Raises
    ------
    TypeError
        If ``params``, ``grads`` or ``state`` is not a dict, a parameter is
        not a float array, or ``lr``, ``beta1``, ``beta2`` or ``eps`` is not
        a real number.
    ValueError
        If a gradient has no parameter or not its shape, or ``lr``,
        ``beta1``, ``beta2`` or ``eps`` is outside its range, or not finite.

    Examples
    --------
    >>> params, state = {"w": np.array([1.0, 2.0])}, {}
    >>> _ = adam_step(params, {"w": np.array([0.5, 0.0])}, state, lr=0.1)
    >>> params["w"]  # the first step moves by lr in the direction of -sign(g)
    array([0.9, 2. ])
    """
    lr = _checks.real("lr", lr, positive=True)
    beta1 = _checks.real("beta1", beta1, at_least=0, below=1)
    beta2 = _checks.real("beta2", beta2, at_least=0, below=1)
    eps = _checks.real("eps", eps, positive=True)
    _adam_arguments(params, grads, state)
    state["t"] = t = state.get("t", 0) + 1
    for name, g in grads.items():
        m = state.setdefault("m_" + name, np.zeros_like(g))
        v = state.setdefault("v_" + name, np.zeros_like(g))
        m *= beta1
        m += (1 - beta1) * g
        v *= beta2
        v += (1 - beta2) * g * g
        params[name] -= lr * (m / (1 - beta1**t)) / (np.sqrt(v / (1 - beta2**t)) + eps)
    return state


def train(model, *, steps=300, batch_size=32, lengths=(4, 16), lr=0.02, task=order_task, seed=0):
    """Train a copy of ``model`` with Adam on fresh batches from ``task``.

    At each step the sequence length is drawn uniformly from
    ``lengths[0], ..., lengths[1]`` (inclusive), and a batch of
    ``batch_size`` sequences of that length is drawn from ``task``.

    Parameters
    ----------
    model : dict
        From :func:`init_model`; it is not changed.
    steps : int, default 300
    batch_size : int, default 32
    lengths : (int, int), default (4, 16)
        Shortest and longest training length. Positions at and past
        ``lengths[1]`` are never seen in training.
    lr : float, default 0.02
        Adam's step size at the first step (positive); it decays linearly to
        0 at the last step, which lets the weights settle.
    task : callable, default :func:`order_task`
        ``task(n_examples, length, seed=rng)`` returning ``(tokens, labels)``.
    seed : int or numpy.random.Generator, default 0
        Seeds the training data (the initial weights come from
        :func:`init_model`).

    Returns
    -------
    trained : dict
        A new model with the trained parameters.
    history : dict
        Arrays of length ``steps``: ``"loss"`` and ``"accuracy"`` of each
        training batch (before its update) and its sequence ``"length"``.

    Examples
    --------
    >>> trained, history = train(init_model("learned"), steps=20)
    >>> history["loss"].shape
    (20,)
    >>> bool(np.all((4 <= history["length"]) & (history["length"] <= 16)))
    True
    """
    model = _model(model)
    steps = _checks.positive_int("steps", steps)
    batch_size = _checks.positive_int("batch_size", batch_size)
    lr = _checks.real("lr", lr, positive=True)
    if not callable(task):
        raise TypeError(f"task must be a function task(n_examples, length, seed=rng), got {_checks.show(task)}")
    lo, hi = _lengths(lengths, model)
    rng = _rng(seed)
    trained = dict(model, params={name: x.copy() for name, x in model["params"].items()})
    history = {"loss": np.empty(steps), "accuracy": np.empty(steps),
               "length": np.empty(steps, dtype=np.int64)}
    state = {}
    for step in range(steps):
        n = int(rng.integers(lo, hi + 1))
        tokens, labels = task(batch_size, n, seed=rng)
        loss, grads, logits = _loss_and_grads(trained, tokens, labels)
        adam_step(trained["params"], grads, state, lr=lr * (1 - step / steps))  # decays to 0
        history["loss"][step], history["length"][step] = loss, n
        history["accuracy"][step] = np.mean(logits.argmax(axis=1) == labels)
    return trained, history


# --- argument checks ------------------------------------------------------


def _rng(seed):
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(_checks.integer("seed", seed, minimum=0))


def _indices(name, indices, n_rows):
    try:
        indices = np.asarray(indices)
    except (TypeError, ValueError):  # a ragged list, for example
        raise TypeError(f"{name} must be integers, got {_checks.show(indices)}") from None
    if indices.size == 0 and indices.dtype.kind == "f":
        indices = indices.astype(np.int64)  # np.asarray([]) is float64, but holds no float
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integers, got dtype {indices.dtype}")
    if indices.size and (indices.min() < 0 or indices.max() >= n_rows):
        raise ValueError(
            f"{name} must lie in [0, {n_rows}) (the table has {n_rows} rows), "
            f"got values from {indices.min()} to {indices.max()}"
        )
    return indices


def _labels(labels, batch, model):
    value = labels
    try:
        labels = np.asarray(labels)
    except (TypeError, ValueError):  # a ragged list, for example
        labels = np.array(None)  # refused just below
    n_classes = model["params"]["b_out"].shape[0]
    if labels.shape != (batch,) or labels.dtype.kind not in "iu":
        raise ValueError(
            f"labels must be {batch} integers (one per sequence), got {_checks.show(value)}"
        )
    if labels.min() < 0 or labels.max() >= n_classes:
        raise ValueError(f"labels must lie in [0, {n_classes}), got {labels.min()}..{labels.max()}")
    return labels


def _lengths(lengths, model):
    try:
        lo, hi = lengths
    except (TypeError, ValueError):
        raise TypeError(f"lengths must be a pair (shortest, longest), got {lengths!r}") from None
    lo = _checks.integer("lengths[0]", lo, minimum=1)
    hi = _checks.integer("lengths[1]", hi, minimum=lo)
    if model["scheme"] == "learned" and hi > model["max_len"]:
        raise ValueError(f"lengths[1] = {hi} is longer than the position table (max_len={model['max_len']})")
    return lo, hi


def _model(model):
    """``model`` must be the dict of :func:`init_model` or :func:`train`."""
    if not (isinstance(model, dict) and "params" in model and "scheme" in model):
        raise TypeError(f"model must be a dict from init_model or train, got {type(model).__name__}")
    return model


def _tokens(tokens):
    """A 2-D integer array of token ids, at least one sequence of at least one token."""
    tokens = _checks.array("tokens", tokens, ndim=2, dtype=None)
    if tokens.dtype.kind not in "iu":
        raise TypeError(f"tokens must be integer token ids, got dtype {tokens.dtype}")
    if tokens.shape[1] == 0:
        raise ValueError(
            f"tokens must hold at least one token per sequence, got shape {tokens.shape}"
        )
    if tokens.shape[0] == 0:
        raise ValueError(f"tokens must hold at least one sequence, got shape {tokens.shape}")
    return tokens


def _adam_arguments(params, grads, state):
    """Check what :func:`adam_step` updates, before it changes anything."""
    for name, value, what in (("params", params, "names to float arrays"),
                              ("grads", grads, "names to arrays"),
                              ("state", state, "Adam's moments (pass {} at the first step)")):
        if not isinstance(value, dict):
            raise TypeError(
                f"{name} must be a dict of {what}, got {type(value).__name__} {_checks.show(value)}"
            )
    for name, g in grads.items():
        if name not in params:
            raise ValueError(
                f"grads has {name!r}, which params lacks (params has {_checks.show(list(params))})"
            )
        p = params[name]
        if not (isinstance(p, np.ndarray) and p.dtype.kind == "f"):
            raise TypeError(
                f"params[{name!r}] must be a float numpy array (it is updated in place), "
                f"got {_checks.show(p)}"
            )
        if np.shape(g) != p.shape:
            raise ValueError(
                f"grads[{name!r}] must have the shape of params[{name!r}], {p.shape}, "
                f"got {np.shape(g)}"
            )
