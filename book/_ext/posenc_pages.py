"""What a page says about itself, and the site's front door.

- Each page's ``<meta name="description">`` is its first paragraph as plain
  text (formulas readable), for search engines and link previews; the index
  and search pages, which have no text of their own, get the book's.
- One viewport tag per page (Sphinx's layout writes one, the theme two more).
- ``index.html``, the page a reader opens first, has a title, a language and
  a link, and sends the reader to the landing page (sphinx-external-toc's
  was one bare ``<meta>`` tag).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from docutils import nodes

DESCRIPTION_LENGTH = 160


def page_description(doctree, fallback=""):
    """The page's first paragraph as plain text (formulas readable), cut at a
    word before 160 characters: the page's <meta name="description">.

    >>> from docutils.core import publish_doctree
    >>> tree = publish_doctree("Title\\n=====\\n\\nShort.\\n\\nThe first paragraph of $x$ words, "
    ...                        "long enough to describe the page.\\n\\nMore.")
    >>> page_description(tree)
    'The first paragraph of $x$ words, long enough to describe the page.'
    """
    from posenc_search import plain_text  # noqa: PLC0415  (same folder, on sys.path)

    for paragraph in doctree.findall(nodes.paragraph) if doctree is not None else ():
        if any(isinstance(a, (nodes.admonition, nodes.Admonition, nodes.table, nodes.footer,
                              nodes.field_list, nodes.container)) for a in _ancestors(paragraph)):
            continue
        text = re.sub(r"\s+", " ", plain_text(paragraph)).strip()
        if len(text) >= 40:
            break
    else:
        text = fallback
    if len(text) > DESCRIPTION_LENGTH:
        text = text[:DESCRIPTION_LENGTH - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return text


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def describe_page(app, pagename, templatename, context, doctree):
    """<meta name="description"> from the page's first paragraph; one viewport tag."""
    from posenc_assets import without_viewport  # noqa: PLC0415  (same folder)

    fallback = getattr(app.env, "posenc_book_description", "") or context.get("docstitle", "")
    description = page_description(doctree, fallback)
    metatags = without_viewport(context.get("metatags", ""))
    if description:
        metatags += f'\n<meta name="description" content="{html.escape(description)}" />'
    context["metatags"] = metatags


def remember_book_description(app, env):
    """The root page's description stands for pages without text of their own
    (the index, the search page)."""
    root = app.config.root_doc
    if root in env.found_docs:
        env.posenc_book_description = page_description(env.get_doctree(root))
    return []


INDEX_HTML = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<meta name="description" content="{description}">
<link rel="icon" href="{favicon}">
<link rel="canonical" href="{target}">
<meta http-equiv="refresh" content="0; url={target}">
</head>
<body>
<p><a href="{target}">{title}</a></p>
</body>
</html>
"""


def write_index_redirect(app, exception):
    """``index.html``: a small page that sends the reader to the landing page,
    with a title, a language and a link for browsers that do not follow the
    redirect (sphinx-external-toc's was one bare ``<meta>`` tag; it writes
    its own only where there is none)."""
    builder = app.builder
    if exception is not None or getattr(builder, "format", "") != "html":
        return
    if app.config.root_doc == "index":
        return
    root = app.config.root_doc
    target = f"{root}/index.html" if builder.name == "dirhtml" else f"{root}.html"
    favicon = app.config.html_favicon or ""
    page = INDEX_HTML.format(
        lang=html.escape(app.config.language or "en"),
        title=html.escape(app.config.html_title or app.config.project),
        description=html.escape(getattr(app.env, "posenc_book_description", "")),
        favicon=html.escape("_static/" + Path(favicon).name) if favicon else "",
        target=html.escape(target))
    if not favicon:
        page = page.replace('<link rel="icon" href="">\n', "")
    (Path(builder.outdir) / "index.html").write_text(page, encoding="utf-8")


def setup(app):
    app.connect("html-page-context", describe_page, priority=800)
    app.connect("env-updated", remember_book_description)
    app.connect("build-finished", write_index_redirect, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
