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
5. The book's own stylesheet and script, ``static/posenc-site.css`` and
   ``.js``: display math that scrolls inside its own box on a narrow screen
   (the script lets the keyboard reach the ones that do scroll, the
   stylesheet draws a cue), solution toggles named after their solution,
   a tap anywhere on a toggle's title, the phone drawers' focus, search
   excerpts from file://, and the print stylesheet (code wraps instead of
   being cut off, a code cell is never split from its box, solutions are
   printed open, no buttons).
"""

from __future__ import annotations

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
        search_as_you_type = app.config.html_theme_options.get("search_as_you_type", False)
        templates.environment.filters["posenc_without_search_scripts"] = (
            (lambda html: html) if search_as_you_type else without_search_scripts)


def setup(app):
    app.connect("config-inited", add_templates)
    app.connect("builder-inited", add_jinja_filters)
    app.connect("html-page-context", tidy_assets, priority=900)
    app.add_css_file("posenc-site.css")
    app.add_js_file("posenc-site.js")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
