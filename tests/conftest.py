"""Shared fixtures: paths of the repository and the strictly built book."""

from __future__ import annotations

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
HTML = ROOT / "_build" / "html"

# tests/fixtures holds a demo notebook that is not part of the book: pytest
# must not collect it (nbval would re-run it) nor its checker module.
collect_ignore = ["fixtures"]


def notebooks():
    """Every chapter notebook under book/, in name order."""
    return sorted(p for p in BOOK.glob("*.ipynb"))


@pytest.fixture(scope="session")
def built_book():
    """Build the book exactly as ``make book`` does and return _build/html.

    The build is strict (warnings are errors, nitpicky) and starts from empty
    doctrees, so a page that breaks fails here.
    """
    result = subprocess.run(
        ["make", "--no-print-directory", "book"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    log = (result.stdout + result.stderr)[-6000:]
    assert result.returncode == 0, f"`make book` failed:\n{log}"
    assert (HTML / "index.html").is_file(), f"no _build/html/index.html after `make book`:\n{log}"
    return HTML


def assert_correct_reveals_nothing(capsys, check, args, giveaways):
    """Run an exercise checker on a right answer: it must pass, and its message
    must contain none of ``giveaways`` (the book prints the message under the
    exercise, outside the solution's toggle). Returns the printed text."""
    ok = check(*args)
    text = capsys.readouterr().out
    assert ok is True and text.startswith("Correct!"), text
    for s in giveaways:
        assert s not in text, f"success message reveals {s!r}: {text}"
    return text
