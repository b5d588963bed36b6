"""Lighthouse scores of the built book: ``make lighthouse`` (a benchmark, not a test).

Lighthouse (pinned in ``tools/browser/package.json``, installed by ``npm ci``)
audits the landing page and every chapter and appendix with its mobile preset (a
slow phone on a slow 4G network, simulated) and its desktop preset, in the
system's headless Chromium. The site is served from this machine
(127.0.0.1, a port the system picks) the way a static host such as GitHub
Pages serves it: text files gzip-compressed, the rest as they are. Nothing
leaves the machine.

Prints a table of the four category scores and the main speed metrics, and
writes every report to ``_build/lighthouse/`` (``scores.json``, and one
``<page>-<preset>.json`` per run). Scores depend on the machine's load: the
performance score in particular moves by a few points from run to run on a
shared machine (each page and preset runs three times, ``--runs``, and the
run with the median performance score is reported); accessibility, best
practices and SEO do not.

Usage: ``python -m tools.lighthouse [_build/html] [--pages book/intro ...]``
(every page, preset and run takes a minute or two on a loaded machine: pick
pages with ``--pages`` for a quick look).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from tools.paths import HTML, ROOT

LIGHTHOUSE = ROOT / "tools" / "browser" / "node_modules" / ".bin" / "lighthouse"
OUT = ROOT / "_build" / "lighthouse"


def default_pages():
    """The landing page and every chapter and appendix (the notebooks of
    _toc.yml), in the book's order: issue 42's targets are per chapter."""
    from tools.paths import toc_files

    return [name for i, name in enumerate(toc_files()) if i == 0 or (ROOT / f"{name}.ipynb").is_file()]


PRESETS = ("mobile", "desktop")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {"first-contentful-paint": "FCP s", "largest-contentful-paint": "LCP s",
           "total-blocking-time": "TBT ms", "cumulative-layout-shift": "CLS"}
COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".txt", ".ipynb", ".map"}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files; text ones gzip-compressed when the browser accepts it."""

    compress = True

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepts = self.compress and "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        import io

        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, *args):
        pass


def serve(html, compress=True):
    """A static server of ``html`` on 127.0.0.1 in a thread; returns it (``.server_port``)."""
    handler = functools.partial(type("H", (Handler,), {"compress": compress}), directory=str(html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def audit(url, preset, report, chromium):
    """Run Lighthouse once; returns its JSON report (also written to ``report``)."""
    if not LIGHTHOUSE.is_file():
        raise FileNotFoundError("Lighthouse is not installed: `make browser-tools` (npm ci)")
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
               "--only-categories=" + ",".join(CATEGORIES),
               "--chrome-flags=--headless=new --no-sandbox --disable-gpu "
               "--disable-background-networking --no-first-run"]
    if preset == "desktop":
        command.append("--preset=desktop")
    env = dict(os.environ, CHROME_PATH=chromium)
    subprocess.run(command, check=True, env=env, cwd=ROOT, timeout=600)
    return json.loads(Path(report).read_text(encoding="utf-8"))


def lighthouse_version():
    package = LIGHTHOUSE.resolve().parents[1] / "package.json"
    return json.loads(package.read_text(encoding="utf-8"))["version"]


def summary(report):
    """The four category scores (0-100) and the main metrics of one report."""
    scores = {c: round(100 * report["categories"][c]["score"]) for c in CATEGORIES}
    audits = report["audits"]
    metrics = {}
    for key, label in METRICS.items():
        value = audits[key]["numericValue"]
        metrics[label] = round(value / 1000, 1) if label.endswith(" s") else (
            round(value, 3) if label == "CLS" else round(value))
    failing = sorted(a for a, r in audits.items()
                     if r.get("score") is not None and r["score"] < 1
                     and r.get("scoreDisplayMode") == "binary")
    return {"scores": scores, "metrics": metrics, "failing": failing,
            "dom": audits.get("dom-size", {}).get("numericValue")}


def main(argv=None):
    from tools.headless import find_chromium

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html", nargs="?", type=Path, default=HTML)
    parser.add_argument("--pages", nargs="+", default=default_pages())
    parser.add_argument("--presets", nargs="+", default=list(PRESETS), choices=PRESETS)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of each page and preset; the median one is reported")
    parser.add_argument("--plain", action="store_true",
                        help="serve without compression (python -m http.server's way)")
    args = parser.parse_args(argv)
    chromium = find_chromium()
    if chromium is None:
        print("Chromium is not installed", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    server = serve(args.html.resolve(), compress=not args.plain)
    rows = []
    try:
        for page in args.pages:
            for preset in args.presets:
                url = f"http://127.0.0.1:{server.server_port}/{page}.html"
                runs = []
                for run in range(args.runs):
                    report = args.out / f"{page.replace('/', '__')}-{preset}-{run + 1}.json"
                    runs.append(summary(audit(url, preset, report, chromium)))
                # the run with the median performance score (Lighthouse's advice)
                runs.sort(key=lambda r: r["scores"]["performance"])
                rows.append({"page": page, "preset": preset, "runs": args.runs,
                             "performance of each run": [r["scores"]["performance"] for r in runs],
                             **runs[len(runs) // 2]})
    finally:
        server.shutdown()
    (args.out / "scores.json").write_text(json.dumps(rows, indent=1) + "\n")
    head = f"{'page':18} {'preset':8} " + " ".join(f"{c[:6]:>6}" for c in CATEGORIES)
    head += " " + " ".join(f"{m:>7}" for m in METRICS.values()) + f" {'DOM':>6}"
    print(f"Lighthouse {lighthouse_version()}, served {'without' if args.plain else 'with'} gzip"
          ", scores 0-100:")
    print(head)
    for row in rows:
        print(f"{row['page']:18} {row['preset']:8} "
              + " ".join(f"{row['scores'][c]:6d}" for c in CATEGORIES) + " "
              + " ".join(f"{v:7}" for v in row["metrics"].values()) + f" {row['dom'] or 0:6.0f}")
        if args.runs > 1:
            print(f"{'':27} performance of the {args.runs} runs: {row['performance of each run']}")
        if row["failing"]:
            print(f"{'':27} failing audits: {', '.join(row['failing'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
