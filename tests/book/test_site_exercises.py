"""Exercises and solutions in the built pages (``book/_ext/posenc_exercises.py``).
Their toggles' names are checked in the visit (``test_site_visit``), a tap
on a solution's title on a phone (``test_site_phone``)."""

from __future__ import annotations

import re

from tests.book.sitecheck import chapter_pages, parse_page, site
from tools.paths import ROOT


def test_solutions_do_not_show_nbgrader_markers(site):
    """The notebooks mark solutions with ``# BEGIN SOLUTION``; the pages do not show it."""
    pages = chapter_pages(site)
    assert pages
    shown = [p.name for p in pages if re.search(r"#\s*(BEGIN|END) SOLUTION", parse_page(p).text)]
    assert not shown, f"nbgrader's solution markers shown in {shown}"
    # the notebooks themselves keep them (nbgrader and otter-grader need them)
    sources = [ROOT / (p.relative_to(site.resolve()).with_suffix(".ipynb")) for p in pages]
    assert any("# BEGIN SOLUTION" in s.read_text(encoding="utf-8") for s in sources)


def test_solution_titles_hold_no_link_and_solutions_link_back(site):
    """The title of a solution is all toggle (a link in it took a phone's taps);
    the link to the exercise is at the solution's end."""
    solutions = 0
    for page in chapter_pages(site):
        html = page.read_text(encoding="utf-8")
        for title in re.findall(r'<div class="solution[^>]*>\s*<p class="admonition-title">(.*?)</p>',
                                html, re.S):
            solutions += 1
            assert "<a " not in title, f"{page.name}: a link in a solution's title: {title[:120]}"
        back = re.findall(r'<p class="posenc-backlink"><a [^>]*href="#ex-[^"]+"[^>]*>Back to Exercise',
                          html)
        assert len(back) == html.count('<div class="solution'), f"{page.name}: solutions without a link back"
    assert solutions > 10
