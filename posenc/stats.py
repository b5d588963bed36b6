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
* **Convergence, seed by seed.** A model counts only if it reaches a stated
  accuracy on held-out data at *every* training length (:func:`converged`).
  The book reports k of 16 for every group, leaves a group out of the
  ranking only when fewer than 3/4 of its seeds converged (:func:`rankable`),
  and compares two schemes on the seeds where both converged
  (:func:`compare`, :func:`group_estimate`).
* **Decisions.** A difference is *clear* only when its 95% t-interval
  excludes 0 (:func:`decide`); otherwise it is *not resolved* with this
  many seeds, and the interval is what the book reports. That rule holds
  for the few *primary* comparisons an experiment was designed to decide;
  the rest of its table is exploratory and decided under Holm's adjustment
  (:func:`holm`, :func:`decide_family`).
* **Power and skew.** Next to a primary verdict the book gives its power,
  how often a new set of 16 seeds would call it clear (:func:`power`), and
  the exact sign-flip test (:func:`sign_flip_pvalue`) with the number of
  seeds that differ by more than a margin, which shows when a mean rests on
  a few seeds. :func:`pool` joins independent sets of seeds.

Everything here is NumPy; Student's t quantile is computed exactly
(:func:`t_quantile`), so the book needs no statistics package. The
estimates themselves (:class:`Estimate`, :func:`over_seeds`,
:func:`seeds_and_items`, :func:`pair_means`, :func:`paired_difference`,
:func:`pool`, :func:`t_quantile`) are computed in ``posenc.estimates``
and listed here with the rules, which are the rest of this module.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

from . import _checks
from .estimates import (ASYMPTOTIC_DF, Estimate, over_seeds, pair_means, paired_difference, pool,  # noqa: F401
                        seeds_and_items, standard_error, t_quantile)
from .estimates import _paired, _t_central, _values

__all__ = ["Estimate", "standard_error", "over_seeds", "seeds_and_items", "pair_means",
           "paired_difference", "t_quantile", "decide", "converged", "CONVERGED_ACCURACY",
           "rankable", "group_estimate", "t_pvalue", "sign_flip_pvalue", "holm", "decide_family",
           "power", "Comparison", "compare", "pool", "replication", "RANK_SHARE", "MARGIN"]

#: The held-out accuracy that the book's convergence rule asks for at every training length.
CONVERGED_ACCURACY = 0.99


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
    if accuracy.shape[-1] == 0:  # np.all of nothing is True: a model with no lengths
        raise ValueError(f"accuracy must hold at least one training length (its last axis), "
                         f"got shape {accuracy.shape}")
    if accuracy.size and not ((accuracy >= 0) & (accuracy <= 1)).all():
        raise ValueError(f"accuracy must lie in [0, 1], got values from {accuracy.min():.4g} to "
                         f"{accuracy.max():.4g}")
    threshold = _checks.real("threshold", threshold, greater_than=0.0, below=1.0 + 1e-12)
    return np.all(accuracy >= threshold, axis=-1)


# --- per-seed convergence, several comparisons, power, skew (issue 38) ------------

#: The share of a group's seeds that must converge for the group to be ranked:
#: 12 of 16. Two ranked groups then share at least half of their seeds.
RANK_SHARE = 0.75

#: A seed's difference between two schemes counts as large beyond this margin
#: (5 points of accuracy): :class:`Comparison` counts such seeds, each way.
MARGIN = 0.05

#: The most seeds for the exact sign-flip test: 2**20 sign patterns.
_MOST_SIGN_SEEDS = 20


def _mask(name, value, n):
    """A boolean mask over ``n`` seeds; None means every seed."""
    if value is None:
        return np.ones(n, dtype=bool)
    arr = _checks.asarray(name, value, "flags")
    if arr.dtype != bool or arr.shape != (n,):
        raise ValueError(f"{name} must be {n} booleans, one per seed (from converged or "
                         f"history['converged']), got {_checks.show(value)}")
    return arr


def rankable(converged, *, share=RANK_SHARE):
    r"""The book's rule for leaving a group out: it is ranked when at least ``share`` of its seeds converged.

    With 16 seeds and the default share of 3/4, a group needs 12 converged
    seeds. Two ranked groups then have at least 8 seeds in common (each
    misses at most 4), so a comparison on the seeds where both converged
    (:func:`compare`) keeps at least half of them.

    Parameters
    ----------
    converged : array_like of bool, shape (n_seeds,)
        :func:`converged` of each seed of the group.
    share : float, default ``RANK_SHARE`` (0.75)

    Examples
    --------
    >>> rankable([True] * 15 + [False]), rankable([True] * 11 + [False] * 5)
    (True, False)
    """
    arr = _checks.asarray("converged", converged, "flags")
    if arr.dtype != bool or arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"converged must be a 1-D array of booleans, one per seed, got "
                         f"{_checks.show(converged)}")
    share = _checks.real("share", share, greater_than=0.0, below=1.0 + 1e-12)
    return bool(arr.sum() >= math.ceil(share * arr.size - 1e-9))


def group_estimate(scores, converged=None):
    """A group's mean score over its converged seeds, with its error.

    The seeds that did not converge are reported (their count), not
    averaged in. ``scores`` is one number per seed (:func:`over_seeds`
    rules) or one row of item scores per seed (:func:`seeds_and_items`).

    Examples
    --------
    >>> print(group_estimate([0.9, 0.8, 0.4, 0.85], [True, True, False, True]))
    0.850 ± 0.029
    """
    scores = _values("scores", scores, min_ndim=1)
    if scores.ndim > 2:
        raise ValueError(f"scores must be (n_seeds,) or (n_seeds, n_items), got shape {scores.shape}")
    ok = _mask("converged", converged, scores.shape[0])
    if ok.sum() < 2:
        raise ValueError(f"converged leaves {ok.sum()} seed(s); a mean with an error needs at least 2")
    return over_seeds(scores[ok]) if scores.ndim == 1 else seeds_and_items(scores[ok])


def t_pvalue(estimate):
    r"""The two-sided p-value of the t-test of ``estimate.mean = 0``: :math:`P(|T| \ge |\bar d| / \mathrm{se})`.

    It is below ``1 - level`` exactly when :func:`decide` calls the
    difference clear at ``level``. A standard error of 0 gives 0 (or 1 for a
    mean of exactly 0).

    Examples
    --------
    >>> round(t_pvalue(Estimate(mean=2.1314495, se=1.0, df=15, n_seeds=16)), 4)
    0.05
    """
    if not isinstance(estimate, Estimate):
        raise TypeError(f"estimate must be an Estimate (from over_seeds, seeds_and_items or "
                        f"paired_difference), got {_checks.show(estimate)}")
    if estimate.se == 0:
        return 1.0 if estimate.mean == 0 else 0.0
    return float(max(0.0, 1.0 - _t_central(abs(estimate.mean) / estimate.se, estimate.df)))


def sign_flip_pvalue(differences):
    r"""The exact sign-flip (permutation) test of paired differences: its two-sided p-value.

    If two schemes were alike, each seed's difference :math:`d_m` would be
    as likely to have either sign. The test gives every seed either sign,
    all :math:`2^n` ways, and counts how often the sum is at least as far
    from 0 as the observed one:

    .. math::

        p = 2^{-n} \, \#\Big\{ s \in \{-1, +1\}^n :
            \Big|\sum_m s_m d_m\Big| \ge \Big|\sum_m d_m\Big| \Big\}

    It assumes no normal distribution, so it stays honest when a few seeds
    differ far more than the others (a skewed set of differences); 16 seeds
    make 65,536 patterns, all counted.

    Parameters
    ----------
    differences : array_like of shape (n_seeds,)
        One difference per seed, at most 20 seeds.

    Examples
    --------
    >>> sign_flip_pvalue([1.0, 2.0, 3.0])  # sums 6, 4, 2, 0, 0, -2, -4, -6
    0.25
    >>> sign_flip_pvalue([0.2] * 16)  # only all + and all - reach |3.2|
    3.0517578125e-05
    """
    d = _values("differences", differences, ndim=1)
    n = d.size
    if n > _MOST_SIGN_SEEDS:
        raise ValueError(f"differences has {n} seeds; the exact test counts 2**n sign patterns, "
                         f"so it takes at most {_MOST_SIGN_SEEDS}")
    observed = abs(d.sum()) - 1e-12 * np.abs(d).sum()  # ties, up to rounding, count
    count, chunk = 0, 1 << min(n, 16)
    for start in range(0, 1 << n, chunk):
        signs = _sign_patterns(n, start, min(start + chunk, 1 << n))
        count += int(np.sum(np.abs(signs @ d) >= observed))
    return count / (1 << n)


@functools.lru_cache(maxsize=4)
def _sign_patterns(n, start, stop):
    """The sign patterns ``start`` to ``stop - 1`` of ``n`` seeds, one per row:
    pattern ``k`` gives seed ``m`` the sign -1 where bit ``m`` of ``k`` is 1.
    Made once and kept (read-only), since every test of 16 seeds counts the
    same 65,536 patterns."""
    k = np.arange(start, stop)
    signs = 1.0 - 2.0 * ((k[:, None] >> np.arange(n)) & 1)
    signs.setflags(write=False)
    return signs


def holm(p_values):
    r"""Holm's adjustment of p-values for a family of comparisons (Holm 1979).

    Sort the :math:`m` p-values, :math:`p_{(1)} \le \dots \le p_{(m)}`; the
    adjusted value of the :math:`i`-th smallest is

    .. math::

        \tilde p_{(i)} = \min\Big(1, \max_{j \le i} (m - j + 1)\, p_{(j)}\Big).

    A comparison is clear under the adjustment when :math:`\tilde p < 0.05`
    (:func:`decide_family`): the chance that *any* comparison of the family
    is called clear by luck is then at most 5%, whatever their dependence.

    Examples
    --------
    The four p-values of the usual worked example: the first and the last
    stay below 0.05.

    >>> holm([0.01, 0.04, 0.03, 0.005])
    array([0.03, 0.06, 0.06, 0.02])
    """
    p = _values("p_values", p_values, ndim=1)
    if p.min() < 0 or p.max() > 1:
        raise ValueError(f"p_values must lie in [0, 1], got values from {p.min():.3g} to {p.max():.3g}")
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out


def decide_family(p_values, *, level=0.95):
    """The book's rule for exploratory comparisons: clear when Holm's adjusted p is below ``1 - level``.

    Examples
    --------
    >>> decide_family([0.01, 0.04, 0.03, 0.005])
    array([ True, False, False,  True])
    """
    level = _checks.real("level", level, greater_than=0.0, below=1.0)
    return holm(p_values) < 1 - level


def _bootstrap_se(rows, counts):
    """The :func:`seeds_and_items` (or :func:`over_seeds`) standard error of each resample.

    ``rows`` is ``(M0,)`` or ``(M0, J)``; ``counts`` is ``(reps, M0)``, how
    often each row is drawn into each resample of ``M`` rows. The two-way
    decomposition of :func:`seeds_and_items`, in sums that the counts weigh.
    """
    M = counts[0].sum()
    if rows.ndim == 1:
        mean = counts @ rows / M
        var = (counts @ rows**2 - M * mean**2) / (M - 1)
        return mean, np.sqrt(np.maximum(var, 0.0) / M)
    J = rows.shape[1]
    row_means = rows.mean(axis=1)
    grand = counts @ row_means / M
    ss_seeds = J * (counts @ row_means**2 - M * grand**2)  # J * sum_i (r_i - g)^2
    item_means = counts @ rows / M  # (reps, J)
    ss_items = M * (np.sum(item_means**2, axis=1) - J * grand**2)
    ss_resid = counts @ np.sum(rows**2, axis=1) - M * J * grand**2 - ss_seeds - ss_items
    var = (ss_seeds / (J * (M - 1)) / M + ss_items / (M * (J - 1)) / J
           - ss_resid / ((M - 1) * (J - 1)) / (M * J))
    return grand, np.sqrt(np.maximum(var, 0.0))


def power(differences, *, n_seeds=None, level=0.95, reps=4000, seed=0):
    """How often a new set of seeds would call this difference clear: the power of the rule.

    A simulation with the book's own estimator: draw ``n_seeds`` seeds, with
    replacement, from the observed ones (their rows of paired differences,
    on the same test items), estimate the difference as the book does
    (:func:`paired_difference`) and apply :func:`decide`; the power is the
    share of ``reps`` draws in which the difference is clear with the
    observed sign. The observed seeds stand in for the recipe, their skew
    included. Taken at face value, an observed difference that only just
    passes the rule has a power of about one half: a new set of seeds
    resolves it about as often as not.

    Parameters
    ----------
    differences : array_like of shape (n_seeds,) or (n_seeds, n_items), or a Comparison
        ``a - b`` on the seeds where both converged (a :class:`Comparison`
        gives its own, ``comparison.rows``).
    n_seeds : int, optional
        Seeds per simulated experiment; by default as many as observed.
    level : float, default 0.95
    reps : int, default 4000
    seed : int, default 0
        Seeds the draws.

    Examples
    --------
    >>> d = [0.02, 0.01, 0.03, 0.0, 0.02, 0.01, 0.04, -0.01]
    >>> power(d), power(d, n_seeds=4)
    (0.66575, 0.26025)
    """
    if isinstance(differences, Comparison):
        differences = differences.rows
    d = _values("differences", differences, min_ndim=1)
    if d.ndim > 2 or d.shape[0] < 2 or (d.ndim == 2 and d.shape[1] < 2):
        raise ValueError(f"differences must be (n_seeds,) or (n_seeds, n_items), at least 2 of "
                         f"each, got shape {d.shape}")
    M = d.shape[0] if n_seeds is None else _checks.integer("n_seeds", n_seeds, minimum=2, maximum=10**4)
    reps = _checks.integer("reps", reps, minimum=1, maximum=10**6)
    level = _checks.real("level", level, greater_than=0.0, below=1.0)
    rng = _checks.rng(seed)
    sign = np.sign(d.mean())
    t = t_quantile(M - 1, level)
    clear = 0
    for start in range(0, reps, 500):
        draws = rng.integers(0, d.shape[0], size=(min(500, reps - start), M))
        counts = np.zeros((len(draws), d.shape[0]))
        np.add.at(counts, (np.arange(len(draws))[:, None], draws), 1.0)
        mean, se = _bootstrap_se(d, counts)
        clear += int(np.sum((np.sign(mean) == sign) & (np.abs(mean) > t * se)))
    return clear / reps if sign != 0 else 0.0


@dataclass(frozen=True)
class Comparison:
    """Two schemes compared on the seeds where both converged: everything the book states about it.

    ``str(comparison)`` gives the difference with its interval and verdict,
    the seeds it rests on, both tests, and how many seeds differ by more
    than ``margin`` each way.
    """

    verdict: Verdict
    n_seeds: int
    converged_a: int
    converged_b: int
    p_t: float
    p_sign: float
    above: int
    below: int
    margin: float
    differences: np.ndarray = field(compare=False, repr=False)  # each compared seed's mean difference
    rows: np.ndarray = field(default=None, compare=False, repr=False)  # a - b on those seeds, as given

    @property
    def estimate(self):
        return self.verdict.estimate

    @property
    def clear(self):
        return self.verdict.clear

    @property
    def n_both(self):
        """How many seeds are compared (those where both converged)."""
        return self.verdict.estimate.n_seeds

    @property
    def tests_agree(self):
        """Whether the t-test and the sign-flip test give the same verdict at the comparison's level."""
        alpha = 1 - self.verdict.level
        return (self.p_t < alpha) == (self.p_sign < alpha)

    def __str__(self):
        v = self.verdict
        head = "clear" if v.clear else "not resolved"
        return (f"{v.estimate.mean:+.3f} [{v.low:+.3f}, {v.high:+.3f}] {head}, "
                f"{self.n_both} of {self.n_seeds} seeds; p = {self.p_t:.3f} (t), "
                f"{self.p_sign:.3f} (sign flip); beyond ±{self.margin:g}: "
                f"{self.above} up, {self.below} down")


def compare(a, b, *, converged_a=None, converged_b=None, margin=MARGIN, level=0.95):
    """Compare two schemes seed by seed, on the seeds where both converged.

    The difference ``a - b`` is estimated on those seeds
    (:func:`paired_difference`) and decided by its t-interval
    (:func:`decide`); beside it come the count of seeds it rests on, the
    t-test's p-value (:func:`t_pvalue`), the exact sign-flip test's
    (:func:`sign_flip_pvalue`, on each seed's mean difference), and how
    many seeds differ by more than ``margin`` up and down: a mean carried by
    a few seeds, with the rest within the margin, is a skewed difference,
    and the two tests may then disagree.

    Parameters
    ----------
    a, b : array_like, both (n_seeds,) or both (n_seeds, n_items)
    converged_a, converged_b : array_like of bool, shape (n_seeds,), optional
        Which seeds of each group converged; by default all.
    margin : float, default ``MARGIN`` (0.05)
    level : float, default 0.95

    Returns
    -------
    Comparison

    Examples
    --------
    >>> a = [0.99, 0.98, 0.99, 0.99, 0.97, 0.99, 0.98, 0.99]
    >>> b = [0.98, 0.98, 0.60, 0.99, 0.97, 0.70, 0.98, 0.40]
    >>> print(compare(a, b, converged_b=[True] * 7 + [False]))
    +0.099 [-0.056, +0.253] not resolved, 7 of 8 seeds; p = 0.170 (t), 0.250 (sign flip); beyond ±0.05: 2 up, 0 down
    """
    a, b = _paired(a, b)
    n = a.shape[0]
    ok_a, ok_b = _mask("converged_a", converged_a, n), _mask("converged_b", converged_b, n)
    margin = _checks.real("margin", margin, at_least=0.0)
    both = ok_a & ok_b
    if both.sum() < 2:
        raise ValueError(f"only {both.sum()} seed(s) converged in both groups; a comparison needs 2 or more")
    diff = (a - b)[both]
    verdict = decide(over_seeds(diff) if diff.ndim == 1 else seeds_and_items(diff), level=level)
    per_seed = diff if diff.ndim == 1 else diff.mean(axis=1)
    p_sign = sign_flip_pvalue(per_seed) if per_seed.size <= _MOST_SIGN_SEEDS else float("nan")
    return Comparison(verdict, n, int(ok_a.sum()), int(ok_b.sum()), t_pvalue(verdict.estimate),
                      p_sign, int(np.sum(per_seed > margin)), int(np.sum(per_seed < -margin)),
                      margin, per_seed, diff)


def replication():
    """The stored replication of chapter 6, as ``make replicate`` wrote it.

    ``tools/replicate_length.py`` reruns the chapter's design on its own
    seeds (set 0) and on further sets of 16 seeds, each with test sets of
    its own, and stores every set's per-seed results and decisions and a
    summary: how often each verdict of set 0 repeated, and the estimate
    pooled over the further sets (:func:`pool`). The file ships with the
    package (``posenc/data/replication_length.json``), so that the chapter
    runs anywhere.

    Returns
    -------
    dict
        A fresh copy each call: ``made_by``, ``code_version`` (the commit,
        the versions, the arithmetic pin), ``design``, ``sets`` and
        ``summary``.

    Examples
    --------
    >>> r = replication()
    >>> r["sets"][0]["seeds"] == list(range(16)), len(r["sets"]) >= 9
    (True, True)
    """
    return json.loads(resources.files(__package__).joinpath("data", "replication_length.json").read_text())
