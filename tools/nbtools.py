"""Notebook maintenance for the book: ``python -m tools.nbtools COMMAND ...``.

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

``teachers [--check]`` rewrites the computed tables of book/teachers.md
(which chapters build on which; reading and exercise times, see
``tools/teachers.py``); with ``--check`` it only says whether they are up to
date.

Two commands keep the notebooks runnable outside this repository. Both are
idempotent (a second run changes nothing) and, with ``--check``, only list
what they would change:

``bootstrap [--check] [NB...]`` inserts, or brings up to date, the bootstrap
cell before the first code cell of each notebook (default: every notebook
under book/): a cell that installs ``posenc`` with pip when it cannot be
imported (Colab, a chapter downloaded on its own) and does nothing where it
can. Its source is made from the repository named in ``_config.yml``; the
environment variable ``POSENC_SOURCE`` replaces that source (a wheel, a
folder, any pip requirement). Jupyter Book leaves it out of the HTML (tag
``remove-cell``). Re-run ``execute`` afterwards: the counts shift by one.

``markup [--check] [NB...]`` rewrites the exercise directives
(``exercise``, ``solution-start``, ``solution-end``) from backtick fences to
colon fences (default: every notebook under book/ and tests/fixtures/), the
form ``tools/classroom.py`` asks for: Colab and JupyterLab without
jupyterlab-myst show a colon-fenced exercise as text, not as a code block.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import sys

import nbformat
import yaml
from nbclient import NotebookClient

if __package__ in (None, ""):  # run as a script, python tools/nbtools.py: find the package tools
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from tools import classroom, paths  # noqa: E402

TIMEOUT = 600  # seconds per cell


def execute(path):
    """Execute the notebook at ``path`` and write it back with its outputs.

    The kernel runs with ``tools.paths.ARITHMETIC_ENV``, the arithmetic that
    nbval checks the outputs with.
    """
    os.environ.update(paths.ARITHMETIC_ENV)  # inherited by the kernel
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


# --- the bootstrap cell: a chapter that runs anywhere ----------------------

BOOTSTRAP_ID = "posenc-bootstrap"  # the cell id that marks it
BOOTSTRAP_TAGS = ["remove-cell"]  # Jupyter Book leaves it out of the HTML
BOOTSTRAP_ENV = "POSENC_SOURCE"  # replaces the default pip requirement

# {repo} and {branch} come from _config.yml; doubled braces stay in the cell.
BOOTSTRAP_TEMPLATE = '''\
# Makes `posenc`, the book's package, importable. It does nothing where
# posenc is installed; elsewhere (Colab, a chapter downloaded on its own)
# it installs posenc with pip from the book's repository.
import importlib.util

if importlib.util.find_spec("posenc") is None:
    import os
    import subprocess
    import sys

    repo = "{repo}"
    source = os.environ.get(
        "{env}", f"posenc @ {{repo}}/archive/refs/heads/{branch}.zip")
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                          source], capture_output=True, text=True)
    if pip.returncode != 0:
        raise RuntimeError(f"pip could not install posenc from {{source}}:\\n"
                           + pip.stderr[-2000:])
    importlib.invalidate_caches()'''


def repository(config=None):
    """The repository URL and branch named in ``_config.yml``."""
    config = pathlib.Path(config or classroom.ROOT / "_config.yml")
    repo = yaml.safe_load(config.read_text())["repository"]
    return repo["url"].rstrip("/"), repo.get("branch") or "main"


def bootstrap_source(config=None):
    """The source of the bootstrap cell, for the repository of ``_config.yml``."""
    repo, branch = repository(config)
    return BOOTSTRAP_TEMPLATE.format(repo=repo, branch=branch, env=BOOTSTRAP_ENV)


def is_bootstrap(cell):
    return cell.get("id") == BOOTSTRAP_ID


def bootstrap_cell(config=None):
    cell = nbformat.v4.new_code_cell(bootstrap_source(config))
    cell.id = BOOTSTRAP_ID
    cell.metadata["tags"] = list(BOOTSTRAP_TAGS)
    return cell


def _first_code_cell(cells):
    return next((i for i, c in enumerate(cells) if c.cell_type == "code" and not is_bootstrap(c)), None)


def bootstrap_problems(nb, config=None):
    """What keeps ``nb`` from having exactly the bootstrap cell that
    ``add_bootstrap`` writes, right before its first code cell, with no
    stored output (it is quiet, and a no-op in the book's environment)."""
    ids = [i for i, c in enumerate(nb.cells) if is_bootstrap(c)]
    first = _first_code_cell(nb.cells)
    if first is None:
        return [f"cell {i + 1}: a bootstrap cell in a notebook without code" for i in ids]
    fix = "run `python -m tools.nbtools bootstrap`, then `make execute`"
    if not ids:
        return [f"no bootstrap cell (id {BOOTSTRAP_ID!r}) before the first code cell: {fix}"]
    if len(ids) > 1:
        return [f"cells {[i + 1 for i in ids]} are all bootstrap cells; keep one: {fix}"]
    (i,) = ids
    cell, problems = nb.cells[i], []
    if i != first - 1:
        problems.append(f"cell {i + 1}: the bootstrap cell must come right before the first "
                        f"code cell (cell {first + 1}): {fix}")
    if cell.cell_type != "code" or cell.source != bootstrap_source(config):
        problems.append(f"cell {i + 1}: the bootstrap cell is not the one nbtools writes: {fix}")
    if not set(BOOTSTRAP_TAGS) <= set(cell.metadata.get("tags", [])):
        problems.append(f"cell {i + 1}: the bootstrap cell needs the tags {BOOTSTRAP_TAGS}: {fix}")
    if cell.get("outputs"):
        problems.append(f"cell {i + 1}: the bootstrap cell stores output; in the book's "
                        "environment it must print nothing (is posenc installed there?)")
    return problems


def add_bootstrap(nb, config=None):
    """Insert or refresh the bootstrap cell of ``nb`` in place.

    Returns True if ``nb`` changed. A notebook that already has the right
    cell in the right place is left alone, outputs and counts included; any
    other bootstrap cell is removed and a fresh one (not executed) goes right
    before the first code cell. A notebook without code gets none.
    """
    if not bootstrap_problems(nb, config) or (_first_code_cell(nb.cells) is None
                                              and not any(map(is_bootstrap, nb.cells))):
        return False
    nb.cells = [c for c in nb.cells if not is_bootstrap(c)]
    first = _first_code_cell(nb.cells)
    if first is not None:
        nb.cells.insert(first, bootstrap_cell(config))
    return True


# --- exercise markup that reads outside Jupyter Book -------------------------

MARKUP_DIRECTIVES = ("exercise", "solution-start", "solution-end")


def colon_fences(source, names=MARKUP_DIRECTIVES):
    """``source`` with each directive in ``names`` written with colon fences.

    A backtick fence becomes ``:::{exercise} Title`` ... ``:::`` (with more
    colons if the body holds a colon fence), and a directive with a body
    (the task) gets a blank line before its closing fence, so that a
    CommonMark renderer (Colab, GitHub) shows the ``:::`` on a line of its
    own rather than at the end of the task's last sentence. The argument,
    options and body are kept as they are.
    """
    out, pos = [], 0
    for m in classroom.DIRECTIVE_RE.finditer(source):
        if m["name"] not in names:
            continue
        body = m["rest"]
        # a colon fence must be longer than any colon fence inside it
        inner = [len(x) for x in re.findall(r"^(:{3,})", body, flags=re.M)]
        fence = m["fence"] if m["fence"].startswith(":") else ":" * max([3] + [n + 1 for n in inner])
        has_body = bool(classroom.directives(source[m.start():m.end()])[0].body)
        if has_body and not body.endswith("\n\n"):
            body += "\n"
        out.append(source[pos:m.start()])
        out.append(fence + source[m.end("fence"):m.start("rest")] + body + fence)
        pos = m.end()
    out.append(source[pos:])
    return "".join(out)


def markup_notebook(nb):
    """Rewrite the exercise directives of every markdown cell of ``nb`` with
    colon fences, in place. Returns True if ``nb`` changed."""
    changed = False
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            new = colon_fences(cell.source)
            if new != cell.source:
                cell.source, changed = new, True
    return changed


def _rewrite(paths, change, check, what):
    """Apply ``change(nb) -> bool`` to each notebook; write the changed ones
    (or, with ``check``, only list them). Returns the exit status."""
    stale = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if change(nb):
            stale.append(path)
            if not check:
                nbformat.validate(nb)
                nbformat.write(nb, path)
    verb = "needs" if check else "updated"
    for path in stale:
        print(f"{verb} {what}: {path}")
    if not stale:
        print(f"{what}: all {len(paths)} notebook(s) up to date")
    return 1 if check and stale else 0


def _refresh_page(page, rewrite, check, command, up_to_date):
    """Rewrite the computed parts of ``page`` with ``rewrite(old) -> new``; with
    ``check``, only say whether it is up to date (``up_to_date`` if it is, else
    which ``command`` refreshes it). Returns the exit status."""
    old = page.read_text()
    new = rewrite(old)
    if check:
        if new != old:
            print(f"{page.name} is out of date: run `{command}`")
            return 1
        print(up_to_date)
    elif new != old:
        page.write_text(new)
        print(f"updated {page}")
    return 0


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
    tc = sub.add_parser("teachers", help="rewrite the computed tables of book/teachers.md")
    tc.add_argument("--check", action="store_true", help="only check that the tables are up to date")
    bs = sub.add_parser("bootstrap", help="insert or refresh the cell that installs posenc when missing")
    bs.add_argument("--check", action="store_true", help="only list the notebooks it would change")
    bs.add_argument("notebooks", nargs="*", type=pathlib.Path)
    mk = sub.add_parser("markup", help="write the exercise directives with colon fences")
    mk.add_argument("--check", action="store_true", help="only list the notebooks it would change")
    mk.add_argument("notebooks", nargs="*", type=pathlib.Path)
    args = parser.parse_args(argv)
    if args.command == "bootstrap":
        notebooks = args.notebooks or sorted(classroom.BOOK.glob("*.ipynb"))
        return _rewrite(notebooks, add_bootstrap, args.check, "bootstrap cell")
    if args.command == "markup":
        notebooks = args.notebooks or [*sorted(classroom.BOOK.glob("*.ipynb")),
                                       *sorted((classroom.ROOT / "tests" / "fixtures").glob("*.ipynb"))]
        return _rewrite(notebooks, markup_notebook, args.check, "exercise markup")
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
    elif args.command == "teachers":
        from tools import teachers

        return _refresh_page(teachers.PAGE, teachers.teachers_page, args.check,
                             "python -m tools.nbtools teachers",
                             f"{teachers.PAGE.name}: its tables follow the chapters")
    elif args.command == "exercises":
        notebooks = sorted(classroom.BOOK.glob("*.ipynb"))
        return _refresh_page(classroom.EXERCISES_PAGE,
                             lambda old: classroom.exercises_page(old, notebooks), args.check,
                             "make exercises", f"{classroom.EXERCISES_PAGE.name} lists every exercise")
    return 0


if __name__ == "__main__":
    sys.exit(main())
