"""Small fixes to the HTML pages of the book, loaded from _config.yml.

1. Sphinx 7.4 writes an inline script twice when an extension adds it after
   the builder has started (its filename is ``None`` the first time and
   ``""`` the second, so the two copies do not compare equal). sphinx-thebe's
   ``const THEBE_JS_URL = ...`` is such a script, and its second copy throws
   "Identifier 'THEBE_JS_URL' has already been declared" in every page.
   Each page keeps one copy of every script.
2. Live code in the page (thebe) is off in _config.yml, so the thebe assets,
   which point at a script on an outside host, are left out of the pages.
3. A bibliography style, ``authoryear``, whose labels on the references page
   read like the citations in the text ("Vaswani et al., 2017"), sorted by
   author, with titles kept as written in references.bib ("RoFormer", not
   "Roformer").
4. The page layout (``templates/layout.html``): no top header band, whose
   hidden duplicate buttons left the phone menu dead (pydata-sphinx-theme
   issue #2451) and showed a second Search button on desktops; no
   fontawesome.js (1.5 MB), the icons come from the theme's web fonts.
5. Exercises: each exercise's and solution's content gets an id of its own
   (sphinx-exercise gives them all ``exercise-content`` or
   ``solution-content``); nbgrader's ``# BEGIN SOLUTION`` / ``# END
   SOLUTION`` lines are left out of the code shown in the HTML (the
   notebooks keep them); ``static/posenc-site.js`` names each solution
   toggle after its solution ("Solution to Exercise 2.1 (...)") instead of
   "Toggle hidden content" for all of them.
6. A section whose title is a {doc} link (the exercises page: "## {doc}`01_why`")
   is listed in the page's contents box under the chapter's title, not its
   file name.
7. Math is typeset when the book is built: ``posenc_math.py``. Search
   results get excerpts from file:// too, with readable formulas:
   ``posenc_search.py``.
8. Icons: the Font Awesome web fonts the theme ships weigh 270 KB, for the
   twenty icons the book shows. After the build, each font is cut down to
   the icons the pages name (fontTools, already pinned as a matplotlib
   dependency), written to ``_static/icons/``, and ``icons.css`` declares
   them after the theme's fonts, so the browser loads only the small ones.
9. Pages other than the search page do not load the search index (73 KB)
   and search scripts: the theme's search box sends the reader to the
   search page (search-as-you-type is off).
10. ``static/posenc-site.css``: display math scrolls inside its own box on a
   narrow screen (``static/posenc-site.js`` lets the keyboard reach the ones
   that do scroll, and the stylesheet draws a cue), and a print stylesheet
   (code wraps instead of being cut off, a code cell is never split from its
   box, solutions are printed open, no buttons).
11. What Lighthouse and axe-core asked for (issue 31): every script file
   deferred; sphinx-design's files only on pages that use it; one viewport
   tag and a description per page; an ``index.html`` with a title and a
   language; solution titles without a link in them (a tap anywhere opens
   the solution; the link back to the exercise ends the solution);
   hidden-cell summaries named by their text; references as list items; no
   empty header cells; figures that reserve their space before loading.
"""

from __future__ import annotations

import codecs
import html
import re
from collections import Counter
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util import docname_join

import latexcodec  # noqa: F401  (registers the "ulatex" codec)
from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting.author_year_title import SortingStyle
from pybtex.style.template import field, sentence


def _plain(text):
    """LaTeX of a bib field as plain text: accents decoded, braces dropped."""
    return re.sub(r"[{}]", "", codecs.decode(text, "ulatex"))


def _surnames(entry):
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    return [_plain(" ".join(p.prelast_names + p.last_names)) for p in people]


class AuthorYearSorting(SortingStyle):
    """By first author's surname, then year, then the other authors and title."""

    def sorting_key(self, entry):
        authors, year, title = super().sorting_key(entry)
        first = (_surnames(entry) or [""])[0].lower()
        return (first, year, _plain(authors), title)


class AuthorYearLabels(BaseLabelStyle):
    """Labels "Shaw et al., 2018", "Devlin and Chang, 2019", "Radford, 2019"."""

    def format_label(self, entry):
        names = _surnames(entry)
        if not names:
            who = _plain(entry.fields.get("title", entry.key))
        elif len(names) == 1:
            who = names[0]
        elif len(names) == 2:
            who = f"{names[0]} and {names[1]}"
        else:
            who = f"{names[0]} et al."
        return f"{who}, {entry.fields.get('year', 'n.d.')}"

    def format_labels(self, sorted_entries):
        labels = [self.format_label(entry) for entry in sorted_entries]
        count, seen = Counter(labels), Counter()
        for label in labels:
            if count[label] > 1:  # two papers with one label: 2019a, 2019b
                seen[label] += 1
                label += "abcdefghijklmnopqrstuvwxyz"[seen[label] - 1]
            yield label


class AuthorYearStyle(UnsrtStyle):
    default_label_style = AuthorYearLabels
    default_sorting_style = AuthorYearSorting

    def format_title(self, e, which_field, as_sentence=True):
        title = field(which_field)
        return sentence[title] if as_sentence else title


def _key(asset):
    return (asset.filename or "", asset.priority, tuple(sorted(asset.attributes.items())))


def _is_thebe(asset):
    name = str(asset.filename or "")
    return "sphinx-thebe" in name or "THEBE_JS_URL" in asset.attributes.get("body", "")


def _is_design(asset):
    """sphinx-design's stylesheet and script (jupyter-book loads it on every page)."""
    name = str(asset.filename or "")
    return "sphinx-design" in name or "design-tabs" in name


# Scripts that run as soon as they are read, because an inline script after
# them uses what they define (``DOCUMENTATION_OPTIONS.pagename = ...``).
_RUN_AT_ONCE = ("documentation_options.js",)


def tidy_assets(app, pagename, templatename, context, doctree):
    """One copy of each asset; no thebe, no sphinx-design where the page does not
    use it; every script file deferred (it runs once the page is parsed, in
    order, instead of holding up the first paint)."""
    thebe = app.config.html_theme_options.get("launch_buttons", {}).get("thebe")
    design = 'class="sd-' in context.get("body", "") or ' sd-' in context.get("body", "")

    def keep(asset):
        return (thebe or not _is_thebe(asset)) and (design or not _is_design(asset))

    for name in ("script_files", "css_files"):
        seen, assets = set(), []
        for asset in context.get(name, []):
            if hasattr(asset, "attributes") and keep(asset) and _key(asset) not in seen:
                seen.add(_key(asset))
                assets.append(asset)
            elif not hasattr(asset, "attributes"):
                assets.append(asset)
        context[name] = assets
    if pagename == "search":
        # The theme's search page loads Sphinx's search scripts itself, at
        # once, and they use doctools.js: there, everything runs at once.
        return
    scripts = []
    for asset in context.get("script_files", []):
        filename = str(getattr(asset, "filename", "") or "")
        if (filename and hasattr(asset, "attributes") and not filename.endswith(_RUN_AT_ONCE)
                and "async" not in asset.attributes and "defer" not in asset.attributes):
            # a deferred copy: the builder's own asset objects serve every page
            asset = type(asset)(asset.filename, priority=asset.priority,
                                **{**asset.attributes, "defer": "defer"})
        scripts.append(asset)
    context["script_files"] = scripts


HERE = Path(__file__).resolve().parent
_FONTAWESOME_JS = re.compile(r'\s*<script[^>]*src="[^"]*/fontawesome\.js[^"]*"[^>]*></script>')
# nbgrader's solution markers, as the book writes them (README, "Writing an exercise").
SOLUTION_MARKER = re.compile(r"^[ \t]*#+[ \t]*(BEGIN|END) SOLUTION[ \t]*$")


def without_fontawesome_js(html):
    """The theme's <head> without its fontawesome.js <script> (a Jinja filter)."""
    return _FONTAWESOME_JS.sub("", str(html))


def strip_solution_markers(code):
    """Code without nbgrader's ``# BEGIN SOLUTION`` / ``# END SOLUTION`` lines."""
    return "\n".join(line for line in code.split("\n") if not SOLUTION_MARKER.match(line))


_SEARCH_SCRIPTS = re.compile(
    r'\s*<script src="[^"]*(?:searchtools|language_data|searchindex)\.js"></script>')


def without_search_scripts(html):
    """The theme's extra <head> without the search scripts (a Jinja filter)."""
    return _SEARCH_SCRIPTS.sub("", str(html))


_VIEWPORT = re.compile(r'\s*<meta name="viewport"[^>]*>')


def without_viewport(html):
    """HTML without its viewport <meta> tags (a Jinja filter): Sphinx's layout
    writes one, the theme two more; a page keeps Sphinx's."""
    return _VIEWPORT.sub("", str(html))


# --- what a page says about itself: description, accessible markup ---------

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


_EMPTY_HEADER_CELL = re.compile(r'<th class="head">(?:<p></p>)?</th>')


def accessible_body(body):
    """A page's HTML body with two of docutils' markup slips fixed.

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
    return _EMPTY_HEADER_CELL.sub('<td class="head"></td>', body)


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


def describe_page(app, pagename, templatename, context, doctree):
    """<meta name="description"> from the page's first paragraph; one viewport
    tag; the accessible-markup fixes and figure sizes in the body."""
    fallback = getattr(app.env, "posenc_book_description", "") or context.get("docstitle", "")
    description = page_description(doctree, fallback)
    metatags = without_viewport(context.get("metatags", ""))
    if description:
        metatags += f'\n<meta name="description" content="{html.escape(description)}" />'
    context["metatags"] = metatags
    if "body" in context:
        context["body"] = reserve_figure_space(accessible_body(context["body"]))


def remember_book_description(app, env):
    """The root page's description stands for pages without text of their own
    (the index, the search page)."""
    root = app.config.root_doc
    if root in env.found_docs:
        env.posenc_book_description = page_description(env.get_doctree(root))
    return []


# --- icons: the theme's Font Awesome fonts, cut down to the icons used -----

ICON_FONTS = {  # file in the theme's webfonts folder -> CSS family, weight
    "fa-solid-900": ("Font Awesome 6 Free", 900),
    "fa-regular-400": ("Font Awesome 6 Free", 400),
    "fa-brands-400": ("Font Awesome 6 Brands", 400),
}
_ICON_RULE = re.compile(r'((?:\.fa-[\w-]+:(?:before|after),?)+)\{content:"\\?([0-9a-fA-F]+)"\}')


def icon_codepoints(theme_css, used_names):
    """Code points of the Font Awesome icons named in ``used_names``."""
    points = set()
    for selectors, hexcode in _ICON_RULE.findall(theme_css):
        names = set(re.findall(r"\.(fa-[\w-]+):", selectors))
        if names & used_names:
            points.add(int(hexcode, 16))
    return points


def css_icon_codepoints(css):
    """Private-use code points a stylesheet draws outside the ``.fa-*`` class rules
    (admonition and dropdown icons: ``--pst-icon-lightbulb: "\uf0eb"``)."""
    css = _ICON_RULE.sub("", css)
    points = {ord(c) for c in css if 0xE000 <= ord(c) <= 0xF8FF}
    points |= {int(h, 16) for h in re.findall(r'"\\([ef][0-9a-fA-F]{3})"', css)}
    return points


def subset_icon_fonts(app, exception):
    """Write _static/icons/*.woff with only the icons the site uses, and icons.css."""
    if exception is not None or getattr(app.builder, "format", "") != "html":
        return
    from fontTools import subset  # noqa: PLC0415

    out = Path(app.builder.outdir)
    static = out / "_static"
    theme_css = static / "styles" / "pydata-sphinx-theme.css"
    webfonts = static / "vendor" / "fontawesome" / "webfonts"
    if not theme_css.is_file() or not webfonts.is_dir():
        return
    used = set()
    for page in out.rglob("*.html"):
        used |= set(re.findall(r"\b(fa-[\w-]+)", page.read_text(encoding="utf-8", errors="replace")))
    for script in (static / "scripts").glob("*.js"):  # icons the theme's scripts insert
        used |= set(re.findall(r"[\"' ](fa-[\w-]+)", script.read_text(encoding="utf-8", errors="replace")))
    points = icon_codepoints(theme_css.read_text(encoding="utf-8"), used)
    for css in static.rglob("*.css"):  # icons that stylesheets draw themselves
        points |= css_icon_codepoints(css.read_text(encoding="utf-8", errors="replace"))
    (static / "icons").mkdir(exist_ok=True)
    rules = ["/* Font Awesome (SIL OFL 1.1), cut down to the icons this book uses by\n"
             "   book/_ext/posenc_site.py. Declared after the theme's own faces, so\n"
             "   these are the ones the browser loads. */"]
    for name, (family, weight) in ICON_FONTS.items():
        source = webfonts / f"{name}.ttf"
        if not source.is_file():
            continue
        options = subset.Options()
        options.flavor = "woff"
        options.layout_features = []
        options.name_IDs = ["*"]  # keep the copyright and licence names
        font = subset.load_font(str(source), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=points)
        subsetter.subset(font)
        subset.save_font(font, str(static / "icons" / f"{name}.woff"), options)
        rules.append(
            f'@font-face {{ font-display: block; font-family: "{family}"; font-style: normal; '
            f'font-weight: {weight}; src: url(icons/{name}.woff) format("woff"); }}')
    (static / "icons.css").write_text("\n".join(rules) + "\n", encoding="utf-8")


# --- hidden cells: a summary whose name is its text ------------------------


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


# --- the site's front door: index.html ------------------------------------

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


def add_templates(app, config):
    config.templates_path.insert(0, str(HERE / "templates"))
    config.html_static_path.append(str(HERE / "static"))


def add_jinja_filters(app):
    templates = getattr(app.builder, "templates", None)
    if templates is not None and hasattr(templates, "environment"):
        templates.environment.filters["posenc_without_fontawesome_js"] = without_fontawesome_js
        templates.environment.filters["posenc_without_viewport"] = without_viewport
        search_as_you_type = app.config.html_theme_options.get("search_as_you_type", False)
        templates.environment.filters["posenc_without_search_scripts"] = (
            (lambda html: html) if search_as_you_type else without_search_scripts)


def _in_code_cell(node):
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.container) and "cell_input" in parent.get("classes", []):
            return True
        parent = parent.parent
    return False


def untangle_solution_title(solution):
    """A solution's title as plain text, its link to the exercise moved into the solution.

    sphinx-exercise titles a solution "Solution to <a>Exercise 7.1 (...)</a>":
    on a phone the link covers most of the title, so a tap meant to open the
    solution jumped back to the exercise instead. The title keeps the words
    and becomes, all of it, the toggle's target; the solution ends with a
    "Back to Exercise 7.1" link.
    """
    title = solution.next_node(nodes.title)
    if title is None:
        return
    for ref in list(title.findall(nodes.reference)):
        label = re.sub(r"\s*\(.*$", "", ref.astext()).strip()  # "Exercise 7.1"
        ref.replace_self(ref.children)
        back = nodes.reference("", "", *([nodes.Text(f"Back to {label}")] if label else []),
                               **{k: ref[k] for k in ("refid", "refuri", "internal") if k in ref})
        solution += nodes.paragraph("", "", back, classes=["posenc-backlink"])


def tidy_exercises(app, doctree, docname):
    """Unique ids for exercise and solution content; no nbgrader markers in code
    cells; solution titles without a link in them."""
    from sphinx_exercise.nodes import solution_node  # noqa: PLC0415

    for solution in doctree.findall(solution_node):
        untangle_solution_title(solution)
    for section in doctree.findall(nodes.section):
        ids = section.get("ids", [])
        if ids in (["exercise-content"], ["solution-content"]) and section.parent is not None:
            owner = (section.parent.get("ids") or [docname])[0]
            section["ids"] = [nodes.make_id(f"{owner}-content")]
    for block in list(doctree.findall(nodes.literal_block)):
        text = block.astext()
        if _in_code_cell(block) and any(SOLUTION_MARKER.match(line) for line in text.split("\n")):
            new = strip_solution_markers(text)
            block.children = []
            block += nodes.Text(new)
            block.rawsource = new


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
    register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle, force=True)
    app.setup_extension("posenc_math")  # math typeset at build time (see its docstring)
    app.setup_extension("posenc_search")  # search excerpts from file:// (see its docstring)
    app.connect("config-inited", add_templates)
    app.connect("builder-inited", add_jinja_filters)
    app.connect("html-page-context", tidy_assets, priority=900)
    app.connect("doctree-read", record_doc_titles)
    app.connect("env-purge-doc", purge_doc_titles)
    app.connect("env-merge-info", merge_doc_titles)
    app.connect("env-updated", name_doc_links_in_contents)
    app.connect("doctree-resolved", tidy_exercises)
    app.connect("html-page-context", describe_page, priority=800)
    app.connect("env-updated", remember_book_description)
    app.connect("build-finished", subset_icon_fonts)
    app.connect("build-finished", write_index_redirect, priority=400)
    # myst-nb draws hidden cells ("hide-cell" tags) for the html builder only;
    # the single page that `make pdf` prints needs the same <details> element
    from myst_nb.sphinx_ import HideCodeCellNode

    app.add_node(HideCodeCellNode, override=True, html=(visit_hide_cell, depart_hide_cell),
                 singlehtml=(visit_hide_cell, depart_hide_cell))
    app.add_css_file("icons.css")
    app.add_css_file("posenc-site.css")
    app.add_js_file("posenc-site.js")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
