"""Tests of posenc.learned: the table, the task, the model, its gradients, training.

The forward pass is compared with a slow reference written head by head with
posenc.attention; the backward pass with central finite differences, for every
entry of every parameter of every position scheme.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import alibi_bias, attention, causal_mask, learned, rope, sinusoidal
from posenc import frequencies as posenc_frequencies
from posenc.learned import (
    ORDER_VOCAB,
    SCHEMES,
    accuracy,
    adam_step,
    attention_weights,
    forward,
    init_model,
    init_table,
    lookback_task,
    lookup,
    lookup_backward,
    loss_and_grads,
    order_task,
    train,
)

# --- the table ---------------------------------------------------------------


def test_init_table_is_seeded_normal():
    P = init_table(5, 3, std=0.5, seed=4)
    np.testing.assert_array_equal(P, np.random.default_rng(4).normal(0.0, 0.5, (5, 3)))
    assert P.dtype == np.float64
    rng = np.random.default_rng(1)
    assert not np.array_equal(init_table(2, 2, seed=rng), init_table(2, 2, seed=rng))


def test_lookup_by_hand():
    P = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    np.testing.assert_array_equal(lookup(P, [2, 0, 2]), [[4, 5], [0, 1], [4, 5]])
    out = lookup(P, [[0, 1], [1, 1]])  # a batch of index rows
    assert out.shape == (2, 2, 2)
    np.testing.assert_array_equal(out[1], [[2, 3], [2, 3]])


def test_lookup_backward_adds_repeated_rows_and_leaves_others_zero():
    grad = np.array([[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]])
    d_table = lookup_backward(grad, [3, 0, 3], n_rows=5)
    np.testing.assert_array_equal(d_table, [[10, 20], [0, 0], [0, 0], [101, 202], [0, 0]])


def test_lookup_backward_is_the_transpose_of_lookup():
    # <lookup(P, idx), G> = <P, lookup_backward(G, idx)> for every P and G
    rng = np.random.default_rng(0)
    P, idx = rng.normal(size=(6, 4)), rng.integers(0, 6, size=(3, 5))
    G = rng.normal(size=(3, 5, 4))
    lhs = np.sum(lookup(P, idx) * G)
    rhs = np.sum(P * lookup_backward(G, idx, 6))
    assert np.isclose(lhs, rhs, rtol=1e-12)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: init_table(0, 4), ValueError, "n_rows"),
        (lambda: init_table(4, 2.0), TypeError, "d_model"),
        (lambda: init_table(4, 4, std=0), ValueError, "std"),
        (lambda: init_table(4, 4, seed=-1), ValueError, "seed"),
        (lambda: init_table(4, 4, seed="a"), TypeError, "seed"),
        (lambda: lookup(np.ones((3, 2)), [0, 3]), ValueError, r"indices must lie in \[0, 3\)"),
        (lambda: lookup(np.ones((3, 2)), [-1]), ValueError, "indices"),
        (lambda: lookup(np.ones((3, 2)), [0.0, 1.0]), TypeError, "indices must be integers"),
        (lambda: lookup(np.ones(3), [0]), ValueError, "table must have 2"),
        (lambda: lookup_backward(np.ones((2, 4)), [0, 1, 2], 3), ValueError, "grad must have shape"),
        (lambda: lookup_backward(np.ones((1, 4)), [5], 3), ValueError, "indices"),
        (lambda: lookup_backward(np.ones((1, 4)), [0], 0), ValueError, "n_rows"),
    ],
)
def test_table_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- the task -----------------------------------------------------------------


@given(n=st.integers(1, 20), length=st.integers(2, 30), seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_order_task_has_one_A_one_B_and_the_right_label(n, length, seed):
    tokens, labels = order_task(n, length, seed=seed)
    assert tokens.shape == (n, length) and labels.shape == (n,)
    assert np.all((tokens == 0).sum(axis=1) == 1) and np.all((tokens == 1).sum(axis=1) == 1)
    assert tokens.min() >= 0 and tokens.max() < len(ORDER_VOCAB)
    where_a, where_b = (tokens == 0).argmax(axis=1), (tokens == 1).argmax(axis=1)
    np.testing.assert_array_equal(labels, (where_b < where_a).astype(int))


def test_order_task_is_balanced_and_reproducible():
    tokens, labels = order_task(4000, 10, seed=3)
    assert abs(labels.mean() - 0.5) < 0.03
    first = (tokens == 0).argmax(axis=1)
    assert np.bincount(first, minlength=10).min() > 300  # every position is used
    again = order_task(4000, 10, seed=3)
    np.testing.assert_array_equal(tokens, again[0])


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: order_task(0, 5), ValueError, "n_examples"),
        (lambda: order_task(3, 1), ValueError, "length must be an integer >= 2"),
        (lambda: order_task(3, 5.0), TypeError, "length"),
        (lambda: order_task(3, 5, seed=1.5), TypeError, "seed"),
    ],
)
def test_order_task_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


@given(n=st.integers(1, 20), window=st.integers(1, 5), extra=st.integers(0, 30),
       seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_lookback_task_ends_in_B_has_one_A_and_the_right_label(n, window, extra, seed):
    length = window + 2 + extra
    tokens, labels = lookback_task(n, length, window=window, seed=seed)
    assert tokens.shape == (n, length) and labels.shape == (n,)
    assert np.all(tokens[:, -1] == 1) and np.all((tokens == 1).sum(axis=1) == 1)
    assert np.all((tokens == 0).sum(axis=1) == 1)
    assert tokens.min() >= 0 and tokens.max() < len(ORDER_VOCAB)
    distance = length - 1 - (tokens == 0).argmax(axis=1)  # places from A to B
    assert np.all(distance >= 1)
    np.testing.assert_array_equal(labels, (distance <= window).astype(int))


def test_lookback_task_by_hand():
    # "A is among the 2 tokens before B": read the labels off the printed sequences
    tokens, labels = lookback_task(4, 8, seed=3)
    text = ["".join(ORDER_VOCAB[t] for t in row) for row in tokens]
    assert text == ["gcdddAhB", "ccdeAedB", "ggccAehB", "eeffdgAB"]
    np.testing.assert_array_equal(labels, [1, 0, 0, 1])  # A 2, 3, 3 and 1 places before B


def test_lookback_task_is_balanced_uniform_within_each_label_and_reproducible():
    length, window = 12, 3
    tokens, labels = lookback_task(6000, length, window=window, seed=4)
    assert abs(labels.mean() - 0.5) < 0.03
    distance = length - 1 - (tokens == 0).argmax(axis=1)
    near = np.bincount(distance[labels == 1], minlength=length)
    far = np.bincount(distance[labels == 0], minlength=length)
    assert np.all(near[1:window + 1] > 0.8 * (labels == 1).sum() / window)  # 1..3, about 1000 each
    assert np.all(far[window + 1:] > 0.8 * (labels == 0).sum() / (length - 1 - window))
    again = lookback_task(6000, length, window=window, seed=4)
    np.testing.assert_array_equal(tokens, again[0])
    np.testing.assert_array_equal(labels, again[1])


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: lookback_task(0, 5), ValueError, "n_examples"),
        (lambda: lookback_task(3, 3), ValueError, "length must be an integer >= 4"),
        (lambda: lookback_task(3, 5, window=4), ValueError, "length must be an integer >= 6"),
        (lambda: lookback_task(3, 6.0), TypeError, "length"),
        (lambda: lookback_task(3, 6, window=0), ValueError, "window"),
        (lambda: lookback_task(3, 6, window=1.5), TypeError, "window"),
        (lambda: lookback_task(3, 6, seed=-1), ValueError, "seed"),
    ],
)
def test_lookback_task_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- the model: forward -------------------------------------------------------


def reference_logits(model, tokens):
    """The model written out head by head with posenc.attention: slow but independent."""
    p, scheme, H = model["params"], model["scheme"], model["n_heads"]
    tokens = np.asarray(tokens)
    n, d = tokens.shape[1], p["E"].shape[1]
    d_h = d // H
    x = p["E"][tokens]
    if scheme == "sinusoidal":
        x = x + sinusoidal(n, d)
    if scheme == "learned":
        x = x + p["P"][np.arange(n)]
    mask = causal_mask(n) if model["causal"] else None
    heads = []
    for h in range(H):
        cols = slice(h * d_h, (h + 1) * d_h)
        q, k, v = x @ p["W_q"][:, cols], x @ p["W_k"][:, cols], x @ p["W_v"][:, cols]
        bias = None
        if scheme == "rope":
            q, k = rope(q), rope(k)
        if scheme == "alibi":
            bias = alibi_bias(H, n, causal=model["causal"])[h]
        out, _ = attention(q, k, v, mask=mask, bias=bias)
        heads.append(out)
    outputs = np.concatenate(heads, axis=-1)  # (n, d)
    pooled = outputs.mean(axis=1) if model["readout"] == "mean" else outputs[:, -1]
    return pooled @ p["W_out"] + p["b_out"]


@pytest.mark.parametrize("readout", ["mean", "last"])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_forward_matches_reference(scheme, causal, readout):
    model = init_model(scheme, d_model=8, n_heads=2, causal=causal, readout=readout,
                       position_std=0.5, seed=1)
    tokens, _ = order_task(6, 7, seed=2)
    np.testing.assert_allclose(forward(model, tokens), reference_logits(model, tokens), atol=1e-12)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_read_at_the_last_position_the_causal_mask_changes_nothing(scheme):
    # the last query may attend to every key anyway; the other outputs are not read
    kwargs = dict(d_model=8, n_heads=2, readout="last", position_std=0.5, seed=3)
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


def swap_markers(tokens):
    return np.where(tokens < 2, 1 - tokens, tokens)


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
    model = init_model(scheme, causal=True, position_std=0.5, seed=1)
    tokens = order_task(123, 9, seed=2)[0]
    pieces = np.concatenate([forward(model, tokens[i:i + 7]) for i in range(0, 123, 7)])
    whole = forward(model, tokens)
    assert whole.shape == (123, 2)
    np.testing.assert_allclose(whole, pieces, atol=1e-12)


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


# --- the model: backward, checked by finite differences ------------------------


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


@pytest.mark.parametrize("causal, readout", [(False, "mean"), (True, "mean"), (True, "last")])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_gradients_match_finite_differences(scheme, causal, readout):
    model = init_model(scheme, vocab_size=8, n_classes=3, d_model=8, n_heads=2, max_len=8,
                       causal=causal, readout=readout, position_std=0.5, seed=7)
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


# --- training ------------------------------------------------------------------


def test_adam_first_steps_by_hand():
    params, state = {"w": np.array([1.0, -1.0, 3.0])}, {}
    g1 = np.array([0.5, -2.0, 0.0])
    adam_step(params, {"w": g1}, state, lr=0.1)
    # first step: m_hat = g, v_hat = g^2, so each entry moves by lr * sign(g) (0 stays)
    np.testing.assert_allclose(params["w"], [0.9, -0.9, 3.0], atol=1e-9)
    g2 = np.array([1.0, 0.0, 0.0])
    adam_step(params, {"w": g2}, state, lr=0.1)
    m = 0.9 * (0.1 * g1) + 0.1 * g2
    v = 0.999 * (0.001 * g1**2) + 0.001 * g2**2
    step = 0.1 * (m / (1 - 0.9**2)) / (np.sqrt(v / (1 - 0.999**2)) + 1e-8)
    np.testing.assert_allclose(params["w"], np.array([0.9, -0.9, 3.0]) - step)
    assert params["w"][2] == 3.0 and state["t"] == 2


def test_training_reduces_the_loss_and_learns_the_task():
    model = init_model("learned", seed=0)
    trained, history = train(model, steps=150, seed=0)
    assert history["loss"][-20:].mean() < 0.5 * history["loss"][:20].mean()
    tokens, labels = order_task(400, 8, seed=99)
    assert accuracy(trained, tokens, labels) > 0.9
    assert set(history) == {"loss", "accuracy", "length"}
    assert history["length"].min() >= 4 and history["length"].max() <= 16


def test_train_leaves_the_input_model_unchanged_and_unused_rows_at_initialisation():
    model = init_model("learned", seed=1)
    before = {name: x.copy() for name, x in model["params"].items()}
    trained, history = train(model, steps=30, lengths=(3, 6), seed=1)
    for name in before:
        np.testing.assert_array_equal(model["params"][name], before[name])
    P, P0 = trained["params"]["P"], before["P"]
    np.testing.assert_array_equal(P[6:], P0[6:])  # never reached: bitwise unchanged
    assert np.all(np.any(P[:3] != P0[:3], axis=1))  # every batch reaches rows 0..2


def test_training_is_reproducible():
    a = train(init_model("sinusoidal", seed=2), steps=20, seed=3)
    b = train(init_model("sinusoidal", seed=2), steps=20, seed=3)
    np.testing.assert_array_equal(a[1]["loss"], b[1]["loss"])
    np.testing.assert_array_equal(a[0]["params"]["W_q"], b[0]["params"]["W_q"])


def test_both_readouts_agree_on_a_single_token_and_differ_on_longer_sequences():
    mean, last = (init_model("rope", readout=r, seed=2) for r in ("mean", "last"))
    tokens = order_task(4, 5, seed=1)[0]
    np.testing.assert_array_equal(forward(mean, tokens[:, :1]), forward(last, tokens[:, :1]))
    assert not np.allclose(forward(mean, tokens), forward(last, tokens))


def test_lookback_is_learned_by_alibi_read_at_the_last_position():
    model = init_model("alibi", causal=True, readout="last", seed=0)
    trained, _ = train(model, steps=150, lengths=(4, 16), task=lookback_task, seed=0)
    assert accuracy(trained, *lookback_task(400, 12, seed=5)) > 0.9


def test_train_accepts_another_task():
    def majority_task(n_examples, length, *, seed=0):
        """Label 1 if A (token 0) occurs more often than B (token 1): no order needed."""
        rng = np.random.default_rng(seed) if not isinstance(seed, np.random.Generator) else seed
        tokens = rng.integers(0, 2, size=(n_examples, length))
        return tokens, ((tokens == 0).sum(axis=1) > (tokens == 1).sum(axis=1)).astype(int)

    trained, history = train(init_model("none", vocab_size=2), steps=300, lengths=(3, 9),
                             task=majority_task, seed=0)
    assert accuracy(trained, *majority_task(500, 9, seed=1)) > 0.9  # a bag task: no positions needed


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"steps": 0}, ValueError, "steps"),
        ({"batch_size": 1.5}, TypeError, "batch_size"),
        ({"lengths": 16}, TypeError, "lengths must be a pair"),
        ({"lengths": (8, 4)}, ValueError, r"lengths\[1\] must be an integer >= 8"),
        ({"lengths": (0, 4)}, ValueError, r"lengths\[0\]"),
        ({"lengths": (4, 65)}, ValueError, "longer than the position table"),
        ({"lr": 0.0}, ValueError, "lr"),
        ({"seed": -3}, ValueError, "seed"),
    ],
)
def test_train_bad_input(kwargs, error, words):
    with pytest.raises(error, match=words):
        train(init_model("learned", max_len=64), **kwargs)


def test_public_names_are_exported():
    import posenc

    for name in learned.__all__:
        assert getattr(posenc, name) is getattr(learned, name)


# --- stacks of models, float32, and the settings of RoPE -------------------------


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_stack_computes_what_each_model_computes_alone(scheme):
    seeds = [3, 0, 7]
    kwargs = dict(d_model=8, n_heads=2, causal=True, position_std=0.5)
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


@pytest.mark.parametrize("scheme", ["learned", "rope"])
def test_training_a_stack_equals_training_each_model_alone(scheme):
    seeds = [1, 4]
    options = dict(steps=25, lengths=(4, 9), task=lookback_task)
    kwargs = dict(causal=True, readout="last")
    stack, history = train(init_model(scheme, seed=seeds, **kwargs), seed=seeds, **options)
    assert history["loss"].shape == (2, 25) and history["length"].shape == (25,)
    for m, seed in enumerate(seeds):
        alone, alone_history = train(init_model(scheme, seed=seed, **kwargs), seed=seed, **options)
        np.testing.assert_allclose(history["loss"][m], alone_history["loss"], rtol=1e-10)
        np.testing.assert_array_equal(history["length"], alone_history["length"])
        for name, x in alone["params"].items():
            np.testing.assert_allclose(stack["params"][name][m], x, rtol=1e-9, atol=1e-12)


def test_every_model_of_a_stack_sees_the_same_lengths_and_its_own_sequences():
    seen = []

    def recording_task(n_examples, length, *, seed):
        tokens, labels = order_task(n_examples, length, seed=seed)
        seen.append(tokens)
        return tokens, labels

    train(init_model("none", seed=[0, 1]), steps=3, task=recording_task, seed=[5, 5])
    assert [t.shape for t in seen[0::2]] == [t.shape for t in seen[1::2]]
    np.testing.assert_array_equal(seen[0], seen[1])  # the same seed, the same data
    seen.clear()
    train(init_model("none", seed=[0, 1]), steps=3, task=recording_task, seed=[5, 6])
    assert not np.array_equal(seen[0], seen[1])
    a = train(init_model("none"), steps=5, length_seed=1)[1]["length"]
    b = train(init_model("none"), steps=5, length_seed=2)[1]["length"]
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_float32_computes_what_float64_computes_to_float32_precision(scheme):
    kwargs = dict(causal=scheme != "learned", readout="last" if scheme == "alibi" else "mean",
                  position_std=0.5, seed=[0, 1])
    wide, narrow = init_model(scheme, **kwargs), init_model(scheme, dtype=np.float32, **kwargs)
    for name, x in narrow["params"].items():
        assert x.dtype == np.float32
        np.testing.assert_array_equal(x, wide["params"][name].astype(np.float32))
    tokens, labels = order_task(6, 11, seed=3)
    np.testing.assert_allclose(forward(narrow, tokens), forward(wide, tokens), rtol=1e-5, atol=1e-5)
    loss32, grads32 = loss_and_grads(narrow, tokens, labels)
    loss64, grads64 = loss_and_grads(wide, tokens, labels)
    np.testing.assert_allclose(loss32, loss64, rtol=1e-5)
    for name in grads64:
        assert grads32[name].dtype == np.float32
        np.testing.assert_allclose(grads32[name], grads64[name], rtol=1e-3, atol=1e-5)
    trained, history = train(narrow, steps=5, seed=[0, 1])
    assert trained["params"]["W_q"].dtype == np.float32


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


def test_a_short_fine_tune_with_new_rope_settings_trains_the_changed_model():
    model = init_model("rope", causal=True, readout="last", seed=0)
    changed = dict(model, inv_freq=model["inv_freq"] / 4, attention_factor=1.2)
    tuned, history = train(changed, steps=5, lengths=(20, 40), task=lookback_task)
    np.testing.assert_array_equal(tuned["inv_freq"], model["inv_freq"] / 4)
    assert tuned["attention_factor"] == 1.2
    assert np.all((20 <= history["length"]) & (history["length"] <= 40))
    assert not np.array_equal(tuned["params"]["W_q"], model["params"]["W_q"])


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


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_softmax_shifts_row_by_row_when_one_maximum_per_matrix_would_underflow(dtype):
    # row 1 lies 300 below row 0: shifted by the matrix's maximum it would be all zeros
    S = np.array([[[0.0, 2.0, -np.inf], [-300.0, -301.0, -np.inf], [1.0, 0.5, 3.0]]], dtype=dtype)
    A = learned._softmax(S.copy())
    rowwise = np.exp(S - S.max(axis=-1, keepdims=True))
    rowwise /= rowwise.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(A, rowwise, rtol=1e-6)
    assert A.dtype == dtype and np.all(A[..., 2][:, :2] == 0)  # masked keys stay exactly 0
    S_mild = np.array([[[0.0, 2.0], [-5.0, -6.0]]], dtype=dtype)  # the fast path
    expected = np.exp(S_mild - S_mild.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(learned._softmax(S_mild), expected / expected.sum(-1, keepdims=True),
                               rtol=1e-6)


@pytest.mark.parametrize("n", [1, 2, 7, 16, 17, 40])
def test_the_row_maxima_are_those_of_numpy(n):
    # column by column for short rows, numpy's reduction for long ones: the same numbers
    S = np.random.default_rng(n).normal(size=(2, 3, 5, n)).astype(np.float32)
    S[0, 0, :, 0] = -np.inf  # a masked key
    S[1, 2, 3, :] = -np.inf  # a row with every key masked
    np.testing.assert_array_equal(learned._row_max(S), S.max(axis=-1, keepdims=True))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_train_updates_the_parameters_exactly_as_adam_step_does(dtype):
    # train() updates all parameters as one flat array: entry by entry, the same numbers
    model = init_model("learned", seed=[3, 5], dtype=dtype)
    trained, history = train(model, steps=30, lengths=(4, 9), seed=[3, 5])
    params = {name: x.copy() for name, x in model["params"].items()}
    rngs, lengths, state = [np.random.default_rng(s) for s in (3, 5)], np.random.default_rng(0), {}
    for step in range(30):
        n = int(lengths.integers(4, 10))
        tokens, labels = zip(*(order_task(32, n, seed=rng) for rng in rngs))
        _, grads = loss_and_grads(dict(model, params=params), np.stack(tokens), np.stack(labels))
        adam_step(params, grads, state, lr=0.02 * (1 - step / 30))
    for name, x in params.items():
        np.testing.assert_array_equal(trained["params"][name], x)
        assert trained["params"][name].dtype == dtype


def test_train_keeps_the_dtype_of_each_parameter_of_a_model_put_together_by_hand():
    model = init_model("learned", dtype=np.float32)
    mixed = dict(model, params=dict(model["params"], P=model["params"]["P"].astype(np.float64)))
    trained, _ = train(mixed, steps=3)
    assert trained["params"]["P"].dtype == np.float64 and trained["params"]["E"].dtype == np.float32
    assert mixed["params"]["P"].dtype == np.float64  # the input is not changed


# --- test sets of pairs ----------------------------------------------------------


@given(pairs=st.integers(1, 15), length=st.integers(2, 30), seed=st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_order_test_set_pairs_the_same_tokens_with_opposite_labels(pairs, length, seed):
    tokens, labels = learned.order_test_set(pairs, length, seed=seed)
    assert tokens.shape == (2 * pairs, length) and labels.shape == (2 * pairs,)
    first, second = tokens[:pairs], tokens[pairs:]
    np.testing.assert_array_equal(np.sort(first, axis=1), np.sort(second, axis=1))
    np.testing.assert_array_equal(labels[:pairs], 1 - labels[pairs:])
    np.testing.assert_array_equal(first, order_task(pairs, length, seed=seed)[0])
    where_a, where_b = (tokens == 0).argmax(axis=1), (tokens == 1).argmax(axis=1)
    np.testing.assert_array_equal(labels, (where_b < where_a).astype(int))


@given(pairs=st.integers(1, 15), window=st.integers(1, 4), extra=st.integers(0, 20),
       seed=st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_lookback_test_set_moves_A_across_the_window(pairs, window, extra, seed):
    length = window + 2 + extra
    tokens, labels = learned.lookback_test_set(pairs, length, window=window, seed=seed)
    assert tokens.shape == (2 * pairs, length)
    assert np.all(tokens[:, -1] == 1) and np.all((tokens == 0).sum(axis=1) == 1)
    distance = length - 1 - (tokens == 0).argmax(axis=1)
    np.testing.assert_array_equal(labels, (distance <= window).astype(int))
    np.testing.assert_array_equal(labels[:pairs], 1 - labels[pairs:])
    np.testing.assert_array_equal(np.sort(tokens[:pairs], axis=1), np.sort(tokens[pairs:], axis=1))


def test_lookback_test_set_keeps_the_distances_uniform_within_each_label():
    length, window = 12, 2
    tokens, labels = learned.lookback_test_set(6000, length, window=window, seed=5)
    distance = length - 1 - (tokens == 0).argmax(axis=1)
    for half in (slice(0, 6000), slice(6000, None)):  # the originals, and the moved copies
        d, y = distance[half], labels[half]
        far = np.bincount(d[y == 0], minlength=length)[window + 1:]
        near = np.bincount(d[y == 1], minlength=length)[1:window + 1]
        assert far.min() > 0.85 * far.mean() and near.min() > 0.9 * near.mean()


@pytest.mark.parametrize("make, options", [
    (learned.order_test_set, {}),
    (learned.lookback_test_set, {"causal": True, "readout": "last"}),
])
def test_a_model_without_positions_scores_exactly_one_half_on_the_test_sets(make, options):
    tokens, labels = make(150, 20, seed=4)
    stack = init_model("none", seed=[0, 1, 2], **options)
    np.testing.assert_array_equal(accuracy(stack, tokens, labels), [0.5, 0.5, 0.5])


def test_unstack_gives_the_models_of_a_stack():
    stack = init_model("rope", seed=[2, 9])
    models = learned.unstack(stack)
    tokens = order_task(3, 7, seed=1)[0]
    for m, seed in enumerate([2, 9]):
        np.testing.assert_array_equal(forward(models[m], tokens), forward(init_model("rope", seed=seed), tokens))
        assert models[m]["n_models"] is None and "inv_freq" in models[m]
    single = init_model("none")
    assert learned.unstack(single) == [single]
    with pytest.raises(TypeError, match="model must be a dict"):
        learned.unstack([1, 2])
