"""The graders' side of the classroom, without the graders: what ``make
otter``, ``make nbgrader`` and the per-student totals write, the teachers'
page's commands and the classroom requirements. The real otter-grader and
nbgrader run in ``make classroom-check`` (tests/book/check_classroom.py)."""

from __future__ import annotations

import csv
import re
import subprocess
import sys

import nbformat
import pytest
import yaml

from tools import classroom, plain_myst
from tools.paths import ROOT, notebooks

CHAPTERS = classroom.chapters_with_exercises(notebooks())


def pins(path):
    """{name: version} of the ``name==version`` lines of a requirements file."""
    found = {}
    for line in path.read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==")
            found[re.sub(r"\[.*\]", "", name).lower()] = version.strip()
    return found


# --- otter-grader ------------------------------------------------------------------


def test_otter_config_installs_posenc_dependencies_and_makes_no_pdf():
    raw = classroom.otter_config("02_sines")
    assert raw.startswith("# ASSIGNMENT CONFIG\n")
    config = yaml.safe_load(raw)
    assert config["name"] == "02_sines"
    book = pins(ROOT / "requirements.txt")
    assert config["requirements"] == [f"{n}=={book[n]}" for n in ("numpy", "matplotlib")]
    assert config["python_version"] == (ROOT / "binder" / "runtime.txt").read_text().strip().removeprefix("python-")
    assert config["export_cell"] == {"pdf": False}
    assert config["files"] == ["posenc"]


@pytest.mark.parametrize("source, expression", [
    ("assert posenc.exercises.check_x(a)", "posenc.exercises.check_x(a)"),
    ("assert posenc.exercises.check_x(\n    a, b=[1, 2])", "posenc.exercises.check_x(\n    a, b=[1, 2])"),
    ("posenc.exercises.check_x(a)", "posenc.exercises.check_x(a)"),
])
def test_checked_expression_drops_the_assert(source, expression):
    assert classroom.checked_expression(source) == expression


@pytest.mark.parametrize("source", [
    "x = 1\nassert check(x)", "assert check(x), 'message'", "x = check(a)",
])
def test_checked_expression_refuses_other_check_cells(source):
    with pytest.raises(ValueError, match="single `assert"):
        classroom.checked_expression(source)


def test_otter_check_cell_needs_the_stored_correct_output():
    cell = nbformat.v4.new_code_cell("assert posenc.exercises.check_x(a)")
    with pytest.raises(ValueError, match="make execute"):
        classroom.otter_check_cell(cell)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="Correct! Fine.\n")]
    otter = classroom.otter_check_cell(cell)
    assert otter.source == "posenc.exercises.check_x(a)"
    assert [o.output_type for o in otter.outputs] == ["stream", "execute_result"]
    assert cell.source.startswith("assert")  # the book's cell is unchanged


def plain_problems(nb):
    """Raw MyST left in an edition's markdown, or a figure without its caption under it."""
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown" and plain_myst.leftover_roles(cell.source):
            problems.append(f"cell {i + 1}: {plain_myst.leftover_roles(cell.source)}")
        if cell.cell_type == "markdown" and (plain_myst.is_gate(cell) or re.search(r"^\([^()\s]+\)=\s*$",
                                                                                    cell.source, re.M)):
            problems.append(f"cell {i + 1}: a gate cell or a target line")
        if plain_myst.figure_of(cell).get("caption"):
            under = nb.cells[i + 1] if i + 1 < len(nb.cells) else None
            if under is None or not re.match(r"\*\*Figure \d+\.\d+\.\*\* ", under.source):
                problems.append(f"cell {i + 1}: no numbered caption under the figure")
    return problems


def test_make_otter_writes_one_folder_per_chapter_and_keeps_the_rest(tmp_path, built_book):
    out = tmp_path / "otter"
    written = classroom.write_otter(notebooks(), out)
    assert [p.parent.name for p in written] == [p.stem for p in CHAPTERS]
    assert sorted(p.name for p in out.iterdir()) == [p.stem for p in CHAPTERS]  # no appendix
    for path in written:
        nb = nbformat.read(path, as_version=4)
        assert not plain_problems(nb), (path.name, plain_problems(nb))  # plain Markdown (issue 27)
        config = yaml.safe_load(nb.cells[0].source)
        assert config["name"] == path.stem
        for name in config["files"]:
            assert (path.parent / name).exists(), f"{path.parent.name}: {name} is listed but missing"
        assert (path.parent / "posenc" / "exercises" / "__init__.py").is_file()
        # the experiments page goes with the chapters that point to it (issue 38)
        if classroom._points_to(ROOT / "book" / path.name, classroom.CHAPTER_PAGES["experiments.md"]):
            assert "experiments.md" in config["files"]
            assert "## Convergence, seed by seed" in (path.parent / "experiments.md").read_text()
    assert {"04_learned", "06_length"} <= {p.parent.name for p in written
                                           if (p.parent / "experiments.md").is_file()}
    # A teacher's dist/ and submissions survive a second `make otter`;
    # a stale file in the posenc copy does not.
    folder = written[0].parent
    (folder / "dist").mkdir()
    (folder / "dist" / "keep.txt").write_text("x")
    (folder / "posenc" / "stale.py").write_text("x")
    classroom.write_otter(notebooks(), out)
    assert (folder / "dist" / "keep.txt").is_file() and not (folder / "posenc" / "stale.py").exists()


# --- nbgrader ------------------------------------------------------------------------


def test_make_nbgrader_writes_a_course_folder_and_keeps_the_rest(tmp_path, built_book):
    course = tmp_path / "course"
    written = classroom.write_nbgrader(notebooks(), course)
    assert [p.relative_to(course).parts[:2] for p in written] == [("source", p.stem) for p in CHAPTERS]
    plain = classroom.plain_book()
    for path, book in zip(written, CHAPTERS):
        assert path.name == book.name
        source = nbformat.read(book, as_version=4)
        assert nbformat.read(path, as_version=4) == plain_myst.plain_notebook(source, plain, book.stem)
        assert not plain_problems(nbformat.read(path, as_version=4)), path.name
        assert plain_problems(source), "the check above cannot fail"
        assert not classroom.nbgrader_problems(nbformat.read(path, as_version=4))
        assert (path.parent / "posenc" / "exercises" / "__init__.py").is_file()
        assert (path.parent / "experiments.md").is_file() == classroom._points_to(
            book, classroom.CHAPTER_PAGES["experiments.md"])
    assert (course / "source" / "06_length" / "experiments.md").is_file()
    config = (course / "nbgrader_config.py").read_text()
    assert "c.Execute.timeout = 600" in config
    compile(config, "nbgrader_config.py", "exec")
    (course / "gradebook.db").write_text("grades")
    classroom.write_nbgrader(notebooks(), course)
    assert (course / "gradebook.db").read_text() == "grades"


GRADES = """\
assignment,duedate,timestamp,student_id,last_name,first_name,email,raw_score,late_submission_penalty,score,max_score
01_why,,,bo,,,,3.0,0.0,3.0,4.0
01_why,,,al,,,,4.0,0.0,4.0,4.0
02_sin,,,al,,,,2.5,0.0,2.5,5.0
02_sin,,,bo,,,,0.0,0.0,0.0,5.0
"""


def test_student_totals_add_each_students_chapters(tmp_path):
    (tmp_path / "grades.csv").write_text(GRADES)
    rows = classroom.student_totals(tmp_path / "grades.csv", tmp_path / "totals.csv")
    assert rows == [
        {"student_id": "al", "01_why": 4, "02_sin": 2.5, "total": 6.5, "max_score": 9},
        {"student_id": "bo", "01_why": 3, "02_sin": 0, "total": 3, "max_score": 9},
    ]
    with open(tmp_path / "totals.csv", newline="") as f:
        assert list(csv.reader(f)) == [["student_id", "01_why", "02_sin", "total", "max_score"],
                                       ["al", "4", "2.5", "6.5", "9"], ["bo", "3", "0", "3", "9"]]


def test_nbtools_totals_is_the_command_the_page_gives(tmp_path):
    (tmp_path / "grades.csv").write_text(GRADES)
    cmd = [sys.executable, str(ROOT / "tools" / "nbtools.py"), "totals", "grades.csv", "totals.csv"]
    result = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "totals.csv").read_text().splitlines()[1] == "al,4,2.5,6.5,9"


# --- the teachers' page, the Makefile, the requirements -----------------------------

BLOCKS = ["classroom-venv", "classroom-nbgrader-release", "classroom-nbgrader-grade",
          "classroom-otter-assign", "classroom-otter-grade"]


def test_the_page_has_the_blocks_that_classroom_check_runs():
    blocks = classroom.teachers_page_blocks()
    assert sorted(blocks) == sorted(BLOCKS)
    text = "\n".join(blocks.values())
    for target in re.findall(r"^make ([\w-]+)$", text, re.M):
        assert re.search(rf"^{target}:", (ROOT / "Makefile").read_text(), re.M), f"no `make {target}`"
    for command in re.findall(r"tools/nbtools\.py (\w+)", text):
        assert f'add_parser("{command}"' in (ROOT / "tools" / "nbtools.py").read_text()
    chapter = classroom.chapter_of(blocks["classroom-otter-assign"])
    assert chapter in [p.stem for p in CHAPTERS], f"the page assigns {chapter}, not a chapter with exercises"
    assert f"otter assign {chapter}.ipynb dist" in blocks["classroom-otter-assign"]


def test_page_blocks_are_found_only_with_a_name():
    text = "```{code-block} bash\n:name: a-b\n\nmake x\n```\n\n```bash\nmake y\n```\n"
    assert classroom.teachers_page_blocks(text) == {"a-b": "make x\n"}


def test_classroom_requirements_pin_the_graders_and_the_books_numerics():
    classroom_pins, book_pins = pins(ROOT / "requirements-classroom.txt"), pins(ROOT / "requirements.txt")
    assert "otter-grader[grading]==" in (ROOT / "requirements-classroom.txt").read_text()
    assert {"otter-grader", "nbgrader", "ipykernel"} <= set(classroom_pins)
    for name in ("numpy", "matplotlib", "ipykernel"):
        assert classroom_pins[name] == book_pins[name], f"{name}: the graders must run the book's version"
    lines = [ln.strip() for ln in (ROOT / "requirements-classroom.txt").read_text().splitlines()]
    requirements = [ln for ln in lines if ln and not ln.startswith("#")]
    assert all("==" in ln for ln in requirements), [ln for ln in requirements if "==" not in ln]
    assert not any(ln.startswith("-e") for ln in requirements)  # installs from any folder


def test_ci_runs_the_classroom_check_after_the_tests():
    run = (ROOT / ".ci" / "run").read_text()
    commands = [ln.strip() for ln in run.splitlines() if ln.strip().startswith("make ")]
    assert commands[:2] == ["make book", "make test"], commands
    assert commands[-1] == "make classroom-check", commands


def test_make_classroom_check_installs_the_graders_then_runs_both_checks():
    """`make classroom-check` (dry run, every target out of date) installs
    .venv-classroom before the graders' check runs, and runs the student
    editions whole too (the tests marked "classroom")."""
    result = subprocess.run(["make", "--no-print-directory", "-n", "-B", "classroom-check"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()

    def where(text):
        found = [i for i, line in enumerate(lines) if text in line]
        assert found, f"make classroom-check does not run {text!r}:\n{result.stdout}"
        return found[0]

    assert where(".venv-classroom/bin/python -m pip install") < where("pytest tests/book/check_classroom.py")
    assert "-r requirements-classroom.txt" in lines[where(".venv-classroom/bin/python -m pip install")]
    where("pytest -n auto -m classroom tests/book/test_classroom.py")
