"""What NumPy's AVX-512 code changes in the printed numbers: ``python -m
tools.compare_arithmetic``.

Runs notebooks twice in the book's environment, with OpenBLAS pinned to its
AVX2 kernels both times (``OPENBLAS_CORETYPE=Haswell``): once with NumPy's
AVX-512 code switched off (``NPY_DISABLE_CPU_FEATURES``, as ``tools.paths``
sets it) and once with it on. For each run it lists the code cells (numbered
as nbval numbers them) whose text differs from the outputs stored now and
from those stored at ``--old`` (by default ac8bc60, the last commit whose
outputs were made on an Intel Xeon). On a CPU without AVX-512 the two runs
are the same run. Seen on an AMD EPYC with AVX-512 (2026-12-04): with the
AVX-512 code off, no cell differs from the stored outputs; with it on, the
eight cells of chapters 4 and 10 and of the fast-tables appendix that
differed between the Xeon's outputs and the AVX2 ones print the Xeon's.

Usage: ``python -m tools.compare_arithmetic [--old REV] [notebook ...]``
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess

import nbformat
from nbclient import NotebookClient

from tools.paths import ARITHMETIC_ENV, BOOK, ROOT

DEFAULT = ("04_learned", "10_generate", "appendix_fast")


def text(cell):
    """A code cell's printed text and plain results, without images."""
    found = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            found.append(out.text)
        elif "text/plain" in out.get("data", {}) and not any(k.startswith("image/") for k in out.data):
            found.append(re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", out.data["text/plain"]))
    return "".join(found)


def executed(path, avx512):
    env = {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"}
    env["OPENBLAS_CORETYPE"] = ARITHMETIC_ENV["OPENBLAS_CORETYPE"]
    if not avx512 and "NPY_DISABLE_CPU_FEATURES" in ARITHMETIC_ENV:
        env["NPY_DISABLE_CPU_FEATURES"] = ARITHMETIC_ENV["NPY_DISABLE_CPU_FEATURES"]
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute(env=env)
    return nb


def differing(a, b):
    """The nbval numbers (code cells from 0) of the cells whose text differs."""
    code = [(x, y) for x, y in zip(a.cells, b.cells) if x.cell_type == "code"]
    return [n for n, (x, y) in enumerate(code) if text(x) != text(y)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="ac8bc60", help="a revision whose stored outputs to compare with")
    parser.add_argument("notebooks", nargs="*", default=DEFAULT)
    args = parser.parse_args(argv)
    for name in args.notebooks:
        path = BOOK / f"{name}.ipynb"
        stored = nbformat.read(path, as_version=4)
        old = nbformat.reads(subprocess.run(["git", "show", f"{args.old}:book/{name}.ipynb"], cwd=ROOT,
                                            capture_output=True, text=True, check=True).stdout, as_version=4)
        if [c.source for c in old.cells] != [c.source for c in stored.cells]:
            print(f"{name}: the cells changed since {args.old}; not compared")
            continue
        print(f"{name}: stored now against stored at {args.old}: cells {differing(stored, old)}")
        for avx512 in (False, True):
            nb = executed(path, avx512)
            print(f"  NumPy's AVX-512 code {'on ' if avx512 else 'off'}: differs from stored now in cells "
                  f"{differing(nb, stored)}, from stored at {args.old} in {differing(nb, old)}", flush=True)


if __name__ == "__main__":
    main()
