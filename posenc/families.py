r"""The position machinery of real model families, written out and checked.

Each function computes one piece of what a family's Hugging Face
Transformers code does with positions, named after the function it
reproduces, and is tested equal to it (Transformers 5.24.0;
``tools/make_models_reference.py`` records the reference values in
``posenc/data/models_reference.json``, which :func:`transformers_reference`
loads). The chapter "Positions in the models you use" derives each one.

The module is called ``families``, not ``models``, so that it is not
mistaken for :mod:`posenc.model`, the book's own tiny model.
"""

from __future__ import annotations

import json
import math
from importlib import resources

import numpy as np

from . import _checks
from .relative import MAX_HEADS

__all__ = [
    "llama_permutation",
    "opt_position_ids",
    "llama4_attention_scale",
    "chunked_causal_mask",
    "deberta_log_buckets",
    "mpt_alibi_slopes",
    "transformers_reference",
]

TRANSFORMERS = "5.24.0"
"""The version of Transformers whose code these functions were checked against."""


def llama_permutation(head_dim, n_heads=1):
    r"""The order in which Llama's conversion puts the query and key features.

    Meta's Llama code turns the pairs :math:`(2i, 2i+1)` of each head
    (interleaved); Transformers' Llama turns the pairs :math:`(i, i + d/2)`
    (``rotate_half``). The conversion script reorders the output features of
    :math:`W_Q` and :math:`W_K` within each head, so that feature
    :math:`j\,d/2 + i` of the new head is feature :math:`2i + j` of the old
    one (:math:`j \in \{0, 1\}`), and the attention scores are unchanged:

    .. math::

        P = [\,0, 2, 4, \dots, d - 2,\; 1, 3, \dots, d - 1\,] \quad \text{(in each head)},
        \qquad \mathrm{rope}_{\text{halves}}(x_{:, P}) = \mathrm{rope}_{\text{interleaved}}(x)_{:, P}.

    Parameters
    ----------
    head_dim : int
        Width :math:`d` of a head, even, at least 2.
    n_heads : int, default 1
        Number of heads whose features are laid out one after the other.

    Returns
    -------
    numpy.ndarray of int, shape ``(n_heads * head_dim,)``
        ``P`` for every head: ``W_q[:, P]`` for queries written ``x @ W_q``,
        as in this book; ``weight[P]`` (the rows) for PyTorch's
        ``nn.Linear``, which stores the transpose.

    Notes
    -----
    ``permute`` in Transformers' ``convert_llama_weights_to_hf.py``,
    ``w.view(n_heads, head_dim // 2, 2, dim).transpose(1, 2)``, checked
    against Meta's ``apply_rotary_emb`` (llama-models 0.3.0) and
    Transformers' ``apply_rotary_pos_emb`` (Llama, Transformers 5.24.0).

    Examples
    --------
    >>> llama_permutation(8)
    array([0, 2, 4, 6, 1, 3, 5, 7])
    >>> llama_permutation(4, n_heads=2)
    array([0, 2, 1, 3, 4, 6, 5, 7])
    """
    head_dim, n_heads = _validate_llama_permutation(head_dim, n_heads)
    one_head = np.concatenate([np.arange(0, head_dim, 2), np.arange(1, head_dim, 2)])
    return (head_dim * np.arange(n_heads)[:, None] + one_head).ravel()


def _validate_llama_permutation(head_dim, n_heads):
    head_dim = _checks.positive_int("head_dim", head_dim)
    if head_dim % 2:
        raise ValueError(f"head_dim must be even (RoPE turns pairs), got {head_dim}")
    n_heads = _checks.positive_int("n_heads", n_heads)
    _checks.entries(f"n_heads * head_dim = {_checks.show(n_heads)} * {_checks.show(head_dim)}",
                    2 * n_heads * head_dim)
    return head_dim, n_heads


def opt_position_ids(attention_mask, *, cache_length=0):
    r"""OPT's position of each token: its count among the real tokens, from 0.

    .. math::

        p_t = \Big(\sum_{s \le t} a_s\Big)\,a_t - 1

    so the real tokens of a left-padded row count from 0 and the pads get
    :math:`-1`. OPT's learned table is looked up at row :math:`p_t + 2`
    (its offset of 2: rows 0 and 1 were reserved by fairseq); a pad lands on
    row 1.

    Parameters
    ----------
    attention_mask : array_like of 0 and 1, shape ``(batch, length)``
        1 for a real token, 0 for a pad.
    cache_length : int, default 0
        Tokens already in the cache: only the positions of the last
        ``length - cache_length`` tokens are returned.

    Returns
    -------
    numpy.ndarray of int, shape ``(batch, length - cache_length)``

    Notes
    -----
    ``OPTLearnedPositionalEmbedding.forward`` (Transformers 5.24.0), which
    returns the table's rows ``p_t + 2``.

    Examples
    --------
    >>> opt_position_ids([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]])
    array([[-1, -1,  0,  1,  2],
           [ 0,  1,  2,  3,  4]])
    >>> opt_position_ids([[0, 0, 1, 1, 1]], cache_length=3)  # the last two
    array([[1, 2]])
    """
    mask, cache_length = _validate_opt_position_ids(attention_mask, cache_length)
    return (np.cumsum(mask, axis=1) * mask - 1)[:, cache_length:]


def _validate_opt_position_ids(attention_mask, cache_length):
    mask = _checks.integer_array("attention_mask", attention_mask, low=0, high=2,
                                 what="1 for a token, 0 for a pad")
    if mask.ndim != 2:
        raise ValueError(f"attention_mask must have 2 dimensions (batch, length), "
                         f"got shape {mask.shape}")
    cache_length = _checks.integer("cache_length", cache_length, minimum=0,
                                   maximum=mask.shape[1])
    return mask, cache_length


def llama4_attention_scale(positions, *, floor_scale=8192, attn_scale=0.1):
    r"""Llama 4's temperature on the queries of its layers without RoPE.

    .. math::

        \tau(m) = 1 + a \ln\!\Big(1 + \Big\lfloor \frac{m + 1}{F} \Big\rfloor\Big)

    with :math:`a` = ``attn_scale`` and :math:`F` = ``floor_scale``.

    The query at position :math:`m` is multiplied by :math:`\tau(m)`: 1 up
    to position ``floor_scale - 2``, then a step up every ``floor_scale``
    positions, so that far-away keys still get sharp attention in a layer
    whose scores carry no position.

    Parameters
    ----------
    positions : array_like of int
        Positions :math:`m` of the queries, from 0 (counting cached tokens).
    floor_scale : float, default 8192
        Length of each step in positions (``config.floor_scale``), at least 1.
    attn_scale : float, default 0.1
        Height of the logarithm (``config.attn_scale``), at least 0.

    Returns
    -------
    numpy.ndarray of float, the shape of ``positions``

    Notes
    -----
    ``Llama4TextAttention.forward`` with ``attn_temperature_tuning`` on a
    layer without RoPE (Transformers 5.24.0). Ministral 3's
    ``llama_4_scaling_beta`` scales its queries by
    :math:`1 + \beta \ln(1 + \lfloor m / L \rfloor)`, which is
    ``llama4_attention_scale(m - 1, floor_scale=L, attn_scale=beta)``.

    Examples
    --------
    >>> llama4_attention_scale([0, 8190, 8191, 16383]).round(4)
    array([1.    , 1.    , 1.0693, 1.1099])
    """
    m, floor_scale, attn_scale = _validate_llama4_attention_scale(positions, floor_scale,
                                                                  attn_scale)
    return 1.0 + attn_scale * np.log1p(np.floor((m + 1.0) / floor_scale))


def _validate_llama4_attention_scale(positions, floor_scale, attn_scale):
    m = _checks.integer_array("positions", positions, low=0, what="positions count from 0")
    floor_scale = _checks.real("floor_scale", floor_scale, at_least=1.0)  # positions per step
    attn_scale = _checks.real("attn_scale", attn_scale, at_least=0.0)
    return m.astype(np.float64), floor_scale, attn_scale


def chunked_causal_mask(n, chunk_size, *, left_padding=0):
    r"""Llama 4's chunked attention: causal, and only within a chunk.

    Query :math:`q` may attend to key :math:`k` if :math:`k \le q` and both
    lie in the same chunk of ``chunk_size`` positions, the chunks counted
    from the first real token:

    .. math::

        \Big\lfloor \frac{k - p}{c} \Big\rfloor = \Big\lfloor \frac{q - p}{c} \Big\rfloor,

    with :math:`p` the number of pads on the left and :math:`c` the chunk size.

    Parameters
    ----------
    n : int
        Sequence length (queries and keys), at least 1.
    chunk_size : int
        Positions per chunk (``config.attention_chunk_size``, 8192 in Llama
        4), at least 1.
    left_padding : int, default 0
        Pads before the first token.

    Returns
    -------
    numpy.ndarray of bool, shape ``(n, n)``
        True where the query (row) may attend to the key (column), as in
        :func:`posenc.causal_mask`.

    Notes
    -----
    ``chunked_causal_mask_function`` of ``transformers.masking_utils``
    (Transformers 5.24.0), which Llama 4's layers with RoPE use.

    Examples
    --------
    >>> chunked_causal_mask(5, 2).astype(int)
    array([[1, 0, 0, 0, 0],
           [1, 1, 0, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 0, 1, 1, 0],
           [0, 0, 0, 0, 1]])
    """
    n, chunk_size, left_padding = _validate_chunked_causal_mask(n, chunk_size, left_padding)
    chunk = (np.arange(n) - left_padding) // chunk_size
    return np.tril(chunk[:, None] == chunk[None, :])


def _validate_chunked_causal_mask(n, chunk_size, left_padding):
    n = _checks.positive_int("n", n)
    # a chunk longer than the sequence is the sequence: clip it, so that it fits in int64
    chunk_size = min(_checks.positive_int("chunk_size", chunk_size), n)
    left_padding = _checks.integer("left_padding", left_padding, minimum=0, maximum=n)
    _checks.entries(f"n ** 2 = {_checks.show(n)} ** 2", 3 * n**2)  # the comparison, the mask
    return n, chunk_size, left_padding


def deberta_log_buckets(relative_positions, *, bucket_size=256, max_position=512):
    r"""DeBERTa's relative positions: exact near, logarithmic far.

    With :math:`h` = ``bucket_size // 2``, a relative position :math:`r`
    with :math:`\lvert r \rvert \le h` is kept; farther ones share buckets whose width
    grows geometrically, up to ``max_position``:

    .. math::

        b(r) = \operatorname{sign}(r)\,\Big(h + \Big\lceil
               \frac{\ln(\lvert r \rvert/h)}{\ln((M - 1)/h)}\,(h - 1) \Big\rceil\Big)
        \quad \text{for } \lvert r \rvert > h,

    with :math:`M` = ``max_position``. Positions beyond :math:`M` go on
    growing slowly; the attention clamps them to the last bucket.

    Parameters
    ----------
    relative_positions : array_like of int
        Query position minus key position (DeBERTa's sign).
    bucket_size : int, default 256
        ``config.position_buckets`` (DeBERTa-v3: 256), even, at least 4.
    max_position : int, default 512
        ``config.max_relative_positions`` (DeBERTa-v3: 512), greater than
        ``bucket_size // 2 + 1``.

    Returns
    -------
    numpy.ndarray of int, the shape of ``relative_positions``

    Notes
    -----
    ``make_log_bucket_position`` of ``transformers.models.deberta_v2``
    (Transformers 5.24.0), in float64 where it computes in float32; the two
    give the same buckets for every :math:`r` from -600 to 600 with
    DeBERTa-v3's settings (``tests/unit/test_families.py``).

    Examples
    --------
    >>> deberta_log_buckets([0, 5, -128, 129, 200, 511, 1000, -1000])
    array([   0,    5, -128,  129,  169,  255,  317, -317])
    """
    r, bucket_size, max_position = _validate_deberta_log_buckets(relative_positions, bucket_size,
                                                                 max_position)
    mid = bucket_size // 2
    far = np.abs(r) > mid
    abs_r = np.where(far, np.abs(r), mid)  # the near ones are not used below
    log_r = np.ceil(np.log(abs_r / mid) / math.log((max_position - 1) / mid) * (mid - 1)) + mid
    return np.where(far, np.sign(r) * log_r, r).astype(np.int64)


def _validate_deberta_log_buckets(relative_positions, bucket_size, max_position):
    r = _checks.integer_array("relative_positions", relative_positions)
    if r.size and np.abs(r.astype(np.float64)).max() > 2**53:
        raise ValueError("relative_positions must be at most 2**53 in size (float64 holds every "
                         "integer up to it)")
    bucket_size = _checks.integer("bucket_size", bucket_size, minimum=4)
    if bucket_size % 2:
        raise ValueError(f"bucket_size must be even (half of it on each side), got {bucket_size}")
    max_position = _checks.integer("max_position", max_position, minimum=bucket_size // 2 + 2,
                                   maximum=2**53)
    return r, bucket_size, max_position


def mpt_alibi_slopes(n_heads, alibi_bias_max=8):
    r"""MPT's ALiBi slopes, from its ``alibi_bias_max``.

    With :math:`N = 2^{\lceil \log_2 n \rceil}` (the power of two at or
    above the head count :math:`n`) and :math:`B` = ``alibi_bias_max``:

    .. math::

        m_k = 2^{-kB/N}, \quad k = 1, \dots, N,

    and for :math:`n < N` the even-numbered slopes :math:`m_2, m_4, \dots`
    first, then :math:`m_1, m_3, \dots`, cut to :math:`n`. With
    :math:`B = 8` these are exactly :func:`posenc.alibi_slopes` (the
    paper's recipe, which BLOOM uses) for every head count, a power of two
    or not: a different route to the same numbers. Another
    ``alibi_bias_max`` changes them.

    Parameters
    ----------
    n_heads : int
        Number of heads, from 1 to 65536.
    alibi_bias_max : float, default 8
        ``attn_config.alibi_bias_max`` of MPT's config, positive.

    Returns
    -------
    numpy.ndarray of shape ``(n_heads,)``

    Notes
    -----
    ``build_mpt_alibi_tensor`` of ``transformers.models.mpt`` (Transformers
    5.24.0), which multiplies these slopes by the key's offset from the last
    position.

    Examples
    --------
    >>> mpt_alibi_slopes(4)
    array([0.25      , 0.0625    , 0.015625  , 0.00390625])
    >>> mpt_alibi_slopes(3)  # N = 4: slopes 2 and 4 first, then 1
    array([0.0625    , 0.00390625, 0.25      ])
    """
    n, bias_max = _validate_mpt_alibi_slopes(n_heads, alibi_bias_max)
    power = 2 ** math.ceil(math.log2(n))
    slopes = 2.0 ** (-np.arange(1, power + 1) * (bias_max / power))
    return slopes if power == n else np.concatenate([slopes[1::2], slopes[::2]])[:n]


def _validate_mpt_alibi_slopes(n_heads, alibi_bias_max):
    n = _checks.positive_int("n_heads", n_heads)
    if n > MAX_HEADS:
        raise ValueError(f"n_heads must be at most {MAX_HEADS} (models use tens of heads), "
                         f"got {_checks.show(n)}")
    return n, _checks.real("alibi_bias_max", alibi_bias_max, positive=True)


def transformers_reference():
    """What Transformers 5.24.0 computes, as ``tools/make_models_reference.py`` recorded it.

    Returns
    -------
    dict
        A fresh copy each call: ``versions`` (torch, transformers);
        ``configs``, one case per configuration class of
        ``transformers.CONFIG_MAPPING`` at its defaults (and per layer type),
        each with its ``rope_parameters``, ``head_dim``, ``rotary_class``,
        the family's own ``inv_freq`` and ``attention_factor``; ``longrope``
        (Phi-3); and the small reference outputs of the other families.

    Examples
    --------
    >>> reference = transformers_reference()
    >>> reference["versions"]["transformers"]
    '5.24.0'
    >>> llama = next(c for c in reference["configs"] if c["config_class"] == "LlamaConfig")
    >>> llama["rope_parameters"], llama["head_dim"], len(llama["inv_freq"])
    ({'rope_theta': 10000.0, 'rope_type': 'default'}, 128, 64)
    """
    text = resources.files(__package__).joinpath("data", "models_reference.json").read_text()
    reference = json.loads(text)
    ladders = reference.pop("ladders")
    for case in reference["configs"]:
        case["inv_freq"] = ladders[case["inv_freq"]]
    return reference
