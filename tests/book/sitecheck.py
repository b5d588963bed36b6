"""What the site's tests share: the built site, its pages in the book's
order, and small parsers of a built page (what it loads, its ids, images,
links and text).

The tests of the built book are split along the jobs of the book's
extensions (``book/_ext/``): ``test_site_assets`` (what a page loads, the
layout, print), ``test_site_math``, ``test_site_search``,
``test_site_exercises``, ``test_site_a11y`` (markup, figures),
``test_site_pages`` (descriptions, the front door, the buttons),
``test_site_contents``, ``test_site_numbers``, ``test_site_bibstyle``,
``test_site_icons``, ``test_site_previews``; the real-browser visit of every page in
``test_site_visit``, a phone's visits in ``test_site_phone``; axe-core in
``test_accessibility``, the PDF in ``test_pdf``, the interactive figures in
``test_widgets``.

The site is ``make book``'s (built once per session by the ``built_book``
fixture of ``conftest.py``); set ``POSENC_CHECK_SITE=/path/to/html`` to
check a site built elsewhere instead, for example an older build, to see
which checks it fails.
"""

from __future__ import annotations

import os
import re
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from tools.paths import ROOT, toc_files


CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())


TIMEOUT = 180_000  # ms that a browser step may take: a loaded, shared machine is slow


@pytest.fixture(scope="module")
def site(request):
    """The built site: ``make book``'s, or the folder POSENC_CHECK_SITE names."""
    other = os.environ.get("POSENC_CHECK_SITE")
    if other:
        return Path(other).resolve()
    return request.getfixturevalue("built_book").resolve()


def toc_pages(html):
    """The HTML page of every file _toc.yml lists, in the book's order."""
    return [Path(html).resolve() / (name + ".html") for name in toc_files()]


def chapter_pages(html):
    """The pages made from notebooks (chapters and appendices), in the book's order."""
    return [Path(html).resolve() / (name + ".html") for name in toc_files()
            if (ROOT / (name + ".ipynb")).is_file()]


def site_pages(html):
    """Every HTML page of the built site (not the theme's templates in _static)."""
    return sorted(p for p in html.rglob("*.html") if "_static" not in p.relative_to(html).parts)


def file_url(path):
    return Path(path).resolve().as_uri()


def url_path(url):
    """The local file a file:// URL names, without query or fragment."""
    return Path(urllib.request.url2pathname(urllib.parse.urlsplit(url).path))


class Loads(HTMLParser):
    """Collect every URL that a page makes the browser load by itself.

    ``src``/``srcset``/``poster``/``data`` of any element, ``href`` of
    ``<link>`` (stylesheets, preloads, icons), ``url(...)`` in inline styles,
    and the target of a ``<meta http-equiv="refresh">``. Ordinary ``<a href>``
    links are not loads: following one is the reader's choice.
    """

    def __init__(self):
        super().__init__()
        self.urls = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("src", "poster", "data"):
            if attrs.get(name):
                self.urls.append((tag, attrs[name]))
        if attrs.get("srcset"):
            for candidate in attrs["srcset"].split(","):
                if candidate.strip():
                    self.urls.append((tag, candidate.split()[0]))
        if tag == "link" and attrs.get("href"):
            self.urls.append((tag, attrs["href"]))
        if tag == "meta" and (attrs.get("http-equiv") or "").lower() == "refresh":
            target = re.search(r"url=(.*)", attrs.get("content") or "", re.I)
            if target:
                self.urls.append((tag, target.group(1).strip("'\" ")))
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", attrs.get("style") or ""):
            self.urls.append((tag, url))
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            for url in re.findall(r"url\(\s*['\"]?([^'\")]+)|@import\s+['\"]([^'\"]+)", data):
                self.urls.append(("style", url[0] or url[1]))


def page_loads(path):
    parser = Loads()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.urls


def css_urls(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    found = re.findall(r"url\(\s*['\"]?([^'\")]+)|@import\s+(?:url\()?['\"]?([^'\")\s;]+)", text)
    return [a or b for a, b in found]


class Page(HTMLParser):
    """Ids, images (with alt and whether inside a numbered figure), links, and
    the text of a built page, from its HTML file."""

    def __init__(self):
        super().__init__()
        self.ids, self.images, self.links, self.text = [], [], [], []
        self.toggles = {"primary-toggle": 0, "secondary-toggle": 0}
        self.header_band = False
        self._figure = None
        self._link = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if attrs.get("id"):
            self.ids.append(attrs["id"])
        if attrs.get("id") == "pst-header" and "hidden" not in attrs:
            self.header_band = True
        for name in self.toggles:
            if name in classes:
                self.toggles[name] += 1
        if tag == "figure":
            self._figure = {"number": None}
        if tag == "span" and "caption-number" in classes and self._figure is not None:
            self._figure["number"] = ""
        if tag == "img":
            self.images.append({"src": attrs.get("src", ""), "alt": attrs.get("alt") or "",
                                "figure": self._figure})
        if tag == "a":
            self._link = {"href": attrs.get("href", ""), "classes": classes, "text": ""}
            self.links.append(self._link)

    def handle_endtag(self, tag):
        if tag == "figure":
            self._figure = None
        if tag == "a":
            self._link = None

    def handle_data(self, data):
        self.text.append(data)
        if self._link is not None:
            self._link["text"] += data
        if self._figure is not None and self._figure["number"] == "":
            self._figure["number"] = data.strip()


def parse_page(path):
    parser = Page()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    parser.text = "".join(parser.text)
    return parser


def page_head(path):
    """The HTML of a page up to its </head>."""
    text = path.read_text(encoding="utf-8")
    return text[:text.find("</head>")] if "</head>" in text else text


def first_chapter_with_solutions(html):
    """The first chapter (in the book's order) that has solutions."""
    for page in chapter_pages(html):
        if 'class="solution' in page.read_text(encoding="utf-8"):
            return page
    pytest.fail("no chapter has solutions")
