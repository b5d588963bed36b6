r"""The sinusoidal positional encoding of Vaswani et al. (2017).

.. math::

    \mathrm{PE}(pos, 2i)   = \sin(pos \cdot \omega_i), \qquad
    \mathrm{PE}(pos, 2i+1) = \cos(pos \cdot \omega_i), \qquad
    \omega_i = \mathrm{base}^{-2i / d_{model}}

Position ``pos`` is a row, dimension ``2i`` / ``2i+1`` a column. Pair ``i``
turns at angular frequency :math:`\omega_i`: pair 0 once per :math:`2\pi`
positions, the last pair almost ``base`` times slower.

Short tables are computed straight from the formula (:func:`_direct`). Long
ones use the rotation property :math:`\mathrm{PE}(pos + k) = M_k\,\mathrm{PE}(pos)`
(see :func:`rotation_matrix`): the first block of rows comes from the formula,
every later block is that block rotated (:func:`_rotation_blocks`). The result
is the same table to about 1e-11; the appendix *Fast tables* measures how much faster.
"""

from __future__ import annotations

import math

import numpy as np

from . import _checks

__all__ = ["frequencies", "wavelengths", "sinusoidal", "rotation_matrix"]

LAYOUTS = ("interleaved", "halves")

# Tables with at most this many rows come straight from the formula.
_DIRECT_ROWS = 64

# float64 holds every integer from -2**53 to 2**53, but not every one beyond:
# 2**53 + 1 rounds to 2**53, so two positions there would share a row.
MAX_POSITION = 2**53

# The complex type whose (real, imag) pairs are two floats of the table, for
# the tables that can be viewed as complex. Products are always computed in
# complex128 and rounded once when they are stored in a float32 table.
_COMPLEX = {np.dtype(np.float64): np.dtype(np.complex128), np.dtype(np.float32): np.dtype(np.complex64)}


def frequencies(d_model, *, base=10000.0, endpoint=False):
    r"""Angular frequencies :math:`\omega_i`, one per sine/cosine pair.

    .. math:: \omega_i = \mathrm{base}^{-2i/d_{model}}, \quad i = 0, 1, \dots, \lceil d_{model}/2 \rceil - 1

    Parameters
    ----------
    d_model : int
        Width of the encoding, at least 1. An odd width has one more sine
        than cosine, so it gets ``(d_model + 1) // 2`` frequencies.
    base : float, default 10000.0
        The number 10000 of the paper; must be finite and greater than 1,
        so that the frequencies fall from 1 towards ``1/base`` (a base of 1
        would make every pair turn at the same speed, a smaller one would
        make the later pairs faster).
    endpoint : bool, default False
        ``False``: the paper's ladder, which stops one step short of
        ``1/base``. ``True``: the ladder of tensor2tensor, fairseq and Marian,
        :math:`\omega_i = \mathrm{base}^{-i/(n-1)}`, which runs from 1 down to
        exactly ``1/base``.

    Returns
    -------
    numpy.ndarray of shape ``((d_model + 1) // 2,)``
        Frequencies from 1 down to ``1/base`` or just above it, each no
        larger than the one before.

    Examples
    --------
    >>> frequencies(4)
    array([1.  , 0.01])
    >>> frequencies(6, endpoint=True)
    array([1.e+00, 1.e-02, 1.e-04])
    """
    d_model, base, endpoint = _validate_frequencies(d_model, base, endpoint)
    n = (d_model + 1) // 2  # one frequency per (sin, cos) pair
    i = np.arange(n)
    if endpoint:
        exponent = i / max(n - 1, 1)  # 0, ..., 1 exactly
    else:
        exponent = 2 * i / d_model  # 0, ..., just below 1
    return base**-exponent


def _validate_frequencies(d_model, base, endpoint):
    """The checks of :func:`frequencies`: a width, a base greater than 1, and the cap."""
    d_model = _checks.positive_int("d_model", d_model)
    base = _base(base)
    endpoint = _checks.boolean("endpoint", endpoint)
    _checks.entries(f"d_model = {_checks.show(d_model)}", 3 * ((d_model + 1) // 2))
    return d_model, base, endpoint


def wavelengths(d_model, *, base=10000.0, endpoint=False):
    r"""Wavelengths :math:`\lambda_i = 2\pi / \omega_i`, in positions.

    Pair ``i`` repeats itself every :math:`\lambda_i` positions. The ladder
    starts at :math:`2\pi` and grows geometrically; its last rung is
    :math:`2\pi \cdot \mathrm{base}^{2(n-1)/d_{model}}`, a little less than
    :math:`2\pi \cdot \mathrm{base}` unless ``endpoint=True``.

    Parameters
    ----------
    d_model, base, endpoint
        As in :func:`frequencies`.

    Returns
    -------
    numpy.ndarray of shape ``((d_model + 1) // 2,)``

    Examples
    --------
    >>> wavelengths(4).round(2)
    array([  6.28, 628.32])
    """
    return 2 * np.pi / frequencies(d_model, base=base, endpoint=endpoint)


def sinusoidal(
    length,
    d_model,
    *,
    base=10000.0,
    start=0,
    layout="interleaved",
    endpoint=False,
    dtype=np.float64,
):
    r"""The table of sinusoidal positional encodings, one row per position.

    .. math::

        \mathrm{PE}(pos, 2i) = \sin(pos\,\omega_i), \qquad
        \mathrm{PE}(pos, 2i+1) = \cos(pos\,\omega_i)

    for ``pos = start, start + 1, ..., start + length - 1``.

    Parameters
    ----------
    length : int
        Number of positions (rows), at least 1.
    d_model : int
        Width of each encoding (columns), at least 1. With an odd width the
        last column is the sine of the next frequency.
    base : float, default 10000.0
        See :func:`frequencies`.
    start : int, default 0
        The first position. The paper's code counts from 0; some worked
        examples count from 1. Every position must lie within
        :math:`\pm 2^{53}` (``MAX_POSITION``): float64 holds every integer
        up to there but not all beyond, so two neighbouring positions past
        it would get the same row.
    layout : {"interleaved", "halves"}, default "interleaved"
        ``"interleaved"``: sines in the even columns, cosines in the odd
        columns (the paper). ``"halves"``: all sines first, then all cosines
        (tensor2tensor, fairseq, Marian).
    endpoint : bool, default False
        See :func:`frequencies`.
    dtype : numpy floating dtype, default numpy.float64
        Type of the returned table. Angles, sines and cosines are always
        computed in float64 and rounded to ``dtype`` once, at the end.

    Returns
    -------
    numpy.ndarray of shape ``(length, d_model)``

    Notes
    -----
    Tables of up to 64 rows come straight from the formula. Longer ones use
    the rotation property :math:`\mathrm{PE}(pos + k) = M_k\,\mathrm{PE}(pos)`
    of :func:`rotation_matrix`: the first :math:`\lceil\sqrt{length}\,\rceil`
    rows are computed by the formula, and every later block of rows is that
    block moved on by ``k`` positions, by the angle-addition formulas
    (``_rotation_blocks`` in the source). This needs a sine and a cosine for
    only about :math:`2\sqrt{length}` positions instead of ``length``, and
    agrees with the formula to within about 1e-11 at 65536 positions, the
    size of the rounding error of the angles :math:`pos\,\omega_i` themselves.

    Examples
    --------
    >>> sinusoidal(3, 4).round(4)
    array([[ 0.    ,  1.    ,  0.    ,  1.    ],
           [ 0.8415,  0.5403,  0.01  ,  1.    ],
           [ 0.9093, -0.4161,  0.02  ,  0.9998]])
    >>> sinusoidal(2, 4, layout="halves").round(4)
    array([[0.    , 0.    , 1.    , 1.    ],
           [0.8415, 0.01  , 0.5403, 1.    ]])
    """
    length, d_model, start, dtype = _validate_sinusoidal(length, d_model, start, layout, dtype)
    omega = frequencies(d_model, base=base, endpoint=endpoint)
    n_sin, n_cos = len(omega), d_model // 2  # an odd width has one more sine

    # Rows come in blocks of ceil(sqrt(length)) positions, each block the first
    # one rotated (see _rotation_blocks); a short table is one block, the formula.
    block = _block(length)
    blocks = _rotation_blocks(start, length, omega, block)

    pe = np.empty((length, d_model), dtype=dtype)
    if layout == "interleaved" and n_sin == n_cos and dtype in _COMPLEX:
        # Columns 2i and 2i+1 hold (sin, cos) side by side in memory, like the
        # real and imaginary parts of a complex number: viewed as complex, the
        # table has one column per pair and the products land in it directly.
        pairs = pe.view(_COMPLEX[dtype])
        for rows, first, turn in blocks:
            np.multiply(first, turn, out=pairs[rows])  # angle addition
    else:
        if layout == "interleaved":
            sin_cols, cos_cols = slice(0, None, 2), slice(1, None, 2)
        else:
            sin_cols, cos_cols = slice(0, n_sin), slice(n_sin, None)
        scratch = np.empty((block, n_sin), dtype=np.complex128)  # reused by every block
        for rows, first, turn in blocks:
            z = np.multiply(first, turn, out=scratch[: len(first)])  # angle addition
            pe[rows, sin_cols] = z.real
            pe[rows, cos_cols] = z.imag[:, :n_cos]
    return pe


def _base(base):
    """The base of the frequency ladder: a real number greater than 1."""
    base = _checks.real("base", base)
    if base <= 1:
        raise ValueError(
            f"base must be greater than 1, so that the frequencies base**(-2i/d_model) "
            f"fall from 1 towards 1/base; got {base}"
        )
    return base


def _block(length):
    """Rows per block of :func:`sinusoidal`: the whole table up to ``_DIRECT_ROWS``, else ceil(sqrt(length))."""
    return length if length <= _DIRECT_ROWS else math.isqrt(length - 1) + 1


def _validate_sinusoidal(length, d_model, start, layout, dtype):
    """The checks of :func:`sinusoidal`: the sizes and ``start`` as ints, ``dtype`` as a dtype."""
    length = _checks.positive_int("length", length)
    d_model = _checks.positive_int("d_model", d_model)
    start = _checks.integer("start", start)
    if start < -MAX_POSITION or start + length - 1 > MAX_POSITION:
        raise ValueError(
            "start and length must keep the positions start, ..., start + length - 1 "
            "within -2**53 to 2**53, where float64 still tells neighbouring integers "
            f"apart; got start={_checks.show(start)} and length={_checks.show(length)}"
        )
    block = _block(length)
    n_blocks, n_pairs = -(-length // block), (d_model + 1) // 2
    # the table, and the sines, cosines and turns of the first block (complex)
    _checks.entries(f"length * d_model = {_checks.show(length)} * {_checks.show(d_model)}",
                    length * d_model + 6 * (block + n_blocks) * n_pairs)
    _checks.choice("layout", layout, LAYOUTS)
    return length, d_model, start, _checks.float_dtype("dtype", dtype)


def _direct(positions, omega):
    r"""The formula as written: one sine and one cosine per entry.

    Returns the complex array ``z[p, i] = sin(positions[p] * omega[i])
    + 1j * cos(positions[p] * omega[i])``: the real part is the sine column,
    the imaginary part the cosine column of pair ``i``.

    >>> z = _direct(np.array([0.0, 1.0]), np.array([1.0, 0.01]))
    >>> z.real.round(4)
    array([[0.    , 0.    ],
           [0.8415, 0.01  ]])
    >>> z.imag.round(4)
    array([[1.    , 1.    ],
           [0.5403, 1.    ]])
    """
    angles = np.outer(positions, omega)  # angles[p, i] = pos_p * omega_i
    z = np.empty(angles.shape, dtype=np.complex128)
    z.real = np.sin(angles)
    z.imag = np.cos(angles)
    return z


def _rotation_blocks(start, length, omega, block):
    r"""Cut the table into blocks of rows, each one a rotation of the first.

    Block ``q`` holds positions ``start + q*block + r`` for ``r < block``:
    it is the first block moved on by ``k = q*block`` positions. By the
    rotation property each (sin, cos) pair of the first block turns by the
    angle :math:`k\omega_i`. For ``z = sin + 1j*cos`` that turn is one complex
    multiplication by :math:`e^{-ik\omega_i}`, and multiplied out it is
    exactly the two angle-addition formulas:

    .. math::

        (\cos k\omega - i\sin k\omega)(\sin\theta + i\cos\theta)
        = \underbrace{(\sin\theta\cos k\omega + \cos\theta\sin k\omega)}_{\sin(\theta + k\omega)}
        + i\,\underbrace{(\cos\theta\cos k\omega - \sin\theta\sin k\omega)}_{\cos(\theta + k\omega)}

    The whole table then needs sines and cosines of ``(block + n_blocks) * n``
    angles (about :math:`2\sqrt{length}\,n` instead of :math:`length\cdot n`)
    and one complex product (4 multiplications, 2 additions) per pair.

    Parameters
    ----------
    start, length : int
        The positions ``start, ..., start + length - 1``.
    omega : numpy.ndarray of shape ``(n,)``
        The frequencies.
    block : int
        Rows per block, from 1 to ``length``. :func:`sinusoidal` takes
        :math:`\lceil\sqrt{length}\,\rceil`, which balances the two sets of
        angles, except for a table of at most ``_DIRECT_ROWS`` rows: that is
        a single block, the formula itself.

    Yields
    ------
    rows : slice
        The rows of the table that the block covers.
    first : complex numpy.ndarray of shape ``(rows.stop - rows.start, n)``
        The pairs of the first block (:func:`_direct`), as many rows as needed.
    turn : complex numpy.ndarray of shape ``(n,)``
        :math:`e^{-ik\omega_i}`; ``first * turn`` are the pairs of ``rows``.

    Examples
    --------
    >>> omega = frequencies(6)
    >>> z = np.concatenate([first * turn for _, first, turn in _rotation_blocks(0, 10, omega, 3)])
    >>> bool(np.allclose(z, _direct(np.arange(10.0), omega), rtol=0, atol=1e-15))
    True
    """
    first = _direct(np.arange(start, start + block, dtype=np.float64), omega)
    k = range(0, length, block)  # how far each block is from the first one
    k_omega = np.outer(k, omega)
    turns = np.empty(k_omega.shape, dtype=np.complex128)  # exp(-1j * k * omega)
    turns.real = np.cos(k_omega)
    turns.imag = -np.sin(k_omega)
    for lo, turn in zip(k, turns):
        rows = slice(lo, min(lo + block, length))
        yield rows, first[: rows.stop - lo], turn


def rotation_matrix(offset, d_model, *, base=10000.0, layout="interleaved", endpoint=False):
    r"""The matrix :math:`M_k` that moves every encoding ``offset`` positions on.

    By the angle-addition formulas, each (sine, cosine) pair of
    :math:`\mathrm{PE}(pos + k)` is the same pair of :math:`\mathrm{PE}(pos)`
    turned by the angle :math:`k\,\omega_i`, clockwise in the book's
    convention (the sine column across, the cosine column up; see the
    notation page). The block is the rotation :math:`R(-k\,\omega_i)`, with
    :math:`R(\alpha)` the usual anticlockwise rotation:

    .. math::

        \begin{pmatrix} \sin((pos+k)\omega_i) \\ \cos((pos+k)\omega_i) \end{pmatrix}
        =
        \begin{pmatrix} \cos k\omega_i & \sin k\omega_i \\
                        -\sin k\omega_i & \cos k\omega_i \end{pmatrix}
        \begin{pmatrix} \sin(pos\,\omega_i) \\ \cos(pos\,\omega_i) \end{pmatrix}

    so :math:`\mathrm{PE}(pos + k) = M_k\,\mathrm{PE}(pos)` for every ``pos``,
    with :math:`M_k` orthogonal and independent of ``pos``. For a table
    whose rows are encodings, ``table @ M.T`` shifts every row by ``offset``.

    Parameters
    ----------
    offset : int or float
        The shift ``k`` (negative shifts go back).
    d_model : int
        Width of the encoding; must be even, because an unpaired sine
        column cannot be rotated without its cosine.
    base, layout, endpoint
        As in :func:`sinusoidal`; the matrix matches the table they make.

    Returns
    -------
    numpy.ndarray of shape ``(d_model, d_model)``

    Examples
    --------
    >>> pe = sinusoidal(10, 6)
    >>> M = rotation_matrix(3, 6)
    >>> bool(np.allclose(M @ pe[2], pe[5]))
    True
    """
    offset, d_model = _validate_rotation_matrix(offset, d_model, layout)
    omega = frequencies(d_model, base=base, endpoint=endpoint)
    half = d_model // 2
    if layout == "interleaved":
        sin_col, cos_col = 2 * np.arange(half), 2 * np.arange(half) + 1
    else:
        sin_col, cos_col = np.arange(half), half + np.arange(half)

    c, s = np.cos(offset * omega), np.sin(offset * omega)
    M = np.zeros((d_model, d_model))
    M[sin_col, sin_col] = c
    M[sin_col, cos_col] = s
    M[cos_col, sin_col] = -s
    M[cos_col, cos_col] = c
    return M


def _validate_rotation_matrix(offset, d_model, layout):
    """The checks of :func:`rotation_matrix`: ``offset`` as a float, ``d_model`` as an int."""
    offset = _checks.real("offset", offset)
    d_model = _checks.positive_int("d_model", d_model)
    if d_model % 2:
        raise ValueError(
            f"d_model must be even for a rotation matrix (an unpaired sine column "
            f"has no cosine to rotate with), got {d_model}"
        )
    _checks.entries(f"d_model ** 2 = {_checks.show(d_model)} ** 2", d_model**2 + 3 * d_model)
    _checks.choice("layout", layout, LAYOUTS)
    return offset, d_model
