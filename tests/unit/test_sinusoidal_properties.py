"""Property tests of the sinusoidal encoding over random lengths, widths and bases.

Each test states a property that the chapter "The sinusoidal formula" derives
on paper, and checks it with hypothesis over many tables. The expected values
come from the formulas (sums of cosines, angle addition), never from the code
under test.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import frequencies, rotation_matrix, sinusoidal, wavelengths

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


# --- every row has the same norm ---------------------------------------------


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


# --- the dot product depends only on the offset ----------------------------------


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


# --- a shift is a rotation --------------------------------------------------------


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


# --- consecutive rows are equally far apart -----------------------------------


@common
@given(st.integers(min_value=2, max_value=48), even_widths, bases, starts, layouts, endpoints)
def test_consecutive_rows_are_equally_far_apart(length, d, base, start, layout, endpoint):
    # |PE(p+1) - PE(p)|^2 = sum over pairs of 2 - 2 cos(omega_i), whatever p is
    pe = sinusoidal(length, d, base=base, start=start, layout=layout, endpoint=endpoint)
    steps = np.linalg.norm(np.diff(pe, axis=0), axis=1)
    expected = math.sqrt(np.sum(2 - 2 * np.cos(ladder(d, base, endpoint))))
    np.testing.assert_allclose(steps, expected, rtol=1e-9, atol=1e-12)


# --- the two layouts differ by a column permutation -------------------------------


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


# --- the two frequency ladders --------------------------------------------------


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


# --- positions ------------------------------------------------------------------


@common
@given(lengths, any_widths, bases, starts, layouts, endpoints)
def test_row_j_is_position_start_plus_j(length, d, base, start, layout, endpoint):
    kwargs = {"base": base, "layout": layout, "endpoint": endpoint}
    table = sinusoidal(length, d, start=start, **kwargs)
    j = length // 2
    np.testing.assert_allclose(table[j], sinusoidal(1, d, start=start + j, **kwargs)[0], atol=1e-12)
