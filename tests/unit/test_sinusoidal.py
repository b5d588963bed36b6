"""Tests of posenc.sinusoidal: hand-computed values, layouts, bad input, properties, fast tables.

The property tests run over random lengths, widths and bases. Each states a property that the chapter "The sinusoidal formula" derives
on paper, and checks it with hypothesis over many tables. The expected values
come from the formulas (sums of cosines, angle addition), never from the code
under test.

The fast tables: ``posenc.sinusoidal`` (angle addition) against the formula.
Long tables are computed as rotations of their first block of rows (see
``_rotation_blocks`` in posenc/sinusoidal.py). These tests compare them with
the formula evaluated entry by entry, one ``np.sin`` or ``np.cos`` per entry,
by code that shares nothing with the table code of posenc but the
frequencies (which the first tests of this file check by hand).

How close must they be? Both compute angles ``pos * omega`` in float64, and
rounding an angle moves it by up to ``eps/2 * |angle|``. The fast method
rounds two angles per entry, ``r * omega`` within the first block (small)
and the turn ``k * omega`` of its block, and ``k`` runs up to the length of
the table: the turn angle is as large as ``pos * omega``, and its rounding
error as large as the formula's. So the two may differ by a few
``eps * max|pos|``: about 1e-11 at position 65536, far inside the 1e-9 that
issue 9 asks for (the appendix measures 7.2e-12 at 65536 x 1024). ``bound`` below states this
margin; the float32 tables must be that float64 value rounded once.
"""

from __future__ import annotations

import importlib
import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc
from posenc import frequencies, rotation_matrix, sinusoidal, wavelengths


def reference_table(length, d_model, base=10000.0):
    """The implementation printed in the source document (exp/log, strided)."""
    pe = np.zeros((length, d_model))
    position = np.arange(0, length).reshape(-1, 1)
    div_term = np.exp(np.arange(0, d_model, 2) * -(np.log(base) / d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


# --- frequencies and wavelengths -----------------------------------------


def test_frequencies_by_hand():
    # 10000 ** (-2i/4) for i = 0, 1
    np.testing.assert_allclose(frequencies(4), [1.0, 0.01], rtol=1e-15)
    # 10000 ** (-2i/6): 1, 10000**(-1/3), 10000**(-2/3)
    np.testing.assert_allclose(
        frequencies(6), [1.0, 0.046415888336127774, 0.0021544346900318843], rtol=1e-14
    )
    np.testing.assert_allclose(frequencies(4, base=100.0), [1.0, 0.1], rtol=1e-15)


def test_frequencies_endpoint_reaches_one_over_base():
    np.testing.assert_allclose(frequencies(6, endpoint=True), [1.0, 1e-2, 1e-4], rtol=1e-14)
    omega = frequencies(512, endpoint=True)
    assert omega[0] == 1.0 and math.isclose(omega[-1], 1e-4, rel_tol=1e-12)
    # the paper's ladder stops one step short of 1/base
    assert math.isclose(frequencies(512)[-1], 10000.0 ** (-510 / 512), rel_tol=1e-12)
    assert frequencies(512)[-1] > 1e-4


def test_frequencies_odd_and_tiny_widths():
    # d_model = 5 has three sines and two cosines: three frequencies
    np.testing.assert_allclose(
        frequencies(5), [1.0, 10000.0 ** (-2 / 5), 10000.0 ** (-4 / 5)], rtol=1e-14
    )
    np.testing.assert_array_equal(frequencies(1), [1.0])
    np.testing.assert_array_equal(frequencies(1, endpoint=True), [1.0])
    np.testing.assert_array_equal(frequencies(2, endpoint=True), [1.0])


def test_wavelengths_are_two_pi_over_frequency():
    np.testing.assert_allclose(wavelengths(4), [2 * np.pi, 200 * np.pi], rtol=1e-14)
    lam = wavelengths(512)
    assert lam[0] == 2 * np.pi
    assert np.all(np.diff(lam) > 0)
    assert math.isclose(lam[-1], 2 * np.pi * 10000 ** (510 / 512), rel_tol=1e-12)
    assert math.isclose(wavelengths(512, endpoint=True)[-1], 2 * np.pi * 10000, rel_tol=1e-12)


# --- the table -----------------------------------------------------------


def test_table_by_hand_d4():
    pe = sinusoidal(3, 4)
    expected = [
        [0.0, 1.0, 0.0, 1.0],
        [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)],
        [math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)],
    ]
    np.testing.assert_allclose(pe, expected, rtol=0, atol=1e-15)
    assert pe.shape == (3, 4) and pe.dtype == np.float64


def test_table_matches_source_document_implementation():
    for length, d in [(4, 6), (50, 16), (7, 512)]:
        np.testing.assert_allclose(sinusoidal(length, d), reference_table(length, d), atol=1e-12)


def test_halves_layout_is_a_column_permutation():
    inter = sinusoidal(10, 8)
    halves = sinusoidal(10, 8, layout="halves")
    np.testing.assert_array_equal(halves[:, :4], inter[:, 0::2])
    np.testing.assert_array_equal(halves[:, 4:], inter[:, 1::2])
    np.testing.assert_allclose(halves[1], [math.sin(1), math.sin(0.1), math.sin(0.01),
                                           math.sin(0.001), math.cos(1), math.cos(0.1),
                                           math.cos(0.01), math.cos(0.001)], atol=1e-15)


def test_odd_width_extra_column_is_next_sine():
    pe = sinusoidal(6, 5)
    omega = frequencies(5)
    pos = np.arange(6)
    np.testing.assert_allclose(pe[:, 4], np.sin(pos * omega[2]), atol=1e-15)
    np.testing.assert_allclose(pe[:, :4], np.column_stack(
        [np.sin(pos * omega[0]), np.cos(pos * omega[0]), np.sin(pos * omega[1]), np.cos(pos * omega[1])]
    ), atol=1e-15)
    halves = sinusoidal(6, 5, layout="halves")
    np.testing.assert_array_equal(halves[:, :3], pe[:, 0::2])
    np.testing.assert_array_equal(halves[:, 3:], pe[:, 1::2])
    one = sinusoidal(3, 1)
    np.testing.assert_allclose(one[:, 0], np.sin([0, 1, 2]), atol=1e-15)


def test_start_shifts_the_positions():
    np.testing.assert_array_equal(sinusoidal(6, 4, start=1), sinusoidal(7, 4)[1:])
    np.testing.assert_allclose(sinusoidal(1, 2, start=-3), [[math.sin(-3), math.cos(-3)]], atol=1e-15)


def test_endpoint_table_uses_endpoint_frequencies():
    pe = sinusoidal(5, 6, endpoint=True, layout="halves")
    omega = np.array([1.0, 1e-2, 1e-4])
    pos = np.arange(5)[:, None]
    np.testing.assert_allclose(pe, np.hstack([np.sin(pos * omega), np.cos(pos * omega)]), atol=1e-15)


def test_dtype():
    # a float32 table is the float64 table rounded once, bit for bit (the
    # docstring's promise), for a short table (the formula) and a long one
    # (rotated blocks), in both layouts
    for length in (64, 100):
        for layout in ("interleaved", "halves"):
            pe32 = sinusoidal(length, 64, dtype=np.float32, layout=layout)
            assert pe32.dtype == np.float32
            np.testing.assert_array_equal(pe32, sinusoidal(length, 64, layout=layout).astype(np.float32))


# --- the rotation matrix -------------------------------------------------


@pytest.mark.parametrize("layout", ["interleaved", "halves"])
@pytest.mark.parametrize("k", [0, 1, 5, -3, 2.5])
def test_rotation_matrix_shifts_every_row(layout, k):
    d = 8
    M = rotation_matrix(k, d, layout=layout)
    np.testing.assert_allclose(M @ M.T, np.eye(d), atol=1e-13)  # orthogonal
    positions = np.arange(20, dtype=float)
    table = sinusoidal(20, d, layout=layout)
    shifted = table @ M.T
    omega = frequencies(d)
    angles = np.outer(positions + k, omega)
    if layout == "interleaved":
        expected = np.empty((20, d))
        expected[:, 0::2], expected[:, 1::2] = np.sin(angles), np.cos(angles)
    else:
        expected = np.hstack([np.sin(angles), np.cos(angles)])
    np.testing.assert_allclose(shifted, expected, atol=1e-12)


def test_rotation_matrix_by_hand_d2():
    c, s = math.cos(1.0), math.sin(1.0)
    np.testing.assert_allclose(rotation_matrix(1, 2), [[c, s], [-s, c]], atol=1e-15)


# --- bad input -----------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"length": 0}, ValueError, "length"),
        ({"length": -3}, ValueError, "length"),
        ({"length": 4.0}, TypeError, "length"),
        ({"length": "4"}, TypeError, "length"),
        ({"length": True}, TypeError, "length"),
        ({"d_model": 0}, ValueError, "d_model"),
        ({"d_model": -2}, ValueError, "d_model"),
        ({"d_model": 2.5}, TypeError, "d_model"),
        ({"base": 0}, ValueError, "base"),
        ({"base": -10000.0}, ValueError, "base"),
        ({"base": float("inf")}, ValueError, "base"),
        ({"base": float("nan")}, ValueError, "base"),
        ({"base": "10000"}, TypeError, "base"),
        ({"layout": "sideways"}, ValueError, "layout"),
        ({"layout": "Interleaved"}, ValueError, "layout"),
        ({"start": 0.5}, TypeError, "start"),
        ({"endpoint": 1}, TypeError, "endpoint"),
        ({"dtype": np.int32}, TypeError, "dtype"),
        ({"dtype": "not a dtype"}, TypeError, "dtype"),
    ],
)
def test_sinusoidal_bad_arguments(kwargs, error, words):
    args = {"length": 4, "d_model": 6, **kwargs}
    with pytest.raises(error, match=words) as info:
        sinusoidal(**args)
    # the message shows what was passed or what is allowed
    assert len(str(info.value)) > len(words) + 10


def test_layout_error_lists_allowed_values():
    with pytest.raises(ValueError, match="'interleaved', 'halves'"):
        sinusoidal(4, 6, layout="sideways")


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: frequencies(0), ValueError, "d_model"),
        (lambda: frequencies(4, base=0.0), ValueError, "base"),
        (lambda: wavelengths(4, base=-1.0), ValueError, "base"),
        (lambda: wavelengths(3.0), TypeError, "d_model"),
        (lambda: rotation_matrix(1, 5), ValueError, "even"),
        (lambda: rotation_matrix(1, 0), ValueError, "d_model"),
        (lambda: rotation_matrix(float("nan"), 4), ValueError, "offset"),
        (lambda: rotation_matrix("1", 4), TypeError, "offset"),
        (lambda: rotation_matrix(1, 4, layout="pairs"), ValueError, "layout"),
    ],
)
def test_other_bad_arguments(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_rotation_directions_follow_the_notation_page():
    """book/notation.md, "Angles and rotations": R(a) turns anticlockwise; the
    sinusoidal shift M_k is R(-k omega_i) on every pair (the clock hand turns
    clockwise), and RoPE turns pair i at position m by R(m theta_i)."""
    from posenc import rope

    def R(a):
        return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    # R turns the x axis towards the y axis: anticlockwise
    assert np.allclose(R(math.pi / 2) @ [1, 0], [0, 1])
    k, omega = 3, frequencies(6)
    M = rotation_matrix(k, 6)
    for i, w in enumerate(omega):
        assert np.allclose(M[2 * i:2 * i + 2, 2 * i:2 * i + 2], R(-k * w), rtol=0, atol=1e-15)
    # the clock hand: 12 o'clock at position 0, then clockwise
    pair0 = sinusoidal(2, 6)[:, :2]
    assert np.allclose(pair0[0], [0, 1])
    assert pair0[0, 0] * pair0[1, 1] - pair0[0, 1] * pair0[1, 0] < 0  # cross product
    # RoPE: pair i of a vector at position m turns by +m theta_i
    x = np.array([[1.0, 0.0, 1.0, 0.0]])
    turned = rope(x, [2])[0]
    for i, theta in enumerate(frequencies(4)):
        assert np.allclose(turned[2 * i:2 * i + 2], R(2 * theta) @ [1.0, 0.0])


# No deadline: the machine may be shared, and a slow example is not a failure.
common = settings(deadline=None, max_examples=60)


lengths = st.integers(min_value=1, max_value=48)


even_widths = st.integers(min_value=1, max_value=64).map(lambda half: 2 * half)


any_widths = st.integers(min_value=1, max_value=129)


bases = st.floats(min_value=2.0, max_value=1e5, allow_nan=False, allow_infinity=False)


starts = st.integers(min_value=-500, max_value=500)


offsets = st.integers(min_value=-300, max_value=300)


layouts = st.sampled_from(["interleaved", "halves"])


endpoints = st.booleans()


def ladder(d_model, base, endpoint):
    """omega_i written out from the two formulas, one per (sin, cos) pair."""
    n = (d_model + 1) // 2
    i = np.arange(n)
    if endpoint:
        return base ** -(i / max(n - 1, 1))
    return base ** (-2 * i / d_model)


@common
@given(lengths, even_widths, bases, starts, layouts, endpoints)
def test_even_width_rows_have_norm_sqrt_half_d(length, d, base, start, layout, endpoint):
    # each (sin, cos) pair contributes sin^2 + cos^2 = 1, and there are d/2 pairs
    pe = sinusoidal(length, d, base=base, start=start, layout=layout, endpoint=endpoint)
    np.testing.assert_allclose(np.linalg.norm(pe, axis=1), math.sqrt(d / 2), rtol=1e-12)


@common
@given(lengths, any_widths.filter(lambda d: d % 2), bases, starts)
def test_odd_width_norm_has_one_unpaired_sine(length, d, base, start):
    # (d - 1)/2 full pairs, plus the lone sine of the last frequency
    pe = sinusoidal(length, d, base=base, start=start)
    pos = np.arange(start, start + length)
    last = ladder(d, base, False)[-1]
    expected = (d - 1) / 2 + np.sin(pos * last) ** 2
    np.testing.assert_allclose((pe**2).sum(axis=1), expected, rtol=1e-12, atol=1e-12)


@common
@given(lengths, even_widths, bases, starts, layouts, endpoints)
def test_dot_products_are_sums_of_cosines_of_the_offset(length, d, base, start, layout, endpoint):
    # sin a sin b + cos a cos b = cos(a - b), summed over the pairs
    pe = sinusoidal(length, d, base=base, start=start, layout=layout, endpoint=endpoint)
    omega = ladder(d, base, endpoint)
    offset = np.subtract.outer(np.arange(length), np.arange(length))
    expected = np.cos(offset[..., None] * omega).sum(axis=-1)
    np.testing.assert_allclose(pe @ pe.T, expected, atol=1e-9 * d)


@common
@given(lengths, even_widths, bases, starts, layouts)
def test_dot_product_matrix_is_constant_along_diagonals(length, d, base, start, layout):
    sim = sinusoidal(length, d, base=base, start=start, layout=layout)
    sim = sim @ sim.T
    for k in range(-length + 1, length):
        diagonal = np.diagonal(sim, offset=k)
        np.testing.assert_allclose(diagonal, diagonal[0], atol=1e-9 * d)


@common
@given(even_widths, bases, starts, offsets.filter(lambda k: k != 0))
def test_dot_product_cannot_tell_before_from_after(d, base, pos, k):
    here = sinusoidal(1, d, base=base, start=pos)[0]
    after = sinusoidal(1, d, base=base, start=pos + k)[0]
    before = sinusoidal(1, d, base=base, start=pos - k)[0]
    assert math.isclose(here @ after, here @ before, rel_tol=1e-9, abs_tol=1e-9 * d)


@common
@given(lengths, even_widths, bases, starts, offsets, layouts, endpoints)
def test_shift_by_k_is_the_rotation_m_k(length, d, base, start, k, layout, endpoint):
    kwargs = {"base": base, "layout": layout, "endpoint": endpoint}
    table = sinusoidal(length, d, start=start, **kwargs)
    shifted = sinusoidal(length, d, start=start + k, **kwargs)
    M = rotation_matrix(k, d, **kwargs)
    np.testing.assert_allclose(table @ M.T, shifted, atol=1e-9)


@common
@given(even_widths, bases, offsets, offsets, layouts, endpoints)
def test_rotations_are_orthogonal_and_compose_by_adding_offsets(d, base, j, k, layout, endpoint):
    kwargs = {"base": base, "layout": layout, "endpoint": endpoint}
    Mj, Mk = rotation_matrix(j, d, **kwargs), rotation_matrix(k, d, **kwargs)
    np.testing.assert_allclose(Mk @ Mk.T, np.eye(d), atol=1e-12)
    np.testing.assert_allclose(Mj @ Mk, rotation_matrix(j + k, d, **kwargs), atol=1e-9)
    np.testing.assert_allclose(rotation_matrix(-k, d, **kwargs), Mk.T, atol=1e-12)


@common
@given(st.integers(min_value=2, max_value=48), even_widths, bases, starts, layouts, endpoints)
def test_consecutive_rows_are_equally_far_apart(length, d, base, start, layout, endpoint):
    # |PE(p+1) - PE(p)|^2 = sum over pairs of 2 - 2 cos(omega_i), whatever p is
    pe = sinusoidal(length, d, base=base, start=start, layout=layout, endpoint=endpoint)
    steps = np.linalg.norm(np.diff(pe, axis=0), axis=1)
    expected = math.sqrt(np.sum(2 - 2 * np.cos(ladder(d, base, endpoint))))
    np.testing.assert_allclose(steps, expected, rtol=1e-9, atol=1e-12)


@common
@given(lengths, any_widths, bases, starts, endpoints)
def test_halves_layout_is_the_interleaved_table_with_columns_permuted(length, d, base, start, endpoint):
    kwargs = {"base": base, "start": start, "endpoint": endpoint}
    inter = sinusoidal(length, d, **kwargs)
    halves = sinusoidal(length, d, layout="halves", **kwargs)
    perm = np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])  # sines, then cosines
    np.testing.assert_allclose(halves, inter[:, perm], atol=1e-12)
    # a permutation changes no norm and no dot product
    np.testing.assert_allclose(halves @ halves.T, inter @ inter.T, atol=1e-9 * d)


@common
@given(any_widths, bases, endpoints)
def test_ladders_are_geometric_from_one(d, base, endpoint):
    omega = frequencies(d, base=base, endpoint=endpoint)
    n = (d + 1) // 2
    assert omega.shape == (n,) and omega[0] == 1.0
    ratio = base ** (-1 / (n - 1)) if endpoint and n > 1 else base ** (-2 / d)
    np.testing.assert_allclose(omega[1:] / omega[:-1], ratio, rtol=1e-12)
    np.testing.assert_allclose(wavelengths(d, base=base, endpoint=endpoint), 2 * np.pi / omega,
                               rtol=1e-14)


@common
@given(st.integers(min_value=2, max_value=129), bases)
def test_endpoint_ladder_ends_at_one_over_base_and_the_paper_stops_short(d, base):
    n = (d + 1) // 2
    paper = frequencies(d, base=base)
    assert math.isclose(paper[-1], base ** (-2 * (n - 1) / d), rel_tol=1e-12)
    assert paper[-1] > 1 / base  # 2(n - 1)/d < 1 for every width
    if n > 1:
        assert math.isclose(frequencies(d, base=base, endpoint=True)[-1], 1 / base, rel_tol=1e-12)


@common
@given(lengths, even_widths.filter(lambda d: d >= 4), starts)
def test_endpoint_halves_matches_the_tensor2tensor_recipe(length, d, start):
    # get_timing_signal_1d: log-spaced timescales from 1 to 1e4, sines then cosines
    num_timescales = d // 2
    log_increment = math.log(1.0e4 / 1.0) / max(num_timescales - 1, 1)
    inv_timescales = np.exp(np.arange(num_timescales) * -log_increment)
    scaled_time = np.arange(start, start + length)[:, None] * inv_timescales[None, :]
    signal = np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)
    ours = sinusoidal(length, d, start=start, layout="halves", endpoint=True)
    np.testing.assert_allclose(ours, signal, atol=1e-9)


@common
@given(lengths, any_widths, bases, starts, layouts, endpoints)
def test_row_j_is_position_start_plus_j(length, d, base, start, layout, endpoint):
    kwargs = {"base": base, "layout": layout, "endpoint": endpoint}
    table = sinusoidal(length, d, start=start, **kwargs)
    j = length // 2
    np.testing.assert_allclose(table[j], sinusoidal(1, d, start=start + j, **kwargs)[0], atol=1e-12)


module = importlib.import_module("posenc.sinusoidal")  # the module, not the function


EPS = np.finfo(np.float64).eps


def direct_table(length, d_model, *, start=0, layout="interleaved", endpoint=False, base=10000.0):
    """The formula entry by entry: column j is the sin or cos of pos * omega[pair of j]."""
    omega = frequencies(d_model, base=base, endpoint=endpoint)
    n_sin = (d_model + 1) // 2
    col = np.arange(d_model)
    if layout == "interleaved":
        pair, is_sin = col // 2, col % 2 == 0
    else:
        pair, is_sin = np.where(col < n_sin, col, col - n_sin), col < n_sin
    pos = np.arange(start, start + length, dtype=np.float64)[:, None]
    angles = pos * omega[pair]  # the angle of every entry
    return np.where(is_sin, np.sin(angles), np.cos(angles))


def bound(start, length):
    """Allowed float64 difference: a few eps times the largest |position|."""
    return 4 * EPS * (abs(start) + length) + 1e-14


@pytest.mark.parametrize(
    "length, d_model, start, layout, endpoint",
    [
        (65536, 2, 0, "interleaved", False),
        (65536, 64, 0, "interleaved", False),
        (65536, 64, 0, "halves", False),
        (65536, 96, 12345, "interleaved", False),
        (65536, 7, -30000, "interleaved", False),  # odd width, negative start
        (65536, 33, 1, "halves", True),
        (50000, 20, -65536, "interleaved", True),  # positions -65536 .. -15537
        (4161, 256, 0, "interleaved", False),  # 64 blocks of 65 rows, then one row
    ],
)
def test_float64_matches_the_formula(length, d_model, start, layout, endpoint):
    fast = sinusoidal(length, d_model, start=start, layout=layout, endpoint=endpoint)
    exact = direct_table(length, d_model, start=start, layout=layout, endpoint=endpoint)
    assert fast.shape == (length, d_model) and fast.dtype == np.float64
    err = np.abs(fast - exact).max()
    assert err <= 1e-9, f"max error {err:.3g} exceeds the issue's 1e-9"
    assert err <= bound(start, length), f"max error {err:.3g} exceeds {bound(start, length):.3g}"


@pytest.mark.parametrize("layout, d_model", [("interleaved", 32), ("halves", 32), ("interleaved", 9)])
def test_float32_is_the_float64_table_rounded_once(layout, d_model):
    # bit for bit: a bound on the error would also pass a table rounded twice
    # (products in complex64, say), which this property rules out
    length, start = 65536, -7
    fast = sinusoidal(length, d_model, start=start, layout=layout, dtype=np.float32)
    assert fast.dtype == np.float32
    t64 = sinusoidal(length, d_model, start=start, layout=layout)
    np.testing.assert_array_equal(fast, t64.astype(np.float32))
    # and that float64 table is the formula's, so float32 is within one rounding of it
    exact = direct_table(length, d_model, start=start, layout=layout)
    err = np.abs(fast.astype(np.float64) - exact).max()
    assert err <= 2.0**-25 + bound(start, length), f"max error {err:.3g}"


@pytest.mark.parametrize("dtype, tol", [(np.float16, 2.0**-11), (np.longdouble, 1e-12)])
def test_other_float_dtypes(dtype, tol):
    fast = sinusoidal(300, 16, dtype=dtype)
    assert fast.dtype == dtype
    np.testing.assert_allclose(fast.astype(np.float64), direct_table(300, 16), rtol=0, atol=tol)


def test_short_tables_are_the_formula_itself():
    # up to _DIRECT_ROWS rows there is one block: no rotation, same bits
    assert module._DIRECT_ROWS == 64
    for layout in ("interleaved", "halves"):
        for d in (1, 6, 11):
            np.testing.assert_array_equal(sinusoidal(64, d, layout=layout, start=-5),
                                          direct_table(64, d, layout=layout, start=-5))


def test_longer_table_starts_like_a_shorter_one():
    long = sinusoidal(10000, 32)
    np.testing.assert_allclose(long[:300], sinusoidal(300, 32), rtol=0, atol=bound(0, 300))
    np.testing.assert_allclose(long[5000:5100], sinusoidal(100, 32, start=5000), rtol=0,
                               atol=bound(0, 10000))


def test_rows_far_from_zero_stay_on_the_unit_circle():
    # each (sin, cos) pair of a rotated row still has length 1
    pe = sinusoidal(65536, 16, start=1_000_000)
    np.testing.assert_allclose(pe[:, 0::2] ** 2 + pe[:, 1::2] ** 2, 1.0, rtol=0, atol=1e-14)


def test_rotation_blocks_by_hand():
    # block 2, positions 0..4, one frequency: block 1 is block 0 turned by 2 rad
    omega = np.array([1.0])
    blocks = list(module._rotation_blocks(0, 5, omega, 2))
    assert [rows for rows, _, _ in blocks] == [slice(0, 2), slice(2, 4), slice(4, 5)]
    _, first, turn = blocks[1]
    np.testing.assert_allclose(first[:, 0], [np.sin(0) + 1j * np.cos(0), np.sin(1) + 1j * np.cos(1)])
    np.testing.assert_allclose(turn, [np.cos(2) - 1j * np.sin(2)])
    # sin(1 + 2) = sin 1 cos 2 + cos 1 sin 2 and cos(1 + 2) = cos 1 cos 2 - sin 1 sin 2
    z = (first * turn)[1, 0]
    assert abs(z.real - np.sin(3)) < 1e-15 and abs(z.imag - np.cos(3)) < 1e-15
    assert len(blocks[2][1]) == 1  # the last block is cut to the table


@settings(max_examples=60, deadline=None)
@given(
    length=st.integers(1, 120),
    block=st.integers(1, 120),
    start=st.integers(-5000, 5000),
    d_model=st.integers(1, 24),
)
def test_rotation_blocks_reproduce_the_formula(length, block, start, d_model):
    block = min(block, length)
    omega = frequencies(d_model)
    rows, pairs = [], []
    for r, first, turn in module._rotation_blocks(start, length, omega, block):
        rows.append(r)
        pairs.append(first * turn)
    # the blocks cover every row once, in order
    assert rows[0].start == 0 and rows[-1].stop == length
    assert all(a.stop == b.start for a, b in zip(rows, rows[1:]))
    z = np.concatenate(pairs)
    exact = module._direct(np.arange(start, start + length, dtype=np.float64), omega)
    np.testing.assert_allclose(z.real, exact.real, rtol=0, atol=bound(start, length))
    np.testing.assert_allclose(z.imag, exact.imag, rtol=0, atol=bound(start, length))


@settings(max_examples=60, deadline=None)
@given(
    length=st.integers(1, 300),
    d_model=st.integers(1, 40),
    start=st.integers(-2000, 2000),
    layout=st.sampled_from(["interleaved", "halves"]),
    endpoint=st.booleans(),
    dtype=st.sampled_from([np.float64, np.float32]),
)
def test_fast_equals_direct_on_random_shapes(length, d_model, start, layout, endpoint, dtype):
    # with _DIRECT_ROWS = 1 even tiny tables take the angle-addition path
    with mock.patch.object(module, "_DIRECT_ROWS", 1):
        fast = sinusoidal(length, d_model, start=start, layout=layout, endpoint=endpoint, dtype=dtype)
    exact = direct_table(length, d_model, start=start, layout=layout, endpoint=endpoint)
    assert fast.shape == (length, d_model) and fast.dtype == dtype
    tol = bound(start, length) + (2.0**-25 if dtype == np.float32 else 0.0)
    np.testing.assert_allclose(fast.astype(np.float64), exact, rtol=0, atol=tol)


LIMIT = r"^start and length must keep the positions .* within -2\*\*53 to 2\*\*53"


def test_sinusoidal_refuses_positions_float64_cannot_tell_apart():
    limit = 2**53  # every integer up to here is a float64, and no further
    assert float(limit + 1) == float(limit) and float(limit - 1) != float(limit)
    with pytest.raises(ValueError, match=LIMIT + r".*got start=9007199254740992 and length=4$"):
        posenc.sinusoidal(4, 2, start=limit)
    with pytest.raises(ValueError, match=LIMIT):
        posenc.sinusoidal(2, 2, start=-limit - 1)
    with pytest.raises(ValueError, match=LIMIT):
        posenc.sinusoidal(3, 2, start=limit - 1)  # the last row would be 2**53 + 1
    with pytest.raises(ValueError, match=LIMIT + r".*got start=0 and length=~1e\+400$"):
        posenc.sinusoidal(10**400, 2)
    # up to the limit the rows are distinct positions
    pe = posenc.sinusoidal(2, 2, start=limit - 1)
    assert not np.array_equal(pe[0], pe[1])
    assert posenc.sinusoidal(1, 2, start=-limit).shape == (1, 2)


def test_sinusoidal_names_start_when_it_does_not_fit_in_a_float():
    with pytest.raises(ValueError, match=LIMIT + r".*got start=~1e\+400 and length=4$"):
        posenc.sinusoidal(4, 2, start=10**400)
    with pytest.raises(ValueError, match=LIMIT + r".*got start=~-1e\+5000"):
        posenc.sinusoidal(4, 2, start=-(10**5000))  # too long even for repr()


@pytest.mark.parametrize("base", [1e-310, 0.5, 1.0, np.nextafter(1.0, 0)])
def test_base_must_be_greater_than_one(base):
    for call in (lambda: posenc.frequencies(4, base=base),
                 lambda: posenc.sinusoidal(2, 4, base=base, endpoint=True),
                 lambda: posenc.rope(np.ones((2, 4)), base=base)):
        with pytest.raises(ValueError, match=r"^base must be greater than 1"):
            call()


@settings(deadline=None)  # a loaded shared machine must not make this flaky
@given(st.integers(1, 300), st.floats(np.nextafter(1.0, 2), 1e300), st.booleans())
def test_frequencies_never_increase_from_1_to_one_over_base(d_model, base, endpoint):
    omega = posenc.frequencies(d_model, base=base, endpoint=endpoint)
    assert omega[0] == 1.0
    assert np.all(np.diff(omega) <= 0)
    assert np.all(omega >= 1 / base * (1 - 1e-12))


# --- Transformers' MarianSinusoidalPositionalEmbedding (issue 39) ---------------------
# tests/fixtures/sines_rel_reference.json, made by tools/make_sines_rel_reference.py


def _marian_cases():
    import json

    from tools.paths import FIXTURES

    return json.loads((FIXTURES / "sines_rel_reference.json").read_text())["marian"]


@pytest.mark.parametrize("case", _marian_cases(),
                         ids=lambda c: f"{c['num_positions']}x{c['embedding_dim']}")
def test_marian_table_is_the_halves_layout_of_the_paper_ladder_in_float32(case):
    # create_weight computes the paper's formula in float64 and stores it in
    # float32: posenc's halves table, rounded once, bit for bit; 3e-8 apart
    n, d, rows = case["num_positions"], case["embedding_dim"], case["rows"]
    reference = np.array(case["weight"])
    ours = sinusoidal(n, d, layout="halves")[rows]
    assert np.array_equal(ours.astype(np.float32).astype(np.float64), reference)
    assert np.abs(ours - reference).max() <= 2.0**-25  # half a float32 step below 1
    # not the other ladder, not the other layout, not another first position
    for other in (dict(layout="halves", endpoint=True), dict(), dict(layout="halves", start=2)):
        assert np.abs(sinusoidal(n, d, **other)[rows] - reference).max() > 0.1
