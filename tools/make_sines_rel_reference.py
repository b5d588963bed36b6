"""Compute the reference values of tests/fixtures/sines_rel_reference.json (chapters 2 and 5).

Run by hand, in a scratch environment outside the repository: it needs torch
and Hugging Face Transformers, which the book and its tests do not install.

    python -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install torch==2.14.1 transformers==5.24.0
    /tmp/refvenv/bin/python tools/make_sines_rel_reference.py > tests/fixtures/sines_rel_reference.json

What the file records (numbers written with ``repr`` of their float64 value,
so nothing is rounded again), with the versions that computed them:

* ``marian``: the table of Transformers' ``MarianSinusoidalPositionalEmbedding``
  (``create_weight``, float32), for a small module whose table chapter 2
  prints in full, for the size of the OPUS-MT models (512 positions, width
  512; a few rows, since each row is computed on its own), and for an odd
  width. The small module is also built inside a ``MarianModel``, whose
  encoder and decoder tables the tool checks to be that table.
* ``bloom``: BLOOM's ALiBi slopes, ``_get_alibi_slopes`` of
  ``transformers.models.bloom.modeling_bloom`` (``torch.pow`` in float32), for
  8, 12, 16 and 112 heads (BLOOM's 176B model has 112); the tool checks that
  ``build_alibi_tensor`` multiplies the key positions by exactly these.

tests/unit/test_sinusoidal.py and tests/unit/test_relative.py compare posenc
with the file, and tests/book/test_references.py checks that the values
chapters 2 and 5 print (typed into the chapter, since a chapter must run on
its own, where tests/ is absent) are the file's.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import torch
import transformers
from transformers import MarianConfig, MarianModel
from transformers.models.bloom.modeling_bloom import _get_alibi_slopes, build_alibi_tensor
from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding

MARIAN_CASES = [  # (positions, width, the rows recorded: None for all)
    (6, 8, None),  # chapter 2 prints it whole
    (512, 512, [0, 1, 2, 3, 50, 100, 255, 511]),  # the OPUS-MT models' size
    (9, 7, None),  # an odd width
]
BLOOM_HEADS = [8, 12, 16, 112]


def _floats(t):
    return [float(v) for v in t.detach().cpu().double().reshape(-1).tolist()]


def marian(n_pos, dim, rows):
    weight = MarianSinusoidalPositionalEmbedding(n_pos, dim).create_weight()
    assert weight.dtype == torch.float32
    rows = list(range(n_pos)) if rows is None else rows
    return {"num_positions": n_pos, "embedding_dim": dim, "rows": rows,
            "dtype": str(weight.dtype).removeprefix("torch."),
            "weight": [_floats(weight[r]) for r in rows]}


def marian_in_a_model(n_pos, dim):
    """The table a MarianModel holds is create_weight's (checked, not recorded twice)."""
    config = MarianConfig(vocab_size=10, pad_token_id=0, decoder_start_token_id=0, d_model=dim,
                          encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                          decoder_attention_heads=2, encoder_ffn_dim=8, decoder_ffn_dim=8,
                          max_position_embeddings=n_pos)
    model = MarianModel(config)
    table = MarianSinusoidalPositionalEmbedding(n_pos, dim).create_weight()
    for part in (model.encoder, model.decoder):
        assert torch.equal(part.embed_positions.weight, table)
        assert not part.embed_positions.weight.requires_grad


def bloom(n_heads):
    slopes = _get_alibi_slopes(n_heads, torch.device("cpu"))
    assert slopes.dtype == torch.float32
    alibi = build_alibi_tensor(torch.ones(1, 4, dtype=torch.long), n_heads, torch.float32)
    assert torch.equal(alibi[:, 0, 1], slopes)  # key position 1: the slope itself
    return {"n_heads": n_heads, "dtype": str(slopes.dtype).removeprefix("torch."),
            "slopes": _floats(slopes)}


def main():
    marian_in_a_model(6, 8)
    data = {
        "about": "Reference values of chapters 2 and 5, made by tools/make_sines_rel_reference.py: "
                 "Transformers' MarianSinusoidalPositionalEmbedding.create_weight and BLOOM's "
                 "_get_alibi_slopes, as they run (float32).",
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                     "numpy": np.__version__},
        "marian": [marian(*case) for case in MARIAN_CASES],
        "bloom": [bloom(n) for n in BLOOM_HEADS],
    }
    json.dump(data, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
