"""The book's MyST as plain Markdown, for the editions a class opens in any
Jupyter (the student edition, nbgrader's and Otter's versions): Colab,
VS Code, Jupyter Notebook and a JupyterLab without jupyterlab-myst render
a markdown cell as CommonMark, where ``{cite:t}`haviv2022nopos``` and
``{numref}`fig-why-count``` stay raw text and a figure's caption, kept in
the cell's metadata, never shows.

:class:`Book` reads what the roles point to from the repository, as the
built book numbers and names it:

- ``{cite:t}`` and ``{cite:p}`` become "Haviv et al. (2022)" and "(Haviv et
  al., 2022)": the labels of the site's author-year style
  (``book/_ext/posenc_bibstyle.py``), over the entries the
  book cites, several keys sorted as the site sorts them;
- ``{numref}`` becomes "Figure 1.4": the chapter's number (its place among
  the chapters of the numbered parts of ``_toc.yml``), then the figure's
  place among the chapter's named figures; ``{eq}`` "(1.2)" likewise;
- ``{doc}`` the page's title, ``{ref}`` the section's title (with the page's
  title when it is another page) or "Exercise 2.3"; titles are in italics;
- ``{term}`` its text, ``{math}`` ``$...$``, a ``{py:...}`` role its name as
  code, any other role its text; ``[text](#target)`` links their text;
- ``(label)=`` target lines and ``%`` comment lines are dropped; a
  labelled equation gets its number as a MathJax ``\\tag``;
- directives: an exercise becomes a bold "Exercise 1.1 (Title)" line above
  its task; admonitions (``{admonition}``, ``{note}``, ...) a bold title
  and their body between two rules; ``{math}`` ``$$ ... $$``; a code block
  a plain fenced block; a glossary a list of bold terms; an interactive
  figure (``{posenc-widget}``, which only the HTML book can draw) a quoted
  line that says where to find it, with its caption; other directives are
  left as written.

:func:`plain_notebook` applies this to each markdown cell of a notebook,
drops the cells of the book's solution gate (``{solution-start}`` and
``{solution-end}``, which only the book's HTML uses), and puts each
figure's caption under its code cell as a markdown cell "**Figure 1.4.**
caption" (cell id: the figure cell's id and ``-caption``). Code cells are
left alone.
"""

from __future__ import annotations

import copy
import dataclasses
import pathlib
import re
import unicodedata

import nbformat
import yaml

from book._ext.posenc_bibstyle import AuthorYearStyle

ROOT = pathlib.Path(__file__).resolve().parent.parent

FIGURE_WORD = "Figure"
EXERCISE_WORD = "Exercise"
GATES = ("solution-start", "solution-end")
ADMONITIONS = ("admonition", "note", "tip", "hint", "important", "warning", "caution", "attention",
               "danger", "error", "seealso", "dropdown", "topic", "sidebar")
CODE_DIRECTIVES = ("code-block", "code", "sourcecode", "code-cell")

# A fenced block: backticks or tildes (code, or a directive if the info
# string is {name}), or colons (always a directive), possibly indented.
FENCE_RE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>[^\n]*)\n"
    r"(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$\n?",
    re.M | re.S,
)
DIRECTIVE_INFO_RE = re.compile(r"^\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>.*?)[ \t]*$")
OPTION_RE = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*?)[ \t]*$")
TARGET_LINE_RE = re.compile(r"^[ \t]*\((?P<label>[^()\s]+)\)=[ \t]*\n?", re.M)
COMMENT_LINE_RE = re.compile(r"^%[^\n]*\n?", re.M)
HEADING_RE = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<title>.+?)[ \t]*#*[ \t]*$", re.M)
LABELLED_SECTION_RE = re.compile(r"^\((?P<label>[^()\s]+)\)=[ \t]*\n(?:[ \t]*\n)*#{1,6}[ \t]+(?P<title>.+?)[ \t]*$", re.M)
LABELLED_EQUATION_RE = re.compile(r"^\$\$(?:(?!\$\$).)*\$\$[ \t]*\((?P<label>[^()\s]+)\)[ \t]*$", re.M | re.S)
# Inline: a role, a code span, or a link to a target of the book.
INLINE_RE = re.compile(
    r"(?P<role>(?<!\\)\{(?P<name>[\w:+-]+)\}`(?P<content>[^`]*)`)"
    r"|(?P<code>(?P<ticks>`+)[^`].*?(?P=ticks))"
    r"|(?P<link>(?<![!\]])\[(?P<text>[^\]\n]*)\]\(<?#(?P<target>[^)>\n]*)>?\))",
    re.S,
)
CITE_RE = re.compile(r"(?<!\\)\{cite(?::\w+)?\}`(?P<keys>[^`]*)`")
EXPLICIT_RE = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.S)


@dataclasses.dataclass
class Doc:
    """What the roles of the book can point to in one page."""

    name: str  # the file's stem: "02_sines"
    title: str = ""
    number: int | None = None  # the chapter's number, if its part of _toc.yml is numbered
    sections: dict = dataclasses.field(default_factory=dict)  # label -> title
    figures: dict = dataclasses.field(default_factory=dict)  # name -> place in the page (1, 2, ...)
    equations: dict = dataclasses.field(default_factory=dict)  # label -> place
    exercises: dict = dataclasses.field(default_factory=dict)  # label -> (place, title)
    cited: list = dataclasses.field(default_factory=list)  # bib keys, in order

    def numbered(self, k):
        """"1.4" for the 4th item of chapter 1; "4" on an unnumbered page."""
        return f"{self.number}.{k}" if self.number is not None else str(k)


def toc_files(root):
    """The files of ``_toc.yml`` in the book's order, each with whether it is
    a numbered chapter (a chapter of a part with ``numbered: true``; the book
    has no sections in files of their own): [(path without suffix, numbered)]."""
    toc = yaml.safe_load((pathlib.Path(root) / "_toc.yml").read_text())
    found = [(toc["root"], False)]

    def walk(entries, numbered):
        for entry in entries or []:
            if "file" in entry:
                found.append((entry["file"], numbered))
            walk(entry.get("sections"), False)  # a chapter's sections share its number
            walk(entry.get("chapters"), numbered)

    for part in toc.get("parts", []):
        walk(part.get("chapters"), bool(part.get("numbered")))
    walk(toc.get("chapters"), bool(toc.get("options", {}).get("numbered")))
    return found


def _page_path(root, name):
    for suffix in (".ipynb", ".md"):
        path = pathlib.Path(root) / (name + suffix)
        if path.is_file():
            return path
    raise FileNotFoundError(f"_toc.yml lists {name!r}, which is neither a .ipynb nor a .md file")


def page_cells(path):
    """The cells of a page: a notebook's, or a markdown file as one markdown cell."""
    path = pathlib.Path(path)
    if path.suffix == ".ipynb":
        return nbformat.read(path, as_version=4).cells
    return [nbformat.v4.new_markdown_cell(path.read_text())]


def figure_of(cell):
    """The myst-nb figure options of a code cell ({} if it makes no figure)."""
    if cell.cell_type != "code":
        return {}
    return cell.metadata.get("mystnb", {}).get("figure", {}) or {}


def directive_blocks(text):
    """Every fenced directive in ``text`` (nested ones included), in order:
    (name, argument, options, body)."""
    found = []
    for m in FENCE_RE.finditer(text):
        info = DIRECTIVE_INFO_RE.match(m["info"].strip())
        if info is None:
            continue  # a plain code block
        options, body = _split_options(_dedent(m["body"], m["indent"]))
        found.append((info["name"], info["arg"], options, body))
        if info["name"] not in CODE_DIRECTIVES + ("math",):
            found.extend(directive_blocks(body))
    return found


def _dedent(body, indent):
    if not indent:
        return body
    return "".join(line[len(indent):] if line.startswith(indent) else line
                   for line in body.splitlines(keepends=True))


def _split_options(body):
    """(options, the rest) of a directive's body; a blank line may follow the options."""
    lines = body.split("\n")
    options = {}
    while lines and (opt := OPTION_RE.match(lines[0])):
        options[opt["key"]] = opt["value"]
        lines.pop(0)
    return options, "\n".join(lines)


def read_doc(name, path, number):
    """The :class:`Doc` of the page at ``path``."""
    doc = Doc(name, number=number)
    cells = page_cells(path)
    for cell in cells:
        if cell.cell_type == "markdown":
            text = cell.source
            if not doc.title:
                heading = next((h for h in HEADING_RE.finditer(_without_code(text)) if len(h["hashes"]) == 1),
                               None)
                doc.title = heading["title"] if heading else ""
            for m in LABELLED_SECTION_RE.finditer(text):
                doc.sections[m["label"]] = m["title"]
            for m in LABELLED_EQUATION_RE.finditer(text):
                doc.equations[m["label"]] = len(doc.equations) + 1
            for name_, arg, options, _ in directive_blocks(text):
                if name_ == "exercise" and "label" in options and "nonumber" not in options:
                    doc.exercises[options["label"]] = (len(doc.exercises) + 1, arg)
                elif name_ == "figure" and "name" in options:
                    doc.figures[options["name"]] = len(doc.figures) + 1
                elif name_ == "math" and "label" in options:
                    doc.equations[options["label"]] = len(doc.equations) + 1
            doc.cited.extend(_cited(text))
        figure = figure_of(cell)
        if figure.get("name"):
            doc.figures[figure["name"]] = len(doc.figures) + 1
        doc.cited.extend(_cited(figure.get("caption", "")))
    return doc


def _cited(text):
    return [k.strip() for m in CITE_RE.finditer(text) for k in m["keys"].split(",") if k.strip()]


def _without_code(text):
    """``text`` with its code blocks blanked out (a ``#`` comment in a code
    block is not a heading); directives other than code blocks are kept."""
    def blank(m):
        info = DIRECTIVE_INFO_RE.match(m["info"].strip())
        if info and info["name"] not in CODE_DIRECTIVES:
            return m[0]
        return "\n" * m[0].count("\n")
    return FENCE_RE.sub(blank, text)


class Book:
    """The targets of the roles of a book: its pages, numbered as ``_toc.yml``
    numbers them, and its bibliography.

    ``root`` holds ``_toc.yml`` and ``_config.yml``. ``extra`` are pages
    outside the table of contents (a test fixture) that get a :class:`Doc`
    too, unnumbered.
    """

    def __init__(self, root=ROOT, extra=()):
        self.root = pathlib.Path(root)
        self.docs = {}
        self.files = {}  # stem -> the file's path in _toc.yml, "book/02_sines"
        chapter = 0
        for file, numbered in toc_files(self.root):
            path = _page_path(self.root, file)
            self.files[path.stem] = file
            number = None
            if numbered:
                chapter += 1
                number = chapter
            self.docs[path.stem] = read_doc(path.stem, path, number)
        for path in map(pathlib.Path, extra):
            if path.stem not in self.docs:
                self.docs[path.stem] = read_doc(path.stem, path, None)
        self._labels = None

    # --- the HTML book -----------------------------------------------------------

    def html_url(self, here=None):
        """The address of the HTML book, or of its page ``here``.

        .github/workflows/pages.yml publishes ``_build/html`` on the GitHub
        Pages of the repository that ``_config.yml`` names (its one setting
        for the repository): ``https://<owner>.github.io/<name>/``.
        """
        config = yaml.safe_load((self.root / "_config.yml").read_text()) or {}
        repository = (config.get("repository") or {}).get("url")
        if not repository:  # a book without a repository has no address
            return None
        owner, name = repository.rstrip("/").split("/")[-2:]
        url = f"https://{owner.lower()}.github.io/{name}/"
        if here in self.files:
            url += f"{self.files[here]}.html"
        return url

    # --- citations -------------------------------------------------------------

    def bib_files(self):
        config = yaml.safe_load((self.root / "_config.yml").read_text()) or {}
        return [self.root / f for f in config.get("bibtex_bibfiles", [])]

    @property
    def labels(self):
        """{bib key: (who, year)}, as the site labels the entries it cites."""
        if self._labels is None:
            self._labels = {}
            files = self.bib_files()
            if files:
                from pybtex.database import parse_file

                entries = {}
                for f in files:
                    entries.update(parse_file(str(f), bib_format="bibtex").entries)
                cited = {k for d in self.docs.values() for k in d.cited if k in entries}
                style = AuthorYearStyle()
                ordered = style.sort([entries[k] for k in cited])
                for entry, label in zip(ordered, style.format_labels(ordered)):
                    who, year = label.rsplit(", ", 1)
                    self._labels[entry.key] = (who, year)
                self._sort_key = {e.key: i for i, e in enumerate(ordered)}
        return self._labels

    def cite(self, keys, textual):
        """"Haviv et al. (2022)" (textual) or "(Haviv et al., 2022)"."""
        labels = self.labels
        missing = [k for k in keys if k not in labels]
        if missing:
            raise ValueError(f"no entry for the citation key(s) {missing} in {self.bib_files()}")
        keys = sorted(keys, key=self._sort_key.__getitem__)
        if textual:
            return ", ".join(f"{labels[k][0]} ({labels[k][1]})" for k in keys)
        return "(" + "; ".join(f"{labels[k][0]}, {labels[k][1]}" for k in keys) + ")"

    def references_page(self):
        """The works the book cites, as a Markdown page: one entry per work,
        "**Haviv et al., 2022**: Authors. Title. Venue.", in the site's order."""
        from pybtex.database import parse_file

        self.labels  # noqa: B018 (computes the labels and their order)
        entries = {}
        for f in self.bib_files():
            entries.update(parse_file(str(f), bib_format="bibtex").entries)
        style = AuthorYearStyle()
        keys = sorted(self.labels, key=self._sort_key.__getitem__)
        lines = ["# References", "",
                 "The works the book cites, by first author. In the notebooks a citation",
                 "reads \"Haviv et al. (2022)\" or \"(Haviv et al., 2022)\".", ""]
        for formatted in style.format_entries([entries[k] for k in keys]):
            who, year = self.labels[formatted.key]
            text = formatted.text.render_as("markdown").replace("\n", " ")
            lines.append(f"- **{who}, {year}**: {text}")
        return "\n".join(lines) + "\n"

    # --- the other roles ---------------------------------------------------------

    def doc(self, target, here=None):
        name = pathlib.PurePosixPath(target).name.removesuffix(".md").removesuffix(".ipynb")
        if name not in self.docs:
            raise ValueError(f"{{doc}} names {target!r}, which is not a page of the book"
                             + (f" (in {here})" if here else ""))
        return self.docs[name]

    def _find(self, what, label):
        for doc in self.docs.values():
            if label in getattr(doc, what):
                return doc
        return None

    def figure_number(self, name):
        doc = self._find("figures", name)
        return doc.numbered(doc.figures[name]) if doc else None

    def exercise_number(self, label):
        doc = self._find("exercises", label)
        return doc.numbered(doc.exercises[label][0]) if doc else None

    def role(self, name, content, here):
        """The plain text of the role ``{name}`content``` on the page ``here``."""
        explicit = EXPLICIT_RE.match(content)
        title, target = (explicit["title"], explicit["target"]) if explicit else (None, content.strip())
        if name.startswith("cite"):
            textual = name in ("cite:t", "cite:ts", "cite:ct", "cite:cts")
            if name not in ("cite", "cite:p", "cite:ps", "cite:cp", "cite:cps",
                            "cite:t", "cite:ts", "cite:ct", "cite:cts"):
                raise ValueError(f"{{{name}}} is not a citation role the student edition knows")
            return self.cite([k.strip() for k in content.split(",") if k.strip()], textual)
        if name == "numref":
            number = self.figure_number(target)
            word = FIGURE_WORD
            if number is None:
                number, word = self.exercise_number(target), EXERCISE_WORD
            if number is None:
                raise ValueError(f"{{numref}} names {target!r}, which is no figure or exercise of the book")
            if title is None:
                return f"{word} {number}"
            return title.replace("%s", number).replace("{number}", number)
        if name == "eq":
            doc = self._find("equations", target)
            if doc is None:
                raise ValueError(f"{{eq}} names {target!r}, which is no labelled equation of the book")
            return f"({doc.numbered(doc.equations[target])})"
        if name == "doc":
            return title if title is not None else f"*{self.plain_inline(self.doc(target, here).title, here)}*"
        if name == "ref":
            if title is not None:
                return title
            number = self.exercise_number(target)
            if number is not None:
                return f"{EXERCISE_WORD} {number}"
            number = self.figure_number(target)
            if number is not None:
                return f"{FIGURE_WORD} {number}"
            doc = self._find("sections", target)
            if doc is None:
                raise ValueError(f"{{ref}} names {target!r}, which is no section, figure or exercise of the book")
            text = f"*{self.plain_inline(doc.sections[target], doc.name)}*"
            if here is not None and doc.name != here:
                text += f" in *{self.plain_inline(doc.title, doc.name)}*"
            return text
        if name == "math":
            return f"${content}$"
        if name.startswith("py:") or name in ("func", "class", "meth", "mod", "attr", "obj", "data"):
            shown = title if title is not None else target.lstrip("~")
            return f"`{shown}`"
        return title if title is not None else content  # {term}, {abbr} ... : the text

    # --- markdown ----------------------------------------------------------------

    def plain_inline(self, text, here=None):
        """``text`` with its roles and links to the book's targets as plain text."""
        def replace(m):
            if m["role"]:
                return self.role(m["name"], m["content"], here)
            if m["link"]:
                return m["text"]
            return m[0]  # a code span stays as it is
        return INLINE_RE.sub(replace, text)

    def plain(self, text, here=None):
        """The markdown ``text`` (of the page ``here``) in plain Markdown."""
        out, pos = [], 0
        for m in FENCE_RE.finditer(text):
            out.append(self._plain_text(text[pos:m.start()], here))
            out.append(self._plain_block(m, here))
            pos = m.end()
        out.append(self._plain_text(text[pos:], here))
        return "".join(out).strip("\n")

    def _plain_text(self, text, here):
        text = TARGET_LINE_RE.sub("", text)
        text = COMMENT_LINE_RE.sub("", text)
        text = LABELLED_EQUATION_RE.sub(lambda m: self._tagged(m[0], m["label"]), text)
        return self.plain_inline(text, here)

    def _tagged(self, block, label):
        """A labelled display ``$$ ... $$ (label)`` as ``$$ ... \\tag{1.2} $$``:
        Jupyter's MathJax shows the number the book gives it."""
        doc = self._find("equations", label)
        body = block[:block.rindex("$$")].rstrip()
        return f"{body}\n\\tag{{{doc.numbered(doc.equations[label])}}}\n$$"

    def _plain_block(self, m, here):
        info = DIRECTIVE_INFO_RE.match(m["info"].strip())
        end = "\n" if m[0].endswith("\n") else ""
        if info is None:
            return m[0]  # a code block: as it is
        name, arg, indent = info["name"], info["arg"], m["indent"]
        options, body = _split_options(_dedent(m["body"], indent))
        body = body.strip("\n")
        if name in CODE_DIRECTIVES:
            fence = "`" * max([3] + [len(t) + 1 for t in re.findall(r"^[ \t]*(`{3,})", body, re.M)])
            block = f"{fence}{arg}\n{body}\n{fence}"
        elif name == "math":
            label = options.get("label")
            doc = self._find("equations", label) if label else None
            tag = f"\n\\tag{{{doc.numbered(doc.equations[label])}}}" if doc else ""
            block = f"$$\n{body}{tag}\n$$"
        elif name == "exercise":
            number = self.exercise_number(options.get("label", ""))
            heading = f"{EXERCISE_WORD} {number}" if number else EXERCISE_WORD
            if arg:
                heading += f" ({self.plain_inline(arg, here)})"
            block = f"**{heading}**\n\n{self.plain(body, here)}"
        elif name in GATES:
            block = ""
        elif name in ADMONITIONS:
            title = arg or name.capitalize()
            text = self.plain(body, here)
            url = self.html_url(here)
            if url and "posenc-widget" in options.get("class", "").split():  # HTML book only
                text += f"\n\nThe HTML book draws it, on the page <{url}>."
            block = f"---\n\n**{self.plain_inline(title, here)}**\n\n{text}\n\n---"
        elif name == "glossary":
            block = self._plain_glossary(body, here, options)
        elif name == "posenc-widget":  # drawn by the HTML book's JavaScript only
            url = self.html_url(here)
            where = f" It is on the page <{url}>." if url else ""
            block = (f"> **An interactive figure in the HTML book** ({arg}). "
                     f"{self.plain(body, here)}{where}")
        else:
            return m[0]
        if indent:
            block = "\n".join(indent + line if line else line for line in block.split("\n"))
        return block + end

    def _plain_glossary(self, body, here, options=None):
        """A glossary as a list: "- **term**, **other term**: definition"
        (sorted by the first term, as Sphinx does, with ``:sorted:``)."""
        items = []
        entries = glossary_entries(body)
        if options and "sorted" in options:
            entries.sort(key=lambda e: unicodedata.normalize("NFD", _term_key(e[0][0])))
        for terms, definition in entries:
            names = ", ".join(f"**{self.plain_inline(t, here)}**" for t in terms)
            items.append(f"- {names}: " + self.plain(definition, here).replace("\n", "\n  "))
        return "\n".join(items)

    def caption(self, figure, here):
        """The markdown under a figure: "**Figure 1.4.** caption"."""
        caption = self.plain_inline(figure.get("caption", ""), here).strip()
        name = figure.get("name")
        number = self.figure_number(name) if name else None
        return f"**{FIGURE_WORD} {number}.** {caption}" if number else caption


def glossary_entries(body):
    """The entries of a glossary directive's body: [(term lines, definition)].

    Sphinx's form: one or more term lines, then the definition indented
    below them; entries may be separated by blank lines.
    """
    entries, terms, definition = [], [], []
    for line in body.split("\n"):
        if not line.strip():
            if definition:
                definition.append("")
            continue
        if line[0] in " \t":
            definition.append(line)
            continue
        if line.startswith(":") and not entries and not terms:
            continue  # an option of the directive, such as :sorted:
        if definition:
            entries.append((terms, _dedent_block(definition)))
            terms, definition = [], []
        terms.append(line.strip())
    if terms:
        entries.append((terms, _dedent_block(definition)))
    return entries


def _term_key(term):
    """The name Sphinx files a glossary term under: its text, lower case
    (a math term such as ``$d_k$`` is filed as ``d_k``)."""
    return re.sub(r"\$([^$]*)\$", r"\1", term).lower()


def _dedent_block(lines):
    import textwrap

    return textwrap.dedent("\n".join(lines)).strip("\n")


def is_gate(cell):
    """A markdown cell that holds only a {solution-start} or {solution-end} directive."""
    if cell.cell_type != "markdown":
        return False
    m = FENCE_RE.fullmatch(cell.source.strip() + "\n")
    info = DIRECTIVE_INFO_RE.match(m["info"].strip()) if m else None
    return bool(info and info["name"] in GATES)


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
        figure = figure_of(cell)
        if figure.get("caption"):
            caption = nbformat.v4.new_markdown_cell(book.caption(figure, here))
            caption.id = caption_cell_id(cell)
            cells.append(caption)
    nb.cells = cells
    return nb


def plain_page(path, book):
    """The markdown page at ``path`` (a page of ``book``) in plain Markdown."""
    path = pathlib.Path(path)
    return book.plain(path.read_text(), path.stem) + "\n"


ROLE_NAMES_LEFT_RE = re.compile(r"\{(cite(:\w+)?|numref|ref|doc|term|eq)\}`[^`\n]+`")


def leftover_roles(text):
    """The MyST roles a plain edition must not show, found in the markdown
    ``text`` (outside code, where a role is shown as written on purpose)."""
    text = FENCE_RE.sub(lambda m: m[0] if DIRECTIVE_INFO_RE.match(m["info"].strip()) else "", text)
    text = INLINE_RE.sub(lambda m: "" if m["code"] else m[0], text)
    return [m[0] for m in ROLE_NAMES_LEFT_RE.finditer(text)]
