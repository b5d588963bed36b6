"""Training and evaluating the tiny model as the book did before issue 25.

This is the code of commit 369aff7 (``posenc.training.train`` and
``posenc.model.forward`` as they were), kept for one purpose:
``tools/bench_training.py`` (``make bench``) runs it and today's code side
by side, in the same run, to measure what issue 25's speed work saves. It
calls today's helpers where they did not change (the forward and backward
passes of training, Adam, the argument checks). Nothing else uses it.

Before issue 25 every model trained for a fixed number of steps, and
``forward`` computed every attention matrix in full, normalised it row by
row, and then averaged it for the readout.
"""

from __future__ import annotations

import numpy as np

from posenc import _checks
from posenc.backward import _loss_and_grads
from posenc.engine import CHUNK_ENTRIES as _CHUNK_ENTRIES
from posenc.engine import forward as _forward
from posenc.model import _finite, _model as _stacked, _tokens, _unstacked
from posenc.tasks import order_task
from posenc.training import _data_rngs, _lengths, _one_array, _task_batch, adam_step


def train(model, *, steps=1500, batch_size=32, lengths=(4, 16), lr=0.02, task=order_task,
          seed=0, length_seed=0):
    """``posenc.training.train`` of commit 369aff7: every model trains ``steps`` steps."""
    _stacked(model)
    lo, hi = _lengths(lengths, model)
    rngs = _data_rngs(seed, model)
    length_rng = np.random.default_rng(_checks.integer("length_seed", length_seed, minimum=0))
    flat, trained_params = _one_array(model["params"])
    trained = dict(model, params=trained_params)
    params = _stacked(trained)
    M = len(rngs)
    history = {"loss": np.empty((M, steps)), "accuracy": np.empty((M, steps)),
               "length": np.empty(steps, dtype=np.int64)}
    state = {}
    for step in range(steps):
        n = int(length_rng.integers(lo, hi + 1))
        batches = [task(batch_size, n, seed=rng) for rng in rngs]
        tokens, labels = _task_batch(trained, batches, batch_size, n)
        loss, grads, logits = _loss_and_grads(trained, params, tokens, labels)
        if flat is not None:
            grads = {"all": np.concatenate([grads[name].ravel() for name in params])}
        adam_step(flat or params, grads, state, lr=lr * (1 - step / steps))
        history["loss"][:, step], history["length"][step] = loss, n
        history["accuracy"][:, step] = np.mean(logits.argmax(axis=-1) == labels, axis=-1)
    if model.get("n_models") is None:
        history["loss"], history["accuracy"] = history["loss"][0], history["accuracy"][0]
    return trained, history


def forward(model, tokens):
    """``posenc.model.forward`` of commit 369aff7: the full attention matrices, in pieces."""
    params, tokens = _stacked(model), _tokens(model, tokens)
    M, batch, n = len(params["E"]), tokens.shape[-2], tokens.shape[-1]
    rows = 1 if model["readout"] == "last" else n
    chunk = max(1, _CHUNK_ENTRIES // (M * model["n_heads"] * rows * n))
    with np.errstate(all="ignore"):
        logits = np.concatenate([_forward(model, params, tokens[..., i:i + chunk, :])[0]
                                 for i in range(0, batch, chunk)], axis=1)
    _finite(model, logits)
    return _unstacked(model, logits)
