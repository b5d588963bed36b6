"""Contents boxes show titles, not file names (``book/_ext/posenc_contents.py``)."""

from __future__ import annotations

from pathlib import Path

from tests.book.sitecheck import parse_page, site, site_pages
from tools.paths import toc_files


def test_contents_boxes_show_titles_not_file_names(site):
    """No page's contents box (or any link) reads like a file name: "01_why"."""
    names = {Path(name).name for name in toc_files()}
    found = []
    for page in site_pages(site):
        for link in parse_page(page).links:
            if link["text"].strip() in names:
                found.append(f"{page.relative_to(site).as_posix()}: {link['text'].strip()!r}")
    assert not found, "links that read as file names:\n" + "\n".join(sorted(set(found)))
