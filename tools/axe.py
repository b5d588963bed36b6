"""axe-core over the built book, in headless Chromium, as a reader meets it.

axe-core (pinned in ``tools/browser/package.json``, installed by ``make
browser-tools``, i.e. ``npm ci``) is injected into each page of the site,
opened from ``file://``, and run with its default rules (WCAG 2.0/2.1/2.2 A and
AA, and best practices) at each width, and the rules that axe leaves off and
Lighthouse turns on (``RULES_ON``: every data cell of a table has a header,
targets of at least 24 by 24 px, ...). One browser, the pages in sequence:
each page is loaded once per width.

``tests/book/test_accessibility.py`` requires 0 critical and 0 serious
violations on every page at 390 and 1280 px. From the command line it prints
the counts by impact (the numbers of issue 31's report)::

    python -m tools.axe _build/html            # every page, 1280 and 390 px
    python -m tools.axe _build/html --details  # and each violation
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from tools.headless import CHROMIUM_FLAGS, find_chromium, is_outside
from tools.paths import ROOT

BROWSER_TOOLS = ROOT / "tools" / "browser"
AXE_JS = BROWSER_TOOLS / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (390, 1280)
IMPACTS = ("critical", "serious", "moderate", "minor")
MISSING = ("axe-core is not installed: `make browser-tools` installs it (npm ci in tools/browser)")

# After load: wait for images and fonts, then let the theme's and the book's
# scripts settle (they add buttons and labels on DOMContentLoaded). Then one
# Tab, as a keyboard user starts: the book's script gives each box that
# scrolls sideways its tab stop at the first Tab, not at load (measuring every
# box at load cost a phone seconds: static/posenc-site.js).
SETTLE_JS = """async () => {
    await document.fonts.ready;
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)));
}"""
# The rules that axe-core leaves off by default and Lighthouse 12.8 turns on
# (its core/gather/gatherers/accessibility.js): this check runs them too.
# axe counts the two table rules as experimental; target-size is WCAG 2.2 AA
# (2.5.8), identical-links-same-purpose AAA (2.4.9).
RULES_ON = ("td-has-header", "table-fake-caption", "target-size", "identical-links-same-purpose")
RUN_JS = """async () => {
    const rules = Object.fromEntries(__RULES__.map(id => [id, {enabled: true}]));
    const result = await axe.run(document, {resultTypes: ["violations"], rules});
    return result.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary,
                                  html: n.html.slice(0, 200)}))}));
}""".replace("__RULES__", json.dumps(list(RULES_ON)))


def site_pages(html):
    """Every HTML page of the built site (not the theme's templates in _static),
    without pages that only redirect (index.html: its target is checked)."""
    html = Path(html).resolve()
    pages = sorted(p for p in html.rglob("*.html") if "_static" not in p.relative_to(html).parts)
    return [p for p in pages
            if 'http-equiv="refresh"' not in p.read_text(encoding="utf-8")[:2000].lower()]


def run(chromium, pages, widths=WIDTHS, *, axe=True, inspect_js=None):
    """{(page, width): {"violations": [...], "info": ...}} for each page at each width.

    ``violations`` are axe-core's (a dict each with ``id``, ``impact``,
    ``help`` and ``nodes``, each node with its CSS ``target`` and axe's
    ``summary``), or None with ``axe=False``; ``info`` is what
    ``inspect_js`` returns, evaluated in the page after axe (None without it).
    """
    from playwright.sync_api import sync_playwright

    if axe and not AXE_JS.is_file():
        raise FileNotFoundError(MISSING)
    axe_source = AXE_JS.read_text(encoding="utf-8") if axe else None
    results = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
        for width in widths:
            ctx = browser.new_context(viewport={"width": width, "height": 900 if width > 800 else 844},
                                      service_workers="block")
            ctx.set_default_timeout(180_000)
            ctx.route(lambda url: is_outside(url), lambda route: route.abort())
            page = ctx.new_page()
            for path in pages:
                page.goto(Path(path).resolve().as_uri(), wait_until="load")
                page.evaluate(SETTLE_JS)
                page.keyboard.press("Tab")
                violations = None
                if axe:
                    page.add_script_tag(content=axe_source)
                    violations = page.evaluate(RUN_JS)
                info = page.evaluate(inspect_js) if inspect_js else None
                results[(Path(path), width)] = {"violations": violations, "info": info}
            ctx.close()
        browser.close()
    return results


def version():
    """The version of axe-core installed in tools/browser (the pinned one)."""
    package = AXE_JS.parent / "package.json"
    return json.loads(package.read_text(encoding="utf-8"))["version"] if package.is_file() else None


def counts(results):
    """Violated nodes by impact, over all pages and widths: {impact: n}."""
    found = Counter()
    for result in results.values():
        for v in result["violations"] or []:
            found[v["impact"]] += len(v["nodes"])
    return {impact: found[impact] for impact in IMPACTS}


def main(argv=None):

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html", type=Path, help="the built site, e.g. _build/html")
    parser.add_argument("--details", action="store_true", help="list each violation")
    parser.add_argument("--json", type=Path, help="write every violation to this file")
    args = parser.parse_args(argv)
    chromium = find_chromium()
    if chromium is None:
        print("Chromium is not installed", file=sys.stderr)
        return 1
    pages = site_pages(args.html)
    results = run(chromium, pages)
    root = args.html.resolve()
    for width in WIDTHS:
        sub = {k: v for k, v in results.items() if k[1] == width}
        line = ", ".join(f"{n} {impact}" for impact, n in counts(sub).items())
        print(f"axe-core {version()}, {width:5d} px, {len(pages)} pages: {line}")
    if args.details:
        for (page, width), result in results.items():
            for v in result["violations"]:
                print(f"{page.relative_to(root)} @{width}: {v['impact']:8} {v['id']} "
                      f"({len(v['nodes'])}): {v['nodes'][0]['target']}")
    if args.json:
        args.json.write_text(json.dumps(
            [{"page": str(page.relative_to(root)), "width": width, "violations": r["violations"]}
             for (page, width), r in results.items()], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
