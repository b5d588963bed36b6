"""Tests of posenc.rotary: RoPE by hand, against reference implementations, and its invariants."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from posenc import rope


finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
layouts = st.sampled_from(["interleaved", "halves"])
bases = st.sampled_from([100.0, 10000.0, 500000.0])


@st.composite
def vectors(draw, max_rows=6):
    rows = draw(st.integers(1, max_rows))
    d = 2 * draw(st.integers(1, 8))
    return draw(hnp.arrays(float, (rows, d), elements=finite))


def test_rope_by_hand():
    x = np.array([[1.0, 2.0, 3.0, 4.0]] * 2)
    out = rope(x, positions=[0, 3])
    np.testing.assert_allclose(out[0], x[0])
    c0, s0 = math.cos(3), math.sin(3)  # pair 0 turns by 3 * 1
    c1, s1 = math.cos(0.03), math.sin(0.03)  # pair 1 turns by 3 * 0.01
    np.testing.assert_allclose(out[1], [1 * c0 - 2 * s0, 1 * s0 + 2 * c0, 3 * c1 - 4 * s1, 3 * s1 + 4 * c1])
    halves = rope(x, positions=[0, 3], layout="halves")  # pairs (0, 2) and (1, 3)
    np.testing.assert_allclose(halves[1], [1 * c0 - 3 * s0, 2 * c1 - 4 * s1, 1 * s0 + 3 * c0, 2 * s1 + 4 * c1])


def test_rope_dot_product_depends_only_on_offset():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 16))
    def score(m, n):
        return rope(q[None], [m])[0] @ rope(k[None], [n])[0]
    for m, n in [(0, 5), (10, 15), (100, 105)]:
        assert math.isclose(score(m, n), score(0, 5), rel_tol=1e-9, abs_tol=1e-12)


def test_rope_layouts_differ_by_a_permutation():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3, 7, 8))
    perm = np.r_[0:8:2, 1:8:2]  # [0, 2, 4, 6, 1, 3, 5, 7]: pair (2i, 2i+1) -> (i, i + 4)
    np.testing.assert_allclose(rope(x[..., perm], layout="halves"),
                               rope(x, layout="interleaved")[..., perm], atol=1e-12)
    assert not np.allclose(rope(x, layout="halves"), rope(x, layout="interleaved"))


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: rope(np.ones((3, 5))), ValueError, "even"),
        (lambda: rope(np.ones((3, 4)), positions=[0, 1]), ValueError, "positions has 2 entries"),
        (lambda: rope(np.ones((3, 4)), layout="pairs"), ValueError, "layout"),
        (lambda: rope(np.ones(4)), ValueError, "at least 2"),
        (lambda: rope(np.ones((3, 4)), base=0), ValueError, "base"),
    ],
)
def test_rope_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_rope_matches_reference_implementations():
    x = np.arange(1.0, 9.0)[None]  # one vector (1, 2, ..., 8) at position 5
    # GPT-J / RoFormer / Meta LLaMA (interleaved pairs), rounded to 10 decimals
    gptj = [2.2015107348, -0.3915999037, 0.7150455313, 4.9486068634,
            4.6938762864, 6.2423974087, 6.9599126668, 8.0348998544]
    # Hugging Face Llama rotate_half (pairs i, i + 4)
    llama = [5.0782835588, -1.1213881078, 2.6463965963, 3.9599501668,
             0.4593866527, 6.2243464486, 7.1411893306, 8.0198999169]
    np.testing.assert_allclose(rope(x, [5])[0], gptj, atol=1e-9)
    np.testing.assert_allclose(rope(x, [5], layout="halves")[0], llama, atol=1e-9)


def test_layout_permutation_in_the_books_convention():
    # queries are x @ W_q (the book's xW): the output coordinates are the
    # columns of W_q, so a layout change reorders columns, W_q[:, P]
    rng = np.random.default_rng(4)
    d, d_in = 8, 5
    w_q, w_k = rng.normal(size=(2, d_in, d))
    x = rng.normal(size=(6, d_in))
    P = np.r_[0:d:2, 1:d:2]
    interleaved = rope(x @ w_q) @ rope(x @ w_k).T
    halves = rope(x @ w_q[:, P], layout="halves") @ rope(x @ w_k[:, P], layout="halves").T
    np.testing.assert_allclose(halves, interleaved, atol=1e-12)
    # and back: a halves model runs in interleaved code with the inverse
    back = np.argsort(P)
    trained = rope(x @ w_q, layout="halves") @ rope(x @ w_k, layout="halves").T
    np.testing.assert_allclose(rope(x @ w_q[:, back]) @ rope(x @ w_k[:, back]).T, trained, atol=1e-12)


def test_hf_llama_weight_permutation():
    # convert_llama_weights_to_hf.py reorders the rows of W_q and W_k in each
    # head with w.view(n_heads, d // 2, 2, dim).transpose(1, 2): the numpy
    # equivalent below. Interleaved RoPE on the original rows and halves RoPE
    # on the permuted rows must then give the same attention scores.
    rng = np.random.default_rng(3)
    d, dim, n = 8, 12, 6
    w_q, w_k = rng.normal(size=(2, d, dim))
    h = rng.normal(size=(n, dim))
    permute = lambda w: w.reshape(d // 2, 2, dim).transpose(1, 0, 2).reshape(d, dim)  # noqa: E731
    meta = rope(h @ w_q.T) @ rope(h @ w_k.T).T
    hf = rope(h @ permute(w_q).T, layout="halves") @ rope(h @ permute(w_k).T, layout="halves").T
    np.testing.assert_allclose(hf, meta, atol=1e-12)
    wrong = rope(h @ w_q.T, layout="halves") @ rope(h @ w_k.T, layout="halves").T
    assert not np.allclose(wrong, meta)


@settings(max_examples=60, deadline=None)
@given(x=vectors(), data=st.data(), base=bases, layout=layouts)
def test_rope_preserves_norms(x, data, base, layout):
    positions = data.draw(hnp.arrays(float, len(x), elements=st.floats(-1e4, 1e4)))
    out = rope(x, positions, base=base, layout=layout)
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1),
                               rtol=1e-9, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(x=vectors(max_rows=2), m=st.integers(-500, 500), n=st.integers(-500, 500),
       shift=st.integers(-1000, 1000), base=bases, layout=layouts)
def test_rope_score_depends_only_on_offset(x, m, n, shift, base, layout):
    q, k = x[:1], x[-1:]
    def score(a, b):
        return (rope(q, [a], base=base, layout=layout) @ rope(k, [b], base=base, layout=layout).T).item()
    scale = 1 + np.linalg.norm(q) * np.linalg.norm(k)
    assert abs(score(m + shift, n + shift) - score(m, n)) <= 1e-9 * scale
    assert abs(score(0, n - m) - score(m, n)) <= 1e-9 * scale


@settings(max_examples=60, deadline=None)
@given(x=vectors(), base=bases)
def test_rope_layouts_related_by_fixed_permutation(x, base):
    d = x.shape[-1]
    perm = np.r_[0:d:2, 1:d:2]
    np.testing.assert_allclose(rope(x[:, perm], base=base, layout="halves"),
                               rope(x, base=base)[:, perm], atol=1e-12)
    np.testing.assert_allclose(rope(x, base=base, layout="halves")[:, np.argsort(perm)],
                               rope(x[:, np.argsort(perm)], base=base), atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(x=vectors(), a=st.floats(-100, 100), b=st.floats(-100, 100), layout=layouts)
def test_rope_rotations_compose_and_invert(x, a, b, layout):
    pa, pb = np.full(len(x), a), np.full(len(x), b)
    np.testing.assert_allclose(rope(rope(x, pa, layout=layout), pb, layout=layout),
                               rope(x, pa + pb, layout=layout), atol=1e-9)
    np.testing.assert_allclose(rope(rope(x, pa, layout=layout), -pa, layout=layout), x, atol=1e-9)
    np.testing.assert_array_equal(rope(x, np.zeros(len(x)), layout=layout), x)




# --- issue 28: overflow and dtypes ----------------------------------------------------


@pytest.mark.parametrize("x, dtype", [([[6e4, 6e4]], np.float16), ([[3e38, 3e38]], np.float32),
                                      ([[1.7e308, 1.7e308]], np.float64)])
def test_rope_refuses_a_result_beyond_its_dtype_by_name(x, dtype):
    with pytest.raises(ValueError, match=rf"^x turned by its angles does not fit in {np.dtype(dtype)}"):
        rope(np.array(x, dtype=dtype), [np.pi / 4])


def test_rope_keeps_a_result_that_rounds_to_the_largest_float16():
    out = rope(np.array([[65504.0, 0.0]], dtype=np.float16), [0.0])
    assert out.dtype == np.float16 and out[0, 0] == 65504


@pytest.mark.parametrize("dtype, want", [(np.float16, np.float16), (np.float32, np.float32),
                                         (np.float64, np.float64), (np.int32, np.float64),
                                         (np.longdouble, np.float64)])
def test_rope_keeps_float16_to_float64_and_says_what_it_computes_otherwise(dtype, want):
    x = np.ones((3, 4), dtype=dtype)
    out = rope(x)
    assert out.dtype == want
    np.testing.assert_allclose(out, rope(np.ones((3, 4))), rtol=1e-3)


# --- partial rotary: rotary_dim ----------------------------------------------------------


@pytest.mark.parametrize("layout", ["interleaved", "halves"])
def test_rotary_dim_turns_the_first_features_and_passes_the_rest(layout):
    """GPT-NeoX and Phi rotate x[..., :rotary_dim] (halves within it) and keep the rest."""
    x = np.random.default_rng(6).normal(size=(2, 5, 12))
    out = rope(x, np.arange(5) * 3, layout=layout, rotary_dim=4, base=100.0)
    np.testing.assert_array_equal(out[..., 4:], x[..., 4:])
    np.testing.assert_allclose(out[..., :4], rope(x[..., :4], np.arange(5) * 3, layout=layout,
                                                  base=100.0), atol=0)
    np.testing.assert_array_equal(rope(x, rotary_dim=12, layout=layout), rope(x, layout=layout))
    inv_freq = [0.5, 0.25]
    np.testing.assert_array_equal(rope(x, inv_freq=inv_freq, rotary_dim=4)[..., :4],
                                  rope(x[..., :4], inv_freq=inv_freq))


def test_rotary_dim_keeps_scores_relative_and_norms():
    rng = np.random.default_rng(7)
    q, k = rng.normal(size=(2, 1, 10))

    def score(m, n):
        return (rope(q, [m], rotary_dim=6) @ rope(k, [n], rotary_dim=6).T).item()

    assert score(4, 9) == pytest.approx(score(104, 109), abs=1e-9)
    assert np.linalg.norm(rope(q, [7], rotary_dim=6)) == pytest.approx(np.linalg.norm(q))


@pytest.mark.parametrize("call, error, words", [
    (lambda: rope(np.ones((3, 8)), rotary_dim=3), ValueError, "rotary_dim must be even"),
    (lambda: rope(np.ones((3, 8)), rotary_dim=10), ValueError,
     "rotary_dim must be an integer from 2 to 8"),
    (lambda: rope(np.ones((3, 8)), rotary_dim=0), ValueError, "rotary_dim must be an integer"),
    (lambda: rope(np.ones((3, 8)), rotary_dim=4.0), TypeError, "rotary_dim must be an integer"),
    (lambda: rope(np.ones((3, 8)), rotary_dim=4, inv_freq=[1.0]), ValueError,
     "d // 2 = 2 for rotary_dim=4, got 1"),
    (lambda: rope(np.ones((3, 8)), inv_freq=[1.0, 0.1]), ValueError,
     "pass rotary_dim=2 \\* len\\(inv_freq\\)"),
])
def test_rotary_dim_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()
