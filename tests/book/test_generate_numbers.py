"""The numbers that chapter 10 copies from Transformers are Transformers' numbers.

A chapter runs alone (Colab, ``tests/book/alone.py``), without ``tests/fixtures``,
so ``book/10_generate.ipynb`` types in the few values of
``tests/fixtures/generation_reference.json`` that it shows:
``TRANSFORMERS_GAP``, the largest difference between the logits of a
one-layer Llama of Transformers 5.24.0 with its ``DynamicCache`` and
recomputed without one, after each token, under dynamic NTK. This test reads
that cell and compares it with the file, to the two significant figures the
chapter prints.
"""

from __future__ import annotations

import ast
import json

import nbformat
import numpy as np

from tools.paths import BOOK, ROOT

REFERENCE = json.loads((ROOT / "tests" / "fixtures" / "generation_reference.json").read_text())


def _typed(name):
    nb = nbformat.read(BOOK / "10_generate.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.parse(cell.source).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
                return ast.literal_eval(node.value)
    raise AssertionError(f"no cell of chapter 10 assigns {name}")


def test_the_chapters_transformers_gaps_are_the_reference_files():
    run = REFERENCE["dynamic_rope"]
    cached, full = np.array(run["logits_cached"]), np.array(run["logits_full"])
    gaps = np.abs(cached - full).max(axis=1)
    read = range(run["prompt"], run["prompt"] + run["steps"] + 1)
    typed = _typed("TRANSFORMERS_GAP")
    assert list(typed) == list(read)
    for tokens, gap in zip(read, gaps):
        assert float(f"{gap:.2g}") == float(f"{typed[tokens]:.2g}"), (tokens, gap, typed[tokens])
