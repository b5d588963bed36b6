r"""How uncertain a mean is: the estimates that the rules of ``posenc.stats`` decide on.

Chapters 4, 6, 7 and 8 report means over seeds, and over the items of a
test set. This module computes them with their errors; ``posenc.stats``
holds the rules that decide on them, and re-exports everything here, so
the chapters call ``posenc.stats.seeds_and_items`` and the rest:

* :class:`Estimate`: a mean, its standard error and the degrees of freedom
  of its t-interval.
* :func:`over_seeds` for one number per seed, :func:`seeds_and_items` for
  scores per seed and test item (a two-way random-effects analysis of
  variance), :func:`pair_means` for test pairs, :func:`paired_difference`
  for two schemes trained with the same seeds, :func:`pool` for
  independent sets of seeds.
* :func:`t_quantile`: Student's t quantile, computed exactly, so the book
  needs no statistics package.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _checks

__all__ = ["Estimate", "standard_error", "over_seeds", "seeds_and_items", "pair_means",
           "paired_difference", "t_quantile", "pool"]

#: Scores, accuracies and step counts are far smaller; squares of larger numbers overflow.
_LARGEST = 1e150


def _values(name, value, *, booleans=False, **shape):
    """Numbers to take means and variances of: finite, not empty, and small enough to square.

    With ``booleans``, an array of booleans counts True as 1 (right
    answers, ``answers == labels``).
    """
    if booleans and isinstance(value, np.ndarray) and value.dtype == bool:
        value = value.astype(float)
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

    def __post_init__(self):
        # decide() trusts an Estimate: a negative se once made [+3.18, -3.18] "clear"
        checked = {"mean": _checks.real("mean", self.mean),
                   "se": _checks.real("se", self.se, at_least=0.0),
                   "df": _checks.integer("df", self.df, minimum=1),
                   "n_seeds": _checks.integer("n_seeds", self.n_seeds, minimum=1)}
        if self.n_items is not None:
            checked["n_items"] = _checks.integer("n_items", self.n_items, minimum=1)
        for name, value in checked.items():
            object.__setattr__(self, name, value)  # plain Python numbers (frozen dataclass)

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
    scores = _values("scores", scores, booleans=True, ndim=2)
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
    scores = _values("scores", scores, booleans=True, min_ndim=1)
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
    a, b = _paired(a, b)
    return over_seeds(a - b) if a.ndim == 1 else seeds_and_items(a - b)


def _paired(a, b):
    """Two arrays of paired scores: the same shape, (n_seeds,) or (n_seeds, n_items)."""
    a, b = _values("a", a, min_ndim=1), _values("b", b, min_ndim=1)
    if a.ndim > 2 or b.ndim > 2:
        raise ValueError(f"a and b must be (n_seeds,) or (n_seeds, n_items), one or two axes; "
                         f"got shapes {a.shape} and {b.shape}")
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape, (n_seeds,) or (n_seeds, n_items); "
                         f"got {a.shape} and {b.shape}")
    return a, b


def t_quantile(df, level=0.95):
    r"""The two-sided quantile of Student's t: the :math:`t` with :math:`P(|T| \le t) = \mathrm{level}`.

    For a whole number of degrees of freedom :math:`\nu`, :math:`P(|T| \le t)`
    is a finite sum in :math:`\theta = \arctan(t / \sqrt{\nu})` (Abramowitz
    and Stegun, 26.7.3 and 26.7.4); the quantile is found by bisection. The
    sum has :math:`\nu / 2` terms, so above ``ASYMPTOTIC_DF`` = 1000
    degrees of freedom the quantile comes instead from the Cornish-Fisher
    expansion around the normal quantile :math:`z` (A&S 26.7.5):

    .. math::

        t = z + \frac{g_1(z)}{\nu} + \frac{g_2(z)}{\nu^2} + \frac{g_3(z)}{\nu^3}
              + \frac{g_4(z)}{\nu^4} + \dots

    The first term it leaves out, :math:`g_5(z)/\nu^5`, is at most
    :math:`3 \cdot 10^{-14}\,t` there for levels up to 0.999, and
    :math:`10^{-12}\,t` up to 0.999999.

    Examples
    --------
    >>> round(t_quantile(15), 4), round(t_quantile(1), 4)
    (2.1314, 12.7062)
    >>> round(t_quantile(10**6), 6)  # almost the normal quantile, 1.959964
    1.959966
    """
    df = _checks.integer("df", df, minimum=1)
    level = _checks.real("level", level, greater_than=0.0, below=1.0)
    if df > ASYMPTOTIC_DF:
        return _cornish_fisher(_normal_quantile(level), df)
    low, high = 0.0, 1.0
    while _t_central(high, df) < level:
        high *= 2
    for _ in range(200):  # halves the bracket until it stops shrinking
        mid = (low + high) / 2
        if mid in (low, high):
            break
        low, high = (mid, high) if _t_central(mid, df) < level else (low, mid)
    return high


#: Above this many degrees of freedom :func:`t_quantile` uses the Cornish-Fisher expansion.
ASYMPTOTIC_DF = 1000


def _normal_quantile(level):
    """The two-sided normal quantile: the z with P(|Z| <= z) = level, by bisection on erfc."""
    tail = 1.0 - level  # exact for level >= 0.5 (Sterbenz)
    low, high = 0.0, 1.0
    while math.erfc(high / math.sqrt(2)) > tail:
        high *= 2
    for _ in range(200):  # halves the bracket until it stops shrinking
        mid = (low + high) / 2
        if mid in (low, high):
            break
        low, high = (mid, high) if math.erfc(mid / math.sqrt(2)) > tail else (low, mid)
    return high


def _cornish_fisher(z, df):
    """Student's t quantile from the normal one, to order 1/df**4 (A&S 26.7.5)."""
    v, z2 = 1 / df, z * z  # 1 / df: an int of any size divides exactly
    g1 = (z2 + 1) * z / 4
    g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
    return z + v * (g1 + v * (g2 + v * (g3 + v * g4)))


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


def pool(estimates):
    r"""One estimate from several independent sets of seeds (each with its own test items).

    The pooled mean is the mean over all seeds, each set weighted by its
    number of seeds :math:`n_s`; its error combines the sets' errors, and
    its degrees of freedom add up:

    .. math::

        \bar x = \frac{\sum_s n_s \bar x_s}{N}, \quad
        \mathrm{se} = \frac{\sqrt{\sum_s n_s^2\, \mathrm{se}_s^2}}{N}, \quad
        \nu = \sum_s \nu_s, \qquad N = \sum_s n_s.

    Examples
    --------
    >>> print(pool([over_seeds([0.1, 0.2, 0.3]), over_seeds([0.3, 0.4, 0.5])]))
    0.300 ± 0.041
    """
    estimates = list(estimates) if not isinstance(estimates, Estimate) else [estimates]
    if not estimates or not all(isinstance(e, Estimate) for e in estimates):
        raise TypeError(f"estimates must be a non-empty list of Estimate, got {_checks.show(estimates)}")
    n = np.array([e.n_seeds for e in estimates], dtype=float)
    N = n.sum()
    mean = float(np.sum(n * [e.mean for e in estimates]) / N)
    se = float(np.sqrt(np.sum((n * [e.se for e in estimates]) ** 2)) / N)
    return Estimate(mean, se, int(sum(e.df for e in estimates)), int(N))
