r"""How the book runs an experiment: the rules, in one place.

Chapters 4, 6, 7 and 8 train the tiny model many times and compare the
results. Each comparison follows the same rules, and this module is their
only implementation:

* **Seeds.** A scheme is trained with several seeds (16 in the book). The
  schemes that share a seed share their initial weights and their training
  batches, so two schemes are compared *seed by seed*: the design is paired.
* **Test items.** Every model is scored on the same test set, at least 1000
  items per length, balanced so that guessing scores exactly 0.5. The test
  set is a sample too: its sampling error is part of every uncertainty.
  The two sequences of a test pair (:func:`pair_means`) are one item.
* **Uncertainty.** A mean over seeds and test items has two sources of
  error, the seeds and the items; :func:`seeds_and_items` estimates both
  from the table of scores (a two-way random-effects analysis of variance).
* **Convergence.** A model counts only if it reaches a stated accuracy on
  held-out data at *every* training length (:func:`converged`); the others
  are reported, not ranked.
* **Decisions.** A difference is *clear* only when its 95% t-interval
  excludes 0 (:func:`decide`); otherwise it is *not resolved* with this
  many seeds, and the interval is what the book reports.

Everything here is NumPy; Student's t quantile is computed exactly
(:func:`t_quantile`), so the book needs no statistics package.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _checks

__all__ = ["Estimate", "standard_error", "over_seeds", "seeds_and_items", "pair_means",
           "paired_difference", "t_quantile", "decide", "converged", "CONVERGED_ACCURACY"]

#: The held-out accuracy that the book's convergence rule asks for at every training length.
CONVERGED_ACCURACY = 0.99


#: Scores, accuracies and step counts are far smaller; squares of larger numbers overflow.
_LARGEST = 1e150


def _values(name, value, **shape):
    """Numbers to take means and variances of: finite, not empty, and small enough to square."""
    arr = _checks.array(name, value, empty=False, **shape)
    if np.abs(arr).max() > _LARGEST:
        raise ValueError(f"{name} holds values up to {np.abs(arr).max():.3g} in size; the statistics "
                         f"of posenc.stats square them, so they must be at most {_LARGEST:.0e}")
    return arr


@dataclass(frozen=True)
class Estimate:
    """A mean with its standard error and the degrees of freedom of its t-interval.

    ``str(estimate)`` gives ``"0.920 ± 0.044"``: the mean and one standard
    error, as the book's tables print them.
    """

    mean: float
    se: float
    df: int
    n_seeds: int
    n_items: int | None = None

    def interval(self, level=0.95):
        """The ``level`` t-interval ``(low, high)``: mean ± t_quantile(df, level) · se."""
        half = t_quantile(self.df, level) * self.se
        return self.mean - half, self.mean + half

    def __str__(self):
        return f"{self.mean:.3f} ± {self.se:.3f}"


def standard_error(values, axis=0):
    r"""The standard error of a mean: :math:`s / \sqrt{n}`, with the sample standard deviation :math:`s`.

    Parameters
    ----------
    values : array_like of numbers
        At least two along ``axis``.
    axis : int, default 0

    Examples
    --------
    >>> float(standard_error([1.0, 2.0, 3.0, 4.0]))  # s = 1.291, n = 4
    0.6454972243679028
    """
    values = _values("values", values, min_ndim=1)
    axis = _checks.integer("axis", axis, minimum=-values.ndim, maximum=values.ndim - 1)
    n = values.shape[axis]
    if n < 2:
        raise ValueError(f"values needs at least 2 entries along axis {axis} for a standard error, got {n}")
    return values.std(axis=axis, ddof=1) / np.sqrt(n)


def over_seeds(values):
    """Mean and standard error of one number per seed (an accuracy, a number of steps).

    The seeds are the only source of error: use it for numbers that involve
    no test set, and :func:`seeds_and_items` for accuracies on one.

    Examples
    --------
    >>> print(over_seeds([107, 95, 120, 110]))
    108.000 ± 5.148
    >>> over_seeds([107, 95, 120, 110]).df
    3
    """
    values = _values("values", values, ndim=1)
    return Estimate(float(values.mean()), float(standard_error(values)), len(values) - 1, len(values))


def seeds_and_items(scores):
    r"""Mean score over seeds and test items, with both sources of error.

    ``scores[m, j]`` is model ``m``'s score on test item ``j`` (1 right, 0
    wrong; or a pair's mean), every model scored on the same items. The
    grand mean :math:`\bar x` estimates the score of the training recipe
    on the task, and it varies with the seeds drawn and with the items
    drawn. With :math:`M` seeds and :math:`J` items, a two-way analysis of
    variance estimates its variance without bias:

    .. math::

        \widehat{\mathrm{Var}}(\bar x) = \frac{s^2_{\mathrm{seeds}}}{M}
            + \frac{s^2_{\mathrm{items}}}{J} - \frac{s^2_{\mathrm{resid}}}{MJ}

    where :math:`s^2_{\mathrm{seeds}}` is the variance of the :math:`M` seed
    means, :math:`s^2_{\mathrm{items}}` that of the :math:`J` item means, and
    :math:`s^2_{\mathrm{resid}}` the residual mean square. (Each seed mean
    carries test-item noise, and each item mean seed noise; the last term
    removes what the first two count twice.) The seeds are usually the
    larger part and the fewer, so the t-interval takes :math:`M - 1`
    degrees of freedom; with one seed, only the items' part is left
    (:math:`J - 1` degrees of freedom).

    Parameters
    ----------
    scores : array_like of shape (n_seeds, n_items)

    Returns
    -------
    Estimate

    Examples
    --------
    Two seeds, four items: the seeds differ by 0.25, the items by more.

    >>> e = seeds_and_items([[1, 1, 0, 1], [1, 0, 0, 1]])
    >>> print(e, e.df)
    0.625 ± 0.239 1
    """
    scores = _values("scores", scores, ndim=2)
    M, J = scores.shape
    if J < 2:
        raise ValueError(f"scores needs at least 2 test items (columns), got shape {scores.shape}")
    grand = scores.mean()
    if M == 1:
        return Estimate(float(grand), float(standard_error(scores[0])), J - 1, 1, J)
    seed_means, item_means = scores.mean(axis=1), scores.mean(axis=0)
    resid = scores - seed_means[:, None] - item_means[None, :] + grand
    s2_resid = np.sum(resid**2) / ((M - 1) * (J - 1))
    var = (seed_means.var(ddof=1) / M + item_means.var(ddof=1) / J - s2_resid / (M * J))
    return Estimate(float(grand), float(np.sqrt(max(var, 0.0))), M - 1, M, J)


def pair_means(scores):
    """Each test pair's mean score: the two sequences of a pair are one item.

    The test sets of ``posenc.tasks`` hold ``P`` sequences and then
    their ``P`` partners, in the same order; a model without positions gets
    exactly one of each pair right. The two halves are not independent
    items, so the uncertainty is computed over pairs.

    Parameters
    ----------
    scores : array_like of shape (..., 2 * n_pairs)
        1 for a right answer, 0 for a wrong one; an array of booleans
        (``answers == labels``) counts True as 1.

    Examples
    --------
    >>> pair_means([[1, 1, 0, 1]])  # pairs (1, 0) and (1, 1)
    array([[0.5, 1. ]])
    >>> pair_means(np.array([True, False, True, True]))
    array([1. , 0.5])
    """
    if isinstance(scores, np.ndarray) and scores.dtype == bool:
        scores = scores.astype(float)
    scores = _values("scores", scores, min_ndim=1)
    if scores.shape[-1] % 2:
        raise ValueError(f"scores must hold two halves of pairs along its last axis, got {scores.shape[-1]}")
    P = scores.shape[-1] // 2
    return (scores[..., :P] + scores[..., P:]) / 2


def paired_difference(a, b):
    """The mean of ``a - b``, compared seed by seed (and item by item), with its error.

    Two schemes trained with the same seeds start from the same weights and
    see the same batches, and are scored on the same test items: their
    scores are paired. The difference is measured on each pair and its
    uncertainty is that of the differences, which is smaller than the sum
    of the two when the scores move together.

    Parameters
    ----------
    a, b : array_like, both of shape (n_seeds,) or both (n_seeds, n_items)
        One number per seed (:func:`over_seeds` rules), or scores per seed
        and test item (:func:`seeds_and_items` rules).

    Examples
    --------
    >>> print(paired_difference([0.9, 0.8, 0.95], [0.85, 0.7, 0.93]))
    0.057 ± 0.023
    """
    a, b = _values("a", a, min_ndim=1), _values("b", b, min_ndim=1)
    if a.shape != b.shape or a.ndim > 2:
        raise ValueError(f"a and b must have the same shape, (n_seeds,) or (n_seeds, n_items); "
                         f"got {a.shape} and {b.shape}")
    return over_seeds(a - b) if a.ndim == 1 else seeds_and_items(a - b)


def t_quantile(df, level=0.95):
    r"""The two-sided quantile of Student's t: the :math:`t` with :math:`P(|T| \le t) = \mathrm{level}`.

    For a whole number of degrees of freedom :math:`\nu`, :math:`P(|T| \le t)`
    is a finite sum in :math:`\theta = \arctan(t / \sqrt{\nu})` (Abramowitz
    and Stegun, 26.7.3 and 26.7.4); the quantile is found by bisection.

    Examples
    --------
    >>> round(t_quantile(15), 4), round(t_quantile(1), 4)
    (2.1314, 12.7062)
    """
    df = _checks.integer("df", df, minimum=1, maximum=10**6)
    level = _checks.real("level", level, greater_than=0.0, below=1.0)
    low, high = 0.0, 1.0
    while _t_central(high, df) < level:
        high *= 2
    for _ in range(200):  # halves the bracket until it stops shrinking
        mid = (low + high) / 2
        if mid in (low, high):
            break
        low, high = (mid, high) if _t_central(mid, df) < level else (low, mid)
    return high


def _t_central(t, df):
    """P(|T| <= t) for Student's t with ``df`` degrees of freedom (A&S 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2, term = math.cos(theta) ** 2, 1.0
    if df % 2:  # odd: (2/pi) (theta + sin cos (1 + 2/3 cos^2 + 2*4/(3*5) cos^4 + ...))
        total = 0.0 if df == 1 else 1.0
        for k in range(1, (df - 1) // 2):
            term *= 2 * k / (2 * k + 1) * c2
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    total = 1.0  # even: sin (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...)
    for k in range(1, df // 2):
        term *= (2 * k - 1) / (2 * k) * c2
        total += term
    return math.sin(theta) * total


@dataclass(frozen=True)
class Verdict:
    """What the book may say about a difference: clear, or not resolved."""

    clear: bool
    low: float
    high: float
    estimate: Estimate
    level: float = 0.95

    def __str__(self):
        e, pct = self.estimate, f"{100 * self.level:g}%"
        interval = f"{pct} interval [{self.low:+.3f}, {self.high:+.3f}], t with {e.df} df"
        if self.clear:
            return f"clear: {e.mean:+.3f} ({interval})"
        return f"not resolved with {e.n_seeds} seeds: {e.mean:+.3f} ({interval})"


def decide(estimate, *, level=0.95):
    """The book's rule: a difference is clear only when its t-interval excludes 0.

    Parameters
    ----------
    estimate : Estimate
        Usually from :func:`paired_difference`.
    level : float, default 0.95

    Returns
    -------
    Verdict
        ``verdict.clear``, the interval, and ``str(verdict)`` for the text.

    Examples
    --------
    >>> print(decide(paired_difference([0.9, 0.8, 0.95], [0.85, 0.7, 0.93])))
    not resolved with 3 seeds: +0.057 (95% interval [-0.044, +0.157], t with 2 df)
    >>> decide(over_seeds([0.10, 0.12, 0.09, 0.11, 0.10])).clear
    True
    """
    if not isinstance(estimate, Estimate):
        raise TypeError(f"estimate must be an Estimate (from over_seeds, seeds_and_items or "
                        f"paired_difference), got {_checks.show(estimate)}")
    low, high = estimate.interval(level)
    return Verdict(bool(low > 0 or high < 0), float(low), float(high), estimate, level)


def converged(accuracy, *, threshold=CONVERGED_ACCURACY):
    """The book's convergence rule: held-out accuracy at least ``threshold`` at every training length.

    A model that is right on every length but one has not learned the task
    at that length; averaging over lengths (or over the last training
    batches) would hide it. So each training length is tested on its own
    held-out set, of at least 500 items, and the rule asks for all of them.

    Parameters
    ----------
    accuracy : array_like of shape (..., n_lengths)
        Held-out accuracy of each model at each training length.
    threshold : float, default 0.99

    Returns
    -------
    numpy.ndarray of bool, shape ``accuracy.shape[:-1]``

    Examples
    --------
    >>> converged([[1.0, 0.995, 1.0], [1.0, 0.513, 1.0]])
    array([ True, False])
    """
    accuracy = _checks.array("accuracy", accuracy, min_ndim=1)
    threshold = _checks.real("threshold", threshold, greater_than=0.0, below=1.0 + 1e-12)
    return np.all(accuracy >= threshold, axis=-1)
