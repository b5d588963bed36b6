"""The numbers and titles Sphinx gave the book, for the plain editions.

The student, nbgrader and Otter editions turn the book's MyST roles into
plain text ("Figure 1.4", "Exercise 2.3", "(1.2)", a section's title):
``tools/plain_myst.py`` writes what the build wrote, and numbers nothing
itself. After the build this module writes ``numbers.json`` beside the
output folder (``_build/numbers.json`` for ``_build/html``):

- ``docs``: every page in the order of the table of contents, each with
  its title (as written in the source, MyST roles and math included), its
  chapter number (``null`` on an unnumbered page), the labels of its
  sections (with their titles), figures, exercises and equations (with the
  numbers the HTML shows: ``"1.4"``), and the keys it cites;
- ``sources``: a short hash of each page's source file and of ``_toc.yml``
  (paths relative to ``root``, the book's folder), so that a plain edition
  made after a change (without a new build) is refused instead of numbered
  wrongly.

Titles are the sources' (the title nodes' ``rawsource``), not the
doctree's text: Sphinx's smart quotes and its rendering of math would
change what the plain editions print.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from docutils import nodes

FILE = "numbers.json"


def _hash(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _title(node):
    return (node.rawsource or node.astext()) if node is not None else ""


def _in_book_order(env):
    """The pages of the book in the order of its table of contents."""
    order, seen = [], set()

    def visit(docname):
        if docname in seen or docname not in env.found_docs:
            return
        seen.add(docname)
        order.append(docname)
        for child in env.toctree_includes.get(docname, []):
            visit(child)

    visit(env.config.root_doc)
    return order + sorted(env.found_docs - seen)


def _number(numbers):
    return ".".join(map(str, numbers)) if numbers else None


def page_numbers(env, docname, cited):
    """What the plain editions need of one page."""
    doctree = env.get_doctree(docname)
    secnumber = env.toc_secnumbers.get(docname, {}).get("")
    fignumbers = env.toc_fignumbers.get(docname, {})
    first = next((t for t in doctree.findall(nodes.title) if isinstance(t.parent, nodes.section)), None)
    page = {"title": _title(first), "number": secnumber[0] if secnumber else None,
            "sections": {}, "figures": {}, "exercises": {}, "equations": {}, "cited": cited}
    sections = {i: s for s in doctree.findall(nodes.section) for i in s["ids"]}
    for label, (doc, labelid, _) in sorted(env.domaindata["std"]["labels"].items()):
        if doc != docname:
            continue
        for kind in ("figure", "exercise"):
            if labelid in fignumbers.get(kind, {}):
                page[kind + "s"][label] = _number(fignumbers[kind][labelid])
        if labelid in sections:
            page["sections"][label] = _title(sections[labelid].next_node(nodes.title))
    for label, (doc, number) in sorted(env.domaindata["math"]["objects"].items()):
        if doc == docname:
            shown = fignumbers.get("displaymath", {}).get(f"equation-{label}")
            page["equations"][label] = _number(shown) or str(number)
    return page


#: The one builder whose numbers the plain editions print: ``make book``'s.
#: Others write nothing (``make pdf``'s singlehtml build, whose format is
#: "html" too and whose output folder is also in ``_build``, would otherwise
#: overwrite the file with a page's numbers missing).
BUILDER = "html"


def write_numbers(app, exception):
    if exception is not None or getattr(app.builder, "name", "") != BUILDER:
        return
    env = app.env
    cited = {}
    for ref in env.domaindata.get("cite", {}).get("citation_refs", []):
        keys = cited.setdefault(ref.docname, [])
        keys += [t.key for t in ref.targets if t.key not in keys]
    confdir = Path(app.confdir)
    sources = {}
    for name in ("_toc.yml",):
        if (confdir / name).is_file():
            sources[name] = _hash(confdir / name)
    docs = {}
    for docname in _in_book_order(env):
        path = Path(env.doc2path(docname))
        sources[path.relative_to(confdir).as_posix() if path.is_relative_to(confdir) else str(path)] = _hash(path)
        docs[docname] = page_numbers(env, docname, cited.get(docname, []))
    data = {"about": "The numbers and titles of the built book (book/_ext/posenc_numbers.py), "
                     "for tools/plain_myst.py.",
            "root": str(confdir), "sources": sources, "docs": docs}
    out = Path(app.outdir).parent / FILE
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def setup(app):
    app.connect("build-finished", write_numbers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
