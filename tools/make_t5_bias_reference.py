"""Compute the reference values of tests/fixtures/t5_bias_reference.json (the ``"t5"`` scheme).

Run by hand, in a scratch environment outside the repository: it needs torch
and Hugging Face Transformers, which the book and its tests do not install.

    python -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install torch==2.14.1 transformers==5.24.0
    /tmp/refvenv/bin/python tools/make_t5_bias_reference.py > tests/fixtures/t5_bias_reference.json

It builds Transformers' ``T5Attention`` with a relative attention bias (T5's
defaults: 32 buckets, max_distance 128; 4 heads), sets its
``relative_attention_bias.weight`` (32 buckets x 4 heads) to fixed numbers
(``numpy.random.default_rng(0)``, float64), and records what
``compute_bias(n, n)`` returns for ``n = 140`` (past max_distance), once for
an encoder (``is_decoder=False``: both directions) and once for a decoder
(``is_decoder=True``: the past only). Only a few query rows are kept, to
keep the file small; every key of them is. Numbers are written with ``repr``
of their float64 value, so nothing is rounded again.

tests/unit/test_model.py reads the file: the ``"t5"`` scheme's bias, with
``params["R"]`` set to the transpose of that weight, must equal it exactly.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import sys

import numpy as np
import torch
import transformers
from transformers.models.t5.configuration_t5 import T5Config
from transformers.models.t5.modeling_t5 import T5Attention

N, HEADS, ROWS = 140, 4, [0, 1, 9, 70, 139]


def main():
    weight = np.random.default_rng(0).normal(size=(32, HEADS))
    out = {"versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                        "python": sys.version.split()[0], "numpy": md.version("numpy")},
           "source": "transformers.models.t5.modeling_t5.T5Attention.compute_bias",
           "n": N, "rows": ROWS, "weight": weight.tolist(), "bias": {}}
    for is_decoder in (False, True):
        config = T5Config(d_model=16, d_kv=4, num_heads=HEADS, relative_attention_num_buckets=32,
                          relative_attention_max_distance=128, is_decoder=is_decoder)
        layer = T5Attention(config, has_relative_attention_bias=True, layer_idx=0).double()
        with torch.no_grad():
            layer.relative_attention_bias.weight.copy_(torch.from_numpy(weight))
            bias = layer.compute_bias(N, N).numpy()  # (1, heads, n, n)
        key = "decoder" if is_decoder else "encoder"
        out["bias"][key] = bias[0][:, ROWS].tolist()  # (heads, rows, n)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
