r"""Positions when a model generates: a key-value cache, windows, sinks.

A model that generates reads one token at a time. It keeps the keys and
values of the tokens it has read in a **cache**, so that each new token costs
one row of attention instead of a whole new pass; and every way of filling
that cache decides which position each token gets. This module holds the
cache, and the tiny model run through it, that chapter 10 computes with,
each next to the function of Hugging Face Transformers 5.24.0 it equals
(``tests/unit/test_cache.py`` compares them through
``tests/fixtures/generation_reference.json``); the positions and masks of
padded and packed batches, and sliding windows, are in :mod:`posenc.masks`:

==========================  ============================================================
:class:`KVCache`            the keys and values of one attention layer, with an
                            eviction policy: ``"full"``, ``"window"`` (the last
                            ``window`` tokens) or ``"sinks"`` (the first ``sinks``
                            tokens and the most recent ones, StreamingLLM)
:func:`rerotate`            a cached RoPE key moved to another position: a rotation
                            by the difference of the angles
:func:`seen_offsets`        which keys each query sees, and at which offset
==========================  ============================================================

and the tiny model of :mod:`posenc.model` run the way a generating model runs
it: :func:`logits_per_position` reads a whole batch with any position ids
and any mask; :func:`decode` reads one token at a time through a
:class:`KVCache`; :func:`recompute` reads the whole prefix again at every
step, as a model without a cache must. Both count their multiply-adds.
"""

from __future__ import annotations

import numpy as np

from . import _checks
from .attention import attention, causal_mask
from .families import chunked_causal_mask
from .relative import alibi_slopes, t5_bucket
from .rotary import rope
from .schemes import T5_MAX_DISTANCE
from .sinusoidal import frequencies, sinusoidal

__all__ = [
    "POLICIES",
    "KVCache",
    "rerotate",
    "seen_offsets",
    "logits_per_position",
    "decode",
    "recompute",
]

#: The eviction policies of :class:`KVCache`.
POLICIES = ("full", "window", "sinks")

#: Where a query's offsets come from: positions in the text, or places in the cache.
POSITIONS = ("text", "cache")

#: The schemes :func:`logits_per_position` and :func:`decode` run: those of the
#: tiny model that a generating model uses, and T5's bias.
SCHEMES = ("none", "sinusoidal", "learned", "rope", "alibi", "t5")

#: The schemes whose positions enter inside attention, where a cache can
#: give its keys other positions than the text's (StreamingLLM).
RELATIVE = ("none", "rope", "alibi", "t5")


# --- the cache ----------------------------------------------------------------------


class KVCache:
    r"""The keys and values of one attention layer, kept by an eviction policy.

    ``append(key, value)`` adds the next token: its position in the text is
    the number of tokens appended before it. Then the policy evicts:

    * ``"full"``: nothing; the cache holds every token;
    * ``"window"``: all but the last ``window`` tokens (Mistral, Gemma);
    * ``"sinks"``: all but the first ``sinks`` tokens and the last
      ``window - sinks`` (StreamingLLM, Xiao et al., 2024), ``window``
      entries in all.

    A query of the token just appended attends to every entry kept. In a
    full window cache the keys of text positions ``t - window + 1 .. t``
    are kept, exactly the keys that
    ``sliding_window_causal_mask_function(window)`` of Transformers 5.24.0
    lets query ``t`` see. (Transformers' ``DynamicSlidingWindowLayer``
    keeps ``window - 1`` between steps and adds the new token for the
    step: the same keys.)

    Parameters
    ----------
    policy : {"full", "window", "sinks"}, default "full"
    window : int, optional
        How many entries a ``"window"`` or ``"sinks"`` cache holds, at least
        1; not given for ``"full"``.
    sinks : int, default 0
        How many of the first tokens a ``"sinks"`` cache keeps, from 1 to
        ``window - 1`` (the newest token needs a place too); 0 otherwise.

    Attributes
    ----------
    keys, values : numpy.ndarray of shape ``(..., n_kept, d)``
        The kept entries, oldest first (``None`` before the first append).
    positions : numpy.ndarray of int, shape ``(n_kept,)``
        The text position of each kept entry.
    slots : numpy.ndarray of int, shape ``(n_kept,)``
        The place of each entry in the cache, ``0 .. n_kept - 1``: the
        positions StreamingLLM gives them.
    seen : int
        How many tokens have been appended.

    Examples
    --------
    >>> cache = KVCache("sinks", window=4, sinks=1)
    >>> for t in range(7):
    ...     cache.append(np.full(2, t), np.zeros(2))
    >>> cache.positions, cache.slots
    (array([0, 4, 5, 6]), array([0, 1, 2, 3]))
    >>> cache.keys[:, 0]
    array([0., 4., 5., 6.])
    """

    def __init__(self, policy="full", *, window=None, sinks=0):
        self.policy = _checks.choice("policy", policy, POLICIES)
        sinks = _checks.integer("sinks", sinks, minimum=0, maximum=2**62)
        if policy == "full":
            if window is not None:
                raise ValueError(f"a 'full' cache keeps every token: give no window, got {_checks.show(window)}")
        else:
            window = _checks.integer("window", window, minimum=1, maximum=2**62)
        if policy == "sinks" and not 1 <= sinks < window:
            raise ValueError(
                f"sinks must be from 1 to window - 1 = {window - 1} (a 'sinks' cache holds window = "
                f"{window} entries, and the newest token needs one of them), got {sinks}"
            )
        if policy != "sinks" and sinks:
            raise ValueError(f"only a 'sinks' cache keeps sinks, got sinks={sinks} with policy {policy!r}")
        self.window, self.sinks = window, sinks
        self.keys = self.values = None
        self.positions = np.zeros(0, dtype=np.int64)
        self.seen = 0

    def __len__(self):
        return len(self.positions)

    @property
    def slots(self):
        return np.arange(len(self.positions))

    def append(self, key, value):
        """Add the next token's key ``(..., d_k)`` and value ``(..., d_v)``, then evict."""
        key = _checks.array("key", key, min_ndim=1, empty=False)[..., None, :]
        value = _checks.array("value", value, min_ndim=1, empty=False)[..., None, :]
        if key.shape[:-2] != value.shape[:-2]:
            raise ValueError(f"key and value must have the same leading (head) axes, got key "
                             f"{key.shape[:-2]} and value {value.shape[:-2]}")
        if self.keys is not None and (key.shape[:-2] + key.shape[-1:] != self.keys.shape[:-2] + self.keys.shape[-1:]
                                      or value.shape[-1] != self.values.shape[-1]):
            raise ValueError(
                f"every key and value must have the shape of the first: key {self.keys.shape[:-2]}"
                f" + ({self.keys.shape[-1]},), value ({self.values.shape[-1]},) at the end; got "
                f"key {key.shape[:-2] + key.shape[-1:]} and value ({value.shape[-1]},)")
        if self.keys is None:
            self.keys, self.values = key, value
        else:
            self.keys = np.concatenate([self.keys, key], axis=-2)
            self.values = np.concatenate([self.values, value], axis=-2)
        self.positions = np.append(self.positions, self.seen)
        self.seen += 1
        keep = self._kept()
        self.keys, self.values, self.positions = self.keys[..., keep, :], self.values[..., keep, :], self.positions[keep]

    def _kept(self):
        """Which entries the policy keeps: a boolean array over the entries."""
        n = len(self.positions)
        if self.policy == "full" or n <= self.window:
            return np.ones(n, dtype=bool)
        recent = np.arange(n) >= n - (self.window - self.sinks)
        return recent | (self.positions < self.sinks)



# --- RoPE keys that move --------------------------------------------------------


def rerotate(keys, old_positions, new_positions, *, base=None, inv_freq=None, layout="interleaved"):
    r"""Cached RoPE keys moved from ``old_positions`` to ``new_positions``.

    A key rotated at position :math:`a` is :math:`R(a\theta)\,k`; the same key
    at position :math:`b` is :math:`R(b\theta)\,k = R((b - a)\theta)\,R(a\theta)\,k`,
    because rotations of a pair add their angles. So moving a cached key
    is one more rotation, by the difference: ``rope(keys, new - old)``.
    Transformers 4's ``SinkCache`` did this when its window moved on,
    with the cosine and sine of the difference written out,
    :math:`\cos(b - a) = \cos b \cos a + \sin b \sin a` and
    :math:`\sin(b - a) = \sin b \cos a - \cos b \sin a`.

    Parameters
    ----------
    keys : array_like of shape ``(..., n, d)``
        Keys already rotated at ``old_positions``.
    old_positions, new_positions : array_like of shape ``(n,)``
    base, inv_freq, layout
        As in :func:`posenc.rope`: the frequencies the keys were rotated with.

    Returns
    -------
    numpy.ndarray of the shape of ``keys``

    Examples
    --------
    >>> k = np.random.default_rng(0).normal(size=(3, 8))
    >>> moved = rerotate(rope(k, [5, 6, 7]), [5, 6, 7], [1, 2, 3])
    >>> bool(np.allclose(moved, rope(k, [1, 2, 3]), atol=1e-14))
    True
    """
    keys = _checks.real_array("keys", keys, min_ndim=1)
    old = _checks.real_array("old_positions", old_positions, ndim=1).astype(np.float64)
    new = _checks.real_array("new_positions", new_positions, ndim=1).astype(np.float64)
    if old.shape != new.shape:
        raise ValueError(f"old_positions and new_positions must have the same length, "
                         f"got {len(old)} and {len(new)}")
    return rope(keys, new - old, base=base, inv_freq=inv_freq, layout=layout)


# --- what each query sees ---------------------------------------------------------

#: The policies of :func:`seen_offsets`: the cache's, and Llama 4's chunks.
SEEN_POLICIES = (*POLICIES, "chunks")


def seen_offsets(policy, n, *, window=None, sinks=0, chunk=None, positions="text"):
    """Which keys each query sees when ``n`` tokens are read one by one, and at which offset.

    Row ``t`` is the query of token ``t``, read when the cache holds what
    :class:`KVCache` keeps after ``t + 1`` appends. Entry ``[t, j]`` is the
    offset at which that query sees the key of token ``j``, its position
    minus the key's: in the text (``positions="text"``), or in the cache
    (``"cache"``, StreamingLLM's re-assigned positions), and -1 where it does
    not see it. ``"chunks"`` is Llama 4's chunked layer: a window cache of
    ``chunk`` entries (Transformers keeps chunked layers in the same
    ``DynamicSlidingWindowLayer``) read through
    :func:`posenc.chunked_causal_mask`, Llama 4's mask.

    Parameters
    ----------
    policy : {"full", "window", "sinks", "chunks"}
    n : int
        How many tokens are read.
    window, sinks
        As in :class:`KVCache`.
    chunk : int, optional
        The chunk size, for ``"chunks"`` only.
    positions : {"text", "cache"}, default "text"

    Returns
    -------
    numpy.ndarray of int, shape ``(n, n)``

    Examples
    --------
    >>> seen_offsets("sinks", 6, window=3, sinks=1)
    array([[ 0, -1, -1, -1, -1, -1],
           [ 1,  0, -1, -1, -1, -1],
           [ 2,  1,  0, -1, -1, -1],
           [ 3, -1,  1,  0, -1, -1],
           [ 4, -1, -1,  1,  0, -1],
           [ 5, -1, -1, -1,  1,  0]])
    >>> seen_offsets("sinks", 6, window=3, sinks=1, positions="cache")[-1]
    array([ 2, -1, -1, -1,  1,  0])
    """
    policy = _checks.choice("policy", policy, SEEN_POLICIES)
    n = _checks.positive_int("n", n)
    _checks.entries(f"2 * n * n = 2 * {_checks.show(n)} * {_checks.show(n)}", 2 * n * n)
    positions = _checks.choice("positions", positions, POSITIONS)
    if policy == "chunks":
        chunk = _checks.integer("chunk", chunk, minimum=1, maximum=2**62)
        if window is not None or sinks:
            raise ValueError("a 'chunks' layer takes chunk only: its cache is a window of chunk entries")
        cache, mask = KVCache("window", window=chunk), chunked_causal_mask(n, chunk)
    else:
        if chunk is not None:
            raise ValueError(f"chunk is for the policy 'chunks' only, got chunk={_checks.show(chunk)}")
        cache, mask = KVCache(policy, window=window, sinks=sinks), None
    offsets = np.full((n, n), -1, dtype=np.int64)
    for t in range(n):
        cache.append(np.zeros(1), np.zeros(1))
        where = cache.slots if positions == "cache" else cache.positions
        seen = cache.positions if mask is None else cache.positions[mask[t, cache.positions]]
        offsets[t, seen] = where[-1] - where[np.isin(cache.positions, seen)]
    return offsets


# --- the tiny model, run as a generating model runs it ----------------------------------


def _generating_model(model):
    """The tiny model's parameters, checked: one causal model of a scheme this module runs."""
    if not isinstance(model, dict) or "params" not in model or "scheme" not in model:
        raise TypeError(f"model must be a dict from posenc.model.init_model, got {_checks.show(model)}")
    scheme = _checks.choice("model['scheme']", model["scheme"], SCHEMES)
    if model.get("n_models") is not None:
        raise ValueError("model must be one model, not a stack: take one with posenc.model.unstack")
    if not model.get("causal"):
        raise ValueError("model must be causal (init_model(..., causal=True)): a model that "
                         "generates reads each token before the next exists")
    p = model["params"]
    for name, x in p.items():
        if not (isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float64) and np.isfinite(x).all()):
            raise TypeError(f"model['params'][{name!r}] must be a finite float32 or float64 array")
    return scheme, {name: x.astype(np.float64) for name, x in p.items()}


def _inputs(model, p, scheme, tokens, positions):
    """h = E[x] + p_pos for the added schemes, E[x] for the others: (..., n, d)."""
    h = p["E"][tokens]
    if scheme == "learned":
        rows = len(p["P"])
        if positions.max() >= rows:
            raise ValueError(f"positions reach {positions.max()}, but the learned table has only "
                             f"{rows} rows (max_len): there is no vector for position {rows}")
        h = h + p["P"][positions]
    if scheme == "sinusoidal":
        h = h + sinusoidal(int(positions.max()) + 1, h.shape[-1])[positions]
    return h


def _heads(x, n_heads):
    """(..., n, d) -> (..., n_heads, n, d_h)."""
    *lead, n, d = x.shape
    return np.swapaxes(x.reshape(*lead, n, n_heads, d // n_heads), -2, -3)


def _turned(model, x, positions):
    """RoPE as the tiny model applies it: ``attention_factor * rope(x, positions, inv_freq)``."""
    d_h = x.shape[-1]
    inv_freq = model.get("inv_freq")
    inv_freq = frequencies(d_h) if inv_freq is None else inv_freq
    return model.get("attention_factor", 1.0) * rope(x, positions, inv_freq=inv_freq)


def _bias(model, p, scheme, q_positions, k_positions):
    """ALiBi's or T5's bias of each head, ``(n_heads, n_q, n_k)``, from the positions; None for the others."""
    offset = k_positions[None, :] - q_positions[:, None]  # j - i
    if scheme == "alibi":
        return alibi_slopes(model["n_heads"])[:, None, None] * -np.abs(offset)
    if scheme == "t5":  # R[h, bucket(j - i)], the causal buckets of T5's decoder
        R = p["R"]  # (n_heads, num_buckets)
        return R[:, t5_bucket(offset, bidirectional=False, num_buckets=R.shape[1],
                              max_distance=T5_MAX_DISTANCE)]
    return None


def logits_per_position(model, tokens, *, positions=None, mask=None, rows=None):
    r"""The tiny model's logits at every position of a batch, with any position ids and any mask.

    The model of ``posenc.model`` written out through
    :func:`posenc.attention`, with the position of each token given
    (``positions``) instead of ``0, 1, ..., n - 1``, and the mask given
    (``mask``) instead of the causal one:

    .. math::

        h_i = E[x_i] + p_{\mathrm{pos}_i}, \quad
        o_i = \mathrm{Attention}(q_i, k, v;\ \text{mask}_{i\cdot},\ B_{\mathrm{pos}_i,\mathrm{pos}}),
        \quad \mathrm{logits}_i = o_i W_\mathrm{out} + b_\mathrm{out}

    Row ``n - 1`` is what ``posenc.model.forward`` gives a model with
    ``readout="last"``; row ``i`` is what it gives the first ``i + 1``
    tokens. A query that the mask lets see no key (left padding before the
    first token) has no output: its row is NaN.

    Parameters
    ----------
    model : dict
        One causal model of ``posenc.model.init_model`` with scheme
        "none", "sinusoidal", "learned", "rope", "alibi" or "t5" (T5's bias
        ``params["R"]`` read through :func:`posenc.t5_bucket`, causal).
        Computed in float64 whatever the model's dtype.
    tokens : array_like of int, shape ``(batch, n)``
    positions : array_like of int, shape ``(batch, n)`` or ``(n,)``, optional
        The position of each token (default ``0 .. n - 1``).
    mask : array_like of bool, shape ``(batch, n, n)`` or ``(n, n)``, optional
        ``True`` where query ``i`` may see key ``j`` (default: causal).
    rows : array_like of int, optional
        The positions (indices along ``n``) whose logits to compute, for
        example ``[-1]`` for the last only; default all. The other queries
        are not computed at all.

    Returns
    -------
    numpy.ndarray of shape ``(batch, len(rows), n_classes)``

    Examples
    --------
    >>> from posenc.model import init_model, forward
    >>> model = init_model("rope", causal=True, readout="last")
    >>> tokens = [[2, 0, 5, 1]]
    >>> bool(np.allclose(logits_per_position(model, tokens, rows=[-1])[:, 0], forward(model, tokens)))
    True
    """
    scheme, p = _generating_model(model)
    tokens = _checks.integer_array("tokens", tokens, low=0, high=len(p["E"]),
                                   what=f"the token table has {len(p['E'])} rows")
    if tokens.ndim != 2 or tokens.size == 0:
        raise ValueError(f"tokens must have shape (batch, n) with at least one token, got {tokens.shape}")
    batch, n = tokens.shape
    H = model["n_heads"]
    _checks.entries(f"4 * batch * n_heads * n * n = 4 * {batch} * {H} * {n} * {n}",
                    4 * batch * H * n * n)  # scores, weights, mask and bias of every pair
    if positions is None:
        positions = np.arange(n)
    positions = _checks.integer_array("positions", positions, low=0, high=2**40)
    if positions.shape not in ((n,), (batch, n)):
        raise ValueError(f"positions must have shape ({n},) or ({batch}, {n}), got {positions.shape}")
    positions = np.broadcast_to(positions, (batch, n))
    mask = causal_mask(n) if mask is None else mask
    mask = _checks.asarray("mask", mask, "booleans")
    if mask.dtype != bool or mask.shape not in ((n, n), (batch, n, n)):
        raise ValueError(f"mask must be booleans of shape ({n}, {n}) or ({batch}, {n}, {n}), "
                         f"got {_checks.show(mask)}")
    rows = np.arange(n) if rows is None else _checks.integer_array("rows", rows, low=-n, high=n,
                                                                    what=f"the tokens have {n} positions")
    if rows.ndim != 1 or rows.size == 0:
        raise ValueError(f"rows must be a non-empty list of positions, got shape {rows.shape}")
    mask = np.broadcast_to(mask, (batch, n, n))[:, rows]  # (batch, rows, n)
    blind = ~mask.any(axis=-1)  # queries that see no key
    mask = mask | (blind[..., None] & (np.arange(n) == rows[:, None] % n))  # computed, then NaN

    h = _inputs(model, p, scheme, tokens, positions)  # (batch, n, d)
    q, k, v = (_heads(h @ p[name], H) for name in ("W_q", "W_k", "W_v"))  # (batch, H, n, d_h)
    out = np.empty(q.shape[:2] + (len(rows), q.shape[-1]))
    shared = (positions == positions[0]).all()
    for where in positions[:1] if shared else np.unique(positions, axis=0):  # sequences that share them
        same = (positions == where).all(axis=1)
        q_b, k_b = q[same], k[same]
        if scheme == "rope":
            q_b, k_b = _turned(model, q_b, where), _turned(model, k_b, where)
        bias = _bias(model, p, scheme, where[rows], where)
        out[same], _ = attention(q_b[..., rows, :], k_b, v[same], mask=mask[same][:, None], bias=bias)
    o = np.swapaxes(out, 1, 2).reshape(batch, len(rows), -1)  # heads side by side again
    logits = o @ p["W_out"] + p["b_out"]
    logits[blind] = np.nan
    return logits


def _step_cost(d, n_keys, n_heads, n_classes, scheme, turned):
    """Multiply-adds of one query row: q, k, v; RoPE; scores; weighted values; bias; readout.

    ``turned`` vectors of width ``d`` are turned by RoPE: the query and the new key, or
    the query and every cached key.
    """
    cost = 3 * d * d + 2 * d * n_keys + d * n_classes
    if scheme == "rope":
        cost += 2 * d * turned  # a turn costs 2 per coordinate: a cos + b sin
    if scheme == "alibi":
        cost += n_heads * n_keys  # slope times distance
    return cost


def decode(model, tokens, *, policy="full", window=None, sinks=0, positions="text"):
    r"""The tiny model reading one token at a time through a :class:`KVCache`.

    At step :math:`t` the token :math:`x_t` enters at position :math:`t`; its
    query, key and value are computed once, the key and value appended to
    the cache, and the query attends to what the cache keeps:

    * RoPE: with ``positions="text"`` each key is turned at its own position
      before it is cached, and keeps that angle; with ``"cache"`` keys are
      cached unturned and turned at every step by their place in the cache
      (StreamingLLM's positions), the query by the last place;
    * ALiBi and T5: the bias is computed from the positions of the kept
      keys (text or cache) and of the query;
    * sinusoidal and learned: the position entered the input once, and is
      inside every cached key and value (``positions="cache"`` is refused:
      it cannot move them).

    Parameters
    ----------
    model : dict
        As in :func:`logits_per_position`.
    tokens : array_like of int, shape ``(n,)``
        One sequence.
    policy, window, sinks
        As in :class:`KVCache`.
    positions : {"text", "cache"}, default "text"

    Returns
    -------
    logits : numpy.ndarray of shape ``(n, n_classes)``
        Row ``t``: the model's output after reading token ``t``.
    multiply_adds : numpy.ndarray of int, shape ``(n,)``
        Counted at each step: projections :math:`3d^2`, scores and weighted
        values :math:`2 d` per cached key, the readout :math:`d C`, RoPE's
        turns (2 per coordinate turned) and ALiBi's slope times distance
        (one per key and head). Exponentials, sines and look-ups are not
        multiply-adds and are not counted.

    Examples
    --------
    >>> from posenc.model import init_model
    >>> model = init_model("alibi", causal=True, readout="last")
    >>> logits, cost = decode(model, [2, 0, 5, 1])
    >>> bool(np.allclose(logits, recompute(model, [2, 0, 5, 1])[0], atol=1e-12))
    True
    >>> cost  # 3 d^2 + 2 d (t + 1) + d C + H (t + 1), d = 16, C = 2, H = 4
    array([836, 872, 908, 944])
    """
    scheme, p = _generating_model(model)
    tokens = _sequence(p, tokens)
    positions = _checks.choice("positions", positions, POSITIONS)
    if positions == "cache" and scheme not in RELATIVE:
        raise ValueError(
            f"positions='cache' gives cached keys new positions, which only a scheme that applies "
            f"positions inside attention can do ({', '.join(RELATIVE)}); {scheme!r} added each "
            f"position to the input once, and it is inside every cached key and value")
    cache = KVCache(policy, window=window, sinks=sinks)
    H, d = model["n_heads"], p["E"].shape[1]
    n_classes = p["W_out"].shape[1]
    logits, costs = [], []
    for t, token in enumerate(tokens):
        h = _inputs(model, p, scheme, np.array([token]), np.array([t]))  # (1, d)
        q, k, v = (_heads(h @ p[name], H) for name in ("W_q", "W_k", "W_v"))  # (H, 1, d_h)
        if scheme == "rope" and positions == "text":
            q, k = _turned(model, q, [t]), _turned(model, k, [t])  # the key keeps this angle
        cache.append(k[:, 0], v[:, 0])
        where = cache.positions if positions == "text" else cache.slots
        keys = cache.keys
        if scheme == "rope" and positions == "cache":
            q, keys = _turned(model, q, where[-1:]), _turned(model, keys, where)
        bias = _bias(model, p, scheme, where[-1:], where)
        o, _ = attention(q, keys, cache.values, bias=bias)  # (H, 1, d_h)
        logits.append(o.reshape(-1) @ p["W_out"] + p["b_out"])
        costs.append(_step_cost(d, len(cache), H, n_classes, scheme,
                                1 + len(cache) if positions == "cache" else 2))
    return np.array(logits), np.array(costs)


def recompute(model, tokens):
    """The tiny model reading the whole prefix again at every step, as without a cache.

    Step :math:`t` runs :func:`logits_per_position` on tokens ``0 .. t`` and
    keeps the last row. It counts the multiply-adds a forward pass over the
    prefix needs: every token's query, key and value (as every layer but the
    last of a deeper model must), the scores and weighted values of the
    pairs the causal mask allows, :math:`(t+1)(t+2)/2`, and one readout.

    Parameters
    ----------
    model : dict
        As in :func:`logits_per_position`.
    tokens : array_like of int, shape ``(n,)``

    Returns
    -------
    logits : numpy.ndarray of shape ``(n, n_classes)``
    multiply_adds : numpy.ndarray of int, shape ``(n,)``

    Examples
    --------
    >>> from posenc.model import init_model
    >>> recompute(init_model("none", causal=True, readout="last"), [2, 0, 5])[1]
    array([ 832, 1664, 2528])
    """
    scheme, p = _generating_model(model)
    tokens = _sequence(p, tokens)
    H, d = model["n_heads"], p["E"].shape[1]
    n_classes = p["W_out"].shape[1]
    logits, costs = [], []
    for t in range(len(tokens)):
        m = t + 1
        logits.append(logits_per_position(model, tokens[None, :m], rows=[-1])[0, 0])
        pairs = m * (m + 1) // 2
        cost = 3 * d * d * m + 2 * d * pairs + d * n_classes
        if scheme == "rope":
            cost += 4 * d * m
        if scheme == "alibi":
            cost += H * pairs
        costs.append(cost)
    return np.array(logits), np.array(costs)


def _sequence(p, tokens):
    tokens = _checks.integer_array("tokens", tokens, low=0, high=len(p["E"]),
                                   what=f"the token table has {len(p['E'])} rows")
    if tokens.ndim != 1 or tokens.size == 0:
        raise ValueError(f"tokens must be one sequence, shape (n,) with n >= 1, got {tokens.shape}")
    _checks.entries(f"n * n = {tokens.size} * {tokens.size}", tokens.size**2)  # the steps' rows
    return tokens
