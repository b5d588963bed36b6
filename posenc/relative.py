r"""Relative positions: Shaw et al. (2018), T5 buckets, ALiBi.

Throughout, the relative position of key ``j`` seen from query ``i`` is
``j - i``: negative for keys in the past, positive for keys in the future.
"""

from __future__ import annotations

import math

import numpy as np

from . import _checks

__all__ = ["relative_positions", "t5_bucket", "alibi_slopes", "alibi_bias"]

# The most ALiBi heads alibi_slopes computes. Models use tens of heads
# (BLOOM-176B, trained with ALiBi, has 112); the reference recursion in plain Python
# floats takes about 10 ms for 2**16 heads, and seconds for millions.
MAX_HEADS = 2**16

def relative_positions(q_len, k_len, max_distance=None):
    r"""Matrix of relative positions ``j - i``, clipped to ``[-max_distance, max_distance]``.

    This is the index of Shaw et al. (2018): query ``i`` and key ``j`` share
    the learned vector :math:`w_{\mathrm{clip}(j - i,\, k)}`, so all offsets
    beyond ``max_distance`` (their ``k``) share one vector per direction.

    Queries and keys are both numbered from position 0: query ``i`` sits at
    position ``i`` and key ``j`` at position ``j``, also when ``q_len`` and
    ``k_len`` differ. That is not the layout of decoding with a KV cache,
    where the ``q_len`` new queries are the *last* positions of the ``k_len``
    keys; for that case take the last rows of the square matrix,
    ``relative_positions(k_len, k_len)[-q_len:]``.

    Parameters
    ----------
    q_len, k_len : int
        Number of queries (rows) and keys (columns), at least 1, with
        ``2 * q_len * k_len`` within the cap of ``posenc._checks.MAX_ENTRIES``
        (the matrix and its clipped copy).
    max_distance : int or None, default None
        Clip to this distance (at least 0); ``None`` means no clipping.

    Returns
    -------
    numpy.ndarray of int, shape ``(q_len, k_len)``

    Examples
    --------
    >>> relative_positions(3, 5, max_distance=2)
    array([[ 0,  1,  2,  2,  2],
           [-1,  0,  1,  2,  2],
           [-2, -1,  0,  1,  2]])
    >>> relative_positions(5, 5)[-2:]  # two queries at positions 3 and 4 (KV cache)
    array([[-3, -2, -1,  0,  1],
           [-4, -3, -2, -1,  0]])
    """
    q_len, k_len, max_distance = _validate_relative_positions(q_len, k_len, max_distance)
    rel = np.arange(k_len)[None, :] - np.arange(q_len)[:, None]
    if max_distance is not None:
        rel = np.clip(rel, -max_distance, max_distance)
    return rel


def _validate_relative_positions(q_len, k_len, max_distance):
    """The checks of :func:`relative_positions`, and the cap."""
    q_len = _checks.positive_int("q_len", q_len)
    k_len = _checks.positive_int("k_len", k_len)
    _checks.entries(f"q_len * k_len = {_checks.show(q_len)} * {_checks.show(k_len)}",
                    2 * q_len * k_len + q_len + k_len)
    if max_distance is not None:
        max_distance = _checks.integer("max_distance", max_distance, minimum=0)
    return q_len, k_len, max_distance


def t5_bucket(relative_position, *, bidirectional=True, num_buckets=32, max_distance=128):
    r"""T5's bucket index of each relative position (Raffel et al., 2020).

    Half of the buckets hold small distances exactly; the other half cover
    larger distances on a logarithmic scale, and the last of them holds
    every distance from one logarithmic step below ``max_distance`` on,
    however large. In the bidirectional case the buckets are split again
    between keys before and after the query. The arithmetic follows T5's
    reference code (the log ratio is computed in float32 and truncated), so
    the indices match trained T5 checkpoints.

    Parameters
    ----------
    relative_position : int or array_like of int
        Key position minus query position, ``j - i``, of any integer type
        up to ``int64`` and ``uint64``: the extremes of each type land in
        the last bucket of their side, as every distance of
        ``max_distance`` or more does. An empty list gives an empty array.
    bidirectional : bool, default True
        ``True`` for an encoder (both directions); ``False`` for a causal
        decoder, where every future key (``j > i``) falls in bucket 0.
    num_buckets : int, default 32
        Total number of buckets; even when bidirectional, at least 2 (4 when
        bidirectional), at most ``2**62`` (the indices are int64).
    max_distance : int, default 128
        Every distance of ``max_distance`` or more falls in the last bucket;
        at most ``2**62``.
        The last bucket starts earlier, one logarithmic step below
        ``max_distance``: at distance 91 with the defaults, 113 with the
        defaults of a decoder.

    Returns
    -------
    numpy.ndarray of int
        Same shape as ``relative_position`` (a numpy integer for a scalar
        input), values in ``[0, num_buckets)``.

    Notes
    -----
    With the defaults, distances 0 to 7 get their own bucket and the
    logarithmic buckets start at 8, 12, 16, 23, 32, 46, 64 and 91, in each
    direction. Keys in the future use the buckets of the past plus
    ``num_buckets // 2``, and offset 0 counts as the past (bucket 0), so in
    the bidirectional case bucket ``num_buckets // 2`` (16 with the
    defaults) is never returned: the future has one exact distance fewer
    (1 to 7). T5's reference code does the same.

    The arithmetic copies ``_relative_position_bucket`` of Mesh TensorFlow
    and Hugging Face's T5 (log of a float32 ratio, truncation towards zero).
    Where the exact scaled logarithm is a whole number, float64 arithmetic
    can land just below it and truncate to the bucket before: with
    ``num_buckets=18`` it puts distance 8 in bucket 4, while the reference
    and exact arithmetic both give bucket 5.

    Examples
    --------
    >>> t5_bucket(np.arange(-3, 4))
    array([ 3,  2,  1,  0, 17, 18, 19])
    >>> t5_bucket([-200, 200])
    array([15, 31])
    """
    rel, bidirectional, num_buckets, max_distance = _validate_t5_bucket(
        relative_position, bidirectional, num_buckets, max_distance)
    # The distance |rel| as uint64, which holds it for every int64 and uint64:
    # np.abs(int64.min) would wrap round to int64.min. For rel < 0, rel + 1
    # cannot overflow, and |rel + 1| = |rel| - 1 fits in the signed type.
    past = rel < 0
    distance = np.abs(rel + past).astype(np.uint64) + past
    bucket = np.zeros(rel.shape, dtype=np.int64)
    if bidirectional:
        num_buckets //= 2
        bucket += (rel > 0) * num_buckets  # keys after the query use the upper half
        n = distance
    else:
        n = np.where(past, distance, np.uint64(0))  # distance back; future keys count as 0
    max_exact = num_buckets // 2
    # log-spaced buckets for n >= max_exact, in float32 as in T5's code
    ratio = np.log(np.maximum(n, max_exact).astype(np.float32) / np.float32(max_exact))
    scale = np.float32(math.log(max_distance / max_exact))
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):  # handled below
        steps = ratio / scale * np.float32(num_buckets - max_exact)
    # Clip before the integer cast: with huge settings, distances far past the
    # last bucket give steps beyond int64, or inf where scale rounds to 0 (and
    # 0 / 0 = NaN at n = max_exact, which is step 0).
    steps = np.clip(np.nan_to_num(steps, nan=0.0), 0.0, 2.0**62)
    large = np.minimum(max_exact + steps.astype(np.int64), num_buckets - 1)
    small = np.minimum(n, max_exact).astype(np.int64)  # n itself where n < max_exact
    return bucket + np.where(n < max_exact, small, large)


def _validate_t5_bucket(relative_position, bidirectional, num_buckets, max_distance):
    """The checks of :func:`t5_bucket`: integers, and buckets that leave room for the log scale."""
    rel = _checks.integer_array("relative_position", relative_position, dtype=None)
    bidirectional = _checks.boolean("bidirectional", bidirectional)
    num_buckets = _checks.integer(
        "num_buckets", num_buckets, minimum=4 if bidirectional else 2, maximum=2**62
    )
    max_distance = _checks.integer("max_distance", max_distance, minimum=1, maximum=2**62)
    if bidirectional and num_buckets % 2:
        raise ValueError(f"num_buckets must be even when bidirectional, got {num_buckets}")
    max_exact = (num_buckets // 2 if bidirectional else num_buckets) // 2  # per side
    if max_distance <= max_exact:
        raise ValueError(
            f"max_distance must exceed the {max_exact} exactly-represented distances, "
            f"got {max_distance}"
        )
    return rel, bidirectional, num_buckets, max_distance


def alibi_slopes(n_heads):
    r"""ALiBi's head-specific slopes ``m`` (Press et al., 2022).

    For ``n`` a power of two the slopes form the geometric sequence
    :math:`2^{-8/n}, 2^{-16/n}, \dots, 2^{-8}`. For other head counts the
    reference code takes the slopes of the closest smaller power of two and
    adds every other slope of the next power of two.

    Parameters
    ----------
    n_heads : int
        Number of attention heads, from 1 to ``MAX_HEADS`` = 65536. Models
        use tens of heads (BLOOM-176B, trained with ALiBi, has 112); a larger
        count is refused rather than computed for seconds or minutes.

    Returns
    -------
    numpy.ndarray of shape ``(n_heads,)``
        The float64 values of ``get_slopes(n_heads)`` in the paper's
        reference code (which then stores them in float32).

    Examples
    --------
    >>> alibi_slopes(8)
    array([0.5       , 0.25      , 0.125     , 0.0625    , 0.03125   ,
           0.015625  , 0.0078125 , 0.00390625])
    """
    n_heads = _heads(n_heads)
    return np.array(_slopes(n_heads))


def _heads(n_heads):
    n_heads = _checks.positive_int("n_heads", n_heads)
    if n_heads > MAX_HEADS:
        raise ValueError(
            f"n_heads must be at most {MAX_HEADS} (models use tens of heads; BLOOM-176B, "
            f"trained with ALiBi, has 112), got {_checks.show(n_heads)}"
        )
    return n_heads


def _slopes(n):
    """The recursion of ALiBi's reference implementation (plain Python floats)."""

    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + _slopes(2 * closest)[0::2][: n - closest]


def alibi_bias(n_heads, length, *, causal=True):
    r"""ALiBi bias matrices, one per head: :math:`B_h[i, j] = -m_h\,|i - j|`.

    The bias is added to the attention scores; no position is added to the
    embeddings. Farther keys get a larger penalty, and each head has its own
    slope, so some heads look far and some look near.

    Parameters
    ----------
    n_heads : int
        Number of heads, from 1 to 65536 (see :func:`alibi_slopes`).
    length : int
        Sequence length (queries = keys), at least 1, with
        ``(n_heads + 3) * length**2`` within the cap of
        ``posenc._checks.MAX_ENTRIES`` (the bias, and the distances and the
        causal mask it is made from).
    causal : bool, default True
        ``True``: the decoder case of the paper; keys after the query get
        ``-inf`` (the causal mask), so the bias can be used on its own.
        ``False``: the symmetric penalty :math:`-m_h |i - j|` in both directions.

    Returns
    -------
    numpy.ndarray of shape ``(n_heads, length, length)``

    Notes
    -----
    The paper's fairseq code adds :math:`m_h\,j` (the key position) instead
    of :math:`-m_h (i - j)`. The two differ by :math:`m_h\,i`, the same for
    every key of query ``i``, and a softmax ignores a constant added to a
    whole row, so the attention weights are identical.

    Examples
    --------
    >>> alibi_bias(8, 3)[0]  # head 0 of 8 has slope 1/2
    array([[ 0. , -inf, -inf],
           [-0.5,  0. , -inf],
           [-1. , -0.5,  0. ]])
    """
    n_heads, length, causal = _validate_alibi_bias(n_heads, length, causal)
    distance = np.abs(relative_positions(length, length))
    bias = alibi_slopes(n_heads)[:, None, None] * -distance  # int -0 is 0: no -0.0
    if causal:
        future = np.triu(np.ones((length, length), dtype=bool), k=1)
        bias[:, future] = -np.inf
    return bias


def _validate_alibi_bias(n_heads, length, causal):
    """The checks of :func:`alibi_bias`, and the cap."""
    n_heads = _heads(n_heads)
    length = _checks.positive_int("length", length)
    causal = _checks.boolean("causal", causal)
    # large ALiBi models never build the whole bias: BLOOM's code keeps one
    # row per head, m_h * j, and broadcasts it
    _checks.entries(f"n_heads * length**2 = {n_heads} * {_checks.show(length)}**2",
                    (n_heads + 3) * length**2,
                    hint="for longer sequences, add -m * |i - j| block by block with the "
                         "slopes of alibi_slopes")
    return n_heads, length, causal
