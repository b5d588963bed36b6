"""The reference values a chapter prints are the fixture's.

A chapter must run on its own (Colab, a downloaded notebook,
``tests/book/alone.py``), where ``tests/fixtures`` is absent, so
the few reference values a chapter compares ``posenc`` with are typed into
it, in a cell that names the fixture they come from. This file checks each
such copy against its fixture, value for value; the fixtures themselves are
made by the tools in ``tools/`` (see ``tests/fixtures/README.md``), and the
unit tests compare ``posenc`` with the whole fixture.
"""

from __future__ import annotations

import ast
import sys
import json

import nbformat
import numpy as np
import pytest

from tools.paths import BOOK, FIXTURES


def chapter_literal(notebook, name):
    """The value of ``name = <expression>`` in a code cell of ``notebook``,
    evaluated with numpy as ``np`` and nothing else."""
    nb = nbformat.read(BOOK / notebook, as_version=4)
    found = []
    for cell in nb.cells:
        if cell.cell_type != "code" or name not in cell.source:
            continue
        for node in ast.parse(cell.source).body:
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [name]:
                found.append(eval(compile(ast.Expression(node.value), notebook, "eval"), {"np": np}))
    assert len(found) == 1, f"{notebook} should assign {name} once, in one cell: {len(found)} times"
    return found[0]


def fixture(name):
    return json.loads((FIXTURES / name).read_text())


def rope_inv_freq(case, dtype="float32"):
    cases = {c["name"]: c for c in fixture("rope_scaling_reference.json")["cases"]}
    (ref,) = [r for r in cases[case]["references"] if r["dtype"] == dtype]
    return np.array(ref["inv_freq"])


def marian(num_positions, embedding_dim):
    for case in fixture("sines_rel_reference.json")["marian"]:
        if (case["num_positions"], case["embedding_dim"]) == (num_positions, embedding_dim):
            assert case["rows"] == list(range(num_positions))
            return np.array(case["weight"])
    raise KeyError((num_positions, embedding_dim))


def bloom(n_heads):
    (case,) = [c for c in fixture("sines_rel_reference.json")["bloom"] if c["n_heads"] == n_heads]
    return np.array(case["slopes"])


def timm_resample(name, new_grid):
    runs = fixture("grids_reference.json")["runs"]["transformers 5.24.0"]["resample"]
    (case,) = [c for c in runs if c["name"] == name and c["new_grid"] == new_grid]
    values = np.array(case["antialias=True"])
    return values[:, 0] if values.shape[1] == 1 else values


COPIES = [  # (notebook, variable, the fixture's values, the dtype the chapter gives them)
    ("appendix_prec.ipynb", "HF_INV_FREQ", lambda: rope_inv_freq("llama2 plain"), np.float32),
    ("02_sines.ipynb", "MARIAN_6x8", lambda: marian(6, 8), np.float32),
    ("05_rel.ipynb", "BLOOM_SLOPES", lambda: bloom(112), np.float32),
    ("08_grids.ipynb", "TIMM_RAMP_6x6", lambda: timm_resample("ramp", [6, 6]), np.float32),
    ("08_grids.ipynb", "TIMM_UP_6x6", lambda: timm_resample("normal", [6, 6]), np.float32),
    ("08_grids.ipynb", "TIMM_DOWN_4x4", lambda: timm_resample("normal", [4, 4]), np.float32),
]


@pytest.mark.parametrize("notebook, name, values, dtype", COPIES, ids=[c[1] for c in COPIES])
def test_the_chapter_prints_the_fixture_values(notebook, name, values, dtype):
    """Bit for bit (a chapter's inputs drawn from a seed are the fixture's inputs too:
    test_the_chapter_draws_the_fixtures_inputs)."""
    copy = chapter_literal(notebook, name)
    expected = values()
    assert copy.dtype == dtype and copy.shape == expected.shape
    # bit for bit: every fixture value is a float32, written out in float64
    assert np.array_equal(copy.astype(np.float64), expected)


def test_a_wrong_copy_is_found(tmp_path, monkeypatch):
    """The check above can fail: one value changed in the last place."""
    nb = nbformat.read(BOOK / "appendix_prec.ipynb", as_version=4)
    (cell,) = [c for c in nb.cells if "HF_INV_FREQ = np.array(" in c.source]
    cell.source = cell.source.replace("8.6596435e-01", "8.6596430e-01", 1)
    nbformat.write(nb, tmp_path / "appendix_prec.ipynb")
    monkeypatch.setattr(sys.modules[__name__], "BOOK", tmp_path)
    copy = chapter_literal("appendix_prec.ipynb", "HF_INV_FREQ")
    assert not np.array_equal(copy.astype(np.float64), rope_inv_freq("llama2 plain"))


def test_the_chapter_draws_the_fixtures_inputs():
    """Chapter 8 redraws the N(0, 1) tables that timm resized from the tool's seed."""
    runs = fixture("grids_reference.json")["runs"]["transformers 5.24.0"]["resample"]
    small, large = [np.array(c["table"]) for c in runs if c["name"] == "normal"]
    rng = np.random.default_rng(0)  # as chapter 8's cell and tools/make_grids_reference.py
    assert np.array_equal(rng.normal(size=(16, 2)), small)
    assert np.array_equal(rng.normal(size=(64, 2)), large)
