r"""Positions in low precision: float16, bfloat16 and float32.

A binary floating-point format keeps a sign, an exponent of ``e`` bits and a
fraction of ``f`` bits. A normal number is

.. math:: x = \pm\,(1.b_1 b_2 \dots b_f)_2 \times 2^{E}, \qquad
          E_{min} \le E \le E_{max},

so it has :math:`p = f + 1` significant bits. Between :math:`2^E` and
:math:`2^{E+1}` the numbers of the format are evenly spaced, by
:math:`2^{E - f}`; below :math:`2^{E_{min}}` (the subnormals) the spacing
stays :math:`2^{E_{min} - f}`. Rounding to the format picks the nearest of
these numbers, and on a tie the one whose last bit is 0 ("round to nearest,
ties to even", the default of IEEE 754). Beyond the largest finite number the
result is infinite.

==========  ========  ========  ==========  =================================
format      exponent  fraction  :math:`p`   largest finite number
==========  ========  ========  ==========  =================================
float64     11        52        53          about 1.8e308
float32     8         23        24          about 3.4e38
bfloat16    8         7         8           about 3.4e38 (float32's range)
float16     5         10        11          65504
==========  ========  ========  ==========  =================================

bfloat16 is the upper half of a float32: same sign bit, same 8 exponent
bits, and the first 7 of float32's 23 fraction bits. NumPy has ``float16``
and ``float32`` but no bfloat16, so this module rounds to any of the four
formats with one rule, :func:`round_to`, written next to the formula above.
The tests check it bit for bit against NumPy's own ``float16`` and
``float32`` conversions and against the ``ml_dtypes`` package's
``bfloat16``, on every bfloat16 and float16 bit pattern and on every kind of
tie.

Computing "in" a format means rounding after every operation, as the
hardware does: each operation returns its exact result rounded to the
format. :func:`rope_angles` and :func:`rope_cos_sin` do that for the angles
:math:`m\,\theta_i` of rotary embeddings and for their cosines and sines,
and say which operations are rounded.
"""

from __future__ import annotations

import dataclasses
import math
import numbers

import numpy as np

from . import _checks
from .sinusoidal import frequencies

__all__ = ["FloatFormat", "FORMATS", "float_format", "round_to", "float_bits",
           "rope_angles", "rope_cos_sin"]


@dataclasses.dataclass(frozen=True)
class FloatFormat:
    r"""A binary floating-point format: its name and its bit budget.

    ``posenc.FORMATS`` holds the four formats of the book. Any other format
    that follows the rules of IEEE 754 (the largest exponent field kept for
    infinities and NaN, subnormals below :math:`2^{E_{min}}`) can be made
    the same way and passed to :func:`round_to`, for instance the 8-bit
    ``FloatFormat("E5M2", 5, 2)``, whose largest finite number is 57344.

    Parameters
    ----------
    name : str
        A name for messages: ``"float64"``, ``"float32"``, ``"bfloat16"``,
        ``"float16"`` or your own.
    exponent_bits : int
        Bits of the exponent field, 2 to 11.
    fraction_bits : int
        Bits of the stored fraction, 1 to 52 (float64 must hold every number
        of the format exactly).


    Examples
    --------
    >>> bf16 = FORMATS["bfloat16"]
    >>> bf16.precision, bf16.emin, bf16.emax
    (8, -126, 127)
    >>> FORMATS["float16"].max
    65504.0
    >>> FORMATS["bfloat16"].largest_exact_integer
    256
    """

    name: str
    exponent_bits: int
    fraction_bits: int

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {self.name!r} of type "
                            f"{type(self.name).__name__}")
        for field, low, high in (("exponent_bits", 2, 11), ("fraction_bits", 1, 52)):
            value = _checks.integer(field, getattr(self, field))
            if not low <= value <= high:
                raise ValueError(f"{field} must be from {low} to {high} (float64 must hold "
                                 f"every number of the format), got {value}")
            object.__setattr__(self, field, value)  # a plain int, even from np.int64

    @property
    def precision(self):
        """Significant bits :math:`p = f + 1` (the leading 1 is not stored)."""
        return self.fraction_bits + 1

    @property
    def emax(self):
        """Largest exponent :math:`E_{max} = 2^{e-1} - 1`."""
        return 2 ** (self.exponent_bits - 1) - 1

    @property
    def emin(self):
        """Smallest exponent of a normal number, :math:`E_{min} = 1 - E_{max}`."""
        return 1 - self.emax

    @property
    def max(self):
        r"""Largest finite number, :math:`(2 - 2^{-f})\,2^{E_{max}}`."""
        return float(np.ldexp(2.0 - 2.0**-self.fraction_bits, self.emax))

    @property
    def eps(self):
        r"""Spacing of the numbers just above 1, :math:`2^{-f}`."""
        return 2.0**-self.fraction_bits

    @property
    def largest_exact_integer(self):
        r""":math:`2^p`: every integer from 0 to this one is a number of the format."""
        return 2**self.precision


FORMATS = {
    "float64": FloatFormat("float64", 11, 52),
    "float32": FloatFormat("float32", 8, 23),
    "bfloat16": FloatFormat("bfloat16", 8, 7),
    "float16": FloatFormat("float16", 5, 10),
}
"""The four formats, by name: ``FORMATS["bfloat16"].precision == 8``."""


def float_format(fmt, *, name="fmt"):
    """The :class:`FloatFormat` named by ``fmt``.

    Parameters
    ----------
    fmt : str, numpy dtype or FloatFormat
        A name from ``posenc.FORMATS`` (``"bfloat16"``...), ``np.float16``,
        ``np.float32``, ``np.float64``, or a :class:`FloatFormat`, which is
        returned as it is.
    name : str
        The argument's name, for the error message.

    Returns
    -------
    FloatFormat


    Examples
    --------
    >>> float_format(np.float16).fraction_bits
    10
    >>> float_format("bfloat16").name
    'bfloat16'
    """
    key = _validate_float_format(fmt, name)
    return fmt if isinstance(fmt, FloatFormat) else FORMATS[key]


def _validate_float_format(fmt, name):
    """The key of ``fmt`` in ``FORMATS`` (None for a FloatFormat), or an error naming ``name``."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, the argument's name for the message, got "
                        f"{_checks.show(name)}")
    if isinstance(fmt, FloatFormat):
        return None
    key = fmt
    if fmt is not None and not isinstance(fmt, str):  # np.dtype(None) would be float64
        try:
            key = np.dtype(fmt).name
        except TypeError:
            key = None
    if key not in FORMATS:
        allowed = ", ".join(repr(k) for k in FORMATS)
        raise ValueError(f"{name} must be one of {allowed} (or np.float16, "
                         f"np.float32, np.float64, or a posenc.FloatFormat), got {fmt!r}")
    return key


def round_to(x, fmt):
    r"""Round to the nearest number of a format, ties to even (IEEE 754).

    With :math:`E = \max(\lfloor \log_2 |x| \rfloor, E_{min})` the exponent
    of ``x`` (held at :math:`E_{min}` for the subnormals), the numbers of the
    format near ``x`` are the multiples of the spacing
    :math:`q = 2^{E - f}`, and

    .. math:: \mathrm{round}(x) = q \cdot \mathrm{rint}(x / q),

    where ``np.rint`` rounds to the nearest integer and a tie to the even
    one, which is the multiple whose last fraction bit is 0. A result larger
    than the largest finite number becomes :math:`\pm\infty`. The division
    and the multiplication by the power of two :math:`q` are exact in
    float64, so this is one exact rounding of the float64 input.

    Parameters
    ----------
    x : array_like of real numbers
        Any shape; NaN and infinities pass through unchanged.
    fmt : str, numpy dtype or FloatFormat
        ``"bfloat16"``, ``"float16"``, ``"float32"`` or ``"float64"``, or
        any :class:`FloatFormat` (see :func:`float_format`).

    Returns
    -------
    numpy.ndarray of float64, same shape as ``x``
        The rounded values, held in float64 (which holds every number of
        the four formats exactly).


    Notes
    -----
    For ``"float16"`` and ``"float32"`` this gives the same bits as NumPy's
    ``x.astype(np.float16)``; for ``"bfloat16"`` the same as the
    ``ml_dtypes`` package for every float32 input. Every input is rounded
    once, to the nearest: float64 input directly (some libraries, PyTorch
    among them, round float64 to bfloat16 through float32, which can differ
    by one bfloat16 step when the value lies within :math:`2^{-24}`
    (relative) of a tie), and integers exactly, however large (an integer
    array, or Python ints), as NumPy rounds ``int64`` to ``float32``.

    Examples
    --------
    >>> round_to([256, 257, 258, 259], "bfloat16")  # 257 is a tie: to even
    array([256., 256., 258., 260.])
    >>> round_to([65504, 65519, 65520], "float16")
    array([65504., 65504.,    inf])
    >>> round_to(0.1, "bfloat16")
    array(0.10009766)
    >>> round_to([57344, 61439, 61440], FloatFormat("E5M2", 5, 2))  # 8 bits
    array([57344., 57344.,    inf])
    """
    value = x
    x, f = _validate_round_to(x, fmt)
    with np.errstate(invalid="ignore", over="ignore"):
        _, e = np.frexp(x)  # x = m * 2**e with 0.5 <= |m| < 1: the leading bit is 2**(e-1)
        q = np.ldexp(1.0, np.maximum(e - 1, f.emin) - f.fraction_bits)
        y = np.rint(x / q) * q  # the nearest multiple of the spacing; ties to even
        y = np.where(np.abs(y) > f.max, np.copysign(np.inf, x), y)
    y = np.where(np.isfinite(x), y, x)
    # integers beyond 2**53 were rounded once already, to float64: round them again from the
    # exact integer
    for index, n in _large_integers(value):
        y.flat[index] = _round_integer(n, f)
    return y


def _validate_round_to(x, fmt):
    """``x`` as a float64 array (NaN and inf allowed) and ``fmt`` as a FloatFormat."""
    with np.errstate(invalid="ignore"):  # a signalling NaN becomes a quiet one, silently
        x = _checks.array("x", x, finite=False)
    return x, float_format(fmt)


def _large_integers(value):
    """(flat index, int) of the integers of ``value`` that float64 cannot hold exactly."""
    # not np.asarray(value): a list of Python ints beyond int64 would become float64
    arr = value if isinstance(value, np.ndarray) else np.asarray(value, dtype=object)
    if arr.dtype.kind in "iu":
        flat = arr.reshape(-1)
        return [(i, int(flat[i])) for i in np.flatnonzero((flat > 2**53) | (flat < -(2**53)))]
    if arr.dtype.kind == "O":
        return [(i, int(v)) for i, v in enumerate(arr.flat)
                if isinstance(v, numbers.Integral) and abs(int(v)) > 2**53]
    return []


def _round_integer(n, f):
    """The integer ``n`` rounded to format ``f``, ties to even, in exact integer arithmetic."""
    magnitude = abs(n)
    shift = magnitude.bit_length() - f.precision  # the spacing q is 2**shift
    if shift > 0:
        k, rest = divmod(magnitude, 1 << shift)
        half = 1 << (shift - 1)
        if rest > half or (rest == half and k % 2 == 1):
            k += 1
        magnitude = k << shift
    return math.copysign(math.inf if magnitude > f.max else float(magnitude), n)


def float_bits(x, fmt):
    """The bits of one number of a format: sign, exponent and fraction.

    ``x`` is first rounded to the format (:func:`round_to`).

    Parameters
    ----------
    x : float
        One real number.
    fmt : str, numpy dtype or FloatFormat
        As in :func:`round_to`.

    Returns
    -------
    str
        ``"s eeeeeeee fffffff"``: the sign bit, the exponent field (biased
        by :math:`E_{max}`) and the fraction field, separated by spaces.


    Examples
    --------
    >>> float_bits(1.0, "bfloat16")
    '0 01111111 0000000'
    >>> float_bits(257, "bfloat16")  # 257 is stored as 256 = 1.0 * 2**8
    '0 10000111 0000000'
    >>> float_bits(-2.0, "float16")
    '1 10000 0000000000'
    >>> float_bits(57344, FloatFormat("E5M2", 5, 2))
    '0 11110 11'
    """
    f = _validate_float_bits(x, fmt)
    value = float(round_to(x, f))
    sign = int(np.signbit(value))
    magnitude = abs(value)
    if np.isnan(value):  # a quiet NaN: exponent all ones, first fraction bit set
        field, fraction = 2 * f.emax + 1, 1 << (f.fraction_bits - 1)
    elif np.isinf(value):
        field, fraction = 2 * f.emax + 1, 0
    elif magnitude < 2.0**f.emin:  # zero and the subnormals: 0.fraction * 2**emin
        field, fraction = 0, int(magnitude / 2.0 ** (f.emin - f.fraction_bits))
    else:  # normal: 1.fraction * 2**E, exponent field biased by emax
        exponent = int(np.frexp(magnitude)[1]) - 1
        field = exponent + f.emax
        fraction = int((magnitude / 2.0**exponent - 1) * 2**f.fraction_bits)
    text = format(field, f"0{f.exponent_bits}b")
    return f"{sign} {text} {fraction:0{f.fraction_bits}b}"


def _validate_float_bits(x, fmt):
    """``fmt`` as a FloatFormat, once ``x`` is checked to be one real number."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"x must be a real number, got {_checks.show(x)} of type {type(x).__name__}")
    return float_format(fmt)


def rope_angles(positions, head_dim, *, base=10000.0, compute="float64",
                position_format=None, frequency_format=None):
    r"""The angles :math:`m\,\theta_i` of RoPE, computed in a given format.

    Three numbers are rounded, each once (:func:`round_to`):

    1. the frequencies :math:`\theta_i = \mathrm{base}^{-2i/d}`, computed in
       float64 and rounded to ``frequency_format``;
    2. the positions :math:`m`, rounded to ``position_format`` (position ids
       are integers; converting them to a float format rounds them);
    3. the angle, the product of the two rounded numbers, rounded to
       ``compute``: one multiplication, rounded as the hardware rounds it.

    With the defaults all three are ``compute``: the whole angle is computed
    in that format.

    Parameters
    ----------
    positions : array_like of shape (n,)
        Positions :math:`m` (real numbers; integers in practice).
    head_dim : int
        Width :math:`d` of a head, even and at least 2.
    base : float, default 10000.0
        Base of the frequency ladder.
    compute : str or numpy dtype, default "float64"
        Format of the multiplication ``position * frequency``.
    position_format, frequency_format : str or numpy dtype, optional
        Formats the positions and the frequencies are rounded to before the
        multiplication; by default ``compute``.

    Returns
    -------
    numpy.ndarray of shape (n, head_dim // 2), float64
        ``angles[j, i]`` for position ``positions[j]`` and pair ``i``. A
        position that overflows its format (float16 past 65519) gives an
        infinite angle, or NaN for a frequency that rounded to 0
        (:math:`\infty \cdot 0`, as in IEEE arithmetic).


    Examples
    --------
    >>> rope_angles([300, 301], 4, compute="bfloat16")[:, 0]  # 301 -> 300
    array([300., 300.])
    >>> rope_angles([300, 301], 4, compute="float32")[:, 0]
    array([300., 301.])
    """
    positions, head_dim, compute, position_format, frequency_format = _validate_rope_angles(
        positions, head_dim, compute, position_format, frequency_format)
    theta = round_to(frequencies(head_dim, base=base), frequency_format)
    m = round_to(positions, position_format)
    # Each product of two numbers of at most 24 significant bits is exact in
    # float64 (at most 48 bits), so rounding it once is the rounded product.
    with np.errstate(invalid="ignore"):  # inf * 0 is NaN, as in hardware
        return round_to(np.outer(m, theta), compute)


def rope_cos_sin(positions, head_dim, *, base=10000.0, compute="float64",
                 position_format=None, frequency_format=None, cache=None):
    r"""The cosine and sine tables of RoPE, computed and stored in given formats.

    The angles come from :func:`rope_angles` (frequencies, positions and the
    product each rounded). Then

    4. :math:`\cos` and :math:`\sin` of each rounded angle are computed
       (in float64) and rounded to ``compute``, as a math library in that
       format returns the nearest number to the true value, or nearly;
    5. if ``cache`` is given, the two tables are rounded once more, to the
       format they are stored in (the model's dtype, say).

    Parameters
    ----------
    positions, head_dim, base, compute, position_format, frequency_format
        As in :func:`rope_angles`.
    cache : str or numpy dtype, optional
        Format of the stored tables; by default they stay in ``compute``.

    Returns
    -------
    cos, sin : numpy.ndarray of shape (n, head_dim // 2), float64
        Angles that overflowed give NaN.


    Examples
    --------
    >>> cos, sin = rope_cos_sin([1], 2, cache="bfloat16")
    >>> float(cos[0, 0]), float(np.cos(1.0))
    (0.5390625, 0.5403023058681398)
    """
    compute, cache = _validate_rope_cos_sin(positions, head_dim, compute, position_format,
                                            frequency_format, cache)
    angles = rope_angles(positions, head_dim, base=base, compute=compute,
                         position_format=position_format,
                         frequency_format=frequency_format)
    with np.errstate(invalid="ignore"):  # cos(inf) is NaN, as in hardware
        cos = round_to(np.cos(angles), compute)
        sin = round_to(np.sin(angles), compute)
    if cache is not None:
        cos, sin = round_to(cos, cache), round_to(sin, cache)
    return cos, sin


def _validate_rope_angles(positions, head_dim, compute, position_format, frequency_format, *,
                          per_angle=8):
    """The checks of :func:`rope_angles` (and :func:`rope_cos_sin`): the formats, each defaulting to ``compute``.

    ``per_angle`` counts, for the cap, the arrays of the angles' size that
    the call makes: the angles, and those that :func:`round_to` makes on
    the way (and the cosines and sines, rounded, for :func:`rope_cos_sin`).
    """
    positions = _checks.array("positions", positions, ndim=1)
    head_dim = _checks.positive_int("head_dim", head_dim)
    if head_dim % 2 or head_dim < 2:
        raise ValueError(f"head_dim must be even and at least 2 (RoPE turns pairs), got {head_dim}")
    _checks.entries(f"len(positions) * head_dim / 2 = {len(positions)} * {_checks.show(head_dim)} / 2",
                    per_angle * len(positions) * (head_dim // 2) + 3 * head_dim)
    compute = float_format(compute, name="compute")
    position_format = compute if position_format is None else float_format(
        position_format, name="position_format")
    frequency_format = compute if frequency_format is None else float_format(
        frequency_format, name="frequency_format")
    return positions, head_dim, compute, position_format, frequency_format


def _validate_rope_cos_sin(positions, head_dim, compute, position_format, frequency_format, cache):
    """The checks of :func:`rope_cos_sin`: those of :func:`rope_angles`, and the format ``cache``."""
    compute = _validate_rope_angles(positions, head_dim, compute, position_format,
                                    frequency_format, per_angle=12)[2]
    return compute, None if cache is None else float_format(cache, name="cache")
