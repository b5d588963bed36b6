"""Compute the reference values of tests/fixtures/models_reference.json.

Run by hand with a Python that has torch and Hugging Face Transformers (the
book and its tests need neither; the project keeps such an environment at
/work/refvenv, with torch 2.14.1 on the CPU and transformers 5.24.0):

    /work/refvenv/bin/python tools/make_models_reference.py \\
        > posenc/data/models_reference.json

The file ships with the package (``pyproject.toml``'s package data), because
the chapter reads it and must run alone, where ``tests/`` is absent;
``posenc.transformers_reference()`` loads it.

The file has these parts, each value written out with ``repr`` of its
float64 value (a float32 tensor is exact in float64, so nothing is rounded
again), beside ``versions`` (torch, transformers):

``configs``
    Every configuration class of ``transformers.CONFIG_MAPPING``,
    instantiated with its defaults, and its sub-configs (``text_config``,
    ``vision_config`` and the others of ``sub_configs``), one layer type at
    a time: for each that carries RoPE settings and has a rotary embedding
    in its family's ``modeling_*.py``, the rope dict as the config keeps it
    (``config.rope_parameters``, or its entry for the layer type), the head
    width, the rotary class, the function that computed the frequencies, and
    that class's own ``inv_freq`` (an index into ``ladders``, the distinct
    frequency lists, which many classes share) and attention scaling. A class met several
    times (``LlamaConfig`` is the ``text_config`` of many vision-language
    models) counts once, with its own defaults where it has an entry of its
    own in ``CONFIG_MAPPING`` (its first parent in alphabetical order
    otherwise). The head width is the one the family's function reads: the
    right-hand side of its first ``head_dim = ...`` or ``dim = ...`` line,
    evaluated on the config (``config.head_dim``, or ``hidden_size //
    num_attention_heads``; Qwen2-VL's vision tower reads ``embed_dim``,
    SAM 2's video tracker its memory attention's width).
``layouts``, ``llama_conversion``, ``llama4``, ``mla``, ``opt``, ``alibi``, ``deberta``
    Small reference outputs of the families of the chapter "Positions in the
    models you use" (sections 3 to 9), each with the function it came from:
    each family's own function that turns the queries, caught on its first
    call in a one-layer model; Meta's interleaved RoPE against Transformers'
    ``rotate_half`` on the permuted weights; Llama 4's temperature and chunked
    mask; DeepSeek-V3's multi-head latent attention; OPT's position rows;
    BLOOM's and MPT's ALiBi; DeBERTa-v2's log buckets and disentangled bias.
``table``
    The position settings of the families of the chapter's table, read from
    their configs at their defaults.
``longrope``
    Phi-3's LongRoPE (``Phi3RotaryEmbedding``) with the ``rope_scaling`` of
    Phi-3-vision-128k-instruct's config.json: the short and long
    frequencies, the attention factor, and the frequencies the forward pass
    uses at the switch (``longrope_frequency_update``).

tests/unit/test_scaling.py and tests/unit/test_families.py read this file,
and so does book/09_models.ipynb; none of them needs torch.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.metadata
import inspect
import io
import json
import logging
import sys
import textwrap
import warnings

import torch
import transformers
from torch import nn
from transformers import CONFIG_MAPPING, PreTrainedConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS


def _floats(t):
    return [float(v) for v in torch.as_tensor(t).detach().cpu().double().flatten().tolist()]


def _plain(value):
    """A JSON-ready copy of a rope dict's value (tuples as lists, tensors as numbers)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, torch.Tensor):
        return _plain(value.tolist())
    return value


# --- the configuration classes ---------------------------------------------------------


def _default_configs():
    """(model_type, where, config) for every class of CONFIG_MAPPING and its sub-configs."""
    for model_type in sorted(CONFIG_MAPPING.keys()):
        try:
            config = CONFIG_MAPPING[model_type]()
        except Exception as error:  # noqa: BLE001 - a few classes need arguments
            print(f"skipped {model_type}: {type(error).__name__}", file=sys.stderr)
            continue
        yield model_type, "", config
        for name in getattr(config, "sub_configs", None) or {}:
            sub = getattr(config, name, None)
            if isinstance(sub, PreTrainedConfig):
                yield model_type, name, sub


def _rotary_classes(config):
    """The classes named *Rotary* in the modeling module of the config's own family."""
    name = type(config).__module__.replace(".configuration_", ".modeling_")
    try:
        module = importlib.import_module(name)
    except ImportError:
        return []
    return [obj for obj_name, obj in vars(module).items()
            if inspect.isclass(obj) and issubclass(obj, nn.Module) and "Rotary" in obj_name
            and obj.__module__ == module.__name__]


def _annotated_for(cls, config):
    """True if the class's ``config`` argument is annotated with the config's own class."""
    try:
        annotation = inspect.signature(cls.__init__).parameters["config"].annotation
    except (KeyError, ValueError, TypeError):
        return False
    if isinstance(annotation, str):
        return annotation == type(config).__name__
    return inspect.isclass(annotation) and annotation is not PreTrainedConfig and isinstance(
        config, annotation)


def _rotary_embedding(config):
    """The family's rotary embedding built from the config, or None.

    The class annotated with the config's class if there is one; else the
    first (vision classes for vision configs, the others otherwise) that
    accepts the config.
    """
    classes = _rotary_classes(config)
    vision = "Vision" in type(config).__name__
    ranked = sorted(classes, key=lambda c: (not _annotated_for(c, config),
                                            ("Vision" in c.__name__) != vision, c.__name__))
    for cls in ranked:
        try:
            return cls(config)
        except Exception:  # noqa: BLE001, S112 - not this family's class for that config
            continue
    return None


def _compute_function(embedding, rope_type):
    """The function that computed a rotary class's frequencies for this rope_type."""
    own = getattr(type(embedding), f"compute_{rope_type}_rope_parameters", None)
    return own if own is not None else ROPE_INIT_FUNCTIONS.get(rope_type)


def _head_width(function, config, layer_type):
    """The head width as ``function`` reads it from the config.

    The right-hand side of the function's first ``head_dim = ...`` or
    ``dim = ...`` statement that reads ``config``, evaluated on the config
    (on its per-layer config where the family has one, as
    ``modeling_rope_utils`` does).
    """
    if layer_type is not None:
        with contextlib.suppress(Exception):
            config = config.per_layer_config[layer_type]
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    for statement in tree.body[0].body:
        if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and statement.targets[0].id in ("head_dim", "dim")
                and any(isinstance(n, ast.Name) and n.id == "config"
                        for n in ast.walk(statement.value))):
            code = compile(ast.Expression(statement.value), "<head width>", "eval")
            arguments = {name: p.default for name, p in
                         inspect.signature(function).parameters.items()
                         if p.default is not inspect.Parameter.empty}  # head_dim_key="head_dim"
            return int(eval(code, {"getattr": getattr, "int": int},  # noqa: S307
                            {**arguments, "config": config}))
    raise LookupError(f"no head width in {function.__qualname__}")


def _cases(config, embedding):
    """One case per layer type (or one) of a config and its rotary embedding."""
    rope_parameters = config.rope_parameters
    nested = set(config.nested_rope_parameter_keys(rope_parameters))
    for buffer, inv_freq in embedding.named_buffers(recurse=False):
        if not buffer.endswith("inv_freq") or buffer.startswith(("original", "long")) or (
                "_original_" in buffer or "_long_" in buffer):
            continue
        layer_type = buffer.removesuffix("_inv_freq") if buffer != "inv_freq" else None
        rope = rope_parameters[layer_type] if layer_type in nested else rope_parameters
        scaling = getattr(embedding, "attention_scaling" if layer_type is None
                          else f"{layer_type}_attention_scaling", 1.0)
        function = _compute_function(embedding, rope["rope_type"])
        yield {"layer_type": layer_type, "rope_parameters": _plain(rope),
               "head_dim": _head_width(function, config, layer_type),
               "rotary_class": type(embedding).__name__,
               "function": function.__qualname__,
               "inv_freq": _floats(inv_freq), "dtype": str(inv_freq.dtype).removeprefix("torch."),
               "attention_factor": float(scaling)}


def configs():
    """Every configuration class once, one layer type at a time (see the module's docstring)."""
    found = {}
    for model_type, where, config in _default_configs():
        rope_parameters = getattr(config, "rope_parameters", None)
        if not rope_parameters:
            continue
        key = type(config).__name__
        own = where == "" and CONFIG_MAPPING[model_type] is type(config)
        if key in found and not (own and not found[key]["own"]):
            continue
        embedding = _rotary_embedding(config)
        if embedding is None:
            print(f"no rotary embedding for {key} ({model_type} {where})", file=sys.stderr)
            continue
        found[key] = {"own": own, "cases": [
            {"config_class": key, "model_type": model_type, "sub_config": where or None,
             **case} for case in _cases(config, embedding)]}
    return [case for entry in found.values() for case in entry["cases"]]


# --- LongRoPE: Phi-3 -------------------------------------------------------------------

# the rope_scaling of microsoft/Phi-3-vision-128k-instruct's config.json (head
# width 3072 / 32 = 96, original context 4096, max_position_embeddings 131072):
# the searched factors, one per pair. Its "type" there is "su", the old name of
# "longrope", which Transformers 5.24.0 renames only after it has checked the
# keys (and refused the dict); it is given here as "longrope"
PHI3_LONG_FACTOR = [
    1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547,
    1.2299998998641968, 1.2299998998641968, 1.2999999523162842, 1.4499999284744263,
    1.5999999046325684, 1.6499998569488525, 1.8999998569488525, 2.859999895095825,
    3.68999981880188, 5.419999599456787, 5.489999771118164, 5.489999771118164,
    9.09000015258789, 11.579999923706055, 15.65999984741211, 15.769999504089355,
    15.789999961853027, 18.360000610351562, 21.989999771118164, 23.079999923706055,
    30.009998321533203, 32.35000228881836, 32.590003967285156, 35.56000518798828,
    39.95000457763672, 53.840003967285156, 56.20000457763672, 57.95000457763672,
    59.29000473022461, 59.77000427246094, 59.920005798339844, 61.190006256103516,
    61.96000671386719, 62.50000762939453, 63.3700065612793, 63.48000717163086,
    63.48000717163086, 63.66000747680664, 63.850006103515625, 64.08000946044922,
    64.760009765625, 64.80001068115234, 64.81001281738281, 64.81001281738281]
PHI3_SHORT_FACTOR = [
    1.05, 1.05, 1.05, 1.1, 1.1, 1.1, 1.2500000000000002, 1.2500000000000002,
    1.4000000000000004, 1.4500000000000004, 1.5500000000000005, 1.8500000000000008,
    1.9000000000000008, *[2.000000000000001] * 19, 2.1000000000000005, 2.1000000000000005,
    2.2, *[2.3499999999999996] * 4, 2.3999999999999995, 2.3999999999999995,
    2.6499999999999986, 2.6999999999999984, 2.8999999999999977, 2.9499999999999975,
    3.049999999999997, 3.049999999999997, 3.049999999999997]


def longrope():
    """Phi3RotaryEmbedding with Phi-3-vision-128k's rope_scaling: both ladders and the switch."""
    from transformers import Phi3Config
    from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding

    rope_scaling = {"type": "longrope", "long_factor": PHI3_LONG_FACTOR,
                    "short_factor": PHI3_SHORT_FACTOR}
    config = Phi3Config(hidden_size=3072, num_attention_heads=32, max_position_embeddings=131072,
                        original_max_position_embeddings=4096, rope_scaling=rope_scaling,
                        rope_theta=10000.0)
    embedding = Phi3RotaryEmbedding(config)
    short = _floats(embedding.inv_freq)
    switch = []
    x = torch.zeros(1, 1, 96)
    for seq_len in (4096, 4097):  # the largest position id is seq_len - 1
        with torch.no_grad():
            embedding(x, torch.arange(seq_len)[None])
        switch.append({"seq_len": seq_len, "inv_freq": _floats(embedding.inv_freq)})
    long_inv, _ = ROPE_INIT_FUNCTIONS["longrope"](config, None, seq_len=4097)
    return {"function": "Phi3RotaryEmbedding (transformers.models.phi3.modeling_phi3), "
                        "its forward pass through longrope_frequency_update",
            "source": "rope_scaling of microsoft/Phi-3-vision-128k-instruct's config.json "
                      "(its type 'su' written as 'longrope')",
            "config": {"hidden_size": 3072, "num_attention_heads": 32,
                       "max_position_embeddings": 131072,
                       "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
                       "rope_scaling": rope_scaling},
            "rope_parameters": _plain(config.rope_parameters),
            "head_dim": 96, "short_inv_freq": short, "long_inv_freq": _floats(long_inv),
            "attention_factor": float(embedding.attention_scaling), "switch": switch}



# --- the families of the chapter's sections 3 to 9 -------------------------------------

SEQ = 6  # positions 0 to 5


def _tiny(model_type, **settings):
    """A config of the family, small enough to run: one layer, four heads of width 16."""
    base = dict(hidden_size=64, num_attention_heads=4, num_key_value_heads=4,
                intermediate_size=64, num_hidden_layers=1, vocab_size=64, head_dim=16,
                pad_token_id=0)
    config = CONFIG_MAPPING[model_type](**{**base, **settings})
    config._attn_implementation = "eager"
    return config


@contextlib.contextmanager
def _recording(module, name):
    """Replace ``module.name`` (an apply-RoPE function) by a wrapper that keeps its first call."""
    original = getattr(module, name)
    calls = []

    def wrapper(*args, **kwargs):
        out = original(*args, **kwargs)
        if not calls:
            calls.append((args, out))
        return out

    setattr(module, name, wrapper)
    try:
        yield calls
    finally:
        setattr(module, name, original)


def _head(t):
    """Head 0 of the first sequence, (seq, width), as nested lists."""
    t = t[0]
    if t.dim() == 3 and t.shape[0] == SEQ:  # (seq, heads, width): Llama 4's layout
        t = t[:, 0]
    elif t.dim() == 3:  # (heads, seq, width)
        t = t[0]
    return [_floats(row) for row in t]


# The families whose rotation the chapter shows: model type, settings of the
# tiny config, the name of the function that turns q and k in its modeling
# module, and what the chapter calls its layout
LAYOUT_FAMILIES = [
    ("llama", {}, "apply_rotary_pos_emb"),
    ("mistral", {}, "apply_rotary_pos_emb"),
    ("qwen2", {}, "apply_rotary_pos_emb"),
    ("gemma3_text", {}, "apply_rotary_pos_emb"),
    ("qwen2_vl_text", {"rope_parameters": {"rope_type": "default", "mrope_section": [2, 3, 3]}},
     "apply_rotary_pos_emb"),
    ("phi3", {}, "apply_rotary_pos_emb"),
    ("gpt_oss", {"num_local_experts": 2, "num_experts_per_tok": 1}, "apply_rotary_pos_emb"),
    ("gemma4_text", {}, "apply_rotary_pos_emb"),
    ("gpt_neox", {"rotary_pct": 0.25}, "apply_rotary_pos_emb"),
    ("phi", {"partial_rotary_factor": 0.5}, "apply_rotary_pos_emb"),
    ("stablelm", {"partial_rotary_factor": 0.25}, "apply_rotary_pos_emb"),
    ("gptj", {"rotary_dim": 4}, "apply_rotary_pos_emb"),
    ("codegen", {"rotary_dim": 4}, "apply_rotary_pos_emb"),
    ("cohere", {}, "apply_rotary_pos_emb"),
    ("deepseek_v3", {"head_dim": 8, "qk_rope_head_dim": 8, "qk_nope_head_dim": 8, "v_head_dim": 8,
                     "kv_lora_rank": 16, "q_lora_rank": None, "first_k_dense_replace": 1,
                     "n_routed_experts": 4, "num_experts_per_tok": 1, "n_group": 1,
                     "topk_group": 1, "moe_intermediate_size": 16},
     "apply_rotary_pos_emb_interleave"),
    ("llama4_text", {"num_local_experts": 1, "interleave_moe_layer_step": 2,
                     "intermediate_size_mlp": 64}, "apply_rotary_emb"),
]


def layouts():
    """Each family's own function that turns queries, caught on its first call."""
    out = []
    for model_type, settings, name in LAYOUT_FAMILIES:
        config = _tiny(model_type, **settings)
        model = transformers.AutoModel.from_config(config).eval()
        module = importlib.import_module(type(model).__module__)
        with _recording(module, name) as calls, torch.no_grad():
            model(input_ids=torch.arange(SEQ)[None] % config.vocab_size)
        (args, result) = calls[0]
        q_in = args[0]
        q_out = result[0] if isinstance(result, tuple) else result
        rotary = getattr(model, "rotary_emb", None)
        # the first layer's frequencies: one set, or one per layer type (Gemma)
        prefix = f"{config.layer_types[0]}_" if getattr(config, "layer_types", None) else ""
        inv_freq = getattr(rotary, "inv_freq", None)
        if inv_freq is None:
            inv_freq = getattr(rotary, f"{prefix}inv_freq", None)
        factor = getattr(rotary, "attention_scaling", None)
        if factor is None:
            factor = getattr(rotary, f"{prefix}attention_scaling", 1.0)
        if inv_freq is None:  # GPT-J and CodeGen keep a table of 10000 ** (-2i/d)
            rotary_dim = q_in.shape[-1]
            inv_freq = 1.0 / (10000 ** (torch.arange(0, rotary_dim, 2) / rotary_dim))
        out.append({"model_type": model_type, "settings": settings,
                    "function": f"{module.__name__}.{name}", "layer_type": prefix[:-1] or None,
                    "positions": list(range(SEQ)), "inv_freq": _floats(inv_freq),
                    "attention_factor": float(factor),
                    "q": _head(q_in), "q_turned": _head(q_out)})
    return out


def _meta_functions():
    """precompute_freqs_cis, reshape_for_broadcast and apply_rotary_emb of Meta's Llama code."""
    import math
    import pathlib

    import llama_models

    path = pathlib.Path(llama_models.__file__).parent / "llama3" / "model.py"
    tree = ast.parse(path.read_text())  # its imports need fairscale: take the functions
    wanted = {"apply_scaling", "precompute_freqs_cis", "reshape_for_broadcast",
              "apply_rotary_emb"}
    body = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in wanted]
    namespace = {"torch": torch, "math": math, "Tuple": tuple}
    exec(compile(ast.Module(body=body, type_ignores=[]), str(path), "exec"), namespace)  # noqa: S102
    return namespace


def llama_conversion():
    """Meta's interleaved RoPE on W, and Transformers' rotate_half on the permuted W."""
    from transformers.models.llama import modeling_llama

    meta = _meta_functions()
    n_heads, head_dim, dim = 2, 8, 16
    generator = torch.Generator().manual_seed(3)
    w_q, w_k = (torch.randn(n_heads * head_dim, dim, generator=generator) for _ in range(2))
    x = torch.randn(1, SEQ, dim, generator=generator)

    def scores(q, k):  # (batch, seq, heads, d) -> head by head q . k, (heads, seq, seq)
        return torch.einsum("bqhd,bkhd->hqk", q, k)

    # Meta: queries (batch, seq, heads, d), pairs (2i, 2i+1) as complex numbers
    freqs_cis = meta["precompute_freqs_cis"](head_dim, SEQ)
    q, k = (x @ w.T for w in (w_q, w_k))
    shape = (1, SEQ, n_heads, head_dim)
    q_meta, k_meta = meta["apply_rotary_emb"](q.view(shape), k.view(shape), freqs_cis=freqs_cis)

    # Transformers: the rows of each head reordered as the conversion script's
    # permute does (w.view(heads, d/2, 2, dim).transpose(1, 2)), then rotate_half
    def permute(w):
        return w.view(n_heads, head_dim // 2, 2, dim).transpose(1, 2).reshape(n_heads * head_dim,
                                                                              dim)

    config = _tiny("llama", hidden_size=dim, num_attention_heads=n_heads,
                   num_key_value_heads=n_heads, head_dim=head_dim)
    cos, sin = modeling_llama.LlamaRotaryEmbedding(config)(x, torch.arange(SEQ)[None])

    def hf(wq, wk):
        q, k = ((x @ w.T).view(shape).transpose(1, 2) for w in (wq, wk))
        q, k = modeling_llama.apply_rotary_pos_emb(q, k, cos, sin)
        return torch.einsum("bhqd,bhkd->hqk", q, k)

    return {"functions": "llama_models.llama3.model.apply_rotary_emb (llama-models "
                         f"{importlib.metadata.version('llama-models')}) and "
                         "transformers.models.llama.modeling_llama.apply_rotary_pos_emb",
            "n_heads": n_heads, "head_dim": head_dim, "w_q": [_floats(r) for r in w_q],
            "w_k": [_floats(r) for r in w_k], "x": [_floats(r) for r in x[0]],
            "permuted_rows": permute(torch.arange(n_heads * head_dim)[:, None].float().expand(
                -1, dim))[:, 0].long().tolist(),
            "meta_scores": [[_floats(r) for r in h] for h in scores(q_meta, k_meta)],
            "hf_scores": [[_floats(r) for r in h] for h in hf(permute(w_q), permute(w_k))],
            "hf_scores_unpermuted": [[_floats(r) for r in h] for h in hf(w_q, w_k)]}


class _Capture:
    """An attention function that keeps what it is given and attends like eager."""

    def __init__(self):
        self.calls = []

    def __call__(self, module, query, key, value, attention_mask, scaling=None, dropout=0.0,
                 **kwargs):
        self.calls.append({"query": query.detach().clone(), "key": key.detach().clone(),
                           "scaling": scaling})
        weights = torch.softmax(query @ key.transpose(-1, -2) * scaling, dim=-1)
        return (weights @ value).transpose(1, 2).contiguous(), weights


@contextlib.contextmanager
def _captured(config):
    from transformers import AttentionInterface

    capture = _Capture()
    AttentionInterface.register("posenc_capture", capture)
    config._attn_implementation = "posenc_capture"
    yield capture


def llama4():
    """Llama 4's attention temperature (a NoPE layer's queries) and its chunked mask."""
    from transformers.masking_utils import chunked_causal_mask_function
    from transformers.models.llama4.modeling_llama4 import Llama4TextAttention

    defaults = CONFIG_MAPPING["llama4_text"]()
    floor_scale, attn_scale, n = 4, 0.1, 12
    config = _tiny("llama4_text", hidden_size=16, num_attention_heads=1, num_key_value_heads=1,
                   num_hidden_layers=4, floor_scale=floor_scale, attn_scale=attn_scale,
                   attn_temperature_tuning=True)
    layer = 3  # every fourth layer has no RoPE
    with _captured(config) as capture, torch.no_grad():
        attention = Llama4TextAttention(config, layer_idx=layer)
        attention.q_proj.weight.copy_(torch.eye(16))
        attention(torch.ones(1, n, 16), position_embeddings=None, attention_mask=None)
    scales = capture.calls[0]["query"][0, 0, :, 0]  # q_proj(1) * scale = scale
    padding = torch.tensor([0, 2])
    mask = chunked_causal_mask_function(3, padding)
    masks = [[[bool(mask(b, 0, torch.tensor(q), torch.tensor(k))) for k in range(8)]
              for q in range(8)] for b in range(2)]
    return {"function": "Llama4TextAttention.forward (attn_temperature_tuning, not use_rope) and "
                        "transformers.masking_utils.chunked_causal_mask_function",
            "defaults": {"floor_scale": defaults.floor_scale, "attn_scale": defaults.attn_scale,
                         "attention_chunk_size": defaults.attention_chunk_size,
                         "attn_temperature_tuning": defaults.attn_temperature_tuning,
                         "no_rope_layers": list(defaults.no_rope_layers),
                         "num_hidden_layers": defaults.num_hidden_layers,
                         "rope_parameters": _plain(defaults.rope_parameters)},
            "use_rope": bool(attention.use_rope), "layer": layer,
            "floor_scale": floor_scale, "attn_scale": attn_scale,
            "positions": list(range(n)), "scales": _floats(scales),
            "chunk_size": 3, "left_padding": padding.tolist(), "chunked_masks": masks}


# DeepSeek-V3's rope_parameters (its config.json's rope_scaling)
DEEPSEEK_V3_YARN = {"rope_type": "yarn", "factor": 40.0, "beta_fast": 32.0, "beta_slow": 1.0,
                    "mscale": 1.0, "mscale_all_dim": 1.0,
                    "original_max_position_embeddings": 4096, "rope_theta": 10000.0}


def mla():
    """DeepseekV3Attention (multi-head latent attention) on a tiny config: weights and scores."""
    from transformers.models.deepseek_v3 import modeling_deepseek_v3 as ds

    config = _tiny("deepseek_v3", hidden_size=32, num_attention_heads=2, num_key_value_heads=2,
                   head_dim=8, qk_rope_head_dim=8, qk_nope_head_dim=8, v_head_dim=8,
                   kv_lora_rank=16, q_lora_rank=None, max_position_embeddings=163840,
                   rope_parameters=dict(DEEPSEEK_V3_YARN))
    torch.manual_seed(5)
    rotary = ds.DeepseekV3RotaryEmbedding(config)
    x = torch.randn(1, SEQ, 32)
    with _captured(config) as capture, torch.no_grad():
        attention = ds.DeepseekV3Attention(config, layer_idx=0).eval()
        for p in attention.parameters():  # weights of a visible size
            p.copy_(torch.randn(p.shape) * 0.3)
        cos_sin = rotary(x, torch.arange(SEQ)[None])
        attention(x, position_embeddings=cos_sin, attention_mask=None)
    call = capture.calls[0]
    scores = call["query"] @ call["key"].transpose(-1, -2) * call["scaling"]

    def rows(t):
        return [_floats(r) for r in t]

    return {"function": "DeepseekV3Attention.forward (transformers.models.deepseek_v3)",
            "config": {"hidden_size": 32, "num_attention_heads": 2, "qk_rope_head_dim": 8,
                       "qk_nope_head_dim": 8, "v_head_dim": 8, "kv_lora_rank": 16,
                       "rms_norm_eps": config.rms_norm_eps, "rope_interleave": config.rope_interleave,
                       "rope_parameters": _plain(config.rope_parameters)},
            "x": rows(x[0]), "q_proj": rows(attention.q_proj.weight),
            "kv_a_proj_with_mqa": rows(attention.kv_a_proj_with_mqa.weight),
            "kv_a_layernorm": _floats(attention.kv_a_layernorm.weight),
            "kv_b_proj": rows(attention.kv_b_proj.weight),
            "inv_freq": _floats(rotary.inv_freq), "attention_scaling": float(rotary.attention_scaling),
            "scaling": float(call["scaling"]),
            "query": [rows(h) for h in call["query"][0]], "key": [rows(h) for h in call["key"][0]],
            "scores": [rows(h) for h in scores[0]]}


def opt():
    """OPTLearnedPositionalEmbedding's rows for a padded batch (a table whose row i holds i)."""
    from transformers.models.opt.modeling_opt import OPTLearnedPositionalEmbedding

    table = OPTLearnedPositionalEmbedding(16, 1)
    with torch.no_grad():
        table.weight.copy_(torch.arange(18.0)[:, None])  # the row's index
    mask = torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], [0, 1, 1, 1, 1, 1]])
    rows = {str(c): table(mask, cache_length=c)[..., 0].long().tolist() for c in (0, 2)}
    return {"function": "OPTLearnedPositionalEmbedding.forward (transformers.models.opt)",
            "offset": table.offset, "attention_mask": mask.tolist(), "rows": rows}


def alibi():
    """BLOOM's and MPT's ALiBi for head counts that are and are not powers of two."""
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    from transformers.models.mpt.modeling_mpt import build_mpt_alibi_tensor

    mask = torch.tensor([[1, 1, 1, 1, 1], [0, 0, 1, 1, 1]])
    out = {"functions": "transformers.models.bloom.modeling_bloom.build_alibi_tensor and "
                        "transformers.models.mpt.modeling_mpt.build_mpt_alibi_tensor",
           "attention_mask": mask.tolist(), "bloom": {}, "mpt": {}}
    for n_heads in (8, 12):
        bloom = build_alibi_tensor(mask, n_heads, torch.float32).view(2, n_heads, 5)
        out["bloom"][str(n_heads)] = [[_floats(h) for h in b] for b in bloom]
        mpt = build_mpt_alibi_tensor(n_heads, 5, alibi_bias_max=8)[:, 0, :]  # (heads, keys)
        out["mpt"][str(n_heads)] = [_floats(h) for h in mpt]
    mpt_defaults = CONFIG_MAPPING["mpt"]().attn_config
    out["mpt_defaults"] = {"alibi": mpt_defaults.alibi, "alibi_bias_max": mpt_defaults.alibi_bias_max}
    return out


def deberta():
    """DeBERTa-v2's log buckets, relative positions and disentangled bias (c2p + p2c)."""
    from transformers.models.deberta_v2 import modeling_deberta_v2 as dv2

    relative = torch.arange(-600, 601)
    buckets = dv2.make_log_bucket_position(relative, 256, 512)
    config = CONFIG_MAPPING["deberta-v2"](hidden_size=8, num_attention_heads=2,
                                         position_buckets=4, max_relative_positions=16,
                                         relative_attention=True, share_att_key=True,
                                         pos_att_type=["p2c", "c2p"])
    torch.manual_seed(7)
    attention = dv2.DisentangledSelfAttention(config).eval()
    n = 7
    query, key = torch.randn(2, n, 4), torch.randn(2, n, 4)  # (batch * heads, n, head width)
    rel_embeddings = torch.randn(2 * 4, 8)
    relative_pos = dv2.build_relative_position(query, key, bucket_size=4, max_position=16)
    with torch.no_grad():
        bias = attention.disentangled_attention_bias(query, key, relative_pos, rel_embeddings, 3)
    defaults = CONFIG_MAPPING["deberta-v2"]()

    def rows(t):
        return [_floats(r) for r in t]

    return {"functions": "transformers.models.deberta_v2.modeling_deberta_v2: "
                         "make_log_bucket_position, build_relative_position, "
                         "DisentangledSelfAttention.disentangled_attention_bias",
            "log_buckets": {"relative": relative.tolist(), "bucket_size": 256,
                            "max_position": 512, "buckets": buckets.long().tolist()},
            "relative_positions": {"n": n, "bucket_size": 4, "max_position": 16,
                                   "ids": relative_pos[0].tolist()},
            "bias": {"att_span": attention.pos_ebd_size, "scale_factor": 3,
                     "query": [rows(h) for h in query], "key": [rows(h) for h in key],
                     "rel_embeddings": rows(rel_embeddings),
                     "query_proj": {"weight": rows(attention.query_proj.weight),
                                    "bias": _floats(attention.query_proj.bias)},
                     "key_proj": {"weight": rows(attention.key_proj.weight),
                                  "bias": _floats(attention.key_proj.bias)},
                     "scores": [rows(h) for h in bias]},
            "defaults": {key: _plain(getattr(defaults, key, None)) for key in (
                "position_buckets", "max_relative_positions", "relative_attention",
                "pos_att_type", "share_att_key", "max_position_embeddings",
                "position_biased_input")}}


# The families of the chapter's table, as "model_type" or "model_type:sub_config"
TABLE_FAMILIES = ["gpt2", "bert", "opt", "bloom", "mpt", "t5", "deberta-v2", "gpt_neox", "gptj",
                  "phi", "phi3", "stablelm", "llama", "mistral", "qwen2", "qwen2_vl:text_config",
                  "gemma3_text", "gemma4_text", "llama4_text", "deepseek_v3", "cohere", "gpt_oss"]

# what a config may say about positions (each family uses a few of them)
POSITION_ATTRIBUTES = [
    "max_position_embeddings", "n_positions", "original_max_position_embeddings",
    "sliding_window", "layer_types", "attention_chunk_size", "no_rope_layers",
    "partial_rotary_factor", "rotary_pct", "rotary_dim", "rope_parameters", "head_dim",
    "hidden_size", "num_attention_heads", "qk_rope_head_dim", "qk_nope_head_dim",
    "kv_lora_rank", "rope_interleave", "position_embedding_type",
    "relative_attention_num_buckets", "relative_attention_max_distance", "position_buckets",
    "max_relative_positions", "relative_attention", "pos_att_type", "position_biased_input",
    "attn_temperature_tuning", "floor_scale", "attn_scale"]


def table():
    """The position settings of each family of the chapter's table, at its defaults."""
    out = []
    for name in TABLE_FAMILIES:
        model_type, _, sub = name.partition(":")
        config = CONFIG_MAPPING[model_type]()
        if sub:
            config = getattr(config, sub)
        found = {}
        for key in POSITION_ATTRIBUTES:
            try:
                value = getattr(config, key)
            except Exception:  # noqa: BLE001, S112 - not this family's attribute
                continue
            if value is not None:
                found[key] = _plain(value)
        if model_type == "mpt":  # its ALiBi lives in attn_config
            found["alibi"] = config.attn_config.alibi
            found["alibi_bias_max"] = config.attn_config.alibi_bias_max
        out.append({"family": name, "config_class": type(config).__name__,
                    "attributes": found})
    return out


def main():
    warnings.filterwarnings("ignore")
    transformers.logging.set_verbosity_error()
    logging.disable(logging.WARNING)
    torch.manual_seed(0)
    with contextlib.redirect_stdout(io.StringIO()):  # some config classes print
        cases = configs()
    ladders = []
    for case in cases:  # each distinct list of frequencies once
        if case["inv_freq"] not in ladders:
            ladders.append(case["inv_freq"])
        case["inv_freq"] = ladders.index(case["inv_freq"])
    out = {"about": "What Transformers computes, for posenc.transformers_reference(): made by "
                    "tools/make_models_reference.py",
           "versions": {"torch": torch.__version__, "transformers": transformers.__version__},
           "ladders": ladders, "configs": cases, "longrope": longrope(),
           "layouts": layouts(), "llama_conversion": llama_conversion(), "llama4": llama4(),
           "mla": mla(), "opt": opt(), "alibi": alibi(), "deberta": deberta(),
           "table": table()}
    _dump(out, sys.stdout)


def _dump(out, stream):
    """JSON with one line per case (the file stays readable, and its diffs short)."""
    stream.write("{\n")
    for i, (key, value) in enumerate(out.items()):
        end = ",\n" if i < len(out) - 1 else "\n"
        if isinstance(value, list):
            rows = ",\n".join("  " + json.dumps(v) for v in value)
            stream.write(f"{json.dumps(key)}: [\n{rows}\n]{end}")
        elif isinstance(value, dict) and key != "versions":
            rows = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            stream.write(f"{json.dumps(key)}: {{\n{rows}\n}}{end}")
        else:
            stream.write(f"{json.dumps(key)}: {json.dumps(value)}{end}")
    stream.write("}\n")


if __name__ == "__main__":
    main()
