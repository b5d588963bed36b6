"""Checkers of chapter 9, *Positions in the models you use*.
"""

from __future__ import annotations

import math

import numpy as np

from ..families import llama4_attention_scale, llama_permutation, opt_position_ids
from ..sinusoidal import frequencies
from ._common import _correct, _not_yet, _numbers, _one_number, _report, _whole_numbers

__all__ = [
    "check_models_rotated_width",
    "check_models_permute",
    "check_models_opt_rows",
    "check_models_longrope_pair",
    "check_models_llama4_scale",
]

# The exercises' settings (the chapter states them)
PHI2_HEAD, PHI2_PARTIAL = 2560 // 32, 0.4
PERMUTE_SEED, PERMUTE_SHAPE = 9, (6, 8)
OPT_MASK = [[0, 0, 0, 1, 1, 1, 1], [0, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1]]
LONGROPE_PAIR, LONGROPE_LENGTH = 20, 5000
LLAMA4_POSITION = 40000


def _near(value, target, rtol=1e-6):
    return value is not None and math.isclose(value, target, rel_tol=rtol)


def check_models_rotated_width(answer):
    """Check how much of a Phi-2 head turns.

    The exercise: Phi-2's config has ``hidden_size`` 2560,
    ``num_attention_heads`` 32 and ``partial_rotary_factor`` 0.4. The answer
    is ``(features that turn, frequencies rope_frequencies returns)``.

    Parameters
    ----------
    answer : sequence of 2 int

    Returns
    -------
    bool
    """
    rotated = int(PHI2_HEAD * PHI2_PARTIAL)
    expected = [rotated, rotated // 2]
    arr = _whole_numbers(answer)
    if arr is None or arr.shape != (2,):
        return _not_yet("Give two whole numbers: (features that turn, frequencies).")
    got = arr.tolist()
    if got == expected[::-1]:
        return _not_yet("Those are the two numbers in the other order: the features "
                        "come first, then the frequencies (one per pair).")
    if got[0] == int(2560 * PHI2_PARTIAL):
        return _not_yet("partial_rotary_factor is a fraction of each head, not of the "
                        "hidden size: find the width of one head first.")
    if got[0] == PHI2_HEAD:
        return _not_yet("That is the whole head. Only a fraction of it turns: which "
                        "setting says how much?")
    if got[0] == rotated and got[1] != rotated // 2:
        return _not_yet("The width is right. How many frequencies does a rotation of "
                        "that many features need?")
    return _report(got == expected,
                   "That is how much of each head turns, and one frequency per pair.",
                   "The head is hidden_size / num_attention_heads wide; multiply by "
                   "partial_rotary_factor, as Transformers does, and remember the pairs.")


def check_models_permute(answer):
    """Check the projection of queries reordered for the halves layout.

    The exercise: ``W_q = np.random.default_rng(9).normal(size=(6, 8))``, one
    head of width 8, queries ``x @ W_q``, trained with interleaved pairs
    (Meta's layout). The answer is the matrix for ``rotate_half`` code.

    Parameters
    ----------
    answer : array_like of shape (6, 8)

    Returns
    -------
    bool
    """
    w = np.random.default_rng(PERMUTE_SEED).normal(size=PERMUTE_SHAPE)
    P = llama_permutation(PERMUTE_SHAPE[1])
    arr = _numbers(answer)
    if arr is None or arr.shape != PERMUTE_SHAPE:
        return _not_yet(f"Give a matrix of shape {PERMUTE_SHAPE}, the columns of W_q "
                        "in a new order.")
    with np.errstate(all="ignore"):
        if np.allclose(arr, w):
            return _not_yet("That is W_q as it was: rotate_half pairs feature i with "
                            "feature i + 4, so the columns must move.")
        if np.allclose(arr, w[:, np.argsort(P)]):
            return _not_yet("That is the way back, from halves to interleaved. Which "
                            "feature of Meta's head must become feature 1 of the new one?")
        if np.allclose(np.sort(arr, axis=0), np.sort(w, axis=0)) and not np.allclose(
                np.sort(arr, axis=1), np.sort(w, axis=1)):
            return _not_yet("The features of a query are the columns of W_q (x @ W_q): "
                            "reorder the columns, not the rows.")
        ok = bool(np.allclose(arr, w[:, P], rtol=1e-12, atol=1e-12))
    return _report(ok, "Both codes now give the same attention scores.",
                   "The new feature j * 4 + i must be the old feature 2i + j "
                   "(posenc.llama_permutation gives that order).")


def check_models_opt_rows(answer):
    """Check the rows of OPT's position table that a left-padded batch looks up.

    The exercise: the attention mask ``OPT_MASK`` (three rows of 7 tokens,
    with 3, 1 and 0 pads on the left); the answer holds the rows of the
    learned table that ``OPTLearnedPositionalEmbedding`` looks up.

    Parameters
    ----------
    answer : array_like of int, shape (3, 7)

    Returns
    -------
    bool
    """
    ids = opt_position_ids(OPT_MASK)
    arr = _whole_numbers(answer)
    if arr is None or arr.shape != ids.shape:
        return _not_yet(f"Give one whole number per token: an array of shape {ids.shape}.")
    got = arr.tolist()
    if got == (ids + 2).tolist():
        return _correct("These are the rows the table is read at, pads included.")
    if got == ids.tolist():
        return _not_yet("Those are the position ids. OPT looks its table up a fixed "
                        "number of rows further on.")
    arange = np.tile(np.arange(ids.shape[1]), (ids.shape[0], 1))
    if got in ((arange + 2).tolist(), arange.tolist()):
        return _not_yet("OPT counts the positions from the attention mask, so that the "
                        "first real token of every row has the same position.")
    mask = np.array(OPT_MASK)
    if np.array_equal(arr[mask == 1], (ids + 2)[mask == 1]):
        return _not_yet("The real tokens are right. What position does the cumulative "
                        "sum give a pad, before the offset?")
    return _not_yet("Count the real tokens with a cumulative sum of the mask, give the "
                    "pads -1, then add OPT's offset.")


def check_models_longrope_pair(answer):
    """Check the frequency of one of Phi-3's pairs past LongRoPE's switch.

    The exercise: Phi-3 (head 96, base 10000, original context 4096, the
    chapter's ``long_factor``), pair 20, in a sequence of 5000 tokens.

    Parameters
    ----------
    answer : float
        The frequency, in radians per position.

    Returns
    -------
    bool
    """
    from ..families import transformers_reference

    p = transformers_reference()["longrope"]["rope_parameters"]
    theta = frequencies(96)[LONGROPE_PAIR]
    expected = theta / p["long_factor"][LONGROPE_PAIR]
    value = _one_number(answer)
    if value is None:
        return _not_yet("Give one number, the frequency of pair 20.")
    if _near(value, theta / p["short_factor"][LONGROPE_PAIR]):
        return _not_yet("That uses the short factors. Is 5000 tokens short for a model "
                        "trained on 4096?")
    if _near(value, theta):
        return _not_yet("That is the plain ladder: LongRoPE divides each pair by its "
                        "own factor.")
    if _near(value, theta * p["long_factor"][LONGROPE_PAIR]):
        return _not_yet("A factor above 1 slows a pair down: divide, do not multiply.")
    if _near(value, 2 * math.pi / expected):
        return _not_yet("That is a wavelength; the question asks for the frequency.")
    if not _near(value, expected, rtol=1e-6) and _near(value, expected, rtol=1e-3):
        return _not_yet("Close, but keep more digits.")
    return _report(_near(value, expected, rtol=1e-6),
                   "That is the frequency Transformers uses for this pair past the switch.",
                   "Take pair 20 of the plain ladder of a head of 96 and divide it by the "
                   "factor that applies at this length.")


def check_models_llama4_scale(answer):
    """Check Llama 4's temperature on a query at position 40,000 of a layer without RoPE.

    Parameters
    ----------
    answer : float
        The factor by which the query is multiplied (defaults: floor_scale
        8192, attn_scale 0.1).

    Returns
    -------
    bool
    """
    expected = float(llama4_attention_scale([LLAMA4_POSITION])[0])
    value = _one_number(answer)
    if value is None:
        return _not_yet("Give one number, the factor on the query.")
    if _near(value, 1 + 0.1 * math.log1p(LLAMA4_POSITION / 8192)):
        return _not_yet("Llama 4 rounds the position down to whole steps of floor_scale "
                        "first.")
    if _near(value, 1 + 0.1 * math.log10(1 + (LLAMA4_POSITION + 1) // 8192)):
        return _not_yet("The formula uses the natural logarithm.")
    if _near(value, 1.0):
        return _not_yet("Position 40,000 is past the first step of 8192 positions: the "
                        "factor is above 1 there.")
    if not _near(value, expected, rtol=1e-6) and _near(value, expected, rtol=1e-3):
        return _not_yet("Close, but keep more digits.")
    return _report(_near(value, expected, rtol=1e-6),
                   "That is the temperature Llama 4 puts on this query.",
                   "Compute 1 + attn_scale * ln(1 + floor((m + 1) / floor_scale)).")
