"""Link the first use of each glossary term in each chapter to the glossary.

``python -m tools.glossary_links [--check] [NB...]`` (default: every
notebook under book/) reads the terms of ``book/glossary.md`` and rewrites
the markdown cells of each chapter so that, in each chapter, the first use
of every term it uses is a link to the term's entry: ``{term}`logits``` (or
``{term}`Seeds <seed>``` for a plural), and ``[$d_k$](#d_k)`` for a term
that is a symbol. With ``--check`` it only lists the chapters it would
change. Running it twice changes nothing the second time.

A *use* of a term is any of its term lines (the lines above its definition
in the glossary directive), matched as a whole word, in any case, with an
optional ending ``s``, ``es``, ``d`` or ``ed``; a term line written as math
(``$d_k$``) is used where an inline formula is exactly that formula. Uses
are looked for only in prose: never inside math, code (spans, blocks,
code directives), headings, links and roles (an existing ``{term}`` link
counts as the term's link), HTML, target and comment lines, or a
directive's opening line and options. Where two terms overlap ("softmax"
in "softmax temperature"), the longer one is the use.
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import re
import sys

import nbformat

if __package__ in (None, ""):  # run as a script: find the package tools
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from tools import myst  # noqa: E402
from tools.paths import BOOK  # noqa: E402

GLOSSARY = BOOK / "glossary.md"
ENDINGS = "(?:s|es|d|ed)?"
# Directives whose body is not Markdown: nothing in them is linked.
OPAQUE_DIRECTIVES = (*myst.CODE_DIRECTIVES, "math", "raw", "eval-rst", "glossary", "bibliography",
                     "toctree", "tableofcontents", "literalinclude", "mermaid", "csv-table", "list-table")

INLINE_RE = re.compile(
    r"(?P<dmath>\$\$.*?\$\$)"
    r"|(?P<env>\\begin\{(?P<envname>[\w*]+)\}.*?\\end\{(?P=envname)\})"
    r"|(?P<role>(?<!\\)\{(?P<name>[\w:+-]+)\}`(?P<content>[^`]*)`)"
    r"|(?P<code>(?P<ticks>`+).+?(?P=ticks))"
    r"|(?P<math>(?<![\\$])\$(?!\$)(?:\\.|[^$\\\n]|\n(?!\s*\n))+?\$)"
    r"|(?P<link>!?\[(?:[^\]\n]|\n(?!\s*\n))*\]\((?P<url><[^>\n]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\))"
    r"|(?P<comment><!--.*?-->)"
    r"|(?P<tag></?[A-Za-z][^<>\n]*>|<(?:https?|mailto):[^<>\s]*>)",
    re.S,
)
LINE_RE = re.compile(r"^(?:[ \t]*#{1,6}[ \t].*|[ \t]*#{1,6}$|[ \t]*\([^()\s]+\)=[ \t]*|%.*)$", re.M)


@dataclasses.dataclass
class Entry:
    """One entry of the glossary: its term lines, and the name Sphinx files it under."""

    terms: list

    @property
    def key(self):
        return myst.term_key(self.terms[0])

    def keys(self):
        return {myst.term_key(t) for t in self.terms}


def read_glossary(path=GLOSSARY):
    """The entries of the glossary directive(s) of ``path``, in order."""
    text = pathlib.Path(path).read_text()
    found = [Entry(terms) for name, _, _, body in myst.directive_blocks(text) if name == "glossary"
             for terms, _ in myst.glossary_entries(body)]
    if not found:
        raise ValueError(f"{path} holds no glossary directive")
    return found


def is_math_term(term):
    return term.startswith("$") and term.endswith("$") and len(term) > 2


@dataclasses.dataclass
class Event:
    start: int
    end: int
    entry: Entry
    kind: str  # "use" (plain text) or "link" (an existing link to the entry)
    text: str = ""  # the text used
    math: bool = False


# --- where a term may be linked -----------------------------------------------


def _blank(chars, start, end):
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = "\0"


def _mask_blocks(text, chars, offset=0):
    """Blank out, in ``chars``, what is not prose in the fenced blocks of
    ``text`` (which starts at ``offset``): code blocks and opaque directives
    whole; a directive's opening line, options and closing line. A
    directive's body is prose, and is looked into for blocks of its own."""
    for start, end, body_start, body_end, name in myst.fences(text):
        if name is None or name in OPAQUE_DIRECTIVES:
            _blank(chars, offset + start, offset + end)
            continue
        _blank(chars, offset + start, offset + body_start)  # the opening line
        body = text[body_start:body_end]
        pos = offset + body_start
        for line in body.split("\n"):  # the options, right below the opening line
            if not line.strip() or not myst.split_options(line.strip())[0]:
                break
            _blank(chars, pos, pos + len(line))
            pos += len(line) + 1
        _blank(chars, offset + body_end, offset + end)  # the closing line
        _mask_blocks(body, chars, offset + body_start)


def scan(text, entries):
    """The events of a markdown ``text``, in order: each use of a term in
    prose, and each existing link to a term (entries matched by their keys)."""
    by_key = {k: e for e in entries for k in e.keys()}
    chars = list(text)
    _mask_blocks(text, chars)
    for m in LINE_RE.finditer(text):
        _blank(chars, m.start(), m.end())
    blocked = "".join(chars)
    events, math_spans = [], []
    # Inline constructs, found in the text with its blocks blanked out, so
    # that a $ or a backtick in a code block cannot open one.
    for m in INLINE_RE.finditer(blocked):
        if "\0" in m[0]:
            continue
        if m["role"] and m["name"] == "term":
            target = myst.explicit(m["content"])[1].strip().lower()
            if target in by_key:
                events.append(Event(m.start(), m.end(), by_key[target], "link", m[0]))
        elif m["link"]:
            url = m["url"].strip("<>")
            if url.startswith("#") and url[1:].lower() in by_key:
                events.append(Event(m.start(), m.end(), by_key[url[1:].lower()], "link", m[0]))
        elif m["math"]:
            math_spans.append((m.start(), m.end(), m[0]))
        _blank(chars, m.start(), m.end())
    prose = "".join(chars)
    uses = []
    for entry in entries:
        for term in entry.terms:
            if is_math_term(term):
                uses += [Event(s, e, entry, "use", t, math=True) for s, e, t in math_spans
                         if t.replace(" ", "") == term.replace(" ", "")]
                continue
            pattern = re.compile(r"(?<![\w-])" + _words(term) + ENDINGS + r"(?![\w-])", re.I)
            uses += [Event(m.start(), m.end(), entry, "use", m[0]) for m in pattern.finditer(prose)]
    # A use inside a longer use of another term is not a use ("softmax" in
    # "softmax temperature").
    uses = [u for u in uses
            if not any(o.start <= u.start and u.end <= o.end and (o.end - o.start) > (u.end - u.start)
                       for o in uses)]
    return sorted(events + uses, key=lambda e: (e.start, -e.end))


# --- linking a chapter -----------------------------------------------------------


def _words(term):
    """A pattern for ``term`` in prose, where a line may break between its words."""
    return r"\s+".join(re.escape(word) for word in term.split())


def link_text(event):
    """The link that replaces the use ``event`` (on one line: a term that
    the prose breaks over two lines is joined)."""
    if event.math:
        return f"[{event.text}](#{event.entry.key})"
    text = " ".join(event.text.split())
    if text.lower() in event.entry.keys():
        return f"{{term}}`{text}`"
    term = next(t for t in event.entry.terms
                if re.fullmatch(_words(t) + ENDINGS, text, re.I))
    return f"{{term}}`{text} <{term}>`"


def first_uses(nb, entries):
    """For each markdown cell of ``nb`` (by index), the uses that are the
    first event of their term in the chapter and are not links yet."""
    seen, found = set(), {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        for event in scan(cell.source, entries):
            if event.entry.key in seen:
                continue
            seen.add(event.entry.key)
            if event.kind == "use":
                found.setdefault(i, []).append(event)
    return found


def link_notebook(nb, entries):
    """Link, in place, the first use of each term in ``nb``. Returns True if
    ``nb`` changed."""
    found = first_uses(nb, entries)
    for i, events in found.items():
        source = nb.cells[i].source
        for event in sorted(events, key=lambda e: -e.start):
            source = source[:event.start] + link_text(event) + source[event.end:]
        nb.cells[i].source = source
    return bool(found)


def unlinked(nb, entries):
    """One line per term whose first use in ``nb`` is not a link (empty when
    every term the chapter uses is linked at its first use)."""
    return [f"cell {i + 1}: the first use of {e.entry.terms[0]!r} ({e.text!r}) is not linked to the glossary"
            for i, events in first_uses(nb, entries).items() for e in events]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list the chapters it would change")
    parser.add_argument("--glossary", type=pathlib.Path, default=GLOSSARY)
    parser.add_argument("notebooks", nargs="*", type=pathlib.Path)
    args = parser.parse_args(argv)
    entries = read_glossary(args.glossary)
    notebooks = args.notebooks or sorted(BOOK.glob("*.ipynb"))
    stale = []
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        if link_notebook(nb, entries):
            stale.append(path)
            if not args.check:
                nbformat.validate(nb)
                nbformat.write(nb, path)
    verb = "needs glossary links" if args.check else "linked the glossary's terms"
    for path in stale:
        print(f"{verb}: {path}")
    if not stale:
        print(f"glossary links: all {len(notebooks)} notebook(s) up to date")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
