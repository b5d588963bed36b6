"""What a page says about itself, and the site's front door.

- Each page's ``<meta name="description">`` is its first paragraph as plain
  text (formulas readable), for search engines and link previews; the index
  and search pages, which have no text of their own, get the book's.
- One viewport tag per page (Sphinx's layout writes one, the theme two more).
- ``index.html``, the page a reader opens first, is the landing page itself
  (a copy of ``book/intro.html`` with its links made relative to the site's
  root, and a canonical link to the original): a redirect there cost a
  phone 220-610 ms before anything showed (issue 42). sphinx-external-toc's
  was one bare ``<meta http-equiv="refresh">`` tag.
"""

from __future__ import annotations

import html
import posixpath
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


_URL_ATTRIBUTE = re.compile(r'(?P<attr>\s(?:href|src|action|poster|data-content_root))="(?P<url>[^"]*)"')
_SRCSET = re.compile(r'(?P<attr>\ssrcset)="(?P<url>[^"]*)"')


def _moved(url, folder):
    """``url``, written in a page of ``folder``, as written in a page of the site's root."""
    if not url or url.startswith(("#", "/", "data:", "mailto:", "javascript:")) or re.match(r"^\w+:", url):
        return url
    path, mark, rest = re.match(r"^([^?#]*)([?#]?)(.*)$", url).groups()
    moved = posixpath.normpath(posixpath.join(folder, path)) if path else folder
    moved = "./" if moved == "." else moved + ("/" if path.endswith("/") and moved != "." else "")
    return moved + mark + rest


def front_door(page, folder, target):
    """The page ``target`` (in ``folder``) as ``index.html`` of the site's root:
    every relative link and asset re-pointed, and a canonical link to ``target``.

    >>> page = ('<html data-content_root="../"><head><link href="../_static/a.css" rel="stylesheet">'
    ...         '</head><body><a href="01_why.html#x">1</a> <a href="#top">top</a>'
    ...         ' <img src="../_images/f.png"></body></html>')
    >>> print(front_door(page, "book", "book/intro.html"))  # doctest: +NORMALIZE_WHITESPACE
    <html data-content_root="./"><head><link rel="canonical" href="book/intro.html" />
    <link href="_static/a.css" rel="stylesheet"></head><body><a href="book/01_why.html#x">1</a>
    <a href="#top">top</a> <img src="_images/f.png"></body></html>
    """
    page = _URL_ATTRIBUTE.sub(lambda m: f'{m["attr"]}="{_moved(m["url"], folder)}"', page)
    page = _SRCSET.sub(lambda m: m["attr"] + '="' + ", ".join(
        " ".join([_moved(c.split()[0], folder), *c.split()[1:]]) for c in m["url"].split(",") if c.strip())
        + '"', page)
    return page.replace("<head>", f'<head><link rel="canonical" href="{html.escape(target)}" />\n', 1)


def write_front_door(app, exception):
    """``index.html``: the landing page (the root document of _toc.yml) itself."""
    builder = app.builder
    if exception is not None or builder.name != "html" or app.config.root_doc == "index":
        return
    root = app.config.root_doc
    source = Path(builder.outdir) / f"{root}.html"
    if source.is_file():
        folder = posixpath.dirname(root) or "."
        page = front_door(source.read_text(encoding="utf-8"), folder, f"{root}.html")
        (Path(builder.outdir) / "index.html").write_text(page, encoding="utf-8")


def setup(app):
    app.connect("html-page-context", describe_page, priority=800)
    app.connect("env-updated", remember_book_description)
    app.connect("build-finished", write_front_door, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
