"""Icons: the theme's Font Awesome web fonts, cut down to the icons used.

The fonts the theme ships weigh 270 KB, for the twenty icons the book shows.
After the build, each font is cut down to the icons the pages name (fontTools,
already pinned as a matplotlib dependency), written to ``_static/icons/``,
and ``icons.css`` declares them after the theme's fonts, so the browser loads
only the small ones. (fontawesome.js, which would draw the same icons as
inline SVG, is left out of the pages by ``posenc_assets``.)
"""

from __future__ import annotations

import re
from pathlib import Path

STYLESHEET = "icons.css"
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


def used_icon_names(out):
    """The ``fa-*`` names that the built site at ``out`` uses: in its pages, and
    in the theme's scripts (icons they insert)."""
    used = set()
    for page in Path(out).rglob("*.html"):
        used |= set(re.findall(r"\b(fa-[\w-]+)", page.read_text(encoding="utf-8", errors="replace")))
    for script in (Path(out) / "_static" / "scripts").glob("*.js"):
        used |= set(re.findall(r"[\"' ](fa-[\w-]+)", script.read_text(encoding="utf-8", errors="replace")))
    return used


def without_unused_icons(css, used_names):
    """``css`` without the ``.fa-*`` rules of icons not in ``used_names``: their
    glyphs are not in the cut-down fonts, so those rules draw nothing.

    >>> without_unused_icons('.fa-sun:before{content:"f185"}.fa-cat:before{content:"f6be"}', {"fa-sun"})
    '.fa-sun:before{content:"f185"}'
    """
    def keep(m):
        return m[0] if set(re.findall(r"\.(fa-[\w-]+):", m[1])) & used_names else ""

    return _ICON_RULE.sub(keep, css)


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
    points = icon_codepoints(theme_css.read_text(encoding="utf-8"), used_icon_names(out))
    for css in static.rglob("*.css"):  # icons that stylesheets draw themselves
        points |= css_icon_codepoints(css.read_text(encoding="utf-8", errors="replace"))
    (static / "icons").mkdir(exist_ok=True)
    rules = ["/* Font Awesome (SIL OFL 1.1), cut down to the icons this book uses by\n"
             "   book/_ext/posenc_icons.py. Declared after the theme's own faces, so\n"
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
    (static / STYLESHEET).write_text("\n".join(rules) + "\n", encoding="utf-8")


def setup(app):
    app.connect("build-finished", subset_icon_fonts)
    app.add_css_file(STYLESHEET)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
