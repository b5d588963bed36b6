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

The five schemes of the book:

* ``"none"``: no position signal at all;
* ``"sinusoidal"``: :math:`p_i` is row ``i`` of :func:`posenc.sinusoidal`;
* ``"learned"``: :math:`p_i = P[i]`;
* ``"rope"``: in each head, pair :math:`c` of :math:`q_i` and :math:`k_i`
  is turned by the angle :math:`i\,\theta_c` (as :func:`posenc.rope` does,
  interleaved layout) and multiplied by ``attention_factor``;
* ``"alibi"``: :math:`B` is :func:`posenc.alibi_bias` (fixed slopes, one per
  head).

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


# --- sinusoidal -------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _sinusoidal_cached(n, d_model, dtype):
    return _read_only(sinusoidal(n, d_model).astype(dtype))


def _sinusoidal_vectors(model, n, dtype):
    return _sinusoidal_cached(n, model["params"]["E"].shape[-1], np.dtype(dtype))


# --- RoPE --------------------------------------------------------------------------


def _rope_settings(d_model, n_heads):
    d_h = d_model // n_heads
    if d_h % 2:
        raise ValueError(
            f"rope rotates pairs, so the head width d_model // n_heads must be even, "
            f"got {d_model} // {n_heads} = {d_h}"
        )
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


SCHEMES = {
    "none": Scheme("no position signal: the model sees a bag of tokens"),
    "sinusoidal": Scheme("the sinusoidal table added to the input", added=_sinusoidal_vectors),
    "learned": Scheme("a trainable table of max_len rows added to the input", table=True),
    "rope": Scheme("queries and keys turned by their positions (RoPE)", turned=_rope_turns,
                   settings=_rope_settings),
    "alibi": Scheme("a fixed penalty of each head's slope times the distance (ALiBi)",
                    bias=_alibi),
}
"""The position schemes of the model, by name (the extension point)."""
