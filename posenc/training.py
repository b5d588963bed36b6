r"""Training the tiny model: Adam, and the loop over fresh batches.

:func:`adam_step` is one step of Adam (Kingma and Ba, 2015), written out so
that each line is a line of the paper's algorithm; :func:`train` draws a
batch from a task at every step and updates the model (or a stack of
models, side by side) with it. The model is ``posenc.model``; the tasks
are ``posenc.tasks``.
"""

from __future__ import annotations

import numpy as np

from . import _checks
from .backward import _loss_and_grads
from .model import _labels, _seeds, _stacked, _tokens
from .tasks import order_task

__all__ = ["adam_step", "train"]


def adam_step(params, grads, state, *, lr=0.01, beta1=0.9, beta2=0.999, eps=1e-8):
    r"""One step of Adam (Kingma and Ba, 2015), in place.

    .. math::

        m \leftarrow \beta_1 m + (1 - \beta_1) g, \quad
        v \leftarrow \beta_2 v + (1 - \beta_2) g^2, \quad
        \theta \leftarrow \theta - \mathrm{lr}\,
            \frac{m / (1 - \beta_1^t)}{\sqrt{v / (1 - \beta_2^t)} + \epsilon}

    The code folds the two bias corrections into the step size and
    :math:`\epsilon`, as the paper suggests (section 2): the same update
    with fewer operations on the arrays. The moments are kept in float32 or
    wider: in float16, :math:`g^2` underflows and :math:`\epsilon` rounds to
    0, and a single step can move a weight by thousands.

    An entry whose gradient has always been zero has :math:`m = 0` and does
    not move: rows of a position table that no sequence reached stay
    exactly at their initial values.

    Parameters
    ----------
    params, grads : dict of numpy.ndarray
        Same keys and shapes; ``params`` is updated in place. A stack of
        models is updated entry by entry, exactly as each model alone.
    state : dict
        Adam's moments; pass ``{}`` at the first step, then the same dict.
    lr, beta1, beta2, eps : float
        The step size ``lr > 0``; the decay rates of the moments,
        ``0 <= beta1, beta2 < 1`` (at 1 the bias correction divides by
        zero); ``eps > 0``, which keeps the division finite.

    Returns
    -------
    dict
        ``state``, updated.

    Examples
    --------
    >>> params, state = {"w": np.array([1.0, 2.0])}, {}
    >>> _ = adam_step(params, {"w": np.array([0.5, 0.0])}, state, lr=0.1)
    >>> params["w"]  # the first step moves by lr in the direction of -sign(g)
    array([0.9, 2. ])
    """
    lr = _checks.real("lr", lr, positive=True)
    beta1 = _checks.real("beta1", beta1, at_least=0, below=1)
    beta2 = _checks.real("beta2", beta2, at_least=0, below=1)
    eps = _checks.real("eps", eps, positive=True)
    grads = _adam_arguments(params, grads, state)
    state["t"] = t = state.get("t", 0) + 1
    correction = np.sqrt(1 - beta2**t)
    step_size, eps_hat = lr * correction / (1 - beta1**t), eps * correction
    for name, g in grads.items():
        m = state.setdefault("m_" + name, np.zeros(g.shape, dtype=_moment_dtype(params[name])))
        v = state.setdefault("v_" + name, np.zeros(g.shape, dtype=_moment_dtype(params[name])))
        m += (1 - beta1) * (g - m)  # m <- beta1 m + (1 - beta1) g
        v += (1 - beta2) * (g * g - v)
        params[name] -= step_size * m / (np.sqrt(v) + eps_hat)
    return state


def train(model, *, steps=1500, batch_size=32, lengths=(4, 16), lr=0.02, task=order_task,
          seed=0, length_seed=0):
    """Train a copy of ``model`` (or of a stack of models) with Adam on fresh batches from ``task``.

    At each step a sequence length is drawn uniformly from
    ``lengths[0], ..., lengths[1]`` (inclusive), and each model gets a batch
    of ``batch_size`` sequences of that length from ``task``, drawn with
    its own seed. Every model of a stack sees the same length at each step
    (the lengths come from a generator of their own, seeded with
    ``length_seed``), so model ``m`` of a stack ends exactly where the same
    model trained alone with ``seed=seeds[m]`` ends.

    Parameters
    ----------
    model : dict
        From :func:`init_model`; it is not changed.
    steps : int, default 1500
        Enough for every model of the book's two tasks that can learn them
        to converge (see the chapter *Train short, test long*).
    batch_size : int, default 32
    lengths : (int, int), default (4, 16)
        Shortest and longest training length. Positions at and past
        ``lengths[1]`` are never seen in training.
    lr : float, default 0.02
        Adam's step size at the first step. It decays linearly: at step
        ``t`` (counted from 0) it is ``lr * (1 - t / steps)``, so the last
        step uses ``lr / steps``, which lets the weights settle.
    task : callable, default :func:`order_task`
        ``task(n_examples, length, seed=rng)`` returning ``(tokens, labels)``.
    seed : int or numpy.random.Generator, or a sequence of int for a stack, default 0
        Seeds the training sequences (the initial weights come from
        :func:`init_model`). A stack of ``M`` models needs ``M`` seeds, one
        data stream per model.
    length_seed : int, default 0
        Seeds the training lengths, shared by every model of a stack.

    Returns
    -------
    trained : dict
        A new model (or stack) with the trained parameters.
    history : dict
        ``"loss"`` and ``"accuracy"`` of each training batch (before its
        update), arrays of length ``steps`` (``(M, steps)`` for a stack),
        and the sequence ``"length"`` of each step, ``(steps,)``.

    Examples
    --------
    >>> from posenc.model import init_model
    >>> trained, history = train(init_model("learned"), steps=20)
    >>> history["loss"].shape
    (20,)
    >>> bool(np.all((4 <= history["length"]) & (history["length"] <= 16)))
    True
    >>> stack, history = train(init_model("rope", seed=[0, 1, 2]), steps=20, seed=[0, 1, 2])
    >>> history["loss"].shape
    (3, 20)
    """
    _stacked(model)  # a model dict, before _lengths reads it
    steps = _checks.positive_int("steps", steps)
    batch_size = _checks.positive_int("batch_size", batch_size)
    lr = _checks.real("lr", lr, positive=True)
    lo, hi = _lengths(lengths, model)
    if not callable(task):
        raise TypeError(f"task must be a function task(n_examples, length, seed=rng), got {_checks.show(task)}")
    rngs = _data_rngs(seed, model)
    length_rng = np.random.default_rng(_checks.integer("length_seed", length_seed, minimum=0))
    # The trained parameters are views of one flat array, which Adam updates as
    # a whole: entry by entry, exactly as parameter by parameter, in one call.
    flat, trained_params = _one_array(model["params"])
    trained = dict(model, params=trained_params)
    params = _stacked(trained)  # views: a single model is a stack of one
    M = len(rngs)
    history = {"loss": np.empty((M, steps)), "accuracy": np.empty((M, steps)),
               "length": np.empty(steps, dtype=np.int64)}
    state = {}
    for step in range(steps):
        n = int(length_rng.integers(lo, hi + 1))
        batches = [task(batch_size, n, seed=rng) for rng in rngs]  # one batch per model
        tokens, labels = _task_batch(trained, batches, batch_size, n)
        loss, grads, logits = _loss_and_grads(trained, params, tokens, labels)
        if flat is not None:  # the gradients in the order of the flat array
            grads = {"all": np.concatenate([grads[name].ravel() for name in params])}
        adam_step(flat or params, grads, state, lr=lr * (1 - step / steps))  # lr/steps at the last step
        history["loss"][:, step], history["length"][step] = loss, n
        history["accuracy"][:, step] = np.mean(logits.argmax(axis=-1) == labels, axis=-1)
    if model.get("n_models") is None:
        history["loss"], history["accuracy"] = history["loss"][0], history["accuracy"][0]
    return trained, history


def _one_array(params):
    """A copy of ``params`` whose arrays are views of one flat array: ``({"all": flat}, views)``.

    The flat array holds the parameters one after the other, in the order of
    ``params``, so that the gradients, concatenated in the same order, line
    up with it. Parameters of several dtypes (a model put together by hand)
    cannot share one array: then ``(None, copies)``.
    """
    if len({np.asarray(x).dtype for x in params.values()}) > 1:
        return None, {name: np.array(x) for name, x in params.items()}
    flat = np.concatenate([np.ravel(x) for x in params.values()])
    views, start = {}, 0
    for name, x in params.items():
        views[name] = flat[start:start + np.size(x)].reshape(np.shape(x))
        start += np.size(x)
    return {"all": flat}, views


# --- argument checks ------------------------------------------------------------


def _data_rngs(seed, model):
    """One generator of training data per model."""
    M = model.get("n_models")
    if M is None:
        return [_checks.rng(seed)]
    seeds = None if isinstance(seed, np.random.Generator) else _seeds(seed)
    if seeds is None or len(seeds) != M:
        raise ValueError(
            f"a stack of {M} models needs {M} seeds, one data stream per model "
            f"(for example seed=range({M})), got seed={seed!r}"
        )
    return [np.random.default_rng(s) for s in seeds]


def _task_batch(model, batches, batch_size, n):
    """The task's batches stacked, ``(M, batch_size, n)`` and ``(M, batch_size)``, with the checks of forward."""
    for tokens, labels in batches:
        if np.shape(tokens) != (batch_size, n) or np.shape(labels) != (batch_size,):
            raise ValueError(
                f"task(n_examples={batch_size}, length={n}, seed=...) must return tokens of shape "
                f"({batch_size}, {n}) and labels of shape ({batch_size},), got {np.shape(tokens)} "
                f"and {np.shape(labels)}"
            )
    tokens = np.stack([np.asarray(t) for t, _ in batches])
    labels = np.stack([np.asarray(y) for _, y in batches])
    _tokens(model, tokens if model.get("n_models") else tokens[0])  # token ids in range, P long enough
    return tokens, _labels(labels, labels.shape, model)


def _lengths(lengths, model):
    try:
        lo, hi = lengths
    except (TypeError, ValueError):
        raise TypeError(f"lengths must be a pair (shortest, longest), got {lengths!r}") from None
    lo = _checks.integer("lengths[0]", lo, minimum=1)
    hi = _checks.integer("lengths[1]", hi, minimum=lo)
    if "P" in model["params"] and hi > model["params"]["P"].shape[-2]:
        raise ValueError(
            f"lengths[1] = {hi} is longer than the position table "
            f"(max_len={model['params']['P'].shape[-2]})"
        )
    return lo, hi


def _moment_dtype(param):
    """Adam's moments in the parameter's precision, but at least float32 (see :func:`adam_step`)."""
    return np.result_type(param.dtype, np.float32)


def _adam_arguments(params, grads, state):
    """Check everything :func:`adam_step` uses before it changes anything; the gradients as floats."""
    for name, value, what in (("params", params, "names to float arrays"),
                              ("grads", grads, "names to arrays"),
                              ("state", state, "Adam's moments (pass {} at the first step)")):
        if not isinstance(value, dict):
            raise TypeError(
                f"{name} must be a dict of {what}, got {type(value).__name__} {_checks.show(value)}"
            )
    checked = {}
    for name, g in grads.items():
        if name not in params:
            raise ValueError(
                f"grads has {name!r}, which params lacks (params has {_checks.show(list(params))})"
            )
        p = params[name]
        if not (isinstance(p, np.ndarray) and p.dtype.kind == "f"):
            raise TypeError(
                f"params[{name!r}] must be a float numpy array (it is updated in place), "
                f"got {_checks.show(p)}"
            )
        g = _checks.real_array(f"grads[{name!r}]", g, finite=True)
        if g.shape != p.shape:
            raise ValueError(
                f"grads[{name!r}] must have the shape of params[{name!r}], {p.shape}, "
                f"got {g.shape}"
            )
        checked[name] = g.astype(np.result_type(g.dtype, _moment_dtype(p)), copy=False)  # float16 -> 32
        for moment in ("m_", "v_"):
            held = state.get(moment + name)
            if held is not None and not (isinstance(held, np.ndarray) and held.dtype.kind == "f"
                                         and held.shape == p.shape):
                raise ValueError(
                    f"state[{moment + name!r}] is not Adam's moment of params[{name!r}] (a float "
                    f"array of shape {p.shape}): pass the state of earlier steps of the same "
                    f"parameters, or {{}} to start again"
                )
    t = state.get("t", 0)
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 0:
        raise ValueError(f"state['t'] must be the number of steps taken, an integer >= 0, got {_checks.show(t)}")
    return checked
