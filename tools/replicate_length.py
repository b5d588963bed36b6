"""``make replicate``: chapter 6's experiment again, on further sets of 16 seeds.

A set of 16 seeds is a sample: another set gives other models, and a
verdict that rests on one set may not repeat (issue 38). This tool runs the
design of *Train short, test long* (``book/06_length.ipynb``) on set 0, the
chapter's own seeds 0-15, and on ``--sets`` further sets (set ``k`` trains
seeds ``16k`` to ``16k + 15`` and draws its own test sets, length ``n`` from
seed ``1000 + 100000 k + n``), so that every set is an independent rerun of
the whole experiment. It runs the chapter's own code: the notebook's code
cells tagged ``replicate`` (the design, the training, the scoring and the
decisions), executed here in one namespace, then called again with each
set's seeds. Set 0 also gets the fixed-budget control of the chapter's
primary comparisons (every model trained all 1500 steps); ``--fixed-sets``
gives it to more sets.

It writes ``posenc/data/replication_length.json`` (package data, read by
``posenc.stats.replication``, so that the chapter runs alone, on Colab too):

- ``code_version``: the commit, whether posenc or the chapter had changes
  not committed, the versions of Python, NumPy and posenc, and the
  arithmetic pins (``tools.paths.ARITHMETIC_ENV``);
- ``design``: the groups, steps, test lengths and seeds;
- ``sets``: for each set, its seeds and test seed, every group's converged
  seeds, steps and per-seed accuracy at every test length, and every
  decision (the primary comparisons at 95%, the exploratory family with
  its raw p-values and Holm's verdicts), for the early-stopped models and
  for the fixed-budget control;
- ``summary``: for every decision, the verdict of set 0, those of the
  further sets, how often set 0's repeated, and the estimate pooled over
  the further sets (``posenc.stats.pool``).

``tests/book/test_replication.py`` re-derives the summary and each set's
means, counts and sign-flip tests from the stored per-seed results, and
retrains one model of the file to check it; the chapter checks that set 0
is what it computes itself. Not run by nbval or ``make test``: about 7
CPU-minutes here (nice 10, one process).

    python -m tools.replicate_length [--sets 9] [--out posenc/data/replication_length.json]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pathlib
import platform
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools.paths import ARITHMETIC_ENV  # noqa: E402  (before numpy: the pin)

CHAPTER = ROOT / "book" / "06_length.ipynb"
# package data, so that the chapter, which shows it, runs anywhere (posenc.stats.replication)
OUT = ROOT / "posenc" / "data" / "replication_length.json"
TAG = "replicate"
SET_SIZE = 16


def test_seed(k):
    """The seed of set ``k``'s test sets: length ``n`` is drawn with ``test_seed(k) + n``."""
    return 1000 + 100_000 * k


def chapter_design(chapter=CHAPTER):
    """The namespace of the chapter's cells tagged ``replicate``, run in order.

    Running them computes set 0 exactly as the chapter does (its runs,
    scores and decisions); their functions then run the other sets.
    """
    import matplotlib

    matplotlib.use("Agg")
    import nbformat

    nb = nbformat.read(chapter, as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code" and TAG in c.metadata.get("tags", [])]
    if not cells:
        raise SystemExit(f"{chapter} has no code cell tagged {TAG!r}")
    namespace = {"__name__": "chapter"}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells:
            exec(compile(cell.source, str(chapter), "exec"), namespace)
    return namespace


def key(decision):
    """``("look-back", "alibi", "rope 400", 64)`` -> ``"look-back|alibi|rope 400|64"``."""
    return "|".join(map(str, decision))


def category(clear, mean):
    """A verdict as one word: "+" or "-" when clear that way, "0" when not resolved."""
    return ("+" if mean > 0 else "-") if clear else "0"


def record_groups(runs, pair_score):
    groups = {}
    for (task_name, group), (_, history) in runs.items():
        entry = {"converged": [bool(x) for x in history["converged"]],
                 "steps": [int(x) for x in history["steps"]]}
        lengths = sorted(n for (t, g, n) in pair_score if (t, g) == (task_name, group))
        if lengths:
            entry["accuracy"] = [[float(pair_score[task_name, group, n][m].mean()) for n in lengths]
                                 for m in range(len(entry["converged"]))]
            entry["lengths"] = lengths
        groups[f"{task_name}|{group}"] = entry
    return groups


def record_decision(comparison, kind, holm_clear=None):
    v, e = comparison.verdict, comparison.estimate
    out = {"kind": kind, "n_both": comparison.n_both, "mean": e.mean, "se": e.se, "df": e.df,
           "low": v.low, "high": v.high, "clear": v.clear, "p_t": comparison.p_t,
           "p_sign": comparison.p_sign, "above": comparison.above, "below": comparison.below,
           "verdict": category(v.clear, e.mean)}
    if holm_clear is not None:
        out["holm_clear"] = bool(holm_clear)
        out["verdict"] = category(bool(holm_clear), e.mean)
    return out


def record_set(ns, k, seeds, runs, pair_score, converged, fixed):
    primary, family, holm_clear = ns["decide_all"](pair_score, converged)
    decisions = {key(c): record_decision(x, "primary") for c, x in primary.items()}
    decisions.update({key(c): record_decision(x, "exploratory", holm_clear[c])
                      for c, x in family.items()})
    out = {"set": k, "seeds": list(seeds), "test_seed": test_seed(k),
           "groups": record_groups(runs, pair_score), "decisions": decisions}
    if fixed is not None:
        runs_fixed, scores_fixed, converged_fixed = fixed
        primary_fixed, _, _ = ns["decide_all"](scores_fixed, converged_fixed)
        out["fixed_budget"] = {"groups": record_groups(runs_fixed, scores_fixed),
                               "decisions": {key(c): record_decision(x, "primary")
                                             for c, x in primary_fixed.items()}}
    return out


def summarize(sets, stats):
    """For every decision of set 0: its verdict, the further sets', how often it repeated, the pooled estimate."""
    summary = {}
    for part in ("decisions", "fixed_budget"):
        def decisions(s):
            return s["decisions"] if part == "decisions" else s.get("fixed_budget", {}).get("decisions")
        out = {}
        for name, d0 in (decisions(sets[0]) or {}).items():
            later = [decisions(s).get(name) for s in sets[1:] if decisions(s) is not None]
            verdicts = [d["verdict"] if d is not None else "not ranked" for d in later]
            present = [d for d in later if d is not None]
            pooled = stats.pool([stats.Estimate(d["mean"], d["se"], d["df"], d["n_both"])
                                 for d in present]) if present else None
            entry = {"kind": d0["kind"], "verdict": d0["verdict"], "verdicts": verdicts,
                     "repeated": sum(v == d0["verdict"] for v in verdicts), "of": len(verdicts)}
            if pooled is not None:
                low, high = pooled.interval()
                entry["pooled"] = {"mean": pooled.mean, "se": pooled.se, "df": pooled.df,
                                   "n_seeds": pooled.n_seeds, "low": low, "high": high}
            out[name] = entry
        summary[part] = out
    return summary


def code_version():
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    import numpy as np

    import posenc

    changed = git("status", "--porcelain", "--", "posenc", str(CHAPTER.relative_to(ROOT)))
    return {"commit": git("rev-parse", "HEAD") or None, "uncommitted_changes": bool(changed),
            "posenc": posenc.__version__, "numpy": np.__version__,
            "python": platform.python_version(), **ARITHMETIC_ENV}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=9, help="further sets of 16 seeds (default 9)")
    parser.add_argument("--fixed-sets", type=int, default=1,
                        help="sets that also get the fixed-budget control (default 1: set 0)")
    parser.add_argument("--out", type=pathlib.Path, default=OUT)
    args = parser.parse_args(argv)
    if args.sets < 1:
        parser.error("--sets must be at least 1")
    with contextlib.suppress(OSError):
        os.nice(10)
    start = time.process_time()
    version = code_version()  # before the chapter's cells load posenc
    ns = chapter_design()
    if version["uncommitted_changes"]:
        print("warning: posenc or the chapter has changes not committed; the file records it",
              file=sys.stderr)
    sets = []
    if args.fixed_sets < 0:
        parser.error("--fixed-sets must be 0 or more")
    for k in range(args.sets + 1):
        seeds = list(range(SET_SIZE * k, SET_SIZE * (k + 1)))
        if k == 0:  # the chapter's own set, computed by its cells
            runs, pair_score, converged, tests = ns["runs"], ns["pair_score"], ns["converged"], ns["tests"]
        else:
            runs = ns["train_all"](seeds)
            tests = ns["test_sets"](test_seed(k))
            pair_score = ns["score"](runs, tests)
            converged = {key_: h["converged"] for key_, (_, h) in runs.items()}
        fixed = ns["train_fixed"](seeds, tests) if k < args.fixed_sets else None
        sets.append(record_set(ns, k, seeds, runs, pair_score, converged, fixed))
        print(f"set {k} (seeds {seeds[0]}-{seeds[-1]}) done, {(time.process_time() - start) / 60:.1f} "
              f"CPU-minutes so far", file=sys.stderr, flush=True)
        write(args.out, ns, version, start, sets)  # after every set: a run cut short keeps its sets


def write(out, ns, version, start, sets):
    stats = ns["posenc"].stats
    design = {"chapter": str(CHAPTER.relative_to(ROOT)), "groups": ns["GROUPS"],
              "steps": ns["STEPS"], "check_every": ns["CHECK_EVERY"],
              "train_lengths": list(ns["TRAIN_LENGTHS"]), "test_lengths": ns["TEST_LENGTHS"],
              "n_pairs": ns["N_PAIRS"], "set_size": SET_SIZE,
              "test_seed": "1000 + 100000 k + n for set k and length n",
              "primary": [key(c) for c in ns["PRIMARY"]]}
    data = {"made_by": "make replicate (tools/replicate_length.py)", "code_version": version,
            "design": design, "cpu_minutes": round((time.process_time() - start) / 60, 1),
            "sets": sets, "summary": summarize(sets, stats)}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {out} ({len(sets)} sets, {data['cpu_minutes']} CPU-minutes)", file=sys.stderr)


if __name__ == "__main__":
    if any(os.environ.get(name) != value for name, value in ARITHMETIC_ENV.items()):
        # the pin must be set before NumPy loads (and OpenBLAS): run again with it
        os.execve(sys.executable, [sys.executable, "-m", "tools.replicate_length", *sys.argv[1:]],
                  {**os.environ, **ARITHMETIC_ENV})
    main()
