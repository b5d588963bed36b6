r"""The numbers of chapter 5's RoPE "long-term decay" section, recomputed.

nbval proves that the stored outputs of ``book/05_rel.ipynb`` are what its
code computes today. This file proves that what the code computes is what
the mathematics says, by a computation that shares nothing with the
chapter's but numpy's random generator (the same seed, to draw the same
pairs): no ``posenc`` at all, the frequencies written out as
``10000 ** (-2 i / d)``, the rotation of a pair written out as

    q . R(phi) k = (q_a k_a + q_b k_b) cos(phi) + (q_b k_a - q_a k_b) sin(phi)

instead of ``posenc.rope`` or the chapter's complex numbers, and RoFormer's
partial sums :math:`S_j` added up one term at a time. Each printed number
must agree with its recomputed value to its printed precision (within half
a unit of the last printed digit), and the numbers the prose quotes must be
the recomputed ones.

The stored outputs are read in the forms below; if you edit the section,
keep them or update the parsers here.
"""

from __future__ import annotations

import cmath
import math
import re

import nbformat
import numpy as np
import pytest

from tools.paths import BOOK

NOTEBOOK = BOOK / "05_rel.ipynb"
NUMBER = r"-?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?"

# The section's set-up, as its code cells state it.
D = 128  # head width, base 10000
SEED, N_PAIRS = 7, 2000
SHOWN = (0, 10, 100, 1000)  # the offsets printed row by row


def theta(d, base=10000.0):
    return [base ** (-2 * i / d) for i in range(d // 2)]


def aligned_score(offset, d=D):
    """q = k with every pair the same length, |q| = 1: the mean of cos(offset * theta_i)."""
    return sum(math.cos(offset * t) for t in theta(d)) / (d // 2)


def grid():
    return np.unique(np.r_[0, 10, 100, 1000, np.geomspace(1, 10_000, 100).astype(int)])


@pytest.fixture(scope="module")
def pairs():
    q, k = np.random.default_rng(SEED).normal(size=(2, N_PAIRS, D))
    return q, k


@pytest.fixture(scope="module")
def scores(pairs):
    """scores[t, p]: query p at position 0, key p at offset grid()[t], by the real formula."""
    q, k = pairs
    qa, qb, ka, kb = q[:, 0::2], q[:, 1::2], k[:, 0::2], k[:, 1::2]
    phi = np.outer(grid(), theta(D))[:, None, :]  # (offsets, 1, pairs of coordinates)
    return np.sum((qa * ka + qb * kb) * np.cos(phi) + (qb * ka - qa * kb) * np.sin(phi), axis=2)


def output_of(snippet):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    hits = [c for c in nb.cells if c.cell_type == "code" and snippet in c.source]
    assert len(hits) == 1, f"no single code cell of 05_rel holds {snippet!r}"
    return "".join(o.get("text", "") for o in hits[0].outputs if o.output_type == "stream")


def prose():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def assert_printed(text, true, where):
    """``text`` is ``true`` rounded to the digits that ``text`` shows."""
    text = text.replace(",", "")
    value = float(text)
    mantissa = text.lower().split("e")[0]
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    exponent = int(text.lower().split("e")[1]) if "e" in text.lower() else 0
    half_unit = 0.5 * 10.0 ** (exponent - decimals)
    assert abs(value - true) <= half_unit * (1 + 1e-9), f"{where}: printed {text}, recomputed {true!r}"


def rows(text, first_words):
    """The numbers of the line starting with ``first_words`` (after spaces)."""
    for line in text.splitlines():
        if line.strip().startswith(first_words):
            return re.findall(NUMBER, line.strip()[len(first_words):])
    raise AssertionError(f"no line starts with {first_words!r} in:\n{text}")


def table(text):
    """Rows of the offset tables: offset -> its other numbers."""
    out = {}
    for line in text.splitlines():
        numbers = re.findall(NUMBER, line)
        if numbers and re.fullmatch(r"\s*\d+\s.*", line) and int(numbers[0]) in SHOWN:
            out[int(numbers[0])] = numbers[1:]
    assert sorted(out) == list(SHOWN), f"offset rows missing in:\n{text}"
    return out


# --- aligned q = k ------------------------------------------------------------


def test_aligned_query_and_key():
    text = output_of("q_same = np.ones(d)")
    for offset, (score, mean_cos) in table(text).items():
        assert_printed(score, aligned_score(offset), f"score at offset {offset}")
        assert_printed(mean_cos, aligned_score(offset), f"mean of cos at offset {offset}")
    curve = [aligned_score(t) for t in range(10_001)]
    rises = sum(b > a for a, b in zip(curve[:1000], curve[1:1001]))
    assert rows(text, "steps up from offset 0 to 1000:")[0] == str(rises)
    lowest, at = rows(text, "lowest score up to 10000:")
    assert_printed(lowest, min(curve), "lowest score")
    assert int(at) == curve.index(min(curve))
    # the prose and issue 32 quote 1, 0.67, 0.48 and 0.16
    quoted = ", ".join(f"{aligned_score(t):.2f}" for t in (10, 100)) + f" and {aligned_score(1000):.2f}"
    assert f"1, {quoted} at the offsets 0, 10, 100 and 1000" in " ".join(prose().split())


# --- independent random q and k -------------------------------------------------


def test_random_pairs(scores):
    text = output_of("q_rand, k_rand = rng.normal")
    offsets = list(grid())
    for offset, (mean, spread) in table(text).items():
        s = scores[offsets.index(offset)]
        assert_printed(mean, s.mean(), f"mean at offset {offset}")
        assert_printed(spread, s.std(ddof=1), f"spread at offset {offset}")
    standard_error = scores.std(axis=1, ddof=1) / math.sqrt(N_PAIRS)
    near = int(np.sum(np.abs(scores.mean(axis=1)) < 1.96 * standard_error))
    assert rows(text, "offsets whose mean is within 1.96 standard errors of 0:") == [str(near), str(len(offsets))]
    low, high, root = rows(text, f"spread over all {len(offsets)} offsets:")
    assert_printed(low, scores.std(axis=1, ddof=1).min(), "smallest spread")
    assert_printed(high, scores.std(axis=1, ddof=1).max(), "largest spread")
    assert_printed(root, math.sqrt(D), "sqrt(d)")
    assert f"{near} of {len(offsets)} do" in " ".join(prose().split())
    # the claim itself, on this sample: mean 0 (the grand mean is within 4
    # standard errors of one offset's mean) and spread sqrt(d) at every offset
    assert abs(scores.mean()) < 4 * math.sqrt(D / N_PAIRS)
    np.testing.assert_allclose(scores.std(axis=1, ddof=1), math.sqrt(D), rtol=0.05)


# --- RoFormer's bound ----------------------------------------------------------


def roformer_bound(offset, d=D):
    """sum_{j=1}^{d/2} |S_j|, S_j = sum_{i<j} e^{i (m - n) theta_i}, one term at a time."""
    total, partial = 0.0, 0j
    for t in theta(d):
        partial += cmath.exp(-1j * offset * t)
        total += abs(partial)
    return total


def test_bound_against_the_scores(pairs, scores):
    text = output_of("h = pair_q * np.conj(pair_k)")
    q, k = pairs
    h = (q[:, 0::2] + 1j * q[:, 1::2]) * (k[:, 0::2] - 1j * k[:, 1::2])
    steps = np.abs(np.diff(np.concatenate([h, np.zeros((N_PAIRS, 1))], axis=1), axis=1))
    max_step = steps.max(axis=1)
    offsets = list(grid())
    bound = np.array([roformer_bound(t) for t in offsets])
    scaled = np.abs(scores) / max_step
    assert np.all(scaled <= bound[:, None])  # the theorem holds on these pairs
    assert "every score within its bound: True" in text
    assert "the complex form gives the same scores: True" in text
    for offset, (relative, largest, ratio) in table(text).items():
        t = offsets.index(offset)
        assert_printed(relative, bound[t] / (D // 2), f"bound / (d/2) at offset {offset}")
        assert_printed(largest, scaled[t].max(), f"largest scaled score at offset {offset}")
        assert_printed(ratio, bound[t] / scaled[t].max(), f"bound / largest at offset {offset}")
    (n_offsets, smallest) = rows(text, "smallest bound / largest, on these")
    assert int(n_offsets) == len(offsets)
    assert_printed(smallest, (bound / scaled.max(axis=1)).min(), "smallest ratio")
    words = " ".join(prose().split())
    at = {t: f"{bound[offsets.index(t)] / 64:.2f}" for t in (10, 100, 1000)}
    assert (f"from {bound[0] / 64:.1f} at offset 0 to {at[10]} at 10 and {at[100]} at 100 "
            f"(and {at[1000]} at 1000)") in words
    assert f"at least {(bound / scaled.max(axis=1)).min():.0f} times on the {len(offsets)}" in words


@pytest.fixture(scope="module")
def bound_at_every_offset():
    """RoFormer's bound divided by d/2 at every offset 0 ... 10000 (issue 39)."""
    return np.array([roformer_bound(t) for t in range(10_001)]) / (D // 2)


def test_bound_at_every_offset(pairs, bound_at_every_offset):
    """The bound falls over the first hundred offsets, then wanders (issue 39)."""
    b = bound_at_every_offset
    text = output_of("bound_every = np.abs(np.cumsum(")
    rises = int(np.sum(np.diff(b[:1001]) > 0))
    first_rise = int(np.argmax(np.diff(b) > 0))
    assert rows(text, "bound / (d/2) rises in") == [str(rises), "1000", str(first_rise)]
    low, high = 1000 + int(np.argmin(b[1000:])), 1000 + int(np.argmax(b[1000:]))
    printed = [n.strip(",") for n in rows(text, "from 1000 to 10000:")]  # low, at, high, at, 100
    assert_printed(printed[0], b[low], "lowest from 1000")
    assert int(printed[1]) == low
    assert_printed(printed[2], b[high], "highest from 1000")
    assert int(printed[3]) == high and printed[4] == "100"
    assert_printed(printed[5], b[100], "at offset 100")
    windows = {}
    for line in text.splitlines():
        numbers = re.findall(NUMBER, line)
        if re.fullmatch(r"\s*\d+ - +\d+ .*", line):
            windows[int(numbers[0])] = numbers[2:]
    assert sorted(windows) == list(range(0, 10_000, 1000))
    for start, (mean, lowest, highest) in windows.items():
        w = b[start:start + 1000]
        assert_printed(mean, w.mean(), f"mean from {start}")
        assert_printed(lowest, w.min(), f"lowest from {start}")
        assert_printed(highest, w.max(), f"highest from {start}")
    # where the bound is lowest, the scores of the 2000 pairs, by the real formula
    q, k = pairs
    qa, qb, ka, kb = q[:, 0::2], q[:, 1::2], k[:, 0::2], k[:, 1::2]
    phi = low * np.array(theta(D))
    at_low = np.sum((qa * ka + qb * kb) * np.cos(phi) + (qb * ka - qa * kb) * np.sin(phi), axis=1)
    h = (qa + 1j * qb) * (ka - 1j * kb)
    max_step = np.abs(np.diff(np.concatenate([h, np.zeros((N_PAIRS, 1))], axis=1), axis=1)).max(axis=1)
    ratio = b[low] * (D // 2) / (np.abs(at_low) / max_step).max()
    (printed_ratio,) = rows(text, f"at offset {low}: bound / largest scaled |score| =")
    assert_printed(printed_ratio, ratio, "ratio where the bound is lowest")
    # the prose quotes them
    words = " ".join(prose().split())
    assert f"steadily up to offset {first_rise}" in words
    assert f"It rises in {rises} of the first 1000 unit steps" in words
    assert (f"between {b[low]:.2f} (at offset {low}) and {b[high]:.2f} (at {high}), "
            "higher than at offset 100") in words and b[high] > b[100]
    means = [b[s:s + 1000].mean() for s in range(1000, 10_000, 1000)]
    assert f"drifts only from {means[0]:.2f} to {means[-1]:.2f}" in words
    assert (f"keep sinking slowly ({b[1000:2000].min():.2f} to {b[9000:10_000].min():.2f}), and "
            f"its highest ({b[1000:2000].max():.2f} to {b[9000:10_000].max():.2f}) do not fall") in words
    assert f"and {ratio:.0f} times at offset {low}, where it is lowest" in words
    # the claim: no decay of the peaks past 1000, every later thousand's peak above offset 100's bound
    assert min(b[s:s + 1000].max() for s in range(1000, 10_000, 1000)) > 0.95 * b[100]


# --- the turns of a Gemma 7B head, and Shaw's sizes ------------------------------


def test_turns_of_a_gemma_head():
    text = output_of("head_dim, context = 256, 8192")
    turns = [8192 * t / (2 * math.pi) for t in theta(256)]
    assert rows(text, "pairs in a head:") == ["128"]
    assert_printed(rows(text, "fastest pair:")[0], turns[0], "fastest pair")
    assert rows(text, "pairs that turn less than once:") == [str(sum(t < 1 for t in turns))]
    assert_printed(rows(text, "slowest pair:")[0], 360 * turns[-1], "slowest pair, degrees")
    words = " ".join(prose().split())
    assert f"{sum(t < 1 for t in turns)} of the 128 pairs turn less than once" in words
    assert f"only about {360 * turns[-1]:.0f} degrees" in words


def test_shaw_sizes():
    text = output_of("n_long, d_head, k_clip = 1024, 64, 16")
    assert rows(text, "a^K built pair by pair:") == [f"{1024**2 * 64:,}"]
    assert rows(text, "q w^T of the cheap route:") == [f"{1024 * 33:,}"]
    assert rows(text, "the attention weights:") == [f"{1024**2:,}"]
