"""Checks of the stored chapter notebooks (nbval itself re-runs them).

nbval (configured in pyproject.toml) re-executes every notebook under book/
and compares each cell's fresh output with the stored one. The checks here
make sure the stored notebooks are worth comparing against: executed top to
bottom, free of errors, warnings and machine-specific text, and listed in the
table of contents. The last test proves the nbval set-up is strict: a
notebook whose stored output is wrong fails the suite.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import nbformat
import pytest

from tools import nbtools
from tools.paths import BOOK, ROOT, notebooks, toc_files


NOTEBOOKS = notebooks()


def test_toc_lists_only_existing_pages():
    for name in toc_files():
        matches = [p for p in ROOT.glob(name + ".*") if p.suffix in {".md", ".ipynb"}]
        assert len(matches) == 1, f"_toc.yml lists {name!r}, which matches {matches}"


def test_every_notebook_is_in_the_toc():
    listed = set(toc_files())
    for nb in NOTEBOOKS:
        assert str(nb.relative_to(ROOT).with_suffix("")) in listed, f"{nb.name} is not in _toc.yml"


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_valid_and_executed_in_order(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    counts = [c.execution_count for c in code_cells(nb)]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} are not 1, 2, 3, ...: "
        "run `make execute` to store outputs from a clean top-to-bottom run"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_outputs_are_clean(path):
    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(code_cells(nb)):
        kinds = [(o.output_type, o.get("name")) for o in cell.get("outputs", [])]
        assert all(a != b or a[0] != "stream" for a, b in zip(kinds, kinds[1:])), (
            f"{path.name}, code cell {i + 1}: printing stored in several pieces "
            "(shown as separate blocks); re-run `make execute`"
        )
        for out in cell.get("outputs", []):
            where = f"{path.name}, code cell {i + 1}"
            assert out.output_type != "error", f"{where} stores an error"
            assert not (out.output_type == "stream" and out.name == "stderr"), (
                f"{where} writes to stderr (a warning?): {out.text[:200]!r}"
            )
            text = json.dumps({k: v for k, v in out.get("data", {}).items() if not k.startswith("image/")})
            text += out.get("text", "")
            assert not re.search(r"0x[0-9a-fA-F]{6,}", text), f"{where} shows a memory address"
            assert not re.search(r"/(root|home|tmp|work|Users)/", text), f"{where} shows an absolute path"
        assert "execution" not in cell.metadata, f"{path.name}: stored execution timestamps"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_starts_with_title_and_imports(path):
    nb = nbformat.read(path, as_version=4)
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# "), (
        f"{path.name} must open with a markdown cell holding the chapter title"
    )
    # the bootstrap cell (tools/nbtools.py bootstrap) comes first; then the imports
    first = next(c for c in code_cells(nb) if not nbtools.is_bootstrap(c)).source
    for module in ("numpy", "matplotlib", "posenc"):
        assert re.search(rf"^\s*(import|from) {module}\b", first, re.M), (
            f"{path.name}: the first code cell after the bootstrap cell must import {module}"
        )


def test_nbval_fails_on_a_changed_output(tmp_path):
    """The suite's nbval settings catch a stored output that no longer matches."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import posenc\nprint(posenc.frequencies(4))")]
    path = tmp_path / "probe.ipynb"
    nbformat.write(nb, path)
    nbtools.execute(path)

    def run_nbval():
        cmd = [sys.executable, "-m", "pytest", str(path), "-q", "-c", str(ROOT / "pyproject.toml"),
               "--rootdir", str(ROOT)]
        return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)

    fresh = run_nbval()
    assert fresh.returncode == 0, fresh.stdout[-2000:]
    stored = nbformat.read(path, as_version=4)
    assert stored.cells[0].outputs[0].text == "[1.   0.01]\n"
    stored.cells[0].outputs[0].text = "[1.   0.02]\n"
    nbformat.write(stored, path)
    broken = run_nbval()
    assert broken.returncode != 0, "nbval accepted a notebook whose stored output is wrong"
    assert "1 failed" in broken.stdout
