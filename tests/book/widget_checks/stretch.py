"""Chapter 7 (07_stretch): the divisors of the ways to stretch RoPE."""

from __future__ import annotations

import numpy as np

import posenc

from . import assert_close


def check_stretch(v):
    d, base, s, L = v["d"], v["base"], v["factor"], v["original"]
    theta, _ = posenc.rope_frequencies(d, base=base)
    assert_close(v["theta"], theta, "plain frequencies")
    scalings = {
        "linear": ({"rope_type": "linear", "factor": s}, None),
        "ntk": ({"rope_type": "ntk", "factor": s}, None),
        "dynamic": ({"rope_type": "dynamic", "factor": 1.0,
                     "original_max_position_embeddings": L}, int(v["seq_len"])),
        "yarn": ({"rope_type": "yarn", "factor": s, "original_max_position_embeddings": L}, None),
        "llama3": ({"rope_type": "llama3", "factor": s, "low_freq_factor": 1.0,
                    "high_freq_factor": 4.0, "original_max_position_embeddings": L}, None),
    }
    assert set(v["divisor"]) == set(scalings)
    worst = 0.0
    for name, (scaling, seq_len) in scalings.items():
        inv, factor = posenc.rope_frequencies(d, base=base, scaling=scaling, seq_len=seq_len)
        worst = max(worst, assert_close(v["divisor"][name], theta / inv,
                                        f"{name} divisors, s={s} L={L} base={base}"))
        if name == "yarn":
            assert_close([v["attentionFactor"]], [factor], "YaRN's attention factor")
    return worst


CHECKS = {"stretch": check_stretch}
