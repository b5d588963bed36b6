"""A model's RoPE settings, checked before any frequency is computed.

:func:`posenc.rope_frequencies` reads a ``rope_parameters`` dict (or an
older ``rope_scaling``) as Transformers keeps it. Every key is checked here
against the registry of types, ``posenc.scaling.ROPE_TYPES``: the type must
be known, its required keys present, no key of another type given, and
each value what the formulas can use (a factor of at least 1, one LongRoPE
factor per rotated pair, a ``partial_rotary_factor`` in (0, 1]...). A bad
setting gets a ``ValueError`` or ``TypeError`` that names the key and what it
may be, before anything is computed. The formulas themselves, one per type,
are in ``posenc.scaling``.
"""

from __future__ import annotations

import math

import numpy as np

from . import _checks

__all__: list[str] = []  # posenc.scaling calls check_arguments; nothing here is re-exported

MAX_HEAD_DIM = 2**16
"""The widest head :func:`posenc.rope_frequencies` accepts (models use 64 to 256)."""

MAX_LENGTH = 2**53
"""The longest ``seq_len`` or context: float64 holds every integer up to it."""


# --- what one type asks beyond its keys' own checks (RopeType.check) ------------------


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


_EVERY_TYPE = ("rope_type", "rope_theta", "partial_rotary_factor", "mrope_section")
"""Keys every type may have."""


# --- the dict, key by key ---------------------------------------------------------------

_HINTS = {
    "llama_4_scaling_beta": (
        ": it changes no frequency but scales the queries, by "
        "1 + beta ln(1 + floor(m / original_max_position_embeddings)) at position m "
        "(Ministral3Attention, Transformers 5.24.0), Llama 4's attention temperature; "
        "leave it out here"),
}
"""Where a key that changes no frequency belongs, for its refusal."""


def check_arguments(head_dim, base, scaling, seq_len, rope_types):
    """Check every argument of :func:`posenc.rope_frequencies`, against the
    registry ``rope_types`` (``posenc.scaling.ROPE_TYPES``).

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
    params = _parameters(scaling, rope_types)
    rope_type = params.pop("rope_type")
    entry = rope_types[rope_type]
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


def _parameters(scaling, rope_types):
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
    names = ", ".join(repr(t) for t in rope_types)
    if "rope_type" not in params:
        raise ValueError(f"rope_scaling key 'rope_type' is missing; it must be one of {names}")
    rope_type = params["rope_type"]
    if not isinstance(rope_type, str) or rope_type not in rope_types:
        hint = " (Phi-3's old name for 'longrope')" if rope_type == "su" else ""
        raise ValueError(f"rope_scaling key 'rope_type' must be one of {names}; "
                         f"got {_checks.show(rope_type)}{hint}")
    required = rope_types[rope_type].required
    allowed = {*_EVERY_TYPE, *required, *rope_types[rope_type].optional}
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
