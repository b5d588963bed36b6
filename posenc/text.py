"""From a sentence to vectors: tokens, a vocabulary, indices, embeddings.

These are the steps every chapter starts from, written out so that nothing
is hidden: split the text into tokens, number the distinct tokens, replace
each token by its number, and look each number up in a table of vectors.
"""

from __future__ import annotations

import re

import numpy as np

from . import _checks

__all__ = ["tokenize", "build_vocab", "encode", "random_embeddings"]

# A word is a run of letters and digits ("\w" without the underscore),
# possibly with inner apostrophes, typed (') or typographic (\u2019), as in
# "don't" and "don\u2019t". Everything else (spaces, punctuation, "_")
# separates words.
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


def tokenize(text, *, lower=False):
    """Split a text into word tokens, dropping punctuation.

    A word is a run of letters and digits, with apostrophes inside it kept
    ("don't", and "don\u2019t" with the typographic apostrophe, are one word
    each; the apostrophe is kept as typed). Spaces, punctuation and the
    underscore separate words.

    Parameters
    ----------
    text : str
        The text to split. It must contain at least one word.
    lower : bool, default False
        Lower-case every token, so that "The" and "the" become one token.

    Returns
    -------
    list of str
        The words in order of appearance.

    Examples
    --------
    >>> tokenize("The cat sat on the mat.")
    ['The', 'cat', 'sat', 'on', 'the', 'mat']
    >>> tokenize("The cat sat on the mat.", lower=True)
    ['the', 'cat', 'sat', 'on', 'the', 'mat']
    >>> tokenize("Don\u2019t split snake_case")
    ['Don\u2019t', 'split', 'snake', 'case']
    """
    _validate_tokenize(text, lower)
    return _WORD.findall(text.lower() if lower else text)


def _validate_tokenize(text, lower):
    """The checks of :func:`tokenize`: a str with at least one word."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    lower = _checks.boolean("lower", lower)
    if not _WORD.search(text.lower() if lower else text):
        raise ValueError(f"text must contain at least one word, got {text!r}")


def _check_tokens(tokens):
    if isinstance(tokens, str):
        raise TypeError("tokens must be a list of str, got a single str (call tokenize first)")
    try:
        tokens = list(tokens)
    except TypeError:  # not iterable: None, a number...
        raise TypeError(
            f"tokens must be a list of str, got {type(tokens).__name__} {_checks.show(tokens)}"
        ) from None
    if not tokens:
        raise ValueError("tokens must not be empty")
    for t in tokens:
        if not isinstance(t, str):
            raise TypeError(f"tokens must all be str, got {t!r} of type {type(t).__name__}")
    return tokens


def build_vocab(tokens):
    """Number the distinct tokens 0, 1, 2, ... in order of first appearance.

    A repeated token keeps the number it got the first time, so the numbers
    have no gaps: ``len(vocab)`` is the number of distinct tokens.

    Parameters
    ----------
    tokens : sequence of str
        At least one token, for example from :func:`tokenize`.

    Returns
    -------
    dict of str to int
        Token to number; insertion order is the order of first appearance.

    Examples
    --------
    >>> build_vocab(["the", "cat", "sat", "on", "the", "mat"])
    {'the': 0, 'cat': 1, 'sat': 2, 'on': 3, 'mat': 4}
    """
    vocab = {}
    for token in _check_tokens(tokens):
        vocab.setdefault(token, len(vocab))
    return vocab


def encode(tokens, vocab):
    """Replace each token by its number in ``vocab``.

    Parameters
    ----------
    tokens : sequence of str
        At least one token.
    vocab : dict of str to int
        For example from :func:`build_vocab`; the numbers must be integers
        from 0 to ``2**63 - 1`` (they index the rows of an embedding table,
        and the result is an int64 array).

    Returns
    -------
    numpy.ndarray of int, shape ``(len(tokens),)``

    Examples
    --------
    >>> vocab = build_vocab(["dog", "bites", "man"])
    >>> encode(["man", "bites", "dog"], vocab)
    array([2, 1, 0])
    """
    tokens = _validate_encode(tokens, vocab)
    return np.array([int(vocab[t]) for t in tokens], dtype=np.int64)


def _validate_encode(tokens, vocab):
    """The checks of :func:`encode`: the tokens as a list, each in ``vocab`` with an int64 id."""
    tokens = _check_tokens(tokens)
    if not isinstance(vocab, dict):
        raise TypeError(f"vocab must be a dict of str to int, got {type(vocab).__name__}")
    unknown = [t for t in tokens if t not in vocab]
    if unknown:
        raise ValueError(
            f"token {unknown[0]!r} is not in the vocabulary (it has {len(vocab)} tokens: "
            f"{', '.join(map(repr, list(vocab)[:8]))}{', ...' if len(vocab) > 8 else ''})"
        )
    top = int(np.iinfo(np.int64).max)
    for t in tokens:
        _checks.integer(f"vocab[{t!r}]", vocab[t], minimum=0, maximum=top)
    return tokens


def random_embeddings(vocab_size, d_model, *, seed=0, scale=1.0):
    r"""A table of random token embeddings, one row per vocabulary entry.

    Entries are drawn independently from :math:`\mathcal{N}(0, \mathrm{scale}^2)`
    with ``numpy.random.default_rng(seed)``, standing in for a trained table.

    Parameters
    ----------
    vocab_size : int
        Number of rows (distinct tokens), at least 1.
    d_model : int
        Width of each embedding, at least 1.
    seed : int, default 0
        Seed of the random generator; the same seed gives the same table.
    scale : float, default 1.0
        Standard deviation of the entries; must be positive.

    Returns
    -------
    numpy.ndarray of shape ``(vocab_size, d_model)``
        Row ``i`` is the vector of the token numbered ``i``.

    Examples
    --------
    >>> E = random_embeddings(5, 4, seed=1)
    >>> E.shape
    (5, 4)
    >>> bool(np.array_equal(E, random_embeddings(5, 4, seed=1)))
    True
    """
    vocab_size, d_model, seed, scale = _validate_random_embeddings(vocab_size, d_model, seed, scale)
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, scale, size=(vocab_size, d_model))


def _validate_random_embeddings(vocab_size, d_model, seed, scale):
    """The checks of :func:`random_embeddings`, and the cap."""
    vocab_size = _checks.positive_int("vocab_size", vocab_size)
    d_model = _checks.positive_int("d_model", d_model)
    _checks.entries(f"vocab_size * d_model = {_checks.show(vocab_size)} * {_checks.show(d_model)}",
                    vocab_size * d_model)
    seed = _checks.integer("seed", seed, minimum=0)
    scale = _checks.real("scale", scale, positive=True)
    return vocab_size, d_model, seed, scale
