"""The references' author-year labels (``book/_ext/posenc_bibstyle.py``)."""

from __future__ import annotations

from tools.paths import ROOT


def test_reference_labels_read_like_the_citations():
    """The references page labels entries "Vaswani et al., 2017", sorted by author."""
    import sys

    from pybtex.database import BibliographyData, Entry, Person, parse_file

    from book._ext import posenc_bibstyle

    style = posenc_bibstyle.AuthorYearStyle()
    data = BibliographyData({
        "b": Entry("article", {"title": "{RoFormer}: Two", "journal": "J", "year": "2021"},
                   persons={"author": [Person("Zed, Al"), Person("Bo, Cy")]}),
        "a": Entry("article", {"title": "One", "journal": "J", "year": "2019"},
                   persons={"author": [Person("Lacroix, Timoth{\\'e}e")]}),
        "c": Entry("article", {"title": "Three", "journal": "J", "year": "2021"},
                   persons={"author": [Person("Zed, Al"), Person("Bo, Cy"), Person("Ng, Di")]}),
        "d": Entry("article", {"title": "Four", "journal": "J", "year": "2021"},
                   persons={"author": [Person("Zed, Al"), Person("Bo, Cy"), Person("Oh, Ed")]}),
    })
    entries = list(style.format_bibliography(data))
    assert [e.label for e in entries] == [
        "Lacroix, 2019", "Zed and Bo, 2021", "Zed et al., 2021a", "Zed et al., 2021b"]
    assert "RoFormer: Two" in entries[1].text.render_as("text")
    labels = [e.label for e in style.format_bibliography(parse_file(ROOT / "book" / "references.bib"))]
    assert "Vaswani et al., 2017" in labels
    assert len(set(labels)) == len(labels)
