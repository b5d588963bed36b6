r"""Where position enters the tiny model: one entry per scheme.

The model of ``posenc.model`` is the same for every scheme; a scheme
decides only where the position signal goes. :data:`SCHEMES` maps each
name to a :class:`Scheme`, whose parts are all optional:

==============  =============================================================
``table``       a trainable position table :math:`P` (``max_len`` rows),
                whose row :math:`i` is added to the input of position
                :math:`i` (chapter 4)
``added``       fixed vectors :math:`p_i` added to the input (chapter 2)
``turned``      the rotation of every query and key by its position (RoPE,
                chapter 5)
``bias``        a fixed matrix added to the scores of every head (ALiBi,
                chapter 5)
``bias_table``  a trainable bias: a table :math:`R` of ``bias_table``
                numbers per head, and ``bias_index``, which says which of
                them the score of query :math:`i` and key :math:`j` gets
                (T5's buckets, chapters 5 and 6)
``settings``    settings stored in the model, which can be changed on a
                trained model (RoPE's frequencies, chapter 7)
==============  =============================================================

The schemes of chapters 2 to 7:

* ``"none"``: no position signal at all;
* ``"sinusoidal"``: :math:`p_i` is row ``i`` of :func:`posenc.sinusoidal`;
* ``"learned"``: :math:`p_i = P[i]`;
* ``"rope"``: in each head, pair :math:`c` of :math:`q_i` and :math:`k_i`
  is turned by the angle :math:`i\,\theta_c` (as :func:`posenc.rope` does,
  interleaved layout) and multiplied by ``attention_factor``;
* ``"alibi"``: :math:`B` is :func:`posenc.alibi_bias` (fixed slopes, one per
  head);
* ``"t5"``: :math:`B_h[i, j] = R[h, \mathrm{bucket}(j - i)]`, T5's bucketed
  bias (:func:`posenc.t5_bucket`, 32 buckets up to distance 128, both
  directions, or only the past when the model is causal): one trainable
  number per bucket and head, as in Transformers' ``T5Attention``.

Two more place the tokens on a grid of patches, read row by row: token
:math:`i` is the patch in row :math:`i // width`, column :math:`i \% width`
of ``model["grid"]``, ``(height, width)`` (chapter 8):

* ``"sinusoidal_2d"``: :math:`p_i` is row ``i`` of
  :func:`posenc.sinusoidal_2d`, MAE's table;
* ``"rope_2d"``: in each head, the first half of the pairs of :math:`q_i`
  and :math:`k_i` is turned by the column and the second half by the row,
  as :func:`posenc.rope_2d` does with base 100.

**RoPE's settings.** A ``"rope"`` model holds ``model["inv_freq"]``, the
frequencies :math:`\theta_c` of each head (default
``posenc.frequencies(d_model // n_heads)``, that is
:math:`\theta_c = 10000^{-2c/d_h}`), and ``model["attention_factor"]``
(default 1.0), which multiplies the turned queries and keys, as Hugging
Face multiplies cos and sin by ``attention_scaling``: the scores scale by
its square. Both can be changed on a trained model, for evaluation or for a
short fine-tune at another length:
``dict(model, inv_freq=model["inv_freq"] / 4, attention_factor=1.1)``.

A new scheme is one new entry, as in Transformers' ``ROPE_INIT_FUNCTIONS``:
write the functions of the parts it needs and add
``SCHEMES["name"] = Scheme(...)``. The definition of the model
(:func:`posenc.forward_by_definition`) reads the parts as they are
written here; the fast engine (``posenc.engine``) derives what it needs
from the same parts, and a test proves the two equal for every entry.
Tables that depend only on the length and the settings are computed once
and kept, read-only, so that training does not rebuild them at every step.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import _checks
from .positions2d import _grid as _grid_shape
from .positions2d import grid_positions, rope_2d, sinusoidal_2d
from .relative import alibi_bias, relative_positions, t5_bucket
from .rotary import rope
from .sinusoidal import frequencies, sinusoidal

__all__ = ["Scheme", "SCHEMES"]


@dataclass(frozen=True)
class Scheme:
    """How one position scheme enters the model: every part is optional.

    Parameters
    ----------
    summary : str
        One line for people: what the scheme does.
    table : bool
        A trainable position table, ``params["P"]`` of ``max_len`` rows.
    added : callable ``added(model, n, dtype) -> (n, d_model)``
        Fixed vectors added to the input of positions ``0..n-1``.
    turned : callable ``turned(model, x) -> x turned``
        Turns the queries (or keys) ``x`` of one head, ``(..., n, d_h)``,
        row ``i`` by position ``i``: each pair of coordinates
        ``(2c, 2c + 1)`` by an angle (times a scale, RoPE's
        ``attention_factor``), the same for every head and for queries and
        keys. The engine reads its cosines and sines off the turned pairs
        ``(1, 0)``.
    bias : callable ``bias(model, n, dtype) -> (n_heads, n, n)``
        Fixed; added to the scores of every head (the causal mask is added
        apart).
    bias_table : int
        The size of a trainable bias, ``params["R"]`` of shape
        ``(n_heads, bias_table)``; 0 for none.
    bias_index : callable ``bias_index(model, n) -> (n, n) of int``
        Which entry of ``R`` each score gets: query ``i`` and key ``j`` of
        head ``h`` get ``R[h, bias_index[i, j]]``.
    settings : callable ``settings(d_model, n_heads) -> dict``
        Settings stored in the model at initialisation; it also refuses a
        shape the scheme cannot use.
    """

    summary: str
    table: bool = False
    added: Callable | None = None
    turned: Callable | None = None
    bias: Callable | None = None
    bias_table: int = 0
    bias_index: Callable | None = None
    settings: Callable | None = None


def _read_only(x):
    x.setflags(write=False)
    return x


def _head_width(d_model, n_heads, multiple, why):
    """The width ``d_model // n_heads`` of a head, refused unless it is a multiple of ``multiple``."""
    d_h = d_model // n_heads
    if d_h % multiple:
        must = "even" if multiple == 2 else f"divisible by {multiple}"
        raise ValueError(f"{why}, so the head width d_model // n_heads must be {must}, "
                         f"got {d_model} // {n_heads} = {d_h}")
    return d_h


# --- sinusoidal -------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _sinusoidal_cached(n, d_model, dtype):
    return _read_only(sinusoidal(n, d_model).astype(dtype))


def _sinusoidal_vectors(model, n, dtype):
    return _sinusoidal_cached(n, model["params"]["E"].shape[-1], np.dtype(dtype))


# --- RoPE --------------------------------------------------------------------------


def _rope_settings(d_model, n_heads):
    d_h = _head_width(d_model, n_heads, 2, "rope rotates pairs")
    return {"inv_freq": frequencies(d_h), "attention_factor": 1.0}


def _checked_rope_settings(model, n):
    """The model's RoPE frequencies (one per pair of a head) and attention factor, checked for length ``n``."""
    d_h = model["params"]["E"].shape[-1] // model["n_heads"]
    inv_freq = model.get("inv_freq")
    inv_freq = frequencies(d_h) if inv_freq is None else _checks.array("inv_freq", inv_freq, ndim=1)
    if inv_freq.shape != (d_h // 2,):
        raise ValueError(
            f"inv_freq must hold one frequency per pair of a head, {d_h // 2} for heads of "
            f"width {d_h}; got shape {inv_freq.shape}"
        )
    factor = _checks.real("attention_factor", model.get("attention_factor", 1.0), positive=True)
    with np.errstate(over="ignore"):
        finite = np.isfinite((n - 1) * inv_freq).all()
    if not finite:
        raise ValueError(
            "the model's numbers overflow its dtype (inf or NaN): its settings are too large "
            f"(position {n - 1} times inv_freq = {_checks.show(inv_freq)} is not a finite angle)"
        )
    return inv_freq, factor


def _rope_turn(model, x):
    """``x`` turned by :func:`posenc.rope` with the model's ``inv_freq``, times ``attention_factor``.

    As in Hugging Face's Llama code, where the factor multiplies cos and
    sin, it scales the turned queries and keys, and the scores by its square.
    """
    inv_freq, factor = _checked_rope_settings(model, x.shape[-2])
    return factor * rope(x, inv_freq=inv_freq)


# --- ALiBi -------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _alibi_cached(n_heads, n, dtype):
    return _read_only(alibi_bias(n_heads, n, causal=False).astype(dtype))  # (H, n, n)


def _alibi(model, n, dtype):
    return _alibi_cached(model["n_heads"], n, np.dtype(dtype))


# --- on a grid (chapter 8) ------------------------------------------------------------

#: The base of the tiny model's 2-D RoPE: Heo et al.'s (2024) RoPE-Axial.
ROPE_2D_BASE = 100.0


def _grid(model, n):
    """The model's grid ``(height, width)``, checked against the length ``n`` of the sequences."""
    grid = model.get("grid")
    if grid is None:
        raise ValueError(
            f"the scheme {model['scheme']!r} needs the grid of the patches: "
            "init_model(..., grid=(height, width)), or dict(model, grid=(height, width))"
        )
    height, width = _grid_shape("model['grid']", grid)
    if height * width != n:
        raise ValueError(
            f"the sequences have {n} tokens, but the model's grid {(height, width)} has "
            f"{height * width} patches: give the model the grid of these sequences, "
            "dict(model, grid=(height, width))"
        )
    return height, width


def _sinusoidal_2d_settings(d_model, n_heads):
    if d_model % 4:
        raise ValueError(f"sinusoidal_2d needs d_model divisible by 4, got {d_model}")
    return {}


@functools.lru_cache(maxsize=256)
def _sinusoidal_2d_cached(height, width, d_model, dtype):
    return _read_only(sinusoidal_2d(height, width, d_model).astype(dtype))


def _sinusoidal_2d_vectors(model, n, dtype):
    return _sinusoidal_2d_cached(*_grid(model, n), model["params"]["E"].shape[-1], np.dtype(dtype))


def _rope_2d_settings(d_model, n_heads):
    _head_width(d_model, n_heads, 4, "rope_2d turns whole pairs by the column in one half of a "
                "head and by the row in the other")
    return {}


def _rope_2d_turn(model, x):
    """``x`` turned by :func:`posenc.rope_2d`: half of its pairs by the column, half by the row."""
    return rope_2d(x, grid_positions(*_grid(model, x.shape[-2])), base=ROPE_2D_BASE)


# --- T5's bucketed bias ---------------------------------------------------------------

#: T5's buckets (Raffel et al., 2020; Transformers' ``T5Config`` defaults): 32
#: buckets, the last of them holding every distance from 91 on (113 when causal).
T5_BUCKETS, T5_MAX_DISTANCE = 32, 128


@functools.lru_cache(maxsize=256)
def _t5_cached(n, causal, num_buckets):
    return _read_only(t5_bucket(relative_positions(n, n), bidirectional=not causal,
                                num_buckets=num_buckets, max_distance=T5_MAX_DISTANCE))


def _t5_buckets(model, n):
    """T5's bucket of every key ``j`` seen from every query ``i``, ``t5_bucket(j - i)``: ``(n, n)``.

    Both directions, as in T5's encoder, unless the model is causal: then,
    as in its decoder, only the past has buckets of its own.
    """
    return _t5_cached(n, model["causal"], model["params"]["R"].shape[-1])


SCHEMES = {
    "none": Scheme("no position signal: the model sees a bag of tokens"),
    "sinusoidal": Scheme("the sinusoidal table added to the input", added=_sinusoidal_vectors),
    "learned": Scheme("a trainable table of max_len rows added to the input", table=True),
    "rope": Scheme("queries and keys turned by their positions (RoPE)", turned=_rope_turn,
                   settings=_rope_settings),
    "alibi": Scheme("a fixed penalty of each head's slope times the distance (ALiBi)",
                    bias=_alibi),
    "sinusoidal_2d": Scheme("MAE's 2-D sine-cosine table of the model's grid, added to the input",
                            added=_sinusoidal_2d_vectors, settings=_sinusoidal_2d_settings),
    "rope_2d": Scheme("queries and keys turned by their column and row (axial 2-D RoPE)",
                      turned=_rope_2d_turn, settings=_rope_2d_settings),
    "t5": Scheme("a trainable bias per head for each of T5's 32 distance buckets",
                 bias_table=T5_BUCKETS, bias_index=_t5_buckets),
}
"""The position schemes of the model, by name (the extension point)."""
