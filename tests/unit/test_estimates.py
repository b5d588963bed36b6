"""Tests of posenc.estimates: means with their errors, against hand-computed
cases, an independent integration of Student's t density, and simulations of
the two-way design whose answers are known."""

from __future__ import annotations

import math
from unittest import mock

import numpy as np
import pytest
from t_density import t_central_by_integration

from posenc import estimates

# --- standard errors -----------------------------------------------------------


def test_standard_error_by_hand():
    # mean 2.5, squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, s^2 = 5/3
    assert estimates.standard_error([1.0, 2.0, 3.0, 4.0]) == pytest.approx(math.sqrt(5 / 3) / 2)
    np.testing.assert_allclose(estimates.standard_error([[1.0, 10.0], [3.0, 10.0]], axis=0), [1.0, 0.0])


def test_over_seeds_by_hand():
    e = estimates.over_seeds([107, 95, 120, 110])
    assert (e.mean, e.df, e.n_seeds, e.n_items) == (108.0, 3, 4, None)
    assert e.se == pytest.approx(np.std([107, 95, 120, 110], ddof=1) / 2)
    assert str(e) == "108.000 ± 5.148"


def test_seeds_and_items_by_hand():
    # seeds' means 0.75, 0.5: variance 1/32, /2; items' means 1, .5, 0, 1:
    # variance 11/48, /4; residuals +-1/8 and +-3/8: mean square 3/8 / 3, /8
    e = estimates.seeds_and_items([[1, 1, 0, 1], [1, 0, 0, 1]])
    want = (1 / 32) / 2 + (11 / 48) / 4 - (1 / 8) / 8
    assert e.mean == 0.625 and e.se == pytest.approx(math.sqrt(want), rel=1e-12)
    assert (e.df, e.n_seeds, e.n_items) == (1, 2, 4)


def test_seeds_and_items_with_one_seed_is_the_items_standard_error():
    e = estimates.seeds_and_items([[1, 0, 1, 1, 0]])
    assert e.se == pytest.approx(estimates.standard_error([1, 0, 1, 1, 0])) and e.df == 4


def test_seeds_and_items_without_item_effects_is_the_seeds_standard_error_when_items_agree():
    # every seed scores all its items alike: the items add nothing
    scores = np.repeat([[0.9], [0.8], [0.95]], 50, axis=1)
    e = estimates.seeds_and_items(scores)
    assert e.se == pytest.approx(estimates.standard_error([0.9, 0.8, 0.95]), rel=1e-12)


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
    var_hat = np.array([estimates.seeds_and_items(t).se ** 2 for t in tables])
    true = s_seed**2 / M + s_item**2 / J + s_resid**2 / (M * J)
    assert var_hat.mean() == pytest.approx(true, rel=0.05)


def test_the_95_percent_interval_covers_the_mean_about_95_percent_of_the_time():
    M, J, reps = 16, 40, 3000
    rng = np.random.default_rng(2)
    tables = _two_way(rng, M, J, 1.0, 0.2, 1.0, reps)
    covered = [lo <= 0 <= hi for lo, hi in (estimates.seeds_and_items(t).interval() for t in tables)]
    assert 0.93 < np.mean(covered) < 0.97


def test_pair_means_average_each_sequence_with_its_partner():
    np.testing.assert_array_equal(estimates.pair_means([[1, 1, 0, 1], [0, 0, 1, 1]]),
                                  [[0.5, 1.0], [0.5, 0.5]])
    with pytest.raises(ValueError, match="two halves"):
        estimates.pair_means([1, 0, 1])


def test_pair_means_read_booleans_as_right_and_wrong():
    right = np.array([[True, True, False, True], [False, False, True, True]])
    np.testing.assert_array_equal(estimates.pair_means(right), [[0.5, 1.0], [0.5, 0.5]])


def test_paired_difference_is_the_estimate_of_the_differences():
    a, b = np.array([0.9, 0.8, 0.95, 0.7]), np.array([0.85, 0.7, 0.93, 0.71])
    assert estimates.paired_difference(a, b) == estimates.over_seeds(a - b)
    A = np.random.default_rng(3).integers(0, 2, (4, 10))
    B = np.random.default_rng(4).integers(0, 2, (4, 10))
    assert estimates.paired_difference(A, B) == estimates.seeds_and_items(A - B)


def test_pairing_removes_what_the_seeds_share():
    # two schemes that move together seed by seed: the paired error is far
    # smaller than the errors of the two means added as variances
    shared = np.array([0.2, 0.9, 0.5, 0.7, 0.4, 0.8])
    a, b = shared + 0.05, shared + np.array([0.0, 0.01, -0.01, 0.0, 0.01, -0.01])
    paired = estimates.paired_difference(a, b).se
    independent = math.hypot(estimates.over_seeds(a).se, estimates.over_seeds(b).se)
    assert paired < independent / 10


def test_paired_difference_refuses_different_shapes():
    with pytest.raises(ValueError, match="same shape"):
        estimates.paired_difference([1.0, 2.0], [1.0, 2.0, 3.0])


# --- Student's t ------------------------------------------------------------------


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 10, 15, 16, 30, 101])
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_t_quantile_against_the_integrated_density(df, level):
    t = estimates.t_quantile(df, level)
    assert t_central_by_integration(t, df) == pytest.approx(level, abs=1e-9)


@pytest.mark.parametrize("df, want", [(1, 12.7062047361747), (2, 4.30265272974946),
                                      (5, 2.57058183563631), (7, 2.36462425159278),
                                      (15, 2.13144954555978), (30, 2.04227245630124)])
def test_t_quantile_against_published_tables(df, want):
    assert estimates.t_quantile(df) == pytest.approx(want, rel=1e-10)


def test_t_quantile_falls_with_df_towards_the_normal_quantile():
    q = [estimates.t_quantile(df) for df in (1, 2, 5, 15, 100, 10**5)]
    assert q == sorted(q, reverse=True) and q[-1] == pytest.approx(1.959964, abs=1e-4)


# --- independent sets of seeds (issue 38) ----------------------------------------


def test_pool_by_hand():
    e1, e2 = estimates.Estimate(0.1, 0.02, 15, 16), estimates.Estimate(0.2, 0.04, 7, 8)
    p = estimates.pool([e1, e2])
    assert p.mean == pytest.approx((16 * 0.1 + 8 * 0.2) / 24)
    assert p.se == pytest.approx(math.sqrt((16 * 0.02) ** 2 + (8 * 0.04) ** 2) / 24)
    assert (p.df, p.n_seeds) == (22, 24)
    with pytest.raises(TypeError, match="^estimates must be"):
        estimates.pool([0.1])


# --- issue 40 -------------------------------------------------------------------------


def test_t_quantile_above_the_asymptotic_threshold_makes_no_sum_of_df_terms():
    # t_quantile(10**6) took 34 s, Estimate(0, 1, 10**6, 4).interval() 24 s:
    # above ASYMPTOTIC_DF the exact sum (O(df) per call) is not called at all
    with mock.patch.object(estimates, "_t_central", side_effect=AssertionError("O(df) sum called")):
        assert estimates.t_quantile(10**6) == pytest.approx(1.959966, abs=6e-7)  # R: qt(0.975, 1e6)
        low, high = estimates.Estimate(0.0, 1.0, 10**6, 4).interval()
        assert high == -low == estimates.t_quantile(10**6)
        assert estimates.t_quantile(10**400) == pytest.approx(1.959963984540054, rel=1e-15)


@pytest.mark.parametrize("df", [estimates.ASYMPTOTIC_DF + 1, 1500, 3001])
@pytest.mark.parametrize("level", [0.5, 0.8, 0.95, 0.99, 0.999])
def test_the_asymptotic_t_quantile_agrees_with_the_exact_sum(df, level):
    with mock.patch.object(estimates, "ASYMPTOTIC_DF", 10**9):  # the exact sum, by bisection
        exact = estimates.t_quantile(df, level)
    assert estimates.t_quantile(df, level) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("df, level, want", [
    # R's qt(), as printed in the t tables of textbooks: qt(0.975, 1000), qt(0.995, 1000),
    # qt(0.975, 10000); and the normal quantiles, the limit df -> infinity. Each equals
    # scipy.estimates.t.ppf / norm.ppf (scipy 1.17.1) to the digits given
    (1000, 0.95, 1.962339), (1000, 0.99, 2.580755), (10_000, 0.95, 1.960201),
    (10**15, 0.95, 1.959963984540054), (10**15, 0.99, 2.5758293035489), (10**15, 0.999, 3.2905267314919),
])
def test_the_asymptotic_t_quantile_against_published_values(df, level, want):
    digits = len(str(want).split(".")[1])
    # to the digits given, or to the 1e-14 that erfc allows the normal quantile
    assert estimates.t_quantile(df, level) == pytest.approx(want, abs=max(0.6 * 10**-digits, 1e-14 * want))


@pytest.mark.parametrize("kwargs, error, words", [
    # decide(Estimate(0.0, -1.0, 3, 4)) was "clear" with the interval [+3.18, -3.18]
    (dict(mean=0.0, se=-1.0, df=3, n_seeds=4), ValueError, r"^se must be in \[0.0, inf\)"),
    (dict(mean=0.0, se=math.nan, df=3, n_seeds=4), ValueError, "^se must be finite"),
    (dict(mean=np.array([0.1, 0.2]), se=1.0, df=3, n_seeds=4), TypeError, "^mean must be a real number"),
    (dict(mean=0.0, se=1.0, df=0, n_seeds=4), ValueError, "^df must be an integer >= 1"),
    (dict(mean=0.0, se=1.0, df=2.0, n_seeds=4), TypeError, "^df must be an integer"),
    (dict(mean=0.0, se=1.0, df=3, n_seeds=0), ValueError, "^n_seeds must be an integer >= 1"),
    (dict(mean=0.0, se=1.0, df=3, n_seeds=4, n_items=0), ValueError, "^n_items must be an integer >= 1"),
])
def test_an_estimate_is_checked_when_it_is_made(kwargs, error, words):
    with pytest.raises(error, match=words):
        estimates.Estimate(**kwargs)


def test_an_estimate_holds_plain_python_numbers():
    e = estimates.Estimate(np.float32(0.5), np.float64(0.25), np.int64(3), 4, np.int32(10))
    assert type(e.mean) is float and type(e.se) is float and type(e.df) is int and type(e.n_items) is int


def test_paired_difference_of_3d_arrays_says_what_is_wrong():
    # two 3-D arrays of the same shape were told they "must have the same shape"
    with pytest.raises(ValueError, match=r"^a and b must be \(n_seeds,\) or \(n_seeds, n_items\), one or two axes"):
        estimates.paired_difference(np.ones((2, 3, 4)), np.ones((2, 3, 4)))


def test_seeds_and_items_takes_the_booleans_that_pair_means_takes():
    right = np.array([[True, False, True], [True, True, False]])
    assert estimates.seeds_and_items(right) == estimates.seeds_and_items(right.astype(float))


def test_posenc_stats_lists_every_estimate_with_the_rules():
    # the chapters and DESIGN.md's rules call them as posenc.stats.<name>
    from posenc import stats
    for name in estimates.__all__:
        assert name in stats.__all__ and getattr(stats, name) is getattr(estimates, name), name
