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
``families``
    Small reference outputs of the families of the chapter "Positions in the
    models you use" (sections 3 to 9), each with the function it came from.
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
           "ladders": ladders, "configs": cases, "longrope": longrope()}
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
