"""What the checkers' tests share."""

from __future__ import annotations

import pytest


@pytest.fixture
def reveals_nothing(capsys):
    """Run a checker on a right answer: it must pass, and its message must
    contain none of ``giveaways`` (the book prints the message under the
    exercise, outside the solution's toggle). Returns the printed text."""

    def run(check, args, giveaways):
        ok = check(*args)
        text = capsys.readouterr().out
        assert ok is True and text.startswith("Correct!"), text
        for s in giveaways:
            assert s not in text, f"success message reveals {s!r}: {text}"
        return text

    return run
