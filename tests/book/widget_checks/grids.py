"""Chapter 8 (08_grids): a query patch's score with every patch, 2-D and 1-D RoPE."""

from __future__ import annotations

import numpy as np

import posenc

from . import assert_close


def check_patches(v):
    n, row, col, d, base = v["n"], v["row"], v["col"], v["d"], v["base"]
    assert 0 <= row < n and 0 <= col < n
    x = np.zeros(d)
    x[0::2] = 1.0  # every pair (1, 0)
    assert_close(v["x"], x, "the query and key vector", signed=True)
    keys = np.tile(x, (n * n, 1))
    cells = np.array([(r, c) for r in range(n) for c in range(n)])
    want_2d = (posenc.rope_2d(x[None], [[row, col]], base=base)
               @ posenc.rope_2d(keys, cells, base=base).T)[0] / (d // 2)
    want_1d = (posenc.rope(x[None], [row * n + col], base=base)
               @ posenc.rope(keys, np.arange(n * n), base=base).T)[0] / (d // 2)
    what = f"query ({row}, {col}) of {n}x{n}, d={d}, base {base}"
    return max(assert_close(v["score2d"], want_2d, f"2-D RoPE scores, {what}", signed=True),
               assert_close(v["score1d"], want_1d, f"1-D RoPE scores, {what}", signed=True))


CHECKS = {"patches": check_patches}
