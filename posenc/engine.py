r"""The fast engine of the tiny model: the same numbers as its definition, sooner.

:func:`posenc.model.forward_by_definition` is the model, written as its
formula: it forms every query, key and value, head by head, with
:func:`posenc.attention`. This module computes the same logits in other
ways, several times faster, because numpy spends most of the time of such
tiny models on calling functions (a test proves the two equal for every
scheme). What it does differently:

* it computes the query, key and value of every (position, token) pair once
  per batch, a table, and looks them up for each sequence;
* it runs a stack of models side by side, as one batch of arrays;
* it computes only the rows of the attention that the readout reads, and
  for :func:`posenc.model.forward` what the readout takes from each value
  without the attention matrices;
* it reads the cosines and sines of a turned scheme off the scheme's own
  turn of the pairs (1, 0), and keeps every table that depends only on the
  length and the settings.

It lives apart from ``posenc.model`` so that the model reads as its
definition; ``posenc.backward`` differentiates this forward pass. Nothing
here is public.
"""

from __future__ import annotations

import functools

import numpy as np

from .attention import _SAFE_SUM, _softmax_scores, causal_mask
from .rotary import _turn
from .schemes import SCHEMES

# forward() cuts a batch so that the scores of a piece hold about this many
# numbers: 4 MB in float32. On two cores of an AMD EPYC, chapters 4 and 6 ran
# about 11% faster than with 16 MB pieces (2**22), chapter 8 about 5%, and
# chapters 7 and 10 within the spread of repeated runs; every output the same.
# Any piece size gives the same logits, bit for bit (tests/unit/test_model.py).
CHUNK_ENTRIES = 2**20


def forward(model, p, tokens, *, all_rows=False, weights=True):
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

    With ``weights=False`` (:func:`posenc.model.forward`: logits only) the attention
    matrices are not kept, and :func:`read_out` computes what the readout
    takes from each value more directly; the cache is then ``None``.
    """
    scheme, n_heads = SCHEMES[model["scheme"]], model["n_heads"]
    M, vocab_size, d_model = p["E"].shape
    d_h, dtype, n = d_model // n_heads, p["E"].dtype, tokens.shape[-1]

    W = np.concatenate([p["W_q"], p["W_k"], p["W_v"]], axis=-1)  # (M, d, 3 d), as nanoGPT's c_attn
    table = (p["E"] @ W)[:, None]  # (M, 1, V, 3 d): q, k, v of each token, E[t] W
    position = positions(model, p, n, dtype)  # p_i, (M or 1, n, d), or None
    if position is not None:  # + p_i W, for every position: (M, n, V, 3 d)
        table = table + (position @ W)[:, :, None]
    if scheme.turned:  # turn each pair of the q and k of position i (RoPE: by i * inv_freq[c])
        cos, sin = turns(model, n, dtype)  # (n, 2 d)
        table = np.broadcast_to(table, (M, n, vocab_size, 3 * d_model)).copy()
        table[..., :2 * d_model] = _turn(table[..., :2 * d_model], cos[:, None], sin[:, None])
    # one table each for q, k and v, per head: (M, H, n or 1, V, d_h)
    n_table = table.shape[1]
    table = table.reshape(M, n_table, vocab_size, 3, n_heads, d_h).transpose(3, 0, 4, 1, 2, 5)
    q_table, k_table, v_table = moved(table)
    first, r = read_rows(model, n, dtype, all_rows)  # the readout reads rows first..n-1
    if not weights:  # logits only
        # Sequences do not interact, so a large batch runs in pieces: the same logits,
        # but the (M, chunk, n_heads, rows, n) temporaries stay small enough to be fast.
        chunk = max(1, CHUNK_ENTRIES // (M * n_heads * (n - first) * n))
        pooled = np.concatenate([read_out(model, p, q_table, k_table, v_table, tokens[..., i:i + chunk, :],
                                          first, r) for i in range(0, tokens.shape[-2], chunk)], axis=1)
        return pooled @ p["W_out"] + p["b_out"][:, None, :], None
    q = look_up(q_table, tokens, first)  # (M, batch, H, rows, d_h)
    q /= np.sqrt(d_h, dtype=dtype)
    k, v = look_up(k_table, tokens), look_up(v_table, tokens)  # (M, batch, H, n, d_h)
    # numpy multiplies a stack of small matrices much faster when each operand
    # is stored in the order the product reads it: hence k transposed, in a copy
    S = q @ np.ascontiguousarray(np.swapaxes(k, -1, -2))  # (M, batch, H, rows, n): q_i . k_j / sqrt(d_h)
    if scheme.bias:  # ALiBi's penalties, (H, n, n)
        S += scheme.bias(model, n, dtype)[..., first:, :]
    if scheme.bias_table:  # T5's trained bias, (M, 1, H, n, n)
        S += trained_bias(model, p, n)[:, None, :, first:, :]
    if model["causal"]:  # -inf above the diagonal
        S += causal_bias(n, dtype)[first:]
    A = _softmax_scores(S)
    a_bar = r @ A  # (M, batch, H, n): how much the readout takes from each value
    pooled = (a_bar[..., None, :] @ v).reshape(M, -1, d_model)  # = sum_i r_i o_i, heads side by side
    logits = pooled @ p["W_out"] + p["b_out"][:, None, :]
    return logits, {"q": q, "k": k, "v": v, "A": A, "a_bar": a_bar, "pooled": pooled,
                    "first": first, "r": r, "W": W, "position": position}


def read_out(model, p, q_table, k_table, v_table, tokens, first, r):
    """What the readout averages, :math:`\\bar o = \\sum_j \\bar a_j v_j`, without keeping :math:`A`.

    :func:`posenc.model.forward` needs only the logits, so it computes :math:`\\bar a = r A`
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
    q = look_up(q_table, tokens, first)  # (M, batch, H, rows, d_h)
    q /= np.sqrt(d_h, dtype=dtype)
    k, v = look_up(k_table, tokens), look_up(v_table, tokens)  # (M, batch, H, n, d_h)
    # B transposed, keys down and rows across: (M or 1, 1, H or 1, n, rows)
    bias = np.zeros((1, 1, 1, n, n - first), dtype=dtype)
    if scheme.bias:
        bias = bias + np.swapaxes(scheme.bias(model, n, dtype)[..., first:, :], -1, -2)
    if scheme.bias_table:
        bias = bias + np.swapaxes(trained_bias(model, p, n)[:, None, :, first:, :], -1, -2)
    if model["causal"]:
        bias = bias + causal_bias(n, dtype)[first:].T
    biased = scheme.bias or scheme.bias_table or model["causal"]
    qT = np.ascontiguousarray(np.swapaxes(q, -1, -2))

    def scores():  # (M, batch, H, n, rows)
        T = k @ qT
        if biased:
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
            redo = k[m, b, h] @ qT[m, b, h] + bias[m % len(bias), 0, h % bias.shape[2]]
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


def turns(model, n, dtype):
    """The cosine and sine of each pair's turn at every position, for the q and k of every head: ``(n, 2 d)``.

    A turn by the angle :math:`\\phi` takes the pair :math:`(1, 0)` to
    :math:`(\\cos\\phi, \\sin\\phi)`: the scheme's own ``turned``,
    applied to pairs :math:`(1, 0)` at every position, in float64, gives
    them (times the scheme's scale), each pair's value then twice, in every
    head, for q and then for k. Kept for the next call with the same length
    and settings.
    """
    key = (model["scheme"], n, model["n_heads"], model["params"]["E"].shape[-1], np.dtype(dtype),
           _settings_key(model))
    if key[-1] is not None and key in _TURNS:
        return _TURNS[key]
    d_model, n_heads = key[3], key[2]
    unit = np.zeros((n, d_model // n_heads))
    unit[:, 0::2] = 1.0  # the pair (1, 0) at every position
    turned = SCHEMES[model["scheme"]].turned(model, unit)  # (n, d_h): (cos, sin) of each pair
    cos, sin = (np.tile(np.repeat(turned[:, c::2], 2, axis=1), 2 * n_heads).astype(dtype)
                for c in (0, 1))
    cos.setflags(write=False)
    sin.setflags(write=False)
    if key[-1] is not None:
        if len(_TURNS) >= 256:
            _TURNS.clear()
        _TURNS[key] = cos, sin
    return cos, sin


_TURNS = {}


def _settings_key(model):
    """The model's settings (every key but its configuration and parameters) as a key, or None."""
    key = []
    for name in sorted(set(model) - _CONFIGURATION, key=str):
        try:
            value = np.asarray(model[name])
        except Exception:  # noqa: BLE001 - no key: the turns are computed afresh
            return None
        if value.dtype.kind == "O":
            return None
        key.append((name, value.dtype.str, value.shape, value.tobytes()))
    return tuple(key)


_CONFIGURATION = {"scheme", "n_heads", "causal", "readout", "max_len", "n_models", "params"}


def trained_bias(model, p, n):
    """The trained bias of each model of the stack, ``B_h[i, j] = R[h, index[i, j]]``: ``(M, H, n, n)``."""
    return p["R"][:, :, SCHEMES[model["scheme"]].bias_index(model, n)]


def positions(model, p, n, dtype):
    """The position vectors p_i added to the input: (1, n, d), (M, n, d) or None."""
    scheme = SCHEMES[model["scheme"]]
    if scheme.table:
        return p["P"][:, :n]
    if scheme.added:
        return scheme.added(model, n, dtype)[None]
    return None


def look_up(table, tokens, first=0):
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


def moved(x, out=None):
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


def read_rows(model, n, dtype, all_rows):
    """Which query rows the readout reads, and its weight r_i on each.

    ``"mean"`` reads all n rows with weight 1/n; ``"last"`` reads row n - 1
    alone, so only its query is computed (unless ``all_rows``, for
    :func:`posenc.model.attention_weights`, where the other rows get weight 0).
    """
    if model["readout"] == "mean":
        return 0, np.full(n, 1 / n, dtype=dtype)
    first = 0 if all_rows else n - 1
    r = np.zeros(n - first, dtype=dtype)
    r[-1] = 1.0
    return first, r


@functools.lru_cache(maxsize=256)
def causal_bias(n, dtype):
    """-inf above the diagonal, 0 elsewhere: (n, n), read-only."""
    bias = np.where(causal_mask(n), 0.0, -np.inf).astype(dtype)
    bias.setflags(write=False)
    return bias

