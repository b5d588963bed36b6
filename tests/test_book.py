"""The book builds strictly, and every page of the table of contents is in it."""

from __future__ import annotations

from conftest import ROOT
from test_notebooks import toc_files


def test_book_builds_strictly(built_book):
    assert (built_book / "index.html").is_file()
    for name in toc_files():
        page = built_book / (name + ".html")
        assert page.is_file(), f"{name} is in _toc.yml but {page.relative_to(ROOT)} was not built"


def test_index_redirects_to_the_landing_page(built_book):
    assert "book/intro.html" in (built_book / "index.html").read_text()
