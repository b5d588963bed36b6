"""Markup a reader's tools rely on (``book/_ext/posenc_a11y.py``, and the
chapters' own metadata): unique ids, figures with alt text, numbered and
captioned where cited, that reserve their space before they load. axe-core's
checks of every page are in ``test_accessibility``."""

from __future__ import annotations

import re

from tests.book.sitecheck import chapter_pages, parse_page, site, site_pages


def test_no_id_is_used_twice_on_a_page(site):
    """Ids are unique (sphinx-exercise gave every exercise ``exercise-content``)."""
    found = []
    for page in site_pages(site):
        ids = parse_page(page).ids
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            found.append(f"{page.relative_to(site).as_posix()}: {twice}")
    assert not found, "ids used more than once:\n" + "\n".join(found)


def test_tables_whose_first_column_heads_the_rows_have_row_headers(site):
    """A table with an empty corner cell (``| | What it is |``: chapters 3
    and 4, the teachers' page) has no empty ``<th>``, and the first cell of
    each of its body rows is a row header, so that every data cell has a
    header (axe's td-has-header, which Lighthouse runs)."""
    tables = 0
    for page in site_pages(site):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<th class="head">(?:<p></p>)?</th>', text), page.name
        for table in re.findall(r"<table\b.*?</table>", text, re.S):
            head, _, body = table.partition("<tbody>")
            if '<td class="head"></td>' not in head:
                continue
            tables += 1
            rows = re.findall(r"<tr\b[^>]*>\s*<(t[dh])\b([^>]*)>", body)
            assert rows and all(cell == "th" and 'scope="row"' in attrs for cell, attrs in rows), \
                (page.name, rows)
    assert tables >= 3, tables


def test_figures_reserve_their_space_and_open_full_size(site):
    """A figure shown at a set size keeps that shape before its image has loaded
    (an aspect ratio next to ``height: auto``: no layout shift), and is a link to
    the full image, which the caption offers on a phone."""
    checked = 0
    for page in chapter_pages(site):
        html = page.read_text(encoding="utf-8")
        for img in re.findall(r"<img [^>]*_images/[^>]*>", html):
            size = re.search(r"width: ([\d.]+)px; height: ([\d.]+)px;", img)
            if size:
                checked += 1
                ratio = re.search(r"aspect-ratio: ([\d.]+) / ([\d.]+)", img)
                assert ratio and ratio.groups() == size.groups(), f"{page.name}: {img[:120]}"
        linked = len(re.findall(r'<a class="reference internal image-reference" href="[^"]*_images/', html))
        shown = len(re.findall(r"<img [^>]*src=\"[^\"]*_images/", html))
        assert linked == shown, f"{page.name}: {shown - linked} of {shown} figures are not links"
    assert checked > 10


def _looks_like_a_path(alt):
    return bool(re.search(r"(^|/)_images/|\.(png|jpe?g|svg)$|^[\w./-]+$", alt.strip()))


def test_figures_have_alt_text_that_is_not_a_path(site):
    """Alt text says what a figure shows; myst-nb's default is the image's path.
    (Depends on the chapter owners: alt text lives in each figure cell's metadata.)"""
    found = []
    for page in chapter_pages(site):
        for img in parse_page(page).images:
            if "_images/" in img["src"] and (_looks_like_a_path(img["alt"])
                                              or len(img["alt"].split()) < 6):
                found.append(f"{page.name}: {img['src'].rsplit('/', 1)[-1][:16]}... alt={img['alt'][:40]!r}")
    assert not found, f"{len(found)} figures without real alt text:\n" + "\n".join(found)


def test_alt_text_check_recognises_paths():
    assert _looks_like_a_path("../_images/abc123.png")
    assert _looks_like_a_path("_images/ee6005f288f2.png")
    assert not _looks_like_a_path("Heatmap of the sinusoidal table: 50 positions by 128 dimensions")


def test_figures_the_prose_cites_are_numbered_and_captioned(site):
    """Every chapter that shows figures numbers and captions the ones its prose
    cites ({numref}), and every numbered figure is cited.
    (Depends on the chapter owners: captions live in the cells' metadata.)"""
    found = []
    for page in chapter_pages(site):
        parsed = parse_page(page)
        figures = [i for i in parsed.images if "_images/" in i["src"]]
        if not figures:
            continue
        numbered = {i["figure"]["number"] for i in figures if i["figure"] and i["figure"]["number"]}
        cited = {re.sub(r"\s+", " ", a["text"]).strip() for a in parsed.links
                 if "std-numref" in " ".join(a["classes"]) or a["text"].strip().startswith("Fig.")}
        cited = {c for c in cited if c.startswith("Fig.")}
        if not numbered:
            found.append(f"{page.name}: {len(figures)} figures, none numbered with a caption")
        for number in sorted(numbered):
            if not any(c.rstrip(".") == number.rstrip(". ") for c in cited):
                found.append(f"{page.name}: {number} is never cited in the prose")
    assert not found, "\n".join(found)
