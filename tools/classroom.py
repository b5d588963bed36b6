"""The classroom machinery: exercises in the notebooks, the student edition,
the Otter Assign versions, the exercises page. Used by ``tools/nbtools.py``
(``student``, ``otter``, ``exercises``) and by ``tests/book/test_classroom.py``.

An exercise is five consecutive cells (README.md, "Writing an exercise")::

    markdown  :::{exercise} Title          the task, with :label: ex-...
    markdown  :::{solution-start} ex-...   with :class: dropdown, nothing else
    code      # BEGIN SOLUTION ... # END SOLUTION     nbgrader solution cell
    markdown  :::{solution-end}
    code      assert posenc.exercises.check_<name>(...)  nbgrader grade cell

The three directives use colon fences (``:::``), not backticks: Colab,
GitHub and JupyterLab without jupyterlab-myst show a backtick-fenced
directive as a code block (the task in monospace, its math untypeset,
``:label:`` on top), while a colon-fenced one reads as ordinary text with a
``:::{exercise} Title`` line above it. Jupyter Book builds both the same.

The student, nbgrader and Otter editions are read in any Jupyter, where
MyST is not rendered: their markdown is made plain first
(``tools/plain_myst.py``: roles as text, captions under their figures, the
solution-gate cells dropped). The student edition then has, cell for cell,
the sources that ``nbgrader generate_assignment`` releases from the
nbgrader edition: every solution region (markers included) becomes
``# YOUR CODE HERE`` / ``raise NotImplementedError()`` at the indentation
of the ``# BEGIN SOLUTION`` line. Outputs and execution counts are cleared;
everything else (check cells, metadata, cell ids) is kept.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import pathlib
import re
import shutil

import jsonschema
import nbformat

from tools.plain_myst import Book, plain_notebook, plain_page

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
EXERCISES_PAGE = BOOK / "exercises.md"

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
# What nbgrader's ClearSolutions looks for: the words, anywhere in a line.
BEGIN_WORDS, END_WORDS = "BEGIN SOLUTION", "END SOLUTION"
# nbgrader's ClearSolutions.code_stub["python"], so that the student edition
# is, cell for cell, what `nbgrader generate_assignment` releases.
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
TEXT_STUB = "YOUR ANSWER HERE"

LABEL_RE = re.compile(r"^ex-[a-z0-9]+(-[a-z0-9]+)*$")
CHECKER_MODULE = "posenc.exercises"


def solution_meta(label):
    """The nbgrader metadata of the solution cell of exercise ``label``."""
    return {"solution": True, "grade": False, "locked": False,
            "grade_id": f"{label}-solution", "schema_version": 3, "task": False}


def check_meta(label):
    """The nbgrader metadata of the check cell of exercise ``label``."""
    return {"grade": True, "solution": False, "locked": True, "points": 1,
            "grade_id": f"{label}-check", "schema_version": 3, "task": False}


# --- MyST directives in markdown cells ------------------------------------

DIRECTIVE_RE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w-]+)\}[ \t]*(?P<arg>[^\n]*)\n"
    r"(?P<rest>.*?)^(?P=fence)[ \t]*$",
    re.M | re.S,
)
OPTION_RE = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*?)[ \t]*$")


@dataclasses.dataclass
class Directive:
    name: str
    argument: str
    options: dict
    body: str
    span: tuple
    fence: str = "```"  # the opening fence: backticks or colons


def directives(source):
    """Every fenced MyST directive in a markdown source, in order."""
    found = []
    for m in DIRECTIVE_RE.finditer(source):
        options, body = {}, m["rest"].splitlines()
        while body and (opt := OPTION_RE.match(body[0])):
            options[opt["key"]] = opt["value"]
            body.pop(0)
        found.append(Directive(m["name"], m["arg"].strip(), options, "\n".join(body).strip(), m.span(),
                               m["fence"]))
    return found


def only_directive(cell, name):
    """The directive ``name`` if it is all the markdown cell holds, else None."""
    if cell.cell_type != "markdown":
        return None
    found = directives(cell.source)
    if len(found) != 1 or found[0].name != name:
        return None
    start, end = found[0].span
    if (cell.source[:start] + cell.source[end:]).strip():
        return None
    return found[0]


# --- solution regions --------------------------------------------------------


def solution_regions(source):
    """The (begin, end) line numbers of each ``# BEGIN/END SOLUTION`` region.

    Raises ``ValueError`` for a nested or unclosed region (nbgrader refuses
    both) and for an ``END SOLUTION`` line with no region open (nbgrader
    silently drops it; the book's convention does not allow it).
    """
    regions, begin = [], None
    for n, line in enumerate(source.split("\n")):
        if BEGIN_WORDS in line:
            if begin is not None:
                raise ValueError(f"nested BEGIN SOLUTION on line {n + 1}")
            begin = n
        elif END_WORDS in line:
            if begin is None:
                raise ValueError(f"END SOLUTION without BEGIN SOLUTION on line {n + 1}")
            regions.append((begin, n))
            begin = None
    if begin is not None:
        raise ValueError(f"BEGIN SOLUTION on line {begin + 1} is never closed")
    return regions


def has_solution_words(source):
    return BEGIN_WORDS in source or END_WORDS in source


def clear_solution_regions(source, stub=CODE_STUB):
    """``source`` with each solution region replaced by ``stub``.

    A line-for-line port of ``ClearSolutions._replace_solution_region`` of
    nbgrader 0.9.6: the stub takes the indentation of the ``BEGIN
    SOLUTION`` line; a stray ``END SOLUTION`` line is dropped. Raises
    ``ValueError`` for a nested or unclosed region, as nbgrader does.
    """
    new_lines, in_solution = [], False
    for line in source.split("\n"):
        if BEGIN_WORDS in line:
            if in_solution:
                raise ValueError("nested BEGIN SOLUTION")
            in_solution = True
            indent = re.match(r"\s*", line).group(0)
            new_lines.extend(indent + s for s in stub.split("\n"))
        elif END_WORDS in line:
            in_solution = False
        elif not in_solution:
            new_lines.append(line)
    if in_solution:
        raise ValueError("BEGIN SOLUTION is never closed")
    return "\n".join(new_lines)


def is_solution_cell(cell):
    return bool(cell.metadata.get("nbgrader", {}).get("solution", False))


# --- exercises -----------------------------------------------------------------


@dataclasses.dataclass
class Exercise:
    label: str
    title: str
    cells: dict  # role -> cell index: exercise, start, solution, end, check
    checker: str | None  # the check_* function the check cell calls


def _checker_called(source, module):
    """The name ``check_x`` if ``source`` is exactly ``assert <module>.check_x(...)``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assert):
        return None
    call = tree.body[0].test
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
        return None
    if ast.unparse(call.func.value) != module or not call.func.attr.startswith("check_"):
        return None
    return call.func.attr


COLON_FENCE_HINT = ("write {{{name}}} with colon fences, :::{{{name}}} ... :::, so that it reads as text "
                    "in Colab and plain JupyterLab (`python -m tools.nbtools markup` rewrites it)")


def find_exercises(nb, *, module=CHECKER_MODULE):
    """Parse the exercises of a notebook.

    Returns ``(exercises, problems)``: the exercises found, and one line per
    departure from the convention (an empty list for a well-formed notebook).
    ``module`` is the module whose ``check_*`` functions check cells call.
    """
    exercises, problems = [], []
    cells = nb.cells
    claimed = set()  # indices of cells that belong to an exercise

    def say(i, text):
        problems.append(f"cell {i + 1}: {text}")

    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        found = [d for d in directives(cell.source) if d.name == "exercise"]
        if not found:
            continue
        if len(found) > 1:
            say(i, "holds several exercise directives; give each exercise its own cell")
        ex = found[0]
        label = ex.options.get("label", "")
        where = label or "an unlabelled exercise"
        claimed.add(i)
        if not label:
            say(i, "the exercise has no :label: (write `:label: ex-short-name`)")
        elif not LABEL_RE.match(label):
            say(i, f"label {label!r} must look like ex-short-name (lower case, digits, hyphens)")
        if not ex.argument:
            say(i, f"{where}: give the exercise a short title: :::{{exercise}} Title")
        if "nonumber" in ex.options:
            say(i, f"{where}: exercises are numbered; remove :nonumber:")
        if not ex.body:
            say(i, f"{where}: the exercise states no task")
        if not ex.fence.startswith(":"):
            say(i, f"{where}: {COLON_FENCE_HINT.format(name='exercise')}")

        roles = {"exercise": i}
        expect = [("start", "markdown"), ("solution", "code"), ("end", "markdown"), ("check", "code")]
        if i + len(expect) >= len(cells):
            say(i, f"{where}: an exercise needs the four cells that follow it "
                   "(solution-start, solution, solution-end, check)")
            continue
        for k, (role, kind) in enumerate(expect, start=1):
            roles[role] = i + k
            claimed.add(i + k)
        start, sol, end, check = (cells[roles[r]] for r in ("start", "solution", "end", "check"))

        d = only_directive(start, "solution-start")
        if d is None:
            say(roles["start"], f"{where}: expected a markdown cell holding only "
                                f":::{{solution-start}} {label} with :class: dropdown")
        else:
            if not d.fence.startswith(":"):
                say(roles["start"], f"{where}: {COLON_FENCE_HINT.format(name='solution-start')}")
            if d.argument != label:
                say(roles["start"], f"{where}: solution-start names {d.argument!r}, not the exercise label")
            if "dropdown" not in d.options.get("class", "").split():
                say(roles["start"], f"{where}: the solution must be hidden: add `:class: dropdown`")

        if sol.cell_type != "code":
            say(roles["solution"], f"{where}: the solution must be a code cell")
        else:
            try:
                regions = solution_regions(sol.source)
            except ValueError as err:
                regions = None
                say(roles["solution"], f"{where}: {err}")
            if regions == []:
                say(roles["solution"], f"{where}: the solution cell has no `{BEGIN}` / `{END}` region")
            lines = sol.source.split("\n")
            for b, e in regions or []:
                if lines[b].strip() != BEGIN or lines[e].strip() != END:
                    say(roles["solution"], f"{where}: write the markers exactly as `{BEGIN}` and `{END}`, "
                                           "each on a line of its own")
                if not any(line.strip() for line in lines[b + 1:e]):
                    say(roles["solution"], f"{where}: the solution region is empty")
            if sol.metadata.get("nbgrader") != solution_meta(label):
                say(roles["solution"], f"{where}: nbgrader metadata must be {solution_meta(label)}, "
                                       f"not {sol.metadata.get('nbgrader')}")

        d = only_directive(end, "solution-end")
        if d is None:
            say(roles["end"], f"{where}: expected a markdown cell holding only :::{{solution-end}}")
        elif not d.fence.startswith(":"):
            say(roles["end"], f"{where}: {COLON_FENCE_HINT.format(name='solution-end')}")

        checker = None
        if check.cell_type != "code":
            say(roles["check"], f"{where}: the check must be a code cell")
        else:
            checker = _checker_called(check.source, module)
            if checker is None:
                say(roles["check"], f"{where}: the check cell must hold exactly one statement, "
                                    f"`assert {module}.check_<name>(...)`, not {check.source!r}")
            if check.metadata.get("nbgrader") != check_meta(label):
                say(roles["check"], f"{where}: nbgrader metadata must be {check_meta(label)}, "
                                    f"not {check.metadata.get('nbgrader')}")
        exercises.append(Exercise(label, ex.argument, roles, checker))

    labels = [e.label for e in exercises if e.label]
    for label in sorted({x for x in labels if labels.count(x) > 1}):
        problems.append(f"label {label!r} is used by several exercises")

    # Outside exercises: no exercise markup, no markers, no nbgrader cells.
    for i, cell in enumerate(cells):
        if i in claimed:
            continue
        names = {d.name for d in directives(cell.source)} if cell.cell_type == "markdown" else set()
        stray = names & {"solution-start", "solution-end", "solution", "exercise-start", "exercise-end"}
        if stray:
            say(i, f"{', '.join(sorted(stray))} outside an exercise: use the five-cell form "
                   "(a plain {solution} would survive into the student edition)")
        if has_solution_words(cell.source):
            say(i, "mentions BEGIN/END SOLUTION outside a solution cell: nbgrader would treat "
                   "it as a solution region and refuse the notebook")
        if "nbgrader" in cell.metadata:
            say(i, "carries nbgrader metadata but is not part of an exercise")
    return exercises, problems


# --- nbgrader's rules, reproduced ---------------------------------------------

# nbgrader/nbgraderformat/v3.json (nbgrader 0.9.6), the cell metadata schema.
NBGRADER_V3_SCHEMA = {
    "type": "object",
    "properties": {
        "schema_version": {"type": "integer", "minimum": 3, "maximum": 3},
        "grade": {"type": "boolean"},
        "locked": {"type": "boolean"},
        "solution": {"type": "boolean"},
        "task": {"type": "boolean"},
        "grade_id": {"type": "string", "pattern": r"^[a-zA-Z0-9_\-]*$"},
        "points": {"type": "number", "minimum": 0},
        "checksum": {"type": "string", "minLength": 32, "maxLength": 32},
        "cell_type": {"type": "string", "enum": ["raw", "code", "markdown"]},
    },
    "required": ["schema_version", "grade", "locked", "solution"],
    "additionalProperties": False,
}


def nbgrader_problems(nb):
    """What would make ``nbgrader generate_assignment`` refuse ``nb``.

    Reproduces, for schema version 3, ``MetadataValidatorV3.validate_cell``
    and ``validate_nb`` (run by the ``CheckCellMetadata`` preprocessor) and
    the checks of ``ClearSolutions`` (regions only in solution cells, never
    nested or unclosed; a known kernel language).
    """
    problems = []
    language = nb.metadata.get("kernelspec", {}).get("language", "python")
    if language != "python":
        problems.append(f"kernelspec language {language!r}: ClearSolutions has no stub for it")
    ids = set()
    for i, cell in enumerate(nb.cells):
        where = f"cell {i + 1}"
        meta = cell.metadata.get("nbgrader")
        if BEGIN_WORDS in cell.source:
            try:
                clear_solution_regions(cell.source)
            except ValueError as err:
                problems.append(f"{where}: {err}")
            if not (meta and meta.get("solution")):
                problems.append(f"{where}: solution region in a cell that is not a solution cell")
        if meta is None:
            continue
        if meta.get("schema_version", 0) != 3:
            problems.append(f"{where}: schema_version must be 3, got {meta.get('schema_version')}")
            continue
        try:
            jsonschema.validate(meta, NBGRADER_V3_SCHEMA)
        except jsonschema.ValidationError as err:
            problems.append(f"{where}: {err.message}")
            continue
        grade, solution, locked = meta["grade"], meta["solution"], meta["locked"]
        task = meta.get("task", False)
        if (grade or solution or locked) and not meta.get("grade_id"):
            problems.append(f"{where}: an nbgrader cell needs a non-empty grade_id")
            continue
        if grade and "points" not in meta:
            problems.append(f"{where}: grade cell {meta['grade_id']!r} has no points")
        if task and cell.cell_type != "markdown":
            problems.append(f"{where}: task cells have to be markdown")
        if not task and cell.cell_type == "markdown" and grade != solution:
            problems.append(f"{where}: a markdown cell must be both grade and solution, or neither")
        if grade or solution or locked:
            if meta["grade_id"] in ids:
                problems.append(f"{where}: duplicate grade_id {meta['grade_id']!r}")
            ids.add(meta["grade_id"])
    return problems


# --- the student edition ---------------------------------------------------------


def student_notebook(nb, book=None, here=None):
    """The student edition of ``nb`` (a new notebook; ``nb`` is unchanged).

    With ``book`` (a :class:`tools.plain_myst.Book`), the notebook, page
    ``here`` of that book, is first made readable in any Jupyter
    (:func:`tools.plain_myst.plain_notebook`): roles as plain text, no
    solution-gate cells, captions under their figures. Then every solution
    region is cleared as nbgrader clears it, and outputs and execution
    counts go. Raises ``ValueError`` where nbgrader would refuse the
    notebook: a solution region outside a solution cell, or a broken region.
    """
    nb = copy.deepcopy(nb) if book is None else plain_notebook(nb, book, here)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type in ("code", "markdown"):
            stub = CODE_STUB if cell.cell_type == "code" else TEXT_STUB
            if BEGIN_WORDS in cell.source and not is_solution_cell(cell):
                raise ValueError(f"cell {i + 1} has a solution region but is not a solution cell")
            replaced = BEGIN_WORDS in cell.source
            cell.source = clear_solution_regions(cell.source, stub)
            if is_solution_cell(cell) and not replaced:
                cell.source = stub  # a solution cell without markers: all of it goes
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return nb


def solution_only_lines(nb):
    """Lines that occur inside solution regions and nowhere else in ``nb``."""
    inside, outside = set(), set()
    for cell in nb.cells:
        lines = cell.source.split("\n")
        try:
            regions = solution_regions(cell.source) if has_solution_words(cell.source) else []
        except ValueError:
            regions = []
        marked = {n for b, e in regions for n in range(b, e + 1)}
        for n, line in enumerate(lines):
            (inside if n in marked else outside).add(line.strip())
    return {line for line in inside - outside if line and line not in (BEGIN, END)}


# The pages that the chapters point to, shipped beside the student notebooks
# in plain Markdown: {file in the folder: page of the book}.
STUDENT_PAGES = {"notation.md": BOOK / "notation.md", "glossary.md": BOOK / "glossary.md",
                 "experiments.md": BOOK / "experiments.md"}
# Pages that a chapter's folder of the Otter and nbgrader editions gets when
# the chapter points to them: {file: page of the book}.
CHAPTER_PAGES = {"experiments.md": BOOK / "experiments.md"}
REFERENCES_FILE = "references.md"

STUDENT_README = """\
# Positional Encoding, Computed: student edition

One notebook per chapter, with the solutions of the exercises taken out:

{chapters}

Beside them: [`notation.md`](notation.md), the symbols the chapters use;
[`glossary.md`](glossary.md), the terms they use before or without
defining them; [`experiments.md`](experiments.md), how the chapters that
train models run and judge an experiment; [`references.md`](references.md),
the works they cite.

Each exercise has a cell that reads

    # YOUR CODE HERE
    raise NotImplementedError()

Replace those two lines with your answer, run the cell, then run the check
cell below it: it prints `Correct!`, or `Not yet.` with a hint.

After a wrong answer the check cell prints its hint and then stops with an
`AssertionError` and a traceback. That is on purpose, not a crash: the
check cell is `assert <checker>(...)`, and the failed `assert` is how a
grader (nbgrader, otter-grader) sees that the exercise is not solved yet.
Read the `Not yet.` line above the traceback, change your answer, and run
both cells again.

The notebooks import `posenc`, the book's small numpy package. A copy of it
sits in the folder `posenc/` beside them, so they run from this folder with
nothing but Python 3.11+, numpy, matplotlib and Jupyter:

    python -m pip install -r requirements.txt jupyterlab
    jupyter lab

(In a clone of the book's repository, its `.venv` already has numpy,
matplotlib and posenc: `.venv/bin/python -m pip install jupyterlab`, then
`.venv/bin/jupyter lab _build/student/`.)

## Plain text here, rendered in the book

These notebooks are plain Markdown and read the same in JupyterLab,
Jupyter Notebook, Colab or VS Code: a citation reads "Haviv et al.
(2022)", a figure's caption sits under the cell that draws it (run the
cell to see the figure), a cross-reference reads "Figure 1.4" or the
section's title. The book's own notebooks (`book/*.ipynb` in its
repository) are written in MyST Markdown, with those citations and
references as links and the solutions behind a toggle. To read them
rendered:

- the book's website shows every chapter, with its outputs;
- in a clone of the repository, `make lab` opens them in JupyterLab with
  the jupyterlab-myst extension, which renders MyST;
- in a JupyterLab of your own, `python -m pip install jupyterlab-myst`,
  restart JupyterLab, and open the book's notebooks.

Made by `make student` from the book's notebooks. Do not edit the book's
own notebooks through this folder: it is rebuilt from scratch each time.
"""


def student_readme(book, notebooks):
    """The student README, listing each notebook with its chapter's title."""
    from tools.plain_myst import Doc

    lines = []
    for path in map(pathlib.Path, notebooks):
        doc = book.docs.get(path.stem) or Doc(path.stem)
        number = f"{doc.number}. " if doc.number is not None else ""
        title = book.plain_inline(doc.title, path.stem) if doc.title else path.stem
        lines.append(f"- `{path.name}`: {number}{title}")
    return STUDENT_README.format(chapters="\n".join(lines))


def _runtime_requirements():
    """Pins of posenc's own dependencies, taken from the book's requirements.txt."""
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.split(r"[<>=!~ \[;]", d, maxsplit=1)[0].lower() for d in deps}
    pins = []
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        name = line.split("==")[0].strip().lower()
        if "==" in line and name in names:
            pins.append(line.strip())
    return pins


def _write_edition(notebooks, out, convert):
    """Empty the folder ``out`` and write ``convert(nb, path)`` of each
    notebook to it, with what the notebooks need beside them: the ``data/``
    folder next to the notebooks (the appendix's benchmark figures), if
    there is one, and a copy of ``posenc``. Returns the paths of the
    notebooks written."""
    out = pathlib.Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    written = []
    for path in map(pathlib.Path, notebooks):
        nb = convert(nbformat.read(path, as_version=4), path)
        nbformat.validate(nb)
        nbformat.write(nb, out / path.name)
        written.append(out / path.name)
        data = path.parent / "data"
        if data.is_dir() and not (out / "data").exists():
            shutil.copytree(data, out / "data")
    shutil.copytree(ROOT / "posenc", out / "posenc", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return written


def write_student(notebooks, out, *, numbers=()):
    """Write the student edition of ``notebooks`` to the folder ``out``.

    ``out`` is emptied first. It receives one notebook per input
    (:func:`student_notebook`, in plain Markdown), the ``data/`` folder
    beside them if there is one, a copy of the ``posenc`` package,
    ``requirements.txt``, the notation page and the glossary as plain
    Markdown (``notation.md``, ``glossary.md``), the works the book cites
    (``references.md``) and ``README.md``. Returns the paths of the
    notebooks written. The numbers are the build's (``make book``); a
    notebook outside the book takes them from another build's
    ``numbers.json`` in ``numbers`` (:class:`tools.plain_myst.Book`).
    """
    book = plain_book(notebooks, numbers)
    written = _write_edition(notebooks, out, lambda nb, path: student_notebook(nb, book, path.stem))
    out = pathlib.Path(out)
    (out / "requirements.txt").write_text(
        "# What the student notebooks need (posenc's dependencies, same pins as the book)\n"
        + "\n".join(_runtime_requirements()) + "\n"
    )
    for name, page in STUDENT_PAGES.items():
        (out / name).write_text(plain_page(page, book))
    (out / REFERENCES_FILE).write_text(book.references_page())
    (out / "README.md").write_text(student_readme(book, notebooks))
    return written


def plain_book(notebooks=(), numbers=()):
    """The :class:`tools.plain_myst.Book` of this repository, as built, with
    ``notebooks`` that are not among its pages (a test fixture) added from
    the ``numbers.json`` of their own build, ``numbers``."""
    return Book(ROOT, extra=notebooks, numbers=numbers)


# --- the exercises page ------------------------------------------------------------

PAGE_BEGIN = "% BEGIN EXERCISE LIST: written by `make exercises`, do not edit by hand"
PAGE_END = "% END EXERCISE LIST"


def exercise_list(notebooks):
    """The generated part of the exercises page: every exercise by chapter."""
    parts = []
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        exercises, _ = find_exercises(nb)
        if not exercises:
            continue
        # The heading links to the chapter and shows its title; the page and
        # the chapters sit in the same folder.
        lines = [f"## {{doc}}`{pathlib.Path(path).stem}`", ""]
        lines += [f"- {{ref}}`{e.label}`: {e.title}" for e in exercises]
        parts.append("\n".join(lines))
    if not parts:
        parts = ["No chapter has exercises yet."]
    return "\n\n".join(parts)


def exercises_page(text, notebooks):
    """``text`` (the page) with its generated list rewritten for ``notebooks``."""
    start, stop = text.find(PAGE_BEGIN), text.find(PAGE_END)
    if start < 0 or stop < start:
        raise ValueError(f"the exercises page lacks the lines {PAGE_BEGIN!r} ... {PAGE_END!r}")
    return text[: start + len(PAGE_BEGIN)] + "\n\n" + exercise_list(notebooks) + "\n\n" + text[stop:]


# --- running the student edition ---------------------------------------------------


def run_all_cells(nb, cwd, *, timeout=600):
    """Execute every cell of ``nb`` in place, going on after errors.

    The kernel starts in ``cwd``. A cell that raises keeps its error as an
    output, so the caller can see which cells failed.
    """
    from nbclient import NotebookClient

    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", allow_errors=True,
        record_timing=False, resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    return nb


def errors_of(cell):
    return [o for o in cell.get("outputs", []) if o.output_type == "error"]


def execution_problems(source_nb, executed_student_nb, *, module=CHECKER_MODULE):
    """What is wrong with a run of the student edition of ``source_nb``.

    Every cell outside the exercises must run: one that fails uses something
    only a solution defines. Every check cell must fail: one that passes
    without an answer checks nothing. Cells are matched by their ids (the
    student edition drops and adds markdown cells, never code cells).
    """
    exercises, _ = find_exercises(source_nb, module=module)
    ids = [c.get("id") for c in source_nb.cells]
    solution_cells = {ids[e.cells["solution"]] for e in exercises}
    check_cells = {ids[e.cells["check"]]: e.label for e in exercises}
    problems = []
    for i, cell in enumerate(executed_student_nb.cells):
        if cell.cell_type != "code":
            continue
        errors = errors_of(cell)
        if cell.get("id") in check_cells:
            if not errors:
                problems.append(f"cell {i + 1}: the check of {check_cells[cell.id]} passes in the student "
                                "edition, before any answer is written")
        elif errors and cell.get("id") not in solution_cells:
            err = errors[0]
            problems.append(f"cell {i + 1} raised {err.ename}: {err.evalue} in the student edition; "
                            "a cell outside the exercises must not depend on a solution\n"
                            f"    {cell.source[:200]!r}")
    return problems


# --- otter-grader ------------------------------------------------------------------


def chapters_with_exercises(notebooks):
    """The notebooks among ``notebooks`` that hold at least one exercise.

    Grading is per chapter, and a notebook without exercises (an appendix)
    is not an assignment; new chapters are picked up as they are added.
    """
    return [p for p in map(pathlib.Path, notebooks)
            if find_exercises(nbformat.read(p, as_version=4))[0]]


def otter_config(name, *, files=("posenc",), requirements=None, python_version=None):
    """The source of the ``# ASSIGNMENT CONFIG`` cell of an Otter master notebook.

    ``requirements`` (default: posenc's own dependencies, pinned as in the
    book's requirements.txt) go into the autograder's environment: without
    them the environment that ``otter grade`` and Gradescope build holds
    only otter-grader, and every check fails on ``import matplotlib``.
    The export cell makes no PDF: that needs LaTeX, which the students'
    machines rarely have.
    """
    import yaml

    config = {
        "name": name,
        "requirements": list(_runtime_requirements() if requirements is None else requirements),
    }
    if python_version is None:
        python_version = _runtime_python()
    if python_version:
        config["python_version"] = python_version
    config["export_cell"] = {"pdf": False}
    if files:
        config["files"] = list(files)
    return "# ASSIGNMENT CONFIG\n" + yaml.safe_dump(config, sort_keys=False).rstrip("\n")


def _runtime_python():
    """The Python version Binder runs the notebooks with, from
    ``binder/runtime.txt`` (``python-3.11`` gives ``"3.11"``), or None."""
    for path in (ROOT / "binder" / "runtime.txt", ROOT / "runtime.txt"):
        if path.is_file():
            m = re.fullmatch(r"python-(\d+\.\d+)(\.\d+)?", path.read_text().strip())
            return m[1] if m else None
    return None


def checked_expression(source):
    """The expression a check cell evaluates: ``X`` for ``assert X`` (or a bare ``X``).

    Otter runs its tests as doctests, so its version of a check cell drops
    the ``assert``: the checker's ``Not yet. <hint>`` and ``False`` then
    show in the doctest's diff, where an ``assert`` would show only a bare
    AssertionError.
    """
    tree = ast.parse(source)
    if len(tree.body) == 1 and isinstance(tree.body[0], (ast.Assert, ast.Expr)):
        node = tree.body[0]
        expr = node.test if isinstance(node, ast.Assert) else node.value
        if not (isinstance(node, ast.Assert) and node.msg is not None):
            return ast.get_source_segment(source, expr)
    raise ValueError(f"a check cell must be a single `assert <check>(...)`, not {source!r}")


def otter_check_cell(cell):
    """The check cell in Otter's form: the expression without ``assert``,
    and as expected output the stored ``Correct! ...`` line followed by
    ``True`` (what the expression prints, then what it returns)."""
    cell = copy.deepcopy(cell)
    cell.source = checked_expression(cell.source)
    printed = [o for o in cell.outputs if o.output_type == "stream" and o.name == "stdout"]
    if not (printed and printed[0].text.startswith("Correct! ")):
        raise ValueError(f"the check cell {cell.source!r} has no stored `Correct! ...` output: "
                         "run `make execute` first")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed[0].text),
                    nbformat.v4.new_output("execute_result", data={"text/plain": "True"},
                                           execution_count=cell.execution_count)]
    return cell


def otter_notebook(nb, *, module=CHECKER_MODULE, name="assignment", files=("posenc",),
                   requirements=None, python_version=None):
    """``nb`` rewritten in Otter Assign's format (a new notebook).

    Each exercise becomes an Otter question named by its label: the task,
    then the solution cell between ``# BEGIN SOLUTION`` / ``# END SOLUTION``
    raw cells (Otter turns the in-cell markers into ``...``), then the check
    cell in Otter's form (:func:`otter_check_cell`) between ``# BEGIN
    TESTS`` / ``# END TESTS``. Every other cell of an exercise (the Jupyter
    Book gate around the solution) is dropped. The first cell is the
    assignment config (:func:`otter_config`).
    """
    exercises, problems = find_exercises(nb, module=module)
    if problems:
        raise ValueError("the notebook's exercises do not follow the convention:\n" + "\n".join(problems))
    raw = nbformat.v4.new_raw_cell
    first = {e.cells["exercise"]: e for e in exercises}
    solutions = {e.cells["solution"] for e in exercises}
    checks = {e.cells["check"] for e in exercises}
    skip = {i for e in exercises for role, i in e.cells.items()
            if role not in ("exercise", "solution", "check")}
    out = copy.deepcopy(nb)
    cells = [raw(otter_config(name, files=files, requirements=requirements,
                              python_version=python_version))]
    for i, cell in enumerate(copy.deepcopy(nb.cells)):
        if i in skip:
            continue
        if i in first:
            ex = first[i]
            points = nb.cells[ex.cells["check"]].metadata["nbgrader"]["points"]
            cells.append(raw(f"# BEGIN QUESTION\nname: {ex.label}\npoints: {points}"))
            cells.append(cell)
        elif i in solutions:
            cells += [raw("# BEGIN SOLUTION"), cell, raw("# END SOLUTION")]
        elif i in checks:
            cells += [raw("# BEGIN TESTS"), otter_check_cell(cell), raw("# END TESTS"),
                      raw("# END QUESTION")]
        else:
            cells.append(cell)
    for cell in cells:
        cell.metadata.pop("nbgrader", None)
    out.cells = cells
    return out


def _chapter_folder(path, folder, notebook, book=None):
    """Put ``notebook`` (named as ``path``), a fresh copy of ``posenc`` and
    of the ``data/`` folder beside ``path`` (if there is one) in ``folder``,
    and, with ``book``, the plain pages of ``CHAPTER_PAGES`` that the
    chapter points to. Anything else in ``folder`` (a teacher's dist/,
    submissions, grades) is left alone. Returns the names of the files
    beside the notebook."""
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.validate(notebook)
    nbformat.write(notebook, folder / path.name)
    files = ["posenc"]
    if book is not None:
        for name, page in CHAPTER_PAGES.items():
            if _points_to(path, page):
                (folder / name).write_text(plain_page(page, book))
                files.append(name)
    shutil.rmtree(folder / "posenc", ignore_errors=True)
    shutil.copytree(ROOT / "posenc", folder / "posenc",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.rmtree(folder / "data", ignore_errors=True)
    if (path.parent / "data").is_dir():
        shutil.copytree(path.parent / "data", folder / "data")
        files.append("data")
    return files


def _points_to(path, page):
    """Whether the chapter at ``path`` links the book's ``page`` ({doc}`...`)."""
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    return re.search(rf"\{{doc\}}`(?:[^`<]*<)?{re.escape(pathlib.Path(page).stem)}>?`", text) is not None


def write_otter(notebooks, out):
    """Write one folder per chapter, ready for ``otter assign``.

    For each of ``notebooks`` that has exercises, ``out/<stem>/`` receives
    the Otter master notebook ``<stem>.ipynb`` (:func:`otter_notebook`,
    assignment name ``<stem>``, its markdown made plain by
    :func:`tools.plain_myst.plain_notebook`), a copy of ``posenc`` and the ``data/``
    folder if the chapter has one; both are listed in the assignment config,
    so they travel to the students and into the autograder. What else the
    folder holds (``dist/``, submissions, results) is kept. Returns the paths
    of the notebooks written.
    """
    out = pathlib.Path(out)
    book = plain_book(notebooks)
    written = []
    for path in chapters_with_exercises(notebooks):
        extra = ["data"] if (path.parent / "data").is_dir() else []
        pages = [name for name, page in CHAPTER_PAGES.items() if _points_to(path, page)]
        nb = otter_notebook(nbformat.read(path, as_version=4), name=path.stem,
                            files=["posenc", *extra, *pages])
        _chapter_folder(path, out / path.stem, plain_notebook(nb, book, path.stem), book)
        written.append(out / path.stem / path.name)
    return written


# --- nbgrader ----------------------------------------------------------------------

NBGRADER_CONFIG = """\
# The course folder of the book's chapters, written by `make nbgrader`.
# Run nbgrader from this folder: it finds this file and gradebook.db here.
c = get_config()  # noqa: F821 (nbgrader defines it)

# nbgrader stops a cell after 30 s by default; the training chapters need
# longer on a busy machine.
c.Execute.timeout = 600
"""


def write_nbgrader(notebooks, out):
    """Write an nbgrader course folder with one assignment per chapter.

    ``out`` receives ``nbgrader_config.py`` and, for each of ``notebooks``
    that has exercises, ``source/<stem>/`` holding the notebook (the book's
    notebooks are nbgrader source notebooks) with its markdown made plain by
    :func:`tools.plain_myst.plain_notebook`, a copy of ``posenc``
    and the ``data/`` folder if the chapter has one: ``nbgrader
    generate_assignment`` releases them with the notebook, and ``autograde``
    puts them back beside every submission. The rest of a course folder
    (releases, submissions, ``gradebook.db``) is left as it is. Returns the
    paths of the notebooks written.
    """
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "nbgrader_config.py").write_text(NBGRADER_CONFIG)
    written = []
    book = plain_book(notebooks)
    for path in chapters_with_exercises(notebooks):
        folder = out / "source" / path.stem
        _chapter_folder(path, folder, plain_notebook(nbformat.read(path, as_version=4), book, path.stem),
                        book)
        written.append(folder / path.name)
    return written


def student_totals(grades, out):
    """Per-student totals from the ``grades.csv`` of ``nbgrader export``.

    ``grades`` has one row per student and assignment; ``out`` gets one row
    per student: ``student_id``, the score of each assignment (a column
    per assignment, in name order), ``total`` and ``max_score`` (the sum of
    the assignments' maximum scores). A missing submission counts 0, as
    nbgrader exports it. Returns the rows written, as dicts.
    """
    import csv

    with open(grades, newline="") as f:
        rows = list(csv.DictReader(f))
    assignments = sorted({r["assignment"] for r in rows})
    maximum = {a: max(float(r["max_score"]) for r in rows if r["assignment"] == a) for a in assignments}
    students = {}
    for r in rows:
        students.setdefault(r["student_id"], dict.fromkeys(assignments, 0.0))[r["assignment"]] += float(r["score"])
    table = []
    for student, scores in sorted(students.items()):
        row = {"student_id": student, **{a: _number(s) for a, s in scores.items()}}
        row["total"] = _number(sum(scores.values()))
        row["max_score"] = _number(sum(maximum.values()))
        table.append(row)
    with open(out, "w", newline="") as f:
        writer = csv.DictWriter(f, ["student_id", *assignments, "total", "max_score"])
        writer.writeheader()
        writer.writerows(table)
    return table


def _number(x):
    """``3.0`` as ``3``, ``2.5`` as ``2.5``: scores read as they are."""
    return int(x) if float(x).is_integer() else x


# --- the teachers' page -------------------------------------------------------

TEACHERS_PAGE = BOOK / "teachers.md"
BLOCK_RE = re.compile(r"^```\{code-block\} bash\n:name: (?P<name>[\w-]+)\n\n(?P<body>.*?)^```$", re.M | re.S)


def teachers_page_blocks(text=None):
    """The named bash blocks of the teachers' page: {name: commands}."""
    text = TEACHERS_PAGE.read_text() if text is None else text
    return {m["name"]: m["body"] for m in BLOCK_RE.finditer(text)}


def chapter_of(block):
    """The chapter a block of the teachers' page works on: the folder it changes into."""
    return re.search(r"^cd _build/\w+/(\S+)$", block, re.M)[1]
