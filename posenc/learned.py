r"""Learned position tables, and a tiny attention model trained in NumPy.

A learned absolute position table is a matrix :math:`P` with one trainable
row per position, as in BERT (512 rows) and GPT-2 (1024 rows). The forward
pass looks rows up, the backward pass adds each row's gradients back into
the table (a scatter-add): :func:`lookup` and :func:`lookup_backward`. Token
embeddings are a table too, looked up by token id instead of by position.

The model of the chapters is one attention layer between an embedding and a
linear readout, small enough to follow line by line:

.. math::

    h_i &= E[x_i] + p_i                      && \text{token + position signal} \\
    q_i, k_i, v_i &= h_i W_q,\; h_i W_k,\; h_i W_v  && \text{split into heads} \\
    A &= \mathrm{softmax}\!\left(q k^\top / \sqrt{d_h} + B\right)
                                              && \text{one matrix per head} \\
    o_i &= \textstyle\sum_j A_{ij} v_j        && \text{heads concatenated} \\
    \bar o &= \textstyle\sum_i r_i\, o_i = \sum_j \bar a_j v_j,
        \quad \bar a_j = \sum_i r_i A_{ij}  && \text{the readout's average} \\
    \mathrm{logits} &= \bar o\, W_\mathrm{out} + b_\mathrm{out}

The readout weights :math:`r_i` are :math:`1/n` for every position with
``readout="mean"``; with ``readout="last"`` only the last position counts
(:math:`r_n = 1`), where a causal language model makes its prediction, and
the code computes only that row of :math:`A`. Either way the outputs
:math:`o_i` are never formed one by one: :math:`\bar a` says how much of
each value :math:`v_j` reaches the readout.

The position ``scheme`` decides where position enters:

* ``"none"``: :math:`p_i = 0` and :math:`B = 0`;
* ``"sinusoidal"``: :math:`p_i` is row ``i`` of :func:`posenc.sinusoidal`;
* ``"learned"``: :math:`p_i = P[i]`, a trainable table of ``max_len`` rows;
* ``"rope"``: :math:`p_i = 0`; in each head, pair :math:`c` of ``q_i`` and
  ``k_i`` is turned by the angle :math:`i\,\theta_c` (as :func:`posenc.rope`
  does, interleaved layout) and multiplied by ``attention_factor``;
* ``"alibi"``: :math:`p_i = 0`; :math:`B` is :func:`posenc.alibi_bias`
  (fixed slopes, one per head).

With ``causal=True``, :math:`B` also holds :math:`-\infty` above the
diagonal. Every function works on a whole batch at once; the backward pass
is written out by hand (:func:`loss_and_grads`) and checked against finite
differences in the tests. One shortcut in the code: :math:`h_i` depends
only on the position :math:`i` and the token :math:`x_i`, and so do
:math:`q_i`, :math:`k_i` and :math:`v_i`, so they are computed once for
every (position, token) pair and looked up for every sequence (see
``_forward``).

**Stacks of models.** ``init_model(..., seed=[0, 1, ..., 7])`` builds eight
models at once: every parameter gets a leading axis of length 8, and
:func:`forward`, :func:`accuracy`, :func:`loss_and_grads` and :func:`train`
run all eight side by side, as one batch of arrays. Model ``m`` of a stack
computes exactly what it would compute alone; training a stack is simply
faster than training its models one by one, because numpy spends most of
the time of such tiny models on calling functions, not on arithmetic.

**RoPE settings.** A ``"rope"`` model holds ``model["inv_freq"]``, the
frequencies :math:`\theta_c` of each head (default
``posenc.frequencies(d_model // n_heads)``, that is
:math:`\theta_c = 10000^{-2c/d_h}`), and ``model["attention_factor"]``
(default 1.0), which multiplies the rotated queries and keys, as Hugging
Face multiplies cos and sin by ``attention_scaling``: the scores scale by
its square. Both can be changed on a trained model, for evaluation or for a
short fine-tune at another length:
``dict(model, inv_freq=model["inv_freq"] / 4, attention_factor=1.1)``.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Sequence

import numpy as np

from . import _checks
from .attention import causal_mask
from .relative import alibi_bias
from .sinusoidal import frequencies, sinusoidal

__all__ = [
    "SCHEMES",
    "READOUTS",
    "ORDER_VOCAB",
    "init_table",
    "lookup",
    "lookup_backward",
    "order_task",
    "lookback_task",
    "order_test_set",
    "lookback_test_set",
    "init_model",
    "unstack",
    "forward",
    "attention_weights",
    "accuracy",
    "loss_and_grads",
    "adam_step",
    "train",
]

SCHEMES = ("none", "sinusoidal", "learned", "rope", "alibi")

READOUTS = ("mean", "last")

_CHUNK_ENTRIES = 2**20  # forward() cuts a batch so that A holds about this many numbers

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
    # one_hot[t, r] = 1 where place t reads row r; its transpose adds up the gradients
    one_hot = indices.reshape(-1, 1) == np.arange(n_rows)
    return one_hot.T.astype(grad.dtype) @ grad.reshape(-1, grad.shape[-1])


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


def order_test_set(n_pairs, length, *, seed=0):
    """A test set of the order task made of pairs: each sequence, and its copy with ``A`` and ``B`` swapped.

    The two sequences of a pair hold the same tokens and have opposite
    labels, and a model without any position signal gives both the same
    answer (it sees only the bag of tokens): it is right on exactly one of
    each pair, so its accuracy is exactly 0.5. Any score above 0.5 comes
    from position information, any score below it from systematic errors.

    Parameters
    ----------
    n_pairs : int
        Number of pairs; the set holds ``2 * n_pairs`` sequences, the
        originals first, then their copies in the same order.
    length : int
        Tokens per sequence, at least 2.
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(2 * n_pairs, length)``
    labels : numpy.ndarray of int, shape ``(2 * n_pairs,)``

    Examples
    --------
    >>> tokens, labels = order_test_set(1, 6, seed=0)
    >>> for row, label in zip(tokens, labels):
    ...     print(" ".join(ORDER_VOCAB[t] for t in row), "->", "AB"[label], "first")
    A f f d d B -> A first
    B f f d d A -> B first
    """
    tokens, labels = order_task(n_pairs, length, seed=seed)
    swapped = np.where(tokens < 2, 1 - tokens, tokens)  # A <-> B: the label flips
    return np.concatenate([tokens, swapped]), np.concatenate([labels, 1 - labels])


def lookback_test_set(n_pairs, length, *, window=2, seed=0):
    """A test set of the look-back task made of pairs: each sequence, and a copy with ``A`` moved across the window.

    In the copy, ``A`` trades places with the filler at a distance of the
    other label, drawn uniformly (``1, ..., window`` for *near*,
    ``window + 1, ..., length - 1`` for *far*): the same tokens, the same
    last token ``B``, the opposite label. A model without any position
    signal, read at the last position, sees only the bag of tokens before
    ``B`` and gives both the same answer, so its accuracy is exactly 0.5.
    Within each label the distances stay uniform, as in
    :func:`lookback_task`.

    Parameters
    ----------
    n_pairs : int
        Number of pairs; the set holds ``2 * n_pairs`` sequences, the
        originals first, then their copies in the same order.
    length : int
        Tokens per sequence, at least ``window + 2``.
    window : int, default 2
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(2 * n_pairs, length)``
    labels : numpy.ndarray of int, shape ``(2 * n_pairs,)``

    Examples
    --------
    >>> tokens, labels = lookback_test_set(2, 8, seed=3)
    >>> for row, label in zip(tokens, labels):
    ...     print(" ".join(ORDER_VOCAB[t] for t in row), "->", ["far", "near"][label])
    g c d d d g A B -> near
    c c d e f e A B -> near
    A c d d d g g B -> far
    c c A e f e d B -> far
    """
    rng = _rng(seed)
    tokens, labels = lookback_task(n_pairs, length, window=window, seed=rng)
    far = rng.integers(window + 1, length, size=n_pairs)
    near = rng.integers(1, window + 1, size=n_pairs)
    new = length - 1 - np.where(labels == 1, far, near)  # where A goes: the other label
    old = (tokens == 0).argmax(axis=1)  # where A is
    rows, moved = np.arange(n_pairs), tokens.copy()
    moved[rows, old], moved[rows, new] = tokens[rows, new], 0
    return np.concatenate([tokens, moved]), np.concatenate([labels, 1 - labels])


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
    dtype=np.float64,
    seed=0,
):
    """A fresh model, or a stack of fresh models: configuration and parameters.

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
    dtype : numpy floating dtype, default numpy.float64
        Precision of the parameters and of every computation with them.
        ``np.float32`` trains about as well and faster; the gradient check
        of the tests needs ``np.float64``. The initial values are drawn in
        float64 and then rounded, so both precisions start from the same
        model.
    seed : int, numpy.random.Generator, or sequence of int, default 0
        One seed: one model. A sequence of ``M`` seeds: a *stack* of ``M``
        models, trained side by side; every parameter gets a leading axis of
        length ``M``, and model ``m`` of the stack is exactly the model
        ``init_model(..., seed=seeds[m])``.

    Returns
    -------
    dict
        ``{"scheme", "n_heads", "causal", "readout", "max_len",
        "n_models", "params"}``; ``n_models`` is ``None`` for a single
        model and ``M`` for a stack. ``params`` maps ``"E"`` (tokens),
        ``"P"`` (positions, ``"learned"`` only), ``"W_q"``, ``"W_k"``,
        ``"W_v"``, ``"W_out"`` and ``"b_out"`` to arrays. With ``"rope"``
        the dict also holds the two settings of the rotation, which can be
        changed on a trained model (see the module docstring):
        ``"inv_freq"``, the frequencies :math:`\\theta_i` of every head
        (default ``posenc.frequencies(d_model // n_heads)``), and
        ``"attention_factor"`` (default 1.0).

    Examples
    --------
    >>> model = init_model("learned", d_model=16, max_len=64)
    >>> {name: p.shape for name, p in model["params"].items()}
    {'E': (8, 16), 'P': (64, 16), 'W_q': (16, 16), 'W_k': (16, 16), 'W_v': (16, 16), 'W_out': (16, 2), 'b_out': (2,)}
    >>> stack = init_model("rope", seed=[0, 1, 2], dtype=np.float32)
    >>> stack["n_models"], stack["params"]["W_q"].shape, stack["params"]["W_q"].dtype
    (3, (3, 16, 16), dtype('float32'))
    >>> stack["inv_freq"]  # two pairs per head of width 4
    array([1.  , 0.01])
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
    dtype = _checks.float_dtype("dtype", dtype)
    if d_model % n_heads:
        raise ValueError(f"n_heads must divide d_model, got n_heads={n_heads}, d_model={d_model}")
    if scheme == "rope" and (d_model // n_heads) % 2:
        raise ValueError(
            f"rope rotates pairs, so the head width d_model // n_heads must be even, "
            f"got {d_model} // {n_heads} = {d_model // n_heads}"
        )
    seeds = _seeds(seed)

    def draw(rng):  # the parameters of one model, in a fixed order
        params = {"E": init_table(vocab_size, d_model, std=token_std, seed=rng)}
        if scheme == "learned":
            params["P"] = init_table(max_len, d_model, std=position_std, seed=rng)
        for name in ("W_q", "W_k", "W_v"):
            params[name] = rng.normal(0.0, d_model**-0.5, size=(d_model, d_model))
        params["W_out"] = rng.normal(0.0, d_model**-0.5, size=(d_model, n_classes))
        params["b_out"] = np.zeros(n_classes)
        return params

    if seeds is None:  # one model
        params = {name: x.astype(dtype) for name, x in draw(_rng(seed)).items()}
    else:  # a stack: model m is drawn exactly as init_model(..., seed=seeds[m])
        models = [draw(_rng(s)) for s in seeds]
        params = {name: np.stack([m[name] for m in models]).astype(dtype) for name in models[0]}
    model = {"scheme": scheme, "n_heads": n_heads, "causal": causal, "readout": readout,
             "max_len": max_len, "n_models": None if seeds is None else len(seeds),
             "params": params}
    if scheme == "rope":
        model["inv_freq"] = frequencies(d_model // n_heads)
        model["attention_factor"] = 1.0
    return model


def unstack(model):
    """The models of a stack, one by one: a list of single models.

    Parameters
    ----------
    model : dict
        A stack from :func:`init_model` or :func:`train` (``seed`` a
        sequence); a single model gives a list of itself.

    Returns
    -------
    list of dict
        Model ``m`` holds the parameters ``params[name][m]`` (views, not
        copies) and the stack's configuration.

    Examples
    --------
    >>> models = unstack(init_model("learned", seed=[4, 5]))
    >>> len(models), models[1]["params"]["P"].shape, models[1]["n_models"]
    (2, (64, 16), None)
    """
    _stacked(model)  # checks that it is a model
    if model.get("n_models") is None:
        return [model]
    return [dict(model, n_models=None, params={name: x[m] for name, x in model["params"].items()})
            for m in range(model["n_models"])]


def forward(model, tokens):
    """Logits of the model for a batch of token sequences.

    Parameters
    ----------
    model : dict
        From :func:`init_model` or :func:`train`.
    tokens : array_like of int, shape ``(batch, n)``
        Token ids; all sequences of a batch have the same length ``n``. For
        a stack of ``M`` models: ``(batch, n)``, the same sequences for
        every model, or ``(M, batch, n)``, one batch per model.

    Returns
    -------
    numpy.ndarray of shape ``(batch, n_classes)``, or ``(M, batch, n_classes)`` for a stack

    Raises
    ------
    TypeError
        If ``tokens`` are not integers.
    ValueError
        If ``tokens`` has the wrong number of axes, a token id is out of
        range or, with ``"learned"``, ``n`` is longer than the table
        (``max_len``).

    Examples
    --------
    >>> model = init_model("sinusoidal")
    >>> tokens, labels = order_task(3, 5)
    >>> forward(model, tokens).shape
    (3, 2)
    >>> forward(init_model("alibi", seed=[0, 1]), tokens).shape  # a stack of two
    (2, 3, 2)
    """
    params, tokens = _stacked(model), _tokens(model, tokens)
    # Sequences do not interact, so a large batch runs in pieces: the same logits,
    # but the (M, chunk, n_heads, n, n) temporaries stay small enough to be fast.
    M, batch, n = len(params["E"]), tokens.shape[-2], tokens.shape[-1]
    rows = 1 if model["readout"] == "last" else n  # rows of A that _forward computes
    chunk = max(1, _CHUNK_ENTRIES // (M * model["n_heads"] * rows * n))
    logits = np.concatenate([_forward(model, params, tokens[..., i:i + chunk, :])[0]
                             for i in range(0, batch, chunk)], axis=1)
    return _unstacked(model, logits)


def attention_weights(model, tokens):
    """The attention matrices of the model, one per sequence and head.

    Parameters
    ----------
    model : dict
    tokens : array_like of int, shape ``(batch, n)`` (or ``(M, batch, n)`` for a stack)

    Returns
    -------
    numpy.ndarray of shape ``(batch, n_heads, n, n)``, with a leading axis ``M`` for a stack
        Row ``i`` of head ``h`` holds how much query ``i`` takes from each
        key; rows sum to 1. (With ``readout="last"`` the model itself
        computes only the last row, the one its readout reads.)

    Examples
    --------
    >>> A = attention_weights(init_model("none"), [[2, 0, 3, 1]])
    >>> A.shape, bool(np.allclose(A.sum(axis=-1), 1))
    ((1, 4, 4, 4), True)
    """
    params, tokens = _stacked(model), _tokens(model, tokens)
    return _unstacked(model, _forward(model, params, tokens, all_rows=True)[1]["A"])


def accuracy(model, tokens, labels):
    """Fraction of sequences whose largest logit is the label.

    Parameters
    ----------
    model : dict
    tokens : array_like of int, shape ``(batch, n)`` (or ``(M, batch, n)`` for a stack)
    labels : array_like of int, shape ``(batch,)`` (or ``(M, batch)`` for a stack)

    Returns
    -------
    float, or numpy.ndarray of shape ``(M,)`` for a stack: one accuracy per model

    Examples
    --------
    Without positions the model cannot tell a sequence from its copy with
    ``A`` and ``B`` swapped, so it gets exactly one of each such pair right:

    >>> tokens, labels = order_task(500, 8)
    >>> swapped = np.where(tokens < 2, 1 - tokens, tokens)  # A <-> B
    >>> both, answers = np.concatenate([tokens, swapped]), np.concatenate([labels, 1 - labels])
    >>> accuracy(init_model("none"), both, answers)
    0.5
    >>> accuracy(init_model("none", seed=[0, 1, 2]), both, answers)
    array([0.5, 0.5, 0.5])
    """
    logits = forward(model, tokens)
    labels = _labels(labels, logits.shape[:-1], model)
    right = np.mean(logits.argmax(axis=-1) == labels, axis=-1)
    return float(right) if model.get("n_models") is None else right


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
    back, by the opposite angles, before ``dW_q`` and ``dW_k``.

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
    >>> model = init_model("learned")
    >>> loss, grads = loss_and_grads(model, *order_task(4, 6))
    >>> grads["P"].shape
    (64, 16)
    >>> bool(np.all(grads["P"][6:] == 0))  # rows past the sequence get nothing
    True
    """
    params, tokens = _stacked(model), _tokens(model, tokens)
    loss, grads, _ = _loss_and_grads(model, params, tokens, labels)
    if model.get("n_models") is None:
        return float(loss[0]), {name: g[0] for name, g in grads.items()}
    return loss, grads


def _forward(model, p, tokens, *, all_rows=False):
    """Logits of a stack of models, and a dict of what the backward pass needs.

    ``p`` holds the parameters with a leading model axis ``M``; ``tokens``
    is ``(M, batch, n)`` or ``(batch, n)`` (the same for every model).

    The input of position ``i`` is :math:`h_i = E[x_i] + p_i`: it depends
    only on the position and on the token there. So do its query, key and
    value, even after RoPE's rotation. With 8 tokens and batches of 32
    sequences it is cheaper to compute them once for every (position,
    token) pair, a table, and to look them up for every sequence, than to
    multiply every position of every sequence by the weights: the same
    numbers, a quarter of the work. Shapes of what is looked up, per head:
    ``q`` is ``(M, batch, H, rows, d_h)``, only for the rows the readout
    reads, scaled by :math:`1/\\sqrt{d_h}`; ``k`` and ``v`` are
    ``(M, batch, H, n, d_h)``; ``A`` is ``(M, batch, H, rows, n)``.
    """
    scheme, n_heads = model["scheme"], model["n_heads"]
    M, vocab_size, d_model = p["E"].shape
    d_h, dtype, n = d_model // n_heads, p["E"].dtype, tokens.shape[-1]

    W = np.concatenate([p["W_q"], p["W_k"], p["W_v"]], axis=-1)  # (M, d, 3 d), as nanoGPT's c_attn
    table = (p["E"] @ W)[:, None]  # (M, 1, V, 3 d): q, k, v of each token, E[t] W
    position = _positions(model, p, n, dtype)  # p_i, (M or 1, n, d), or None
    if position is not None:  # + p_i W, for every position: (M, n, V, 3 d)
        table = table + (position @ W)[:, :, None]
    if scheme == "rope":  # turn pair c of the q and k of position i by the angle i * inv_freq[c]
        cos, sin = _rope_tables(model, n, dtype)  # (n, 2 d)
        table = np.broadcast_to(table, (M, n, vocab_size, 3 * d_model)).copy()
        table[..., :2 * d_model] = _rotate(table[..., :2 * d_model], cos[:, None], sin[:, None])
    # one table each for q, k and v, per head: (M, H, n or 1, V, d_h)
    n_table = table.shape[1]
    table = table.reshape(M, n_table, vocab_size, 3, n_heads, d_h).transpose(3, 0, 4, 1, 2, 5)
    q_table, k_table, v_table = _moved(table)
    first, r = _read_rows(model, n, dtype, all_rows)  # the readout reads rows first..n-1
    q = _look_up(q_table, tokens, first)  # (M, batch, H, rows, d_h)
    q /= np.sqrt(d_h, dtype=dtype)
    k, v = _look_up(k_table, tokens), _look_up(v_table, tokens)  # (M, batch, H, n, d_h)
    # numpy multiplies a stack of small matrices much faster when each operand
    # is stored in the order the product reads it: hence k transposed, in a copy
    S = q @ np.ascontiguousarray(np.swapaxes(k, -1, -2))  # (M, batch, H, rows, n): q_i . k_j / sqrt(d_h)
    bias = _score_bias(model, n, dtype)  # ALiBi's penalties and/or the causal mask (-inf)
    if bias is not None:
        S += bias[..., first:, :]
    A = _softmax(S)
    a_bar = r @ A  # (M, batch, H, n): how much the readout takes from each value
    pooled = (a_bar[..., None, :] @ v).reshape(M, -1, d_model)  # = sum_i r_i o_i, heads side by side
    logits = pooled @ p["W_out"] + p["b_out"][:, None, :]
    return logits, {"q": q, "k": k, "v": v, "A": A, "a_bar": a_bar, "pooled": pooled,
                    "first": first, "r": r, "W": W, "position": position}


def _positions(model, p, n, dtype):
    """The position vectors p_i added to the input: (1, n, d), (M, n, d) or None."""
    if model["scheme"] == "sinusoidal":
        return _sinusoidal_table(n, p["E"].shape[-1], dtype)[None]
    if model["scheme"] == "learned":
        return p["P"][:, :n]
    return None


def _look_up(table, tokens, first=0):
    """``table[m, h, i, x[m, b, i]]`` for every model, sequence, head and position ``i >= first``.

    ``table`` is ``(M, H, n or 1, V, w)``; with one row it serves every
    position. Returns ``(M, batch, H, n - first, w)``. (One flat index and
    ``np.take`` are several times faster than four index arrays.)
    """
    M, n_heads, n_table, vocab_size, width = table.shape
    n = tokens.shape[-1]
    rows = np.arange(first, n) if n_table > 1 else np.zeros(n - first, dtype=int)
    start = ((np.arange(M)[:, None, None, None] * n_heads + np.arange(n_heads)[:, None])
             * n_table + rows) * vocab_size  # where the rows of (m, h, i) begin
    return np.take(table.reshape(-1, width), start + tokens[..., None, first:], axis=0)


def _moved(x, out=None):
    """``x`` (a view with its axes rearranged) copied into a new array, or into ``out``.

    ``x`` has its last axis, the ``d_h`` numbers of a head, contiguous.
    numpy rearranges an array several times faster when each such row is
    one item of ``d_h * itemsize`` bytes than when it is ``d_h`` floats:
    hence the ``np.void`` views. The numbers are copied untouched.
    """
    as_items = np.dtype((np.void, x.shape[-1] * x.itemsize))
    if out is None:
        out = np.empty(x.shape, dtype=x.dtype)
    out.view(as_items)[..., 0] = x.view(as_items)[..., 0]
    return out


def _loss_and_grads(model, p, tokens, labels):
    """Loss of each model of the stack, gradients (stacked), and the logits."""
    logits, cache = _forward(model, p, tokens)
    M, batch = logits.shape[:2]
    labels = np.broadcast_to(_labels(labels, (M, batch), model), (M, batch))
    q, k, v, A, a_bar, first, r = (cache[name] for name in
                                   ("q", "k", "v", "A", "a_bar", "first", "r"))
    _, vocab_size, d_model = p["E"].shape
    n, n_heads = v.shape[-2], model["n_heads"]
    d_h = d_model // n_heads

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
        d = _moved(d.transpose(0, 3, 1, 2, 4)).reshape(M, n - start, batch, d_model)
        d_table[:, start:, :, part] = one_hot[:, start:] @ d
    d_table = d_table.reshape(M, n, vocab_size, 3 * d_model)  # q of every head, then k, then v
    if model["scheme"] == "rope":  # the transpose of a rotation turns by the opposite angle
        cos, sin = _rope_tables(model, n, d_table.dtype)
        d_table[..., :2 * d_model] = _rotate(d_table[..., :2 * d_model], cos[:, None], -sin[:, None])
    # table = E[t] W + p_i W: each (position, token) entry holds both parts
    d_EW, W = d_table.sum(axis=1), cache["W"]  # (M, V, 3 d)
    d_W = np.swapaxes(p["E"], 1, 2) @ d_EW
    if cache["position"] is not None:
        d_pW = d_table.sum(axis=2)  # (M, n, 3 d)
        d_W += np.swapaxes(cache["position"], 1, 2) @ d_pW
        if model["scheme"] == "learned":
            grads["P"] = np.zeros_like(p["P"])
            grads["P"][:, :n] = d_pW @ np.swapaxes(W, 1, 2)
    grads["W_q"], grads["W_k"], grads["W_v"] = np.split(d_W, 3, axis=-1)
    grads["E"] = d_EW @ np.swapaxes(W, 1, 2)
    return loss, {name: grads[name] for name in p}, logits


def _softmax(S):
    """Softmax over the last axis (the keys) of a stack of score matrices.

    A softmax does not change when a constant is subtracted from a row, and
    subtracting the largest score keeps :math:`e^x` from overflowing. One
    maximum per matrix does that as well as one per row, and numpy finds it
    several times faster. Only if a row then underflows (every score of
    that row far below the matrix's largest) is each row shifted by its own
    maximum instead.
    """
    A = S - S.max(axis=(-2, -1), keepdims=True)
    np.exp(A, out=A)  # in place: a new array of this size costs more than the exponentials
    sums = A @ np.ones((A.shape[-1], 1), dtype=A.dtype)  # row sums, (..., rows, 1)
    if not np.all(sums > _SAFE_SUM[A.dtype.char]):
        A = np.exp(S - _row_max(S))
        sums = A.sum(axis=-1, keepdims=True)
    A /= sums
    return A


def _row_max(S):
    """``S.max(axis=-1, keepdims=True)``, the largest entry of every row.

    numpy reduces a short last axis row by row, slowly: for the rows of 16
    keys or fewer of training, the element-wise maximum of the columns, one
    column at a time, gives the same numbers about ten times faster.
    """
    if S.shape[-1] > 16:
        return S.max(axis=-1, keepdims=True)
    largest = S[..., :1].copy()
    for j in range(1, S.shape[-1]):
        np.maximum(largest, S[..., j:j + 1], out=largest)
    return largest


# a row whose sum of exponentials is below this has lost precision to underflow
_SAFE_SUM = {t: np.finfo(t).tiny / np.finfo(t).eps for t in np.typecodes["Float"]}


def _read_rows(model, n, dtype, all_rows):
    """Which query rows the readout reads, and its weight r_i on each.

    ``"mean"`` reads all n rows with weight 1/n; ``"last"`` reads row n - 1
    alone, so only its query is computed (unless ``all_rows``, for
    :func:`attention_weights`, where the other rows get weight 0).
    """
    if model["readout"] == "mean":
        return 0, np.full(n, 1 / n, dtype=dtype)
    first = 0 if all_rows else n - 1
    r = np.zeros(n - first, dtype=dtype)
    r[-1] = 1.0
    return first, r


def _rotate(x, cos, sin):
    """RoPE on the last axis of ``x``: each pair ``(x[2c], x[2c+1])`` turned by its angle.

    ``x * cos + swap(x) * sin``, where ``swap`` maps each pair ``(a, b)`` to
    ``(-b, a)`` (GPT-J's ``rotate_every_two``) and ``cos``, ``sin`` hold
    each pair's value twice. ``swap`` is a fixed matrix, so it costs one
    matrix product (per model of the stack); ``-sin`` turns back.
    """
    J = _swap_pairs(x.shape[-1], x.dtype)
    swapped = (x.reshape(len(x), -1, x.shape[-1]) @ J).reshape(x.shape)
    return x * cos + swapped * sin


@functools.lru_cache(maxsize=16)
def _swap_pairs(d, dtype):
    """The matrix J with (a, b) @ [[0, 1], [-1, 0]] = (-b, a) on each pair: x @ J = swap(x)."""
    J = np.zeros((d, d), dtype=dtype)
    J[np.arange(1, d, 2), np.arange(0, d, 2)] = -1.0
    J[np.arange(0, d, 2), np.arange(1, d, 2)] = 1.0
    return _read_only(J)


# Tables that depend only on the length (and the settings): computed once per
# length and kept, read-only, so that training does not rebuild them at every step.


@functools.lru_cache(maxsize=256)
def _sinusoidal_cached(n, d_model, dtype):
    return _read_only(sinusoidal(n, d_model).astype(dtype))


def _sinusoidal_table(n, d_model, dtype):
    return _sinusoidal_cached(n, d_model, np.dtype(dtype))


@functools.lru_cache(maxsize=256)
def _rope_cached(n, inv_freq, n_heads, attention_factor, dtype):
    # each pair's frequency twice, in every head, for q and then for k
    inv_freq = np.repeat(np.tile(inv_freq, 2 * n_heads), 2)
    angles = np.outer(np.arange(n), inv_freq)  # (n, d_model), in float64
    return (_read_only((attention_factor * np.cos(angles)).astype(dtype)),
            _read_only((attention_factor * np.sin(angles)).astype(dtype)))


def _rope_tables(model, n, dtype):
    """``attention_factor`` times the cos and sin of every angle ``i * inv_freq[c]``: ``(n, 2 d_model)``.

    Row ``i`` is for position ``i``; its columns follow the queries of every
    head, then the keys, and columns ``2c`` and ``2c + 1`` of each head hold
    pair ``c``'s angle (the interleaved layout of :func:`posenc.rope`). As in Hugging Face's Llama
    code, where the factor multiplies cos and sin, it scales the rotated
    queries and keys, and the scores by its square.
    """
    inv_freq, factor = _rope_settings(model)
    return _rope_cached(n, tuple(inv_freq.tolist()), model["n_heads"], factor, np.dtype(dtype))


@functools.lru_cache(maxsize=256)
def _bias_cached(scheme, causal, n_heads, n, dtype):
    if scheme == "alibi":
        return _read_only(alibi_bias(n_heads, n, causal=causal).astype(dtype))  # (H, n, n)
    if causal:
        return _read_only(np.where(causal_mask(n), 0.0, -np.inf).astype(dtype))  # (n, n)
    return None


def _score_bias(model, n, dtype):
    """What is added to the scores: ALiBi's bias, the causal mask (-inf above the diagonal), or None."""
    return _bias_cached(model["scheme"], model["causal"], model["n_heads"], n, np.dtype(dtype))


def _read_only(x):
    x.setflags(write=False)
    return x


# --- training -------------------------------------------------------------


def adam_step(params, grads, state, *, lr=0.01, beta1=0.9, beta2=0.999, eps=1e-8):
    r"""One step of Adam (Kingma and Ba, 2015), in place.

    .. math::

        m \leftarrow \beta_1 m + (1 - \beta_1) g, \quad
        v \leftarrow \beta_2 v + (1 - \beta_2) g^2, \quad
        \theta \leftarrow \theta - \mathrm{lr}\,
            \frac{m / (1 - \beta_1^t)}{\sqrt{v / (1 - \beta_2^t)} + \epsilon}

    The code folds the two bias corrections into the step size and
    :math:`\epsilon`, as the paper suggests (section 2): the same update
    with fewer operations on the arrays.

    An entry whose gradient has always been zero has :math:`m = 0` and does
    not move: rows of a position table that no sequence reached stay
    exactly at their initial values.

    Parameters
    ----------
    params, grads : dict of numpy.ndarray
        Same keys and shapes; ``params`` is updated in place. A stack of
        models is updated entry by entry, exactly as each model alone.
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
    correction = np.sqrt(1 - beta2**t)
    step_size, eps_hat = lr * correction / (1 - beta1**t), eps * correction
    for name, g in grads.items():
        m = state.setdefault("m_" + name, np.zeros_like(g))
        v = state.setdefault("v_" + name, np.zeros_like(g))
        m += (1 - beta1) * (g - m)  # m <- beta1 m + (1 - beta1) g
        v += (1 - beta2) * (g * g - v)
        params[name] -= step_size * m / (np.sqrt(v) + eps_hat)
    return state


def train(model, *, steps=1500, batch_size=32, lengths=(4, 16), lr=0.02, task=order_task,
          seed=0, length_seed=0):
    """Train a copy of ``model`` (or of a stack of models) with Adam on fresh batches from ``task``.

    At each step a sequence length is drawn uniformly from
    ``lengths[0], ..., lengths[1]`` (inclusive), and each model gets a batch
    of ``batch_size`` sequences of that length from ``task``, drawn with
    its own seed. Every model of a stack sees the same length at each step
    (the lengths come from a generator of their own, seeded with
    ``length_seed``), so model ``m`` of a stack ends exactly where the same
    model trained alone with ``seed=seeds[m]`` ends.

    Parameters
    ----------
    model : dict
        From :func:`init_model`; it is not changed.
    steps : int, default 1500
        Enough for every model of the book's two tasks that can learn them
        to converge (see the chapter *Train short, test long*).
    batch_size : int, default 32
    lengths : (int, int), default (4, 16)
        Shortest and longest training length. Positions at and past
        ``lengths[1]`` are never seen in training.
    lr : float, default 0.02
        Adam's step size at the first step. It decays linearly: at step
        ``t`` (counted from 0) it is ``lr * (1 - t / steps)``, so the last
        step uses ``lr / steps``, which lets the weights settle.
    task : callable, default :func:`order_task`
        ``task(n_examples, length, seed=rng)`` returning ``(tokens, labels)``.
    seed : int or numpy.random.Generator, or a sequence of int for a stack, default 0
        Seeds the training sequences (the initial weights come from
        :func:`init_model`). A stack of ``M`` models needs ``M`` seeds, one
        data stream per model.
    length_seed : int, default 0
        Seeds the training lengths, shared by every model of a stack.

    Returns
    -------
    trained : dict
        A new model (or stack) with the trained parameters.
    history : dict
        ``"loss"`` and ``"accuracy"`` of each training batch (before its
        update), arrays of length ``steps`` (``(M, steps)`` for a stack),
        and the sequence ``"length"`` of each step, ``(steps,)``.

    Examples
    --------
    >>> trained, history = train(init_model("learned"), steps=20)
    >>> history["loss"].shape
    (20,)
    >>> bool(np.all((4 <= history["length"]) & (history["length"] <= 16)))
    True
    >>> stack, history = train(init_model("rope", seed=[0, 1, 2]), steps=20, seed=[0, 1, 2])
    >>> history["loss"].shape
    (3, 20)
    """
    _stacked(model)  # a model dict, before _lengths reads it
    steps = _checks.positive_int("steps", steps)
    batch_size = _checks.positive_int("batch_size", batch_size)
    lr = _checks.real("lr", lr, positive=True)
    lo, hi = _lengths(lengths, model)
    if not callable(task):
        raise TypeError(f"task must be a function task(n_examples, length, seed=rng), got {_checks.show(task)}")
    rngs = _data_rngs(seed, model)
    length_rng = np.random.default_rng(_checks.integer("length_seed", length_seed, minimum=0))
    # The trained parameters are views of one flat array, which Adam updates as
    # a whole: entry by entry, exactly as parameter by parameter, in one call.
    flat, trained_params = _one_array(model["params"])
    trained = dict(model, params=trained_params)
    params = _stacked(trained)  # views: a single model is a stack of one
    M = len(rngs)
    history = {"loss": np.empty((M, steps)), "accuracy": np.empty((M, steps)),
               "length": np.empty(steps, dtype=np.int64)}
    state = {}
    for step in range(steps):
        n = int(length_rng.integers(lo, hi + 1))
        batches = [task(batch_size, n, seed=rng) for rng in rngs]  # one batch per model
        tokens = np.stack([np.asarray(t) for t, _ in batches])
        labels = np.stack([np.asarray(y) for _, y in batches])
        loss, grads, logits = _loss_and_grads(trained, params, tokens, labels)
        if flat is not None:  # the gradients in the order of the flat array
            grads = {"all": np.concatenate([grads[name].ravel() for name in params])}
        adam_step(flat or params, grads, state, lr=lr * (1 - step / steps))  # lr/steps at the last step
        history["loss"][:, step], history["length"][step] = loss, n
        history["accuracy"][:, step] = np.mean(logits.argmax(axis=-1) == labels, axis=-1)
    if model.get("n_models") is None:
        history["loss"], history["accuracy"] = history["loss"][0], history["accuracy"][0]
    return trained, history


def _one_array(params):
    """A copy of ``params`` whose arrays are views of one flat array: ``({"all": flat}, views)``.

    The flat array holds the parameters one after the other, in the order of
    ``params``, so that the gradients, concatenated in the same order, line
    up with it. Parameters of several dtypes (a model put together by hand)
    cannot share one array: then ``(None, copies)``.
    """
    if len({np.asarray(x).dtype for x in params.values()}) > 1:
        return None, {name: np.array(x) for name, x in params.items()}
    flat = np.concatenate([np.ravel(x) for x in params.values()])
    views, start = {}, 0
    for name, x in params.items():
        views[name] = flat[start:start + np.size(x)].reshape(np.shape(x))
        start += np.size(x)
    return {"all": flat}, views


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


def _seeds(seed):
    """``None`` for one seed (an int or a Generator), else the list of seeds of a stack."""
    if isinstance(seed, (numbers.Integral, np.random.Generator)):
        return None
    if isinstance(seed, (str, bytes)) or not isinstance(seed, (Sequence, np.ndarray, range)):
        raise TypeError(
            f"seed must be an integer, a numpy Generator or a sequence of integers "
            f"(one per model of a stack), got {seed!r}"
        )
    seeds = [_checks.integer(f"seed[{i}]", s, minimum=0) for i, s in enumerate(seed)]
    if not seeds:
        raise ValueError("seed must hold at least one seed, got an empty sequence")
    return seeds


def _data_rngs(seed, model):
    """One generator of training data per model."""
    M = model.get("n_models")
    if M is None:
        return [_rng(seed)]
    seeds = None if isinstance(seed, np.random.Generator) else _seeds(seed)
    if seeds is None or len(seeds) != M:
        raise ValueError(
            f"a stack of {M} models needs {M} seeds, one data stream per model "
            f"(for example seed=range({M})), got seed={seed!r}"
        )
    return [np.random.default_rng(s) for s in seeds]


def _stacked(model):
    """The parameters with a leading model axis: a single model is a stack of one (views)."""
    if not isinstance(model, dict) or "params" not in model or "scheme" not in model:
        raise TypeError(f"model must be a dict from init_model or train, got {type(model).__name__}")
    if model.get("n_models") is None:
        return {name: x[None] for name, x in model["params"].items()}
    return model["params"]


def _unstacked(model, x):
    return x[0] if model.get("n_models") is None else x


def _tokens(model, tokens):
    """Token ids of shape (batch, n), or (M, batch, n) for a stack of M models."""
    M = model.get("n_models")
    tokens = _checks.array("tokens", tokens, dtype=None)
    if tokens.ndim != 2 and not (M is not None and tokens.ndim == 3 and len(tokens) == M):
        allowed = "2 dimensions, (batch, n)" + (
            "" if M is None else f", or 3, ({M}, batch, n): one batch per model")
        raise ValueError(f"tokens must have {allowed}; got shape {tokens.shape}")
    if tokens.dtype.kind not in "iu":
        raise TypeError(f"tokens must be integer token ids, got dtype {tokens.dtype}")
    if tokens.shape[-1] == 0:
        raise ValueError(
            f"tokens must hold at least one token per sequence, got shape {tokens.shape}"
        )
    if tokens.shape[-2] == 0:
        raise ValueError(f"tokens must hold at least one sequence, got shape {tokens.shape}")
    vocab_size = model["params"]["E"].shape[-2]
    if tokens.size and (tokens.min() < 0 or tokens.max() >= vocab_size):
        raise ValueError(
            f"tokens must lie in [0, {vocab_size}) (the token table has {vocab_size} rows), "
            f"got values from {tokens.min()} to {tokens.max()}"
        )
    n = tokens.shape[-1]
    if model["scheme"] == "learned" and n > model["params"]["P"].shape[-2]:
        rows = model["params"]["P"].shape[-2]
        raise ValueError(
            f"tokens has length {n}, but the learned position table has only "
            f"{rows} rows (max_len): there is no vector for position {rows}"
        )
    return tokens


def _rope_settings(model):
    """The model's RoPE frequencies (one per pair of a head) and attention factor, checked."""
    d_h = model["params"]["E"].shape[-1] // model["n_heads"]
    inv_freq = model.get("inv_freq")
    inv_freq = frequencies(d_h) if inv_freq is None else _checks.array("inv_freq", inv_freq, ndim=1)
    if inv_freq.shape != (d_h // 2,):
        raise ValueError(
            f"inv_freq must hold one frequency per pair of a head, {d_h // 2} for heads of "
            f"width {d_h}; got shape {inv_freq.shape}"
        )
    factor = _checks.real("attention_factor", model.get("attention_factor", 1.0), positive=True)
    return inv_freq, factor


def _labels(labels, shape, model):
    """Labels of shape ``shape`` (one per sequence, per model), or ``shape[-1:]`` shared by all."""
    value = labels
    try:
        labels = np.asarray(labels)
    except (TypeError, ValueError):  # a ragged list, for example
        labels = np.array(None)  # refused just below
    n_classes = model["params"]["b_out"].shape[-1]
    if labels.shape not in (tuple(shape), tuple(shape[-1:])) or labels.dtype.kind not in "iu":
        raise ValueError(
            f"labels must be {shape[-1]} integers (one per sequence), got {_checks.show(value)}"
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
    if model["scheme"] == "learned" and hi > model["params"]["P"].shape[-2]:
        raise ValueError(
            f"lengths[1] = {hi} is longer than the position table "
            f"(max_len={model['params']['P'].shape[-2]})"
        )
    return lo, hi


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
