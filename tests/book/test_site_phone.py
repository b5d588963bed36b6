"""What a reader meets on a phone (390 px, touch): the menu and contents
drawers, figures that keep their shape and their place, a tap on a
solution's title, Escape in a drawer, the search box's icon (also on a
desktop), the caption's hint that a tap opens the figure."""

from __future__ import annotations

import pytest

from tests.book.sitecheck import TIMEOUT, chapter_pages, file_url, site, url_path
from tools.headless import launch


def phone_navigation(chromium, chapter, other):
    """At 390 px: open ``chapter``, tap the menu button, tap the link to
    ``other``; there, tap the contents button. Returns what happened at each step."""
    from playwright.sync_api import sync_playwright

    steps = {}
    with sync_playwright() as p:
        browser, ctx = launch(p, chromium, timeout=TIMEOUT, viewport={"width": 390, "height": 844},
                              is_mobile=True, has_touch=True, device_scale_factor=2)
        page = ctx.new_page()
        page.goto(file_url(chapter), wait_until="load")
        steps["menu buttons visible"], dialog = _open_drawer(
            page, ".primary-toggle", "#pst-primary-sidebar-modal[open]")
        if dialog is not None:
            links = dialog.locator("nav a.reference").locator("visible=true")
            steps["chapter links shown"] = links.count()
            target = dialog.locator(f'a[href$="{other.name}"]').locator("visible=true")
            if target.count():
                target.first.click()
                page.wait_for_load_state("load")
        steps["page after tapping the chapter"] = url_path(page.url).name
        steps["contents buttons visible"], dialog = _open_drawer(
            page, ".secondary-toggle", "#pst-secondary-sidebar-modal[open]")
        if dialog is not None:
            steps["section links shown"] = dialog.locator("a.nav-link").locator("visible=true").count()
        browser.close()
    return steps


def _open_drawer(page, button, drawer):
    """Tap the first visible ``button``: how many are visible, and the
    ``drawer`` it opens (None when no button is visible)."""
    buttons = page.locator(button).locator("visible=true")
    count = buttons.count()
    if not count:
        return count, None
    buttons.first.click()
    page.wait_for_timeout(300)
    return count, page.locator(drawer)


SQUASHED_JS = r"""() => [...document.querySelectorAll(".cell_output img")]
    .filter(img => img.naturalWidth && img.getBoundingClientRect().width)
    .map(img => {
        const box = img.getBoundingClientRect();
        const drawn = box.width / box.height, natural = img.naturalWidth / img.naturalHeight;
        return {src: img.getAttribute("src"), ratio: drawn / natural};
    })
    .filter(img => Math.abs(img.ratio - 1) > 0.02)"""


def phone_figures(chromium, chapter):
    """At 390 px: the figures of ``chapter`` whose shape on screen differs from
    the picture's by more than 2 % (a width narrowed to the column while the
    height stays fixed squashes the figure)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser, ctx = launch(p, chromium, timeout=TIMEOUT, viewport={"width": 390, "height": 844},
                              is_mobile=True, has_touch=True, device_scale_factor=2)
        page = ctx.new_page()
        page.goto(file_url(chapter), wait_until="load")
        squashed = page.evaluate(SQUASHED_JS)
        browser.close()
    return squashed


def test_phone_menu_and_contents_buttons_work(site, chromium):
    """At 390 px (a phone): the menu button shows the chapter list, a chapter
    link in it opens that chapter, and the contents button lists its sections."""
    chapters = chapter_pages(site)
    steps = phone_navigation(chromium, chapters[0], chapters[1])
    assert steps["menu buttons visible"] == 1, steps
    assert steps.get("chapter links shown", 0) >= len(chapters), steps
    assert steps["page after tapping the chapter"] == chapters[1].name, steps
    assert steps["contents buttons visible"] == 1, steps
    assert steps.get("section links shown", 0) >= 3, steps


def test_figures_keep_their_shape_on_a_phone(site, chromium):
    """At 390 px a figure narrows to the column and keeps its aspect ratio."""
    chapter = next(page for page in chapter_pages(site)
                   if "cell_output" in page.read_text(encoding="utf-8")
                   and "<img" in page.read_text(encoding="utf-8"))
    squashed = phone_figures(chromium, chapter)
    assert not squashed, f"{chapter.name}: figures squashed at 390 px: {squashed[:3]}"


SEARCH_ICON_JS = r"""(selector) => {
    const root = document.querySelector(selector);
    const glass = root && root.querySelector(".fa-magnifying-glass");
    const input = root && root.querySelector("input");
    if (!glass || !input) return null;
    const style = getComputedStyle(input);
    return {icon: glass.getBoundingClientRect().right,
            text: input.getBoundingClientRect().left + parseFloat(style.paddingLeft),
            value: input.value};
}"""


LAZY_JS = r"""() => {
    const drawn = (el) => el.checkVisibility({contentVisibilityAuto: true});
    const sections = [...document.querySelectorAll(".bd-article > section > section")];
    const boxes = [...document.querySelectorAll("pre, .cell_output > .output, div.math mjx-container")];
    return {sections: sections.length,
            skipped: sections.filter(s => s.firstElementChild && !drawn(s.firstElementChild)).length,
            style: sections.length ? getComputedStyle(sections[0]).contentVisibility : "",
            // a box that has a tab stop was measured: none off the screen yet
            measuredOffScreen: boxes.filter(b => b.hasAttribute("tabindex") && !drawn(b)).length};
}"""
TAB_STOPS_JS = r"""() => {
    const boxes = [...document.querySelectorAll("pre, .cell_output > .output, div.math mjx-container[display='true']")];
    const scrolls = boxes.filter(b => b.scrollWidth > b.clientWidth + 1);
    return {scrolling: scrolls.length, without: scrolls.filter(b => b.getAttribute("tabindex") !== "0").length,
            fitting: boxes.filter(b => b.scrollWidth <= b.clientWidth + 1 && b.getAttribute("tabindex") === "0").length};
}"""


def phone_session(chromium, html):
    """A phone (390 px, touch) and a desktop visit with the things issue 31 found
    broken: tapping a solution's title, Escape in the menu drawer, the search
    box's icon, figures' space before their images load, the caption's hint.
    Returns what happened."""
    from playwright.sync_api import sync_playwright

    seen = {}
    chapter = next(p for p in chapter_pages(html)
                   if 'class="solution' in p.read_text(encoding="utf-8"))
    figures = next(p for p in chapter_pages(html) if "<figure" in p.read_text(encoding="utf-8"))
    with sync_playwright() as p:
        browser, ctx = launch(p, chromium, timeout=TIMEOUT, viewport={"width": 390, "height": 844},
                              is_mobile=True, has_touch=True, device_scale_factor=2)
        page = ctx.new_page()
        errors = []
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(file_url(chapter), wait_until="load")
        page.wait_for_timeout(200)
        solution = page.locator(".solution").first
        title = solution.locator(".admonition-title").first
        title.scroll_into_view_if_needed()
        # where the title is on the screen: it stays there (the page's scroll
        # offset may change as sections above it are laid out: content-visibility).
        # Read once the page has settled, the same top in three reads 100 ms apart
        # (at most 5 s), so that what moves after the tap is what the tap moved.
        # (Once, on a loaded machine, the title was 357 px off 400 ms after the tap.)
        tops = [title.evaluate("e => e.getBoundingClientRect().top")]
        while len(tops) < 50 and not (len(tops) >= 3 and max(tops[-3:]) - min(tops[-3:]) < 0.5):
            page.wait_for_timeout(100)
            tops.append(title.evaluate("e => e.getBoundingClientRect().top"))
        seen["settled"] = max(tops[-3:]) - min(tops[-3:]) < 0.5
        before = (page.url, tops[-1])
        box = title.bounding_box()
        # where the words "Exercise N.M (...)" are: the right part of the title's first line
        title.tap(position={"x": box["width"] * 0.55, "y": min(box["height"] / 2, 14)})
        page.wait_for_timeout(400)
        seen["tap"] = {
            "url unchanged": page.url == before[0],
            "moved": abs(title.evaluate("e => e.getBoundingClientRect().top") - before[1]),
            "expanded": solution.locator(".toggle-button").get_attribute("aria-expanded"),
            "content height": solution.locator("section").first.evaluate(
                "e => e.checkVisibility({opacityProperty: true, visibilityProperty: true})"
                " ? e.getBoundingClientRect().height : 0"),
        }
        chevron = solution.locator(".toggle-button svg").first
        chevron.tap()
        page.wait_for_timeout(400)
        seen["tap chevron"] = solution.locator(".toggle-button").get_attribute("aria-expanded")
        # console errors up to here (later, images are held back on purpose)
        seen["errors"] = list(errors)
        # the menu drawer: Escape gives the focus back to the menu button
        page.locator(".primary-toggle").locator("visible=true").first.click()
        page.wait_for_timeout(300)
        seen["drawer open"] = page.locator("#pst-primary-sidebar-modal[open]").count()
        page.keyboard.press("Escape")
        page.wait_for_timeout(300)
        seen["focus after Escape"] = page.evaluate(
            "document.activeElement ? document.activeElement.className : ''")
        # the search dialog, from the header's search button
        page.locator(".search-button").locator("visible=true").first.click()
        page.wait_for_timeout(300)
        page.keyboard.type("rotary")
        seen["search dialog"] = page.evaluate(SEARCH_ICON_JS, "#pst-search-dialog")
        # the caption's hint, and the figures' space with their images held back
        ctx.route("**/_images/**", lambda route: route.abort())
        page.goto(file_url(figures), wait_until="load")
        seen["caption hint"] = page.evaluate("""() => {
            const caption = document.querySelector("figcaption .caption-text");
            return caption ? getComputedStyle(caption, "::after").content : null; }""")
        # every section laid out, as each one is when the reader gets to it
        # (content-visibility skips the layout of those off the screen)
        page.add_style_tag(content=".bd-article section { content-visibility: visible !important; }")
        seen["figures"] = page.evaluate("""() => [...document.querySelectorAll(".cell_output img")]
            .filter(img => img.style.width && img.style.height)
            .map(img => { const box = img.getBoundingClientRect();
                return {shown: box.height / box.width,
                        set: parseFloat(img.style.height) / parseFloat(img.style.width)}; })""")
        page.close()
        ctx.unroute("**/_images/**")
        page = ctx.new_page()
        page.goto(file_url(html / "search.html") + "?q=rotary", wait_until="load")
        seen["search page"] = page.evaluate(SEARCH_ICON_JS, ".bd-search")
        # issue 42: a phone lays out only what is near the screen, and the
        # boxes that scroll get their tab stops at the first Tab
        page = ctx.new_page()
        page.goto(file_url(chapter), wait_until="load")
        page.wait_for_timeout(500)
        seen["at load"] = page.evaluate(LAZY_JS)
        page.keyboard.press("Tab")
        seen["after a Tab"] = page.evaluate(TAB_STOPS_JS)
        ctx.close()
        desktop = browser.new_context(viewport={"width": 1280, "height": 900})
        page = desktop.new_page()
        page.goto(file_url(chapter), wait_until="load")
        page.keyboard.press("Control+k")
        page.wait_for_timeout(300)
        page.keyboard.type("rotary")
        seen["desktop search dialog"] = page.evaluate(SEARCH_ICON_JS, "#pst-search-dialog")
        browser.close()
    return seen


@pytest.fixture(scope="module")
def phone(site, chromium):
    return phone_session(chromium, site.resolve())


def test_a_tap_on_a_solution_title_opens_it(phone):
    """At 390 px, a tap where the title's words are opens the solution, in
    place (no jump to the exercise), without a console error; a tap on the
    chevron closes it again."""
    tap = phone["tap"]
    assert phone["settled"], "the solution's title did not stay put for 200 ms (three reads) before the tap"
    assert tap["url unchanged"] and tap["moved"] < 5, tap
    assert tap["expanded"] == "true" and tap["content height"] > 20, tap
    assert phone["tap chevron"] == "false", phone["tap chevron"]
    assert not phone["errors"], phone["errors"]


def test_escape_in_the_phone_drawer_gives_the_focus_back(phone):
    assert phone["drawer open"] == 1
    assert "primary-toggle" in phone["focus after Escape"], phone["focus after Escape"]


def test_the_search_icon_does_not_cover_the_text(phone):
    for where in ("search dialog", "search page", "desktop search dialog"):
        found = phone[where]
        assert found is not None, f"{where}: no search box found"
        assert found["icon"] <= found["text"] + 0.5, f"{where}: the icon covers the text: {found}"
    assert phone["search dialog"]["value"] == "rotary"


def test_figures_hold_their_place_before_the_images_load(phone):
    assert phone["figures"], "no sized figures on the page"
    for figure in phone["figures"]:
        assert figure["shown"] == pytest.approx(figure["set"], rel=0.02), figure


def test_captions_tell_a_phone_reader_that_a_tap_opens_the_figure(phone):
    assert phone["caption hint"] and "Tap" in phone["caption hint"], phone["caption hint"]


def test_a_phone_lays_out_only_the_sections_near_the_screen(phone):
    """content-visibility: a chapter's sections far below the first screen are
    not laid out at load, and no script has measured a box there (measuring
    lays it out: the theme did it for every code block, output and table)."""
    found = phone["at load"]
    assert found["style"] == "auto", found
    assert found["sections"] >= 5 and found["skipped"] >= found["sections"] // 2, found
    assert found["measuredOffScreen"] == 0, found


def test_at_the_first_tab_every_box_that_scrolls_is_a_tab_stop(phone):
    found = phone["after a Tab"]
    assert found["scrolling"] >= 10, found  # code cells scroll at 390 px
    assert found["without"] == 0 and found["fitting"] == 0, found
