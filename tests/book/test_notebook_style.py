"""Every chapter follows the book's rules for what it shows on the page.

The rules and the checks live in ``tools/nbstyle.py``: lines that fit the
content column, sharp figures no wider than the column with alt text and,
where the prose cites them, a caption; colours from ``posenc.plot`` only.
The second group of tests feeds each check a notebook that breaks its rule,
so that a check that can no longer fail is caught too.
"""

from __future__ import annotations

import base64
import struct
import sys
import zlib

import nbformat
import pytest

from tools import nbstyle
from tools.paths import ROOT, notebooks


NOTEBOOKS = notebooks()


@pytest.mark.parametrize("check", nbstyle.CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_follows_the_rule(path, check):
    problems = check(nbformat.read(path, as_version=4))
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


# --- each check fails on a notebook that breaks its rule -------------------


def _png(width, height):
    """A tiny valid PNG header of the given pixel size (enough for the check)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    png = (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
           + struct.pack(">I", zlib.crc32(chunk)))
    return base64.b64encode(png).decode()


def _figure_cell(width=600, png_width=1200, alt="A line rising from left to right "
                 "across the whole plot", figure=None, source="ax.plot(x);"):
    cell = nbformat.v4.new_code_cell(source)
    cell.outputs = [nbformat.v4.new_output(
        "display_data", data={"image/png": _png(png_width, 100), "text/plain": "<Figure>"},
        metadata={"image/png": {"width": width, "height": 50}})]
    cell.metadata["mystnb"] = {"image": {"alt": alt}}
    if figure:
        cell.metadata["mystnb"]["figure"] = figure
    return cell


def _notebook(*cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f"import posenc\n{nbstyle.STYLE_CALL}"), *cells]
    return nb


def test_a_compliant_notebook_passes():
    fig = {"caption": "A line.", "name": "fig-demo-line"}
    source = ('ax.errorbar(x, y, yerr=e, capsize=3, '
              'color=posenc.plot.PALETTE["orange"]);')
    nb = _notebook(_figure_cell(figure=fig, source=source),
                   nbformat.v4.new_markdown_cell("{numref}`fig-demo-line` shows it."))
    assert nbstyle.problems(nb) == []


@pytest.mark.parametrize("cell, expected", [
    (nbformat.v4.new_code_cell("x = 1  # " + "a" * 80), "code line of"),
    (_figure_cell(width=900, png_width=1800), "more than the 688 px column"),
    (_figure_cell(png_width=600), "not at twice its display width"),
    (_figure_cell(alt="fig.png"), "needs alt text"),
    (_figure_cell(alt=""), "needs alt text"),
    (_figure_cell(figure={"caption": "A line."}), "needs both a caption and a name"),
    (_figure_cell(source='ax.plot(x, color="C3");'), "colour literal"),
    (_figure_cell(source='ax.plot(x, color="#ff0000");'), "colour literal"),
    (_figure_cell(source='ax.text(0, 0, "a", fontsize=6);'), "font under 8 pt"),
    (_figure_cell(source='ax.legend(fontsize="x-small");'), "font under 8 pt"),
])
def test_each_rule_can_fail(cell, expected):
    problems = nbstyle.problems(_notebook(cell))
    assert any(expected in p for p in problems), problems


def test_long_output_lines_and_unnamed_references_fail():
    cell = nbformat.v4.new_code_cell("print(x)")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="y" * 80 + "\n")]
    assert any("output line of 80" in p for p in nbstyle.problems(_notebook(cell)))
    nb = _notebook(nbformat.v4.new_markdown_cell("See {numref}`fig-missing`."))
    assert any("fig-missing" in p for p in nbstyle.figure_references(nb))
    nb = _notebook(_figure_cell(figure={"caption": "A line.", "name": "fig-unused"}))
    assert any("never cites it" in p for p in nbstyle.figure_references(nb))


def test_figures_need_the_book_style():
    nb = _notebook(_figure_cell())
    nb.cells[0].source = "import posenc"
    assert any(nbstyle.STYLE_CALL in p for p in nbstyle.figures(nb))
