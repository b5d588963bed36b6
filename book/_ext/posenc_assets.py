"""What a page loads: each asset once, nothing it does not use, scripts
that wait for the page.

1. Sphinx 7.4 writes an inline script twice when an extension adds it after
   the builder has started (its filename is ``None`` the first time and
   ``""`` the second, so the two copies do not compare equal). sphinx-thebe's
   ``const THEBE_JS_URL = ...`` is such a script, and its second copy throws
   "Identifier 'THEBE_JS_URL' has already been declared" in every page.
   Each page keeps one copy of every script.
2. Live code in the page (thebe) is off in _config.yml, so the thebe assets,
   which point at a script on an outside host, are left out of the pages;
   sphinx-design's files are left out of the pages that use none of it.
3. Every script file is deferred (Lighthouse: render-blocking resources),
   except on the search page, whose search scripts the theme writes to run
   at once.
4. The page layout (``templates/layout.html``, through the Jinja filters
   below): no top header band, whose hidden duplicate buttons left the phone
   menu dead (pydata-sphinx-theme issue #2451) and showed a second Search
   button on desktops; no fontawesome.js (1.5 MB), the icons come from the
   theme's web fonts (cut down by ``posenc_icons``); pages other than the
   search page do not load the search index (73 KB) and search scripts (the
   theme's search box sends the reader to the search page;
   search-as-you-type is off); one viewport tag.
5. Phones (issue 42): images load when they come near the screen and
   decode off the main thread; the theme's script no longer measures every
   code block, output and table of a page at load and after each change of
   the page (which laid the whole chapter out five to seven times on a
   phone): ``static/posenc-site.js`` measures each box when it comes near
   the screen, and all of them at a keyboard user's first Tab.
6. The book's own stylesheet and script, ``static/posenc-site.css`` and
   ``.js``: display math that scrolls inside its own box on a narrow screen
   (the script lets the keyboard reach the ones that do scroll, the
   stylesheet draws a cue), solution toggles named after their solution,
   a tap anywhere on a toggle's title, the phone drawers' focus, search
   excerpts from file://, and the print stylesheet (code wraps instead of
   being cut off, a code cell is never split from its box, solutions are
   printed open, no buttons).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent


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


_IMG = re.compile(r"<img (?![^>]*\bloading=)")


def lazy_images(body):
    """Every image of a page body loads when it comes near the screen and
    decodes off the main thread (their space is reserved: ``posenc_a11y``).

    >>> lazy_images('<p><img alt="a" src="x.png" /></p>')
    '<p><img loading="lazy" decoding="async" alt="a" src="x.png" /></p>'
    """
    return _IMG.sub('<img loading="lazy" decoding="async" ', body)


def lazy_page(app, pagename, templatename, context, doctree):
    if "body" in context:
        context["body"] = lazy_images(context["body"])


# The theme's function that gives each box that scrolls sideways a tab stop
# (pydata-sphinx-theme 0.17, minified): it measures every box at once, then
# again 300 ms after any change to the page and on every resize (a phone
# resizes as its address bar hides). Left to static/posenc-site.js, which
# measures a box when it comes near the screen.
THEME_SCRIPT = Path("scripts", "pydata-sphinx-theme.js")
THEME_TAB_STOPS = ('window.addEventListener("resize",t),new MutationObserver(t).observe('
                   'document.getElementById("main-content"),{subtree:!0,childList:!0}),e()')
TAB_STOPS_LEFT = 'void"tab stops: posenc-site.js"'


def leave_tab_stops_to_the_book(app, exception):
    """The theme's script without its eager measuring (THEME_TAB_STOPS)."""
    if exception is not None or getattr(app.builder, "format", "") != "html":
        return
    path = Path(app.builder.outdir) / "_static" / THEME_SCRIPT
    if not path.is_file():
        return
    text = path.read_text(encoding="utf-8")
    if THEME_TAB_STOPS in text:
        path.write_text(text.replace(THEME_TAB_STOPS, TAB_STOPS_LEFT), encoding="utf-8")
    elif TAB_STOPS_LEFT not in text:
        raise RuntimeError(f"{THEME_SCRIPT}: the theme's tab-stop code has changed; see "
                           "THEME_TAB_STOPS in book/_ext/posenc_assets.py")


# --- one stylesheet for what every page loads -----------------------------------

BUNDLE = "posenc-styles.css"
# The stylesheets every page links, as the theme and the extensions name them
# under _static/ (a name, or the start of one): linked as one file, in the
# order the pages link them. Those of some pages only (math, widgets,
# sphinx-design) stay apart.
BUNDLED = ("styles/theme.css", "styles/pydata-sphinx-theme.css", "pygments.css",
           "styles/sphinx-book-theme.css", "togglebutton.css", "copybutton.css", "mystnb.",
           "exercise.css", "icons.css", "posenc-site.css", "posenc-previews.css")
_CSS_LINK = re.compile(r'[ \t]*<link (?=[^>]*rel="stylesheet")[^>]*href="(?P<prefix>[^"]*?)_static/'
                       r'(?P<file>[^"?]+)(?P<query>\?[^"]*)?"[^>]*>\n?')


def one_stylesheet(html, record):
    """The theme's <head> links with the stylesheets of BUNDLED replaced by one
    link to BUNDLE, where the first of them was (a Jinja filter). ``record``
    receives the files, in order, for :func:`write_bundle`.

    >>> one_stylesheet('<link rel="stylesheet" href="../_static/pygments.css?v=1" />\\n'
    ...                '<link rel="stylesheet" href="../_static/extra.css" />\\n', print)
    ['pygments.css']
    '<link rel="stylesheet" type="text/css" href="../_static/posenc-styles.css?v=24095dd8" />\\n<link rel="stylesheet" href="../_static/extra.css" />\\n'
    """
    found = []

    def replace(m):
        if not m["file"].startswith(BUNDLED):
            return m[0]
        found.append(m)
        return "\0" if len(found) == 1 else ""

    html = _CSS_LINK.sub(replace, str(html))
    if not found:
        return html
    record([m["file"] for m in found])
    version = hashlib.sha1(repr([(m["file"], m["query"]) for m in found]).encode()).hexdigest()[:8]
    link = (f'<link rel="stylesheet" type="text/css" href="{found[0]["prefix"]}_static/{BUNDLE}'
            f'?v={version}" />\n')
    return html.replace("\0", link)


def _inlined(static, name, seen=()):
    """The stylesheet ``_static/name`` with its @imports inlined and its url()s
    made relative to ``_static/``."""
    base = posixpath.dirname(name)
    text = re.sub(r"/\*# sourceMappingURL=[^*]*\*/", "", (static / name).read_text(encoding="utf-8"))
    imports = []

    def imported(m):  # set aside: an imported file's url()s are relative to it
        target = posixpath.normpath(posixpath.join(base, m["url"]))
        imports.append(_inlined(static, target, (*seen, name)) if target not in seen else "")
        return f"\0{len(imports) - 1}\0"

    def url(m):
        link = m["url"]
        if not base or link.startswith(("data:", "http:", "https:", "//", "#", "/")):
            return m[0]
        return f'url("{posixpath.normpath(posixpath.join(base, link))}")'

    text = re.sub(r"""@import\s+(?:url\()?["']?(?P<url>[^"')\s;]+)["']?\)?\s*;""", imported, text)
    text = re.sub(r"""url\(\s*["']?(?P<url>[^"')]+?)["']?\s*\)""", url, text)
    return re.sub(r"\0(\d+)\0", lambda m: imports[int(m[1])], text)


def write_bundle(app, exception):
    """_static/posenc-styles.css: the stylesheets of BUNDLED, in the pages' order."""
    files = getattr(app.builder, "_posenc_bundle", None)
    if exception is not None or not files:
        return
    try:  # as Sphinx loads it (book/_ext on the path), or as a package
        from posenc_icons import used_icon_names, without_unused_icons  # noqa: PLC0415
    except ImportError:
        from book._ext.posenc_icons import used_icon_names, without_unused_icons  # noqa: PLC0415

    static = Path(app.builder.outdir) / "_static"
    # The theme's 1,800 Font Awesome icon rules, of which the site draws 16
    # (the fonts hold only those, posenc_icons): 20 KB of the bundle's 85 KB
    # gzipped, on the path to every page's first paint.
    used = used_icon_names(app.builder.outdir)
    parts = [f"/* {BUNDLE}: the stylesheets every page of the book needs, in one file\n"
             "   (book/_ext/posenc_assets.py); each part is marked with its file; Font\n"
             "   Awesome icon rules only for the icons the site uses. */"]
    parts += [f"/* --- {name} --- */\n{without_unused_icons(_inlined(static, name), used)}"
              for name in files]
    (static / BUNDLE).write_text("\n".join(parts) + "\n", encoding="utf-8")


# --- the layout template's filters -------------------------------------------

_FONTAWESOME_JS = re.compile(r'\s*<script[^>]*src="[^"]*/fontawesome\.js[^"]*"[^>]*></script>')
_SEARCH_SCRIPTS = re.compile(
    r'\s*<script src="[^"]*(?:searchtools|language_data|searchindex)\.js"></script>')
_VIEWPORT = re.compile(r'\s*<meta name="viewport"[^>]*>')


def without_fontawesome_js(html):
    """The theme's <head> without its fontawesome.js <script> (a Jinja filter)."""
    return _FONTAWESOME_JS.sub("", str(html))


def without_search_scripts(html):
    """The theme's extra <head> without the search scripts (a Jinja filter)."""
    return _SEARCH_SCRIPTS.sub("", str(html))


def without_viewport(html):
    """HTML without its viewport <meta> tags (a Jinja filter): Sphinx's layout
    writes one, the theme two more; a page keeps Sphinx's."""
    return _VIEWPORT.sub("", str(html))


def add_templates(app, config):
    config.templates_path.insert(0, str(HERE / "templates"))
    config.html_static_path.append(str(HERE / "static"))


def add_jinja_filters(app):
    templates = getattr(app.builder, "templates", None)
    if templates is not None and hasattr(templates, "environment"):
        templates.environment.filters["posenc_without_fontawesome_js"] = without_fontawesome_js
        templates.environment.filters["posenc_without_viewport"] = without_viewport
        templates.environment.filters["posenc_one_stylesheet"] = lambda html: one_stylesheet(
            html, lambda files: setattr(app.builder, "_posenc_bundle", files))
        search_as_you_type = app.config.html_theme_options.get("search_as_you_type", False)
        templates.environment.filters["posenc_without_search_scripts"] = (
            (lambda html: html) if search_as_you_type else without_search_scripts)


def setup(app):
    app.connect("config-inited", add_templates)
    app.connect("builder-inited", add_jinja_filters)
    app.connect("html-page-context", tidy_assets, priority=900)
    app.connect("html-page-context", lazy_page, priority=850)
    app.connect("build-finished", leave_tab_stops_to_the_book)
    app.connect("build-finished", write_bundle, priority=700)  # after posenc_icons writes icons.css
    app.add_css_file("posenc-site.css")
    app.add_js_file("posenc-site.js")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
