"""Tests of posenc.stats: the book's experiment rules (decisions, convergence,
several comparisons, power), against hand-computed cases, published
examples, brute force and simulations whose answers are known. The estimates
they decide on are tested in test_estimates.py."""

from __future__ import annotations

import numpy as np
import pytest
from t_density import t_central_by_integration

from posenc import stats

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
    assert p == pytest.approx(1 - t_central_by_integration(t, df), abs=1e-9)


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


# --- issue 40 -------------------------------------------------------------------------


@pytest.mark.parametrize("accuracy, words", [
    ([], "at least one training length"), (np.zeros((3, 0)), "at least one training length"),
    ([5.0, 7.0], r"\[0, 1\]"), ([[1.0, -0.5]], r"\[0, 1\]"),
])
def test_converged_refuses_no_lengths_and_accuracies_outside_0_1(accuracy, words):
    # converged([]) and converged([5.0, 7.0]) were True
    with pytest.raises(ValueError, match=f"^accuracy must (hold|lie in) .*{words}|^accuracy {words}"):
        stats.converged(accuracy)
