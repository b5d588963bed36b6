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
from .sinusoidal import frequencies

__all__ = ["rope"]

LAYOUTS = ("interleaved", "halves")


def rope(x, positions=None, *, base=10000.0, layout="interleaved"):
    r"""Rotate every vector of ``x`` by its position (RoPE).

    For each pair ``(a, b)`` of coordinates of the vector at position ``m``:

    .. math::

        \begin{pmatrix} a' \\ b' \end{pmatrix} =
        \begin{pmatrix} \cos m\theta_i & -\sin m\theta_i \\
                        \sin m\theta_i & \cos m\theta_i \end{pmatrix}
        \begin{pmatrix} a \\ b \end{pmatrix},
        \qquad \theta_i = \mathrm{base}^{-2i/d}

    Parameters
    ----------
    x : array_like of shape (..., seq_len, d)
        Queries or keys, one row per position; ``d`` must be even.
    positions : array_like of shape (seq_len,), optional
        Position of each row (default ``0, 1, ..., seq_len - 1``). Any
        real numbers are allowed, for example ``np.arange(5, 10)`` for the
        continuation of a sequence.
    base : float, default 10000.0
        Base of the frequency ladder, as in :func:`posenc.frequencies`.
    layout : {"interleaved", "halves"}, default "interleaved"
        Which dimensions form a pair: ``(2i, 2i+1)`` or ``(i, i + d/2)``.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``. Norms are preserved.

    Raises
    ------
    TypeError
        If ``x`` or ``positions`` is not an array of real numbers (complex
        input is refused, not cast), or ``base`` is not a real number.
    ValueError
        If ``x`` has fewer than 2 axes, ``d`` is odd or 0, ``positions`` is
        not 1-D with ``seq_len`` finite entries, ``base`` is not positive, or
        ``layout`` is unknown.

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
    same attention. For queries ``x @ W_q``, as written in this package,
    that is ``W_q[:, P]``, the columns; PyTorch's ``nn.Linear`` stores the
    transpose, so there it is the rows of ``weight``.

    Examples
    --------
    >>> rope(np.array([[1.0, 0.0], [1.0, 0.0]])).round(4)  # angles 0 and 1
    array([[1.    , 0.    ],
           [0.5403, 0.8415]])
    """
    x = _checks.array("x", x, min_ndim=2)
    seq_len, d = x.shape[-2], x.shape[-1]
    if d % 2 or d == 0:
        raise ValueError(
            f"the last dimension of x must be even and at least 2 to form pairs, got {d}"
        )
    layout = _checks.choice("layout", layout, LAYOUTS)
    if positions is None:
        positions = np.arange(seq_len, dtype=float)
    positions = _checks.array("positions", positions, ndim=1)
    if len(positions) != seq_len:
        raise ValueError(
            f"positions has {len(positions)} entries but x has {seq_len} rows (axis -2)"
        )
    theta = frequencies(d, base=base)  # (d/2,)
    angles = np.outer(positions, theta)  # (seq_len, d/2)
    cos, sin = np.cos(angles), np.sin(angles)

    if layout == "interleaved":
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d // 2], x[..., d // 2 :]
    a_rot = a * cos - b * sin
    b_rot = a * sin + b * cos

    out = np.empty_like(x)
    if layout == "interleaved":
        out[..., 0::2], out[..., 1::2] = a_rot, b_rot
    else:
        out[..., : d // 2], out[..., d // 2 :] = a_rot, b_rot
    return out
