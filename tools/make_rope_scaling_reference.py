"""Compute the reference values of tests/fixtures/rope_scaling_reference.json.

Run ONCE, by hand, in a scratch environment outside the repository: it needs
torch, Hugging Face Transformers, Meta's llama-models and a checkout of the
YaRN authors' repository, none of which the book or its tests install.

    python -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install torch==2.13.0 transformers==5.24.0
    /tmp/refvenv/bin/pip install --no-deps llama-models==0.3.0
    # three files of the YaRN repository's folder scaled_rope/
    # (github.com/jquesnelle/yarn; see YARN_FILES for their commits),
    # copied to /tmp/yarn_ref/scaled_rope/ with an empty __init__.py
    /tmp/refvenv/bin/python tools/make_rope_scaling_reference.py \
        --yarn /tmp/yarn_ref > tests/fixtures/rope_scaling_reference.json

``--sweep`` writes, instead, Transformers' float32 frequencies of YaRN and
Llama 3.1's rule on a grid of head widths, bases, contexts, factors and
edges (``SWEEP``), which needs neither llama-models nor the YaRN files:

    /tmp/refvenv/bin/python tools/make_rope_scaling_reference.py --sweep \
        > tests/fixtures/rope_scaling_sweep.json

Each case records the arguments of ``posenc.rope_frequencies`` (head_dim,
base, scaling, seq_len), the inverse frequencies and attention factor that
each reference implementation returned (written out with ``repr`` of their
float64 value so nothing is rounded again), the dtype they were computed in,
and which function of which package produced them. tests/unit/test_scaling.py
reads this file; it needs neither torch nor Transformers.

Every Transformers function is called twice: as it runs (float32), and once
more with ``torch.float`` and ``torch.float32`` pointing to ``torch.float64``,
so that its own formula runs in float64. The first shows how closely posenc
matches the models as they run; the second that the formulas are the same,
and that the difference between the two is float32's rounding.

Sources:

* Transformers: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS``
  (``linear``, ``dynamic``, ``yarn``, ``llama3``) and, for plain RoPE,
  ``LlamaRotaryEmbedding.compute_default_rope_parameters`` (in Transformers
  5 the ``default`` entry moved out of ``ROPE_INIT_FUNCTIONS`` into each
  model's rotary class), called with a ``LlamaConfig``.
* YaRN (Peng et al., 2023): ``scaled_rope/LlamaYaRNScaledRotaryEmbedding``
  (``inv_freq`` and ``mscale``), ``LlamaNTKScaledRotaryEmbedding`` (fixed
  NTK-aware, ``alpha`` = factor) and ``LlamaDynamicScaledRotaryEmbedding``
  (dynamic NTK, ``ntk`` = factor, after a forward pass of ``seq_len``).
* Meta: ``llama_models.llama3.model.apply_scaling`` (Llama 3.1; factor 8,
  low_freq_factor 1, high_freq_factor 4 and context 8192 are constants of
  that function). Its module imports fairscale, so the function's source is
  taken from the file with ``ast`` and run as it is.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.metadata as md
import json
import math
import pathlib
import sys

import torch
import transformers
from transformers import LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding


def _floats(t):
    return [float(v) for v in t.detach().cpu().double().tolist()]


def rope_type_of(scaling):
    return scaling.get("rope_type", scaling.get("type"))


@contextlib.contextmanager
def torch_float_is_float64():
    """Make torch.float and torch.float32 mean float64 for a while."""
    saved = torch.float, torch.float32
    torch.float = torch.float32 = torch.float64
    try:
        yield
    finally:
        torch.float, torch.float32 = saved


def hf(head_dim, base, scaling, seq_len, float64=False):
    """Transformers' inverse frequencies and attention factor."""
    scaling = dict(scaling or {"rope_type": "default"})
    rope_type = rope_type_of(scaling)
    params = dict(scaling) if base is None else {**scaling, "rope_theta": base}
    original = scaling.get("original_max_position_embeddings")
    if rope_type == "dynamic":
        # Transformers reads the pretraining context of "dynamic" from the
        # model's max_position_embeddings, not from rope_parameters
        max_pos = params.pop("original_max_position_embeddings")
    elif original is not None:
        max_pos = int(original * scaling["factor"])
    else:
        max_pos = 4096
    config = LlamaConfig(hidden_size=head_dim * 4, num_attention_heads=4, head_dim=head_dim,
                         max_position_embeddings=max_pos, rope_parameters=params)
    with torch_float_is_float64() if float64 else contextlib.nullcontext():
        if rope_type == "default":
            inv_freq, attention = LlamaRotaryEmbedding.compute_default_rope_parameters(config)
            function = "LlamaRotaryEmbedding.compute_default_rope_parameters"
        else:
            inv_freq, attention = ROPE_INIT_FUNCTIONS[rope_type](config, None, seq_len=seq_len)
            function = f"modeling_rope_utils.ROPE_INIT_FUNCTIONS[{rope_type!r}]"
    assert inv_freq.dtype == (torch.float64 if float64 else torch.float32)
    if float64:
        function += " with torch.float and torch.float32 set to torch.float64"
    return {"package": f"transformers {transformers.__version__}", "function": function,
            "dtype": str(inv_freq.dtype).removeprefix("torch."),
            "inv_freq": _floats(inv_freq), "attention_factor": float(attention)}


YARN_FILES = {  # the files of github.com/jquesnelle/yarn used, and their commits
    "LlamaYaRNScaledRotaryEmbedding.py": "a18e549",
    "LlamaNTKScaledRotaryEmbedding.py": "eac10bd",
    "LlamaDynamicScaledRotaryEmbedding.py": "2ed02c7",
}


def yarn_repo(folder, head_dim, base, scaling, seq_len):
    """The YaRN authors' rotary classes, where one matches the type."""
    sys.path.insert(0, str(folder))
    rope_type = rope_type_of(scaling)
    base = scaling.get("rope_theta", base)

    def where(name):
        return f"jquesnelle/yarn {YARN_FILES[name]}, scaled_rope/{name}"

    if rope_type == "yarn":
        if not scaling.get("truncate", True) or {"attention_factor", "mscale"} & set(scaling):
            return None  # the paper's code always truncates; its attn_factor multiplies
        from scaled_rope.LlamaYaRNScaledRotaryEmbedding import LlamaYaRNScaledRotaryEmbedding
        emb = LlamaYaRNScaledRotaryEmbedding(
            head_dim, max_position_embeddings=16, base=base, scale=scaling["factor"],
            original_max_position_embeddings=scaling["original_max_position_embeddings"],
            beta_fast=scaling.get("beta_fast", 32), beta_slow=scaling.get("beta_slow", 1))
        return {"package": where("LlamaYaRNScaledRotaryEmbedding.py"), "dtype": "float32",
                "function": "LlamaYaRNScaledRotaryEmbedding.yarn (inv_freq, mscale)",
                "inv_freq": _floats(emb.inv_freq), "attention_factor": float(emb.mscale)}
    if rope_type == "ntk":
        from scaled_rope.LlamaNTKScaledRotaryEmbedding import LlamaNTKScaledRotaryEmbedding
        emb = LlamaNTKScaledRotaryEmbedding(head_dim, max_position_embeddings=16, base=base,
                                            alpha=scaling["factor"])
        return {"package": where("LlamaNTKScaledRotaryEmbedding.py"), "dtype": "float32",
                "function": "LlamaNTKScaledRotaryEmbedding(alpha=factor).inv_freq",
                "inv_freq": _floats(emb.inv_freq), "attention_factor": 1.0}
    if rope_type == "dynamic":
        from scaled_rope.LlamaDynamicScaledRotaryEmbedding import (
            LlamaDynamicScaledRotaryEmbedding)
        original = scaling["original_max_position_embeddings"]
        emb = LlamaDynamicScaledRotaryEmbedding(head_dim, max_position_embeddings=original,
                                                base=base, ntk=scaling["factor"])
        emb(torch.zeros(1), seq_len=seq_len)  # the forward pass recomputes inv_freq
        return {"package": where("LlamaDynamicScaledRotaryEmbedding.py"), "dtype": "float32",
                "function": "LlamaDynamicScaledRotaryEmbedding(ntk=factor).forward(seq_len)",
                "inv_freq": _floats(emb.inv_freq), "attention_factor": 1.0}
    return None


def meta_apply_scaling():
    """Meta's apply_scaling, taken from llama_models/llama3/model.py."""
    import llama_models

    path = pathlib.Path(llama_models.__file__).parent / "llama3" / "model.py"
    tree = ast.parse(path.read_text())
    node = next(n for n in tree.body
                if isinstance(n, ast.FunctionDef) and n.name == "apply_scaling")
    namespace = {"torch": torch, "math": math}
    exec(compile(ast.Module(body=[node], type_ignores=[]), str(path), "exec"), namespace)
    return namespace["apply_scaling"]


def meta(head_dim, base):
    freqs = 1.0 / (base ** (torch.arange(0, head_dim, 2)[: (head_dim // 2)].float() / head_dim))
    scaled = meta_apply_scaling()(freqs)  # as precompute_freqs_cis(use_scaled=True)
    return {"package": f"llama-models {md.version('llama-models')}", "dtype": "float32",
            "function": "llama_models.llama3.model.apply_scaling (as in precompute_freqs_cis)",
            "inv_freq": _floats(scaled), "attention_factor": 1.0}


LLAMA2 = {"head_dim": 128, "base": 10000.0}
LLAMA31 = {"head_dim": 128, "base": 500000.0}
LLAMA31_SCALING = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                   "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}


def cases():
    """(name, head_dim, base, scaling, seq_len): real configurations and small heads."""
    yield "llama2 plain", 128, 10000.0, None, None
    yield "llama3 plain", 128, 500000.0, None, None
    yield "head 16 plain", 16, 10000.0, None, None
    yield "llama2 linear x4", 128, 10000.0, {"rope_type": "linear", "factor": 4.0}, None
    yield "head 16 linear x2.5", 16, 10000.0, {"rope_type": "linear", "factor": 2.5}, None
    yield "llama2 ntk x4", 128, 10000.0, {"rope_type": "ntk", "factor": 4.0}, None
    yield "head 16 ntk x4", 16, 10000.0, {"rope_type": "ntk", "factor": 4.0}, None
    dynamic = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 4096}
    for seq_len in (4096, 8192, 16384, 20000):
        yield f"llama2 dynamic x4 at {seq_len}", 128, 10000.0, dynamic, seq_len
    yield ("head 16 dynamic x2 at 64", 16, 10000.0,
           {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 16}, 64)
    for factor in (4.0, 16.0, 32.0):
        yield (f"llama2 yarn x{factor:g}", 128, 10000.0,
               {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": 4096},
               None)
    yield ("head 16 yarn x4 L16", 16, 10000.0,
           {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 16}, None)
    yield ("head 16 yarn x4 L64 betas 8/0.5", 16, 100.0,
           {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 64,
            "beta_fast": 8.0, "beta_slow": 0.5}, None)
    yield ("head 16 yarn x4 L64 untruncated", 16, 100.0,
           {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 64,
            "truncate": False}, None)
    yield ("llama2 yarn x8 attention_factor 1", 128, 10000.0,
           {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096,
            "attention_factor": 1.0}, None)
    yield ("llama2 yarn x64 untruncated", 128, 10000.0,
           {"rope_type": "yarn", "factor": 64.0, "original_max_position_embeddings": 4096,
            "truncate": False}, None)
    yield "llama3.1", 128, 500000.0, LLAMA31_SCALING, None
    yield ("head 16 llama3 x4 L32 l1 h2", 16, 100.0,
           {"rope_type": "llama3", "factor": 4.0, "low_freq_factor": 1.0,
            "high_freq_factor": 2.0, "original_max_position_embeddings": 32}, None)
    # dicts as a reader copies them out of a config: the base in the dict
    # (Transformers 5's config.rope_parameters), "type" beside "rope_type"
    # (Transformers 4's config classes keep both), DeepSeek's mscale keys
    yield ("llama2 rope_parameters", 128, None,
           {"rope_type": "default", "rope_theta": 10000.0}, None)
    yield ("llama3.1 rope_parameters", 128, None, {**LLAMA31_SCALING, "rope_theta": 500000.0},
           None)
    yield ("qwen2-style yarn, type and rope_type", 128, 1000000.0,
           {"type": "yarn", "rope_type": "yarn", "factor": 4.0,
            "original_max_position_embeddings": 32768}, None)
    yield ("deepseek-style yarn x40, mscale 1 / mscale_all_dim 1", 64, None,
           {"type": "yarn", "rope_type": "yarn", "factor": 40.0, "beta_fast": 32,
            "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0,
            "original_max_position_embeddings": 4096, "rope_theta": 10000.0}, None)
    yield ("yarn x16, mscale 1 / mscale_all_dim 0.5", 64, 10000.0,
           {"rope_type": "yarn", "factor": 16.0, "mscale": 1.0, "mscale_all_dim": 0.5,
            "original_max_position_embeddings": 4096}, None)
    yield ("yarn x16, mscale 0.707 alone", 64, 10000.0,
           {"rope_type": "yarn", "factor": 16.0, "mscale": 0.707,
            "original_max_position_embeddings": 4096}, None)


SWEEP = {  # the settings of the sweep of the two blends (--sweep)
    "head_dim": (64, 128, 256), "base": (10000.0, 500000.0),
    "original_max_position_embeddings": (2048, 4096, 8192), "factor": (2.0, 8.0, 64.0, 128.0),
    "llama3": ({"low_freq_factor": 1.0, "high_freq_factor": 4.0},
               {"low_freq_factor": 1.0, "high_freq_factor": 2.0}),
    "yarn": ({"beta_fast": 32.0, "beta_slow": 1.0},
             {"beta_fast": 16.0, "beta_slow": 2.0, "truncate": False}),
}


def sweep():
    """Transformers' float32 frequencies of YaRN and Llama 3.1's rule, on a grid.

    The two blend a kept and an interpolated frequency with a weight that
    float32 computes, and the weight's error is multiplied by up to the
    factor; the grid shows how far (tests/unit/test_scaling.py). Each
    frequency is a float32, written with the shortest digits that give it
    back (``str`` of the numpy float32, read back with ``dtype=float32``).
    """
    out = []
    for head_dim in SWEEP["head_dim"]:
        for base in SWEEP["base"]:
            for original in SWEEP["original_max_position_embeddings"]:
                for factor in SWEEP["factor"]:
                    for rope_type in ("llama3", "yarn"):
                        for extra in SWEEP[rope_type]:
                            scaling = {"rope_type": rope_type, "factor": factor,
                                       "original_max_position_embeddings": original, **extra}
                            ref = hf(head_dim, base, scaling, None)
                            values = torch.tensor(ref.pop("inv_freq"), dtype=torch.float64)
                            ref["inv_freq"] = [float(str(v)) for v in values.float().numpy()]
                            out.append({"head_dim": head_dim, "base": base, "scaling": scaling,
                                        **ref})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--yarn", type=pathlib.Path,
                        help="folder holding scaled_rope/ of the YaRN repository")
    parser.add_argument("--sweep", action="store_true",
                        help="write only the sweep of YaRN and llama3 (Transformers alone), "
                             "for tests/fixtures/rope_scaling_sweep.json")
    args = parser.parse_args()
    if args.sweep:
        json.dump({"about": "Transformers' float32 inv_freq of YaRN and Llama 3.1's rule on a "
                            "grid of settings, made by tools/make_rope_scaling_reference.py "
                            "--sweep; each value a float32, in its shortest digits",
                   "versions": {"torch": torch.__version__,
                                "transformers": transformers.__version__},
                   "cases": sweep()}, sys.stdout, indent=None, separators=(",", ":"))
        print()
        return
    if args.yarn is None:
        parser.error("--yarn is required (except with --sweep)")
    out = {"about": "Reference RoPE frequencies for tests/unit/test_scaling.py, made by "
                    "tools/make_rope_scaling_reference.py",
           "versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                        "llama-models": md.version("llama-models"),
                        "yarn": "github.com/jquesnelle/yarn, scaled_rope/: " + ", ".join(
                            f"{name} at {commit}" for name, commit in YARN_FILES.items())},
           "cases": []}
    for name, head_dim, base, scaling, seq_len in cases():
        refs = []
        if scaling is None or rope_type_of(scaling) != "ntk":  # not a Transformers type
            refs.append(hf(head_dim, base, scaling, seq_len))
            refs.append(hf(head_dim, base, scaling, seq_len, float64=True))
        if scaling is not None:
            ref = yarn_repo(args.yarn, head_dim, base, scaling, seq_len)
            if ref is not None:
                refs.append(ref)
        if scaling == LLAMA31_SCALING and head_dim == 128:
            refs.append(meta(head_dim, base))
        out["cases"].append({"name": name, "head_dim": head_dim, "base": base,
                             "scaling": scaling, "seq_len": seq_len, "references": refs})
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
