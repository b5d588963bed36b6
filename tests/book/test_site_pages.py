"""What a page says about itself (``book/_ext/posenc_pages.py``), the front
door, the landing page, and the buttons ``_config.yml`` asks for."""

from __future__ import annotations

import os
import posixpath
import re
import urllib.parse

from tests.book.sitecheck import CONFIG, page_head, site, site_pages
from tools.paths import ROOT, toc_files


def test_landing_page_says_who_it_is_for_and_where_to_start(site):
    """Near the top of the landing page: one sentence on who the book is for and
    a "Start reading" link to the first page after it in the table of contents."""
    landing = site.resolve() / (toc_files()[0] + ".html")
    html = landing.read_text(encoding="utf-8")
    article = html[html.index('<article class="bd-article"'):]
    top = article[:article.index("<h2")] if "<h2" in article else article
    text = re.sub(r"<[^>]+>", "", top)
    assert re.search(r"This book is for [^.]{20,}\.", text), "no sentence on who the book is for"
    start = re.search(r'<a [^>]*href="([^"#]+)[^"]*"[^>]*>(?:<[^>]+>)*\s*Start reading', top)
    assert start, "no 'Start reading' link before the first section of the landing page"
    first = site.resolve() / (toc_files()[1] + ".html")
    assert (landing.parent / start.group(1)).resolve() == first


def test_every_page_has_one_viewport_tag_a_description_and_an_icon(site):
    """One viewport <meta> (there were three), a description of the page for
    search engines and link previews, and an icon that exists (a 404 before)."""
    problems = []
    for page in site_pages(site):
        head, name = page_head(page), page.relative_to(site).as_posix()
        viewports = re.findall(r'<meta name="viewport"', head)
        if len(viewports) != 1:
            problems.append(f"{name}: {len(viewports)} viewport tags")
        description = re.search(r'<meta name="description" content="([^"]*)"', head)
        if not description or len(description.group(1)) < 40:
            problems.append(f"{name}: no description of the page")
        icon = re.search(r'<link rel="(?:shortcut )?icon" href="([^"]+)"', head)
        if not icon or not (page.parent / icon.group(1)).resolve().is_file():
            problems.append(f"{name}: no icon, or its file is missing")
    assert not problems, "\n".join(problems)


def test_index_html_is_the_landing_page_itself(site):
    """The site's front door is the landing page, not a redirect to it (a
    redirect cost a phone 220-610 ms before anything showed, issue 42): its
    title, language and text, every relative link and asset re-pointed from
    the site's root (the visit of test_site_visit follows them all), and a
    canonical link to the landing page."""
    index = (site / "index.html").read_text(encoding="utf-8")
    landing_name = toc_files()[0] + ".html"
    landing = (site / landing_name).read_text(encoding="utf-8")
    assert 'http-equiv="refresh"' not in index
    assert re.search(r'<html lang="en"', index)
    assert re.search(r"<title>[^<]*" + re.escape(CONFIG["title"]), index)
    assert f'<link rel="canonical" href="{landing_name}" />' in index
    article = re.compile(r'<article class="bd-article">(.*?)</article>', re.S)
    text = lambda page: re.sub(r"<[^>]+>", "", article.search(page)[1])  # noqa: E731
    assert text(index) == text(landing)
    folder = posixpath.dirname(landing_name)
    for url in re.findall(r'\s(?:href|src)="([^"#:][^":]*?)(?:[?#][^"]*)?"', index):
        assert (site / url).exists(), f"index.html points to {url}, which is not in the site"
        assert not url.startswith("../"), url
    assert 'href="book/01_why.html"' in index or f'href="{folder}/' in index


def test_launch_download_and_repository_buttons(site):
    """Every notebook page gets Binder and download buttons; every page the repository."""
    repo = CONFIG["repository"]["url"].rstrip("/")
    branch = CONFIG["repository"]["branch"]
    binder = CONFIG["launch_buttons"]["binderhub_url"].rstrip("/")
    owner_repo = urllib.parse.urlsplit(repo).path.strip("/")
    for name in toc_files():
        page = site / (name + ".html")
        html = page.read_text(encoding="utf-8")
        hrefs = set(re.findall(r'href="([^"]*)"', html))
        assert repo in hrefs, f"{page.name}: no repository button linking {repo}"
        source = next(ROOT.glob(name + ".*"))
        if source.suffix == ".ipynb":
            launch = f"{binder}/v2/gh/{owner_repo}/{branch}?urlpath=lab/tree/{name}.ipynb"
            assert launch in hrefs, f"{page.name}: no Binder button opening {name}.ipynb"
            download = os.path.relpath(site / "_sources" / f"{name}.ipynb", page.parent)
            assert download in hrefs, f"{page.name}: no download button for the notebook"
            assert (site / "_sources" / f"{name}.ipynb").is_file()


def test_the_repository_url_is_written_in_one_place():
    """_config.yml names the repository; the files that use it do not repeat it."""
    repo = CONFIG["repository"]["url"]
    assert repo.startswith("https://github.com/")
    holders = [
        p.relative_to(ROOT).as_posix()
        for p in [ROOT / "_toc.yml", ROOT / "Makefile", ROOT / ".ci" / "run",
                  *ROOT.glob(".github/workflows/*.yml"), *ROOT.glob("book/*.md")]
        if p.is_file() and repo in p.read_text(encoding="utf-8")
    ]
    assert not holders, f"the repository URL is repeated in {holders}; keep it in _config.yml"


def test_api_page_lists_the_modules_in_a_table(site):
    """posenc's docstring lists its modules; the API page shows them as a table."""
    html = (site / "book" / "api.html").read_text(encoding="utf-8")
    section = re.search(r'<section id="modules">(.*?)</section>', html, re.S)
    assert section, "the API page has no Modules section"
    table = re.search(r"<table.*?</table>", section.group(1), re.S)
    assert table, "the Modules section is not a table (it renders as a run-on paragraph)"
    assert len(re.findall(r"<tr", table.group(0))) >= 5
