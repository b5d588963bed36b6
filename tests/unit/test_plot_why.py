"""Tests of posenc.plot.attention_weights, the picture of chapter 1."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from posenc import attention, causal_mask, plot  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_attention_weights_draws_the_matrix_with_token_labels():
    w = np.array([[1.0, 0.0, 0.0], [0.25, 0.75, 0.0], [0.2, 0.3, 0.5]])
    ax = plot.attention_weights(w, ["dog", "bites", "man"], title="causal")
    np.testing.assert_array_equal(ax.images[0].get_array(), w)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["dog", "bites", "man"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["dog", "bites", "man"]
    assert ax.get_title() == "causal"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("key", "query")
    # a fixed [0, 1] colour scale, so two pictures compare cell by cell
    assert ax.images[0].get_clim() == (0.0, 1.0)
    # one annotation per cell, row by row, two decimals
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["1.00", "0.00", "0.00", "0.25", "0.75", "0.00", "0.20", "0.30", "0.50"]
    assert ax.texts[4].get_position() == (1, 1)
    assert len(ax.figure.axes) == 2  # the colour bar


def test_attention_weights_rectangular_with_key_labels_and_options():
    _, w = attention(np.ones((2, 3)), np.eye(3), np.eye(3))
    ax = plot.attention_weights(w, ["a", "b"], ["x", "y", "z"], annotate=False, colorbar=False)
    assert ax.images[0].get_array().shape == (2, 3)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["x", "y", "z"]
    assert len(ax.texts) == 0
    assert len(ax.figure.axes) == 1


def test_attention_weights_draws_on_a_given_axes():
    fig, (left, right) = plt.subplots(1, 2)
    out = plot.attention_weights(causal_mask(2) / np.array([[1], [2]]), ["p", "q"], ax=right)
    assert out is right and not left.images
    np.testing.assert_allclose(right.images[0].get_array(), [[1, 0], [0.5, 0.5]])


@pytest.mark.parametrize(
    "args, kwargs, error, words",
    [
        ((np.ones(3), ["a", "b", "c"]), {}, ValueError, "weights must have 2 dimension"),
        ((np.ones((2, 2)), ["a"]), {}, ValueError, "queries has 1 labels but weights has 2 rows"),
        ((np.ones((2, 2)), ["a", "b"], ["x"]), {}, ValueError, "keys has 1 labels"),
        ((np.ones((2, 2)), ["a", "b"]), {"annotate": 1}, TypeError, "annotate"),
        (("w", ["a"]), {}, TypeError, "weights must be array-like"),
    ],
)
def test_attention_weights_bad_input(args, kwargs, error, words):
    with pytest.raises(error, match=words):
        plot.attention_weights(*args, **kwargs)
