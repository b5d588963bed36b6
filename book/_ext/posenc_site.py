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
   narrow screen, and a print stylesheet (code wraps instead of being cut
   off, solutions are printed open, no buttons).
"""

from __future__ import annotations

import codecs
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


def tidy_assets(app, pagename, templatename, context, doctree):
    if app.config.html_theme_options.get("launch_buttons", {}).get("thebe"):
        keep = lambda asset: True  # noqa: E731
    else:
        keep = lambda asset: not _is_thebe(asset)  # noqa: E731
    for name in ("script_files", "css_files"):
        seen, assets = set(), []
        for asset in context.get(name, []):
            if hasattr(asset, "attributes") and keep(asset) and _key(asset) not in seen:
                seen.add(_key(asset))
                assets.append(asset)
            elif not hasattr(asset, "attributes"):
                assets.append(asset)
        context[name] = assets


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


def add_templates(app, config):
    config.templates_path.insert(0, str(HERE / "templates"))
    config.html_static_path.append(str(HERE / "static"))


def add_jinja_filters(app):
    templates = getattr(app.builder, "templates", None)
    if templates is not None and hasattr(templates, "environment"):
        templates.environment.filters["posenc_without_fontawesome_js"] = without_fontawesome_js
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


def tidy_exercises(app, doctree, docname):
    """Unique ids for exercise and solution content; no nbgrader markers in code cells."""
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
    app.connect("build-finished", subset_icon_fonts)
    # myst-nb draws hidden cells ("hide-cell" tags) for the html builder only;
    # the single page that `make pdf` prints needs the same <details> element
    from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput, visit_HideCellInput

    app.add_node(HideCodeCellNode, override=True,
                 singlehtml=(visit_HideCellInput, depart_HideCellInput))
    app.add_css_file("icons.css")
    app.add_css_file("posenc-site.css")
    app.add_js_file("posenc-site.js")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
