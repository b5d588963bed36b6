"""Previews: a glossary link shows the term's definition, a citation the
reference, without leaving the page (issue 42).

On hover, on keyboard focus, or on a first tap on a phone (a second tap
follows the link), ``static/posenc-previews.js`` shows a small box under
the link; Escape, moving away or a tap elsewhere hides it. The box is a
``role="tooltip"`` that the link names with ``aria-describedby`` while it
shows, so a screen reader reads the definition with the link.

What the box says comes from the build, not from the network:

- a glossary term (a ``{term}`` link to a ``glossary`` entry): the entry's
  first term and its definition, as plain text with formulas readable
  (``d_k``, ``√d_model``: ``posenc_search.plain_text``). Each page carries
  only the entries it links to, as JSON in a ``<script
  type="application/json" id="posenc-previews">`` at the end of its body,
  keyed by the target's document name and id (``book/glossary#term-Adam``),
  so that links written relative to another folder (the landing page's
  copy of the introduction) still find theirs.
- a citation (sphinxcontrib-bibtex's ``{cite}``): the reference as
  sphinxcontrib-bibtex already writes it into the link's ``title``
  attribute (its plain-text "tooltip" entry); the script moves it into the
  box (and out of ``title``, so the browser's own tooltip does not show it
  a second time). Nothing is added to the page for citations.

Why not sphinx-tippy (0.4.3, or the TeachBooks fork 1.0.15): by default it
loads tippy.js and Popper from a CDN (they would have to be vendored, about
45 KB minified on every page with a link), fetches Wikipedia and DOI
summaries from the network at build time unless turned off, copies the
target's whole HTML for every internal link on a page (figures, paragraphs
with typeset math and their ids), names its per-page files with a random
UUID (the build would no longer be reproducible), sets ``window.onload``
(replacing anyone else's), and has no Escape to hide a tip. The book needs
two kinds of preview, a few KB of script and the theme's colours.
"""

from __future__ import annotations

import json
import posixpath
import re

from docutils import nodes

SCRIPT = "posenc-previews.js"
STYLESHEET = "posenc-previews.css"
DATA_ID = "posenc-previews"

_INTERNAL_HREF = re.compile(r'<a class="reference internal" href="(?P<href>[^"#]*#[^"]+)"')


def _squeezed(text):
    return re.sub(r"\s+", " ", text).strip()


def glossary_entries(doctree):
    """id of each term of each glossary entry -> ``{"term": first term,
    "text": definition}``, the definition as plain text (formulas readable).

    >>> from docutils.core import publish_doctree
    >>> tree = publish_doctree("Adam\\n  The optimiser, :math:`d_{k}` wide.\\n")
    >>> for item in tree.findall(nodes.definition_list_item):
    ...     item.parent["classes"].append("glossary")
    ...     item.children[0]["ids"] = ["term-Adam"]
    >>> glossary_entries(tree)
    {'term-Adam': {'term': 'Adam', 'text': 'The optimiser, d_k wide.'}}
    """
    from posenc_search import plain_text  # noqa: PLC0415  (same folder, on sys.path)

    entries = {}
    for item in doctree.findall(nodes.definition_list_item):
        if "glossary" not in item.parent.get("classes", []):
            continue
        terms = [child for child in item.children if isinstance(child, nodes.term)]
        definitions = [child for child in item.children if isinstance(child, nodes.definition)]
        if not terms or not definitions:
            continue
        first = _squeezed(plain_text(terms[0]))
        text = _squeezed(" ".join(plain_text(child) for child in definitions[0].children))
        # plain_text pads formulas with spaces: none before punctuation
        text = re.sub(r" ([,.;:)])", r"\1", text)
        for term in terms:
            for ident in term.get("ids", []):
                entries[ident] = {"term": first, "text": text}
    return entries


def _glossary_docs(env):
    std = env.get_domain("std")
    return sorted({docname for (kind, _), (docname, _) in std.objects.items() if kind == "term"})


def book_glossary(app):
    """``docname#id`` -> entry, for every glossary of the book (built once per
    build, from the resolved doctrees, so {doc} links read as their titles)."""
    cached = getattr(app.builder, "_posenc_glossary", None)
    if cached is None:
        cached = {}
        for docname in _glossary_docs(app.env):
            doctree = app.env.get_and_resolve_doctree(docname, app.builder)
            for ident, entry in glossary_entries(doctree).items():
                cached[f"{docname}#{ident}"] = entry
        app.builder._posenc_glossary = cached
    return cached


def linked_targets(body, pagename):
    """``docname#id`` of every internal link with a fragment in a page body,
    in order, each once.

    >>> linked_targets('<a class="reference internal" href="glossary.html#term-Adam">'
    ...                '<a class="reference internal" href="#term-x">', "book/02_sines")
    ['book/glossary#term-Adam', 'book/02_sines#term-x']
    """
    found = []
    folder = posixpath.dirname(pagename)
    for m in _INTERNAL_HREF.finditer(body):
        path, ident = m["href"].split("#", 1)
        if not path:
            docname = pagename
        elif path.endswith(".html"):
            docname = posixpath.normpath(posixpath.join(folder, path[:-len(".html")]))
        else:
            continue
        key = f"{docname}#{ident}"
        if key not in found:
            found.append(key)
    return found


def page_data(body, pagename, glossary):
    """The ``<script type="application/json">`` with the entries a page links
    to ("" when it links to none)."""
    entries = {key: glossary[key] for key in linked_targets(body, pagename) if key in glossary}
    if not entries:
        return ""
    data = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return f'\n<script type="application/json" id="{DATA_ID}">{data}</script>\n'


def add_previews(app, pagename, templatename, context, doctree):
    """The page's glossary entries, and the script on pages with a glossary
    link or a citation."""
    if getattr(app.builder, "name", "") != "html" or "body" not in context:
        return
    body = context["body"]
    data = page_data(body, pagename, book_glossary(app))
    if data:
        context["body"] = body + data
    if data or 'class="bibtex-citation"' in body:
        app.add_js_file(SCRIPT)


def setup(app):
    # after the other extensions' edits of the body (priority 800-900 there
    # change only markup that these links do not hold)
    app.connect("html-page-context", add_previews, priority=600)
    app.add_css_file(STYLESHEET)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
