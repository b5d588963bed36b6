r"""RoPE's frequencies as real models set them: context extension, partial and 2-D rotary.

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
  blend in :math:`L/\lambda` between;
* ``"longrope"`` (Phi-3, Ding et al., 2024): one searched factor per pair,
  ``short_factor`` up to :math:`L` and ``long_factor`` past it.

Two more types are not about length: ``"proportional"`` (Gemma 4) rotates a
fraction of each head and gives the other pairs the frequency 0, and
``"axial"`` is the 2-D RoPE of vision towers, the frequencies of half the
head width, which :func:`posenc.rope_2d` turns by the column and the row.

The settings are a dictionary in the form that Hugging Face Transformers
keeps: a model's ``rope_scaling`` (``config.json``, Transformers 4) or its
``config.rope_parameters`` (Transformers 5), for example ``{"rope_type":
"yarn", "factor": 4.0, "original_max_position_embeddings": 4096}``. Each
``rope_type`` is one entry of ``posenc.scaling.ROPE_TYPES``, as in Transformers'
``ROPE_INIT_FUNCTIONS``: the function that computes it, the keys it needs
and the keys it may have. The arithmetic follows Transformers'
``modeling_rope_utils`` step by step, so that the numbers agree with the
models it loads. ``tests/unit/test_scaling.py`` checks them against values
computed with Transformers 5.24.0, the YaRN authors' code and Meta's
``apply_scaling`` (tests/fixtures/rope_scaling_reference.json), and against
the ``inv_freq`` of every configuration class of Transformers 5.24.0 at its
defaults (tests/fixtures/models_reference.json; both record the versions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import _checks
from .sinusoidal import frequencies

__all__ = ["rope_frequencies"]

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


def rope_frequencies(head_dim, *, base=None, scaling=None, seq_len=None):
    r"""RoPE's inverse frequencies, as a model's ``rope_parameters`` set them.

    Without ``scaling`` this is the plain ladder
    :math:`\theta_i = \mathrm{base}^{-2i/d}`, :math:`i = 0, \dots, d/2 - 1`
    (:func:`posenc.frequencies`). With ``scaling`` (``rope_type`` and its
    keys, see the table) the frequencies are changed as the method
    prescribes:

    ================  =====================================================
    rope_type         :math:`\theta_i'` (and the attention factor, 1 if
                      not given)
    ================  =====================================================
    ``default``       :math:`\theta_i`
    ``linear``        :math:`\theta_i / s`
    ``ntk``           :math:`(b\,s^{d/(d-2)})^{-2i/d}`
    ``dynamic``       as ``ntk`` with :math:`s` replaced by
                      :math:`s\,\ell/L - (s-1)` if :math:`\ell > L`;
                      :math:`\theta_i` if :math:`\ell \le L`
    ``yarn``          :math:`(1 - \gamma_i)\,\theta_i/s + \gamma_i\,\theta_i`,
                      :math:`\gamma_i` a ramp from 1 (fast pairs, kept) to 0
                      (slow pairs, divided by :math:`s`); attention factor
                      :math:`0.1 \ln s + 1`
    ``llama3``        :math:`\theta_i` if :math:`\lambda_i < L/h`,
                      :math:`\theta_i/s` if :math:`\lambda_i > L/l`, else
                      :math:`(1-\sigma)\,\theta_i/s + \sigma\,\theta_i` with
                      :math:`\sigma = (L/\lambda_i - l)/(h - l)`
    ``longrope``      :math:`\theta_i / f_i`, :math:`f` the ``short_factor``
                      if :math:`\ell \le L`, the ``long_factor`` past it;
                      attention factor
                      :math:`\sqrt{1 + \ln s / \ln L}`
    ``proportional``  :math:`b^{-2i/D} / s` for the :math:`pD/2` rotated
                      pairs, 0 for the others (:math:`D` = ``head_dim``)
    ``axial``         :math:`b^{-4i/d}`, :math:`i < d/4`: the ladder of
                      half the head, for each axis of a 2-D grid
    ================  =====================================================

    Here :math:`s` is ``factor``, :math:`b` is ``base``, :math:`d` is the
    rotated width (``head_dim``, or ``int(head_dim * partial_rotary_factor)``),
    :math:`L` is ``original_max_position_embeddings`` (the pretraining
    context), :math:`\ell` is ``seq_len``, :math:`\lambda_i = 2\pi/\theta_i`,
    :math:`l, h` are ``low_freq_factor`` and ``high_freq_factor`` and
    :math:`p` is ``partial_rotary_factor``.

    Parameters
    ----------
    head_dim : int
        Width of one attention head, from 2 to ``MAX_HEAD_DIM`` (65536);
        the rotated width must be even (at least 4 for ``ntk`` and
        ``dynamic``, whose exponent is :math:`d/(d-2)`; a multiple of 4 for
        ``axial``).
    base : float, optional
        The base of the ladder, greater than 1. By default the dict's
        ``rope_theta`` if it has one, else 10000.0. Given together with a
        ``rope_theta``, the two must be equal.
    scaling : dict or None, default None
        ``None``, or a dict as Transformers keeps it: ``rope_type`` (or the
        older ``type``, or both if they agree), an optional ``rope_theta``,
        an optional ``partial_rotary_factor`` (in (0, 1]: the frequencies
        are those of the first ``int(head_dim * partial_rotary_factor)``
        features, as in Transformers, except for ``proportional``), and the
        keys of the type (``posenc.scaling.ROPE_TYPES`` lists them):

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
          ``low_freq_factor``, ``high_freq_factor``;
        * ``longrope``: ``short_factor`` and ``long_factor`` (one positive
          number per rotated pair each), ``original_max_position_embeddings``,
          and ``factor`` or ``attention_factor``;
        * ``proportional``: optional ``factor`` (default 1);
        * ``axial``: nothing more.

        ``yarn`` and ``longrope`` may also hold ``max_position_embeddings``
        (Mistral's configs do): without ``factor`` it gives
        :math:`s = ` ``max_position_embeddings / original_max_position_embeddings``,
        as Transformers computes it; with ``factor`` the two must agree.
        ``mrope_section`` (M-RoPE, Qwen2-VL) is allowed with every type:
        it does not change the frequencies, only which position (time,
        height or width) turns which pairs (:func:`posenc.mrope` takes it
        as ``sections``); its sections must add up to the pairs.
        A key whose value is ``None`` counts as absent, as in Transformers.
        Any other key is refused by name: a key that would change nothing
        here is not silently dropped. ``factor`` must be at least 1.
    seq_len : int, optional
        The current sequence length, from 1 to ``MAX_LENGTH``, used by
        ``dynamic`` and ``longrope`` only (as in Transformers, the other
        types ignore it). ``None`` means the pretraining context, where
        ``dynamic`` changes nothing and ``longrope`` uses ``short_factor``.

    Returns
    -------
    inv_freq : numpy.ndarray of shape (d // 2,)
        The frequencies :math:`\theta_i'`, in radians per position, pair 0
        (the fastest) first: one per rotated pair (``head_dim // 2`` for
        ``proportional``, ``d // 4`` for ``axial``). Pass them to
        :func:`posenc.rope` as ``inv_freq`` (with ``rotary_dim=d`` when only
        part of the head turns).
    attention_factor : float
        The factor by which Transformers multiplies both ``cos`` and
        ``sin`` (so both queries and keys): the attention logits grow by its
        square. 1.0 except for ``yarn`` and ``longrope``.

    Notes
    -----
    The arithmetic is that of ``transformers.modeling_rope_utils`` (the
    functions of ``ROPE_INIT_FUNCTIONS``, and each model's
    ``compute_default_rope_parameters`` and ``compute_axial_rope_parameters``),
    in float64; Transformers works in float32, and the two agree to 5e-7
    relative, and to ``2e-7 * factor`` in YaRN's and Llama 3.1's blends
    (``RELATIVE_TOLERANCE``'s docstring says where the float32 error comes
    from). ``ntk`` is not a type of Transformers: it is
    the fixed NTK-aware base of bloc97's post, as in the YaRN repository's
    ``LlamaNTKScaledRotaryEmbedding``. A setting whose base or frequencies
    would overflow or underflow float64 is refused by name, as is a
    ``beta`` too extreme to place on the ladder.

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

    A Transformers 5 ``config.rope_parameters`` carries its base, and may
    rotate only part of the head (GPT-NeoX rotates a quarter):

    >>> rope_frequencies(4, scaling={"rope_type": "default",
    ...                              "rope_theta": 100.0})[0]
    array([1. , 0.1])
    >>> rope_frequencies(16, scaling={"rope_type": "default",
    ...                               "partial_rotary_factor": 0.25})[0]
    array([1.  , 0.01])
    """
    d, base, rope_type, params, seq_len = _validate_rope_frequencies(head_dim, base, scaling,
                                                                     seq_len)
    return ROPE_TYPES[rope_type].compute(d, base, params, seq_len)


# --- one function per rope_type: the math --------------------------------------------
# Each takes the rotated width d (even), the base, the checked keys of the
# dict (None values dropped, numbers as floats and ints) and seq_len, and
# returns (inv_freq, attention_factor).


def _default(d, base, params, seq_len):
    """theta_i = base^(-2i/d) (``compute_default_rope_parameters``)."""
    return frequencies(d, base=base), 1.0


def _linear(d, base, params, seq_len):
    """Position interpolation (``_compute_linear_scaling_rope_parameters``)."""
    return _finite(frequencies(d, base=base) / params["factor"], "factor"), 1.0


def _ntk(d, base, params, seq_len):
    """The ladder of the NTK-aware base b s^(d/(d-2)) (bloc97)."""
    return _ntk_ladder(d, base, params["factor"]), 1.0


def _dynamic(d, base, params, seq_len):
    """Dynamic NTK (``_compute_dynamic_ntk_parameters``)."""
    original = params["original_max_position_embeddings"]
    if seq_len is None or seq_len <= original:
        return frequencies(d, base=base), 1.0  # within the pretraining context: no change
    # s l / L - (s - 1), written so that a large s cannot cancel
    scale = 1.0 + params["factor"] * ((seq_len - original) / original)
    return _ntk_ladder(d, base, scale), 1.0


def _yarn(d, base, params, seq_len):
    """YaRN's frequencies and attention factor (``_compute_yarn_parameters``)."""
    factor, original = params["factor"], params["original_max_position_embeddings"]

    def pair_index(key, rotations):
        # the (fractional) pair i whose wavelength 2 pi base^(2i/d) fits
        # `rotations` times into the pretraining context
        ratio = original / (rotations * 2 * math.pi)
        if not 0 < ratio < math.inf:
            raise ValueError(
                f"rope_scaling key {key!r} is out of range: the wavelength that fits "
                f"{rotations:g} times into {original} positions is not a positive float64")
        return d * math.log(ratio) / (2 * math.log(base))

    low = pair_index("beta_fast", params["beta_fast"])
    high = pair_index("beta_slow", params["beta_slow"])
    if params["truncate"]:
        low, high = math.floor(low), math.ceil(high)
    # clamped as the references do (to d - 1, not d/2 - 1)
    low, high = float(max(low, 0)), float(min(high, d - 1))
    if low == high:
        high += 0.001  # as the references: avoid dividing by zero
    ramp = np.clip((np.arange(d // 2) - low) / (high - low), 0.0, 1.0)
    # gamma_i, the paper's ramp: 1 for fast pairs (kept), 0 for slow ones
    # (divided by s); the references' linear_ramp_factor is 1 - gamma_i
    gamma = 1.0 - ramp
    theta = frequencies(d, base=base)
    inv_freq = _finite(theta / factor * (1.0 - gamma) + theta * gamma, "factor")
    return inv_freq, _yarn_attention_factor(factor, params)


def _yarn_attention_factor(factor, params):
    """``attention_factor``, or g(s, mscale) / g(s, mscale_all_dim), or g(s, 1)."""
    if "attention_factor" in params:
        return params["attention_factor"]
    mscale, mscale_all_dim = params["mscale"], params["mscale_all_dim"]

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


def _llama3(d, base, params, seq_len):
    """Llama 3.1's frequencies (``_compute_llama3_parameters``, Meta's ``apply_scaling``)."""
    factor, original = params["factor"], params["original_max_position_embeddings"]
    low, high = params["low_freq_factor"], params["high_freq_factor"]
    inv_freq = frequencies(d, base=base)
    wavelength = 2 * math.pi / inv_freq
    long_edge, short_edge = original / low, original / high  # 8192 and 2048 in Llama 3.1
    scaled = np.where(wavelength > long_edge, inv_freq / factor, inv_freq)
    middle = (wavelength >= short_edge) & (wavelength <= long_edge)
    with np.errstate(over="ignore", invalid="ignore"):  # outside the middle band: unused
        smooth = (original / wavelength - low) / (high - low)
        blend = (1 - smooth) * scaled / factor + smooth * scaled
    return _finite(np.where(middle, blend, scaled), "factor"), 1.0


def _longrope(d, base, params, seq_len):
    """LongRoPE, Phi-3's per-pair factors (``_compute_longrope_parameters``)."""
    original = params["original_max_position_embeddings"]
    past_the_switch = seq_len is not None and seq_len > original
    ext = np.asarray(params["long_factor" if past_the_switch else "short_factor"])
    inv_freq = _finite(frequencies(d, base=base) / ext, "long_factor" if past_the_switch
                       else "short_factor")
    if "attention_factor" in params:
        return inv_freq, params["attention_factor"]
    factor = params["factor"]
    # the paper's sqrt(1 + ln s / ln L): the logits grow with the stretch
    attention_factor = 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(original))
    return inv_freq, attention_factor


def _proportional(d, base, params, seq_len):
    """Gemma 4's rotated fraction, the other pairs at 0 (``_compute_proportional_rope_parameters``).

    Here ``d`` is the whole head: the exponent is 2i / head_dim for the
    rotated pairs too, and the result has one entry per pair of the head.
    """
    rotated = int(params["partial_rotary_factor"] * d // 2)  # pairs that turn
    theta = frequencies(d, base=base)[:rotated] / params["factor"]  # base^(-2i/D) / s
    return np.concatenate([_finite(theta, "factor"), np.zeros(d // 2 - rotated)]), 1.0


def _axial(d, base, params, seq_len):
    """The ladder of half the head, one per axis (``compute_axial_rope_parameters``)."""
    return frequencies(d // 2, base=base), 1.0


# --- the registry ----------------------------------------------------------------------


@dataclass(frozen=True)
class RopeType:
    """One entry of ``posenc.scaling.ROPE_TYPES``: how a ``rope_type`` computes its frequencies.

    ``compute(d, base, params, seq_len)`` returns ``(inv_freq,
    attention_factor)``; ``required`` and ``optional`` name the keys it reads
    (beside ``rope_type``, ``type``, ``rope_theta``, ``partial_rotary_factor``
    and ``mrope_section``, which every type may have); ``defaults`` fills the
    optional keys it reads when they are absent; ``check(d, params, rope_type)``,
    if given, refuses settings that its keys' own checks cannot see (two keys
    that must agree, a list of the wrong length). With ``rotated_width``
    False, ``d`` is the whole head and ``compute`` reads
    ``partial_rotary_factor`` itself.
    """

    compute: Callable
    required: tuple = ()
    optional: tuple = ()
    defaults: dict = None
    check: Callable = None
    rotated_width: bool = True


def _check_at_least_4(d, params, rope_type):
    if d < 4:
        raise ValueError(
            f"{_width_name(params)} must be at least 4 for rope_type {rope_type!r} (the base "
            f"is raised to the power d/(d-2)), got {d}")


def _check_yarn(d, params, rope_type):
    if params["beta_fast"] <= params["beta_slow"]:
        raise ValueError(
            f"rope_scaling key 'beta_fast' must be greater than 'beta_slow' (fast pairs "
            f"turn more often), got beta_fast={params['beta_fast']} and "
            f"beta_slow={params['beta_slow']}")


def _check_llama3(d, params, rope_type):
    low, high = params["low_freq_factor"], params["high_freq_factor"]
    if high <= low:
        raise ValueError(
            f"rope_scaling key 'high_freq_factor' must be greater than 'low_freq_factor', "
            f"got high_freq_factor={high} and low_freq_factor={low}")


def _check_longrope(d, params, rope_type):
    for key in ("short_factor", "long_factor"):
        if len(params[key]) != d // 2:
            raise ValueError(
                f"rope_scaling key {key!r} must hold one factor per rotated pair, "
                f"{d // 2} for a rotated width of {d}, got {len(params[key])}")
    if "factor" not in params and "attention_factor" not in params:
        raise ValueError(
            "rope_scaling key 'factor' is missing: rope_type 'longrope' needs it for the "
            "attention factor (or 'attention_factor' itself); Transformers takes it as the "
            "model config's max_position_embeddings / original_max_position_embeddings: add "
            "that ratio to the dict under this key, or add max_position_embeddings")


def _check_axial(d, params, rope_type):
    if d % 4:
        raise ValueError(
            f"{_width_name(params)} must be a multiple of 4 for rope_type 'axial' (each "
            f"of the two axes turns half of it, in pairs), got {d}")


ROPE_TYPES = {
    "default": RopeType(_default),
    "linear": RopeType(_linear, required=("factor",)),
    "ntk": RopeType(_ntk, required=("factor",), check=_check_at_least_4),
    "dynamic": RopeType(_dynamic, required=("factor", "original_max_position_embeddings"),
                        check=_check_at_least_4),
    "yarn": RopeType(_yarn, required=("factor", "original_max_position_embeddings"),
                     optional=("beta_fast", "beta_slow", "attention_factor", "mscale",
                               "mscale_all_dim", "truncate", "max_position_embeddings"),
                     defaults={"beta_fast": 32.0, "beta_slow": 1.0, "truncate": True,
                               "mscale": 0.0, "mscale_all_dim": 0.0},
                     check=_check_yarn),
    "llama3": RopeType(_llama3, required=("factor", "original_max_position_embeddings",
                                          "low_freq_factor", "high_freq_factor"),
                       check=_check_llama3),
    "longrope": RopeType(_longrope, required=("short_factor", "long_factor",
                                              "original_max_position_embeddings"),
                         optional=("factor", "attention_factor", "max_position_embeddings"),
                         check=_check_longrope),
    "proportional": RopeType(_proportional, optional=("factor",), defaults={"factor": 1.0},
                             rotated_width=False),
    "axial": RopeType(_axial, check=_check_axial),
}
"""The values of ``rope_type`` that :func:`rope_frequencies` understands, each
with its function and keys (Transformers' ``ROPE_INIT_FUNCTIONS`` and its
``_validate_*_rope_parameters``). A new type is one entry."""

_EVERY_TYPE = ("rope_type", "rope_theta", "partial_rotary_factor", "mrope_section")
"""Keys every type may have."""


# --- the checks --------------------------------------------------------------------------

_HINTS = {
    "llama_4_scaling_beta": (
        ": it changes no frequency but scales the queries, by "
        "1 + beta ln(1 + floor(m / original_max_position_embeddings)) at position m "
        "(Ministral3Attention, Transformers 5.24.0), Llama 4's attention temperature; "
        "leave it out here"),
}
"""Where a key that changes no frequency belongs, for its refusal."""


def _validate_rope_frequencies(head_dim, base, scaling, seq_len):
    """Check every argument of :func:`rope_frequencies`.

    Returns ``(d, base, rope_type, params, seq_len)``: the width whose
    frequencies are computed, the base, the type, the dict's keys with
    ``None`` values dropped, the defaults filled in and every value checked,
    and ``seq_len``.
    """
    head_dim = _checks.positive_int("head_dim", head_dim)
    if head_dim > MAX_HEAD_DIM:
        raise ValueError(f"head_dim must be at most {MAX_HEAD_DIM} (models use heads of 64 "
                         f"to 256), got {_checks.show(head_dim)}")
    if seq_len is not None:
        seq_len = _length("seq_len", seq_len)
    params = _parameters(scaling)
    rope_type = params.pop("rope_type")
    entry = ROPE_TYPES[rope_type]
    base = _base(base, params.pop("rope_theta", None))
    for key, value in params.items():
        params[key] = _KEY_CHECKS[key](f"rope_scaling key {key!r}", value, rope_type)
    params = {**(entry.defaults or {}), **params}
    params.setdefault("partial_rotary_factor", 1.0)
    d = _rotated_width(head_dim, params) if entry.rotated_width else _even_head(head_dim)
    if "mrope_section" in params:
        _check_mrope_section(params["mrope_section"], d)
    if "max_position_embeddings" in params:
        _factor_from_contexts(params, rope_type)
    if entry.check is not None:
        entry.check(d, params, rope_type)
    return d, base, rope_type, params, seq_len


def _parameters(scaling):
    """The scaling dict, checked: a known type, its required keys, no others; None is absent."""
    if scaling is None:
        return {"rope_type": "default"}
    if not isinstance(scaling, dict):
        raise TypeError(
            f"scaling must be None or a dict such as {{'rope_type': 'linear', 'factor': 2.0}}, "
            f"got {type(scaling).__name__}")
    params = {key: value for key, value in scaling.items() if value is not None}
    if "type" in params:  # the older spelling; Transformers' configs may keep both
        old = params.pop("type")
        if "rope_type" in params and not (isinstance(old, str) and old == params["rope_type"]):
            raise ValueError(
                f"rope_scaling keys 'type' and 'rope_type' disagree: {_checks.show(old)} "
                f"and {_checks.show(params['rope_type'])}; keep one of them")
        params.setdefault("rope_type", old)
    names = ", ".join(repr(t) for t in ROPE_TYPES)
    if "rope_type" not in params:
        raise ValueError(f"rope_scaling key 'rope_type' is missing; it must be one of {names}")
    rope_type = params["rope_type"]
    if not isinstance(rope_type, str) or rope_type not in ROPE_TYPES:
        hint = " (Phi-3's old name for 'longrope')" if rope_type == "su" else ""
        raise ValueError(f"rope_scaling key 'rope_type' must be one of {names}; "
                         f"got {_checks.show(rope_type)}{hint}")
    required = ROPE_TYPES[rope_type].required
    allowed = {*_EVERY_TYPE, *required, *ROPE_TYPES[rope_type].optional}
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


def _factor(name, value, rope_type):
    value = _checks.real(name, value)
    if value < 1:
        raise ValueError(
            f"{name} must be at least 1 for rope_type {rope_type!r} "
            f"(a factor below 1 would shrink the context), got {value}")
    return value


def _positive(name, value, rope_type):
    return _checks.real(name, value, positive=True)


def _at_least_0(name, value, rope_type):
    return _checks.real(name, value, at_least=0.0)


def _context(name, value, rope_type):
    return _length(name, value)


def _truncate(name, value, rope_type):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _pair_factors(name, value, rope_type):
    """LongRoPE's list of factors, one per pair: positive finite numbers."""
    if not isinstance(value, (list, tuple, np.ndarray)):
        raise TypeError(f"{name} must be a list of numbers, one per rotated pair, "
                        f"got {_checks.show(value)}")
    factors = _checks.array(name, value, ndim=1)
    if len(factors) > MAX_HEAD_DIM // 2:
        raise ValueError(f"{name} must hold at most {MAX_HEAD_DIM // 2} factors (one per "
                         f"pair), got {len(factors)}")
    if not np.all(factors > 0):
        raise ValueError(f"{name} must hold positive numbers, got {_checks.show(value)}")
    return factors.tolist()


def _partial(name, value, rope_type):
    value = _checks.real(name, value)
    if not 0 < value <= 1:
        hint = (" (a factor above 1, as in EfficientLoFTR's config, asks for the ladder of "
                "int(head_dim * factor) features: pass that width as head_dim instead)"
                if value > 1 else "")
        raise ValueError(
            f"{name} must be in (0, 1], the fraction of each head that turns, got {value}{hint}")
    return value


def _sections(name, value, rope_type):
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, np.ndarray)):
        raise TypeError(f"{name} must be a list of whole numbers (pairs turned by time, "
                        f"height and width), got {_checks.show(value)}")
    sections = _checks.integer_array(name, value)
    if sections.ndim != 1 or sections.size == 0 or np.any(sections < 0):
        raise ValueError(f"{name} must be a flat list of whole numbers >= 0, "
                         f"got {_checks.show(value)}")
    return sections.tolist()


_KEY_CHECKS = {
    "factor": _factor,
    "original_max_position_embeddings": _context,
    "max_position_embeddings": _context,
    "beta_fast": _positive,
    "beta_slow": _positive,
    "attention_factor": _positive,
    "mscale": _at_least_0,
    "mscale_all_dim": _at_least_0,
    "truncate": _truncate,
    "low_freq_factor": _positive,
    "high_freq_factor": _positive,
    "short_factor": _pair_factors,
    "long_factor": _pair_factors,
    "partial_rotary_factor": _partial,
    "mrope_section": _sections,
}
"""How each key is checked, by name: ``check(name, value, rope_type)`` returns the value."""


def _width_name(params):
    if params.get("partial_rotary_factor", 1.0) == 1.0:
        return "head_dim"
    return "the rotated width int(head_dim * partial_rotary_factor)"


def _even_head(head_dim):
    if head_dim % 2:
        raise ValueError(f"head_dim must be even (RoPE rotates pairs), got {head_dim}")
    return head_dim


def _rotated_width(head_dim, params):
    """int(head_dim * partial_rotary_factor), as Transformers computes it: even, at least 2."""
    partial = params["partial_rotary_factor"]
    if partial == 1.0:
        return _even_head(head_dim)
    d = int(head_dim * partial)
    if d % 2 or d == 0:
        raise ValueError(
            f"the rotated width int(head_dim * partial_rotary_factor) = int({head_dim} * "
            f"{partial}) = {d} must be even and at least 2 (RoPE rotates pairs)")
    return d


def _check_mrope_section(sections, d):
    if sum(sections) != d // 2:
        raise ValueError(
            f"rope_scaling key 'mrope_section' must split the {d // 2} rotated pairs among "
            f"time, height and width: its sections add up to {sum(sections)}")


def _factor_from_contexts(params, rope_type):
    """``factor`` from max_position_embeddings / original, as Transformers; or check they agree."""
    implicit = params["max_position_embeddings"] / params["original_max_position_embeddings"]
    if "factor" not in params:
        params["factor"] = _factor("max_position_embeddings / original_max_position_embeddings",
                                   implicit, rope_type)
    elif not math.isclose(implicit, params["factor"], rel_tol=1e-12):
        raise ValueError(
            f"rope_scaling keys 'factor' ({params['factor']:g}) and 'max_position_embeddings' / "
            f"'original_max_position_embeddings' ({params['max_position_embeddings']} / "
            f"{params['original_max_position_embeddings']} = {implicit:g}) disagree; "
            f"keep the factor and leave max_position_embeddings out")


def _ntk_ladder(d, base, scale):
    """The ladder of the NTK-aware base b s^(d/(d-2)), or a ValueError if it overflows."""
    try:
        new_base = base * scale ** (d / (d - 2))
    except OverflowError:
        new_base = math.inf
    if not math.isfinite(new_base):
        raise ValueError(
            f"rope_scaling key 'factor' is too large: the new base b * s**(d/(d-2)) "
            f"overflows float64 (scale s = {scale:g}, base b = {base:g}, d = {d})")
    return frequencies(d, base=new_base)


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
    base = _checks.real("base", base, greater_than=1)
    if rope_theta is not None and base != rope_theta:
        raise ValueError(
            f"base={base} disagrees with rope_scaling key 'rope_theta'={rope_theta}; "
            f"give the base once (leave base out to use rope_theta)")
    return base


def _length(name, value):
    return _checks.integer(name, value, minimum=1, maximum=MAX_LENGTH)
