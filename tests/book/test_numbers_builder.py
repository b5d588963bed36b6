"""Only ``make book``'s html build writes ``_build/numbers.json``
(``book/_ext/posenc_numbers.py``): ``make pdf``'s singlehtml build, whose
format is "html" too and whose output folder is also in ``_build``, must
leave it as the html build wrote it."""

from __future__ import annotations

import json

from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace

from tools.paths import ROOT

PAGES = {
    "index.md": "# The book\n\n```{toctree}\n:numbered:\nchapter\n```\n",
    "chapter.md": "# A chapter\n\n(sec)=\n## A section\n",
}


def build(src, builder):
    """Build ``src`` as ``make book`` (html) or ``make pdf`` (singlehtml) do:
    strict, into ``_build/<builder>``, with shared doctrees."""
    with docutils_namespace():  # each build registers its nodes afresh
        app = Sphinx(str(src), str(src), str(src / "_build" / builder),
                     str(src / "_build" / ".doctrees"), builder,
                     status=None, warning=None, warningiserror=True)
        app.build()


def test_only_the_html_build_writes_the_numbers(tmp_path):
    src = tmp_path / "book"
    src.mkdir()
    for name, text in PAGES.items():
        (src / name).write_text(text)
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        "extensions = ['myst_parser', 'posenc_numbers']\n"
        "exclude_patterns = ['_build']\n")
    numbers = src / "_build" / "numbers.json"
    build(src, "html")
    written = numbers.read_text()
    assert json.loads(written)["docs"]["chapter"]["number"] == 1
    build(src, "singlehtml")
    assert numbers.read_text() == written, "the singlehtml build rewrote numbers.json"
