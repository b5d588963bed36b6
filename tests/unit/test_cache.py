"""Tests of posenc.cache and posenc.masks: the KV cache, positions of padded and packed batches, windows, sinks.

The reference values in tests/fixtures/generation_reference.json were
computed with Hugging Face Transformers 5.24.0 (torch 2.14.1, CPU) by
tools/make_generation_reference.py, which records the versions in the file:
generation's position ids, ``masking_utils``' masks, the keys that
``DynamicSlidingWindowLayer`` returns, ``DataCollatorWithFlattening``'s
positions, and a one-layer Llama decoding with a ``DynamicCache`` under
dynamic NTK and LongRoPE. These tests need neither torch nor Transformers.

The tiny model run one token at a time (``decode``) must give exactly what it
gives when it reads the whole prefix again (``recompute``, and
``posenc.model.forward``): property tests draw the sizes, the scheme and the
tokens.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc
from posenc import cache, masks
from posenc.cache import KVCache
from posenc.model import forward, init_model
from posenc.scaling import RELATIVE_TOLERANCE
from tools.paths import ROOT

REFERENCE = json.loads((ROOT / "tests" / "fixtures" / "generation_reference.json").read_text())
TOKENS = np.array([2, 0, 5, 7, 1, 3, 3, 6, 4, 0, 2, 1])


def model_of(scheme, *, seed=0, d_model=16, n_heads=4, max_len=64):
    """A causal float64 model of ``scheme`` that reads its last position, its positions of size 1."""
    model = init_model(scheme, causal=True, readout="last", seed=seed, d_model=d_model,
                       n_heads=n_heads, max_len=max_len)
    rng = np.random.default_rng(seed + 100)
    if scheme == "learned":  # rows of size 1, not 0.02: positions that matter
        model["params"]["P"] = rng.normal(size=model["params"]["P"].shape)
    if scheme == "t5":  # a bias of size 1, not 1/d_model
        model["params"]["R"] = rng.normal(size=model["params"]["R"].shape)
    return model


def test_the_reference_was_made_with_transformers_5_24():
    assert REFERENCE["versions"]["transformers"] == "5.24.0"
    assert REFERENCE["versions"]["torch"].startswith("2.14.1")


# --- the cache ---------------------------------------------------------------------


def test_a_full_cache_keeps_everything_in_order():
    c = KVCache()
    for t in range(5):
        c.append(np.full((2, 3), t), np.full((2, 1), -t))
    assert c.keys.shape == (2, 5, 3) and c.values.shape == (2, 5, 1)
    assert c.positions.tolist() == [0, 1, 2, 3, 4] and c.seen == 5 and len(c) == 5
    assert c.keys[1, :, 0].tolist() == [0, 1, 2, 3, 4]
    assert c.values[0, :, 0].tolist() == [0, -1, -2, -3, -4]


@pytest.mark.parametrize("window, seen", [(1, 6), (3, 2), (3, 9), (5, 5)])
def test_a_window_keeps_the_last_window_tokens(window, seen):
    c = KVCache("window", window=window)
    for t in range(seen):
        c.append([float(t)], [0.0])
    expected = list(range(max(0, seen - window), seen))
    assert c.positions.tolist() == expected
    assert c.keys[:, 0].tolist() == expected  # the keys went with their positions
    assert c.slots.tolist() == list(range(len(expected)))


@pytest.mark.parametrize("window, sinks, seen, expected", [
    (4, 1, 7, [0, 4, 5, 6]),
    (8, 4, 20, [0, 1, 2, 3, 16, 17, 18, 19]),
    (3, 2, 3, [0, 1, 2]),
    (3, 2, 10, [0, 1, 9]),
    (6, 2, 4, [0, 1, 2, 3]),
])
def test_a_sink_cache_keeps_the_first_sinks_and_the_last_tokens(window, sinks, seen, expected):
    c = KVCache("sinks", window=window, sinks=sinks)
    for t in range(seen):
        c.append([float(t)], [float(-t)])
    assert c.positions.tolist() == expected
    assert c.keys[:, 0].tolist() == expected and c.values[:, 0].tolist() == [-p for p in expected]
    assert c.slots.tolist() == list(range(len(expected)))


@pytest.mark.parametrize("run", REFERENCE["sliding_window_cache"], ids=lambda r: f"window{r['window']}")
def test_the_window_cache_holds_the_keys_transformers_lets_each_query_see(run):
    c = KVCache("window", window=run["window"])
    for t, seen in enumerate(run["seen"]):
        c.append([float(t)], [0.0])
        assert c.positions.tolist() == seen, f"step {t}"


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(policy="lru"), ValueError, "policy must be one of 'full', 'window', 'sinks'"),
    (dict(policy="window"), TypeError, "window must be an integer"),
    (dict(policy="window", window=0), ValueError, "window must be an integer >= 1"),
    (dict(policy="window", window=2.0), TypeError, "window must be an integer"),
    (dict(policy="full", window=4), ValueError, "give no window"),
    (dict(policy="sinks", window=4, sinks=4), ValueError, "sinks must be from 1 to window - 1 = 3"),
    (dict(policy="sinks", window=4, sinks=9), ValueError, "sinks must be from 1 to window - 1"),
    (dict(policy="sinks", window=4), ValueError, "sinks must be from 1"),
    (dict(policy="sinks", window=1, sinks=1), ValueError, "sinks must be from 1 to window - 1 = 0"),
    (dict(policy="window", window=4, sinks=1), ValueError, "only a 'sinks' cache keeps sinks"),
    (dict(policy="sinks", window=4, sinks=-1), ValueError, "sinks must be an integer >= 0"),
])
def test_a_bad_cache_is_refused_by_name(kwargs, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        KVCache(**kwargs)


def test_keys_of_another_shape_are_refused_and_leave_the_cache_unchanged():
    c = KVCache()
    c.append(np.ones((2, 3)), np.ones((2, 1)))
    for key, value in [(np.ones((2, 4)), np.ones((2, 1))), (np.ones((3, 3)), np.ones((3, 1))),
                       (np.ones((2, 3)), np.ones((2, 2))), (np.ones((2, 3)), np.ones((3, 1)))]:
        with pytest.raises(ValueError, match="must have the (shape of the first|same leading)"):
            c.append(key, value)
    with pytest.raises(ValueError, match="key must contain only finite numbers"):
        c.append(np.full((2, 3), np.nan), np.ones((2, 1)))
    with pytest.raises(TypeError, match="value must be array-like of numbers"):
        c.append(np.ones((2, 3)), "v")
    assert c.seen == 1 and c.keys.shape == (2, 1, 3)


# --- padding ---------------------------------------------------------------------


@pytest.mark.parametrize("case", REFERENCE["position_ids"], ids=lambda c: str(c["attention_mask"]))
def test_position_ids_are_those_of_transformers_generation(case):
    assert masks.position_ids(case["attention_mask"]).tolist() == case["position_ids"]


def test_position_ids_of_transformers_4_put_padding_at_1():
    ids = masks.position_ids([[0, 0, 1, 1]], pad_position=1)
    assert ids.tolist() == [[1, 1, 0, 1]]
    assert masks.position_ids(np.array([True, False, True])).tolist() == [0, 0, 1]


@pytest.mark.parametrize("case", REFERENCE["padding_masks"], ids=lambda c: str(c["attention_mask"]))
def test_the_padding_mask_is_sdpa_mask(case):
    mask = masks.padding_mask(case["attention_mask"])
    assert mask.dtype == bool and mask.astype(int).tolist() == case["mask"]


@pytest.mark.parametrize("mask, error, words", [
    ([[0, 2, 1]], ValueError, "only 0 and 1"),
    ([0.5, 1.0], ValueError, "only 0 and 1"),
    ([-1, 1], ValueError, "only 0 and 1"),
    ([np.nan, 1], ValueError, "only 0 and 1"),
    (["1", "0"], TypeError, "array of 0s and 1s"),
    ([], TypeError, "non-empty"),
    (np.ones((1, 2, 3)), TypeError, "shape \\(batch, n\\) or \\(n,\\)"),
    ([[1, 1], [1]], TypeError, "array of 0s and 1s"),
    (None, TypeError, "array of 0s and 1s"),
])
def test_a_mask_that_is_not_0_or_1_is_refused_by_name(mask, error, words):
    for f in (masks.position_ids, masks.padding_mask):
        with pytest.raises(error, match=f"^attention_mask must .*{words}"):
            f(mask)


# --- packing -----------------------------------------------------------------------


@pytest.mark.parametrize("case", REFERENCE["packing"], ids=lambda c: str(c["lengths"]))
def test_packing_is_what_transformers_builds(case):
    ids = masks.packed_position_ids(case["lengths"])
    assert ids.tolist() == case["position_ids"]  # DataCollatorWithFlattening
    documents = masks.document_ids(ids)
    # find_packed_sequence_indices gives None for a single document
    assert documents.tolist() == (case["document_ids"] or [0] * len(ids))
    assert masks.packed_mask(case["lengths"]).astype(int).tolist() == case["mask"]  # create_causal_mask


@pytest.mark.parametrize("lengths, error, words", [
    ([3, 0, 2], ValueError, "every document has a token"),
    ([], ValueError, "non-empty"),
    ([[2, 3]], ValueError, "non-empty list"),
    ([2.0, 3.0], TypeError, "integers"),
    ("3", TypeError, "integers"),
])
def test_bad_lengths_are_refused_by_name(lengths, error, words):
    for f in (masks.packed_position_ids, masks.packed_mask):
        with pytest.raises(error, match=f"^lengths must .*{words}"):
            f(lengths)


def test_a_packed_row_read_with_its_mask_is_each_document_alone():
    lengths = [4, 2, 5]
    tokens = TOKENS[:11][None]
    for scheme in cache.SCHEMES:
        model = model_of(scheme)
        packed = cache.logits_per_position(model, tokens, positions=masks.packed_position_ids(lengths),
                                           mask=masks.packed_mask(lengths))[0]
        alone = np.concatenate([cache.logits_per_position(model, doc[None])[0]
                                for doc in np.split(tokens[0], np.cumsum(lengths)[:-1])])
        assert np.abs(packed - alone).max() < 1e-12, scheme


# --- windows and chunks -----------------------------------------------------------------


@pytest.mark.parametrize("case", REFERENCE["sliding_window_masks"], ids=lambda c: f"{c['n']}-{c['window']}")
def test_the_sliding_window_mask_is_transformers(case):
    mask = masks.sliding_window_mask(case["n"], case["window"])
    assert mask.astype(int).tolist() == case["mask"]


@pytest.mark.parametrize("case", REFERENCE["chunked_masks"],
                         ids=lambda c: f"{c['n']}-{c['chunk']}-{c['left_padding']}")
def test_the_chunked_mask_chapter_10_uses_is_transformers(case):
    mask = posenc.chunked_causal_mask(case["n"], case["chunk"], left_padding=case["left_padding"])
    assert mask.astype(int).tolist() == case["mask"]


def test_a_window_below_1_is_refused():
    with pytest.raises(ValueError, match="^window must be an integer >= 1, got 0"):
        masks.sliding_window_mask(5, 0)
    with pytest.raises(ValueError, match="^n must be an integer >= 1"):
        masks.sliding_window_mask(0, 2)


# --- what each query sees -------------------------------------------------------------


@pytest.mark.parametrize("n, window", [(9, 1), (9, 4), (5, 9)])
def test_a_window_sees_what_the_sliding_window_mask_allows(n, window):
    offsets = cache.seen_offsets("window", n, window=window)
    assert ((offsets >= 0) == masks.sliding_window_mask(n, window)).all()
    i, j = np.nonzero(offsets >= 0)
    assert (offsets[i, j] == i - j).all()
    assert (cache.seen_offsets("window", n, window=window, positions="cache") == offsets).all()


def test_chunks_see_their_own_chunk_only():
    offsets = cache.seen_offsets("chunks", 11, chunk=4)
    assert ((offsets >= 0) == posenc.chunked_causal_mask(11, 4)).all()
    i, j = np.nonzero(offsets >= 0)
    assert (offsets[i, j] == i - j).all()


def test_sinks_are_seen_at_growing_text_offsets_and_bounded_cache_offsets():
    text = cache.seen_offsets("sinks", 30, window=6, sinks=2)
    slots = cache.seen_offsets("sinks", 30, window=6, sinks=2, positions="cache")
    assert ((text >= 0) == (slots >= 0)).all()
    assert text[-1, [0, 1, 26, 27, 28, 29]].tolist() == [29, 28, 3, 2, 1, 0]
    assert slots[-1, [0, 1, 26, 27, 28, 29]].tolist() == [5, 4, 3, 2, 1, 0]
    assert text.max() == 29 and slots.max() == 5
    assert ((text >= 0).sum(axis=1) == np.minimum(np.arange(1, 31), 6)).all()


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(policy="chunks", n=5), TypeError, "chunk must be an integer"),
    (dict(policy="chunks", n=5, chunk=2, window=3), ValueError, "takes chunk only"),
    (dict(policy="window", n=5, window=2, chunk=2), ValueError, "chunk is for the policy 'chunks'"),
    (dict(policy="sinks", n=5, window=2, sinks=2), ValueError, "sinks must be from 1 to window - 1"),
    (dict(policy="full", n=10**5), ValueError, "2 \\* n \\* n = 2 \\* 100000 \\* 100000 would need"),
    (dict(policy="full", n=5, positions="slots"), ValueError, "positions must be one of"),
])
def test_seen_offsets_refuses_bad_settings_by_name(kwargs, error, words):
    with pytest.raises(error, match=words):
        cache.seen_offsets(**kwargs)


# --- re-rotation ----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**20), st.integers(0, 2**20), st.integers(1, 6), st.sampled_from(["interleaved", "halves"]))
def test_rerotation_is_a_rotation_by_the_difference(a, b, half, layout):
    k = np.random.default_rng(a % 97).normal(size=(3, 2 * half))
    moved = cache.rerotate(posenc.rope(k, [a, a + 1, a + 2], layout=layout), [a, a + 1, a + 2],
                           [b, b + 1, b + 2], layout=layout)
    # angles up to 2**20 radians carry a rounding error of about 2**20 * 1e-16
    assert np.abs(moved - posenc.rope(k, [b, b + 1, b + 2], layout=layout)).max() < 1e-9


def test_rerotation_is_what_sinkcache_wrote_out():
    # Transformers 4's SinkCache: rerotation_cos = cos(a) cos(b) + sin(a) sin(b), rerotation_sin =
    # -sin(a) cos(b) + cos(a) sin(b), applied with rotate_half to a key cached at position a
    rng = np.random.default_rng(3)
    d, a, b = 8, np.array([9, 10, 11]), np.array([8, 9, 10])
    theta = posenc.frequencies(d)
    angle_a, angle_b = np.outer(a, theta), np.outer(b, theta)
    cos_a, sin_a = np.tile(np.cos(angle_a), 2), np.tile(np.sin(angle_a), 2)
    cos_b, sin_b = np.tile(np.cos(angle_b), 2), np.tile(np.sin(angle_b), 2)
    re_cos, re_sin = cos_a * cos_b + sin_a * sin_b, -sin_a * cos_b + cos_a * sin_b

    def rotate_half(x):
        return np.concatenate([-x[:, d // 2:], x[:, :d // 2]], axis=1)

    cached = posenc.rope(rng.normal(size=(3, d)), a, layout="halves")
    sinkcache = cached * re_cos + rotate_half(cached) * re_sin
    assert np.abs(sinkcache - cache.rerotate(cached, a, b, layout="halves")).max() < 1e-14


def test_rerotate_refuses_positions_of_another_length():
    with pytest.raises(ValueError, match="old_positions and new_positions must have the same length"):
        cache.rerotate(np.ones((2, 4)), [0, 1], [1])


# --- dynamic NTK and LongRoPE in a real cache ---------------------------------------------------


def _cached_key_rotations(run, frequencies):
    """Each key rotated as Transformers caches it: with the frequencies of the step that read it."""
    raw = np.array(run["keys_before_rotation"])  # (heads, n, d_h)
    out = np.empty_like(raw)
    for j in range(raw.shape[1]):
        inv_freq, factor = frequencies(max(j + 1, run["prompt"]))
        out[:, j] = factor * posenc.rope(raw[:, j:j + 1], [j], inv_freq=inv_freq, layout="halves")[:, 0]
    return out


def test_transformers_caches_each_key_rotated_with_the_dynamic_base_of_its_own_step():
    run = REFERENCE["dynamic_rope"]
    cfg = run["config"]
    scaling = {"rope_type": "dynamic", "factor": cfg["rope_parameters"]["factor"],
               "original_max_position_embeddings": cfg["max_position_embeddings"]}

    def frequencies(seq_len):
        return posenc.rope_frequencies(cfg["head_dim"], base=10000.0, scaling=scaling, seq_len=seq_len)

    cached = np.array(run["cached_keys"])
    ours = _cached_key_rotations(run, frequencies)
    # Transformers computes its frequencies in float32 (posenc.scaling.RELATIVE_TOLERANCE)
    assert np.abs(ours - cached).max() <= RELATIVE_TOLERANCE * np.abs(cached).max() * 10
    # not the keys a full recomputation would rotate with the last step's base
    n = cached.shape[1]
    last, _ = frequencies(n)
    full = posenc.rope(np.array(run["keys_before_rotation"]), np.arange(n), inv_freq=last, layout="halves")
    assert np.abs(full - cached).max() > 0.1


def test_transformers_caches_the_keys_before_longropes_switch_with_the_short_factors():
    run = REFERENCE["longrope"]
    cfg = run["config"]

    def frequencies(seq_len):
        return posenc.rope_frequencies(cfg["head_dim"], scaling=cfg["rope_parameters"], seq_len=seq_len)

    cached = np.array(run["cached_keys"])
    ours = _cached_key_rotations(run, frequencies)
    assert np.abs(ours - cached).max() <= RELATIVE_TOLERANCE * np.abs(cached).max() * 10
    original = cfg["rope_parameters"]["original_max_position_embeddings"]
    short, _ = frequencies(original)
    long, _ = frequencies(original + 1)
    assert not np.allclose(short, long)
    # the keys read before the switch keep the short factors
    before = _cached_key_rotations(dict(run, prompt=0), lambda seq_len: frequencies(original + 1))
    assert np.abs(before[:, :original] - cached[:, :original]).max() > 0.1


@pytest.mark.parametrize("name", ["dynamic_rope", "longrope"])
def test_transformers_cached_logits_leave_the_full_recomputation_past_the_pretraining_context(name):
    run = REFERENCE[name]
    cached, full = np.array(run["logits_cached"]), np.array(run["logits_full"])
    original = run["config"]["rope_parameters"].get("original_max_position_embeddings",
                                                     run["config"]["max_position_embeddings"])
    lengths = np.arange(run["prompt"], run["prompt"] + run["steps"] + 1)  # tokens read at each row
    gap = np.abs(cached - full).max(axis=1)
    assert (gap[lengths <= original] < 1e-12).all()
    assert (gap[lengths > original] > 1e-3).all()


# --- the tiny model, with positions and masks ----------------------------------------------


@pytest.mark.parametrize("scheme", cache.SCHEMES)
def test_logits_per_position_is_the_model_on_every_prefix(scheme):
    model = model_of(scheme)
    tokens = np.stack([TOKENS, TOKENS[::-1]])
    rows = cache.logits_per_position(model, tokens)
    for i in range(tokens.shape[1]):
        assert np.abs(rows[:, i] - forward(model, tokens[:, :i + 1])).max() < 1e-12
    some = cache.logits_per_position(model, tokens, rows=[-1, 3, 0])
    assert np.abs(some - rows[:, [11, 3, 0]]).max() < 1e-12


@pytest.mark.parametrize("scheme", cache.SCHEMES)
def test_left_padding_with_position_ids_from_the_mask_changes_nothing(scheme):
    model = model_of(scheme)
    alone = cache.logits_per_position(model, TOKENS[None, :8])[0]
    padded = np.concatenate([[3, 3, 3], TOKENS[:8]])[None]
    mask = np.r_[0, 0, 0, [1] * 8][None]
    rows = cache.logits_per_position(model, padded, positions=masks.position_ids(mask),
                                     mask=masks.padding_mask(mask))[0]
    assert np.isnan(rows[:3]).all()  # padding before the first token sees no key
    assert np.abs(rows[3:] - alone).max() < 1e-12


@pytest.mark.parametrize("scheme", ["none", "rope", "alibi", "t5"])
def test_a_constant_shift_leaves_relative_schemes_unchanged(scheme):
    model = model_of(scheme)
    alone = cache.logits_per_position(model, TOKENS[None])
    shifted = cache.logits_per_position(model, TOKENS[None], positions=np.arange(12) + 1000)
    assert np.abs(shifted - alone).max() < 1e-10  # angles of 1000 radians round to 1e-13


@pytest.mark.parametrize("scheme", ["sinusoidal", "learned"])
def test_a_constant_shift_changes_added_tables(scheme):
    model = model_of(scheme)
    alone = cache.logits_per_position(model, TOKENS[None])
    shifted = cache.logits_per_position(model, TOKENS[None], positions=np.arange(12) + 5)
    assert np.abs(shifted - alone).max() > 1e-3


def test_logits_per_position_refuses_what_it_cannot_run_by_name():
    tokens = [[1, 2, 3]]
    with pytest.raises(ValueError, match="model must be causal"):
        cache.logits_per_position(init_model("rope"), tokens)
    with pytest.raises(ValueError, match="not a stack"):
        cache.logits_per_position(init_model("rope", causal=True, seed=[0, 1]), tokens)
    with pytest.raises(ValueError, match="model\\['scheme'\\] must be one of"):
        cache.logits_per_position(init_model("rope_2d", causal=True, grid=(1, 3)), tokens)
    with pytest.raises(ValueError, match="learned table has only 64 rows"):
        cache.logits_per_position(model_of("learned"), tokens, positions=[0, 1, 64])
    with pytest.raises(ValueError, match="positions must have shape"):
        cache.logits_per_position(model_of("rope"), tokens, positions=[0, 1])
    with pytest.raises(ValueError, match="mask must be booleans of shape"):
        cache.logits_per_position(model_of("rope"), tokens, mask=np.ones((3, 3)))
    with pytest.raises(ValueError, match="tokens must lie in"):
        cache.logits_per_position(model_of("rope"), [[1, 2, 8]])
    with pytest.raises(TypeError, match="model must be a dict"):
        cache.logits_per_position("rope", tokens)


# --- one token at a time ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(scheme=st.sampled_from(cache.SCHEMES), n=st.integers(1, 14), heads=st.sampled_from([(8, 1), (16, 4), (12, 2)]),
       seed=st.integers(0, 10**6))
def test_cached_decoding_is_full_recomputation(scheme, n, heads, seed):
    d_model, n_heads = heads
    model = model_of(scheme, seed=seed, d_model=d_model, n_heads=n_heads)
    tokens = np.random.default_rng(seed).integers(0, 8, size=n)
    cached, cost = cache.decode(model, tokens)
    full, full_cost = cache.recompute(model, tokens)
    assert np.abs(cached - full).max() < 1e-12
    assert np.abs(cached[-1] - forward(model, tokens[None])[0]).max() < 1e-12  # the engine too
    assert (cost <= full_cost).all() and cost[0] == full_cost[0]


def _sinks_mask(n, window, sinks):
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    return (j <= i) & ((j < sinks) | (j > i - (window - sinks)))


@settings(max_examples=60, deadline=None)
@given(scheme=st.sampled_from(cache.SCHEMES), n=st.integers(1, 14), window=st.integers(2, 6),
       seed=st.integers(0, 10**6), data=st.data())
def test_a_window_or_sink_cache_is_attention_through_its_mask(scheme, n, window, seed, data):
    sinks = data.draw(st.integers(1, window - 1))
    model = model_of(scheme, seed=seed)
    tokens = np.random.default_rng(seed).integers(0, 8, size=n)
    for policy, kwargs, mask in [
        ("window", {}, masks.sliding_window_mask(n, window)),
        ("sinks", {"sinks": sinks}, _sinks_mask(n, window, sinks)),
    ]:
        logits, _ = cache.decode(model, tokens, policy=policy, window=window, **kwargs)
        full = cache.logits_per_position(model, tokens[None], mask=mask)[0]
        assert np.abs(logits - full).max() < 1e-12, policy


@settings(max_examples=40, deadline=None)
@given(scheme=st.sampled_from(["none", "rope", "alibi", "t5"]), n=st.integers(1, 14),
       window=st.integers(2, 6), seed=st.integers(0, 10**6), data=st.data())
def test_cache_positions_read_each_step_as_the_kept_tokens_at_places_0_to_n(scheme, n, window, seed, data):
    # StreamingLLM: at every step the query and the kept keys sit at 0, 1, ..., len - 1
    sinks = data.draw(st.integers(1, window - 1))
    model = model_of(scheme, seed=seed)
    tokens = np.random.default_rng(seed).integers(0, 8, size=n)
    logits, _ = cache.decode(model, tokens, policy="sinks", window=window, sinks=sinks, positions="cache")
    kept = KVCache("sinks", window=window, sinks=sinks)
    for t in range(n):
        kept.append([0.0], [0.0])
        row = cache.logits_per_position(model, tokens[None, kept.positions])[0, -1]
        assert np.abs(logits[t] - row).max() < 1e-12


def test_decode_counts_its_multiply_adds():
    d, C, H, n = 16, 2, 4, 12
    steps = np.arange(1, n + 1)  # keys in the cache at each step
    plain = 3 * d * d + 2 * d * steps + d * C
    expected = {"none": plain, "t5": plain, "sinusoidal": plain, "learned": plain,
                "rope": plain + 4 * d, "alibi": plain + H * steps}
    for scheme, cost in expected.items():
        assert cache.decode(model_of(scheme), TOKENS)[1].tolist() == cost.tolist(), scheme
    pairs = steps * (steps + 1) // 2
    assert cache.recompute(model_of("rope"), TOKENS)[1].tolist() == (
        3 * d * d * steps + 2 * d * pairs + d * C + 4 * d * steps).tolist()
    window = cache.decode(model_of("none"), TOKENS, policy="window", window=4)[1]
    assert window.tolist() == (3 * d * d + 2 * d * np.minimum(steps, 4) + d * C).tolist()
    moved = cache.decode(model_of("rope"), TOKENS, policy="sinks", window=4, sinks=1, positions="cache")[1]
    kept = np.minimum(steps, 4)
    assert moved.tolist() == (3 * d * d + 2 * d * kept + d * C + 2 * d * (1 + kept)).tolist()


def test_decode_refuses_cache_positions_for_added_tables():
    for scheme in ("sinusoidal", "learned"):
        with pytest.raises(ValueError, match=f"{scheme!r} added each position to the input once"):
            cache.decode(model_of(scheme), TOKENS, policy="sinks", window=4, sinks=1, positions="cache")
    with pytest.raises(ValueError, match="tokens must be one sequence"):
        cache.decode(model_of("rope"), [TOKENS])
    with pytest.raises(ValueError, match="window must be an integer >= 1"):
        cache.decode(model_of("rope"), TOKENS, policy="window", window=0)
