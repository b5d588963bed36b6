"""Search from file://, with excerpts and no raw TeX (``book/_ext/posenc_search.py``)."""

from __future__ import annotations

import re
import urllib.parse

from tests.book.sitecheck import TIMEOUT, file_url, site
from tools.headless import launch


def search_from_file(chromium, html, query):
    """Search from file://: the results, their excerpts and the console errors."""
    from playwright.sync_api import sync_playwright

    errors = []
    with sync_playwright() as p:
        browser, ctx = launch(p, chromium, timeout=TIMEOUT, viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(file_url(html / "search.html") + "?q=" + urllib.parse.quote(query),
                  wait_until="load")
        page.wait_for_function(
            "document.querySelector('#search-results p') !== null", timeout=60_000)
        page.wait_for_timeout(1500)  # excerpts arrive one by one
        results = page.evaluate("""() => [...document.querySelectorAll('#search-results li')]
            .map(li => ({title: (li.querySelector('a') || li).textContent,
                         object: li.querySelector(':scope > span') !== null,
                         excerpt: (li.querySelector('p.context') || {textContent: ''}).textContent}))""")
        browser.close()
    return results, errors


def test_search_from_file_shows_excerpts_without_tex(site, chromium):
    """Search from file:// (no web server): results with excerpts, no console
    errors (the excerpts used to need requests the browser refuses), and no TeX
    in titles or excerpts."""
    results, errors = search_from_file(chromium, site.resolve(), "wavelength")
    assert not errors, "console errors on the search page:\n" + "\n".join(errors)
    assert len(results) >= 3, results
    # a page or section has an excerpt; an API object shows its kind instead
    pages = [r for r in results if not r["object"]]
    assert len(pages) >= 3, results
    assert all(r["excerpt"].strip() for r in pages), f"results without excerpts: {pages}"
    for r in results:
        text = r["title"] + " " + r["excerpt"]
        assert not re.search(r"\\[A-Za-z]+|\$", text), f"TeX in a search result: {text[:200]!r}"
