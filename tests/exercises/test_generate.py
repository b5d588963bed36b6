"""Tests of the checkers of the chapter "Positions when a model generates".

Each expected answer is derived here by hand, not with the checker's code:

* the batch [[0,0,0,1,1,1], [0,1,1,1,1,1], [1,1,1,1,1,1]] counts its tokens
  from 0 in each row, and Transformers 5.24.0 puts 0 on the padding:
  [[0,0,0,0,1,2], [0,0,1,2,3,4], [0,1,2,3,4,5]];
* a sink cache of 10 entries with 4 sinks, after tokens 0 to 999, holds the
  sinks 0-3 and the last 6 tokens, 994-999;
* a window of 4096 keys, the query's own included, seen from token 10000,
  starts at 10000 - 4095 = 5905;
* R(m)^T R(m + offset) = R(offset): the score is q . rope(k, offset);
* documents of 2, 3 and 1 tokens: causal inside the blocks {0,1}, {2,3,4},
  {5}.

Right answers in several forms pass; wrong answers fail with a hint that
does not contain the expected value; no answer makes a checker raise.
"""

from __future__ import annotations

import numpy as np
import pytest

from posenc import exercises, rope

IDS = [[0, 0, 0, 0, 1, 2], [0, 0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5]]
KEPT = [0, 1, 2, 3, 994, 995, 996, 997, 998, 999]
OLDEST = 5905
BLOCKS = np.zeros((6, 6), dtype=bool)
for lo, hi in [(0, 2), (2, 5), (5, 6)]:
    for i in range(lo, hi):
        BLOCKS[i, lo:i + 1] = True

CHECKERS = [exercises.check_generate_padding_ids, exercises.check_generate_sink_positions,
            exercises.check_generate_window_oldest, exercises.check_generate_shift,
            exercises.check_generate_packed_mask]


def test_the_hand_made_mask_is_block_diagonal_and_causal():
    assert BLOCKS.sum() == 3 + 6 + 1 and not BLOCKS[2, 1] and BLOCKS[4, 2] and not BLOCKS[3, 4]


# --- right answers -----------------------------------------------------------


@pytest.mark.parametrize("form", [list, np.array, lambda v: np.array(v, dtype=float),
                                  lambda v: np.array(v, dtype=np.int8), lambda v: tuple(map(tuple, v))])
def test_padding_ids_right(form, reveals_nothing):
    reveals_nothing(exercises.check_generate_padding_ids, (form(IDS),), ["[0, 0, 0, 0, 1", "0 0 0 0 1"])


@pytest.mark.parametrize("form", [list, np.array, tuple, lambda v: v[::-1],
                                  lambda v: np.array(v, dtype=float), lambda v: np.array(v)[None][0]])
def test_sink_positions_right(form, reveals_nothing):
    reveals_nothing(exercises.check_generate_sink_positions, (form(KEPT),), ["994", "999", "0, 1, 2"])


@pytest.mark.parametrize("form", [int, float, np.int64, np.array, lambda v: [v]])
def test_window_oldest_right(form, reveals_nothing):
    reveals_nothing(exercises.check_generate_window_oldest, (form(OLDEST),), ["5905", "5,905"])


def _score(q, k, offset):
    return float(np.asarray(q) @ rope(np.asarray(k)[None], [offset])[0])


def _score_by_positions(q, k, offset):  # rotating both, at any m: also right
    return float(rope(np.asarray(q)[None], [1000])[0] @ rope(np.asarray(k)[None], [1000 + offset])[0])


def _score_by_query(q, k, offset):  # the query turned back: R(-offset) q . k
    return float(rope(np.asarray(q)[None], [-offset])[0] @ np.asarray(k))


@pytest.mark.parametrize("f", [_score, _score_by_positions, _score_by_query,
                               lambda q, k, o: np.float32(_score(q, k, o)), lambda q, k, o: [_score(q, k, o)]])
def test_shift_right(f, reveals_nothing):
    reveals_nothing(exercises.check_generate_shift, (f,), ["rope(k", "R(offset)"])


@pytest.mark.parametrize("form", [lambda m: m, lambda m: m.astype(int), lambda m: m.tolist(),
                                  lambda m: m.astype(float)])
def test_packed_mask_right(form, reveals_nothing):
    reveals_nothing(exercises.check_generate_packed_mask, (form(BLOCKS),), ["[[1, 0", "True, False"])


# --- wrong answers, with the hint they deserve ---------------------------------


@pytest.mark.parametrize(("answer", "words"), [
    (np.broadcast_to(np.arange(6), (3, 6)), "naive ids"),
    (np.cumsum([[0, 0, 0, 1, 1, 1], [0, 1, 1, 1, 1, 1], [1] * 6], axis=1) - 1, "-1"),
    (np.zeros((3, 6), dtype=int), "count the tokens"),
    ([[1, 1, 1, 0, 1, 2], [1, 0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5]], "Transformers 4"),
    ([[0, 0, 0, 1, 2, 3], [0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6]], "from 0"),
    ([[7, 7, 7, 0, 1, 2], [7, 0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5]], "on the padding"),
    (IDS[0], "3 x 6"),
    ("ids", "whole numbers"),
    ([[0.5] * 6] * 3, "whole numbers"),
])
def test_padding_ids_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_generate_padding_ids, answer)
    assert words in text and "[0, 0, 0, 0, 1" not in text


@pytest.mark.parametrize(("answer", "words"), [
    (list(range(990, 1000)), "plain window"),
    ([0, 1, 2, 3, *range(995, 1001)], "Off by one"),
    ([0, 1, 2, 3, *range(993, 999)], "Off by one"),
    ([0, 1, 2, 3, *range(990, 1000)], "10 entries in all"),
    ([0, 1, 2, 3, 3, *range(995, 1000)], "repeats"),
    ([1, 2, 3, 4, *range(994, 1000)], "first tokens"),
    ([0, 1, 2, 3, *range(500, 506)], "most recent"),
    ([[0, 1]], "flat list"),
    ("0-3", "flat list"),
])
def test_sink_positions_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_generate_sink_positions, answer)
    assert words in text and "994" not in text


@pytest.mark.parametrize(("answer", "words"), [
    (5904, "Off by one"),
    (4095, "largest offset"),
    (10_000, "newest key"),
    (6000, "t - W < j <= t"),
    ("5905", "whole number"),
])
def test_window_oldest_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_generate_window_oldest, answer)
    assert words in text and "5905" not in text


def _plain(q, k, offset):
    return float(np.asarray(q) @ np.asarray(k))


def _query_turned(q, k, offset):
    return float(rope(np.asarray(q)[None], [offset])[0] @ np.asarray(k))


def _raises(q, k, offset):
    raise RuntimeError("not written yet")


def _exits(q, k, offset):
    raise SystemExit(3)


@pytest.mark.parametrize(("answer", "words"), [
    (_plain, "plain dot product"),
    (_query_turned, "turns the query"),
    (lambda q, k, o: _score(q, k, o) + 1, "is not the RoPE score"),
    (lambda q, k, o: "score", "one number"),
    (lambda q, k, o: [1.0, 2.0], "one number"),
    (_raises, "raised RuntimeError: not written yet"),
    (_exits, "raised SystemExit"),
    (lambda q, k: 0.0, "raised TypeError"),
    (3.5, "the function itself"),
])
def test_shift_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_generate_shift, answer)
    assert words in text


@pytest.mark.parametrize(("answer", "words"), [
    (np.repeat([0, 1, 2], [2, 3, 1])[:, None] == np.repeat([0, 1, 2], [2, 3, 1])[None, :], "still be causal"),
    (np.tril(np.ones((6, 6), dtype=bool)), "plain causal mask"),
    (BLOCKS.T, "Transposed"),
    (~BLOCKS, "same document and j <= i"),
    (BLOCKS[:5, :5], "6 x 6"),
    (np.full((6, 6), 2), "6 x 6"),
    ("mask", "6 x 6"),
])
def test_packed_mask_wrong(answer, words, not_yet):
    text = not_yet(exercises.check_generate_packed_mask, answer)
    assert words in text


@pytest.mark.parametrize("check", CHECKERS, ids=lambda c: c.__name__)
def test_every_message_fits_the_page(check, capsys):
    # the check cell prints the verdict under the exercise: 79 characters
    right = {exercises.check_generate_padding_ids: IDS, exercises.check_generate_sink_positions: KEPT,
             exercises.check_generate_window_oldest: OLDEST, exercises.check_generate_shift: _score,
             exercises.check_generate_packed_mask: BLOCKS}[check]
    check(right)
    assert all(len(line) <= 79 for line in capsys.readouterr().out.splitlines())
