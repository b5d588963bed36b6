"""The real graders, end to end: ``make classroom-check``.

otter-grader and nbgrader are not among the book's packages: they live in
``.venv-classroom`` (``make classroom-venv``, pinned in
``requirements-classroom.txt``). This file is run by the book's venv (it is
not collected by ``make test``, whose file pattern is ``test_*.py``); it
runs the graders as a teacher does, through the commands printed on the
teachers' page, ``book/teachers.md``: each block there named
``classroom-...`` is read from the page and run as it stands, by bash, from
the root of a copy of the repository (so that a teacher's own course in
``_build/`` is never touched). Between two blocks, this file plays the
students: it writes their submissions where the page says to put them.

Three students hand in each graded chapter: ``solutions`` (each answer cell
holds the book's own solution), ``blank`` (the student edition as
released) and ``one-wrong`` (the solutions, but one answer is ``None``).
The graders must give full marks, zero without crashing, and full marks
less that one exercise's points, with otter showing the checker's
``Not yet.`` hint. Otter grades the chapter that the page assigns; nbgrader
releases every chapter and grades the same one, or every chapter with
``POSENC_GRADE_ALL=1 make classroom-check``. Nothing here goes to the
network.
"""

from __future__ import annotations

import ast
import concurrent.futures
import copy
import csv
import json
import os
import pathlib
import re
import shutil
import subprocess
import time
import zipfile

import nbformat
import pytest
import yaml

from tools import classroom

ROOT = classroom.ROOT
CLASSROOM_VENV = ROOT / ".venv-classroom"
STUDENTS = ("solutions", "blank", "one-wrong")


# --- the page's commands -------------------------------------------------------

def run_block(name, env, repo):
    """Run the page's block ``name`` with bash from the root of ``repo``,
    after the block that sets up and activates the classroom environment.
    Returns bash's output; fails the test if a command fails."""
    blocks = classroom.teachers_page_blocks()
    script = "set -euo pipefail\n" + blocks["classroom-venv"] + "\n" + blocks[name]
    start = time.monotonic()
    result = subprocess.run(["bash", "-c", script], cwd=repo, env=env, capture_output=True, text=True)
    print(f"block {name}: {time.monotonic() - start:.0f} s wall")  # shown with pytest -s
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"the page's block {name!r} failed:\n{script}\n---\n{output[-6000:]}"
    return output


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A copy of the repository to run the page's commands in: the files
    with their times (so make sees its venvs as up to date), the two venvs
    linked, of _build only the numbers of the built book (``make otter``
    and ``make nbgrader`` print them; without them they build the book)."""
    copy_ = tmp_path_factory.mktemp("repo") / "book-repo"
    skip = {".venv", ".venv-classroom", "_build", ".git", ".pytest_cache", ".hypothesis"}
    shutil.copytree(ROOT, copy_, copy_function=shutil.copy2, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n in skip or n == "__pycache__"])
    numbers = ROOT / "_build" / "numbers.json"
    if numbers.is_file():
        (copy_ / "_build").mkdir()
        shutil.copy2(numbers, copy_ / "_build" / "numbers.json")
    for venv in (".venv", ".venv-classroom"):
        (copy_ / venv).symlink_to(ROOT / venv)
    return copy_


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """The environment of the page's commands: this one, with Jupyter's,
    IPython's and Matplotlib's per-user folders in a fresh temporary
    folder, so a kernel or a config file of the user's cannot interfere."""
    home = tmp_path_factory.mktemp("home")
    env = dict(os.environ)
    env.pop("VIRTUAL_ENV", None)
    for var, sub in [("JUPYTER_CONFIG_DIR", "jupyter-config"), ("JUPYTER_DATA_DIR", "jupyter-data"),
                     ("IPYTHONDIR", "ipython"), ("MPLCONFIGDIR", "matplotlib")]:
        env[var] = str(home / sub)
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    return env


# --- the students ------------------------------------------------------------------


def book_exercises(chapter):
    nb = nbformat.read(ROOT / "book" / f"{chapter}.ipynb", as_version=4)
    exercises, problems = classroom.find_exercises(nb)
    assert exercises and not problems, (chapter, problems)
    return nb, exercises


def solutions_of(chapter):
    """{label: the source of the book's solution cell}."""
    nb, exercises = book_exercises(chapter)
    return {e.label: nb.cells[e.cells["solution"]].source for e in exercises}


def points_of(chapter):
    """{label: points of its check cell}, in the chapter's order."""
    nb, exercises = book_exercises(chapter)
    return {e.label: nb.cells[e.cells["check"]].metadata["nbgrader"]["points"] for e in exercises}


def wrong_answer(chapter):
    """(label, line): the first exercise whose check is given a variable,
    and a line that sets that variable to None. Every checker answers None
    with ``Not yet.`` and a hint (they never raise on an answer)."""
    nb, exercises = book_exercises(chapter)
    for e in exercises:
        call = ast.parse(classroom.checked_expression(nb.cells[e.cells["check"]].source)).body[0].value
        if call.args and isinstance(call.args[0], ast.Name):
            return e.label, f"\n{call.args[0].id} = None  # a wrong answer"
    pytest.fail(f"{chapter}: no exercise passes a plain variable to its checker")


def answered(nb, answer_cell, chapter, *, wrong=None):
    """A copy of the released ``nb`` with each answer cell (found by
    ``answer_cell(nb, label)``) holding the book's solution; ``wrong`` is
    the (label, line) of :func:`wrong_answer` to spoil one of them."""
    nb = copy.deepcopy(nb)
    for label, source in solutions_of(chapter).items():
        cell = answer_cell(nb, label)
        cell.source = source + (wrong[1] if wrong and wrong[0] == label else "")
    return nb


def otter_answer_cell(nb, label):
    """The answer cell of ``label`` in Otter's student notebook: the code
    cell just before ``grader.check("label")``."""
    checks = [i for i, c in enumerate(nb.cells) if c.source.strip() == f'grader.check("{label}")']
    assert len(checks) == 1, f"no single grader.check cell for {label}"
    cell = nb.cells[checks[0] - 1]
    assert cell.cell_type == "code" and "otter_answer_cell" in cell.metadata.get("tags", []), label
    return cell


def nbgrader_answer_cell(nb, label):
    """The answer cell of ``label`` in nbgrader's release: its grade_id."""
    grade_id = classroom.solution_meta(label)["grade_id"]
    found = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]
    assert len(found) == 1, f"no single solution cell for {label}"
    return found[0]


def classroom_python(env, *args, cwd):
    """Run a command of the classroom venv (a student's Jupyter)."""
    start = time.monotonic()
    result = subprocess.run([str(CLASSROOM_VENV / "bin" / args[0]), *args[1:]], cwd=cwd, env=env,
                            capture_output=True, text=True)
    print(f"{args[0]} {args[1]}: {time.monotonic() - start:.0f} s wall")  # shown with pytest -s
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    return result


# --- both graders at once ---------------------------------------------------------


@pytest.fixture(scope="module")
def graded(env, repo, tmp_path_factory):
    """Grade with otter and with nbgrader side by side (each mostly waits on
    its own subprocesses). Returns their futures: a failure in either is
    raised, with its message, by the fixture of that grader."""
    desk = tmp_path_factory.mktemp("otter-student")
    run_block("classroom-venv", env, repo)  # once, before the two run it side by side
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {"otter": pool.submit(grade_with_otter, env, repo, desk),
                   "nbgrader": pool.submit(grade_with_nbgrader, env, repo)}
        concurrent.futures.wait(futures.values())
    return futures


@pytest.fixture(scope="module")
def otter(graded):
    return graded["otter"].result()


@pytest.fixture(scope="module")
def nbgrader(graded):
    return graded["nbgrader"].result()


# --- otter-grader --------------------------------------------------------------------


def grade_with_otter(env, repo, desk):
    """Assign one chapter with Otter as the page says, hand in the three
    students' work (the solutions are run in the empty folder ``desk``),
    grade it as the page says. Returns the chapter, its folder, the grading
    output and each student's results.json."""
    blocks = classroom.teachers_page_blocks()
    chapter = classroom.chapter_of(blocks["classroom-otter-assign"])
    assert classroom.chapter_of(blocks["classroom-otter-grade"]) == chapter
    run_block("classroom-otter-assign", env, repo)
    folder = repo / "_build" / "otter" / chapter
    student_nb = nbformat.read(folder / "dist" / "student" / f"{chapter}.ipynb", as_version=4)
    submissions = folder / "submissions"
    submissions.mkdir()

    # The student edition as released, handed in untouched.
    nbformat.write(student_nb, submissions / "blank.ipynb")
    # The solutions, run in Jupyter to the end, export cell included: the
    # zip that export writes is the submission.
    shutil.copytree(folder / "dist" / "student", desk, dirs_exist_ok=True)
    nbformat.write(answered(student_nb, otter_answer_cell, chapter), desk / f"{chapter}.ipynb")
    classroom_python(env, "jupyter", "nbconvert", "--to", "notebook", "--execute",
                     "--output", "executed.ipynb", f"{chapter}.ipynb", cwd=desk)
    zips = sorted(desk.glob(f"{chapter}_*.zip"))
    assert len(zips) == 1, f"the export cell wrote {zips}"
    shutil.copy(zips[0], submissions / "solutions.zip")
    # One wrong answer, handed in as a notebook.
    wrong = wrong_answer(chapter)
    nbformat.write(answered(student_nb, otter_answer_cell, chapter, wrong=wrong),
                   submissions / "one-wrong.ipynb")

    output = run_block("classroom-otter-grade", env, repo)
    results = {s: json.loads((folder / "results" / s / "results.json").read_text()) for s in STUDENTS}
    return {"chapter": chapter, "folder": folder, "output": output, "results": results,
            "wrong": wrong[0], "export": zips[0]}


def otter_scores(results):
    """{question: (score, max_score)} from an Otter results.json."""
    return {t["name"]: (t["score"], t["max_score"]) for t in results["tests"] if "score" in t}


def test_otter_environment_lists_numpy_and_matplotlib(otter):
    """The autograder's environment (what `otter grade` and Gradescope
    build) installs posenc's dependencies, pinned as in the book."""
    (zip_path,) = (otter["folder"] / "dist" / "autograder").glob("*.zip")
    with zipfile.ZipFile(zip_path) as z:
        environment = yaml.safe_load(z.read("environment.yml"))
        names = set(z.namelist())
    pip = next(d["pip"] for d in environment["dependencies"] if isinstance(d, dict))
    pins = dict(line.split("==") for line in classroom._runtime_requirements())
    assert {"numpy", "matplotlib"} <= set(pins)
    for name, version in pins.items():
        assert f"{name}=={version}" in pip, f"{name} {version} missing from the autograder's environment: {pip}"
    assert "files/posenc/exercises/__init__.py" in names  # posenc travels with the tests


def test_otter_export_cell_needs_no_latex(otter):
    """The students' export cell ran without LaTeX and wrote a sound zip
    holding the notebook and no PDF."""
    with zipfile.ZipFile(otter["export"]) as z:
        assert z.testzip() is None
        names = z.namelist()
    assert f"{otter['chapter']}.ipynb" in names
    assert not any(n.endswith(".pdf") for n in names), names


def test_otter_gives_the_solutions_full_marks(otter):
    scores = otter_scores(otter["results"]["solutions"])
    points = points_of(otter["chapter"])
    assert scores == {label: (p, p) for label, p in points.items()}, scores
    assert f"Total Score: {sum(points.values()):.3f} / {sum(points.values()):.3f}" in otter["output"]


def test_otter_gives_the_blank_edition_zero(otter):
    scores = otter_scores(otter["results"]["blank"])
    points = points_of(otter["chapter"])
    assert scores == {label: (0, p) for label, p in points.items()}, scores


def test_otter_takes_off_exactly_the_wrong_exercise_and_shows_its_hint(otter):
    results = otter["results"]["one-wrong"]
    points, wrong = points_of(otter["chapter"]), otter["wrong"]
    assert otter_scores(results) == {label: (0 if label == wrong else p, p) for label, p in points.items()}
    (feedback,) = [t["output"] for t in results["tests"] if t["name"] == wrong]
    assert "Not yet. " in feedback, feedback  # the checker's hint, in the doctest's diff
    assert "AssertionError" not in feedback


# --- nbgrader ------------------------------------------------------------------------


def nbgrader_chapters():
    """The chapters the students hand in to nbgrader: the one that the page
    assigns with Otter, so both graders score the same work. Every chapter
    is released and appears in the totals; grading one keeps the check
    within CI's time. With ``POSENC_GRADE_ALL=1`` in the environment the
    students hand in every chapter, and nbgrader grades them all."""
    if os.environ.get("POSENC_GRADE_ALL") == "1":
        return all_chapters()
    return [classroom.chapter_of(classroom.teachers_page_blocks()["classroom-otter-assign"])]


GRADEBOOK_DUMP = """
import json
from nbgrader.api import Gradebook, MissingEntry
scores = {}
with Gradebook("sqlite:///gradebook.db") as gb:
    for a in gb.assignments:
        for s in gb.students:
            try:
                submission = gb.find_submission(a.name, s.id)
            except MissingEntry:
                continue
            for nb in submission.notebooks:
                for grade in nb.grades:
                    scores.setdefault(s.id, []).append([a.name, grade.name, grade.score])
print(json.dumps(scores))
"""


def grade_with_nbgrader(env, repo):
    """Release every chapter with nbgrader as the page says, hand in the
    three students' work for :func:`nbgrader_chapters`, grade the class as
    the page says. Returns the course folder, the per-student totals, each
    student's score per check cell (read with nbgrader's own API) and the
    wrong exercise of each graded chapter."""
    run_block("classroom-nbgrader-release", env, repo)
    course = repo / "_build" / "nbgrader"
    wrong = {}
    for chapter in nbgrader_chapters():
        released = nbformat.read(course / "release" / chapter / f"{chapter}.ipynb", as_version=4)
        wrong[chapter] = wrong_answer(chapter)
        notebooks = {
            "solutions": answered(released, nbgrader_answer_cell, chapter),
            "blank": released,
            "one-wrong": answered(released, nbgrader_answer_cell, chapter, wrong=wrong[chapter]),
        }
        for student, nb in notebooks.items():
            folder = course / "submitted" / student / chapter
            folder.mkdir(parents=True)
            nbformat.write(nb, folder / f"{chapter}.ipynb")
    run_block("classroom-nbgrader-grade", env, repo)
    with open(course / "totals.csv", newline="") as f:
        totals = {row["student_id"]: row for row in csv.DictReader(f)}
    result = classroom_python(env, "python", "-c", GRADEBOOK_DUMP, cwd=course)
    gradebook = {s: {(a, cell): score for a, cell, score in rows}
                 for s, rows in json.loads(result.stdout).items()}
    return {"totals": totals, "wrong": {c: w[0] for c, w in wrong.items()}, "course": course,
            "gradebook": gradebook}


def all_chapters():
    return [p.stem for p in classroom.chapters_with_exercises(sorted((ROOT / "book").glob("*.ipynb")))]


def test_nbgrader_totals_have_a_column_per_chapter(nbgrader):
    chapters = all_chapters()
    for row in nbgrader["totals"].values():
        assert list(row) == ["student_id", *chapters, "total", "max_score"]
        maximum = sum(sum(points_of(c).values()) for c in chapters)
        assert float(row["max_score"]) == maximum
    assert sorted(nbgrader["totals"]) == sorted(STUDENTS)


def test_nbgrader_gives_the_solutions_full_marks(nbgrader):
    row = nbgrader["totals"]["solutions"]
    expected = {c: sum(points_of(c).values()) if c in nbgrader_chapters() else 0 for c in all_chapters()}
    assert {c: float(row[c]) for c in expected} == expected
    assert float(row["total"]) == sum(expected.values())
    scores = nbgrader["gradebook"]["solutions"]
    for chapter in nbgrader_chapters():
        for label, p in points_of(chapter).items():
            assert scores[(chapter, classroom.check_meta(label)["grade_id"])] == p, label


def test_nbgrader_gives_the_blank_edition_zero(nbgrader):
    row = nbgrader["totals"]["blank"]
    assert all(float(row[c]) == 0 for c in all_chapters()) and float(row["total"]) == 0
    scores = nbgrader["gradebook"]["blank"]
    assert set(scores.values()) == {0}
    assert {a for a, _ in scores} == set(nbgrader_chapters())  # graded, not skipped


def test_nbgrader_takes_off_exactly_the_wrong_exercise(nbgrader):
    row, scores = nbgrader["totals"]["one-wrong"], nbgrader["gradebook"]["one-wrong"]
    total = 0
    for chapter in nbgrader_chapters():
        points, wrong = points_of(chapter), nbgrader["wrong"][chapter]
        expected = sum(points.values()) - points[wrong]
        assert float(row[chapter]) == expected, chapter
        total += expected
        for label, p in points.items():
            assert scores[(chapter, classroom.check_meta(label)["grade_id"])] == (0 if label == wrong else p), label
    assert float(row["total"]) == total
