"""Weight and speed of the interactive figures.

Two measurements, in headless Chromium from file:// (not a test: timings
depend on the machine; read the ratios and the orders of magnitude):

1. **Each figure** of the book (book/_ext/static/widgets/: the core
   posenc-widgets.js and one file per chapter in figures/): the JavaScript a
   page with it loads (the core plus its chapter's file, raw and
   gzip-compressed, as a static host serves them), and the time of one
   redraw (compute its numbers, draw them, put the SVG in the page) after a
   slider move, median over moves of every slider.
2. **Against two libraries**, for chapter 7's divisor figure (5 methods x 64
   pairs, log axis, legend), drawn three ways, from file:// with a cold
   cache:

   * ``svg``: posenc-widgets.js and figures/stretch.js themselves;
   * ``plot``: Observable Plot (with D3, which it needs);
   * ``vega``: Vega-Lite through vega-embed (what Altair's HTML output loads).

   All three take their numbers from the figure's own formulas, so the
   differences are the drawing. For each it reports the bytes the page loads
   (raw and gzip-compressed), the time from navigation to the drawn figure
   (median of ``--runs`` cold loads, the three interleaved so that the
   machine's load hits them alike), and the time of one redraw after a slider
   move (median of 20). The two libraries come from the npm registry,
   installed once into ``_build/bench-widgets`` at the pinned versions below
   (needs ``npm``); the book itself never loads them. ``--figures-only``
   skips this part.

Usage: ``python -m tools.bench_widgets [--runs 9] [--figures-only]``
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import subprocess
import sys
import urllib.parse
from pathlib import Path

from tools.headless import find_chromium
from tools.paths import ROOT

WIDGETS = ROOT / "book" / "_ext" / "static" / "widgets"
OUT = ROOT / "_build" / "bench-widgets"
PACKAGES = {"@observablehq/plot": "0.6.17", "d3": "7.9.2", "vega": "6.4.0",
            "vega-lite": "6.4.3", "vega-embed": "7.3.0"}
LIBRARIES = {
    "svg": [],
    "plot": ["d3/dist/d3.min.js", "@observablehq/plot/dist/plot.umd.min.js"],
    "vega": ["vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js",
             "vega-embed/build/vega-embed.min.js"],
}

# The figure's numbers for a setting, from the book's formulas; then draw()
# for each way. window.bench = {first: ms to the first figure, redraw: ms}.
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="{css}">
{scripts}
</head><body><figure class="posenc-widget" style="width:640px"><div id="figure" class="pw-figure"></div></figure>
<script>
const W = window.PosencWidgets, stretch = W.widgets.stretch;
const METHODS = ["linear", "ntk", "dynamic", "yarn", "llama3"];
function numbers(factor) {{
  const params = {{...W.defaults("stretch"), factor}};
  return [params, stretch.compute(params)];
}}
function rows(v) {{
  const out = [];
  for (const m of METHODS) v.wavelength.forEach((w, i) => out.push({{wavelength: w, divisor: v.divisor[m][i], method: m}}));
  return out;
}}
const box = document.getElementById("figure");
{draw}
(async () => {{
  await draw(4);
  const first = performance.now();
  const times = [];
  for (let k = 0; k < 20; k++) {{
    const t0 = performance.now();
    await draw([1.5, 2, 3, 6, 8, 12, 16][k % 7]);
    times.push(performance.now() - t0);
  }}
  times.sort((a, b) => a - b);
  window.bench = {{first, redraw: times[10], marks: box.querySelectorAll("path, line").length}};
}})();
</script></body></html>"""

DRAW = {
    "svg": """async function draw(factor) {
  const [params, v] = numbers(factor);
  box.innerHTML = stretch.draw(params, v, 640).svg;
}""",
    "plot": """async function draw(factor) {
  const [params, v] = numbers(factor);
  const chart = Plot.plot({width: 640, height: 360, x: {type: "log", label: "wavelength (positions)"},
    y: {label: "frequency divided by"}, color: {legend: true},
    marks: [Plot.line(rows(v), {x: "wavelength", y: "divisor", stroke: "method"}),
            Plot.ruleX([params.original / 32, params.original / 4, params.original], {strokeDasharray: "2 3"})]});
  box.replaceChildren(chart);
}""",
    "vega": """let view = null;
async function draw(factor) {
  const [params, v] = numbers(factor);
  if (view) { view.data("table", rows(v)); await view.runAsync(); return; }
  const spec = {$schema: "https://vega.github.io/schema/vega-lite/v6.json", width: 560, height: 280,
    data: {name: "table", values: rows(v)},
    mark: "line", encoding: {x: {field: "wavelength", type: "quantitative", scale: {type: "log"}},
                             y: {field: "divisor", type: "quantitative"},
                             color: {field: "method", type: "nominal"}}};
  view = (await vegaEmbed(box, spec, {renderer: "svg", actions: false})).view;
}""",
}


def install():
    node_modules = OUT / "node_modules"
    if all((node_modules / path).is_file() for paths in LIBRARIES.values() for path in paths):
        return node_modules
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("the benchmark needs npm to install the two libraries it compares with")
    OUT.mkdir(parents=True, exist_ok=True)
    subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix", str(OUT),
                    *[f"{name}@{version}" for name, version in PACKAGES.items()]], check=True)
    return node_modules


def pages(node_modules):
    made = {}
    for way, libraries in LIBRARIES.items():
        scripts = [node_modules / path for path in libraries] + [
            WIDGETS / "posenc-widgets.js", WIDGETS / "figures" / "stretch.js"]
        tags = "\n".join(f'<script src="{s.as_uri()}"></script>' for s in scripts)
        page = OUT / f"{way}.html"
        page.write_text(PAGE.format(css=(WIDGETS / "posenc-widgets.css").as_uri(),
                                    scripts=tags, draw=DRAW[way]), encoding="utf-8")
        made[way] = page
    return made


def measure(made, runs):
    from playwright.sync_api import sync_playwright

    results = {way: {"first": [], "redraw": [], "files": set()} for way in made}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        for _ in range(runs):
            for way, page_path in made.items():
                ctx = browser.new_context(viewport={"width": 800, "height": 600})
                ctx.route(lambda url: not url.startswith(("file:", "data:", "blob:", "about:")),
                          lambda route: route.abort())  # nothing from the network
                page = ctx.new_page()
                page.on("request", lambda r, w=way: r.url.startswith("file:") and results[w]["files"].add(
                    Path(urllib.parse.unquote(urllib.parse.urlsplit(r.url).path))))
                page.goto(page_path.as_uri(), wait_until="load")
                page.wait_for_function("window.bench !== undefined", timeout=60_000)
                bench = page.evaluate("window.bench")
                assert bench["marks"] >= 5, f"{way} drew nothing: {bench}"
                results[way]["first"].append(bench["first"])
                results[way]["redraw"].append(bench["redraw"])
                ctx.close()
        browser.close()
    return results


# Every figure: for each slider, each of its positions in turn (up to 12,
# spread over its range), the others at their defaults; the time of
# compute + draw + innerHTML, median over those redraws.
FIGURES_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="{css}">
{scripts}
</head><body><figure class="posenc-widget" style="width:640px"><div id="figure" class="pw-figure"></div></figure>
<script>
const W = window.PosencWidgets, box = document.getElementById("figure");
const results = {{}};
for (const name of Object.keys(W.widgets)) {{
  const widget = W.widgets[name], times = [];
  box.innerHTML = W.render(name, W.defaults(name), 640).svg;  // warm up
  for (const c of widget.controls) {{
    const n = c.values ? c.values.length : Math.floor((c.max - c.min) / c.step) + 1;
    const picks = Array.from({{length: Math.min(n, 12)}}, (_, k) => Math.round(k * (n - 1) / Math.max(1, Math.min(n, 12) - 1)));
    for (const k of picks) {{
      const params = W.defaults(name);
      params[c.name] = c.values ? c.values[k] : c.min + k * c.step;
      for (const other of widget.controls) if (other.maxFrom) params[other.name] = Math.min(params[other.name], other.maxFrom(params));
      const t0 = performance.now();
      box.innerHTML = W.render(name, params, 640).svg;
      box.getBoundingClientRect();  // layout
      times.push(performance.now() - t0);
    }}
  }}
  times.sort((a, b) => a - b);
  results[name] = {{redraws: times.length, median: times[Math.floor(times.length / 2)],
                   max: times[times.length - 1]}};
}}
window.bench = results;
</script></body></html>"""


def bench_figures():
    """Per figure: its file, the KB a page with it loads, and its redraw time."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    from book._ext.posenc_widgets import close_renderer, renderer

    files = dict(renderer().files)
    close_renderer()
    OUT.mkdir(parents=True, exist_ok=True)
    core = WIDGETS / "posenc-widgets.js"
    scripts = [core] + sorted(set(files.values()))
    page = OUT / "figures.html"
    page.write_text(FIGURES_PAGE.format(
        css=(WIDGETS / "posenc-widgets.css").as_uri(),
        scripts="\n".join(f'<script src="{s.as_uri()}"></script>' for s in scripts)), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        tab = browser.new_page(viewport={"width": 800, "height": 600})
        tab.goto(page.as_uri(), wait_until="load")
        tab.wait_for_function("window.bench !== undefined", timeout=120_000)
        times = tab.evaluate("window.bench")
        browser.close()
    size = lambda f: (f.stat().st_size / 1024, len(gzip.compress(f.read_bytes(), 9)) / 1024)
    css = WIDGETS / "posenc-widgets.css"
    rows = {}
    for name, path in sorted(files.items(), key=lambda item: (item[1].name, item[0])):
        (kb, gz), (ckb, cgz), (skb, sgz) = size(path), size(core), size(css)
        rows[name] = {"file": f"figures/{path.name}", "file KB": kb, "file KB gzip": gz,
                      "page KB": kb + ckb + skb, "page KB gzip": gz + cgz + sgz,
                      "redraw ms": times[name]["median"], "slowest ms": times[name]["max"],
                      "redraws": times[name]["redraws"]}
    ckb, cgz = size(core)
    skb, sgz = size(css)
    print(f"each figure: core posenc-widgets.js {ckb:.1f} KB ({cgz:.1f} gzip), stylesheet "
          f"{skb:.1f} KB ({sgz:.1f} gzip); headless Chromium, 640 px")
    print(f"{'figure':11} {'file':22} {'file KB':>8} {'gzip':>6} {'page KB':>8} {'gzip':>6} "
          f"{'redraw ms':>10} {'slowest':>8}")
    for name, row in rows.items():
        print(f"{name:11} {row['file']:22} {row['file KB']:8.1f} {row['file KB gzip']:6.1f} "
              f"{row['page KB']:8.1f} {row['page KB gzip']:6.1f} {row['redraw ms']:10.2f} "
              f"{row['slowest ms']:8.2f}")
    (OUT / "figures.json").write_text(json.dumps(rows, indent=1))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--figures-only", action="store_true",
                        help="measure the book's figures only, not the two libraries")
    args = parser.parse_args(argv)
    if find_chromium() is None:
        sys.exit("the benchmark needs Chromium: sudo apt-get install -y chromium")
    bench_figures()
    if args.figures_only:
        return 0
    print()
    results = measure(pages(install()), args.runs)
    rows = {}
    for way, r in results.items():
        files = [f for f in r["files"] if f.suffix in (".js", ".css")]
        raw = sum(f.stat().st_size for f in files)
        packed = sum(len(gzip.compress(f.read_bytes(), 9)) for f in files)
        rows[way] = {"KB": raw / 1024, "KB gzip": packed / 1024,
                     "first draw ms": statistics.median(r["first"]),
                     "redraw ms": statistics.median(r["redraw"])}
    print(f"chapter 7's divisor figure, {args.runs} cold loads each, headless Chromium, file://")
    print(f"{'':6} {'KB':>7} {'KB gzip':>8} {'first draw ms':>14} {'redraw ms':>10}   ratios to svg")
    for way, row in rows.items():
        ratios = " ".join(f"{row[k] / rows['svg'][k]:5.1f}" for k in row)
        print(f"{way:6} {row['KB']:7.1f} {row['KB gzip']:8.1f} {row['first draw ms']:14.1f} "
              f"{row['redraw ms']:10.2f}   {ratios}")
    (OUT / "results.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
