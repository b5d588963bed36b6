"""Compute the reference values of tests/fixtures/generation_reference.json.

Run by hand, with a Python that has torch and Hugging Face Transformers
(neither of which the book or its tests install), from the repository's root:

    python -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install torch==2.14.1 transformers==5.24.0
    /tmp/refvenv/bin/python tools/make_generation_reference.py \
        > tests/fixtures/generation_reference.json

It records what Transformers computes for the positions and masks of
generation, so that tests/unit/test_cache.py can compare ``posenc.cache`` and
``posenc.masks`` with them without torch:

* ``position_ids``: ``GenerationMixin._prepare_position_ids_for_generation``
  on left-padded attention masks (``cumsum - 1``, padding set to 0);
* ``padding_masks``: ``masking_utils.sdpa_mask`` with
  ``causal_mask_function`` and those 2-D masks;
* ``sliding_window_masks`` and ``chunked_masks``: ``sdpa_mask`` with
  ``sliding_window_causal_mask_function(window)`` and
  ``chunked_causal_mask_function(chunk, left_padding)``;
* ``sliding_window_cache``: ``cache_utils.DynamicSlidingWindowLayer`` fed
  one token at a time (each key holds its own position), and, at each
  step, the positions of the keys it returns that the mask of
  ``get_mask_sizes`` lets the new query see;
* ``packing``: ``DataCollatorWithFlattening``'s ``position_ids``,
  ``find_packed_sequence_indices`` of them, and the mask
  ``create_causal_mask`` builds from them (sdpa, a Llama config);
* ``dynamic_rope`` and ``longrope``: a one-layer ``LlamaForCausalLM`` in
  float64 whose RoPE is ``"dynamic"`` (or ``"longrope"``) with a short
  pretraining context, fed a prompt and then one token at a time with a
  ``DynamicCache``. Recorded: each step's keys before rotation (the output
  of ``k_proj``), the cached keys after the last step, and each step's logits
  with the cache and from a full recomputation of the prefix without one.

Every mask is written as lists of 0/1, every float with ``repr`` of its
float64 value.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import platform
import sys

import torch
import transformers
from transformers import DataCollatorWithFlattening, LlamaConfig, LlamaForCausalLM
from transformers.cache_utils import DynamicCache, DynamicSlidingWindowLayer
from transformers.generation.utils import GenerationMixin
from transformers.masking_utils import (
    causal_mask_function,
    chunked_causal_mask_function,
    create_causal_mask,
    find_packed_sequence_indices,
    sdpa_mask,
    sliding_window_causal_mask_function,
)

LEFT_PADDED = [  # attention masks of left-padded batches
    [[0, 0, 1, 1, 1], [1, 1, 1, 1, 1], [0, 0, 0, 0, 1]],
    [[0, 1, 1, 1, 1, 1, 1, 1]],
    [[1, 1, 1], [0, 1, 1]],
]
WINDOWS = [(8, 1), (8, 3), (10, 4), (6, 6), (5, 9), (12, 5)]  # (n, window)
CHUNKS = [(10, 4, 0), (10, 3, 2), (7, 7, 0), (9, 2, 1), (12, 5, 3)]  # (n, chunk, left_padding)
CACHE_RUNS = [(3, 9), (1, 5), (5, 12)]  # (window, tokens)
PACKED = [[3, 2, 4], [1, 1, 1], [5], [2, 6, 1, 3]]  # document lengths


def _bits(mask):
    return mask.to(torch.int64).tolist()


def position_ids(masks):
    out = []
    for mask in masks:
        mask = torch.tensor(mask)
        ids = GenerationMixin._prepare_position_ids_for_generation(
            None, torch.zeros_like(mask), {"attention_mask": mask})
        out.append({"attention_mask": mask.tolist(), "position_ids": ids.tolist()})
    return out


def padding_masks(masks):
    out = []
    for mask in masks:
        mask = torch.tensor(mask)
        b, n = mask.shape
        full = sdpa_mask(batch_size=b, q_length=n, kv_length=n, mask_function=causal_mask_function,
                         attention_mask=mask.bool(), allow_is_causal_skip=False)
        out.append({"attention_mask": mask.tolist(), "mask": _bits(full[:, 0])})
    return out


def sliding_window_masks():
    out = []
    for n, window in WINDOWS:
        mask = sdpa_mask(batch_size=1, q_length=n, kv_length=n, allow_is_causal_skip=False,
                         mask_function=sliding_window_causal_mask_function(window))
        out.append({"n": n, "window": window, "mask": _bits(mask[0, 0])})
    return out


def chunked_masks():
    out = []
    for n, chunk, left in CHUNKS:
        function = chunked_causal_mask_function(chunk, torch.tensor([left]))
        mask = sdpa_mask(batch_size=1, q_length=n, kv_length=n, allow_is_causal_skip=False,
                         mask_function=function)
        out.append({"n": n, "chunk": chunk, "left_padding": left, "mask": _bits(mask[0, 0])})
    return out


def sliding_window_cache():
    """The keys DynamicSlidingWindowLayer returns at each step, and which of them the query sees."""
    out = []
    for window, n in CACHE_RUNS:
        layer = DynamicSlidingWindowLayer(sliding_window=window)
        seen = []
        for t in range(n):
            key = torch.full((1, 1, 1, 1), float(t), dtype=torch.float64)
            kv_length, kv_offset = layer.get_mask_sizes(1)
            keys, _ = layer.update(key, key)
            mask = sdpa_mask(batch_size=1, q_length=1, kv_length=kv_length, q_offset=t,
                             kv_offset=kv_offset, allow_is_causal_skip=False,
                             mask_function=sliding_window_causal_mask_function(window))
            returned = [int(k) for k in keys[0, 0, :, 0].tolist()]
            # the mask's columns are the positions kv_offset .. kv_offset + kv_length - 1
            visible = [kv_offset + j for j, ok in enumerate(mask[0, 0, 0].tolist()) if ok]
            assert visible == returned[-len(visible):], (returned, visible)
            seen.append(visible)
        out.append({"window": window, "tokens": n, "seen": seen})
    return out


def packing():
    config = LlamaConfig(hidden_size=8, num_attention_heads=2, num_hidden_layers=1, vocab_size=16)
    config._attn_implementation = "sdpa"
    out = []
    for lengths in PACKED:
        features = [{"input_ids": list(range(1, 1 + n))} for n in lengths]
        batch = DataCollatorWithFlattening(return_tensors="pt")(features)
        ids = batch["position_ids"]
        n = ids.shape[1]
        documents = find_packed_sequence_indices(ids)
        mask = create_causal_mask(config=config, inputs_embeds=torch.zeros(1, n, 8),
                                  attention_mask=None, cache=None, position_ids=ids,
                                  allow_is_causal_skip=False)
        out.append({"lengths": lengths, "position_ids": ids[0].tolist(),
                    "document_ids": None if documents is None else documents[0].tolist(),
                    "mask": _bits(mask[0, 0])})
    return out


def _floats(t):
    return t.detach().double().tolist()


def cached_decoding(rope_parameters, max_position_embeddings, prompt, steps, seed=0):
    """A one-layer Llama in float64: prefill ``prompt`` tokens, then decode ``steps`` more, one at a time."""
    torch.manual_seed(seed)
    head_dim = 8
    config = LlamaConfig(vocab_size=32, hidden_size=2 * head_dim, intermediate_size=16,
                         num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
                         head_dim=head_dim, max_position_embeddings=max_position_embeddings,
                         rope_parameters=rope_parameters, attn_implementation="eager",
                         initializer_range=0.5)  # weights large enough for logits of size 1
    model = LlamaForCausalLM(config).double().eval()
    tokens = torch.randint(0, 32, (1, prompt + steps))
    raw_keys = []
    hook = model.model.layers[0].self_attn.k_proj.register_forward_hook(
        lambda module, args, output: raw_keys.append(output.detach().clone()))
    cached, full = [], []
    with torch.no_grad():
        cache = DynamicCache(config=config)
        out = model(tokens[:, :prompt], cache=cache, use_cache=True)
        cached.append(out.logits[0, -1])
        for t in range(prompt, prompt + steps):
            out = model(tokens[:, t:t + 1], cache=cache, use_cache=True,
                        position_ids=torch.tensor([[t]]))
            cached.append(out.logits[0, -1])
        hook.remove()
        for t in range(prompt - 1, prompt + steps):
            fresh = LlamaForCausalLM(config).double().eval()  # a fresh rotary state
            fresh.load_state_dict(model.state_dict())
            full.append(fresh(tokens[:, :t + 1], use_cache=False).logits[0, -1])
    keys_before = torch.cat(raw_keys, dim=1)[0].view(prompt + steps, 2, head_dim)  # (n, heads, d_h)
    return {
        "config": {"head_dim": head_dim, "n_heads": 2, "max_position_embeddings": max_position_embeddings,
                   "rope_parameters": rope_parameters, "layout": "halves"},
        "prompt": prompt, "steps": steps, "tokens": tokens[0].tolist(),
        "keys_before_rotation": _floats(keys_before.transpose(0, 1)),  # (heads, n, d_h)
        "cached_keys": _floats(cache.layers[0].keys[0]),  # (heads, n, d_h), as cached after rotation
        "logits_cached": [_floats(x) for x in cached],  # after the prompt, then after each step
        "logits_full": [_floats(x) for x in full],
    }


def main():
    torch.set_default_dtype(torch.float64)
    reference = {
        "versions": {
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "python": platform.python_version(),
            "made_by": "tools/make_generation_reference.py",
        },
        "position_ids": position_ids(LEFT_PADDED),
        "padding_masks": padding_masks(LEFT_PADDED),
        "sliding_window_masks": sliding_window_masks(),
        "chunked_masks": chunked_masks(),
        "sliding_window_cache": sliding_window_cache(),
        "packing": packing(),
        "dynamic_rope": cached_decoding(
            {"rope_type": "dynamic", "factor": 2.0, "rope_theta": 10000.0},
            max_position_embeddings=8, prompt=6, steps=10),
        "longrope": cached_decoding(
            {"rope_type": "longrope", "rope_theta": 10000.0, "factor": 4.0,
             "original_max_position_embeddings": 8,
             "short_factor": [1.0, 1.1, 1.3, 1.6], "long_factor": [1.0, 2.0, 4.0, 8.0]},
            max_position_embeddings=32, prompt=6, steps=6),
    }
    assert md.version("transformers") == transformers.__version__
    json.dump(reference, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
