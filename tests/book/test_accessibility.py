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
    // Tables in the theme's scrolling box: the same questions.
    const tables = [...document.querySelectorAll(".pst-scrollable-table-container")]
        .filter(box => box.checkVisibility()).map(box => {
            const style = getComputedStyle(box);
            const section = box.closest("section[id]");
            return {
                scrolls: box.scrollWidth > box.clientWidth + 1,
                focusable: box.getAttribute("tabindex") === "0",
                cue: style.maskImage.includes("gradient") && style.borderBottomStyle === "dotted",
                section: section ? section.id : "",
                text: box.textContent.trim().slice(0, 60),
            };
        });
    // Keyboard focus on each toggle (solutions, dropdowns, hidden cells): the
    // outline or shadow it shows when it has the focus. Last, since focusing
    // scrolls the page.
    const toggles = [...document.querySelectorAll("button.toggle-button, details.hide > summary")]
        .filter(el => el.checkVisibility()).map(el => {
            el.focus({preventScroll: true});
            const style = getComputedStyle(el);
            const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2)
                         || style.boxShadow !== "none";
            const title = el.closest(".admonition, details");
            return {focused: document.activeElement === el, ring, kind: el.tagName.toLowerCase(),
                    text: (title ? title.textContent : el.textContent).trim().slice(0, 50)};
        });
    return {scrollWidth: document.documentElement.scrollWidth,
            width: document.documentElement.clientWidth, formulas, tables, toggles};
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


@pytest.mark.browser  # needs axe-core, which `make browser-check` installs (npm ci)
def test_axe_is_the_pinned_version():
    """tools/browser/package.json pins axe-core, and that version is what runs."""
    require_axe()
    pinned = json.loads((axe.BROWSER_TOOLS / "package.json").read_text())["dependencies"]
    lock = json.loads((axe.BROWSER_TOOLS / "package-lock.json").read_text())
    assert pinned["axe-core"] == axe.version(), (pinned["axe-core"], axe.version())
    assert lock["packages"]["node_modules/axe-core"]["version"] == axe.version()


@pytest.mark.browser  # needs axe-core and Lighthouse, which `make browser-check` installs (npm ci)
def test_axe_runs_the_rules_that_lighthouse_turns_on(chromium):
    """Lighthouse turns on axe rules that axe leaves off by default (it failed
    chapter 4 on td-has-header while this check passed): the check runs
    exactly those too."""
    import re

    from playwright.sync_api import sync_playwright

    from tools.headless import CHROMIUM_FLAGS

    require_axe()
    gatherer = (axe.BROWSER_TOOLS / "node_modules" / "lighthouse" / "core" / "gather" / "gatherers"
                / "accessibility.js").read_text(encoding="utf-8")
    lighthouse_on = set(re.findall(r"'([a-z0-9-]+)': \{enabled: true\}", gatherer))
    assert "td-has-header" in lighthouse_on and len(lighthouse_on) > 20, sorted(lighthouse_on)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
        page = browser.new_page()
        page.add_script_tag(content=axe.AXE_JS.read_text(encoding="utf-8"))
        off = set(page.evaluate(
            "() => axe.getRules().filter(r => r.enabled === false).map(r => r.ruleId)"))
        browser.close()
    assert lighthouse_on & off == set(axe.RULES_ON), sorted(lighthouse_on & off)


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
<div class="pst-scrollable-table-container" tabindex="0" style="width: 100px; overflow-x: auto">
<table><tr><td style="white-space: nowrap">a table much wider than its box, which scrolls</td></tr></table></div>
<div class="admonition"><button class="toggle-button" style="outline: none">open</button></div>
<table><thead><tr><td></td><th>A</th><th>B</th></tr></thead><tbody>
<tr><td>row 1</td><td>1</td><td>2</td></tr><tr><td>row 2</td><td>3</td><td>4</td></tr>
<tr><td>row 3</td><td>5</td><td>6</td></tr></tbody></table>
</main></body></html>"""


def test_the_axe_check_finds_violations(tmp_path, chromium):
    """The same run on a page with known faults reports them (the check can fail)."""
    require_axe()
    page = tmp_path / "broken.html"
    page.write_text(BROKEN_PAGE)
    results = axe.run(chromium, [page], widths=(390,), inspect_js=PAGE_JS)
    found = {v["id"]: v["impact"] for v in results[(page, 390)]["violations"]}
    info = results[(page, 390)]["info"]
    assert [(t["scrolls"], t["cue"]) for t in info["tables"]] == [(True, False)], info["tables"]
    assert [(t["focused"], t["ring"]) for t in info["toggles"]] == [(True, False)], info["toggles"]
    assert found.get("image-alt") == "critical", found
    assert found.get("aria-required-children") == "critical", found
    assert found.get("color-contrast") == "serious", found
    assert found.get("label-content-name-mismatch") == "serious", found
    assert found.get("scrollable-region-focusable") == "serious", found
    # the table's row labels are <td>: a rule axe's defaults leave off
    assert found.get("td-has-header") == "critical", found
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


def scrolling_boxes(axe_visit, kind):
    """(how many boxes of ``kind`` scroll, the problems found): a box that
    scrolls must take focus and show its cue; one that fits shows neither."""
    problems, scrolling = [], 0
    for (page, width), result in axe_visit["results"].items():
        for box in result["info"][kind]:
            where = f"{page.name} at {width} px, #{box['section']}: {box['text']!r}"
            if box["scrolls"]:
                scrolling += 1
                problems += [f"{where} scrolls but cannot take focus"] * (not box["focusable"])
                problems += [f"{where} scrolls without a visible cue"] * (not box["cue"])
            elif box["focusable"] or box["cue"]:
                problems.append(f"{where} fits but is a Tab stop or shows the cue")
    return scrolling, problems


def test_wide_formulas_scroll_in_a_focusable_box_with_a_cue(axe_visit):
    """At 390 px, each formula wider than the column scrolls in its own box,
    which takes keyboard focus and shows a cue (shadow, dotted rule); the
    formulas that fit are not extra Tab stops."""
    scrolling, problems = scrolling_boxes(axe_visit, "formulas")
    assert scrolling, "no formula scrolls at 390 px: the check saw nothing to check"
    assert not problems, "\n".join(problems)


def test_wide_tables_scroll_in_a_focusable_box_with_a_cue(axe_visit):
    """At 390 px, each table wider than the column (the notation page's, the
    teachers' page's) scrolls in a box that takes keyboard focus and shows
    the formulas' cue: the edge with more table beyond it fades, and a dotted
    rule runs under the box (issue 42: the third column was cut mid-word
    with nothing to say so)."""
    scrolling, problems = scrolling_boxes(axe_visit, "tables")
    assert scrolling >= 5, f"only {scrolling} tables scroll at 390 px: the check saw too little"
    assert not problems, "\n".join(problems)


def test_every_toggle_shows_the_keyboard_focus(axe_visit):
    """WCAG 2.4.7: each toggle of a solution, a dropdown or a hidden cell
    shows an outline (at least 2 px) or a shadow when it has the keyboard
    focus (togglebutton.css took the outline away from its buttons)."""
    problems, buttons = [], 0
    for (page, width), result in axe_visit["results"].items():
        for toggle in result["info"]["toggles"]:
            buttons += toggle["kind"] == "button"
            if not toggle["focused"] or not toggle["ring"]:
                problems.append(f"{page.name} at {width} px: {toggle['kind']} {toggle['text']!r} "
                                f"{'shows no focus' if toggle['focused'] else 'cannot take focus'}")
    assert buttons >= 20, f"only {buttons} toggle buttons found"
    assert not problems, f"{len(problems)} toggles:\n" + "\n".join(problems[:20])


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
