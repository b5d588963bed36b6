"""Checkers of chapter 8, *Positions in two dimensions, and three*.
"""

from __future__ import annotations

import math

import numpy as np

from ..positions2d import mrope_position_ids
from ._common import _not_yet, _one_number, _report, _whole_numbers

__all__ = [
    "check_grids_mrope_ids",
    "check_grids_mae_entry",
    "check_grids_rope_shift",
    "check_grids_sections",
]


def _mrope_ids(before, image, after, m):
    return mrope_position_ids([("text", before), ("image", image), ("text", after)],
                              spatial_merge_size=m)


def check_grids_mrope_ids(answer):
    """Check the M-RoPE position ids of 2 text tokens, an image of 4 x 8 patches, 3 text tokens.

    Qwen2-VL's rule, with ``spatial_merge_size`` 2.

    Parameters
    ----------
    answer : array_like of int, shape (3, 13)
        The (time, height, width) ids, one column per token.

    Returns
    -------
    bool
    """
    expected = _mrope_ids(2, (1, 4, 8), 3, 2)
    arr = _whole_numbers(answer)
    if arr is None:
        return _not_yet("Give an array of whole numbers, three rows (time, height, "
                        "width) and one column per token.")
    if arr.shape == expected.shape[::-1]:
        return _not_yet("Transpose it: the rows are the three ids (time, height, "
                        "width), the columns the tokens.")
    if arr.ndim == 2 and arr.shape[0] == 3 and arr.shape[1] == 2 + 32 + 3:
        return _not_yet("The image's patches are merged 2 x 2 before they become "
                        "tokens: how many tokens does it give?")
    if arr.shape != expected.shape:
        return _not_yet("The array should have three rows (time, height, width) and "
                        "one column per token: count the tokens of the two texts and of the "
                        "merged image.")
    if np.array_equal(arr[:, :10], expected[:, :10]):
        text_after = arr[:, 10:]
        if np.all(text_after == text_after[0]) and text_after[0, 0] == 10:
            return _not_yet("The text after the image does not continue the count of "
                            "tokens: where does the next segment start?")
        if np.all(text_after == text_after[0]) and text_after[0, 0] == expected[0, 10] - 1:
            return _not_yet("Almost: the next text starts one past the largest id "
                            "the image used.")
    image = arr[:, 2:10]
    if np.array_equal(image[[0, 2, 1]], expected[:, 2:10]):
        return _not_yet("Height and width are swapped: the image is read row by row, "
                        "so the width id changes fastest.")
    if np.array_equal(image, expected[:, 2:10] - 2):
        return _not_yet("The image's ids do not start at 0: they start at the first "
                        "free id after the text before it.")
    if np.array_equal(image[0], np.arange(2, 10)):
        return _not_yet("All tokens of one image share the same time id.")
    return _report(
        np.array_equal(arr, expected),
        "These are the ids Qwen2-VL's get_rope_index gives this sequence.",
        "Text tokens get three equal ids, counting up; the image's tokens share one time id "
        "and spread over height and width from the first free id; the next text starts after "
        "the largest id used.",
    )


def check_grids_mae_entry(row_index, entry):
    """Check the row of patch (2, 5) of MAE's 14 x 14 table of width 16, and its entry 9.

    Parameters
    ----------
    row_index : int
        The row of the table that belongs to the patch.
    entry : float
        Entry 9 (from 0) of that row. Six significant figures are enough.

    Returns
    -------
    bool
    """
    r, c, width, half = 2, 5, 14, 8
    index = _whole_numbers(row_index)
    value = _one_number(entry)
    if index is None or index.size != 1 or value is None:
        return _not_yet("Give two numbers: the row's index (a whole number) and the "
                        "entry (a float).")
    index = int(index.ravel()[0])
    if index == c * width + r:
        return _not_yet("The grid is read row by row: which index does row r, "
                        "column c get?")
    if index != r * width + c:
        return _not_yet("Count the patches before this one, row by row.")

    def close(x):
        return math.isclose(value, x, rel_tol=1e-5, abs_tol=1e-6)

    omega = 10000.0 ** (-2 / half)  # pair 1 of a half of width 8
    if close(math.sin(c * omega)):
        return _not_yet("Entry 9 is in the second half of the row: which coordinate "
                        "does MAE's second half encode?")
    if close(math.cos(r)):  # index 1 of an interleaved half: the cosine of pair 0
        return _not_yet("In the halves layout, the first 4 entries of a half are "
                        "sines and the next 4 cosines, each pair with its own frequency.")
    if close(math.sin(r * 10000.0 ** (-2 / 16))):
        return _not_yet("Each half is a 1-D table of width d / 2 = 8: use that width "
                        "in the frequencies.")
    if close(math.cos(r * omega)):
        return _not_yet("Index 1 of a half is a sine, not a cosine.")
    return _report(
        close(math.sin(r * omega)),
        "That is the patch's row, and the entry MAE's formula gives it.",
        "The second half of the row is the 1-D table of the row index r, width 8, halves "
        "layout: find which pair and which function index 1 of that half is.",
    )


_PAIRS = {"a": ((0, 0), (2, 3)), "b": ((3, 4), (1, 1)), "c": ((1, 1), (4, 3)),
          "d": ((5, -2), (7, 1)), "e": ((2, 2), (4, 5)), "f": ((1, 1), (3, -2))}


def _letters(answer):
    """The answer as a set of lower-case letters, or None."""
    if isinstance(answer, str):
        # str's own methods: a subclass of str may override them to raise
        items = [ch for ch in str.__str__(answer) if not ch.isspace() and ch not in ",;"]
    elif isinstance(answer, (list, tuple, set, frozenset)):
        items = list(answer)
    elif isinstance(answer, np.ndarray) and answer.ndim == 1:
        items = answer.tolist()
    else:
        return None
    if not all(isinstance(x, (str, np.str_)) and len(x) == 1 for x in items):
        return None
    return {str.lower(x) for x in items}


def check_grids_rope_shift(answer):
    """Check which pairs of patches give the same 2-D RoPE score as (1, 1) and (3, 4).

    The answer lists, in any order, the letters of the pairs (query
    position, key position) whose score equals that of a query at (1, 1)
    and a key at (3, 4) for every query and key.

    Parameters
    ----------
    answer : list of str (or a string of letters)

    Returns
    -------
    bool
    """
    letters = _letters(answer)
    if letters is None:
        return _not_yet("Give the letters of the pairs, for example ['a', 'b'].")
    if not letters <= set(_PAIRS):
        return _not_yet("The pairs are labelled a to f.")
    offset = (2, 3)
    expected = {k for k, (q, kp) in _PAIRS.items() if (kp[0] - q[0], kp[1] - q[1]) == offset}
    if "b" in letters:
        return _not_yet("Pair b swaps the query and the key: the offset from query to "
                        "key changes sign, and so does the angle of each pair.")
    if "c" in letters:
        return _not_yet("Pair c swaps the row and the column offsets: each has its "
                        "own half of the vector, turned by its own offset.")
    if "f" in letters:
        return _not_yet("Pair f has the same distance but a mirrored offset: the "
                        "score depends on the offset itself, its sign included.")
    if letters and letters < expected:
        return _not_yet("Some pairs are missing: positions may be anywhere, even "
                        "negative; only the offset from query to key counts.")
    return _report(
        letters == expected,
        "Exactly the pairs with the same offset from query to key.",
        "Compute the offset (key row - query row, key column - query column) of each pair.",
    )


def check_grids_sections(answer):
    """Check the coordinates of a Qwen2-VL query (width 128) that turn with the height id.

    Sections (16, 24, 24) of pairs in the halves layout: pair ``i`` is
    coordinates ``i`` and ``i + 64``. The answer lists, in any order, the
    48 coordinates of the second section's pairs.

    Parameters
    ----------
    answer : array_like of int, 1-D (a set is fine)

    Returns
    -------
    bool
    """
    pairs = np.arange(16, 40)
    expected = set(np.concatenate([pairs, pairs + 64]).tolist())
    if isinstance(answer, (set, frozenset)):
        answer = sorted(answer, key=repr)
    arr = _whole_numbers(answer)
    if arr is None or arr.ndim != 1:
        return _not_yet("Give a flat list or 1-D array of whole-number coordinate "
                        "indices.")
    got = set(arr.tolist())
    if len(got) != len(arr):
        return _not_yet("Each coordinate should appear once.")
    if not all(0 <= x < 128 for x in got):
        return _not_yet("A query of width 128 has coordinates 0 to 127.")
    if got == set(pairs.tolist()) or got == set((pairs + 64).tolist()):
        return _not_yet("A pair has two coordinates: in the halves layout, pair i "
                        "is coordinates i and i + 64.")
    if got == set(np.concatenate([2 * pairs, 2 * pairs + 1]).tolist()):
        return _not_yet("Those are the pairs' coordinates in the interleaved layout; "
                        "Qwen2-VL uses the halves layout.")
    time = set(np.r_[0:16, 64:80].tolist())
    width = set(np.r_[40:64, 104:128].tolist())
    if got in (time, width):
        return _not_yet("That is another section: the sections are time, height, "
                        "width, in that order.")
    return _report(
        got == expected,
        "Those are the coordinates of the height section.",
        "Find the pairs of the second section, then the two coordinates of each pair in the "
        "halves layout.",
    )
