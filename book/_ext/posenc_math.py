"""Math typeset when the book is built, not in the reader's browser.

Sphinx normally writes each formula as TeX and lets MathJax typeset it in
the browser. That costs every page with math 1.2 MB of JavaScript and, on a
slow phone, seconds during which the reader sees raw ``\\(\\sqrt{d_{model}}\\)``.
Here the same MathJax (version 3, the copy that the pinned
``sphinx-mathjax-offline`` package ships) runs once, at build time, inside
an embedded V8 engine (the pinned ``mini-racer`` package, a Python wheel: no
Node.js, nothing downloaded), and the pages get MathJax's CommonHTML output
as HTML. A page with math then loads one small stylesheet
(``_static/posenc-math.css``) and the MathJax web fonts its formulas use;
a page without math loads nothing for math, and no page runs any script for
it. Each formula also carries MathJax's hidden MathML copy
(``<mjx-assistive-mml>``), which screen readers read.

TeX that MathJax cannot read (a typo, an undefined macro) is a build
warning naming the page and the formula, so the strict build fails on it
instead of showing red text to readers.
"""

from __future__ import annotations

import html
import importlib
import json
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.builders.singlehtml import SingleFileHTMLBuilder
from sphinx.locale import _
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

logger = logging.getLogger(__name__)

RENDERER = "posenc_mathjax"
STYLESHEET = "posenc-math.css"
FONT_DIR = "mathjax-fonts"  # under _static, next to the stylesheet
# MathJax components evaluated at start-up, in the order the loader asks.
COMPONENTS = ["core", "adaptors/liteDOM", "input/tex-full", "output/chtml",
              "output/chtml/fonts/tex", "a11y/assistive-mml"]


def mathjax_dir():
    """MathJax 3's es5 components, as shipped by the pinned sphinx-mathjax-offline."""
    package = importlib.import_module("sphinx-mathjax-offline")
    return Path(package.__file__).resolve().parent / "static" / "mathjax"


class MathJax:
    """MathJax 3 in an embedded V8: TeX in, CommonHTML out.

    >>> mj = MathJax()
    >>> "<mjx-container" in mj.render(r"\\sqrt{d_{model}}", display=False)
    True
    """

    def __init__(self, root=None):
        from py_mini_racer import MiniRacer

        root = Path(root or mathjax_dir())
        self.ctx = MiniRacer()
        sources = {name: (root / f"{name}.js").read_text(encoding="utf-8") for name in COMPONENTS}
        self.ctx.eval(
            "globalThis.__src = %s;"
            # MathJax's loader asks for each component by URL; evaluate the
            # source read above instead of fetching a file.
            "globalThis.__require = (url) => {"
            "  const name = url.replace(/^MJ\\//, '').replace(/\\.js$/, '');"
            "  if (!(name in __src)) throw new Error('MathJax component not available: ' + name);"
            "  (0, eval)(__src[name]);"
            "};" % json.dumps(sources)
        )
        config = {
            "loader": {"paths": {"mathjax": "MJ"},
                       "load": ["adaptors/liteDOM", "input/tex-full", "output/chtml",
                                "a11y/assistive-mml"]},
            # Every TeX package, except the two that hide errors: an
            # undefined macro or a syntax error must fail the build.
            "tex": {"packages": {"[-]": ["noerrors", "noundefined"]}},
            # In a browser MathJax scales formulas to the x-height of the
            # surrounding font; here nothing can be measured, so use the
            # factor it finds for the theme's sans-serif fonts.
            "chtml": {"fontURL": FONT_DIR, "adaptiveCSS": True, "scale": 1.15,
                      "matchFontHeight": False},
            "startup": {"typeset": False},
        }
        self.ctx.eval(
            "globalThis.MathJax = %s;"
            "MathJax.loader.require = __require;"
            "MathJax.tex.formatError = (jax, err) => {"
            "  throw new Error(err.message || String(err)); };" % json.dumps(config)
        )
        self.ctx.eval((root / "startup.js").read_text(encoding="utf-8"))
        self.ctx.eval("MathJax.startup.promise")  # settle start-up
        ready = self.ctx.eval("typeof MathJax.tex2chtml === 'function'")
        if not ready:
            raise RuntimeError("MathJax did not start in the embedded V8 engine")

    def render(self, tex, *, display):
        """CommonHTML of one formula; ValueError with MathJax's message on bad TeX."""
        from py_mini_racer import JSEvalException

        call = ("(() => { const node = MathJax.tex2chtml(%s, {display: %s});"
                " return MathJax.startup.adaptor.outerHTML(node); })()"
                % (json.dumps(tex), "true" if display else "false"))
        try:
            out = self.ctx.eval(call)
        except JSEvalException as error:
            lines = [m.strip() for m in str(error).splitlines() if m.strip()]
            message = re.sub(r"^undefined:\d+: (Error: )?", "", lines[0] if lines else "")
            raise ValueError(message or "MathJax error") from None
        if "<mjx-merror" in out:
            found = re.search(r'data-mjx-error="([^"]*)"', out)
            raise ValueError(html.unescape(found.group(1)) if found else "MathJax error")
        return out

    def stylesheet(self):
        """The CSS for every character typeset so far (MathJax's adaptive CSS)."""
        return self.ctx.eval(
            "MathJax.startup.adaptor.textContent(MathJax.chtmlStylesheet())")

    def close(self):
        """Free the V8 engine (a Python process holding one can hang on exit)."""
        if self.ctx is not None:
            self.ctx.close()
            self.ctx = None


def _mathjax(builder):
    if getattr(builder, "_posenc_mathjax", None) is None:
        builder._posenc_mathjax = MathJax()
        builder._posenc_math_pages = set()
    return builder._posenc_mathjax


def _render(translator, node, tex, display):
    try:
        return _mathjax(translator.builder).render(tex, display=display)
    except ValueError as error:
        logger.warning("math: MathJax cannot typeset %r: %s", tex, error, location=node)
        return f'<span class="math-error">{html.escape(tex)}</span>'


def _inside(node, kind):
    """True if ``node`` is inside a node of class ``kind`` (a title, a reference...)."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, kind):
            return True
        parent = parent.parent
    return False


def visit_math(self, node):
    extra = {}
    if _inside(node, nodes.title):
        # A heading's formula as plain text ("\\sqrt{d_{model}}" -> "√d_model"),
        # for what shows a heading without its typesetting: the PDF's
        # bookmarks (tools/make_pdf.py).
        from posenc_search import tex_to_text  # noqa: PLC0415  (book/_ext)

        extra["data-text"] = tex_to_text(node.astext())
    if _inside(node, nodes.reference):
        # A link whose text is a formula (a glossary term such as d_k) needs a
        # name that assistive technology reads out: the formula as plain text.
        from posenc_search import tex_to_text  # noqa: PLC0415  (book/_ext)

        extra["role"] = "img"
        extra["aria-label"] = tex_to_text(node.astext())
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate nohighlight",
                                   **extra))
    self.body.append(_render(self, node, node.astext(), display=False))
    self.body.append("</span>")
    raise nodes.SkipNode


def display_tex(node):
    """The TeX that sphinx.ext.mathjax would hand MathJax for a math_block."""
    if node["nowrap"]:
        return node.astext()
    parts = [part for part in node.astext().split("\n\n") if part.strip()]
    body = [rf"\begin{{split}}{p}\end{{split}}" if r"\\" in p else p for p in parts]
    tex = r"\\".join(body)
    if len(parts) > 1:
        tex = r"\begin{align}\begin{aligned}" + tex + r"\end{aligned}\end{align}"
    return tex


def visit_displaymath(self, node):
    """As sphinx.ext.mathjax writes display math, typeset instead of TeX."""
    self.body.append(self.starttag(node, "div", CLASS="math notranslate nohighlight"))
    if not node["nowrap"] and node["number"]:
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    self.body.append(_render(self, node, display_tex(node), display=True))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def use_renderer(app, config):
    config.html_math_renderer = RENDERER


def link_stylesheet(app, pagename, templatename, context, doctree):
    """Pages that show math (and only those) link the math stylesheet."""
    if "<mjx-container" in context.get("body", ""):
        app.add_css_file(STYLESHEET)
    if getattr(app.builder, "_posenc_mathjax", None) is not None:
        app.builder._posenc_math_pages.add(pagename)


def _typeset_unwritten_pages(app, mathjax):
    """An incremental build leaves unchanged pages as they were: typeset their
    math too, so that the stylesheet covers every character they show. The
    single-page build (``make pdf``) writes every page into one, its root:
    nothing is left unwritten, and typesetting the whole book a second time
    would only cost time."""
    if isinstance(app.builder, SingleFileHTMLBuilder):
        return
    for docname in sorted(app.env.found_docs - mathjax_pages(app.builder)):
        doctree = app.env.get_doctree(docname)
        for node in doctree.findall(nodes.math):
            try:
                mathjax.render(node.astext(), display=False)
            except ValueError:
                pass  # reported when that page was written
        for node in doctree.findall(nodes.math_block):
            try:
                mathjax.render(display_tex(node), display=True)
            except ValueError:
                pass


def mathjax_pages(builder):
    return getattr(builder, "_posenc_math_pages", set())


def write_stylesheet(app, exception):
    """_static/posenc-math.css and the MathJax fonts it names; then free V8."""
    builder = app.builder
    if getattr(builder, "format", "") != "html":
        return
    try:
        if exception is None:
            mathjax = _mathjax(builder)
            _typeset_unwritten_pages(app, mathjax)
            static = Path(builder.outdir) / "_static"
            # Text shows at once in a fallback font while its MathJax font
            # loads (by default a slow phone hid it for up to 3 s).
            css = re.sub(r"(@font-face[^{]*\{)", r"\1\n  font-display: swap;", mathjax.stylesheet())
            (static / STYLESHEET).write_text(css, encoding="utf-8")
            fonts = static / FONT_DIR
            fonts.mkdir(parents=True, exist_ok=True)
            source = mathjax_dir() / "output" / "chtml" / "fonts" / "woff-v2"
            for name in sorted(set(re.findall(rf"{FONT_DIR}/([\w.-]+\.woff)", css))):
                shutil.copyfile(source / name, fonts / name)
    finally:
        if getattr(builder, "_posenc_mathjax", None) is not None:
            builder._posenc_mathjax.close()
            builder._posenc_mathjax = None


def setup(app):
    app.add_html_math_renderer(RENDERER, (visit_math, None), (visit_displaymath, None))
    app.connect("config-inited", use_renderer)
    app.connect("html-page-context", link_stylesheet)
    app.connect("build-finished", write_stylesheet)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
