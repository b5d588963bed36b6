r"""Every number the worked-example chapter prints is the formula's value.

nbval proves that the stored outputs of ``book/03_cat.ipynb`` are
what its code computes today. This file proves that what the code computes
is what the formula says: each printed number is recomputed here, one at a
time, from

    PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(same angle)

with ``math.sin`` and ``math.cos`` (no numpy, no posenc), and must agree with
the printed text to its printed precision: within half a unit of the last
printed digit.

The stored outputs are read in these forms (keep them if you edit the
chapter, or update the parser here):

- ``PE(p) = [v0 v1 ...]``: a whole row, ``d_model`` = number of values;
- ``PE(p)[a:b] = [...]``: a slice of a row, ``d_model`` from a line
  ``d_model = N`` earlier in the same output;
- the blocks of :func:`posenc.explain_entry`;
- a few labelled lines (dot products, distances, sums), listed below;
- in the markdown prose, ``\sin(x) \approx v`` and ``\cos x \approx v``.
"""

from __future__ import annotations

import math
import re

import nbformat
import pytest

from tools.paths import BOOK

NOTEBOOK = BOOK / "03_cat.ipynb"
NUMBER = r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?"


def pe_entry(pos, dim, d_model, base=10000.0):
    """One entry of the table, straight from the formula."""
    i = dim // 2
    angle = pos / base ** (2 * i / d_model)
    return math.sin(angle) if dim % 2 == 0 else math.cos(angle)


def assert_printed(text, true, where):
    """``text`` is ``true`` rounded to the digits that ``text`` shows."""
    value = float(text)
    mantissa = text.lower().split("e")[0]
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    exponent = int(text.lower().split("e")[1]) if "e" in text.lower() else 0
    half_unit = 0.5 * 10.0 ** (exponent - decimals)
    assert abs(value - true) <= half_unit * (1 + 1e-9), (
        f"{where}: printed {text}, but the formula gives {true!r}"
    )


def numbers(text):
    return re.findall(NUMBER, text)


@pytest.fixture(scope="module")
def nb():
    return nbformat.read(NOTEBOOK, as_version=4)


@pytest.fixture(scope="module")
def outputs(nb):
    """The text of every code cell's outputs (stdout and text/plain), one string each."""
    texts = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if out.output_type == "stream" and out.name == "stdout":
                texts.append(out.text)
            elif "data" in out and "text/plain" in out.data:
                texts.append(out.data["text/plain"])
    return texts


def find_line(outputs, prefix):
    lines = [line for text in outputs for line in text.splitlines() if line.startswith(prefix)]
    assert len(lines) == 1, f"expected one output line starting {prefix!r}, found {lines}"
    return lines[0][len(prefix):]


# --- the document's tokens -------------------------------------------------


def test_tokens_are_those_of_the_source_document(outputs):
    assert "['The', 'cat', 'sat', 'on', 'the', 'mat']" in outputs


# --- the rows PE(p) and slices PE(p)[a:b] ----------------------------------

ROW = re.compile(rf"^\s*PE\((-?\d+)\)(?:\[(\d+):(\d+)\])?\s*=\s*\[([^\]]*)\]\s*$")


def test_every_printed_row_is_the_formula(outputs):
    checked = {}  # (d_model, pos) -> set of checked dims
    for text in outputs:
        d_model_here = None
        for line in text.splitlines():
            m = re.match(r"^d_model = (\d+)$", line)
            if m:
                d_model_here = int(m.group(1))
                continue
            m = ROW.match(line)
            if not m:
                continue
            pos, lo, hi, body = m.groups()
            pos, values = int(pos), numbers(body)
            if lo is None:
                d_model, dims = len(values), range(len(values))
            else:
                assert d_model_here is not None, f"slice without a 'd_model = N' line: {line!r}"
                d_model, dims = d_model_here, range(int(lo), int(hi))
                assert len(values) == len(dims), f"slice length mismatch in {line!r}"
            for dim, value in zip(dims, values):
                assert_printed(value, pe_entry(pos, dim, d_model), f"PE({pos})[{dim}], d_model={d_model}")
                checked.setdefault((d_model, pos), set()).add(dim)
    # The checks above must have seen the document's table and the others.
    for pos in range(1, 7):
        assert checked.get((4, pos)) == {0, 1, 2, 3}, f"PE({pos}) for d_model=4 was not printed"
        assert checked.get((512, pos)) == set(range(6)) | set(range(506, 512))
    assert checked.get((4, 0)) == {0, 1, 2, 3}, "the table counted from 0 was not printed"


def test_the_document_table_is_printed_in_order(outputs):
    """PE(1) .. PE(6), one per line, as the worked example writes them."""
    blocks = [t for t in outputs if t.startswith("PE(1) = [")]
    assert len(blocks) == 1
    labels = [ROW.match(line).group(1) for line in blocks[0].splitlines()]
    assert labels == ["1", "2", "3", "4", "5", "6"]


# --- explain_entry blocks ---------------------------------------------------

HEAD = re.compile(r"^PE\(pos=(-?\d+), dim=(\d+)\) for d_model=(\d+), base=(\S+)$")


def test_every_step_by_step_entry_is_the_formula(outputs):
    seen = []
    for text in outputs:
        lines = text.splitlines()
        for k, line in enumerate(lines):
            m = HEAD.match(line)
            if not m:
                continue
            pos, dim, d_model = (int(g) for g in m.groups()[:3])
            base = float(m.group(4))
            block = "\n".join(lines[k + 1 : k + 6])
            i = dim // 2
            angle = pos / base ** (2 * i / d_model)
            divisor = re.search(rf"divisor\s+\S+ = ({NUMBER})", block).group(1)
            assert_printed(divisor, base ** (2 * i / d_model), f"divisor of {line}")
            shown = re.search(rf"angle\s+.* = ({NUMBER}) rad", block).group(1)
            assert math.isclose(float(shown), angle, rel_tol=5e-6), f"angle of {line}"
            func, arg, value = re.search(rf"value\s+(sin|cos)\(({NUMBER})\) = ({NUMBER})", block).groups()
            assert func == ("sin" if dim % 2 == 0 else "cos"), f"wrong function in {line}"
            assert_printed(value, pe_entry(pos, dim, d_model, base), f"value of {line}")
            seen.append((pos, dim, d_model))
    assert {(2, d, 4) for d in range(4)} <= set(seen), f"PE(2) was not spelled out: {seen}"


# --- labelled lines derived from the table ----------------------------------


def test_derived_numbers(outputs):
    # dot products PE(1) . PE(q) = sum_i cos((q - 1) omega_i), omega = 1, 1/100
    values = numbers(find_line(outputs, "PE(1) . PE(q) for q = 1..6:"))
    assert len(values) == 6
    for q, value in enumerate(values, start=1):
        assert_printed(value, math.cos(q - 1) + math.cos((q - 1) / 100), f"PE(1).PE({q})")

    # a shift by one position moves every row by the same distance
    step = math.sqrt((2 - 2 * math.cos(1)) + (2 - 2 * math.cos(0.01)))
    values = numbers(find_line(outputs, "|PE(p+1) - PE(p)|:"))
    assert len(values) == 6
    for value in values:
        assert_printed(value, step, "|PE(p+1) - PE(p)|")

    # every row has length sqrt(d_model / 2)
    for value in numbers(find_line(outputs, "|PE(p)|:")):
        assert_printed(value, math.sqrt(2), "|PE(p)|")
    for value in numbers(find_line(outputs, "length of every row:")):
        assert_printed(value, 16.0, "|PE(p)|, d_model = 512")
    norms = [t for t in outputs if t.startswith("array(")]  # np.linalg.norm(pe1, axis=1)
    assert len(norms) == 1
    for value in numbers(norms[0]):
        assert_printed(value, math.sqrt(2), "norms of PE(1..6)")

    # PE(1) and PE(45): a chord of the circle is 2 |sin(angle difference / 2)|
    fast = find_line(outputs, "distance between PE(1) and PE(45), fast pair (dims 0, 1):")
    slow = find_line(outputs, "distance between PE(1) and PE(45), slow pair (dims 2, 3):")
    assert_printed(fast.strip(), 2 * abs(math.sin(44 / 2)), "fast-pair distance")
    assert_printed(slow.strip(), 2 * abs(math.sin(0.44 / 2)), "slow-pair distance")

    # the two small-angle shortcuts, over x = 0.01 .. 0.06
    xs = [p / 100 for p in range(1, 7)]
    sin_err = find_line(outputs, "largest error of sin x ~ x:").strip()
    cos_err = find_line(outputs, "largest error of cos x ~ 1 - x^2/2:").strip()
    assert_printed(sin_err, max(abs(math.sin(x) - x) for x in xs), "sin x ~ x")
    assert_printed(cos_err, max(abs(math.cos(x) - (1 - x * x / 2)) for x in xs), "cos shortcut")

    # the turning of the 256 hands of d_model = 512 from position 1 to 6
    turns = [5 * 10000.0 ** (-2 * i / 512) for i in range(256)]
    line = find_line(outputs, "pairs turning by more than 1 radian:")
    assert int(numbers(line)[0]) == sum(t > 1 for t in turns)
    line = find_line(outputs, "pairs turning by less than 0.01 radian:")
    assert int(numbers(line)[0]) == sum(t < 0.01 for t in turns)
    wl = numbers(find_line(outputs, "wavelengths of the fastest and slowest pairs:"))
    assert_printed(wl[0], 2 * math.pi, "fastest wavelength")
    assert_printed(wl[1], 2 * math.pi * 10000.0 ** (510 / 512), "slowest wavelength")


def test_input_vectors_are_embedding_plus_formula(outputs):
    """Each printed x_p equals the printed E_p plus PE(p) from the formula."""
    emb = {}
    for text in outputs:  # the output that lists all six E_p (lower-cased tokens)
        rows = re.findall(r"^E_(\d) = E\['\w+'\]\s*= \[([^\]]*)\]$", text, re.M)
        if len(rows) == 6:
            assert not emb, "two outputs list E_1 .. E_6"
            emb = {int(p): [float(v) for v in numbers(body)] for p, body in rows}
    sums = {}
    for line in (ln for t in outputs for ln in t.splitlines()):
        m = re.match(r"^x_(\d) = E\['(\w+)'\]\s*\+ PE\((\d)\) = \[([^\]]*)\]$", line)
        if m:
            assert m.group(1) == m.group(3)
            sums[int(m.group(1))] = [float(v) for v in numbers(m.group(4))]
    assert sorted(emb) == sorted(sums) == [1, 2, 3, 4, 5, 6]
    assert emb[1] == emb[5], "the two lower-case 'the's must share one embedding row"
    for pos in range(1, 7):
        for dim in range(4):
            # two roundings to 4 decimals: within one unit of the last digit
            expected = emb[pos][dim] + pe_entry(pos, dim, 4)
            assert abs(sums[pos][dim] - expected) <= 1e-4 + 1e-12, f"x_{pos}[{dim}]"
    diff = numbers(find_line(outputs, "x_5 - x_1     ="))
    for dim, value in enumerate(diff):
        assert_printed(value, pe_entry(5, dim, 4) - pe_entry(1, dim, 4), f"(x_5 - x_1)[{dim}]")


# --- numbers written in the prose --------------------------------------------

# LaTeX in the markdown (\sin 2 \approx 0.9093), plain text in the solutions'
# comments (sin 10 ~ -0.5440)
TRIG = re.compile(
    rf"\\?(sin|cos)\s*(?:\(\s*({NUMBER})(\^\\circ)?\s*\)|\s({NUMBER}))\s*(?:\\approx|=|~)\s*({NUMBER})"
)
DIFF = re.compile(
    rf"\|\\?(sin|cos) ({NUMBER}) - \\?(sin|cos) ({NUMBER})\| (?:\\approx|~) ({NUMBER})"
)


def test_numbers_in_the_prose(nb):
    # markdown cells, plus the explanations written as comments in solution cells
    prose = "\n".join(
        c.source if c.cell_type == "markdown"
        else " ".join(line.lstrip("# ") for line in c.source.splitlines() if line.startswith("#"))
        for c in nb.cells
    )
    found = 0
    for func, arg_paren, degrees, arg_bare, value in TRIG.findall(prose):
        arg = float(arg_paren or arg_bare)
        if degrees:
            arg = math.radians(arg)
        assert_printed(value, getattr(math, func)(arg), f"\\{func}({arg}) in the prose")
        found += 1
    for f1, a1, f2, a2, value in DIFF.findall(prose):
        true = abs(getattr(math, f1)(float(a1)) - getattr(math, f2)(float(a2)))
        assert_printed(value, true, f"|{f1} {a1} - {f2} {a2}| in the prose")
        found += 1
    assert found >= 8, f"only {found} numbers recognised in the prose; did the notation change?"
    # the solution of the last exercise quotes PE(8) - PE(5)
    m = re.search(r"about \[([^\]]*)\]", prose)
    values = numbers(m.group(1))
    assert len(values) == 4
    for dim, value in enumerate(values):
        assert_printed(value, pe_entry(8, dim, 4) - pe_entry(5, dim, 4), f"PE(8)-PE(5) [{dim}]")


def test_solutions_have_no_latex_in_comments(nb):
    """Comments are read in a code editor, where LaTeX is noise: plain text only."""
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for line in cell.source.splitlines():
            comment = line.partition("#")[2]
            assert not re.search(r"\$|\\(sin|cos|approx|mathrm|frac)\b", comment), line
