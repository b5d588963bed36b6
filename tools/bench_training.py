"""Benchmark of chapter 6's experiment, before and after issue 25's speed work: ``make bench``.

Chapter 6 (*Train short, test long*) trains each group of models as a stack
of 16 seeds in float32 and scores it on test sets of 1000 pairs or more at
six lengths, up to 64 tokens; chapter 4 does the same for two of its
groups. This script runs one such group both ways, side by side in one run:

``before``
    the code of commit 369aff7 (``tools/bench_training_reference.py``):
    every model trains 1500 steps, and ``forward`` computes every attention
    matrix in full, normalises it, then averages it for the readout;
``after``
    today's ``posenc``: ``train(..., check_every=250)`` stops each model at
    the first check where it meets the convergence rule (and leaves it out
    of the arithmetic from then on), and ``forward`` computes the readout's
    weights directly.

Each case reports the CPU time (user + system of this process) of training
and of scoring, in seconds. The machine may be shared and noisy, so the
cases run in turn, one sample of each per round, and each reports the median
over the rounds; the ratios compare medians taken in the same run. Before
timing, the script checks that the speed work changed no model: trained
without checks, today's code gives the reference's parameters bit for bit,
and today's ``forward`` gives the reference's logits to rounding.

Importing this module does nothing; everything runs under :func:`main`.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from posenc import frequencies, model, tasks, training

SEEDS = list(range(16))
STEPS, CHECK_EVERY = 1500, 250  # chapter 6: at most 1500 steps, the rule checked every 250
TEST_LENGTHS = [8, 16, 24, 32, 48, 64]
TASKS = {  # name: (task, test set, test pairs per length, init_model options), as in chapter 6
    "order": (tasks.order_task, tasks.order_test_set, 1000, {}),
    "look-back": (tasks.lookback_task, tasks.lookback_test_set, 2000,
                  {"causal": True, "readout": "last"}),
}
GROUPS = {  # name: (task, scheme, RoPE base)
    "order, learned": ("order", "learned", None),
    "look-back, rope 100": ("look-back", "rope", 100),
}


def stack(group):
    task_name, scheme, base = GROUPS[group]
    options = TASKS[task_name][3]
    models = model.init_model(scheme, seed=SEEDS, dtype=np.float32, **options)
    if base is not None:
        models = dict(models, inv_freq=frequencies(models["inv_freq"].size * 2, base=base))
    return models


def test_sets(group):
    _, make, pairs, _ = TASKS[GROUPS[group][0]]
    return [make(pairs, n, seed=1000 + n) for n in TEST_LENGTHS]


def before(group, sets):
    from tools import bench_training_reference as reference

    task = TASKS[GROUPS[group][0]][0]
    c0 = time.process_time()
    trained, _ = reference.train(stack(group), steps=STEPS, task=task, seed=SEEDS)
    c1 = time.process_time()
    for tokens, labels in sets:
        reference.forward(trained, tokens)
    return c1 - c0, time.process_time() - c1


def after(group, sets):
    task = TASKS[GROUPS[group][0]][0]
    c0 = time.process_time()
    trained, _ = training.train(stack(group), steps=STEPS, task=task, seed=SEEDS,
                                check_every=CHECK_EVERY)
    c1 = time.process_time()
    for tokens, labels in sets:
        model.forward(trained, tokens)
    return c1 - c0, time.process_time() - c1


CASES = {"before": before, "after": after}


def check_same_models(group, sets, steps=60):
    """The speed work changes no model: the same parameters, the same logits to rounding."""
    from tools import bench_training_reference as reference

    task = TASKS[GROUPS[group][0]][0]
    old, _ = reference.train(stack(group), steps=steps, task=task, seed=SEEDS)
    new, _ = training.train(stack(group), steps=steps, task=task, seed=SEEDS)
    for name, x in old["params"].items():
        np.testing.assert_array_equal(new["params"][name], x)
    worst, agree = 0.0, []
    for tokens, _ in sets:
        a, b = reference.forward(old, tokens), model.forward(new, tokens)
        worst = max(worst, float(np.abs(a - b).max() / np.abs(a).max()))
        agree.append(np.mean(a.argmax(-1) == b.argmax(-1)))
    assert worst < 1e-4, worst
    return worst, min(agree)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="samples of each case")
    parser.add_argument("--groups", nargs="+", default=list(GROUPS), choices=GROUPS)
    args = parser.parse_args(argv)

    print(f"chapter 6's set-up: a stack of {len(SEEDS)} seeds, float32, at most {STEPS} steps "
          f"(after: the rule checked every {CHECK_EVERY}),")
    print(f"test sets at lengths {TEST_LENGTHS}; CPU seconds, median of {args.rounds} rounds\n")
    print(f"{'group':>20} {'case':>7} {'train':>7} {'score':>7} {'total':>7} {'speed-up':>9}")
    for group in args.groups:
        sets = test_sets(group)
        worst, agree = check_same_models(group, sets)
        times = {name: [] for name in CASES}
        for r in range(args.rounds):
            names = list(CASES)[r % 2:] + list(CASES)[:r % 2]  # alternate the order
            for name in names:
                times[name].append(CASES[name](group, sets))
        median = {name: [statistics.median(t[i] for t in times[name]) for i in (0, 1)]
                  for name in CASES}
        base = sum(median["before"])
        for name in CASES:
            train_s, score_s = median[name]
            print(f"{group:>20} {name:>7} {train_s:7.2f} {score_s:7.2f} {train_s + score_s:7.2f} "
                  f"{base / (train_s + score_s):8.1f}x")
        print(f"{'':>20} training: {median['before'][0] / median['after'][0]:.1f}x, scoring: "
              f"{median['before'][1] / median['after'][1]:.1f}x faster; logits equal to "
              f"{worst:.0e} (relative), the same answer on at least {agree:.2%}\n")
    print("check: trained without checks, today's code gives the reference's models bit for bit")


if __name__ == "__main__":
    main()
