"""Checkers of chapter 6, *Train short, test long*.
"""

from __future__ import annotations

import numpy as np

from ..tasks import lookback_test_set
from ._common import _as_array, _correct, _int_list, _not_yet, _raised_hint

__all__ = [
    "check_length_alias",
    "check_length_unseen_share",
    "check_length_clearly_better",
]

# The chapter's set-up: training lengths 4 to 16, the look-back window 2, and
# the look-back test set of length 64 (1000 pairs, seed 1000 + length).
_LONGEST_TRAINED_DISTANCE = 15
_WINDOW = 2
_ROUNDING = 0.005 + 1e-9  # a share rounded to two places (0.40) still counts


def _fast_scores(phi):
    """The fast pair's score cos(d - phi) at the training distances 1..15: 1 radian per position."""
    return np.cos(np.arange(1, _LONGEST_TRAINED_DISTANCE + 1) - phi)


# The far distances whose angle lies between those of distances 1 and 2 (8 and 14):
# no direction puts 1 and 2 above them. The exercise leaves them out.
_BETWEEN = [d for d in range(_WINDOW + 1, _LONGEST_TRAINED_DISTANCE + 1) if 1 < d % (2 * np.pi) < 2]


def check_length_alias(phi):
    """Check a direction ``phi`` at which a 1-radian RoPE pair scores distances 1 and 2 above 7 and 15.

    The exercise: the fast pair of a RoPE head of width 4 turns by 1 radian
    per position and adds :math:`a \\cos(d - \\varphi)` (:math:`a > 0`) to
    the score of ``A`` at distance ``d`` from ``B``. The answer is a
    direction :math:`\\varphi`, in radians, at which that score is higher at
    both near distances, 1 and 2, than at every far training distance from 3
    to 15 except 8 and 14 (whose angles lie between those of 1 and 2, so
    that no direction can do it): in particular higher than at 7 and 15.

    Parameters
    ----------
    phi : float
        An angle in radians (any real number; angles repeat every
        :math:`2\\pi`).

    Returns
    -------
    bool

    Examples
    --------
    >>> check_length_alias(0.0)
    Not yet. At that direction distance 7 scores at least as high as distance 1 or 2: its angle, 7 radians less one turn, lies too close to phi around the circle.
    False
    """
    arr = _as_array(phi)
    if arr is None or arr.size != 1 or not np.isfinite(arr).all():
        return _not_yet("Give a single angle in radians, a number such as 0.5.")
    value = float(arr.reshape(()))
    if abs(value) > 1e6:
        return _not_yet("Give an angle in radians, a number such as 0.5; angles repeat every 2 pi.")
    score = _fast_scores(value)
    near = min(score[0], score[1])
    far = [d for d in range(_WINDOW + 1, _LONGEST_TRAINED_DISTANCE + 1) if d not in _BETWEEN]
    beaten = [d for d in far if score[d - 1] >= near]
    if not beaten:
        return _correct("There the fast pair ranks distances 1 and 2 above 7 and 15.")
    if 7 in beaten and 15 not in beaten:
        hint = ("At that direction distance 7 scores at least as high as distance 1 or 2: its angle, "
                "7 radians less one turn, lies too close to phi around the circle.")
    elif 15 in beaten and 7 not in beaten:
        hint = ("At that direction distance 15 scores at least as high as distance 1 or 2: its angle, "
                "15 radians less two turns, lies too close to phi around the circle.")
    else:
        hint = ("The score a cos(d - phi) is highest at the angles that lie closest to phi around the "
                "circle. Where are the angles of distances 1 and 2, and of 7 and 15, in radians "
                "taken modulo 2 pi?")
    return _not_yet(hint)


def _unseen_share():
    tokens, _ = lookback_test_set(1000, 64, window=_WINDOW, seed=1064)
    distance = 64 - 1 - (tokens == 0).argmax(axis=1)
    return float(np.mean(distance > _LONGEST_TRAINED_DISTANCE))


def check_length_unseen_share(share):
    """Check the share of the length-64 look-back test set with ``A`` at a distance never trained.

    The exercise: in the chapter's test set ``tests["look-back", 64]``
    (``posenc.tasks.lookback_test_set(1000, 64, seed=1064)``), the fraction of the
    2000 sequences whose ``A`` lies farther than 15 places before ``B``. The
    share expected from the construction of the test set is accepted too.

    Parameters
    ----------
    share : float
        A number between 0 and 1.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_length_unseen_share(0.5)
    Not yet. Half of the sequences are far, but not every far A is out of reach: far distances start at 3.
    False
    """
    arr = _as_array(share)
    if arr is None or arr.size != 1 or not np.isfinite(arr).all():
        return _not_yet("Give a single number between 0 and 1: a share, not a count.")
    value = float(arr.reshape(()))
    measured, expected = _unseen_share(), 0.5 * 48 / 61  # far: 3..63, unseen: 16..63
    if abs(value - measured) <= _ROUNDING:
        return _correct("That share of the test asks about distances never trained.")
    if abs(value - expected) <= _ROUNDING:
        return _correct("That is the share to expect; the test set comes close to it.")
    if value > 1:
        hint = "Give the share (a fraction between 0 and 1), not the number of sequences."
    elif abs(value - 0.5) < 1e-9:
        hint = "Half of the sequences are far, but not every far A is out of reach: far distances start at 3."
    elif abs(value - 48 / 61) <= _ROUNDING or abs(value - 2 * measured) <= 2 * _ROUNDING:
        hint = "That is the share among the far sequences; the near half counts too."
    else:
        hint = ("Find the distance from A to B in each test sequence (B is the last token) and "
                "count those larger than the largest distance in any training sequence.")
    return _not_yet(hint)


def _with(mean, sd, shape):
    """Numbers with exactly this mean and sample standard deviation (ddof=1), in the given shape."""
    x = np.asarray(shape, dtype=float)
    x = (x - x.mean()) / x.std(ddof=1)
    return mean + sd * x


def _pair(t, n_a, n_b, sd_a, sd_b, shape_a=None, shape_b=None):
    """Two groups whose difference of means is ``t`` times its standard error sqrt(se_a^2 + se_b^2)."""
    rng = np.random.default_rng(n_a * 100 + n_b)
    shape_a = rng.normal(size=n_a) if shape_a is None else shape_a
    shape_b = rng.normal(size=n_b) if shape_b is None else shape_b
    se = np.hypot(sd_a / np.sqrt(n_a), sd_b / np.sqrt(n_b))
    return _with(0.5 + t * se, sd_a, shape_a), _with(0.5, sd_b, shape_b)


def _clearly_better_cases():
    """Cases that tell the rule apart from the ways it is often written wrong.

    Each wrong rule gets at least one case wrong: a multiplier other than 2
    (ratios from 1.93 to 2.05 of the difference to its standard error), the
    sum of the standard errors instead of the root of the sum of squares,
    ddof=0, a pooled variance or the two sample sizes swapped (unequal sizes
    and spreads), the median instead of the mean (skewed numbers), and an
    absolute difference (b clearly better). The first eight are the close
    calls.
    """
    skewed = [0, 0, 0, 0, 0, 1, 1, 1, 1]  # mean above the median
    return [
        _pair(2.01, 8, 8, 0.05, 0.05),  # just clear
        _pair(1.99, 8, 8, 0.05, 0.05),  # just not
        _pair(1.93, 4, 4, 0.02, 0.03),  # not; clear with ddof=0
        _pair(1.96, 40, 40, 0.05, 0.04),  # not; nor with ddof=0, but with a multiplier below 1.96
        _pair(1.98, 4, 12, 0.10, 0.01),  # not; clear if pooled or with the sizes swapped
        _pair(2.02, 12, 4, 0.01, 0.10),
        _pair(1.56, 2, 3, 0.10, 0.001),  # not; clear if pooled, not with the sizes swapped
        _pair(2.05, 8, 8, 0.05, 0.05),  # clear; not with the sum of the two standard errors
        _pair(3.0, 5, 3, 0.04, 0.01),  # clearly
        _pair(2.5, 9, 9, 0.2, 0.01, shape_a=skewed),  # clear in means, medians equal
        _pair(-3.0, 6, 6, 0.03, 0.03),  # b clearly better: not "a clearly better"
    ]


_NEAR_THRESHOLD = 8  # the first cases of _clearly_better_cases


def _se(x, ddof=1):
    return np.std(x, ddof=ddof) / np.sqrt(len(x))


# The usual slips, each with its hint, in the order they are looked for.
_SLIPS = [
    (lambda a, b: np.mean(a) > np.mean(b),
     "A higher mean is not enough: the difference must be larger than twice its standard error."),
    (lambda a, b: np.mean(a) - np.mean(b) > 2 * np.hypot(_se(a, 0), _se(b, 0)),
     "Close: the standard error of a mean over seeds uses the sample standard deviation, "
     "np.std(x, ddof=1)."),
    (lambda a, b: abs(np.mean(a) - np.mean(b)) > 2 * np.hypot(_se(a), _se(b)),
     "The question is whether a is clearly better than b: a lower mean of a is never clearly better."),
    (lambda a, b: np.median(a) - np.median(b) > 2 * np.hypot(_se(a), _se(b)),
     "Compare the means of the two groups, not their medians."),
    (lambda a, b: np.mean(a) - np.mean(b) > 2 * (_se(a) + _se(b)),
     "The standard error of the difference of two independent means is sqrt(se_a**2 + se_b**2), "
     "not se_a + se_b."),
    (lambda a, b: np.mean(a) - np.mean(b) > 2 * np.sqrt(np.var(a, ddof=1) / len(b) + np.var(b, ddof=1) / len(a)),
     "Divide each group's variance by the number of seeds of that same group."),
    (lambda a, b: np.mean(a) - np.mean(b) > 2 * np.sqrt(
        ((len(a) - 1) * np.var(a, ddof=1) + (len(b) - 1) * np.var(b, ddof=1)) / (len(a) + len(b) - 2)
        * (1 / len(a) + 1 / len(b))),
     "With groups of different sizes and spreads, keep the two variances apart: "
     "se_a**2 = var(a) / len(a), and the same for b; no pooled variance."),
]


def _truth(a, b):
    se = np.hypot(np.std(a, ddof=1) / np.sqrt(len(a)), np.std(b, ddof=1) / np.sqrt(len(b)))
    return bool(np.mean(a) - np.mean(b) > 2 * se)


def _as_verdict(got):
    """The learner's return value as a bool, or None if it is not a single True or False."""
    if isinstance(got, (bool, np.bool_)):
        return bool(got)
    if isinstance(got, np.ndarray) and got.dtype == bool and got.size == 1:
        return bool(got.reshape(-1)[0])
    return None


def check_length_clearly_better(clearly_better):
    """Check a function that says whether one group's mean accuracy is clearly above another's.

    ``clearly_better(a, b)`` receives the accuracies of two groups of
    models trained with different seeds, one per seed (1-D arrays, possibly
    of different lengths), and must return ``True`` exactly when
    ``mean(a) - mean(b)`` is larger than twice the standard error of that
    difference, ``sqrt(se_a**2 + se_b**2)``, each standard error being the
    standard deviation with ``ddof=1`` divided by the square root of the
    number of seeds. It must return a bool (``True`` or ``False``, a numpy
    bool, or an array of one).

    The cases include differences just above and just below twice the
    standard error, groups of unequal sizes and spreads, skewed numbers and a
    group clearly worse, so that a multiplier other than 2, the sum of the
    two standard errors, a pooled variance, swapped sizes, ``ddof=0``, the
    median or an absolute difference each get one of them wrong.

    Parameters
    ----------
    clearly_better : callable

    Returns
    -------
    bool

    Examples
    --------
    >>> check_length_clearly_better(lambda a, b: np.mean(a) > np.mean(b))
    Not yet. A higher mean is not enough: the difference must be larger than twice its standard error.
    False
    """
    if not callable(clearly_better):
        return _not_yet("Pass the function itself: clearly_better, without calling it.")
    cases, answers = _clearly_better_cases(), []
    for a, b in cases:
        try:
            got = _as_verdict(clearly_better(a.copy(), b.copy()))
        except (Exception, SystemExit) as error:  # the learner's code may fail in any way
            return _not_yet(_raised_hint("clearly_better(a, b)", error))
        if got is None:
            return _not_yet("Return a single True or False (a bool), not a number, a string "
                            "or an array of several.")
        answers.append(got)
    truth = [_truth(a, b) for a, b in cases]
    if answers == truth:
        return _correct("Only differences above twice their standard error count.")
    with np.errstate(all="ignore"):
        for rule, hint in _SLIPS:
            if answers == [bool(rule(a, b)) for a, b in cases]:
                return _not_yet(hint)
    if all(got == right for got, right in zip(answers[_NEAR_THRESHOLD:], truth[_NEAR_THRESHOLD:])):
        return _not_yet("Right far from the threshold, wrong near it: compare the difference "
                        "with exactly twice sqrt(se_a**2 + se_b**2).")
    return _not_yet("Compute the standard error of the difference, sqrt(se_a**2 + se_b**2), "
                    "with se = np.std(x, ddof=1) / np.sqrt(len(x)) for each group, and compare "
                    "the difference of the means with exactly twice that.")
