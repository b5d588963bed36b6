"""Print the whole book to one PDF, without TeX: ``make pdf``.

``make pdf`` first builds Jupyter Book's single-page HTML
(``_build/singlehtml``: every page of _toc.yml in order, chapter numbers
kept, cross-references turned into links within the page, math typeset at
build time). This script opens it in headless Chromium (the system's
Chromium, driven by the pinned playwright package, as in the browser checks
of ``tests/book/``) with every request to another host blocked, and prints it
with the print stylesheet (``static/posenc-site.css``: code wrapped, a code
cell kept whole when it fits on a page, its output on the page of its code,
solutions open with their code in a smaller type that fits their box,
captions in the text's colour) and the rules below. Then, with pypdf:

* page 1: a title page (title and author from ``_config.yml``, the version
  from ``pyproject.toml`` with the commit, the date of that commit);
* the contents: every part, chapter and section, each a link to where it
  starts, with its page number;
* each page of the table of contents starts on a new sheet;
* running heads: the chapter's title and the page number at the top of every
  page but the title page, the contents and a chapter's first page (those
  have the number at the foot);
* internal links work (Chromium turns links to anchors of the same document
  into links within the PDF); figures are not links (in the HTML each opens
  its image file, a path on the machine that built the PDF);
* the outline (bookmarks) is built from the book's headings: the parts at
  the top level, their chapters beneath, each chapter's sections beneath it,
  titles as printed (formulas as text, "2.9. Scaling the embeddings by
  √d_model"), each pointing where its heading is.

The page numbers, running heads and bookmarks come from where Chromium put
each heading: every contents entry links to its heading, so the PDF has a
named destination (page and height) for each.

Usage: ``python -m tools.make_pdf _build/singlehtml _build/pdf/book.pdf``
"""

from __future__ import annotations

import datetime
import html
import re
import subprocess
import sys
import tomllib
import urllib.parse
from pathlib import Path

import yaml

from tools.headless import find_chromium, is_outside
from tools.paths import ROOT, toc, toc_docs

# Print-only additions for the single-page book (the site's own print rules
# are in static/posenc-site.css).
MARGIN = {"top": 18, "right": 14, "bottom": 18, "left": 14}  # mm
PDF_CSS = """
@page { size: A4; margin: %(top)smm %(right)smm %(bottom)smm %(left)smm; }
@media print {
  /* the title page, the contents, then every page of the book on a new sheet */
  /* the title page replaces the print header's title, and the first page
     of the book keeps its heading (the theme hides it behind that title) */
  #jb-print-docs-body > h1 { display: none; }
  .bd-main .bd-content .bd-article h1:first-of-type { display: block !important; }
  #posenc-title-page { break-after: page; text-align: center; padding-top: 28%%; }
  #posenc-title-page .title { font-size: 28pt; font-weight: 700; margin-bottom: 1.2em;
                              line-height: 1.2; }
  #posenc-title-page .author { font-size: 14pt; margin-bottom: 5em; }
  #posenc-title-page .version, #posenc-title-page .date { font-size: 11pt; color: #222;
                                                          margin: 0.3em 0; }
  #jb-print-docs-body { break-after: page; }
  #jb-print-toc h2 { font-size: 20pt; margin-bottom: 0.8em; }
  #posenc-contents, #posenc-contents ul { list-style: none; padding-left: 0; margin: 0; }
  #posenc-contents ul ul { padding-left: 2.2em; }
  #posenc-contents a { display: block; text-decoration: none; color: #111;
                       /* room on the right for the page number */
                       padding-right: 3em; line-height: 1.5; }
  #posenc-contents .part > .entry { font-weight: 700; font-size: 12pt; margin-top: 0.9em; }
  #posenc-contents .chapter > a { font-weight: 600; margin-top: 0.35em; }
  #posenc-contents .section > a { font-size: 9.5pt; color: #333; }
  #posenc-contents a, #posenc-contents .entry { break-inside: avoid; }
  #posenc-contents .part > .entry, #posenc-contents .chapter > a { break-after: avoid; }
  span[id^="document-"] { display: block; break-before: page; }
  body, .bd-main .bd-content .bd-article-container { font-size: 10.5pt; }
  /* the text uses the whole width of the paper */
  .bd-sidebar-primary, .bd-sidebar-secondary, .prev-next-footer { display: none !important; }
  .bd-container, .bd-container__inner, .bd-page-width, .bd-main, .bd-content,
  .bd-article-container, .bd-article {
    max-width: none !important; width: 100%% !important; padding-left: 0 !important;
    padding-right: 0 !important; margin-left: 0 !important; margin-right: 0 !important; }
  /* A code cell taller than half a page (marked by TALL_JS, below) breaks
     between its lines, two or more on each side: kept whole, a cell 77%% or 90%%
     of a page tall moved to the next page and left most of a page blank.
     Shorter cells stay whole (static/posenc-site.css). */
  div.cell_input.posenc-tall { break-inside: auto !important; }
  div.cell_input.posenc-tall pre { orphans: 2; widows: 2; }
}
""" % MARGIN

# Half the height of a page's text area, in CSS pixels (96 per inch): a code
# cell taller than this may break across pages.
HALF_PAGE = (297 - MARGIN["top"] - MARGIN["bottom"]) / 25.4 * 96 / 2
TALL_JS = """(limit) => {
    for (const cell of document.querySelectorAll("div.cell_input")) {
        if (cell.getBoundingClientRect().height > limit) cell.classList.add("posenc-tall");
    }
}"""

# Runs in the printed page before it is printed: the title page, the
# contents (parts, chapters, sections: what the outline shows too), figures
# unlinked. Returns the contents as a list of entries.
PREPARE_JS = r"""({facts, parts, root}) => {
    const text = (heading) => {
        const copy = heading.cloneNode(true);
        copy.querySelectorAll(".headerlink").forEach(n => n.remove());
        copy.querySelectorAll("span.math").forEach(m => {
            m.replaceWith(document.createTextNode(m.dataset.text || m.textContent)); });
        return copy.textContent.replace(/\s+/g, " ").trim();
    };
    const headingOf = (section) => section && section.querySelector(":scope > h1, :scope > h2, "
        + ":scope > h3, :scope > h4, :scope > h5, :scope > h6");
    // A page of the book: the <section> after its <span id="document-...">;
    // the root page has no such span and comes first.
    const chapterSection = (doc) => {
        if (doc === root) return document.querySelector(".bd-article > section, article section");
        const span = document.getElementById("document-" + doc);
        return span && span.nextElementSibling;
    };
    // Section ids repeat from page to page ("exercises", "key-takeaways"):
    // each heading that the contents and the outline point to gets one of its own.
    let count = 0;
    const anchorOf = (heading) => {
        if (!heading.id) heading.id = "posenc-heading-" + (++count);
        return heading.id;
    };
    const entries = [];
    const addChapter = (doc, part) => {
        const section = chapterSection(doc);
        const heading = headingOf(section);
        if (!heading) return null;
        entries.push({kind: "chapter", doc, part, id: anchorOf(heading), text: text(heading)});
        for (const sub of section.querySelectorAll(":scope > section")) {
            const h = headingOf(sub);
            if (h) entries.push({kind: "section", doc, part, id: anchorOf(h), text: text(h)});
        }
        return heading.id;
    };
    addChapter(root, null);
    parts.forEach((part, i) => {
        const entry = {kind: "part", part: i, text: part.caption, id: null};
        entries.push(entry);
        for (const doc of part.docs) {
            const id = addChapter(doc, i);
            entry.id = entry.id || id;  // a part starts where its first chapter does
        }
    });

    // The title page, in place of the print header's bare <h1>.
    const body = document.getElementById("jb-print-docs-body");
    const title = document.createElement("div");
    title.id = "posenc-title-page";
    for (const [cls, value] of [["title", facts.title], ["author", facts.author],
                                ["version", facts.version], ["date", facts.date]]) {
        const p = document.createElement("p");
        p.className = cls;
        p.textContent = value;
        title.appendChild(p);
    }
    body.parentNode.insertBefore(title, body);

    // The contents: the theme's list names the chapters only.
    const nav = document.querySelector("#jb-print-toc nav");
    const list = document.createElement("ul");
    list.id = "posenc-contents";
    let partList = list, chapterList = null;
    for (const entry of entries) {
        const li = document.createElement("li");
        li.className = entry.kind;
        const a = document.createElement(entry.kind === "part" ? "div" : "a");
        if (entry.kind !== "part") a.href = "#" + entry.id;
        a.className = "entry";
        a.textContent = entry.text;
        li.appendChild(a);
        if (entry.kind === "part") {
            list.appendChild(li);
            partList = document.createElement("ul");
            li.appendChild(partList);
        } else if (entry.kind === "chapter") {
            (entry.part === null ? list : partList).appendChild(li);
            chapterList = document.createElement("ul");
            li.appendChild(chapterList);
        } else {
            chapterList.appendChild(li);
        }
    }
    nav.replaceChildren(list);

    // Figures link to their image file in the HTML: a dead file:// path on paper.
    document.querySelectorAll("a.image-reference").forEach(a => a.replaceWith(...a.childNodes));
    return entries;
}"""

OVERLAY_CSS = """
@page { size: %(w)spt %(h)spt; margin: 0; }
html, body { margin: 0; padding: 0; }
body { font-family: "DejaVu Sans", "Liberation Sans", sans-serif; color: #333; }
.sheet { position: relative; width: %(w)spt; height: %(h)spt; break-after: page;
         overflow: hidden; }
.head { position: absolute; left: %(left)smm; right: %(right)smm; top: 9mm; font-size: 8.5pt;
        display: flex; justify-content: space-between; border-bottom: 0.5pt solid #999;
        padding-bottom: 1.5pt; }
.head .chapter { font-style: italic; overflow: hidden; white-space: nowrap;
                 text-overflow: ellipsis; padding-right: 2em; }
.foot { position: absolute; left: 0; right: 0; bottom: 9mm; text-align: center; font-size: 8.5pt; }
.toc { position: absolute; right: %(right)smm; font-size: 10pt; color: #111;
       font-family: inherit; text-align: right; display: flex; align-items: center; }
"""

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


# --- what the title page says, and the parts ------------------------------


def _git(*args):
    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def book_facts():
    """Title, author, version and date for the title page.

    The version is posenc's (pyproject.toml) with the commit it was built
    from; the date is that commit's, so printing the same commit twice gives
    the same title page.
    """
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    commit = _git("rev-parse", "--short", "HEAD")
    date = _git("log", "-1", "--format=%cs") or datetime.date.today().isoformat()
    version = f"Version {project['version']}" + (f" (commit {commit})" if commit else "")
    return {"title": config.get("title", ""), "author": config.get("author", ""),
            "version": version, "date": date}


def toc_parts():
    """The root page and the parts of _toc.yml: ``(root, [{caption, docs}])``."""
    contents = toc()
    parts = [{"caption": part.get("caption", ""), "docs": toc_docs(part.get("chapters"))}
             for part in contents.get("parts", [])]
    return contents["root"], parts


# --- after printing: destinations, page numbers, heads, outline -----------


def destinations(reader):
    """{anchor id: (page index, top in points)} of the PDF's named destinations."""
    found = {}
    for name, dest in reader.named_destinations.items():
        try:
            page = reader.get_destination_page_number(dest)
        except Exception:  # noqa: BLE001  (a destination without a page)
            continue
        key = urllib.parse.unquote(str(name).lstrip("/"))
        top = dest.get("/Top")
        found[key] = (page, float(top) if top is not None else None)
    return found


def place_entries(entries, dests):
    """Each entry with the page (0-based) and height its heading is at.

    Every entry is linked from the contents, so Chromium wrote a named
    destination for each; one missing is an error, not a bookmark to page 1.
    """
    placed = []
    for entry in entries:
        if entry["id"] not in dests:
            raise RuntimeError(f"no destination in the PDF for {entry['kind']} {entry['text']!r} "
                               f"(#{entry['id']})")
        page, top = dests[entry["id"]]
        placed.append({**entry, "page": page, "top": top})
    return placed


def contents_links(reader, dests, last_contents_page):
    """(page index, rect, target page index) of each link on the contents pages."""
    links = []
    for index in range(last_contents_page + 1):
        for annot in reader.pages[index].get("/Annots") or []:
            annot = annot.get_object()
            name = annot.get("/Dest")
            if name is None and annot.get("/A") is not None:
                name = annot["/A"].get("/D")
            if isinstance(name, str) or hasattr(name, "lstrip"):
                key = urllib.parse.unquote(str(name).lstrip("/"))
                if key in dests:
                    links.append((index, [float(x) for x in annot["/Rect"]], dests[key][0]))
    return links


def overlay_html(n_pages, size, chapters, first_pages, contents_pages, toc_numbers):
    """One sheet per page of the book: its running head or foot, and on the
    contents pages the page number of each entry.

    ``chapters`` maps each page to the title of the chapter it belongs to (or
    None); ``first_pages`` are the pages that open a chapter; ``toc_numbers``
    lists ``(page, rect, number)`` for the contents.
    """
    width, height = size
    css = OVERLAY_CSS % {"w": width, "h": height, **MARGIN}
    sheets = []
    by_page = {}
    for page, rect, number in toc_numbers:
        by_page.setdefault(page, []).append((rect, number))
    for index in range(n_pages):
        number = index + 1
        parts = []
        if index == 0:
            pass  # the title page has no number
        elif index in contents_pages or index in first_pages or not chapters.get(index):
            parts.append(f'<div class="foot">{number}</div>')
        else:
            parts.append(f'<div class="head"><span class="chapter">{html.escape(chapters[index])}'
                         f'</span><span class="number">{number}</span></div>')
        for rect, target in by_page.get(index, []):
            x0, y0, x1, y1 = rect
            parts.append(f'<div class="toc" style="top: {height - y1:.2f}pt; '
                         f'height: {y1 - y0:.2f}pt">{target + 1}</div>')
        sheets.append(f'<div class="sheet">{"".join(parts)}</div>')
    return f"<!DOCTYPE html><html><head><style>{css}</style></head><body>{''.join(sheets)}</body></html>"


def running_heads(placed, n_pages):
    """{page: chapter title} for every page of a chapter, and the set of first pages."""
    chapters = sorted((e for e in placed if e["kind"] == "chapter"), key=lambda e: e["page"])
    heads, firsts = {}, set()
    for i, chapter in enumerate(chapters):
        end = chapters[i + 1]["page"] if i + 1 < len(chapters) else n_pages
        firsts.add(chapter["page"])
        for page in range(chapter["page"], end):
            heads[page] = chapter["text"]
    return heads, firsts


def add_outline(writer, placed, contents_page):
    """Bookmarks: Contents; the root page; each part, its chapters, their sections."""
    from pypdf.generic import Fit

    def fit(entry):
        return Fit.xyz(left=0, top=entry["top"], zoom=0) if entry.get("top") is not None else Fit.fit()

    writer.add_outline_item(title="Contents", page_number=contents_page, fit=Fit.fit())
    part_item = chapter_item = None
    for entry in placed:
        if entry["kind"] == "part":
            part_item = writer.add_outline_item(title=entry["text"], page_number=entry["page"],
                                                fit=fit(entry))
        elif entry["kind"] == "chapter":
            parent = part_item if entry.get("part") is not None else None
            chapter_item = writer.add_outline_item(title=entry["text"], page_number=entry["page"],
                                                   parent=parent,
                                                   fit=fit(entry))
        else:
            writer.add_outline_item(title=entry["text"], page_number=entry["page"],
                                    parent=chapter_item, fit=fit(entry))
    writer.page_mode = "/UseOutlines"


def finish(raw_pdf, overlay_pdf, placed, facts, out):
    """The printed book with the overlay merged onto each page and the outline."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(raw_pdf))
    overlay = PdfReader(overlay_pdf)
    for page, sheet in zip(writer.pages, overlay.pages):
        page.merge_page(sheet, over=True)
        page.compress_content_streams()  # merging wrote the page's content uncompressed
    add_outline(writer, placed, contents_page=1)
    writer.add_metadata({"/Title": facts["title"], "/Author": facts["author"],
                         "/Subject": f"{facts['version']}, {facts['date']}"})
    with open(out, "wb") as handle:
        writer.write(handle)


def print_pdf(site, pdf, chromium):
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader

    pdf = Path(pdf)
    pdf.parent.mkdir(parents=True, exist_ok=True)
    raw, layer = pdf.with_suffix(".raw.pdf"), pdf.with_suffix(".overlay.pdf")
    facts = book_facts()
    root, parts = toc_parts()
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
        entries = page.evaluate(PREPARE_JS, {"facts": facts, "parts": parts, "root": root})
        page.evaluate(TALL_JS, HALF_PAGE)
        # Load every image now (lazy ones too) and wait for the fonts.
        page.evaluate("""async () => {
            for (const img of document.images) img.loading = "eager";
            await Promise.all([...document.images].map(i => i.decode().catch(() => null)));
            await document.fonts.ready;
        }""")
        page.pdf(path=str(raw), format="A4", print_background=True, outline=False, tagged=True,
                 display_header_footer=False, prefer_css_page_size=True)
        reader = PdfReader(raw)
        dests = destinations(reader)
        placed = place_entries(entries, dests)
        first_chapter = min(e["page"] for e in placed if e["kind"] == "chapter")
        contents_pages = set(range(1, first_chapter))
        heads, firsts = running_heads(placed, len(reader.pages))
        box = reader.pages[0].mediabox
        sheet = overlay_html(len(reader.pages), (float(box.width), float(box.height)), heads, firsts,
                             contents_pages,
                             contents_links(reader, dests, max(contents_pages, default=0)))
        overlay = browser.new_page()
        overlay.set_content(sheet, wait_until="load")
        overlay.pdf(path=str(layer), print_background=False, prefer_css_page_size=True)
        browser.close()
    finish(raw, layer, placed, facts, pdf)
    raw.unlink()
    layer.unlink()
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
