"""Benchmark of ``posenc.sinusoidal``: run it with ``make bench``.

Three ways to get a table of shape ``(length, d_model)`` are timed side by
side, in one run, on the same machine:

(a) ``direct``: the implementation printed in the source document
    (frequencies by exp/log, then ``np.sin`` and ``np.cos`` of every angle
    written into the even and odd columns);
(b) ``posenc``: ``posenc.sinusoidal``, which computes long tables by angle
    addition (see ``_rotation_blocks`` in ``posenc/sinusoidal.py``);
(c) ``fill``: ``np.empty`` of the same shape and dtype, then ``fill``: the
    price of merely writing that much memory, which no method can beat.

The machine may be shared and noisy, so the three are run in turn, one
sample of each per round (in a rotating order), and each case reports the
median (and the minimum) over the rounds; the ratios compare numbers taken
side by side.
The results are printed as a table and written to
``book/data/bench_sinusoidal.json``, which the book's appendix reads.

Importing this module does nothing; everything runs under :func:`main`.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import statistics
import sys
import time

import numpy as np

import posenc

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "book" / "data" / "bench_sinusoidal.json"

# The targets of issue 9, for the headline case (16384, 1024), float64.
HEADLINE = (16384, 1024)
TARGET_SPEEDUP = 5.0  # posenc at least this many times faster than direct
TARGET_VS_FILL = 3.0  # posenc at most this many times the fill time


def source_direct(max_seq_len, d_model):
    """The function ``get_positional_encoding`` of the source document, verbatim."""
    pe = np.zeros((max_seq_len, d_model))
    position = np.arange(0, max_seq_len).reshape(-1, 1)  # Column vector for positions
    div_term = np.exp(np.arange(0, d_model, 2) * -(np.log(10000.0) / d_model))
    pe[:, 0::2] = np.sin(position * div_term)  # Apply sin to even indices in pe
    pe[:, 1::2] = np.cos(position * div_term)  # Apply cos to odd indices in pe
    return pe


def source_direct_odd(max_seq_len, d_model):
    """The same code with the cosine slice cut to fit an odd width (the source's fails)."""
    pe = np.zeros((max_seq_len, d_model))
    position = np.arange(0, max_seq_len).reshape(-1, 1)
    div_term = np.exp(np.arange(0, d_model, 2) * -(np.log(10000.0) / d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term[: d_model // 2])
    return pe


def fill(length, d_model, dtype):
    """Allocate and fill a table of the same shape and dtype: the floor."""
    table = np.empty((length, d_model), dtype=dtype)
    table.fill(0.5)
    return table


def methods(length, d_model, dtype, layout):
    """The three contenders for one case, as functions of no arguments.

    The source code only makes float64 tables in the paper's layout, and
    fails for an odd width (its cosine slice is one column short). So for a
    float32 case its table is converted with ``astype``, an odd width uses
    :func:`source_direct_odd`, and it is the reference for the "halves"
    layout too (the same sines and cosines, in other columns).
    """
    source = source_direct_odd if d_model % 2 else source_direct

    def direct():
        return source(length, d_model).astype(dtype, copy=False)

    return {
        "direct": direct,
        "posenc": lambda: posenc.sinusoidal(length, d_model, dtype=dtype, layout=layout),
        "fill": lambda: fill(length, d_model, dtype),
    }


def max_difference(length, d_model, dtype, layout):
    """Largest |posenc - direct| over the table: the timed code computes the right thing."""
    direct = (source_direct_odd if d_model % 2 else source_direct)(length, d_model)
    if layout == "halves":
        direct = np.hstack([direct[:, 0::2], direct[:, 1::2]])
    fast = posenc.sinusoidal(length, d_model, dtype=dtype, layout=layout)
    return float(np.abs(fast.astype(np.float64) - direct).max())


def loops_for(func, min_seconds):
    """How many calls make one sample last at least ``min_seconds``."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            func()
        if time.perf_counter() - start >= min_seconds:
            return number
        number *= 2


def time_side_by_side(funcs, rounds, min_seconds):
    """Seconds per call of each function: a list of ``rounds`` samples each.

    In every round each function is timed once, in turn, so a burst of load
    from another process hits all of them alike; the order rotates from
    round to round, so that none of them always runs right after another.
    """
    numbers = {name: loops_for(f, min_seconds) for name, f in funcs.items()}
    samples = {name: [] for name in funcs}
    names = list(funcs)
    for r in range(rounds):
        for name in names[r % len(names):] + names[: r % len(names)]:
            f = funcs[name]
            n = numbers[name]
            start = time.perf_counter()
            for _ in range(n):
                f()
            samples[name].append((time.perf_counter() - start) / n)
    return samples


def cases():
    """(group, length, d_model, dtype, layout) of every case, in print order."""
    L, d = HEADLINE
    out = [
        ("headline", L, d, "float64", "interleaved"),
        ("headline", L, d, "float32", "interleaved"),
        ("layout", L, d, "float64", "halves"),
        ("layout", L, d - 1, "float64", "interleaved"),
        ("size", 512, 512, "float64", "interleaved"),
        ("size", 2048, 512, "float64", "interleaved"),
        ("size", 4096, 768, "float64", "interleaved"),
    ]
    out += [("length", n, 512, "float64", "interleaved") for n in (1024, 4096, 16384, 65536)]
    out += [("width", 4096, w, "float64", "interleaved") for w in (64, 256, 1024, 4096)]
    return out


def machine():
    """A description of the machine in words (no paths, no dates)."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "logical_cpus": os.cpu_count(),
        "system": platform.system(),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }


def load_average():
    """The load averages over 1, 5 and 15 minutes (None where unknown)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def run(rounds, min_seconds, log=print):
    """Time every case, print a line for each, and return the results."""
    results = []
    log(f"{'case':>10} {'length':>6} {'d_model':>7} {'dtype':>7} {'layout':>11} | "
        f"{'direct':>9} {'posenc':>9} {'fill':>9} | {'direct/posenc':>13} {'posenc/fill':>11} {'ns/entry':>8} {'max diff':>9}")
    for group, length, d_model, dtype, layout in cases():
        samples = time_side_by_side(methods(length, d_model, dtype, layout), rounds, min_seconds)
        median = {k: statistics.median(v) for k, v in samples.items()}
        best = {k: min(v) for k, v in samples.items()}
        row = {
            "group": group,
            "length": length,
            "d_model": d_model,
            "dtype": dtype,
            "layout": layout,
            "median_seconds": median,
            "min_seconds": best,
            "samples_seconds": samples,
            "speedup": median["direct"] / median["posenc"],
            "vs_fill": median["posenc"] / median["fill"],
            "speedup_min": best["direct"] / best["posenc"],
            "vs_fill_min": best["posenc"] / best["fill"],
            "ns_per_entry": 1e9 * median["posenc"] / (length * d_model),
            "max_abs_difference": max_difference(length, d_model, dtype, layout),
        }
        results.append(row)
        log(f"{group:>10} {length:>6} {d_model:>7} {dtype:>7} {layout:>11} | "
            + " ".join(f"{1e3 * median[k]:>7.2f}ms" for k in ("direct", "posenc", "fill"))
            + f" | {row['speedup']:>12.1f}x {row['vs_fill']:>10.2f}x"
            + f" {row['ns_per_entry']:>8.2f} {row['max_abs_difference']:>9.1e}")
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="samples per method and case (default 9)")
    parser.add_argument("--min-seconds", type=float, default=0.02,
                        help="a sample repeats the call until it lasts this long (default 0.02)")
    parser.add_argument("--output", type=pathlib.Path, default=OUTPUT,
                        help="where to write the JSON results (default book/data/bench_sinusoidal.json)")
    args = parser.parse_args(argv)

    info = machine()
    print(f"posenc.sinusoidal benchmark: {info['cpu']}, {info['logical_cpus']} logical CPUs, "
          f"Python {info['python']}, numpy {info['numpy']}")
    print(f"median of {args.rounds} rounds; in each round the three methods are timed in turn, "
          f"in a rotating order\n")
    load_before = load_average()
    results = run(args.rounds, args.min_seconds)
    load_after = load_average()

    head = results[0]
    ok_speed = head["speedup"] >= TARGET_SPEEDUP
    ok_fill = head["vs_fill"] <= TARGET_VS_FILL
    print(f"\nheadline {HEADLINE} float64: posenc is {head['speedup']:.1f}x faster than direct "
          f"(target >= {TARGET_SPEEDUP:g}x: {'met' if ok_speed else 'MISSED'}) and takes "
          f"{head['vs_fill']:.2f}x the fill time (target <= {TARGET_VS_FILL:g}x: "
          f"{'met' if ok_fill else 'MISSED'})")
    print(f"load average (1, 5, 15 min): {load_before} before, {load_after} after")

    report = {
        "about": "Times of posenc.sinusoidal against the source document's direct code and a plain fill; "
                 "written by tools/bench_sinusoidal.py (make bench).",
        "machine": {**info, "load_average_before": load_before, "load_average_after": load_after},
        "method": {"rounds": args.rounds, "min_seconds_per_sample": args.min_seconds,
                   "statistic": "median over rounds; in each round the three methods are timed in turn, "
                                "in a rotating order"},
        "targets": {"case": list(HEADLINE), "dtype": "float64", "speedup_at_least": TARGET_SPEEDUP,
                    "vs_fill_at_most": TARGET_VS_FILL, "speedup_met": ok_speed, "vs_fill_met": ok_fill},
        "cases": results,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=1) + "\n")
    shown = args.output.resolve()
    shown = shown.relative_to(ROOT) if shown.is_relative_to(ROOT) else shown
    print(f"results written to {shown}; the appendix shows them: refresh its stored outputs with\n"
          f"  .venv/bin/python -m tools.nbtools execute book/appendix_fast.ipynb")
    return 0


if __name__ == "__main__":
    sys.exit(main())
