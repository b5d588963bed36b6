"""Tests of posenc.tasks: the order, look-back and grid tasks and their test sets of pairs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_limit import memory_limit
from posenc.model import forward, init_model
from posenc.tasks import (
    ORDER_VOCAB,
    above_or_left_task,
    above_or_left_test_set,
    left_of_task,
    left_of_test_set,
    lookback_task,
    lookback_test_set,
    order_task,
    order_test_set,
)


def assert_pairs(tokens, labels, pairs):
    """A test set of ``pairs`` originals, then as many copies with the same
    tokens and the opposite labels."""
    assert tokens.shape[0] == 2 * pairs and labels.shape == (2 * pairs,)
    np.testing.assert_array_equal(np.sort(tokens[:pairs], axis=1), np.sort(tokens[pairs:], axis=1))
    np.testing.assert_array_equal(labels[:pairs], 1 - labels[pairs:])


@given(n=st.integers(1, 20), length=st.integers(2, 30), seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_order_task_has_one_A_one_B_and_the_right_label(n, length, seed):
    tokens, labels = order_task(n, length, seed=seed)
    assert tokens.shape == (n, length) and labels.shape == (n,)
    assert np.all((tokens == 0).sum(axis=1) == 1) and np.all((tokens == 1).sum(axis=1) == 1)
    assert tokens.min() >= 0 and tokens.max() < len(ORDER_VOCAB)
    where_a, where_b = (tokens == 0).argmax(axis=1), (tokens == 1).argmax(axis=1)
    np.testing.assert_array_equal(labels, (where_b < where_a).astype(int))


def test_order_task_is_balanced_and_reproducible():
    tokens, labels = order_task(4000, 10, seed=3)
    assert abs(labels.mean() - 0.5) < 0.03
    first = (tokens == 0).argmax(axis=1)
    assert np.bincount(first, minlength=10).min() > 300  # every position is used
    again = order_task(4000, 10, seed=3)
    np.testing.assert_array_equal(tokens, again[0])


@given(n=st.integers(1, 20), window=st.integers(1, 5), extra=st.integers(0, 30),
       seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_lookback_task_ends_in_B_has_one_A_and_the_right_label(n, window, extra, seed):
    length = window + 2 + extra
    tokens, labels = lookback_task(n, length, window=window, seed=seed)
    assert tokens.shape == (n, length) and labels.shape == (n,)
    assert np.all(tokens[:, -1] == 1) and np.all((tokens == 1).sum(axis=1) == 1)
    assert np.all((tokens == 0).sum(axis=1) == 1)
    assert tokens.min() >= 0 and tokens.max() < len(ORDER_VOCAB)
    distance = length - 1 - (tokens == 0).argmax(axis=1)  # places from A to B
    assert np.all(distance >= 1)
    np.testing.assert_array_equal(labels, (distance <= window).astype(int))


def test_lookback_task_by_hand():
    # "A is among the 2 tokens before B": read the labels off the printed sequences
    tokens, labels = lookback_task(4, 8, seed=3)
    text = ["".join(ORDER_VOCAB[t] for t in row) for row in tokens]
    assert text == ["gcdddAhB", "ccdeAedB", "ggccAehB", "eeffdgAB"]
    np.testing.assert_array_equal(labels, [1, 0, 0, 1])  # A 2, 3, 3 and 1 places before B


def test_lookback_task_is_balanced_uniform_within_each_label_and_reproducible():
    length, window = 12, 3
    tokens, labels = lookback_task(6000, length, window=window, seed=4)
    assert abs(labels.mean() - 0.5) < 0.03
    distance = length - 1 - (tokens == 0).argmax(axis=1)
    near = np.bincount(distance[labels == 1], minlength=length)
    far = np.bincount(distance[labels == 0], minlength=length)
    assert np.all(near[1:window + 1] > 0.8 * (labels == 1).sum() / window)  # 1..3, about 1000 each
    assert np.all(far[window + 1:] > 0.8 * (labels == 0).sum() / (length - 1 - window))
    again = lookback_task(6000, length, window=window, seed=4)
    np.testing.assert_array_equal(tokens, again[0])
    np.testing.assert_array_equal(labels, again[1])


@given(pairs=st.integers(1, 15), length=st.integers(2, 30), seed=st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_order_test_set_pairs_the_same_tokens_with_opposite_labels(pairs, length, seed):
    tokens, labels = order_test_set(pairs, length, seed=seed)
    assert tokens.shape == (2 * pairs, length)
    assert_pairs(tokens, labels, pairs)
    np.testing.assert_array_equal(tokens[:pairs], order_task(pairs, length, seed=seed)[0])
    where_a, where_b = (tokens == 0).argmax(axis=1), (tokens == 1).argmax(axis=1)
    np.testing.assert_array_equal(labels, (where_b < where_a).astype(int))


@given(pairs=st.integers(1, 15), window=st.integers(1, 4), extra=st.integers(0, 20),
       seed=st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_lookback_test_set_moves_A_across_the_window(pairs, window, extra, seed):
    length = window + 2 + extra
    tokens, labels = lookback_test_set(pairs, length, window=window, seed=seed)
    assert tokens.shape == (2 * pairs, length)
    assert_pairs(tokens, labels, pairs)
    assert np.all(tokens[:, -1] == 1) and np.all((tokens == 0).sum(axis=1) == 1)
    distance = length - 1 - (tokens == 0).argmax(axis=1)
    np.testing.assert_array_equal(labels, (distance <= window).astype(int))


def test_lookback_test_set_keeps_the_distances_uniform_within_each_label():
    length, window = 12, 2
    tokens, labels = lookback_test_set(6000, length, window=window, seed=5)
    distance = length - 1 - (tokens == 0).argmax(axis=1)
    for half in (slice(0, 6000), slice(6000, None)):  # the originals, and the moved copies
        d, y = distance[half], labels[half]
        far = np.bincount(d[y == 0], minlength=length)[window + 1:]
        near = np.bincount(d[y == 1], minlength=length)[1:window + 1]
        assert far.min() > 0.85 * far.mean() and near.min() > 0.9 * near.mean()


# --- tasks on a grid (chapter 8) ---------------------------------------------------


def markers(tokens, width):
    """(row, column) of A and of B in each grid."""
    a, b = (tokens == 0).argmax(axis=1), (tokens == 1).argmax(axis=1)
    return np.divmod(a, width), np.divmod(b, width)


@given(n=st.integers(1, 20), height=st.integers(1, 6), width=st.integers(2, 6), seed=st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_left_of_task_has_A_and_B_in_two_columns_and_the_right_label(n, height, width, seed):
    tokens, labels = left_of_task(n, height * width, width=width, seed=seed)
    assert tokens.shape == (n, height * width) and labels.shape == (n,)
    assert np.all((tokens == 0).sum(axis=1) == 1) and np.all((tokens == 1).sum(axis=1) == 1)
    assert tokens.min() >= 0 and tokens.max() < len(ORDER_VOCAB)
    (_, col_a), (_, col_b) = markers(tokens, width)
    assert np.all(col_a != col_b)
    np.testing.assert_array_equal(labels, (col_a < col_b).astype(int))


@given(n=st.integers(1, 20), height=st.integers(2, 6), width=st.integers(2, 6), seed=st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_above_or_left_task_has_A_above_or_left_of_B(n, height, width, seed):
    tokens, labels = above_or_left_task(n, height * width, width=width, seed=seed)
    (row_a, col_a), (row_b, col_b) = markers(tokens, width)
    above = (col_a == col_b) & (row_a < row_b)
    left = (row_a == row_b) & (col_a < col_b)
    assert np.all(above | left)
    np.testing.assert_array_equal(labels, above.astype(int))


def test_grid_tasks_are_balanced_uniform_within_each_label_and_reproducible():
    for task in (left_of_task, above_or_left_task):
        tokens, labels = task(8000, 12, width=4, seed=5)
        assert abs(labels.mean() - 0.5) < 0.02
        np.testing.assert_array_equal(tokens, task(8000, 12, width=4, seed=5)[0])
    # above-or-left on a 3 x 4 grid: 18 "left" pairs and 12 "above" pairs, each drawn alike
    tokens, labels = above_or_left_task(8000, 12, width=4, seed=6)
    a, b = (tokens == 0).argmax(axis=1), (tokens == 1).argmax(axis=1)
    for label, n_pairs in ((0, 18), (1, 12)):
        counts = np.bincount((a * 12 + b)[labels == label], minlength=144)
        assert (counts > 0).sum() == n_pairs
        expected = (labels == label).sum() / n_pairs
        assert counts.max() < 1.4 * expected and counts[counts > 0].min() > 0.6 * expected


@pytest.mark.parametrize("make", [left_of_test_set, above_or_left_test_set])
def test_grid_test_sets_pair_the_same_tokens_with_opposite_labels(make):
    tokens, labels = make(300, 16, width=4, seed=2)
    assert_pairs(tokens, labels, 300)
    task = left_of_task if make is left_of_test_set else above_or_left_task
    np.testing.assert_array_equal(tokens[:300], task(300, 16, width=4, seed=2)[0])
    # a model without positions answers both halves of every pair alike: exactly 0.5
    answers = forward(init_model("none", seed=4), tokens).argmax(axis=-1)
    np.testing.assert_array_equal(answers[:300], answers[300:])
    assert np.mean(answers == labels) == 0.5


def test_above_or_left_test_set_transposes_the_grid():
    tokens, _ = above_or_left_test_set(5, 9, width=3, seed=1)
    np.testing.assert_array_equal(tokens[5:].reshape(5, 3, 3), tokens[:5].reshape(5, 3, 3).transpose(0, 2, 1))


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize("call, error, words", [
    (lambda: order_task(0, 5), ValueError, "n_examples"),
    (lambda: order_task(3, 1), ValueError, "length must be an integer >= 2"),
    (lambda: order_task(3, 5.0), TypeError, "length"),
    (lambda: order_task(3, 5, seed=1.5), TypeError, "seed"),
    (lambda: lookback_task(0, 5), ValueError, "n_examples"),
    (lambda: lookback_task(3, 3), ValueError, "length must be an integer >= 4"),
    (lambda: lookback_task(3, 5, window=4), ValueError, "length must be an integer >= 6"),
    (lambda: lookback_task(3, 6.0), TypeError, "length"),
    (lambda: lookback_task(3, 6, window=0), ValueError, "window"),
    (lambda: lookback_task(3, 6, window=1.5), TypeError, "window"),
    (lambda: lookback_task(3, 6, seed=-1), ValueError, "seed"),
    (lambda: left_of_task(3, 10, width=4), ValueError, "^length must be a whole number of rows of width 4"),
    (lambda: left_of_task(3, 4, width=1), ValueError, "^width must be an integer >= 2"),
    (lambda: left_of_task(3, 4, width=2.0), TypeError, "^width must be an integer"),
    (lambda: left_of_task(0, 4, width=2), ValueError, "^n_examples must be"),
    (lambda: above_or_left_task(3, 4, width=4), ValueError, "^length must give the grid at least 2 rows"),
    (lambda: above_or_left_test_set(3, 12, width=4), ValueError, "^the grid must be square"),
    (lambda: left_of_task(2**20, 2**10, width=2), ValueError, "n_examples \\* length"),
])
def test_bad_input_gets_an_error_that_names_the_argument(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- issue 40: the size cap counts the pairs of cells a grid task draws from -------


@pytest.mark.parametrize("call, words", [
    # left_of_task(2000, 4000, width=2) took 29.8 GiB: (n_examples, length**2) random numbers
    (lambda: left_of_task(2000, 4000, width=2), r"^n_examples \* length\*\*2 = 2000 \* 4000\*\*2"),
    (lambda: above_or_left_task(2000, 4000, width=2), r"^n_examples \* length\*\*2 = 2000 \* 4000\*\*2"),
    # above_or_left_test_set(4096, 4096, width=64) took 64 GiB
    (lambda: above_or_left_test_set(4096, 4096, width=64), r"^n_pairs \* length\*\*2 = 4096 \* 4096\*\*2"),
    (lambda: left_of_test_set(10**400, 4, width=2), r"^n_pairs \* length\*\*2 = ~1e\+400 \* 4\*\*2"),
])
def test_grid_tasks_count_their_pairs_of_cells_before_drawing_them(call, words):
    with memory_limit(), pytest.raises(ValueError, match=words + " would need .* numbers, more than "
                                                                 "the 134,217,728"):
        call()


def test_the_test_sets_name_n_pairs_not_n_examples():
    # order_test_set(n_pairs="x") said "n_examples must be an integer"
    for test_set in (order_test_set, lookback_test_set):
        with pytest.raises(TypeError, match="^n_pairs must be an integer"):
            test_set("x", 6)
        with pytest.raises(ValueError, match=r"^n_pairs \* length = "):
            test_set(10**9, 6)
