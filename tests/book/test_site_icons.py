"""The icon fonts, cut down to the icons the pages use (``book/_ext/posenc_icons.py``)."""

from __future__ import annotations

import re

from tests.book.sitecheck import site, site_pages
from book._ext import posenc_icons


def test_icon_fonts_hold_every_icon_the_pages_name_and_little_else(site):
    """Each icon a page names (``fa-github``, ``fa-magnifying-glass``, ...) has
    its glyph in one of the cut-down fonts that ``icons.css`` declares, and
    those fonts are a small part of the theme's (270 KB of woff2)."""
    from fontTools.ttLib import TTFont

    static = site / "_static"
    css = (static / posenc_icons.STYLESHEET).read_text(encoding="utf-8")
    fonts = re.findall(r"url\((icons/[\w-]+\.woff)\)", css)
    assert len(fonts) == len(posenc_icons.ICON_FONTS), css
    glyphs, size = set(), 0
    for font in fonts:
        path = static / font
        size += path.stat().st_size
        glyphs |= set(TTFont(str(path)).getBestCmap())
    used = set()
    for page in site_pages(site):
        used |= set(re.findall(r"\b(fa-[\w-]+)", page.read_text(encoding="utf-8")))
    theme_css = (static / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf-8")
    wanted = posenc_icons.icon_codepoints(theme_css, used)
    assert len(wanted) >= 5, f"the pages name too few icons to check: {sorted(used)}"
    missing = sorted(hex(p) for p in wanted - glyphs)
    assert not missing, f"icons the pages name but the cut-down fonts lack: {missing}"
    assert size < 20_000, f"the cut-down icon fonts weigh {size} bytes"


def test_icon_code_points_come_from_the_rules_of_the_names_used():
    css = ('.fa-github:before{content:"\\f09b"}.fa-a:before,.fa-b:before{content:"\\f0eb"}'
           '.fa-unused:before{content:"\\f111"}')
    assert posenc_icons.icon_codepoints(css, {"fa-github", "fa-b"}) == {0xF09B, 0xF0EB}
    assert posenc_icons.css_icon_codepoints(css + ' :root{--pst-icon-x: "\\f05a"}') == {0xF05A}
