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
Before any of it runs, ``posenc.rope_parameters`` checks the dict key by
key against ``ROPE_TYPES``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .rope_parameters import (MAX_HEAD_DIM, MAX_LENGTH, _check_at_least_4, _check_axial,  # noqa: F401
                              _check_llama3, _check_longrope, _check_yarn, check_arguments)
from .sinusoidal import frequencies

__all__ = ["rope_frequencies"]

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
    d, base, rope_type, params, seq_len = check_arguments(head_dim, base, scaling, seq_len,
                                                          ROPE_TYPES)
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
