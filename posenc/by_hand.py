r"""One entry of the sinusoidal table, computed the way you would by hand.

:func:`explain_entry` writes out every step of

.. math::

    \mathrm{PE}(pos, 2i)   = \sin\!\left(\frac{pos}{\mathrm{base}^{2i/d_{model}}}\right), \qquad
    \mathrm{PE}(pos, 2i+1) = \cos\!\left(\frac{pos}{\mathrm{base}^{2i/d_{model}}}\right)

for one position and one dimension, in the order a learner with a pencil
and a calculator would take them: which pair the dimension belongs to, the
exponent, the divisor, the angle, and finally its sine or cosine. It uses
the ``math`` module on a single number, independently of the vectorised
:func:`posenc.sinusoidal`, so the two can check each other.
"""

from __future__ import annotations

import math

from . import _checks
from .sinusoidal import MAX_POSITION, _base

__all__ = ["explain_entry"]


def explain_entry(pos, dim, d_model, *, base=10000.0, precision=4):
    r"""Spell out the computation of one entry :math:`\mathrm{PE}(pos, dim)`.

    Dimension ``dim`` belongs to pair :math:`i = \lfloor dim / 2 \rfloor`;
    an even ``dim`` is a sine and an odd one a cosine of the angle

    .. math:: \theta = \frac{pos}{\mathrm{base}^{2i/d_{model}}}

    in radians. This is the interleaved layout of the paper, the default
    of :func:`posenc.sinusoidal`.

    Parameters
    ----------
    pos : int
        The position (count from 0 or from 1, as your convention says),
        within :math:`\pm 2^{53}` as in :func:`posenc.sinusoidal`.
    dim : int
        The column, ``0 <= dim < d_model``.
    d_model : int
        Width of the encoding, at least 1.
    base : float, default 10000.0
        The number 10000 of the paper; must be finite and greater than 1,
        as in :func:`posenc.sinusoidal`.
    precision : int, default 4
        Decimals of the final value (1 to 15). The intermediate numbers are
        shown with six significant digits.

    Returns
    -------
    str
        Six lines: a heading, then the pair, exponent, divisor, angle and
        value. Print it.

    Examples
    --------
    >>> print(explain_entry(3, 2, 4))
    PE(pos=3, dim=2) for d_model=4, base=10000
      pair      dim 2 is even, so a sine; i = 2 // 2 = 1
      exponent  2i/d_model = 2*1/4 = 0.5
      divisor   10000^0.5 = 100
      angle     pos/divisor = 3/100 = 0.03 rad
      value     sin(0.03) = 0.0300
    >>> print(explain_entry(1, 1, 4).splitlines()[-1])
      value     cos(1) = 0.5403
    """
    pos, dim, d_model, base, precision = _validate_explain_entry(pos, dim, d_model, base, precision)
    i = dim // 2
    func, parity = (math.sin, "even, so a sine") if dim % 2 == 0 else (math.cos, "odd, so a cosine")
    exponent = 2 * i / d_model
    divisor = base**exponent
    angle = pos / divisor
    value = func(angle)

    def g(x):  # six significant digits, no trailing zeros
        return f"{x:.6g}"

    name = func.__name__
    return "\n".join(
        [
            f"PE(pos={pos}, dim={dim}) for d_model={d_model}, base={g(base)}",
            f"  pair      dim {dim} is {parity}; i = {dim} // 2 = {i}",
            f"  exponent  2i/d_model = 2*{i}/{d_model} = {g(exponent)}",
            f"  divisor   {g(base)}^{g(exponent)} = {g(divisor)}",
            f"  angle     pos/divisor = {pos}/{g(divisor)} = {g(angle)} rad",
            f"  value     {name}({g(angle)}) = {value:.{precision}f}",
        ]
    )


def _validate_explain_entry(pos, dim, d_model, base, precision):
    """The arguments as plain Python numbers, checked as :func:`posenc.sinusoidal` checks them."""
    pos = _checks.integer("pos", pos, minimum=-MAX_POSITION, maximum=MAX_POSITION)
    d_model = _checks.positive_int("d_model", d_model)
    dim = _checks.integer("dim", dim, minimum=0)
    if dim >= d_model:
        raise ValueError(f"dim must be in 0 .. d_model - 1 = {d_model - 1}, got {dim}")
    base = _base(base)  # as posenc.sinusoidal refuses it
    precision = _checks.integer("precision", precision, minimum=1)
    if precision > 15:
        raise ValueError(f"precision must be at most 15 decimals, got {precision}")
    return pos, dim, d_model, base, precision
