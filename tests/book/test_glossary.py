"""The glossary (book/glossary.md) and the links from the chapters to it
(tools/glossary_links.py, issue 27).

The chapters get their links from ``python -m tools.glossary_links``, run
by the lead once every chapter's edits are merged:
``test_every_chapter_links_the_first_use_of_each_term`` fails until then,
and names the command.
"""

from __future__ import annotations

import copy
import functools
import re
import subprocess
import sys

import nbformat
import pytest
import yaml

from tools import glossary_links, myst, plain_myst
from tools.paths import BOOK, ROOT, notebooks

CHAPTERS = notebooks()
ENTRIES = glossary_links.read_glossary()


@functools.cache
def read(path):
    return nbformat.read(path, as_version=4)


def entry(term):
    return next(e for e in ENTRIES if term in e.terms)


@functools.cache
def events(path):
    """Every glossary event in the markdown of the chapter at ``path`` (scanned once)."""
    return tuple(ev for c in read(path).cells if c.cell_type == "markdown"
                 for ev in glossary_links.scan(c.source, ENTRIES))


def uses(path, e):
    """The events of the glossary entry ``e`` in the chapter at ``path``."""
    return [ev for ev in events(path) if ev.entry.key == e.key]


# --- the page ---------------------------------------------------------------------


def test_glossary_is_in_the_reference_part():
    parts = yaml.safe_load((ROOT / "_toc.yml").read_text())["parts"]
    reference = next(p for p in parts if p.get("caption") == "Reference")
    assert "book/glossary" in [c["file"] for c in reference["chapters"]]


@pytest.mark.parametrize("term", [
    "$d_k$", "logits", "softmax temperature", "residual stream", "LayerNorm", "tied embeddings",
    "perplexity", "fine-tuning", "key/value cache", "neural tangent kernel", "standard error",
    "float16", "bfloat16", "float32", "seed", "held-out",
])
def test_glossary_has_the_terms_the_learner_missed(term):
    assert any(term in e.terms for e in ENTRIES), f"no glossary entry for {term!r}"


def test_the_neural_tangent_kernel_entry_is_one_line_with_a_reference():
    text = (BOOK / "glossary.md").read_text()
    (body,) = [b for name, _, _, b in myst.directive_blocks(text) if name == "glossary"]
    definition = dict((terms[0], d) for terms, d in myst.glossary_entries(body))["neural tangent kernel"]
    assert "{cite:p}`jacot2018ntk`" in definition
    assert len(re.findall(r"[.!?](\s|$)", definition)) == 1, definition  # one sentence


def test_each_term_belongs_to_one_entry():
    keys = [k for e in ENTRIES for k in e.keys()]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)


def test_each_entry_is_short_and_links_a_chapter_that_uses_it(built_book):
    """One or two sentences (plus where the book uses it), and every page
    an entry links as a place where the book uses the term does use it."""
    text = (BOOK / "glossary.md").read_text()
    (body,) = [b for name, _, _, b in myst.directive_blocks(text) if name == "glossary"]
    book = plain_myst.Book()
    for terms, definition in myst.glossary_entries(body):
        e = entry(terms[0])
        sentences = len(re.findall(r"[.!?](\s|$)", re.sub(r"\$[^$]*\$|e\.g\.|i\.e\.", "", definition)))
        assert 1 <= sentences <= 4, (terms[0], sentences)
        linked = {book.doc(m).name for m in re.findall(r"\{doc\}`(?:[^`<]*<)?([^`>]+)>?`", definition)}
        linked |= {book._find("sections", m).name for m in re.findall(r"\{ref\}`(?:[^`<]*<)?([^`>]+)>?`", definition)}
        chapters = [p for p in CHAPTERS if p.stem in linked]
        assert chapters, f"{terms[0]}: the entry links no chapter"
        for path in chapters:
            assert uses(path, e), f"{terms[0]}: the entry links {path.stem}, which does not use the term"


def test_every_entry_is_used_by_some_chapter():
    for e in ENTRIES:
        assert any(uses(p, e) for p in CHAPTERS), f"no chapter uses {e.terms[0]!r}: drop it or link it"


# --- the links from the chapters ----------------------------------------------------


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_chapter_links_the_first_use_of_each_term(path):
    problems = glossary_links.unlinked(read(path), ENTRIES)
    assert not problems, (f"{path.name}: run `python -m tools.glossary_links` to link these:\n"
                          + "\n".join(problems))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_the_tool_links_every_chapter_once_and_for_all(path):
    """On a copy: after the tool, nothing is unlinked, a second run changes
    nothing, and only markdown changed, by links alone."""
    nb = copy.deepcopy(read(path))
    glossary_links.link_notebook(nb, ENTRIES)
    assert glossary_links.unlinked(nb, ENTRIES) == []
    again = copy.deepcopy(nb)
    assert glossary_links.link_notebook(again, ENTRIES) is False and again == nb
    for old, new in zip(read(path).cells, nb.cells):
        if old.cell_type != "markdown":
            assert old == new
        assert unlinked_text(new.source) == unlinked_text(old.source)


def unlinked_text(source):
    """``source`` without its glossary links, spacing normalised."""
    source = re.sub(r"\{term\}`([^`<]*?)(?: <[^`>]*>)?`", r"\1", source)
    source = re.sub(r"\[(\$[^\]]*\$)\]\(#[^)]*\)", r"\1", source)
    return " ".join(source.split())


GLOSSARY_MD = """\
```{glossary}
softmax
  Weights.

softmax temperature
temperature
  Divides the logits.

seed
  Starts a generator.

$d_k$
  Key width.

layer normalisation
  Normalises.
```
"""


@pytest.fixture
def entries(tmp_path):
    (tmp_path / "g.md").write_text(GLOSSARY_MD)
    return glossary_links.read_glossary(tmp_path / "g.md")


def _link(text, entries):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text)])
    glossary_links.link_notebook(nb, entries)
    return nb.cells[0].source


@pytest.mark.parametrize("text, linked", [
    ("The softmax of a row.", "The {term}`softmax` of a row."),
    ("A softmax, then a softmax.", "A {term}`softmax`, then a softmax."),
    ("Eight Seeds agree.", "Eight {term}`Seeds <seed>` agree."),
    ("A seeded generator.", "A {term}`seeded <seed>` generator."),
    ("The softmax temperature, then the softmax.",
     "The {term}`softmax temperature`, then the {term}`softmax`."),
    ("its layer\nnormalisation acts", "its {term}`layer normalisation` acts"),
    ("width $d_k$ and $\\sqrt{d_k}$", "width [$d_k$](#d_k) and $\\sqrt{d_k}$"),
    ("Seeds are not reseeded, nor seedless, nor softmax-like.", "{term}`Seeds <seed>` are not reseeded, nor "
     "seedless, nor softmax-like."),
])
def test_links_the_first_use(entries, text, linked):
    assert _link(text, entries) == linked
    assert _link(linked, entries) == linked  # idempotent


@pytest.mark.parametrize("text", [
    "$\\operatorname{softmax}(x)$ and $$\nseed\n$$",
    "\\begin{align}\nseed\n\\end{align}",
    "`softmax(x)` and ``a seed``",
    "```python\nseed = 1  # the softmax\n```",
    "## The softmax\n### A seed",
    "[the softmax](https://example.org) and ![a seed](x.png)",
    "{doc}`the softmax <02_sines>` and {ref}`seed <x>`",
    ":::{admonition} The softmax\n:class: seed\n\nBody.\n:::",
    "```{code-block} python\nseed\n```",
    "<!-- softmax -->\n<span title=\"seed\">x</span>",
    "(seed)=\n% softmax comment",
])
def test_never_links_inside_math_code_headings_links_or_options(entries, text):
    assert _link(text, entries) == text


def test_a_use_after_an_existing_link_is_left_alone(entries):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("Draw a {term}`seed <seed>`."),
        nbformat.v4.new_markdown_cell("Another seed, and a softmax."),
    ])
    assert glossary_links.link_notebook(nb, entries) is True
    assert nb.cells[1].source == "Another seed, and a {term}`softmax`."
    assert glossary_links.unlinked(nb, entries) == []
    nb.cells[0].source = "Draw a seed."
    problems = glossary_links.unlinked(nb, entries)
    assert len(problems) == 1 and "'seed'" in problems[0]


def test_admonition_bodies_are_prose(entries):
    text = ":::{admonition} Aside\n:class: dropdown\n\nThe softmax.\n:::"
    assert _link(text, entries) == ":::{admonition} Aside\n:class: dropdown\n\nThe {term}`softmax`.\n:::"


def test_the_command_checks_and_links(tmp_path, entries):
    path = tmp_path / "ch.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("A seed.")]), path)
    (tmp_path / "g.md").write_text(GLOSSARY_MD)
    cmd = [sys.executable, "-m", "tools.glossary_links", "--glossary", str(tmp_path / "g.md")]
    check = subprocess.run([*cmd, "--check", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 1 and "needs glossary links" in check.stdout
    run = subprocess.run([*cmd, str(path)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert nbformat.read(path, as_version=4).cells[0].source == "A {term}`seed`."
    check = subprocess.run([*cmd, "--check", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout
