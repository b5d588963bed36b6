"""What the checkers' tests share."""

from __future__ import annotations

import pytest


def _expecting(capsys, verdict):
    """``run(check, *answer)``: the checker's verdict must be ``verdict``, and
    what it prints must start with "Correct!" (True) or "Not yet." (False).
    Returns the printed text."""
    start = "Correct!" if verdict else "Not yet."

    def run(check, *answer):
        ok = check(*answer)
        text = capsys.readouterr().out
        assert ok is verdict and text.startswith(start), text
        return text

    return run


@pytest.fixture
def correct(capsys):
    """Run a checker on a right answer: True, and "Correct!"."""
    return _expecting(capsys, True)


@pytest.fixture
def not_yet(capsys):
    """Run a checker on a wrong answer: False, and "Not yet." with a hint."""
    return _expecting(capsys, False)


@pytest.fixture
def reveals_nothing(correct):
    """Run a checker on a right answer: it must pass, and its message must
    contain none of ``giveaways`` (the book prints the message under the
    exercise, outside the solution's toggle). Returns the printed text."""

    def run(check, args, giveaways):
        text = correct(check, *args)
        for s in giveaways:
            assert s not in text, f"success message reveals {s!r}: {text}"
        return text

    return run
