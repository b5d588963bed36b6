"""Tests of the checkers of the chapter "Learned alternatives".

Each checker must accept every correct form of the answer, reject wrong
answers with a hint, and never print the expected value. The right answers
are derived by hand from the chapter's set-up (GPT-2: 1024 positions,
d_model 768; the table: 64 rows, training lengths 4 to 16).
"""

from __future__ import annotations

import numpy as np
import pytest

from posenc import exercises as ex

# --- check_learned_gpt2_params ------------------------------------------------

GPT2 = 1024 * 768  # 786,432


@pytest.mark.parametrize("answer", [GPT2, float(GPT2), np.int64(GPT2), np.array(GPT2), np.array([GPT2]),
                                    np.zeros((1024, 768)).size, 2**18 * 3])
def test_gpt2_params_right(answer, capsys):
    assert ex.check_learned_gpt2_params(answer)
    assert capsys.readouterr().out.startswith("Correct!")


@pytest.mark.parametrize(
    "answer, words",
    [
        (1024, "number of rows"),
        (768, "size of one row"),
        (512 * 768, "another model"),
        (1024 * 1600, "another model"),
        (GPT2 + 1, "one row per position"),
        (GPT2 * 2, "one row per position"),
        ("lots", "single number"),
        ([1024, 768], "single number"),
    ],
)
def test_gpt2_params_wrong(answer, words, capsys):
    assert ex.check_learned_gpt2_params(answer) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.") and words in out
    for shown in ("786432", "786,432", "7.86", "786 432"):
        assert shown not in out


# --- check_learned_untouched_rows ---------------------------------------------

UNTOUCHED = list(range(16, 64))  # training lengths 4..16 use rows 0..15 only
MASK = np.arange(64) >= 16


@pytest.mark.parametrize(
    "answer",
    [UNTOUCHED, range(16, 64), np.arange(16, 64), UNTOUCHED[::-1], set(UNTOUCHED), MASK, list(MASK),
     np.arange(16, 64, dtype=float), tuple(UNTOUCHED)],
)
def test_untouched_rows_right(answer, capsys):
    assert ex.check_learned_untouched_rows(answer)
    assert capsys.readouterr().out.startswith("Correct!")


@pytest.mark.parametrize(
    "answer, words",
    [
        ([], "compare the trained table"),
        (range(17, 64), "Off by one"),
        (range(15, 64), "Off by one"),
        (range(0, 64), "were used in training"),
        (range(16, 40), "missing"),
        (UNTOUCHED + [20], "appear once"),
        (np.ones(10, dtype=bool), "one entry per row"),
        ([16.5, 17.0], "integers"),
        (np.arange(16, 64).reshape(6, 8), "1-D"),
        (["a", "b"], "integers"),
    ],
)
def test_untouched_rows_wrong(answer, words, capsys):
    assert ex.check_learned_untouched_rows(answer) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.") and words in out
    assert "16" not in out and "range(" not in out


# --- check_learned_bag_tasks -----------------------------------------------------


@pytest.mark.parametrize("answer", ["bd", "db", "b, d", "B D", ["b", "d"], {"D", "b"}, ("d", "b"), "(b) and (d)"])
def test_bag_tasks_right(answer, capsys):
    assert ex.check_learned_bag_tasks(answer)
    assert capsys.readouterr().out.startswith("Correct!")


@pytest.mark.parametrize(
    "answer, words",
    [
        ("a", "chapter's task"),
        ("abcd", "chapter's task"),
        ("bcd", "task (c)"),
        ("b", "any reordering"),
        ("d", "any reordering"),
        ("", "letters a, b, c and d"),
        ("bx", "letters a, b, c and d"),
        (3, "Give the letters"),
    ],
)
def test_bag_tasks_wrong(answer, words, capsys):
    assert ex.check_learned_bag_tasks(answer) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.") and words in out
    assert "b and d" not in out and "(b) and (d)" not in out


# --- check_learned_causal_none ---------------------------------------------------


@pytest.mark.parametrize("answer", [1.0, 0.97, np.float64(0.93), np.array(0.99), np.array([1.0]), 1])
def test_causal_none_right(answer, capsys):
    assert ex.check_learned_causal_none(answer)
    assert capsys.readouterr().out.startswith("Correct!")


@pytest.mark.parametrize(
    "answer, words",
    [
        (0.5, "chance level"),
        (0.52, "chance level"),
        (0.7, "causal=True"),
        (95, "between 0 and 1"),
        (-0.1, "between 0 and 1"),
        ("high", "single number"),
        ([0.9, 1.0], "single number"),
    ],
)
def test_causal_none_wrong(answer, words, capsys):
    assert ex.check_learned_causal_none(answer) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.") and words in out
