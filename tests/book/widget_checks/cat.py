"""Chapter 3 (03_cat): a word of "The cat sat on the mat." at any position."""

from __future__ import annotations

import numpy as np

import posenc

from . import assert_close

SENTENCE = [0, 1, 2, 3, 0, 4]  # the cat sat on the mat, in the lower-cased vocabulary


def check_cat(v):
    word, pos = v["word"], v["pos"]
    tokens = posenc.tokenize("The cat sat on the mat.", lower=True)
    vocab = posenc.build_vocab(tokens)
    assert list(posenc.encode(tokens, vocab)) == SENTENCE
    E = posenc.random_embeddings(len(vocab), 4, seed=0)  # the chapter's table
    assert np.array_equal(v["E"], E), "E is not the chapter's table"
    pe = posenc.sinusoidal(1, 4, start=pos)[0]
    x = E[word] + pe
    inputs = E[SENTENCE] + posenc.sinusoidal(6, 4, start=1)  # x_1 ... x_6
    cosines = inputs @ x / (np.linalg.norm(inputs, axis=1) * np.linalg.norm(x))
    what = f"word {word} at position {pos}"
    assert_close(v["embedding"], E[word], f"the embedding of {what}", signed=True)
    assert_close(v["pe"], pe, f"PE({pos})", signed=True)
    assert_close(v["x"], x, f"the input of {what}", signed=True)
    assert_close(v["inputs"], inputs, "the sentence's inputs", signed=True)
    return assert_close(v["cosines"], cosines, f"cosines of {what}", signed=True)


CHECKS = {"cat": check_cat}
