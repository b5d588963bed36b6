"""The computed tables of the teachers' page (tools/teachers.py, issue 27):
which chapters build on which, and how long each chapter takes."""

from __future__ import annotations

import re

import nbformat
import pytest

from tools import nbtools, teachers
from tools.plain_myst import Book


@pytest.fixture(scope="module")
def chapters(built_book):
    """The chapters' rows, from the built book's numbers (tools/plain_myst.py)."""
    return teachers.chapters()


def test_the_page_shows_the_tools_tables(chapters):
    """The page's numbers are the tool's: `python -m tools.nbtools teachers`."""
    text = teachers.PAGE.read_text()
    assert text == teachers.teachers_page(text, chapters), (
        "book/teachers.md is out of date: run `python -m tools.nbtools teachers`")
    assert nbtools.main(["teachers", "--check"]) == 0


def test_a_stale_table_is_found(chapters):
    text = teachers.PAGE.read_text()
    block = teachers.generated("times", text)
    stale = text.replace(block, block.replace("measured", "estimated", 1))
    assert stale != text and teachers.teachers_page(stale, chapters) == text
    with pytest.raises(ValueError, match="lacks the lines"):
        teachers.teachers_page("# For teachers\n", chapters)


def test_every_chapter_and_appendix_has_a_row_in_both_tables(chapters):
    book = Book()
    numbered = [d.name for d in sorted(book.docs.values(), key=lambda d: d.number or 0) if d.number]
    assert [c.name for c in chapters] == numbered
    assert {"07_stretch", "appendix_fast", "appendix_prec"} <= set(numbered)
    text = teachers.PAGE.read_text()
    for name in ("dependencies", "times"):
        rows = re.findall(r"^\| \d+\. \{doc\}`([\w-]+)`", teachers.generated(name, text), re.M)
        assert rows == numbered, name


def test_measured_times_are_the_learners_and_say_so(chapters):
    """Issue 27: 38, 39, 29 and 37 minutes for the exercises of chapters 1,
    2, 3 and 7, which had 4, 5, 4 and 4 exercises (17 in all)."""
    assert {n: m.minutes for n, m in teachers.MEASURED.items()} == {
        "01_why": 38, "02_sines": 39, "03_cat": 29, "07_stretch": 37}
    assert sum(m.exercises for m in teachers.MEASURED.values()) == 17
    block = teachers.generated("times", teachers.PAGE.read_text())
    for ch in chapters:
        (row,) = [r for r in block.splitlines() if f"{{doc}}`{ch.name}`" in r]
        minutes, measured = ch.exercise_minutes
        if measured:
            assert f"{minutes} min, measured" in row
        elif minutes is not None:
            assert "estimated" in row and "measured" not in row
        else:
            assert "| none |" in row
    assert "assumptions, not measurements" in block and "issue 27" in block


def test_a_measurement_counts_only_for_the_exercises_that_were_timed():
    ch = teachers.Chapter("01_why", 1, "t", words=1200, code_cells=10, exercises=4, builds_on=[], stated=False)
    assert ch.exercise_minutes == (38, True)
    assert ch.reading_minutes == round(1200 / teachers.WORDS_PER_MINUTE + 10 * teachers.MINUTES_PER_CODE_CELL)
    ch.exercises = 5  # an exercise added since the learner's attempt
    minutes, measured = ch.exercise_minutes
    assert not measured and minutes == 5 * round(teachers.minutes_per_exercise() * 5 / 5)
    assert teachers.minutes_per_exercise() == pytest.approx(143 / 17)
    ch.exercises = 0
    assert teachers.Chapter("x", 8, "t", 0, 0, 0, [], False).exercise_minutes == (None, False)


def test_row_totals_add_up(chapters):
    block = teachers.generated("times", teachers.PAGE.read_text())
    total = 0
    for ch in chapters:
        minutes, _ = ch.exercise_minutes
        (row,) = [r for r in block.splitlines() if f"{{doc}}`{ch.name}`" in r]
        expected = ch.reading_minutes + (minutes or 0)
        assert row.rstrip(" |").endswith(teachers._minutes(expected)), row
        assert f"{ch.words:,} words, {ch.code_cells} code cells" in row
        total += expected
    assert f"about {teachers._minutes(total)}" in block


def test_words_leave_out_formulas_and_code():
    assert teachers.count_words("Two words $x + y = z$ and\n\n$$\na b c\n$$\n\n```python\nx = 1\n```") == 3
    assert teachers.count_words("It's 3,284 positions, isn't it?") == 5


def _nb(*sources):
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(s) for s in sources])


@pytest.mark.parametrize("opening, expected", [
    ("**Prerequisites:** {doc}`05_rel` and {doc}`06_length`.", ["05_rel", "06_length"]),
    ("This chapter assumes chapters 5 and 6.", ["05_rel", "06_length"]),
    ("Needs chapter 2 and the notation page.", ["02_sines"]),
    ("Prerequisites: Python and NumPy, nothing else.", []),
    ("It reads best after the others: this chapter builds on {doc}`06_length`.", ["06_length"]),
])
def test_a_stated_prerequisite_is_taken_at_its_word(opening, expected, built_book):
    book = Book()
    nb = _nb(f"# Title\n\nThe question.\n\n{opening}", "## First section\n\n{doc}`01_why` says so.")
    assert teachers.stated_prerequisites(nb.cells, book) == expected


def test_without_a_statement_the_references_to_earlier_chapters_count(built_book):
    book = Book()
    nb = _nb("# Title\n\nWhat a position signal needs, and what a model needs: {doc}`07_stretch` later.",
             "## Section\n\nAs {ref}`where-position-enters` showed, and {numref}`fig-sin-bits`; "
             "{doc}`07_stretch` comes later.")
    assert teachers.stated_prerequisites(nb.cells, book) is None
    assert teachers.referenced_chapters(nb.cells, book, 4) == ["01_why", "02_sines"]


def test_the_dependency_table_says_where_each_row_comes_from(chapters):
    block = teachers.generated("dependencies", teachers.PAGE.read_text())
    for ch in chapters:
        (row,) = [r for r in block.splitlines() if f"{ch.number}. {{doc}}`{ch.name}`" in r]
        assert ("its opening's statement" if ch.stated else "its references to earlier chapters") in row
        for name in ch.builds_on:
            assert f"{{doc}}`{name}`" in row
            assert Book().docs[name].number < ch.number
