"""Tests of posenc.text: tokens, vocabularies, indices and random embeddings."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import build_vocab, encode, random_embeddings, tokenize


WORDS = st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "dog", "bites", "man"]),
                 min_size=1, max_size=12)


def test_tokenize_keeps_case_and_drops_punctuation():
    assert tokenize("The cat sat on the mat.") == ["The", "cat", "sat", "on", "the", "mat"]
    assert tokenize("Dog bites man!", lower=True) == ["dog", "bites", "man"]
    assert tokenize("don't  stop,now") == ["don't", "stop", "now"]


def test_tokenize_splits_at_underscores_and_keeps_typographic_apostrophes():
    # issue 28, item 19: "_" was a letter, and "don\u2019t" became "don", "t"
    assert tokenize("snake_case __init__ a_b") == ["snake", "case", "init", "a", "b"]
    assert tokenize("Don\u2019t stop") == ["Don\u2019t", "stop"]
    assert tokenize("Don\u2019t stop", lower=True) == ["don\u2019t", "stop"]
    assert tokenize("rock \u2019n\u2019 roll, \u2019tis") == ["rock", "n", "roll", "tis"]
    with pytest.raises(ValueError, match="at least one word"):
        tokenize("___")


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


@given(WORDS)
def test_tokenize_inverts_joining_with_spaces_and_punctuation(words):
    text = " ".join(words) + "."
    assert tokenize(text) == words
    assert tokenize(text.upper(), lower=True) == words


@given(WORDS)
def test_vocab_and_encode_properties(words):
    vocab = build_vocab(words)
    # numbers 0..V-1 with no gaps, V = number of distinct tokens
    assert sorted(vocab.values()) == list(range(len(set(words))))
    # first appearances get increasing numbers
    firsts = [w for i, w in enumerate(words) if w not in words[:i]]
    assert [vocab[w] for w in firsts] == list(range(len(firsts)))
    ids = encode(words, vocab)
    assert ids.dtype == np.int64 and ids.shape == (len(words),)
    # equal tokens get equal numbers, different tokens different numbers
    for a, ia in zip(words, ids):
        for b, ib in zip(words, ids):
            assert (a == b) == (ia == ib)


def test_repeated_words_share_one_embedding_row():
    tokens = tokenize("The cat sat on the mat.", lower=True)
    ids = encode(tokens, build_vocab(tokens))
    X = random_embeddings(5, 3, seed=0)[ids]
    assert ids.tolist() == [0, 1, 2, 3, 0, 4]
    np.testing.assert_array_equal(X[0], X[4])


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: tokenize("   "), ValueError, "at least one word"),
        (lambda: tokenize(None), TypeError, "text must be a str, got NoneType"),
        (lambda: encode([], {"a": 0}), ValueError, "tokens must not be empty"),
        (lambda: encode("dog", {"dog": 0}), TypeError, "single str"),
        (lambda: encode(["Dog"], {"dog": 0}), ValueError, "'Dog' is not in the vocabulary"),
        (lambda: encode(["dog"], {"dog": "0"}), TypeError, r"vocab\['dog'\] must be an integer"),
        (lambda: encode(["dog"], {"dog": -1}), ValueError, r"vocab\['dog'\] must be an integer >= 0"),
        (lambda: random_embeddings(3, 0), ValueError, "d_model must be an integer >= 1, got 0"),
        (lambda: random_embeddings(True, 4), TypeError, "vocab_size"),
        (lambda: random_embeddings(3, 4, scale=float("inf")), ValueError, "scale must be finite"),
    ],
)
def test_more_text_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_unknown_token_message_lists_the_vocabulary():
    vocab = build_vocab(tokenize("a b c d e f g h i j"))
    with pytest.raises(ValueError, match=r"it has 10 tokens: 'a', 'b'.*'h', \.\.\.\)"):
        encode(["zebra"], vocab)
