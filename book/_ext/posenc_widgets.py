"""Interactive figures in the HTML book.

In a chapter's markdown cell::

    :::{admonition} Interactive figure (in the HTML book)
    :class: posenc-widget ladder

    The caption: what to try, and what to notice.
    :::

puts the figure ``ladder`` there, with its caption (the admonition's title
is for the other readers of the notebook). An admonition, because that is
what every other reader shows well: JupyterLab with jupyterlab-myst draws a
box that says where the figure is, Colab and plain Jupyter show its text,
and the student edition turns it into plain Markdown; a directive of the
book's own would show as an "unknown directive" there.
(``{posenc-widget} ladder``, a directive with the caption as content, does
the same in a page that only Sphinx reads.) The figure's numbers are
computed in the reader's browser from the formula the chapter states (plain
JavaScript, double precision) and drawn as SVG; sliders (``<input
type="range">``: keyboard, touch, a visible label, the value read aloud
through ``aria-valuetext``; the ``<output>`` that shows it is not a live
region) change its settings, and the figure's text alternative and summary
line follow them (the summary, a polite live region, once the reader has
stopped moving a slider, so that a screen reader reads it once).

The files
---------

``static/widgets/posenc-widgets.js`` is the core: numbers as text, the
plotting kit, the formulas several chapters share, the sliders and the
registry ``PosencWidgets``. Each chapter's figures live in a file of their
own, ``static/widgets/figures/<slug>.js`` (the chapter's slug: ``sines.js``
holds ladder, dots and clock); a page loads the core, its stylesheet and
the files of the figures it holds, nothing else. Which file holds which
figure is found by running them: each file registers its figures.

The figure is also drawn when the book is built: the same files run in an
embedded V8 (the pinned ``mini-racer``, as for the math), and the page holds
the finished SVG at the default settings. Print, ``make pdf`` and a reader
without JavaScript see that static figure, never an empty box; so does every
reader until the figure nears the screen, since the browser measures and
draws a figure for the column only then (an IntersectionObserver in the
core: the site's sections are ``content-visibility: auto``, and measuring a
figure in one that is not laid out would force its layout at load).

Adding a figure to a chapter
----------------------------

1. Write ``static/widgets/figures/<slug>.js`` (or add to it), after the
   pattern of ``sines.js``::

       (function (PW) {
         "use strict";
         const {Panel, fmt, stroke, svgDoc} = PW.kit;
         PW.register("name", {
           controls: [{name: "d", label: "d_model", values: [8, 16], value: 8}, ...],
           compute(params) { ... return {...params, numbers}; },
           draw(params, values, width) { ... return {svg, alt, summary}; },
         });
       })(globalThis.PosencWidgets);

   ``compute`` returns every number the figure draws, from the chapter's
   formula (or, where the browser cannot train, from the notebook's stored
   results: ``tools/widget_data.py`` stores chapter 4's trained tables in
   ``learned.js``, with the hash of the notebook's code); ``draw`` returns
   the SVG, the text alternative and the summary line, for any width from
   260 to 760 px. Text in the figure is typeset: −, ·, ×, ω, 10⁻⁵, not
   their ASCII stand-ins; labels inside a plot get the class ``pw-note``
   (a halo in the page's colour). Figure names are unique across the book.
2. Put the admonition above in the chapter, with a small nbformat script
   that adds that one markdown cell (so that it merges cleanly with the
   chapter owner's work). Write its caption for a reader who cannot move
   the sliders (print, the PDF, the notebook in Jupyter): it opens with "In
   the HTML book you can ...", which the live figure shows as "You can
   ..." (``_mark_lead``, and ``posenc-widgets.css``).
3. Write ``tests/book/widget_checks/<slug>.py`` (or add to it): a
   ``check_<name>(values)`` that recomputes the figure's numbers with
   ``posenc`` and compares them with ``assert_close`` (1e-12), listed in
   the module's ``CHECKS``. ``tests/book/test_widgets.py`` then requires
   the figure on the site, moves every slider of it (keyboard and set
   values, at least three moves each) and checks each move, a tap on a
   phone, light and dark contrast, print and the page without JavaScript.
4. ``python -m tools.bench_widgets`` reports the figure's weight and its
   redraw time.
"""

from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
WIDGETS = STATIC / "widgets"
SCRIPT = WIDGETS / "posenc-widgets.js"  # the core
STYLE = WIDGETS / "posenc-widgets.css"
FIGURES = WIDGETS / "figures"  # one file per chapter (or per figure)


class widget_figure(nodes.General, nodes.Element):
    """A ``<figure>`` holding the built markup of one interactive figure."""


class widget_caption(nodes.Part, nodes.TextElement):
    """The figure's ``<figcaption>``."""


class _Renderer:
    """The core and every figure file in an embedded V8: the static markup of a
    figure, and which file holds it."""

    def __init__(self):
        from py_mini_racer import MiniRacer

        self.ctx = MiniRacer()
        self.ctx.eval(SCRIPT.read_text(encoding="utf-8"))
        self.files = {}  # figure name -> its file
        for path in sorted(FIGURES.glob("*.js")):
            before = set(self.names())
            self.ctx.eval(path.read_text(encoding="utf-8"))
            for name in set(self.names()) - before:
                self.files[name] = path

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


def _new_figure(env, name, counts):
    """The figure node of widget ``name``, with a unique id on its page."""
    known = renderer().names()
    if name not in known:
        raise ValueError(f"unknown posenc-widget {name!r}; the figures are {', '.join(sorted(known))}")
    env.note_dependency(str(SCRIPT))
    env.note_dependency(str(renderer().files[name]))
    counts[name] = counts.get(name, 0) + 1
    figure_id = f"widget-{name}" + ("" if counts[name] == 1 else f"-{counts[name]}")
    return widget_figure(widget=name, ids=[figure_id], markup=renderer().markup(name, figure_id))


LEAD = "In the HTML book you can"


def _mark_lead(caption):
    """A caption that opens with "In the HTML book you can" (for print, the
    PDF and the notebook's other readers) keeps those words in a span that the
    live figure replaces with "You can" (posenc-widgets.css)."""
    paragraph = next(iter(caption.findall(nodes.paragraph)), None)
    if paragraph is None or not paragraph.children or not isinstance(paragraph[0], nodes.Text):
        return
    text = str(paragraph[0])
    if not text.startswith(LEAD):
        return
    lead = nodes.inline("", "", nodes.inline("", LEAD, classes=["pw-lead-static"]),
                        classes=["pw-lead"])
    paragraph.replace(paragraph[0], nodes.Text(text[len(LEAD):]))
    paragraph.insert(0, lead)


def admonitions_to_figures(app, doctree):
    """Each admonition of class ``posenc-widget NAME`` becomes figure NAME, its body the caption."""
    counts = app.env.temp_data.setdefault("posenc_widget_ids", {})
    for node in list(doctree.findall(nodes.admonition)):
        classes = node.get("classes", [])
        if "posenc-widget" not in classes:
            continue
        names = [c for c in classes if c != "posenc-widget"]
        if len(names) != 1:
            logger.warning(f"an admonition of class posenc-widget needs one more class, the "
                           f"figure's name; got {names}", location=node)
            continue
        try:
            figure = _new_figure(app.env, names[0], counts)
        except ValueError as error:
            logger.warning(str(error), location=node)
            continue
        caption = widget_caption()
        caption += [child for child in node.children if not isinstance(child, nodes.title)]
        _mark_lead(caption)
        figure += caption
        node.replace_self(figure)


class WidgetDirective(SphinxDirective):
    """``{posenc-widget} NAME``, with the caption as content."""

    required_arguments = 1
    has_content = True

    def run(self):
        name = self.arguments[0].strip()
        try:
            node = _new_figure(self.env, name, self.env.temp_data.setdefault("posenc_widget_ids", {}))
        except ValueError as error:
            raise self.error(str(error)) from None
        if self.content:
            caption = widget_caption()
            self.state.nested_parse(self.content, self.content_offset, caption)
            _mark_lead(caption)
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
    """The core, its stylesheet and the files of the page's figures, on the
    pages that hold a figure only (deferred, so they run in this order)."""
    if doctree is None:
        return
    names = [node["widget"] for node in doctree.findall(widget_figure)]
    if not names:
        return
    app.add_css_file("widgets/posenc-widgets.css")
    app.add_js_file("widgets/posenc-widgets.js", loading_method="defer")
    for path in sorted({renderer().files[name] for name in names}):
        app.add_js_file(f"widgets/figures/{path.name}", loading_method="defer")


def add_static_path(app):
    """static/ (whose widgets/ folder holds the figures' files) is a static path;
    posenc_assets adds it too, so only if it is not there yet."""
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
    app.connect("doctree-read", admonitions_to_figures)
    app.connect("builder-inited", add_static_path)
    app.connect("html-page-context", add_assets)
    app.connect("build-finished", close_renderer)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
