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

The scaling is described by a dictionary in the form of Hugging Face
Transformers' ``rope_scaling`` (``rope_parameters``) configuration, for
example ``{"rope_type": "yarn", "factor": 4.0,
"original_max_position_embeddings": 4096}``, and the arithmetic follows that
library's ``modeling_rope_utils`` step by step, so that the numbers agree
with the models it loads (``tests/unit/test_scaling.py`` checks them against
values computed with Transformers, the YaRN authors' code and Meta's
``apply_scaling``).
"""

from __future__ import annotations

import math

import numpy as np

from . import _checks

__all__ = ["rope_frequencies"]

ROPE_TYPES = ("default", "linear", "ntk", "dynamic", "yarn", "llama3")
"""The values of ``rope_type`` that :func:`rope_frequencies` understands."""

# For each type: the keys it needs, and the keys it may have.
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
    "yarn": ("beta_fast", "beta_slow", "attention_factor", "truncate"),
}


def rope_frequencies(head_dim, *, base=10000.0, scaling=None, seq_len=None):
    r"""RoPE's inverse frequencies, after a context-extension method.

    Without ``scaling`` this is the plain ladder
    :math:`\theta_i = \mathrm{base}^{-2i/d}`, :math:`i = 0, \dots, d/2 - 1`.
    With ``scaling`` (``rope_type`` and its keys, see the table) the
    frequencies are changed as the method prescribes:

    ============  =========================================================
    rope_type     :math:`\theta_i'` (and the attention factor, 1 if not
                  given)
    ============  =========================================================
    ``default``   :math:`\theta_i`
    ``linear``    :math:`\theta_i / s`
    ``ntk``       :math:`(b\,s^{d/(d-2)})^{-2i/d}`
    ``dynamic``   as ``ntk`` with :math:`s` replaced by
                  :math:`s\,\ell/L - (s-1)`, :math:`\ell =
                  \max(\text{seq\_len}, L)`
    ``yarn``      :math:`(1 - \gamma_i)\,\theta_i/s + \gamma_i\,\theta_i`,
                  :math:`\gamma_i` a ramp from 1 (fast pairs) to 0 (slow);
                  attention factor :math:`0.1 \ln s + 1`
    ``llama3``    :math:`\theta_i` if :math:`\lambda_i < L/h`,
                  :math:`\theta_i/s` if :math:`\lambda_i > L/l`, else
                  :math:`(1-\sigma)\,\theta_i/s + \sigma\,\theta_i` with
                  :math:`\sigma = (L/\lambda_i - l)/(h - l)`
    ============  =========================================================

    Here :math:`s` is ``factor``, :math:`b` is ``base``, :math:`d` is
    ``head_dim``, :math:`L` is ``original_max_position_embeddings`` (the
    pretraining context), :math:`\lambda_i = 2\pi/\theta_i` and :math:`l, h`
    are ``low_freq_factor`` and ``high_freq_factor``.

    Parameters
    ----------
    head_dim : int
        Width of one attention head, even, at least 2 (at least 4 for
        ``ntk`` and ``dynamic``, whose exponent is :math:`d/(d-2)`).
    base : float, default 10000.0
        The base of the ladder (``rope_theta`` in Hugging Face configs);
        must be greater than 1, so that the frequencies decrease.
    scaling : dict or None, default None
        ``None`` or a dictionary with a ``"rope_type"`` (``"type"`` is read
        too, as older configs write it) and the keys that type takes:

        * ``linear``, ``ntk``: ``factor``;
        * ``dynamic``: ``factor``, ``original_max_position_embeddings``;
        * ``yarn``: ``factor``, ``original_max_position_embeddings``;
          optional ``beta_fast`` (default 32), ``beta_slow`` (default 1),
          ``attention_factor`` (default :math:`0.1 \ln s + 1`) and
          ``truncate`` (default True: round the ramp's ends outwards to
          whole pair indices, as the YaRN paper's code does);
        * ``llama3``: ``factor``, ``original_max_position_embeddings``,
          ``low_freq_factor``, ``high_freq_factor``.

        ``factor`` must be at least 1. In Hugging Face's ``dynamic`` type
        the pretraining context is the model's ``max_position_embeddings``;
        here it is the key ``original_max_position_embeddings``.
    seq_len : int, optional
        The current sequence length, used by ``dynamic`` only (as in
        Hugging Face Transformers, the other types ignore it). ``None``
        means the pretraining context, where ``dynamic`` changes nothing.

    Returns
    -------
    inv_freq : numpy.ndarray of shape (head_dim // 2,)
        The frequencies :math:`\theta_i'`, in radians per position, pair 0
        (the fastest) first. Pass them to :func:`posenc.rope` as
        ``inv_freq``.
    attention_factor : float
        The factor by which Hugging Face multiplies both ``cos`` and
        ``sin`` (so both queries and keys): the attention logits grow by its
        square. 1.0 except for ``yarn``.

    Raises
    ------
    TypeError
        If ``head_dim`` or ``seq_len`` is not an integer, ``base`` or a
        numeric key is not a real number, ``scaling`` is not a dict, or
        ``truncate`` is not a bool.
    ValueError
        If ``head_dim`` is odd or too small, ``base <= 1``, ``rope_type`` is
        missing or unknown, a required key is missing, a key is not one the
        type takes, ``factor < 1``, or the band limits are out of order
        (``beta_fast <= beta_slow``, ``high_freq_factor <= low_freq_factor``).

    Notes
    -----
    The arithmetic is that of ``transformers.modeling_rope_utils`` (the
    functions of ``ROPE_INIT_FUNCTIONS``), in float64; Transformers works
    in float32, so the two agree to about :math:`10^{-7}` relative.
    ``ntk`` is not a type of Transformers: it is the fixed NTK-aware base of
    bloc97's post, as in the YaRN repository's
    ``LlamaNTKScaledRotaryEmbedding``.

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
    """
    head_dim = _checks.positive_int("head_dim", head_dim)
    if head_dim % 2:
        raise ValueError(f"head_dim must be even (RoPE rotates pairs), got {head_dim}")
    base = _checks.real("base", base, greater_than=1)
    if seq_len is not None:
        seq_len = _checks.positive_int("seq_len", seq_len)
    params = _parameters(scaling)
    rope_type = params.pop("rope_type")

    d = head_dim
    inv_freq = base ** (-np.arange(0, d, 2) / d)  # theta_i = base^(-2i/d)
    if rope_type == "default":
        return inv_freq, 1.0

    factor = _real_key(params, "factor", rope_type, minimum=1.0)
    if rope_type == "linear":
        return inv_freq / factor, 1.0

    if rope_type in ("ntk", "dynamic"):
        if d < 4:
            raise ValueError(
                f"head_dim must be at least 4 for rope_type {rope_type!r} (the base "
                f"is raised to the power d/(d-2)), got {d}")
        if rope_type == "dynamic":
            original = _int_key(params, "original_max_position_embeddings", rope_type)
            length = original if seq_len is None else max(seq_len, original)
            factor = factor * length / original - (factor - 1)
        new_base = base * factor ** (d / (d - 2))
        return new_base ** (-np.arange(0, d, 2) / d), 1.0

    original = _int_key(params, "original_max_position_embeddings", rope_type)
    if rope_type == "yarn":
        return _yarn(inv_freq, base, d, factor, original, params)
    return _llama3(inv_freq, factor, original, params), 1.0


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
    if "attention_factor" in params:
        attention_factor = _real_key(params, "attention_factor", "yarn", positive=True)
    else:
        attention_factor = 0.1 * math.log(factor) + 1.0 if factor > 1 else 1.0

    def pair_index(rotations):
        # the (fractional) pair i whose wavelength 2 pi base^(2i/d) fits
        # `rotations` times into the pretraining context
        return d * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))

    low, high = pair_index(beta_fast), pair_index(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d - 1)  # (d - 1, not d/2 - 1: as the references)
    if low == high:
        high += 0.001  # as the references: avoid dividing by zero
    ramp = np.clip((np.arange(d // 2) - low) / (high - low), 0.0, 1.0)
    keep = 1.0 - ramp  # gamma_i: 1 for fast pairs (kept), 0 for slow ones
    return inv_freq / factor * (1.0 - keep) + inv_freq * keep, attention_factor


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
    smooth = (original / wavelength - low) / (high - low)
    blend = (1 - smooth) * scaled / factor + smooth * scaled
    middle = (wavelength >= short_edge) & (wavelength <= long_edge)
    return np.where(middle, blend, scaled)


def _parameters(scaling):
    """Check the scaling dict: a known type, its required keys, no others."""
    if scaling is None:
        return {"rope_type": "default"}
    if not isinstance(scaling, dict):
        raise TypeError(
            f"scaling must be None or a dict such as {{'rope_type': 'linear', 'factor': 2.0}}, "
            f"got {type(scaling).__name__}")
    params = dict(scaling)
    if "rope_type" not in params and "type" in params:  # the older spelling
        params["rope_type"] = params.pop("type")
    if "rope_type" not in params:
        raise ValueError(
            "rope_scaling key 'rope_type' is missing; it must be one of "
            + ", ".join(repr(t) for t in ROPE_TYPES))
    rope_type = params["rope_type"]
    if not isinstance(rope_type, str) or rope_type not in ROPE_TYPES:
        raise ValueError(
            f"rope_scaling key 'rope_type' must be one of "
            f"{', '.join(repr(t) for t in ROPE_TYPES)}; got {rope_type!r}")
    required = _REQUIRED[rope_type]
    allowed = {"rope_type", *required, *_OPTIONAL.get(rope_type, ())}
    for key in required:
        if key not in params:
            raise ValueError(
                f"rope_scaling key {key!r} is missing: rope_type {rope_type!r} needs "
                f"{', '.join(repr(k) for k in required)}")
    for key in params:
        if key not in allowed:
            hint = " (pass the base as the argument base)" if key == "rope_theta" else ""
            raise ValueError(
                f"rope_scaling key {key!r} is not used by rope_type {rope_type!r}{hint}; "
                f"its keys are {', '.join(repr(k) for k in sorted(allowed))}")
    return params


def _real_key(params, key, rope_type, *, default=None, minimum=None, positive=False):
    value = params.get(key, default)
    name = f"rope_scaling key {key!r}"
    value = _checks.real(name, value, positive=positive)
    if minimum is not None and value < minimum:
        raise ValueError(
            f"{name} must be at least {minimum:g} for rope_type {rope_type!r} "
            f"(a factor below 1 would shrink the context), got {value}")
    return value


def _int_key(params, key, rope_type):
    return _checks.positive_int(f"rope_scaling key {key!r}", params[key])
