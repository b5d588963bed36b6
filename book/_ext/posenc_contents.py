"""Contents boxes that show titles, not file names.

A section whose title is a {doc} link (the exercises page: "## {doc}`01_why`")
is listed in the page's contents box under the linked page's title; Sphinx
would list it under the link's unresolved target, the file name "01_why".
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.util import docname_join


def record_doc_titles(app, doctree):
    """Remember section titles that are a {doc} link: their contents entry needs the title."""
    env = app.env
    found = {}
    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title)
        if title is None or title.parent is not section:
            continue
        refs = list(title.findall(addnodes.pending_xref))
        if len(refs) == 1 and refs[0].get("reftype") == "doc" and section.get("ids"):
            target = docname_join(env.docname, refs[0]["reftarget"])
            found[section["ids"][0]] = target
    if found:
        if not hasattr(env, "posenc_doc_titles"):
            env.posenc_doc_titles = {}
        env.posenc_doc_titles[env.docname] = found


def purge_doc_titles(app, env, docname):
    getattr(env, "posenc_doc_titles", {}).pop(docname, None)


def merge_doc_titles(app, env, docnames, other):
    if not hasattr(env, "posenc_doc_titles"):
        env.posenc_doc_titles = {}
    env.posenc_doc_titles.update(getattr(other, "posenc_doc_titles", {}))


def name_doc_links_in_contents(app, env):
    """In each page's contents box, a {doc}-link title reads as the linked page's title."""
    for docname, sections in getattr(env, "posenc_doc_titles", {}).items():
        toc = env.tocs.get(docname)
        if toc is None:
            continue
        for ref in toc.findall(nodes.reference):
            section = ref.get("anchorname", "").lstrip("#")
            target = sections.get(section)
            if target in env.titles:
                ref.children = []
                ref += nodes.Text(env.titles[target].astext())
    return []


def setup(app):
    app.connect("doctree-read", record_doc_titles)
    app.connect("env-purge-doc", purge_doc_titles)
    app.connect("env-merge-info", merge_doc_titles)
    app.connect("env-updated", name_doc_links_in_contents)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
