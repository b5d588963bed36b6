r"""Where position enters the tiny model: one entry per scheme.

The model of ``posenc.model`` is the same for every scheme; a scheme
decides only where the position signal goes. :data:`SCHEMES` maps each
name to a :class:`Scheme`, whose parts are all optional:

=============  =============================================================
``table``      a trainable position table :math:`P` (``max_len`` rows),
               whose row :math:`i` is added to the input of position
               :math:`i` (chapter 4)
``added``      fixed vectors :math:`p_i` added to the input (chapter 2)
``turned``     the cosines and sines that turn each pair of every query and
               key by its position's angle (RoPE, chapter 5)
``bias``       a matrix added to the scores of every head (ALiBi, chapter 5)
``settings``   settings stored in the model, which can be changed on a
               trained model (RoPE's frequencies, chapter 7)
=============  =============================================================

The five schemes of chapters 2 to 7:

* ``"none"``: no position signal at all;
* ``"sinusoidal"``: :math:`p_i` is row ``i`` of :func:`posenc.sinusoidal`;
* ``"learned"``: :math:`p_i = P[i]`;
* ``"rope"``: in each head, pair :math:`c` of :math:`q_i` and :math:`k_i`
  is turned by the angle :math:`i\,\theta_c` (as :func:`posenc.rope` does,
  interleaved layout) and multiplied by ``attention_factor``;
* ``"alibi"``: :math:`B` is :func:`posenc.alibi_bias` (fixed slopes, one per
  head).

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
``SCHEMES["name"] = Scheme(...)``. Tables that depend only on the length and
the settings are computed once and kept, read-only, so that training does
not rebuild them at every step.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import _checks
from .positions2d import _grid as _grid_shape
from .positions2d import _rope_2d_angles, grid_positions, sinusoidal_2d
from .relative import alibi_bias
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
    turned : callable ``turned(model, n, dtype) -> (cos, sin)``
        Two arrays of shape ``(n, 2 * d_model)``: row ``i`` holds the cosine
        and sine by which each coordinate of the queries (every head, the
        first ``d_model`` columns) and keys (the next ``d_model``) of
        position ``i`` is turned, each pair's value twice.
    bias : callable ``bias(model, n, dtype) -> (n_heads, n, n)``
        Added to the scores of every head (the causal mask is added apart).
    settings : callable ``settings(d_model, n_heads) -> dict``
        Settings stored in the model at initialisation; it also refuses a
        shape the scheme cannot use.
    """

    summary: str
    table: bool = False
    added: Callable | None = None
    turned: Callable | None = None
    bias: Callable | None = None
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


def _checked_rope_settings(model):
    """The model's RoPE frequencies (one per pair of a head) and attention factor, checked."""
    d_h = model["params"]["E"].shape[-1] // model["n_heads"]
    inv_freq = model.get("inv_freq")
    inv_freq = frequencies(d_h) if inv_freq is None else _checks.array("inv_freq", inv_freq, ndim=1)
    if inv_freq.shape != (d_h // 2,):
        raise ValueError(
            f"inv_freq must hold one frequency per pair of a head, {d_h // 2} for heads of "
            f"width {d_h}; got shape {inv_freq.shape}"
        )
    factor = _checks.real("attention_factor", model.get("attention_factor", 1.0), positive=True)
    return inv_freq, factor


@functools.lru_cache(maxsize=256)
def _rope_cached(n, inv_freq, n_heads, attention_factor, dtype):
    # each pair's frequency twice, in every head, for q and then for k
    inv_freq = np.repeat(np.tile(inv_freq, 2 * n_heads), 2)
    angles = np.outer(np.arange(n), inv_freq)  # (n, 2 d_model), in float64
    return (_read_only((attention_factor * np.cos(angles)).astype(dtype)),
            _read_only((attention_factor * np.sin(angles)).astype(dtype)))


def _rope_turns(model, n, dtype):
    """``attention_factor`` times the cos and sin of every angle ``i * inv_freq[c]``.

    As in Hugging Face's Llama code, where the factor multiplies cos and
    sin, it scales the turned queries and keys, and the scores by its square.
    """
    inv_freq, factor = _checked_rope_settings(model)
    return _rope_cached(n, tuple(inv_freq.tolist()), model["n_heads"], factor, np.dtype(dtype))


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


@functools.lru_cache(maxsize=256)
def _rope_2d_cached(height, width, d_model, n_heads, dtype):
    rows, cols = grid_positions(height, width).T
    angles = _rope_2d_angles(rows, cols, d_model // n_heads, ROPE_2D_BASE)  # (n, d_h/2)
    angles = np.repeat(np.tile(angles, 2 * n_heads), 2, axis=1)  # every head, q then k; each pair twice
    return _read_only(np.cos(angles).astype(dtype)), _read_only(np.sin(angles).astype(dtype))


def _rope_2d_turns(model, n, dtype):
    """The cos and sin of axial 2-D RoPE: in each head, half of the pairs by the column, half by the row."""
    return _rope_2d_cached(*_grid(model, n), model["params"]["E"].shape[-1], model["n_heads"],
                           np.dtype(dtype))


SCHEMES = {
    "none": Scheme("no position signal: the model sees a bag of tokens"),
    "sinusoidal": Scheme("the sinusoidal table added to the input", added=_sinusoidal_vectors),
    "learned": Scheme("a trainable table of max_len rows added to the input", table=True),
    "rope": Scheme("queries and keys turned by their positions (RoPE)", turned=_rope_turns,
                   settings=_rope_settings),
    "alibi": Scheme("a fixed penalty of each head's slope times the distance (ALiBi)",
                    bias=_alibi),
    "sinusoidal_2d": Scheme("MAE's 2-D sine-cosine table of the model's grid, added to the input",
                            added=_sinusoidal_2d_vectors, settings=_sinusoidal_2d_settings),
    "rope_2d": Scheme("queries and keys turned by their column and row (axial 2-D RoPE)",
                      turned=_rope_2d_turns, settings=_rope_2d_settings),
}
"""The position schemes of the model, by name (the extension point)."""
