"""Chapter 1 (01_why): self-attention on the words of "dog bites man", reordered."""

from __future__ import annotations

import numpy as np

import posenc

from . import assert_close

WORDS = ["dog", "bites", "man"]


def check_permute(v):
    # the chapter's embedding table and random head, digit for digit
    E = posenc.random_embeddings(3, 8, seed=0)
    W_q, W_k, W_v = np.random.default_rng(1).normal(scale=1 / np.sqrt(8), size=(3, 8, 8))
    for name, want in [("E", E), ("W_q", W_q), ("W_k", W_k), ("W_v", W_v)]:
        assert np.array_equal(v[name], want), f"{name} is not the chapter's"
    order, mode = v["order"], v["mode"]
    assert sorted(order) == [0, 1, 2] and mode in ("none", "causal", "positions")

    def head(ids):
        X = E[ids] + (posenc.sinusoidal(3, 8) if mode == "positions" else 0)
        mask = posenc.causal_mask(3) if mode == "causal" else None
        out, weights = posenc.attention(X @ W_q, X @ W_k, X @ W_v, mask=mask)
        return X, out, weights

    X, out, weights = head(order)
    what = f"{' '.join(WORDS[w] for w in order)}, {mode}"
    assert_close(v["X"], X, f"inputs of {what}", signed=True)
    assert_close(v["weights"], weights, f"weights of {what}", signed=True)
    worst = assert_close(v["out"], out, f"outputs of {what}", signed=True)
    # each word's output against its output in "dog bites man"; 0 up to
    # rounding without positions, so compared with an absolute tolerance
    _, ref, _ = head([0, 1, 2])
    distance = [np.linalg.norm(out[order.index(w)] - ref[w]) for w in range(3)]
    assert np.allclose(v["distance"], distance, rtol=1e-12, atol=1e-12), (
        f"distances of {what}: {v['distance']}, posenc {distance}")
    if mode == "none":
        assert max(v["distance"]) < 1e-12, "without positions the outputs only move"
    return worst


CHECKS = {"permute": check_permute}
