"""Chapter 10 (10_generate): which keys each query sees, and at which offset."""

from __future__ import annotations

import numpy as np

import posenc


def check_cache_offsets(v):
    policy, n, size, sinks, positions = v["policy"], v["n"], v["size"], v["sinks"], v["positions"]
    settings = {"full": {}, "window": {"window": size}, "sinks": {"window": size, "sinks": sinks},
                "chunks": {"chunk": size}}[policy]
    want = posenc.seen_offsets(policy, n, positions=positions, **settings)
    got = np.asarray(v["offsets"])
    what = f"offsets of {policy} {settings}, {positions} positions, {n} tokens"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, posenc {want.shape}"
    wrong = np.argwhere(got != want)
    assert not len(wrong), f"{what}: query {wrong[0][0]}, key {wrong[0][1]}: {got[tuple(wrong[0])]}, " \
                           f"posenc {want[tuple(wrong[0])]}"
    return 0.0


CHECKS = {"cache-offsets": check_cache_offsets}
