"""What a page loads (``book/_ext/posenc_assets.py``, the layout template,
``static/posenc-site.css``): nothing from an outside host, scripts that wait
for the page, no unused styles, few files that hold up the first paint,
lazy images, one menu and one contents button, and the print layout
(solutions open, code wrapped, captions legible)."""

from __future__ import annotations

import re
import urllib.parse

from tests.book.sitecheck import (CONFIG, TIMEOUT, chapter_pages, css_urls, file_url,
                                  first_chapter_with_solutions, page_head, page_loads, parse_page, site,
                                  site_pages, toc_pages)
from tools.headless import is_outside, launch


def test_no_page_loads_anything_from_an_outside_host(site):
    """Scan the src/href of every built page, and the stylesheets they link."""
    problems, stylesheets = [], set()
    pages = site_pages(site)
    assert pages, "no HTML pages were built"
    for page in pages:
        for tag, url in page_loads(page):
            if is_outside(url):
                problems.append(f"{page.relative_to(site)}: <{tag}> loads {url}")
            elif tag == "link" and urllib.parse.urlsplit(url).path.endswith(".css"):
                stylesheets.add((page.parent / urllib.parse.urlsplit(url).path).resolve())
    for css in sorted(stylesheets):
        assert css.is_file(), f"a page links the stylesheet {css}, which was not built"
        for url in css_urls(css):
            if is_outside(url):
                problems.append(f"{css.relative_to(site.resolve())}: loads {url}")
    assert not problems, "pages load from outside hosts:\n" + "\n".join(problems)


def test_scan_for_outside_loads_catches_them(tmp_path):
    """The scanner above would see a CDN script, font or image (it can fail)."""
    page = tmp_path / "p.html"
    page.write_text(
        '<html><head><link rel="stylesheet" href="https://fonts.example.org/a.css">'
        '<script src="//cdn.example.org/x.js"></script>'
        "<style>@import 'https://example.org/b.css';</style></head>"
        '<body><img srcset="local.png 1x, https://example.org/i.png 2x">'
        '<a href="https://example.org/">a link is fine</a>'
        '<script src="../_static/local.js"></script></body></html>'
    )
    outside = {url for _, url in page_loads(page) if is_outside(url)}
    assert outside == {
        "https://fonts.example.org/a.css",
        "//cdn.example.org/x.js",
        "https://example.org/b.css",
        "https://example.org/i.png",
    }


def test_scripts_wait_for_the_page_and_unused_styles_are_left_out(site):
    """Every script file but documentation_options.js (an inline script after it
    needs it at once) is deferred, so none holds up the first paint; pages that
    use no sphinx-design component do not load its 55 KB stylesheet. (The
    search page runs its scripts at once: the theme writes Sphinx's search
    scripts into it undeferred, and they need doctools.js. No other page
    loads them.)"""
    at_once = ("documentation_options.js", "searchtools.js", "language_data.js", "searchindex.js")
    problems = []
    for page in site_pages(site):
        head, name = page_head(page), page.relative_to(site).as_posix()
        for tag in re.findall(r"<script [^>]*src=[^>]*>", head):
            if name != "search.html" and any(s in tag for s in at_once[1:]):
                problems.append(f"{name}: loads the search scripts")
            if (name != "search.html" and not any(s in tag for s in at_once)
                    and not re.search(r"\b(defer|async)\b", tag)):
                problems.append(f"{name}: {tag}")
        body = page.read_text(encoding="utf-8")[len(head):]
        if "sphinx-design" in head and 'class="sd-' not in body:
            problems.append(f"{name}: loads sphinx-design's stylesheet and uses none of it")
    assert not problems, "\n".join(problems)


def test_one_menu_button_one_contents_button_no_header_band(site):
    """One element of each toggle class per page: with two, the theme's script
    binds the hidden one and the phone menu does nothing (pydata-sphinx-theme
    #2451); the extra header band also showed a second Search button."""
    for page in toc_pages(site):
        parsed = parse_page(page)
        name = page.relative_to(site.resolve()).as_posix()
        assert not parsed.header_band, f"{name}: the extra header band (#pst-header) is shown"
        assert parsed.toggles["primary-toggle"] == 1, f"{name}: {parsed.toggles}"
        assert parsed.toggles["secondary-toggle"] <= 1, f"{name}: {parsed.toggles}"


def test_the_sidebar_names_the_book_once_and_the_header_has_no_fullscreen_button(site):
    for page in toc_pages(site):
        html = page.read_text(encoding="utf-8")
        sidebar = html[html.find('class="bd-sidebar-primary'):html.find('<main')]
        assert sidebar.count(CONFIG["title"]) == 1, f"{page.name}: the title is in the sidebar " \
            f"{sidebar.count(CONFIG['title'])} times"
        assert "fullscreen" not in html.lower(), f"{page.name}: a full-screen button"


PRINT_JS = r"""() => {
    const visible = (el) => el.checkVisibility ? el.checkVisibility({visibilityProperty: true,
                                                                     opacityProperty: true})
                                               : el.offsetParent !== null;
    const solutions = [...document.querySelectorAll(".solution")];
    return {
        solutions: solutions.length,
        hidden: solutions.filter(s => {
            const body = s.querySelector("section, .cell, p:not(.admonition-title)");
            return !body || !visible(body) || body.getBoundingClientRect().height < 1;
        }).length,
        clipped: [...document.querySelectorAll("pre")]
            .filter(pre => pre.scrollWidth > pre.clientWidth + 1).length,
        // captions in the text's weight and a dark colour (they printed in a
        // thin grey ExtraLight)
        captions: document.querySelectorAll("figcaption .caption-text").length,
        faintCaptions: [...document.querySelectorAll("figcaption .caption-text")].filter(c => {
            const style = getComputedStyle(c);
            const [r, g, b] = style.color.match(/\d+/g).map(Number);
            return Number(style.fontWeight) < 400 || 0.299 * r + 0.587 * g + 0.114 * b > 80;
        }).length,
    };
}"""


def print_layout(chromium, page_path):
    """The page as printed (print media, A4-wide): solutions shown, code clipped."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser, ctx = launch(p, chromium, timeout=TIMEOUT, viewport={"width": 794, "height": 1123})
        page = ctx.new_page()
        page.goto(file_url(page_path), wait_until="load")
        page.emulate_media(media="print")
        found = page.evaluate(PRINT_JS)
        browser.close()
    return found


def test_printing_opens_solutions_and_wraps_code(site, chromium):
    printed = print_layout(chromium, first_chapter_with_solutions(site))
    assert printed["solutions"] > 0
    assert printed["hidden"] == 0, f"{printed['hidden']} of {printed['solutions']} solutions hidden in print"
    assert printed["clipped"] == 0, f"{printed['clipped']} code blocks cut off in print"
    assert printed["captions"] > 0
    assert printed["faintCaptions"] == 0, f"{printed['faintCaptions']} captions print thin or grey"


def test_a_page_holds_up_its_first_paint_for_few_files(site):
    """Issue 42: 12 to 14 files held up a chapter's first paint on a phone.
    Every page links one stylesheet for what all pages need (the theme's,
    the extensions', the book's), and at most the math and the interactive
    figures' beside it; none of the bundled files is linked on its own, and
    every file the bundle names exists."""
    from book._ext import posenc_assets

    for page in site_pages(site):
        links = re.findall(r'<link rel="stylesheet"[^>]*href="([^"]+)"', page_head(page))
        name = page.relative_to(site).as_posix()
        files = [urllib.parse.urlsplit(link).path.split("_static/")[-1] for link in links]
        assert files.count(posenc_assets.BUNDLE) == 1, (name, files)
        assert not [f for f in files if f.startswith(posenc_assets.BUNDLED)], (name, files)
        assert len(files) <= 4, (name, files)  # with math, figures and sphinx-design
    bundle = site / "_static" / posenc_assets.BUNDLE
    for url in css_urls(bundle):
        if not url.startswith(("data:", "#")):
            assert (bundle.parent / urllib.parse.urlsplit(url).path).is_file(), url
    assert "@import" not in bundle.read_text(encoding="utf-8")


def test_the_bundle_draws_only_the_icons_the_site_uses(site):
    """The theme's stylesheet names about 1,800 Font Awesome icons; the fonts
    hold only those the site uses (posenc_icons), and so does the bundle,
    every page's render-blocking stylesheet: each used icon keeps its rule."""
    from book._ext import posenc_assets
    from book._ext.posenc_icons import _ICON_RULE, used_icon_names

    def icons(css):
        return {name for selectors, _ in _ICON_RULE.findall(css)
                for name in re.findall(r"\.(fa-[\w-]+):", selectors)}

    theme = icons((site / "_static" / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf-8"))
    bundled = icons((site / "_static" / posenc_assets.BUNDLE).read_text(encoding="utf-8"))
    used = used_icon_names(site) & theme
    assert len(theme) > 1000 and used, (len(theme), used)
    assert used <= bundled, f"icons the site uses without a rule: {used - bundled}"
    assert len(bundled) < 3 * len(used) + 20, f"{len(bundled)} icon rules in the bundle for {len(used)} icons"


def test_figures_load_near_the_screen_and_the_theme_measures_nothing_at_load(site):
    """Images load lazily and decode off the main thread; the theme's script
    no longer measures every box of the page at load and after each change
    (static/posenc-site.js does it when a box comes near the screen)."""
    from book._ext import posenc_assets

    images = 0
    for page in chapter_pages(site):
        for img in re.findall(r"<img [^>]*_images/[^>]*>", page.read_text(encoding="utf-8")):
            images += 1
            assert 'loading="lazy"' in img and 'decoding="async"' in img, (page.name, img[:100])
    assert images > 10
    theme = (site / "_static" / posenc_assets.THEME_SCRIPT).read_text(encoding="utf-8")
    assert posenc_assets.THEME_TAB_STOPS not in theme and posenc_assets.TAB_STOPS_LEFT in theme
