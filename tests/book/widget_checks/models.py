"""Chapter 9 (09_models): a family's frequency ladder, from its config at its defaults."""

from __future__ import annotations

import posenc

from . import assert_close

REFERENCE = posenc.transformers_reference()


def _config(v):
    """The rope dict and head width the figure shows, as the reference holds them."""
    if v["config_class"] == "longrope":  # Phi-3's, with its max_position_embeddings
        phi3 = REFERENCE["longrope"]
        return {**phi3["rope_parameters"], "max_position_embeddings":
                phi3["config"]["max_position_embeddings"]}, phi3["head_dim"]
    case = next(c for c in REFERENCE["configs"] if c["config_class"] == v["config_class"]
                and c["layer_type"] == v["layer_type"])
    return case["rope_parameters"], case["head_dim"]


def check_models(v):
    params, head_dim = _config(v)
    assert v["rope_parameters"] == params and v["head_dim"] == head_dim, \
        f"{v['label']}: the figure's settings are not the reference's"
    inv_freq, factor = posenc.rope_frequencies(head_dim, scaling=params,
                                               seq_len=int(v["seq_len"]))
    worst = assert_close(v["inv_freq"], inv_freq, f"{v['label']} at l={v['seq_len']}",
                         signed=True)  # Gemma 4's unrotated pairs are 0
    assert_close([v["attentionFactor"]], [factor], f"{v['label']}'s attention factor")
    assert v["turning"] == int((inv_freq > 0).sum())
    return worst


CHECKS = {"models": check_models}
