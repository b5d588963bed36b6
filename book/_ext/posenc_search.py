"""Search results with excerpts, from file:// as over http, without raw TeX.

Sphinx's search page builds each result's excerpt by fetching the result's
page. Opened from ``file://`` (``_build/html/index.html``), the browser
refuses those requests (CORS errors in the console) and the results are bare
titles; over http the excerpts come from the page's text, where a formula is
still its TeX source (``\\sqrt{d_{model}}``).

After the build this module writes ``_static/search-texts.js``: for each page,
its sections (ids kept, so an excerpt comes from the matching section) as
plain text, with code left out and every formula as readable text
(``√d_model``). Only the search page loads it, and ``static/posenc-site.js``
answers the search page's requests for pages from it. Section titles in the
search index get the same treatment.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes

TEXTS = "search-texts.js"

_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
    "varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ",
    "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
    "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ",
    "Psi": "Ψ", "Omega": "Ω", "cdot": "·", "cdots": "⋯", "ldots": "…",
    "dots": "…", "times": "×", "div": "÷", "pm": "±", "mp": "∓", "approx": "≈",
    "sim": "~", "simeq": "≃", "equiv": "≡", "neq": "≠", "ne": "≠", "le": "≤",
    "leq": "≤", "ge": "≥", "geq": "≥", "ll": "≪", "gg": "≫", "infty": "∞",
    "in": "∈", "notin": "∉", "subset": "⊂", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "mapsto": "↦", "Rightarrow": "⇒", "iff": "⇔",
    "sum": "Σ", "prod": "Π", "int": "∫", "partial": "∂", "nabla": "∇",
    "top": "ᵀ", "intercal": "ᵀ", "circ": "∘", "odot": "⊙", "otimes": "⊗",
    "oplus": "⊕", "lVert": "‖", "rVert": "‖", "Vert": "‖", "lvert": "|",
    "rvert": "|", "vert": "|", "mid": "|", "langle": "⟨", "rangle": "⟩",
    "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "log": "log",
    "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan",
    "max": "max", "min": "min", "arg": "arg", "lim": "lim", "det": "det",
    "quad": " ", "qquad": " ", "": "",
}
_SPACES = re.compile(r"\\[,;:! ]|~")
_WRAPPERS = re.compile(
    r"\\(?:mathrm|text|textrm|textit|textbf|mathbf|mathit|mathsf|mathtt|"
    r"boldsymbol|bm|operatorname|mathcal|mathbb|underbrace|overbrace|"
    r"underline|overline|widehat|hat|bar|tilde|vec|dot)\s*\{([^{}]*)\}")


def tex_to_text(tex):
    """A formula as a reader would say it in plain text: ``\\sqrt{d_{model}}`` -> ``√d_model``.

    >>> tex_to_text(r"\\mathrm{PE}(pos, 2i) = \\sin(pos\\,\\omega_i)")
    'PE(pos, 2i) = sin(pos ω_i)'
    >>> tex_to_text(r"\\frac{pos}{10000^{2i/d_{model}}}")
    'pos/10000^(2i/d_model)'
    """
    text = _SPACES.sub(" ", tex)
    text = re.sub(r"\\(?:left|right|big|Big|bigg|Bigg)[lr]?\s*(\\?[()\[\]{}|.]|\\[lr]?[vV]ert)",
                  lambda m: "" if m.group(1) == "." else m.group(1), text)
    text = re.sub(r"\\begin\{[^}]*\}|\\end\{[^}]*\}", " ", text)
    text = text.replace("&", " ").replace("\\\\", "; ")
    for _ in range(6):  # innermost braces first
        before = text
        text = _WRAPPERS.sub(r"\1", text)
        text = re.sub(r"\\d?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}",
                      lambda m: f"{_group(m.group(1))}/{_group(m.group(2))}", text)
        text = re.sub(r"\\sqrt\s*\{([^{}]*)\}", lambda m: "√" + _group(m.group(1)), text)
        text = re.sub(r"([_^])\{([^{}]*)\}",
                      lambda m: m.group(1) + _group(m.group(2)), text)
        if text == before:
            break
    text = re.sub(r"\\([A-Za-z]+)", lambda m: _SYMBOLS.get(m.group(1), m.group(1)), text)
    text = text.replace("\\{", "{").replace("\\}", "}").replace("\\%", "%").replace("\\", "")
    text = text.replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", text).strip()


def _group(part):
    """``part`` bracketed unless it is one term: a name, a number, or a power of one."""
    part = part.strip()
    one_term = r"[\w.√]+(\^(\w+|\([^()]*\)))?"
    return part if re.fullmatch(one_term, part) else f"({part})"


def plain_text(node):
    """The text of a node as a reader sees it: formulas readable, code left out."""
    if isinstance(node, (nodes.math, nodes.math_block)):
        return " " + tex_to_text(node.astext()) + " "
    if isinstance(node, (nodes.literal_block, nodes.raw, nodes.comment, nodes.system_message,
                         nodes.image)):
        return " "
    if isinstance(node, nodes.container) and "cell_output" in node.get("classes", []):
        return " "
    if isinstance(node, nodes.Text):
        return str(node)
    sep = "" if isinstance(node, nodes.Inline) and not isinstance(
        node, addnodes.desc_parameter) else " "
    return sep + "".join(plain_text(child) for child in node.children) + sep


def _children_html(children):
    """Sections as ``<section id=...>`` elements, anything else as escaped text."""
    return " ".join(_section_html(child) if isinstance(child, nodes.section)
                    else html.escape(re.sub(r"\s+", " ", plain_text(child)))
                    for child in children)


def _section_html(section):
    ident = (section.get("ids") or [""])[0]
    return f'<section id="{html.escape(ident)}">' + _children_html(section.children) + "</section>"


def page_html(doctree):
    """A page's text for excerpts: ``<div role="main">`` and its sections, with ids."""
    return '<div role="main">' + _children_html(doctree.children) + "</div>"


def readable_titles(env):
    """Raw title text (TeX included) -> readable text, for titles holding math."""
    titles = {}
    for docname in sorted(env.found_docs):
        for title in env.get_doctree(docname).findall(nodes.title):
            if any(True for _ in title.findall(nodes.math)):
                readable = re.sub(r"\s+", " ", plain_text(title)).strip()
                titles[title.astext()] = readable
    return titles


def write_search_texts(app, exception):
    builder = app.builder
    if exception is not None or getattr(builder, "name", "") != "html":
        return
    env = app.env
    out = Path(builder.outdir)
    texts = {docname: page_html(env.get_doctree(docname)) for docname in sorted(env.found_docs)}
    (out / "_static" / TEXTS).write_text(
        "// Written by book/_ext/posenc_search.py: each page's text, for the excerpts\n"
        "// under search results (see static/posenc-site.js).\n"
        f"window.POSENC_SEARCH_TEXTS = {json.dumps(texts, ensure_ascii=False)};\n",
        encoding="utf-8")
    index = out / "searchindex.js"
    if index.is_file():
        source = index.read_text(encoding="utf-8")
        prefix, suffix = "Search.setIndex(", ")"
        if source.startswith(prefix) and source.rstrip().endswith(suffix):
            data = json.loads(source[len(prefix):source.rstrip().rindex(suffix)])
            titles = readable_titles(env)
            data["alltitles"] = {titles.get(k, k): v for k, v in data.get("alltitles", {}).items()}
            for i, title in enumerate(data.get("titles", [])):
                for raw, readable in titles.items():
                    title = title.replace(html.escape(raw, quote=False), readable)
                data["titles"][i] = title
            index.write_text(prefix + json.dumps(data, separators=(",", ":")) + suffix,
                             encoding="utf-8")


def load_texts_on_search_page(app, pagename, templatename, context, doctree):
    if pagename == "search":
        app.add_js_file(TEXTS)


def setup(app):
    app.connect("html-page-context", load_texts_on_search_page)
    app.connect("build-finished", write_search_texts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
