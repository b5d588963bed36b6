"""The book's rules for what a notebook shows on the page, as checks.

Each check takes a notebook (``nbformat`` node) and returns a list of
problems, one line each, naming the cell; an empty list means the notebook
follows the rule. ``tests/book/test_notebook_style.py`` runs them on every
chapter; run them by hand on one notebook with

    .venv/bin/python -m tools.nbstyle book/02_sines.ipynb

The rules (README, "Writing a chapter"):

* lines fit the content column: code and text outputs at most
  ``MAX_LINE`` characters;
* one figure per cell, at most ``posenc.plot.FIGURE_WIDTH`` inches wide,
  stored at twice its display resolution (``posenc.plot.use_book_style()``
  in the first code cell), with alt text that describes it
  (``metadata.mystnb.image.alt``), and a caption and a name
  (``metadata.mystnb.figure``) when the prose refers to it with
  ``{numref}`fig-...```;
* colours only from ``posenc.plot`` (``PALETTE``, ``SCHEME_STYLE`` or the
  default colour cycle): no ``"C3"``, ``"red"`` or hex literals in a chapter;
* no font smaller than 8 pt (11 CSS pixels on screen).
"""

from __future__ import annotations

import base64
import re
import struct
import sys

import nbformat

MAX_LINE = 79
# 688 CSS px: the content column of a chapter on a 1280-px screen (measured in
# Chromium); posenc.plot.FIGURE_WIDTH is the same width in inches.
MAX_FIGURE_PX = 688
STYLE_CALL = "posenc.plot.use_book_style()"
MIN_ALT_WORDS = 6

_COLOUR_LITERAL = re.compile(  # a key of posenc.plot.PALETTE is fine: PALETTE["blue"]
    r"""(?x)
    (?<!PALETTE\[)["'](?:C\d|tab:\w+|\#[0-9a-fA-F]{3,8}|red|green|blue|orange|purple|
    brown|pink|olive|cyan|magenta|yellow|navy|teal|crimson|gold)["']""")
_SMALL_FONT = re.compile(
    r"""(?x)\b(?:fontsize|labelsize|size)\s*=\s*(?:["']x{1,2}-small["']|[0-7](?:\.\d+)?\b)""")
_FIG_REF = re.compile(r"\{numref\}`(?:[^`<]*<)?(fig-[\w-]+)>?`")


def _where(i, cell):
    first = "".join(cell.source).strip().splitlines()[:1]
    return f"cell {i} ({first[0][:40] if first else 'empty'!r})"


def _code_cells(nb):
    """``(where, cell)`` for each code cell, ``where`` naming it in a problem."""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            yield _where(i, cell), cell


def _text_outputs(cell):
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            yield out.text
        elif out.output_type in ("execute_result", "display_data"):
            text = out.get("data", {}).get("text/plain", "")
            if "image/png" in out.get("data", {}) and text.startswith("<Figure size"):
                continue  # the repr matplotlib attaches to a figure, never shown
            yield text
        elif out.output_type == "error":
            yield "\n".join(out.get("traceback", []))


def _pngs(cell):
    return [out for out in cell.get("outputs", [])
            if "image/png" in out.get("data", {})]


def _png_width(b64):
    data = base64.b64decode(b64)
    return struct.unpack(">I", data[16:20])[0]


def long_lines(nb):
    """Code and text-output lines longer than MAX_LINE characters."""
    problems = []
    for where, cell in _code_cells(nb):
        for line in cell.source.splitlines():
            if len(line) > MAX_LINE:
                problems.append(f"{where}: code line of {len(line)} "
                                f"characters: {line[:50]}...")
        for text in _text_outputs(cell):
            for line in text.splitlines():
                if len(line) > MAX_LINE:
                    problems.append(f"{where}: output line of "
                                    f"{len(line)} characters: {line[:50]}...")
    return problems


def figures(nb):
    """Figures that are blurry, too wide, or without alt text; several per cell."""
    problems = []
    code = [c for c in nb.cells if c.cell_type == "code"]
    has_figures = any(_pngs(c) for c in code)
    if has_figures and not any(STYLE_CALL in c.source for c in code[:3]):
        problems.append(f"the notebook draws figures but its first code cells do "
                        f"not call {STYLE_CALL}")
    for i, cell in enumerate(nb.cells):
        pngs = _pngs(cell)
        if not pngs:
            continue
        where = _where(i, cell)
        if len(pngs) > 1:
            problems.append(f"{where}: {len(pngs)} figures in one cell; give each "
                            f"its own cell (alt text and caption are per cell)")
        for out in pngs:
            size = out.get("metadata", {}).get("image/png", {})
            width = size.get("width")
            if width is None:
                problems.append(f"{where}: PNG without a display width: not drawn "
                                f"at twice the resolution (call {STYLE_CALL})")
                continue
            if width > MAX_FIGURE_PX:
                problems.append(f"{where}: figure {width} px wide, more than the "
                                f"{MAX_FIGURE_PX} px column: it would be shrunk")
            if _png_width(out.data["image/png"]) < 2 * width - 2:
                problems.append(f"{where}: PNG is not at twice its display width")
        meta = cell.metadata.get("mystnb", {})
        alt = str(meta.get("image", {}).get("alt", "")).strip()
        if len(alt.split()) < MIN_ALT_WORDS or re.search(r"\.(png|svg)\b|/", alt):
            problems.append(f"{where}: needs alt text of at least {MIN_ALT_WORDS} "
                            f"words that says what the figure shows "
                            f"(metadata.mystnb.image.alt)")
        fig = meta.get("figure")
        if fig is not None and not (fig.get("caption") and fig.get("name")):
            problems.append(f"{where}: metadata.mystnb.figure needs both a caption "
                            f"and a name")
    return problems


def figure_references(nb):
    """Named figures never cited, and citations of figures the notebook lacks."""
    names = {}
    for i, cell in enumerate(nb.cells):
        name = cell.metadata.get("mystnb", {}).get("figure", {}).get("name")
        if name:
            names[name] = i
    cited = set()
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cited.update(_FIG_REF.findall(cell.source))
    problems = [f"prose cites {{numref}}`{name}`, but no cell has that figure name"
                for name in sorted(cited - set(names)) if not name.startswith("fig-ext-")]
    problems += [f"cell {names[name]}: figure {name!r} has a caption but the prose "
                 f"never cites it with {{numref}}" for name in sorted(set(names) - cited)]
    return problems


def colours_and_fonts(nb):
    """Colour literals outside posenc.plot's palette; fonts under 8 pt."""
    problems = []
    for where, cell in _code_cells(nb):
        for line in cell.source.splitlines():
            code = re.sub(r"(^|\s)#(\s.*|$)", "", line)  # drop a comment
            if _COLOUR_LITERAL.search(code):
                problems.append(f"{where}: colour literal "
                                f"{_COLOUR_LITERAL.search(code).group()}: use "
                                f"posenc.plot.PALETTE or SCHEME_STYLE")
            if _SMALL_FONT.search(code):
                problems.append(f"{where}: font under 8 pt: "
                                f"{_SMALL_FONT.search(code).group()}")
    return problems


CHECKS = (long_lines, figures, figure_references, colours_and_fonts)


def problems(nb):
    """Every problem of every check, in order."""
    return [p for check in CHECKS for p in check(nb)]


if __name__ == "__main__":
    status = 0
    for path in sys.argv[1:]:
        found = problems(nbformat.read(path, as_version=4))
        print(f"{path}: {len(found)} problem(s)")
        for p in found:
            print("  " + p)
        status |= bool(found)
    sys.exit(status)
