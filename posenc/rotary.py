r"""Rotary position embedding, RoPE (Su et al., 2021).

Instead of adding a vector to the input, RoPE rotates each query and key by
an angle proportional to its position. Pair ``i`` of a vector at position
``m`` is turned by the angle :math:`m\,\theta_i`, with
:math:`\theta_i = \mathrm{base}^{-2i/d}` (the frequencies of the sinusoidal
encoding). Because rotations compose, the dot product of a rotated query at
position ``m`` and a rotated key at position ``n`` depends on ``n - m`` only.

Two layouts exist in real code, and they are not interchangeable:

* ``"interleaved"``: pairs are dimensions ``(2i, 2i+1)`` (RoFormer, GPT-J);
* ``"halves"``: pairs are dimensions ``(i, i + d/2)``, the ``rotate_half``
  of GPT-NeoX and Llama.
"""

from __future__ import annotations

import numpy as np

from . import _checks
from .sinusoidal import LAYOUTS, frequencies

__all__ = ["rope"]


def rope(x, positions=None, *, base=None, layout="interleaved", inv_freq=None, rotary_dim=None):
    r"""Rotate every vector of ``x`` by its position (RoPE).

    For each pair ``(a, b)`` of coordinates of the vector at position ``m``:

    .. math::

        \begin{pmatrix} a' \\ b' \end{pmatrix} =
        \begin{pmatrix} \cos m\theta_i & -\sin m\theta_i \\
                        \sin m\theta_i & \cos m\theta_i \end{pmatrix}
        \begin{pmatrix} a \\ b \end{pmatrix},
        \qquad \theta_i = \mathrm{base}^{-2i/d}

    or, with ``inv_freq``, any frequencies :math:`\theta_i` you give (those
    of a context-extension method, from :func:`posenc.rope_frequencies`).
    With ``rotary_dim`` only the first ``rotary_dim`` coordinates of each
    vector turn, as partial rotary (GPT-NeoX, Phi) does; the others pass
    through unchanged, and :math:`d` above is ``rotary_dim``.

    Parameters
    ----------
    x : array_like of shape (..., seq_len, d)
        Queries or keys, one row per position; ``d`` (or ``rotary_dim``)
        must be even.
    positions : array_like of shape (seq_len,), optional
        Position of each row (default ``0, 1, ..., seq_len - 1``). Any
        real numbers are allowed, for example ``np.arange(5, 10)`` for the
        continuation of a sequence.
    base : float, optional
        Base of the frequency ladder, as in :func:`posenc.frequencies`;
        10000.0 when neither ``base`` nor ``inv_freq`` is given.
    layout : {"interleaved", "halves"}, default "interleaved"
        Which dimensions form a pair: ``(2i, 2i+1)`` or ``(i, i + r/2)``,
        with ``r`` the rotated width (``d``, or ``rotary_dim``).
    inv_freq : array_like of shape (r // 2,), optional
        The frequency :math:`\theta_i` of each pair, in radians per
        position, instead of the ladder of ``base`` (give one or the other).
    rotary_dim : int, optional
        How many leading coordinates turn: even, from 2 to ``d``
        (Transformers' ``rotary_dim``, ``int(head_dim *
        partial_rotary_factor)``). ``None`` turns all ``d``.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``. float16, float32 and float64 keep their dtype
        (float32 stays float32); integers, and floats wider than float64,
        give float64. The angles and the rotation are computed in float64
        and rounded once, at the end; a result too large for the dtype is
        refused by name, not returned as inf. Norms are preserved.

    Notes
    -----
    ``layout="interleaved"`` computes what RoFormer, GPT-J
    (``rotate_every_two``) and Meta's original LLaMA code (complex
    multiplication of ``(x[2i], x[2i+1])``) compute; ``layout="halves"`` is
    the ``rotate_half`` of GPT-NeoX and of the Hugging Face Llama port. With
    ``P = [0, 2, 4, ..., 1, 3, 5, ...]``,
    ``rope(x[..., P], layout="halves") == rope(x)[..., P]``: Hugging Face's
    Llama conversion script reorders the output coordinates of the query and
    key projections by ``P`` (within each head) so that both codes give the
    same attention (:func:`posenc.llama_permutation`). For queries
    ``x @ W_q``, as written in this package, that is ``W_q[:, P]``, the
    columns; PyTorch's ``nn.Linear`` stores the transpose, so there it is
    the rows of ``weight``.

    Examples
    --------
    >>> rope(np.array([[1.0, 0.0], [1.0, 0.0]])).round(4)  # angles 0 and 1
    array([[1.    , 0.    ],
           [0.5403, 0.8415]])
    >>> rope(np.array([[1.0, 0.0], [1.0, 0.0]]), inv_freq=[0.5]).round(4)
    array([[1.    , 0.    ],
           [0.8776, 0.4794]])
    >>> rope(np.ones((3, 2), dtype=np.float32)).dtype
    dtype('float32')
    >>> rope(np.ones((2, 4)), rotary_dim=2).round(4)  # the last two pass through
    array([[ 1.    ,  1.    ,  1.    ,  1.    ],
           [-0.3012,  1.3818,  1.    ,  1.    ]])
    """
    x, positions, theta, layout, r, out_dtype = _validate_rope(x, positions, base, layout,
                                                               inv_freq, rotary_dim)
    angles = np.outer(positions, theta)  # (seq_len, r/2): m theta_i
    cos, sin = _per_coordinate(np.cos(angles), layout), _per_coordinate(np.sin(angles), layout)
    with np.errstate(over="ignore", invalid="ignore"):  # too large: refused by _fits
        turned = _turn(x[..., :r], cos, sin, layout)
    out = np.concatenate([turned, x[..., r:]], axis=-1)  # the rest passes through
    return _fits(out, out_dtype, x)


def _validate_rope(x, positions, base, layout, inv_freq, rotary_dim):
    """Check the arguments of :func:`rope`.

    Returns ``(x, positions, theta, layout, rotary_dim, out_dtype)``: ``x``
    and ``positions`` as float64, the frequency of each rotated pair, the
    layout, the rotated width and the dtype of the result.
    """
    x = _checks.real_array("x", x, min_ndim=2)
    out_dtype = x.dtype if x.dtype in (np.float16, np.float32, np.float64) else np.dtype(np.float64)
    x = x.astype(np.float64, copy=False)
    seq_len, d = x.shape[-2], x.shape[-1]
    if rotary_dim is None:
        if d % 2 or d == 0:
            raise ValueError(
                f"the last dimension of x must be even and at least 2 to form pairs, got {d}"
            )
        r = d
    else:
        r = _checks.integer("rotary_dim", rotary_dim, minimum=2, maximum=max(d, 2))
        if r % 2:
            raise ValueError(f"rotary_dim must be even (RoPE turns pairs), got {r}")
    layout = _checks.choice("layout", layout, LAYOUTS)
    if positions is None:
        positions = np.arange(seq_len, dtype=float)
    positions = _checks.real_array("positions", positions, ndim=1).astype(np.float64)
    if len(positions) != seq_len:
        raise ValueError(
            f"positions has {len(positions)} entries but x has {seq_len} rows (axis -2)"
        )
    if inv_freq is None:
        theta = frequencies(r, base=10000.0 if base is None else base)  # (r/2,)
    elif base is not None:
        raise ValueError(
            f"give either base or inv_freq, not both (got base={base!r}): "
            f"inv_freq already fixes every frequency"
        )
    else:
        theta = _checks.real_array("inv_freq", inv_freq, ndim=1).astype(np.float64)
        if len(theta) != r // 2:
            width = f"x of width {d}" if rotary_dim is None else f"rotary_dim={r}"
            hint = ("; to turn only part of each vector, pass rotary_dim=2 * len(inv_freq)"
                    if rotary_dim is None and 0 < len(theta) < d // 2 else "")
            raise ValueError(
                f"inv_freq must hold one frequency per pair, d // 2 = {r // 2} "
                f"for {width}, got {len(theta)}{hint}"
            )
    with np.errstate(over="ignore"):  # the largest angle overflows if any does
        largest = np.abs(positions).max(initial=0.0) * np.abs(theta).max(initial=0.0)
    if not np.isfinite(largest):
        raise ValueError(
            "positions times the frequencies overflow float64: every angle "
            "position * theta_i must be finite (check positions and "
            + ("base)" if inv_freq is None else "inv_freq)")
        )
    return x, positions, theta, layout, r, out_dtype


def _fits(out, out_dtype, x):
    """``out`` rounded to ``out_dtype``, or a ValueError by name if it does not fit."""
    with np.errstate(over="ignore", invalid="ignore"):  # reported below, by name
        out = out.astype(out_dtype, copy=False)
    if not np.isfinite(out).all():
        largest = np.finfo(out_dtype).max
        raise ValueError(
            f"x turned by its angles does not fit in {out_dtype} (entries up to "
            f"{np.abs(x).max():.4g}, whose pairs reach up to sqrt(2) times that; the "
            f"largest {out_dtype} is {largest:.4g}): scale x down or pass it in a wider dtype"
        )
    return out


def _per_coordinate(values, layout):
    """One value per pair, ``(..., d/2)``, spread to the two coordinates of the pair, ``(..., d)``."""
    if layout == "interleaved":
        return np.repeat(values, 2, axis=-1)
    return np.concatenate([values, values], axis=-1)


def _turn(x, cos, sin, layout="interleaved"):
    r"""Every pair of the last axis of ``x`` turned by its angle: ``x * cos + swap(x) * sin``.

    ``cos`` and ``sin`` hold each pair's value at both of its coordinates;
    ``swap`` maps each pair :math:`(a, b)` to :math:`(-b, a)`, the pair
    turned by a right angle (GPT-J's ``rotate_every_two``, or GPT-NeoX's
    ``rotate_half`` for the halves layout). Coordinate by coordinate this is
    :math:`(a \cos - b \sin,\; b \cos + a \sin)`, the rotation of
    :func:`rope`. The tiny model of :mod:`posenc.model` turns its queries
    and keys with it too, and turns gradients back with ``-sin``.
    """
    return x * cos + _swap(x, layout) * sin


def _swap(x, layout):
    """Each pair ``(a, b)`` of the last axis made ``(-b, a)``."""
    out = np.empty_like(x)
    if layout == "interleaved":
        np.negative(x[..., 1::2], out=out[..., 0::2])
        out[..., 1::2] = x[..., 0::2]
    else:
        half = x.shape[-1] // 2
        np.negative(x[..., half:], out=out[..., :half])
        out[..., half:] = x[..., :half]
    return out
