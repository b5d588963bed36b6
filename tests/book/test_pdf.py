"""``make pdf``'s PDF, read back as a reader meets it.

The PDF is made once per session by ``make pdf`` (after the HTML build of
the ``built_book`` fixture). ``pdftotext`` reads its text, pypdf its links and
outline; ``pdftoppm`` renders its pages (both Debian's poppler-utils,
installed by ``.ci/run``), as a reader sees them, for the checks of the
printed layout: no code box without code, no page left mostly blank in the
middle of a chapter.

Checked: the whole book, chapters in order, each chapter's printed numbers in
its pages; a title page with author, version and date; contents with every
part, chapter and section, each a link, with the page it starts on; running
heads; bookmarks built from the headings (parts, chapters beneath, sections
beneath them, no doubled or run-together titles, each on its heading's
page); no link to a file on the machine that built the PDF; solution code
lines printed whole (no 79-character line wrapped in the narrower solution
box); a cell's output on the page of its input.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
import unicodedata

import nbformat
import numpy as np
import pytest
import yaml
from PIL import Image, ImageDraw

from tools.headless import find_chromium
from tools.paths import ROOT, toc_files

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
TOC = yaml.safe_load((ROOT / "_toc.yml").read_text())
RENDER_DPI = 36
INSTALL_HINT = "sudo apt-get update && sudo apt-get install -y chromium poppler-utils"


def require(tool, found):
    if not found:
        message = f"{tool} is not installed, so the PDF cannot be made or read: {INSTALL_HINT}"
        if os.environ.get("POSENC_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (POSENC_REQUIRE_BROWSER=1 makes this an error)", pytrace=False)
        pytest.skip(message)


def chapter_titles():
    """(number, title, notebook) of each numbered chapter, from its first heading."""
    titles = []
    for part in TOC.get("parts", []):
        if not part.get("numbered"):
            continue
        for entry in part.get("chapters", []):
            nb = nbformat.read(ROOT / (entry["file"] + ".ipynb"), as_version=4)
            heading = next(c.source for c in nb.cells if c.cell_type == "markdown")
            titles.append((len(titles) + 1, heading.strip().splitlines()[0].lstrip("# ").strip(),
                           ROOT / (entry["file"] + ".ipynb")))
    return titles


def printed_number(path):
    """A number that the notebook prints: the first decimal with 4 or more
    decimals, not all zero (``0.8415``, ``-1.2654``), in its stored outputs;
    failing that, the first with 3 (a chapter of accuracies: ``0.748``)."""
    nb = nbformat.read(path, as_version=4)
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            text = out.get("text") or out.get("data", {}).get("text/plain", "")
            texts.append(text if isinstance(text, str) else "".join(text))
    for decimals in (r"\d{4,}", r"\d{3}\b"):
        for text in texts:
            for found in re.finditer(r"-?\d+\." + decimals, text):
                if re.search(r"[1-9]", found.group(0)):
                    return found.group(0)
    return None


@pytest.fixture(scope="module")
def book_pdf(request):
    """_build/pdf/book.pdf, made by ``make pdf`` (after the HTML build)."""
    require("Chromium", find_chromium())
    request.getfixturevalue("built_book")
    result = subprocess.run(["make", "--no-print-directory", "pdf"], cwd=ROOT,
                            capture_output=True, text=True)
    log = (result.stdout + result.stderr)[-4000:]
    assert result.returncode == 0, f"`make pdf` failed:\n{log}"
    pdf = ROOT / "_build" / "pdf" / "book.pdf"
    assert pdf.is_file() and pdf.stat().st_size > 100_000, f"no PDF written:\n{log}"
    return pdf


@pytest.fixture(scope="module")
def reader(book_pdf):
    from pypdf import PdfReader

    return PdfReader(book_pdf)


@pytest.fixture(scope="module")
def extracted(book_pdf, reader):
    """Each page's text as poppler's ``pdftotext -raw`` reads it, in the order
    the page draws it (so a running head, drawn over the page, comes last),
    read once for ``texts`` and ``lines``. (pypdf's ``extract_text`` took
    25 s over this book's 489 pages, pdftotext 1.4 s.)"""
    require("pdftotext", shutil.which("pdftotext"))
    text = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(book_pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")  # pdftotext ends every page with a form feed
    assert pages[-1] == "" and len(pages) - 1 == len(reader.pages), (
        f"pdftotext read {len(pages) - 1} pages, pypdf {len(reader.pages)}")
    return pages[:-1]


@pytest.fixture(scope="module")
def texts(extracted):
    """Each page's text, whitespace squeezed to single spaces, ligatures
    (ﬁ, ﬀ) as their letters."""
    return [re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)) for text in extracted]


@pytest.fixture(scope="module")
def lines(extracted):
    """Each page's lines of text, each squeezed like ``texts``."""
    return [[squeezed(line) for line in text.splitlines()] for text in extracted]


def squeezed(text):
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def chapter_notebooks():
    """Every notebook of _toc.yml (chapters and appendices), in order."""
    return [ROOT / (name + ".ipynb") for name in toc_files() if (ROOT / (name + ".ipynb")).is_file()]


def code_lines(source):
    """A code cell's lines as the book prints them (the solution markers are
    left out)."""
    return [line for line in source.rstrip().splitlines()
            if line.strip() not in ("# BEGIN SOLUTION", "# END SOLUTION")]


def outline(reader):
    """The bookmarks as (depth, title, page index), in order."""
    items = []

    def walk(entries, depth):
        for entry in entries:
            if isinstance(entry, list):
                walk(entry, depth + 1)
            else:
                items.append((depth, entry.title, reader.get_destination_page_number(entry)))

    walk(reader.outline, 0)
    return items


def chapter_starts(texts):
    """Page index where each numbered chapter starts (its heading opens the page)."""
    starts = []
    for number, title, _ in chapter_titles():
        heading = f"{number}. {title}"
        where = [i for i, p in enumerate(texts) if i > 1 and p.lstrip().startswith(heading)]
        assert where, f"no page starts with the chapter heading {heading!r}"
        starts.append(where[0])
    return starts


def contents_pages(reader, texts):
    """Indices of the contents pages: from the page titled Contents to the last
    before the book's first page."""
    first = next(i for i, t in enumerate(texts) if t.lstrip().startswith("Contents"))
    book = min(page for depth, _, page in outline(reader) if depth == 0 and page > first)
    return list(range(first, book))


def test_pdf_has_every_chapter_in_order_with_its_numbers(texts):
    squeezed = [re.sub(r"\s+", "", p) for p in texts]
    starts = chapter_starts(texts)
    assert starts == sorted(starts), f"chapters out of order: pages {starts}"
    bounds = starts + [len(texts)]
    for (number, title, nb), begin, end in zip(chapter_titles(), bounds, bounds[1:]):
        value = printed_number(nb)
        assert value, f"{nb.name} prints no decimal number to look for"
        assert any(value in squeezed[i] for i in range(begin, end)), (
            f"chapter {number}: the printed number {value} is not in its pages {begin + 1}-{end}")


def test_pdf_title_page_names_the_book_author_version_and_date(texts):
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    page = texts[0]
    assert CONFIG["title"] in page, page
    assert CONFIG["author"] in page, page
    assert f"Version {version}" in page, page
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", page), f"no date on the title page: {page!r}"
    assert len(page) < 300, "the title page holds more than the title page"


def test_pdf_contents_list_every_chapter_with_its_page(book_pdf, reader, texts):
    """Every numbered chapter is on the contents pages with the page it starts
    on (pdftotext -layout keeps an entry and its number on one line), and the
    entries are links within the PDF."""
    require("pdftotext", shutil.which("pdftotext"))
    pages = contents_pages(reader, texts)
    layout = subprocess.run(["pdftotext", "-layout", "-f", str(pages[0] + 1), "-l", str(pages[-1] + 1),
                             str(book_pdf), "-"], capture_output=True, text=True, check=True).stdout
    lines = [re.sub(r"\s+", " ", line).strip() for line in layout.splitlines()]
    for (number, title, _), start in zip(chapter_titles(), chapter_starts(texts)):
        heading = f"{number}. {title}"
        listed = [line for line in lines if line.startswith(heading)]
        assert listed, f"the contents do not list {heading!r}"
        assert listed[0].endswith(f" {start + 1}"), (
            f"contents: {listed[0]!r}, but the chapter starts on page {start + 1}")
    internal = 0
    for index in pages:
        for annot in reader.pages[index].get("/Annots") or []:
            annot = annot.get_object()
            action = annot.get("/A")
            if "/Dest" in annot or (action is not None and action.get("/S") == "/GoTo"):
                internal += 1
    assert internal >= 3 * len(chapter_titles()), f"only {internal} links on the contents pages"


def test_pdf_pages_have_running_heads(reader, texts):
    """Every page of a chapter after its first carries the chapter's title and
    the page number (the heads are drawn over the page: their text comes last)."""
    starts = chapter_starts(texts)
    openings = sorted({page for depth, _, page in outline(reader) if depth <= 1} | {len(texts)})
    missing = []
    for (number, title, _), begin in zip(chapter_titles(), starts):
        end = next(page for page in openings if page > begin)
        for index in range(begin + 1, end):
            if not texts[index].rstrip().endswith(f"{number}. {title} {index + 1}"):
                missing.append(f"page {index + 1}: ...{texts[index][-60:]!r}")
    assert not missing, f"{len(missing)} pages without their running head:\n" + "\n".join(missing[:10])


DOUBLED = re.compile(r"^(\d+(?:\.\d+)*\.) \1|(.{12,})\2")


def test_doubled_title_pattern():
    assert DOUBLED.search("1.3. 1.3. Self-attention cannot see orderSelf-attention cannot see order")
    assert DOUBLED.search("Prerequisites" + "Prerequisites")
    assert not DOUBLED.search("1.3. Self-attention cannot see order")


def test_pdf_outline_is_built_from_the_headings(reader, texts):
    """Bookmarks: the parts of _toc.yml at the top level, each with its chapters
    beneath, each chapter with its sections; every title as printed (no doubled
    or run-together text, no formula lost), on the page of its heading."""
    items = outline(reader)
    assert items, "the PDF has no outline (bookmarks)"
    top = [title for depth, title, _ in items if depth == 0]
    captions = [part["caption"] for part in TOC["parts"]]
    assert top[-len(captions):] == captions, top
    assert "Contents" in top
    problems = []
    numbered = {f"{n}. {t}" for n, t, _ in chapter_titles()}
    seen_chapters = []
    for k, (depth, title, page) in enumerate(items):
        if DOUBLED.search(title):
            problems.append(f"doubled: {title!r}")
        if depth == 1 and title in numbered:
            seen_chapters.append(title)
            parent = next(t for d, t, _ in reversed(items[:k]) if d == 0)
            if parent not in captions[:2]:
                problems.append(f"{title!r} is under {parent!r}")
            sections = [t for d, t, _ in items[k + 1:k + 40] if d == 2]
            number = title.split(".")[0]
            if len(sections) < 3 or not all(s.startswith(number + ".") for s in sections[:3]):
                problems.append(f"{title!r} lacks its sections beneath it: {sections[:3]}")
        words = re.findall(r"[A-Za-z]{3,}", title)
        page_words = set(re.findall(r"[A-Za-z]{3,}", texts[page]))
        lost = [w for w in words if w not in page_words]
        if depth > 0 and lost:
            problems.append(f"{title!r} (page {page + 1}): {lost} not on that page")
    assert seen_chapters == [f"{n}. {t}" for n, t, _ in chapter_titles()], seen_chapters
    for depth, title, page in items:
        if depth == 0 and title in captions:
            first = next(p for d, t, p in items[items.index((depth, title, page)) + 1:] if d == 1)
            if page != first:
                problems.append(f"part {title!r} points to page {page + 1}, its first chapter "
                                f"to page {first + 1}")
    assert any("√" in t for _, t, _ in items), "a heading's formula is missing from the bookmarks"
    assert not problems, "\n".join(problems)


def test_pdf_links_stay_inside_the_book(reader):
    """No link to a file on the machine that built the PDF (figures linked to
    file:///.../_build/singlehtml/_images/... before)."""
    bad = []
    for index, page in enumerate(reader.pages):
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A")
            uri = str(action.get("/URI", "")) if action is not None else ""
            if uri.startswith("file:") or "_build" in uri:
                bad.append(f"page {index + 1}: {uri}")
    assert not bad, f"{len(bad)} links to local files:\n" + "\n".join(bad[:10])


# --- the pages as rendered -------------------------------------------------

CODE_RULE_MIN_MM = 2.8  # shorter runs of the rule are a glyph, not a box
INK_LUMINANCE = 150


def code_boxes(image, dpi):
    """The code cells on a rendered page: ``(x, top, bottom, ink)`` for each run of
    the green rule that the theme draws down the left of a code cell, with the
    number of dark (text) pixels in the box to its right."""
    im = np.asarray(image.convert("RGB")).astype(int)
    h, w, _ = im.shape
    r, g, b = im[..., 0], im[..., 1], im[..., 2]
    green = (g >= 90) & (g <= 175) & (r < 100) & (b < 100) & (g - np.maximum(r, b) > 60)
    right_margin = int(dpi * 14 / 25.4)
    found, used = [], np.zeros_like(green)
    for x in np.flatnonzero(green.sum(axis=0) >= 3):
        y = 0
        while y < h:
            if green[y, x] and not used[y, x]:
                y0 = y
                while y < h and green[y, x]:
                    y += 1
                if (y - y0) * 25.4 / dpi >= CODE_RULE_MIN_MM:
                    used[y0:y, x:x + 3] = True
                    box = im[y0:y, x + 2:w - right_margin] @ np.array([0.299, 0.587, 0.114])
                    found.append((int(x), y0, y, int((box < INK_LUMINANCE).sum())))
            y += 1
    return found


def filled_fraction(image):
    """How far down the page its content reaches, between the running head and the foot."""
    im = np.asarray(image.convert("L")).astype(int)
    h = im.shape[0]
    top, bottom = int(h * 0.07), int(h * 0.93)
    rows = np.flatnonzero((im[top:bottom] < 250).any(axis=1))
    return (rows.max() + top) / h if len(rows) else 0.0


def test_code_box_finder_sees_an_empty_box():
    """On a drawn page: a code box with text, and one without (it can fail)."""
    dpi = RENDER_DPI
    page = Image.new("RGB", (298, 421), "white")
    draw = ImageDraw.Draw(page)
    for top, text in ((40, "x = 1"), (200, None)):
        draw.rectangle([22, top, 275, top + 60], fill=(247, 247, 247), outline=(219, 219, 219))
        draw.rectangle([20, top, 21, top + 60], fill=(0, 128, 0))
        if text:
            draw.text((30, top + 20), text, fill=(30, 30, 30))
    boxes = code_boxes(page, dpi)
    assert [(b[1], b[3] > 0) for b in boxes] == [(40, True), (200, False)], boxes


@pytest.fixture(scope="module")
def rendered(book_pdf, tmp_path_factory):
    """Every page of the PDF rendered by pdftoppm at 36 dpi (enough to see a box).

    The pages are written as PPM, pdftoppm's raw pixels: the same pixels as
    its PNG, without the two thirds of its CPU time that compressing them took."""
    require("pdftoppm", shutil.which("pdftoppm"))
    out = tmp_path_factory.mktemp("pages")
    subprocess.run(["pdftoppm", "-r", str(RENDER_DPI), str(book_pdf), str(out / "p")],
                   check=True, capture_output=True)
    pages = sorted(out.glob("p-*.ppm"))
    assert pages, "pdftoppm rendered no pages"
    return pages


def test_pdf_has_no_empty_code_box(rendered):
    """No code cell's box is on a page without its code (the theme's print rules
    moved the code of a cell near a page's foot to the next page, and left its
    box, empty, behind)."""
    empty, seen = [], 0
    for index, path in enumerate(rendered):
        for x, top, bottom, ink in code_boxes(Image.open(path), RENDER_DPI):
            seen += 1
            if ink == 0:
                empty.append(f"page {index + 1}: a box {(bottom - top) * 25.4 / RENDER_DPI:.0f} mm "
                             f"tall at {top * 25.4 / RENDER_DPI:.0f} mm from the top")
    assert seen > 100, f"only {seen} code boxes found: is the code cells' rule still green?"
    assert not empty, f"{len(empty)} code boxes without code:\n" + "\n".join(empty)


def test_pdf_has_no_mostly_blank_page_inside_a_chapter(reader, texts, rendered):
    """A page that is not a chapter's last nor part of the front matter is
    filled at least a quarter of the way down (a long table or box moved whole
    to the next page left 83% of a page blank)."""
    starts = {page for depth, _, page in outline(reader) if depth <= 1}
    front = set(contents_pages(reader, texts)) | {0}
    blank = []
    for index, path in enumerate(rendered):
        if index in front or index + 1 in starts or index == len(rendered) - 1:
            continue
        fraction = filled_fraction(Image.open(path))
        if fraction < 0.25:
            blank.append(f"page {index + 1}: content ends {fraction:.0%} of the way down")
    assert not blank, "\n".join(blank)


def test_printed_number_finder(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("print(1.5)", outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="1.5\n")]),
        nbformat.v4.new_code_cell("X", outputs=[nbformat.v4.new_output(
            "execute_result", data={"text/plain": "[[ 0.1257 -0.1321]]"}, execution_count=2)])])
    nbformat.write(nb, tmp_path / "nb.ipynb")
    assert printed_number(tmp_path / "nb.ipynb") == "0.1257"


# --- code as printed ---------------------------------------------------------

LONG_LINE = 72  # characters: about 73 fitted in a solution box at the code's size


def test_long_solution_lines_print_whole(lines):
    """Every solution code line longer than 72 characters is one line of the
    PDF: in the solution box, narrower than the text column, lines of 74 to
    79 characters wrapped mid-phrase until the box's code got a smaller type."""
    printed = {line for page in lines for line in page}
    long, wrapped = 0, []
    for nb_path in chapter_notebooks():
        for cell in nbformat.read(nb_path, as_version=4).cells:
            if cell.cell_type != "code" or not cell.metadata.get("nbgrader", {}).get("solution"):
                continue
            for line in code_lines(cell.source):
                if len(line) > LONG_LINE:
                    long += 1
                    if squeezed(line) not in printed:
                        wrapped.append(f"{nb_path.stem}: {line}")
    assert long >= 20, f"only {long} long solution lines found: are solutions still nbgrader cells?"
    assert not wrapped, f"{len(wrapped)} of {long} long solution lines wrapped:\n" + "\n".join(wrapped[:10])


CELL_FITS_LINES = 40  # a cell of input and text output this long fits on a page


def text_outputs(cell):
    """The text a code cell prints (stdout and plain-text results), or None
    when it also draws a figure."""
    texts = []
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if "image/png" in data or "text/html" in data:
            return None
        text = out.get("text") if out.get("output_type") == "stream" else data.get("text/plain")
        if text:
            texts.append(text if isinstance(text, str) else "".join(text))
    return "".join(texts) or None


def test_a_cells_output_prints_on_the_page_of_its_input(lines):
    """For each code cell that fits on a page and prints text: its last line
    of code and the first line it prints are on the same page (a single
    output line was cut off onto the next page from its assert). The lines
    are found by their text, so only cells whose two lines each occur once
    in the PDF are checked."""
    pages_of = {}
    for index, page in enumerate(lines):
        for line in page:
            pages_of.setdefault(line, []).append(index)
    checked, apart = 0, []
    for nb_path in chapter_notebooks():
        for cell in nbformat.read(nb_path, as_version=4).cells:
            output = text_outputs(cell) if cell.cell_type == "code" else None
            source = code_lines(cell.source) if output else []
            printed = [line for line in (output or "").splitlines() if line.strip()]
            if not source or not printed or len(source) + len(output.splitlines()) > CELL_FITS_LINES:
                continue
            last_in, first_out = squeezed(source[-1]), squeezed(printed[0])
            where_in, where_out = pages_of.get(last_in, []), pages_of.get(first_out, [])
            if len(last_in) < 4 or len(first_out) < 4 or len(where_in) != 1 or len(where_out) != 1:
                continue
            checked += 1
            if where_in != where_out:
                apart.append(f"{nb_path.stem}: {last_in[:50]!r} on page {where_in[0] + 1}, "
                             f"{first_out[:40]!r} on page {where_out[0] + 1}")
    assert checked >= 150, f"only {checked} cells could be found in the PDF"
    assert not apart, f"{len(apart)} of {checked} outputs apart from their input:\n" + "\n".join(apart[:10])
