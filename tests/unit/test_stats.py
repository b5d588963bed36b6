"""Tests of posenc.stats: the book's experiment rules, against hand-computed
cases, an independent integration of Student's t density, and simulations of
the two-way design whose answers are known."""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import stats

# --- standard errors -----------------------------------------------------------


def test_standard_error_by_hand():
    # mean 2.5, squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, s^2 = 5/3
    assert stats.standard_error([1.0, 2.0, 3.0, 4.0]) == pytest.approx(math.sqrt(5 / 3) / 2)
    np.testing.assert_allclose(stats.standard_error([[1.0, 10.0], [3.0, 10.0]], axis=0), [1.0, 0.0])


def test_over_seeds_by_hand():
    e = stats.over_seeds([107, 95, 120, 110])
    assert (e.mean, e.df, e.n_seeds, e.n_items) == (108.0, 3, 4, None)
    assert e.se == pytest.approx(np.std([107, 95, 120, 110], ddof=1) / 2)
    assert str(e) == "108.000 ± 5.148"


def test_seeds_and_items_by_hand():
    # seeds' means 0.75, 0.5: variance 1/32, /2; items' means 1, .5, 0, 1:
    # variance 11/48, /4; residuals +-1/8 and +-3/8: mean square 3/8 / 3, /8
    e = stats.seeds_and_items([[1, 1, 0, 1], [1, 0, 0, 1]])
    want = (1 / 32) / 2 + (11 / 48) / 4 - (1 / 8) / 8
    assert e.mean == 0.625 and e.se == pytest.approx(math.sqrt(want), rel=1e-12)
    assert (e.df, e.n_seeds, e.n_items) == (1, 2, 4)


def test_seeds_and_items_with_one_seed_is_the_items_standard_error():
    e = stats.seeds_and_items([[1, 0, 1, 1, 0]])
    assert e.se == pytest.approx(stats.standard_error([1, 0, 1, 1, 0])) and e.df == 4


def test_seeds_and_items_without_item_effects_is_the_seeds_standard_error_when_items_agree():
    # every seed scores all its items alike: the items add nothing
    scores = np.repeat([[0.9], [0.8], [0.95]], 50, axis=1)
    e = stats.seeds_and_items(scores)
    assert e.se == pytest.approx(stats.standard_error([0.9, 0.8, 0.95]), rel=1e-12)


def _two_way(rng, M, J, s_seed, s_item, s_resid, reps):
    """reps tables of a two-way random-effects design with grand mean 0."""
    return (s_seed * rng.normal(size=(reps, M, 1)) + s_item * rng.normal(size=(reps, 1, J))
            + s_resid * rng.normal(size=(reps, M, J)))


@pytest.mark.parametrize("s_seed, s_item, s_resid", [(0.0, 0.0, 1.0), (1.0, 0.0, 1.0),
                                                     (0.0, 1.0, 1.0), (0.3, 0.5, 2.0)])
def test_the_variance_estimate_is_unbiased(s_seed, s_item, s_resid):
    # True variance of the grand mean: s_seed^2/M + s_item^2/J + s_resid^2/(MJ).
    # Adding the seeds' and the items' parts without the correction would
    # count the residual twice (a factor 2 in the first case).
    M, J, reps = 6, 20, 4000
    rng = np.random.default_rng(1)
    tables = _two_way(rng, M, J, s_seed, s_item, s_resid, reps)
    var_hat = np.array([stats.seeds_and_items(t).se ** 2 for t in tables])
    true = s_seed**2 / M + s_item**2 / J + s_resid**2 / (M * J)
    assert var_hat.mean() == pytest.approx(true, rel=0.05)


def test_the_95_percent_interval_covers_the_mean_about_95_percent_of_the_time():
    M, J, reps = 16, 40, 3000
    rng = np.random.default_rng(2)
    tables = _two_way(rng, M, J, 1.0, 0.2, 1.0, reps)
    covered = [lo <= 0 <= hi for lo, hi in (stats.seeds_and_items(t).interval() for t in tables)]
    assert 0.93 < np.mean(covered) < 0.97


def test_pair_means_average_each_sequence_with_its_partner():
    np.testing.assert_array_equal(stats.pair_means([[1, 1, 0, 1], [0, 0, 1, 1]]),
                                  [[0.5, 1.0], [0.5, 0.5]])
    with pytest.raises(ValueError, match="two halves"):
        stats.pair_means([1, 0, 1])


def test_pair_means_read_booleans_as_right_and_wrong():
    right = np.array([[True, True, False, True], [False, False, True, True]])
    np.testing.assert_array_equal(stats.pair_means(right), [[0.5, 1.0], [0.5, 0.5]])


def test_paired_difference_is_the_estimate_of_the_differences():
    a, b = np.array([0.9, 0.8, 0.95, 0.7]), np.array([0.85, 0.7, 0.93, 0.71])
    assert stats.paired_difference(a, b) == stats.over_seeds(a - b)
    A = np.random.default_rng(3).integers(0, 2, (4, 10))
    B = np.random.default_rng(4).integers(0, 2, (4, 10))
    assert stats.paired_difference(A, B) == stats.seeds_and_items(A - B)


def test_pairing_removes_what_the_seeds_share():
    # two schemes that move together seed by seed: the paired error is far
    # smaller than the errors of the two means added as variances
    shared = np.array([0.2, 0.9, 0.5, 0.7, 0.4, 0.8])
    a, b = shared + 0.05, shared + np.array([0.0, 0.01, -0.01, 0.0, 0.01, -0.01])
    paired = stats.paired_difference(a, b).se
    independent = math.hypot(stats.over_seeds(a).se, stats.over_seeds(b).se)
    assert paired < independent / 10


def test_paired_difference_refuses_different_shapes():
    with pytest.raises(ValueError, match="same shape"):
        stats.paired_difference([1.0, 2.0], [1.0, 2.0, 3.0])


# --- Student's t ------------------------------------------------------------------


def _t_central_by_integration(t, df, n=200_000):
    """P(|T| <= t) by Simpson's rule on the density: independent of A&S 26.7."""
    x = np.linspace(0.0, t, n + 1)
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    f = np.exp(log_c - (df + 1) / 2 * np.log1p(x * x / df))
    h = t / n
    return 2 * h / 3 * (f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum())


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 10, 15, 16, 30, 101])
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_t_quantile_against_the_integrated_density(df, level):
    t = stats.t_quantile(df, level)
    assert _t_central_by_integration(t, df) == pytest.approx(level, abs=1e-9)


@pytest.mark.parametrize("df, want", [(1, 12.7062047361747), (2, 4.30265272974946),
                                      (5, 2.57058183563631), (7, 2.36462425159278),
                                      (15, 2.13144954555978), (30, 2.04227245630124)])
def test_t_quantile_against_published_tables(df, want):
    assert stats.t_quantile(df) == pytest.approx(want, rel=1e-10)


def test_t_quantile_falls_with_df_towards_the_normal_quantile():
    q = [stats.t_quantile(df) for df in (1, 2, 5, 15, 100, 10**5)]
    assert q == sorted(q, reverse=True) and q[-1] == pytest.approx(1.959964, abs=1e-4)


# --- decisions and convergence -----------------------------------------------------


def test_decide_is_clear_only_when_the_interval_excludes_zero():
    t15 = stats.t_quantile(15)
    just_above = stats.Estimate(mean=1.001 * t15, se=1.0, df=15, n_seeds=16)
    just_below = stats.Estimate(mean=0.999 * t15, se=1.0, df=15, n_seeds=16)
    negative = stats.Estimate(mean=-1.001 * t15, se=1.0, df=15, n_seeds=16)
    assert stats.decide(just_above).clear and stats.decide(negative).clear
    verdict = stats.decide(just_below)
    assert not verdict.clear and verdict.low < 0 < verdict.high
    assert str(verdict).startswith("not resolved with 16 seeds: ")
    assert "t with 15 df" in str(verdict) and str(stats.decide(just_above)).startswith("clear: ")


def test_decide_refuses_what_is_not_an_estimate():
    with pytest.raises(TypeError, match="^estimate must be an Estimate"):
        stats.decide(0.3)


def test_converged_asks_for_every_training_length():
    acc = np.array([[1.0, 1.0, 0.99], [1.0, 0.513, 1.0], [0.989, 1.0, 1.0]])
    np.testing.assert_array_equal(stats.converged(acc), [True, False, False])
    np.testing.assert_array_equal(stats.converged(acc, threshold=0.5), [True, True, True])


@pytest.mark.parametrize("call, error, words", [
    (lambda: stats.standard_error([1.0]), ValueError, "at least 2 entries"),
    (lambda: stats.seeds_and_items([[1.0], [0.0]]), ValueError, "at least 2 test items"),
    (lambda: stats.seeds_and_items([1.0, 0.0]), ValueError, "^scores must have 2 dimension"),
    (lambda: stats.t_quantile(0), ValueError, "^df must be an integer"),
    (lambda: stats.t_quantile(3, level=1.0), ValueError, "^level must be"),
    (lambda: stats.over_seeds(["a", "b"]), TypeError, "^values must be array-like of numbers"),
])
def test_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()
