"""Markup that axe-core and Lighthouse asked for (issue 31), in the body of
every page.

- The references page: entries as list items (docutils gives them the
  deprecated ``role="doc-biblioentry"`` inside a ``role="list"``).
- A table whose first column heads the rows (its corner cell is empty):
  no empty header cell, and each row's first cell a row header.
- Sphinx's module and general indexes lay their entries out in a table:
  it is marked as a layout table (``role="presentation"``).
- Figures shown at a set size also get its aspect ratio, so the browser
  reserves their space before the image has loaded (no layout shift).
- Hidden cells: myst-nb's ``<details>`` summary is named by the text it
  shows ("Show the double-angle test"), not by one ``aria-label`` shared
  by all of them ("Toggle hidden content").
"""

from __future__ import annotations

import html
import re
from pathlib import Path

_INDEX_TABLE = '<table class="indextable'
_LAYOUT_TABLE = '<table role="presentation" class="indextable'
_EMPTY_HEADER_CELL = re.compile(r'<th class="head">(?:<p></p>)?</th>')


def accessible_body(body):
    """A page's HTML body with docutils' and Sphinx's markup slips fixed.

    * The references page: docutils gives the list of citations
      ``role="list"`` and each entry the deprecated ``role="doc-biblioentry"``,
      which is not a list item, so the list has no items (axe: critical).
    * An empty header cell (a table whose first column heads the rows:
      ``| | What it is |``) is an empty ``<th>``, a column header without a
      name (axe: empty-table-header): it becomes a plain ``<td>``.

    >>> accessible_body('<div class="citation" id="x" role="doc-biblioentry">')
    '<div class="citation" id="x" role="listitem">'
    >>> accessible_body('<tr class="row-odd"><th class="head"><p></p></th><th class="head"><p>A</p></th>')
    '<tr class="row-odd"><td class="head"></td><th class="head"><p>A</p></th>'
    """
    body = body.replace('role="doc-biblioentry"', 'role="listitem"')
    return row_headers(_EMPTY_HEADER_CELL.sub('<td class="head"></td>', body))


_TABLE = re.compile(r"<table\b.*?</table>", re.S)
_CORNER = re.compile(r'<thead>\s*<tr[^>]*>\s*<td class="head"></td>')
_FIRST_CELL = re.compile(r"(<tr\b[^>]*>\s*)<td>(.*?)</td>", re.S)


def row_headers(body):
    """In a table whose corner cell is empty (``| | What it is |``), the
    first cell of each body row names its row: it becomes ``<th
    scope="row">``, so that every data cell has a row header and a column
    header (axe: td-has-header, which Lighthouse runs; a screen reader reads
    "parameters for positions, learned table: ...").

    >>> row_headers('<table><thead><tr><td class="head"></td><th>A</th></tr></thead>'
    ...             '<tbody><tr class="row-even"><td><p>a</p></td><td><p>1</p></td></tr></tbody></table>')
    '<table><thead><tr><td class="head"></td><th>A</th></tr></thead><tbody><tr class="row-even"><th scope="row"><p>a</p></th><td><p>1</p></td></tr></tbody></table>'
    >>> row_headers('<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>a</td></tr></tbody></table>')
    '<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>a</td></tr></tbody></table>'
    """

    def fix(table):
        table = table.group(0)
        if not _CORNER.search(table):
            return table
        head, sep, rows = table.partition("<tbody>")
        return head + sep + _FIRST_CELL.sub(r'\1<th scope="row">\2</th>', rows)

    return _TABLE.sub(fix, body)


_SIZED_IMG = re.compile(r'(<img [^>]*style="width: (\d+(?:\.\d+)?)px; height: (\d+(?:\.\d+)?)px;)"')


def reserve_figure_space(body):
    """Images shown at a size (myst-nb writes ``style="width: 490px; height:
    531px;"``) also get that aspect ratio, so that the stylesheet's ``height:
    auto`` (which keeps a figure's shape in a narrow column) still lets the
    browser reserve the figure's space before the image has loaded.

    >>> reserve_figure_space('<img alt="a" src="x.png" style="width: 490px; height: 531px;" />')
    '<img alt="a" src="x.png" style="width: 490px; height: 531px; aspect-ratio: 490 / 531;" />'
    """
    return _SIZED_IMG.sub(lambda m: f'{m.group(1)} aspect-ratio: {m.group(2)} / {m.group(3)};"', body)


def fix_body(app, pagename, templatename, context, doctree):
    """The accessible-markup fixes and figure sizes in the page's body."""
    if "body" in context:
        context["body"] = reserve_figure_space(accessible_body(context["body"]))


def mark_index_tables(app, exception):
    """Sphinx's indexes (``py-modindex``, ``genindex``) lay their entries out
    in a table whose cells have no headers (axe: td-has-header): it is
    marked ``role="presentation"``. Their templates write the table outside
    the body that :func:`fix_body` sees, so the page is mended once written.

    >>> import types
    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> _ = (out / "py-modindex.html").write_text('<table class="indextable modindextable">')
    >>> app = types.SimpleNamespace(builder=types.SimpleNamespace(format="html", outdir=out))
    >>> mark_index_tables(app, None)
    >>> (out / "py-modindex.html").read_text()
    '<table role="presentation" class="indextable modindextable">'
    """
    if exception is not None or getattr(app.builder, "format", "") != "html":
        return
    for name in ("py-modindex.html", "genindex.html"):
        path = Path(app.builder.outdir) / name
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            if _INDEX_TABLE in text:
                path.write_text(text.replace(_INDEX_TABLE, _LAYOUT_TABLE), encoding="utf-8")


def visit_hide_cell(self, node):
    """myst-nb's <details> for a hidden cell, without its ``aria-label="Toggle
    hidden content"``: the summary's name is the text it shows ("Show the
    double-angle test"), which differs from cell to cell."""
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n<summary>\n')
    self.body.append(f'<p class="collapsed admonition-title">{html.escape(node["prompt_show"])}</p>\n')
    self.body.append(f'<p class="expanded admonition-title">{html.escape(node["prompt_hide"])}</p>\n')
    self.body.append("</summary>\n")


def depart_hide_cell(self, node):
    self.body.append("</details>\n")


def setup(app):
    app.connect("html-page-context", fix_body, priority=800)
    app.connect("build-finished", mark_index_tables)
    # myst-nb draws hidden cells ("hide-cell" tags) for the html builder only;
    # the single page that `make pdf` prints needs the same <details> element
    from myst_nb.sphinx_ import HideCodeCellNode  # noqa: PLC0415

    app.add_node(HideCodeCellNode, override=True, html=(visit_hide_cell, depart_hide_cell),
                 singlehtml=(visit_hide_cell, depart_hide_cell))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
