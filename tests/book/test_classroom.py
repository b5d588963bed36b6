"""The classroom edition: exercises, the student edition, nbgrader, the pages.

Every test runs over each notebook under book/ and over
tests/fixtures/exercise_demo.ipynb, a two-exercise notebook that is not part
of the book (see tests/fixtures/README.md), so the machinery is proven even
before a chapter exists. The rules themselves live in tools/classroom.py;
the last tests of this file feed them broken notebooks to prove they can fail.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import pathlib
import re
import subprocess
import sys

import bs4
import markdown_it
import nbformat
import numpy as np
import pytest
import yaml

from tools import classroom, glossary_links, plain_myst
import posenc
from tools.paths import FIXTURES, ROOT, notebooks, toc_files

FIXTURE = FIXTURES / "exercise_demo.ipynb"
NBGRADER_RELEASE = FIXTURES / "exercise_demo.nbgrader-release.ipynb"
from tests.fixtures import demo_checks

BOOK_NOTEBOOKS = notebooks()
ALL_NOTEBOOKS = [*BOOK_NOTEBOOKS, FIXTURE]


def _chapter_notebooks():
    """The notebooks of the toc part "Chapters": each must end with exercises.
    (Appendices may have none.)"""
    parts = yaml.safe_load((ROOT / "_toc.yml").read_text()).get("parts", [])
    files = [c["file"] for p in parts if p.get("caption") == "Chapters" for c in p["chapters"]]
    return [p for p in BOOK_NOTEBOOKS if name(p).removesuffix(".ipynb") in files]


def name(path):
    return str(path.relative_to(ROOT))


def module_name(path):
    """The module whose checkers the notebook's check cells call."""
    return "demo_checks" if path == FIXTURE else classroom.CHECKER_MODULE


def checkers(path):
    return demo_checks if path == FIXTURE else posenc.exercises


@functools.cache
def read(path):
    return nbformat.read(path, as_version=4)


def exercises_of(path):
    return classroom.find_exercises(read(path), module=module_name(path))[0]


each_notebook = pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=name)


# --- every exercise has the convention's form ------------------------------


@each_notebook
def test_exercises_follow_the_convention(path):
    exercises, problems = classroom.find_exercises(read(path), module=module_name(path))
    assert not problems, f"{name(path)}:\n" + "\n".join(problems)
    if path == FIXTURE or path in _chapter_notebooks():
        assert exercises, f"{name(path)} has no exercise; every chapter ends with exercises"


@each_notebook
def test_exercises_read_as_text_where_myst_is_not_rendered(path):
    """Colab, GitHub and JupyterLab without jupyterlab-myst render a markdown
    cell as CommonMark (markdown-it's "commonmark" preset stands in for them
    here). There an exercise must still read as an exercise: its task
    rendered exactly as it would be on its own (not inside a code block,
    not run into a directive line), the title visible in the line above it,
    and the closing fence on a line of its own below it."""
    md = markdown_it.MarkdownIt("commonmark")
    nb = read(path)
    for ex in exercises_of(path):
        source = nb.cells[ex.cells["exercise"]].source
        (directive,) = [d for d in classroom.directives(source) if d.name == "exercise"]
        html = md.render(source)
        blocks = bs4.BeautifulSoup(html, "html.parser").find_all(recursive=False)
        where = f"{name(path)}, {ex.label}"
        assert md.render(directive.body) in html, f"{where}: the task does not read as text in Colab:\n{html}"
        assert blocks[0].name == "p" and blocks[0].get_text().startswith(f":::{{exercise}} {ex.title}\n"), (
            f"{where}: the title line does not read as text in Colab: {blocks[0]}")
        assert str(blocks[-1]) == "<p>:::</p>", f"{where}: the closing fence is not on its own: {blocks[-1]}"


def test_every_chapter_is_in_the_chapters_part():
    chapters = _chapter_notebooks()
    assert len(chapters) >= 4, f"the toc part 'Chapters' lists only {chapters}"
    assert all(p.name[:2].isdigit() for p in chapters)


@each_notebook
def test_check_cells_call_a_checker_that_exists(path):
    for ex in exercises_of(path):
        if ex.checker is None:
            continue  # a malformed check cell: test_exercises_follow_the_convention says so
        assert callable(getattr(checkers(path), ex.checker, None)), (
            f"{name(path)}, {ex.label}: {module_name(path)}.{ex.checker} does not exist"
        )


@each_notebook
def test_nbgrader_accepts_the_metadata(path):
    problems = classroom.nbgrader_problems(read(path))
    assert not problems, f"{name(path)}: nbgrader generate_assignment would refuse it:\n" + "\n".join(problems)


@each_notebook
def test_stored_checks_print_correct(path):
    """The stored solution passes its own check, and the check says so."""
    nb = read(path)
    for ex in exercises_of(path):
        outputs = nb.cells[ex.cells["check"]].outputs
        texts = [o.get("text", "") for o in outputs if o.output_type == "stream" and o.name == "stdout"]
        assert len(outputs) == 1 and len(texts) == 1 and texts[0].startswith("Correct! "), (
            f"{name(path)}, {ex.label}: the stored check cell should print one line "
            f"'Correct! ...', got {outputs}"
        )


def test_labels_are_unique_across_the_book():
    labels = [ex.label for path in BOOK_NOTEBOOKS for ex in exercises_of(path)]
    assert len(labels) == len(set(labels)), f"duplicate exercise labels: {sorted(labels)}"


# --- checkers: each used by a notebook, documented and tested ----------------


def _public_checkers(module):
    return sorted(n for n, f in vars(module).items()
                  if n.startswith("check_") and callable(f) and f.__module__ == module.__name__)


@pytest.mark.parametrize("module, notebooks_, test_files", [
    (posenc.exercises, BOOK_NOTEBOOKS, sorted((ROOT / "tests" / "exercises").glob("test_*.py"))),
    (demo_checks, [FIXTURE], [ROOT / "tests" / "book" / "test_classroom.py"]),
], ids=["posenc.exercises", "demo_checks"])
def test_every_checker_is_used_documented_and_tested(module, notebooks_, test_files):
    used = {ex.checker for path in notebooks_ for ex in exercises_of(path)}
    tests = "\n".join(p.read_text() for p in test_files)
    for checker in _public_checkers(module):
        assert checker in used, f"{module.__name__}.{checker} is not used by any exercise"
        doc = getattr(module, checker).__doc__ or ""
        assert "Parameters" in doc and "Returns" in doc, f"{checker} needs a numpydoc docstring"
        assert re.search(rf"\b{checker}\b", tests), (
            f"{checker} is not tested in any of {[p.name for p in test_files]}"
        )


# The fixture's own checkers, tested as every chapter's checkers are.

NORMS = np.full(6, np.sqrt(2.0))


@pytest.mark.parametrize("answer", [
    NORMS, list(NORMS), tuple(NORMS), NORMS.astype(np.float32),
    np.linalg.norm(posenc.sinusoidal(6, 4), axis=1),
], ids=["array", "list", "tuple", "float32", "computed"])
def test_check_demo_norms_accepts_every_correct_form(answer, capsys):
    assert demo_checks.check_demo_norms(answer)
    assert capsys.readouterr().out.startswith("Correct! ")


@pytest.mark.parametrize("answer", [
    np.linalg.norm(posenc.sinusoidal(6, 4), axis=0),  # wrong axis: 4 numbers
    NORMS ** 2, NORMS[:5], "sqrt(2)", None, [[1.0], [1.0, 2.0]], NORMS + 1e-3,
], ids=["wrong-axis", "squared", "short", "text", "none", "ragged", "off"])
def test_check_demo_norms_rejects_wrong_answers_without_revealing(answer, capsys):
    assert not demo_checks.check_demo_norms(answer)
    out = capsys.readouterr().out
    assert out.startswith("Not yet. ")
    assert "1.41" not in out and "sqrt(2)" not in out and "√2" not in out


@pytest.mark.parametrize("answer", [
    lambda d: posenc.frequencies(d)[-1],
    lambda d: 10000.0 ** (-2 * ((d + 1) // 2 - 1) / d),
    lambda d: np.float32(posenc.frequencies(d)[-1]),
], ids=["posenc", "formula", "float32"])
def test_check_demo_last_frequency_accepts_correct_functions(answer, capsys):
    assert demo_checks.check_demo_last_frequency(answer)
    assert capsys.readouterr().out.startswith("Correct! ")


def _raises(d):
    raise NotImplementedError()


@pytest.mark.parametrize("answer", [
    lambda d: posenc.frequencies(d)[0],  # the first pair, not the last
    lambda d: 10000.0 ** (-((d + 1) // 2 - 1) / d),  # i instead of 2i
    0.01, _raises,
], ids=["first-pair", "i-not-2i", "not-a-function", "raises"])
def test_check_demo_last_frequency_rejects_wrong_answers(answer, capsys):
    assert not demo_checks.check_demo_last_frequency(answer)
    out = capsys.readouterr().out
    assert out.startswith("Not yet. ")
    assert "0.01" not in out and "1e-" not in out


# --- the exercises page and the teachers' part of the book -------------------


def test_exercises_page_lists_every_exercise():
    text = classroom.EXERCISES_PAGE.read_text()
    for path in BOOK_NOTEBOOKS:
        for ex in exercises_of(path):
            assert f"{{ref}}`{ex.label}`" in text, (
                f"{ex.label} ({path.name}) is missing from book/exercises.md: run `make exercises`"
            )
    assert text == classroom.exercises_page(text, BOOK_NOTEBOOKS), (
        "book/exercises.md is out of date: run `make exercises`"
    )


def test_exercise_list_groups_exercises_under_their_chapter():
    listing = classroom.exercise_list([FIXTURE, FIXTURE])
    section = "## {doc}`exercise_demo`\n\n- {ref}`ex-demo-norms`: Row norms\n- {ref}`ex-demo-last-frequency`: The slowest pair"
    assert listing == section + "\n\n" + section
    assert classroom.exercise_list([]) == "No chapter has exercises yet."


def _toc_parts():
    return yaml.safe_load((ROOT / "_toc.yml").read_text()).get("parts", [])


def test_teacher_pages_are_a_part_before_the_back_matter():
    captions = [p.get("caption") for p in _toc_parts()]
    assert "For teachers" in captions and "Back matter" in captions, captions
    assert captions.index("For teachers") < captions.index("Back matter")
    part = _toc_parts()[captions.index("For teachers")]
    assert [c["file"] for c in part["chapters"]] == ["book/exercises", "book/teachers"]


def test_chapters_are_numbered_so_exercises_are_numbered_per_chapter():
    """Exercise 2.3 means chapter 2: that needs `numbered: true` on each part
    that holds chapter notebooks (Sphinx numbers figures and exercises by
    section only in a numbered toctree; otherwise they run 1..N over the book)."""
    chapters = {name(p).removesuffix(".ipynb") for p in BOOK_NOTEBOOKS if exercises_of(p)}
    for part in _toc_parts():
        files = {c.get("file") for c in part.get("chapters", [])}
        if files & chapters:
            assert part.get("numbered") is True, (
                f"the part {part.get('caption')!r} holds chapters; give it `numbered: true` in _toc.yml"
            )
    assert set(toc_files()) >= chapters


def test_sphinx_exercise_is_enabled():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert "sphinx_exercise" in config["sphinx"]["extra_extensions"]


# --- the student edition -------------------------------------------------------


def demo_numbers(demo_book):
    """The numbers.json of the demo book's build, which numbers the fixture too."""
    return demo_book.parent / "numbers.json"


@pytest.fixture(scope="module")
def student(tmp_path_factory, built_book, demo_book):
    """The student edition of every notebook: {source path: student path}.

    Book chapters are written together, as `make student` does, with the
    numbers of the built book; the fixture on its own, with its checker
    module beside it and the numbers of the demo book, where it is a page.
    """
    out = tmp_path_factory.mktemp("student")
    written = classroom.write_student(BOOK_NOTEBOOKS, out / "book")
    written.extend(classroom.write_student([FIXTURE], out / "fixture", numbers=[demo_numbers(demo_book)]))
    (out / "fixture" / "demo_checks.py").write_text((FIXTURES / "demo_checks.py").read_text())
    return dict(zip(ALL_NOTEBOOKS, written))


@functools.cache
def _run_student(path):
    nb = nbformat.read(path, as_version=4)
    return classroom.run_all_cells(nb, path.parent)


@functools.cache
def _plain_book(numbers):
    return classroom.plain_book(ALL_NOTEBOOKS, numbers=[numbers])


@pytest.fixture(scope="module")
def plain(built_book, demo_book):
    """The book's targets, with the fixture as an extra page (as write_student makes it)."""
    return _plain_book(demo_numbers(demo_book))


@each_notebook
def test_student_edition_is_the_notebook_without_solutions_and_outputs(path, student, plain):
    """Cell for cell, by id: the gate cells are gone, a caption cell follows
    each figure, code cells keep their source (solutions cleared), every
    cell keeps its type and metadata, markdown is made plain."""
    source, target = read(path), nbformat.read(student[path], as_version=4)
    nbformat.validate(target)
    assert target.metadata == source.metadata
    kept = [c for c in source.cells if not plain_myst.is_gate(c)]
    gates = {ex.cells[r] for ex in exercises_of(path) for r in ("start", "end")}
    assert len(source.cells) - len(kept) == len(gates)
    expected_ids = []
    for cell in kept:
        expected_ids.append(cell.id)
        if plain_myst.figure_of(cell).get("caption"):
            expected_ids.append(plain_myst.caption_cell_id(cell))
    assert [c.id for c in target.cells] == expected_ids
    by_id = {c.id: c for c in target.cells}
    solution_ids = {source.cells[ex.cells["solution"]].id for ex in exercises_of(path)}
    for a in kept:
        b = by_id[a.id]
        where = f"{name(path)}, cell {a.id}"
        assert (b.cell_type, b.metadata) == (a.cell_type, a.metadata), where
        if a.id in solution_ids:
            assert b.source == classroom.clear_solution_regions(a.source), where
            assert classroom.CODE_STUB.split("\n")[1] in b.source, where
        elif a.cell_type == "markdown":
            assert b.source == plain.plain(a.source, path.stem), where
        else:
            assert b.source == a.source, f"{where} changed in the student edition"
        if b.cell_type == "code":
            assert b.outputs == [] and b.execution_count is None, f"{where} keeps its outputs"


def student_problems(nb, plain):
    """What keeps a notebook of the student, nbgrader or Otter edition from
    reading as plain Markdown: a MyST role or target line left in a markdown
    cell, a figure whose caption is not the markdown cell under it."""
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            left = plain_myst.leftover_roles(cell.source)
            if left:
                problems.append(f"cell {i + 1}: MyST roles {left} left in the text")
            if re.search(r"^\([^()\s]+\)=\s*$", cell.source, re.M):
                problems.append(f"cell {i + 1}: a MyST target line (label)= left in the text")
            if plain_myst.is_gate(cell):
                problems.append(f"cell {i + 1}: a solution-gate cell, which only the book's toggle needs")
            if "posenc-widget" in cell.source:
                problems.append(f"cell {i + 1}: an interactive figure's directive, which only the HTML book draws")
        caption = plain_myst.figure_of(cell).get("caption")
        if caption:
            under = nb.cells[i + 1] if i + 1 < len(nb.cells) else None
            text = plain.plain_inline(caption).strip()
            if under is None or under.cell_type != "markdown" or text not in under.source:
                problems.append(f"cell {i + 1}: its figure's caption is not under it as text: {caption[:60]!r}")
            elif not re.match(r"^\*\*Figure (\d+\.)?\d+\.\*\* ", under.source):
                problems.append(f"cell {i + 2}: the caption does not start with its number: {under.source[:40]!r}")
    return problems


@each_notebook
def test_student_edition_reads_without_myst(path, student, plain):
    """What Colab, VS Code and JupyterLab without jupyterlab-myst show: no
    raw role, every figure's caption under it (issue 27)."""
    target = nbformat.read(student[path], as_version=4)
    problems = student_problems(target, plain)
    assert not problems, f"{name(path)}, student edition:\n" + "\n".join(problems)
    html = markdown_it.MarkdownIt("commonmark").render(
        "\n\n".join(c.source for c in target.cells if c.cell_type == "markdown"))
    assert not re.search(r"\{(cite|numref|ref|doc|term|eq)", html)


def test_the_plain_check_finds_roles_and_missing_captions(plain):
    """The check above can fail: the book's own notebooks (MyST) fail it."""
    problems = student_problems(read(BOOK_NOTEBOOKS[0]), plain)
    assert any("MyST roles" in p for p in problems) and any("caption" in p for p in problems)
    assert any("target line" in p for p in problems) and any("solution-gate" in p for p in problems)
    problems = student_problems(read(FIXTURE), plain)
    assert any("{numref}" in p for p in problems) and any("{eq}" in p for p in problems)


def test_student_widget_boxes_give_the_address_of_the_html_book(student):
    # issue 39: the boxes said "in the HTML book" and gave no address
    repo = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    owner, name = repo.rstrip("/").split("/")[-2:]
    boxes = in_book = 0
    for source, path in student.items():
        if source == FIXTURE:
            continue
        in_book += sum("posenc-widget" in c.source for c in read(source).cells)
        for cell in read(path).cells:
            if cell.cell_type == "markdown" and "Interactive figure" in cell.source:
                boxes += 1
                page = f"https://{owner.lower()}.github.io/{name}/book/{source.stem}.html"
                assert f"<{page}>" in cell.source, (source.name, cell.source)
    assert boxes == in_book > 0


def test_student_folder_has_the_pages_the_chapters_point_to(student):
    folder = student[BOOK_NOTEBOOKS[0]].parent
    readme = (folder / "README.md").read_text()
    # issue 39: a failed check ends in a traceback, which looks like a crash
    assert "AssertionError" in readme and "on purpose, not a crash" in readme
    for page in ("notation.md", "glossary.md", "experiments.md", "references.md"):
        text = (folder / page).read_text()
        assert f"[`{page}`]({page})" in readme, f"the student README does not link {page}"
        assert not plain_myst.leftover_roles(text), (page, plain_myst.leftover_roles(text))
        assert "```{" not in text and ":::{" not in text, f"{page} keeps a MyST directive"
    glossary = (folder / "glossary.md").read_text()
    entries = glossary_links.read_glossary()
    for entry in entries:
        assert re.search(rf"^- \*\*{re.escape(entry.terms[0])}\*\*", glossary, re.M), entry.terms[0]
    notation = (folder / "notation.md").read_text()
    assert "## Angles and rotations" in notation and "(notation-rotations)=" not in notation
    assert "Haviv et al., 2022" in (folder / "references.md").read_text()
    # How to see the book rendered
    assert "make lab" in readme and "jupyterlab-myst" in readme
    for path in BOOK_NOTEBOOKS:
        assert f"`{path.name}`: " in readme


@each_notebook
def test_no_solution_text_survives(path, student):
    text = student[path].read_text()
    if not exercises_of(path):  # an appendix without exercises
        assert classroom.BEGIN_WORDS not in text
        return
    secret = classroom.solution_only_lines(read(path))
    assert secret, f"{name(path)}: no solution line found to hide"
    assert classroom.BEGIN_WORDS not in text and classroom.END_WORDS not in text
    target = nbformat.read(student[path], as_version=4)
    for i, cell in enumerate(target.cells):
        lines = {line.strip() for line in cell.source.split("\n")}
        assert not lines & secret, f"{name(path)}, cell {i + 1} shows solution lines {lines & secret}"


def test_stubs_keep_the_indentation_of_the_marker(student):
    target = nbformat.read(student[FIXTURE], as_version=4)
    function_cell = next(c for c in target.cells if c.source.startswith("def last_frequency"))
    assert "\n    # YOUR CODE HERE\n    raise NotImplementedError()\n" in function_cell.source
    assert function_cell.source.endswith("print(last_frequency(4))")


def test_student_edition_matches_what_nbgrader_releases(student):
    """tests/fixtures/exercise_demo.nbgrader-release.ipynb is what nbgrader
    0.9.6 `generate_assignment` wrote for the fixture (README there says
    how to remake it). Our student edition agrees with it cell for cell."""
    ours = nbformat.read(student[FIXTURE], as_version=4)
    theirs = nbformat.read(NBGRADER_RELEASE, as_version=4)
    assert [c.source for c in ours.cells] == [c.source for c in theirs.cells]
    assert [c.cell_type for c in ours.cells] == [c.cell_type for c in theirs.cells]
    for a, b in zip(ours.cells, theirs.cells):
        mine = a.metadata.get("nbgrader")
        released = {k: v for k, v in b.metadata.get("nbgrader", {}).items() if k not in ("checksum", "cell_type")}
        assert (mine or {}) == released
        assert a.get("outputs", []) == b.get("outputs", []) == []


@pytest.mark.classroom  # each chapter run whole a second time: in make classroom-check
@each_notebook
def test_student_notebook_fails_only_at_exercise_cells(path, student):
    executed = _run_student(student[path])
    problems = classroom.execution_problems(read(path), executed, module=module_name(path))
    assert not problems, f"{name(path)}, student edition:\n" + "\n".join(problems)


def test_student_fixture_stops_at_each_stub_and_runs_the_rest(student):
    executed = _run_student(student[FIXTURE])
    by_id = {c.id: c for c in executed.cells}
    source = read(FIXTURE)
    for ex in exercises_of(FIXTURE):
        solution, check = (by_id[source.cells[ex.cells[r]].id] for r in ("solution", "check"))
        assert [e.ename for e in classroom.errors_of(solution)] == ["NotImplementedError"]
        assert classroom.errors_of(check), ex.label
    after = next(c for c in executed.cells if c.source.startswith("np.linalg.norm(posenc.sinusoidal(3, 4)"))
    assert not classroom.errors_of(after)
    assert after.outputs[0].data["text/plain"] == "array([1.4142, 1.4142, 1.4142])"
    figure = by_id["demo-fig"]
    assert not classroom.errors_of(figure) and "image/png" in figure.outputs[0].data


def test_make_student_writes_the_edition(built_book):
    result = subprocess.run(["make", "--no-print-directory", "student"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    out = ROOT / "_build" / "student"
    assert sorted(p.name for p in out.glob("*.ipynb")) == [p.name for p in BOOK_NOTEBOOKS]
    assert (out / "README.md").is_file() and (out / "posenc" / "exercises" / "__init__.py").is_file()
    pins = (out / "requirements.txt").read_text()
    assert re.search(r"^numpy==\S+$", pins, re.M) and re.search(r"^matplotlib==\S+$", pins, re.M)


def test_nbtools_student_takes_notebooks_and_an_output_folder(tmp_path, built_book):
    chapter = BOOK_NOTEBOOKS[0]
    cmd = [sys.executable, str(ROOT / "tools" / "nbtools.py"), "student", "--out", str(tmp_path / "s"), str(chapter)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "s").glob("*.ipynb")) == [chapter.name]


# --- HTML: numbered exercises, solutions behind a toggle ----------------------


def html_problems(html, exercises, *, chapter=None):
    """Check the built page of a notebook: every exercise numbered
    "Exercise c.k" (k = 1, 2, ... in order, one chapter number c for the
    page), every solution inside a dropdown and its code only there."""
    soup = bs4.BeautifulSoup(html, "html.parser")
    problems, numbers = [], []
    if ".admonition.dropdown" not in html or "togglebutton" not in html:
        problems.append("the page does not load sphinx-togglebutton for dropdowns")
    for ex in exercises:
        box = soup.find(id=ex.label)
        caption = box.find(class_="caption-number") if box else None
        m = re.fullmatch(r"Exercise (\d+)\.(\d+)", caption.get_text().strip()) if caption else None
        if not (box and "exercise" in box["class"] and m):
            problems.append(f"{ex.label}: no exercise numbered 'Exercise c.k' with this id "
                            "(is its part of _toc.yml `numbered: true`?)")
            continue
        numbers.append((int(m[1]), int(m[2])))
        link = soup.select_one(f'div.solution a[href="#{ex.label}"]')
        solution = link.find_parent("div", class_="solution") if link else None
        if solution is None or "dropdown" not in solution["class"]:
            problems.append(f"{ex.label}: the solution is not a dropdown (hidden behind a toggle)")
    expected = [(numbers[0][0] if chapter is None else chapter, k) for k in range(1, len(numbers) + 1)]
    if numbers != expected:
        problems.append(f"exercises are numbered {numbers}, expected {expected}")
    return problems


def test_book_html_numbers_exercises_and_hides_solutions(built_book):
    chapters_seen = set()
    for path in filter(exercises_of, BOOK_NOTEBOOKS):
        exercises = exercises_of(path)
        html = (built_book / "book" / (path.stem + ".html")).read_text()
        problems = html_problems(html, exercises)
        assert not problems, f"{path.name}:\n" + "\n".join(problems)
        chapter = int(re.search(r"Exercise (\d+)\.1\b", html)[1])
        assert chapter not in chapters_seen, f"{path.name}: chapter number {chapter} used twice"
        chapters_seen.add(chapter)
    page = (built_book / "book" / "exercises.html").read_text()
    for path in BOOK_NOTEBOOKS:
        for ex in exercises_of(path):
            assert f'href="{path.stem}.html#{ex.label}"' in page, f"exercises page does not link {ex.label}"


def test_plain_text_names_and_numbers_as_the_built_book(built_book, plain):
    """What the plain editions write for a role is what the built book shows
    for it: figure numbers (each figure's caption and each {numref}, in
    order), exercise numbers, chapter titles for {doc}, section titles for
    {ref}, author-year labels for citations."""
    book = plain
    for path in BOOK_NOTEBOOKS:
        doc = book.docs[path.stem]
        soup = bs4.BeautifulSoup((built_book / "book" / (path.stem + ".html")).read_text(), "html.parser")
        where = name(path)
        # the chapter's title, and its number in the book (numbered parts of _toc.yml)
        h1 = soup.select_one("article h1").get_text(" ", strip=True).rstrip("#").strip()
        assert h1 == f"{doc.number}. {doc.title}", where
        # each figure, by its id: "Fig. 1.4 ..." (the interactive figures are not numbered)
        html_figures = {f["id"]: re.match(r"Fig\. (\d+\.\d+)", f.figcaption.get_text(" ", strip=True))[1]
                        for f in soup.select("figure[id]:not(.posenc-widget)") if f.figcaption}
        assert html_figures == {n: book.figure_number(n) for n in doc.figures}, where
        # each {numref} to a figure and {ref} to an exercise, in order: "Fig. 1.4", "Exercise 1.4"
        roles = [(m[1], m[2]) for c in read(path).cells if c.cell_type == "markdown"
                 for m in re.finditer(r"\{(numref|ref)\}`([^`<]+)`", c.source)
                 if book.figure_number(m[2]) or book.exercise_number(m[2])]
        shown = [a.get_text(" ", strip=True) for a in soup.select("article a span.std-numref")]
        expected = [f"Fig. {book.figure_number(t)}" if book.figure_number(t) else f"Exercise {book.exercise_number(t)}"
                    for _, t in roles]
        assert expected == shown, where
        assert [book.role(r, t, path.stem) for r, t in roles] == [e.replace("Fig.", "Figure") for e in expected]
        # each exercise: "Exercise 2.3"
        for label in doc.exercises:
            box = soup.find(id=label)
            assert box is not None and f"Exercise {book.exercise_number(label)} " in box.get_text(" "), label
        # {ref} to a section: its title, as the link in the book reads
        # (Sphinx's smart quotes print an apostrophe as a typographic one)
        links = {(a.parent["href"].split("#")[-1], a.get_text(" ", strip=True).replace("\u2019", "'"))
                 for a in soup.select("article a.reference.internal span.std-ref")}
        for c in read(path).cells:
            for target in re.findall(r"\{ref\}`([^`<]+)`", c.source if c.cell_type == "markdown" else ""):
                section = book._find("sections", target)
                if section is not None:
                    title = section.sections[target]
                    assert (target, title.replace("$", "")) in links, (where, target)  # math as TeX
                    expected = f"*{title}*" + ("" if section.name == path.stem else f" in *{section.title}*")
                    assert book.role("ref", target, path.stem) == expected
        # citations: "Haviv et al. (2022)" where the book shows "Haviv et al. [2022]"; the
        # labels of the references page (below) keep 2023a and 2023b apart, the text does not
        text = " ".join(soup.select_one("article").get_text(" ").split()).replace(" ,", ",")
        text = text.replace("[ ", "[").replace(" ]", "]")
        for key in doc.cited:
            who, year = book.labels[key]
            year = year.rstrip("abcdefghijklmnopqrstuvwxyz")
            assert f"{who}, {year}" in text or f"{who} [{year}]" in text, (where, key)
    references = bs4.BeautifulSoup((built_book / "book" / "references.html").read_text(), "html.parser")
    labels = {" ".join(span.get_text(" ").strip().strip("[]").split()).replace(" ,", ",")
              for span in references.select("article .label")}
    assert labels == {f"{who}, {year}" for who, year in book.labels.values()}


@pytest.fixture(scope="module")
def demo_book(tmp_path_factory):
    """A two-chapter Jupyter Book made of two copies of the fixture, and the
    fixture itself as an unnumbered page (its numbers are the ones the
    student edition of the fixture uses), built strictly."""
    root = tmp_path_factory.mktemp("demo_book")
    (root / FIXTURE.name).write_text(FIXTURE.read_text())
    for stem in ("ch1", "ch2"):  # labels unique in the book: ex-ch1-norms, fig-ch1-norms, ...
        text = FIXTURE.read_text().replace("-demo-", f"-{stem}-")
        (root / f"{stem}.ipynb").write_text(text)
    (root / "index.md").write_text("# Demo\n\nA book made of the exercise fixture.\n\n"
                                   "```{glossary}\nrow norm\n  The length of a row.\n```\n")
    page = f"# Exercises\n\n{classroom.PAGE_BEGIN}\n{classroom.PAGE_END}\n"
    (root / "exercises.md").write_text(
        classroom.exercises_page(page, [root / "ch1.ipynb", root / "ch2.ipynb"]))
    (root / "_toc.yml").write_text(
        "format: jb-book\nroot: index\nparts:\n"
        "  - caption: Chapters\n    numbered: true\n    chapters:\n      - file: ch1\n      - file: ch2\n"
        "  - caption: For teachers\n    chapters:\n      - file: exercises\n"
        f"  - caption: Fixture\n    chapters:\n      - file: {FIXTURE.stem}\n")
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    (root / "_config.yml").write_text(yaml.safe_dump({
        "title": "Demo", "only_build_toc_files": True,
        "execute": {"execute_notebooks": "off"},
        "parse": config["parse"],
        "sphinx": {"extra_extensions": ["sphinx_exercise"],
                   "local_extensions": {"posenc_numbers": str(ROOT / "book" / "_ext")}},
    }))
    jb = str(pathlib.Path(sys.executable).parent / "jupyter-book")  # the venv running the tests
    result = subprocess.run([jb, "build", str(root), "--builder", "html", "-W", "-n", "--keep-going"],
                            capture_output=True, text=True)
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    return root / "_build" / "html"


def test_fixture_html_numbers_exercises_per_chapter(demo_book):
    fixture_exercises = exercises_of(FIXTURE)
    for chapter, stem in enumerate(("ch1", "ch2"), start=1):
        exercises = [dataclass_replace_label(ex, stem) for ex in fixture_exercises]
        html = (demo_book / f"{stem}.html").read_text()
        assert not html_problems(html, exercises, chapter=chapter)
    listing = bs4.BeautifulSoup((demo_book / "exercises.html").read_text(), "html.parser")
    items = [li.get_text(" ", strip=True) for li in listing.select("li")
             if li.find("a", href=re.compile("#ex-"))]
    assert items == ["Exercise 1.1 : Row norms", "Exercise 1.2 : The slowest pair",
                     "Exercise 2.1 : Row norms", "Exercise 2.2 : The slowest pair"]
    links = [(a.get_text(strip=True), a["href"]) for a in listing.select("article h2 a.reference")]
    assert links == [("Exercise demo", "ch1.html"), ("Exercise demo", "ch2.html")]


def test_fixture_plain_text_numbers_as_the_demo_book(demo_book):
    """The plain edition numbers what the fixture's roles point to as the
    strict build of the two-chapter demo book does: the figure and its
    {numref}, the labelled equation and its {eq}, the {ref} to an
    exercise and to a section."""
    book = plain_myst.Book(demo_book.parent.parent)
    for chapter, stem in enumerate(("ch1", "ch2"), start=1):
        soup = bs4.BeautifulSoup((demo_book / f"{stem}.html").read_text(), "html.parser")
        figure = soup.select_one(f"figure#fig-{stem}-norms figcaption")
        assert figure.get_text(" ", strip=True).startswith(f"Fig. {chapter}.1 ")
        assert book.figure_number(f"fig-{stem}-norms") == f"{chapter}.1"
        text = plain_html_text(soup)
        nb = nbformat.read(demo_book.parent.parent / f"{stem}.ipynb", as_version=4)
        source = next(c.source for c in nb.cells if "{numref}" in c.source)
        plain = " ".join(book.plain(source, stem).split())
        assert f"\\tag{{{chapter}.1}}" in plain and f"(eq-{stem}-norm)" not in plain
        assert f"Figure {chapter}.1 draws" in plain and f"Fig. {chapter}.1 draws" in text
        assert f"which ({chapter}.1) gives" in plain and f"which ({chapter}.1) gives" in text
        assert f"and Exercise {chapter}.1 asks" in plain and f"and Exercise {chapter}.1 asks" in text
        assert "The section is *A figure, and references to it*;" in plain
        assert "The section is A figure, and references to it ;" in text
        assert "its row norm is" in plain and "its row norm is" in text


def plain_html_text(soup):
    """The article's text, with math and spacing left out, for comparisons."""
    for math in soup.select("span.math, div.math, mjx-container, script"):
        math.decompose()
    return " ".join(soup.select_one("article").get_text(" ").split())


def test_fixture_html_hides_the_solution_code_in_the_dropdown(demo_book):
    soup = bs4.BeautifulSoup((demo_book / "ch1.html").read_text(), "html.parser")
    dropdowns = soup.select("div.solution.dropdown")
    assert len(dropdowns) == 2
    hidden = " ".join(d.get_text() for d in dropdowns)
    for d in dropdowns:
        d.decompose()
    visible = soup.get_text()
    for line in classroom.solution_only_lines(read(FIXTURE)):
        assert line in hidden and line not in visible, line
    assert "assert demo_checks.check_demo_norms(norms)" in visible  # the check stays in view
    assert (demo_book / "_static" / "togglebutton.js").is_file()  # served locally


def dataclass_replace_label(ex, stem):
    clone = copy.copy(ex)
    clone.label = ex.label.replace("ex-demo-", f"ex-{stem}-")
    return clone


# --- the rules can fail: broken copies of the fixture ------------------------


def _fixture_with(change):
    nb = copy.deepcopy(read(FIXTURE))
    ex = classroom.find_exercises(nb, module="demo_checks")[0][0]
    change(nb, ex.cells)
    return nb


def _set(role, key, value):
    def change(nb, cells):
        nb.cells[cells[role]].metadata.nbgrader[key] = value
    return change


def _source(role, new):
    def change(nb, cells):
        nb.cells[cells[role]].source = new(nb.cells[cells[role]].source)
    return change


CONVENTION_BREAKS = {
    "no label": (_source("exercise", lambda s: s.replace(":label: ex-demo-norms\n", "")), "no :label:"),
    "bad label": (_source("exercise", lambda s: s.replace("ex-demo-norms", "Ex_Norms")), "must look like"),
    "no title": (_source("exercise", lambda s: s.replace(" Row norms", "")), "short title"),
    "unnumbered": (_source("exercise", lambda s: s.replace(":label:", ":nonumber:\n:label:")), "numbered"),
    "not a dropdown": (_source("start", lambda s: s.replace(":class: dropdown\n", "")), ":class: dropdown"),
    "prose in the gate": (_source("start", lambda s: s + "\n\nThe norm is sqrt(2)."), "holding only"),
    "start names another": (_source("start", lambda s: s.replace("ex-demo-norms", "ex-demo-x")), "not the exercise"),
    "no markers": (_source("solution", lambda s: "norms = np.linalg.norm(P, axis=1)"), "no `# BEGIN"),
    "triple-hash markers": (_source("solution", lambda s: s.replace("# BEGIN", "### BEGIN")), "exactly as"),
    "empty region": (_source("solution", lambda s: "# BEGIN SOLUTION\n# END SOLUTION"), "region is empty"),
    "unclosed region": (_source("solution", lambda s: s.replace("# END SOLUTION", "")), "never closed"),
    "wrong grade_id": (_set("solution", "grade_id", "norms"), "nbgrader metadata must be"),
    "check not graded": (_set("check", "grade", False), "nbgrader metadata must be"),
    "check without assert": (_source("check", lambda s: s.removeprefix("assert ")), "exactly one statement"),
    "check of another module": (_source("check", lambda s: s.replace("demo_checks", "checks")), "exactly one statement"),
    "two statements": (_source("check", lambda s: "print(norms)\n" + s), "exactly one statement"),
    "no check cell": (lambda nb, c: nb.cells.pop(c["check"]), "the check must be a code cell"),
    "markers in prose": (lambda nb, c: nb.cells.insert(1, nbformat.v4.new_markdown_cell("Use # BEGIN SOLUTION.")),
                         "BEGIN/END SOLUTION outside"),
    "plain solution": (lambda nb, c: nb.cells.insert(1, nbformat.v4.new_markdown_cell("```{solution} ex-demo-norms\nx\n```")),
                       "outside an exercise"),
    # backtick fences build the same, but read as code in Colab (nbtools.py markup)
    "backtick exercise": (_source("exercise", lambda s: s.replace(":::", "```")), "colon fences"),
    "backtick gate": (_source("start", lambda s: s.replace(":::", "```")), "colon fences"),
    "backtick gate end": (_source("end", lambda s: s.replace(":::", "```")), "colon fences"),
}


@pytest.mark.parametrize("change, message", CONVENTION_BREAKS.values(), ids=CONVENTION_BREAKS.keys())
def test_convention_check_finds_each_break(change, message):
    _, problems = classroom.find_exercises(_fixture_with(change), module="demo_checks")
    assert any(message in p for p in problems), problems


def test_duplicate_labels_are_found():
    nb = copy.deepcopy(read(FIXTURE))
    nb.cells.extend(copy.deepcopy(nb.cells[6:11]))  # exercise 1 again
    _, problems = classroom.find_exercises(nb, module="demo_checks")
    assert any("used by several exercises" in p for p in problems), problems


# Each case was run through `nbgrader generate_assignment` (nbgrader 0.9.6):
# "ok" and "solution without markers" were released, every other one refused.
NBGRADER_CASES = {
    "ok": (lambda nb, c: None, True),
    "solution without markers": (_source("solution", lambda s: "norms = 1"), True),
    "duplicate grade_id": (lambda nb, c: nb.cells[c["check"]].metadata.nbgrader.update(
        grade_id=nb.cells[c["solution"]].metadata.nbgrader.grade_id), False),
    "grade cell without points": (lambda nb, c: nb.cells[c["check"]].metadata.nbgrader.pop("points"), False),
    "space in grade_id": (_set("check", "grade_id", "ex demo check"), False),
    "schema version 2": (_set("check", "schema_version", 2), False),
    "unknown key": (_set("check", "foo", 1), False),
    "negative points": (_set("check", "points", -1), False),
    "missing locked": (lambda nb, c: nb.cells[c["solution"]].metadata.nbgrader.pop("locked"), False),
    "markers in markdown": (_source("exercise", lambda s: s + "\n# BEGIN SOLUTION\nx\n# END SOLUTION"), False),
    "markers in a plain code cell": (lambda nb, c: setattr(nb.cells[3], "source", "# BEGIN SOLUTION\nx = 1\n# END SOLUTION"), False),
    "nested regions": (_source("solution", lambda s: "# BEGIN SOLUTION\n" + s), False),
    "unclosed region": (_source("solution", lambda s: "# BEGIN SOLUTION\nx = 1"), False),
    "markdown solution not graded": (lambda nb, c: nb.cells[2].metadata.update(nbgrader={
        "solution": True, "grade": False, "locked": False, "grade_id": "md1", "schema_version": 3}), False),
    "locked cell without grade_id": (lambda nb, c: nb.cells[3].metadata.update(nbgrader={
        "solution": False, "grade": False, "locked": True, "schema_version": 3}), False),
    "task in a code cell": (lambda nb, c: nb.cells[3].metadata.update(nbgrader={
        "solution": False, "grade": False, "locked": False, "task": True, "schema_version": 3,
        "grade_id": "t1", "points": 1}), False),
}


@pytest.mark.parametrize("change, accepted", NBGRADER_CASES.values(), ids=NBGRADER_CASES.keys())
def test_nbgrader_rules_agree_with_nbgrader(change, accepted):
    problems = classroom.nbgrader_problems(_fixture_with(change))
    assert (not problems) == accepted, problems


def test_student_edition_refuses_markers_outside_solution_cells():
    nb = _fixture_with(lambda nb, c: setattr(nb.cells[3], "source", "# BEGIN SOLUTION\nx = 1\n# END SOLUTION"))
    with pytest.raises(ValueError, match="not a solution cell"):
        classroom.student_notebook(nb)


def _error(ename):
    return nbformat.v4.new_output("error", ename=ename, evalue="", traceback=[])


def test_execution_check_finds_cells_that_need_a_solution():
    source = copy.deepcopy(read(FIXTURE))
    source.cells.append(nbformat.v4.new_code_cell("norms.sum()"))
    run = classroom.student_notebook(source)
    ex = classroom.find_exercises(source, module="demo_checks")[0]
    for e in ex:
        run.cells[e.cells["solution"]].outputs = [_error("NotImplementedError")]
        run.cells[e.cells["check"]].outputs = [_error("NameError")]
    assert classroom.execution_problems(source, run, module="demo_checks") == []
    run.cells[-1].outputs = [_error("NameError")]
    problems = classroom.execution_problems(source, run, module="demo_checks")
    assert len(problems) == 1 and "raised NameError" in problems[0] and "norms.sum()" in problems[0]
    run.cells[-1].outputs = []
    run.cells[ex[0].cells["check"]].outputs = []
    problems = classroom.execution_problems(source, run, module="demo_checks")
    assert len(problems) == 1 and "passes in the student edition" in problems[0]


def test_html_check_finds_a_visible_solution_and_a_wrong_number(demo_book):
    html = (demo_book / "ch1.html").read_text()
    exercises = [dataclass_replace_label(ex, "ch1") for ex in exercises_of(FIXTURE)]
    shown = html.replace("solution dropdown admonition", "solution admonition", 1)
    assert any("not a dropdown" in p for p in html_problems(shown, exercises))
    renumbered = html.replace("Exercise 1.2 </span>", "Exercise 1.3 </span>")
    assert any("numbered" in p for p in html_problems(renumbered, exercises))
    assert any("numbered" in p for p in html_problems(html, exercises, chapter=2))


# --- otter-grader --------------------------------------------------------------


def test_otter_notebook_wraps_each_exercise_in_otter_blocks():
    """The layout that `otter assign` (otter-grader 7.0.0) accepted for the
    fixture, released with `...` in place of each solution region.
    (`make classroom-check` runs the real otter on a chapter.)"""
    nb = classroom.otter_notebook(read(FIXTURE), module="demo_checks", name="demo",
                                  files=("posenc", "demo_checks.py"))
    nbformat.validate(nb)
    raws = [c.source for c in nb.cells if c.cell_type == "raw"]
    question = ["# BEGIN SOLUTION", "# END SOLUTION", "# BEGIN TESTS", "# END TESTS", "# END QUESTION"]
    assert raws == [classroom.otter_config("demo", files=("posenc", "demo_checks.py")),
                    "# BEGIN QUESTION\nname: ex-demo-norms\npoints: 1", *question,
                    "# BEGIN QUESTION\nname: ex-demo-last-frequency\npoints: 1", *question]
    kinds = [c.cell_type for c in nb.cells]
    first = kinds.index("raw", 1)
    assert kinds[first:first + 9] == ["raw", "markdown", "raw", "code", "raw", "raw", "code", "raw", "raw"]
    assert not any("solution-start" in c.source or "solution-end" in c.source for c in nb.cells)
    assert not any("nbgrader" in c.metadata for c in nb.cells)
    check = nb.cells[first + 6]
    # No assert: otter's doctest then shows the checker's "Not yet." hint.
    assert check.source == "demo_checks.check_demo_norms(norms)"
    assert check.outputs[0].text.startswith("Correct! ")  # otter's expected output ...
    assert check.outputs[1].data == {"text/plain": "True"}  # ... then the value returned


@each_notebook
def test_every_notebook_converts_to_otter(path):
    nb = classroom.otter_notebook(read(path), module=module_name(path))
    questions = [c for c in nb.cells if c.cell_type == "raw" and c.source.startswith("# BEGIN QUESTION")]
    assert len(questions) == len(exercises_of(path))


# --- plain Markdown (tools/plain_myst.py), on a small book of its own ----------

MINI_BIB = """\
@article{zed2020,
  title = {Zed's Paper}, author = {Zed, Ann and Young, Bo and Xu, Cy}, journal = {J}, year = {2020}}
@article{abel2021a,
  title = {First}, author = {Abel, Dee}, journal = {J}, year = {2021}}
@article{abel2021b,
  title = {Second}, author = {Abel, Dee}, journal = {J}, year = {2021}}
"""


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    """A book of two numbered chapters (a notebook and a markdown page) and an
    unnumbered page, with a bibliography: its :class:`plain_myst.Book`."""
    root = tmp_path_factory.mktemp("mini")
    (root / "_toc.yml").write_text(
        "format: jb-book\nroot: index\nparts:\n"
        "  - caption: Chapters\n    numbered: true\n    chapters:\n      - file: one\n      - file: two\n"
        "  - caption: Reference\n    chapters:\n      - file: notes\n")
    (root / "_config.yml").write_text("title: Mini\nbibtex_bibfiles:\n  - refs.bib\n")
    (root / "refs.bib").write_text(MINI_BIB)
    (root / "index.md").write_text("# Mini\n\n{cite:p}`zed2020,abel2021a,abel2021b`\n")
    figure = nbformat.v4.new_code_cell("plot()")
    figure.metadata["mystnb"] = {"figure": {"name": "fig-one-a", "caption": "A {term}`thing`, see {eq}`eq-one`."}}
    one = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Chapter one\n\n(one-sec)=\n## A section with $x$\n\n"
                                      "$$\nx = 1\n$$ (eq-one)"),
        figure,
        nbformat.v4.new_markdown_cell(":::{exercise} Do it\n:label: ex-one-a\n\nTask.\n\n:::"),
    ])
    nbformat.write(one, root / "one.ipynb")
    (root / "two.md").write_text("# Chapter two\n\n```{figure} x.png\n:name: fig-two-a\n\nCap.\n```\n\n"
                                 "```{figure} y.png\n:name: fig-two-b\n\nCap.\n```\n")
    (root / "notes.md").write_text("# Notes\n\n(notes-sec)=\n## Rotations\n\nText.\n")
    write_numbers(root, MINI_NUMBERS)
    return plain_myst.Book(root)


# What a build of the mini book numbers and names (book/_ext/posenc_numbers.py
# writes this for a real build; test_fixture_plain_text_numbers_as_the_demo_book
# checks a real one against its HTML).
MINI_NUMBERS = {
    "index": {"title": "Mini", "number": None, "cited": ["zed2020", "abel2021a", "abel2021b"]},
    "one": {"title": "Chapter one", "number": 1, "sections": {"one-sec": "A section with $x$"},
            "figures": {"fig-one-a": "1.1"}, "exercises": {"ex-one-a": "1.1"}, "equations": {"eq-one": "1.1"}},
    "two": {"title": "Chapter two", "number": 2, "figures": {"fig-two-a": "2.1", "fig-two-b": "2.2"}},
    "notes": {"title": "Notes", "number": None, "sections": {"notes-sec": "Rotations"}},
}


def write_numbers(root, pages):
    """``root/_build/numbers.json`` as posenc_numbers writes it, for ``pages``
    ({name: what the build found}), with the hashes of the sources."""
    sources = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in sorted(root.iterdir())
               if p.suffix in (".md", ".ipynb", ".yml")}
    empty = {"title": "", "number": None, "sections": {}, "figures": {}, "exercises": {}, "equations": {}, "cited": []}
    (root / "_build").mkdir(exist_ok=True)
    (root / "_build" / "numbers.json").write_text(json.dumps({
        "root": str(root), "sources": sources, "docs": {name: {**empty, **page} for name, page in pages.items()}}))


@pytest.mark.parametrize("source, plain", [
    ("{cite:t}`zed2020` showed", "Zed et al. (2020) showed"),
    ("as shown {cite:p}`zed2020`.", "as shown (Zed et al., 2020)."),
    ("{cite:p}`zed2020,abel2021b,abel2021a`", "(Abel, 2021a; Abel, 2021b; Zed et al., 2020)"),
    ("{cite}`abel2021b`", "(Abel, 2021b)"),
    ("{numref}`fig-one-a` and {numref}`fig-two-b`", "Figure 1.1 and Figure 2.2"),
    ("{numref}`Plot %s <fig-two-a>`, {numref}`Plot {number} <fig-two-a>`", "Plot 2.1, Plot 2.1"),
    ("{eq}`eq-one`", "(1.1)"),
    ("{doc}`two` and {doc}`the notes <notes>`", "*Chapter two* and the notes"),
    ("{ref}`one-sec`", "*A section with $x$*"),
    ("{ref}`notes-sec`", "*Rotations* in *Notes*"),
    ("{ref}`ex-one-a`, {numref}`ex-one-a`, {ref}`that one <ex-one-a>`", "Exercise 1.1, Exercise 1.1, that one"),
    ("{term}`thing`, {term}`things <thing>`", "thing, things"),
    ("{math}`x^2`, {py:func}`posenc.sinusoidal`, {abbr}`NN (neural net)`", "$x^2$, `posenc.sinusoidal`, NN (neural net)"),
    ("[$d_k$](#d_k) and [the site](https://example.org)", "$d_k$ and [the site](https://example.org)"),
    ("`{doc}` stays code", "`{doc}` stays code"),
    ("```md\n{cite:p}`zed2020`\n(x)=\n```", "```md\n{cite:p}`zed2020`\n(x)=\n```"),
    ("(target)=\n## Title\n% a comment\nText.", "## Title\nText."),
    ("$$\nx = 1\n$$ (eq-one)", "$$\nx = 1\n\\tag{1.1}\n$$"),
    (":::{admonition} Aside, {doc}`two`\n:class: dropdown\n\nBody {cite:p}`zed2020`.\n:::",
     "---\n\n**Aside, *Chapter two***\n\nBody (Zed et al., 2020).\n\n---"),
    ("```{note}\nMind it.\n```", "---\n\n**Note**\n\nMind it.\n\n---"),
    (":::{exercise} Do it\n:label: ex-one-a\n\nTask {numref}`fig-one-a`.\n\n:::", "**Exercise 1.1 (Do it)**\n\nTask Figure 1.1."),
    (":::{solution-start} ex-one-a\n:class: dropdown\n:::", ""),
    ("```{math}\n:label: eq-m\ny\n```", "$$\ny\n$$"),
    ("```{code-block} python\n:name: c\nx = 1\n```", "```python\nx = 1\n```"),
    ("```{glossary}\n:sorted:\n\nzeta\n  Last {doc}`two`.\n\n$d_k$\nwidth\n  First.\n```",
     "- **$d_k$**, **width**: First.\n- **zeta**: Last *Chapter two*."),
    ("```{posenc-widget} ladder\nTry it: see {doc}`two`.\n```",
     "> **An interactive figure in the HTML book** (ladder). Try it: see *Chapter two*."),
])
def test_plain_markdown(mini, source, plain):
    assert mini.plain(source, "one") == plain
    assert not plain_myst.leftover_roles(plain)


def test_a_book_changed_since_its_build_is_refused(mini, tmp_path):
    """The plain editions take their numbers from the build: after a change
    to a page (or to _toc.yml) they refuse to run until the book is built again."""
    import shutil

    root = tmp_path / "mini"
    shutil.copytree(mini.root, root)
    write_numbers(root, MINI_NUMBERS)
    assert plain_myst.Book(root).figure_number("fig-two-b") == "2.2"
    (root / "two.md").write_text((root / "two.md").read_text() + "\nOne more line.\n")
    with pytest.raises(ValueError, match="two.md changed since the book was built"):
        plain_myst.Book(root)
    (root / "_build" / "numbers.json").unlink()
    with pytest.raises(FileNotFoundError, match="build the book first"):
        plain_myst.Book(root)


def test_plain_book_numbers_chapters_and_their_figures(mini):
    assert [(d.name, d.number) for d in mini.docs.values()] == [
        ("index", None), ("one", 1), ("two", 2), ("notes", None)]
    assert mini.figure_number("fig-one-a") == "1.1" and mini.figure_number("fig-two-b") == "2.2"
    assert mini.caption(plain_myst.figure_of(nbformat.read(mini.root / "one.ipynb", as_version=4).cells[1]),
                        "one") == "**Figure 1.1.** A thing, see (1.1)."


def test_leftover_roles_finds_roles_outside_code():
    assert plain_myst.leftover_roles("see {doc}`two` and {cite:p}`a,b`") == ["{doc}`two`", "{cite:p}`a,b`"]
    assert plain_myst.leftover_roles("`{doc}` or ``{ref}`x` `` or\n```\n{term}`y`\n```") == []


@pytest.mark.parametrize("source, message", [
    ("{cite:p}`nobody2020`", "no entry for the citation key"),
    ("{cite:year}`zed2020`", "not a citation role"),
    ("{numref}`fig-none`", "no figure or exercise"),
    ("{doc}`three`", "not a page of the book"),
    ("{ref}`nowhere`", "no section, figure or exercise"),
    ("{eq}`eq-none`", "no labelled equation"),
])
def test_plain_markdown_names_what_it_cannot_resolve(mini, source, message):
    with pytest.raises(ValueError, match=message):
        mini.plain(source, "one")


def test_plain_notebook_drops_the_gates_and_puts_captions_under_figures(mini):
    nb = nbformat.read(mini.root / "one.ipynb", as_version=4)
    nb.cells += [nbformat.v4.new_markdown_cell(":::{solution-start} ex-one-a\n:class: dropdown\n:::"),
                 nbformat.v4.new_markdown_cell(":::{solution-end}\n:::")]
    plain = plain_myst.plain_notebook(nb, mini, "one")
    assert [c.cell_type for c in plain.cells] == ["markdown", "code", "markdown", "markdown"]
    assert plain.cells[2].id == plain.cells[1].id + "-caption"
    assert plain.cells[2].source == "**Figure 1.1.** A thing, see (1.1)."
    assert plain.cells[0].source == "# Chapter one\n\n## A section with $x$\n\n$$\nx = 1\n\\tag{1.1}\n$$"
    assert len(nb.cells) == 5  # the notebook itself is unchanged
