"""Checkers of chapter 7, *Stretching the context*.
"""

from __future__ import annotations

import math

import numpy as np

from ..scaling import rope_frequencies
from ._common import _not_yet, _numbers, _one_number, _report, _whole_numbers

__all__ = [
    "check_stretch_dynamic_base",
    "check_stretch_yarn_kept",
    "check_stretch_llama3_bands",
    "check_stretch_yarn_logits",
]


def _boolean_mask(answer):
    """The answer as a 1-D boolean array if it is one (or a list of bools), else None."""
    try:
        arr = np.asarray(answer)
    except Exception:  # noqa: BLE001 - a ragged list, or an __array__ that raises
        return None
    return arr if arr.dtype.kind == "b" and arr.ndim >= 1 else None


def _near(value, target, rtol=1e-6):
    return value is not None and math.isclose(value, target, rel_tol=rtol)


def check_stretch_dynamic_base(answer):
    """Check the base that dynamic NTK uses for a Llama 2 head at 10240 tokens.

    The exercise: head width 128, base 10000, pretraining context 4096,
    Hugging Face's ``rope_type="dynamic"`` with ``factor`` 2, a sequence of
    10240 tokens.

    Parameters
    ----------
    answer : float
        The base from which the frequencies are computed.

    Returns
    -------
    bool

    Notes
    -----
    The base rounded to the nearest whole number, or anything closer, is
    right (a relative tolerance of 1e-5); the base of a length off by one,
    10239 or 10241 tokens, is 1.2e-4 away and gets its own hint.
    """
    d, base, original, factor, length = 128, 10000.0, 4096, 2.0, 10240
    power = d / (d - 2)

    def dynamic(seq_len):
        return base * (factor * seq_len / original - (factor - 1)) ** power

    expected = dynamic(length)
    value = _one_number(answer)
    if value is None:
        return _not_yet("Give one number, the base (a float).")
    if _near(value, base):
        return _not_yet("10240 tokens is longer than the pretraining context, "
                        "so dynamic scaling does change the base.")
    if _near(value, base * factor ** power):
        return _not_yet("That is the fixed NTK base for factor 2. Dynamic NTK "
                        "recomputes the scale from the current length.")
    if _near(value, base * (length / original) ** power):
        return _not_yet("That is the scale of factor 1. How does Transformers' "
                        "formula use the factor together with the length?")
    if _near(value, base * (factor * length / original - (factor - 1))):
        return _not_yet("Close: the base is multiplied by the scale raised to "
                        "the power d / (d - 2), not by the scale itself.")
    if _near(value, dynamic(length - 1)) or _near(value, dynamic(length + 1)):
        return _not_yet("Almost: the length in the formula is the number of "
                        "tokens, 10240 here (the largest position plus one).")
    if not _near(value, expected, rtol=1e-5) and _near(value, expected, rtol=1e-3):
        return _not_yet("Close, but keep more digits: the base to the nearest "
                        "whole number at least.")
    return _report(
        _near(value, expected, rtol=1e-5),
        "That is the base Transformers computes for this length.",
        "Compute the current scale from the factor, the length and the pretraining "
        "context, then the new base as in the chapter.",
    )


def check_stretch_yarn_kept(answer):
    """Check which pairs YaRN leaves at their original frequency.

    The exercise: head width 64, base 10000, pretraining context 2048, YaRN
    with factor 8 and the default ``beta_fast`` 32 and ``beta_slow`` 1, as
    computed by the reference code. The answer lists, in any order, the
    indices of the pairs whose frequency is unchanged.

    Parameters
    ----------
    answer : array_like of int, 1-D, or a boolean mask over the 32 pairs

    Returns
    -------
    bool
    """
    plain, _ = rope_frequencies(64)
    scaled, _ = rope_frequencies(64, scaling={
        "rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 2048})
    expected = np.nonzero(scaled == plain)[0]
    mask = _boolean_mask(answer)
    if mask is not None:  # a mask over the pairs means the same set as its indices
        if mask.shape != plain.shape:
            return _not_yet(f"A mask needs one True/False per pair: {plain.size} "
                            f"entries for a head of width 64, got shape {mask.shape}.")
        answer = np.flatnonzero(mask)
    numbers = _numbers(answer)
    if numbers is not None and numbers.ndim == 0:
        return _not_yet("Give the indices of the pairs (a list or an array), "
                        "not how many there are.")
    if isinstance(answer, (set, frozenset)):
        answer = sorted(answer, key=repr)
    arr = _whole_numbers(answer)
    if arr is None or arr.ndim != 1:
        return _not_yet("Give a flat list or 1-D array of whole-number pair indices.")
    if len(np.unique(arr)) != len(arr):
        return _not_yet("Each pair index should appear once.")
    if arr.min(initial=0) < 0 or arr.max(initial=0) > 31:
        return _not_yet("A head of width 64 has 32 pairs, numbered 0 to 31.")
    got = set(arr.tolist())
    if got == set(expected.tolist()) - {int(expected.max())}:
        return _not_yet("Look again at the first pair of the ramp: its weight "
                        "gamma is still 1 there. Is its frequency changed at all?")
    if got & set(np.nonzero(np.isclose(scaled, plain / 8, rtol=1e-12))[0].tolist()):
        return _not_yet("Your list holds slow pairs, which YaRN divides by the "
                        "factor. The kept pairs are the fast ones.")
    return _report(
        got == set(expected.tolist()),
        "These are exactly the pairs whose frequency YaRN leaves alone.",
        "For each pair, how many turns does it make in the pretraining context, and where "
        "does the reference code start its ramp (rounded down)?",
    )


def check_stretch_llama3_bands(answer):
    """Check how many pairs of a Llama 2 head fall in each band of Llama 3.1's rule.

    The exercise: head width 128, base 10000, pretraining context 4096, the
    ``llama3`` rule with factor 4, low_freq_factor 1 and high_freq_factor 4.
    The answer is ``(kept, blended, divided)``: the number of pairs whose
    frequency is unchanged, blended, and divided by the factor.

    Parameters
    ----------
    answer : sequence of 3 int

    Returns
    -------
    bool
    """
    plain, _ = rope_frequencies(128)
    wavelength = 2 * np.pi / plain
    expected = np.array([(wavelength < 4096 / 4).sum(),
                         ((wavelength >= 4096 / 4) & (wavelength <= 4096)).sum(),
                         (wavelength > 4096).sum()])
    arr = _whole_numbers(answer)
    if arr is None or arr.shape != (3,):
        return _not_yet("Give three whole numbers: (kept, blended, divided).")
    if arr.sum() != 64:
        return _not_yet("A head of width 128 has 64 pairs; your three counts "
                        "should add up to 64.")
    if sorted(arr.tolist()) == sorted(expected.tolist()) and not np.array_equal(arr, expected):
        return _not_yet("Those are the three counts, in another order: the answer "
                        "is (kept, blended, divided), and the kept pairs are the fast ones, "
                        "with the short wavelengths.")
    plain31, _ = rope_frequencies(128, base=500000.0)
    lam31 = 2 * np.pi / plain31
    llama31 = [(lam31 < 8192 / 4).sum(), ((lam31 >= 8192 / 4) & (lam31 <= 8192)).sum(),
               (lam31 > 8192).sum()]
    if np.array_equal(arr, llama31):
        return _not_yet("Those are the bands of the Llama 3.1 head that the chapter "
                        "prints (base 500,000, context 8,192). The exercise asks about a "
                        "Llama 2 head: base 10,000, context 4,096.")
    if np.array_equal(arr, [expected[0] + expected[1], 0, expected[2]]) or np.array_equal(
            arr, [expected[0], 0, expected[1] + expected[2]]):
        return _not_yet("Some pairs are neither kept nor divided: the rule "
                        "blends the pairs between the two wavelength edges.")
    return _report(
        np.array_equal(arr, expected),
        "Those are the three bands of the rule on this head.",
        "The band edges are wavelengths: original context / high_freq_factor and "
        "original context / low_freq_factor. Count the wavelengths on each side.",
    )


def check_stretch_yarn_logits(answer):
    """Check the factor by which YaRN multiplies the attention logits, s = 16.

    The exercise: YaRN with factor 16 and the default attention factor.
    Hugging Face multiplies ``cos`` and ``sin`` by the attention factor.

    Parameters
    ----------
    answer : float
        The resulting factor on the logits ``q . k``.

    Returns
    -------
    bool

    Notes
    -----
    Four significant figures are enough (a relative tolerance of 5e-4, so
    that the square of a rounded attention factor passes too); an answer
    within 1% but not that close is told to keep more digits.
    """
    mscale = 0.1 * math.log(16) + 1
    value = _one_number(answer)
    if value is None:
        return _not_yet("Give one number, the factor on the logits.")
    if _near(value, mscale):
        return _not_yet("That is the attention factor itself, the one applied to "
                        "cos and sin. The question is about the logits q . k: follow the "
                        "factor through the code that computes them.")
    if _near(value, 1 / mscale ** 2) or _near(value, 1 / mscale):
        return _not_yet("YaRN makes the logits larger, not smaller (a factor above 1).")
    if _near(value, (0.1 * math.log10(16) + 1) ** 2):
        return _not_yet("The paper's formula uses the natural logarithm.")
    if not _near(value, mscale ** 2, rtol=5e-4) and _near(value, mscale ** 2, rtol=1e-2):
        return _not_yet("Close, but keep more digits: four significant figures "
                        "at least.")
    return _report(
        _near(value, mscale ** 2, rtol=5e-4),
        "The logits grow by the square of the attention factor.",
        "Start from the attention factor 0.1 ln s + 1 and follow it through q and k.",
    )
