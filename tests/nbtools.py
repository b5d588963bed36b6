"""Notebook maintenance for the book: ``python tests/nbtools.py COMMAND ...``.

``execute NB...`` re-runs each notebook top to bottom in its own folder with
the kernel of the current environment and stores the fresh outputs in place.
Execution timestamps are not recorded, so re-running an unchanged notebook
leaves the file unchanged and git diffs show only real changes.

``student [--out DIR] [NB...]`` writes the student edition (``make student``):
each notebook with its solutions replaced by ``raise NotImplementedError()``
and its outputs cleared, into ``_build/student/`` (default: every notebook
under book/).

``otter [--out DIR] [NB...]`` writes Otter Assign master notebooks
(``make otter``): one folder per chapter with exercises, ``_build/otter/<NN_name>/``,
holding the chapter with each exercise wrapped in Otter's question, solution
and tests cells, and a copy of ``posenc``; ready for ``otter assign``.

``nbgrader [--out DIR] [NB...]`` writes an nbgrader course folder
(``make nbgrader``): ``_build/nbgrader/`` with ``nbgrader_config.py`` and
``source/<NN_name>/`` (the notebook and a copy of ``posenc``) for each chapter
with exercises.

``totals GRADES_CSV OUT_CSV`` turns the ``grades.csv`` of ``nbgrader export``
into one row per student: the score of each chapter, the total, the maximum.

``exercises [--check]`` rewrites the list of exercises in book/exercises.md
from the notebooks (``make exercises``); with ``--check`` it only says
whether the page is up to date.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import classroom  # noqa: E402

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
        if cell.cell_type == "code":
            cell.outputs = merge_streams(cell.outputs)
    nbformat.validate(nb)
    nbformat.write(nb, path)


def merge_streams(outputs):
    """Join consecutive stdout (or stderr) chunks into one output.

    A kernel may deliver one cell's printing in several messages, split
    wherever its output buffer happened to be flushed; which split you get
    depends on timing. Joining them makes the stored notebook the same on
    every run (nbval joins them too before comparing).
    """
    merged = []
    for out in outputs:
        prev = merged[-1] if merged else None
        if (out.output_type == "stream" and prev is not None
                and prev.output_type == "stream" and prev.name == out.name):
            prev.text += out.text
        else:
            merged.append(out)
    return merged


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("execute", help="re-run notebooks and store their outputs")
    ex.add_argument("notebooks", nargs="+", type=pathlib.Path)
    st = sub.add_parser("student", help="write the student edition (solutions removed)")
    st.add_argument("--out", type=pathlib.Path, default=classroom.ROOT / "_build" / "student")
    st.add_argument("notebooks", nargs="*", type=pathlib.Path)
    ot = sub.add_parser("otter", help="write Otter Assign master notebooks")
    ot.add_argument("--out", type=pathlib.Path, default=classroom.ROOT / "_build" / "otter")
    ot.add_argument("notebooks", nargs="*", type=pathlib.Path)
    ng = sub.add_parser("nbgrader", help="write an nbgrader course folder, one assignment per chapter")
    ng.add_argument("--out", type=pathlib.Path, default=classroom.ROOT / "_build" / "nbgrader")
    ng.add_argument("notebooks", nargs="*", type=pathlib.Path)
    tt = sub.add_parser("totals", help="per-student totals from nbgrader's grades.csv")
    tt.add_argument("grades", type=pathlib.Path)
    tt.add_argument("out", type=pathlib.Path)
    pg = sub.add_parser("exercises", help="rewrite the exercise list of book/exercises.md")
    pg.add_argument("--check", action="store_true", help="only check that the page is up to date")
    args = parser.parse_args(argv)
    if args.command == "execute":
        for nb in args.notebooks:
            print(f"executing {nb}", flush=True)
            execute(nb)
    elif args.command == "student":
        notebooks = args.notebooks or sorted(classroom.BOOK.glob("*.ipynb"))
        written = classroom.write_student(notebooks, args.out)
        print(f"wrote the student edition of {len(written)} notebook(s) to {args.out}")
    elif args.command == "otter":
        notebooks = args.notebooks or sorted(classroom.BOOK.glob("*.ipynb"))
        written = classroom.write_otter(notebooks, args.out)
        print(f"wrote {len(written)} chapter folder(s) for Otter Assign to {args.out}; then, "
              "in a chapter's folder: otter assign NN_name.ipynb dist")
    elif args.command == "nbgrader":
        notebooks = args.notebooks or sorted(classroom.BOOK.glob("*.ipynb"))
        written = classroom.write_nbgrader(notebooks, args.out)
        print(f"wrote an nbgrader course folder with {len(written)} assignment(s) to {args.out}")
    elif args.command == "totals":
        rows = classroom.student_totals(args.grades, args.out)
        print(f"wrote the totals of {len(rows)} student(s) to {args.out}")
    elif args.command == "exercises":
        page = classroom.EXERCISES_PAGE
        old = page.read_text()
        new = classroom.exercises_page(old, sorted(classroom.BOOK.glob("*.ipynb")))
        if args.check:
            if new != old:
                print(f"{page.name} is out of date: run `make exercises`")
                return 1
            print(f"{page.name} lists every exercise")
        elif new != old:
            page.write_text(new)
            print(f"updated {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
