"""Tests of posenc.families: each family's position machinery against its own code.

The reference values are in posenc/data/models_reference.json, written by
tools/make_models_reference.py with Transformers 5.24.0 and torch 2.14.1
(CPU), and llama-models 0.3.0 for Meta's Llama code; the tests need none of
them. The references run in float32, so they agree with posenc's float64 to
a few units of float32's rounding, 1e-6 relative or so; where posenc is
compared with itself (a permutation, a formula) the test asks for 1e-12.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import posenc
from posenc import families, rope, rope_frequencies

REFERENCE = posenc.transformers_reference()
FLOAT32 = dict(rtol=2e-6, atol=2e-6)  # values of order 1 computed in float32


def test_reference_records_its_versions_and_sources():
    assert REFERENCE["versions"]["transformers"] == families.TRANSFORMERS == "5.24.0"
    for part in ("layouts", "llama_conversion", "llama4", "mla", "opt", "alibi", "deberta"):
        assert part in REFERENCE
    assert "llama-models 0.3.0" in REFERENCE["llama_conversion"]["functions"]


# --- layouts: each family's own function that turns the queries -----------------------

LAYOUTS = {c["model_type"]: c for c in REFERENCE["layouts"]}
HALVES = ["llama", "mistral", "qwen2", "gemma3_text", "qwen2_vl_text", "phi3", "gpt_oss", "gemma4_text",
          "gpt_neox", "phi", "stablelm"]
INTERLEAVED = ["gptj", "codegen", "cohere", "llama4_text"]


@pytest.mark.parametrize("model_type", HALVES + INTERLEAVED)
def test_each_family_turns_its_queries_as_posenc_does_in_its_layout(model_type):
    case = LAYOUTS[model_type]
    q, inv_freq = np.array(case["q"]), np.array(case["inv_freq"])
    layout = "halves" if model_type in HALVES else "interleaved"
    other = "interleaved" if layout == "halves" else "halves"
    r, a = 2 * len(inv_freq), case["attention_factor"]  # a: YaRN's factor on cos and sin
    kwargs = dict(inv_freq=inv_freq, rotary_dim=r)
    np.testing.assert_allclose(a * rope(q, case["positions"], layout=layout, **kwargs),
                               case["q_turned"], **FLOAT32)
    assert not np.allclose(a * rope(q, case["positions"], layout=other, **kwargs),
                           case["q_turned"], **FLOAT32)


def test_gpt_neox_turns_a_quarter_of_each_head_and_passes_the_rest():
    case = LAYOUTS["gpt_neox"]
    q, turned = np.array(case["q"]), np.array(case["q_turned"])
    assert q.shape[1] == 16 and len(case["inv_freq"]) == 2  # rotary_pct 0.25: 4 of 16
    np.testing.assert_array_equal(turned[:, 4:], q[:, 4:])
    inv_freq, _ = rope_frequencies(16, scaling={"rope_type": "default",
                                                "partial_rotary_factor": 0.25})
    np.testing.assert_allclose(rope(q, case["positions"], layout="halves", inv_freq=inv_freq,
                                    rotary_dim=4), turned, **FLOAT32)


def test_deepseek_reads_interleaved_pairs_and_writes_them_as_halves():
    """apply_rotary_pos_emb_interleave: rope(x)[..., P], which is rope(x[..., P], halves)."""
    case = LAYOUTS["deepseek_v3"]
    q, inv_freq = np.array(case["q"]), np.array(case["inv_freq"])
    P = families.llama_permutation(q.shape[1])
    np.testing.assert_allclose(rope(q[:, P], case["positions"], inv_freq=inv_freq,
                                    layout="halves"), case["q_turned"], **FLOAT32)
    np.testing.assert_allclose(rope(q, case["positions"], inv_freq=inv_freq)[:, P],
                               case["q_turned"], **FLOAT32)


# --- Llama's conversion permutation ------------------------------------------------------

CONVERSION = REFERENCE["llama_conversion"]


def _heads(x, w, n_heads):
    """x @ w.T (PyTorch's Linear, no bias) split into heads: (heads, seq, head_dim)."""
    return (x @ w.T).reshape(len(x), n_heads, -1).transpose(1, 0, 2)


def test_the_permutation_is_the_conversion_scripts():
    perm = families.llama_permutation(CONVERSION["head_dim"], CONVERSION["n_heads"])
    np.testing.assert_array_equal(perm, CONVERSION["permuted_rows"])
    assert sorted(perm) == list(range(16))


def test_meta_and_transformers_give_the_same_scores_after_the_permutation():
    x, n = np.array(CONVERSION["x"]), CONVERSION["n_heads"]
    w_q, w_k = np.array(CONVERSION["w_q"]), np.array(CONVERSION["w_k"])
    perm = families.llama_permutation(CONVERSION["head_dim"], n)
    meta = np.array(CONVERSION["meta_scores"])
    np.testing.assert_allclose(CONVERSION["hf_scores"], meta, rtol=1e-5, atol=1e-5)
    assert not np.allclose(CONVERSION["hf_scores_unpermuted"], meta, rtol=1e-2, atol=1e-2)
    # posenc: interleaved on the original weights is Meta; halves on the
    # permuted rows is Transformers; they agree to 1e-12 in float64
    q, k = _heads(x, w_q, n), _heads(x, w_k, n)
    interleaved = rope(q) @ rope(k).transpose(0, 2, 1)
    qp, kp = _heads(x, w_q[perm], n), _heads(x, w_k[perm], n)
    halves = rope(qp, layout="halves") @ rope(kp, layout="halves").transpose(0, 2, 1)
    np.testing.assert_allclose(halves, interleaved, rtol=0, atol=1e-12)
    np.testing.assert_allclose(interleaved, meta, rtol=1e-5, atol=1e-5)
    wrong = rope(q, layout="halves") @ rope(k, layout="halves").transpose(0, 2, 1)
    np.testing.assert_allclose(wrong, CONVERSION["hf_scores_unpermuted"], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("head_dim, n_heads", [(2, 1), (8, 3), (128, 2)])
def test_the_permutation_turns_interleaved_into_halves(head_dim, n_heads):
    perm = families.llama_permutation(head_dim, n_heads)
    x = np.random.default_rng(head_dim).normal(size=(5, n_heads * head_dim))
    per_head = x.reshape(5, n_heads, head_dim).transpose(1, 0, 2)
    moved = x[:, perm].reshape(5, n_heads, head_dim).transpose(1, 0, 2)
    np.testing.assert_allclose(rope(moved, layout="halves"),
                               rope(per_head)[..., perm[:head_dim]], rtol=0, atol=1e-12)


# --- Llama 4: temperature and chunks -----------------------------------------------------

LLAMA4 = REFERENCE["llama4"]


def test_llama4_temperature_is_its_attentions():
    assert not LLAMA4["use_rope"] and LLAMA4["defaults"]["no_rope_layers"][LLAMA4["layer"]] == 0
    got = families.llama4_attention_scale(LLAMA4["positions"], floor_scale=LLAMA4["floor_scale"],
                                          attn_scale=LLAMA4["attn_scale"])
    np.testing.assert_allclose(got, LLAMA4["scales"], rtol=1e-6)
    defaults = LLAMA4["defaults"]
    assert (defaults["floor_scale"], defaults["attn_scale"]) == (8192, 0.1)
    by_default = families.llama4_attention_scale([8190, 8191])
    assert by_default[0] == 1.0 and by_default[1] == pytest.approx(1 + 0.1 * math.log(2))


def test_ministral3s_beta_is_the_llama4_scale_one_position_earlier():
    m, L, beta = np.arange(1, 40), 8, 0.1
    ministral = 1 + beta * np.log(1 + np.floor(m / L))  # Ministral3Attention's formula
    np.testing.assert_allclose(families.llama4_attention_scale(m - 1, floor_scale=L,
                                                               attn_scale=beta), ministral,
                               rtol=1e-15)


@pytest.mark.parametrize("batch", [0, 1])
def test_the_chunked_mask_is_transformers(batch):
    mask = families.chunked_causal_mask(8, LLAMA4["chunk_size"],
                                        left_padding=LLAMA4["left_padding"][batch])
    np.testing.assert_array_equal(mask, LLAMA4["chunked_masks"][batch])


def test_a_chunk_as_long_as_the_sequence_is_the_causal_mask():
    np.testing.assert_array_equal(families.chunked_causal_mask(6, 6), posenc.causal_mask(6))
    assert families.chunked_causal_mask(6, 1).sum() == 6  # each token alone


# --- multi-head latent attention (DeepSeek-V3) ----------------------------------------------

MLA = REFERENCE["mla"]


def _mla_scores(mla):
    """DeepseekV3Attention's scores, written out with posenc.rope (the chapter's steps)."""
    cfg = mla["config"]
    heads, nope, rot, v = (cfg["num_attention_heads"], cfg["qk_nope_head_dim"],
                           cfg["qk_rope_head_dim"], cfg["v_head_dim"])
    x, rank = np.array(mla["x"]), cfg["kv_lora_rank"]
    q = (x @ np.array(mla["q_proj"]).T).reshape(len(x), heads, nope + rot).transpose(1, 0, 2)
    latent = x @ np.array(mla["kv_a_proj_with_mqa"]).T
    c, k_rot = latent[:, :rank], latent[:, rank:]  # compressed keys and values, shared k_rot
    c = c / np.sqrt((c**2).mean(axis=-1, keepdims=True) + cfg["rms_norm_eps"])
    c = c * np.array(mla["kv_a_layernorm"])
    kv = (c @ np.array(mla["kv_b_proj"]).T).reshape(len(x), heads, nope + v).transpose(1, 0, 2)
    inv_freq, factor = rope_frequencies(rot, scaling=cfg["rope_parameters"])
    P = families.llama_permutation(rot)  # interleaved pairs, written out as halves

    def turn(t):
        return factor * rope(t, inv_freq=inv_freq)[..., P]

    q_rot, k_rot = turn(q[..., nope:]), turn(k_rot[None])
    scores = q[..., :nope] @ kv[..., :nope].transpose(0, 2, 1) + q_rot @ k_rot.transpose(0, 2, 1)
    return scores, inv_freq, factor


def test_mla_scores_are_deepseek_v3s():
    scores, inv_freq, factor = _mla_scores(MLA)
    np.testing.assert_allclose(inv_freq, MLA["inv_freq"], rtol=5e-6)
    assert factor == pytest.approx(MLA["attention_scaling"], rel=1e-6)
    # the softmax scale: 1/sqrt(d) times g(s, mscale_all_dim)**2
    g = 0.1 * 1.0 * math.log(40.0) + 1.0
    assert MLA["scaling"] == pytest.approx((8 + 8) ** -0.5 * g**2, rel=1e-6)
    np.testing.assert_allclose(scores * MLA["scaling"], MLA["scores"], rtol=1e-4, atol=1e-4)


def test_the_rotated_key_is_one_for_all_heads():
    key = np.array(MLA["key"])  # (heads, seq, nope + rope)
    np.testing.assert_array_equal(key[0, :, 8:], key[1, :, 8:])
    assert not np.allclose(key[0, :, :8], key[1, :, :8])


# --- learned absolute positions: OPT -------------------------------------------------------

OPT = REFERENCE["opt"]


@pytest.mark.parametrize("cache_length", [0, 2])
def test_opt_position_ids_and_its_offset(cache_length):
    ids = families.opt_position_ids(OPT["attention_mask"], cache_length=cache_length)
    np.testing.assert_array_equal(ids + OPT["offset"], OPT["rows"][str(cache_length)])


def test_opt_pads_land_on_row_one():
    ids = families.opt_position_ids([[0, 0, 1, 1]])
    assert (ids + 2).tolist() == [[1, 1, 2, 3]]


# --- ALiBi: BLOOM and MPT --------------------------------------------------------------------

ALIBI = REFERENCE["alibi"]


@pytest.mark.parametrize("n_heads", [8, 12])
def test_bloom_and_mpt_slopes(n_heads):
    bloom = np.array(ALIBI["bloom"][str(n_heads)][0])  # (heads, keys): slope * key position
    np.testing.assert_allclose(bloom, posenc.alibi_slopes(n_heads)[:, None] * np.arange(5),
                               rtol=1e-6)
    mpt = np.array(ALIBI["mpt"][str(n_heads)])  # slope * (key - last position)
    np.testing.assert_allclose(mpt, families.mpt_alibi_slopes(n_heads)[:, None]
                               * np.arange(-4, 1), rtol=1e-6)


def test_mpts_recipe_gives_the_papers_slopes_for_every_head_count():
    """MPT interleaves the slopes of the power of two above; with alibi_bias_max 8
    that is exactly the paper's (and BLOOM's) recipe, powers of two or not."""
    for n_heads in range(1, 129):
        np.testing.assert_allclose(families.mpt_alibi_slopes(n_heads),
                                   posenc.alibi_slopes(n_heads), rtol=1e-13)


def test_bloom_counts_key_positions_from_the_first_real_token():
    """A left-padded row: the positions of the attention mask's cumulative sum, as OPT's."""
    padded = np.array(ALIBI["bloom"]["8"][1])
    positions = np.maximum(families.opt_position_ids(ALIBI["attention_mask"])[1], 0)
    np.testing.assert_allclose(padded, posenc.alibi_slopes(8)[:, None] * positions, rtol=1e-6)


def test_mpt_slopes_with_another_bias_max():
    np.testing.assert_allclose(families.mpt_alibi_slopes(4, alibi_bias_max=16),
                               2.0 ** -np.array([4, 8, 12, 16]), rtol=1e-15)


# --- DeBERTa ----------------------------------------------------------------------------------

DEBERTA = REFERENCE["deberta"]


def test_deberta_log_buckets_are_make_log_bucket_position():
    lb = DEBERTA["log_buckets"]
    got = families.deberta_log_buckets(lb["relative"], bucket_size=lb["bucket_size"],
                                       max_position=lb["max_position"])
    np.testing.assert_array_equal(got, lb["buckets"])
    near = np.arange(-128, 129)
    np.testing.assert_array_equal(families.deberta_log_buckets(near), near)


def test_deberta_relative_positions_are_build_relative_position():
    rp = DEBERTA["relative_positions"]
    relative = -posenc.relative_positions(rp["n"], rp["n"])  # DeBERTa: query minus key
    got = families.deberta_log_buckets(relative, bucket_size=rp["bucket_size"],
                                       max_position=rp["max_position"])
    np.testing.assert_array_equal(got, rp["ids"])


def _disentangled(bias):
    """c2p + p2c of DisentangledSelfAttention (share_att_key), written out (the chapter's)."""
    rp = DEBERTA["relative_positions"]
    q, k = np.array(bias["query"]), np.array(bias["key"])  # (heads, n, width)
    span, heads = bias["att_span"], q.shape[0]
    rel = np.array(bias["rel_embeddings"])[: 2 * span]

    def project(p):
        out = rel @ np.array(p["weight"]).T + np.array(p["bias"])
        return out.reshape(2 * span, heads, -1).transpose(1, 0, 2)

    pos_q, pos_k = project(bias["query_proj"]), project(bias["key_proj"])
    delta = np.array(rp["ids"])  # bucketed query - key
    scale = math.sqrt(q.shape[-1] * bias["scale_factor"])
    rows = np.arange(q.shape[1])[:, None]
    c2p = np.take_along_axis(q @ pos_k.transpose(0, 2, 1),
                             np.clip(delta + span, 0, 2 * span - 1)[None], axis=-1)
    p2c = np.take_along_axis(k @ pos_q.transpose(0, 2, 1),
                             np.clip(-delta + span, 0, 2 * span - 1)[None], axis=-1)
    del rows
    return (c2p + p2c.transpose(0, 2, 1)) / scale


def test_deberta_disentangled_bias_is_its_attentions():
    np.testing.assert_allclose(_disentangled(DEBERTA["bias"]), DEBERTA["bias"]["scores"],
                               **FLOAT32)


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("call, error, words", [
    (lambda: families.llama_permutation(7), ValueError, "head_dim must be even"),
    (lambda: families.llama_permutation(8, n_heads=0), ValueError, "n_heads must be an integer"),
    (lambda: families.llama_permutation(2**27, n_heads=2), ValueError, "would need"),
    (lambda: families.opt_position_ids([0, 1, 1]), ValueError, "must have 2 dimensions"),
    (lambda: families.opt_position_ids([[0, 2]]), ValueError, "attention_mask must lie in"),
    (lambda: families.opt_position_ids([[0.0, 1.0]]), TypeError, "attention_mask must be integers"),
    (lambda: families.opt_position_ids([[1, 1]], cache_length=3), ValueError, "cache_length"),
    (lambda: families.llama4_attention_scale([-1]), ValueError, "positions must lie in"),
    (lambda: families.llama4_attention_scale([1], floor_scale=0.5), ValueError, "floor_scale must be in \\[1.0"),
    (lambda: families.llama4_attention_scale([1], attn_scale=-1), ValueError, "attn_scale"),
    (lambda: families.chunked_causal_mask(4, 0), ValueError, "chunk_size must be an integer"),
    (lambda: families.chunked_causal_mask(4, 2, left_padding=5), ValueError, "left_padding"),
    (lambda: families.chunked_causal_mask(2**14, 2), ValueError, "would need"),
    (lambda: families.deberta_log_buckets([1.5]), TypeError, "relative_positions must be integers"),
    (lambda: families.deberta_log_buckets([1], bucket_size=7), ValueError, "bucket_size must be even"),
    (lambda: families.deberta_log_buckets([1], bucket_size=256, max_position=100), ValueError,
     "max_position must be an integer >= 130"),
    (lambda: families.deberta_log_buckets([2**60]), ValueError, "at most 2\\*\\*53"),
    (lambda: families.mpt_alibi_slopes(0), ValueError, "n_heads must be an integer"),
    (lambda: families.mpt_alibi_slopes(4, alibi_bias_max=0), ValueError, "alibi_bias_max"),
])
def test_bad_input_is_refused_by_name(call, error, words):
    with pytest.raises(error, match=words):
        call()
