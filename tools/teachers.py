"""The computed parts of the teachers' page, ``book/teachers.md``:
``python -m tools.nbtools teachers [--check]`` rewrites them.

Two blocks of the page are written here, between ``% BEGIN ...`` and
``% END ...`` lines, so that their numbers stay in step with the chapters:

- **dependencies**: which earlier chapters each chapter and appendix builds
  on. A chapter that states it in its opening (a paragraph before its first
  section that starts with "Prerequisites", "Assumes" or "Needs", or says
  "This chapter assumes/needs/builds on/relies on/requires ...") is taken at
  its word: the chapters it names there, by a ``{doc}`` link or as
  "chapter 5" / "chapters 5 and 6".
  Otherwise its references (``{doc}``, ``{ref}``, ``{numref}``, ``{eq}``)
  to earlier chapters are listed.
- **times**: for each chapter and appendix, the time to read it and run its
  cells, and the time of its exercises. Reading time is computed from the
  chapter itself (:data:`WORDS_PER_MINUTE`, :data:`MINUTES_PER_CODE_CELL`:
  stated assumptions). Exercise times are the learner's measurements of
  issue 27 where there is one (:data:`MEASURED`), and otherwise an
  estimate: the learner's minutes per exercise times the chapter's number
  of exercises.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re

import nbformat

from tools import classroom
from tools.myst import apply_edits, fences
from tools.plain_myst import Book

PAGE = classroom.TEACHERS_PAGE

# Study reading of a text with formulas: half of the 238 words a minute that
# Brysbaert (2019) found for silent reading of English non-fiction. An
# assumption, not a measurement.
WORDS_PER_MINUTE = 120
BRYSBAERT_WPM = 238
# Reading a code cell, running it and comparing its output with the text.
# An assumption, not a measurement.
MINUTES_PER_CODE_CELL = 1
ROUND_ESTIMATES_TO = 5  # minutes: an estimate is not given to the minute


@dataclasses.dataclass(frozen=True)
class Measured:
    """An attempt at a chapter's exercises that was timed."""

    minutes: int
    exercises: int  # how many exercises the chapter had then


# Issue 27: one learner (a second-year computer-science student who knew
# Python and NumPy and had not met positional encoding) worked alone through
# the student edition of chapters 1, 2, 3 and 7 and solved all 17 of their
# exercises without looking at the solutions, trying at least one plausible
# wrong answer on each. These are the minutes they reported for each
# chapter's exercises.
MEASURED = {
    "01_why": Measured(38, 4),
    "02_sines": Measured(39, 5),
    "03_cat": Measured(29, 4),
    "07_stretch": Measured(37, 4),
}
MEASUREMENT_SOURCE = "issue 27"


def minutes_per_exercise(measured=MEASURED):
    """The learner's minutes per exercise, over every timed chapter."""
    return sum(m.minutes for m in measured.values()) / sum(m.exercises for m in measured.values())


# --- what a chapter holds ---------------------------------------------------------

MATH_RE = re.compile(r"\$\$.*?\$\$|\\begin\{(\w+\*?)\}.*?\\end\{\1\}|(?<![\\$])\$(?!\$)(?:\\.|[^$\\])+?\$", re.S)
WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’.,-]*")


def count_words(markdown):
    """Words of prose in plain ``markdown``: formulas and code blocks are not counted."""
    text = apply_edits(markdown, [(a, b, "") for a, b, _, _, name in fences(markdown) if name is None])
    text = MATH_RE.sub(" ", text)
    return len(WORD_RE.findall(text))


@dataclasses.dataclass
class Chapter:
    name: str
    number: int
    title: str
    words: int  # prose before the exercises
    code_cells: int  # code cells before the exercises that a reader runs
    exercises: int
    builds_on: list  # names of earlier chapters
    stated: bool  # builds_on comes from the chapter's own statement

    @property
    def reading_minutes(self):
        return round(self.words / WORDS_PER_MINUTE + self.code_cells * MINUTES_PER_CODE_CELL)

    @property
    def exercise_minutes(self):
        """(minutes, measured?) or (None, False) for a chapter without exercises."""
        measured = MEASURED.get(self.name)
        if measured is not None and measured.exercises == self.exercises:
            return measured.minutes, True
        if not self.exercises:
            return None, False
        step = ROUND_ESTIMATES_TO
        return int(step * round(minutes_per_exercise() * self.exercises / step)), False


# A prerequisite statement: a paragraph that starts with "Prerequisites"
# (bold or not) or "Assumes"/"Needs", or that says the chapter assumes,
# needs, builds on or relies on something ("This chapter needs chapters 5
# and 6"; "It assumes {doc}`05_rel`").
OPENING_RE = re.compile(r"^\W*(prerequisites?|assumes|needs)\b|\bprerequisites?\b"
                        r"|\b(chapter|it|appendix)\s+(assumes|needs|builds on|relies on|requires)\b", re.I)
CHAPTER_NUMBERS_RE = re.compile(r"\bchapters?\s+(\d+(?:\s*(?:,|and|or|&)\s*\d+)*)", re.I)
REFERENCE_RE = re.compile(r"\{(doc|ref|numref|eq)\}`(?:[^`<]*<)?(?P<target>[^`>]+)>?`")


def _opening(cells):
    """The markdown before the chapter's first section (its "##" heading)."""
    text = []
    for cell in cells:
        if cell.cell_type != "markdown":
            continue
        parts = re.split(r"(?m)^##\s", cell.source, maxsplit=1)
        text.append(parts[0])
        if len(parts) > 1:
            break
    return "\n\n".join(text)


def stated_prerequisites(cells, book):
    """The chapters that the opening's prerequisite statement names, or None
    if the opening has no such statement."""
    for paragraph in re.split(r"\n\s*\n", _opening(cells)):
        if not OPENING_RE.search(paragraph):
            continue
        names = [book.doc(m["target"]).name for m in REFERENCE_RE.finditer(paragraph) if m[1] == "doc"]
        numbers = {int(n) for m in CHAPTER_NUMBERS_RE.finditer(paragraph)
                   for n in re.findall(r"\d+", m[1])}
        names += [d.name for d in book.docs.values() if d.number in numbers]
        return sorted(set(names), key=lambda n: book.docs[n].number or 0)
    return None


def referenced_chapters(cells, book, number):
    """The numbered chapters before chapter ``number`` that the cells refer to."""
    found = set()
    for cell in cells:
        if cell.cell_type != "markdown":
            continue
        for m in REFERENCE_RE.finditer(cell.source):
            kind, target = m[1], m["target"].strip()
            if kind == "doc":
                doc = book.doc(target)
            else:
                what = {"ref": ("sections", "exercises", "figures"), "numref": ("figures", "exercises"),
                        "eq": ("equations",)}[kind]
                doc = next((d for d in book.docs.values() for w in what if target in getattr(d, w)), None)
            if doc is not None and doc.number is not None and doc.number < number:
                found.add(doc.name)
    return sorted(found, key=lambda n: book.docs[n].number)


def read_chapter(path, book):
    """The :class:`Chapter` of the notebook at ``path``."""
    path = pathlib.Path(path)
    nb = nbformat.read(path, as_version=4)
    doc = book.docs[path.stem]
    exercises, _ = classroom.find_exercises(nb)
    first = min((e.cells["exercise"] for e in exercises), default=len(nb.cells))
    reading = nb.cells[:first]
    words = sum(count_words(book.plain(c.source, path.stem)) for c in reading if c.cell_type == "markdown")
    code = sum(1 for c in reading if c.cell_type == "code" and c.source.strip()
               and "remove-cell" not in c.metadata.get("tags", []))
    stated = stated_prerequisites(nb.cells, book)
    builds_on = stated if stated is not None else referenced_chapters(nb.cells, book, doc.number)
    return Chapter(path.stem, doc.number, doc.title, words, code, len(exercises), builds_on,
                   stated is not None)


def chapters(book=None):
    """Every numbered notebook of the book (chapters and appendices), in order."""
    book = book or Book()
    docs = sorted((d for d in book.docs.values() if d.number is not None), key=lambda d: d.number)
    return [read_chapter(classroom.BOOK / f"{d.name}.ipynb", book) for d in docs
            if (classroom.BOOK / f"{d.name}.ipynb").is_file()]


# --- the page's blocks --------------------------------------------------------------


def _minutes(m):
    hours, minutes = divmod(int(m), 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def dependencies_block(chs):
    lines = ["| Chapter | Builds on | From |", "|---|---|---|"]
    for ch in chs:
        nothing = "no earlier chapter" if ch.stated else "(it links no earlier chapter)"
        on = ", ".join(f"{{doc}}`{n}`" for n in ch.builds_on) or nothing
        source = "its opening's statement" if ch.stated else "its references to earlier chapters"
        lines.append(f"| {ch.number}. {{doc}}`{ch.name}` | {on} | {source} |")
    return "\n".join(lines)


def times_block(chs):
    rate = minutes_per_exercise()
    timed = sum(m.exercises for m in MEASURED.values())
    lines = ["| Chapter | Reading and running | Exercises | Exercise time | Total |", "|---|---|---|---|---|"]
    total = 0
    for ch in chs:
        minutes, measured = ch.exercise_minutes
        reading = f"{ch.words:,} words, {ch.code_cells} code cells: {_minutes(ch.reading_minutes)}"
        if minutes is None:
            exercise = "none"
        elif measured:
            exercise = f"{_minutes(minutes)}, measured"
        else:
            exercise = f"about {_minutes(minutes)}, estimated"
        row_total = ch.reading_minutes + (minutes or 0)
        total += row_total
        lines.append(f"| {ch.number}. {{doc}}`{ch.name}` | {reading} | {ch.exercises} | {exercise} "
                     f"| {_minutes(row_total)} |")
    n_exercises = sum(ch.exercises for ch in chs)
    lines.append(f"| All {len(chs)} | | {n_exercises} | | about {_minutes(total)} |")
    measured_list = ", ".join(f"{MEASURED[n].minutes} min for the {MEASURED[n].exercises} exercises of "
                              f"chapter {ch.number}" for ch in chs for n in [ch.name] if n in MEASURED)
    lines += [
        "",
        "How each number was obtained:",
        "",
        f"- **Reading and running** counts the words of the chapter's text before its exercises "
        f"(formulas, code and outputs not counted) at {WORDS_PER_MINUTE} words a minute, and "
        f"{MINUTES_PER_CODE_CELL} minute for each code cell (read it, run it, compare its output with "
        f"the text). Both rates are assumptions, not measurements: {WORDS_PER_MINUTE} words a minute "
        f"is half the {BRYSBAERT_WPM} that {{cite:t}}`brysbaert2019reading` found for silent reading "
        "of English non-fiction, because a chapter is studied, formulas and all, not skimmed. "
        "`python -m tools.nbtools teachers` counts them from the notebooks, so the column follows "
        "the chapters as they change.",
        f"- **Exercise time, measured**: one learner (a second-year computer-science student who knew "
        f"Python and NumPy, new to positional encoding) worked alone through the student edition and "
        f"solved every exercise without looking at the solutions, trying at least one plausible wrong "
        f"answer on each, and reported the time it took ({MEASUREMENT_SOURCE}): {measured_list}. One "
        "person, one attempt: a class will spread around these times, and pairs may be slower or "
        "faster.",
        f"- **Exercise time, estimated**: for the other chapters nobody has timed an attempt yet. The "
        f"estimate is the learner's {rate:.1f} minutes per exercise ({sum(m.minutes for m in MEASURED.values())} "
        f"minutes for {timed} exercises) times the chapter's number of exercises, rounded to "
        f"{ROUND_ESTIMATES_TO} minutes. Exercises differ in length, so treat these as a first guess "
        "and replace them with your own class's times.",
    ]
    return "\n".join(lines)


BLOCKS = {
    "dependencies": dependencies_block,
    "times": times_block,
}


def markers(name):
    return (f"% BEGIN {name.upper()}: written by `python -m tools.nbtools teachers`, do not edit by hand",
            f"% END {name.upper()}")


def generated(name, text):
    """The generated part of block ``name`` in the page ``text``."""
    begin, end = markers(name)
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise ValueError(f"the teachers' page lacks the lines {begin!r} ... {end!r}")
    return text[start + len(begin):stop].strip("\n")


def teachers_page(text, chs=None):
    """``text`` (the page) with its generated blocks rewritten."""
    chs = chapters() if chs is None else chs
    for name, make in BLOCKS.items():
        begin, end = markers(name)
        start, stop = text.find(begin), text.find(end)
        if start < 0 or stop < start:
            raise ValueError(f"the teachers' page lacks the lines {begin!r} ... {end!r}")
        text = text[:start + len(begin)] + "\n\n" + make(chs) + "\n\n" + text[stop:]
    return text
