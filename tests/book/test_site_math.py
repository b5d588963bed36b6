"""Math typeset when the book is built (``book/_ext/posenc_math.py``)."""

from __future__ import annotations

import re

import pytest

from tests.book.sitecheck import page_loads, site, site_pages


def test_math_is_typeset_when_the_book_is_built(site):
    """Every formula is MathJax output in the HTML; no page loads MathJax itself.

    Pages with math link the math stylesheet (and the fonts it names exist);
    pages without math load nothing for it.
    """
    css = site / "_static" / "posenc-math.css"
    assert css.is_file(), "the math stylesheet _static/posenc-math.css was not written"
    fonts = re.findall(r"url\(\s*[\"']?([^\"')]+\.woff)", css.read_text(encoding="utf-8"))
    assert fonts, "the math stylesheet names no fonts"
    for font in fonts:
        assert (css.parent / font.strip("'\"")).is_file(), f"math font {font} is missing"
    math_pages = 0
    for page in site_pages(site):
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(site).as_posix()
        loads = [url for _, url in page_loads(page)]
        assert not [u for u in loads if "mathjax" in u.lower() and u.endswith(".js")], (
            f"{name} loads MathJax to typeset in the browser")
        formulas = re.findall(r'<(?:span|div) class="math notranslate nohighlight"[^>]*>(.{0,40})',
                              text, re.S)
        if formulas:
            math_pages += 1
            untypeset = [f for f in formulas if not f.lstrip().startswith(("<mjx-container",
                                                                            "<span class=\"eqno"))]
            assert not untypeset, f"{name}: formulas left as TeX: {untypeset[:3]}"
            assert "mjx-merror" not in text, f"{name}: MathJax could not typeset a formula"
        links_css = any(u.split("?")[0].endswith("posenc-math.css") for u in loads)
        assert links_css == bool(formulas), (
            f"{name}: {'has math but does not link' if formulas else 'has no math but links'}"
            " the math stylesheet")
    assert math_pages, "no page of the book has math (the notation page should)"


def test_the_math_renderer_refuses_bad_tex():
    """TeX that MathJax cannot read is an error (a build warning), not red text."""
    from book._ext import posenc_math

    mathjax = posenc_math.MathJax()
    try:
        assert "<mjx-container" in mathjax.render(r"\sqrt{d_{model}}", display=False)
        with pytest.raises(ValueError, match="nosuchmacro"):
            mathjax.render(r"\nosuchmacro x", display=False)
        with pytest.raises(ValueError, match="frac"):
            mathjax.render(r"\frac{1}", display=True)
    finally:
        mathjax.close()
