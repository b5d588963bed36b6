"""The stored replication of chapter 6 (``make replicate``,
``posenc/data/replication_length.json``): its summary re-derived from its
per-seed results, every number a set's decisions rest on re-derived where
the per-seed results allow it, and one stored model retrained to check that
the file holds what the code makes. The chapter itself checks that the
file's set 0 is what it computes (its cell "set 0 in the file is what this
chapter computed: True", which nbval re-runs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from posenc import stats
from tools import replicate_length
from tools.paths import ARITHMETIC_ENV, ROOT

DATA = json.loads(replicate_length.OUT.read_text())
SETS = DATA["sets"]


def _decisions(s, part):
    return s["decisions"] if part == "decisions" else s.get("fixed_budget", {}).get("decisions")


def test_the_file_says_what_made_it_and_holds_at_least_eight_further_sets():
    assert DATA["made_by"].startswith("make replicate")
    version = DATA["code_version"]
    assert len(version["commit"]) == 40 and version["OPENBLAS_CORETYPE"] == "Haswell"
    assert {"posenc", "numpy", "python", "uncommitted_changes"} <= set(version)
    assert len(SETS) >= 9  # set 0, the chapter's, and at least 8 further sets
    seeds = [seed for s in SETS for seed in s["seeds"]]
    assert all(len(s["seeds"]) == 16 for s in SETS) and len(set(seeds)) == len(seeds)
    assert SETS[0]["seeds"] == list(range(16))
    assert [s["test_seed"] for s in SETS] == [replicate_length.test_seed(k) for k in range(len(SETS))]
    assert DATA["cpu_minutes"] < 40  # the budget of issue 38, on this machine
    assert "fixed_budget" in SETS[0]


def _per_seed_difference(s, part, name):
    groups = s["groups"] if part == "decisions" else s["fixed_budget"]["groups"]
    task_name, a, b, n = name.split("|")
    g_a = groups[f"{task_name}|{a}"]
    acc_a = np.array(g_a["accuracy"])[:, g_a["lengths"].index(int(n))]
    ok_a = np.array(g_a["converged"])
    if b == "chance":
        return acc_a - 0.5, ok_a
    g_b = groups[f"{task_name}|{b}"]
    acc_b = np.array(g_b["accuracy"])[:, g_b["lengths"].index(int(n))]
    return acc_a - acc_b, ok_a & np.array(g_b["converged"])


@pytest.mark.parametrize("part", ["decisions", "fixed_budget"])
def test_each_decision_rests_on_the_stored_per_seed_results(part):
    checked = 0
    for s in SETS:
        for name, d in (_decisions(s, part) or {}).items():
            diff, both = _per_seed_difference(s, part, name)
            assert d["n_both"] == both.sum()
            per_seed = diff[both]
            assert d["mean"] == pytest.approx(per_seed.mean(), abs=1e-12)
            assert d["p_sign"] == stats.sign_flip_pvalue(per_seed)
            # seeds beyond the margin (a difference of exactly 0.05 may round either way)
            for count, sign in ((d["above"], 1), (d["below"], -1)):
                assert (np.sum(sign * per_seed > stats.MARGIN + 1e-9) <= count
                        <= np.sum(sign * per_seed > stats.MARGIN - 1e-9))
            # the interval and the t-test follow from the stored estimate
            e = stats.Estimate(d["mean"], d["se"], d["df"], d["n_both"])
            assert (d["low"], d["high"]) == pytest.approx(e.interval(), abs=1e-12)
            assert d["p_t"] == pytest.approx(stats.t_pvalue(e), abs=1e-12)
            assert d["clear"] == stats.decide(e).clear
            checked += 1
    assert checked >= (9 * 50 if part == "decisions" else 4)


def test_each_sets_exploratory_verdicts_are_holms_on_its_stored_p_values():
    for s in SETS:
        family = {name: d for name, d in s["decisions"].items() if d["kind"] == "exploratory"}
        clear = stats.decide_family([d["p_t"] for d in family.values()])
        assert [d["holm_clear"] for d in family.values()] == clear.tolist()
        for d in s["decisions"].values():
            said = d["holm_clear"] if d["kind"] == "exploratory" else d["clear"]
            assert d["verdict"] == (("+" if d["mean"] > 0 else "-") if said else "0")


@pytest.mark.parametrize("part", ["decisions", "fixed_budget"])
def test_the_summary_is_re_derived_from_the_sets(part):
    summary = DATA["summary"][part]
    first = _decisions(SETS[0], part)
    assert set(summary) == set(first)
    later_sets = [s for s in SETS[1:] if _decisions(s, part) is not None]
    for name, entry in summary.items():
        later = [_decisions(s, part).get(name) for s in later_sets]
        verdicts = [d["verdict"] if d else "not ranked" for d in later]
        assert entry["verdict"] == first[name]["verdict"] and entry["verdicts"] == verdicts
        assert entry["repeated"] == sum(v == first[name]["verdict"] for v in verdicts)
        assert entry["of"] == len(later_sets)
        present = [d for d in later if d]
        if present:
            pooled = stats.pool([stats.Estimate(d["mean"], d["se"], d["df"], d["n_both"]) for d in present])
            assert entry["pooled"]["mean"] == pytest.approx(pooled.mean, abs=1e-12)
            assert entry["pooled"]["se"] == pytest.approx(pooled.se, abs=1e-12)
            assert entry["pooled"]["n_seeds"] == sum(d["n_both"] for d in present)
            # the pooled mean is the mean over all the seeds compared
            seeds = np.concatenate([_per_seed_difference(s, part, name)[0][_per_seed_difference(s, part, name)[1]]
                                    for s in later_sets if name in _decisions(s, part)])
            assert entry["pooled"]["mean"] == pytest.approx(seeds.mean(), abs=1e-12)


RETRAIN = """
import json, sys
import numpy as np
import posenc
k, seed = int(sys.argv[1]), int(sys.argv[2])
stack = posenc.model.init_model("rope", seed=[seed], dtype=np.float32, causal=True, readout="last")
stack = dict(stack, inv_freq=posenc.frequencies(4, base=400))
trained, history = posenc.training.train(stack, steps=1500, lengths=(4, 16), task=posenc.tasks.lookback_task,
                                         seed=[seed], check_every=250)
tokens, labels = posenc.tasks.lookback_test_set(1000, 64, seed=1000 + 100000 * k + 64)
right = posenc.model.forward(trained, tokens).argmax(-1) == labels
print(json.dumps([bool(history["converged"][0]), int(history["steps"][0]),
                  float(posenc.stats.pair_means(right)[0].mean())]))
"""


def test_a_stored_model_is_what_the_code_makes():
    """Retrain one model of a further set (look-back task, RoPE with base
    400, its first seed) alone, under the book's arithmetic pin, and compare
    it with the file: the stack's model must end exactly as it ends alone."""
    k = 1
    s = SETS[k]
    seed = s["seeds"][0]
    out = subprocess.run([sys.executable, "-c", RETRAIN, str(k), str(seed)], cwd=ROOT, check=True,
                         capture_output=True, text=True, env={**os.environ, **ARITHMETIC_ENV}).stdout
    converged, steps, accuracy = json.loads(out)
    group = s["groups"]["look-back|rope 400"]
    assert (converged, steps) == (group["converged"][0], group["steps"][0])
    assert accuracy == group["accuracy"][0][group["lengths"].index(64)]
