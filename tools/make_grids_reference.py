"""Compute the reference values of tests/fixtures/grids_reference.json (chapter 8).

Run by hand, in scratch environments outside the repository: it needs torch
and Hugging Face Transformers (and timm, when installed), which the book and
its tests do not install. Transformers changed its Qwen2-VL code between 4.x
and 5.x, so the file holds one run per Transformers version; each run adds
its own entry, keyed by the version, and keeps the others:

    python -m venv /tmp/refvenv4
    /tmp/refvenv4/bin/pip install torch==2.13.0 transformers==4.57.6
    /tmp/refvenv4/bin/python tools/make_grids_reference.py tests/fixtures/grids_reference.json
    python -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install torch==2.13.0 transformers==5.24.0 timm==1.0.31
    /tmp/refvenv/bin/python tools/make_grids_reference.py tests/fixtures/grids_reference.json

What each run records (numbers written with ``repr`` of their float64
value, so nothing is rounded again):

* ``sincos_2d``: the 2-D sine-cosine table of Transformers' ViT-MAE port
  (4.x: ``get_2d_sincos_pos_embed``, MAE's numpy code; 5.x:
  ``build_2d_sinusoidal_position_embedding``, in torch) and of timm
  (``timm.layers.pos_embed_sincos.build_sincos2d_pos_embed``), as returned;
* ``interpolate``: ``torch.nn.functional.interpolate(mode="bicubic",
  align_corners=False)`` in float64, the call of DeiT's and MAE's
  ``interpolate_pos_embed``, on tables laid out as their code lays them
  out (``reshape(-1, h, w, d).permute(0, 3, 1, 2)``), same for every run;
* ``rope_index``: ``Qwen2VLModel.get_rope_index`` on token sequences built
  from segments (text; ``<|vision_start|>``, the image's or video's
  tokens), with ``spatial_merge_size`` from the case;
* ``mrope``: Qwen2-VL's rotation of a random query, through Transformers'
  own functions: 4.x ``apply_multimodal_rotary_pos_emb(q, k, cos, sin,
  mrope_section)``, 5.x ``Qwen2VLRotaryEmbedding.recomposition_frequencies``
  then ``apply_rotary_pos_emb``. Their ``cos`` and ``sin`` are computed in
  float64 the way ``Qwen2VLRotaryEmbedding.forward`` computes them in
  float32 (``inv_freq = 1 / base ** (arange(0, d, 2) / d)``, angles = id *
  inv_freq, ``cat((freqs, freqs))``), so that the comparison is tight; one
  case also runs ``forward`` itself, in float32;
* ``mrope_interleaved``: the same for Qwen3-VL's interleaved layout
  (4.x ``Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope``, 5.x its
  ``recomposition_frequencies``), where the version has it;
* ``resample``: timm's ``resample_abs_pos_embed`` (the resize of its ViTs'
  ``pos_embed``, bicubic) with ``antialias=True``, its default, and
  ``False``, on chapter 8's ramp and on tables of N(0, 1) entries, enlarged
  and shrunk, where timm is installed (it computes in float32).

tests/unit/test_positions2d.py reads the file; it needs neither torch nor
Transformers.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import pathlib
import sys
import types

import numpy as np
import torch
import transformers
from transformers.models.qwen2_vl import modeling_qwen2_vl as qwen2_vl

IMAGE, VIDEO, VISION_START, TEXT = 151655, 151656, 151652, 100  # Qwen2-VL's token ids


def floats(x):
    return np.asarray(x.detach().double() if isinstance(x, torch.Tensor) else x,
                      dtype=np.float64).tolist()


def version(name):
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return None


# --- 2-D sine-cosine tables ----------------------------------------------------------


SINCOS_CASES = [(4, 4, 16), (5, 5, 32), (3, 5, 16), (2, 6, 8)]  # (height, width, d)


def sincos_2d():
    from transformers.models.vit_mae import modeling_vit_mae as mae

    out = []
    for height, width, d in SINCOS_CASES:
        if hasattr(mae, "get_2d_sincos_pos_embed"):  # 4.x: MAE's numpy code, square grids
            if height != width:
                continue
            table = mae.get_2d_sincos_pos_embed(d, height)
            function = "transformers.models.vit_mae.modeling_vit_mae.get_2d_sincos_pos_embed(d, size)"
        else:
            table = mae.build_2d_sinusoidal_position_embedding(height, width, d, dtype=torch.float64)
            function = ("transformers.models.vit_mae.modeling_vit_mae."
                        "build_2d_sinusoidal_position_embedding(h, w, d, dtype=torch.float64)")
        out.append({"height": height, "width": width, "d_model": d, "function": function,
                    "dtype": str(np.asarray(table).dtype if not isinstance(table, torch.Tensor)
                                 else table.dtype), "table": floats(table)})
    build_sincos2d_pos_embed = _timm_sincos()
    if build_sincos2d_pos_embed is None:
        return out
    for height, width, d in SINCOS_CASES:
        table = build_sincos2d_pos_embed([height, width], dim=d)
        out.append({"height": height, "width": width, "d_model": d,
                    "function": "timm.layers.pos_embed_sincos.build_sincos2d_pos_embed([h, w], dim=d)",
                    "dtype": str(table.dtype), "table": floats(table)})
    return out


def _timm_sincos():
    """timm's ``build_sincos2d_pos_embed``, or None without timm.

    ``import timm`` imports torchvision, whose PyPI wheel does not load next
    to the CPU build of torch 2.13.0; ``timm/layers/pos_embed_sincos.py``
    itself needs only torch, so it is then imported without running the
    ``__init__.py`` of ``timm`` and ``timm.layers``.
    """
    try:
        from timm.layers.pos_embed_sincos import build_sincos2d_pos_embed
        return build_sincos2d_pos_embed
    except ImportError:
        pass
    import importlib
    import importlib.util

    spec = importlib.util.find_spec("timm")
    if spec is None:
        return None
    for name in ("timm", "timm.layers"):  # empty packages over the real folders
        sys.modules.pop(name, None)
        package = types.ModuleType(name)
        package.__path__ = [str(pathlib.Path(spec.origin).parent / name.partition(".")[2])]
        sys.modules[name] = package
    return importlib.import_module("timm.layers.pos_embed_sincos").build_sincos2d_pos_embed


# --- bicubic interpolation (DeiT's and MAE's interpolate_pos_embed) -----------------------


INTERPOLATE_CASES = [((2, 2), (3, 3)), ((4, 4), (6, 6)), ((4, 4), (8, 8)), ((3, 5), (4, 7)),
                     ((6, 6), (4, 4)), ((3, 3), (3, 3)), ((5, 2), (2, 5))]


def interpolate():
    rng = np.random.default_rng(29)
    out = []
    for (h, w), (new_h, new_w) in INTERPOLATE_CASES:
        table = rng.normal(size=(h * w, 3))
        image = torch.tensor(table).reshape(-1, h, w, 3).permute(0, 3, 1, 2)  # as interpolate_pos_embed
        resized = torch.nn.functional.interpolate(image, size=(new_h, new_w), mode="bicubic",
                                                  align_corners=False)
        resized = resized.permute(0, 2, 3, 1).flatten(1, 2)[0]
        out.append({"grid": [h, w], "new_grid": [new_h, new_w], "table": floats(table),
                    "function": "torch.nn.functional.interpolate(mode='bicubic', align_corners=False)",
                    "resized": floats(resized)})
    return out


# timm's resize of a position table: resample_abs_pos_embed, whose default is
# antialias=True; (name, the table, its grid, the new grid)
def _resample_cases():
    rng = np.random.default_rng(0)
    ramp = np.tile(np.arange(4.0), 4)[:, None]  # chapter 8's ramp: value = column
    cases = [("ramp", ramp, (4, 4), (6, 6)), ("ramp", ramp, (4, 4), (2, 2))]
    for old, new in [((4, 4), (6, 6)), ((8, 8), (4, 4))]:  # N(0, 1), as a learned table starts
        cases.append(("normal", rng.normal(size=(old[0] * old[1], 2)), old, new))
    return cases


def resample():
    """timm's ``resample_abs_pos_embed`` with and without antialiasing, or [] without timm."""
    try:
        from timm.layers.pos_embed import resample_abs_pos_embed
    except ImportError:
        return []
    out = []
    for name, table, old, new in _resample_cases():
        entry = {"name": name, "grid": list(old), "new_grid": list(new), "table": floats(table)}
        for antialias in (True, False):
            resized = resample_abs_pos_embed(torch.tensor(table)[None], new_size=list(new),
                                             old_size=list(old), num_prefix_tokens=0,
                                             interpolation="bicubic", antialias=antialias)
            entry[f"antialias={antialias}"] = floats(resized[0])
            entry["dtype"] = str(resized.dtype).removeprefix("torch.")
        entry["function"] = ("timm.layers.pos_embed.resample_abs_pos_embed(table[None], new_size, "
                             "old_size, num_prefix_tokens=0, interpolation='bicubic', antialias=...)")
        out.append(entry)
    return out


# --- Qwen2-VL's position ids ------------------------------------------------------------


ROPE_INDEX_CASES = [  # (segments, spatial_merge_size); every image follows some text
    ([["text", 3], ["image", [1, 4, 6]], ["text", 4]], 2),
    ([["text", 1], ["image", [1, 2, 2]], ["text", 2], ["image", [1, 6, 4]], ["text", 3]], 2),
    ([["text", 2], ["image", [1, 3, 5]], ["text", 1]], 1),
    ([["text", 5], ["image", [1, 28, 42]], ["text", 7]], 2),
    ([["text", 1], ["image", [1, 2, 2]]], 2),
    ([["text", 2], ["video", [2, 8, 8]], ["text", 3]], 2),
    ([["text", 2], ["video", [3, 4, 4]], ["text", 2]], 2),
    ([["text", 1], ["image", [1, 4, 4]], ["text", 1]], 2),
]


def tokens_of(segments, m):
    ids, types_ = [], []
    for kind, size in segments:
        if kind == "text":
            ids += [TEXT] * size
            types_ += [0] * size
        else:
            n = size[0] * size[1] * size[2] // m**2
            ids[-1] = VISION_START  # the last text token opens the image
            ids += [IMAGE if kind == "image" else VIDEO] * n
            types_ += [1 if kind == "image" else 2] * n
    return torch.tensor([ids]), torch.tensor([types_])


def rope_index():
    get_rope_index = qwen2_vl.Qwen2VLModel.get_rope_index
    out = []
    for segments, m in ROPE_INDEX_CASES:
        input_ids, token_types = tokens_of(segments, m)
        images = [s for k, s in segments if k == "image"]
        videos = [s for k, s in segments if k == "video"]
        config = types.SimpleNamespace(
            vision_config=types.SimpleNamespace(spatial_merge_size=m), image_token_id=IMAGE,
            video_token_id=VIDEO, vision_start_token_id=VISION_START)
        fake = types.SimpleNamespace(config=config)
        kwargs = dict(image_grid_thw=torch.tensor(images) if images else None,
                      video_grid_thw=torch.tensor(videos) if videos else None)
        if hasattr(qwen2_vl.Qwen2VLModel, "get_vision_position_ids"):  # 5.x: token types
            fake.get_vision_position_ids = types.MethodType(
                qwen2_vl.Qwen2VLModel.get_vision_position_ids, fake)
            ids, _ = get_rope_index(fake, input_ids, token_types, **kwargs)
        else:
            ids, _ = get_rope_index(fake, input_ids, **kwargs)
        out.append({"segments": segments, "spatial_merge_size": m,
                    "function": "Qwen2VLModel.get_rope_index", "position_ids": ids[:, 0].tolist()})
    return out


# --- M-RoPE ---------------------------------------------------------------------------------


MROPE_CASES = [  # (head width, sections, base, index of a ROPE_INDEX_CASES entry for the ids)
    (128, [16, 24, 24], 1000000.0, 7),
    (16, [2, 3, 3], 10000.0, 6),
    (8, [1, 2, 1], 10000.0, 2),
    (16, [2, 1, 1, 1, 2, 1], 100.0, 1),
]


def _angles(position_ids, d, base):
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    return position_ids.double()[:, None, :, None] * inv_freq  # (3, 1, n, d/2)


def _rotate(q, angles, sections):
    """Transformers' M-RoPE on q, from float64 angles (3, 1, n, d/2)."""
    if hasattr(qwen2_vl, "apply_multimodal_rotary_pos_emb"):  # 4.x
        emb = torch.cat((angles, angles), dim=-1)
        q_out, _ = qwen2_vl.apply_multimodal_rotary_pos_emb(q, q, emb.cos(), emb.sin(), list(sections))
        return q_out, "apply_multimodal_rotary_pos_emb(q, k, cos, sin, mrope_section)"
    rotary = qwen2_vl.Qwen2VLRotaryEmbedding.__new__(qwen2_vl.Qwen2VLRotaryEmbedding)
    rotary.mrope_section = list(sections)
    cos = rotary.recomposition_frequencies(angles.cos())
    sin = rotary.recomposition_frequencies(angles.sin())
    q_out, _ = qwen2_vl.apply_rotary_pos_emb(q, q, cos, sin)
    return q_out, "Qwen2VLRotaryEmbedding.recomposition_frequencies, then apply_rotary_pos_emb"


def mrope(index_cases):
    rng = np.random.default_rng(8)
    out = []
    for d, sections, base, which in MROPE_CASES:
        ids = torch.tensor(index_cases[which]["position_ids"])  # (3, n)
        q = torch.tensor(rng.normal(size=(1, 1, ids.shape[1], d)))  # (batch, heads, n, d)
        q_out, function = _rotate(q, _angles(ids, d, base), sections)
        out.append({"head_dim": d, "sections": sections, "base": base,
                    "position_ids": ids.tolist(), "q": floats(q[0, 0]), "function": function,
                    "q_rotated": floats(q_out[0, 0])})
    # the rotary class itself, in float32, for Qwen2-VL's configuration
    d, sections, base, which = MROPE_CASES[0]
    ids = torch.tensor(index_cases[which]["position_ids"])
    config = qwen2_vl.Qwen2VLTextConfig(head_dim=d, hidden_size=d * 4, num_attention_heads=4)
    rope_params = {"rope_type": "default", "mrope_section": sections, "rope_theta": base}
    if hasattr(config, "rope_parameters"):  # 5.x
        config.rope_parameters = rope_params
    else:
        config.rope_theta, config.rope_scaling = base, rope_params
    rotary = qwen2_vl.Qwen2VLRotaryEmbedding(config)
    q = torch.tensor(rng.normal(size=(1, 1, ids.shape[1], d)), dtype=torch.float32)
    cos, sin = rotary(q, ids[:, None, :])
    if hasattr(qwen2_vl, "apply_multimodal_rotary_pos_emb"):
        q_out, _ = qwen2_vl.apply_multimodal_rotary_pos_emb(q, q, cos, sin, sections)
    else:
        q_out, _ = qwen2_vl.apply_rotary_pos_emb(q, q, cos, sin)
    out.append({"head_dim": d, "sections": sections, "base": base, "position_ids": ids.tolist(),
                "q": floats(q[0, 0]), "function": "Qwen2VLRotaryEmbedding(config).forward, float32",
                "q_rotated": floats(q_out[0, 0])})
    return out


def mrope_interleaved(index_cases):
    """Qwen3-VL's interleaved M-RoPE, where this version of Transformers has it."""
    try:
        from transformers.models.qwen3_vl import modeling_qwen3_vl as qwen3_vl
    except ImportError:
        return []
    rng = np.random.default_rng(3)
    d, base, sections = 128, 5000000.0, [24, 20, 20]
    ids = torch.tensor(index_cases[7]["position_ids"])
    q = torch.tensor(rng.normal(size=(1, 1, ids.shape[1], d)))
    angles = _angles(ids, d, base)
    rotary = qwen3_vl.Qwen3VLTextRotaryEmbedding.__new__(qwen3_vl.Qwen3VLTextRotaryEmbedding)
    rotary.mrope_section = sections
    if hasattr(rotary, "recomposition_frequencies"):  # 5.x: cos and sin, doubled
        cos = rotary.recomposition_frequencies(angles.cos())
        sin = rotary.recomposition_frequencies(angles.sin())
        function = "Qwen3VLTextRotaryEmbedding.recomposition_frequencies, then apply_rotary_pos_emb"
    else:  # 4.x: the angles, interleaved, then doubled
        freqs = rotary.apply_interleaved_mrope(angles.clone(), sections)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        function = "Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope, then apply_rotary_pos_emb"
    q_out, _ = qwen3_vl.apply_rotary_pos_emb(q, q, cos, sin)
    return [{"head_dim": d, "mrope_section": sections, "base": base, "position_ids": ids.tolist(),
             "q": floats(q[0, 0]), "function": function, "q_rotated": floats(q_out[0, 0])}]


def main():
    path = pathlib.Path(sys.argv[1])
    data = json.loads(path.read_text()) if path.exists() else {
        "about": "Reference values for tests/unit/test_positions2d.py, made by "
                 "tools/make_grids_reference.py (one run per Transformers version)",
        "runs": {}}
    torch.manual_seed(0)
    index_cases = rope_index()
    run = {"versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                        "timm": version("timm"), "numpy": np.__version__},
           "sincos_2d": sincos_2d(), "interpolate": interpolate(), "rope_index": index_cases,
           "mrope": mrope(index_cases), "mrope_interleaved": mrope_interleaved(index_cases),
           "resample": resample()}
    data["runs"][f"transformers {transformers.__version__}"] = run
    path.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print(f"{path}: added the run of transformers {transformers.__version__}")


if __name__ == "__main__":
    main()
