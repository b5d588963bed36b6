"""The real-browser check of the built book: every page, as a reader opens it.

Headless Chromium opens every HTML page of the site from ``file://`` (as a
reader does who opens ``_build/html/index.html``), with every request to an
outside host recorded and blocked, and the test fails on a console error or
uncaught exception, a request to an outside host, a local file that fails to
load, a link to a missing file or a missing anchor, an image that does not
decode, or math that MathJax did not typeset (or typeset with an error). It
saves a screenshot (the first screen) of each page of the table of contents
in ``_build/screenshots/`` and writes the weight of every page (HTML,
images, everything it loaded) to ``_build/screenshots/report.txt``. The same
visit, at 1280 px, checks what a reader sees: figures shown at a scale where
their tick labels stay legible, code cells that do not scroll sideways, one
Search button, solution toggles with names of their own; and the pages'
weight; and it times how long the math takes to appear with the CPU slowed
down 4x (in the report, never a test). The checks that need this one visit
are here, whatever extension they concern, so that the visit runs once.

Chromium comes from the system (``apt-get install chromium``); the Python
``playwright`` package drives it and never downloads a browser of its own.
Without Chromium the browser check is skipped with a message saying so,
unless ``POSENC_REQUIRE_BROWSER=1`` (set by ``.ci/run``), which turns the
skip into a failure.
"""

from __future__ import annotations

import gzip
import re
import shutil
import time
import urllib.parse
from html.parser import HTMLParser

import pytest

from tests.book.sitecheck import (TIMEOUT, chapter_pages, file_url, page_loads, site, site_pages,
                                  toc_pages, url_path)
from tools.headless import CHROMIUM_FLAGS, is_outside, launch
from tools.paths import ROOT, toc_files


SCREENSHOTS = ROOT / "_build" / "screenshots"


SETTLE_JS = """async () => {
    // Load every image now (lazy ones included) and wait until each has
    // decoded or failed; then let MathJax finish its first typesetting pass.
    const images = [...document.images];
    for (const img of images) img.loading = "eager";
    await Promise.all(images.map(img => img.decode().catch(() => null)));
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        await MathJax.startup.promise;
    }
    await document.fonts.ready;
}"""


INSPECT_JS = r"""() => {
    const visible = (el) => el.checkVisibility ? el.checkVisibility() : el.offsetParent !== null;
    const mathNodes = [...document.querySelectorAll(".math")];
    // The prose as a reader sees it, without code, and without math that
    // MathJax has turned into its own elements.
    const prose = (document.querySelector("main") || document.body).cloneNode(true);
    prose.querySelectorAll("pre, code, script, style, textarea, mjx-container, .highlight")
         .forEach(n => n.remove());
    // Figures of the chapters: the scale they are shown at. A PNG with display
    // metadata has a width (an attribute, or in its style with myst-nb): its
    // size at 100 px per inch, half its pixels for a retina PNG; without it,
    // the browser shows it at its natural size.
    const figures = [...document.querySelectorAll(".cell_output img, figure img")].map(img => {
        const intended = Number(img.getAttribute("width")) || parseFloat(img.style.width)
                         || img.naturalWidth;
        return {src: img.currentSrc || img.src,
                scale: intended ? img.getBoundingClientRect().width / intended : 0};
    });
    // Code cells and text outputs that scroll sideways.
    const scrolling = [...document.querySelectorAll(".cell pre")]
        .filter(pre => visible(pre) && pre.scrollWidth > pre.clientWidth + 1)
        .map(pre => ({input: Boolean(pre.closest(".cell_input")),
                      line: (pre.textContent.split("\n").sort((a, b) => b.length - a.length)[0] || "")
                            .slice(0, 60)}));
    return {
        mathjax: Boolean(window.MathJax),
        math: mathNodes.length,
        unrendered: mathNodes.filter(n => !n.querySelector("mjx-container"))
                             .map(n => n.textContent.trim().slice(0, 80)),
        mathErrors: [...document.querySelectorAll("mjx-merror")]
                        .map(n => (n.getAttribute("data-mjx-error") || "error").slice(0, 160)),
        text: prose.textContent,
        images: [...document.images].map(img => ({
            src: img.currentSrc || img.src, alt: img.alt,
            ok: img.complete && img.naturalWidth > 0})),
        links: [...document.querySelectorAll("a[href]")].map(a => ({
            raw: a.getAttribute("href"), url: a.href})),
        ids: [...document.querySelectorAll("[id]")].map(n => n.id)
              .concat([...document.querySelectorAll("a[name]")].map(n => n.name)),
        height: document.documentElement.scrollHeight,
        figures: figures,
        codeCells: document.querySelectorAll(".cell pre").length,
        scrolling: scrolling,
        searchButtons: [...document.querySelectorAll(".search-button__button, .search-button")]
                           .filter(visible).length,
        toggleNames: [...document.querySelectorAll(".toggle-button")]
                         .map(b => ({name: b.getAttribute("aria-label") || b.textContent.trim(),
                                     solution: !!b.closest(".solution")})),
    };
}"""


# TeX that MathJax should have consumed: display and inline delimiters left
# as text, an environment, or a $...$ pair holding TeX (^, _, \, braces).
RAW_TEX = re.compile(r"\$\$|\\\(|\\\)|\\\[|\\\]|\\begin\{|\$[^$\n]*[\\^_{}][^$\n]*\$")


def redirect_target(path):
    """The file a page redirects to with <meta http-equiv="refresh">, or None."""
    for tag, url in page_loads(path):
        if tag == "meta":
            return (path.parent / urllib.parse.urlsplit(url).path).resolve()
    return None


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)


def static_ids(path):
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return parser.ids


def visit(chromium, html, pages, profile, shots=None, shot_pages=()):
    """Open each page in headless Chromium from file:// and record what happened.

    Returns one dict per page: console errors and uncaught exceptions,
    requests to outside hosts (blocked), local requests that failed, the
    files it loaded, what INSPECT_JS saw once images and MathJax settled, the
    seconds it took and its screenshot (for the pages in ``shot_pages``).
    """
    from playwright.sync_api import sync_playwright

    results, current = {}, {"page": None}
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile),  # a fresh, empty --user-data-dir
            executable_path=chromium,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 900},
            service_workers="block",
        )
        context.set_default_timeout(TIMEOUT)
        # Nothing leaves the machine: every request to another host is
        # recorded against the page that made it, then aborted.
        context.route(lambda url: is_outside(url), lambda route: route.abort())

        def on_request(request):
            result = results.get(current["page"])
            if result is None:
                return
            if is_outside(request.url):
                result["outside"].append(request.url)
            elif request.url.startswith("file:"):
                result["loaded"].add(url_path(request.url))

        context.on("request", on_request)
        for path in pages:
            started = time.perf_counter()
            current["page"] = path
            result = results[path] = {
                "console": [], "outside": [], "failed": [], "loaded": {path},
                "info": None, "screenshot": None, "seconds": None,
            }
            page = context.new_page()
            page.on("console", lambda m, r=result: m.type == "error" and r["console"].append(
                f"console error: {m.text} ({m.location.get('url', '')}:{m.location.get('lineNumber', '')})"))
            page.on("pageerror", lambda e, r=result: r["console"].append(f"uncaught exception: {e}"))
            page.on("requestfailed", lambda q, r=result: not is_outside(q.url) and r["failed"].append(
                f"{q.url} ({q.failure})"))
            page.goto(file_url(path), wait_until="load")
            redirect = redirect_target(path)
            if redirect is not None:
                # index.html only sends the reader on to the landing page:
                # follow it, then check the page the reader lands on.
                page.wait_for_url(file_url(redirect), wait_until="load")
            page.evaluate(SETTLE_JS)
            result["info"] = page.evaluate(INSPECT_JS)
            if path in shot_pages:
                name = path.relative_to(html).with_suffix(".png").as_posix().replace("/", "__")
                result["screenshot"] = shots / name
                # The first screen only: a full-page capture of a 30000-px
                # chapter takes 10 s or more on this machine.
                page.screenshot(path=str(result["screenshot"]), timeout=60_000)
            page.close()
            result["seconds"] = time.perf_counter() - started
        context.close()
    return results


def console_problems(path, result):
    yield from result["console"]


def outside_problems(path, result):
    for url in result["outside"]:
        yield f"asked for {url} (another host)"


def failed_problems(path, result):
    for failure in result["failed"]:
        yield f"could not load {failure}"


def image_problems(path, result):
    for img in result["info"]["images"]:
        if not img["ok"]:
            yield f"image {img['src']} (alt {img['alt']!r}) did not load"


def link_problems(html, visited):
    """A checker of links: every file:// link names an existing file in the
    site and, with a #fragment, an element with that id in the target page."""
    ids = {path: set(r["info"]["ids"]) for path, r in visited.items()}

    def check(path, result):
        for link in result["info"]["links"]:
            url = link["url"]
            if not url.startswith("file:"):
                continue  # outside links, mailto:, javascript: are not ours to check
            target = url_path(url)
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                yield f"link {link['raw']!r} points to a missing file {target.name}"
                continue
            if html not in target.parents:
                yield f"link {link['raw']!r} leaves the site: {target}"
                continue
            fragment = urllib.parse.unquote(urllib.parse.urlsplit(url).fragment)
            if fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = static_ids(target)
                if fragment not in ids[target]:
                    yield f"link {link['raw']!r}: no element with id {fragment!r} in {target.name}"

    return check


def math_problems(path, result):
    info = result["info"]
    if info["mathjax"]:
        yield "MathJax runs in the page (math should be typeset when the book is built)"
    for tex in info["unrendered"]:
        yield f"math not typeset: {tex!r}"
    for error in info["mathErrors"]:
        yield f"MathJax error: {error!r}"
    for match in RAW_TEX.finditer(info["text"]):
        start = max(match.start() - 40, 0)
        yield f"raw TeX left in the text: {info['text'][start:match.end() + 40]!r}"


def problems(html, visited, check):
    found = []
    for path, result in visited.items():
        found += [f"{path.relative_to(html).as_posix()}: {p}" for p in check(path, result)]
    return found


# A chapter's first load (cold cache: HTML, styles, scripts, fonts and every
# image, lazy ones included) must stay under this many bytes.
MAX_CHAPTER_BYTES = 2 * 1024 * 1024


# Tick labels are 10 pt (posenc.plot.use_book_style); a figure drawn at 100 px
# per inch shows them at 10/72*100 = 13.9 CSS px at full size. Shown smaller
# than this scale, they drop under 11 CSS px.
TICK_LABEL_PT, FIGURE_DPI, MIN_LABEL_PX = 10, 100, 11
MIN_FIGURE_SCALE = MIN_LABEL_PX / (TICK_LABEL_PT / 72 * FIGURE_DPI)


def label_px(scale):
    return TICK_LABEL_PT / 72 * FIGURE_DPI * scale


# Math typeset at build time is on screen with the page's first paint (its
# stylesheet blocks rendering); math typeset by MathJax in the browser, when
# MathJax has finished. Also: when the whole page has been parsed.
MATH_READY_JS = """async () => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    let ready = paint ? paint.startTime / 1000 : null;
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        await MathJax.startup.promise;
        ready = performance.now() / 1000;
    }
    await document.fonts.ready;
    const nav = performance.getEntriesByType("navigation")[0];
    return [ready, nav.domContentLoadedEventEnd / 1000];
}"""


def math_ready_seconds(chromium, pages, slowdown=4):
    """Seconds from navigation until the math is on screen, and until the page
    is parsed, from file:// with the CPU slowed down ``slowdown`` times."""
    from playwright.sync_api import sync_playwright

    times = {}
    with sync_playwright() as p:
        browser, ctx = launch(p, chromium, timeout=TIMEOUT, viewport={"width": 1280, "height": 900})
        for path in pages:
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
            page.goto(file_url(path), wait_until="load")
            times[path] = page.evaluate(MATH_READY_JS)
            page.close()
        browser.close()
    return times


@pytest.fixture(scope="module")
def site_visit(site, tmp_path_factory, chromium):
    """The whole built book, visited once in headless Chromium."""
    html = site.resolve()
    if SCREENSHOTS.exists():
        shutil.rmtree(SCREENSHOTS)
    SCREENSHOTS.mkdir(parents=True)
    shot_pages = set(toc_pages(html))
    started = time.perf_counter()
    results = visit(chromium, html, site_pages(html), tmp_path_factory.mktemp("chromium-profile"),
                    shots=SCREENSHOTS, shot_pages=shot_pages)
    elapsed = time.perf_counter() - started
    # the three pages with the most math, timed with the CPU slowed down 4x
    math_pages = sorted(toc_pages(html), key=lambda p: -results[p]["info"]["math"])[:3]
    math_pages = [p for p in math_pages if results[p]["info"]["math"]]
    timed = math_ready_seconds(chromium, math_pages)
    write_report(html, results, elapsed, timed)
    return {"html": html, "results": results, "math_ready": timed}


def page_bytes(result):
    return sum(f.stat().st_size for f in result["loaded"] if f.is_file())


def write_report(html, results, elapsed, math_ready=None):
    """Page weights (what each page loads from disk), what a reader sees at
    1280 px, how long the math takes with a slow CPU, and the screenshots.

    "total" counts every file the page loaded: HTML, styles, scripts, fonts,
    images (every image, lazy ones included; the theme's files are shared by
    all pages, so a browser fetches them once); "gzip" is the same
    compressed, roughly what a web server that compresses sends.
    """
    image_suffixes = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}
    gzipped = {}

    def kb(files, compressed=False):
        if not compressed:
            return sum(f.stat().st_size for f in files) / 1024
        for f in files:
            if f not in gzipped:
                gzipped[f] = len(gzip.compress(f.read_bytes(), compresslevel=6))
        return sum(gzipped[f] for f in files) / 1024

    outside = sum(len(r["outside"]) for r in results.values())
    lines = [
        f"Browser check of {len(results)} pages in {elapsed:.1f} s "
        f"(headless Chromium, file://); {outside} requests to outside hosts.",
        "",
        f"{'page':40} {'HTML KB':>8} {'images KB':>10} {'total KB':>9} {'gzip KB':>8} {'files':>5} {'s':>5}",
    ]
    for path, result in results.items():
        files = [f for f in result["loaded"] if f.is_file()]
        images = [f for f in files if f.suffix.lower() in image_suffixes and "_static" not in f.parts]
        lines.append(
            f"{path.relative_to(html).as_posix():40} {path.stat().st_size / 1024:8.0f} "
            f"{kb(images):10.0f} {kb(files):9.0f} {kb(files, compressed=True):8.0f} "
            f"{len(files):5d} {result['seconds']:5.1f}"
        )
    lines += ["", "At 1280 px: code cells (inputs and text outputs) that scroll sideways, and the",
              f"figures' tick labels (10 pt at 100 px/inch, times the scale shown; >= {MIN_LABEL_PX} px wanted):"]
    for path in toc_pages(html):
        info = results[path]["info"]
        if not info["codeCells"] and not info["figures"]:
            continue
        scales = [f["scale"] for f in info["figures"]]
        labels = (f"{label_px(min(scales)):.1f}-{label_px(max(scales)):.1f} px, "
                  f"{sum(label_px(x) < MIN_LABEL_PX for x in scales)} under {MIN_LABEL_PX}"
                  if scales else "no figures")
        lines.append(f"  {path.relative_to(html).as_posix():38} {len(info['scrolling']):3d} of "
                     f"{info['codeCells']:3d} scroll; {len(scales):2d} figures, labels {labels}")
    if math_ready:
        lines += ["", "Math on screen, from file://, CPU slowed down 4x (first paint, or MathJax",
                  "done where MathJax runs in the browser; then the whole page parsed):"]
        lines += [f"  {p.relative_to(html).as_posix():38} {t[0]:5.2f} s, parsed {t[1]:5.2f} s "
                  f"({results[p]['info']['math']} formulas)" for p, t in math_ready.items()]
    lines += ["", "Screenshots:"]
    lines += [f"  {r['screenshot'].relative_to(ROOT)}" for r in results.values() if r["screenshot"]]
    (SCREENSHOTS / "report.txt").write_text("\n".join(lines) + "\n")


def test_browser_visits_every_page(site_visit, site):
    visited = set(site_visit["results"])
    assert visited == set(site_pages(site.resolve()))
    for name in toc_files():
        assert (site.resolve() / (name + ".html")) in visited


@pytest.mark.parametrize("check", [console_problems, outside_problems, failed_problems,
                                   image_problems, math_problems], ids=lambda check: check.__name__)
def test_no_page_of_the_visit_has_problems(site_visit, check):
    """No console error, no request that leaves the machine, every local file
    and every image loads, every formula typeset."""
    found = problems(site_visit["html"], site_visit["results"], check)
    assert not found, "\n".join(found)


def test_every_internal_link_and_anchor_resolves(site_visit):
    html, results = site_visit["html"], site_visit["results"]
    found = problems(html, results, link_problems(html, results))
    assert not found, "\n".join(found)


def test_raw_tex_pattern_catches_untypeset_math():
    assert RAW_TEX.search("where $$x$$ is")
    assert RAW_TEX.search(r"the angle \(k\omega_i\)")
    assert RAW_TEX.search(r"so $\omega_i = 1$ here")
    assert RAW_TEX.search(r"\begin{pmatrix}")
    assert not RAW_TEX.search("costs $5 and the position pos = 3")


def test_screenshots_of_every_toc_page(site_visit):
    shots = [r["screenshot"] for r in site_visit["results"].values() if r["screenshot"]]
    assert len(shots) == len(toc_files())
    for shot in shots:
        assert shot.is_file() and shot.stat().st_size > 10_000, f"screenshot {shot} is missing or blank"
    assert (SCREENSHOTS / "report.txt").is_file()


BROKEN_PAGE = r"""<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="_static/posenc-math.css">
<script>window.MathJax = {"options": {"processHtmlClass": "math"}}</script>
<script src="https://cdn.example.org/lib.js"></script>
</head><body><main>
<p id="here">Fine math: <span class="math">GOOD_INLINE</span></p>
<p>A MathJax error: <span class="math"><mjx-container class="MathJax" jax="CHTML">
   <mjx-merror data-mjx-error="Undefined control sequence \nosuchmacro"></mjx-merror>
   </mjx-container></span></p>
<p>Never typeset: <span class="math">\(x_1\)</span></p>
<p>Raw TeX in prose: $$pos + k$$</p>
<img src="missing.png" alt="a figure that is not there">
<a href="good.html#here">fine</a> <a href="good.html#gone">no anchor</a>
<a href="nowhere.html">no file</a> <a href="https://example.org/">outside link, allowed</a>
<script>console.error("boom")</script>
<script>null.property</script>
</main></body></html>"""


GOOD_PAGE = r"""<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="_static/posenc-math.css">
</head><body><main>
<p id="here">Math: <span class="math">GOOD_INLINE</span></p>
<div class="math">GOOD_DISPLAY</div>
<a href="broken.html">a link</a> <a href="#here">an anchor</a>
</main></body></html>"""


def test_browser_check_catches_a_broken_page(site, tmp_path, chromium):
    """Run the same browser check on a tiny site with one good and one broken page."""
    from book._ext import posenc_math

    mathjax = posenc_math.MathJax()
    try:
        inline = mathjax.render(r"\lambda_i = 2\pi / \omega_i", display=False)
        display = mathjax.render(r"\mathrm{PE}(pos, 2i) = \sin(pos\,\omega_i)", display=True)
    finally:
        mathjax.close()
    tiny = tmp_path / "site"
    (tiny / "_static").mkdir(parents=True)
    for name in ("posenc-math.css", "mathjax-fonts"):
        (tiny / "_static" / name).symlink_to(site.resolve() / "_static" / name)
    (tiny / "good.html").write_text(GOOD_PAGE.replace("GOOD_INLINE", inline)
                                    .replace("GOOD_DISPLAY", display))
    (tiny / "broken.html").write_text(BROKEN_PAGE.replace("GOOD_INLINE", inline))
    good, broken = tiny / "good.html", tiny / "broken.html"
    results = visit(chromium, tiny, [good, broken], tmp_path / "profile")

    def found(check):
        return {path.name: list(check(path, results[path])) for path in (good, broken)}

    assert found(console_problems)["good.html"] == []
    assert any("boom" in p for p in found(console_problems)["broken.html"])
    assert any("uncaught exception" in p for p in found(console_problems)["broken.html"])
    assert found(outside_problems) == {
        "good.html": [], "broken.html": ["asked for https://cdn.example.org/lib.js (another host)"]}
    assert found(image_problems)["good.html"] == []
    assert len(found(image_problems)["broken.html"]) == 1
    assert any("missing.png" in p for p in found(failed_problems)["broken.html"])
    links = found(link_problems(tiny.resolve(), results))
    assert links["good.html"] == []
    assert sorted(links["broken.html"]) == [
        "link 'good.html#gone': no element with id 'gone' in good.html",
        "link 'nowhere.html' points to a missing file nowhere.html",
    ]
    math = found(math_problems)
    assert math["good.html"] == []
    assert any(p.startswith("MathJax runs in the page") for p in math["broken.html"])
    assert "MathJax error: 'Undefined control sequence \\\\nosuchmacro'" in math["broken.html"]
    assert "math not typeset: '\\\\(x_1\\\\)'" in math["broken.html"]
    assert any(p.startswith("raw TeX left in the text") and "$$pos + k$$" in p for p in math["broken.html"])


def test_a_chapter_loads_at_most_2_mb(site_visit):
    """Every page of a chapter, on a first visit (nothing cached), with all its
    images: at most 2 MB (it was 4.0-4.4 MB with fontawesome.js and MathJax)."""
    results = site_visit["results"]
    heavy = {p.name: round(page_bytes(results[p]) / 1024) for p in toc_pages(site_visit["html"])
             if page_bytes(results[p]) > MAX_CHAPTER_BYTES}
    assert not heavy, f"pages over {MAX_CHAPTER_BYTES // 1024} KB (KB): {heavy}"


def test_figures_are_shown_large_enough_to_read_at_1280(site_visit):
    """No figure is shrunk so much that its tick labels fall under 11 CSS px.
    (Depends on the chapter owners: figures no wider than the 688-px column.)"""
    found = []
    for path in chapter_pages(site_visit["html"]):
        for fig in site_visit["results"][path]["info"]["figures"]:
            if fig["scale"] < MIN_FIGURE_SCALE:
                found.append(f"{path.name}: {fig['src'].rsplit('/', 1)[-1][:16]}... shown at "
                             f"{fig['scale']:.0%}, tick labels {label_px(fig['scale']):.1f} px")
    assert not found, f"{len(found)} figures with labels under {MIN_LABEL_PX} px:\n" + "\n".join(found)


def test_code_cells_do_not_scroll_sideways_at_1280(site_visit):
    """Code and text outputs fit the column (79 characters).
    (Depends on the chapter owners: the lines are in the notebooks.)"""
    found = []
    for path in toc_pages(site_visit["html"]):
        for cell in site_visit["results"][path]["info"]["scrolling"]:
            kind = "code" if cell["input"] else "output"
            found.append(f"{path.name}: {kind} line {cell['line']!r}")
    assert not found, f"{len(found)} cells scroll sideways:\n" + "\n".join(found)


def test_one_search_button_on_a_desktop(site_visit):
    for path in toc_pages(site_visit["html"]):
        count = site_visit["results"][path]["info"]["searchButtons"]
        assert count == 1, f"{path.name}: {count} Search buttons visible at 1280 px"


def test_solution_toggles_have_names_of_their_own(site_visit):
    """A screen reader lists buttons by name: each solution's toggle says which,
    and any other dropdown (an optional detour) is named by its title."""
    checked = 0
    for path in toc_pages(site_visit["html"]):
        toggles = site_visit["results"][path]["info"]["toggleNames"]
        names = [t["name"] for t in toggles]
        checked += sum(t["solution"] for t in toggles)
        twice = sorted({n for n in names if names.count(n) > 1})
        assert not twice, f"{path.name}: toggles share the names {twice}"
        for toggle in toggles:
            name = toggle["name"]
            assert name and "toggle hidden content" not in name.lower(), \
                f"{path.name}: a toggle with no name of its own ({name!r})"
            if toggle["solution"]:
                assert name.startswith("Solution to Exercise"), \
                    f"{path.name}: solution toggle named {name!r}"
    assert checked, "no solution toggles found"
