"""Unit tests of posenc.sinusoidal: hand-computed values, layouts, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

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
