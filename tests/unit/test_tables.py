"""Tests of posenc.tables: a learned table's look-up and its backward pass."""

from __future__ import annotations

import numpy as np
import pytest

from posenc.tables import init_table, lookup, lookup_backward


def test_init_table_is_seeded_normal():
    P = init_table(5, 3, std=0.5, seed=4)
    np.testing.assert_array_equal(P, np.random.default_rng(4).normal(0.0, 0.5, (5, 3)))
    assert P.dtype == np.float64
    rng = np.random.default_rng(1)
    assert not np.array_equal(init_table(2, 2, seed=rng), init_table(2, 2, seed=rng))


def test_lookup_by_hand():
    P = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    np.testing.assert_array_equal(lookup(P, [2, 0, 2]), [[4, 5], [0, 1], [4, 5]])
    out = lookup(P, [[0, 1], [1, 1]])  # a batch of index rows
    assert out.shape == (2, 2, 2)
    np.testing.assert_array_equal(out[1], [[2, 3], [2, 3]])


def test_lookup_backward_adds_repeated_rows_and_leaves_others_zero():
    grad = np.array([[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]])
    d_table = lookup_backward(grad, [3, 0, 3], n_rows=5)
    np.testing.assert_array_equal(d_table, [[10, 20], [0, 0], [0, 0], [101, 202], [0, 0]])


def test_lookup_backward_is_the_transpose_of_lookup():
    # <lookup(P, idx), G> = <P, lookup_backward(G, idx)> for every P and G
    rng = np.random.default_rng(0)
    P, idx = rng.normal(size=(6, 4)), rng.integers(0, 6, size=(3, 5))
    G = rng.normal(size=(3, 5, 4))
    lhs = np.sum(lookup(P, idx) * G)
    rhs = np.sum(P * lookup_backward(G, idx, 6))
    assert np.isclose(lhs, rhs, rtol=1e-12)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: init_table(0, 4), ValueError, "n_rows"),
        (lambda: init_table(4, 2.0), TypeError, "d_model"),
        (lambda: init_table(4, 4, std=0), ValueError, "std"),
        (lambda: init_table(4, 4, seed=-1), ValueError, "seed"),
        (lambda: init_table(4, 4, seed="a"), TypeError, "seed"),
        (lambda: lookup(np.ones((3, 2)), [0, 3]), ValueError, r"indices must lie in \[0, 3\)"),
        (lambda: lookup(np.ones((3, 2)), [-1]), ValueError, "indices"),
        (lambda: lookup(np.ones((3, 2)), [0.0, 1.0]), TypeError, "indices must be integers"),
        (lambda: lookup(np.ones(3), [0]), ValueError, "table must have 2"),
        (lambda: lookup_backward(np.ones((2, 4)), [0, 1, 2], 3), ValueError, "grad must have shape"),
        (lambda: lookup_backward(np.ones((1, 4)), [5], 3), ValueError, "indices"),
        (lambda: lookup_backward(np.ones((1, 4)), [0], 0), ValueError, "n_rows"),
    ],
)
def test_table_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_tables_keep_float32_and_refuse_sizes_beyond_memory():
    P = np.ones((4, 3), dtype=np.float32)
    assert lookup(P, [0, 3]).dtype == np.float32
    assert lookup_backward(np.ones((2, 3), dtype=np.float32), [0, 3], 4).dtype == np.float32
    with pytest.raises(ValueError, match=r"^n_rows \* d_model = .* would need .*1 GiB"):
        lookup_backward(np.ones((2, 16)), [0, 1], n_rows=10**9)
    with pytest.raises(ValueError, match="1 GiB"):
        init_table(10**9, 16)
