r"""Positions on a grid: image patches (ViT, MAE) and image tokens among text (Qwen2-VL).

A picture cut into ``height x width`` patches is read as a sequence, row by
row: the patch in row :math:`r`, column :math:`c` is token
:math:`i = r \cdot width + c`. The functions here give each token its 2-D
(or 3-D) position instead of the 1-D index :math:`i`:

* :func:`sinusoidal_2d`: MAE's fixed table, half of the channels for the
  column and half for the row, each the 1-D sinusoidal table;
* :func:`interpolate_table`: a learned table over a grid resized to another
  grid, bicubically, as DeiT and MAE do when they fine-tune at a higher
  resolution;
* :func:`rope_2d`: axial 2-D RoPE (Heo et al., 2024), half of the
  coordinates of each query and key turned by the column, half by the row;
* :func:`mrope_position_ids` and :func:`mrope`: Qwen2-VL's multimodal RoPE,
  three ids (time, height, width) per token and sections of rotary pairs
  that each follow one of them.

Chapter 8 of the book, *Positions in two dimensions, and three*, derives
each of them and compares them with the reference code.
"""

from __future__ import annotations

import numpy as np

from . import _checks
from .rotary import _per_coordinate, _turn, rope
from .sinusoidal import LAYOUTS, frequencies, sinusoidal

__all__ = ["grid_positions", "sinusoidal_2d", "interpolate_table", "rope_2d", "mrope_position_ids",
           "mrope"]

#: Qwen2-VL's sections of rotary pairs (time, height, width) for its heads of width 128.
QWEN2_VL_SECTIONS = (16, 24, 24)


def grid_positions(height, width):
    """The (row, column) of each token of a ``height x width`` grid read row by row: ``(height * width, 2)``.

    >>> grid_positions(2, 3)
    array([[0, 0],
           [0, 1],
           [0, 2],
           [1, 0],
           [1, 1],
           [1, 2]])
    """
    height, width = _validate_grid_positions(height, width)
    i = np.arange(height * width)
    return np.stack([i // width, i % width], axis=1)


def _validate_grid_positions(height, width):
    """The checks of :func:`grid_positions`: two sizes >= 1, and the cap."""
    height = _checks.positive_int("height", height)
    width = _checks.positive_int("width", width)
    # the index, its row, its column, and the pairs
    _checks.entries(f"height * width = {_checks.show(height)} * {_checks.show(width)}",
                    5 * height * width)
    return height, width


def sinusoidal_2d(height, width, d_model, *, base=10000.0, layout="halves"):
    r"""The 2-D sine-cosine table of MAE: one row per patch, row by row.

    The patch in row :math:`r`, column :math:`c` is row :math:`r \cdot
    width + c` of the table, and

    .. math::

        \mathrm{PE}_{2D}(r, c) = \big[\,\mathrm{PE}(c),\; \mathrm{PE}(r)\,\big]

    where :math:`\mathrm{PE}` is the 1-D table of :func:`posenc.sinusoidal`
    of width ``d_model / 2``: the first half of the columns encodes the
    column index, the second half the row index.

    Parameters
    ----------
    height, width : int
        The grid, in patches (at least 1 each).
    d_model : int
        Width of the table; divisible by 4, so that each half holds whole
        (sine, cosine) pairs.
    base : float, default 10000.0
        As in :func:`posenc.frequencies`.
    layout : {"halves", "interleaved"}, default "halves"
        Layout of each half: ``"halves"`` (sines, then cosines) is MAE's.

    Returns
    -------
    numpy.ndarray of shape ``(height * width, d_model)``
        In float64. With ``layout="halves"`` it equals MAE's
        ``get_2d_sincos_pos_embed(d_model, grid_size)`` (computed in float64)
        for a square grid, to rounding (about 1e-15).

    Examples
    --------
    >>> pe = sinusoidal_2d(2, 3, 8)
    >>> pe.shape
    (6, 8)
    >>> pe[4].round(4)  # row 1, column 1: [PE(1), PE(1)]
    array([0.8415, 0.01  , 0.5403, 1.    , 0.8415, 0.01  , 0.5403, 1.    ])
    >>> bool((pe[1, 4:] == pe[0, 4:]).all())  # the same row: the same second half
    True
    """
    _validate_sinusoidal_2d(height, width, d_model, layout)
    half = d_model // 2
    by_column = sinusoidal(width, half, base=base, layout=layout)  # (width, d/2)
    by_row = sinusoidal(height, half, base=base, layout=layout)  # (height, d/2)
    rows, cols = grid_positions(height, width).T
    return np.concatenate([by_column[cols], by_row[rows]], axis=1)


def _validate_sinusoidal_2d(height, width, d_model, layout):
    """The checks of :func:`sinusoidal_2d`: sizes, a width of whole pairs in each half, the cap."""
    height = _checks.positive_int("height", height)
    width = _checks.positive_int("width", width)
    d_model = _checks.positive_int("d_model", d_model)
    if d_model % 4:
        raise ValueError(
            f"d_model must be divisible by 4 (two halves of whole sine-cosine pairs), got {d_model}"
        )
    _checks.choice("layout", layout, LAYOUTS)
    # the table and its two halves, and the grid's positions
    _checks.entries(f"height * width * d_model = {_checks.show(height)} * {_checks.show(width)} "
                    f"* {_checks.show(d_model)}", 2 * height * width * d_model + 5 * height * width)


def _cubic_weights(n_in, n_out):
    r"""The ``(n_out, n_in)`` matrix of PyTorch's bicubic interpolation along one axis.

    As ``torch.nn.functional.interpolate(mode="bicubic",
    align_corners=False)`` computes it (``upsample_bicubic2d``): output
    :math:`j` reads the input at :math:`x = (j + 1/2)\,n_{in}/n_{out} - 1/2`,
    from the four inputs around it, :math:`\lfloor x \rfloor - 1` to
    :math:`\lfloor x \rfloor + 2`, clamped to the edges, weighted by Keys'
    cubic convolution kernel with :math:`a = -0.75`.

    >>> _cubic_weights(2, 2)  # the same size: the identity
    array([[1., 0.],
           [0., 1.]])
    >>> bool(np.allclose(_cubic_weights(3, 6).sum(axis=1), 1))  # weights sum to 1
    True
    """
    a = -0.75

    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    x = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
    start = np.floor(x)
    t = x - start
    kernel = np.stack([far(t + 1), near(t), near(1 - t), far(2 - t)], axis=1)  # (n_out, 4)
    where = np.clip(start[:, None].astype(int) + np.arange(-1, 3), 0, n_in - 1)
    weights = np.zeros((n_out, n_in))
    np.add.at(weights, (np.arange(n_out)[:, None], where), kernel)
    return weights


def interpolate_table(table, grid, new_grid):
    r"""A table over a grid of patches, resized to another grid by bicubic interpolation.

    What DeiT's and MAE's ``interpolate_pos_embed`` do to a learned table
    before fine-tuning at a higher resolution: the table is laid out as an
    image of ``d`` channels, ``table[r * width + c]`` at pixel ``(r, c)``,
    and resized with ``torch.nn.functional.interpolate(..., mode="bicubic",
    align_corners=False)``. Each output row of the grid is a weighted sum
    of the 4 x 4 input rows around the point it maps to, with Keys' cubic
    kernel (:math:`a = -0.75`) along each axis; rows past the edge repeat
    the edge.

    Parameters
    ----------
    table : array_like of shape ``(height * width, d)``
        One row per patch, row by row.
    grid : (int, int)
        ``(height, width)`` of ``table``.
    new_grid : (int, int)
        The grid to resize to.

    Returns
    -------
    numpy.ndarray of shape ``(new_height * new_width, d)``
        In float64 (float32 stays float32).

    Examples
    --------
    >>> table = np.arange(4.0).reshape(4, 1)  # a 2 x 2 grid: 0 1 / 2 3
    >>> interpolate_table(table, (2, 2), (2, 2)).ravel()  # the same grid: unchanged
    array([0., 1., 2., 3.])
    >>> interpolate_table(table, (2, 2), (1, 1)).ravel()  # one patch: the centre
    array([1.5])
    """
    table, (height, width), (new_height, new_width) = _validate_interpolate_table(table, grid, new_grid)
    image = table.astype(np.float64).reshape(height, width, -1)
    rows, cols = _cubic_weights(height, new_height), _cubic_weights(width, new_width)
    with np.errstate(over="ignore", invalid="ignore"):  # refused by name just below
        out = np.einsum("Rr,rcd,Cc->RCd", rows, image, cols)  # each axis in turn
    dtype = table.dtype if table.dtype.kind == "f" else np.dtype(np.float64)
    return _checks.rounded(out.reshape(new_height * new_width, -1), dtype, _OVERSHOOT, "table", table)


# Keys' kernel has negative lobes: next to a sharp step the result overshoots the table
_OVERSHOOT = "table resized bicubically (Keys' kernel overshoots its inputs next to a sharp step)"


def _validate_interpolate_table(table, grid, new_grid):
    """The checks of :func:`interpolate_table`: the table, its two grids, and the cap."""
    height, width = _grid("grid", grid)
    new_height, new_width = _grid("new_grid", new_grid)
    table = _checks.real_array("table", table, ndim=2)
    if len(table) != height * width:
        raise ValueError(
            f"table must have one row per patch of grid {(height, width)}, "
            f"{height * width} rows, got {len(table)}"
        )
    d = table.shape[1]
    # the weights along each axis, the table in float64, the result (twice, when it is rounded)
    _checks.entries(f"new_grid = {_checks.show((new_height, new_width))} from grid = "
                    f"{(height, width)} with {d} columns: the weights new_height * height + "
                    "new_width * width, and the tables",
                    new_height * height + new_width * width + 16 * (new_height + new_width)
                    + height * width * d + 2 * new_height * new_width * d)
    return table, (height, width), (new_height, new_width)


def _grid(name, value):
    """A grid's ``(height, width)``, two integers >= 1."""
    if not _checks.is_sequence(value) or len(value) != 2:
        raise TypeError(f"{name} must be a pair (height, width) of integers, got {_checks.show(value)}")
    return (_checks.positive_int(f"{name}[0]", value[0]), _checks.positive_int(f"{name}[1]", value[1]))


def rope_2d(x, positions, *, base=100.0, layout="interleaved"):
    r"""Axial 2-D RoPE: half of each vector turned by the column, half by the row.

    For a vector :math:`x = [x_a, x_b]` of width :math:`d` at row :math:`r`,
    column :math:`c`:

    .. math::

        \mathrm{RoPE}_{2D}(x; r, c) = \big[\,\mathrm{RoPE}(x_a; c),\;
        \mathrm{RoPE}(x_b; r)\,\big]

    each a 1-D :func:`posenc.rope` of head width :math:`d/2`, with the
    frequencies :math:`\theta_i = \mathrm{base}^{-4i/d}`. The score of a
    turned query and key then depends only on the offset
    :math:`(r' - r, c' - c)`, as in 1-D:
    :math:`\langle \mathrm{RoPE}_{2D}(q; r, c), \mathrm{RoPE}_{2D}(k; r', c')
    \rangle = \langle q_a, R((c' - c)\theta)\, k_a\rangle + \langle q_b,
    R((r' - r)\theta)\, k_b\rangle`.

    This is the RoPE-Axial of Heo et al. (2024) (``compute_axial_cis`` in
    their code: base 100, interleaved pairs, the first half for the column
    ``x`` and the second for the row ``y``).

    Parameters
    ----------
    x : array_like of shape ``(..., n, d)``
        Queries or keys, one row per patch; ``d`` divisible by 4.
    positions : array_like of shape ``(n, 2)``
        The (row, column) of each patch (any real numbers; see
        :func:`grid_positions` for a whole grid).
    base : float, default 100.0
        Base of the frequency ladder (Heo et al. use 100).
    layout : {"interleaved", "halves"}, default "interleaved"
        Which coordinates of each half form a pair, as in :func:`posenc.rope`.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``, and the same dtype when ``x`` is floating.

    Examples
    --------
    >>> x = np.ones((2, 4))
    >>> rope_2d(x, [[0, 0], [1, 0]]).round(4)  # one row down: only the second half turns
    array([[ 1.    ,  1.    ,  1.    ,  1.    ],
           [ 1.    ,  1.    , -0.3012,  1.3818]])
    """
    x, positions = _validate_rope_2d(x, positions, base)
    half = x.shape[-1] // 2
    by_column = rope(x[..., :half], positions[:, 1], base=base, layout=layout)
    by_row = rope(x[..., half:], positions[:, 0], base=base, layout=layout)
    return np.concatenate([by_column, by_row], axis=-1)


def _validate_rope_2d(x, positions, base):
    """The checks of :func:`rope_2d`: two halves of whole pairs, a (row, column) per row, a base."""
    x = _checks.real_array("x", x, min_ndim=2)
    n, d = x.shape[-2], x.shape[-1]
    if d % 4 or d == 0:
        raise ValueError(
            f"the last dimension of x must be divisible by 4 (two halves of whole pairs), got {d}"
        )
    positions = _checks.real_array("positions", positions, ndim=2)
    if positions.shape != (n, 2):
        raise ValueError(
            f"positions must hold one (row, column) per row of x, shape ({n}, 2), "
            f"got {positions.shape}"
        )
    _checks.real("base", base)  # None would be rope's own default, 10000, not this one's 100
    return x, positions


def _rope_2d_angles(rows, cols, d, base):
    """The angle of each pair of axial 2-D RoPE, ``(n, d/2)``: the column's pairs, then the row's."""
    theta = frequencies(d // 2, base=base)
    return np.concatenate([np.outer(cols, theta), np.outer(rows, theta)], axis=1)


def mrope_position_ids(segments, *, spatial_merge_size=1):
    r"""Qwen2-VL's three position ids (time, height, width) for text and images in one sequence.

    The segments are read in order, with a counter :math:`s` that starts at 0:

    * ``("text", n)``: ``n`` tokens with three equal ids
      :math:`s, s + 1, \dots, s + n - 1`; then :math:`s \mathrel{+}= n`;
    * ``("image", (t, h, w))``: an image (or a video of ``t`` frames) of
      ``h x w`` patches, merged by ``spatial_merge_size`` into
      :math:`h' \times w' = (h/m) \times (w/m)` tokens per frame, read frame by
      frame, row by row; the token at frame :math:`\tau`, row :math:`r`,
      column :math:`c` gets the ids :math:`(s + \tau, s + r, s + c)`. The next
      segment starts after the largest id used:
      :math:`s \mathrel{+}= \max(t, h', w')`.

    This is ``get_rope_index`` of Qwen2-VL in Hugging Face Transformers (4.x),
    where the text includes the ``<|vision_start|>`` and ``<|vision_end|>``
    tokens around each image.

    Parameters
    ----------
    segments : sequence of ``("text", n)`` and ``("image", (t, h, w))``
        ``n >= 0``; ``t, h, w >= 1``, with ``h`` and ``w`` in patches before
        merging, both divisible by ``spatial_merge_size``.
    spatial_merge_size : int, default 1
        How many patches along each side are merged into one token
        (Qwen2-VL: 2, so each token covers 2 x 2 patches).

    Returns
    -------
    numpy.ndarray of int64, shape ``(3, n_tokens)``
        Rows: time, height, width.

    Notes
    -----
    Transformers 5.x rewrote ``get_rope_index``: it advances the counter
    past an image or video by ``max(h, w) // spatial_merge_size``, whatever
    ``t``. The two agree on images (``t = 1``) and on videos with
    ``t <= max(h', w')``; after a longer video, 5.x gives the next text ids
    that the video's last frames already use, and this function does not.

    Examples
    --------
    >>> mrope_position_ids([("text", 2), ("image", (1, 4, 6)), ("text", 2)],
    ...                    spatial_merge_size=2)
    array([[0, 1, 2, 2, 2, 2, 2, 2, 5, 6],
           [0, 1, 2, 2, 2, 3, 3, 3, 5, 6],
           [0, 1, 2, 3, 4, 2, 3, 4, 5, 6]])
    """
    segments, m = _validate_mrope_position_ids(segments, spatial_merge_size)
    pieces, start = [], 0
    for kind, size in segments:
        if kind == "text":
            ids = np.broadcast_to(start + np.arange(size), (3, size))
            step = size
        else:
            t, h, w = size[0], size[1] // m, size[2] // m
            tau, r, c = np.meshgrid(np.arange(t), np.arange(h), np.arange(w), indexing="ij")
            ids = start + np.stack([tau.ravel(), r.ravel(), c.ravel()])
            step = max(t, h, w)
        pieces.append(ids)
        start += step
    return np.concatenate(pieces, axis=1).astype(np.int64, copy=False) if pieces else np.zeros((3, 0), np.int64)


def _validate_mrope_position_ids(segments, spatial_merge_size):
    """The checked segments, as ``(kind, size)`` pairs, and the merge size; the cap on the ids."""
    m = _checks.positive_int("spatial_merge_size", spatial_merge_size)
    if not _checks.is_sequence(segments):
        raise TypeError(
            f"segments must be a list of ('text', n) and ('image', (t, h, w)) items, "
            f"got {_checks.show(segments)}"
        )
    segments = [_segment(j, segment, m) for j, segment in enumerate(segments)]
    tokens = [n if kind == "text" else n[0] * n[1] * n[2] // m**2 for kind, n in segments]
    # the ids of every token, and then joined; the grid of ids of the largest image
    _checks.entries(f"3 ids for each of the {_checks.show(sum(tokens))} tokens of segments",
                    6 * sum(tokens) + 9 * max([0] + tokens))
    return segments, m


def _segment(j, segment, m):
    """Segment ``j``: ``("text", n)`` or ``("image", (t, h, w))``, checked."""
    name = f"segments[{j}]"
    if not _checks.is_sequence(segment) or len(segment) != 2:
        raise TypeError(f"{name} must be ('text', n) or ('image', (t, h, w)), got {_checks.show(segment)}")
    kind, size = segment
    _checks.choice(f"{name}[0]", kind, ("text", "image"))
    if kind == "text":
        return kind, _checks.integer(f"{name}[1]", size, minimum=0)
    if not _checks.is_sequence(size) or len(size) != 3:
        raise TypeError(f"{name}[1] must be the image's (t, h, w), three integers, got {_checks.show(size)}")
    t, h, w = (_checks.positive_int(f"{name}[1][{k}]", v) for k, v in enumerate(size))
    for what, v in (("h", h), ("w", w)):
        if v % m:
            raise ValueError(
                f"{name}: the image's {what} = {_checks.show(v)} patches is not divisible by "
                f"spatial_merge_size = {m}: {m} x {m} patches make one token"
            )
    # the image's grid of ids: three of each token, made three times over
    _checks.entries(f"{name}: t * h * w = {t} * {h} * {w}", 9 * t * h * w // m**2)
    return kind, (t, h, w)


def mrope(x, position_ids, *, sections, base=10000.0):
    r"""Multimodal RoPE (Qwen2-VL): each section of pairs turned by one of three ids.

    The :math:`d/2` rotary pairs of a head (halves layout: pair :math:`i` is
    coordinates :math:`i` and :math:`i + d/2`) are cut into consecutive
    sections of ``sections[0], sections[1], ...`` pairs. Pair :math:`i` of
    section :math:`j` turns by the angle :math:`p_{j \bmod 3}\,\theta_i`,
    where :math:`(p_0, p_1, p_2)` are the token's (time, height, width) ids and
    :math:`\theta_i = \mathrm{base}^{-2i/d}`. Qwen2-VL's heads (width 128)
    use ``sections=(16, 24, 24)``: the 16 fastest pairs follow time, the next
    24 the height, the 24 slowest the width.

    For a text token the three ids are equal, and ``mrope`` is then exactly
    ``rope(x, ids, layout="halves")``.

    Parameters
    ----------
    x : array_like of shape ``(..., n, d)``
        Queries or keys, one row per token.
    position_ids : array_like of shape ``(3, n)``
        The ids of each token, as :func:`mrope_position_ids` gives them.
    sections : sequence of int
        Pairs per section, each >= 0, adding up to ``d / 2``.
    base : float, default 10000.0
        Base of the frequency ladder (Qwen2-VL's ``rope_theta`` is 1,000,000).

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``, and the same dtype when ``x`` is floating. The
        angles and the rotation are computed in float64, rounded once.

    Notes
    -----
    Hugging Face Transformers computes the same thing: in 4.x,
    ``apply_multimodal_rotary_pos_emb`` splits ``cos`` and ``sin``, both of
    width ``d``, by ``mrope_section * 2`` and takes chunk ``k`` from id
    ``k % 3`` (equal to this rule when the number of sections is a multiple
    of 3, as Qwen2-VL's three are); in 5.x,
    ``Qwen2VLRotaryEmbedding.recomposition_frequencies`` splits the
    ``d / 2`` angles by ``mrope_section`` and takes section ``j`` from id
    ``j % 3``. Qwen3-VL interleaves the ids pair by pair instead, which is
    ``sections=[1] * 60 + [4]`` here (chapter 8).

    Examples
    --------
    >>> x = np.ones((2, 8))
    >>> ids = [[0, 0], [0, 1], [0, 2]]  # time 0; height 0, 1; width 0, 2
    >>> mrope(x, ids, sections=[2, 1, 1], base=100.0).round(4)[1]
    array([1.    , 1.    , 0.8952, 0.9348, 1.    , 1.    , 1.0948, 1.0612])
    >>> text = np.array([[3, 4], [3, 4], [3, 4]])  # equal ids: plain RoPE
    >>> bool(np.array_equal(mrope(x, text, sections=[2, 1, 1]),
    ...                     rope(x, [3, 4], layout="halves")))
    True
    """
    x, ids, sections = _validate_mrope(x, position_ids, sections)
    theta = frequencies(x.shape[-1], base=base)  # (d/2,)
    follows = np.repeat(np.arange(len(sections)) % 3, sections)  # which id each pair follows
    angles = ids.astype(np.float64)[follows].T * theta  # (n, d/2); finite, as theta <= 1
    cos = _per_coordinate(np.cos(angles), "halves")
    sin = _per_coordinate(np.sin(angles), "halves")
    with np.errstate(over="ignore", invalid="ignore"):  # refused by name just below
        turned = _turn(x.astype(np.float64), cos, sin, "halves")
    dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    return _checks.rounded(turned, dtype, "x turned by its angles", "x", x)


def _validate_mrope(x, position_ids, sections):
    """The checks of :func:`mrope`: three ids per row of ``x``, sections that fill its pairs."""
    x = _checks.real_array("x", x, min_ndim=2)
    n, d = x.shape[-2], x.shape[-1]
    ids = _checks.real_array("position_ids", position_ids, ndim=2)
    if ids.shape != (3, n):
        raise ValueError(
            f"position_ids must hold three ids (time, height, width) per row of x, "
            f"shape (3, {n}), got {ids.shape}"
        )
    sections = _sections(sections)
    if d != 2 * sum(sections):
        raise ValueError(
            f"sections must add up to d / 2 pairs, {d // 2} for x of width {d} "
            f"(d = 2 * sum(sections)); got {list(sections)}, which add up to {sum(sections)}"
        )
    if d == 0:
        raise ValueError("the last dimension of x must be even and at least 2 to form pairs, "
                         "got 0 (and sections hold no pair)")
    return x, ids, sections


def _sections(value):
    """Pairs per section: a non-empty sequence of integers >= 0."""
    if not _checks.is_sequence(value) or len(value) == 0:
        raise TypeError(
            f"sections must be a non-empty sequence of integers (pairs per section), "
            f"got {_checks.show(value)}"
        )
    if isinstance(value, np.ndarray) and value.ndim != 1:
        raise ValueError(f"sections must be 1-D, got shape {value.shape}")
    return [_checks.integer(f"sections[{j}]", v, minimum=0, maximum=2**20) for j, v in enumerate(value)]
