"""The tiny model of ``posenc.model`` as it was before it was made fast.

This is the code of commit a6ed2d3 (one model at a time, float64, a fresh
sine table and rotation at every step, ``np.add.at`` for the scatter-add),
trimmed to what training needs and with its argument checks removed. It is
kept for one purpose: ``tools/bench_training.py`` (``make bench``) trains
with it and with the current ``posenc.model`` side by side, in the same
run, to measure the speed-up. Nothing else uses it.
"""

from __future__ import annotations

import numpy as np

from posenc import alibi_bias, causal_mask, rope, sinusoidal
from posenc.tables import lookup
from posenc.tasks import order_task


def lookup_backward(grad, indices, n_rows):
    """The scatter-add of the old code: ``np.add.at``."""
    d_table = np.zeros((n_rows, grad.shape[-1]))
    np.add.at(d_table, indices, grad)  # unbuffered: repeated indices add up
    return d_table


def _loss_and_grads(model, tokens, labels):
    logits, cache = _forward(model, tokens)
    labels = _labels(labels, len(logits), model)
    p = model["params"]
    h, q, k, v, A, pooled = (cache[name] for name in ("h", "q", "k", "v", "A", "pooled"))
    batch, n, d_model = h.shape
    rows = np.arange(batch)

    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))  # stable log-softmax
    loss = float(-np.mean(log_probs[rows, labels]))
    d_logits = np.exp(log_probs)  # softmax(logits)
    d_logits[rows, labels] -= 1.0
    d_logits /= batch

    grads = {"W_out": pooled.T @ d_logits, "b_out": d_logits.sum(axis=0)}
    d_pooled = d_logits @ p["W_out"].T
    if model["readout"] == "mean":  # every position gets 1/n of the gradient
        d_o = np.broadcast_to(d_pooled[:, None, :] / n, (batch, n, d_model))
    else:  # only the last position was read
        d_o = np.zeros((batch, n, d_model))
        d_o[:, -1] = d_pooled
    d_o = _split_heads(d_o, model["n_heads"])
    d_A = d_o @ np.swapaxes(v, -1, -2)
    d_v = np.swapaxes(A, -1, -2) @ d_o
    d_S = A * (d_A - np.sum(d_A * A, axis=-1, keepdims=True))  # softmax backward
    scale = 1.0 / np.sqrt(q.shape[-1])
    d_q = d_S @ k * scale
    d_k = np.swapaxes(d_S, -1, -2) @ q * scale
    if model["scheme"] == "rope":  # rotation backward = rotation by the opposite angle
        d_q, d_k = rope(np.stack([d_q, d_k]), -np.arange(n))

    d_h = np.zeros_like(h)
    for name, d_x in (("W_q", d_q), ("W_k", d_k), ("W_v", d_v)):
        d_x = _merge_heads(d_x)
        grads[name] = h.reshape(-1, d_model).T @ d_x.reshape(-1, d_model)
        d_h += d_x @ p[name].T
    tokens = np.asarray(tokens)
    grads["E"] = lookup_backward(d_h, tokens, len(p["E"]))
    if model["scheme"] == "learned":
        grads["P"] = lookup_backward(d_h.sum(axis=0), np.arange(n), len(p["P"]))
    return loss, {name: grads[name] for name in p}, logits


def _forward(model, tokens):
    p, scheme, n_heads = model["params"], model["scheme"], model["n_heads"]
    tokens = np.asarray(tokens)
    n, d_model = tokens.shape[1], p["E"].shape[1]
    if scheme == "learned" and n > len(p["P"]):
        raise ValueError(
            f"tokens has length {n}, but the learned position table has only "
            f"{len(p['P'])} rows (max_len): there is no vector for position {len(p['P'])}"
        )

    h = lookup(p["E"], tokens)  # (batch, n, d_model)
    if scheme == "sinusoidal":
        h = h + sinusoidal(n, d_model)
    elif scheme == "learned":
        h = h + p["P"][:n]
    q, k, v = (_split_heads(h @ p[name], n_heads) for name in ("W_q", "W_k", "W_v"))
    if scheme == "rope":
        q, k = rope(np.stack([q, k]))  # rotate row i of every head by angles i * theta
    S = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])  # (batch, n_heads, n, n)
    if scheme == "alibi":
        S = S + alibi_bias(n_heads, n, causal=model["causal"])  # -inf above the diagonal if causal
    elif model["causal"]:
        S = np.where(causal_mask(n), S, -np.inf)
    A = np.exp(S - S.max(axis=-1, keepdims=True))  # softmax over keys
    A /= A.sum(axis=-1, keepdims=True)
    o = A @ v
    o = _merge_heads(o)  # (batch, n, d_model)
    pooled = o.mean(axis=1) if model["readout"] == "mean" else o[:, -1]  # (batch, d_model)
    logits = pooled @ p["W_out"] + p["b_out"]
    return logits, {"h": h, "q": q, "k": k, "v": v, "A": A, "pooled": pooled}


def _split_heads(x, n_heads):
    batch, n, d_model = x.shape
    return x.reshape(batch, n, n_heads, d_model // n_heads).transpose(0, 2, 1, 3)


def _merge_heads(x):
    batch, n_heads, n, d_h = x.shape
    return x.transpose(0, 2, 1, 3).reshape(batch, n, n_heads * d_h)


def adam_step(params, grads, state, *, lr=0.01, beta1=0.9, beta2=0.999, eps=1e-8):
    state["t"] = t = state.get("t", 0) + 1
    for name, g in grads.items():
        m = state.setdefault("m_" + name, np.zeros_like(g))
        v = state.setdefault("v_" + name, np.zeros_like(g))
        m *= beta1
        m += (1 - beta1) * g
        v *= beta2
        v += (1 - beta2) * g * g
        params[name] -= lr * (m / (1 - beta1**t)) / (np.sqrt(v / (1 - beta2**t)) + eps)
    return state


def train(model, *, steps=300, batch_size=32, lengths=(4, 16), lr=0.02, task=order_task, seed=0):
    lo, hi = lengths
    rng = _rng(seed)
    trained = dict(model, params={name: x.copy() for name, x in model["params"].items()})
    history = {"loss": np.empty(steps), "accuracy": np.empty(steps),
               "length": np.empty(steps, dtype=np.int64)}
    state = {}
    for step in range(steps):
        n = int(rng.integers(lo, hi + 1))
        tokens, labels = task(batch_size, n, seed=rng)
        loss, grads, logits = _loss_and_grads(trained, tokens, labels)
        adam_step(trained["params"], grads, state, lr=lr * (1 - step / steps))  # decays to 0
        history["loss"][step], history["length"][step] = loss, n
        history["accuracy"][step] = np.mean(logits.argmax(axis=1) == labels)
    return trained, history


def _rng(seed):
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def _labels(labels, batch, model):
    labels = np.asarray(labels)
    n_classes = model["params"]["b_out"].shape[0]
    if labels.shape != (batch,) or labels.dtype.kind not in "iu":
        raise ValueError(f"labels must be {batch} integers (one per sequence), got {labels!r}")
    if labels.min() < 0 or labels.max() >= n_classes:
        raise ValueError(f"labels must lie in [0, {n_classes}), got {labels.min()}..{labels.max()}")
    return labels
