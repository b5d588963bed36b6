"""Tests of posenc.relative: relative positions, T5 buckets and ALiBi, by hand, against the references, and their invariants."""

from __future__ import annotations

import importlib
import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc
from posenc import _checks, alibi_bias, alibi_slopes, relative_positions, rope, t5_bucket


def test_relative_positions():
    np.testing.assert_array_equal(relative_positions(2, 3), [[0, 1, 2], [-1, 0, 1]])
    np.testing.assert_array_equal(relative_positions(4, 1, max_distance=1), [[0], [-1], [-1], [-1]])


def test_relative_positions_queries_start_at_position_0():
    # query i sits at position i and key j at position j, whatever the lengths
    # (the docstring says so); the KV-cache layout, queries at the last
    # positions, is the last rows of the square matrix
    rel = relative_positions(2, 5)
    np.testing.assert_array_equal(rel, np.arange(5)[None, :] - np.arange(2)[:, None])
    np.testing.assert_array_equal(relative_positions(5, 5)[-2:], [[-3, -2, -1, 0, 1], [-4, -3, -2, -1, 0]])


def test_t5_bucket_by_hand():
    # bidirectional defaults: 16 buckets per direction, 8 exact, log up to 128
    assert t5_bucket(0) == 0
    np.testing.assert_array_equal(t5_bucket([-1, -7, 1, 7]), [1, 7, 17, 23])
    # n = 8 starts the log buckets: 8 + int(log(n/8)/log(16) * 8)
    for n in [8, 11, 12, 23, 64, 127, 128, 1000]:
        expected = min(8 + int(math.log(n / 8) / math.log(16) * 8), 15)
        assert t5_bucket(-n) == expected, n
        assert t5_bucket(n) == 16 + expected, n
    # unidirectional: 32 buckets for the past, the future is bucket 0
    np.testing.assert_array_equal(t5_bucket([3, 0, -3, -15, -16], bidirectional=False), [0, 0, 3, 15, 16])
    assert t5_bucket(-10**6, bidirectional=False) == 31


def test_alibi_slopes_by_hand():
    np.testing.assert_allclose(alibi_slopes(8), [2.0 ** -k for k in range(1, 9)])
    np.testing.assert_allclose(alibi_slopes(4), [2.0 ** -(2 * k) for k in range(1, 5)])
    # 12 heads: the 8 slopes of 8 heads, then every other slope of 16 heads
    expected = [2.0 ** -k for k in range(1, 9)] + [2.0 ** -(0.5 * k) for k in (1, 3, 5, 7)]
    np.testing.assert_allclose(alibi_slopes(12), expected)
    assert alibi_slopes(1).tolist() == [2.0 ** -8]


def test_alibi_bias():
    b = alibi_bias(8, 4)
    assert b.shape == (8, 4, 4)
    np.testing.assert_allclose(b[0][np.tril_indices(4)], -0.5 * np.array([0, 1, 0, 2, 1, 0, 3, 2, 1, 0]))
    assert np.all(np.isneginf(b[:, 0, 1:]))
    sym = alibi_bias(2, 3, causal=False)
    np.testing.assert_allclose(sym[1], -(2.0 ** -8) * np.abs(np.subtract.outer(range(3), range(3))))


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: alibi_slopes(0), ValueError, "n_heads"),
        (lambda: alibi_bias(2, 0), ValueError, "length"),
        (lambda: alibi_bias(2.0, 3), TypeError, "n_heads"),
        (lambda: relative_positions(3, 3, max_distance=-1), ValueError, "max_distance"),
        (lambda: relative_positions(0, 3), ValueError, "q_len"),
        (lambda: t5_bucket(1.5), TypeError, "relative_position"),
        (lambda: t5_bucket(1, num_buckets=31), ValueError, "even"),
        (lambda: t5_bucket(1, max_distance=8), ValueError, "max_distance"),
    ],
)
def test_relative_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


# ---------------------------------------------------------------------------
# Values from the reference implementations.
#
# The numbers below were computed by running the reference code itself
# (transcribed verbatim into a throwaway script) with PyTorch 2.13 on CPU:
#   * T5: ``T5Attention._relative_position_bucket`` of Hugging Face
#     transformers, which is the Mesh TensorFlow function of the same name;
#   * RoPE: GPT-J's ``rotate_every_two`` + ``apply_rotary_pos_emb``, RoFormer's
#     ``apply_rotary_position_embeddings``, Meta's LLaMA ``apply_rotary_emb``
#     (complex numbers) and Hugging Face Llama's ``rotate_half``, in float64;
#   * ALiBi: ``get_slopes`` of ofirpress/attention_with_linear_biases.
# ---------------------------------------------------------------------------

# First distance of each logarithmic bucket with T5's defaults (bidirectional,
# 32 buckets, max_distance 128): bucket 8 holds 8..11, bucket 9 12..15, ...,
# bucket 15 everything from 91 on.
T5_DEFAULT_BUCKET_STARTS = [8, 12, 16, 23, 32, 46, 64, 91]


def test_t5_bucket_matches_reference_edges():
    n = np.arange(0, 400)
    expected = np.searchsorted(T5_DEFAULT_BUCKET_STARTS, n, side="right") + 7
    expected[n < 8] = n[n < 8]
    np.testing.assert_array_equal(t5_bucket(-n), expected)  # keys in the past
    np.testing.assert_array_equal(t5_bucket(n[1:]), 16 + expected[1:])  # keys in the future
    # decoder (unidirectional): 16 exact distances, then 16 log buckets
    starts = [16, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113]
    expected = np.searchsorted(starts, n, side="right") + 15
    expected[n < 16] = n[n < 16]
    np.testing.assert_array_equal(t5_bucket(-n, bidirectional=False), expected)


def test_t5_bucket_16_is_never_used_by_an_encoder():
    # offset 0 goes to bucket 0 and offset +1 to bucket 17, so bucket 16 (a
    # future key at distance 0) never occurs, as in T5's reference code; the
    # decoder uses all 32 buckets
    r = np.arange(-1000, 1001)
    assert set(range(32)) - set(t5_bucket(r).tolist()) == {16}
    assert set(t5_bucket(r, bidirectional=False).tolist()) == set(range(32))
    np.testing.assert_array_equal(t5_bucket(np.arange(0, 9)), [0, 17, 18, 19, 20, 21, 22, 23, 24])
    for num_buckets in (4, 10, 18, 64):
        used = set(t5_bucket(r, num_buckets=num_buckets, max_distance=200).tolist())
        assert set(range(num_buckets)) - used == {num_buckets // 2}, num_buckets


def test_t5_last_bucket_starts_before_max_distance():
    # the docstring: everything from max_distance on is in the last bucket,
    # which starts at 91 (encoder) and 113 (decoder) with the defaults
    n = np.arange(0, 1000)
    for bidirectional, last, start in [(True, 15, 91), (False, 31, 113)]:
        buckets = t5_bucket(-n, bidirectional=bidirectional)
        assert n[buckets == last].min() == start
        assert np.all(buckets[n >= 128] == last)
        assert np.all(buckets[n < start] < last)


def test_t5_bucket_of_nothing():
    # np.asarray([]) is float64; an empty input is still a valid input
    for empty, shape in [([], (0,)), (np.zeros((0, 3), dtype=int), (0, 3)), (np.array([]), (0,))]:
        out = t5_bucket(empty)
        assert out.shape == shape and out.dtype.kind == "i"
    with pytest.raises(TypeError, match="relative_position must be integers"):
        t5_bucket(np.array([1.0]))


@pytest.mark.parametrize(
    "num_buckets, max_distance, distances, buckets",
    [
        # The exact scaled logarithm of these distances is a whole number
        # (1, 2 and 4 for num_buckets=18); T5's float32 arithmetic lands on it
        # and gives the exact bucket, float64 lands just below and truncates
        # to the bucket before.
        (18, 128, [8, 16, 64], [5, 6, 8]),
        (38, 16, [12], [14]),
        (72, 32, [24], [27]),
        (108, 64, [36], [36]),
    ],
)
def test_t5_bucket_uses_float32_like_the_reference(num_buckets, max_distance, distances, buckets):
    got = t5_bucket(-np.array(distances), num_buckets=num_buckets, max_distance=max_distance)
    np.testing.assert_array_equal(got, buckets)


@pytest.mark.parametrize(
    "n_heads, exponents",
    [
        # slope = 2 ** -exponent; from get_slopes(n) of the ALiBi code
        (1, [8]),
        (2, [4, 8]),
        (3, [4, 8, 2]),
        (6, [2, 4, 6, 8, 1, 3]),
        (20, [0.5 * k for k in range(1, 17)] + [0.25, 0.75, 1.25, 1.75]),
    ],
)
def test_alibi_slopes_reference_non_powers_of_two(n_heads, exponents):
    np.testing.assert_allclose(alibi_slopes(n_heads), 2.0 ** -np.array(exponents), rtol=1e-14)


def test_alibi_reference_bias_gives_same_attention():
    # fairseq ALiBi adds m * j (same for every row) instead of -m * (i - j)
    from posenc import attention, causal_mask

    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 4, 7, 8))
    slopes = alibi_slopes(4)[:, None, None]
    fairseq = slopes * np.arange(7)[None, None, :]
    _, w_ref = attention(q, k, v, bias=fairseq, mask=causal_mask(7))
    _, w_ours = attention(q, k, v, bias=alibi_bias(4, 7))
    np.testing.assert_allclose(w_ours, w_ref, atol=1e-12)


# ---------------------------------------------------------------------------
# Property tests
# ---------------------------------------------------------------------------


@st.composite
def t5_settings(draw):
    bidirectional = draw(st.booleans())
    num_buckets = draw(st.integers(2, 64)) * (2 if bidirectional else 1)
    if bidirectional and num_buckets < 4:
        num_buckets = 4
    max_exact = (num_buckets // 2 if bidirectional else num_buckets) // 2
    max_distance = draw(st.integers(max_exact + 1, 1000))
    return bidirectional, num_buckets, max_distance


@settings(max_examples=80, deadline=None)
@given(cfg=t5_settings())
def test_t5_buckets_in_range_and_monotone(cfg):
    bidirectional, num_buckets, max_distance = cfg
    n = np.arange(0, 3 * max_distance)
    kw = dict(bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    past, future = t5_bucket(-n, **kw), t5_bucket(n, **kw)
    for b in (past, future[1:]):
        assert b.min() >= 0 and b.max() < num_buckets
        assert np.all(np.diff(b) >= 0)  # farther never means a smaller bucket (per direction)
    per_side = num_buckets // 2 if bidirectional else num_buckets
    max_exact = per_side // 2
    np.testing.assert_array_equal(past[:max_exact], n[:max_exact])  # small distances exact
    assert past[-1] == per_side - 1  # far away: the last bucket of the side
    if bidirectional:
        assert np.all(future[1:] >= per_side) and np.all(past < per_side)
    else:
        assert np.all(future == 0)


@settings(max_examples=50, deadline=None)
@given(k=st.integers(0, 10))
def test_alibi_slopes_geometric_for_powers_of_two(k):
    n = 2**k
    s = alibi_slopes(n)
    assert len(s) == n
    np.testing.assert_allclose(s[0], 2.0 ** (-8 / n), rtol=1e-14)
    np.testing.assert_allclose(s[1:] / s[:-1], s[0], rtol=1e-12)  # ratio = first slope
    np.testing.assert_allclose(s[-1], 2.0**-8, rtol=1e-12)


@settings(max_examples=50, deadline=None)
@given(n=st.integers(1, 300))
def test_alibi_slopes_any_head_count(n):
    s = alibi_slopes(n)
    assert s.shape == (n,) and len(set(s.tolist())) == n
    assert np.all((s > 0) & (s < 1))
    closest = 2 ** int(math.floor(math.log2(n)))
    np.testing.assert_array_equal(s[:closest], alibi_slopes(closest))
    np.testing.assert_array_equal(s[closest:], alibi_slopes(2 * closest)[0::2][: n - closest])


@settings(max_examples=30, deadline=None)
@given(n_heads=st.integers(1, 16), length=st.integers(1, 20))
def test_alibi_bias_structure(n_heads, length):
    causal, sym = alibi_bias(n_heads, length), alibi_bias(n_heads, length, causal=False)
    dist = np.abs(np.subtract.outer(np.arange(length), np.arange(length)))
    np.testing.assert_allclose(sym, -alibi_slopes(n_heads)[:, None, None] * dist)
    lower = np.tril(np.ones((length, length), dtype=bool))
    np.testing.assert_array_equal(causal[:, lower], sym[:, lower])
    assert np.all(np.isneginf(causal[:, ~lower]))


# ---------------------------------------------------------------------------
# More bad arguments
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: rope(np.ones((3, 0))), ValueError, "at least 2"),
        (lambda: rope(np.ones((2, 3, 7))), ValueError, "even"),
        (lambda: rope("abc"), TypeError, "x"),
        (lambda: rope(np.ones((3, 4)), positions=[[0, 1, 2]]), ValueError, "positions"),
        (lambda: rope(np.ones((2, 4)), positions=[0, np.nan]), ValueError, "positions"),
        (lambda: rope(np.ones((2, 4)), positions=[0, 1, 2]), ValueError, "x has 2 rows"),
        (lambda: rope(np.ones((3, 4)), base=-2.0), ValueError, "base"),
        (lambda: rope(np.ones((3, 4)), base="10000"), TypeError, "base"),
        (lambda: rope(np.ones((3, 4)), layout="rotate_half"), ValueError, "interleaved"),
        (lambda: t5_bucket(True), TypeError, "relative_position"),
        (lambda: t5_bucket([1.0, 2.0]), TypeError, "integers"),
        (lambda: t5_bucket(1, bidirectional=1), TypeError, "bidirectional"),
        (lambda: t5_bucket(1, num_buckets=2), ValueError, "num_buckets"),
        (lambda: t5_bucket(1, num_buckets=1, bidirectional=False), ValueError, "num_buckets"),
        (lambda: t5_bucket(1, num_buckets=32.0), TypeError, "num_buckets"),
        (lambda: t5_bucket(1, max_distance=0), ValueError, "max_distance"),
        (lambda: t5_bucket(1, max_distance=-5), ValueError, "max_distance"),
        (lambda: t5_bucket(1, num_buckets=32, max_distance=16, bidirectional=False), ValueError, "16"),
        (lambda: alibi_slopes(-1), ValueError, "n_heads"),
        (lambda: alibi_slopes(True), TypeError, "n_heads"),
        (lambda: alibi_slopes(4.0), TypeError, "n_heads"),
        (lambda: alibi_bias(0, 3), ValueError, "n_heads"),
        (lambda: alibi_bias(2, 3, causal=1), TypeError, "causal"),
        (lambda: alibi_bias(2, 2.5), TypeError, "length"),
        (lambda: relative_positions(3, 0), ValueError, "k_len"),
        (lambda: relative_positions(3.0, 2), TypeError, "q_len"),
        (lambda: relative_positions(3, 3, max_distance=1.5), TypeError, "max_distance"),
        (lambda: relative_positions(3, 3, max_distance=True), TypeError, "max_distance"),
    ],
)
def test_more_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


# ---------------------------------------------------------------------------
# Issue 28, items 5 and 17: huge T5 settings, and sizes with no cap
# ---------------------------------------------------------------------------


relative_module = importlib.import_module("posenc.relative")
INT64 = np.iinfo(np.int64)


def test_t5_bucket_huge_settings_clip_before_the_integer_cast():
    # the review's case: the log step of -2**45 is about 1.2e19, beyond int64,
    # and the cast gave -9.2e18 with an "invalid value" warning (an error here)
    got = t5_bucket(-(2**45), bidirectional=False, num_buckets=2**31, max_distance=2**30 + 1)
    assert got == 2**31 - 1


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize("num_buckets", [2**31, 2**40, 2**62])
@pytest.mark.parametrize("gap", [1, 1000, None])  # max_distance - max_exact; None: 2**62
def test_t5_bucket_extreme_settings_stay_in_range_and_monotone(bidirectional, num_buckets, gap):
    # Within the documented limits (<= 2**62) every setting gives a bucket of
    # the right side, farther never means a smaller bucket, and nothing warns.
    # With max_exact = 2**61 (decoder, 2**62 buckets) and gap 1, the log scale
    # rounds to 0 in float32: steps are inf (or 0 / 0 at n = max_exact).
    per_side = num_buckets // 2 if bidirectional else num_buckets
    max_exact = per_side // 2
    max_distance = 2**62 if gap is None else max_exact + gap
    n = np.array([0, 1, max_exact - 1, max_exact, max_exact + 1, 2**45, 2**61, 2**62, INT64.max])
    n = np.unique(n[n >= 0])
    past = t5_bucket(-n, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    assert past.dtype == np.int64
    assert np.all((past >= 0) & (past < per_side)), past
    assert np.all(np.diff(past) >= 0), past
    np.testing.assert_array_equal(past[n < max_exact], n[n < max_exact])  # exact distances
    assert past[-1] == per_side - 1  # int64.max is past max_distance: the last bucket
    assert t5_bucket(INT64.min, bidirectional=bidirectional, num_buckets=num_buckets,
                     max_distance=max_distance) == per_side - 1
    if bidirectional:
        future = t5_bucket(n[1:], num_buckets=num_buckets, max_distance=max_distance)
        np.testing.assert_array_equal(future, per_side + past[1:])


@pytest.mark.parametrize("n_heads, length", [(65536, 100), (112, 2**20), (1, 10**9), (8, 2**14)])
def test_alibi_bias_refuses_absurd_sizes_by_name(n_heads, length):
    # alibi_bias(65536, 100) once took 4.9 GB; the cap is checked before
    # anything is allocated, and the message names both arguments and the cap
    with pytest.raises(ValueError, match=r"^n_heads \* length\*\*2 = .* would need .* numbers, "
                                         r"more than the 134,217,728 .*block by block") as info:
        alibi_bias(n_heads, length)
    assert f"= {n_heads} * " in str(info.value)


def test_alibi_bias_and_relative_positions_cap_is_on_the_entries():
    # the cap of posenc._checks counts the entries of the result and of the
    # arrays it is made from: up to the cap works, one more is refused
    # (checked with a small cap, to allocate nothing large)
    assert not hasattr(relative_module, "MAX_ENTRIES")  # one cap, in _checks
    with mock.patch.object(_checks, "MAX_ENTRIES", (3 + 3) * 2**2):
        assert alibi_bias(3, 2).shape == (3, 2, 2)
        with pytest.raises(ValueError, match="n_heads"):
            alibi_bias(4, 2)
    with mock.patch.object(_checks, "MAX_ENTRIES", 2 * 3 * 4 + 3 + 4):
        assert relative_positions(3, 4).shape == (3, 4)
        with pytest.raises(ValueError, match="q_len \\* k_len"):
            relative_positions(3, 5)
    with pytest.raises(ValueError, match="q_len \\* k_len = 100000 \\* 100000"):
        relative_positions(100_000, 100_000)  # 80 GB of int64


# ---------------------------------------------------------------------------
# Issue 24: relative_position is checked by _checks.integer_array
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", [True, [1.0, 2.0], np.array([0.5]), "3", [1, "a"], None, 2**64, 1j,
                                   [[1], [1, 2]]])
def test_t5_bucket_refuses_what_is_not_integers_by_name(value):
    with pytest.raises(TypeError, match="relative_position must be integers"):
        t5_bucket(value)


def test_t5_bucket_keeps_every_integer_type():
    # uint64 beyond int64 is a distance like any other (the last future bucket)
    for dtype in (np.int8, np.uint8, np.int32, np.uint64, np.int64):
        np.testing.assert_array_equal(t5_bucket(np.array([0, 3, 100], dtype=dtype)), [0, 19, 31])
    assert t5_bucket(np.uint64(2**64 - 1)) == 31
    assert relative_module._checks.integer_array is not None
    assert not hasattr(relative_module, "_relative_position")  # the local copy is gone


@st.composite
def huge_t5_settings(draw):
    # anywhere inside the documented limits (<= 2**62), most of it far beyond
    # real models; a small gap between max_exact and max_distance makes the
    # log scale tiny, and the steps of large distances huge
    bidirectional = draw(st.booleans())
    per_side = draw(st.one_of(st.integers(2, 2**61), st.integers(1, 61).map(lambda e: 2**e)))
    num_buckets = max(2 * per_side if bidirectional else per_side, 4 if bidirectional else 2)
    max_exact = (num_buckets // 2 if bidirectional else num_buckets) // 2
    gap = draw(st.one_of(st.integers(1, 1000), st.integers(1, 2**62)))
    return bidirectional, num_buckets, min(max_exact + gap, 2**62)


@settings(max_examples=200, deadline=None)
@given(cfg=huge_t5_settings(),
       rel=st.lists(st.one_of(st.integers(INT64.min, INT64.max), st.integers(-1000, 1000)), min_size=1, max_size=8))
def test_t5_bucket_any_setting_in_the_limits(cfg, rel):
    # issue 28 item 5: no setting within the limits warns (a warning is an
    # error here) or leaves the range, and farther never means smaller
    bidirectional, num_buckets, max_distance = cfg
    kw = dict(bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    per_side = num_buckets // 2 if bidirectional else num_buckets
    distance = sorted(min(abs(r), INT64.max) for r in rel)  # |int64.min| is past int64.max
    past = t5_bucket(-np.array(distance, dtype=np.int64), **kw)
    assert np.all((past >= 0) & (past < per_side))
    assert np.all(np.diff(past) >= 0)
    got = t5_bucket(np.array(rel, dtype=np.int64), **kw)
    assert np.all((got >= 0) & (got < num_buckets))


@settings(max_examples=50, deadline=None)
@given(q_len=st.integers(1, 12), k_len=st.integers(1, 12), max_distance=st.none() | st.integers(0, 8))
def test_relative_positions_property(q_len, k_len, max_distance):
    rel = relative_positions(q_len, k_len, max_distance)
    expected = np.subtract.outer(np.arange(k_len), np.arange(q_len)).T
    if max_distance is not None:
        expected = np.clip(expected, -max_distance, max_distance)
    np.testing.assert_array_equal(rel, expected)
    np.testing.assert_array_equal(rel[1:, 1:], rel[:-1, :-1])  # constant along diagonals


INT64 = np.iinfo(np.int64)


def test_t5_bucket_of_int64_min_is_the_last_bucket_of_the_past():
    # every distance of max_distance or more falls in the last bucket of its side
    assert posenc.t5_bucket(INT64.min) == posenc.t5_bucket(-200) == 15
    assert posenc.t5_bucket(INT64.min, bidirectional=False) == posenc.t5_bucket(-200, bidirectional=False) == 31
    assert posenc.t5_bucket(INT64.max) == 31
    assert posenc.t5_bucket(INT64.max, bidirectional=False) == 0  # the future


def test_t5_bucket_of_huge_unsigned_is_the_last_bucket_of_the_future():
    assert posenc.t5_bucket(np.uint64(2**63 + 5)) == 31
    assert posenc.t5_bucket(np.uint64(2**64 - 1), bidirectional=False) == 0
    got = posenc.t5_bucket(np.array([0, 3, 2**64 - 1], dtype=np.uint64))
    assert got.dtype == np.int64 and got.tolist() == [0, 19, 31]


@settings(deadline=None)  # a loaded shared machine must not make this flaky
@given(st.integers(INT64.min, INT64.max), st.booleans())
def test_t5_bucket_is_in_range_and_agrees_with_a_clipped_distance(rel, bidirectional):
    # beyond max_distance nothing changes, so clipping to +-1000 is a reference
    b = posenc.t5_bucket(rel, bidirectional=bidirectional)
    assert 0 <= b < 32
    assert b == posenc.t5_bucket(max(-1000, min(rel, 1000)), bidirectional=bidirectional)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32])
def test_t5_bucket_of_the_extremes_of_every_integer_type(dtype):
    info = np.iinfo(dtype)
    values = np.array([info.min, info.max], dtype=dtype)
    want = [posenc.t5_bucket(max(-1000, min(int(v), 1000))) for v in values]
    assert posenc.t5_bucket(values).tolist() == want


def test_t5_bucket_refuses_integers_beyond_64_bits_by_name():
    with pytest.raises(TypeError, match="relative_position must be integers"):
        posenc.t5_bucket(2**64)
    with pytest.raises(TypeError, match="relative_position"):
        posenc.t5_bucket([[1], [1, 2]])  # ragged


@pytest.mark.parametrize("kwargs, words", [
    ({"num_buckets": 10**30}, r"^num_buckets must be an integer from 4 to 4611686018427387904, got ~1e\+30$"),
    ({"max_distance": 10**400}, r"^max_distance must be an integer from 1 to 4611686018427387904, got ~1e\+400$"),
])
def test_t5_bucket_names_huge_bucket_counts_and_distances(kwargs, words):
    with pytest.raises(ValueError, match=words):
        posenc.t5_bucket(3, **kwargs)


def test_alibi_slopes_refuses_head_counts_no_model_uses():
    assert len(posenc.alibi_slopes(posenc.relative.MAX_HEADS)) == 2**16
    # 10**7 heads took 12 s and 10**9 hung; test_any_argument.py sends 10**400
    # under a time limit
    for n in (2**16 + 1, 10**7):
        with pytest.raises(ValueError, match=r"^n_heads must be at most 65536 .*got (65537|10000000)$"):
            posenc.alibi_slopes(n)
    with pytest.raises(ValueError, match="^n_heads must be at most 65536"):
        posenc.alibi_bias(2**16 + 1, 2)


def test_alibi_slopes_stay_the_reference_values_up_to_the_limit():
    # the first slopes of any count come from the closest smaller power of two
    n = 2**16 - 3
    closest = 2**15
    slopes = posenc.alibi_slopes(n)
    start = 2 ** (-8 / closest)
    assert slopes[:3].tolist() == [start, start * start, start * start**2]
    assert slopes[-1] > 2.0**-8.0 * 0.99 and np.all(slopes > 0)


# --- BLOOM's ALiBi slopes (issue 39) ---------------------------------------------------
# tests/fixtures/sines_rel_reference.json, made by tools/make_sines_rel_reference.py


def _bloom_cases():
    import json

    from tools.paths import FIXTURES

    return json.loads((FIXTURES / "sines_rel_reference.json").read_text())["bloom"]


@pytest.mark.parametrize("case", _bloom_cases(), ids=lambda c: f"{c['n_heads']} heads")
def test_bloom_slopes_are_press_slopes_up_to_a_few_float32_steps(case):
    # BLOOM raises its float32 base with torch.pow: a few float32 steps from
    # Press's slopes (alibi_slopes, float64) rounded to float32, at most 7
    reference = np.array(case["slopes"])
    ours = alibi_slopes(case["n_heads"])
    rounded = ours.astype(np.float32)
    # float32 steps apart: positive floats are ordered like their bit patterns
    steps = np.abs(reference.astype(np.float32).view(np.int32).astype(int)
                   - rounded.view(np.int32).astype(int))
    assert np.array_equal(reference.astype(np.float32), reference) and steps.max() <= 7
    np.testing.assert_allclose(reference, ours, rtol=6e-7, atol=0)
    if case["n_heads"] == 8:  # powers of 2 of a power of 2: exact
        assert steps.max() == 0
    if case["n_heads"] == 112:  # BLOOM 176B: the chapter's numbers
        assert (np.sum(steps > 0), steps.max()) == (99, 7)
