"""The numbers and titles the build writes for the plain editions
(``book/_ext/posenc_numbers.py``, ``_build/numbers.json``) are the ones the
HTML shows. How the plain editions print them: ``test_classroom``."""

from __future__ import annotations

import html
import json
import re

from tests.book.sitecheck import site
from tools.paths import toc_files


def _text(markup):
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()


def test_numbers_json_holds_what_the_pages_show(site):
    data = json.loads((site.parent / "numbers.json").read_text(encoding="utf-8"))
    docs = data["docs"]
    assert list(docs)[:len(toc_files())] == toc_files(), "the pages are not in the book's order"
    figures = exercises = 0
    for name, page in docs.items():
        text = (site / f"{name}.html").read_text(encoding="utf-8")
        h1 = _text(re.search(r'<h1>(?:<span class="section-number">[^<]*</span>)?(.*?)<a class="headerlink"',
                             text, re.S)[0])
        number = re.search(r'<h1><span class="section-number">(\d+)\. </span>', text)
        assert page["number"] == (int(number[1]) if number else None), (name, page["number"])
        assert page["title"].replace("$", "").replace("`", "") in h1.replace("’", "'"), (name, page["title"], h1)
        for label, number in page["figures"].items():
            caption = re.search(rf'<figure [^>]*id="{label}">.*?<span class="caption-number">([^<]*)</span>',
                                text, re.S)
            assert caption and caption[1].strip() == f"Fig. {number}", (name, label, number)
            figures += 1
        for label, number in page["exercises"].items():
            title = re.search(rf'id="{label}">\s*<p class="admonition-title"><span class="caption-number">'
                              r"([^<]*)</span>", text)
            assert title and title[1].strip() == f"Exercise {number}", (name, label, number)
            exercises += 1
        for label in page["sections"]:
            assert f'id="{label}"' in text, (name, label)
    numbers = [p["number"] for p in docs.values() if p["number"] is not None]
    # chapters 1 to 8, two appendices, and whatever chapters the book gains
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 10, numbers
    assert figures >= 40 and exercises >= 30, (figures, exercises)
