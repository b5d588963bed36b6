"""Chapter 5 (05_rel): the RoPE score and ALiBi's slopes and weights."""

from __future__ import annotations

import numpy as np

import posenc

from . import assert_close


def check_rope(v):
    d, base, first, last, m = len(v["q"]), v["base"], v["first"], v["last"], v["m"]
    phi = np.deg2rad(v["phi"])
    q, k = np.zeros(d), np.zeros(d)
    q[2 * first:2 * last:2] = 1.0
    k[2 * first:2 * last:2], k[2 * first + 1:2 * last:2] = np.cos(phi), np.sin(phi)
    assert_close(v["q"], q, "the query", signed=True)
    assert_close(v["k"], k, "the key", signed=True)
    assert v["used"] == last - first >= 1
    distance = np.asarray(v["distance"])
    rotated_q = posenc.rope(q[None], [m], base=base)
    rotated_k = posenc.rope(np.tile(k, (len(distance), 1)), m - distance, base=base)
    want = (rotated_q @ rotated_k.T)[0] / (last - first)
    return assert_close(v["score"], want, f"RoPE score, pairs {first}-{last - 1}, "
                        f"phi {v['phi']}, base {base}", signed=True)


def check_alibi(v):
    heads, length = v["heads"], v["length"]
    assert 0 <= v["head"] < heads
    assert_close(v["slopes"], posenc.alibi_slopes(heads), f"ALiBi slopes of {heads} heads")
    zeros = np.zeros((heads, length, 1))  # equal content scores, as in chapter 5
    _, weights = posenc.attention(zeros, zeros, np.eye(length),
                                  bias=posenc.alibi_bias(heads, length))
    return assert_close(v["weights"], weights[:, -1, :],
                        f"ALiBi weights, {heads} heads, length {length}")


CHECKS = {"rope": check_rope, "alibi": check_alibi}
