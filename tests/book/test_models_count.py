"""Chapter 9's count of the Transformers 5.24.0 RoPE cases that posenc matches.

nbval proves that the stored output of ``book/09_models.ipynb`` is what its
code prints today. This file recounts the cases of
``posenc/data/models_reference.json`` on its own (every configuration
class, one layer type at a time, its ``rope_parameters`` and head width
passed to ``posenc.rope_frequencies`` as they are) and checks that the
chapter prints that count, lists exactly the unmatched classes, and that
its prose cites the same numbers. tests/unit/test_scaling.py says, case by
case, why each unmatched one is refused or differs.
"""

from __future__ import annotations

import re

import nbformat
import numpy as np

import posenc
from posenc.scaling import RELATIVE_TOLERANCE
from tools.paths import BOOK

NOTEBOOK = BOOK / "09_models.ipynb"
CONFIGS = posenc.transformers_reference()["configs"]
WORDS = {4: "four", 6: "six", 10: "ten", 2: "two"}


def _verdict(case):
    try:
        inv, factor = posenc.rope_frequencies(case["head_dim"],
                                              scaling=case["rope_parameters"])
    except (TypeError, ValueError):
        return "refused"
    ref = np.asarray(case["inv_freq"], dtype=float)
    same = (inv.shape == ref.shape and np.allclose(inv, ref, rtol=RELATIVE_TOLERANCE, atol=0)
            and np.isclose(factor, case["attention_factor"], rtol=1e-6))
    return "equal" if same else "differs"


def _recount():
    verdicts = {(c["config_class"], c["layer_type"]): _verdict(c) for c in CONFIGS}
    counts = {kind: sum(v == kind for v in verdicts.values())
              for kind in ("equal", "differs", "refused")}
    return verdicts, counts


def _cells():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    printed = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                        for o in c.outputs)
    return " ".join(prose.split()), printed


def test_the_count_adds_up_and_meets_most_cases():
    verdicts, counts = _recount()
    assert sum(counts.values()) == len(CONFIGS) == len(verdicts)  # each case once
    assert counts["equal"] >= 0.95 * len(CONFIGS), counts
    assert counts["differs"] + counts["refused"] > 0  # the chapter's last section has work


def test_the_chapter_prints_the_recount():
    _, counts = _recount()
    _, printed = _cells()
    n = len(CONFIGS)
    line = (f"equal: {counts['equal']} of {n} ({counts['equal'] / n:.1%}); "
            f"differ: {counts['differs']}; refused by name: {counts['refused']}")
    assert line in printed, f"chapter 9 does not print {line!r}"
    assert f"{n} cases ({len({c['config_class'] for c in CONFIGS})} configuration classes)" \
        in printed


def test_the_chapter_lists_exactly_the_unmatched_classes():
    verdicts, _ = _recount()
    _, printed = _cells()
    listed = set(re.findall(r"^(refused|differs)\s+(\w+)$", printed, flags=re.M))
    unmatched = {(kind, name) for (name, _), kind in verdicts.items() if kind != "equal"}
    assert listed == unmatched


def test_the_prose_cites_the_count():
    _, counts = _recount()
    prose, _ = _cells()
    n, equal = len(CONFIGS), counts["equal"]
    others = n - equal
    for phrase in (f"Of the {n} cases, {equal} give",
                   f"The other {WORDS[others]} are listed",
                   f"{WORDS[others].capitalize()} cases out of {n} are not equal",
                   f"{equal} of the {n} RoPE cases",
                   f"the other {WORDS[others]} are named above"):
        assert phrase in prose, f"chapter 9's prose should say {phrase!r}"
    # the last section's groups: the ones that differ, then the refusals
    assert f"**{WORDS[counts['differs']].capitalize()} families compute" in prose
    refused = re.findall(r"\*\*(\w+) (?:default configs|dictionaries)", prose)
    words = {v.capitalize(): k for k, v in WORDS.items()}
    assert sum(words[w] for w in refused) == counts["refused"], refused
