"""Previews of glossary terms and citations (``book/_ext/posenc_previews.py``,
``static/posenc-previews.js``), as a reader meets them in headless Chromium
from ``file://``: hover, keyboard focus and a tap on a phone show the
term's definition (the glossary's own words) or the reference (the
references page's entry); Escape, leaving the link or a tap elsewhere hides
it; nothing is fetched; axe finds nothing wrong with an open preview, at 390
and 1280 px, in light and dark mode."""

from __future__ import annotations

import json
import re

import pytest

from tests.book.sitecheck import TIMEOUT, file_url, site, toc_pages, url_path  # noqa: F401
from tools.axe import AXE_JS, MISSING
from tools.headless import is_outside, launch

PAGE = "book/02_sines.html"  # glossary links and citations
DATA = re.compile(r'<script type="application/json" id="posenc-previews">(.*?)</script>', re.S)
GLOSSARY_LINK = re.compile(r'<a class="reference internal" href="(glossary\.html|)#(term-[^"]+)"')


def page_entries(path):
    """The glossary entries a built page carries: {"book/glossary#term-x": entry}."""
    found = DATA.search(path.read_text(encoding="utf-8"))
    return json.loads(found.group(1)) if found else {}


def squeeze(text):
    return re.sub(r"\s+", " ", text).strip()


def words_of(text):
    """A pattern for ``text`` with each formula (written "§") as any short run."""
    return ".{1,60}?".join(re.escape(part) for part in squeeze(text).split("§"))


# The glossary page's own words: for every term id, the entry's first term,
# and its definition with each formula as "§" (the preview writes formulas
# as text, the page typesets them).
GLOSSARY_JS = r"""() => {
    const out = {};
    for (const dd of document.querySelectorAll("dl.glossary > dd")) {
        const terms = [];
        for (let dt = dd.previousElementSibling; dt && dt.tagName === "DT";
             dt = dt.previousElementSibling) terms.unshift(dt);
        const copy = dd.cloneNode(true);
        copy.querySelectorAll("span.math").forEach(m => m.replaceWith("§"));
        const first = terms[0].cloneNode(true);
        first.querySelectorAll(".headerlink").forEach(n => n.remove());
        first.querySelectorAll("span.math").forEach(m => m.replaceWith("§"));
        for (const dt of terms) out[dt.id] = {term: first.textContent.trim(),
                                              text: copy.textContent};
    }
    return out;
}"""
REFERENCES_JS = r"""() => Object.fromEntries([...document.querySelectorAll("div.citation")]
    .map(c => [c.id, c.querySelector("p").textContent]))"""
BOX_JS = r"""() => {
    const box = document.getElementById("posenc-preview");
    if (!box || box.hidden) return null;
    const r = box.getBoundingClientRect();
    return {text: box.textContent, role: box.getAttribute("role"), left: r.left, right: r.right,
            width: document.documentElement.clientWidth,
            hint: !!box.querySelector(".posenc-preview-hint"),
            described: [...document.querySelectorAll('[aria-describedby="posenc-preview"]')]
                       .map(a => a.getAttribute("href"))};
}"""
# The page settled: fonts loaded, lazy images near the screen started, two frames.
QUIET_JS = """async () => {
    await document.fonts.ready;
    await new Promise(r => setTimeout(r, 400));
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""
AXE_RUN_JS = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(" "))}))"""


def _box(page):
    return page.evaluate(BOX_JS)


def _desktop(page, site, steps, requests):
    """Hover, leave, hover the box, a citation, keyboard focus and Escape, at 1280 px."""
    page.goto(file_url(site / PAGE), wait_until="load")
    entries = page_entries(site / PAGE)
    term = page.locator('a[href^="glossary.html#term-"]').first
    href = term.get_attribute("href")
    steps["term href"] = href
    steps["term entry"] = entries.get("book/glossary#" + href.split("#", 1)[1])
    cite = page.locator(".bibtex-citation a").first
    steps["cite href"] = cite.get_attribute("href")
    quiet = []  # requests made while a preview opened (the page itself settled)

    def preview(link, action):
        """What the preview box shows after ``action`` on ``link``."""
        link.scroll_into_view_if_needed()
        page.evaluate(QUIET_JS)
        before = len(requests)
        getattr(link, action)()
        page.wait_for_timeout(500)
        quiet.extend(requests[before:])
        return _box(page)

    steps["hover"] = preview(term, "hover")
    box = page.locator("#posenc-preview")
    box.hover()
    page.wait_for_timeout(600)
    steps["pointer on the box"] = _box(page)
    page.mouse.move(2, 2)
    page.wait_for_timeout(700)
    steps["after leaving"] = _box(page)

    steps["citation"] = preview(cite, "hover")
    steps["citation title left"] = cite.get_attribute("title")
    page.mouse.move(2, 2)
    page.wait_for_timeout(700)

    page.keyboard.press("Tab")  # a keyboard user: focus shows the ring, and the preview
    steps["focus"] = preview(term, "focus")
    page.keyboard.press("Escape")
    page.wait_for_timeout(200)
    steps["after Escape"] = _box(page)
    steps["focus after Escape"] = page.evaluate("document.activeElement.getAttribute('href')")
    steps["described after Escape"] = term.get_attribute("aria-describedby")
    steps["requests while previewing"] = quiet


def _phone(page, site, steps):
    """At 390 px with touch: a first tap shows, a tap elsewhere hides, a second tap follows."""
    page.goto(file_url(site / PAGE), wait_until="load")
    term = page.locator('a[href^="glossary.html#term-"]').first
    term.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    term.tap()
    page.wait_for_timeout(300)
    steps["tap"] = _box(page)
    steps["page after one tap"] = url_path(page.url).name
    page.locator(".bd-article h1").first.scroll_into_view_if_needed()
    page.locator(".bd-article h1").first.tap()
    page.wait_for_timeout(300)
    steps["after a tap elsewhere"] = _box(page)
    term.scroll_into_view_if_needed()
    term.tap()
    page.wait_for_timeout(300)
    target = term.get_attribute("href").split("#", 1)[0]
    term.tap()
    try:
        page.wait_for_url(re.compile(re.escape(target)), timeout=30_000)
    except Exception:  # noqa: BLE001  (no navigation: the assertion says so)
        pass
    steps["page after two taps"] = url_path(page.url).name + "#" + page.url.partition("#")[2]


def _axe(page, site, theme, axe_source):
    """axe's violations on PAGE with a term's preview open, in ``theme``."""
    page.goto(file_url(site / PAGE), wait_until="load")
    page.evaluate(f"document.documentElement.dataset.theme = {theme!r}")
    page.keyboard.press("Tab")
    term = page.locator('a[href^="glossary.html#term-"]').first
    term.focus()
    page.wait_for_timeout(300)
    shown = _box(page) is not None
    page.add_script_tag(content=axe_source)
    return shown, page.evaluate(AXE_RUN_JS)


@pytest.fixture(scope="module")
def visit(site, chromium):
    """One browser for every check: what each step showed."""
    from playwright.sync_api import sync_playwright

    if not AXE_JS.is_file():
        pytest.fail(MISSING, pytrace=False)
    axe_source = AXE_JS.read_text(encoding="utf-8")
    steps, requests, outside = {}, [], []

    def record(request):
        requests.append(request.url)
        if is_outside(request.url):
            outside.append(request.url)

    with sync_playwright() as p:
        browser, ctx = launch(p, chromium, timeout=TIMEOUT, viewport={"width": 1280, "height": 900})
        ctx.on("request", record)
        page = ctx.new_page()
        page.goto(file_url(site / "book" / "glossary.html"), wait_until="load")
        steps["glossary"] = page.evaluate(GLOSSARY_JS)
        page.goto(file_url(site / "book" / "references.html"), wait_until="load")
        steps["references"] = page.evaluate(REFERENCES_JS)
        _desktop(page, site, steps, requests)
        for theme in ("light", "dark"):
            steps[("axe", 1280, theme)] = _axe(page, site, theme, axe_source)
        ctx.close()
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, service_workers="block")
        ctx.set_default_timeout(TIMEOUT)
        ctx.route(lambda url: is_outside(url), lambda route: route.abort())
        ctx.on("request", record)
        page = ctx.new_page()
        _phone(page, site, steps)
        for theme in ("light", "dark"):
            steps[("axe", 390, theme)] = _axe(page, site, theme, axe_source)
        browser.close()
    steps["outside requests"] = outside
    return steps


def test_every_glossary_link_carries_its_terms_definition(site, visit):
    """Each page holds, for each of its glossary links, the entry's first term
    and its definition in the glossary's own words (formulas as text)."""
    glossary = visit["glossary"]
    assert len(glossary) >= 37
    checked = 0
    for path in toc_pages(site):
        entries = page_entries(path)
        ids = {m.group(2) for m in GLOSSARY_LINK.finditer(path.read_text(encoding="utf-8"))
               if m.group(1) or path.name == "glossary.html"}
        assert {k.split("#", 1)[1] for k in entries} == ids, path.name
        for key, entry in entries.items():
            own = glossary[key.split("#", 1)[1]]
            for part in ("term", "text"):
                assert re.fullmatch(words_of(own[part]), entry[part]), (path.name, key, part)
            checked += 1
    assert checked >= 100


def test_pages_without_such_links_load_no_preview_script(site):
    for name in ("api", "exercises", "references"):
        text = (site / "book" / f"{name}.html").read_text(encoding="utf-8")
        assert "posenc-previews.js" not in text, name
    assert "posenc-previews.js" in (site / PAGE).read_text(encoding="utf-8")


def test_hover_shows_the_definition_and_leaving_hides_it(visit):
    entry = visit["term entry"]
    assert entry, visit["term href"]
    shown = visit["hover"]
    assert shown and shown["role"] == "tooltip"
    assert squeeze(shown["text"]) == squeeze(f'{entry["term"]} {entry["text"]}')
    assert shown["described"] == [visit["term href"]]
    assert 0 <= shown["left"] and shown["right"] <= shown["width"]
    # the pointer can move onto the box (WCAG 1.4.13: hoverable), and off it
    assert visit["pointer on the box"] and visit["after leaving"] is None


def test_a_citation_shows_its_reference(visit):
    shown = visit["citation"]
    ident = visit["cite href"].split("#", 1)[1]
    assert shown and squeeze(shown["text"]) == squeeze(visit["references"][ident])
    assert visit["citation title left"] is None  # no second, native tooltip


def test_keyboard_focus_shows_it_and_escape_hides_it(visit):
    entry = visit["term entry"]
    assert visit["focus"] and squeeze(visit["focus"]["text"]).startswith(entry["term"])
    assert visit["after Escape"] is None
    assert visit["focus after Escape"] == visit["term href"]
    assert visit["described after Escape"] is None


def test_a_tap_shows_it_and_a_second_tap_follows_the_link(visit):
    entry = visit["term entry"]
    shown = visit["tap"]
    assert shown and squeeze(shown["text"]).startswith(squeeze(f'{entry["term"]} {entry["text"]}'))
    assert shown["hint"]
    assert 0 <= shown["left"] and shown["right"] <= shown["width"]
    assert visit["page after one tap"] == PAGE.split("/")[-1]
    assert visit["after a tap elsewhere"] is None
    assert visit["page after two taps"] == visit["term href"]


def test_previews_fetch_nothing(visit):
    assert visit["requests while previewing"] == []
    assert visit["outside requests"] == []


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_an_open_preview_passes_axe(visit, width, theme):
    shown, violations = visit[("axe", width, theme)]
    assert shown
    assert violations == []
