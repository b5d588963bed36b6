"""Print the whole book to one PDF, without TeX: ``make pdf``.

``make pdf`` first builds Jupyter Book's single-page HTML
(``_build/singlehtml``: every page of _toc.yml in order, chapter numbers
kept, cross-references turned into links within the page, math typeset at
build time). This script opens it in headless Chromium (the system's
Chromium, driven by the pinned playwright package, as in the browser check of
``tests/book/test_site.py``) with every request to another host blocked, and
prints it with the print stylesheet (``static/posenc-site.css``: code
wrapped, solutions open):

* page 1: the title and the contents (the theme's print-only table of
  contents: every part and page, each a link to where it starts);
* each page of the table of contents starts on a new sheet;
* internal links work (Chromium turns links to anchors of the same document
  into links within the PDF), and the PDF has an outline (bookmarks) of the
  headings;
* a footer with the page number.

Usage: ``python -m tools.make_pdf _build/singlehtml _build/pdf/book.pdf``
"""

from __future__ import annotations

import os
import shutil
import sys
import urllib.parse
from pathlib import Path

# Print-only additions for the single-page book (the site's own print rules
# are in static/posenc-site.css).
PDF_CSS = """
@page { size: A4; margin: 16mm 14mm 18mm 14mm; }
@media print {
  /* the title page and contents, then every page of the book on a new sheet */
  #jb-print-docs-body { break-after: page; }
  #jb-print-docs-body nav ul { list-style: none; padding-left: 0; }
  #jb-print-docs-body nav ul ul { padding-left: 1.5em; }
  #jb-print-docs-body nav a { text-decoration: none; }
  span[id^="document-"] { display: block; break-before: page; }
  body, .bd-main .bd-content .bd-article-container { font-size: 10.5pt; }
  /* the text uses the whole width of the paper */
  .bd-sidebar-primary, .bd-sidebar-secondary, .prev-next-footer { display: none !important; }
  .bd-container, .bd-container__inner, .bd-page-width, .bd-main, .bd-content,
  .bd-article-container, .bd-article {
    max-width: none !important; width: 100% !important; padding-left: 0 !important;
    padding-right: 0 !important; margin-left: 0 !important; margin-right: 0 !important; }
}
"""
FOOTER = ('<div style="font-size:8pt; width:100%; text-align:center; color:#555;">'
          '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')
LOCAL_SCHEMES = {"file", "data", "blob", "about"}


def find_chromium():
    """Path of the system's Chromium, or None. POSENC_CHROMIUM overrides."""
    override = os.environ.get("POSENC_CHROMIUM")
    if override:
        return override if Path(override).is_file() else None
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def is_outside(url):
    url = url.strip()
    return url.startswith("//") or urllib.parse.urlsplit(url).scheme.lower() not in LOCAL_SCHEMES


def landing_page(site):
    """The page the single-page build's index.html sends the reader to."""
    index = Path(site) / "index.html"
    text = index.read_text(encoding="utf-8")
    if "http-equiv" in text and "url=" in text:
        target = text.split("url=", 1)[1].split('"', 1)[0].strip("' ")
        return (index.parent / target).resolve()
    return index.resolve()


def printable_copy(site):
    """The single page, copied to the root of the build as ``print.html``.

    Sphinx's single-page builder writes the book to ``book/intro.html`` (the
    root page's name) but makes every link in it relative to the root of the
    build (``_static/...``, ``_images/...``, ``book/intro.html#section``).
    At the root the styles and images load, and the links to the page itself
    become plain ``#section`` anchors, which the PDF keeps as internal links.
    """
    site = Path(site).resolve()
    page = landing_page(site)
    own = page.relative_to(site).as_posix()
    text = page.read_text(encoding="utf-8")
    text = text.replace(f'href="{own}#', 'href="#').replace(f'href="{own}"', 'href="#"')
    copy = site / "print.html"
    copy.write_text(text, encoding="utf-8")
    return copy


def print_pdf(site, pdf, chromium):
    from playwright.sync_api import sync_playwright

    pdf = Path(pdf)
    pdf.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"])
        page = browser.new_page()
        page.route(lambda url: is_outside(url), lambda route: route.abort())
        page.goto(printable_copy(site).as_uri(), wait_until="load", timeout=300_000)
        page.add_style_tag(content=PDF_CSS)
        page.emulate_media(media="print")
        # Load every image now (lazy ones too) and wait for the fonts.
        page.evaluate("""async () => {
            for (const img of document.images) img.loading = "eager";
            await Promise.all([...document.images].map(i => i.decode().catch(() => null)));
            await document.fonts.ready;
        }""")
        page.pdf(path=str(pdf), format="A4", print_background=True, outline=True, tagged=True,
                 display_header_footer=True, header_template="<span></span>",
                 footer_template=FOOTER, prefer_css_page_size=True)
        browser.close()
    return pdf


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    chromium = find_chromium()
    if chromium is None:
        print("make pdf prints the book with Chromium, which is not installed: "
              "sudo apt-get install -y chromium", file=sys.stderr)
        return 1
    out = print_pdf(argv[0], argv[1], chromium)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
