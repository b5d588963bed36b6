"""Small fixes to the HTML pages of the book, loaded from _config.yml.

1. Sphinx 7.4 writes an inline script twice when an extension adds it after
   the builder has started (its filename is ``None`` the first time and
   ``""`` the second, so the two copies do not compare equal). sphinx-thebe's
   ``const THEBE_JS_URL = ...`` is such a script, and its second copy throws
   "Identifier 'THEBE_JS_URL' has already been declared" in every page.
   Each page keeps one copy of every script.
2. Live code in the page (thebe) is off in _config.yml, so the thebe assets,
   which point at a script on an outside host, are left out of the pages.
3. A bibliography style, ``authoryear``, whose labels on the references page
   read like the citations in the text ("Vaswani et al., 2017"), sorted by
   author, with titles kept as written in references.bib ("RoFormer", not
   "Roformer").
"""

from __future__ import annotations

import codecs
import re
from collections import Counter

import latexcodec  # noqa: F401  (registers the "ulatex" codec)
from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting.author_year_title import SortingStyle
from pybtex.style.template import field, sentence


def _plain(text):
    """LaTeX of a bib field as plain text: accents decoded, braces dropped."""
    return re.sub(r"[{}]", "", codecs.decode(text, "ulatex"))


def _surnames(entry):
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    return [_plain(" ".join(p.prelast_names + p.last_names)) for p in people]


class AuthorYearSorting(SortingStyle):
    """By first author's surname, then year, then the other authors and title."""

    def sorting_key(self, entry):
        authors, year, title = super().sorting_key(entry)
        first = (_surnames(entry) or [""])[0].lower()
        return (first, year, _plain(authors), title)


class AuthorYearLabels(BaseLabelStyle):
    """Labels "Shaw et al., 2018", "Devlin and Chang, 2019", "Radford, 2019"."""

    def format_label(self, entry):
        names = _surnames(entry)
        if not names:
            who = _plain(entry.fields.get("title", entry.key))
        elif len(names) == 1:
            who = names[0]
        elif len(names) == 2:
            who = f"{names[0]} and {names[1]}"
        else:
            who = f"{names[0]} et al."
        return f"{who}, {entry.fields.get('year', 'n.d.')}"

    def format_labels(self, sorted_entries):
        labels = [self.format_label(entry) for entry in sorted_entries]
        count, seen = Counter(labels), Counter()
        for label in labels:
            if count[label] > 1:  # two papers with one label: 2019a, 2019b
                seen[label] += 1
                label += "abcdefghijklmnopqrstuvwxyz"[seen[label] - 1]
            yield label


class AuthorYearStyle(UnsrtStyle):
    default_label_style = AuthorYearLabels
    default_sorting_style = AuthorYearSorting

    def format_title(self, e, which_field, as_sentence=True):
        title = field(which_field)
        return sentence[title] if as_sentence else title


def _key(asset):
    return (asset.filename or "", asset.priority, tuple(sorted(asset.attributes.items())))


def _is_thebe(asset):
    name = str(asset.filename or "")
    return "sphinx-thebe" in name or "THEBE_JS_URL" in asset.attributes.get("body", "")


def tidy_assets(app, pagename, templatename, context, doctree):
    if app.config.html_theme_options.get("launch_buttons", {}).get("thebe"):
        keep = lambda asset: True  # noqa: E731
    else:
        keep = lambda asset: not _is_thebe(asset)  # noqa: E731
    for name in ("script_files", "css_files"):
        seen, assets = set(), []
        for asset in context.get(name, []):
            if hasattr(asset, "attributes") and keep(asset) and _key(asset) not in seen:
                seen.add(_key(asset))
                assets.append(asset)
            elif not hasattr(asset, "attributes"):
                assets.append(asset)
        context[name] = assets


def setup(app):
    register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle, force=True)
    app.connect("html-page-context", tidy_assets, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
