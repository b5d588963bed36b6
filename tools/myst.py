"""The book's MyST, read by myst-parser's own markdown-it parser (the one
Jupyter Book uses): directives and their options, fenced blocks as
character offsets, a role's ``title <target>`` form, glossary entries, and
the roles a plain edition must not show. Used by ``plain_myst`` (the plain
editions), ``glossary_links`` and ``teachers``.
"""

from __future__ import annotations

import functools
import pathlib
import textwrap

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
CODE_DIRECTIVES = ("code-block", "code", "sourcecode", "code-cell")
GATES = ("solution-start", "solution-end")  # the book's solution toggles, {solution-start} ... {solution-end}
CITES = ("cite", "cite:p", "cite:ps", "cite:cp", "cite:cps", "cite:t", "cite:ts", "cite:ct", "cite:cts")
LEFTOVER_ROLES = ("numref", "ref", "doc", "term", "eq", *CITES)


@functools.cache
def parser():
    """MyST's markdown-it parser, with the extensions of ``_config.yml``."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return create_md_parser(MdParserConfig(enable_extensions=set(config["parse"]["myst_enable_extensions"])),
                            RendererHTML)


def directive(token):
    """(name, argument) of a fenced directive token, or None (a code block, not a fence)."""
    info = token.info.strip() if token.type in ("fence", "colon_fence") else ""
    if not (info.startswith("{") and "}" in info):
        return None
    return info[1:info.index("}")], info[info.index("}") + 1:].strip()


def split_options(body):
    """(options, the rest) of a directive's body: its ``:key: value`` lines on top."""
    lines, options = body.split("\n"), {}
    while lines and lines[0].startswith(":"):
        key, colon, value = lines[0][1:].partition(":")
        if not colon or not key or not key.replace("-", "").replace("_", "").isalnum():
            break
        options[key] = value.strip()
        lines.pop(0)
    return options, "\n".join(lines)


def line_starts(text):
    """Where each line of ``text`` starts (markdown-it's ``map`` counts lines), and its end."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(min(starts[-1] + len(line) + 1, len(text)))
    return starts


def fences(text):
    """Every fenced block of ``text`` (code or directive, not those inside
    another), as character offsets: (start, end, body start, body end, name)
    with ``name`` the directive's, None for code."""
    starts = line_starts(text)
    found = []
    for t in parser().parse(text):
        if t.type in ("fence", "colon_fence"):
            a, b = t.map
            last = text[starts[b - 1]:starts[b]].strip()
            closed = b - a > 1 and last.startswith(t.markup) and not last.strip(t.markup[0])
            found.append((starts[a], starts[b], starts[a + 1] if b > a + 1 else starts[b],
                          starts[b - 1] if closed else starts[b], (directive(t) or (None,))[0]))
    return found


def directive_blocks(text):
    """Every fenced directive in ``text`` (nested ones included), in order:
    (name, argument, options, body)."""
    found = []
    for t in parser().parse(text):
        if directive(t):
            name, arg = directive(t)
            options, body = split_options(t.content)
            found.append((name, arg, options, body))
            if name not in CODE_DIRECTIVES + ("math",):
                found.extend(directive_blocks(body))
    return found


def _unescaped(source, what, start):
    """Where ``what`` first occurs in ``source`` from ``start``, not after a backslash."""
    pos = source.find(what, start)
    while pos > 0 and source[pos - 1] == "\\":
        pos = source.find(what, pos + 1)
    if pos < 0:
        raise ValueError(f"cannot find {what!r} in the markdown {source[start:start + 80]!r}")
    return pos


def inline_spans(source, children, cursor=0):
    """Where the roles and the links to targets (``[text](#label)``) that the
    inline tokens ``children`` hold are in ``source``, from ``cursor`` on:
    ([(start, end, token, inner)], where the last one ends). For a link,
    ``inner`` is (where its text starts, where it ends, its own spans)."""
    found, i = [], 0
    while i < len(children):
        c = children[i]
        if c.type == "myst_role":
            start = _unescaped(source, "{" + c.meta["name"] + "}`", cursor)
            opening = start + len(c.meta["name"]) + 2  # the first backtick
            ticks = len(source[opening:]) - len(source[opening:].lstrip("`"))
            cursor = source.index("`" * ticks, opening + ticks + len(c.content)) + ticks
            found.append((start, cursor, c, None))
        elif c.type in ("code_inline", "math_inline", "math_inline_double"):
            start = _unescaped(source, c.markup, cursor)  # then the content, at least as long
            cursor = source.index(c.markup, start + len(c.markup) + len(c.content)) + len(c.markup)
        elif c.type == "link_open" and c.attrs.get("href", "").startswith("#"):
            start, depth, j = _unescaped(source, "[", cursor), 1, i
            while depth:
                j += 1
                depth += {"link_open": 1, "link_close": -1}.get(children[j].type, 0)
            inner, middle = inline_spans(source, children[i + 1:j], start + 1)
            middle = _unescaped(source, "](", middle)
            cursor = source.index(")", middle) + 1
            found.append((start, cursor, c, (start + 1, middle, inner)))
            i = j
        i += 1
    return found, cursor


def spans(text):
    """What a plain edition of the markdown ``text`` may replace, in order:
    (start, end, token, inner) for each target line, comment line, labelled
    equation and directive (whole lines), and each role and link to a
    target (:func:`inline_spans`)."""
    starts, found, cursor = line_starts(text), [], 0
    for t in parser().parse(text):
        if t.map is None:
            continue
        a, b = starts[t.map[0]], starts[t.map[1]]
        if t.type in ("myst_target", "myst_line_comment", "math_block_label") or directive(t):
            found.append((a, b, t, None))
        if t.type == "inline":
            inline, cursor = inline_spans(text, t.children or [], max(cursor, a))
            found += inline
        elif t.nesting == 0:  # a block of its own (a fence, a rule): nothing to find in it
            cursor = max(cursor, b)
    return found


def explicit(content):
    """(title, target) of a role's ``title <target>`` form; (None, content) otherwise."""
    content = content.strip()
    if content.endswith(">") and "<" in content[:-1]:
        cut = content.rindex("<")
        return content[:cut].rstrip(), content[cut + 1:-1]
    return None, content


def glossary_entries(body):
    """The entries of a glossary directive's body: [(term lines, definition)].

    Sphinx's form: one or more term lines, then the definition indented
    below them; entries may be separated by blank lines.
    """
    entries, terms, definition = [], [], []
    for line in body.split("\n"):
        if not line.strip():
            if definition:
                definition.append("")
            continue
        if line[0] in " \t":
            definition.append(line)
            continue
        if line.startswith(":") and not entries and not terms:
            continue  # an option of the directive, such as :sorted:
        if definition:
            entries.append((terms, textwrap.dedent("\n".join(definition)).strip("\n")))
            terms, definition = [], []
        terms.append(line.strip())
    if terms:
        entries.append((terms, textwrap.dedent("\n".join(definition)).strip("\n")))
    return entries


def term_key(term):
    """The name Sphinx files a glossary term under: its text, lower case
    (a math term such as ``$d_k$`` is filed as ``d_k``)."""
    return term.replace("$", "").lower()


def leftover_roles(text):
    """The MyST roles a plain edition must not show, found in the markdown
    ``text`` (outside code, where a role is shown as written on purpose)."""
    found = []
    for t in parser().parse(text):
        if directive(t) and directive(t)[0] not in CODE_DIRECTIVES + ("math",):
            found += leftover_roles(split_options(t.content)[1])
        found += [f"{{{c.meta['name']}}}`{c.content}`" for c in t.children or []
                  if c.type == "myst_role" and c.meta["name"] in LEFTOVER_ROLES]
    return found


def apply_edits(text, edits):
    """``text`` with each (start, end, replacement) of ``edits`` made."""
    out, pos = [], 0
    for start, end, new in sorted(edits):
        out += [text[pos:start], new]
        pos = end
    return "".join(out) + text[pos:]


def is_gate(cell):
    """A markdown cell that holds only a {solution-start} or {solution-end} directive."""
    if cell.cell_type != "markdown":
        return False
    blocks = [t for t in parser().parse(cell.source.strip() + "\n") if t.level == 0 and t.nesting != -1]
    return len(blocks) == 1 and (directive(blocks[0]) or ("",))[0] in GATES
