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
from .model import MAX_MODELS, _labels, _model, _tokens, _work, forward
from .stats import CONVERGED_ACCURACY
from .tasks import order_task

__all__ = ["adam_step", "train", "held_out_accuracy", "HELD_OUT_ITEMS", "HELD_OUT_SEED"]

#: Sequences per training length in the held-out set of the convergence rule.
HELD_OUT_ITEMS = 500

#: Seeds the held-out set: a seed that no training or test set of the book uses.
HELD_OUT_SEED = 999_999


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

    Nothing overflows silently: a gradient whose square overflows the
    moments' dtype (above about 1.8e19 in float32), or a step that would
    carry a parameter past the largest number of its dtype (``lr=1e6`` on
    float16 parameters), is refused by name, and then nothing changes,
    neither ``params`` nor ``state``.

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
    grads, lr, beta1, beta2, eps = _adam_arguments(params, grads, state, lr, beta1, beta2, eps)
    t = state.get("t", 0) + 1
    correction = np.sqrt(1 - beta2**t)
    step_size, eps_hat = lr * correction / (1 - beta1**t), eps * correction
    new = {}  # every new value, computed before anything changes
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused below, by name
        for name, g in grads.items():
            m, v = (state.get(moment + name, np.zeros(g.shape, _moment_dtype(params[name])))
                    for moment in ("m_", "v_"))
            m = (m + (1 - beta1) * (g - m)).astype(m.dtype, copy=False)  # beta1 m + (1 - beta1) g
            v = (v + (1 - beta2) * (g * g - v)).astype(v.dtype, copy=False)
            theta = params[name] - step_size * m / (np.sqrt(v) + eps_hat)
            new[name] = m, v, theta.astype(params[name].dtype, copy=False)
            _adam_finite(name, g, *new[name], lr)
    state["t"] = t
    for name, (m, v, theta) in new.items():
        for key, x in (("m_" + name, m), ("v_" + name, v)):
            if key in state:
                state[key][...] = x
            else:
                state[key] = x
        params[name][...] = theta
    return state


def train(model, *, steps=1500, batch_size=32, lengths=(4, 16), lr=0.02, task=order_task,
          seed=0, length_seed=0, check_every=None, stop_early=True):
    """Train a copy of ``model`` (or of a stack of models) with Adam on fresh batches from ``task``.

    At each step a sequence length is drawn uniformly from
    ``lengths[0], ..., lengths[1]`` (inclusive), and each model gets a batch
    of ``batch_size`` sequences of that length from ``task``, drawn with
    its own seed. Every model of a stack sees the same length at each step
    (the lengths come from a generator of their own, seeded with
    ``length_seed``), so model ``m`` of a stack ends exactly where the same
    model trained alone with ``seed=seeds[m]`` ends.

    **Training until the convergence rule is met.** With ``check_every``,
    every ``check_every`` steps (and after the last step) each model still
    training is scored on a held-out set (:func:`held_out_accuracy`: 500
    sequences from ``task`` at every training length, the same for every
    model and every check); a model that reaches
    ``posenc.stats.CONVERGED_ACCURACY`` (0.99) at every length has met the
    book's convergence rule (:func:`posenc.stats.converged`) and stops
    there. The step size follows the same schedule over ``steps`` either
    way, so a model that stops at step ``t`` is exactly the model of step
    ``t`` of the full run; a stack leaves its stopped models out of the
    arithmetic, and each model still ends exactly as it ends alone.

    Parameters
    ----------
    model : dict
        From :func:`init_model`; it is not changed.
    steps : int, default 1500
        The number of steps (the most, with ``check_every``). Most models of
        the book's two tasks that can learn them meet the convergence rule
        within it, but not every seed of every recipe: a group of 16 seeds
        may have one or two that never do, so the book reports how many
        converged in each group (see the chapter *Train short, test long*
        and ``posenc.stats.rankable``).
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
    check_every : int, optional
        Check the convergence rule every ``check_every`` steps and stop
        each model that meets it. ``None`` (the default): every model
        trains for ``steps`` steps, unchecked.
    stop_early : bool, default True
        With ``check_every``, ``False`` keeps every model training to the
        last step (the fixed-budget run), while the checks record each
        model's early stop as above: the history then also holds
        ``"stopped"``, the model (or stack) as early stopping returns it,
        each model as it was at its recorded step, with its history: the
        pair ``(trained, history)`` that ``stop_early=True`` returns, from
        one run instead of two, the same numbers.

    Returns
    -------
    trained : dict
        A new model (or stack) with the trained parameters.
    history : dict
        ``"loss"`` and ``"accuracy"`` of each training batch (before its
        update), arrays of length ``steps`` (``(M, steps)`` for a stack),
        and the sequence ``"length"`` of each step, ``(steps,)``. With
        ``check_every``, the arrays end at the last step any model took,
        a stopped model's entries after its stop are NaN, and three more
        entries describe each model's last check: ``"steps"``, the steps it
        trained; ``"held_out"``, its held-out accuracy at each training
        length, shortest first; ``"converged"``, whether it met the rule.
        With ``stop_early=False`` the arrays cover every step, and
        ``"stopped"`` holds the early-stopped pair.

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
    >>> stack, history = train(init_model("learned", seed=[0, 1]), steps=1500, seed=[0, 1],
    ...                        check_every=250)
    >>> history["steps"], history["converged"]  # both stopped early, when the rule was met
    (array([750, 500]), array([ True,  True]))
    >>> full, both = train(init_model("learned", seed=[0, 1]), steps=1500, seed=[0, 1],
    ...                    check_every=250, stop_early=False)  # all 1500 steps, and the stops
    >>> early_stack, early_history = both["stopped"]
    >>> early_history["steps"], bool(np.array_equal(early_stack["params"]["P"], stack["params"]["P"]))
    (array([750, 500]), True)
    """
    steps, batch_size, lr, lengths, rngs, length_rng, check_every = _train_arguments(
        model, steps, batch_size, lengths, lr, task, seed, length_seed, check_every, stop_early)
    lo, hi = lengths
    # The trained parameters are views of one flat array, which Adam updates as
    # a whole: entry by entry, exactly as parameter by parameter, in one call.
    flat, trained_params = _one_array(model["params"])
    trained = dict(model, params=trained_params)
    params = _model(trained)  # views: a single model is a stack of one
    M = len(rngs)
    history = {"loss": np.full((M, steps), np.nan), "accuracy": np.full((M, steps), np.nan),
               "length": np.empty(steps, dtype=np.int64)}
    if check_every is not None:
        held_out = _held_out_set(task, lengths, HELD_OUT_ITEMS, HELD_OUT_SEED)
        history.update(steps=np.full(M, steps), held_out=np.full((M, hi - lo + 1), np.nan),
                       converged=np.zeros(M, dtype=bool))
    active = np.arange(M)  # the models still training
    pending = active  # the models whose stop is not yet recorded
    stopped = {name: x.copy() for name, x in params.items()} if not stop_early else None
    state = {}
    for step in range(steps):
        n = int(length_rng.integers(lo, hi + 1))
        batches = [_call_task(task, batch_size, n, rngs[m], lengths) for m in active]  # one per model
        tokens, labels = _task_batch(trained, batches, batch_size, n)
        if len(active) == M:
            loss, grads, logits = _loss_and_grads(trained, params, tokens, labels)
            if flat is not None:  # the gradients in the order of the flat array
                grads = {"all": np.concatenate([grads[name].ravel() for name in params])}
            adam_step(flat or params, grads, state, lr=lr * (1 - step / steps))  # lr/steps at the last step
        else:  # the same arithmetic on the entries of the models still training
            loss, logits = _step_some(trained, params, flat, state, active, tokens, labels,
                                      lr * (1 - step / steps))
        history["loss"][active, step], history["length"][step] = loss, n
        history["accuracy"][active, step] = np.mean(logits.argmax(axis=-1) == labels, axis=-1)
        if check_every is not None and len(pending) and ((step + 1) % check_every == 0 or step + 1 == steps):
            going_on = _check(trained, params, pending, held_out, step + 1, step + 1 == steps, history)
            if stopped is not None:  # record the models that stop here, and train on
                here = np.setdiff1d(pending, going_on)
                for name, x in params.items():
                    stopped[name][here] = x[here]
            else:
                active = going_on
            pending = going_on
            if not len(active):
                break
    early = None
    if stopped is not None:  # the pair that early stopping returns, from this run
        early = {name: np.copy(x) for name, x in history.items()}
        after = np.arange(steps) >= history["steps"][:, None]  # each model's steps after its stop
        early["loss"][after], early["accuracy"][after] = np.nan, np.nan
        early = (dict(trained, params=stopped), early)
    if check_every is not None:  # early stopping's arrays end at the last step any model took
        h = history if early is None else early[1]
        last = int(h["steps"].max())
        for name in ("loss", "accuracy", "length"):
            h[name] = h[name][..., :last]
    for h in (history,) if early is None else (history, early[1]):
        if model.get("n_models") is None:
            for name in ("loss", "accuracy", "steps", "held_out", "converged"):
                if name in h:
                    h[name] = h[name][0]
            if "steps" in h:
                h["steps"], h["converged"] = int(h["steps"]), bool(h["converged"])
    if early:
        if model.get("n_models") is None:
            early[0]["params"] = {name: x[0] for name, x in stopped.items()}
        history["stopped"] = early
    return trained, history


def held_out_accuracy(model, task=order_task, lengths=(4, 16), *, n_items=HELD_OUT_ITEMS,
                      seed=HELD_OUT_SEED):
    """Accuracy of a model (or of each model of a stack) on a held-out set, at every training length.

    The set holds ``n_items`` sequences from ``task`` at each length from
    ``lengths[0]`` to ``lengths[1]``, drawn with a generator seeded with
    ``seed``, shortest length first: the same set for every model and every
    call. :func:`train` checks the book's convergence rule on it
    (``check_every``), and :func:`posenc.stats.converged` reads the result.

    Parameters
    ----------
    model : dict
    task : callable, default :func:`order_task`
    lengths : (int, int), default (4, 16)
    n_items : int, default 500
        Sequences per length, at most a million.
    seed : int, default ``HELD_OUT_SEED``
        Its own seed, which no training stream of the book uses.

    Returns
    -------
    numpy.ndarray of shape ``(n_lengths,)``, or ``(M, n_lengths)`` for a stack

    Examples
    --------
    >>> from posenc.model import init_model
    >>> held_out_accuracy(init_model("none", seed=[0, 1]), lengths=(4, 6)).shape
    (2, 3)
    """
    lengths, n_items, seed = _held_out_arguments(model, task, lengths, n_items, seed)
    sets = _held_out_set(task, lengths, n_items, seed)
    acc = np.stack([np.atleast_1d(_accuracy(model, tokens, labels)) for tokens, labels in sets], axis=-1)
    return acc[0] if model.get("n_models") is None else acc


def _held_out_set(task, lengths, n_items, seed):
    """``n_items`` sequences from ``task`` at each length, shortest first, from one generator."""
    rng = np.random.default_rng(seed)
    return [_call_task(task, n_items, n, rng, lengths) for n in range(lengths[0], lengths[1] + 1)]


def _accuracy(model, tokens, labels):
    return np.mean(forward(model, tokens).argmax(axis=-1) == np.asarray(labels), axis=-1)


def _some(model, params, which):
    """The models ``which`` of a stack (or the single model), as a stack of their own (copies)."""
    return dict(model, n_models=len(which), params={name: x[which] for name, x in params.items()})


def _check(model, params, active, sets, step, last, history):
    """The convergence rule for the models still training; returns those that go on.

    ``sets`` is the held-out set, one ``(tokens, labels)`` per training
    length. Lengths are scored longest first, and a model stops being
    scored at its first length below the threshold (it goes on training),
    except at the last step, where every model gets its whole row.
    """
    scored = active
    for j in reversed(range(len(sets))):
        acc = np.atleast_1d(_accuracy(_some(model, params, scored), *sets[j]))
        history["held_out"][scored, j] = acc
        if not last:
            scored = scored[acc >= CONVERGED_ACCURACY]
            if not len(scored):
                break
    met = active[np.all(history["held_out"][active] >= CONVERGED_ACCURACY, axis=1)]
    history["converged"][met] = True
    stopped = met if not last else active
    history["steps"][stopped] = step
    return np.setdiff1d(active, stopped)


def _step_some(model, params, flat, state, active, tokens, labels, lr):
    """One step of the models ``active`` of a stack, with exactly the arithmetic of a full step."""
    some = _some(model, params, active)
    loss, grads, logits = _loss_and_grads(some, some["params"], tokens, labels)
    if flat is None:  # a model put together by hand: parameter by parameter
        sub = {name: x[active] for name, x in params.items()}
        sub_state = {key: (x if key == "t" else x[active]) for key, x in state.items()}
        adam_step(sub, grads, sub_state, lr=lr)
        for name, x in params.items():
            x[active] = sub[name]
        for key, x in sub_state.items():
            if key == "t":
                state["t"] = x
            else:
                state[key][active] = x
        return loss, logits
    # the entries of the models still training in the flat array, in its order
    M, starts, index = len(next(iter(params.values()))), 0, []
    for name, x in params.items():
        size = x[0].size
        index.append((starts + active[:, None] * size + np.arange(size)).ravel())
        starts += M * size
    index = np.concatenate(index)
    sub = {"all": flat["all"][index]}
    sub_state = {"t": state["t"], "m_all": state["m_all"][index], "v_all": state["v_all"][index]}
    adam_step(sub, {"all": np.concatenate([grads[name].ravel() for name in params])}, sub_state, lr=lr)
    flat["all"][index] = sub["all"]
    state["m_all"][index], state["v_all"][index] = sub_state["m_all"], sub_state["v_all"]
    state["t"] = sub_state["t"]
    return loss, logits


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
    seeds = None if isinstance(seed, np.random.Generator) else _checks.seeds(seed, most=MAX_MODELS)
    if seeds is None or len(seeds) != M:
        raise ValueError(
            f"a stack of {M} models needs {M} seeds, one data stream per model "
            f"(for example seed=range({M})), got seed={seed!r}"
        )
    return [np.random.default_rng(s) for s in seeds]


def _task_batch(model, batches, batch_size, n):
    """The task's batches (checked by :func:`_call_task`) stacked, ``(M, batch_size, n)`` and
    ``(M, batch_size)``, with the checks of forward."""
    tokens = np.stack([np.asarray(t) for t, _ in batches])
    labels = np.stack([np.asarray(y) for _, y in batches])
    _tokens(model, tokens.reshape(-1, n))  # token ids in range, P long enough
    return tokens, _labels(labels, labels.shape, model)


def _lengths(lengths, model):
    """``(shortest, longest)``: a tuple, list or array of two integers (not bytes, not a set)."""
    pair = isinstance(lengths, (tuple, list)) or isinstance(lengths, np.ndarray) and lengths.ndim == 1
    if not pair or len(lengths) != 2:
        raise TypeError(f"lengths must be a pair (shortest, longest), got {_checks.show(lengths)}")
    lo, hi = lengths
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


def _adam_arguments(params, grads, state, lr, beta1, beta2, eps):
    """Check everything :func:`adam_step` uses before it changes anything; the gradients as floats."""
    lr = _checks.real("lr", lr, positive=True)
    beta1 = _checks.real("beta1", beta1, at_least=0, below=1)
    beta2 = _checks.real("beta2", beta2, at_least=0, below=1)
    eps = _checks.real("eps", eps, positive=True)
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
        if not p.flags.writeable:
            raise ValueError(f"params[{name!r}] is read-only, and adam_step updates it in place: "
                             f"pass a writable array (np.array(...) makes a copy)")
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
            if held is not None and not held.flags.writeable:
                raise ValueError(f"state[{moment + name!r}] is read-only, and adam_step updates it "
                                 "in place: pass a writable array")
    t = state.get("t", 0)
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 0:
        raise ValueError(f"state['t'] must be the number of steps taken, an integer >= 0, got {_checks.show(t)}")
    return checked, lr, beta1, beta2, eps


def _adam_finite(name, g, m, v, theta, lr):
    """Refuse a step whose moments or parameters overflow, by name, before anything changes."""
    if not np.isfinite(v).all():
        raise ValueError(
            f"grads[{name!r}] holds entries up to {np.abs(g).max():.3g}, whose squares overflow "
            f"Adam's second moment in {v.dtype} (largest {np.finfo(v.dtype).max:.3g}): a gradient "
            "this large means the training has diverged; lower lr, or scale the loss down"
        )
    if not np.isfinite(theta).all():
        raise ValueError(
            f"lr = {lr:g} would carry params[{name!r}] past the largest {theta.dtype} "
            f"({np.finfo(theta.dtype).max:.4g}): each step of Adam moves an entry by up to "
            "about lr; lower lr, or keep the parameters in a wider dtype"
        )


def _train_arguments(model, steps, batch_size, lengths, lr, task, seed, length_seed, check_every,
                     stop_early):
    """The arguments of :func:`train`, checked, and the size of its work capped."""
    _model(model)  # a model dict, before _lengths reads it
    steps = _checks.positive_int("steps", steps)
    batch_size = _checks.positive_int("batch_size", batch_size)
    lr = _checks.real("lr", lr, positive=True)
    lo, hi = _lengths(lengths, model)
    _task(task)
    if check_every is not None:
        check_every = _checks.positive_int("check_every", check_every)
    if not _checks.boolean("stop_early", stop_early) and check_every is None:
        raise ValueError("stop_early=False records the early stops of the checks: it needs check_every")
    rngs = _data_rngs(seed, model)
    length_rng = np.random.default_rng(_checks.integer("length_seed", length_seed, minimum=0))
    show, (formula, work) = _checks.show, _work(model, batch_size, hi)
    parts, held = [f"a history of (2 * models + 1) * steps = (2 * {len(rngs)} + 1) * {show(steps)}"], 0
    if check_every is not None:
        held = HELD_OUT_ITEMS * (hi - lo + 1) * (lo + hi) // 2
        parts.append(f"a held-out set of HELD_OUT_ITEMS * (lengths[0] + ... + lengths[1]) = "
                     f"{HELD_OUT_ITEMS} * ({lo} + ... + {show(hi)}) tokens")
    parts.append(f"the work of a step at the longest length, {formula}")
    _checks.entries(f"steps = {show(steps)}, batch_size = {show(batch_size)} and lengths = ({lo}, "
                    f"{show(hi)}): " + ", ".join(parts), (2 * len(rngs) + 1) * steps + held + work)
    return steps, batch_size, lr, (lo, hi), rngs, length_rng, check_every


def _held_out_arguments(model, task, lengths, n_items, seed):
    """The arguments of :func:`held_out_accuracy`, checked, and the size of its set capped."""
    _model(model)
    _task(task)
    lo, hi = _lengths(lengths, model)
    n_items = _checks.integer("n_items", n_items, minimum=1, maximum=10**6)
    formula, work = _work(model, 1, hi)  # forward() at the longest length
    _checks.entries(
        f"n_items = {n_items} and lengths = ({lo}, {_checks.show(hi)}): a held-out set of n_items * "
        f"(lengths[0] + ... + lengths[1]) = {n_items} * ({lo} + ... + {_checks.show(hi)}) tokens, and "
        f"forward()'s work at the longest length, {formula}", n_items * (hi - lo + 1) * (lo + hi) // 2 + work)
    return (lo, hi), n_items, _checks.integer("seed", seed, minimum=0)


def _task(task):
    if not callable(task):
        raise TypeError(f"task must be a function task(n_examples, length, seed=rng), got {_checks.show(task)}")


def _call_task(task, n_examples, n, rng, lengths):
    """``task(n_examples, n, seed=rng)``, which must return ``(tokens, labels)`` of the right shapes.

    A refusal of the task itself is passed on with the length it refused,
    named as an entry of ``lengths``.
    """
    try:
        result = task(n_examples, n, seed=rng)
    except (TypeError, ValueError) as error:
        which = {lengths[1]: "lengths[1]", lengths[0]: "lengths[0]"}.get(n, f"within lengths = {lengths}")
        raise type(error)(f"the task refused length {n} ({which}): task(n_examples={n_examples}, "
                          f"length={n}, seed=...) says: {error}") from error
    call = f"task(n_examples={n_examples}, length={n}, seed=...)"
    if not (isinstance(result, (tuple, list)) and len(result) == 2):
        raise TypeError(f"{call} must return a pair (tokens, labels), got {_checks.show(result)}")
    tokens, labels = result
    if np.shape(tokens) != (n_examples, n) or np.shape(labels) != (n_examples,):
        raise ValueError(
            f"{call} must return tokens of shape ({n_examples}, {n}) and labels of shape "
            f"({n_examples},), got {np.shape(tokens)} and {np.shape(labels)}"
        )
    return tokens, labels
