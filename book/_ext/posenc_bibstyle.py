"""The bibliography style ``authoryear``: labels on the references page that
read like the citations in the text ("Vaswani et al., 2017"), entries sorted
by author, titles kept as written in references.bib ("RoFormer", not
"Roformer").

A pybtex style and nothing else: ``tools/plain_myst.py`` imports it to label
the citations of the plain-Markdown editions as the site does, without
loading Sphinx. As a Sphinx extension (``_config.yml``) it registers the
style under the name ``_config.yml`` gives it (``bibtex_default_style``).
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

NAME = "authoryear"


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


def setup(app):
    register_plugin("pybtex.style.formatting", NAME, AuthorYearStyle, force=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
