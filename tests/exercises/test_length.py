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


def directions_by_brute_force():
    """Directions phi (a fine grid) where cos(d - phi) is higher at d = 1 and 2 than at every
    far training distance 3..15 except 8 and 14, each compared in pure Python."""
    import math

    good = []
    for i in range(62832):
        phi = i / 10000
        near = min(math.cos(1 - phi), math.cos(2 - phi))
        if all(math.cos(d - phi) < near for d in range(3, 16) if d not in (8, 14)):
            good.append(phi)
    return good


GOOD = directions_by_brute_force()


def test_the_directions_lie_between_the_angles_of_7_and_15():
    # one arc: from halfway between 7 - 2 pi (0.72) and 2 to halfway between 1 and 15 - 4 pi (2.43)
    assert GOOD[0] == pytest.approx((7 - 2 * np.pi + 2) / 2, abs=2e-4)
    assert GOOD[-1] == pytest.approx((1 + 15 - 4 * np.pi) / 2, abs=2e-4)
    assert np.all(np.diff(GOOD) < 2e-4)
    # and 8 and 14 lie between 1 and 2 radians: no direction puts 1 and 2 above them
    assert [d for d in range(3, 16) if 1 < d % (2 * np.pi) < 2] == [8, 14]


@pytest.mark.parametrize("answer", [1.5, GOOD[0] + 1e-3, GOOD[-1] - 1e-3, 1.5 + 2 * np.pi, 1.5 - 4 * np.pi,
                                    np.float32(1.5), np.array(1.5), np.array([1.5]), 3 / 2])
def test_alias_right(answer, reveals_nothing):
    reveals_nothing(ex.check_length_alias, (answer,), ["1.36", "1.71", "1.72", "1.5", "8", "14", "between"])


@pytest.mark.parametrize(
    "answer, words",
    [
        (1.0, "distance 7 scores"),  # the angle of distance 1 itself
        (GOOD[0] - 1e-3, "distance 7 scores"),
        (2.0, "distance 15 scores"),
        (GOOD[-1] + 1e-3, "distance 15 scores"),
        (1.5 + np.pi, "closest to phi"),  # the opposite direction
        (86.0, "closest to phi"),  # degrees
        ("1.5", "single angle"),
        ([1.4, 1.6], "single angle"),
        (float("nan"), "single angle"),
        (1e300, "radians"),
        (None, "single angle"),
    ],
)
def test_alias_wrong(answer, words, not_yet):
    out = not_yet(ex.check_length_alias, answer)
    assert words in out
    for shown in ("1.36", "1.71", "1.5"):
        assert shown not in out


# --- check_length_unseen_share ----------------------------------------------------


def unseen_share_by_counting():
    tokens, _ = tasks.lookback_test_set(1000, 64, seed=1064)
    b = tokens.shape[1] - 1  # B is the last token
    distances = [b - list(row).index(0) for row in tokens]
    return sum(d > 15 for d in distances) / len(distances)


SHARE = unseen_share_by_counting()


@pytest.mark.parametrize("answer", [SHARE, np.float32(SHARE).item(), np.array(SHARE),
                                    np.array([SHARE]), 0.5 * 48 / 61, 24 / 61,
                                    round(SHARE, 2), round(24 / 61, 2), round(SHARE, 3)])
def test_unseen_share_right(answer, reveals_nothing):
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
def test_unseen_share_wrong(answer, words, not_yet):
    out = not_yet(ex.check_length_unseen_share, answer)
    assert words in out
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
                                    lambda a, b: np.array([clearly_better(a, b)]),
                                    lambda a, b: np.array(clearly_better(a, b))])
def test_clearly_better_right(answer, reveals_nothing):
    reveals_nothing(ex.check_length_clearly_better, (answer,), [])


def se(x):
    return np.std(x, ddof=1) / np.sqrt(len(x))


def with_multiplier(k):
    return lambda a, b: np.mean(a) - np.mean(b) > k * np.hypot(se(a), se(b))


def pooled(a, b):
    n_a, n_b = len(a), len(b)
    s2 = ((n_a - 1) * np.var(a, ddof=1) + (n_b - 1) * np.var(b, ddof=1)) / (n_a + n_b - 2)
    return np.mean(a) - np.mean(b) > 2 * np.sqrt(s2 * (1 / n_a + 1 / n_b))


def sizes_swapped(a, b):
    return np.mean(a) - np.mean(b) > 2 * np.sqrt(np.var(a, ddof=1) / len(b) + np.var(b, ddof=1) / len(a))


def population_se(a, b):
    se_pop = np.hypot(np.std(a) / np.sqrt(len(a)), np.std(b) / np.sqrt(len(b)))
    return np.mean(a) - np.mean(b) > 2 * se_pop


def raises(a, b):
    raise RuntimeError("not written yet")


class Unanswerable:
    def __bool__(self):
        raise RuntimeError("no truth value")


# Each wrong rule of issues 25 (item 9) and 28 (item 3), with words of the hint it gets.
@pytest.mark.parametrize(
    "answer, words",
    [
        (lambda a, b: np.mean(a) > np.mean(b), "higher mean is not enough"),
        (population_se, "ddof=1"),
        (lambda a, b: abs(np.mean(a) - np.mean(b)) > 2 * np.hypot(se(a), se(b)), "never clearly better"),
        (lambda a, b: np.mean(a) - np.mean(b) > 2 * (se(a) + se(b)), "not se_a + se_b"),
        (with_multiplier(2.5), "exactly twice"),
        (with_multiplier(2.98), "exactly twice"),
        (with_multiplier(2.05), "exactly twice"),
        (with_multiplier(1.95), "exactly twice"),
        (with_multiplier(1.89), "exactly twice"),
        (pooled, "no pooled variance"),
        (sizes_swapped, "that same group"),
        (lambda a, b: np.median(a) - np.median(b) > 2 * np.hypot(se(a), se(b)), "not their medians"),
        (lambda a, b: [True, False], "single True or False"),
        (lambda a, b: str(clearly_better(a, b)), "single True or False"),  # "False" is a true string
        (lambda a, b: int(clearly_better(a, b)), "single True or False"),
        (lambda a, b: Unanswerable(), "single True or False"),
        (raises, "raised RuntimeError"),
        (True, "Pass the function itself"),
    ],
)
def test_clearly_better_wrong(answer, words, not_yet):
    out = not_yet(ex.check_length_clearly_better, answer)
    assert words in out, out
