"""Accessibility of the built book, checked by axe-core in a real browser.

axe-core (pinned in ``tools/browser/package.json``, installed by ``make
browser-tools``: ``npm ci``) runs in headless Chromium on every page of
``_build/html`` (built once per session by the ``built_book`` fixture; set
``POSENC_CHECK_SITE=/path/to/html`` to check another build), at a phone's
width (390 px) and a desktop's (1280 px): one browser, the pages in
sequence. The same visit measures what axe does not: whether a page scrolls
sideways, and whether each formula too wide for its column scrolls in a box
that takes keyboard focus and shows a cue. A further visit at 320 px (the
narrowest phones) checks the sideways scrolling only.

``python -m tools.axe _build/html --details`` prints the same counts and
every violation, for a look by hand.
"""

from __future__ import annotations

import json

import pytest

from tests.book.sitecheck import site
from tools import axe

# What issue 31's review found, by axe rule: none of these may come back, at
# any impact (some are "minor" or "moderate" in axe's scale).
ISSUE_31_RULES = {
    "aria-required-children": "a list whose entries are not list items (references page)",
    "aria-deprecated-role": "the deprecated doc-biblioentry role (references page)",
    "aria-allowed-role": "roles not allowed on the element (references page)",
    "color-contrast": "text below 4.5:1 (links in exercise boxes)",
    "label-content-name-mismatch": "a name that does not contain the visible label",
    "empty-table-header": "a column header with no text",
    "scrollable-region-focusable": "a scrolling box that the keyboard cannot reach",
    "region": "content outside every landmark (the sidebar's title block)",
}

# Evaluated in each page after axe: sideways scrolling of the page, and each
# display formula (does it scroll, can it take focus, does it show the cue).
PAGE_JS = r"""() => {
    const formulas = [...document.querySelectorAll('div.math mjx-container[display="true"]')]
        .map(box => {
            const style = getComputedStyle(box);
            const section = box.closest("section[id]");
            return {
                scrolls: box.scrollWidth > box.clientWidth + 1,
                focusable: box.getAttribute("tabindex") === "0",
                cue: style.backgroundImage.includes("gradient")
                     && style.borderBottomStyle !== "none" && style.borderBottomWidth !== "0px",
                section: section ? section.id : "",
                text: (box.querySelector("mjx-assistive-mml") || box).textContent.slice(0, 60),
            };
        });
    return {scrollWidth: document.documentElement.scrollWidth,
            width: document.documentElement.clientWidth, formulas};
}"""
OVERFLOW_JS = """() => ({scrollWidth: document.documentElement.scrollWidth,
                         width: document.documentElement.clientWidth})"""


def require_axe():
    """axe-core is installed by the project's own files: missing is an error, not a skip."""
    assert axe.AXE_JS.is_file(), axe.MISSING


@pytest.fixture(scope="module")
def axe_visit(site, chromium):
    """axe-core's violations and PAGE_JS's findings for every page at 390 and 1280 px."""
    require_axe()
    pages = axe.site_pages(site)
    assert len(pages) >= 15, f"only {len(pages)} pages found in {site}"
    return {"site": site, "pages": pages,
            "results": axe.run(chromium, pages, axe.WIDTHS, inspect_js=PAGE_JS)}


def _listing(results, site, keep):
    lines = []
    for (page, width), result in results.items():
        for v in result["violations"] or []:
            if keep(v):
                targets = ", ".join(n["target"] for n in v["nodes"][:3])
                lines.append(f"{page.relative_to(site)} at {width} px: {v['impact']} {v['id']} "
                             f"({len(v['nodes'])}: {targets}): {v['help']}")
    return lines


def test_axe_is_the_pinned_version():
    """tools/browser/package.json pins axe-core, and that version is what runs."""
    require_axe()
    pinned = json.loads((axe.BROWSER_TOOLS / "package.json").read_text())["dependencies"]
    lock = json.loads((axe.BROWSER_TOOLS / "package-lock.json").read_text())
    assert pinned["axe-core"] == axe.version(), (pinned["axe-core"], axe.version())
    assert lock["packages"]["node_modules/axe-core"]["version"] == axe.version()


def test_every_page_at_both_widths_has_no_critical_or_serious_violation(axe_visit):
    results, site = axe_visit["results"], axe_visit["site"]
    assert {width for _, width in results} == set(axe.WIDTHS)
    assert len(results) == len(axe_visit["pages"]) * len(axe.WIDTHS)
    bad = _listing(results, site, lambda v: v["impact"] in ("critical", "serious"))
    counts = axe.counts(results)
    assert not bad, (f"axe-core {axe.version()}: {counts}\n" + "\n".join(bad))


def test_what_issue_31_found_stays_fixed(axe_visit):
    """The violations of the review, at any impact: citations that are not list
    items, link contrast in exercises, names that do not match labels, empty
    column headers, formulas that scroll out of the keyboard's reach, the
    sidebar's title block outside a landmark."""
    found = _listing(axe_visit["results"], axe_visit["site"], lambda v: v["id"] in ISSUE_31_RULES)
    assert not found, "\n".join(found)


BROKEN_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>
<body><main>
<h1>A page with violations</h1>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<div role="list"><div role="doc-biblioentry">An entry</div></div>
<p style="color: #176de8; background: #ecf3ff">a link colour on a tint</p>
<button aria-label="Search">Search Ctrl+K</button>
<div style="width: 100px; overflow-x: auto; white-space: nowrap">a formula much wider than its box, which scrolls</div>
</main></body></html>"""


def test_the_axe_check_finds_violations(tmp_path, chromium):
    """The same run on a page with known faults reports them (the check can fail)."""
    require_axe()
    page = tmp_path / "broken.html"
    page.write_text(BROKEN_PAGE)
    results = axe.run(chromium, [page], widths=(390,))
    found = {v["id"]: v["impact"] for v in results[(page, 390)]["violations"]}
    assert found.get("image-alt") == "critical", found
    assert found.get("aria-required-children") == "critical", found
    assert found.get("color-contrast") == "serious", found
    assert found.get("label-content-name-mismatch") == "serious", found
    assert found.get("scrollable-region-focusable") == "serious", found
    assert axe.counts(results)["critical"] >= 2


def test_no_page_scrolls_sideways_on_a_phone(axe_visit, site, chromium):
    """At 390 px and at 320 px, no page is wider than the screen: long inline
    code (signatures on the API page, submitted/<student>/<chapter>/... on the
    teachers' page) wraps, and wide formulas and code scroll in their own box."""
    narrow = axe.run(chromium, axe_visit["pages"], widths=(320,), axe=False, inspect_js=OVERFLOW_JS)
    wide = []
    for (page, width), result in {**axe_visit["results"], **narrow}.items():
        info = result["info"]
        if width < 800 and info["scrollWidth"] > info["width"]:
            wide.append(f"{page.relative_to(site)} at {width} px: {info['scrollWidth']} px wide")
    assert not wide, "pages that scroll sideways:\n" + "\n".join(wide)


def test_wide_formulas_scroll_in_a_focusable_box_with_a_cue(axe_visit):
    """At 390 px, each formula wider than the column scrolls in its own box,
    which takes keyboard focus and shows a cue (shadow, dotted rule); the
    formulas that fit are not extra Tab stops."""
    problems, scrolling = [], 0
    for (page, width), result in axe_visit["results"].items():
        for formula in result["info"]["formulas"]:
            where = f"{page.name} at {width} px, #{formula['section']}: {formula['text']!r}"
            if formula["scrolls"]:
                scrolling += 1
                if not formula["focusable"]:
                    problems.append(f"{where} scrolls but cannot take focus")
                if not formula["cue"]:
                    problems.append(f"{where} scrolls without a visible cue")
            elif formula["focusable"]:
                problems.append(f"{where} fits but is a Tab stop")
    assert scrolling, "no formula scrolls at 390 px: the check saw nothing to check"
    assert not problems, "\n".join(problems)


# Issue 31, item 3: the two formulas that lost their ends on a phone were
# rewritten to fit (chapter 2's pair of equations, chapter 7's cases).
FORMULAS_THAT_FIT = {
    "book/02_sines.html": ("the-formula-symbol-by-symbol", "PE(pos,2i+1)"),
    "book/07_stretch.html": ("llama-3-1-s-rule", "θi′"),
}


def test_the_worst_formulas_fit_a_phone(axe_visit):
    for name, (section, start) in FORMULAS_THAT_FIT.items():
        page = axe_visit["site"] / name
        formulas = [f for f in axe_visit["results"][(page, 390)]["info"]["formulas"]
                    if f["section"] == section]
        assert any(start in f["text"] for f in formulas), (name, section, formulas)
        wide = [f["text"] for f in formulas if f["scrolls"]]
        assert not wide, f"{name} #{section}: formulas wider than 390 px: {wide}"
