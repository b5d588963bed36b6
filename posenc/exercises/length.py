"""Checkers of chapter 6, *Train short, test long*.
"""

from __future__ import annotations

import numpy as np

from ..tasks import lookback_test_set
from ._common import _as_array, _int_list, _report

__all__ = [
    "check_length_alias",
    "check_length_unseen_share",
    "check_length_clearly_better",
]

# The chapter's set-up: training lengths 4 to 16, the look-back window 2, and
# the look-back test set of length 64 (1000 pairs, seed 1000 + length).
_LONGEST_TRAINED_DISTANCE = 15
_WINDOW = 2


def _alias_distances(tolerance=0.5):
    """Far training distances whose fast-pair angle is near that of distance 1 or 2."""
    d = np.arange(_WINDOW + 1, _LONGEST_TRAINED_DISTANCE + 1)
    near = np.arange(1, _WINDOW + 1)
    gap = np.angle(np.exp(1j * (d[:, None] - near[None, :])))  # wrapped into (-pi, pi]
    return d[np.any(np.abs(gap) < tolerance, axis=1)]


def check_length_alias(answer):
    """Check the far training distances that a 1-radian RoPE pair confuses with near ones.

    The exercise: a RoPE pair that turns by 1 radian per position, and the
    far distances 3 to 15 of the look-back task's training sequences. The
    answer lists, in any order, every such distance at which the pair's
    angle lies within 0.5 radian, around the circle, of its angle at
    distance 1 or at distance 2.

    Parameters
    ----------
    answer : array_like of int, 1-D

    Returns
    -------
    bool

    Examples
    --------
    >>> check_length_alias([3, 4])
    Not yet. At distance 3 the pair has turned 3 radians, 1 more than at distance 2. Angles repeat every 2 pi radians: which distances come back close to 1 or 2?
    False
    """
    expected = _alias_distances()
    got = _int_list(answer, "answer")
    if got is None:
        return False
    if len(set(got)) != len(got):
        return _report(False, "", "Each distance should appear once.")
    if any(d < 1 for d in got):
        return _report(False, "", "Distances count places back from B: 1, 2, 3, ...")
    if any(d <= _WINDOW for d in got):
        return _report(False, "", "Distances 1 and 2 are the near ones themselves; list far distances (3 to 15).")
    if any(d > _LONGEST_TRAINED_DISTANCE for d in got):
        return _report(False, "", "Only the far distances of the training sequences count: 3 to 15.")
    if sorted(got) == sorted(expected.tolist()):
        return _report(True, "Those far distances look near to the fast pair.", "")
    if got and set(got) < set(expected.tolist()):
        hint = ("Some are missing. Check each distance against both near distances, 1 and 2, "
                "and after one and after two full turns.")
    elif 3 in got or 4 in got:
        hint = ("At distance 3 the pair has turned 3 radians, 1 more than at distance 2. Angles "
                "repeat every 2 pi radians: which distances come back close to 1 or 2?")
    else:
        hint = ("Compare angles around the circle: the difference of two angles, brought into "
                "(-pi, pi] (for example np.angle(np.exp(1j * difference))), must be smaller than 0.5 in size.")
    return _report(False, "", hint)


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
        return _report(False, "", "Give a single number between 0 and 1: a share, not a count.")
    value = float(arr.reshape(()))
    measured, expected = _unseen_share(), 0.5 * 48 / 61  # far: 3..63, unseen: 16..63
    if abs(value - measured) < 1e-6:
        return _report(True, "That share of the test asks about distances never trained.", "")
    if abs(value - expected) < 1e-3:
        return _report(True, "That is the share to expect; the test set comes close to it.", "")
    if value > 1:
        hint = "Give the share (a fraction between 0 and 1), not the number of sequences."
    elif abs(value - 0.5) < 1e-9:
        hint = "Half of the sequences are far, but not every far A is out of reach: far distances start at 3."
    elif abs(value - 48 / 61) < 1e-3 or abs(value - 2 * measured) < 1e-6:
        hint = "That is the share among the far sequences; the near half counts too."
    else:
        hint = ("Find the distance from A to B in each test sequence (B is the last token) and "
                "count those larger than the largest distance in any training sequence.")
    return _report(False, "", hint)


def check_length_clearly_better(clearly_better):
    """Check a function that says whether one scheme's mean accuracy is clearly above another's.

    ``clearly_better(a, b)`` receives the accuracies of two schemes, one per
    seed (1-D arrays, possibly of different lengths), and must return
    ``True`` exactly when ``mean(a) - mean(b)`` is larger than twice the
    standard error of that difference, ``sqrt(se_a**2 + se_b**2)``, each
    standard error being the standard deviation with ``ddof=1`` divided by
    the square root of the number of seeds.

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
        return _report(False, "", "Pass the function itself: clearly_better, without calling it.")

    def truth(a, b, ddof=1):
        se = np.hypot(np.std(a, ddof=ddof) / np.sqrt(len(a)), np.std(b, ddof=ddof) / np.sqrt(len(b)))
        return bool(np.mean(a) - np.mean(b) > 2 * se)

    rng = np.random.default_rng(6)
    cases = [
        (np.array([0.9, 0.92, 0.88, 0.91]), np.array([0.5, 0.52, 0.49, 0.51])),  # clearly
        (np.array([0.5, 0.52, 0.49, 0.51]), np.array([0.9, 0.92, 0.88, 0.91])),  # clearly worse
        (np.array([0.8, 0.6, 0.9, 0.5]), np.array([0.7, 0.5, 0.8, 0.6])),  # higher, not clearly
        (rng.normal(0.8, 0.05, 8), rng.normal(0.75, 0.05, 5)),  # different numbers of seeds
    ]
    # a pair that only the population standard deviation (ddof=0) would call clear
    a, b = np.array([0.71, 0.69, 0.74, 0.66]), np.array([0.645, 0.665, 0.615, 0.695])
    cases.append((a, b))
    for a, b in cases:
        try:
            got = clearly_better(a.copy(), b.copy())
        except Exception as error:  # the learner's code may fail in any way
            return _report(False, "", f"Calling clearly_better(a, b) raised {type(error).__name__}: {error}")
        try:
            got = bool(np.asarray(got).item())
        except (TypeError, ValueError):
            return _report(False, "", "Return a single True or False.")
        if got != truth(a, b):
            if got == truth(a, b, ddof=0):
                hint = ("Close: the standard error of a mean over seeds uses the sample standard "
                        "deviation, np.std(x, ddof=1).")
            elif got == bool(np.mean(a) > np.mean(b)):
                hint = "A higher mean is not enough: the difference must be larger than twice its standard error."
            else:
                hint = ("The standard error of the difference of two independent means is "
                        "sqrt(se_a**2 + se_b**2); compare the difference with twice that.")
            return _report(False, "", hint)
    return _report(True, "Only differences above twice their standard error count.", "")
