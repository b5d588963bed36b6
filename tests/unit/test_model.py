"""Tests of posenc.model: the tiny model's forward pass, gradients, stacks and RoPE settings.

The fast engine is proven equal to the model's definition
(posenc.model.forward_by_definition, written head by head with
posenc.attention), and each scheme's parts equal to the functions of the
papers; the backward pass is compared with central finite differences, for
every entry of every parameter of every position scheme.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import (
    alibi_bias,
    attention,
    backward,
    causal_mask,
    engine,
    grid_positions,
    model,
    relative_positions,
    rope,
    rope_2d,
    sinusoidal,
    sinusoidal_2d,
    t5_bucket,
)
from posenc import frequencies as posenc_frequencies
from posenc.backward import loss_and_grads
from posenc.model import (
    READOUTS,
    SCHEMES,
    accuracy,
    attention_weights,
    forward,
    forward_by_definition,
    init_model,
    unstack,
)
from posenc.tasks import lookback_task, lookback_test_set, order_task, order_test_set
from posenc.training import train


GRID_SCHEMES = ("sinusoidal_2d", "rope_2d")


def grid(scheme, n):
    """The keyword that gives a 2-D scheme the grid of sequences of n tokens: as square as n allows."""
    if scheme not in GRID_SCHEMES:
        return {}
    height = max(h for h in range(1, int(n**0.5) + 1) if n % h == 0)
    return {"grid": (height, n // height)}


def swap_markers(tokens):
    return np.where(tokens < 2, 1 - tokens, tokens)


def relative_error(a, b):
    return np.linalg.norm(a - b) / max(np.linalg.norm(a) + np.linalg.norm(b), 1e-300)


def numerical_grads(model, tokens, labels, eps=1e-6):
    """Central differences, one entry at a time."""
    grads = {}
    for name, p in model["params"].items():
        g = np.zeros_like(p)
        for idx in np.ndindex(p.shape):
            old = p[idx]
            p[idx] = old + eps
            plus = loss_and_grads(model, tokens, labels)[0]
            p[idx] = old - eps
            minus = loss_and_grads(model, tokens, labels)[0]
            p[idx] = old
            g[idx] = (plus - minus) / (2 * eps)
        grads[name] = g
    return grads


def rope_reference_logits(model, tokens, inv_freq, factor):
    """The model head by head, with the rotation written out from inv_freq and the factor."""
    p, H = model["params"], model["n_heads"]
    tokens = np.asarray(tokens)
    n, d = tokens.shape[1], p["E"].shape[1]
    d_h = d // H
    x = p["E"][tokens]
    angles = np.arange(n)[:, None] * np.asarray(inv_freq)[None, :]  # (n, d_h / 2)
    cos, sin = np.cos(angles), np.sin(angles)

    def rotate(y):
        out = np.empty_like(y)
        out[..., 0::2] = y[..., 0::2] * cos - y[..., 1::2] * sin
        out[..., 1::2] = y[..., 0::2] * sin + y[..., 1::2] * cos
        return factor * out

    heads = []
    for h in range(H):
        cols = slice(h * d_h, (h + 1) * d_h)
        q, k, v = x @ p["W_q"][:, cols], x @ p["W_k"][:, cols], x @ p["W_v"][:, cols]
        mask = causal_mask(n) if model["causal"] else None
        out, _ = attention(rotate(q), rotate(k), v, mask=mask)
        heads.append(out)
    outputs = np.concatenate(heads, axis=-1)
    pooled = outputs.mean(axis=1) if model["readout"] == "mean" else outputs[:, -1]
    return pooled @ p["W_out"] + p["b_out"]


# --- the fast engine computes the model's definition ---------------------------------

#: How far the engine may be from the definition (computed in float64): in
#: float64, rounding (1e-15 measured); in float32, about a hundred roundings
#: of 6e-8 each on logits of size 1 (7e-7 measured over 20 seeds of every case).
ENGINE_TOLERANCE = {np.float64: 1e-12, np.float32: 1e-5}


def engine_logits(model, tokens):
    """The logits of both paths of the engine: forward()'s and the training's forward pass."""
    with np.errstate(all="ignore"):
        training, _ = engine.forward(model, model_params(model), np.asarray(tokens))
    return forward(model, tokens), training if model["n_models"] else training[0]


def model_params(model):
    return model["params"] if model["n_models"] else {k: x[None] for k, x in model["params"].items()}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("readout", READOUTS)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_engine_computes_the_definition(scheme, causal, readout, dtype):
    stack = init_model(scheme, d_model=8, n_heads=2, causal=causal, readout=readout, position_std=0.5,
                       seed=[1, 2], dtype=dtype, **grid(scheme, 12))
    tokens = order_task(6, 12, seed=2)[0]
    own = np.stack([tokens, order_task(6, 12, seed=3)[0]])  # one batch per model
    cases = [(stack, tokens), (stack, own), (unstack(stack)[1], tokens)]
    if scheme == "rope":  # settings changed on a trained model
        cases.append((dict(stack, inv_freq=np.array([0.7, 0.05]), attention_factor=1.3), tokens))
    for model, x in cases:
        definition = forward_by_definition(model, x)
        assert definition.dtype == np.float64
        assert definition.shape == ((2,) if model["n_models"] else ()) + (6, 2)
        for logits in engine_logits(model, x):
            assert logits.dtype == dtype
            np.testing.assert_allclose(logits, definition, rtol=0, atol=ENGINE_TOLERANCE[dtype])


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_engine_computes_the_definition_at_the_default_sizes(scheme):
    model = init_model(scheme, causal=True, position_std=0.5, seed=[0, 1, 2], dtype=np.float32,
                       **grid(scheme, 16))
    tokens = order_task(40, 16, seed=1)[0]
    for logits in engine_logits(model, tokens):
        np.testing.assert_allclose(logits, forward_by_definition(model, tokens), rtol=0,
                                   atol=ENGINE_TOLERANCE[np.float32])


def test_the_definition_can_fail_the_proof():
    # the proof test would see an engine that left out a part of a scheme
    model = init_model("t5", seed=0, position_std=0.5)
    tokens = order_task(6, 12, seed=2)[0]
    without = dict(model, params=dict(model["params"], R=np.zeros_like(model["params"]["R"])))
    assert np.abs(forward_by_definition(model, tokens) - forward(without, tokens)).max() > 1e-3


# --- each scheme's parts are the functions of its paper --------------------------------


def test_the_parts_of_each_scheme_are_the_functions_of_the_papers():
    n, x = 12, np.random.default_rng(0).normal(size=(3, 12, 4))  # queries of one head
    model = {name: init_model(name, d_model=8, n_heads=2, seed=0, **grid(name, n)) for name in SCHEMES}
    part = {name: SCHEMES[name] for name in SCHEMES}
    np.testing.assert_array_equal(part["sinusoidal"].added(model["sinusoidal"], n, np.float64),
                                  sinusoidal(n, 8))
    np.testing.assert_array_equal(part["sinusoidal_2d"].added(model["sinusoidal_2d"], n, np.float64),
                                  sinusoidal_2d(3, 4, 8))
    assert part["learned"].table and not any(part[s].table for s in SCHEMES if s != "learned")
    np.testing.assert_array_equal(part["rope"].turned(model["rope"], x), rope(x))
    np.testing.assert_array_equal(part["rope_2d"].turned(model["rope_2d"], x),
                                  rope_2d(x, grid_positions(3, 4), base=100.0))
    np.testing.assert_array_equal(part["alibi"].bias(model["alibi"], n, np.float64),
                                  alibi_bias(2, n, causal=False))
    for causal in (False, True):  # T5's encoder buckets both directions, its decoder the past only
        t5 = dict(model["t5"], causal=causal)
        np.testing.assert_array_equal(part["t5"].bias_index(t5, n), t5_bucket(
            relative_positions(n, n), bidirectional=not causal, num_buckets=32, max_distance=128))
    assert model["t5"]["params"]["R"].shape == (2, 32)  # one number per bucket and head
    for name in ("none", "sinusoidal", "learned", "rope", "alibi", "sinusoidal_2d", "rope_2d"):
        assert part[name].bias_table == 0 and "R" not in model[name]["params"]


def test_the_definition_written_out_for_the_learned_table_and_t5():
    # the definition's shapes and signs, by hand: position i of the learned
    # table adds P[i]; T5's score of query i and key j adds R[h, bucket(j - i)]
    for scheme in ("learned", "t5"):
        model = init_model(scheme, d_model=8, n_heads=2, position_std=0.5, seed=4)
        p, tokens, n = model["params"], order_task(3, 10, seed=5)[0], 10
        x = p["E"][tokens] + (p["P"][:n] if scheme == "learned" else 0)
        bias = (p["R"][:, t5_bucket(relative_positions(n, n))] if scheme == "t5"
                else np.zeros((2, n, n)))
        heads = [attention(x @ p["W_q"][:, c], x @ p["W_k"][:, c], x @ p["W_v"][:, c],
                           bias=bias[h])[0] for h, c in enumerate((slice(0, 4), slice(4, 8)))]
        expected = np.concatenate(heads, axis=-1).mean(axis=1) @ p["W_out"] + p["b_out"]
        np.testing.assert_allclose(forward_by_definition(model, tokens), expected, rtol=0, atol=1e-14)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_read_at_the_last_position_the_causal_mask_changes_nothing(scheme):
    # the last query may attend to every key anyway; the other outputs are not read
    kwargs = dict(d_model=8, n_heads=2, readout="last", position_std=0.5, seed=3, **grid(scheme, 9))
    tokens, _ = lookback_task(5, 9, seed=4)
    masked, unmasked = init_model(scheme, causal=True, **kwargs), init_model(scheme, **kwargs)
    np.testing.assert_allclose(forward(masked, tokens), forward(unmasked, tokens), atol=1e-12)
    assert not np.allclose(forward(init_model(scheme, causal=True, **dict(kwargs, readout="mean")), tokens),
                           forward(init_model(scheme, **dict(kwargs, readout="mean")), tokens))


def test_init_model_shapes_and_defaults():
    model = init_model("learned", vocab_size=10, n_classes=3, d_model=12, n_heads=3, max_len=20)
    shapes = {name: x.shape for name, x in model["params"].items()}
    assert shapes == {"E": (10, 12), "P": (20, 12), "W_q": (12, 12), "W_k": (12, 12),
                      "W_v": (12, 12), "W_out": (12, 3), "b_out": (3,)}
    assert (model["scheme"], model["n_heads"], model["causal"], model["max_len"]) == ("learned", 3, False, 20)
    assert model["readout"] == "mean" and init_model("none", readout="last")["readout"] == "last"
    for scheme in ("none", "sinusoidal", "rope", "alibi"):
        assert "P" not in init_model(scheme)["params"]  # only the learned scheme has a table
    big = init_model("learned", max_len=4000, d_model=64, n_heads=1)["params"]["P"]
    assert abs(big.std() - 0.02) < 0.001


def test_init_model_is_reproducible():
    a, b = init_model("learned", seed=5), init_model("learned", seed=5)
    for name in a["params"]:
        np.testing.assert_array_equal(a["params"][name], b["params"][name])
    assert not np.array_equal(a["params"]["E"], init_model("learned", seed=6)["params"]["E"])


def test_attention_weights_are_distributions_and_causal():
    model = init_model("sinusoidal", causal=True)
    A = attention_weights(model, order_task(3, 6)[0])
    assert A.shape == (3, 4, 6, 6)
    np.testing.assert_allclose(A.sum(axis=-1), 1.0)
    assert np.all(A[..., np.triu_indices(6, k=1)[0], np.triu_indices(6, k=1)[1]] == 0)


@given(seed=st.integers(0, 1000), length=st.integers(2, 12))
@settings(max_examples=25, deadline=None)
def test_without_positions_the_model_is_permutation_invariant(seed, length):
    model = init_model("none", seed=seed)
    tokens, _ = order_task(5, length, seed=seed)
    perm = np.random.default_rng(seed).permutation(length)
    np.testing.assert_allclose(forward(model, tokens[:, perm]), forward(model, tokens), atol=1e-12)
    np.testing.assert_allclose(forward(model, swap_markers(tokens)), forward(model, tokens), atol=1e-12)


@given(seed=st.integers(0, 1000), length=st.integers(4, 12))
@settings(max_examples=25, deadline=None)
def test_read_at_the_last_position_without_positions_only_the_bag_and_last_token_count(seed, length):
    # permuting positions 0 .. n-2 permutes the keys of the last query: its output is unchanged
    model = init_model("none", causal=True, readout="last", seed=seed)
    tokens, _ = lookback_task(5, length, seed=seed)
    perm = np.r_[np.random.default_rng(seed).permutation(length - 1), length - 1]
    np.testing.assert_allclose(forward(model, tokens[:, perm]), forward(model, tokens), atol=1e-12)


def test_symmetric_alibi_cannot_tell_a_sequence_from_its_reverse():
    # -m|i - j| is unchanged when both positions are reflected, i -> n - 1 - i
    model = init_model("alibi", seed=0)
    tokens, _ = order_task(5, 9, seed=0)
    np.testing.assert_allclose(forward(model, tokens[:, ::-1]), forward(model, tokens), atol=1e-12)


@pytest.mark.parametrize("scheme", ["sinusoidal", "learned", "rope"])
def test_position_schemes_see_order(scheme):
    model = init_model(scheme, position_std=1.0, seed=0)
    tokens, _ = order_task(5, 9, seed=0)
    assert not np.allclose(forward(model, swap_markers(tokens)), forward(model, tokens))


def test_accuracy_of_a_model_without_positions_on_mirrored_pairs_is_one_half():
    tokens, labels = order_task(300, 10, seed=1)
    both = np.concatenate([tokens, swap_markers(tokens)])
    answers = np.concatenate([labels, 1 - labels])
    assert accuracy(init_model("none", seed=3), both, answers) == 0.5


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: init_model("absolute"), ValueError, "scheme must be one of"),
        (lambda: init_model("none", d_model=10, n_heads=4), ValueError, "n_heads must divide d_model"),
        (lambda: init_model("rope", d_model=12, n_heads=4), ValueError, "head width"),
        (lambda: init_model("none", n_classes=1), ValueError, "n_classes"),
        (lambda: init_model("none", vocab_size=0), ValueError, "vocab_size"),
        (lambda: init_model("none", max_len=2.5), TypeError, "max_len"),
        (lambda: init_model("none", causal=1), TypeError, "causal"),
        (lambda: init_model("none", readout="first"), ValueError, "readout must be one of"),
        (lambda: init_model("none", token_std=-1.0), ValueError, "token_std"),
        (lambda: init_model("learned", position_std=0), ValueError, "position_std"),
    ],
)
def test_init_model_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize(
    "tokens, error, words",
    [
        (np.zeros((2, 65), dtype=int), ValueError, "only 64 rows"),
        (np.full((2, 5), 8), ValueError, r"tokens must lie in \[0, 8\)"),
        (np.zeros((2, 5)), TypeError, "tokens must be integer"),
        (np.zeros(5, dtype=int), ValueError, "tokens must have 2"),
        (np.zeros((120, 65), dtype=int), ValueError, "only 64 rows"),  # more than one chunk
        (np.zeros((120, 5)), TypeError, "tokens must be integer"),
    ],
)
def test_forward_bad_input(tokens, error, words):
    with pytest.raises(error, match=words):
        forward(init_model("learned", max_len=64), tokens)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_forward_of_a_large_batch_equals_forward_of_its_pieces(scheme):
    # sequences do not interact: however the batch is cut, every row gets the same logits
    model = init_model(scheme, causal=True, position_std=0.5, seed=1, **grid(scheme, 9))
    tokens = order_task(123, 9, seed=2)[0]
    pieces = np.concatenate([forward(model, tokens[i:i + 7]) for i in range(0, 123, 7)])
    whole = forward(model, tokens)
    assert whole.shape == (123, 2)
    np.testing.assert_allclose(whole, pieces, atol=1e-12)


@pytest.mark.parametrize("causal, readout", [(False, "mean"), (True, "mean"), (True, "last")])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_pieces_of_a_batch_change_no_bit_of_a_stacks_logits(scheme, causal, readout, monkeypatch):
    # forward() cuts a large batch into pieces of about engine.CHUNK_ENTRIES
    # scores; the chapters' printed digits rely on every piece size giving the
    # same float32 logits, bit for bit (pieces of one sequence, of 7, all at once)
    from posenc import engine

    stack = init_model(scheme, causal=causal, readout=readout, seed=[0, 1, 2], dtype=np.float32,
                       position_std=0.5, **grid(scheme, 16))
    tokens = order_task(300, 16, seed=2)[0]
    logits = []
    for entries in (1, 7 * 3 * stack["n_heads"] * 16 * 16, 2**40):
        monkeypatch.setattr(engine, "CHUNK_ENTRIES", entries)
        logits.append(forward(stack, tokens))
    assert logits[0].shape == (3, 300, 2) and logits[0].dtype == np.float32
    for other in logits[1:]:
        np.testing.assert_array_equal(other, logits[0])


def test_only_the_learned_table_limits_the_length():
    tokens = order_task(2, 100)[0]
    for scheme in ("none", "sinusoidal", "rope", "alibi"):
        assert forward(init_model(scheme), tokens).shape == (2, 2)


@pytest.mark.parametrize(
    "labels, words",
    [([0, 1], "labels must be 3 integers"), ([0, 1, 2], r"labels must lie in \[0, 2\)"),
     ([0.0, 1.0, 0.0], "labels must be 3 integers"), ([0, -1, 0], "labels must lie")],
)
def test_bad_labels(labels, words):
    model, tokens = init_model("none"), order_task(3, 5)[0]
    with pytest.raises(ValueError, match=words):
        loss_and_grads(model, tokens, labels)
    with pytest.raises(ValueError, match=words):
        accuracy(model, tokens, labels)


@pytest.mark.parametrize("causal, readout", [(False, "mean"), (True, "mean"), (True, "last")])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_gradients_match_finite_differences(scheme, causal, readout):
    model = init_model(scheme, vocab_size=8, n_classes=3, d_model=8, n_heads=2, max_len=8,
                       causal=causal, readout=readout, position_std=0.5, seed=7, **grid(scheme, 6))
    tokens, _ = order_task(4, 6, seed=8)
    labels = np.array([0, 2, 1, 2])  # three classes, so every column of W_out matters
    loss, grads = loss_and_grads(model, tokens, labels)
    assert grads.keys() == model["params"].keys()
    numeric = numerical_grads(model, tokens, labels)
    for name in model["params"]:
        assert grads[name].shape == model["params"][name].shape
        assert np.abs(numeric[name]).max() > 1e-6, f"{name}: the check would be vacuous"
        err = relative_error(grads[name], numeric[name])
        assert err < 1e-6, f"{scheme}, causal={causal}, {readout}: gradient of {name} off by {err:.1e}"


def test_loss_by_hand_for_zero_logits():
    model = init_model("none", n_classes=4)
    model["params"]["W_out"][:] = 0.0  # all logits 0: loss = log(4)
    loss, grads = loss_and_grads(model, *order_task(5, 6))
    assert np.isclose(loss, np.log(4))
    np.testing.assert_allclose(grads["E"], 0.0)  # nothing flows back through a zero readout


def test_rows_past_the_sequence_get_no_gradient():
    model = init_model("learned", max_len=10)
    _, grads = loss_and_grads(model, *order_task(3, 6))
    assert np.all(grads["P"][6:] == 0) and np.all(np.any(grads["P"][:6] != 0, axis=1))


@pytest.mark.parametrize("module", ["tables", "tasks", "model", "training"])
def test_public_names_are_exported(module):
    import importlib

    import posenc

    module = importlib.import_module(f"posenc.{module}")
    for name in module.__all__:
        assert getattr(posenc, name) is getattr(module, name)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_stack_computes_what_each_model_computes_alone(scheme):
    seeds = [3, 0, 7]
    kwargs = dict(d_model=8, n_heads=2, causal=True, position_std=0.5, **grid(scheme, 9))
    stack = init_model(scheme, seed=seeds, **kwargs)
    assert stack["n_models"] == 3 and init_model(scheme, **kwargs)["n_models"] is None
    tokens, labels = lookback_task(5, 9, seed=1)
    per_model = lookback_task(5, 9, seed=2)[0], lookback_task(5, 9, seed=3)[0], tokens
    logits = forward(stack, tokens)  # the same sequences for every model
    own = forward(stack, np.stack(per_model))  # one batch per model
    loss, grads = loss_and_grads(stack, tokens, labels)
    assert logits.shape == (3, 5, 2) and loss.shape == (3,)
    for m, seed in enumerate(seeds):
        alone = init_model(scheme, seed=seed, **kwargs)
        for name, x in alone["params"].items():
            np.testing.assert_array_equal(stack["params"][name][m], x)
        np.testing.assert_allclose(logits[m], forward(alone, tokens), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(own[m], forward(alone, per_model[m]), rtol=1e-12, atol=1e-12)
        loss_alone, grads_alone = loss_and_grads(alone, tokens, labels)
        assert np.isclose(loss[m], loss_alone, rtol=1e-12)
        for name, g in grads_alone.items():
            np.testing.assert_allclose(grads[name][m], g, rtol=1e-10, atol=1e-12)
    assert accuracy(stack, tokens, labels).shape == (3,)
    assert attention_weights(stack, tokens).shape == (3, 5, 2, 9, 9)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_float32_computes_what_float64_computes_to_float32_precision(scheme):
    kwargs = dict(causal=scheme != "learned", readout="last" if scheme == "alibi" else "mean",
                  position_std=0.5, seed=[0, 1], **grid(scheme, 12))
    wide, narrow = init_model(scheme, **kwargs), init_model(scheme, dtype=np.float32, **kwargs)
    for name, x in narrow["params"].items():
        assert x.dtype == np.float32
        np.testing.assert_array_equal(x, wide["params"][name].astype(np.float32))
    tokens, labels = order_task(6, 12, seed=3)
    np.testing.assert_allclose(forward(narrow, tokens), forward(wide, tokens), rtol=1e-5, atol=1e-5)
    loss32, grads32 = loss_and_grads(narrow, tokens, labels)
    loss64, grads64 = loss_and_grads(wide, tokens, labels)
    np.testing.assert_allclose(loss32, loss64, rtol=1e-5)
    for name in grads64:
        assert grads32[name].dtype == np.float32
        np.testing.assert_allclose(grads32[name], grads64[name], rtol=1e-3, atol=1e-5)
    lengths = (12, 12) if scheme in GRID_SCHEMES else (4, 16)
    trained, history = train(narrow, steps=5, seed=[0, 1], lengths=lengths)
    assert trained["params"]["W_q"].dtype == np.float32


def test_rope_settings_default_to_the_usual_frequencies_and_factor_one():
    model = init_model("rope", d_model=16, n_heads=2)
    np.testing.assert_array_equal(model["inv_freq"], posenc_frequencies(8))
    assert model["attention_factor"] == 1.0
    for scheme in ("none", "sinusoidal", "learned", "alibi"):
        assert "inv_freq" not in init_model(scheme)


@pytest.mark.parametrize("readout", ["mean", "last"])
def test_changed_rope_settings_rotate_by_the_new_frequencies_and_scale_the_scores(readout):
    model = init_model("rope", d_model=12, n_heads=2, causal=True, readout=readout, seed=4)
    tokens, _ = order_task(5, 10, seed=1)
    inv_freq, factor = np.array([0.7, 0.05, 0.002]), 1.3
    changed = dict(model, inv_freq=inv_freq, attention_factor=factor)
    np.testing.assert_allclose(forward(changed, tokens),
                               rope_reference_logits(model, tokens, inv_freq, factor), atol=1e-12)
    # the default settings are the usual RoPE, written out
    np.testing.assert_allclose(forward(model, tokens), rope_reference_logits(
        model, tokens, model["inv_freq"], 1.0), atol=1e-12)
    # zero frequencies: no rotation at all, the model without positions
    still = dict(model, inv_freq=np.zeros(3))
    plain = dict(model, scheme="none")
    plain.pop("inv_freq"), plain.pop("attention_factor")
    np.testing.assert_allclose(forward(still, tokens), forward(plain, tokens), atol=1e-12)


def test_gradients_with_changed_rope_settings_match_finite_differences():
    model = init_model("rope", d_model=8, n_heads=2, n_classes=3, causal=True, seed=7)
    model = dict(model, inv_freq=np.array([0.9, 0.03]), attention_factor=1.4)
    tokens, _ = order_task(4, 6, seed=8)
    labels = np.array([0, 2, 1, 2])
    _, grads = loss_and_grads(model, tokens, labels)
    numeric = numerical_grads(model, tokens, labels)
    for name in model["params"]:
        assert relative_error(grads[name], numeric[name]) < 1e-6, name


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: init_model("none", dtype=np.int64), TypeError, "dtype"),
        (lambda: init_model("none", seed=[]), ValueError, "at least one seed"),
        (lambda: init_model("none", seed=[0, -1]), ValueError, r"seed\[1\]"),
        (lambda: init_model("none", seed=[0, 1.5]), TypeError, r"seed\[1\]"),
        (lambda: init_model("none", seed="01"), TypeError, "seed must be an integer"),
        (lambda: train(init_model("none", seed=[0, 1]), steps=2), ValueError, "needs 2 seeds"),
        (lambda: train(init_model("none", seed=[0, 1]), steps=2, seed=[0]), ValueError, "needs 2 seeds"),
        (lambda: train(init_model("none"), steps=2, length_seed=-1), ValueError, "length_seed"),
        (lambda: train(init_model("none"), steps=2, task="order"), TypeError, "task must be"),
        (lambda: forward(init_model("none"), np.zeros((2, 3, 4), dtype=int)), ValueError,
         r"tokens must have 2 dimensions"),
        (lambda: forward(init_model("none", seed=[0, 1]), np.zeros((3, 3, 4), dtype=int)), ValueError,
         r"or 3, \(2, batch, n\)"),
        (lambda: forward(dict(init_model("rope"), inv_freq=[1.0, 0.1, 0.01]), [[0, 1]]), ValueError,
         "inv_freq must hold one frequency per pair"),
        (lambda: forward(dict(init_model("rope"), inv_freq=[1.0, np.nan]), [[0, 1]]), ValueError,
         "inv_freq must contain only finite"),
        (lambda: forward(dict(init_model("rope"), attention_factor=0.0), [[0, 1]]), ValueError,
         "attention_factor must be positive"),
        (lambda: forward(dict(init_model("rope"), attention_factor="1"), [[0, 1]]), TypeError,
         "attention_factor"),
        (lambda: forward({"params": {}}, [[0, 1]]), TypeError, "model must be a dict"),
        (lambda: accuracy(init_model("none", seed=[0, 1]), [[0, 1]], [[0], [1], [0]]), ValueError,
         "labels must be 1 integers"),
    ],
)
def test_stack_and_settings_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize("make, options", [
    (order_test_set, {}),
    (lookback_test_set, {"causal": True, "readout": "last"}),
])
def test_a_model_without_positions_scores_exactly_one_half_on_the_test_sets(make, options):
    tokens, labels = make(150, 20, seed=4)
    stack = init_model("none", seed=[0, 1, 2], **options)
    np.testing.assert_array_equal(accuracy(stack, tokens, labels), [0.5, 0.5, 0.5])


def test_unstack_gives_the_models_of_a_stack():
    stack = init_model("rope", seed=[2, 9])
    models = unstack(stack)
    tokens = order_task(3, 7, seed=1)[0]
    for m, seed in enumerate([2, 9]):
        np.testing.assert_array_equal(forward(models[m], tokens), forward(init_model("rope", seed=seed), tokens))
        assert models[m]["n_models"] is None and "inv_freq" in models[m]
    single = init_model("none")
    assert unstack(single) == [single]
    with pytest.raises(TypeError, match="model must be a dict"):
        unstack([1, 2])


# --- the table of schemes is the extension point ----------------------------------


def test_a_new_scheme_is_one_entry_in_the_table(monkeypatch):
    from posenc.schemes import SCHEMES as table
    from posenc.schemes import Scheme

    def ramp(model, n, dtype):  # position i adds i / n to every coordinate
        d = model["params"]["E"].shape[-1]
        return np.repeat(np.arange(n)[:, None] / n, d, axis=1).astype(dtype)

    monkeypatch.setitem(table, "ramp", Scheme("a ramp added to the input", added=ramp))
    tokens, labels = order_task(5, 6, seed=1)
    new = init_model("ramp", seed=3)
    none = init_model("none", seed=3)
    assert set(new["params"]) == set(none["params"])  # no table, no settings
    assert not np.allclose(forward(new, tokens), forward(none, tokens))
    # a ramp on the input is the sinusoidal scheme's path with other vectors
    new["params"]["E"] = none["params"]["E"] - 0.0
    trained, _ = train(new, steps=3)
    assert trained["scheme"] == "ramp"
    loss, grads = loss_and_grads(new, tokens, labels)
    assert set(grads) == set(new["params"])


@pytest.mark.parametrize("kind", ["trained bias", "turned"])
def test_a_new_scheme_of_any_kind_is_one_entry_and_the_engine_computes_its_definition(kind, monkeypatch):
    from posenc.schemes import SCHEMES as table
    from posenc.schemes import Scheme

    if kind == "trained bias":  # Shaw et al.'s clipped distances, one scalar per distance and head
        new = Scheme("a trained number per clipped distance", bias_table=9,
                     bias_index=lambda model, n: relative_positions(n, n, max_distance=4) + 4)
    else:  # RoPE with its own base, as a rotation and nothing else
        new = Scheme("RoPE of base 100", turned=lambda model, x: rope(x, base=100.0))
    monkeypatch.setitem(table, "new", new)
    model = init_model("new", d_model=8, n_heads=2, n_classes=3, causal=True, seed=[3, 4])
    assert ("R" in model["params"]) == (kind == "trained bias")
    tokens = order_task(5, 9, seed=1)[0]
    for logits in engine_logits(model, tokens):
        np.testing.assert_allclose(logits, forward_by_definition(model, tokens), rtol=0, atol=1e-12)
    single, labels = unstack(model)[0], np.array([0, 2, 1, 2, 0])
    _, grads = loss_and_grads(single, tokens, labels)
    numeric = numerical_grads(single, tokens, labels)
    for name in single["params"]:
        assert relative_error(grads[name], numeric[name]) < 1e-6, name
    trained, _ = train(model, steps=3, seed=[0, 1])
    assert not np.array_equal(trained["params"]["W_q"], model["params"]["W_q"])


# --- issue 28: what the model and its training refuse ------------------------------


def test_float16_models_are_refused_with_the_reason():
    with pytest.raises(ValueError, match=r"^dtype must be np.float32 or np.float64, got float16: .*underflow"):
        init_model("rope", dtype=np.float16)


@pytest.mark.parametrize("change, words", [
    (lambda m: dict(m, attention_factor=1e200), "attention_factor = 1e\\+200"),
    (lambda m: dict(m, inv_freq=np.full(2, 1e307)), "inv_freq"),
    (lambda m: dict(m, params=dict(m["params"], E=m["params"]["E"] * 1e200)), r"params\['E'\]"),
])
def test_settings_that_overflow_are_refused_by_name_without_a_warning(change, words):
    model = change(init_model("rope", seed=0))
    tokens, labels = order_task(4, 30, seed=0)
    for call in (lambda: forward(model, tokens), lambda: attention_weights(model, tokens),
                 lambda: loss_and_grads(model, tokens, labels), lambda: accuracy(model, tokens, labels)):
        with pytest.raises(ValueError, match=rf"^the model's numbers overflow its dtype.*{words}"):
            call()


def test_parameters_that_are_not_finite_are_refused_by_name():
    model = init_model("learned", seed=0)
    model["params"]["P"][3, 1] = np.nan
    with pytest.raises(ValueError, match=r"^model\['params'\]\['P'\] must hold only finite numbers"):
        forward(model, [[0, 1, 2]])


def test_a_stack_of_a_million_models_is_refused_at_once():
    with pytest.raises(ValueError, match="^seed must hold at most 4096 seeds"):
        init_model("none", seed=range(10**6))
    with pytest.raises(ValueError, match="1 GiB"):
        init_model("learned", max_len=10**9)


def test_a_stack_with_underflowing_rows_computes_exactly_what_each_model_computes_alone():
    # model 0's scores are so large that some of its rows lie far below the
    # largest score of their matrix, where the softmax shifts row by row;
    # models 1 and 2 keep the fast path, in the stack as alone
    stack = init_model("none", seed=[0, 1, 2])
    stack["params"]["E"][0] *= 60
    tokens = np.random.default_rng(6).integers(0, 8, size=(40, 12))
    logits = forward(stack, tokens)
    for m, alone in enumerate(unstack(stack)):
        np.testing.assert_array_equal(forward(alone, tokens), logits[m])


def test_forward_and_accuracy_refuse_empty_sequences_and_batches():
    m = model.init_model("sinusoidal")
    for call in (model.forward, model.attention_weights):
        with pytest.raises(ValueError, match=r"^tokens must hold at least one token per sequence, got shape \(2, 0\)"):
            call(m, np.zeros((2, 0), dtype=int))
    with pytest.raises(ValueError, match=r"^tokens must hold at least one token per sequence"):
        backward.loss_and_grads(m, np.zeros((2, 0), dtype=int), [0, 1])
    with pytest.raises(ValueError, match=r"^tokens must hold at least one sequence, got shape \(0, 4\)"):
        model.accuracy(m, np.zeros((0, 4), dtype=int), np.zeros(0, dtype=int))
    with pytest.raises(ValueError, match=r"^tokens must hold at least one sequence"):
        model.forward(m, np.zeros((0, 4), dtype=int))
    with pytest.raises(TypeError, match=r"^model must be a dict from init_model or train, got str"):
        model.forward("sinusoidal", [[0, 1]])


# --- the schemes on a grid (chapter 8) -------------------------------------------------


def test_the_grid_is_stored_checked_and_can_be_changed_on_a_trained_model():
    model = init_model("rope_2d", d_model=8, n_heads=2, grid=[3, 4], seed=1)
    assert model["grid"] == (3, 4) and "grid" not in init_model("rope")
    tokens = order_task(2, 12, seed=2)[0]
    wider = dict(model, grid=(2, 6))  # the same tokens read as another grid: other positions
    assert not np.allclose(forward(model, tokens), forward(wider, tokens))
    np.testing.assert_allclose(forward(wider, tokens), forward_by_definition(wider, tokens), atol=1e-12)
    bigger = dict(model, grid=(6, 6))
    assert forward(bigger, order_task(2, 36, seed=2)[0]).shape == (2, 2)


@pytest.mark.parametrize("make, error, words", [
    (lambda: forward(init_model("rope_2d"), order_task(2, 4)[0]), ValueError,
     r"^the scheme 'rope_2d' needs the grid of the patches: init_model\(..., grid=\(height, width\)\)"),
    (lambda: forward(init_model("sinusoidal_2d", grid=(2, 3)), order_task(2, 8)[0]), ValueError,
     r"^the sequences have 8 tokens, but the model's grid \(2, 3\) has 6 patches"),
    (lambda: init_model("rope_2d", d_model=12, n_heads=2), ValueError, "head width d_model // n_heads must be divisible by 4"),
    (lambda: init_model("sinusoidal_2d", d_model=6, n_heads=2), ValueError, "d_model divisible by 4"),
    (lambda: init_model("rope_2d", grid=4), TypeError, r"^grid must be a pair \(height, width\)"),
    (lambda: init_model("rope_2d", grid=(4, 0)), ValueError, r"^grid\[1\] must be an integer >= 1"),
    (lambda: forward(dict(init_model("rope_2d"), grid="ab"), order_task(2, 4)[0]), TypeError,
     r"^model\['grid'\] must be a pair"),
])
def test_what_the_grid_schemes_refuse(make, error, words):
    with pytest.raises(error, match=words):
        make()


@pytest.mark.parametrize("readout", ["mean", "last"])
@pytest.mark.parametrize("scheme", ["none", "alibi"])
def test_forward_is_exact_where_rows_of_scores_lie_far_below_the_rest(scheme, readout):
    # forward() shifts every row of scores by its own largest (issue 25's fast
    # readout): rows far below the rest of their matrix do not underflow
    model = init_model(scheme, seed=4, causal=True, readout=readout)
    model["params"]["E"] *= 60
    tokens = np.random.default_rng(6).integers(0, 8, size=(40, 12))
    logits = forward(model, tokens)
    np.testing.assert_allclose(logits, forward_by_definition(model, tokens), rtol=1e-9, atol=1e-12)
    scores = attention_weights(dict(model, readout="mean"), tokens)
    assert np.any(scores < 1e-300), "the scores should span far more than exp's range"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_forward_gives_the_logits_of_the_training_forward_pass(scheme):
    # forward() takes a shortcut to the logits; loss_and_grads uses the full
    # attention matrices: the same logits to rounding, so the same loss
    model = init_model(scheme, d_model=8, n_heads=2, position_std=0.5, seed=[1, 2], **grid(scheme, 9))
    tokens, labels = order_task(7, 9, seed=5)
    logits = forward(model, tokens)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    loss = -log_probs[:, np.arange(7), labels].mean(axis=1)
    np.testing.assert_allclose(loss, loss_and_grads(model, tokens, labels)[0], rtol=1e-12)


def test_every_scheme_starts_from_the_same_weights_for_a_seed():
    # the chapters compare schemes seed by seed: only the position part differs
    base = init_model("none", seed=[5, 6], dtype=np.float32)
    for scheme in SCHEMES:
        model = init_model(scheme, seed=[5, 6], dtype=np.float32)
        for name, x in base["params"].items():
            np.testing.assert_array_equal(model["params"][name], x)
    assert list(init_model("learned")["params"]) == ["E", "P", "W_q", "W_k", "W_v", "W_out", "b_out"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_sequence_whose_scores_underflow_gets_the_same_logits_in_any_batch(dtype):
    # forward() redoes a matrix whose rows underflow, one by one when few in the
    # batch do, all together when many do: the same numbers either way (up to
    # the rounding of the readout's matrix product, which depends on the batch)
    model = init_model("none", seed=3, dtype=dtype)
    model["params"]["E"] *= 60 if dtype == np.float64 else 8
    spread = np.random.default_rng(5).integers(0, 8, size=(3, 12))
    calm = np.full((100, 12), 3)  # one token: every score alike, nothing underflows
    alone = forward(model, spread)  # many matrices to redo
    tight = dict(rtol=10 * np.finfo(dtype).eps, atol=0)
    np.testing.assert_allclose(forward(model, np.concatenate([spread, calm]))[:3], alone, **tight)
    np.testing.assert_allclose(forward(model, np.concatenate([calm, spread]))[100:], alone, **tight)
    scores = attention_weights(model, spread)
    assert np.any(scores < np.finfo(dtype).tiny), "the scores should span more than exp's range"
    np.testing.assert_allclose(alone, forward_by_definition(model, spread).astype(dtype), rtol=1e-4)


# --- T5's bucketed bias trains as a scheme (issue 41) ------------------------------------


def test_t5_has_one_trained_number_per_bucket_and_head_drawn_last():
    model = init_model("t5", d_model=16, n_heads=4, seed=3)
    R = model["params"]["R"]
    assert R.shape == (4, 32) and list(model["params"]) == ["E", "R", "W_q", "W_k", "W_v", "W_out", "b_out"]
    # N(0, 1 / d_model), as Transformers initialises T5's relative_attention_bias
    big = init_model("t5", d_model=64, n_heads=64, seed=0)["params"]["R"]
    assert abs(big.std() - 64**-0.5) < 0.01 and abs(big.mean()) < 0.01
    none = init_model("none", d_model=16, n_heads=4, seed=3)
    for name, x in none["params"].items():
        np.testing.assert_array_equal(model["params"][name], x)


@pytest.mark.parametrize("causal", [False, True])
def test_t5_adds_its_bucket_s_number_to_every_score(causal):
    # with all queries and keys zero, a head's weights are the softmax of its bias row
    model = init_model("t5", d_model=8, n_heads=2, causal=causal, seed=1)
    model["params"]["W_q"][:] = 0.0
    A = attention_weights(model, order_task(2, 20, seed=0)[0])
    buckets = t5_bucket(relative_positions(20, 20), bidirectional=not causal)
    scores = model["params"]["R"][:, buckets]  # (H, n, n)
    if causal:
        scores = np.where(causal_mask(20), scores, -np.inf)
    expected = np.exp(scores - scores.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(A[0], expected / expected.sum(axis=-1, keepdims=True), atol=1e-14)


@pytest.mark.parametrize("causal, part", [(False, "encoder"), (True, "decoder")])
def test_t5_adds_exactly_the_bias_of_transformers_t5attention(causal, part):
    # tests/fixtures/t5_bias_reference.json: T5Attention.compute_bias of
    # Transformers 5.24.0, from a fixed weight of shape (buckets, heads)
    import json
    import pathlib

    fixture = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "t5_bias_reference.json").read_text())
    assert fixture["versions"]["transformers"] == "5.24.0"
    n, rows = fixture["n"], fixture["rows"]
    model = init_model("t5", d_model=16, n_heads=4, causal=causal, seed=0)
    model["params"]["R"] = np.array(fixture["weight"]).T.copy()  # (heads, buckets)
    bias = model["params"]["R"][:, SCHEMES["t5"].bias_index(model, n)]  # as the definition adds it
    np.testing.assert_array_equal(bias[:, rows], np.array(fixture["bias"][part]))
    # and the engine adds the same numbers to the scores: with q = 0, A = softmax(bias)
    model["params"]["W_q"][:] = 0.0
    A = attention_weights(dict(model, readout="mean"), np.zeros((1, n), dtype=int))[0][:, rows]
    expected = np.where(causal_mask(n)[rows] | (not causal), np.array(fixture["bias"][part]), -np.inf)
    expected = np.exp(expected - expected.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(A, expected / expected.sum(axis=-1, keepdims=True), rtol=1e-12, atol=1e-15)


def test_t5_gradients_of_buckets_that_no_score_reads_are_zero():
    # at length 6, distances up to 5 in each direction: buckets 0-5 and 17-21
    model = init_model("t5", seed=2)
    _, grads = loss_and_grads(model, *order_task(8, 6, seed=1))
    read = sorted(set(t5_bucket(relative_positions(6, 6)).ravel().tolist()))
    assert read == [0, 1, 2, 3, 4, 5, 17, 18, 19, 20, 21]
    unread = np.setdiff1d(np.arange(32), read)
    assert np.all(grads["R"][:, unread] == 0) and np.all(grads["R"][:, read] != 0)


# --- issue 40: sizes capped before anything is allocated; model dicts checked ---------------


def small_peak(call, error, words, most=50 * 2**20):
    """``call`` refuses with ``error`` matching ``words``, and allocated less than ``most`` bytes first."""
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(error, match=words):
            call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < most, f"{peak / 2**20:.0f} MiB allocated before the refusal"


@pytest.mark.parametrize("call, words", [
    (lambda: init_model("none", n_classes=2**27), r"^the parameters, .*n_classes.* would need .* numbers"),
    (lambda: init_model("rope", d_model=2**31, n_heads=1), r"^the parameters, .*d_model.* would need"),
    (lambda: init_model("t5", vocab_size=2**27), r"^the parameters, .*vocab_size"),
    (lambda: forward(init_model("none"), np.zeros((1, 40000), dtype=int)), r"^tokens of shape \(1, 40000\)"),
    (lambda: attention_weights(init_model("none"), np.zeros((1, 40000), dtype=int)), r"^tokens of shape"),
    (lambda: attention_weights(init_model("none"), np.zeros((100, 4000), dtype=np.int8)), r"^tokens of shape"),
    (lambda: loss_and_grads(init_model("none"), np.zeros((100, 4000), dtype=np.int8), np.zeros(100, int)),
     r"^tokens of shape \(100, 4000\), 100 sequence\(s\) at a time"),
    (lambda: forward_by_definition(init_model("none"), np.zeros((1, 40000), dtype=int)), r"^tokens of shape"),
    (lambda: accuracy(init_model("none"), np.zeros((1, 40000), dtype=int), [0]), r"^tokens of shape"),
    (lambda: forward(init_model("none", vocab_size=10**5, d_model=8), np.zeros((1, 200), dtype=int)),
     r"^tokens of shape \(1, 200\), 1 sequence\(s\) at a time: models \* n \* \(6 \* vocab_size"),
])
def test_work_beyond_the_cap_is_refused_before_anything_is_allocated(call, words):
    small_peak(call, ValueError, words)


def test_the_cap_counts_every_parameter_of_init_model():
    # just below the cap it builds; the count is that of the parameters it returns
    from posenc import _checks

    model = init_model("t5", n_classes=3, seed=[0, 1])
    count = sum(x.size for x in model["params"].values())
    assert count == 2 * ((8 + 3 * 16 + 3) * 16 + 3 + 4 * 32)
    with pytest.raises(ValueError, match="n_classes"):
        init_model("none", n_classes=_checks.MAX_ENTRIES // 16, d_model=16)


def test_init_model_refuses_dtype_none():
    with pytest.raises(TypeError, match=r"^dtype must be np.float32 or np.float64, got None"):
        init_model("none", dtype=None)


def _with(model, **changes):
    return dict(model, **changes)


def _params_with(model, **changes):
    return dict(model, params=dict(model["params"], **changes))


HAND_EDITED = [
    (lambda m: _with(m, readout="max"), ValueError, r"^model\['readout'\] must be one of 'mean', 'last'; got 'max'"),
    (lambda m: _with(m, causal="no"), TypeError, r"^model\['causal'\] must be True or False, got 'no'"),
    (lambda m: _with(m, n_heads=0), ValueError, r"^model\['n_heads'\] must be an integer >= 1, got 0"),
    (lambda m: _with(m, n_heads=3), ValueError, r"^model\['n_heads'\] must divide d_model = 16, got 3"),
    (lambda m: _with(m, n_heads=2.0), TypeError, r"^model\['n_heads'\] must be an integer"),
    (lambda m: _with(m, params=[1]), TypeError, r"^model\['params'\] must be a dict of the model's arrays"),
    (lambda m: _with(m, params={k: x for k, x in m["params"].items() if k != "E"}), ValueError,
     r"^model\['params'\] of a 'learned' model must hold \['E', 'P', .*\]; it lacks \['E'\]"),
    (lambda m: _params_with(m, R=np.zeros((4, 32))), ValueError, r"it has \['R'\] too"),
    (lambda m: _with(m, n_models=2), ValueError,
     r"^model\['params'\]\['E'\] has shape \(8, 16\) .* but model\['n_models'\] = 2 says a stack of 2"),
    (lambda m: _with(m, n_models="2"), TypeError, r"^model\['n_models'\] must be an integer"),
    (lambda m: _params_with(m, W_q=np.zeros((16, 8))), ValueError,
     r"^model\['params'\]\['W_q'\] must have shape \(16, 16\), got \(16, 8\)"),
    (lambda m: _params_with(m, P=np.zeros((64, 8))), ValueError,
     r"^model\['params'\]\['P'\] must have shape \('rows', 16\), got \(64, 8\)"),
    (lambda m: _params_with(m, b_out=np.zeros(3)), ValueError,
     r"^model\['params'\]\['W_out'\] must have shape \(16, 3\), got \(16, 2\)"),
    (lambda m: _with(m, scheme="rope"), ValueError, r"^model\['params'\] of a 'rope' model must hold"),
]


@pytest.mark.parametrize("edit, error, words", HAND_EDITED)
def test_a_hand_edited_model_is_checked_in_one_place_with_named_errors(edit, error, words):
    bad = edit(init_model("learned", seed=0))
    tokens, labels = order_task(3, 6, seed=0)
    calls = [lambda: forward(bad, tokens), lambda: attention_weights(bad, tokens),
             lambda: accuracy(bad, tokens, labels), lambda: loss_and_grads(bad, tokens, labels),
             lambda: forward_by_definition(bad, tokens), lambda: unstack(bad),
             lambda: train(bad, steps=2), lambda: held_out(bad)]
    for call in calls:
        with pytest.raises(error, match=words):
            call()


def held_out(model):
    from posenc.training import held_out_accuracy

    return held_out_accuracy(model, lengths=(4, 6), n_items=5)


def test_unstack_refuses_a_single_model_that_claims_to_be_a_stack():
    single = init_model("none", seed=0)
    with pytest.raises(ValueError, match=r"model\['n_models'\] = 2 says a stack of 2 models"):
        unstack(dict(single, n_models=2))
    stack = init_model("none", seed=[0, 1, 2])
    with pytest.raises(ValueError, match=r"model\['n_models'\] = None says a single model"):
        unstack(dict(stack, n_models=None))
    with pytest.raises(ValueError, match=r"model\['params'\]\['W_q'\] must have shape \(3, 16, 16\)"):
        unstack(dict(stack, params=dict(stack["params"], W_q=stack["params"]["W_q"][:2])))


def test_the_docstring_of_the_schemes_names_every_scheme():
    # issue 41 found "five schemes" where there were seven: the docs list them by name
    import posenc.schemes

    missing = [name for name in SCHEMES if f'``"{name}"``' not in posenc.schemes.__doc__]
    assert not missing, f"describe these schemes in posenc/schemes.py: {missing}"
