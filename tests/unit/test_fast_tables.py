"""Fast tables: ``posenc.sinusoidal`` (angle addition) against the formula.

Long tables are computed as rotations of their first block of rows (see
``_rotation_blocks`` in posenc/sinusoidal.py). These tests compare them with
the formula evaluated entry by entry, one ``np.sin`` or ``np.cos`` per entry,
by code that shares nothing with the table code of posenc but the
frequencies (which tests/unit/test_sinusoidal.py checks by hand).

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
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import frequencies, sinusoidal

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


# --- accuracy of long tables -----------------------------------------------


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


# --- the building blocks ----------------------------------------------------


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
