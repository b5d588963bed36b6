"""Checkers of chapter 3, *The cat sat on the mat*.
"""

from __future__ import annotations

import numpy as np

from ._common import _as_array, _close, _correct, _not_yet

__all__ = [
    "check_cat_vocab_sizes",
    "check_cat_pe10",
    "check_cat_most_changed",
    "check_cat_two_cats",
]


def _cat_pe(pos):
    """PE(pos) for d_model = 4, written out: [sin p, cos p, sin p/100, cos p/100]."""
    return np.array([np.sin(pos), np.cos(pos), np.sin(pos / 100), np.cos(pos / 100)])


def _cat_whole(x):
    """``x`` as an int if it is a whole number (int, numpy int, 3.0), else None."""
    arr = _as_array(x)  # None for a bool, a string ("6") or an int beyond float64
    if arr is None or arr.shape != ():
        return None
    f = float(arr)
    return int(f) if f.is_integer() else None


def _cat_vector(x):
    """``x`` as an array of shape (4,), or None.

    A row of a table counts as the vector: ``posenc.sinusoidal(1, 4, start=10)``
    returns shape (1, 4), and a column (4, 1) holds the same four numbers.
    """
    arr = _as_array(x)
    if arr is None or arr.size != 4 or sorted(arr.shape)[:-1] != [1] * (arr.ndim - 1):
        return None
    return arr.reshape(4)


def check_cat_vocab_sizes(cased, lowered):
    """Check the vocabulary sizes of "The dog saw the cat and the cat saw the dog."

    Parameters
    ----------
    cased : int
        Number of rows the embedding table needs when case is kept
        (``tokenize(sentence)``).
    lowered : int
        Number of rows with ``tokenize(sentence, lower=True)``.

    Returns
    -------
    bool
        ``True`` if both counts are right; a hint is printed otherwise.

    Examples
    --------
    >>> check_cat_vocab_sizes(3, 3)
    Not yet. Lower-casing merges a capitalised word with its lower-case twin, so the two counts differ here.
    False
    """
    # the sentence's tokens, written out so the checker does not rely on tokenize
    tokens = "The dog saw the cat and the cat saw the dog".split()
    expected = (len(set(tokens)), len({t.lower() for t in tokens}))
    answer = (_cat_whole(cased), _cat_whole(lowered))
    if None in answer:
        return _not_yet("Both answers are whole numbers: counts of distinct tokens.")
    if answer == expected:
        return _correct("Both counts are right, with case kept and lower-cased.")
    if len(tokens) in answer:
        hint = ("That counts every token of the sentence; the table needs one row per "
                "*distinct* token (build_vocab numbers each new token once).")
    elif len(tokens) + 1 in answer or answer[0] == expected[0] + 1:
        hint = "tokenize drops punctuation: the final '.' is not a token."
    elif answer[0] == answer[1]:
        hint = ("Lower-casing merges a capitalised word with its lower-case twin, "
                "so the two counts differ here.")
    elif answer[0] < answer[1]:
        hint = "Lower-casing can merge tokens but never split them: it cannot add rows."
    else:
        hint = ("Write the tokens in order, then cross out each one you have seen before; "
                "count what is left, once keeping case and once after lower-casing.")
    return _not_yet(hint)


def check_cat_pe10(pe10):
    r"""Check PE(10) for d_model = 4, positions counted from 1 (exercise ex-cat-pe10).

    The chapter prints PE(1) to PE(6); position 10 is past the first full
    turn of the fast pair (10 radians is more than :math:`2\pi`), so the
    exercise cannot be answered by reading the chapter's table.

    Parameters
    ----------
    pe10 : array_like of 4 numbers
        :math:`[\sin(10/10000^{0}), \cos(10/10000^{0}), \sin(10/10000^{1/2}),
        \cos(10/10000^{1/2})]`, computed by hand; three decimals are enough.
        A row of shape (1, 4), as ``posenc.sinusoidal(1, 4, start=10)``
        returns it, is accepted too.

    Returns
    -------
    bool

    Examples
    --------
    >>> check_cat_pe10([0.0, 0.0, 0.0])
    Not yet. PE(10) has d_model = 4 numbers: a sine and a cosine for each of the two pairs.
    False
    """
    expected = _cat_pe(10)
    arr = _cat_vector(pe10)
    if arr is None:
        return _not_yet("PE(10) has d_model = 4 numbers: a sine and a cosine for "
                        "each of the two pairs.")
    if _close(arr, expected, atol=1e-3, rtol=0):
        return _correct("All four numbers of PE(10) are right to three decimals.")
    degrees = np.radians([10, 10, 0.1, 0.1])
    if _close(arr, np.sin(degrees) * [1, 0, 1, 0] + np.cos(degrees) * [0, 1, 0, 1],
              atol=1e-3, rtol=0):
        hint = "Your calculator is in degrees. The angles are in radians: switch it to RAD."
    elif _close(arr[[1, 0, 3, 2]], expected, atol=1e-3, rtol=0):
        hint = "Sine and cosine are swapped: even dimensions (0, 2) hold the sines."
    elif _close(arr[:2], expected[:2], atol=1e-3, rtol=0):
        hint = ("The first pair is right. For the second pair (i = 1) the divisor is "
                "10000 ** (2 * 1 / 4); check it, then the angle 10 / divisor.")
    elif any(_close(arr, _cat_pe(p), atol=1e-3, rtol=0) for p in (9, 11)):
        hint = ("That is the encoding of a neighbouring position. Here the position is 10, "
                "and the angles are 10 / divisor.")
    elif _close(arr[2:], expected[2:], atol=1e-3, rtol=0):
        hint = ("The slow pair is right. In the fast pair the angle is 10 radians, more than "
                "a full turn: a calculator in RAD mode takes care of that for you.")
    else:
        hint = ("For pair i the angle is 10 / 10000 ** (2i / 4), with i = 0 for dims 0, 1 "
                "and i = 1 for dims 2, 3; take the sine for the even dim, the cosine for "
                "the odd one.")
    return _not_yet(hint)


def check_cat_most_changed(step_12, step_34):
    """Check which dimension of PE changes most between two positions (d_model = 4).

    Parameters
    ----------
    step_12 : int
        The dimension (0 to 3) with the largest ``|PE(2)[d] - PE(1)[d]|``.
    step_34 : int
        The same for ``|PE(4)[d] - PE(3)[d]|``.

    Returns
    -------
    bool
        ``True`` if both are right. A wrong answer's hint says which of the
        two is wrong.

    Examples
    --------
    >>> check_cat_most_changed(3, 3)
    Not yet. Neither answer is right yet. How far does the slow pair (dims 2 and 3) turn in one step, compared with the fast pair (dims 0 and 1)?
    False
    """
    pe = np.array([_cat_pe(p) for p in range(5)])
    expected = tuple(int(np.argmax(np.abs(pe[b] - pe[a]))) for a, b in ((1, 2), (3, 4)))
    answer = (_cat_whole(step_12), _cat_whole(step_34))
    if None not in answer and answer == tuple(e + 1 for e in expected):
        return _not_yet("Count the dimensions from 0, as the chapter does: dims 0 and 1 are "
                        "the fast pair, dims 2 and 3 the slow one.")
    if None in answer or not all(0 <= a < 4 for a in answer):
        return _not_yet("Each answer is a dimension: a whole number from 0 to 3.")
    if answer == expected:
        return _correct("Both dimensions are right, for the first step and for the second.")
    if any(a >= 2 for a in answer):
        hint = ("How far does the slow pair (dims 2 and 3) turn in one step, compared with "
                "the fast pair (dims 0 and 1)?")
    else:
        hint = ("Within the fast pair, compare |sin(p+1) - sin(p)| with |cos(p+1) - cos(p)| "
                "for each step. The sine changes fastest where the cosine is large, and the "
                "other way round.")
    right = [a == e for a, e in zip(answer, expected)]
    if right == [True, False]:
        hint = "step_12 is right; step_34 is not. " + hint
    elif right == [False, True]:
        hint = "step_34 is right; step_12 is not. " + hint
    else:
        hint = "Neither answer is right yet. " + hint
    return _not_yet(hint)


def check_cat_two_cats(diff):
    """Check ``x_8 - x_5``, the difference of the two "cat" input vectors.

    In "The dog saw the cat and the cat saw the dog." (positions counted
    from 1) the word "cat" stands at positions 5 and 8 (exercise
    ex-cat-two-cats). Both occurrences look up the same embedding row, so
    their input vectors ``x = E[id] + PE(pos)`` differ only through the
    positions. (The chapter prints ``x_5 - x_1`` for its two "the"s; this is
    another pair of positions.) The hints recognise a calculator in degree
    mode, and the belief that the difference is ``PE(3)``, the encoding of
    the distance.

    Parameters
    ----------
    diff : array_like of 4 numbers
        The input vector of the second "cat" minus that of the first (shape
        (4,), or a row of shape (1, 4)).

    Returns
    -------
    bool

    Examples
    --------
    >>> check_cat_two_cats([1, 2])
    Not yet. The difference of two input vectors has d_model = 4 numbers.
    False
    """
    expected = _cat_pe(8) - _cat_pe(5)
    arr = _cat_vector(diff)
    if arr is None:
        return _not_yet("The difference of two input vectors has d_model = 4 numbers.")
    if _close(arr, expected, atol=1e-3, rtol=0):
        return _correct("All four numbers of x_8 - x_5 are right to three decimals.")
    degrees = np.radians([8, 8, 0.08, 0.08]), np.radians([5, 5, 0.05, 0.05])
    in_degrees = [(np.sin(a) * [1, 0, 1, 0] + np.cos(a) * [0, 1, 0, 1]) for a in degrees]
    if _close(-arr, expected, atol=1e-3, rtol=0):
        hint = "The sign is reversed: take the second 'cat' (position 8) minus the first."
    elif any(_close(sign * arr, in_degrees[0] - in_degrees[1], atol=1e-3, rtol=0) for sign in (1, -1)):
        hint = "Your calculator is in degrees. The angles are in radians: switch it to RAD."
    elif any(_close(sign * arr, _cat_pe(3), atol=1e-3, rtol=0) for sign in (1, -1)):
        hint = ("That is PE(3), the encoding of the distance 8 - 5. But PE(8) - PE(5) is not "
                "PE(8 - 5): sin 8 - sin 5 is not sin 3. Subtract the two encodings entry by entry.")
    elif _close(arr, _cat_pe(7) - _cat_pe(4), atol=1e-3, rtol=0):
        hint = "Those are positions counted from 0; this chapter counts from 1."
    elif any(_close(sign * arr, _cat_pe(5) - _cat_pe(1), atol=1e-3, rtol=0) for sign in (1, -1)):
        hint = ("That is the difference of the chapter's two 'the's. Count the positions "
                "of the two 'cat's in this sentence.")
    else:
        hint = ("Both rows look up the same embedding, so E cancels in x_8 - x_5; "
                "what is left depends only on the two positions.")
    return _not_yet(hint)
