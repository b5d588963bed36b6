"""Checkers of chapter 2, *The sinusoidal formula*.
"""

from __future__ import annotations

import numpy as np

from ..sinusoidal import frequencies as _frequencies
from ..sinusoidal import rotation_matrix as _rotation_matrix
from ..sinusoidal import sinusoidal as _sinusoidal
from ..sinusoidal import wavelengths as _wavelengths
from ._common import _as_array, _call_watching, _correct, _integer_array, _not_yet, _raised_hint

# What ex-sines-spot-the-bug rules out ("NumPy only, without calling posenc"),
# and what ex-sines-dot-at-offset does ("without building a table").
_SINES_TABLES = {"posenc.sinusoidal": _sinusoidal, "posenc.rotation_matrix": _rotation_matrix}
_SINES_NOT_NUMPY = {**_SINES_TABLES, "posenc.frequencies": _frequencies,
                    "posenc.wavelengths": _wavelengths}

__all__ = [
    "check_sines_longest_wavelength",
    "check_sines_spot_the_bug",
    "check_sines_dot_at_offset",
    "check_sines_rotation",
    "check_sines_layout_permutation",
]


def _paper_table(length, d_model, base=10000.0):
    """The paper's interleaved table, written out independently of posenc.sinusoidal."""
    pos = np.arange(length, dtype=float)[:, None]
    omega = base ** (-2.0 * np.arange(d_model // 2) / d_model)
    table = np.empty((length, d_model))
    table[:, 0::2] = np.sin(pos * omega)
    table[:, 1::2] = np.cos(pos * omega)
    return table


def check_sines_longest_wavelength(answer):
    r"""Check the longest wavelength of the paper's encoding for ``d_model = 64``.

    The wavelength of pair :math:`i` is :math:`2\pi / \omega_i` positions. The
    checker recognises the usual wrong answers (the round figure, a missing
    :math:`2\pi`, a wrong exponent) and gives a hint for each.

    Parameters
    ----------
    answer : float
        The wavelength, in positions. Any real number type is accepted
        (Python float, numpy scalar, 0-d or 1-element array).

    Returns
    -------
    bool
        ``True`` if ``answer`` is right to two decimals (within 0.005 of the
        exact value; float32 arithmetic is off by less than 0.001 there). An
        answer within a relative ``5e-4`` (a rounded one, such as a whole
        number of positions, one decimal or three significant figures) is
        told to keep more digits.

    Examples
    --------
    >>> check_sines_longest_wavelength(2 * np.pi)
    Not yet. That is the wavelength of the fastest pair (i = 0). The longest belongs to the last pair.
    False
    """
    expected = 2 * np.pi * 10000.0 ** (62 / 64)
    arr = _as_array(answer)
    if arr is None or arr.size != 1:
        return _not_yet("Give a single number: the wavelength in positions.")
    value = float(arr.reshape(()))
    close = lambda target: np.isclose(value, target, rtol=1e-6, atol=0)  # noqa: E731
    if abs(value - expected) <= 0.005:  # right to the two decimals the hint asks for
        return _correct("That is the exact wavelength of the slowest pair, in "
                        "positions.")
    if close(2 * np.pi * 10000.0):
        hint = ("That is the round figure quoted in the paper. The ladder stops one rung "
                "earlier: which i is the last pair, and what is 2i / d_model for it?")
    elif close(2 * np.pi):
        hint = "That is the wavelength of the fastest pair (i = 0). The longest belongs to the last pair."
    elif close(10000.0 ** (62 / 64)) or close(10000.0 ** (-62 / 64)):
        hint = ("A wavelength is the number of positions for one full turn, 2*pi / omega_i; "
                "check the factor 2*pi and the sign of the exponent.")
    elif close(2 * np.pi * 10000.0 ** (31 / 64)):
        hint = "The exponent is 2i / d_model, not i / d_model."
    elif np.isclose(value, expected, rtol=5e-4, atol=0):
        hint = ("Close, but keep more digits: a wavelength need not be a whole number of "
                "positions. Give it to at least two decimals.")
    else:
        hint = ("Use wavelength_i = 2*pi / omega_i with omega_i = 10000**(-2i/d_model), "
                "for the largest i that exists when d_model = 64.")
    return _not_yet(hint)


def check_sines_spot_the_bug(fixed_sinusoidal):
    r"""Check a corrected version of the buggy encoding function of the chapter.

    ``fixed_sinusoidal(length, d_model)`` must return the paper's table
    (interleaved sines and cosines, :math:`\omega_i = 10000^{-2i/d_{model}}`,
    positions from 0) for even ``d_model``. It is called on a few sizes and
    compared with the formula, and with the buggy versions a learner is
    likely to produce, so that the hint can say what is still wrong. The
    exercise asks for NumPy only: a function that calls
    :func:`posenc.sinusoidal`, :func:`posenc.frequencies`,
    :func:`posenc.wavelengths` or :func:`posenc.rotation_matrix` gets a hint
    that says so.

    Parameters
    ----------
    fixed_sinusoidal : callable
        A function ``(length, d_model) -> array of shape (length, d_model)``.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_sines_spot_the_bug(lambda length, d_model: np.zeros((length, d_model)))
    Not yet. The shape is right but the values are not: compare your first row with the formula (position 0 gives 0, 1, 0, 1, ...).
    False
    """
    if not callable(fixed_sinusoidal):
        return _not_yet("Pass the function itself (fixed_sinusoidal), not a table it made.")
    sizes = [(4, 6), (10, 8), (50, 128), (3, 2)]
    for length, d_model in sizes:
        try:
            got, called = _call_watching(_SINES_NOT_NUMPY, fixed_sinusoidal, length, d_model)
        except (Exception, SystemExit) as err:  # the learner's code may raise anything
            return _not_yet(_raised_hint(f"it with ({length}, {d_model})", err))
        if called:
            return _not_yet(f"The exercise asks for NumPy only, and your function calls "
                            f"{' and '.join(called)}: write the formula with NumPy.")
        arr = _as_array(got)
        if arr is None or arr.shape != (length, d_model):
            shape = None if arr is None else arr.shape
            return _not_yet(f"With ({length}, {d_model}) it must return an array of "
                            f"shape ({length}, {d_model}); got {shape}.")
        expected = _paper_table(length, d_model)
        if not np.allclose(arr, expected, atol=1e-6, rtol=0):
            return _not_yet(_spot_the_bug_hint(arr, expected))
    return _correct("Your fixed_sinusoidal gives the paper's table at every size tested.")


def _spot_the_bug_hint(arr, expected):
    """The hint for a table ``arr`` that is not the paper's table ``expected``: which slip it shows."""
    length, d_model = expected.shape
    pos = np.arange(length, dtype=float)[:, None]

    def interleave(omega):
        table = np.empty((length, d_model))
        table[:, 0::2], table[:, 1::2] = np.sin(pos * omega), np.cos(pos * omega)
        return table

    pairs = np.arange(d_model // 2)
    still_buggy = interleave(10000.0 ** (-4.0 * pairs / d_model))  # the exercise's bug
    other_slip = interleave(10000.0 ** (-1.0 * pairs / d_model))  # i instead of 2i
    halves = np.hstack([expected[:, 0::2], expected[:, 1::2]])
    if np.allclose(arr, still_buggy, atol=1e-6):
        return ("These are still the buggy numbers: only the first pair of columns is right. "
                "What values does the variable i take, and what does the formula need there?")
    if np.allclose(arr, other_slip, atol=1e-6):
        return ("Now the exponent is off the other way (the slip discussed with the tutorial's "
                "table): the later pairs turn too fast. Compare the exponent with the formula "
                "once more.")
    if np.allclose(arr, halves, atol=1e-6):
        return ("The numbers are right but in the wrong columns: the paper interleaves, "
                "sine in column 2i and cosine in column 2i + 1.")
    if np.allclose(arr[:, :2], expected[:, :2], atol=1e-6):
        return ("The first pair of columns is right, the others turn at the wrong speed: "
                "check the exponent of 10000.")
    return ("The shape is right but the values are not: compare your first row with "
            "the formula (position 0 gives 0, 1, 0, 1, ...).")


def check_sines_dot_at_offset(dot_at_offset):
    r"""Check a function that gives :math:`PE(pos) \cdot PE(pos + k)` without a table.

    The function is called for several offsets ``k`` (positive, negative,
    zero, and one between two positions, ``k = 2.5``: the formula holds for
    any real offset) and even widths, and compared with
    :math:`\sum_i \cos(k\,\omega_i)` (base 10000). The exercise rules out a
    table: a function that calls :func:`posenc.sinusoidal` or
    :func:`posenc.rotation_matrix` gets a hint that says so, and so does one
    that works at whole offsets only, as a table's rows do.

    Parameters
    ----------
    dot_at_offset : callable
        A function ``(k, d_model) -> float``.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_sines_dot_at_offset(lambda k, d_model: d_model / 2)
    Not yet. Right at k = 0, where every pair contributes 1, but not for other offsets: how much does pair i contribute when the two angles differ by k * omega_i?
    False
    """
    if not callable(dot_at_offset):
        return _not_yet("Pass the function itself (dot_at_offset), not a number it returned.")
    cases = [(0, 8), (1, 8), (-3, 8), (10, 128), (37, 128), (500, 512), (-500, 512), (2, 2), (2.5, 8)]
    for k, d_model in cases:
        whole = float(k).is_integer()
        try:
            got, called = _call_watching(_SINES_TABLES, dot_at_offset, k, d_model)
        except (Exception, SystemExit) as err:  # the learner's code may raise anything
            if not whole:
                return _not_yet(_SINES_NO_TABLE.format(k=k))
            return _not_yet(_raised_hint(f"it with (k={k}, d_model={d_model})", err))
        if called:
            return _not_yet(f"The exercise asks for no table, and your function calls "
                            f"{' and '.join(called)}: use the dot-product property instead.")
        arr = _as_array(got)
        if arr is None or arr.size != 1:
            return _not_yet(f"It must return one number; with (k={k}, d_model={d_model}) "
                            "it returned something else.")
        omega = 10000.0 ** (-2.0 * np.arange(d_model // 2) / d_model)
        if not np.isclose(float(arr.reshape(())), np.cos(k * omega).sum(), atol=1e-6, rtol=1e-6):
            if not whole:
                hint = _SINES_NO_TABLE.format(k=k)
            elif k == 0:
                hint = "Start with k = 0: a row dotted with itself gives its squared norm."
            elif np.isclose(float(arr.reshape(())), d_model / 2):
                hint = ("Right at k = 0, where every pair contributes 1, but not for other "
                        "offsets: how much does pair i contribute when the two angles differ "
                        "by k * omega_i?")
            else:
                hint = (f"Wrong for k = {k}, d_model = {d_model}. Test it against a table: "
                        "pe = posenc.sinusoidal(k + 1, d_model); pe[0] @ pe[k].")
            return _not_yet(hint)
    return _correct("Your dot_at_offset is right at every offset and width tested.")


_SINES_NO_TABLE = ("Right at whole offsets, but not at k = {k}: the exercise asks for any real "
                   "offset, and a table has rows at whole positions only. Use the dot-product "
                   "property, which holds for every k.")


def check_sines_rotation(M):
    r"""Check the 6 x 6 matrix that moves every encoding 5 positions on.

    ``M @ PE(pos)`` must equal ``PE(pos + 5)`` for every ``pos``, with the
    paper's table for ``d_model = 6`` (interleaved, base 10000).

    Parameters
    ----------
    M : array_like of shape (6, 6)

    Returns
    -------
    bool

    Examples
    --------
    >>> check_sines_rotation(np.eye(6))
    Not yet. M @ PE(pos) should equal PE(pos + 5) for every pos; the identity leaves every row where it is.
    False
    """
    arr = _as_array(M)
    if arr is None or arr.shape != (6, 6):
        shape = None if arr is None else arr.shape
        return _not_yet(f"M must be a 6 x 6 array; got shape {shape}.")
    table = _paper_table(40, 6)
    with np.errstate(all="ignore"):  # entries near 1e308 overflow: a wrong M, not an error
        moved = table[:-5] @ arr.T  # row p becomes M @ PE(p)
        moved_back = table[5:] @ arr.T
    if np.allclose(moved, table[5:], atol=1e-6):
        return _correct("Your matrix maps PE(pos) to PE(pos + 5) for every position tested.")
    if np.allclose(moved_back, table[:-5], atol=1e-6):
        hint = ("This M moves rows 5 positions back. Check the signs of the sine entries "
                "against the angle-addition formulas.")
    elif np.allclose(arr, np.eye(6)):
        hint = ("M @ PE(pos) should equal PE(pos + 5) for every pos; the identity leaves "
                "every row where it is.")
    elif np.allclose(moved, table[5:], atol=1e-3):
        hint = ("Close, but keep more digits: with its entries rounded, M moves PE(pos) near "
                "PE(pos + 5) but not onto it. Use the full values of cos and sin, not rounded "
                "ones.")
    elif np.allclose(moved[:1], table[5:6], atol=1e-6):
        hint = ("It works for pos = 0 but not for every pos: M must not depend on the position, "
                "only on the shift 5 (use the angle-addition formulas).")
    else:
        hint = ("Follow the chapter's construction of M_k, now with k = 5: write each entry of "
                "PE(pos + 5) with the angle-addition formulas. Which entries of PE(pos) does it "
                "need, and with which coefficients?")
    return _not_yet(hint)


def check_sines_layout_permutation(perm):
    """Check the column order that turns the "halves" table back into the interleaved one.

    For ``d_model = 10``, ``sinusoidal(L, 10, layout="halves")[:, perm]`` must
    equal ``sinusoidal(L, 10)`` (the paper's interleaved layout).

    Parameters
    ----------
    perm : sequence of int
        A permutation of ``0, 1, ..., 9`` (list, tuple or integer array).

    Returns
    -------
    bool

    Examples
    --------
    >>> check_sines_layout_permutation(list(range(10)))
    Not yet. That keeps the columns where they are. In the interleaved table, which column of the halves table comes second?
    False
    """
    perm = _integer_array(perm)  # None unless every entry is a whole, finite number
    if perm is None or perm.shape != (10,) or sorted(perm.tolist()) != list(range(10)):
        return _not_yet("perm_back must list each of the column numbers 0, 1, ..., 9 "
                        "exactly once.")
    inter = _paper_table(12, 10)
    halves = np.hstack([inter[:, 0::2], inter[:, 1::2]])
    if np.array_equal(halves[:, perm], inter):
        return _correct("The halves table, reordered by perm_back, equals the "
                        "interleaved one.")
    if np.array_equal(inter[:, perm], halves):
        hint = ("This turns the interleaved table into the halves one, the direction shown in "
                "the chapter. You need the way back: where does each interleaved column sit "
                "in the halves table?")
    elif np.array_equal(perm, np.arange(10)):
        hint = ("That keeps the columns where they are. In the interleaved table, which column "
                "of the halves table comes second?")
    else:
        hint = ("Column 2i of the interleaved table is the sine of pair i and column 2i + 1 its "
                "cosine. Where are those two columns in the halves table?")
    return _not_yet(hint)
