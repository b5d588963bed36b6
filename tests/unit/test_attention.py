"""Tests of posenc.attention: softmax, causal masks, scaled dot-product attention and the model's fast softmax."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import posenc
from memory_limit import memory_limit
from posenc import attention, causal_mask, softmax
from posenc.attention import _row_max, _softmax_scores


# --- text ----------------------------------------------------------------


# --- attention -----------------------------------------------------------


def test_softmax_by_hand_and_stable():
    np.testing.assert_allclose(softmax([0.0, math.log(3.0)]), [0.25, 0.75])
    np.testing.assert_allclose(softmax([1000.0, 1000.0]), [0.5, 0.5])
    np.testing.assert_allclose(softmax([0.0, -np.inf]), [1.0, 0.0])
    w = softmax(np.random.default_rng(0).normal(size=(3, 4, 5)), axis=1)
    np.testing.assert_allclose(w.sum(axis=1), 1.0)


def test_attention_by_hand():
    q = np.array([[1.0, 0.0]])
    k = np.array([[1.0, 0.0], [0.0, 1.0]])
    v = np.array([[10.0], [20.0]])
    out, w = attention(q, k, v)
    a = math.exp(1 / math.sqrt(2))
    np.testing.assert_allclose(w, [[a / (a + 1), 1 / (a + 1)]])
    np.testing.assert_allclose(out, [[10 * a / (a + 1) + 20 / (a + 1)]])


def test_attention_is_permutation_equivariant_without_mask():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(6, 4))
    perm = rng.permutation(6)
    out, _ = attention(x, x, x)
    out_p, _ = attention(x[perm], x[perm], x[perm])
    np.testing.assert_allclose(out_p, out[perm], atol=1e-12)


def test_causal_mask_and_bias():
    np.testing.assert_array_equal(causal_mask(3), [[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    rng = np.random.default_rng(2)
    q, k, v = rng.normal(size=(3, 4, 8))
    _, w = attention(q, k, v, mask=causal_mask(4))
    assert np.all(w[np.triu_indices(4, 1)] == 0)
    np.testing.assert_allclose(w.sum(-1), 1.0)
    # a -inf bias is the same as a mask
    bias = np.where(causal_mask(4), 0.0, -np.inf)
    _, w_bias = attention(q, k, v, bias=bias)
    np.testing.assert_allclose(w_bias, w)
    # batched inputs broadcast the mask
    out, w3 = attention(rng.normal(size=(2, 4, 8)), rng.normal(size=(2, 4, 8)),
                        rng.normal(size=(2, 4, 3)), mask=causal_mask(4))
    assert out.shape == (2, 4, 3) and w3.shape == (2, 4, 4)


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"q": np.ones((2, 3))}, ValueError, "same last dimension"),
        ({"v": np.ones((5, 4))}, ValueError, "same number of rows"),
        ({"mask": np.ones((3, 3), dtype=bool)}, ValueError, "mask has shape"),
        ({"mask": np.ones((2, 4))}, TypeError, "boolean"),
        ({"mask": np.zeros((2, 4), dtype=bool)}, ValueError, "forbids every key"),
        ({"bias": np.ones((4, 2))}, ValueError, "bias has shape"),
        ({"bias": np.full((2, 4), np.nan)}, ValueError, "bias"),
        ({"q": np.ones(4)}, ValueError, "q must have at least 2"),
        ({"k": "keys"}, TypeError, "k must be array-like"),
    ],
)
def test_attention_bad_input(kwargs, error, words):
    args = {"q": np.ones((2, 4)), "k": np.ones((4, 4)), "v": np.ones((4, 4)), **kwargs}
    with pytest.raises(error, match=words):
        attention(args.pop("q"), args.pop("k"), args.pop("v"), **args)


def test_causal_mask_bad_input():
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        causal_mask(0)


# --- more text: properties and bad input ------------------------------------


# --- more attention: properties ---------------------------------------------


@st.composite
def attention_case(draw, *, min_n=1):
    """Random shapes and a random permutation; Gaussian data from a drawn seed."""
    n = draw(st.integers(min_n, 7))
    d_k = draw(st.integers(1, 5))
    d_v = draw(st.integers(1, 5))
    batch = draw(st.sampled_from([(), (2,), (2, 3)]))
    seed = draw(st.integers(0, 2**32 - 1))
    perm = np.array(draw(st.permutations(range(n))))
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(*batch, n, d_k))
    k = rng.normal(size=(*batch, n, d_k))
    v = rng.normal(size=(*batch, n, d_v))
    return q, k, v, perm


@settings(max_examples=60, deadline=None)
@given(attention_case())
def test_permuting_all_rows_permutes_output_and_weights(case):
    # Attn(Pq, Pk, Pv) = P Attn(q, k, v) and W' = P W P^T, for any shapes.
    q, k, v, perm = case
    out, w = attention(q, k, v)
    out_p, w_p = attention(q[..., perm, :], k[..., perm, :], v[..., perm, :])
    np.testing.assert_allclose(out_p, out[..., perm, :], atol=1e-12)
    np.testing.assert_allclose(w_p, w[..., perm, :][..., :, perm], atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(attention_case())
def test_permuting_keys_and_values_together_changes_nothing(case):
    # Each query sees the keys as a set: shuffling key/value pairs is invisible.
    q, k, v, perm = case
    out, w = attention(q, k, v)
    out_p, w_p = attention(q, k[..., perm, :], v[..., perm, :])
    np.testing.assert_allclose(out_p, out, atol=1e-12)
    np.testing.assert_allclose(w_p, w[..., perm], atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(attention_case(min_n=2))
def test_causal_mask_breaks_permutation_equivariance(case):
    # For a permutation that moves something, the first moved position t gets
    # the token from a later position perm[t] > t, which under the mask sees a
    # different set of keys: its output differs (for data in general position).
    q, k, v, perm = case
    if np.array_equal(perm, np.arange(len(perm))):
        perm = np.roll(perm, 1)
    mask = causal_mask(len(perm))
    out, _ = attention(q, k, v, mask=mask)
    out_p, _ = attention(q[..., perm, :], k[..., perm, :], v[..., perm, :], mask=mask)
    t = np.flatnonzero(perm != np.arange(len(perm)))[0]
    assert perm[t] > t
    gap = np.abs(out_p[..., t, :] - out[..., perm[t], :]).max()
    assert gap > 1e-8


@settings(max_examples=60, deadline=None)
@given(attention_case(min_n=2), st.data())
def test_causal_output_ignores_the_future(case, data):
    # Changing the tokens after position t leaves outputs 0..t unchanged.
    q, k, v, _ = case
    n = q.shape[-2]
    t = data.draw(st.integers(0, n - 2))
    q2, k2, v2 = q.copy(), k.copy(), v.copy()
    for x in (q2, k2, v2):
        x[..., t + 1:, :] += 1.0
    out, w = attention(q, k, v, mask=causal_mask(n))
    out2, _ = attention(q2, k2, v2, mask=causal_mask(n))
    np.testing.assert_allclose(out2[..., : t + 1, :], out[..., : t + 1, :], atol=1e-12)
    assert np.abs(out2[..., t + 1:, :] - out[..., t + 1:, :]).max() > 1e-8
    # the first position can only see itself: its output is its own value
    np.testing.assert_allclose(out[..., 0, :], v[..., 0, :], atol=1e-12)
    np.testing.assert_allclose(np.triu(w, 1), 0.0)


def test_equal_scores_give_uniform_causal_weights():
    # q = 0 makes every score 0: query t shares its attention equally among
    # the t + 1 keys it may see, weight 1 / (t + 1) each.
    n = 5
    _, w = attention(np.zeros((n, 2)), np.ones((n, 2)), np.ones((n, 1)), mask=causal_mask(n))
    expected = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    np.testing.assert_allclose(w, expected)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.floats(-50, 50))
def test_softmax_properties(seed, n, shift):
    x = np.random.default_rng(seed).normal(scale=3, size=(3, n))
    s = softmax(x)
    assert np.all(s >= 0)
    np.testing.assert_allclose(s.sum(axis=-1), 1.0)
    np.testing.assert_allclose(softmax(x + shift), s, atol=1e-12)  # shift invariance
    # larger logit, larger weight
    order = np.argsort(x, axis=-1)
    assert np.all(np.diff(np.take_along_axis(s, order, axis=-1), axis=-1) >= -1e-15)


def test_bias_with_a_heads_axis_broadcasts_over_2d_inputs():
    rng = np.random.default_rng(5)
    q, k, v = rng.normal(size=(3, 4, 2))
    bias = np.stack([np.zeros((4, 4)), np.where(causal_mask(4), 0.0, -np.inf)])
    out, w = attention(q, k, v, bias=bias)
    assert out.shape == (2, 4, 2) and w.shape == (2, 4, 4)
    np.testing.assert_allclose(out[0], attention(q, k, v)[0])
    np.testing.assert_allclose(out[1], attention(q, k, v, mask=causal_mask(4))[0])


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"q": np.ones((2, 0)), "k": np.ones((4, 0))}, ValueError, "q must not have an empty axis"),
        ({"k": np.ones((0, 4)), "v": np.ones((0, 4))}, ValueError, "k must not have an empty axis"),
        ({"v": np.ones((4, 0))}, ValueError, "v must not have an empty axis"),
        ({"q": np.ones((2, 2, 4)), "k": np.ones((3, 4, 4))}, ValueError, "leading"),
        ({"q": [[np.nan] * 4] * 2}, ValueError, "q must contain only finite"),
        ({"v": np.full((4, 4), np.inf)}, ValueError, "v must contain only finite"),
        ({"mask": causal_mask(4)}, ValueError, r"mask has shape \(4, 4\)"),
        ({"mask": np.ones(3, dtype=bool)}, ValueError, "mask has shape"),
        ({"mask": np.ones((2, 1, 4), dtype=bool)}, None, None),
        ({"mask": [[True, False, False, False], [False] * 4]}, ValueError, "forbids every key"),
        ({"mask": np.array([[1, 0, 0, 0]] * 2)}, TypeError, "boolean"),
        ({"bias": "ALiBi"}, TypeError, "bias must be array-like"),
        ({"bias": np.full((2, 4), np.inf)}, ValueError, r"\+inf"),
        ({"bias": np.ones((3, 2, 1))}, None, None),
        ({"bias": np.ones((2, 3, 4))}, ValueError, "bias has shape"),
        ({"bias": [[0.0] * 4, [-np.inf] * 4]}, ValueError, "every key -inf"),
        ({"bias": [[0.0] * 4, [-np.inf, 0, 0, 0]], "mask": np.array([[True] * 4, [True, False, False, False]])},
         ValueError, "every key -inf"),
    ],
)
def test_more_attention_bad_input(kwargs, error, words):
    args = {"q": np.ones((2, 4)), "k": np.ones((4, 4)), "v": np.ones((4, 4)), **kwargs}
    call = lambda: attention(args.pop("q"), args.pop("k"), args.pop("v"), **args)  # noqa: E731
    if error is None:  # allowed broadcasts, for contrast with their neighbours
        call()
    else:
        with pytest.raises(error, match=words):
            call()


@pytest.mark.parametrize(
    "x, axis, error, words",
    [
        ([], -1, ValueError, "at least one axis and one entry"),
        (3.0, -1, ValueError, "at least one axis"),
        (["a", "b"], -1, TypeError, "x must be array-like of numbers"),
        ([1.0, np.nan], -1, ValueError, "NaN"),
        ([1.0, np.inf], -1, ValueError, r"\+inf"),
        ([-np.inf, -np.inf], -1, ValueError, "at least one finite entry"),
        ([1.0, 2.0], 1, ValueError, r"axis must be in \[-1, 0\]"),
        ([1.0, 2.0], 0.5, TypeError, "axis must be an integer"),
    ],
)
def test_softmax_bad_input(x, axis, error, words):
    with pytest.raises(error, match=words):
        softmax(x, axis=axis)


@pytest.mark.parametrize("n, error", [(2.0, TypeError), (-1, ValueError), (True, TypeError)])
def test_causal_mask_more_bad_input(n, error):
    with pytest.raises(error, match="n must be"):
        causal_mask(n)


# --- the model's fast softmax -----------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_softmax_shifts_row_by_row_when_one_maximum_per_matrix_would_underflow(dtype):
    # row 1 lies 300 below row 0: shifted by the matrix's maximum it would be all zeros
    S = np.array([[[0.0, 2.0, -np.inf], [-300.0, -301.0, -np.inf], [1.0, 0.5, 3.0]]], dtype=dtype)
    A = _softmax_scores(S.copy())
    rowwise = np.exp(S - S.max(axis=-1, keepdims=True))
    rowwise /= rowwise.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(A, rowwise, rtol=1e-6)
    assert A.dtype == dtype and np.all(A[..., 2][:, :2] == 0)  # masked keys stay exactly 0
    S_mild = np.array([[[0.0, 2.0], [-5.0, -6.0]]], dtype=dtype)  # the fast path
    expected = np.exp(S_mild - S_mild.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(_softmax_scores(S_mild), expected / expected.sum(-1, keepdims=True),
                               rtol=1e-6)


@pytest.mark.parametrize("n", [1, 2, 7, 16, 17, 40])
def test_the_row_maxima_are_those_of_numpy(n):
    # column by column for short rows, numpy's reduction for long ones: the same numbers
    S = np.random.default_rng(n).normal(size=(2, 3, 5, n)).astype(np.float32)
    S[0, 0, :, 0] = -np.inf  # a masked key
    S[1, 2, 3, :] = -np.inf  # a row with every key masked
    np.testing.assert_array_equal(_row_max(S), S.max(axis=-1, keepdims=True))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_fast_softmax_of_a_matrix_does_not_depend_on_the_other_matrices(dtype):
    # matrix 2 has a row far below its largest score, so that row is shifted by
    # its own maximum; the other matrices keep the fast path and their bits
    S = np.random.default_rng(0).normal(size=(5, 3, 4)).astype(dtype)
    S[2, 1] -= 800 if dtype == np.float64 else 100
    together = _softmax_scores(S.copy())
    for b in range(5):
        np.testing.assert_array_equal(_softmax_scores(S[b:b + 1].copy())[0], together[b])
    assert np.isfinite(together).all() and np.allclose(together.sum(-1), 1)


def test_attention_names_q_and_k_when_the_scores_overflow():
    with pytest.raises(ValueError, match=r"^the scores q k\^T / sqrt\(d_k\) overflow"):
        posenc.attention([[1e200]], [[1e200]], [[1.0]])
    with pytest.raises(ValueError, match=r"^the scores q k\^T / sqrt\(d_k\) overflow"):
        posenc.attention([[1e200], [1e200]], [[-1e200], [1e200]], [[1.0], [1.0]])
    # finite q and k whose scores all overflow to -inf: no bias, no mask to blame
    with pytest.raises(ValueError, match=r"^the scores q k\^T / sqrt\(d_k\) overflow"):
        posenc.attention([[1e200]], [[-1e200]], [[1.0]])


def test_attention_blames_what_was_given_for_a_row_of_minus_inf():
    q = k = v = np.eye(2)
    bias = [[0.0, 0.0], [-np.inf, -np.inf]]
    with pytest.raises(ValueError, match=r"^bias gives every key -inf for query 1"):
        posenc.attention(q, k, v, bias=bias)
    with pytest.raises(ValueError, match=r"^bias and mask together .* query 0"):
        posenc.attention(q, k, v, bias=[[0.0, -np.inf], [0.0, 0.0]], mask=[[False, True], [True, True]])
    big = 1e154 * np.eye(2)  # scores of 7e307 on the diagonal: finite
    with pytest.raises(ValueError, match=r"^the scores plus bias overflow .* up to 1\.5e\+308"):
        posenc.attention(big, big, v, bias=[[1.5e308, 0.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match=r"^the scores plus bias overflow"):
        posenc.attention(big, -big, v, bias=[[-1.5e308, -1.5e308], [0.0, 0.0]])
    # the smallest float as a mask value, as some libraries write it, is fine
    _, w = posenc.attention(q, k, v, bias=[[0.0, np.finfo(float).min], [0.0, 0.0]])
    assert w[0].tolist() == [1.0, 0.0]


@pytest.mark.parametrize("x, want", [
    ([1e308, -1e308], [1.0, 0.0]),
    ([-1e308, 1.7e308, -np.inf], [0.0, 1.0, 0.0]),
    ([np.finfo(float).max, -np.finfo(float).max], [1.0, 0.0]),
])
def test_softmax_of_far_apart_logits_does_not_warn(x, want):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert posenc.softmax(x).tolist() == want


@settings(deadline=None)  # a loaded shared machine must not make this flaky
@given(st.lists(st.floats(-1.7e308, 1.7e308) | st.just(-math.inf), min_size=1, max_size=8))
def test_softmax_of_any_finite_logits_is_a_distribution(x):
    assume(any(v > -math.inf for v in x))
    p = posenc.softmax(x)
    assert np.all(p >= 0) and math.isclose(p.sum(), 1.0, rel_tol=1e-12)


def test_softmax_and_attention_compute_in_float64_as_documented():
    x = np.array([[0.0, 1.0, 2.0]], dtype=np.float32)
    assert softmax(x).dtype == np.float64
    out, weights = attention(x, x, x)
    assert out.dtype == weights.dtype == np.float64
    np.testing.assert_array_equal(softmax(x), softmax(x.astype(np.float64)))


def test_attention_counts_its_scores_before_computing_them():
    # issue 40: q k^T of 40000 queries and keys is 12.8 GB of float64, from
    # inputs of 320 kB; one bias per head multiplies the scores again
    q, small = np.ones((40_000, 1)), np.ones((4_000, 1))
    assert attention(small[:2], small[:2], small[:2])[0].shape == (2, 1)  # small: works
    with memory_limit():  # a MemoryError, not gigabytes, if the cap broke
        with pytest.raises(ValueError, match=r"^the scores, batch \* n_q \* n_k = 1 \* 40000 \* 40000 would need"):
            attention(q, q, q)
        with pytest.raises(ValueError, match=r"^the scores, batch \* n_q \* n_k = 2000 \* 4000 \* 4000"):
            attention(small, small, small, bias=np.zeros((2000, 1, 1)))  # the bias adds 2000 heads
