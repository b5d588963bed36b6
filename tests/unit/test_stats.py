"""Tests of posenc.stats: the book's experiment rules, against hand-computed
cases, an independent integration of Student's t density, and simulations of
the two-way design whose answers are known."""

from __future__ import annotations

import math
from unittest import mock

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


# --- per-seed convergence, several comparisons, power, skew (issue 38) ----------


def test_rankable_needs_three_quarters_of_the_seeds():
    assert stats.rankable(np.arange(16) < 12) and not stats.rankable(np.arange(16) < 11)
    assert stats.rankable([True] * 3 + [False]) and not stats.rankable([True, True, False, False])
    assert stats.rankable(np.arange(16) < 8, share=0.5)


@pytest.mark.parametrize("value", [[], [1, 0], [[True, False]], "yes"])
def test_rankable_refuses_what_is_not_a_row_of_booleans(value):
    with pytest.raises(ValueError, match="^converged must be a 1-D array of booleans"):
        stats.rankable(value)


def test_two_ranked_groups_share_at_least_half_of_their_seeds():
    # the reason for the share: each misses at most a quarter
    for k in range(12, 17):
        a = np.arange(16) < k
        b = np.arange(16) >= 16 - k  # missing the other end
        assert stats.rankable(a) and stats.rankable(b) and np.sum(a & b) >= 8


def test_group_estimate_averages_the_converged_seeds_only():
    scores = np.random.default_rng(5).integers(0, 2, (6, 30)).astype(float)
    ok = np.array([True, False, True, True, False, True])
    assert stats.group_estimate(scores, ok) == stats.seeds_and_items(scores[ok])
    assert stats.group_estimate(scores[:, 0], ok) == stats.over_seeds(scores[ok, 0])
    assert stats.group_estimate(scores) == stats.seeds_and_items(scores)
    with pytest.raises(ValueError, match="at least 2"):
        stats.group_estimate(scores, np.arange(6) == 0)
    with pytest.raises(ValueError, match="^converged must be 6 booleans"):
        stats.group_estimate(scores, [True] * 5)


@pytest.mark.parametrize("t, df", [(2.0, 10), (1.0, 3), (3.5, 15), (0.3, 1), (2.5, 30)])
def test_t_pvalue_against_the_integrated_density(t, df):
    p = stats.t_pvalue(stats.Estimate(mean=-t, se=1.0, df=df, n_seeds=df + 1))
    assert p == pytest.approx(1 - _t_central_by_integration(t, df), abs=1e-9)


def test_t_pvalue_against_a_published_value():
    # two-sided p of t = 2 with 10 df: 0.0734 (any t table)
    assert stats.t_pvalue(stats.Estimate(2.0, 1.0, 10, 11)) == pytest.approx(0.07339, abs=1e-5)


def test_t_pvalue_is_below_005_exactly_when_decide_is_clear():
    rng = np.random.default_rng(6)
    for _ in range(200):
        e = stats.over_seeds(rng.normal(0.3, 1.0, size=16))
        assert (stats.t_pvalue(e) < 0.05) == stats.decide(e).clear
    assert stats.t_pvalue(stats.Estimate(0.2, 0.0, 15, 16)) == 0.0
    assert stats.t_pvalue(stats.Estimate(0.0, 0.0, 15, 16)) == 1.0


def _sign_flip_by_brute_force(d):
    import itertools

    d = np.asarray(d, dtype=float)
    sums = [abs(np.dot(s, d)) for s in itertools.product([-1, 1], repeat=len(d))]
    return np.mean([s >= abs(d.sum()) - 1e-12 for s in sums])


@pytest.mark.parametrize("seed", range(5))
def test_sign_flip_pvalue_against_brute_force(seed):
    d = np.random.default_rng(seed).normal(0.2, 1.0, size=9).round(2)
    assert stats.sign_flip_pvalue(d) == _sign_flip_by_brute_force(d)


def test_sign_flip_pvalue_on_darwins_zea_mays():
    # Fisher (1935), The Design of Experiments, section 21: the differences in
    # height (eighths of an inch) of 15 pairs of cross- and self-fertilised
    # plants; 863 of the 32,768 sign patterns give a sum at least as large,
    # so the two-sided p-value is 2 * 863 / 32768 = 0.0527.
    darwin = [49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48]
    assert stats.sign_flip_pvalue(darwin) == 2 * 863 / 32768


def test_sign_flip_pvalue_counts_ties_and_refuses_too_many_seeds():
    assert stats.sign_flip_pvalue([0.1, -0.1]) == 1.0  # sums 0, 0.2, -0.2, 0: all >= 0
    assert stats.sign_flip_pvalue([0.3, 0.1 + 0.2]) == 0.5  # 0.3 and 0.1 + 0.2 tie
    with pytest.raises(ValueError, match="at most 20"):
        stats.sign_flip_pvalue(np.ones(21))


def test_holm_by_hand():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04;
    # running maximum 0.02, 0.03, 0.06, 0.06
    np.testing.assert_allclose(stats.holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])
    # sorted 0.005, 0.01, 0.03, 0.04, 0.07, 0.2 times 6 ... 1: 0.03, 0.05,
    # 0.12, 0.12, 0.14, 0.2 (already rising)
    np.testing.assert_allclose(stats.holm([0.01, 0.04, 0.20, 0.03, 0.005, 0.07]),
                               [0.05, 0.12, 0.20, 0.12, 0.03, 0.14])
    np.testing.assert_allclose(stats.holm([0.5, 0.6]), [1.0, 1.0])  # capped at 1


def test_holm_against_the_published_example():
    # Holm-Bonferroni method (Wikipedia's example): four hypotheses at 0.05
    # with p = 0.01, 0.04, 0.03, 0.005; H1 and H4 are rejected, H2 and H3 not.
    np.testing.assert_array_equal(stats.decide_family([0.01, 0.04, 0.03, 0.005]),
                                  [True, False, False, True])


def test_holm_lies_between_the_raw_p_values_and_bonferroni():
    p = np.random.default_rng(7).uniform(0, 0.2, size=29)
    adjusted = stats.holm(p)
    assert np.all(adjusted >= p) and np.all(adjusted <= np.minimum(1, 29 * p) + 1e-15)
    order = np.argsort(p)
    assert np.all(np.diff(adjusted[order]) >= 0)  # the order of the p-values is kept


def test_holm_keeps_the_familywise_error_at_5_percent():
    # 10 true null hypotheses, independent: plain 5% tests call at least one
    # clear in 1 - 0.95**10 = 40% of the families; Holm in at most 5%
    p = np.random.default_rng(8).uniform(size=(4000, 10))
    any_raw = np.mean((p < 0.05).any(axis=1))
    any_holm = np.mean([stats.decide_family(row).any() for row in p])
    assert any_raw == pytest.approx(0.40, abs=0.03) and any_holm <= 0.055


def test_holm_refuses_what_is_not_a_p_value():
    with pytest.raises(ValueError, match=r"^p_values must lie in \[0, 1\]"):
        stats.holm([0.2, 1.5])


def test_the_bootstrap_error_is_the_books_estimator_on_each_resample():
    rng = np.random.default_rng(9)
    rows = rng.integers(0, 3, (16, 40)) / 2 - rng.integers(0, 3, (16, 40)) / 2
    draws = rng.integers(0, 16, (5, 16))
    counts = np.zeros((5, 16))
    np.add.at(counts, (np.arange(5)[:, None], draws), 1.0)
    mean, se = stats._bootstrap_se(rows, counts)
    mean1, se1 = stats._bootstrap_se(rows.mean(axis=1), counts)
    for r, idx in enumerate(draws):
        e = stats.seeds_and_items(rows[idx])
        assert mean[r] == pytest.approx(e.mean, abs=1e-12) and se[r] == pytest.approx(e.se, abs=1e-12)
        e1 = stats.over_seeds(rows[idx].mean(axis=1))
        assert mean1[r] == pytest.approx(e1.mean, abs=1e-12) and se1[r] == pytest.approx(e1.se, abs=1e-12)


def test_power_of_a_difference_that_only_just_passes_is_about_one_half():
    z = np.random.default_rng(10).normal(size=16)
    z = (z - z.mean()) / z.std(ddof=1)  # mean 0, sd 1
    just = z + stats.t_quantile(15) / 4  # t = t_quantile(15) exactly: p = 0.05
    assert stats.t_pvalue(stats.over_seeds(just)) == pytest.approx(0.05)
    assert 0.4 < stats.power(just) < 0.6
    assert stats.power(z + 2.0) == 1.0 and stats.power(z + 0.1) < 0.2
    # more seeds, more power
    assert stats.power(z + 0.4, n_seeds=8) < stats.power(z + 0.4) < stats.power(z + 0.4, n_seeds=64)


def test_compare_uses_the_seeds_where_both_converged():
    rng = np.random.default_rng(11)
    a, b = rng.integers(0, 2, (8, 30)).astype(float), rng.integers(0, 2, (8, 30)).astype(float)
    ok_a = np.array([1, 1, 1, 0, 1, 1, 1, 1], bool)
    ok_b = np.array([1, 1, 1, 1, 1, 0, 1, 1], bool)
    c = stats.compare(a, b, converged_a=ok_a, converged_b=ok_b)
    both = ok_a & ok_b
    assert c.estimate == stats.paired_difference(a[both], b[both])
    assert (c.n_both, c.n_seeds, c.converged_a, c.converged_b) == (6, 8, 7, 7)
    per_seed = (a - b)[both].mean(axis=1)
    assert c.p_sign == stats.sign_flip_pvalue(per_seed) and c.p_t == stats.t_pvalue(c.estimate)
    assert (c.above, c.below) == (np.sum(per_seed > 0.05), np.sum(per_seed < -0.05))
    np.testing.assert_array_equal(c.rows, (a - b)[both])
    assert stats.power(c) == stats.power((a - b)[both])
    assert str(c).endswith(f"6 of 8 seeds; p = {c.p_t:.3f} (t), {c.p_sign:.3f} (sign flip); "
                           f"beyond ±0.05: {c.above} up, {c.below} down")


def test_compare_says_when_the_two_tests_disagree():
    # seven seeds alike, one far ahead: t calls it not resolved, and so does
    # the sign-flip test; with 15 small positive ones and one large, t is
    # pulled by the large seed's spread while every sign is +
    skewed = np.array([0.005] * 15 + [0.5])
    c = stats.compare(skewed, np.zeros(16))
    assert c.p_sign == 2 / 2**16 and c.p_t > 0.05 and not c.tests_agree
    assert (c.above, c.below) == (1, 0)
    steady = stats.compare(np.full(16, 0.1) + np.linspace(-0.01, 0.01, 16), np.zeros(16))
    assert steady.tests_agree and steady.clear


def test_compare_refuses_too_few_shared_seeds():
    with pytest.raises(ValueError, match="only 1 seed"):
        stats.compare([0.1, 0.2, 0.3], [0.0, 0.1, 0.1], converged_a=[True, False, False])


def test_pool_by_hand():
    e1, e2 = stats.Estimate(0.1, 0.02, 15, 16), stats.Estimate(0.2, 0.04, 7, 8)
    p = stats.pool([e1, e2])
    assert p.mean == pytest.approx((16 * 0.1 + 8 * 0.2) / 24)
    assert p.se == pytest.approx(math.sqrt((16 * 0.02) ** 2 + (8 * 0.04) ** 2) / 24)
    assert (p.df, p.n_seeds) == (22, 24)
    with pytest.raises(TypeError, match="^estimates must be"):
        stats.pool([0.1])


# --- issue 40 -------------------------------------------------------------------------


def test_t_quantile_above_the_asymptotic_threshold_makes_no_sum_of_df_terms():
    # t_quantile(10**6) took 34 s, Estimate(0, 1, 10**6, 4).interval() 24 s:
    # above ASYMPTOTIC_DF the exact sum (O(df) per call) is not called at all
    with mock.patch.object(stats, "_t_central", side_effect=AssertionError("O(df) sum called")):
        assert stats.t_quantile(10**6) == pytest.approx(1.959966, abs=6e-7)  # R: qt(0.975, 1e6)
        low, high = stats.Estimate(0.0, 1.0, 10**6, 4).interval()
        assert high == -low == stats.t_quantile(10**6)
        assert stats.t_quantile(10**400) == pytest.approx(1.959963984540054, rel=1e-15)


@pytest.mark.parametrize("df", [stats.ASYMPTOTIC_DF + 1, 1500, 3001])
@pytest.mark.parametrize("level", [0.5, 0.8, 0.95, 0.99, 0.999])
def test_the_asymptotic_t_quantile_agrees_with_the_exact_sum(df, level):
    with mock.patch.object(stats, "ASYMPTOTIC_DF", 10**9):  # the exact sum, by bisection
        exact = stats.t_quantile(df, level)
    assert stats.t_quantile(df, level) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("df, level, want", [
    # R's qt(), as printed in the t tables of textbooks: qt(0.975, 1000), qt(0.995, 1000),
    # qt(0.975, 10000); and the normal quantiles, the limit df -> infinity. Each equals
    # scipy.stats.t.ppf / norm.ppf (scipy 1.17.1) to the digits given
    (1000, 0.95, 1.962339), (1000, 0.99, 2.580755), (10_000, 0.95, 1.960201),
    (10**15, 0.95, 1.959963984540054), (10**15, 0.99, 2.5758293035489), (10**15, 0.999, 3.2905267314919),
])
def test_the_asymptotic_t_quantile_against_published_values(df, level, want):
    digits = len(str(want).split(".")[1])
    # to the digits given, or to the 1e-14 that erfc allows the normal quantile
    assert stats.t_quantile(df, level) == pytest.approx(want, abs=max(0.6 * 10**-digits, 1e-14 * want))


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
        stats.Estimate(**kwargs)


def test_an_estimate_holds_plain_python_numbers():
    e = stats.Estimate(np.float32(0.5), np.float64(0.25), np.int64(3), 4, np.int32(10))
    assert type(e.mean) is float and type(e.se) is float and type(e.df) is int and type(e.n_items) is int


@pytest.mark.parametrize("accuracy, words", [
    ([], "at least one training length"), (np.zeros((3, 0)), "at least one training length"),
    ([5.0, 7.0], r"\[0, 1\]"), ([[1.0, -0.5]], r"\[0, 1\]"),
])
def test_converged_refuses_no_lengths_and_accuracies_outside_0_1(accuracy, words):
    # converged([]) and converged([5.0, 7.0]) were True
    with pytest.raises(ValueError, match=f"^accuracy must (hold|lie in) .*{words}|^accuracy {words}"):
        stats.converged(accuracy)


def test_paired_difference_of_3d_arrays_says_what_is_wrong():
    # two 3-D arrays of the same shape were told they "must have the same shape"
    with pytest.raises(ValueError, match=r"^a and b must be \(n_seeds,\) or \(n_seeds, n_items\), one or two axes"):
        stats.paired_difference(np.ones((2, 3, 4)), np.ones((2, 3, 4)))


def test_seeds_and_items_takes_the_booleans_that_pair_means_takes():
    right = np.array([[True, False, True], [True, True, False]])
    assert stats.seeds_and_items(right) == stats.seeds_and_items(right.astype(float))
