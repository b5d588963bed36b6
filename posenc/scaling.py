r"""Stretching RoPE past its training length: the frequencies of each method.

A model trained with RoPE on sequences of at most :math:`L` tokens has seen
every pair turn only through the angles :math:`m\,\theta_i` with
:math:`m < L`. To run it on longer inputs, the methods below change the
frequencies :math:`\theta_i` (and sometimes the size of the attention
logits), each in its own way. With :math:`s` the scale factor (the new
context divided by :math:`L`) and :math:`d` the head width:

* ``"linear"``, position interpolation (Chen et al., 2023):
  :math:`\theta_i' = \theta_i / s` for every pair;
* ``"ntk"``, NTK-aware scaling (bloc97, 2023): a larger base,
  :math:`b' = b\, s^{d/(d-2)}`, which leaves the fastest pair alone and
  divides the slowest exactly by :math:`s`;
* ``"dynamic"``, dynamic NTK: the same with the scale recomputed from the
  current length :math:`\ell`, :math:`s(\ell) = s\,\ell/L - (s - 1)`, and no
  change at all while :math:`\ell \le L`;
* ``"yarn"`` (Peng et al., 2023): pairs that turn more than ``beta_fast``
  times in :math:`L` positions keep their frequency, pairs that turn fewer
  than ``beta_slow`` times are interpolated, a linear ramp in between; the
  logits are multiplied by :math:`(0.1 \ln s + 1)^2`;
* ``"llama3"`` (Llama 3.1, Dubey et al., 2024): the same idea with the
  bands set by wavelength, :math:`\lambda < L/\text{high\_freq\_factor}` kept,
  :math:`\lambda > L/\text{low\_freq\_factor}` divided by :math:`s`, a smooth
  blend in :math:`L/\lambda` between.

The scaling is described by a dictionary in the form that Hugging Face
Transformers keeps: a model's ``rope_scaling`` (``config.json``, Transformers
4) or its ``config.rope_parameters`` (Transformers 5), for example
``{"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings":
4096}``. The arithmetic follows that library's ``modeling_rope_utils`` step by
step, so that the numbers agree with the models it loads.
``tests/unit/test_scaling.py`` checks them against values computed with
Transformers 5.24.0, the YaRN authors' code and Meta's ``apply_scaling``
(tests/fixtures/rope_scaling_reference.json records the versions).
"""

from __future__ import annotations

import math

import numpy as np

from . import _checks
from .sinusoidal import frequencies

__all__ = ["rope_frequencies"]

ROPE_TYPES = ("default", "linear", "ntk", "dynamic", "yarn", "llama3")
"""The values of ``rope_type`` that :func:`rope_frequencies` understands."""

MAX_HEAD_DIM = 2**16
"""The widest head :func:`rope_frequencies` accepts (models use 64 to 256)."""

MAX_LENGTH = 2**53
"""The longest ``seq_len`` or context: float64 holds every integer up to it."""

RELATIVE_TOLERANCE = 5e-6
"""How closely the frequencies agree with the reference implementations
in tests/fixtures/rope_scaling_reference.json (factors up to 64).

They compute in float32, posenc in float64. Float32 rounds each operation
by up to :math:`2^{-24} \\approx 6 \\times 10^{-8}` (relative); over the few
operations of a method that stays below :math:`5 \\times 10^{-7}`, except in
the two blends, YaRN's and Llama 3.1's, :math:`(1 - w)\\,\\theta/s + w\\,\\theta`:
float32 computes the weight :math:`w` to about :math:`10^{-7}`, and where
:math:`w` is small that error is multiplied by up to :math:`s`. The bound
that holds for them grows with the factor, :math:`2 \\times 10^{-7}\\, s`
(tests/unit/test_scaling.py, on 288 settings): 7.4e-6 for YaRN at ``factor``
128, more than this constant. The same Transformers functions run in float64
agree with posenc to :math:`10^{-14}`.
"""

# For each type: the keys it needs, and the keys it may have (besides
# rope_type, type and rope_theta, which every type may have).
_REQUIRED = {
    "default": (),
    "linear": ("factor",),
    "ntk": ("factor",),
    "dynamic": ("factor", "original_max_position_embeddings"),
    "yarn": ("factor", "original_max_position_embeddings"),
    "llama3": ("factor", "original_max_position_embeddings",
               "low_freq_factor", "high_freq_factor"),
}
_OPTIONAL = {
    "yarn": ("beta_fast", "beta_slow", "attention_factor", "mscale", "mscale_all_dim",
             "truncate"),
}
_HINTS = {
    "partial_rotary_factor": " (posenc rotates the whole head: pass the rotated width, "
                             "int(head_dim * partial_rotary_factor), as head_dim)",
}


def rope_frequencies(head_dim, *, base=None, scaling=None, seq_len=None):
    r"""RoPE's inverse frequencies, after a context-extension method.

    Without ``scaling`` this is the plain ladder
    :math:`\theta_i = \mathrm{base}^{-2i/d}`, :math:`i = 0, \dots, d/2 - 1`
    (:func:`posenc.frequencies`). With ``scaling`` (``rope_type`` and its
    keys, see the table) the frequencies are changed as the method
    prescribes:

    ============  =========================================================
    rope_type     :math:`\theta_i'` (and the attention factor, 1 if not
                  given)
    ============  =========================================================
    ``default``   :math:`\theta_i`
    ``linear``    :math:`\theta_i / s`
    ``ntk``       :math:`(b\,s^{d/(d-2)})^{-2i/d}`
    ``dynamic``   as ``ntk`` with :math:`s` replaced by
                  :math:`s\,\ell/L - (s-1)` if :math:`\ell > L`;
                  :math:`\theta_i` if :math:`\ell \le L`
    ``yarn``      :math:`(1 - \gamma_i)\,\theta_i/s + \gamma_i\,\theta_i`,
                  :math:`\gamma_i` a ramp from 1 (fast pairs, kept) to 0
                  (slow pairs, divided by :math:`s`); attention factor
                  :math:`0.1 \ln s + 1`
    ``llama3``    :math:`\theta_i` if :math:`\lambda_i < L/h`,
                  :math:`\theta_i/s` if :math:`\lambda_i > L/l`, else
                  :math:`(1-\sigma)\,\theta_i/s + \sigma\,\theta_i` with
                  :math:`\sigma = (L/\lambda_i - l)/(h - l)`
    ============  =========================================================

    Here :math:`s` is ``factor``, :math:`b` is ``base``, :math:`d` is
    ``head_dim``, :math:`L` is ``original_max_position_embeddings`` (the
    pretraining context), :math:`\ell` is ``seq_len``,
    :math:`\lambda_i = 2\pi/\theta_i` and :math:`l, h` are
    ``low_freq_factor`` and ``high_freq_factor``.

    Parameters
    ----------
    head_dim : int
        Width of one attention head, even, from 2 to ``MAX_HEAD_DIM``
        (65536); at least 4 for ``ntk`` and ``dynamic``, whose exponent is
        :math:`d/(d-2)`.
    base : float, optional
        The base of the ladder, greater than 1. By default the dict's
        ``rope_theta`` if it has one, else 10000.0. Given together with a
        ``rope_theta``, the two must be equal.
    scaling : dict or None, default None
        ``None``, or a dict as Transformers keeps it: ``rope_type`` (or the
        older ``type``, or both if they agree), an optional ``rope_theta``,
        and the keys of the type:

        * ``linear``, ``ntk``: ``factor``;
        * ``dynamic``: ``factor``, ``original_max_position_embeddings``
          (Transformers takes this one from the model's
          ``max_position_embeddings``; put that number in the dict);
        * ``yarn``: ``factor``, ``original_max_position_embeddings``;
          optional ``beta_fast`` (default 32), ``beta_slow`` (default 1),
          ``truncate`` (default True: round the ramp's ends outwards to
          whole pair indices, as the YaRN paper's code does), and for the
          attention factor either ``attention_factor`` itself or
          ``mscale`` and ``mscale_all_dim`` (DeepSeek's configs), which
          give :math:`g(s, \text{mscale}) / g(s, \text{mscale\_all\_dim})`
          with :math:`g(s, m) = 0.1\,m \ln s + 1`, as in Transformers, when
          both are nonzero;
        * ``llama3``: ``factor``, ``original_max_position_embeddings``,
          ``low_freq_factor``, ``high_freq_factor``.

        ``factor`` must be at least 1.
    seq_len : int, optional
        The current sequence length, from 1 to ``MAX_LENGTH``, used by
        ``dynamic`` only (as in Transformers, the other types ignore it).
        ``None`` means the pretraining context, where ``dynamic`` changes
        nothing.

    Returns
    -------
    inv_freq : numpy.ndarray of shape (head_dim // 2,)
        The frequencies :math:`\theta_i'`, in radians per position, pair 0
        (the fastest) first. Pass them to :func:`posenc.rope` as
        ``inv_freq``.
    attention_factor : float
        The factor by which Transformers multiplies both ``cos`` and
        ``sin`` (so both queries and keys): the attention logits grow by its
        square. 1.0 except for ``yarn``.

    Notes
    -----
    The arithmetic is that of ``transformers.modeling_rope_utils`` (the
    functions of ``ROPE_INIT_FUNCTIONS``), in float64; Transformers works
    in float32, and the two agree to 5e-7 relative, and to ``2e-7 * factor``
    in YaRN's and Llama 3.1's blends (``RELATIVE_TOLERANCE``'s docstring says
    where the float32 error comes from). ``ntk`` is not
    a type of Transformers: it is the fixed NTK-aware base of bloc97's post,
    as in the YaRN repository's ``LlamaNTKScaledRotaryEmbedding``. A setting
    whose base or frequencies would overflow or underflow float64 is
    refused by name, as is a ``beta`` too extreme to place on the ladder.

    DeepSeek's attention (Transformers' ``DeepseekV3Attention``) multiplies
    its softmax scale by :math:`g(s, \text{mscale\_all\_dim})^2` on top of
    the factor returned here, so that its logits grow by
    :math:`g(s, \text{mscale})^2` in all.

    Examples
    --------
    >>> inv_freq, attention_factor = rope_frequencies(4)
    >>> inv_freq
    array([1.  , 0.01])
    >>> rope_frequencies(4, scaling={"rope_type": "linear", "factor": 4})[0]
    array([0.25  , 0.0025])
    >>> inv_freq, attention_factor = rope_frequencies(
    ...     4, scaling={"rope_type": "ntk", "factor": 4})
    >>> inv_freq  # the fast pair is kept, the slow one divided by 4
    array([1.    , 0.0025])
    >>> yarn = {"rope_type": "yarn", "factor": 4,
    ...         "original_max_position_embeddings": 4096}
    >>> round(rope_frequencies(128, scaling=yarn)[1], 4)
    1.1386

    A Transformers 5 ``config.rope_parameters`` carries its base:

    >>> rope_frequencies(4, scaling={"rope_type": "default",
    ...                              "rope_theta": 100.0})[0]
    array([1. , 0.1])
    """
    head_dim = _checks.positive_int("head_dim", head_dim)
    if head_dim % 2:
        raise ValueError(f"head_dim must be even (RoPE rotates pairs), got {head_dim}")
    if head_dim > MAX_HEAD_DIM:
        raise ValueError(f"head_dim must be at most {MAX_HEAD_DIM} (models use heads of 64 "
                         f"to 256), got {_checks.show(head_dim)}")
    if seq_len is not None:
        seq_len = _length("seq_len", seq_len)
    params = _parameters(scaling)
    rope_type = params.pop("rope_type")
    base = _base(base, params.pop("rope_theta", None))

    d = head_dim
    inv_freq = frequencies(d, base=base)  # theta_i = base^(-2i/d)
    if rope_type == "default":
        return inv_freq, 1.0

    factor = _real_key(params, "factor", rope_type, minimum=1.0)
    if rope_type == "linear":
        return _finite(inv_freq / factor, "factor"), 1.0

    if rope_type in ("ntk", "dynamic"):
        if d < 4:
            raise ValueError(
                f"head_dim must be at least 4 for rope_type {rope_type!r} (the base "
                f"is raised to the power d/(d-2)), got {d}")
        if rope_type == "dynamic":
            original = _length("rope_scaling key 'original_max_position_embeddings'",
                               params["original_max_position_embeddings"])
            if seq_len is None or seq_len <= original:
                return inv_freq, 1.0  # within the pretraining context: no change at all
            # s l / L - (s - 1), written so that a large s cannot cancel
            factor = 1.0 + factor * ((seq_len - original) / original)
        return _ntk(d, base, factor), 1.0

    original = _length("rope_scaling key 'original_max_position_embeddings'",
                       params["original_max_position_embeddings"])
    if rope_type == "yarn":
        return _yarn(inv_freq, base, d, factor, original, params)
    return _llama3(inv_freq, factor, original, params), 1.0


def _ntk(d, base, scale):
    """The ladder of the NTK-aware base b s^(d/(d-2))."""
    try:
        new_base = base * scale ** (d / (d - 2))
    except OverflowError:
        new_base = math.inf
    if not math.isfinite(new_base):
        raise ValueError(
            f"rope_scaling key 'factor' is too large: the new base b * s**(d/(d-2)) "
            f"overflows float64 (scale s = {scale:g}, base b = {base:g}, d = {d})")
    return frequencies(d, base=new_base)


def _yarn(inv_freq, base, d, factor, original, params):
    """YaRN's frequencies and attention factor (``_compute_yarn_parameters``)."""
    beta_fast = _real_key(params, "beta_fast", "yarn", default=32.0, positive=True)
    beta_slow = _real_key(params, "beta_slow", "yarn", default=1.0, positive=True)
    if beta_fast <= beta_slow:
        raise ValueError(
            f"rope_scaling key 'beta_fast' must be greater than 'beta_slow' (fast pairs "
            f"turn more often), got beta_fast={beta_fast} and beta_slow={beta_slow}")
    truncate = params.get("truncate", True)
    if not isinstance(truncate, (bool, np.bool_)):
        raise TypeError(f"rope_scaling key 'truncate' must be True or False, got {truncate!r}")

    def pair_index(key, rotations):
        # the (fractional) pair i whose wavelength 2 pi base^(2i/d) fits
        # `rotations` times into the pretraining context
        ratio = original / (rotations * 2 * math.pi)
        if not 0 < ratio < math.inf:
            raise ValueError(
                f"rope_scaling key {key!r} is out of range: the wavelength that fits "
                f"{rotations:g} times into {original} positions is not a positive float64")
        return d * math.log(ratio) / (2 * math.log(base))

    low, high = pair_index("beta_fast", beta_fast), pair_index("beta_slow", beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    # clamped as the references do (to d - 1, not d/2 - 1)
    low, high = float(max(low, 0)), float(min(high, d - 1))
    if low == high:
        high += 0.001  # as the references: avoid dividing by zero
    ramp = np.clip((np.arange(d // 2) - low) / (high - low), 0.0, 1.0)
    # gamma_i, the paper's ramp: 1 for fast pairs (kept), 0 for slow ones
    # (divided by s); the references' linear_ramp_factor is 1 - gamma_i
    gamma = 1.0 - ramp
    inv_freq = _finite(inv_freq / factor * (1.0 - gamma) + inv_freq * gamma, "factor")
    return inv_freq, _yarn_attention_factor(factor, params)


def _yarn_attention_factor(factor, params):
    """``attention_factor``, or g(s, mscale) / g(s, mscale_all_dim), or g(s, 1)."""
    if "attention_factor" in params:
        return _real_key(params, "attention_factor", "yarn", positive=True)
    mscale = _real_key(params, "mscale", "yarn", default=0.0, at_least=0.0)
    mscale_all_dim = _real_key(params, "mscale_all_dim", "yarn", default=0.0, at_least=0.0)

    def g(m):  # get_mscale of Transformers and of the YaRN paper's code
        return 1.0 if factor <= 1 else 0.1 * m * math.log(factor) + 1.0

    if mscale and mscale_all_dim:  # as Transformers: only when both are nonzero
        attention_factor = g(mscale) / g(mscale_all_dim)
        if not 0 < attention_factor < math.inf:
            raise ValueError(
                f"rope_scaling keys 'mscale' and 'mscale_all_dim' are too large: they give "
                f"an attention factor of {attention_factor}")
        return attention_factor
    return g(1.0)


def _llama3(inv_freq, factor, original, params):
    """Llama 3.1's frequencies (Meta's ``apply_scaling``)."""
    low = _real_key(params, "low_freq_factor", "llama3", positive=True)
    high = _real_key(params, "high_freq_factor", "llama3", positive=True)
    if high <= low:
        raise ValueError(
            f"rope_scaling key 'high_freq_factor' must be greater than 'low_freq_factor', "
            f"got high_freq_factor={high} and low_freq_factor={low}")
    wavelength = 2 * math.pi / inv_freq
    long_edge, short_edge = original / low, original / high  # 8192 and 2048 in Llama 3.1
    scaled = np.where(wavelength > long_edge, inv_freq / factor, inv_freq)
    middle = (wavelength >= short_edge) & (wavelength <= long_edge)
    with np.errstate(over="ignore", invalid="ignore"):  # outside the middle band: unused
        smooth = (original / wavelength - low) / (high - low)
        blend = (1 - smooth) * scaled / factor + smooth * scaled
    return _finite(np.where(middle, blend, scaled), "factor")


def _finite(inv_freq, key):
    """The frequencies, if every one is a positive normal float64; else a ValueError."""
    if not np.all((inv_freq >= np.finfo(np.float64).tiny) & (inv_freq < np.inf)):
        raise ValueError(
            f"rope_scaling key {key!r} is too large: some frequencies underflow float64 "
            f"(the smallest is {inv_freq.min():.3g})")
    return inv_freq


def _base(base, rope_theta):
    """The base: the argument, or the dict's rope_theta, or 10000; never two that differ."""
    if rope_theta is not None:
        rope_theta = _checks.real("rope_scaling key 'rope_theta'", rope_theta, greater_than=1)
    if base is None:
        return 10000.0 if rope_theta is None else rope_theta
    base = _checks.real("base", base)
    if rope_theta is not None and base != rope_theta:
        raise ValueError(
            f"base={base} disagrees with rope_scaling key 'rope_theta'={rope_theta}; "
            f"give the base once (leave base out to use rope_theta)")
    return base


def _length(name, value):
    return _checks.integer(name, value, minimum=1, maximum=MAX_LENGTH)


def _parameters(scaling):
    """Check the scaling dict: a known type, its required keys, no others."""
    if scaling is None:
        return {"rope_type": "default"}
    if not isinstance(scaling, dict):
        raise TypeError(
            f"scaling must be None or a dict such as {{'rope_type': 'linear', 'factor': 2.0}}, "
            f"got {type(scaling).__name__}")
    params = dict(scaling)
    if "type" in params:  # the older spelling; Transformers' configs may keep both
        old = params.pop("type")
        if "rope_type" in params and not (isinstance(old, str) and old == params["rope_type"]):
            raise ValueError(
                f"rope_scaling keys 'type' and 'rope_type' disagree: {_checks.show(old)} "
                f"and {_checks.show(params['rope_type'])}; keep one of them")
        params.setdefault("rope_type", old)
    if "rope_type" not in params:
        raise ValueError(
            "rope_scaling key 'rope_type' is missing; it must be one of "
            + ", ".join(repr(t) for t in ROPE_TYPES))
    rope_type = params["rope_type"]
    if not isinstance(rope_type, str) or rope_type not in ROPE_TYPES:
        raise ValueError(
            f"rope_scaling key 'rope_type' must be one of "
            f"{', '.join(repr(t) for t in ROPE_TYPES)}; got {_checks.show(rope_type)}")
    required = _REQUIRED[rope_type]
    allowed = {"rope_type", "rope_theta", *required, *_OPTIONAL.get(rope_type, ())}
    for key in required:
        if key not in params:
            hint = ""
            if rope_type == "dynamic" and key == "original_max_position_embeddings":
                hint = ("; Transformers takes it from the model config's "
                        "max_position_embeddings: add that number to the dict under this key")
            raise ValueError(
                f"rope_scaling key {key!r} is missing: rope_type {rope_type!r} needs "
                f"{', '.join(repr(k) for k in required)}{hint}")
    for key in params:
        if key not in allowed:
            hint = _HINTS.get(key, "") if isinstance(key, str) else ""
            raise ValueError(
                f"rope_scaling key {_checks.show(key)} is not used by rope_type "
                f"{rope_type!r}{hint}; its keys are {', '.join(repr(k) for k in sorted(allowed))}")
    return params


def _real_key(params, key, rope_type, *, default=None, minimum=None, positive=False,
              at_least=None):
    value = params.get(key, default)
    name = f"rope_scaling key {key!r}"
    value = _checks.real(name, value, positive=positive, at_least=at_least)
    if minimum is not None and value < minimum:
        raise ValueError(
            f"{name} must be at least {minimum:g} for rope_type {rope_type!r} "
            f"(a factor below 1 would shrink the context), got {value}")
    return value
