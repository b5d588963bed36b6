"""Notebook maintenance for the book: ``python tests/nbtools.py execute NB...``.

``execute`` re-runs each notebook top to bottom in its own folder with the
kernel of the current environment and stores the fresh outputs in place.
Execution timestamps are not recorded, so re-running an unchanged notebook
leaves the file unchanged and git diffs show only real changes.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import nbformat
from nbclient import NotebookClient

TIMEOUT = 600  # seconds per cell


def execute(path):
    """Execute the notebook at ``path`` and write it back with its outputs."""
    path = pathlib.Path(path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=TIMEOUT,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.validate(nb)
    nbformat.write(nb, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("execute", help="re-run notebooks and store their outputs")
    ex.add_argument("notebooks", nargs="+", type=pathlib.Path)
    args = parser.parse_args(argv)
    if args.command == "execute":
        for nb in args.notebooks:
            print(f"executing {nb}", flush=True)
            execute(nb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
