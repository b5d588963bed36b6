r"""The tiny attention model of the chapters, trained in NumPy: one stack, five schemes.

One attention layer between an embedding and a linear readout, small
enough to follow line by line:

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
(:math:`r_n = 1`), where a causal language model makes its prediction. The
outputs :math:`o_i` are never formed one by one: :math:`\bar a` says how
much of each value :math:`v_j` reaches the readout.

The position ``scheme`` decides where position enters: the input
(:math:`p_i`), the queries and keys (turned, as RoPE does), or the scores
(:math:`B`). The schemes are the entries of :data:`posenc.schemes.SCHEMES`
("none", "sinusoidal", "learned", "rope", "alibi"); a new one is a new entry
there, not a change here. With ``causal=True``, :math:`B` also holds
:math:`-\infty` above the diagonal.

Every function works on a whole batch at once. The backward pass is in
``posenc.backward``, training in ``posenc.training``, the tasks in ``posenc.tasks``.

**Stacks of models.** ``init_model(..., seed=[0, 1, ..., 7])`` builds eight
models at once: every parameter gets a leading axis of length 8, and
:func:`forward`, :func:`accuracy`, :func:`loss_and_grads` and
:func:`posenc.training.train` run all eight side by side, as one batch of
arrays. Model ``m`` of a stack computes exactly what it would compute
alone; a stack is simply faster than its models one by one, because numpy
spends most of the time of such tiny models on calling functions. The
settings of each scheme (RoPE's frequencies...) are in ``posenc.schemes``.

"""

from __future__ import annotations

import functools

import numpy as np

from . import _checks
from .attention import _SAFE_SUM, _softmax_scores, causal_mask
from .positions2d import _grid
from .rotary import _turn
from .schemes import SCHEMES
from .tables import init_table
from .tasks import ORDER_VOCAB, order_task

__all__ = ["SCHEMES", "READOUTS", "init_model", "unstack", "forward", "attention_weights",
           "accuracy"]

READOUTS = ("mean", "last")

_CHUNK_ENTRIES = 2**22  # forward() cuts a batch so that A holds about this many numbers

#: The largest stack of models, far more than any experiment of the book needs.
MAX_MODELS = 4096


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
    grid=None,
):
    """A fresh model, or a stack of fresh models: configuration and parameters.

    Parameters
    ----------
    scheme : str
        Where position enters: a name of :data:`posenc.schemes.SCHEMES`
        ("none", "sinusoidal", "learned", "rope" or "alibi").
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
    dtype : np.float32 or np.float64, default np.float64
        Precision of the parameters and of every computation with them
        (float32 trains as well, and faster). The initial values are drawn
        in float64 and rounded, so both start from the same model.
    seed : int, numpy.random.Generator, or sequence of int, default 0
        One seed: one model. A sequence of ``M`` seeds: a *stack* of ``M``
        models, trained side by side; every parameter gets a leading axis of
        length ``M``, and model ``m`` of the stack is exactly the model
        ``init_model(..., seed=seeds[m])``. Models of every scheme with
        the same seed and sizes start from the same ``E``, ``W_q``,
        ``W_k``, ``W_v`` and ``W_out`` (the learned table is drawn last),
        so that schemes can be compared seed by seed.
    grid : (int, int), optional
        ``(height, width)`` of a grid of patches read row by row, for the
        schemes that place tokens on a grid (``"sinusoidal_2d"``,
        ``"rope_2d"``; chapter 8): token ``i`` is the patch in row
        ``i // width``, column ``i % width``, and sequences must have
        ``height * width`` tokens. Stored as ``model["grid"]``, which can be
        changed on a trained model: ``dict(model, grid=(6, 6))``.

    Returns
    -------
    dict
        ``{"scheme", "n_heads", "causal", "readout", "max_len",
        "n_models", "params"}``; ``n_models`` is ``None`` for a single
        model and ``M`` for a stack. ``params`` maps ``"E"`` (tokens),
        ``"P"`` (positions, ``"learned"`` only), ``"W_q"``, ``"W_k"``,
        ``"W_v"``, ``"W_out"`` and ``"b_out"`` to arrays. A scheme's own
        settings (RoPE's ``"inv_freq"`` and ``"attention_factor"``, see
        ``posenc.schemes``) and ``"grid"`` are keys of the dict too.

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
    if dtype not in (np.float32, np.float64):
        raise ValueError(
            f"dtype must be np.float32 or np.float64, got {dtype}: in float16 the model's "
            "training fails (Adam's squared gradients underflow to 0, and its scores and "
            "exponentials overflow past 65504)"
        )
    if d_model % n_heads:
        raise ValueError(f"n_heads must divide d_model, got n_heads={n_heads}, d_model={d_model}")
    kind = SCHEMES[scheme]
    settings = kind.settings(d_model, n_heads) if kind.settings else {}
    seeds = _checks.seeds(seed, most=MAX_MODELS)
    _checks.entries(f"models * (vocab_size + max_len + 4 * d_model) * d_model",
                    (len(seeds) if seeds else 1) * (vocab_size + max_len + 4 * d_model) * d_model)

    def draw(rng):  # the parameters of one model, in a fixed order
        E = init_table(vocab_size, d_model, std=token_std, seed=rng)
        W = {name: rng.normal(0.0, d_model**-0.5, size=(d_model, d_model))
             for name in ("W_q", "W_k", "W_v")}
        W_out = rng.normal(0.0, d_model**-0.5, size=(d_model, n_classes))
        params = {"E": E}
        if kind.table:  # drawn last: every scheme starts from the same E and W for a seed
            params["P"] = init_table(max_len, d_model, std=position_std, seed=rng)
        return {**params, **W, "W_out": W_out, "b_out": np.zeros(n_classes)}

    if seeds is None:  # one model
        params = {name: x.astype(dtype) for name, x in draw(_checks.rng(seed)).items()}
    else:  # a stack: model m is drawn exactly as init_model(..., seed=seeds[m])
        models = [draw(_checks.rng(s)) for s in seeds]
        params = {name: np.stack([m[name] for m in models]).astype(dtype) for name in models[0]}
    model = {"scheme": scheme, "n_heads": n_heads, "causal": causal, "readout": readout,
             "max_len": max_len, "n_models": None if seeds is None else len(seeds),
             "params": params, **settings}
    if grid is not None:  # the grid of the 2-D schemes (chapter 8)
        model["grid"] = _grid("grid", grid)
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
    with np.errstate(all="ignore"):  # an overflow is reported just below, by name
        logits, _ = _forward(model, params, tokens, weights=False)
    _finite(model, logits)
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
    with np.errstate(all="ignore"):  # an overflow is reported just below, by name
        logits, cache = _forward(model, params, tokens, all_rows=True)
    _finite(model, logits)
    return _unstacked(model, cache["A"])


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


def _forward(model, p, tokens, *, all_rows=False, weights=True):
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

    With ``weights=False`` (:func:`forward`: logits only) the attention
    matrices are not kept, and :func:`_read_out` computes what the readout
    takes from each value more directly; the cache is then ``None``.
    """
    scheme, n_heads = SCHEMES[model["scheme"]], model["n_heads"]
    M, vocab_size, d_model = p["E"].shape
    d_h, dtype, n = d_model // n_heads, p["E"].dtype, tokens.shape[-1]

    W = np.concatenate([p["W_q"], p["W_k"], p["W_v"]], axis=-1)  # (M, d, 3 d), as nanoGPT's c_attn
    table = (p["E"] @ W)[:, None]  # (M, 1, V, 3 d): q, k, v of each token, E[t] W
    position = _positions(model, p, n, dtype)  # p_i, (M or 1, n, d), or None
    if position is not None:  # + p_i W, for every position: (M, n, V, 3 d)
        table = table + (position @ W)[:, :, None]
    if scheme.turned:  # turn each pair of the q and k of position i (RoPE: by i * inv_freq[c])
        cos, sin = scheme.turned(model, n, dtype)  # (n, 2 d)
        table = np.broadcast_to(table, (M, n, vocab_size, 3 * d_model)).copy()
        table[..., :2 * d_model] = _turn(table[..., :2 * d_model], cos[:, None], sin[:, None])
    # one table each for q, k and v, per head: (M, H, n or 1, V, d_h)
    n_table = table.shape[1]
    table = table.reshape(M, n_table, vocab_size, 3, n_heads, d_h).transpose(3, 0, 4, 1, 2, 5)
    q_table, k_table, v_table = _moved(table)
    first, r = _read_rows(model, n, dtype, all_rows)  # the readout reads rows first..n-1
    if not weights:  # logits only
        # Sequences do not interact, so a large batch runs in pieces: the same logits,
        # but the (M, chunk, n_heads, rows, n) temporaries stay small enough to be fast.
        chunk = max(1, _CHUNK_ENTRIES // (M * n_heads * (n - first) * n))
        pooled = np.concatenate([_read_out(model, q_table, k_table, v_table, tokens[..., i:i + chunk, :],
                                           first, r) for i in range(0, tokens.shape[-2], chunk)], axis=1)
        return pooled @ p["W_out"] + p["b_out"][:, None, :], None
    q = _look_up(q_table, tokens, first)  # (M, batch, H, rows, d_h)
    q /= np.sqrt(d_h, dtype=dtype)
    k, v = _look_up(k_table, tokens), _look_up(v_table, tokens)  # (M, batch, H, n, d_h)
    # numpy multiplies a stack of small matrices much faster when each operand
    # is stored in the order the product reads it: hence k transposed, in a copy
    S = q @ np.ascontiguousarray(np.swapaxes(k, -1, -2))  # (M, batch, H, rows, n): q_i . k_j / sqrt(d_h)
    if scheme.bias:  # ALiBi's penalties, (H, n, n)
        S += scheme.bias(model, n, dtype)[..., first:, :]
    if model["causal"]:  # -inf above the diagonal
        S += _causal_bias(n, dtype)[first:]
    A = _softmax_scores(S)
    a_bar = r @ A  # (M, batch, H, n): how much the readout takes from each value
    pooled = (a_bar[..., None, :] @ v).reshape(M, -1, d_model)  # = sum_i r_i o_i, heads side by side
    logits = pooled @ p["W_out"] + p["b_out"][:, None, :]
    return logits, {"q": q, "k": k, "v": v, "A": A, "a_bar": a_bar, "pooled": pooled,
                    "first": first, "r": r, "W": W, "position": position}


def _read_out(model, q_table, k_table, v_table, tokens, first, r):
    """What the readout averages, :math:`\\bar o = \\sum_j \\bar a_j v_j`, without keeping :math:`A`.

    :func:`forward` needs only the logits, so it computes :math:`\\bar a = r A`
    more directly than the training's forward pass. The scores are computed
    transposed, ``T[j, i]`` = :math:`S_{ij}` (keys down, rows across); each
    matrix is shifted by its largest score and exponentiated in place, and
    then :math:`\\bar a_j = \\sum_i w_i e^{S_{ij} - m}` with
    :math:`w_i = r_i / \\sum_l e^{S_{il} - m}`: the rows of :math:`A` are
    never divided one by one. A matrix with a row far below its largest
    score, whose exponentials underflow, is computed again with every row
    shifted by its own largest score (a maximum down the columns of ``T``).
    The same numbers as ``r @ A`` up to rounding, and each sequence's
    whatever else is in the batch. Returns ``(M, batch, d_model)``.
    """
    scheme, n = SCHEMES[model["scheme"]], tokens.shape[-1]
    M, n_heads, _, _, d_h = q_table.shape
    dtype = q_table.dtype
    q = _look_up(q_table, tokens, first)  # (M, batch, H, rows, d_h)
    q /= np.sqrt(d_h, dtype=dtype)
    k, v = _look_up(k_table, tokens), _look_up(v_table, tokens)  # (M, batch, H, n, d_h)
    bias = np.zeros((1, n, n - first), dtype=dtype)  # B transposed: keys down, rows across
    if scheme.bias:
        bias = bias + np.swapaxes(scheme.bias(model, n, dtype)[..., first:, :], -1, -2)
    if model["causal"]:
        bias = bias + _causal_bias(n, dtype)[first:].T
    qT = np.ascontiguousarray(np.swapaxes(q, -1, -2))

    def scores():  # (M, batch, H, n, rows)
        T = k @ qT
        if scheme.bias or model["causal"]:
            T += bias
        return T

    T = scores()
    T -= T.max(axis=(-2, -1), keepdims=True)  # each matrix's largest score
    np.exp(T, out=T)
    ones = np.ones((1, n), dtype=dtype)
    sums = ones @ T  # (M, batch, H, 1, rows)
    low = ~np.all(sums > _SAFE_SUM[dtype.char], axis=(-2, -1))  # (M, batch, H)
    if low.any():  # those matrices again, each row shifted by its own largest score
        few = 8 * low.sum() < low.size
        if few:  # one by one
            m, b, h = np.nonzero(low)
            redo = k[m, b, h] @ qT[m, b, h] + bias[h % len(bias)]
        else:  # all of them, keeping those
            redo = scores()
        redo -= redo.max(axis=-2, keepdims=True)
        np.exp(redo, out=redo)
        if few:
            T[m, b, h] = redo
        else:
            np.copyto(T, redo, where=low[..., None, None])
        sums = ones @ T
    w = r / sums
    a_bar = T @ np.swapaxes(w, -1, -2)  # (M, batch, H, n, 1)
    return (np.swapaxes(a_bar, -1, -2) @ v).reshape(M, -1, n_heads * d_h)


def _positions(model, p, n, dtype):
    """The position vectors p_i added to the input: (1, n, d), (M, n, d) or None."""
    scheme = SCHEMES[model["scheme"]]
    if scheme.table:
        return p["P"][:, :n]
    if scheme.added:
        return scheme.added(model, n, dtype)[None]
    return None


def _look_up(table, tokens, first=0):
    """``table[m, h, i, x[m, b, i]]`` for every model, sequence, head and position ``i >= first``.

    ``table`` is ``(M, H, n or 1, V, w)``; with one row it serves every
    position. Returns ``(M, batch, H, n - first, w)``. (One flat index and
    ``np.take`` are faster than four index arrays.)
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
    numpy rearranges an array faster when each such row is
    one item of ``d_h * itemsize`` bytes than when it is ``d_h`` floats:
    hence the ``np.void`` views. The numbers are copied untouched.
    """
    as_items = np.dtype((np.void, x.shape[-1] * x.itemsize))
    if out is None:
        out = np.empty(x.shape, dtype=x.dtype)
    out.view(as_items)[..., 0] = x.view(as_items)[..., 0]
    return out


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


@functools.lru_cache(maxsize=256)
def _causal_bias(n, dtype):
    """-inf above the diagonal, 0 elsewhere: (n, n), read-only."""
    bias = np.where(causal_mask(n), 0.0, -np.inf).astype(dtype)
    bias.setflags(write=False)
    return bias


# --- argument checks ------------------------------------------------------------


def _stacked(model):
    """The parameters with a leading model axis: a single model is a stack of one (views)."""
    if not isinstance(model, dict) or "params" not in model or "scheme" not in model:
        raise TypeError(f"model must be a dict from init_model or train, got {type(model).__name__}")
    _checks.choice("model['scheme']", model["scheme"], SCHEMES)
    for name, x in model["params"].items():
        if not (isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float64)):
            raise TypeError(f"model['params'][{name!r}] must be a float32 or float64 numpy array "
                            f"(see init_model's dtype), got {_checks.show(x)}")
        if not np.isfinite(x).all():
            raise ValueError(f"model['params'][{name!r}] must hold only finite numbers (no NaN or inf)")
    if model.get("n_models") is None:
        return {name: x[None] for name, x in model["params"].items()}
    return model["params"]


def _finite(model, *results):
    """Refuse results that overflowed (inf or NaN), naming what can make them so large."""
    if all(np.isfinite(x).all() for x in results):
        return
    largest = max(model["params"], key=lambda name: np.abs(model["params"][name]).max())
    settings = "".join(f", {key} = {_checks.show(model[key])}" for key in ("attention_factor", "inv_freq")
                       if key in model)
    raise ValueError(
        "the model's numbers overflow its dtype (inf or NaN): its parameters or settings are too "
        f"large (largest |entry|: {np.abs(model['params'][largest]).max():.3g}, in params[{largest!r}]"
        f"{settings})"
    )


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
    if SCHEMES[model["scheme"]].table and n > model["params"]["P"].shape[-2]:
        rows = model["params"]["P"].shape[-2]
        raise ValueError(
            f"tokens has length {n}, but the learned position table has only "
            f"{rows} rows (max_len): there is no vector for position {rows}"
        )
    return tokens


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
