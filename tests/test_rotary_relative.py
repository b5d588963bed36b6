"""Unit tests of posenc.rotary and posenc.relative against hand-derived values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import alibi_bias, alibi_slopes, relative_positions, rope, t5_bucket


def test_rope_by_hand():
    x = np.array([[1.0, 2.0, 3.0, 4.0]] * 2)
    out = rope(x, positions=[0, 3])
    np.testing.assert_allclose(out[0], x[0])
    c0, s0 = math.cos(3), math.sin(3)  # pair 0 turns by 3 * 1
    c1, s1 = math.cos(0.03), math.sin(0.03)  # pair 1 turns by 3 * 0.01
    np.testing.assert_allclose(out[1], [1 * c0 - 2 * s0, 1 * s0 + 2 * c0, 3 * c1 - 4 * s1, 3 * s1 + 4 * c1])
    halves = rope(x, positions=[0, 3], layout="halves")  # pairs (0, 2) and (1, 3)
    np.testing.assert_allclose(halves[1], [1 * c0 - 3 * s0, 2 * c1 - 4 * s1, 1 * s0 + 3 * c0, 2 * s1 + 4 * c1])


def test_rope_dot_product_depends_only_on_offset():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 16))
    def score(m, n):
        return rope(q[None], [m])[0] @ rope(k[None], [n])[0]
    for m, n in [(0, 5), (10, 15), (100, 105)]:
        assert math.isclose(score(m, n), score(0, 5), rel_tol=1e-9, abs_tol=1e-12)


def test_rope_layouts_differ_by_a_permutation():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3, 7, 8))
    perm = np.r_[0:8:2, 1:8:2]  # [0, 2, 4, 6, 1, 3, 5, 7]: pair (2i, 2i+1) -> (i, i + 4)
    np.testing.assert_allclose(rope(x[..., perm], layout="halves"),
                               rope(x, layout="interleaved")[..., perm], atol=1e-12)
    assert not np.allclose(rope(x, layout="halves"), rope(x, layout="interleaved"))


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: rope(np.ones((3, 5))), ValueError, "even"),
        (lambda: rope(np.ones((3, 4)), positions=[0, 1]), ValueError, "positions has 2 entries"),
        (lambda: rope(np.ones((3, 4)), layout="pairs"), ValueError, "layout"),
        (lambda: rope(np.ones(4)), ValueError, "at least 2"),
        (lambda: rope(np.ones((3, 4)), base=0), ValueError, "base"),
    ],
)
def test_rope_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_relative_positions():
    np.testing.assert_array_equal(relative_positions(2, 3), [[0, 1, 2], [-1, 0, 1]])
    np.testing.assert_array_equal(relative_positions(4, 1, max_distance=1), [[0], [-1], [-1], [-1]])


def test_t5_bucket_by_hand():
    # bidirectional defaults: 16 buckets per direction, 8 exact, log up to 128
    assert t5_bucket(0) == 0
    np.testing.assert_array_equal(t5_bucket([-1, -7, 1, 7]), [1, 7, 17, 23])
    # n = 8 starts the log buckets: 8 + int(log(n/8)/log(16) * 8)
    for n in [8, 11, 12, 23, 64, 127, 128, 1000]:
        expected = min(8 + int(math.log(n / 8) / math.log(16) * 8), 15)
        assert t5_bucket(-n) == expected, n
        assert t5_bucket(n) == 16 + expected, n
    # unidirectional: 32 buckets for the past, the future is bucket 0
    np.testing.assert_array_equal(t5_bucket([3, 0, -3, -15, -16], bidirectional=False), [0, 0, 3, 15, 16])
    assert t5_bucket(-10**6, bidirectional=False) == 31


def test_alibi_slopes_by_hand():
    np.testing.assert_allclose(alibi_slopes(8), [2.0 ** -k for k in range(1, 9)])
    np.testing.assert_allclose(alibi_slopes(4), [2.0 ** -(2 * k) for k in range(1, 5)])
    # 12 heads: the 8 slopes of 8 heads, then every other slope of 16 heads
    expected = [2.0 ** -k for k in range(1, 9)] + [2.0 ** -(0.5 * k) for k in (1, 3, 5, 7)]
    np.testing.assert_allclose(alibi_slopes(12), expected)
    assert alibi_slopes(1).tolist() == [2.0 ** -8]


def test_alibi_bias():
    b = alibi_bias(8, 4)
    assert b.shape == (8, 4, 4)
    np.testing.assert_allclose(b[0][np.tril_indices(4)], -0.5 * np.array([0, 1, 0, 2, 1, 0, 3, 2, 1, 0]))
    assert np.all(np.isneginf(b[:, 0, 1:]))
    sym = alibi_bias(2, 3, causal=False)
    np.testing.assert_allclose(sym[1], -(2.0 ** -8) * np.abs(np.subtract.outer(range(3), range(3))))


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: alibi_slopes(0), ValueError, "n_heads"),
        (lambda: alibi_bias(2, 0), ValueError, "length"),
        (lambda: alibi_bias(2.0, 3), TypeError, "n_heads"),
        (lambda: relative_positions(3, 3, max_distance=-1), ValueError, "max_distance"),
        (lambda: relative_positions(0, 3), ValueError, "q_len"),
        (lambda: t5_bucket(1.5), TypeError, "relative_position"),
        (lambda: t5_bucket(1, num_buckets=31), ValueError, "even"),
        (lambda: t5_bucket(1, max_distance=8), ValueError, "max_distance"),
    ],
)
def test_relative_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()
