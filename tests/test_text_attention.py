"""Unit tests of posenc.text and posenc.attention."""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import attention, build_vocab, causal_mask, encode, random_embeddings, softmax, tokenize


# --- text ----------------------------------------------------------------


def test_tokenize_keeps_case_and_drops_punctuation():
    assert tokenize("The cat sat on the mat.") == ["The", "cat", "sat", "on", "the", "mat"]
    assert tokenize("Dog bites man!", lower=True) == ["dog", "bites", "man"]
    assert tokenize("don't  stop,now") == ["don't", "stop", "now"]


def test_build_vocab_numbers_first_appearances_without_gaps():
    vocab = build_vocab(["the", "cat", "sat", "on", "the", "mat"])
    assert vocab == {"the": 0, "cat": 1, "sat": 2, "on": 3, "mat": 4}
    assert sorted(vocab.values()) == list(range(len(vocab)))


def test_encode_round_trip():
    tokens = tokenize("man bites dog bites man")
    vocab = build_vocab(tokens)
    ids = encode(tokens, vocab)
    assert ids.tolist() == [0, 1, 2, 1, 0]
    inverse = {i: t for t, i in vocab.items()}
    assert [inverse[i] for i in ids] == tokens


def test_random_embeddings_are_seeded_normal():
    E = random_embeddings(50, 40, seed=3, scale=2.0)
    assert E.shape == (50, 40)
    np.testing.assert_array_equal(E, np.random.default_rng(3).normal(0, 2.0, (50, 40)))
    assert not np.array_equal(E, random_embeddings(50, 40, seed=4, scale=2.0))


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: tokenize(""), ValueError, "at least one word"),
        (lambda: tokenize(" ... !"), ValueError, "at least one word"),
        (lambda: tokenize(["a", "b"]), TypeError, "text must be a str"),
        (lambda: tokenize("a", lower="yes"), TypeError, "lower"),
        (lambda: build_vocab([]), ValueError, "tokens must not be empty"),
        (lambda: build_vocab("the cat"), TypeError, "tokenize"),
        (lambda: build_vocab(["a", 3]), TypeError, "tokens"),
        (lambda: encode(["dog"], {"cat": 0}), ValueError, "'dog' is not in the vocabulary"),
        (lambda: encode(["cat"], ["cat"]), TypeError, "vocab"),
        (lambda: random_embeddings(0, 4), ValueError, "vocab_size"),
        (lambda: random_embeddings(3, 4.0), TypeError, "d_model"),
        (lambda: random_embeddings(3, 4, scale=0), ValueError, "scale"),
        (lambda: random_embeddings(3, 4, seed=-1), ValueError, "seed"),
    ],
)
def test_text_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- attention -----------------------------------------------------------


def test_softmax_by_hand_and_stable():
    np.testing.assert_allclose(softmax([0.0, math.log(3.0)]), [0.25, 0.75])
    np.testing.assert_allclose(softmax([1000.0, 1000.0]), [0.5, 0.5])
    np.testing.assert_allclose(softmax([0.0, -np.inf]), [1.0, 0.0])
    w = softmax(np.random.default_rng(0).normal(size=(3, 4, 5)), axis=1)
    np.testing.assert_allclose(w.sum(axis=1), 1.0)


def test_attention_by_hand():
    q = np.array([[1.0, 0.0]])
    k = np.array([[1.0, 0.0], [0.0, 1.0]])
    v = np.array([[10.0], [20.0]])
    out, w = attention(q, k, v)
    a = math.exp(1 / math.sqrt(2))
    np.testing.assert_allclose(w, [[a / (a + 1), 1 / (a + 1)]])
    np.testing.assert_allclose(out, [[10 * a / (a + 1) + 20 / (a + 1)]])


def test_attention_is_permutation_equivariant_without_mask():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(6, 4))
    perm = rng.permutation(6)
    out, _ = attention(x, x, x)
    out_p, _ = attention(x[perm], x[perm], x[perm])
    np.testing.assert_allclose(out_p, out[perm], atol=1e-12)


def test_causal_mask_and_bias():
    np.testing.assert_array_equal(causal_mask(3), [[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    rng = np.random.default_rng(2)
    q, k, v = rng.normal(size=(3, 4, 8))
    _, w = attention(q, k, v, mask=causal_mask(4))
    assert np.all(w[np.triu_indices(4, 1)] == 0)
    np.testing.assert_allclose(w.sum(-1), 1.0)
    # a -inf bias is the same as a mask
    bias = np.where(causal_mask(4), 0.0, -np.inf)
    _, w_bias = attention(q, k, v, bias=bias)
    np.testing.assert_allclose(w_bias, w)
    # batched inputs broadcast the mask
    out, w3 = attention(rng.normal(size=(2, 4, 8)), rng.normal(size=(2, 4, 8)),
                        rng.normal(size=(2, 4, 3)), mask=causal_mask(4))
    assert out.shape == (2, 4, 3) and w3.shape == (2, 4, 4)


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"q": np.ones((2, 3))}, ValueError, "same last dimension"),
        ({"v": np.ones((5, 4))}, ValueError, "same number of rows"),
        ({"mask": np.ones((3, 3), dtype=bool)}, ValueError, "mask has shape"),
        ({"mask": np.ones((2, 4))}, TypeError, "boolean"),
        ({"mask": np.zeros((2, 4), dtype=bool)}, ValueError, "forbids every key"),
        ({"bias": np.ones((4, 2))}, ValueError, "bias has shape"),
        ({"bias": np.full((2, 4), np.nan)}, ValueError, "bias"),
        ({"q": np.ones(4)}, ValueError, "q must have at least 2"),
        ({"k": "keys"}, TypeError, "k must be array-like"),
    ],
)
def test_attention_bad_input(kwargs, error, words):
    args = {"q": np.ones((2, 4)), "k": np.ones((4, 4)), "v": np.ones((4, 4)), **kwargs}
    with pytest.raises(error, match=words):
        attention(args.pop("q"), args.pop("k"), args.pop("v"), **args)


def test_causal_mask_bad_input():
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        causal_mask(0)
