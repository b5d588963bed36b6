"""Tests of the checkers of the chapter "Train short, test long".

Each checker must accept every correct form of the answer, reject wrong
answers with a hint, never print the expected value, and never raise on an
answer, whatever its type. The right answers are derived here independently:
the alias distances by brute force over whole turns, the unseen share by
counting, the comparison of two means by the textbook formula.
"""

from __future__ import annotations

import numpy as np
import pytest

from posenc import exercises as ex
from posenc import tasks

# --- check_length_alias ---------------------------------------------------------


def alias_by_brute_force():
    """Far training distances d (3..15) with |d - near - 2 pi k| < 0.5 for some k."""
    found = []
    for d in range(3, 16):
        for near in (1, 2):
            for turns in range(-3, 4):
                if abs(d - near - 2 * np.pi * turns) < 0.5:
                    found.append(d)
    return sorted(set(found))


ALIAS = alias_by_brute_force()  # [7, 8, 14, 15]


def test_alias_answer_is_what_the_brute_force_finds():
    assert ALIAS == [7, 8, 14, 15]


@pytest.mark.parametrize("answer", [ALIAS, ALIAS[::-1], np.array(ALIAS), tuple(ALIAS),
                                    np.array(ALIAS, dtype=float), set(ALIAS)])
def test_alias_right(answer, capsys, reveals_nothing):
    reveals_nothing(ex.check_length_alias, (answer,), ["7", "8", "14", "15"])


@pytest.mark.parametrize(
    "answer, words",
    [
        ([8, 14], "Some are missing"),
        ([3, 4, 5], "repeat every 2 pi"),
        ([1, 2, 7, 8], "near ones themselves"),
        ([7, 8, 14, 15, 20], "3 to 15"),
        ([7, 7, 8], "once"),
        ([0, 7], "1, 2, 3"),
        ([6, 9, 13], "around the circle"),
        ("7, 8", "list"),
        (None, "list"),
        ([[7, 8], [14, 15]], "flat"),
        ([7.5, 8], "whole numbers"),
    ],
)
def test_alias_wrong(answer, words, capsys):
    assert ex.check_length_alias(answer) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.") and words in out
    for shown in ("[7, 8, 14, 15]", "7, 8, 14"):
        assert shown not in out


# --- check_length_unseen_share ----------------------------------------------------


def unseen_share_by_counting():
    tokens, _ = tasks.lookback_test_set(1000, 64, seed=1064)
    b = tokens.shape[1] - 1  # B is the last token
    distances = [b - list(row).index(0) for row in tokens]
    return sum(d > 15 for d in distances) / len(distances)


SHARE = unseen_share_by_counting()


@pytest.mark.parametrize("answer", [SHARE, np.float32(SHARE).item(), np.array(SHARE),
                                    np.array([SHARE]), 0.5 * 48 / 61, 24 / 61])
def test_unseen_share_right(answer, capsys, reveals_nothing):
    reveals_nothing(ex.check_length_unseen_share, (answer,),
                                   [f"{SHARE:.3f}", f"{SHARE:.2f}", "0.393", "48", "61"])


@pytest.mark.parametrize(
    "answer, words",
    [
        (0.5, "far distances start at 3"),
        (48 / 61, "near half counts too"),
        (SHARE * 2000, "not the number"),
        (0.1, "count those larger"),
        ("lots", "single number"),
        ([0.3, 0.4], "single number"),
        (float("nan"), "single number"),
    ],
)
def test_unseen_share_wrong(answer, words, capsys):
    assert ex.check_length_unseen_share(answer) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.") and words in out
    assert f"{SHARE:.3f}" not in out and f"{SHARE:.2f}" not in out


# --- check_length_clearly_better ---------------------------------------------------


def clearly_better(a, b):
    se = np.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
    return np.mean(a) - np.mean(b) > 2 * se


def clearly_better_in_pure_python(a, b):
    def mean(x):
        return sum(x) / len(x)

    def se2(x):
        m = mean(x)
        return sum((v - m) ** 2 for v in x) / (len(x) - 1) / len(x)

    return bool(mean(a) - mean(b) > 2 * (se2(a) + se2(b)) ** 0.5)


@pytest.mark.parametrize("answer", [clearly_better, clearly_better_in_pure_python,
                                    lambda a, b: np.array([clearly_better(a, b)])])
def test_clearly_better_right(answer, capsys, reveals_nothing):
    reveals_nothing(ex.check_length_clearly_better, (answer,), [])


def population_se(a, b):
    se = np.hypot(np.std(a) / np.sqrt(len(a)), np.std(b) / np.sqrt(len(b)))
    return np.mean(a) - np.mean(b) > 2 * se


def raises(a, b):
    raise RuntimeError("not written yet")


@pytest.mark.parametrize(
    "answer, words",
    [
        (lambda a, b: np.mean(a) > np.mean(b), "higher mean is not enough"),
        (population_se, "ddof=1"),
        (lambda a, b: abs(np.mean(a) - np.mean(b)) > 2 * np.hypot(
            np.std(a, ddof=1) / np.sqrt(len(a)), np.std(b, ddof=1) / np.sqrt(len(b))),
         "sqrt(se_a**2 + se_b**2)"),
        (lambda a, b: [True, False], "single True or False"),
        (raises, "raised RuntimeError"),
        (True, "Pass the function itself"),
    ],
)
def test_clearly_better_wrong(answer, words, capsys):
    assert ex.check_length_clearly_better(answer) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.") and words in out
