"""Tests of posenc.positions2d: MAE's 2-D table, bicubic resizing, 2-D RoPE and M-RoPE.

Two kinds of reference, both independent of posenc:

* the defining code, transcribed here in NumPy line by line, each function
  naming its source (MAE's ``get_2d_sincos_pos_embed``, PyTorch's
  ``upsample_bicubic2d``, Heo et al.'s ``compute_axial_cis`` and
  ``apply_rotary_emb``, Transformers' ``get_rope_index``,
  ``apply_multimodal_rotary_pos_emb`` and Qwen3-VL's
  ``apply_interleaved_mrope``), compared with posenc on many shapes;
* what the reference code itself returned, stored in
  tests/fixtures/grids_reference.json by tools/make_grids_reference.py
  (torch 2.13.0 with Transformers 4.57.6, and with Transformers 5.24.0 and
  timm 1.0.31). These tests need neither torch nor Transformers.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import (
    grid_positions,
    interpolate_table,
    mrope,
    mrope_position_ids,
    rope,
    rope_2d,
    sinusoidal,
    sinusoidal_2d,
)
from memory_limit import memory_limit
from posenc.model import init_model
from tools.paths import FIXTURES

REFERENCE = json.loads((FIXTURES / "grids_reference.json").read_text())
RUNS = REFERENCE["runs"]
V4, V5 = "transformers 4.57.6", "transformers 5.24.0"


def test_the_fixture_holds_both_runs_and_their_versions():
    assert set(RUNS) == {V4, V5}
    assert RUNS[V4]["versions"]["torch"] == "2.13.0+cpu"
    assert RUNS[V5]["versions"]["torch"] == "2.14.1+cu130"  # issue 39's run, with resample
    assert RUNS[V5]["versions"]["timm"] == "1.0.31"
    for run in RUNS.values():
        assert all(run[key] for key in ("sincos_2d", "interpolate", "rope_index", "mrope",
                                        "mrope_interleaved"))


# --- MAE's 2-D sine-cosine table -----------------------------------------------------


def mae_1d(embed_dim, pos):
    """MAE's get_1d_sincos_pos_embed_from_grid (facebookresearch/mae, util/pos_embed.py,
    commit be47fef: ``np.float``, that is float64, as Transformers 4.x's ViT-MAE port keeps it)."""
    omega = np.arange(embed_dim // 2, dtype=np.float64)
    omega /= embed_dim / 2.0
    omega = 1.0 / 10000**omega  # (D/2,)
    out = np.einsum("m,d->md", pos.reshape(-1), omega)  # (M, D/2), outer product
    return np.concatenate([np.sin(out), np.cos(out)], axis=1)  # (M, D)


def mae_2d(embed_dim, height, width):
    """MAE's get_2d_sincos_pos_embed, for a grid of height x width (MAE's is square)."""
    grid_h = np.arange(height, dtype=np.float32)
    grid_w = np.arange(width, dtype=np.float32)
    grid = np.meshgrid(grid_w, grid_h)  # here w goes first
    grid = np.stack(grid, axis=0).reshape([2, 1, height, width])
    emb_h = mae_1d(embed_dim // 2, grid[0])  # "use half of dimensions to encode grid_h"
    emb_w = mae_1d(embed_dim // 2, grid[1])
    return np.concatenate([emb_h, emb_w], axis=1)  # (H*W, D)


@pytest.mark.parametrize("height, width, d", [(4, 4, 16), (14, 14, 64), (3, 5, 8), (7, 2, 32),
                                              (1, 1, 4), (16, 16, 1024)])
def test_sinusoidal_2d_is_maes_table(height, width, d):
    np.testing.assert_allclose(sinusoidal_2d(height, width, d), mae_2d(d, height, width),
                               rtol=0, atol=1e-13)


def test_maes_first_half_is_the_column_despite_its_name():
    # MAE's comment says the first half encodes grid_h; meshgrid(grid_w, grid_h) makes it w
    pe, d = sinusoidal_2d(3, 5, 16), 16
    row, col = grid_positions(3, 5).T
    first, second = pe[:, : d // 2], pe[:, d // 2:]
    np.testing.assert_array_equal(first, sinusoidal(5, d // 2, layout="halves")[col])
    np.testing.assert_array_equal(second, sinusoidal(3, d // 2, layout="halves")[row])
    assert not np.allclose(first, second)


def test_sinusoidal_2d_interleaved_halves():
    pe = sinusoidal_2d(2, 3, 8, layout="interleaved", base=100.0)
    row, col = grid_positions(2, 3).T
    np.testing.assert_array_equal(pe[:, :4], sinusoidal(3, 4, base=100.0)[col])
    np.testing.assert_array_equal(pe[:, 4:], sinusoidal(2, 4, base=100.0)[row])


def test_sinusoidal_2d_equals_transformers_4_vit_mae():
    cases = RUNS[V4]["sincos_2d"]
    assert {c["function"].split("(")[0] for c in cases} == {
        "transformers.models.vit_mae.modeling_vit_mae.get_2d_sincos_pos_embed"}
    for c in cases:
        assert c["dtype"] == "float64"
        np.testing.assert_allclose(sinusoidal_2d(c["height"], c["width"], c["d_model"]),
                                   c["table"], rtol=0, atol=1e-15)


def swap_halves(table):
    half = table.shape[1] // 2
    return np.concatenate([table[:, half:], table[:, :half]], axis=1)


def test_transformers_5_vit_mae_puts_the_row_first():
    # build_2d_sinusoidal_position_embedding: meshgrid(grid_h, grid_w, indexing="ij"),
    # [sin_h, cos_h, sin_w, cos_w]: MAE's halves swapped
    cases = [c for c in RUNS[V5]["sincos_2d"] if c["function"].startswith("transformers")]
    assert len(cases) == 4 and any(c["height"] != c["width"] for c in cases)
    for c in cases:
        ours = sinusoidal_2d(c["height"], c["width"], c["d_model"])
        np.testing.assert_allclose(swap_halves(ours), c["table"], rtol=0, atol=1e-15)
        assert not np.allclose(ours, c["table"])


def test_timm_stacks_the_sines_of_both_coordinates_first_in_float32():
    # build_sincos2d_pos_embed([h, w], dim): [sin(row) | sin(col) | cos(row) | cos(col)], float32
    cases = [c for c in RUNS[V5]["sincos_2d"] if c["function"].startswith("timm")]
    assert len(cases) == 4
    for c in cases:
        assert c["dtype"] == "torch.float32"
        ours, q = sinusoidal_2d(c["height"], c["width"], c["d_model"]), c["d_model"] // 4
        sin_c, cos_c, sin_r, cos_r = (ours[:, i * q:(i + 1) * q] for i in range(4))
        timm = np.concatenate([sin_r, sin_c, cos_r, cos_c], axis=1)
        np.testing.assert_allclose(timm, c["table"], rtol=0, atol=2e-6)
        assert not np.allclose(ours, c["table"], atol=1e-3)


# --- bicubic resizing (DeiT's and MAE's interpolate_pos_embed) -------------------------


def torch_bicubic(image, new_h, new_w):
    """PyTorch's upsample_bicubic2d, align_corners=False, one output pixel at a time
    (aten/src/ATen/native/UpSampleBicubic2d.cpp and UpSample.h: source index
    (dst + 0.5) * scale - 0.5, not clamped for cubic; four taps clamped to the
    edges; cubic_convolution1/2 with A = -0.75; rows interpolated along x first)."""
    A = -0.75

    def conv1(x):
        return ((A + 2) * x - (A + 3)) * x * x + 1

    def conv2(x):
        return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A

    def coefficients(t):
        return [conv2(t + 1.0), conv1(t), conv1(1.0 - t), conv2(2.0 - t)]

    h, w = image.shape[:2]
    out = np.zeros((new_h, new_w) + image.shape[2:])
    for oy in range(new_h):
        real_y = (h / new_h) * (oy + 0.5) - 0.5
        in_y = int(np.floor(real_y))
        cy = coefficients(real_y - in_y)
        for ox in range(new_w):
            real_x = (w / new_w) * (ox + 0.5) - 0.5
            in_x = int(np.floor(real_x))
            cx = coefficients(real_x - in_x)
            rows = []
            for i in range(4):
                y = min(max(in_y - 1 + i, 0), h - 1)
                rows.append(sum(cx[j] * image[y, min(max(in_x - 1 + j, 0), w - 1)] for j in range(4)))
            out[oy, ox] = sum(cy[i] * rows[i] for i in range(4))
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 9), st.integers(1, 9),
       st.integers(0, 2**32 - 1))
def test_interpolate_table_is_pytorchs_bicubic(h, w, new_h, new_w, seed):
    table = np.random.default_rng(seed).normal(size=(h * w, 3))
    want = torch_bicubic(table.reshape(h, w, 3), new_h, new_w).reshape(-1, 3)
    np.testing.assert_allclose(interpolate_table(table, (h, w), (new_h, new_w)), want,
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("run", [V4, V5])
def test_interpolate_table_equals_torchs_interpolate(run):
    for c in RUNS[run]["interpolate"]:
        assert "bicubic" in c["function"] and "align_corners=False" in c["function"]
        ours = interpolate_table(c["table"], c["grid"], c["new_grid"])
        np.testing.assert_allclose(ours, c["resized"], rtol=0, atol=1e-13)


def test_timm_resamples_with_antialias_by_default_and_matches_without_it():
    """timm's resample_abs_pos_embed (issue 39): antialias=True, its default,
    is another resize; antialias=False is DeiT's and MAE's bicubic call, up to
    timm's float32."""
    cases = RUNS[V5]["resample"]
    assert {(c["name"], tuple(c["new_grid"])) for c in cases} == {
        ("ramp", (6, 6)), ("ramp", (2, 2)), ("normal", (6, 6)), ("normal", (4, 4))}
    gaps = {}
    for c in cases:
        assert "antialias=..." in c["function"] and "bicubic" in c["function"]
        ours = interpolate_table(c["table"], c["grid"], c["new_grid"])
        np.testing.assert_allclose(c["antialias=False"], ours, rtol=0, atol=2e-6)
        gaps[c["name"], tuple(c["new_grid"])] = np.abs(np.array(c["antialias=True"]) - ours).max()
    assert all(gap > 0.04 for gap in gaps.values())  # enlarging or shrinking, it differs
    # the chapter's numbers: the ramp's first row, and the gaps on N(0, 1) tables
    ramp = next(c for c in cases if c["name"] == "ramp" and c["new_grid"] == [6, 6])
    first_row = np.array(ramp["antialias=True"]).reshape(6, 6)[0]
    np.testing.assert_allclose(first_row, [-0.0658, 0.4118, 1.1667, 1.8333, 2.5882, 3.0658],
                               rtol=0, atol=5e-5)
    assert round(gaps["normal", (6, 6)], 2) == 0.22 and round(gaps["normal", (4, 4)], 2) == 0.79


def test_interpolate_table_keeps_constants_and_its_own_grid():
    table = np.random.default_rng(1).normal(size=(12, 4))
    np.testing.assert_array_equal(interpolate_table(table, (3, 4), (3, 4)), table)
    flat = np.full((6, 2), 0.7)
    np.testing.assert_allclose(interpolate_table(flat, (2, 3), (5, 4)), 0.7, atol=1e-15)
    assert interpolate_table(table.astype(np.float32), (3, 4), (6, 8)).dtype == np.float32


# --- axial 2-D RoPE ------------------------------------------------------------------------


def heo_axial(x, end_x, end_y, theta=100.0):
    """Heo et al.'s RoPE-Axial (naver-ai/rope-vit, self-attn/rope_self_attn.py):
    compute_axial_cis, then apply_rotary_emb on (x[2k], x[2k+1]) as complex numbers."""
    dim = x.shape[-1]
    freqs_x = 1.0 / (theta ** (np.arange(0, dim, 4)[: (dim // 4)] / dim))
    freqs_y = 1.0 / (theta ** (np.arange(0, dim, 4)[: (dim // 4)] / dim))
    t = np.arange(end_x * end_y, dtype=np.float64)
    t_x, t_y = t % end_x, np.floor(t / end_x)
    cis = np.concatenate([np.exp(1j * np.outer(t_x, freqs_x)),
                          np.exp(1j * np.outer(t_y, freqs_y))], axis=-1)
    xc = x[..., 0::2] + 1j * x[..., 1::2]
    out = xc * cis
    return np.stack([out.real, out.imag], axis=-1).reshape(x.shape)


@pytest.mark.parametrize("height, width, d", [(14, 14, 64), (3, 5, 8), (1, 7, 4), (4, 2, 12)])
def test_rope_2d_is_heos_rope_axial(height, width, d):
    x = np.random.default_rng(d).normal(size=(2, height * width, d))
    np.testing.assert_allclose(rope_2d(x, grid_positions(height, width)),
                               heo_axial(x, end_x=width, end_y=height), rtol=0, atol=1e-12)


def test_rope_2d_is_two_one_dimensional_ropes():
    x = np.random.default_rng(0).normal(size=(5, 8))
    where = np.array([[0, 0], [2, 1], [1, 3], [4, 4], [0.5, -2]])
    for layout in ("interleaved", "halves"):
        out = rope_2d(x, where, base=10.0, layout=layout)
        np.testing.assert_array_equal(out[:, :4], rope(x[:, :4], where[:, 1], base=10.0, layout=layout))
        np.testing.assert_array_equal(out[:, 4:], rope(x[:, 4:], where[:, 0], base=10.0, layout=layout))
    assert rope_2d(x.astype(np.float32), where).dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(rope_2d(x, where), axis=1), np.linalg.norm(x, axis=1))


@settings(max_examples=200, deadline=None)
@given(d=st.sampled_from([4, 8, 12, 16, 64]),
       base=st.floats(2.0, 1e4),
       layout=st.sampled_from(["interleaved", "halves"]),
       here=st.tuples(st.integers(-60, 60), st.integers(-60, 60)),
       there=st.tuples(st.integers(-60, 60), st.integers(-60, 60)),
       shift=st.tuples(st.integers(-1000, 1000), st.integers(-1000, 1000)),
       seed=st.integers(0, 2**32 - 1))
def test_rope_2d_scores_depend_only_on_the_2d_offset(d, base, layout, here, there, shift, seed):
    q, k = np.random.default_rng(seed).normal(size=(2, 1, d))
    here, there, shift = np.array([here]), np.array([there]), np.array([shift])

    def score(a, b):
        return float(rope_2d(q, a, base=base, layout=layout)[0] @ rope_2d(k, b, base=base, layout=layout)[0])

    scale = np.linalg.norm(q) * np.linalg.norm(k)
    moved = score(here + shift, there + shift)
    assert abs(moved - score(here, there)) <= 1e-9 * scale
    assert abs(moved - score(np.zeros((1, 2)), there - here)) <= 1e-9 * scale


@settings(max_examples=100, deadline=None)
@given(offset=st.tuples(st.integers(-30, 30), st.integers(-30, 30)).filter(lambda o: o != (0, 0)),
       seed=st.integers(0, 2**32 - 1))
def test_rope_2d_scores_see_the_row_and_the_column_apart(offset, seed):
    # q = k: the score at (dr, dc) is |q_col|^2-weighted cosines of dc plus those of dr,
    # so it falls below |q|^2 as soon as either offset is nonzero (base 100 has no alias
    # within 30 patches for a head of 8: its slow pair turns 0.1 per patch)
    q = np.random.default_rng(seed).normal(size=(1, 8))
    score = (rope_2d(q, [[0, 0]]) @ rope_2d(q, [list(offset)]).T).item()
    assert score < (q @ q.T).item() - 1e-9


# --- M-RoPE: Qwen2-VL's position ids -------------------------------------------------------------


IMAGE, VIDEO, VISION_START, TEXT = 151655, 151656, 151652, 100


def hf_get_rope_index(input_ids, image_grid_thw, video_grid_thw, m):
    """Transformers 4.x Qwen2VLModel.get_rope_index for one sequence without padding,
    transcribed with numpy (transformers/models/qwen2_vl/modeling_qwen2_vl.py, 4.57.6)."""
    input_ids = np.asarray(input_ids)
    vision_start_indices = np.flatnonzero(input_ids == VISION_START)
    vision_tokens = input_ids[vision_start_indices + 1]
    image_nums, video_nums = int((vision_tokens == IMAGE).sum()), int((vision_tokens == VIDEO).sum())
    input_tokens = input_ids.tolist()
    llm_pos_ids_list, st_, image_index, video_index = [], 0, 0, 0
    remain_images, remain_videos = image_nums, video_nums
    for _ in range(image_nums + video_nums):
        ed_image = input_tokens.index(IMAGE, st_) if IMAGE in input_tokens and remain_images > 0 \
            else len(input_tokens) + 1
        ed_video = input_tokens.index(VIDEO, st_) if VIDEO in input_tokens and remain_videos > 0 \
            else len(input_tokens) + 1
        if ed_image < ed_video:
            t, h, w = image_grid_thw[image_index]
            image_index, remain_images, ed = image_index + 1, remain_images - 1, ed_image
        else:
            t, h, w = video_grid_thw[video_index]
            video_index, remain_videos, ed = video_index + 1, remain_videos - 1, ed_video
        llm_grid_t, llm_grid_h, llm_grid_w = t, h // m, w // m
        text_len = ed - st_
        st_idx = llm_pos_ids_list[-1].max() + 1 if llm_pos_ids_list else 0
        llm_pos_ids_list.append(np.broadcast_to(np.arange(text_len), (3, text_len)) + st_idx)
        t_index = np.repeat(np.arange(llm_grid_t), llm_grid_h * llm_grid_w)
        h_index = np.tile(np.repeat(np.arange(llm_grid_h), llm_grid_w), llm_grid_t)
        w_index = np.tile(np.arange(llm_grid_w), llm_grid_t * llm_grid_h)
        llm_pos_ids_list.append(np.stack([t_index, h_index, w_index]) + text_len + st_idx)
        st_ = ed + llm_grid_t * llm_grid_h * llm_grid_w
    if st_ < len(input_tokens):
        st_idx = llm_pos_ids_list[-1].max() + 1 if llm_pos_ids_list else 0
        text_len = len(input_tokens) - st_
        llm_pos_ids_list.append(np.broadcast_to(np.arange(text_len), (3, text_len)) + st_idx)
    return np.concatenate(llm_pos_ids_list, axis=1).reshape(3, -1)


def qwen_tokens(segments, m):
    """Token ids of the segments as Qwen2-VL's processor lays them out: the last text
    token before each image is <|vision_start|>; an image of t x h x w patches is
    t * h * w / m**2 image tokens."""
    ids, images, videos = [], [], []
    for kind, size in segments:
        if kind == "text":
            ids += [TEXT] * size
        else:
            ids[-1] = VISION_START
            ids += [IMAGE if kind == "image" else VIDEO] * (size[0] * size[1] * size[2] // m**2)
            (images if kind == "image" else videos).append(tuple(size))
    return ids, images, videos


def as_posenc(segments):
    return [("image" if kind == "video" else kind, tuple(size) if kind != "text" else size)
            for kind, size in segments]


@st.composite
def qwen_segments(draw):
    m = draw(st.sampled_from([1, 2, 3]))
    segments = []
    for _ in range(draw(st.integers(0, 3))):
        segments.append(("text", draw(st.integers(1, 4))))
        size = (draw(st.integers(1, 3)), m * draw(st.integers(1, 4)), m * draw(st.integers(1, 4)))
        segments.append((draw(st.sampled_from(["image", "video"])), size))
    if draw(st.booleans()) or not segments:
        segments.append(("text", draw(st.integers(1, 4))))
    return segments, m


@settings(max_examples=300, deadline=None)
@given(qwen_segments())
def test_mrope_position_ids_are_get_rope_index(case):
    segments, m = case
    ids, images, videos = qwen_tokens(segments, m)
    want = hf_get_rope_index(ids, images, videos, m)
    got = mrope_position_ids(as_posenc(segments), spatial_merge_size=m)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, want)


def test_mrope_position_ids_equal_transformers_4():
    for c in RUNS[V4]["rope_index"]:
        got = mrope_position_ids(as_posenc(c["segments"]), spatial_merge_size=c["spatial_merge_size"])
        np.testing.assert_array_equal(got, c["position_ids"])


def test_transformers_5_differs_only_after_a_video_longer_than_it_is_wide():
    # 5.x advances past an image or video by max(h, w) // m, whatever t is; 4.x (and
    # posenc) by the largest id used, max(t, h / m, w / m): they differ only when
    # t > max(h, w) / m, and then only in the segments that come after it
    seen_difference = False
    for c in RUNS[V5]["rope_index"]:
        m = c["spatial_merge_size"]
        got = mrope_position_ids(as_posenc(c["segments"]), spatial_merge_size=m)
        want = np.array(c["position_ids"])
        lag, start = 0, 0
        expected = got.copy()
        for kind, size in c["segments"]:
            n = size if kind == "text" else size[0] * size[1] * size[2] // m**2
            expected[:, start:start + n] -= lag
            if kind != "text":
                lag += max(size[0], size[1] // m, size[2] // m) - max(size[1], size[2]) // m
            start += n
        np.testing.assert_array_equal(want, expected)
        seen_difference |= not np.array_equal(want, got)
    assert seen_difference


def test_text_alone_counts_one_by_one_and_an_image_starts_where_its_text_ends():
    np.testing.assert_array_equal(mrope_position_ids([("text", 4)]), np.tile(np.arange(4), (3, 1)))
    ids = mrope_position_ids([("text", 2), ("image", (1, 4, 6)), ("text", 1)], spatial_merge_size=2)
    assert ids.shape == (3, 2 + 6 + 1)
    np.testing.assert_array_equal(ids[:, 2:8], [[2] * 6, [2, 2, 2, 3, 3, 3], [2, 3, 4, 2, 3, 4]])
    np.testing.assert_array_equal(ids[:, 8], [5, 5, 5])  # after the largest id, 4
    assert mrope_position_ids([]).shape == (3, 0)


# --- M-RoPE: the rotation ----------------------------------------------------------------------


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def hf_mrope(q, position_ids, mrope_section, base):
    """Transformers 4.x: Qwen2VLRotaryEmbedding.forward (in float64), then
    apply_multimodal_rotary_pos_emb (transformers/models/qwen2_vl/modeling_qwen2_vl.py)."""
    d = q.shape[-1]
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))
    freqs = np.asarray(position_ids, dtype=np.float64)[:, :, None] * inv_freq  # (3, n, d/2)
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb), np.sin(emb)
    mrope_section = list(mrope_section) * 2
    edges = np.cumsum(mrope_section)[:-1]
    cos = np.concatenate([m[i % 3] for i, m in enumerate(np.split(cos, edges, axis=-1))], axis=-1)
    sin = np.concatenate([m[i % 3] for i, m in enumerate(np.split(sin, edges, axis=-1))], axis=-1)
    return q * cos + rotate_half(q) * sin


def hf_interleaved(q, position_ids, mrope_section, base):
    """Qwen3-VL: Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope (Transformers 4.57.6),
    then the usual rotate_half rotation."""
    d = q.shape[-1]
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))
    freqs = np.asarray(position_ids, dtype=np.float64)[:, :, None] * inv_freq  # (3, n, d/2)
    freqs_t = freqs[0].copy()  # just overwrite the first dimension T
    for dim, offset in enumerate((1, 2), start=1):  # H, W
        length = mrope_section[dim] * 3
        idx = slice(offset, length, 3)
        freqs_t[..., idx] = freqs[dim, ..., idx]
    emb = np.concatenate([freqs_t, freqs_t], axis=-1)
    return q * np.cos(emb) + rotate_half(q) * np.sin(emb)


@settings(max_examples=200, deadline=None)
@given(sections=st.lists(st.integers(0, 5), min_size=3, max_size=3).filter(lambda s: sum(s) > 0),
       repeat=st.integers(1, 2), n=st.integers(1, 6), base=st.sampled_from([100.0, 1e4, 1e6]),
       seed=st.integers(0, 2**32 - 1))
def test_mrope_is_apply_multimodal_rotary_pos_emb(sections, repeat, n, base, seed):
    sections = sections * repeat  # 3 or 6 sections: Transformers 4.x needs a multiple of 3
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(2, n, 2 * sum(sections)))
    ids = rng.integers(0, 200, size=(3, n))
    np.testing.assert_allclose(mrope(q, ids, sections=sections, base=base),
                               hf_mrope(q, ids, sections, base), rtol=0, atol=1e-12)


@pytest.mark.parametrize("run", [V4, V5])
def test_mrope_equals_transformers(run):
    cases = RUNS[run]["mrope"]
    assert any(c["sections"] == [16, 24, 24] and c["head_dim"] == 128 for c in cases)
    for c in cases:
        ours = mrope(c["q"], c["position_ids"], sections=c["sections"], base=c["base"])
        tolerance = 1e-5 if "float32" in c["function"] else 1e-12
        np.testing.assert_allclose(ours, c["q_rotated"], rtol=0, atol=tolerance)


@settings(max_examples=100, deadline=None)
@given(sections=st.lists(st.integers(0, 6), min_size=1, max_size=6).filter(lambda s: sum(s) > 0),
       n=st.integers(1, 8), seed=st.integers(0, 2**32 - 1))
def test_mrope_of_text_is_one_dimensional_rope_exactly(sections, n, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 2 * sum(sections)))
    positions = np.sort(rng.integers(0, 10**5, size=n))
    same = np.tile(positions, (3, 1))
    np.testing.assert_array_equal(mrope(x, same, sections=sections, base=1e6),
                                  rope(x, positions, base=1e6, layout="halves"))


@pytest.mark.parametrize("mrope_section", [(24, 20, 20), (4, 2, 2), (3, 3, 3)])
def test_qwen3_interleaved_mrope_is_sections_of_one_pair(mrope_section):
    t, h, w = mrope_section
    assert h == w  # Qwen3-VL interleaves h and w over 3 * h pairs; the rest follow time
    sections = [1] * (3 * h) + [t - h]
    q = np.random.default_rng(t).normal(size=(5, 2 * sum(mrope_section)))
    ids = np.random.default_rng(h).integers(0, 50, size=(3, 5))
    np.testing.assert_allclose(mrope(q, ids, sections=sections, base=5e6),
                               hf_interleaved(q, ids, mrope_section, 5e6), rtol=0, atol=1e-12)


@pytest.mark.parametrize("run", [V4, V5])
def test_qwen3_interleaved_mrope_equals_transformers(run):
    for c in RUNS[run]["mrope_interleaved"]:
        assert c["mrope_section"] == [24, 20, 20]
        ours = mrope(c["q"], c["position_ids"], sections=[1] * 60 + [4], base=c["base"])
        np.testing.assert_allclose(ours, c["q_rotated"], rtol=0, atol=1e-12)


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("call, error, words", [
    (lambda: sinusoidal_2d(2, 3, 6), ValueError, "^d_model must be divisible by 4"),
    (lambda: sinusoidal_2d(0, 3, 8), ValueError, "^height must be"),
    (lambda: sinusoidal_2d(2, -1, 8), ValueError, "^width must be"),
    (lambda: sinusoidal_2d(2, 3.0, 8), TypeError, "^width must be an integer"),
    (lambda: sinusoidal_2d(2, 3, 8, layout="rows"), ValueError, "^layout must be one of"),
    (lambda: sinusoidal_2d(2**20, 2**20, 8), ValueError, "height \\* width \\* d_model"),
    (lambda: grid_positions(3, 0), ValueError, "^width must be"),
    (lambda: interpolate_table(np.ones((5, 2)), (2, 3), (4, 4)), ValueError, "^table must have one row per patch"),
    (lambda: interpolate_table(np.ones((6, 2)), 6, (4, 4)), TypeError, "^grid must be a pair"),
    (lambda: interpolate_table(np.ones((6, 2)), (2, 3), (4, 0)), ValueError, r"^new_grid\[1\] must be"),
    (lambda: interpolate_table(np.ones(6), (2, 3), (4, 4)), ValueError, "^table must have 2 dimension"),
    (lambda: interpolate_table(np.ones((6, 2), dtype=bool), (2, 3), (4, 4)), TypeError, "^table must"),
    (lambda: rope_2d(np.ones((2, 6)), [[0, 0], [0, 1]]), ValueError, "divisible by 4"),
    (lambda: rope_2d(np.ones((2, 4)), [0, 1]), ValueError, "^positions must have 2 dimension"),
    (lambda: rope_2d(np.ones((2, 4)), [[0, 0, 0], [0, 1, 1]]), ValueError, r"^positions must hold one \(row, column\)"),
    (lambda: rope_2d(np.ones((3, 4)), [[0, 0], [0, 1]]), ValueError, r"shape \(3, 2\)"),
    (lambda: rope_2d(np.ones(4), [[0, 0]]), ValueError, "^x must have at least 2"),
    (lambda: rope_2d(np.ones((1, 4)), [[0, 0]], base=1.0), ValueError, "^base must be greater than 1"),
    (lambda: mrope_position_ids("text"), TypeError, "^segments must be a list"),
    (lambda: mrope_position_ids([("text", -1)]), ValueError, r"^segments\[0\]\[1\] must be an integer >= 0"),
    (lambda: mrope_position_ids([("audio", 3)]), ValueError, r"^segments\[0\]\[0\] must be one of"),
    (lambda: mrope_position_ids([("text", 1), ("image", (1, 3, 4))], spatial_merge_size=2),
     ValueError, r"^segments\[1\]: the image's h = 3 patches is not divisible by spatial_merge_size = 2"),
    (lambda: mrope_position_ids([("image", (1, 4, 5))], spatial_merge_size=2), ValueError, "w = 5"),
    (lambda: mrope_position_ids([("image", (0, 2, 2))]), ValueError, r"^segments\[0\]\[1\]\[0\] must be"),
    (lambda: mrope_position_ids([("image", (1, 2))]), TypeError, r"^segments\[0\]\[1\] must be the image's \(t, h, w\)"),
    (lambda: mrope_position_ids([("text",)]), TypeError, r"^segments\[0\] must be"),
    (lambda: mrope_position_ids([("text", 2.0)]), TypeError, r"^segments\[0\]\[1\] must be an integer"),
    (lambda: mrope_position_ids([("text", 1)], spatial_merge_size=0), ValueError, "^spatial_merge_size must be"),
    (lambda: mrope_position_ids([("image", (1, 2**15, 2**15))]), ValueError, "t \\* h \\* w"),
    (lambda: mrope(np.ones((2, 8)), np.zeros((3, 2)), sections=[2, 1, 2]), ValueError,
     r"^sections must add up to d / 2 pairs, 4 for x of width 8"),
    (lambda: mrope(np.ones((2, 8)), np.zeros((2, 2)), sections=[2, 1, 1]), ValueError,
     r"^position_ids must hold three ids .* shape \(3, 2\), got \(2, 2\)"),
    (lambda: mrope(np.ones((2, 8)), np.zeros((3, 2)), sections=[2, -1, 3]), ValueError, r"^sections\[1\] must be"),
    (lambda: mrope(np.ones((2, 8)), np.zeros((3, 2)), sections=[]), TypeError, "^sections must be a non-empty"),
    (lambda: mrope(np.ones((2, 8)), np.zeros((3, 2)), sections="211"), TypeError, "^sections must be"),
    (lambda: mrope(np.ones((2, 8)), np.zeros((3, 2)), sections=[2.0, 1, 1]), TypeError, r"^sections\[0\] must be an integer"),
    (lambda: mrope(np.ones((2, 8)), np.full((3, 2), np.inf), sections=[2, 1, 1]), ValueError, "^position_ids must contain only finite"),
    (lambda: mrope(np.ones((2, 8)), np.zeros((3, 2)), sections=[2, 1, 1], base=0.5), ValueError, "^base must be greater"),
])
def test_bad_input_is_refused_by_name(call, error, words):
    with pytest.raises(error, match=words):
        call()


# ---------------------------------------------------------------------------
# Issue 40: no silent infinity, the one size cap, 0-d arrays, rope_2d's base
# ---------------------------------------------------------------------------

FLOATS = [np.float16, np.float32, np.float64]


@pytest.mark.parametrize("dtype", FLOATS)
def test_mrope_refuses_a_result_beyond_its_dtype_by_name(dtype):
    # mrope(np.full((2, 4), 65504, np.float16), ...) returned inf; rope refuses it
    big = np.finfo(dtype).max
    x = np.full((2, 4), big, dtype)
    ids = [[0, 1]] * 3
    with pytest.raises(ValueError, match=rf"^x turned by its angles does not fit in {np.dtype(dtype)}"):
        mrope(x, ids, sections=[1, 1])
    with pytest.raises(ValueError, match="^x turned by its angles"):
        rope(x, [0, 1], layout="halves")  # the same refusal as rope's
    np.testing.assert_array_equal(mrope(x, [[0, 0]] * 3, sections=[1, 1]), x)  # angle 0: fits


@pytest.mark.parametrize("dtype", FLOATS)
def test_interpolate_table_refuses_an_overshoot_beyond_its_dtype_by_name(dtype):
    # Keys' kernel overshoots next to a step: a float16 table at 65504 gave inf
    big = np.finfo(dtype).max
    step = np.array([0.0, 0.0, big, big], dtype)[:, None]  # a 1 x 4 grid
    with pytest.raises(ValueError, match=rf"^table resized bicubically .* does not fit in {np.dtype(dtype)}"):
        interpolate_table(step, (1, 4), (1, 7))
    flat = np.full((4, 1), big / 4, dtype)  # no step, no overshoot: the same numbers
    np.testing.assert_allclose(interpolate_table(flat, (2, 2), (3, 3)), np.full((9, 1), big / 4),
                               rtol=1e-14)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(FLOATS))
def test_mrope_gives_finite_numbers_or_a_named_refusal(data, dtype):
    # finite inputs in the dtype's range: finite outputs, or a refusal naming x
    from hypothesis.extra import numpy as hnp

    n = data.draw(st.integers(1, 3))
    x = data.draw(hnp.arrays(dtype, (n, 4), elements=st.floats(width=np.finfo(dtype).bits,
                                                               allow_nan=False, allow_infinity=False)))
    ids = data.draw(hnp.arrays(np.float64, (3, n), elements=st.floats(-1e300, 1e300)))
    try:
        out = mrope(x, ids, sections=[1, 1])
    except ValueError as error:
        assert str(error).startswith("x turned by its angles does not fit"), error
    else:
        assert out.dtype == dtype and np.isfinite(out).all()


@settings(max_examples=60, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(FLOATS))
def test_interpolate_table_gives_finite_numbers_or_a_named_refusal(data, dtype):
    from hypothesis.extra import numpy as hnp

    h, w, new_h, new_w = (data.draw(st.integers(1, 4)) for _ in range(4))
    table = data.draw(hnp.arrays(dtype, (h * w, 2), elements=st.floats(
        width=np.finfo(dtype).bits, allow_nan=False, allow_infinity=False)))
    try:
        out = interpolate_table(table, (h, w), (new_h, new_w))
    except ValueError as error:
        assert str(error).startswith("table resized bicubically"), error
    else:
        assert out.dtype == dtype and np.isfinite(out).all()


def test_interpolate_table_counts_its_weights_before_building_them():
    # 2048 rows resized to 2**17 built 2 GiB of weights for 2**17 numbers
    with memory_limit(), pytest.raises(ValueError, match=r"^new_grid = \(131072, 1\) from grid = "
                                                         r"\(2048, 1\) with 1 columns: the weights "
                                                         r".* would need 270796817 numbers"):
        interpolate_table(np.zeros((2048, 1)), (2048, 1), (2**17, 1))


@pytest.mark.parametrize("segments", [[("text", 10**10)], [("text", 2**27)],
                                      [("text", 2**26), ("text", 2**26)]])
def test_mrope_position_ids_counts_every_segment_before_building_any(segments):
    # ("text", 10**10) allocated 74.5 GiB; ("text", 2**27) took 1 GiB for 6 s
    with memory_limit(), pytest.raises(ValueError, match=r"^3 ids for each of the [0-9]+ tokens of "
                                                         r"segments would need"):
        mrope_position_ids(segments)


def test_rope_2d_refuses_base_none_instead_of_using_ropes_default():
    # rope_2d(..., base=None) quietly used rope's 10000, not its documented 100
    with pytest.raises(TypeError, match="^base must be a real number, got None"):
        rope_2d(np.ones((2, 4)), [[0, 0], [1, 2]], base=None)


@pytest.mark.parametrize("call, error, words", [
    # a 0-d array where a pair or a list is expected: "len() of unsized object"
    (lambda: interpolate_table(np.ones((6, 2)), np.array(6), (4, 4)), TypeError, "^grid must be a pair"),
    (lambda: interpolate_table(np.ones((6, 2)), (2, 3), np.array(4)), TypeError, "^new_grid must be a pair"),
    (lambda: mrope(np.ones((2, 8)), np.zeros((3, 2)), sections=np.array(4)), TypeError,
     "^sections must be a non-empty sequence"),
    (lambda: mrope_position_ids(np.array(3)), TypeError, "^segments must be a list"),
    (lambda: mrope_position_ids([np.array(3)]), TypeError, r"^segments\[0\] must be"),
    (lambda: mrope_position_ids([("image", np.array(3))]), TypeError,
     r"^segments\[0\]\[1\] must be the image's \(t, h, w\)"),
    (lambda: init_model("rope_2d", grid=np.array(3)), TypeError, "^grid must be a pair"),
    # x of width 0: the message named d_model, which mrope does not have
    (lambda: mrope(np.ones((2, 0)), np.zeros((3, 2)), sections=[0, 0]), ValueError,
     "^the last dimension of x must be even and at least 2"),
])
def test_issue_40_bad_input_is_refused_by_name(call, error, words):
    with pytest.raises(error, match=words):
        call()
