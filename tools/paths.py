"""Where things are in the repository: shared by the tools and the tests."""

from __future__ import annotations

import pathlib

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
HTML = ROOT / "_build" / "html"
FIXTURES = ROOT / "tests" / "fixtures"


def notebooks():
    """Every chapter notebook under book/, in name order."""
    return sorted(BOOK.glob("*.ipynb"))


def toc():
    """The table of contents, ``_toc.yml``, read."""
    return yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))


def toc_docs(entries):
    """The files of some entries of ``_toc.yml`` and of their sections, in order."""
    files = []
    for entry in entries or []:
        if "file" in entry:
            files.append(entry["file"])
        files += toc_docs(entry.get("sections")) + toc_docs(entry.get("chapters"))
    return files


def toc_files():
    """Every file named in ``_toc.yml``, in the book's order: paths relative to
    the root, without suffix."""
    contents = toc()
    parts = [toc_docs(part.get("chapters")) for part in contents.get("parts", [])]
    return [contents["root"], *(name for part in parts for name in part),
            *toc_docs(contents.get("chapters"))]
