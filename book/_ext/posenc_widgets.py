"""Interactive figures in the HTML book: the ``posenc-widget`` directive.

In a chapter's markdown cell::

    ```{posenc-widget} ladder
    The caption: what to try, and what to notice.
    ```

puts the figure ``ladder`` of ``static/widgets/posenc-widgets.js`` there,
with its caption. The figure's numbers are computed in the reader's browser
from the formula the chapter states (plain JavaScript, double precision) and
drawn as SVG; sliders (``<input type="range">``: keyboard, touch, a visible
label, the value read aloud through ``aria-valuetext``) change its settings,
and the figure's text alternative and summary line follow them.

The figure is also drawn when the book is built: the same JavaScript file
runs in an embedded V8 (the pinned ``mini-racer``, as for the math), and the
page holds the finished SVG at the default settings. Print, ``make pdf`` and
a reader without JavaScript see that static figure, never an empty box. The
script and its stylesheet (about 40 KB together, no library) are loaded only
by pages that hold a figure.

``tests/book/test_widgets.py`` drives every slider in headless Chromium and
compares the numbers each figure drew (``PosencWidgets.values(figure)``)
with ``posenc``'s to 1e-12.
"""

from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
SCRIPT = STATIC / "widgets" / "posenc-widgets.js"
STYLE = STATIC / "widgets" / "posenc-widgets.css"


class widget_figure(nodes.General, nodes.Element):
    """A ``<figure>`` holding the built markup of one interactive figure."""


class widget_caption(nodes.Part, nodes.TextElement):
    """The figure's ``<figcaption>``."""


class _Renderer:
    """posenc-widgets.js in an embedded V8: the static markup of a figure."""

    def __init__(self):
        from py_mini_racer import MiniRacer

        self.ctx = MiniRacer()
        self.ctx.eval(SCRIPT.read_text(encoding="utf-8"))

    def names(self):
        return json.loads(self.ctx.eval("JSON.stringify(Object.keys(PosencWidgets.widgets))"))

    def markup(self, name, figure_id):
        return self.ctx.eval(f"PosencWidgets.markup({json.dumps(name)}, {json.dumps(figure_id)})")

    def close(self):
        self.ctx.close()


_RENDERER = None


def renderer():
    global _RENDERER
    if _RENDERER is None:
        _RENDERER = _Renderer()
    return _RENDERER


def close_renderer(app=None, exception=None):
    """Free the V8 engine (a Python process holding one can hang on exit)."""
    global _RENDERER
    if _RENDERER is not None:
        _RENDERER.close()
        _RENDERER = None


class WidgetDirective(SphinxDirective):
    """``{posenc-widget} NAME``, with the caption as content."""

    required_arguments = 1
    has_content = True

    def run(self):
        name = self.arguments[0].strip()
        known = renderer().names()
        if name not in known:
            raise self.error(f"unknown posenc-widget {name!r}; the figures are {', '.join(known)}")
        self.env.note_dependency(str(SCRIPT))
        count = self.env.temp_data.setdefault("posenc_widget_ids", {})
        count[name] = count.get(name, 0) + 1
        figure_id = f"widget-{name}" + ("" if count[name] == 1 else f"-{count[name]}")
        node = widget_figure(widget=name, ids=[figure_id],
                             markup=renderer().markup(name, figure_id))
        if self.content:
            caption = widget_caption()
            self.state.nested_parse(self.content, self.content_offset, caption)
            node += caption
        return [node]


def visit_widget_figure(self, node):
    self.body.append(f'<figure class="posenc-widget" id="{node["ids"][0]}" '
                     f'data-widget="{node["widget"]}">{node["markup"]}')


def depart_widget_figure(self, node):
    self.body.append("</figure>\n")


def visit_widget_caption(self, node):
    self.body.append("<figcaption>")


def depart_widget_caption(self, node):
    self.body.append("</figcaption>")


def skip(self, node):
    raise nodes.SkipNode


def add_assets(app, pagename, templatename, context, doctree):
    """The script and its stylesheet, on the pages that hold a figure only."""
    if doctree is not None and any(doctree.findall(widget_figure)):
        app.add_css_file("widgets/posenc-widgets.css")
        app.add_js_file("widgets/posenc-widgets.js", loading_method="defer")


def add_static_path(app):
    """static/ (whose widgets/ folder holds the figures' files) is a static path;
    posenc_site adds it too, so only if it is not there yet."""
    paths = [Path(app.confdir, p).resolve() for p in app.config.html_static_path]
    if STATIC not in paths:
        app.config.html_static_path.append(str(STATIC))


def setup(app):
    # html and singlehtml (the page `make pdf` prints) draw the figure; other
    # builders leave it out
    figure = (visit_widget_figure, depart_widget_figure)
    caption = (visit_widget_caption, depart_widget_caption)
    others = {name: (skip, None) for name in ("latex", "text", "man", "texinfo")}
    app.add_node(widget_figure, html=figure, singlehtml=figure, dirhtml=figure, **others)
    app.add_node(widget_caption, html=caption, singlehtml=caption, dirhtml=caption, **others)
    app.add_directive("posenc-widget", WidgetDirective)
    app.connect("builder-inited", add_static_path)
    app.connect("html-page-context", add_assets)
    app.connect("build-finished", close_renderer)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
