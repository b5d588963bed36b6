"""Where things are in the repository: shared by the tools and the tests."""

from __future__ import annotations

import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
HTML = ROOT / "_build" / "html"
FIXTURES = ROOT / "tests" / "fixtures"


def notebooks():
    """Every chapter notebook under book/, in name order."""
    return sorted(BOOK.glob("*.ipynb"))
