"""The interactive figures of the HTML book, driven in a real browser.

``book/_ext/posenc_widgets.py`` puts figures into the chapters whose numbers
are computed in the reader's browser by ``static/widgets/posenc-widgets.js``
(the core) and ``static/widgets/figures/<slug>.js`` (each chapter's figures),
from the formula each chapter states. Headless Chromium (the system's, driven
by the pinned playwright, as in test_site_visit.py) opens the built pages from
``file://`` and:

* moves every slider of every figure at least three times, with the keyboard
  (arrow keys, Home/End, Page Up) and by setting it, and after each move
  compares the numbers the figure drew (``PosencWidgets.values(figure)``)
  with ``posenc``'s (the checks in ``widget_checks/<slug>.py``, one module
  per chapter) to 1e-12 relative: element by element where the values
  keep one sign (wavelengths, slopes, weights, divisors), relative to the
  largest value where they cross zero (sines, cosines and their sums, whose
  zeros no relative error can measure);
* checks the sliders' labels and spoken values, and that the figure's text
  alternative follows the settings;
* taps a slider on a 390-px phone, and checks that every figure fits the
  column there with its text at full size, and that a figure is drawn for
  the column only once it nears the screen (the build's figure until then);
  every check first scrolls its figure into view as a reader does
  (``_show``: the site's sections are ``content-visibility: auto``);
* measures the contrast of the figures' text and lines in light and dark mode;
* prints the pages: the sliders go, the figure stays, and the printed PDF
  holds each figure's text; a reader without JavaScript sees the static
  figure that the build drew, which equals the live one at its defaults;
* records console errors and any request to another host.

Without Chromium the tests are skipped with a message, unless
``POSENC_REQUIRE_BROWSER=1`` (set by ``.ci/run``) makes that a failure.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from contextlib import contextmanager
from html import unescape
from pathlib import Path

import numpy as np
import pytest

import posenc
from tests.book.widget_checks import CHECKS
from tests.book.widget_checks.rel import check_alibi
from tests.book.widget_checks.sines import check_clock
from tools.headless import CHROMIUM_FLAGS, is_outside, new_context
from tools.paths import ROOT

TIMEOUT = 120_000  # ms that a browser step may take
# Every figure on the site has a check (tests/book/widget_checks/<slug>.py),
# and every checked figure must be on the site.
EXPECTED = set(CHECKS)


# --- the pages ------------------------------------------------------------


def widget_pages(html):
    """{figure name: its page}, from the built HTML."""
    found = {}
    for page in sorted(Path(html).rglob("*.html")):
        if "_static" in page.parts:
            continue
        for name in re.findall(r'<figure class="posenc-widget"[^>]*data-widget="([\w-]+)"',
                               page.read_text(encoding="utf-8")):
            assert name not in found, f"figure {name} on {found[name].name} and {page.name}"
            found[name] = page.resolve()
    return found


@pytest.fixture(scope="module")
def pages(built_book):
    return widget_pages(built_book)


def test_every_figure_is_on_the_site_and_checked(pages):
    assert set(pages) >= EXPECTED, f"figures missing from the site: {EXPECTED - set(pages)}"
    assert set(pages) <= set(CHECKS), f"figures without a check: {set(pages) - set(CHECKS)}"


def test_pages_without_figures_do_not_load_their_script(built_book, pages):
    """The core script loads on the pages that hold a figure, and each page
    loads the files of its own figures (one per chapter), after the core,
    and no other figure file."""
    from book._ext.posenc_widgets import close_renderer, renderer

    files = {name: path.name for name, path in renderer().files.items()}
    close_renderer()
    assert set(files) >= set(pages), f"figures in no file: {set(pages) - set(files)}"
    with_figures = set(pages.values())
    for page in Path(built_book).rglob("*.html"):
        if "_static" in page.parts:
            continue
        html = page.read_text(encoding="utf-8")
        loads = "posenc-widgets.js" in html
        assert loads == (page.resolve() in with_figures), page.name
        scripts = re.findall(r'<script defer="defer" src="(?:\.\./)*_static/widgets/([\w/.-]+?\.js)', html)
        want = sorted({files[name] for name, path in pages.items() if path == page.resolve()})
        assert scripts == (["posenc-widgets.js"] + [f"figures/{f}" for f in want] if want else []), (
            f"{page.name} loads {scripts}")


def test_the_build_draws_each_figure(pages):
    """The page holds the figure drawn at its default settings (print, PDF and
    readers without JavaScript see it), with a text alternative and a summary."""
    for name, page in pages.items():
        html = page.read_text(encoding="utf-8")
        block = re.search(rf'<figure class="posenc-widget"[^>]*data-widget="{name}".*?</figure>',
                          html, re.S).group(0)
        svg = re.search(r"<svg.*?</svg>", block, re.S)
        assert svg, f"{name}: no static figure in the page"
        assert len(re.findall(r"<(path|line|circle|image)\b", svg.group(0))) >= 5, name
        alt = re.search(r'class="pw-figure" role="img" aria-label="([^"]{40,})"', block)
        assert alt, f"{name}: no text alternative"
        assert re.search(r'<p class="pw-summary"[^>]*>[^<]{20,}</p>', block), name
        assert "<figcaption>" in block, f"{name}: no caption"


@pytest.mark.parametrize("builder", ["html", "singlehtml"])
def test_the_directive_in_a_small_sphinx_project(tmp_path, builder):
    """The directive (and the admonition form that the chapters use) draws the figure for the site and for the single page that
    ``make pdf`` prints (where the html handlers alone once broke ``make
    pdf``), loads its files on that page only, and refuses an
    unknown figure with a message that lists the known ones."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        # the repository's root is on the path of the tests (pyproject.toml)
        "extensions = ['book._ext.posenc_widgets']\nhtml_theme = 'sphinx_book_theme'\n"
        # as posenc_a11y does for myst-nb's hidden cells: once any extension
        # gives a node a singlehtml handler, Sphinx's singlehtml translator
        # takes the handlers registered for singlehtml only
        "from docutils import nodes\n"
        "class other(nodes.General, nodes.Element): pass\n"
        "def setup(app):\n"
        "    app.add_node(other, singlehtml=(lambda s, n: None, lambda s, n: None))\n")
    (src / "index.rst").write_text("Title\n=====\n\n.. toctree::\n\n   other\n\n"
                                   ".. posenc-widget:: clock\n\n   Hands *turning*.\n\n"
                                   # the form the chapters use, which other readers show as a box
                                   ".. admonition:: Interactive figure (in the HTML book)\n"
                                   "   :class: posenc-widget dots\n\n   Dots *falling*.\n")
    (src / "other.rst").write_text("Other\n=====\n\n.. posenc-widget:: nosuchfigure\n")
    # In a process of its own: Sphinx registers its node classes with docutils
    # once per process, and a second Sphinx in the same one (the other
    # builder, or any test before) once failed with "node class 'toctree' is
    # already registered".
    log = tmp_path / "warnings.txt"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-b", builder, "-E", "-q",
                           "-d", str(tmp_path / "doctrees"), "-w", str(log),
                           str(src), str(tmp_path / "out")],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    warnings = io.StringIO(log.read_text(encoding="utf-8"))
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    figure = re.search(r'<figure class="posenc-widget" id="widget-clock" data-widget="clock">'
                       r".*?<svg.*?</svg>.*?<figcaption>.*?<em>turning</em>.*?</figcaption></figure>",
                       page, re.S)
    assert figure, "the clock figure is not in the page"
    admonition = re.search(r'<figure class="posenc-widget" id="widget-dots" data-widget="dots">'
                           r".*?<svg.*?</svg>.*?<figcaption>.*?<em>falling</em>.*?</figcaption></figure>",
                           page, re.S)
    assert admonition, "the admonition of class posenc-widget dots is not a figure in the page"
    assert "Interactive figure (in the HTML book)" not in page, "the admonition's title is for other readers"
    assert re.search(r'<script defer="defer" src="_static/widgets/posenc-widgets.js', page)
    # the two figures' file (chapter 2's), once, after the core
    assert re.findall(r'<script defer="defer" src="_static/widgets/([\w/.-]+?\.js)', page) == [
        "posenc-widgets.js", "figures/sines.js"]
    assert (tmp_path / "out" / "_static" / "widgets" / "posenc-widgets.js").is_file()
    assert (tmp_path / "out" / "_static" / "widgets" / "figures" / "sines.js").is_file()
    listed = re.search(r"unknown posenc-widget 'nosuchfigure'; the figures are ([\w, -]+)",
                       warnings.getvalue())
    assert listed and {"clock", "dots", "ladder"} <= set(listed.group(1).split(", ")), warnings.getvalue()
    if builder == "html":
        other = (tmp_path / "out" / "other.html").read_text(encoding="utf-8")
        assert "posenc-widgets.js" not in other, "a page without a figure loads its script"


# --- the figures' drawing, in the build's V8 ----------------------------------


@pytest.fixture(scope="module")
def v8():
    """Evaluate JavaScript in the V8 that draws the static figures."""
    from book._ext.posenc_widgets import close_renderer, renderer

    ctx = renderer().ctx
    yield lambda js: json.loads(ctx.eval(f"JSON.stringify({js})"))
    close_renderer()


def _svg(v8, name, **settings):
    params = "{...PosencWidgets.defaults(%s), ...%s}" % (json.dumps(name), json.dumps(settings))
    return v8(f"PosencWidgets.render({json.dumps(name)}, {params}, 640).svg")


def _y_ticks(svg):
    """The tick labels of the y axes (right-aligned), as drawn."""
    return [unescape(s) for s in re.findall(r'<text class="pw-tick"[^>]*text-anchor="end">([^<]*)<', svg)]


def test_ticks_on_a_reversed_axis(v8):
    """A domain that runs downwards (the ladder's heat map: position 0 at the
    top) gets its ticks, and the heat map its position labels."""
    assert v8("PosencWidgets.kit.linearTicks(100, 0, 3)") == [0, 50, 100]
    assert v8("PosencWidgets.kit.linearTicks(0, 100, 3)") == [0, 50, 100]
    assert {"0", "50", "100"} <= set(_y_ticks(_svg(v8, "ladder")))


def test_dots_floor_is_its_lowest_value(v8):
    """d_model = 8 at base 100 dips to -3.78; the y axis reaches below it (the
    old floor, -d/4 = -2, let the line run over the tick labels)."""
    params = "{d: 8, p: 0, base: 100}"
    low = min(v8(f"PosencWidgets.widgets.dots.compute({params}).dots"))
    assert low < -3.7
    ticks = [float(t.replace("\u2212", "-")) for t in _y_ticks(_svg(v8, "dots", d=8, base=100))]
    assert min(ticks) <= -2 and min(ticks) >= low - 1, ticks


@pytest.mark.parametrize("factor, ticks", [(8, ["1", "2", "4", "8"]), (3, ["1", "2", "3"]),
                                           (12, ["1", "2", "4", "8", "12"])])
def test_stretch_ticks_at_powers_of_two_and_s(v8, factor, ticks):
    assert _y_ticks(_svg(v8, "stretch", factor=factor)) == ticks


def test_stretch_labels_beside_their_lines(v8):
    """L/32, L/4 and L stand beside their dotted lines, not on them."""
    svg = _svg(v8, "stretch")
    lines = [float(x) for x in re.findall(r'<line x1="([\d.]+)" x2="\1"[^>]*class="pw-grid-strong"', svg)]
    labels = re.findall(r'<text class="pw-note" x="([\d.]+)"[^>]*text-anchor="(start|end)">(L[^<]*)<', svg)
    assert len(lines) == 3 and [name for *_, name in labels] == ["L/32", "L/4", "L"], (lines, labels)
    for line, (x, anchor, name) in zip(lines, labels):
        gap = float(x) - line if anchor == "start" else line - float(x)
        assert gap >= 3, f"{name} sits on its line"


def test_figure_text_is_typeset(v8):
    """Minus signs, dots, times and Greek letters, not their ASCII stand-ins."""
    texts = {name: v8(f"(() => {{ const r = PosencWidgets.render({json.dumps(name)}, "
                      f"PosencWidgets.defaults({json.dumps(name)}), 640); "
                      "return r.svg.replace(/<[^>]*>/g, ' ') + ' ' + r.alt + ' ' + r.summary; })()")
             for name in v8("Object.keys(PosencWidgets.widgets)")}
    stand_ins = re.compile(r"\w x \d|\) \. |omega|theta|\^| - |-\d|\.\.\.")
    for name, text in texts.items():
        found = stand_ins.search(text)
        assert not found, f"{name}: {found.group(0)!r} in {text[max(0, found.start() - 80):found.end() + 80]!r}"
    assert "PE(0) \u00b7 PE(0 + k)" in texts["dots"]
    assert "2\u207b\u1d49" in texts["alibi"]


def test_the_learned_tables_are_the_notebooks():
    """Chapter 4's figure draws the tables that its notebook trains, stored
    by tools/widget_data.py with the hash of the notebook's code: a change to
    that code asks for them to be stored again."""
    from tools import widget_data

    data = widget_data.stored()
    assert data["notebook"] == "book/04_learned.ipynb"
    assert data["code_sha256"] == widget_data.code_hash(), (
        "the code of book/04_learned.ipynb has changed since its learned tables were stored "
        "for the interactive figure: run python -m tools.widget_data")
    stored = widget_data.tables()
    assert stored.dtype == np.float32 and stored.shape == (16, 24, 16), stored.shape
    assert np.all(np.isfinite(stored)) and len({t.tobytes() for t in stored}) == 16


def test_dots_names_its_lowest_value_by_distance(desktop):
    """The curve is symmetric in k, so its lowest value comes twice: the
    summary names it by |k| (at p = 1000 rounding used to pick a side)."""
    states = desktop["states"]["dots"]
    assert any(s["sliders"][1]["value"] == "1000" for s in states)
    for state in states:
        assert re.search(r"lowest \S+ at k = \u00b1\d+\.", state["summary"]), state["summary"]


# --- the browser ------------------------------------------------------------

VALUES_JS = """(id) => {
    const figure = document.getElementById(id);
    const v = window.PosencWidgets && PosencWidgets.values(figure);
    return v && JSON.parse(JSON.stringify(v));
}"""

STATE_JS = """(id) => {
    PosencWidgets.settle();  // the summary waits for the reader to stop moving a slider
    const figure = document.getElementById(id);
    return {
        alt: figure.querySelector('.pw-figure').getAttribute('aria-label'),
        summary: figure.querySelector('.pw-summary').textContent,
        sliders: [...figure.querySelectorAll('input[type=range]')].map(input => ({
            name: input.name, id: input.id, value: input.value, min: input.min, max: input.max,
            valuetext: input.getAttribute('aria-valuetext'),
            label: (input.labels[0] || {textContent: ''}).textContent.trim(),
            labelVisible: input.labels.length > 0 && input.labels[0].getBoundingClientRect().width > 0,
            output: (figure.querySelector(`output[for="${input.id}"]`) || {textContent: ''})
                    .textContent})),
    };
}"""


def _open(ctx, page_path, problems):
    page = ctx.new_page()
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"exception: {e}"))
    page.on("request", lambda r: is_outside(r.url) and problems.append(f"outside: {r.url}"))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    page.goto(page_path.as_uri(), wait_until="load")
    page.wait_for_function("document.querySelectorAll('figure.posenc-widget.pw-live').length"
                           " === document.querySelectorAll('figure.posenc-widget').length")
    return page


@pytest.fixture(scope="module")
def browser(chromium):
    """One headless Chromium for the module; each check opens its own context
    in it (its own viewport, cookies, storage and pages)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@contextmanager
def _context(browser, **options):
    """A new context of ``browser`` (1280 px unless told) and a function that
    opens a page in it; console errors, exceptions and requests to another
    host on any of its pages fail the check."""
    problems = []
    options.setdefault("viewport", {"width": 1280, "height": 900})
    ctx = new_context(browser, timeout=TIMEOUT, **options)
    yield ctx, lambda page_path: _open(ctx, page_path, problems)
    ctx.close()
    assert not problems, "\n".join(problems)


def _scroll_to(locator):
    """Scroll ``locator``'s element to the middle of the screen as a reader's
    link, focus or finger does, and wait until the page has laid it out.

    The site's sections are ``content-visibility: auto``: a section off the
    screen is not laid out and holds a 1500-px placeholder. ``scrollIntoView``
    (like a link to it, a focus or a scroll) makes the section relevant, so
    it is laid out at its real height; Playwright's own
    ``scroll_into_view_if_needed`` (the DevTools protocol's
    ``DOM.scrollIntoViewIfNeeded``) does not: it scrolls to where the element
    would be, inside a section still drawn as its placeholder, so a tap there
    lands on whatever the next section paints over it."""
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    locator.page.evaluate("() => new Promise(done => requestAnimationFrame("
                          "() => requestAnimationFrame(done)))")


def _show(page, name):
    """Scroll figure ``name`` into view as a reader does, and wait until the
    browser has drawn it for the column (a figure is measured and drawn only
    when it nears the screen; until then the page shows the build's)."""
    _scroll_to(page.locator(f"#widget-{name}"))
    page.wait_for_function("(id) => PosencWidgets.values(document.getElementById(id)) !== null",
                           arg=f"widget-{name}")


def _moves(slider):
    """Three or more moves of one slider: keyboard and set values."""
    lo, hi = int(slider["min"]), int(slider["max"])
    middle = (lo + hi) // 2
    return [("key", "End"), ("set", middle), ("key", "Home"), ("key", "ArrowRight"),
            ("key", "PageUp")] if hi > lo else []


@pytest.fixture(scope="module")
def desktop(pages, browser):
    """Every figure at 1280 px: each slider moved, numbers read after each move."""
    record = {"problems": [], "moves": [], "states": {}, "errors": {}}
    ctx = new_context(browser, timeout=TIMEOUT, viewport={"width": 1280, "height": 900})
    opened = {}
    for name, page_path in sorted(pages.items()):
        if page_path not in opened:
            opened[page_path] = _open(ctx, page_path, record["problems"])
        page = opened[page_path]
        figure = f"widget-{name}"
        _show(page, name)
        first = page.evaluate(STATE_JS, figure)
        record["states"][name] = [first]
        record["moves"].append((name, "defaults", page.evaluate(VALUES_JS, figure)))
        for slider in first["sliders"]:
            handle = page.locator(f"#{slider['id']}")
            for kind, what in _moves(slider):
                if kind == "key":
                    handle.focus()
                    handle.press(what)
                else:
                    handle.fill(str(what))
                state = page.evaluate(STATE_JS, figure)
                record["states"][name].append(state)
                values = page.evaluate(VALUES_JS, figure)
                record["moves"].append((name, f"{slider['name']} {kind} {what}", values))
    ctx.close()
    return record


def test_every_slider_moves_and_every_value_equals_posenc(desktop, pages):
    moved = {}
    for name, move, values in desktop["moves"]:
        assert values is not None, f"{name}: no values after {move}"
        CHECKS[name](values)
        if move != "defaults":
            slider = move.split(" ")[0]
            moved.setdefault(name, {}).setdefault(slider, 0)
            moved[name][slider] += 1
    for name in pages:
        sliders = [s["name"] for s in desktop["states"][name][0]["sliders"]]
        assert sliders, f"{name} has no sliders"
        for slider in sliders:
            assert moved.get(name, {}).get(slider, 0) >= 3, f"{name}: {slider} moved < 3 times"


def test_sliders_change_the_settings_and_the_text_alternative(desktop, pages):
    """Each move changes a setting; each slider has a visible label and speaks
    its value; the figure's text alternative and summary follow the settings."""
    for name in pages:
        states = desktop["states"][name]
        for slider in states[0]["sliders"]:
            assert slider["label"] and slider["labelVisible"], f"{name}: {slider['name']} unlabelled"
        values = [tuple(s["value"] for s in state["sliders"]) for state in states]
        assert len(set(values)) >= 4, f"{name}: the sliders hardly moved: {values}"
        for state in states:
            for slider in state["sliders"]:
                assert slider["valuetext"] and slider["valuetext"] == slider["output"], (
                    f"{name}: {slider['name']} speaks {slider['valuetext']!r}, "
                    f"shows {slider['output']!r}")
        alts = {state["alt"] for state in states}
        summaries = {state["summary"] for state in states}
        assert len(alts) >= 4 and len(summaries) >= 4, f"{name}: text alternative does not follow"


QUIET_JS = """() => [...document.querySelectorAll('figure.posenc-widget')].map(f => ({
    name: f.dataset.widget,
    outputs: [...f.querySelectorAll('output')].map(o => o.getAttribute('aria-live')),
    summary: f.querySelector('.pw-summary').getAttribute('aria-live'),
}))"""


def _summary_waits(page, name):
    """Move figure ``name``'s first slider with the summary held back, then
    let it go: what the summary said before, at once, and in the end."""
    from playwright.sync_api import TimeoutError as Timeout

    figure = f"widget-{name}"
    summary = page.locator(f"#{figure} .pw-summary")
    slider = page.locator(f"#{figure} input[type=range]").first
    _show(page, name)
    page.evaluate("() => { PosencWidgets.summaryDelay = 600000; }")
    seen = {"before": summary.text_content(), "values": page.evaluate(VALUES_JS, figure)}
    slider.focus()
    for key in ("Home", "ArrowRight", "ArrowRight"):
        slider.press(key)
    if page.evaluate(VALUES_JS, figure) == seen["values"]:  # the default was 2
        slider.press("End")
    seen["moved"] = page.evaluate(VALUES_JS, figure)
    seen["at once"] = summary.text_content()
    # once the reader stops, it says what the figure now shows
    page.evaluate("() => { PosencWidgets.summaryDelay = 50; }")
    slider.dispatch_event("input")
    seen["now"] = page.evaluate("""(id) => { const f = document.getElementById(id), v = PosencWidgets.values(f);
                                   return PosencWidgets.render(v.name, v.params, v.width).summary; }""", figure)
    try:
        page.wait_for_function("([id, text]) => document.querySelector(`#${id} .pw-summary`)"
                               ".textContent === text", arg=[figure, seen["now"]])
        seen["said"] = True
    except Timeout:
        seen["said"] = False
    return seen


def test_outputs_are_quiet_and_the_summary_waits(screen):
    """Each slider speaks its own value; its <output> is not a live region
    (aria-live="off"), and the summary, a polite live region, changes once
    the reader stops moving a slider, not at every arrow press."""
    for page_name, quiet in screen["quiet"].items():
        for fig in quiet:
            assert fig["outputs"] and set(fig["outputs"]) == {"off"}, fig
            assert fig["summary"] == "polite", fig
    for name, seen in screen["summary waits"].items():
        assert seen["moved"] != seen["values"], f"{name}: nothing moved"
        assert seen["at once"] == seen["before"], f"{name}: the summary changed at once"
        assert seen["now"] != seen["before"], f"{name}: the summary of the new settings is the old one"
        assert seen["said"], f"{name}: the summary never said {seen['now']!r}"


LEAD_JS = """() => [...document.querySelectorAll('figure.posenc-widget')].map(f => {
    const lead = f.querySelector('figcaption .pw-lead');
    const words = lead && lead.querySelector('.pw-lead-static');
    return {name: f.dataset.widget, lead: !!lead,
            first: lead && lead.parentElement.firstChild === lead,
            shown: words && getComputedStyle(words).display !== 'none' ? words.textContent : '',
            instead: lead ? getComputedStyle(lead, '::before').content : ''};
})"""


@pytest.fixture(scope="module")
def screen(pages, browser):
    """Each page with figures, opened afresh at 1280 px, read in turn: the
    figures' contrast in the light theme and in the dark one; the captions
    on screen and in print; each figure's text alternative and summary once
    it is scrolled into view (drawn by the browser at its defaults, not the
    build's figure still); the live regions, and last (the first slider
    moved) how the page's first figure's summary waits for the reader."""
    record = {"contrast": {}, "leads": {}, "printed leads": {}, "states": {}, "quiet": {},
              "summary waits": {}}
    with _context(browser) as (ctx, open_page):
        for page_path in sorted(set(pages.values())):
            page = open_page(page_path)
            loaded = page.evaluate("() => document.documentElement.dataset.theme")
            assert loaded, f"{page_path.name}: no theme set at load"
            for theme in ("light", "dark"):
                page.emulate_media(color_scheme=theme)
                page.evaluate("(theme) => { document.documentElement.dataset.theme = theme; }", theme)
                record["contrast"][page_path.name, theme] = page.evaluate(CONTRAST_JS)
            page.emulate_media(color_scheme="light")  # back as loaded
            page.evaluate("(theme) => { document.documentElement.dataset.theme = theme; }", loaded)
            record["leads"][page_path.name] = page.evaluate(LEAD_JS)
            page.emulate_media(media="print")
            record["printed leads"][page_path.name] = page.evaluate(LEAD_JS)
            page.emulate_media(media="screen")
            for name in sorted(n for n, path in pages.items() if path == page_path):
                _show(page, name)
                record["states"][name] = page.evaluate(STATE_JS, f"widget-{name}")
            record["quiet"][page_path.name] = page.evaluate(QUIET_JS)
            first = next(n for n, path in sorted(pages.items()) if path == page_path)
            record["summary waits"][first] = _summary_waits(page, first)
            page.close()
    return record


def test_captions_speak_to_each_reader(screen):
    """Every caption opens with "In the HTML book you can", which print, the
    PDF and the notebook's other readers see; next to the live figure it
    reads "You can"."""
    for name, leads in screen["leads"].items():
        for fig in leads:
            assert fig["lead"] and fig["first"], f"{fig['name']}: the caption has no lead"
            assert fig["shown"] == "" and fig["instead"] == '"You can"', fig
        for fig in screen["printed leads"][name]:
            assert fig["shown"] == "In the HTML book you can" and fig["instead"] in ("none", "normal"), fig


def test_no_console_errors_and_nothing_from_outside(desktop):
    assert not desktop["problems"], "\n".join(desktop["problems"])


def test_the_checks_fail_on_a_wrong_number():
    """A figure whose numbers are off by more than 1e-12 is caught."""
    v = {"heads": 6, "head": 0, "length": 16,
         "slopes": list(posenc.alibi_slopes(6)), "weights": None}
    zeros = np.zeros((6, 16, 1))
    _, weights = posenc.attention(zeros, zeros, np.eye(16), bias=posenc.alibi_bias(6, 16))
    v["weights"] = weights[:, -1, :].tolist()
    check_alibi(v)
    v["slopes"][4] *= 1 + 1e-11
    with pytest.raises(AssertionError, match="slopes"):
        check_alibi(v)
    # the rule for powers of two, applied to 6 heads, is not ALiBi's
    v["slopes"] = [2 ** (-8 * (h + 1) / 6) for h in range(6)]
    with pytest.raises(AssertionError, match="slopes"):
        check_alibi(v)
    row = {"d": 8, "pos": 5, "base": 10000, "row": list(posenc.sinusoidal(1, 8, start=5)[0])}
    check_clock(row)
    row["row"][0], row["row"][1] = row["row"][1], row["row"][0]  # sin and cos swapped
    with pytest.raises(AssertionError, match="clock"):
        check_clock(row)


# --- a phone, dark mode, print, no JavaScript ---------------------------------

FIT_JS = """(id) => [document.getElementById(id)].map(f => {
    const svg = f.querySelector('.pw-figure svg');
    const box = f.getBoundingClientRect(), drawn = svg.getBoundingClientRect();
    return {name: f.dataset.widget, right: box.right, width: document.documentElement.clientWidth,
            overflow: f.scrollWidth - f.clientWidth,
            scale: drawn.width / svg.viewBox.baseVal.width,
            sliderHeight: Math.min(...[...f.querySelectorAll('input[type=range]')]
                                   .map(i => i.getBoundingClientRect().height))};
})"""


DRAWN_JS = """() => [...document.querySelectorAll('figure.posenc-widget')].map(f => ({
    name: f.dataset.widget, drawn: PosencWidgets.values(f) !== null,
    width: Number(f.querySelector('.pw-figure svg').getAttribute('width')),
    column: f.querySelector('.pw-figure').clientWidth,
    below: f.getBoundingClientRect().top / innerHeight}))"""


@pytest.fixture(scope="module")
def phone(pages, browser):
    """Each page with figures, opened afresh on a 390-px phone: which figures
    are drawn once the observer has reported what is near; then each figure
    scrolled into view (drawn? how it fits), then a tap on each one's first
    slider (its values before and after)."""
    record = {"at load": [], "shown": {}, "fit": {}, "taps": {}}
    with _context(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                  has_touch=True, device_scale_factor=2) as (ctx, open_page):
        for page_path in sorted(set(pages.values())):
            page = open_page(page_path)
            page.wait_for_timeout(300)  # time for the observer to report what is near
            record["at load"] += page.evaluate(DRAWN_JS)
            names = [n for n, path in pages.items() if path == page_path]
            for name in names:
                _show(page, name)
                record["shown"][name] = next(f for f in page.evaluate(DRAWN_JS) if f["name"] == name)
                record["fit"][name] = page.evaluate(FIT_JS, f"widget-{name}")[0]
            for name in names:
                figure = f"widget-{name}"
                slider = page.locator(f"#{figure} input[type=range]").first
                _scroll_to(slider)
                before = page.evaluate(VALUES_JS, figure)
                box = slider.bounding_box()
                page.touchscreen.tap(box["x"] + 0.9 * box["width"], box["y"] + box["height"] / 2)
                record["taps"][name] = (before, page.evaluate(VALUES_JS, figure))
            page.close()
    return record


def test_figures_fit_a_phone_and_sliders_answer_a_tap(pages, phone):
    """At 390 px: no figure sticks out of the column or scrolls sideways, its
    text is drawn at full size (the figure is drawn for the column's width),
    and a tap on a slider's track moves it and redraws the figure."""
    for name in pages:
        fig = phone["fit"][name]
        assert fig["right"] <= fig["width"] + 0.5, f"{fig['name']} sticks out: {fig}"
        assert fig["overflow"] <= 0, f"{fig['name']} scrolls sideways: {fig}"
        assert fig["scale"] >= 0.98, f"{fig['name']} shrunk to {fig['scale']:.2f}"
        assert fig["sliderHeight"] >= 24, f"{fig['name']}: sliders too thin to tap"
    for name in pages:
        before, after = phone["taps"][name]
        assert after != before, f"{name}: a tap on the slider changed nothing"
        CHECKS[name](after)


def test_figures_are_drawn_when_they_near_the_screen(pages, phone):
    """On a phone a figure is measured and drawn for the column only when it
    nears the screen (measuring one in a section that is not laid out forces
    that layout at load); until then the page shows the build's figure, and
    once the reader scrolls to it, it is drawn at the column's width."""
    built = {}  # the width of each figure as the build drew it
    for name, page_path in pages.items():
        block = re.search(rf'data-widget="{name}".*?<svg[^>]*width="(\d+)"',
                          page_path.read_text(encoding="utf-8"), re.S)
        built[name] = int(block.group(1))
    far = []
    for fig in phone["at load"]:
        if fig["below"] > 3:
            far.append(fig["name"])
            assert not fig["drawn"], f"{fig['name']} drawn at load, {fig['below']:.0f} screens down"
        if not fig["drawn"]:
            assert fig["width"] == built[fig["name"]], f"{fig['name']}: not the build's figure"
    for name, fig in phone["shown"].items():
        assert fig["drawn"] and abs(fig["width"] - fig["column"]) <= 1, (
            f"{name} not drawn for its {fig['column']}-px column: {fig}")
    assert len(far) >= 5, f"too few figures far down a page to test the wait: {far}"


CONTRAST_JS = """() => {
    const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
                              return (x + 0.05) / (y + 0.05); };
    let node = document.querySelector('figure.posenc-widget'), bg = [255, 255, 255];
    while (node) {
        const c = getComputedStyle(node).backgroundColor;
        if (c && !c.endsWith(', 0)') && c !== 'transparent') { bg = rgb(c); break; }
        node = node.parentElement;
    }
    const out = {text: [], lines: []};
    for (const t of document.querySelectorAll('figure.posenc-widget .pw-tick, figure.posenc-widget .pw-title'))
        out.text.push(ratio(rgb(getComputedStyle(t).fill), bg));
    for (const l of document.querySelectorAll('figure.posenc-widget .pw-series'))
        out.lines.push(ratio(rgb(getComputedStyle(l).stroke), bg));
    for (const l of document.querySelectorAll('figure.posenc-widget .pw-fill'))
        out.lines.push(ratio(rgb(getComputedStyle(l).fill), bg));
    return out;
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_figures_read_in_light_and_dark_mode(screen, theme):
    """Text of the figures at least 4.5:1 against the page, lines and dots at
    least 3:1 (WCAG 2.1: text, and graphical objects), in both themes."""
    for (page, shown), found in screen["contrast"].items():
        if shown != theme:
            continue
        assert found["text"] and found["lines"], page
        assert min(found["text"]) >= 4.5, f"{page} {theme}: text {min(found['text']):.2f}:1"
        assert min(found["lines"]) >= 3, f"{page} {theme}: lines {min(found['lines']):.2f}:1"


PRINT_JS = """() => [...document.querySelectorAll('figure.posenc-widget')].map(f => {
    const shown = (el) => el && el.checkVisibility() && el.getBoundingClientRect().height > 0;
    const svg = f.querySelector('.pw-figure svg');
    return {name: f.dataset.widget, controls: shown(f.querySelector('.pw-controls')),
            figure: shown(svg) && svg.getBoundingClientRect().height > 100,
            marks: svg ? svg.querySelectorAll('path, line, circle, image').length : 0,
            summary: shown(f.querySelector('.pw-summary')),
            title: [...f.querySelectorAll('.pw-title')].map(t => t.textContent)};
})"""


def test_print_and_pdf_show_a_static_figure(pages, tmp_path, browser):
    """Printed, each figure keeps its drawing and summary and drops its sliders;
    the PDF that Chromium prints holds the figure's titles (SVG text, which
    stays text in the PDF), as poppler's pdftotext reads it."""
    assert shutil.which("pdftotext"), (
        "pdftotext reads the printed PDF: sudo apt-get install -y poppler-utils")
    with _context(browser, viewport={"width": 794, "height": 1123}) as (ctx, open_page):
        for page_path in sorted(set(pages.values())):
            page = open_page(page_path)
            page.emulate_media(media="print")
            printed = page.evaluate(PRINT_JS)
            for fig in printed:
                assert not fig["controls"], f"{fig['name']}: sliders printed"
                assert fig["figure"] and fig["marks"] >= 5, f"{fig['name']}: empty box in print"
                assert fig["summary"], f"{fig['name']}: no summary in print"
            pdf = tmp_path / (page_path.stem + ".pdf")
            page.pdf(path=str(pdf), format="A4", print_background=True)
            text = re.sub(r"\s+", "", subprocess.run(
                ["pdftotext", "-raw", "-enc", "UTF-8", str(pdf), "-"],
                capture_output=True, text=True, check=True).stdout)
            for fig in printed:
                titles = [re.sub(r"\s+", "", t) for t in fig["title"]]
                assert titles and all(t in text for t in titles), (
                    f"{fig['name']}: its titles {fig['title']} are not in the printed PDF")
            assert text.count("IntheHTMLbookyoucan") >= len(printed), (
                f"{page_path.name}: the printed captions do not say 'In the HTML book you can'")


def test_without_javascript_the_built_figure_is_shown(pages, browser):
    with _context(browser, java_script_enabled=False) as (ctx, _):
        for page_path in sorted(set(pages.values())):
            page = ctx.new_page()
            page.goto(page_path.as_uri(), wait_until="load")
            for fig in page.evaluate(PRINT_JS):
                assert not fig["controls"], f"{fig['name']}: dead sliders shown without JavaScript"
                assert fig["figure"] and fig["marks"] >= 5, f"{fig['name']}: empty box"


def test_the_built_figure_is_the_live_one_at_its_defaults(pages, screen):
    """The static figure (drawn when the book is built) says what the live
    figure says at the same settings: print and screen agree."""
    for name, page_path in sorted(pages.items()):
        html = page_path.read_text(encoding="utf-8")
        block = re.search(rf'data-widget="{name}".*?</figure>', html, re.S).group(0)
        built_alt = unescape(re.search(r'role="img" aria-label="([^"]*)"', block).group(1))
        built_summary = unescape(re.search(r'class="pw-summary"[^>]*>([^<]*)<', block).group(1))
        state = screen["states"][name]
        assert state["alt"] == built_alt, name
        assert state["summary"] == built_summary, name
