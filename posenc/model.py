r"""The tiny attention model of the chapters: its definition first, then its use.

One attention layer between an embedding and a linear readout.
:func:`forward_by_definition`, just below, *is* the model; everything else
in the package computes what it defines, faster:

.. math::

    h_i = E[x_i] + p_i, \quad
    q_i, k_i, v_i = h_i W_q,\ h_i W_k,\ h_i W_v \ \text{(split into heads)}, \quad
    o_i = \textstyle\sum_j \mathrm{softmax}_j\!\big(q_i \cdot k_j / \sqrt{d_h} + B_{ij}\big)\, v_j,
    \quad \mathrm{logits} = \big(\textstyle\sum_i r_i\, o_i\big) W_\mathrm{out} + b_\mathrm{out}

The position ``scheme``, an entry of :data:`posenc.schemes.SCHEMES`, decides
where position enters: the input (:math:`p_i`), the queries and keys
(turned, as RoPE does), or the scores (:math:`B`, fixed as ALiBi's or trained
as T5's). The readout reads the mean of the outputs (:math:`r_i = 1/n`) or
the last one alone (``readout="last"``, where a causal language model
predicts). The fast engine is ``posenc.engine``, the backward pass
``posenc.backward``, training ``posenc.training``.
"""

from __future__ import annotations

import numpy as np

from . import _checks, engine
from .attention import attention, causal_mask
from .positions2d import _grid
from .schemes import SCHEMES
from .tables import init_table
from .tasks import ORDER_VOCAB, order_task

__all__ = ["SCHEMES", "READOUTS", "forward_by_definition", "init_model", "unstack", "forward",
           "attention_weights", "accuracy"]


def forward_by_definition(model, tokens):
    r"""The logits of the model, by definition: the formula, head by head.

    In float64, through :func:`posenc.attention`, whatever the model's
    dtype. :func:`forward` computes the same logits several times faster
    (a test proves them equal for every scheme: within 1e-12 in float64,
    1e-5 in float32).

    Parameters
    ----------
    model : dict
        From :func:`init_model` or :func:`train`; a stack of models too.
    tokens : array_like of int, shape ``(batch, n)``
        Or ``(M, batch, n)`` for a stack of ``M``: one batch per model.

    Returns
    -------
    numpy.ndarray of float64, shape ``(batch, n_classes)``
        ``(M, batch, n_classes)`` for a stack.

    Examples
    --------
    >>> model, tokens = init_model("rope"), [[2, 0, 3, 1]]
    >>> logits = forward_by_definition(model, tokens)
    >>> bool(np.allclose(logits, forward(model, tokens)))
    True
    """
    tokens = _definition_arguments(model, tokens)
    if model.get("n_models") is not None:  # a stack: model by model
        models = unstack(model)
        return np.stack([forward_by_definition(models[m], tokens[m])
                         for m in range(len(models))])
    scheme, H, n = SCHEMES[model["scheme"]], model["n_heads"], tokens.shape[1]
    p = {name: x.astype(np.float64) for name, x in model["params"].items()}
    x = p["E"][tokens]  # (batch, n, d): the token embeddings
    if scheme.table:
        x = x + p["P"][:n]  # + a trained position vector (learned)
    if scheme.added:
        x = x + scheme.added(model, n, np.float64)  # + a fixed one
    B = np.zeros((H, n, n))  # added to the scores of each head
    if scheme.bias:
        B = B + scheme.bias(model, n, np.float64)  # fixed (ALiBi)
    if scheme.bias_table:  # trained (T5): B_h[i, j] = R[h, bucket(j - i)]
        B = B + p["R"][:, scheme.bias_index(model, n)]
    mask = causal_mask(n) if model["causal"] else None  # j <= i only
    heads = []
    for h, cols in enumerate(np.split(np.arange(x.shape[2]), H)):
        q = x @ p["W_q"][:, cols]  # (batch, n, d_h): head h's queries,
        k = x @ p["W_k"][:, cols]  # keys
        v = x @ p["W_v"][:, cols]  # and values
        if scheme.turned:  # turned by their positions (RoPE)
            q, k = scheme.turned(model, q), scheme.turned(model, k)
        # o = softmax(q k^T / sqrt(d_h) + B) v: (batch, n, d_h)
        o, _ = attention(q, k, v, mask=mask, bias=B[h])
        heads.append(o)
    o = np.concatenate(heads, axis=2)  # (batch, n, d): heads side by side
    if model["readout"] == "mean":
        pooled = o.mean(axis=1)  # (batch, d)
    else:
        pooled = o[:, -1]  # the last position's output
    return pooled @ p["W_out"] + p["b_out"]  # (batch, n_classes)


READOUTS = ("mean", "last")

#: The largest stack of models, far more than any experiment of the book needs.
MAX_MODELS = 4096


def init_model(
    scheme,
    *,
    vocab_size=len(ORDER_VOCAB),
    n_classes=2,
    d_model=16,
    n_heads=4,
    max_len=64,
    causal=False,
    readout="mean",
    token_std=1.0,
    position_std=0.02,
    dtype=np.float64,
    seed=0,
    grid=None,
):
    """A fresh model, or a stack of fresh models: configuration and parameters.

    Parameters
    ----------
    scheme : str
        Where position enters: a name of :data:`posenc.schemes.SCHEMES`
        (``list(SCHEMES)``).
    vocab_size : int, default 8
        Number of token ids (rows of the token embedding).
    n_classes : int, default 2
        Number of outputs of the readout.
    d_model : int, default 16
        Width of embeddings and of the attention layer.
    n_heads : int, default 4
        Attention heads; must divide ``d_model``. With ``"rope"`` each head
        width ``d_model // n_heads`` must be even.
    max_len : int, default 64
        Rows of the learned position table (``"learned"`` only): the longest
        sequence the model accepts. Other schemes accept any length.
    causal : bool, default False
        ``True``: position ``i`` attends only to ``j <= i`` (a decoder).
    readout : {"mean", "last"}, default "mean"
        What the linear readout sees: ``"mean"``, the average of the
        outputs of all positions; ``"last"``, the output of the last
        position only, where a causal language model makes its prediction.
    token_std : float, default 1.0
        Standard deviation of the initial token embeddings. BERT and GPT-2
        start theirs at 0.02 and rescale every input with a LayerNorm; this
        model has no LayerNorm, so its tokens start at unit size directly.
        Weight matrices start from :math:`\\mathcal{N}(0, 1/d_{model})`.
    position_std : float, default 0.02
        Standard deviation of the initial position table (``"learned"``
        only): BERT's value (GPT-2 uses 0.01). Next to unit-size token
        embeddings, positions start almost silent, and rows that training
        never reaches stay close to zero.
    dtype : np.float32 or np.float64, default np.float64
        Precision of the parameters and of every computation with them
        (float32 trains as well, and faster). The initial values are drawn
        in float64 and rounded, so both start from the same model.
    seed : int, numpy.random.Generator, or sequence of int, default 0
        One seed: one model. A sequence of ``M`` seeds: a *stack* of ``M``
        models, trained side by side; every parameter gets a leading axis of
        length ``M``, and model ``m`` of the stack is exactly the model
        ``init_model(..., seed=seeds[m])``. Models of every scheme with
        the same seed and sizes start from the same ``E``, ``W_q``,
        ``W_k``, ``W_v`` and ``W_out`` (a scheme's own parameters, the
        learned table or T5's bias, are drawn last), so that schemes can be
        compared seed by seed.
    grid : (int, int), optional
        ``(height, width)`` of a grid of patches read row by row, for the
        schemes that place tokens on a grid (``"sinusoidal_2d"``,
        ``"rope_2d"``; chapter 8): token ``i`` is the patch in row
        ``i // width``, column ``i % width``, and sequences must have
        ``height * width`` tokens. Stored as ``model["grid"]``, which can be
        changed on a trained model: ``dict(model, grid=(6, 6))``.

    Returns
    -------
    dict
        ``{"scheme", "n_heads", "causal", "readout", "max_len",
        "n_models", "params"}``; ``n_models`` is ``None`` for a single
        model and ``M`` for a stack. ``params`` maps ``"E"`` (tokens),
        ``"P"`` (positions, ``"learned"`` only), ``"R"`` (T5's bias, one
        number per bucket and head, :math:`\\mathcal{N}(0, 1/d_{model})` as
        in Transformers' ``T5Attention``; ``"t5"`` only), ``"W_q"``,
        ``"W_k"``, ``"W_v"``, ``"W_out"`` and ``"b_out"`` to arrays. A scheme's own
        settings (RoPE's ``"inv_freq"`` and ``"attention_factor"``, see
        ``posenc.schemes``) and ``"grid"`` are keys of the dict too.

    Examples
    --------
    >>> model = init_model("learned", d_model=16, max_len=64)
    >>> {name: p.shape for name, p in model["params"].items()}
    {'E': (8, 16), 'P': (64, 16), 'W_q': (16, 16), 'W_k': (16, 16), 'W_v': (16, 16), 'W_out': (16, 2), 'b_out': (2,)}
    >>> stack = init_model("rope", seed=[0, 1, 2], dtype=np.float32)
    >>> stack["n_models"], stack["params"]["W_q"].shape, stack["params"]["W_q"].dtype
    (3, (3, 16, 16), dtype('float32'))
    >>> stack["inv_freq"]  # two pairs per head of width 4
    array([1.  , 0.01])
    """
    (scheme, vocab_size, n_classes, d_model, n_heads, max_len, causal, readout, token_std,
     position_std, dtype, seeds, grid) = _init_arguments(
        scheme, vocab_size, n_classes, d_model, n_heads, max_len, causal, readout, token_std,
        position_std, dtype, seed, grid)
    kind = SCHEMES[scheme]

    def draw(rng):  # the parameters of one model, in a fixed order
        E = init_table(vocab_size, d_model, std=token_std, seed=rng)
        W = {name: rng.normal(0.0, d_model**-0.5, size=(d_model, d_model))
             for name in ("W_q", "W_k", "W_v")}
        W_out = rng.normal(0.0, d_model**-0.5, size=(d_model, n_classes))
        params = {"E": E}  # the scheme's own parameters are drawn last: every scheme
        if kind.table:  # starts from the same E and W for a seed
            params["P"] = init_table(max_len, d_model, std=position_std, seed=rng)
        if kind.bias_table:
            params["R"] = rng.normal(0.0, d_model**-0.5, size=(n_heads, kind.bias_table))
        return {**params, **W, "W_out": W_out, "b_out": np.zeros(n_classes)}

    if seeds is None:  # one model
        params = {name: x.astype(dtype) for name, x in draw(_checks.rng(seed)).items()}
    else:  # a stack: model m is drawn exactly as init_model(..., seed=seeds[m])
        models = [draw(_checks.rng(s)) for s in seeds]
        params = {name: np.stack([m[name] for m in models]).astype(dtype) for name in models[0]}
    model = {"scheme": scheme, "n_heads": n_heads, "causal": causal, "readout": readout,
             "max_len": max_len, "n_models": None if seeds is None else len(seeds),
             "params": params, **(kind.settings(d_model, n_heads) if kind.settings else {})}
    if grid is not None:  # the grid of the 2-D schemes (chapter 8)
        model["grid"] = grid
    return model


def unstack(model):
    """The models of a stack, one by one: a list of single models.

    Parameters
    ----------
    model : dict
        A stack from :func:`init_model` or :func:`train` (``seed`` a
        sequence); a single model gives a list of itself.

    Returns
    -------
    list of dict
        Model ``m`` holds the parameters ``params[name][m]`` (views, not
        copies) and the stack's configuration.

    Examples
    --------
    >>> models = unstack(init_model("learned", seed=[4, 5]))
    >>> len(models), models[1]["params"]["P"].shape, models[1]["n_models"]
    (2, (64, 16), None)
    """
    _model(model)
    if model.get("n_models") is None:
        return [model]
    return [dict(model, n_models=None, params={name: x[m] for name, x in model["params"].items()})
            for m in range(model.get("n_models"))]


def forward(model, tokens):
    """Logits of the model for a batch of token sequences.

    Parameters
    ----------
    model : dict
        From :func:`init_model` or :func:`train`.
    tokens : array_like of int, shape ``(batch, n)``
        Token ids; all sequences of a batch have the same length ``n``. For
        a stack of ``M`` models: ``(batch, n)``, the same sequences for
        every model, or ``(M, batch, n)``, one batch per model.

    Returns
    -------
    numpy.ndarray of shape ``(batch, n_classes)``, or ``(M, batch, n_classes)`` for a stack

    Examples
    --------
    >>> model = init_model("sinusoidal")
    >>> tokens, labels = order_task(3, 5)
    >>> forward(model, tokens).shape
    (3, 2)
    >>> forward(init_model("alibi", seed=[0, 1]), tokens).shape  # a stack of two
    (2, 3, 2)
    """
    params, tokens = _inputs(model, tokens, batch=1)  # forward() runs a batch in pieces
    with np.errstate(all="ignore"):  # an overflow is reported just below, by name
        logits, _ = engine.forward(model, params, tokens, weights=False)
    _finite(model, logits)
    return _unstacked(model, logits)


def attention_weights(model, tokens):
    """The attention matrices of the model, one per sequence and head.

    Parameters
    ----------
    model : dict
    tokens : array_like of int, shape ``(batch, n)`` (or ``(M, batch, n)`` for a stack)

    Returns
    -------
    numpy.ndarray of shape ``(batch, n_heads, n, n)``, with a leading axis ``M`` for a stack
        Row ``i`` of head ``h`` holds how much query ``i`` takes from each
        key; rows sum to 1. (With ``readout="last"`` the model itself
        computes only the last row, the one its readout reads.)

    Examples
    --------
    >>> A = attention_weights(init_model("none"), [[2, 0, 3, 1]])
    >>> A.shape, bool(np.allclose(A.sum(axis=-1), 1))
    ((1, 4, 4, 4), True)
    """
    params, tokens = _inputs(model, tokens, all_rows=True)
    with np.errstate(all="ignore"):  # an overflow is reported just below, by name
        logits, cache = engine.forward(model, params, tokens, all_rows=True)
    _finite(model, logits)
    return _unstacked(model, cache["A"])


def accuracy(model, tokens, labels):
    """Fraction of sequences whose largest logit is the label.

    Parameters
    ----------
    model : dict
    tokens : array_like of int, shape ``(batch, n)`` (or ``(M, batch, n)`` for a stack)
    labels : array_like of int, shape ``(batch,)`` (or ``(M, batch)`` for a stack)

    Returns
    -------
    float, or numpy.ndarray of shape ``(M,)`` for a stack: one accuracy per model

    Examples
    --------
    Without positions the model cannot tell a sequence from its copy with
    ``A`` and ``B`` swapped, so it gets exactly one of each such pair right:

    >>> tokens, labels = order_task(500, 8)
    >>> swapped = np.where(tokens < 2, 1 - tokens, tokens)  # A <-> B
    >>> both, answers = np.concatenate([tokens, swapped]), np.concatenate([labels, 1 - labels])
    >>> accuracy(init_model("none"), both, answers)
    0.5
    >>> accuracy(init_model("none", seed=[0, 1, 2]), both, answers)
    array([0.5, 0.5, 0.5])
    """
    tokens, labels = _accuracy_arguments(model, tokens, labels)
    right = np.mean(forward(model, tokens).argmax(axis=-1) == labels, axis=-1)
    return float(right) if model.get("n_models") is None else right


# --- argument checks ------------------------------------------------------------


def _init_arguments(scheme, vocab_size, n_classes, d_model, n_heads, max_len, causal, readout,
                    token_std, position_std, dtype, seed, grid):
    """The arguments of :func:`init_model`, checked, in its order (``seed`` as its list of seeds, or None)."""
    scheme = _checks.choice("scheme", scheme, SCHEMES)
    vocab_size = _checks.positive_int("vocab_size", vocab_size)
    n_classes = _checks.integer("n_classes", n_classes, minimum=2)
    d_model = _checks.positive_int("d_model", d_model)
    n_heads = _checks.positive_int("n_heads", n_heads)
    max_len = _checks.positive_int("max_len", max_len)
    causal = _checks.boolean("causal", causal)
    readout = _checks.choice("readout", readout, READOUTS)
    token_std = _checks.real("token_std", token_std, positive=True)
    position_std = _checks.real("position_std", position_std, positive=True)
    if dtype is None:  # np.dtype(None) is float64: say so rather than guess
        raise TypeError("dtype must be np.float32 or np.float64, got None")
    dtype = _checks.float_dtype("dtype", dtype)
    if dtype not in (np.float32, np.float64):
        raise ValueError(
            f"dtype must be np.float32 or np.float64, got {dtype}: in float16 the model's "
            "training fails (Adam's squared gradients underflow to 0, and its scores and "
            "exponentials overflow past 65504)"
        )
    if d_model % n_heads:
        raise ValueError(f"n_heads must divide d_model, got n_heads={n_heads}, d_model={d_model}")
    seeds = _checks.seeds(seed, most=MAX_MODELS)
    kind = SCHEMES[scheme]
    models, copies = (1, 2) if seeds is None else (len(seeds), 3)  # drawn, (stacked,) converted
    rows = vocab_size + kind.table * max_len + 3 * d_model + n_classes  # of d_model numbers each
    _checks.entries(
        f"the parameters, {copies} copies (drawn in float64{', stacked' if seeds else ''}, converted) "
        f"of models * ((vocab_size{' + max_len' if kind.table else ''} + 3 * d_model + n_classes) * "
        f"d_model + n_classes{' + n_heads * buckets' if kind.bias_table else ''}) = {copies} * {models} "
        f"* (({vocab_size}{f' + {max_len}' if kind.table else ''} + 3 * {d_model} + {n_classes}) * "
        f"{d_model} + {n_classes}{f' + {n_heads} * {kind.bias_table}' if kind.bias_table else ''})",
        copies * models * (rows * d_model + n_classes + n_heads * kind.bias_table))
    if kind.settings:  # refuses a head width the scheme cannot use
        kind.settings(d_model, n_heads)
    grid = None if grid is None else _grid("grid", grid)
    return (scheme, vocab_size, n_classes, d_model, n_heads, max_len, causal, readout, token_std,
            position_std, dtype, seeds, grid)


def _model(model):
    """Check a model dict, in one place: the parameters with a leading model axis (views).

    A model from :func:`init_model` passes; so does one changed by hand
    (``dict(model, ...)``, as the chapters do) that is still a model. A
    single model is a stack of one.
    """
    if not isinstance(model, dict) or "params" not in model or "scheme" not in model:
        raise TypeError(f"model must be a dict from init_model or train, got {type(model).__name__}")
    scheme = SCHEMES[_checks.choice("model['scheme']", model["scheme"], SCHEMES)]
    params = model["params"]
    if not isinstance(params, dict):
        raise TypeError(f"model['params'] must be a dict of the model's arrays, got {_checks.show(params)}")
    names = ["E", *("P" * scheme.table), *("R" * bool(scheme.bias_table)),
             "W_q", "W_k", "W_v", "W_out", "b_out"]
    if set(params) != set(names):
        missing, extra = [n for n in names if n not in params], [n for n in params if n not in names]
        raise ValueError(
            f"model['params'] of a {model['scheme']!r} model must hold {names}"
            + (f"; it lacks {missing}" if missing else "") + (f"; it has {extra} too" if extra else "")
        )
    for name in names:
        x = params[name]
        if not (isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float64)):
            raise TypeError(f"model['params'][{name!r}] must be a float32 or float64 numpy array "
                            f"(see init_model's dtype), got {_checks.show(x)}")
        if not np.isfinite(x).all():
            raise ValueError(f"model['params'][{name!r}] must hold only finite numbers (no NaN or inf)")
    M = model.get("n_models")
    if M is not None:
        M = _checks.integer("model['n_models']", M, minimum=1, maximum=MAX_MODELS)
    lead = () if M is None else (M,)
    E, b_out = params["E"], params["b_out"]
    if E.ndim != len(lead) + 2 or E.shape[:len(lead)] != lead or b_out.ndim != len(lead) + 1:
        what = "a single model" if M is None else f"a stack of {M} models"
        raise ValueError(
            f"model['params']['E'] has shape {E.shape} and model['params']['b_out'] {b_out.shape}, "
            f"but model['n_models'] = {M} says {what}: the parameters need "
            f"{'no leading model axis' if M is None else f'a leading axis of length {M}'}"
        )
    n_heads = _checks.integer("model['n_heads']", model.get("n_heads"), minimum=1)
    d_model = E.shape[-1]
    if d_model % n_heads:
        raise ValueError(f"model['n_heads'] must divide d_model = {d_model}, got {n_heads}")
    shapes = {"P": (None, d_model), "R": (n_heads, scheme.bias_table), "W_q": (d_model, d_model),
              "W_k": (d_model, d_model), "W_v": (d_model, d_model),
              "W_out": (d_model, b_out.shape[-1]), "b_out": b_out.shape[-1:]}  # None: any rows
    for name in names[1:]:
        want, got = lead + shapes[name], params[name].shape
        if len(got) != len(want) or any(w not in (None, g) for w, g in zip(want, got)):
            raise ValueError(f"model['params'][{name!r}] must have shape "
                             f"{tuple('rows' if w is None else w for w in want)}, got {got}")
    _checks.boolean("model['causal']", model.get("causal"))
    _checks.choice("model['readout']", model.get("readout"), READOUTS)
    if scheme.settings:  # refuses a head width the scheme cannot use
        scheme.settings(d_model, n_heads)
    return params if M is not None else {name: x[None] for name, x in params.items()}


def _inputs(model, tokens, *, batch=None, all_rows=False):
    """The model's parameters (stacked) and the tokens, checked, and the size of the work capped.

    ``batch`` sequences are computed at once (all of them if ``None``;
    :func:`forward` runs one piece of the batch at a time).
    """
    params, tokens = _model(model), _tokens(model, tokens)
    sequences = tokens.shape[-2] if batch is None else batch
    formula, count = _work(model, sequences, tokens.shape[-1], all_rows)
    _checks.entries(f"tokens of shape {tokens.shape}, {sequences} sequence(s) at a time: {formula}", count)
    return params, tokens


def _work(model, sequences, n, all_rows=False):
    """How many numbers the engine holds at once for ``sequences`` sequences of ``n`` tokens: ``(formula, count)``.

    The queries, keys and values of every (position, token) pair, and their
    copy per head (``6 n V d`` per model); for each sequence, the scores and
    weights of every head (``2 H rows n``), its queries, keys, values and a
    gradient (``4 n d``), and its tokens one-hot in the backward pass (``n V``).
    """
    M, n_heads = model.get("n_models") or 1, model["n_heads"]
    vocab_size, d_model = model["params"]["E"].shape[-2:]
    rows = n if model["readout"] == "mean" or all_rows else 1  # of the attention, per head
    count = M * n * (6 * vocab_size * d_model + sequences * (2 * n_heads * rows + 4 * d_model + vocab_size))
    formula = (f"models * n * (6 * vocab_size * d_model + sequences * (2 * n_heads * rows + 4 * d_model "
               f"+ vocab_size)) = {M} * {_checks.show(n)} * (6 * {vocab_size} * {d_model} + "
               f"{_checks.show(sequences)} * (2 * {n_heads} * {_checks.show(rows)} + 4 * {d_model} + "
               f"{vocab_size}))")
    return formula, count


def _definition_arguments(model, tokens):
    """The tokens of :func:`forward_by_definition`, checked: one batch per model of a stack."""
    _, tokens = _inputs(model, tokens, all_rows=True)
    if model.get("n_models") is not None:
        tokens = np.broadcast_to(tokens, (model.get("n_models"), *tokens.shape[-2:]))
    return tokens


def _accuracy_arguments(model, tokens, labels):
    """The tokens and labels of :func:`accuracy`, checked."""
    params, tokens = _inputs(model, tokens, batch=1)
    shape = ((model.get("n_models"),) if model.get("n_models") is not None else ()) + tokens.shape[-2:-1]
    return tokens, _labels(labels, shape, model)


def _finite(model, *results):
    """Refuse results that overflowed (inf or NaN), naming what can make them so large."""
    if all(np.isfinite(x).all() for x in results):
        return
    largest = max(model["params"], key=lambda name: np.abs(model["params"][name]).max())
    settings = "".join(f", {key} = {_checks.show(model[key])}" for key in ("attention_factor", "inv_freq")
                       if key in model)
    raise ValueError(
        "the model's numbers overflow its dtype (inf or NaN): its parameters or settings are too "
        f"large (largest |entry|: {np.abs(model['params'][largest]).max():.3g}, in params[{largest!r}]"
        f"{settings})"
    )


def _unstacked(model, x):
    return x[0] if model.get("n_models") is None else x


def _tokens(model, tokens):
    """Token ids of shape (batch, n), or (M, batch, n) for a stack of M models."""
    M = model.get("n_models")
    tokens = _checks.array("tokens", tokens, dtype=None)
    if tokens.ndim != 2 and not (M is not None and tokens.ndim == 3 and len(tokens) == M):
        allowed = "2 dimensions, (batch, n)" + (
            "" if M is None else f", or 3, ({M}, batch, n): one batch per model")
        raise ValueError(f"tokens must have {allowed}; got shape {tokens.shape}")
    if tokens.dtype.kind not in "iu":
        raise TypeError(f"tokens must be integer token ids, got dtype {tokens.dtype}")
    if tokens.shape[-1] == 0:
        raise ValueError(
            f"tokens must hold at least one token per sequence, got shape {tokens.shape}"
        )
    if tokens.shape[-2] == 0:
        raise ValueError(f"tokens must hold at least one sequence, got shape {tokens.shape}")
    vocab_size = model["params"]["E"].shape[-2]
    if tokens.size and (tokens.min() < 0 or tokens.max() >= vocab_size):
        raise ValueError(
            f"tokens must lie in [0, {vocab_size}) (the token table has {vocab_size} rows), "
            f"got values from {tokens.min()} to {tokens.max()}"
        )
    n = tokens.shape[-1]
    if SCHEMES[model["scheme"]].table and n > model["params"]["P"].shape[-2]:
        rows = model["params"]["P"].shape[-2]
        raise ValueError(
            f"tokens has length {n}, but the learned position table has only "
            f"{rows} rows (max_len): there is no vector for position {rows}"
        )
    return tokens


def _labels(labels, shape, model):
    """Labels of shape ``shape`` (one per sequence, per model), or ``shape[-1:]`` shared by all."""
    value = labels
    try:
        labels = np.asarray(labels)
    except (TypeError, ValueError):  # a ragged list, for example
        labels = np.array(None)  # refused just below
    except Exception:  # noqa: BLE001 - its own __array__ failed: a TypeError naming labels
        labels = _checks.asarray("labels", value, "integers")
    n_classes = model["params"]["b_out"].shape[-1]
    if labels.shape not in (tuple(shape), tuple(shape[-1:])) or labels.dtype.kind not in "iu":
        raise ValueError(
            f"labels must be {shape[-1]} integers (one per sequence), got {_checks.show(value)}"
        )
    if labels.min() < 0 or labels.max() >= n_classes:
        raise ValueError(f"labels must lie in [0, {n_classes}), got {labels.min()}..{labels.max()}")
    return labels
