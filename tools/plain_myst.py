"""The book's MyST as plain Markdown, for the editions a class opens in any
Jupyter (the student edition, nbgrader's and Otter's versions): Colab,
VS Code, Jupyter Notebook and a JupyterLab without jupyterlab-myst render
a markdown cell as CommonMark, where ``{cite:t}`haviv2022nopos``` and
``{numref}`fig-why-count``` stay raw text and a figure's caption, kept in
the cell's metadata, never shows.

The text is parsed by MyST's own markdown-it parser (myst-parser's), and
what a role or a directive stands for is written in its place; the rest of
the text is left as it is. The numbers and titles come from the build:
``book/_ext/posenc_numbers.py`` writes them to ``_build/numbers.json``
(``make book``), and :class:`Book` refuses a build older than the sources.

- ``{cite:t}`` and ``{cite:p}`` become "Haviv et al. (2022)" and "(Haviv et
  al., 2022)": the labels of the site's author-year style
  (``book/_ext/posenc_bibstyle.py``) over the works the book cites;
- ``{numref}`` "Figure 1.4" or "Exercise 2.3", ``{eq}`` "(1.2)", as the HTML
  numbers them; ``{doc}`` the page's title, ``{ref}`` the section's title
  (with the page's title when it is another page) or "Exercise 2.3"; titles
  are in italics;
- ``{term}`` its text, ``{math}`` ``$...$``, a ``{py:...}`` role its name as
  code, any other role its text; ``[text](#target)`` links their text;
- ``(label)=`` target lines and ``%`` comment lines are dropped; a
  labelled equation gets its number as a MathJax ``\\tag``;
- directives: an exercise becomes a bold "Exercise 1.1 (Title)" line above
  its task; admonitions a bold title and their body between two rules;
  ``{math}`` ``$$ ... $$``; a code block a plain fenced block; a glossary a
  list of bold terms; an interactive figure (``{posenc-widget}``, which
  only the HTML book can draw) a quoted line that says where to find it;
  other directives are left as written.

:func:`plain_notebook` applies this to each markdown cell of a notebook,
drops the cells of the book's solution gate (``{solution-start}`` and
``{solution-end}``), and puts each figure's caption under its code cell as
a markdown cell "**Figure 1.4.** caption" (cell id: the figure cell's id
and ``-caption``). Code cells are left alone.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import pathlib
import unicodedata

import nbformat
import yaml

from tools.myst import (CITES, CODE_DIRECTIVES, GATES, apply_edits, directive, explicit, glossary_entries,  # noqa: F401
                        inline_spans, is_gate, leftover_roles, parser, spans, split_options, term_key)

ROOT = pathlib.Path(__file__).resolve().parent.parent
NUMBERS = pathlib.PurePath("_build", "numbers.json")  # under a book's root: posenc_numbers.FILE

FIGURE_WORD = "Figure"
EXERCISE_WORD = "Exercise"
ADMONITIONS = ("admonition", "note", "tip", "hint", "important", "warning", "caution", "attention",
               "danger", "error", "seealso", "dropdown", "topic", "sidebar")
TEXTUAL_CITES = ("cite:t", "cite:ts", "cite:ct", "cite:cts")


@dataclasses.dataclass
class Doc:
    """A page of the book as the build numbered it (``posenc_numbers``)."""

    name: str  # the file's stem: "02_sines"
    title: str = ""  # as written in the source
    number: int | None = None  # the chapter's number, None on an unnumbered page
    sections: dict = dataclasses.field(default_factory=dict)  # label -> title
    figures: dict = dataclasses.field(default_factory=dict)  # name -> "1.4"
    equations: dict = dataclasses.field(default_factory=dict)  # label -> "1.2"
    exercises: dict = dataclasses.field(default_factory=dict)  # label -> "2.3"
    cited: list = dataclasses.field(default_factory=list)  # bib keys, in order
    file: str = ""  # the page's name in the build: "book/02_sines"


def read_numbers(path, root=None):
    """The pages of a build's ``numbers.json``, refused if a source (in ``root``,
    by default the folder that was built) changed since."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: build the book first (`make book`)")
    data = json.loads(path.read_text(encoding="utf-8"))
    for name, digest in data["sources"].items():
        source = pathlib.Path(root or data["root"]) / name
        if not source.is_file() or hashlib.sha256(source.read_bytes()).hexdigest()[:16] != digest:
            raise ValueError(f"{name} changed since the book was built: build it again (`make book`)")
    return {pathlib.PurePosixPath(file).name: Doc(name=pathlib.PurePosixPath(file).name, file=file, **page)
            for file, page in data["docs"].items()}


class Book:
    """The targets of the roles of a built book: its pages, as numbered and
    titled by the build, and its bibliography.

    ``root`` holds ``_config.yml`` and the build's ``_build/numbers.json``.
    ``extra`` are pages outside the book (a test fixture), found in the
    ``numbers.json`` files of other builds, ``numbers``.
    """

    def __init__(self, root=ROOT, extra=(), numbers=()):
        self.root = pathlib.Path(root)
        self.docs = read_numbers(self.root / NUMBERS, self.root)
        others = {stem: doc for path in numbers for stem, doc in read_numbers(path).items()}
        for stem in (pathlib.Path(p).stem for p in extra):
            if stem not in self.docs:
                if stem not in others:
                    raise ValueError(f"{stem} is neither a page of the book nor in the builds {list(numbers)}")
                self.docs[stem] = others[stem]
        self.files = {d.name: d.file for d in self.docs.values()}
        self._labels = None

    def html_url(self, here=None):
        """The address of the HTML book, or of its page ``here``: the GitHub
        Pages of the repository that ``_config.yml`` names, where
        .github/workflows/pages.yml publishes ``_build/html``."""
        config = yaml.safe_load((self.root / "_config.yml").read_text()) or {}
        repository = (config.get("repository") or {}).get("url")
        if not repository:  # a book without a repository has no address
            return None
        owner, name = repository.rstrip("/").split("/")[-2:]
        url = f"https://{owner.lower()}.github.io/{name}/"
        return url + f"{self.files[here]}.html" if here in self.files else url

    # --- citations -----------------------------------------------------------------

    def bib_entries(self):
        from pybtex.database import parse_file

        config = yaml.safe_load((self.root / "_config.yml").read_text()) or {}
        entries = {}
        for f in config.get("bibtex_bibfiles", []):
            entries.update(parse_file(str(self.root / f), bib_format="bibtex").entries)
        return entries

    @property
    def labels(self):
        """{bib key: (who, year)}, as the site labels the entries it cites."""
        if self._labels is None:  # pybtex here: the graders' env runs `nbtools totals` without it
            from book._ext.posenc_bibstyle import AuthorYearStyle
            entries, style = self.bib_entries(), AuthorYearStyle()
            cited = {k for d in self.docs.values() for k in d.cited if k in entries}
            ordered = style.sort([entries[k] for k in cited])
            self._labels = {e.key: tuple(label.rsplit(", ", 1))
                            for e, label in zip(ordered, style.format_labels(ordered))}
            self._sort_key = {e.key: i for i, e in enumerate(ordered)}
        return self._labels

    def cite(self, keys, textual):
        """"Haviv et al. (2022)" (textual) or "(Haviv et al., 2022)"."""
        missing = [k for k in keys if k not in self.labels]
        if missing:
            raise ValueError(f"no entry for the citation key(s) {missing} among the works the book cites")
        keys = sorted(keys, key=self._sort_key.__getitem__)
        if textual:
            return ", ".join(f"{self.labels[k][0]} ({self.labels[k][1]})" for k in keys)
        return "(" + "; ".join(f"{self.labels[k][0]}, {self.labels[k][1]}" for k in keys) + ")"

    def references_page(self):
        """The works the book cites, as a Markdown page: one entry per work,
        "**Haviv et al., 2022**: Authors. Title. Venue.", in the site's order."""
        from book._ext.posenc_bibstyle import AuthorYearStyle
        entries, keys = self.bib_entries(), sorted(self.labels, key=self._sort_key.__getitem__)
        lines = ["# References", "",
                 "The works the book cites, by first author. In the notebooks a citation",
                 "reads \"Haviv et al. (2022)\" or \"(Haviv et al., 2022)\".", ""]
        for formatted in AuthorYearStyle().format_entries([entries[k] for k in keys]):
            who, year = self.labels[formatted.key]
            lines.append(f"- **{who}, {year}**: " + formatted.text.render_as("markdown").replace("\n", " "))
        return "\n".join(lines) + "\n"

    # --- the other roles -------------------------------------------------------------

    def doc(self, target, here=None):
        name = pathlib.PurePosixPath(target).name.removesuffix(".md").removesuffix(".ipynb")
        if name not in self.docs:
            raise ValueError(f"{{doc}} names {target!r}, which is not a page of the book"
                             + (f" (in {here})" if here else ""))
        return self.docs[name]

    def _find(self, what, label):
        return next((doc for doc in self.docs.values() if label in getattr(doc, what)), None)

    def figure_number(self, name):
        doc = self._find("figures", name)
        return doc.figures[name] if doc else None

    def exercise_number(self, label):
        doc = self._find("exercises", label)
        return doc.exercises[label] if doc else None

    def equation(self, label):
        doc = self._find("equations", label)
        if doc is None:
            raise ValueError(f"{{eq}} names {label!r}, which is no labelled equation of the book")
        return doc.equations[label]

    def role(self, name, content, here):
        """The plain text of the role ``{name}`content``` on the page ``here``."""
        title, target = explicit(content)
        if name.startswith("cite"):
            if name not in CITES:
                raise ValueError(f"{{{name}}} is not a citation role the student edition knows")
            return self.cite([k.strip() for k in content.split(",") if k.strip()], name in TEXTUAL_CITES)
        if name in ("numref", "ref"):
            for word, number in ((EXERCISE_WORD, self.exercise_number(target)),
                                 (FIGURE_WORD, self.figure_number(target))):
                if number is not None and title is not None:
                    return title.replace("%s", number).replace("{number}", number) if name == "numref" else title
                if number is not None:
                    return f"{word} {number}"
            if name == "numref":
                raise ValueError(f"{{numref}} names {target!r}, which is no figure or exercise of the book")
            if title is not None:
                return title
            doc = self._find("sections", target)
            if doc is None:
                raise ValueError(f"{{ref}} names {target!r}, which is no section, figure or exercise of the book")
            text = f"*{self.plain_inline(doc.sections[target], doc.name)}*"
            return text + (f" in *{self.plain_inline(doc.title, doc.name)}*" if here and doc.name != here else "")
        if name == "eq":
            return f"({self.equation(target)})"
        if name == "doc":
            return title if title is not None else f"*{self.plain_inline(self.doc(target, here).title, here)}*"
        if name == "math":
            return f"${content}$"
        if name.startswith("py:") or name in ("func", "class", "meth", "mod", "attr", "obj", "data"):
            return f"`{title if title is not None else target.lstrip('~')}`"
        return title if title is not None else content  # {term}, {abbr} ... : the text

    # --- markdown ---------------------------------------------------------------------

    def _substitute(self, text, found, here):
        """(start, end, plain text) for the spans ``found`` in ``text`` that a plain edition replaces."""
        edits = []
        for start, end, t, inner in found:
            if t.type == "myst_role":
                new = self.role(t.meta["name"], t.content, here)
            elif t.type == "link_open":  # a link to a target of the book: its text
                a, b, spans_ = inner
                new = apply_edits(text[:b], self._substitute(text, spans_, here))[a:]
            elif t.type in ("myst_target", "myst_line_comment"):
                new = ""
            elif t.type == "math_block_label":
                new = f"$${t.content.rstrip()}\n\\tag{{{self.equation(t.info)}}}\n$$"
            else:
                new = self._plain_block(t, here)
                if new is None:
                    continue  # a directive left as written
                indent = text[start:end][:len(text[start:end]) - len(text[start:end].lstrip(" \t"))]
                new = "\n".join(indent + line if line else line for line in new.split("\n"))
            if t.type in ("math_block_label", "fence", "colon_fence") and text[:end].endswith("\n"):
                new += "\n"
            edits.append((start, end, new))
        return edits

    def plain_inline(self, text, here=None):
        """``text`` (a paragraph, a title) with its roles and links to the book's targets as plain text."""
        edits = []
        for token in parser().parseInline(text):
            edits += self._substitute(text, inline_spans(text, token.children or [])[0], here)
        return apply_edits(text, edits)

    def plain(self, text, here=None):
        """The markdown ``text`` (of the page ``here``) in plain Markdown."""
        return apply_edits(text, self._substitute(text, spans(text), here)).strip("\n")

    def _plain_block(self, token, here):
        """A directive in plain Markdown, or None to leave it as written."""
        name, arg = directive(token)
        options, body = split_options(token.content)
        body = body.strip("\n")
        if name in CODE_DIRECTIVES:
            runs = [len(line.lstrip(" \t")) - len(line.lstrip(" \t").lstrip("`")) for line in body.split("\n")]
            longest = max([r for r in runs if r >= 3], default=0)
            fence = "`" * max(3, longest + 1)
            return f"{fence}{arg}\n{body}\n{fence}"
        if name == "math":
            doc = self._find("equations", options.get("label"))  # a {math} of the book is numbered
            tag = f"\n\\tag{{{doc.equations[options['label']]}}}" if doc else ""
            return f"$$\n{body}{tag}\n$$"
        if name == "exercise":
            number = self.exercise_number(options.get("label", ""))
            heading = f"{EXERCISE_WORD} {number}" if number else EXERCISE_WORD
            heading += f" ({self.plain_inline(arg, here)})" if arg else ""
            return f"**{heading}**\n\n{self.plain(body, here)}"
        if name in GATES:
            return ""
        url = self.html_url(here)
        if name in ADMONITIONS:
            text = self.plain(body, here)
            if url and "posenc-widget" in options.get("class", "").split():  # HTML book only
                text += f"\n\nThe HTML book draws it, on the page <{url}>."
            return f"---\n\n**{self.plain_inline(arg or name.capitalize(), here)}**\n\n{text}\n\n---"
        if name == "glossary":
            entries = glossary_entries(body)
            if "sorted" in options:
                entries.sort(key=lambda e: unicodedata.normalize("NFD", term_key(e[0][0])))
            return "\n".join("- " + ", ".join(f"**{self.plain_inline(t, here)}**" for t in terms) + ": "
                             + self.plain(definition, here).replace("\n", "\n  ") for terms, definition in entries)
        if name == "posenc-widget":  # drawn by the HTML book's JavaScript only
            where = f" It is on the page <{url}>." if url else ""
            return f"> **An interactive figure in the HTML book** ({arg}). {self.plain(body, here)}{where}"
        return None

    def caption(self, figure, here):
        """The markdown under a figure: "**Figure 1.4.** caption"."""
        caption = self.plain_inline(figure.get("caption", ""), here).strip()
        number = self.figure_number(figure["name"]) if figure.get("name") else None
        return f"**{FIGURE_WORD} {number}.** {caption}" if number else caption


def figure_of(cell):
    """The myst-nb figure options of a code cell ({} if it makes no figure)."""
    if cell.cell_type != "code":
        return {}
    return cell.metadata.get("mystnb", {}).get("figure", {}) or {}


def caption_cell_id(cell):
    return f"{cell.get('id', 'figure')}-caption"


def plain_notebook(nb, book, here):
    """A copy of ``nb`` (the page ``here`` of ``book``) for plain Jupyter:
    markdown cells in plain Markdown, no solution-gate cells, and each
    figure's caption in a markdown cell under its code cell."""
    nb = copy.deepcopy(nb)
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            if is_gate(cell):
                continue
            cell.source = book.plain(cell.source, here)
        cells.append(cell)
        if figure_of(cell).get("caption"):
            caption = nbformat.v4.new_markdown_cell(book.caption(figure_of(cell), here))
            caption.id = caption_cell_id(cell)
            cells.append(caption)
    nb.cells = cells
    return nb


def plain_page(path, book):
    """The markdown page at ``path`` (a page of ``book``) in plain Markdown."""
    path = pathlib.Path(path)
    return book.plain(path.read_text(), path.stem) + "\n"
