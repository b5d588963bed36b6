"""Benchmark of training the tiny model of ``posenc.model``: run it with ``make bench``.

The chapters train many small models (five schemes, two tasks, at least
eight seeds each, 1500 steps), inside notebooks that must run in well
under a minute. This script measures, side by side in one run, what that
costs with four ways of training the same eight seeds:

(a) ``before``: the code as it was before the speed-up
    (``tools/bench_training_reference.py``), one model at a time, float64;
(b) ``one by one``: today's ``posenc.model`` and ``posenc.training``, one model at a time, float64;
(c) ``stack, float64``: today's code, the eight models as one stack;
(d) ``stack, float32``: the same in float32, as the chapters train.

Each case reports the CPU time (user + system of this process) and the wall
time per model and training step. The machine may be shared and noisy, so
the cases run in turn, one sample of each per round, and each reports the
median over the rounds; the ratios compare medians taken in the same run.
Speed ratios depend on the CPU and on the load of the machine.

Importing this module does nothing; everything runs under :func:`main`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from posenc import model, tasks, training

SEEDS = list(range(8))
TASKS = {  # name: (task, init_model options)
    "order": (tasks.order_task, {}),
    "look-back": (tasks.lookback_task, {"causal": True, "readout": "last"}),
}


def before(scheme, task, options, steps):
    from tools import bench_training_reference as reference

    for seed in SEEDS:
        reference.train(model.init_model(scheme, seed=seed, **options), steps=steps,
                        task=task, seed=seed)


def one_by_one(scheme, task, options, steps):
    for seed in SEEDS:
        training.train(model.init_model(scheme, seed=seed, **options), steps=steps,
                      task=task, seed=seed)


def stack(dtype):
    def run(scheme, task, options, steps):
        stacked = model.init_model(scheme, seed=SEEDS, dtype=dtype, **options)
        training.train(stacked, steps=steps, task=task, seed=SEEDS)
    return run


CASES = {"before": before, "one by one": one_by_one,
         "stack, float64": stack(np.float64), "stack, float32": stack(np.float32)}


def check_stack_equals_one_by_one(scheme, task, options, steps=50):
    """A stack is only faster: its models end where each would end alone."""
    stacked, _ = training.train(model.init_model(scheme, seed=SEEDS, **options),
                               steps=steps, task=task, seed=SEEDS)
    for m, seed in enumerate(SEEDS):
        alone, _ = training.train(model.init_model(scheme, seed=seed, **options),
                                 steps=steps, task=task, seed=seed)
        for name, x in alone["params"].items():
            np.testing.assert_allclose(stacked["params"][name][m], x, rtol=1e-9, atol=1e-12)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=300, help="training steps per model")
    parser.add_argument("--rounds", type=int, default=3, help="samples of each case")
    parser.add_argument("--schemes", nargs="+", default=["rope", "learned"],
                        choices=model.SCHEMES)
    args = parser.parse_args(argv)

    print(f"{len(SEEDS)} seeds x {args.steps} steps, batches of 32, lengths 4 to 16; "
          f"median of {args.rounds} rounds")
    print("time per model and training step (ms); speed-up = before / this case\n")
    print(f"{'scheme':>10} {'task':>9} {'case':>15} {'CPU':>7} {'wall':>7} "
          f"{'speed-up (CPU)':>15}")
    for scheme in args.schemes:
        for task_name, (task, options) in TASKS.items():
            check_stack_equals_one_by_one(scheme, task, options)
            cpu = {name: [] for name in CASES}
            wall = {name: [] for name in CASES}
            for r in range(args.rounds):
                names = list(CASES)
                names = names[r % len(names):] + names[:r % len(names)]  # rotate the order
                for name in names:
                    c0, w0 = time.process_time(), time.perf_counter()
                    CASES[name](scheme, task, options, args.steps)
                    per_step = len(SEEDS) * args.steps / 1000  # -> ms per model-step
                    cpu[name].append((time.process_time() - c0) / per_step)
                    wall[name].append((time.perf_counter() - w0) / per_step)
            base = statistics.median(cpu["before"])
            for name in CASES:
                c, w = statistics.median(cpu[name]), statistics.median(wall[name])
                print(f"{scheme:>10} {task_name:>9} {name:>15} {c:7.3f} {w:7.3f} "
                      f"{base / c:14.1f}x")
            print()
    print("check: every model of a stack ends where it ends when trained alone (float64)")


if __name__ == "__main__":
    main()
